"""FileGramEngine: persona-driven simulation of file work with known ground truth.

Offline and deterministic: `plan_trajectory` turns a profile and a task into a plan of file
operations; `run_fast` derives its trace in memory, `run_live` performs it on disk for the
real recorder, and the agent mode lets an LLM act the persona through tools. Names are
resolved lazily so that `filegram --help` does not pay for the engine.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "CANDIDATE_TASKS": "perturb",
    "DIMENSIONS": "profiles",
    "PROFILES": "profiles",
    "TASKS": "tasks",
    "Plan": "plan",
    "Profile": "profiles",
    "Step": "plan",
    "Task": "tasks",
    "perturbation_for": "perturb",
    "plan_trajectory": "policy",
    "planned_seconds": "live",
    "prepare_sandbox": "live",
    "run_fast": "fast",
    "run_live": "live",
    "simulate": "runner",
}
__all__ = [
    "CANDIDATE_TASKS",
    "DIMENSIONS",
    "PROFILES",
    "TASKS",
    "Plan",
    "Profile",
    "Step",
    "Task",
    "perturbation_for",
    "plan_trajectory",
    "planned_seconds",
    "prepare_sandbox",
    "run_fast",
    "run_live",
    "simulate",
]

if TYPE_CHECKING:  # pragma: no cover
    from .fast import run_fast
    from .live import planned_seconds, prepare_sandbox, run_live
    from .perturb import CANDIDATE_TASKS, perturbation_for
    from .plan import Plan, Step
    from .policy import plan_trajectory
    from .profiles import DIMENSIONS, PROFILES, Profile
    from .runner import simulate
    from .tasks import TASKS, Task


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'filegram.simulator' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
