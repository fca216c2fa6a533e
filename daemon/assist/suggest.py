"""Name and place a new file the way this user would: their naming convention, date prefix
and version suffix, and the folder where similar files went at the depth their organisation
tier (C) keeps. Deterministic: a function of the store, memory's profile and the disk.

Grounded in what exists: the folder is one that exists (on disk under the roots, or by the
trace when the roots are not known) or follows a folder pattern the person used at least
twice (folders.py), and the reasons say which.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from typing import Any

from filegram.errors import FileGramError
from filegram.ondisk import PathCheck
from filegram.ondisk import absolute_path as absolute_path
from filegram.store import Store

from .folders import FolderPattern, folder_patterns
from .habits import Habits, folder_depth, learn_habits, name_words, parent_folder, tokens, word_stem
from .tiers import tier_of

_MONTHS = {m: i for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"], start=1)}
_MONTHS.update({k[:3]: v for k, v in list(_MONTHS.items())})

# Kinds an assistant asks for -> the extension and the folder words that signal that kind.
KINDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "report": ("md", ("report", "reports", "analysis", "summary", "summaries")),
    "notes": ("md", ("note", "notes", "memo", "memos")),
    "note": ("md", ("note", "notes", "memo", "memos")),
    "summary": ("md", ("summary", "summaries", "report", "reports")),
    "doc": ("md", ("doc", "docs", "document", "documents")),
    "document": ("md", ("doc", "docs", "document", "documents")),
    "email": ("eml", ("email", "emails", "mail", "inbox")),
    "data": ("csv", ("data", "dataset", "datasets", "tables")),
    "table": ("csv", ("data", "tables")),
    "spreadsheet": ("xlsx", ("data", "sheets", "spreadsheets")),
    "chart": ("png", ("figures", "charts", "images", "plots")),
    "figure": ("png", ("figures", "charts", "images", "plots")),
    "image": ("png", ("images", "photos", "figures")),
    "photo": ("jpg", ("photos", "images", "pictures")),
    "slides": ("pptx", ("slides", "presentations", "decks")),
    "presentation": ("pptx", ("slides", "presentations", "decks")),
    "pdf": ("pdf", ("documents", "pdfs")),
    "calendar": ("ics", ("calendar", "events")),
    "script": ("py", ("scripts", "code", "src")),
    "code": ("py", ("code", "src", "scripts")),
    "draft": ("md", ("drafts", "draft")),
}


def format_stem(words: list[str], style: str | None) -> str:
    if not words:
        words = ["untitled"]
    if style == "kebab":
        return "-".join(words)
    if style == "title":
        return " ".join(w.capitalize() for w in words)
    if style == "spaces":
        return " ".join(words)
    if style == "camel":
        return words[0] + "".join(w.capitalize() for w in words[1:])
    if style == "pascal":
        return "".join(w.capitalize() for w in words)
    return "_".join(words)  # snake, and the default for mixed or unknown habits


def _date_for(words: list[str], today: dt.date) -> tuple[dt.date, str | None]:
    """A month named in the request dates the file (the latest such month up to today)."""
    for w in words:
        m = _MONTHS.get(w)
        if m:
            year = today.year if m <= today.month else today.year - 1
            return dt.date(year, m, 1), w
    return today, None


def _format_date(fmt: str, d: dt.date, month_only: bool) -> str:
    if fmt == "YYYYMMDD":
        return d.strftime("%Y%m%d")
    if fmt == "YYYY-MM" or month_only:
        return d.strftime("%Y-%m")
    return d.strftime("%Y-%m-%d")


def _depth_range(tier: str, habits: Habits) -> tuple[int, int]:
    """Folder depths this user would put a new file at."""
    if tier == "R":
        return 0, 0
    if tier == "M":
        return 1, 2
    if tier == "L":
        return 2, 6
    if habits.depth_median is None:
        return 0, 1
    m = int(habits.depth_median)
    return m, m


def _known_folders(store: Store, habits: Habits, check: PathCheck) -> dict[str, Counter[str]]:
    """Every folder that holds files and still exists, with the words of its files' names."""
    out: dict[str, Counter[str]] = defaultdict(Counter)
    for p in store.paths():
        parent = parent_folder(p)
        out[parent].update(name_words(p))
        # ancestors are folders too (they hold the subfolder)
        while parent:
            parent = parent_folder(parent)
            out.setdefault(parent, Counter())
    for f, c in habits.folder_tokens.items():
        out[f].update(c)
    for f in habits.folders_used:
        out.setdefault(f, Counter())
    return {f: c for f, c in out.items() if not f or not folder_gone(f, check)}


