"""The working style card: a short Markdown card for an agent's instructions file (AGENTS.md,
CLAUDE.md, ...), with each known tier, its confidence and what an assistant should do about
it, the user's file conventions and recent drift. Unknown dimensions are left out."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from filegram.vocab import DIM_IDS, DIMENSION_NAMES, DIMENSION_VERBS, TIERS, UNKNOWN

from .habits import Habits
from .suggest import format_stem
from .tiers import tier_of

# What an assistant should do for each tier: the part of the card an agent acts on.
ADVICE: dict[str, dict[str, str]] = {
    "A": {
        "L": "reads whole files in order and comes back to them: give complete documents with a clear reading order, not fragments.",
        "M": "searches first (grep/glob, line ranges): point to exact files and line numbers; offer search terms.",
        "R": "skims broadly (listings, first lines): lead with an overview or index; put the key facts in the first lines.",
    },
    "B": {
        "L": "writes comprehensive documents (200+ lines, several files, deep headings): full structure and detail are welcome.",
        "M": "writes balanced single documents (80-150 lines): one file, moderate detail.",
        "R": "writes minimal output (<=60 lines, bullets): be brief; bullets over prose; one file.",
    },
    "C": {
        "L": "keeps a deep folder hierarchy (3+ levels) and files things into subfolders: put new files in the matching subfolder, create one if needed.",
        "M": "uses one or two folder levels: group files only when there are several of a kind.",
        "R": "keeps files flat at the root: do not create folders; save next to the existing files.",
    },
    "D": {
        "L": "edits incrementally in small passes and keeps backup copies: propose small diffs; keep a backup before changing a file.",
        "M": "makes balanced edits of 10-30 lines: moderate, focused changes.",
        "R": "rewrites in bulk and overwrites in place: a full rewrite is fine; no backup copies needed.",
    },
    "E": {
        "L": "deletes temporary and intermediate files: clean up scratch files when done.",
        "M": "cleans up occasionally: ask before deleting intermediates.",
        "R": "never deletes: keep drafts and intermediate files; do not remove anything.",
    },
    "F": {
        "L": "works visually (charts, images, CSV, a figures folder): add charts and data files where they help.",
        "M": "likes markdown tables: summarise data in tables inside the document.",
        "R": "works in text only: no images or charts; plain text and lists.",
    },
}


def utc_time(ms: float | None) -> str:
    """A stored time (ms since the epoch) as 'YYYY-MM-DD HH:MM UTC', or 'never'."""
    if not ms:
        return "never"
    return dt.datetime.fromtimestamp(ms / 1000.0, dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def _convention_lines(habits: Habits) -> list[str]:
    lines = ["", "## File conventions"]
    if habits.style and habits.style != "mixed":
        lines.append(f"- Names: {habits.style} ({round(habits.style_share * 100)}% of {habits.style_votes} names), "
                     f"e.g. `{format_stem(['quarterly', 'summary'], habits.style)}`")
    elif habits.style == "mixed":
        lines.append("- Names: no single convention")
    if habits.date_prefix:
        lines.append(f"- Dates: names start with {habits.date_prefix}")
    if habits.version_suffix:
        lines.append(f"- Versions: names end with {habits.version_suffix}")
    if habits.depth_median is not None:
        lines.append(f"- Depth: files usually sit {int(habits.depth_median)} folder level(s) below a root")
    tops = [f"`{f or '.'}`" for f, _ in habits.top_folders[:4]]
    if tops:
        lines.append(f"- Busiest folders: {', '.join(tops)}")
    return lines


def _drift_lines(profile: Mapping[str, Any], known: list[str], max_drift: int) -> list[str]:
    drift = [a for a in (profile.get("anomalies") or []) if isinstance(a, dict)
             and a.get("from") != a.get("to") and a.get("to") in TIERS
             and a.get("verdict") != "noise"
             and a.get("dimension") in known]
    if not drift:
        return []
    lines = ["", "## Recent drift"]
    for a in drift[-max_drift:]:
        d = a.get("dimension")
        lines.append(f"- {a.get('label') or str(a.get('session'))[:8]}: {DIMENSION_VERBS.get(d, d)} "
                     f"({d}) moved {a.get('from')} -> {a.get('to')} ({a.get('verdict')}); "
                     "the default above still holds unless this continues.")
    return lines


def style_card(profile: Mapping[str, Any], habits: Habits | None = None, *, max_drift: int = 5) -> str:
    """A short Markdown card for an agent's instructions file: each known tier with its
    confidence and what to do about it; unknown dimensions are left out."""
    dims = profile.get("dimensions") or {}
    lines = ["# Working style card", ""]
    n = profile.get("sessions")
    known = [d for d in DIM_IDS if tier_of(profile, d) != UNKNOWN]
    lines.append(f"_Learned by FileGram from {n if n is not None else 'the recorded'} work session(s); "
                 f"updated {utc_time(profile.get('updated_ms'))}."
                 + (" Follow these defaults unless the user says otherwise._" if known else "_"))
    lines.append("")
    if not known:
        lines.append("No working style is known yet: FileGram has not seen enough sessions.")
    for d in known:
        info = dims.get(d) or {}
        tier = tier_of(profile, d)
        conf = info.get("confidence")
        conf_s = f", confidence {conf:.2f}" if isinstance(conf, int | float) else ""
        name = info.get("name") or DIMENSION_NAMES[d]
        lines.append(f"- **{DIMENSION_VERBS[d]}** ({d} {name}: {tier}{conf_s}): this user {ADVICE[d][tier]}")
    if habits is not None and (habits.style or habits.date_prefix or habits.top_folders):
        lines += _convention_lines(habits)
    lines += _drift_lines(profile, known, max_drift)
    lines.append("")
    return "\n".join(lines)
