"""The six behavioural dimensions as memory reads questions about them.

Names, tiers, the tier descriptions of filegram.md table 2 and the task catalogue are the
core's one vocabulary (filegram.vocab); they are re-exported here so `filegram.memory` keeps
its names. What is memory's own is how a question or an option is matched to a dimension:
the routing keywords and the words that signal a tier in free text.
"""

from __future__ import annotations

from dataclasses import dataclass

from filegram.vocab import (
    DIM_IDS,
    DIMENSION_NAMES,
    TASK_TYPES,
    TASKS,
    TIER_DESCRIPTIONS,
    TIERS,
    TaskInfo,
    dimension_label,
    task_info,
)

__all__ = [
    "DIM_IDS",
    "DIMENSIONS",
    "TASKS",
    "TASK_TYPES",
    "TIERS",
    "Dimension",
    "TaskInfo",
    "dimension_label",
    "task_info",
]


@dataclass(frozen=True)
class Dimension:
    id: str
    name: str
    tiers: dict[str, str]  # "L"|"M"|"R" -> description (table 2)
    keywords: tuple[str, ...]  # question routing
    tier_words: dict[str, tuple[str, ...]]  # words that signal a tier in free text


# Words that route a question to a dimension.
KEYWORDS: dict[str, tuple[str, ...]] = {
    "A": ("consumption", "consume", "read", "reading", "reads", "search", "searching", "grep",
          "glob", "browse", "browsing", "skim", "revisit", "information", "explore", "look up",
          "阅读", "搜索", "浏览"),
    "B": ("production", "produce", "output", "write", "writing", "written", "document", "length",
          "long", "short", "detail", "detailed", "lines", "heading", "bullet", "report",
          "verbose", "concise", "产出", "写作"),
    "C": ("organization", "organisation", "organize", "organise", "folder", "folders",
          "directory", "directories", "nested", "nesting", "hierarchy", "structure", "flat",
          "subfolder", "layout", "file structure", "组织", "目录", "文件夹"),
    "D": ("iteration", "iterate", "edit", "edits", "editing", "revise", "revision", "revising",
          "rewrite", "overwrite", "backup", "backups", "version", "versions", "change",
          "changes", "pass", "passes", "修改", "编辑", "迭代"),
    "E": ("curation", "curate", "delete", "deletes", "deleting", "deletion", "cleanup",
          "clean up", "clean", "remove", "removes", "temporary", "temp", "intermediate", "keep",
          "keeps", "preserve", "清理", "删除"),
    "F": ("cross-modal", "cross modal", "crossmodal", "modal", "modality", "visual", "visuals",
          "chart", "charts", "image", "images", "figure", "figures", "table", "tables", "csv",
          "diagram", "multimedia", "text only", "图表", "图片", "表格"),
}

# Words that signal a tier of a dimension in free text (an option, an answer).
TIER_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "A": {
        "L": ("sequential", "deep", "whole", "in order", "revisit", "thorough", "carefully"),
        "M": ("search", "targeted", "grep", "glob", "line range", "search-first", "query"),
        "R": ("breadth", "browse", "browsing", "listing", "skim", "rarely revisit", "overview"),
    },
    "B": {
        "L": ("comprehensive", "200", "deep heading", "many files", "long", "detailed", "extensive", "thorough"),
        "M": ("balanced", "80-150", "moderate", "medium"),
        "R": ("minimal", "60", "bullet", "brief", "short", "concise", "terse"),
    },
    "C": {
        "L": ("deeply nested", "nested", "3+", "hierarch", "subfolder", "deep"),
        "M": ("adaptive", "1-2 levels", "moderate", "some folders"),
        "R": ("flat", "root only", "root", "single level", "no folders"),
    },
    "D": {
        "L": ("incremental", "small edit", "backup", "several passes", "many small", "careful"),
        "M": ("balanced", "10-30", "moderate"),
        "R": ("bulk", "rewrite", "overwrite", "no backup", "wholesale", "from scratch"),
    },
    "E": {
        "L": ("selective", "deletes temp", "intermediate", "removes", "aggressive", "prunes"),
        "M": ("pragmatic", "occasional", "sometimes"),
        "R": ("preservative", "never deletes", "keeps everything", "never", "hoard"),
    },
    "F": {
        "L": ("visual-heavy", "visual", "chart", "image", "csv", "figure"),
        "M": ("balanced", "markdown table", "table"),
        "R": ("text only", "text-only", "plain text", "only text"),
    },
}

DIMENSIONS: dict[str, Dimension] = {
    d: Dimension(d, DIMENSION_NAMES[d], dict(TIER_DESCRIPTIONS[d]), KEYWORDS[d], TIER_WORDS[d])
    for d in DIM_IDS
}