def folder_gone(folder: str, check: PathCheck) -> bool:
    on_disk = check.is_dir(folder)
    return (not on_disk) if on_disk is not None else check.gone_by_trace(folder)


def _check_request(text: str, kind: str | None) -> tuple[str, str | None]:
    text = (text or "").strip()
    if not text:
        raise FileGramError("--name-for needs a short description, e.g. \"patent email from May\"")
    if len(text) > 500:
        raise FileGramError("--name-for is limited to 500 characters")
    kind_key = (kind or "").strip().lower() or None
    if kind_key and kind_key not in KINDS and not re.fullmatch(r"[a-z0-9]{1,8}", kind_key):
        raise FileGramError(f"unknown --kind {kind!r} (known: {', '.join(sorted(KINDS))}, or an extension)")
    return text, kind_key


def _extension(kind_key: str | None, habits: Habits) -> tuple[str, tuple[str, ...]]:
    """The new file's extension and the folder words of its kind."""
    if kind_key in KINDS:
        ext, kind_words = KINDS[kind_key]
    elif kind_key:
        ext, kind_words = kind_key, (kind_key,)
    else:
        ext, kind_words = "", ()
    if not ext:
        doc_exts = [e for e in habits.extensions if e in ("md", "txt", "docx", "rst", "org")]
        ext = doc_exts[0] if doc_exts else "md"
    elif ext == "md" and "md" not in habits.extensions:
        # the user's own document format wins (a docx writer gets docx)
        docs = [e for e in habits.extensions if e in ("docx", "txt", "rst", "org", "odt")]
        ext = docs[0] if docs else ext
    return ext, kind_words


def _name_stem(words: list[str], habits: Habits, today: dt.date, reasons: list[str]) -> str:
    """The new name without its extension, in the user's convention."""
    date_prefix = None
    if habits.date_prefix:
        when, month_word = _date_for(words, today)
        if month_word:
            words = [w for w in words if w != month_word]
        date_prefix = _format_date(habits.date_prefix, when, month_only=month_word is not None)
        reasons.append(f"{round(habits.date_share * 100)}% of your file names start with a date "
                       f"({habits.date_prefix})")
    style = habits.style if habits.style not in (None, "mixed") else None
    stem = format_stem(words[:8], style)
    sep = {"kebab": "-", "title": " ", "spaces": " "}.get(style or "", "_")
    if date_prefix:
        stem = f"{date_prefix}{sep}{stem}"
    if habits.version_suffix:
        stem = f"{stem}{sep}{habits.version_suffix}"
        reasons.append(f"{round(habits.version_share * 100)}% of your names end with a version "
                       f"({habits.version_suffix})")
    if style:
        reasons.append(f"your names are {style} ({round(habits.style_share * 100)}% of "
                       f"{habits.style_votes} names that show a convention)")
    else:
        reasons.append("no consistent naming convention seen yet: snake_case")
    return stem


def _choose_folder(store: Store, habits: Habits, org: str, want: Counter[str], lo: int, hi: int,
                   check: PathCheck, today: dt.date, reasons: list[str]) -> tuple[str, dict[str, Any]]:
    """The folder where similar files went, at the depth this user files things, with what
    grounds it (an existing folder, or a pattern of theirs used at least twice)."""
    if org == "R":
        reasons.append("you keep files flat at the root (organisation R)")
        return "", {"kind": "root"}
    folders = _known_folders(store, habits, check)
    scored = []
    for folder, ftok in folders.items():
        depth = folder_depth(folder)
        own = Counter(word_stem(t) for t in tokens(folder))
        s_dir = sum(2.0 for w in want if own.get(w))
        total = sum(ftok.values()) or 1
        s_files = sum(min(ftok.get(w, 0) / total * 4, 1.0) for w in want)
        s_use = 0.3 * math.log1p(habits.folder_counts.get(folder, 0))
        fit = 0.0 if lo <= depth <= hi else -1.5 * min(abs(depth - lo), abs(depth - hi))
        scored.append((s_dir + s_files + s_use + fit, s_dir + s_files, -depth, folder))
    if not scored:
        return "", {"kind": "root"}
    scored.sort(key=lambda x: (x[0], x[1], x[2], x[3]), reverse=True)
    _, similar_score, _, folder = scored[0]
    if folder_depth(folder) < lo:
        folder = _deepen(folder, folders, habits, lo)
    if similar_score > 0:
        reasons.append(f"similar files went to {folder or 'the root'}")
    else:
        reasons.append(f"most of your files at this depth go to {folder or 'the root'}")
    known = set(folders)

    def exists(f: str) -> bool:
        on_disk = check.is_dir(f)
        return on_disk if on_disk is not None else f in known

    folder, basis = _by_pattern(folder, folder_patterns(habits.folders_used), exists, today)
    if basis["kind"] == "pattern":
        reasons.append(f"your pattern {basis['pattern']}, used {basis['uses']} times")
    elif folder:
        reasons.append(f"existing folder {folder}")
    if org != "unknown":
        reasons.append(f"organisation {org}: folders {lo}-{hi} level(s) deep" if org != "L"
                       else "organisation L: deeply nested folders")
    return folder, basis


