"""The reader's ceiling: the same offline answerer given the *true* tiers as evidence.

This is a diagnostic, not a method (it reads the ground truth, stated in table 2's words as
a perfect memory would print it). It tells a shortfall of
FileGramOS apart from a question or reader that cannot be answered: if the ceiling is 100%,
every point FileGramOS loses on a sub-task comes from its tier calls.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import reader
from .questions import Question
from .trajectories import Trajectory, effective_tiers
from .truth import Truth, dim_label, tier_text

CEILING_SUBTASKS = ("BehavFP", "TraceDis", "AnomDet")


def true_evidence(q: Question, trajs: dict[str, Trajectory], truth: Truth) -> str:
    lines = []
    for key, label in zip(q.input_trajectories, q.labels, strict=True):
        t = trajs[key]
        eff = effective_tiers(truth.tiers(t.profile_id), t)
        tagged = label.startswith("U")
        if not tagged:
            lines.append(f"### {label}")
        for d in truth.task_dims(t.task_id):
            if d in eff:
                lines.append((f"[{label}] " if tagged else "") + f"{dim_label(d)}: {tier_text(d, eff[d])}")
    return "\n".join(lines)


def reader_ceiling(questions: Sequence[Question], trajs: Sequence[Trajectory], truth: Truth) -> dict[str, float]:
    by_key = {t.key: t for t in trajs}
    hits: dict[str, list[float]] = {}
    for q in questions:
        if q.sub_track not in CEILING_SUBTASKS or not all(k in by_key for k in q.input_trajectories):
            continue
        if any(by_key[k].profile_id not in truth.profiles for k in q.input_trajectories):
            continue
        got = reader.answer_choice(q.question_id, q.question, q.choices, true_evidence(q, by_key, truth))
        hits.setdefault(q.sub_track, []).append(1.0 if got == q.correct else 0.0)
    return {s: sum(v) / len(v) for s, v in hits.items() if v}


def ceiling_section(ceiling: dict[str, float]) -> str:
    if not ceiling:
        return ""
    cells = ", ".join(f"{s} {100 * v:.1f}%" for s, v in ceiling.items())
    return ("## Reader ceiling\n\nThe same offline reader given the true session tiers (persona plus any "
            f"perturbation, on each task's dimensions) as its only evidence: {cells}. Where this is 100%, "
            "what FileGramOS loses on that sub-task comes from its tier calls (next section).")
