"""Behaviour policies: how one persona works through one task, as a stochastic plan.

The planner (planner.py) turns the persona's tiers into traits and keeps the workspace model;
the behaviours act out one dimension each: reading.py (A), producing.py (B, F), tidying.py
(C, E), revising.py (D). This module orders them by task type. See docs/simulator.md for the
tables.
"""

from __future__ import annotations

from .plan import Plan
from .planner import BASE_EPOCH_MS, Planner, stable_seed
from .producing import new_note, produce
from .profiles import PROFILES, Profile
from .reading import consume
from .revising import iterate
from .tasks import TASKS, Task
from .tidying import curate, organise

__all__ = ["BASE_EPOCH_MS", "Planner", "build", "plan_trajectory"]


def build(planner: Planner) -> Plan:
    """The whole task: the phases in the order its type asks for."""
    t = planner.task
    consume(planner)
    if t.type == "organize":
        organise(planner)
        produce(planner)
    elif t.type in ("iterate", "maintain"):
        if "B" in t.dims or t.type == "maintain" or planner.rng.random() < 0.5:
            produce(planner)
        organise(planner)
        if t.id == "T-18":  # three rounds: new material arrives, the base is updated each time
            for k in range(1, 4):
                new_note(planner, k)
                iterate(planner, 1)
        else:
            iterate(planner, 1)
    else:
        produce(planner)
        organise(planner)
        iterate(planner)
    curate(planner)
    if planner.rng.random() < planner.mix("A", 0.2, 0.2, 0.6):
        planner.add("ls", path="")
    start = BASE_EPOCH_MS + (int(t.id[2:]) * 86_400_000) + stable_seed(planner.profile.id, planner.seed) % 3_600_000
    return Plan(planner.profile.id, t.id, planner.seed, planner.lang, planner.tiers, planner.pert, float(start),
                planner.steps, planner.traits, dict(planner.acted), planner.scale, planner.expression)


def check_knobs(scale: float, expression: float) -> None:
    """One clear error for a scale or expression out of range (before any work starts)."""
    from filegram.errors import FileGramError

    if not (isinstance(scale, int | float) and 0.0 < float(scale) <= 100.0):
        raise FileGramError(f"--scale must be a number above 0 (at most 100), got {scale!r}")
    if not (isinstance(expression, int | float) and 0.0 < float(expression) <= 1.0):
        raise FileGramError(f"--expression must be above 0 and at most 1, got {expression!r}")


def plan_trajectory(profile: str | Profile, task: str | Task, seed: int = 0, *, scale: float = 1.0,
                    expression: float = 1.0) -> Plan:
    """One persona's plan for one task; the same arguments always give the same plan.

    `scale` multiplies the person's verbosity and activity, `expression` is the probability
    that the session acts out each active dimension (docs/simulator.md)."""
    from filegram.errors import FileGramError

    check_knobs(scale, expression)
    try:
        p = PROFILES[profile] if isinstance(profile, str) else profile
        t = TASKS[task] if isinstance(task, str) else task
    except KeyError as exc:
        raise FileGramError(f"unknown profile or task {exc.args[0]!r}") from None
    return build(Planner(p, t, int(seed), scale=float(scale), expression=float(expression)))
