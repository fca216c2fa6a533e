"""What every question generator shares: the bank's sizes, the trajectories indexed by user,
the question record, and the helpers that draw and shuffle options.

Generators live by track: gen_profile.py (T1), gen_behaviour.py (T2), gen_change.py (T3),
gen_grounding.py (T4); generators.py puts them together. The rule they all follow: every
option's truth is decided by the ground truth (persona tiers, task dimensions, perturbation
records), and a distractor is only used when the ground truth makes it false.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .questions import Question
from .trajectories import Trajectory, effective_tiers
from .truth import PUBLISHED_COUNTS, SUBTASK_TRACK, Truth, profile_order


@dataclass
class BankSpec:
    """Which questions to generate: sizes per sub-task (default: the published counts)."""

    seed: int = 0
    sizes: dict[str, int] | None = None
    subtasks: Sequence[str] | None = None

    def size(self, sub: str) -> int:
        if self.sizes and sub in self.sizes:
            return self.sizes[sub]
        return PUBLISHED_COUNTS[sub]


def subtask_rng(seed: int, sub: str) -> random.Random:
    """Each sub-task draws from its own stream, so adding questions to one moves no other."""
    return random.Random(f"{seed}:{sub}")


def mismatch(a: dict[str, str], b: dict[str, str], dims: Sequence[str]) -> int:
    """On how many of `dims` two tier assignments differ."""
    return sum(1 for d in dims if a.get(d) != b.get(d))


def shuffle_options(rng: random.Random, options: list[tuple[str, Any]], correct: int) -> tuple[list[str], list[Any], int]:
    """(texts, claims, index of the correct one) of (text, claim) options in a random order."""
    order = list(range(len(options)))
    rng.shuffle(order)
    texts = [options[i][0] for i in order]
    claims = [options[i][1] for i in order]
    return texts, claims, order.index(correct)


def sample(rng: random.Random, items: list[Any], n: int) -> list[Any]:
    """n of the items at random (all of them, in order, when there are no more than n)."""
    if len(items) <= n:
        return list(items)
    return rng.sample(items, n)


class QuestionIndex:
    """The trajectories a bank is generated from, by key and by user, with their truth."""

    def __init__(self, trajs: Sequence[Trajectory], truth: Truth):
        self.truth = truth
        self.by_key = {t.key: t for t in trajs}
        self.by_profile: dict[str, list[Trajectory]] = defaultdict(list)
        for t in trajs:
            if t.profile_id in truth.profiles and t.task_id:
                self.by_profile[t.profile_id].append(t)
        for v in self.by_profile.values():
            v.sort(key=lambda t: t.task_id or "")
        self.profiles = profile_order(self.by_profile)

    def eff(self, t: Trajectory) -> dict[str, str]:
        return effective_tiers(self.truth.tiers(t.profile_id), t)

    def dims(self, t: Trajectory) -> tuple[str, ...]:
        """The dimensions this trajectory can show and whose truth is known (a real user may
        state only some of their tiers)."""
        known = self.truth.tiers(t.profile_id)
        return tuple(d for d in self.truth.task_dims(t.task_id) if d in known)

    def title(self, task_id: str | None) -> str:
        task = self.truth.tasks.get(task_id or "")
        return f"{task_id} ({task.title})" if task and task.title else str(task_id)


def make_question(sub: str, n: int, channel: str, pid: str | None, inputs: list[str], text: str,
                  choices: list[str], correct: int | str, **meta: Any) -> Question:
    """Question number n of a sub-task, with its track and the metadata given."""
    return Question(f"{sub}-{n:04d}", SUBTASK_TRACK[sub], sub, channel, pid, inputs, text, choices, correct, meta)
