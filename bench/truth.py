"""Ground truth the bench asks about: dimensions, tiers, attributes, profiles and tasks.

Dimension names and table 2's tier descriptions are the core's vocabulary (filegram.vocab);
options are not worded with them but with the bench's own paraphrases (wording.py), so no
method can match an option by repeating memory's words. Profiles, tasks and attributes come
from the simulator at run time (it owns the paper's Table 9 and task table).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from filegram.vocab import DIM_IDS as DIMS
from filegram.vocab import DIMENSION_NAMES as DIM_NAMES
from filegram.vocab import TIER_DESCRIPTIONS, TIERS, dimension_label

# Sub-tasks in the order of the published table: key, track, title, published count,
# format, channel (None = per question).
SUBTASKS: tuple[tuple[str, str, str, int], ...] = (
    ("AttrRec", "T1", "Attribute Recognition", 326),
    ("BehavFP", "T1", "Behavioral Fingerprint", 560),
    ("ProfRec", "T1", "Profile Reconstruction", 320),
    ("BehavInf", "T2", "Behavioral Inference", 560),
    ("TraceDis", "T2", "Trace Disentanglement", 1134),
    ("AnomDet", "T3", "Anomaly Detection", 815),
    ("ShiftAna", "T3", "Shift Analysis", 288),
    ("FileGrd", "T4", "File Grounding", 550),
    ("VisGrd", "T4", "Visual Grounding", 100),
)
SUBTASK_KEYS: tuple[str, ...] = tuple(s[0] for s in SUBTASKS)
SUBTASK_TITLE: dict[str, str] = {s[0]: s[2] for s in SUBTASKS}
SUBTASK_TRACK: dict[str, str] = {s[0]: s[1] for s in SUBTASKS}
PUBLISHED_COUNTS: dict[str, int] = {s[0]: s[3] for s in SUBTASKS}
OPEN_SUBTASKS: frozenset[str] = frozenset({"ProfRec", "VisGrd"})
CHANNELS: tuple[str, ...] = ("procedural", "semantic", "episodic")

# Published accuracy (%), Gemini 2.5 Flash answerer (filegram.md section 6). None = not run.
PUBLISHED: dict[str, dict[str, float | None]] = {}
_PUB = """
No Context   | 36.2 25.7 -    17.4 36.9 19.0 20.5 23.8 -   25.4
Full Context | 40.5 31.1 50.0 30.6 80.5 36.8 37.8 42.5 7.0 48.0
Naive RAG    | 48.2 27.7 46.8 26.4 64.1 38.4 20.1 35.1 5.5 40.5
Eager Summ.  | 45.1 29.6 55.6 39.3 65.9 59.7 36.1 44.0 6.5 49.5
VisRAG       | 53.4 33.2 56.3 32.9 72.8 64.5 35.4 45.3 7.0 51.9
Mem0         | 44.2 26.4 48.1 21.4 50.4 23.8 28.5 29.5 4.0 33.2
EverMemOS    | 48.8 30.2 57.7 39.3 62.2 71.4 38.9 44.5 7.5 49.9
FileGramOS   | 50.6 35.2 54.2 42.1 80.9 70.2 37.8 55.8 8.5 59.6
"""
for _line in _PUB.strip().splitlines():
    _name, _vals = _line.split("|")
    _nums = [None if v == "-" else float(v) for v in _vals.split()]
    PUBLISHED[_name.strip()] = dict(zip((*SUBTASK_KEYS, "Avg"), _nums, strict=True))

# Our method names -> the published row they correspond to.
PUBLISHED_ROW: dict[str, str] = {
    "no_context": "No Context",
    "full_context": "Full Context",
    "naive_rag": "Naive RAG",
    "eager_summ": "Eager Summ.",
    "mem0_flat": "Mem0",
    "filegramos": "FileGramOS",
}

# Channel that should answer a question about a dimension: counts of actions answer A, C,
# D, E; the content of what was written answers B and F.
DIM_CHANNEL: dict[str, str] = {
    "A": "procedural",
    "B": "semantic",
    "C": "procedural",
    "D": "procedural",
    "E": "procedural",
    "F": "semantic",
}


def tier_text(dim: str, tier: str) -> str:
    """Table 2's wording of one tier of one dimension (open answers, the reader's ceiling)."""
    return TIER_DESCRIPTIONS[dim][tier]


def dim_label(dim: str) -> str:
    """A dimension as the options name it, e.g. C (Organization)."""
    return dimension_label(dim)


@dataclass(frozen=True)
class ProfileTruth:
    id: str
    tiers: dict[str, str]
    name: str = ""
    role: str = ""


@dataclass(frozen=True)
class TaskTruth:
    id: str
    dims: tuple[str, ...]
    title: str = ""
    type: str = ""


@dataclass
class Truth:
    """Everything a question generator needs to know about who the users really are."""

    profiles: dict[str, ProfileTruth]
    tasks: dict[str, TaskTruth]
    # attribute -> (dimension, {tier: description})
    attributes: dict[str, tuple[str, dict[str, str]]] = field(default_factory=dict)

    def tiers(self, profile_id: str) -> dict[str, str]:
        return self.profiles[profile_id].tiers

    def task_dims(self, task_id: str) -> tuple[str, ...]:
        t = self.tasks.get(task_id)
        return t.dims if t else DIMS


def load_truth() -> Truth:
    """Profiles, tasks and attributes from the simulator (the owner of the ground truth)."""
    try:
        from filegram import simulator as sim

        profiles = getattr(sim, "PROFILES", None)
        tasks = getattr(sim, "TASKS", None)
        if profiles is None or tasks is None:
            from filegram.simulator.profiles import PROFILES as profiles  # noqa: N811
            from filegram.simulator.tasks import TASKS as tasks  # noqa: N811
        try:
            from filegram.simulator.profiles import ATTRIBUTE_SCHEMA as attrs
        except ImportError:
            attrs = {}
    except ImportError as exc:
        from filegram.errors import FileGramError

        raise FileGramError(f"the bench needs the simulator's profiles and tasks: {exc}") from exc
    return Truth(
        profiles={
            pid: ProfileTruth(pid, dict(p.tiers), getattr(p, "name", ""), getattr(p, "role", ""))
            for pid, p in profiles.items()
        },
        tasks={
            tid: TaskTruth(tid, tuple(t.dims), getattr(t, "title", ""), getattr(t, "type", ""))
            for tid, t in tasks.items()
        },
        attributes={k: (v[0], dict(v[1])) for k, v in dict(attrs).items()} or default_attributes(),
    )


def default_attributes() -> dict[str, tuple[str, dict[str, str]]]:
    """One attribute per dimension, worded as the dimension, when no schema is available."""
    return {f"{DIM_NAMES[d].lower()}_style": (d, {t: tier_text(d, t) for t in TIERS}) for d in DIMS}


def profile_order(ids: Any) -> list[str]:
    """p1, p2, ..., p10 (numeric order, not string order)."""

    def key(pid: str) -> tuple[int, str]:
        digits = "".join(c for c in pid if c.isdigit())
        return (int(digits) if digits else 10**9, pid)

    return sorted(ids, key=key)
