"""FileGram's one vocabulary: dimensions, tiers, tasks and how an action reads in words.

Every package speaks about the same six dimensions, three tiers, 32 tasks and 12 action types;
when each kept its own copy they drifted (a jpg was "photos" to one and "images" to another).
This module is the single place those words live. It imports nothing but the standard library
so that every layer, the core included, can use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# -- dimensions and tiers (filegram.md section 2) ------------------------------------------

DIM_IDS: tuple[str, ...] = ("A", "B", "C", "D", "E", "F")
TIERS: tuple[str, ...] = ("L", "M", "R")
UNKNOWN = "unknown"

DIMENSION_NAMES: dict[str, str] = {
    "A": "Consumption",
    "B": "Production",
    "C": "Organization",
    "D": "Iteration",
    "E": "Curation",
    "F": "Cross-modal",
}

# The verb a person-facing text uses for a dimension (the style card's rows).
DIMENSION_VERBS: dict[str, str] = {
    "A": "Reads", "B": "Writes", "C": "Organises", "D": "Edits", "E": "Curates", "F": "Visuals",
}

# The paper's wording of each tier (table 2).
TIER_DESCRIPTIONS: dict[str, dict[str, str]] = {
    "A": {
        "L": "sequential deep reading, whole files in order, revisits",
        "M": "targeted search-first (grep/glob, line ranges)",
        "R": "breadth-first browsing (listings, skim first lines, rarely revisit)",
    },
    "B": {
        "L": "comprehensive (>=200 lines, >=3 files, deep headings)",
        "M": "balanced (one file, 80-150 lines)",
        "R": "minimal (<=60 lines, bullets, one file)",
    },
    "C": {
        "L": "deeply nested (3+ levels, moves into subfolders)",
        "M": "adaptive (1-2 levels)",
        "R": "flat (root only)",
    },
    "D": {
        "L": "incremental small edits, backup copies, several passes",
        "M": "balanced 10-30 line edits",
        "R": "bulk rewrite (overwrite, no backups)",
    },
    "E": {
        "L": "selective (deletes temp/intermediate files)",
        "M": "pragmatic (occasional cleanup)",
        "R": "preservative (never deletes)",
    },
    "F": {
        "L": "visual-heavy (charts, images, CSV, figures dir)",
        "M": "balanced (markdown tables)",
        "R": "text only",
    },
}

# Tiers sit on one ordinal axis: L = 0, M = 1, R = 2. Means and drift distances use it.
TIER_POSITION: dict[str, float] = {"L": 0.0, "M": 1.0, "R": 2.0}


def tier_of_position(position: float) -> str:
    """The tier whose position is nearest (boundaries half-way between tiers)."""
    return "L" if position < 0.5 else ("M" if position < 1.5 else "R")


def dimension_label(dim: str) -> str:
    return f"{dim} ({DIMENSION_NAMES[dim]})"


# -- tasks (filegram.md section 3) ---------------------------------------------------------

TASK_TYPES: tuple[str, ...] = ("understand", "create", "organize", "synthesize", "iterate", "maintain")


@dataclass(frozen=True)
class TaskInfo:
    id: str
    type: str
    dims: tuple[str, ...]  # active dimensions, in the paper's order


def _tasks(spec: str) -> dict[str, TaskInfo]:
    out = {}
    for line in spec.strip().splitlines():
        tid, ttype, dims = line.split()
        out[tid] = TaskInfo(tid, ttype, tuple(dims.split(",")))
    return out


TASKS: dict[str, TaskInfo] = _tasks(
    """
    T-01 understand A,B
    T-02 understand A,B,E
    T-03 create B,C
    T-04 create B,C,F
    T-05 organize A,C
    T-06 synthesize A,B,F
    T-07 synthesize A,B
    T-08 create B,C,F
    T-09 iterate D,B
    T-10 maintain D,C,E
    T-11 iterate D,A
    T-12 iterate D,C
    T-13 iterate D,A,E
    T-14 organize C,D
    T-15 synthesize A,D,B
    T-16 understand A,E,B,F
    T-17 understand A,C
    T-18 maintain D,E,C
    T-19 iterate D,B
    T-20 create B,C,E
    T-21 organize C,A,D
    T-22 understand A,F,B
    T-23 organize C,F,A
    T-24 synthesize A,B,F
    T-25 understand A,F,B
    T-26 organize C,A,F
    T-27 create B,F,C
    T-28 synthesize A,B,F
    T-29 organize C,D,A
    T-30 iterate D,F,A
    T-31 create B,F,C
    T-32 maintain D,A,F
    """
)


def task_info(task_id: str | None) -> TaskInfo | None:
    """The catalogue entry of a task id, tolerant of 'T1', 't-01' and the like."""
    if not task_id:
        return None
    key = task_id.strip().upper()
    if key.startswith("T") and not key.startswith("T-"):
        key = "T-" + key[1:]
    if key.startswith("T-") and key[2:].isdigit():
        key = f"T-{int(key[2:]):02d}"
    return TASKS.get(key)


# -- where files of a kind go (the simulator's workspaces and tidy-ups, the suggestions) ----

CATEGORY_FOLDERS: dict[str, dict[str, str]] = {
    "en": {"eml": "emails", "pdf": "documents", "docx": "documents", "md": "notes", "txt": "notes",
           "csv": "data", "xlsx": "data", "json": "data", "ics": "calendar", "png": "images",
           "jpg": "images", "jpeg": "images", "wav": "audio", "mp3": "audio", "mp4": "video"},
    "zh": {"eml": "邮件", "pdf": "文档", "docx": "文档", "md": "笔记", "txt": "笔记", "csv": "数据",
           "xlsx": "数据", "json": "数据", "ics": "日程", "png": "图片", "jpg": "图片", "jpeg": "图片",
           "wav": "音频", "mp3": "音频", "mp4": "视频"},
}


def category_folder(file_type: str, language: str = "en") -> str | None:
    return CATEGORY_FOLDERS.get(language, CATEGORY_FOLDERS["en"]).get(file_type.lower().lstrip("."))


# -- actions in words -----------------------------------------------------------------------


def _count(value: Any) -> int:
    if isinstance(value, list):
        return len(value)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    return int(value)


def _lines(ev: Mapping[str, Any]) -> str:
    vr = ev.get("view_range")
    return f" lines {vr[0]}-{vr[1]}" if isinstance(vr, list | tuple) and len(vr) == 2 else ""


def action_subject(ev: Mapping[str, Any]) -> str:
    """The path (or paths, or query) an action is about."""
    g = ev.get
    t = g("event_type")
    if t in ("file_read", "file_write", "file_edit", "file_delete"):
        return str(g("file_path") or "")
    if t == "file_browse":
        return str(g("directory_path") or ".")
    if t == "file_search":
        return str(g("query") or "")
    if t in ("file_rename", "file_move"):
        return f"{g('old_path')} -> {g('new_path')}"
    if t == "file_copy":
        return f"{g('source_path')} -> {g('dest_path')}"
    if t == "dir_create":
        return str(g("dir_path") or "")
    if t == "context_switch":
        return f"{g('from_file') or '-'} -> {g('to_file') or '-'}"
    if t == "cross_file_reference":
        return f"{g('source_file') or '-'} -> {g('target_file')}"
    return ""


def action_detail(ev: Mapping[str, Any]) -> str:
    """The numbers and labels of an action, without its subject: the `trace show` column
    (its wording is what `trace show` and `make demo` have always printed)."""
    g = ev.get
    t = g("event_type")
    if t == "file_read":
        return f"view {g('view_count')} len {g('content_length')}"
    if t == "file_browse":
        return f"{g('files_listed')} listed"
    if t == "file_search":
        return f"{g('search_type')} matched {g('files_matched')}"
    if t == "file_write":
        return f"{g('operation')} {g('content_length')} chars"
    if t == "file_edit":
        return str(g("diff_summary") or "")
    if t in ("file_rename", "file_move"):
        return str(g("naming_pattern_change") or "")
    if t == "dir_create":
        return f"depth {g('depth')}"
    if t == "file_delete":
        return "temporary" if g("was_temporary") else ""
    if t == "file_copy":
        return "backup" if g("is_backup") else ""
    if t == "context_switch":
        return str(g("trigger") or "")
    if t == "cross_file_reference":
        return str(g("reference_type") or "")
    return ""


def describe_action(ev: Mapping[str, Any]) -> str:
    """One readable line for an action, as a careful human log would say it."""
    g = ev.get
    t = g("event_type")
    if t == "file_read":
        again = f", view #{g('view_count')}" if _count(g("view_count")) > 1 else ""
        return f"read {g('file_path')}{_lines(ev)} ({_count(g('content_length'))} chars{again})"
    if t == "file_browse":
        return f"listed folder {g('directory_path') or '.'} ({_count(g('files_listed'))} entries)"
    if t == "file_search":
        opened = g("files_opened_after") or []
        tail = f", then opened {', '.join(map(str, opened[:3]))}" if opened else ""
        query = str(g("query") or "")[:60]
        return f"searched ({g('search_type')}) for '{query}': {_count(g('files_matched'))} matches{tail}"
    if t == "file_write":
        verb = "created" if g("operation") == "create" else "overwrote"
        return f"{verb} {g('file_path')} ({_count(g('content_length'))} chars)"
    if t == "file_edit":
        return (
            f"edited {g('file_path')}: +{_count(g('lines_added'))} -{_count(g('lines_deleted'))} lines"
            f" ({_count(g('lines_modified'))} modified)"
        )
    if t == "file_rename":
        return f"renamed {g('old_path')} to {g('new_path')}"
    if t == "file_move":
        return f"moved {g('old_path')} to {g('new_path')}"
    if t == "dir_create":
        return f"made folder {g('dir_path')}"
    if t == "file_delete":
        return f"deleted {g('file_path')}" + (" (temporary file)" if g("was_temporary") else "")
    if t == "file_copy":
        return f"copied {g('source_path')} to {g('dest_path')}" + (" (backup copy)" if g("is_backup") else "")
    if t == "context_switch":
        return f"switched from {g('from_file') or '-'} to {g('to_file') or 'another window'}"
    if t == "cross_file_reference":
        return f"used {g('source_file') or 'a search'} for {g('target_file')} ({g('reference_type') or 'reference'})"
    return str(t)
