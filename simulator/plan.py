"""A plan is what one person does on one task, as a list of file operations with pauses.

Both executors consume the same plan: `fast` derives the trace from an in-memory workspace,
`live` performs each step on disk for the real recorder to observe. Steps are plain data so a
plan can be pickled to a worker process or printed for inspection.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Step:
    op: str  # ls read grep glob find write edit mkdir mv cp rm
    path: str = ""  # file or directory (relative to the workspace root; "" is the root)
    dest: str = ""  # mv / cp destination
    query: str = ""  # grep text, glob/find pattern
    content: bytes | None = None  # write / edit: the whole new content
    view_range: tuple[int, int] | None = None  # read: [first, last] line, 1-based
    pause_ms: float = 0.0  # time spent before this step (thinking, reading the last thing)

    def describe(self) -> str:
        if self.op in ("mv", "cp"):
            return f"{self.op} {self.path} {self.dest}"
        if self.op in ("grep", "glob", "find"):
            return f"{self.op} {self.query!r} {self.path or '.'}"
        if self.op == "read" and self.view_range:
            return f"read {self.path} [{self.view_range[0]},{self.view_range[1]}]"
        return f"{self.op} {self.path or '.'}"


@dataclass
class Plan:
    profile_id: str
    task_id: str
    seed: int
    language: str
    tiers: dict[str, str]  # effective tiers (after perturbation)
    perturbation: dict[str, dict[str, str]] | None  # {dim: {original, perturbed}} or None
    start_ms: float
    steps: list[Step] = field(default_factory=list)
    traits: dict[str, float] = field(default_factory=dict)  # position per dimension: tier + within-tier offset
    acted: dict[str, str] = field(default_factory=dict)  # active dimensions acted out -> the tier shown
    scale: float = 1.0  # verbosity and activity multiplier (docs/simulator.md)
    expression: float = 1.0  # probability of acting out an active dimension

    @property
    def name(self) -> str:
        return f"{self.profile_id}_{self.task_id}"

    @property
    def perturbed(self) -> bool:
        return bool(self.perturbation)

    def op_counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for s in self.steps:
            out[s.op] = out.get(s.op, 0) + 1
        return out

    def summary(self) -> dict[str, Any]:
        return {"profile_id": self.profile_id, "task_id": self.task_id, "seed": self.seed,
                "language": self.language, "tiers": self.tiers, "acted": self.acted, "scale": self.scale,
                "expression": self.expression, "steps": len(self.steps), "ops": self.op_counts()}
