"""The question bank: one record per question, stored as JSONL with the released columns.

Each question says which trajectories it is about (`input_trajectories`) and how a method
sees them (`metadata["context"]`): a user's history, one anonymous trajectory, two users
interleaved, a line-up of six, or only the files a trajectory produced. The structured
claims behind every option are kept in metadata so the ground truth can be re-checked.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from filegram.errors import FileGramError

COLUMNS = (
    "question_id",
    "track",
    "sub_track",
    "channel",
    "profile_id",
    "input_trajectories",
    "question",
    "choices",
    "correct",
    "metadata",
)


@dataclass
class Question:
    question_id: str
    track: str
    sub_track: str
    channel: str
    profile_id: str | None
    input_trajectories: list[str]
    question: str
    choices: list[str]
    correct: int | str
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def is_open(self) -> bool:
        return not self.choices

    @property
    def context_kind(self) -> str:
        return str(self.metadata.get("context", "history"))

    @property
    def labels(self) -> list[str]:
        """Label of each input trajectory as the method sees it (same order)."""
        return list(self.metadata.get("labels") or self.input_trajectories)

    def context_key(self) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
        return (self.context_kind, tuple(self.input_trajectories), tuple(self.labels))

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Question:
        missing = [c for c in COLUMNS if c not in d]
        if missing:
            raise FileGramError(f"question record lacks column(s): {', '.join(missing)}")
        return cls(**{c: d[c] for c in COLUMNS})


def write_jsonl(questions: Iterable[Question], path: Path) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with path.open("w", encoding="utf-8") as f:
        for q in questions:
            f.write(json.dumps(q.to_json(), ensure_ascii=False) + "\n")
            n += 1
    return n


def read_jsonl(path: Path) -> list[Question]:
    out = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise FileGramError(f"{path}: cannot read: {exc.strerror}") from exc
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            if not isinstance(record, dict):
                raise TypeError("not a JSON object")
            out.append(Question.from_json(record))
        except (json.JSONDecodeError, TypeError, FileGramError) as exc:
            raise FileGramError(f"{path}:{i}: not a question record: {exc}") from exc
    return out
