"""`--data PATH`: the published FileGramBench release, for users who have it.

Layout: PATH/signal/<profile>_<task>/ trajectory folders (events.json, summary.json,
media/...) and PATH/data/*.parquet question tables with the released columns. The parquet
files need pyarrow (`pip install filegram[official]`), imported only here. Cells are read
leniently (lists or JSON strings, letters or indices for the answer) because the release's
exact cell types are not documented; anything that cannot be understood is skipped with a
count in the report, never guessed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from filegram.errors import FileGramError

from .questions import COLUMNS, Question
from .trajectories import Trajectory, load_folder
from .truth import DIM_CHANNEL, SUBTASK_KEYS, SUBTASK_TRACK, Truth

_ALIASES = {
    "attrrec": "AttrRec", "attributerecognition": "AttrRec",
    "behavfp": "BehavFP", "behavioralfingerprint": "BehavFP", "behaviouralfingerprint": "BehavFP",
    "profrec": "ProfRec", "profilereconstruction": "ProfRec",
    "behavinf": "BehavInf", "behavioralinference": "BehavInf", "behaviouralinference": "BehavInf",
    "tracedis": "TraceDis", "tracedisentanglement": "TraceDis",
    "anomdet": "AnomDet", "anomalydetection": "AnomDet",
    "shiftana": "ShiftAna", "shiftanalysis": "ShiftAna",
    "filegrd": "FileGrd", "filegrounding": "FileGrd",
    "visgrd": "VisGrd", "visualgrounding": "VisGrd",
}
_CONTEXT = {"AttrRec": "history", "ProfRec": "history", "BehavInf": "history", "ShiftAna": "history",
            "BehavFP": "anonymous", "TraceDis": "interleaved", "AnomDet": "lineup", "FileGrd": "files",
            "VisGrd": "history"}


def subtask_key(name: Any) -> str | None:
    key = re.sub(r"[^a-z]", "", str(name or "").lower())
    return _ALIASES.get(key)


def _as_list(v: Any) -> list[Any]:
    if v is None:
        return []
    if hasattr(v, "tolist"):
        v = v.tolist()
    if isinstance(v, list | tuple):
        return list(v)
    if isinstance(v, str):
        s = v.strip()
        if s.startswith("["):
            try:
                got = json.loads(s)
                return list(got) if isinstance(got, list) else [got]
            except json.JSONDecodeError:
                pass
        if not s:
            return []
        return [p.strip() for p in re.split(r"\n|,(?![^()]*\))", s) if p.strip()]
    return [v]


def _as_dict(v: Any) -> dict[str, Any]:
    if isinstance(v, dict):
        return dict(v)
    if isinstance(v, str) and v.strip().startswith("{"):
        try:
            got = json.loads(v)
            return got if isinstance(got, dict) else {}
        except json.JSONDecodeError:
            return {}
    return {}


def _correct(v: Any, choices: list[str]) -> int | str | None:
    if not choices:
        return None if v is None else str(v)
    if isinstance(v, bool):
        return None
    if isinstance(v, int | float) and float(v).is_integer():
        i = int(v)
        return i if 0 <= i < len(choices) else None
    s = str(v or "").strip()
    if re.fullmatch(r"[A-Za-z]", s):
        i = ord(s.upper()) - ord("A")
        return i if i < len(choices) else None
    if re.fullmatch(r"\d+", s):
        i = int(s)
        return i if i < len(choices) else None
    if s in choices:
        return choices.index(s)
    return None


def _trajectory_key(v: Any) -> str:
    s = str(v).strip().rstrip("/")
    return s.rsplit("/", 1)[-1]


def read_parquet_rows(path: Path) -> list[dict[str, Any]]:
    try:
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise FileGramError("reading the official questions needs pyarrow: pip install 'filegram[official]'") from exc
    try:
        return pq.read_table(path).to_pylist()
    except Exception as exc:  # noqa: BLE001 - pyarrow raises several kinds
        raise FileGramError(f"{path}: not a readable parquet file: {str(exc).splitlines()[0][:160]}") from exc


def row_to_question(row: dict[str, Any], truth: Truth | None = None) -> Question | None:
    sub = subtask_key(row.get("sub_track"))
    if sub is None:
        return None
    choices = [str(c) for c in _as_list(row.get("choices"))]
    correct = _correct(row.get("correct"), choices)
    if correct is None:
        return None
    inputs = [_trajectory_key(x) for x in _as_list(row.get("input_trajectories"))]
    meta = _as_dict(row.get("metadata"))
    kind = _CONTEXT[sub]
    meta.setdefault("context", kind)
    if "labels" not in meta:
        if kind == "history":
            meta["labels"] = [k.split("_", 1)[1] if "_" in k else k for k in inputs]
        elif kind == "interleaved":
            meta["labels"] = [f"U{i + 1}" for i in range(len(inputs))]
        elif kind == "lineup":
            meta["labels"] = choices if len(choices) == len(inputs) else [f"Trajectory {i + 1}" for i in range(len(inputs))]
        elif kind == "files":
            meta["labels"] = ["output files"] * len(inputs)
        else:
            meta["labels"] = ["trajectory"] * len(inputs)
    if sub in ("ProfRec", "VisGrd"):
        choices = []
    channel = str(row.get("channel") or "").lower() or DIM_CHANNEL.get((meta.get("dims") or ["A"])[0], "procedural")
    pid = row.get("profile_id")
    return Question(
        str(row.get("question_id") or f"{sub}-{len(inputs)}"), str(row.get("track") or SUBTASK_TRACK[sub]), sub,
        channel, str(pid) if pid else None, inputs, str(row.get("question") or ""), choices, correct, meta,
    )


def load_official(root: Path, *, truth: Truth | None = None, trajectories: list[Trajectory] | None = None,
                  trajectories_only: bool = False) -> tuple[list[Trajectory], list[Question], dict[str, str]]:
    """(trajectories, questions, skipped) from a release folder."""
    root = Path(root)
    signal = root / "signal"
    if not signal.is_dir():
        raise FileGramError(f"{root}: not a FileGramBench release (no signal/ folder)")
    trajs = trajectories if trajectories is not None else [
        load_folder(d) for d in sorted(signal.iterdir()) if (d / "events.json").is_file()
    ]
    if trajectories_only:
        return trajs, [], {}
    known = {t.key for t in trajs}
    questions: list[Question] = []
    dropped = {"unreadable": 0, "missing trajectories": 0}
    files = sorted((root / "data").glob("*.parquet"))
    if not files:
        raise FileGramError(f"{root / 'data'}: no .parquet question files")
    for f in files:
        for row in read_parquet_rows(f):
            missing = [c for c in COLUMNS if c not in row]
            if missing:
                raise FileGramError(f"{f}: lacks column(s) {', '.join(missing)}")
            q = row_to_question(row, truth)
            if q is None:
                dropped["unreadable"] += 1
            elif not all(k in known for k in q.input_trajectories):
                dropped["missing trajectories"] += 1
            else:
                questions.append(q)
    skipped = {}
    present = {q.sub_track for q in questions}
    for s in SUBTASK_KEYS:
        if s not in present:
            skipped[s] = "no questions of this sub-task in the release's data/*.parquet"
    if any(dropped.values()):
        skipped["(rows)"] = ", ".join(f"{n} {k}" for k, n in dropped.items() if n) + " question rows skipped"
    return trajs, questions, skipped
