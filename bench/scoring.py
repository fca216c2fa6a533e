"""Accuracy per sub-task, per channel and overall, from the per-question predictions."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .questions import Question
from .truth import CHANNELS, SUBTASK_KEYS


@dataclass
class Prediction:
    question_id: str
    method: str
    prediction: int | str
    score: float  # 1/0 for multiple choice; 0..1 for judged open answers

    def as_dict(self) -> dict[str, Any]:
        return {"question_id": self.question_id, "method": self.method,
                "prediction": self.prediction, "score": self.score}


def score_choice(q: Question, pred: int) -> float:
    return 1.0 if int(pred) == int(q.correct) else 0.0


@dataclass
class Table:
    """accuracy[method][subtask] in percent, plus per-channel and overall means."""

    methods: list[str]
    subtasks: dict[str, dict[str, float]] = field(default_factory=dict)  # sub -> method -> acc (0-1)
    channels: dict[str, dict[str, float]] = field(default_factory=dict)
    overall: dict[str, float] = field(default_factory=dict)
    mc_average: dict[str, float] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)


def aggregate(questions: Sequence[Question], preds: Iterable[Prediction], methods: Sequence[str]) -> Table:
    by_id = {q.question_id: q for q in questions}
    per: dict[tuple[str, str], list[float]] = defaultdict(list)
    per_ch: dict[tuple[str, str], list[float]] = defaultdict(list)
    per_all: dict[str, list[float]] = defaultdict(list)
    for p in preds:
        q = by_id.get(p.question_id)
        if q is None:
            continue
        per[(q.sub_track, p.method)].append(p.score)
        per_ch[(q.channel, p.method)].append(p.score)
        per_all[p.method].append(p.score)
    t = Table(list(methods))
    for sub in SUBTASK_KEYS:
        n = sum(1 for q in questions if q.sub_track == sub)
        if n:
            t.counts[sub] = n
            t.subtasks[sub] = {m: _mean(per[(sub, m)]) for m in methods if per[(sub, m)]}
    for chn in CHANNELS:
        vals = {m: _mean(per_ch[(chn, m)]) for m in methods if per_ch[(chn, m)]}
        if vals:
            t.channels[chn] = vals
    t.overall = {m: _mean(per_all[m]) for m in methods if per_all[m]}
    for m in methods:
        subs = [t.subtasks[s][m] for s in t.subtasks if s not in ("ProfRec", "VisGrd") and m in t.subtasks[s]]
        if subs:
            t.mc_average[m] = sum(subs) / len(subs)
    return t


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def chance(q: Question) -> float:
    return 1.0 / len(q.choices) if q.choices else 0.0