def _by_pattern(folder: str, patterns: list[FolderPattern], exists: Callable[[str], bool],
                today: dt.date) -> tuple[str, dict[str, Any]]:
    """Today's folder of a dated pattern the chosen folder follows or holds ("reports/2026-Q3"
    or "reports" -> "reports/2026-Q4"); else the existing folder itself."""
    for p in patterns:
        if folder in p.examples or (p.parent() == folder and folder_depth(folder) < folder_depth(p.examples[0])):
            target = p.today(today)
            if exists(target):
                return target, {"kind": "existing", "pattern": p.display, "uses": p.uses}
            return target, {"kind": "pattern", "pattern": p.display, "uses": p.uses, "examples": list(p.examples[-3:])}
    return folder, {"kind": "existing" if folder else "root"}


def suggest_name(store: Store, profile: Mapping[str, Any] | None, text: str, kind: str | None = None,
                 *, today: dt.date | None = None, habits: Habits | None = None,
                 roots: list[str] | None = None) -> dict[str, Any]:
    """Propose a file name and folder for `text` in the user's own conventions (`roots`:
    where the stored paths live, to check on disk that the folder exists)."""
    text, kind_key = _check_request(text, kind)
    today = today or dt.date.today()
    habits = habits or learn_habits(store)
    words = tokens(text)
    reasons: list[str] = []
    stem = _name_stem(words, habits, today, reasons)
    ext, kind_words = _extension(kind_key, habits)
    name = f"{stem}.{ext}"

    org = tier_of(profile, "C")
    lo, hi = _depth_range(org, habits)
    want = Counter(word_stem(w) for w in words) + Counter(word_stem(w) for w in kind_words)
    check = PathCheck(store, roots)
    folder, basis = _choose_folder(store, habits, org, want, lo, hi, check, today, reasons)
    path = f"{folder}/{name}" if folder else name
    return {
        "name": name,
        "folder": folder or ".",
        "path": path,
        "kind": kind_key,
        "reasons": reasons,
        "folder_basis": basis,
        "similar": [p for p in similar_files(store, want, folder, k=20) if not check.gone(p)][:5],
        "conventions": {
            "style": habits.style,
            "date_prefix": habits.date_prefix,
            "version_suffix": habits.version_suffix,
            "depth_range": [lo, hi],
            "organization_tier": org,
            "names_seen": habits.names,
            "placements_seen": habits.placements,
        },
    }


def _deepen(folder: str, folders: Mapping[str, Counter[str]], habits: Habits, lo: int) -> str:
    """Go down the user's busiest existing subfolders until the depth they usually file at
    (never inventing one: a new folder comes only from a pattern of theirs)."""
    while folder_depth(folder) < lo:
        prefix = f"{folder}/" if folder else ""
        kids = [f for f in folders if f.startswith(prefix) and f != folder
                and "/" not in f[len(prefix):]]
        if not kids:
            break
        kids.sort(key=lambda f: (habits.folder_counts.get(f, 0)
                                 + sum(v for k, v in habits.folder_counts.items() if k.startswith(f + "/")), f),
                  reverse=True)
        folder = kids[0]
    return folder


def similar_files(store: Store, want: Counter[str] | set[str], folder: str, k: int = 5) -> list[str]:
    """Stored paths sharing the most words with the request (those in `folder` first)."""
    if not want:
        return []
    scored = []
    for p in store.paths():
        toks = {word_stem(t) for t in tokens(p)}
        s = sum(1 for w in want if w in toks)
        if s:
            scored.append((s, parent_folder(p) == folder, p))
    scored.sort(key=lambda x: (x[0], x[1], x[2]), reverse=True)
    return [p for _, _, p in scored[:k]]
