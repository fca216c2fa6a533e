"""The six behavioural dimensions, their tier descriptions and the task catalogue.

The descriptions are the wording of filegram.md table 2 and are exported so that the bench
asks its questions with exactly the text the deterministic answerer matches against. The
task table (types and active dimensions, section 3) is copied here rather than imported from
the simulator because data flows one way: memory must work without the simulator installed.
"""

from __future__ import annotations

from dataclasses import dataclass

TIERS: tuple[str, ...] = ("L", "M", "R")
DIM_IDS: tuple[str, ...] = ("A", "B", "C", "D", "E", "F")


@dataclass(frozen=True)
class Dimension:
    id: str
    name: str
    tiers: dict[str, str]  # "L"|"M"|"R" -> description (table 2)
    keywords: tuple[str, ...]  # question routing
    tier_words: dict[str, tuple[str, ...]]  # words that signal a tier in free text


DIMENSIONS: dict[str, Dimension] = {
    "A": Dimension(
        "A",
        "Consumption",
        {
            "L": "sequential deep reading, whole files in order, revisits",
            "M": "targeted search-first (grep/glob, line ranges)",
            "R": "breadth-first browsing (listings, skim first lines, rarely revisit)",
        },
        ("consumption", "consume", "read", "reading", "reads", "search", "searching", "grep",
         "glob", "browse", "browsing", "skim", "revisit", "information", "explore", "look up",
         "阅读", "搜索", "浏览"),
        {
            "L": ("sequential", "deep", "whole", "in order", "revisit", "thorough", "carefully"),
            "M": ("search", "targeted", "grep", "glob", "line range", "search-first", "query"),
            "R": ("breadth", "browse", "browsing", "listing", "skim", "rarely revisit", "overview"),
        },
    ),
    "B": Dimension(
        "B",
        "Production",
        {
            "L": "comprehensive (>=200 lines, >=3 files, deep headings)",
            "M": "balanced (one file, 80-150 lines)",
            "R": "minimal (<=60 lines, bullets, one file)",
        },
        ("production", "produce", "output", "write", "writing", "written", "document", "length",
         "long", "short", "detail", "detailed", "lines", "heading", "bullet", "report",
         "verbose", "concise", "产出", "写作"),
        {
            "L": ("comprehensive", "200", "deep heading", "many files", "long", "detailed", "extensive", "thorough"),
            "M": ("balanced", "80-150", "moderate", "medium"),
            "R": ("minimal", "60", "bullet", "brief", "short", "concise", "terse"),
        },
    ),
    "C": Dimension(
        "C",
        "Organization",
        {
            "L": "deeply nested (3+ levels, moves into subfolders)",
            "M": "adaptive (1-2 levels)",
            "R": "flat (root only)",
        },
        ("organization", "organisation", "organize", "organise", "folder", "folders",
         "directory", "directories", "nested", "nesting", "hierarchy", "structure", "flat",
         "subfolder", "layout", "file structure", "组织", "目录", "文件夹"),
        {
            "L": ("deeply nested", "nested", "3+", "hierarch", "subfolder", "deep"),
            "M": ("adaptive", "1-2 levels", "moderate", "some folders"),
            "R": ("flat", "root only", "root", "single level", "no folders"),
        },
    ),
    "D": Dimension(
        "D",
        "Iteration",
        {
            "L": "incremental small edits, backup copies, several passes",
            "M": "balanced 10-30 line edits",
            "R": "bulk rewrite (overwrite, no backups)",
        },
        ("iteration", "iterate", "edit", "edits", "editing", "revise", "revision", "revising",
         "rewrite", "overwrite", "backup", "backups", "version", "versions", "change",
         "changes", "pass", "passes", "修改", "编辑", "迭代"),
        {
            "L": ("incremental", "small edit", "backup", "several passes", "many small", "careful"),
            "M": ("balanced", "10-30", "moderate"),
            "R": ("bulk", "rewrite", "overwrite", "no backup", "wholesale", "from scratch"),
        },
    ),
    "E": Dimension(
        "E",
        "Curation",
        {
            "L": "selective (deletes temp/intermediate files)",
            "M": "pragmatic (occasional cleanup)",
            "R": "preservative (never deletes)",
        },
        ("curation", "curate", "delete", "deletes", "deleting", "deletion", "cleanup",
         "clean up", "clean", "remove", "removes", "temporary", "temp", "intermediate", "keep",
         "keeps", "preserve", "清理", "删除"),
        {
            "L": ("selective", "deletes temp", "intermediate", "removes", "aggressive", "prunes"),
            "M": ("pragmatic", "occasional", "sometimes"),
            "R": ("preservative", "never deletes", "keeps everything", "never", "hoard"),
        },
    ),
    "F": Dimension(
        "F",
        "Cross-modal",
        {
            "L": "visual-heavy (charts, images, CSV, figures dir)",
            "M": "balanced (markdown tables)",
            "R": "text only",
        },
        ("cross-modal", "cross modal", "crossmodal", "modal", "modality", "visual", "visuals",
         "chart", "charts", "image", "images", "figure", "figures", "table", "tables", "csv",
         "diagram", "multimedia", "text only", "图表", "图片", "表格"),
        {
            "L": ("visual-heavy", "visual", "chart", "image", "csv", "figure"),
            "M": ("balanced", "markdown table", "table"),
            "R": ("text only", "text-only", "plain text", "only text"),
        },
    ),
}


def dimension_label(dim: str) -> str:
    return f"{dim} ({DIMENSIONS[dim].name})"


@dataclass(frozen=True)
class TaskInfo:
    id: str
    type: str
    dims: tuple[str, ...]


def _tasks(spec: str) -> dict[str, TaskInfo]:
    out = {}
    for line in spec.strip().splitlines():
        tid, ttype, dims = line.split()
        out[tid] = TaskInfo(tid, ttype, tuple(dims.split(",")))
    return out


# filegram.md section 3: id, type, active dimensions.
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
TASK_TYPES: tuple[str, ...] = ("understand", "create", "organize", "synthesize", "iterate", "maintain")


def task_info(task_id: str | None) -> TaskInfo | None:
    """Known task of a session (imported and simulated ones carry task_id; recordings don't)."""
    if not task_id:
        return None
    key = task_id.strip().upper()
    if key.startswith("T") and not key.startswith("T-"):
        key = "T-" + key[1:]
    if key.startswith("T-") and key[2:].isdigit():
        key = f"T-{int(key[2:]):02d}"
    return TASKS.get(key)
