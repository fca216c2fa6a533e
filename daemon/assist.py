"""What an assistant does with the memory: name and place a new file the way this user
would, and a short "working style card" to put into an agent's instructions.

Both are deterministic functions of what is stored: the profile memory learned (tiers of
the six dimensions) and the names and places of files the user actually created, renamed
or moved. Names the user chose (creates, renames) teach the naming convention; files the
user placed (creates, moves, copies) teach where things go. Input files merely read say
nothing about the user's habits, so they only help to find "similar" folders.
"""

from __future__ import annotations

import datetime as _dt
import math
import posixpath
import re
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from filegram.errors import FileGramError

DIM_ORDER = ("A", "B", "C", "D", "E", "F")
# The card's verbs (the issue: how this user reads, writes, organises, edits, curates, uses visuals).
DIM_VERBS = {"A": "Reads", "B": "Writes", "C": "Organises", "D": "Edits", "E": "Curates", "F": "Visuals"}
DIM_NAMES = {"A": "Consumption", "B": "Production", "C": "Organization", "D": "Iteration",
             "E": "Curation", "F": "Cross-modal"}

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

_MONTHS = {m: i for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"], start=1)}
_MONTHS.update({k[:3]: v for k, v in list(_MONTHS.items())})
_STOP = {"a", "an", "the", "of", "for", "from", "about", "in", "on", "with", "to", "and", "my",
         "our", "new", "file", "some", "this", "that", "at", "by", "into", "re"}
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

_WORD = re.compile(r"[A-Za-z]+|\d+|[\u3400-\u9fff]+")
_CAMEL_SPLIT = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
DATE_PREFIXES = (
    ("YYYY-MM-DD", re.compile(r"^(19|20)\d\d-[01]\d-[0-3]\d(?=[ _\-.]|$)")),
    ("YYYYMMDD", re.compile(r"^(19|20)\d\d[01]\d[0-3]\d(?=[ _\-.]|$)")),
    ("YYYY-MM", re.compile(r"^(19|20)\d\d-[01]\d(?=[ _\-.]|$)")),
)
_VERSION = re.compile(r"(?:[ _\-.])(v\d+|final|draft)$", re.I)
_TEMP = re.compile(r"(^|[_\-. ])(tmp|temp|scratch|backup|bak|copy|old)([_\-. ]|$)|~$|^\.|\(\d+\)$", re.I)


# -- reading the user's habits ---------------------------------------------------------


def stem_style(stem: str) -> str | None:
    """The naming convention of one file or folder name (None when a name shows none)."""
    s = stem.strip()
    if not s or re.search(r"[\u3400-\u9fff]", s):
        return None
    has_space, has_us, has_dash = " " in s, "_" in s, "-" in s
    if has_space and not has_us:
        words = [w for w in s.split() if w[:1].isalpha()]
        return "title" if words and all(w[:1].isupper() for w in words) else "spaces"
    if has_us and not has_dash and not has_space:
        return "snake" if s == s.lower() else "mixed"
    if has_dash and not has_us and not has_space:
        return "kebab" if s == s.lower() else "mixed"
    if not (has_space or has_us or has_dash):
        if re.fullmatch(r"[a-z]+(?:[A-Z0-9][a-z0-9]*)+", s):
            return "camel"
        if re.fullmatch(r"(?:[A-Z][a-z0-9]+){2,}", s):
            return "pascal"
        return None  # one word: every convention writes it the same way
    return "mixed"


def split_name(name: str) -> tuple[str | None, str, str | None, str]:
    """(date prefix format, core stem, version suffix, extension) of a file name."""
    stem, ext = posixpath.splitext(name)
    if not ext or len(ext) > 6 or not ext[1:].isalnum():
        stem, ext = name, ""
    date_fmt = None
    for fmt, rx in DATE_PREFIXES:
        m = rx.match(stem)
        if m:
            date_fmt = fmt
            stem = stem[m.end():].lstrip(" _-.")
            break
    version = None
    m = _VERSION.search(stem)
    if m:
        version = m.group(1).lower()
        stem = stem[: m.start()]
    return date_fmt, stem, version, ext[1:].lower()


def tokens(text: str) -> list[str]:
    """Lower-case words of a name or request: split on separators, camelCase and digits."""
    out = []
    for w in _WORD.findall(_CAMEL_SPLIT.sub(" ", text)):
        w = w.lower()
        if w in _STOP:
            continue
        out.append(w)
    return out


def _norm(tok: str) -> str:
    """A crude stem so "reports" matches "report" and "emails" matches "email"."""
    if len(tok) > 4 and tok.endswith("ies"):
        return tok[:-3] + "y"
    if len(tok) > 3 and tok.endswith("s") and not tok.endswith("ss"):
        return tok[:-1]
    return tok


@dataclass
class Habits:
    """The user's observable file habits, from creates, renames, moves and copies."""

    names: int = 0  # names the user chose
    style: str | None = None
    style_share: float = 0.0
    style_votes: int = 0  # names that show a convention (one-word names show none)
    styles: dict[str, int] = field(default_factory=dict)
    date_prefix: str | None = None
    date_share: float = 0.0
    version_suffix: str | None = None
    version_share: float = 0.0
    placements: int = 0
    depth_median: float | None = None
    depths: dict[int, int] = field(default_factory=dict)
    extensions: dict[str, int] = field(default_factory=dict)
    top_folders: list[tuple[str, int]] = field(default_factory=list)
    # folder -> Counter of tokens of files placed there (not serialised)
    folder_tokens: dict[str, Counter] = field(default_factory=dict, repr=False)
    folder_counts: dict[str, int] = field(default_factory=dict, repr=False)

    def public(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("folder_tokens")
        d.pop("folder_counts")
        d["top_folders"] = [{"folder": f or ".", "files": n} for f, n in self.top_folders]
        d["depths"] = {str(k): v for k, v in sorted(self.depths.items())}
        return d


def _parent(path: str) -> str:
    p = posixpath.dirname(path.strip("/"))
    return "" if p in (".", "/") else p


def learn_habits(store: Any, *, limit: int = 20000) -> Habits:
    """Read the user's naming and placement habits from the store's recent actions."""
    chosen: list[str] = []  # base names the user chose
    placed: list[str] = []  # relative paths of files the user put somewhere
    dirs_made: list[str] = []
    acts = store.actions(types=["file_write", "file_rename", "file_move", "file_copy", "dir_create"],
                         limit=limit, newest_first=True)
    for ev in acts:
        t = ev["event_type"]
        if t == "file_write" and ev.get("operation") == "create" and ev.get("file_path"):
            chosen.append(posixpath.basename(ev["file_path"]))
            placed.append(ev["file_path"])
        elif t == "file_rename" and ev.get("new_path"):
            chosen.append(posixpath.basename(ev["new_path"]))
            placed.append(ev["new_path"])
        elif t == "file_move" and ev.get("new_path"):
            placed.append(ev["new_path"])
        elif t == "file_copy" and ev.get("dest_path") and not ev.get("is_backup"):
            placed.append(ev["dest_path"])
        elif t == "dir_create" and ev.get("dir_path"):
            dirs_made.append(ev["dir_path"])
    h = Habits()
    styles: Counter = Counter()
    dates: Counter = Counter()
    versions: Counter = Counter()
    exts: Counter = Counter()
    real = [n for n in chosen if not _TEMP.search(posixpath.splitext(n)[0])]
    for name in real:
        date_fmt, core, version, ext = split_name(name)
        if date_fmt:
            dates[date_fmt] += 1
        if version:
            versions[version if version in ("final", "draft") else "v"] += 1
        if ext:
            exts[ext] += 1
        st = stem_style(core)
        if st:
            styles[st] += 1
    if sum(styles.values()) < 3:
        # few file names to go by: folder names the user made count too (file names win
        # otherwise: folders are often named after the material, not by habit)
        for d in dirs_made:
            st = stem_style(posixpath.basename(d.rstrip("/")))
            if st:
                styles[st] += 0.5
    h.names = len(real)
    h.styles = {k: round(v, 1) for k, v in styles.most_common()}
    if styles:
        style, n = styles.most_common(1)[0]
        share = n / sum(styles.values())
        h.style_votes = round(sum(styles.values()))
        if share >= 0.5 and style != "mixed":
            h.style, h.style_share = style, round(share, 3)
        else:
            h.style, h.style_share = "mixed", round(share, 3)
    if real:
        n_dates = sum(dates.values())
        h.date_share = round(n_dates / len(real), 3)
        if h.date_share >= 0.4:
            h.date_prefix = dates.most_common(1)[0][0]
        n_ver = sum(versions.values())
        h.version_share = round(n_ver / len(real), 3)
        if h.version_share >= 0.4:
            kind = versions.most_common(1)[0][0]
            h.version_suffix = "v1" if kind == "v" else kind
    h.extensions = dict(exts.most_common())
    depth_count: Counter = Counter()
    folders: Counter = Counter()
    ftoks: dict[str, Counter] = defaultdict(Counter)
    for p in placed:
        parent = _parent(p)
        depth_count[0 if not parent else parent.count("/") + 1] += 1
        folders[parent] += 1
        ftoks[parent].update(_norm(t) for t in tokens(split_name(posixpath.basename(p))[1]))
    h.placements = len(placed)
    h.depths = dict(depth_count)
    if placed:
        ordered = sorted(d for d, n in depth_count.items() for _ in range(n))
        h.depth_median = float(ordered[len(ordered) // 2])
    h.top_folders = folders.most_common(8)
    h.folder_tokens = dict(ftoks)
    h.folder_counts = dict(folders)
    return h


# -- suggesting a name and a folder ----------------------------------------------------


def _tier(profile: dict[str, Any] | None, dim: str) -> str:
    d = ((profile or {}).get("dimensions") or {}).get(dim) or {}
    t = d.get("tier") if isinstance(d, dict) else d
    return t if t in ("L", "M", "R") else "unknown"


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


def _date_for(words: list[str], today: _dt.date) -> tuple[_dt.date, str | None]:
    """A month named in the request dates the file (the latest such month up to today)."""
    for w in words:
        m = _MONTHS.get(w)
        if m:
            year = today.year if m <= today.month else today.year - 1
            return _dt.date(year, m, 1), w
    return today, None


def _format_date(fmt: str, d: _dt.date, month_only: bool) -> str:
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


def _known_folders(store: Any, habits: Habits) -> dict[str, Counter]:
    """Every folder that holds files, with the words of its files' names."""
    out: dict[str, Counter] = defaultdict(Counter)
    for p in store.paths():
        parent = _parent(p)
        out[parent].update(_norm(t) for t in tokens(split_name(posixpath.basename(p))[1]))
        # ancestors are folders too (they hold the subfolder)
        while parent:
            parent = _parent(parent)
            out.setdefault(parent, Counter())
    for f, c in habits.folder_tokens.items():
        out[f].update(c)
    return out


def suggest_name(store: Any, profile: dict[str, Any] | None, text: str, kind: str | None = None,
                 *, today: _dt.date | None = None, habits: Habits | None = None) -> dict[str, Any]:
    """Propose a file name and folder for `text` in the user's own conventions."""
    text = (text or "").strip()
    if not text:
        raise FileGramError("--name-for needs a short description, e.g. \"patent email from May\"")
    if len(text) > 500:
        raise FileGramError("--name-for is limited to 500 characters")
    kind_key = (kind or "").strip().lower() or None
    if kind_key and kind_key not in KINDS and not re.fullmatch(r"[a-z0-9]{1,8}", kind_key):
        raise FileGramError(f"unknown --kind {kind!r} (known: {', '.join(sorted(KINDS))}, or an extension)")
    today = today or _dt.date.today()
    habits = habits or learn_habits(store)
    words = tokens(text)
    reasons: list[str] = []

    # -- the name
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
        stem = f"{date_prefix}{sep if sep != ' ' else ' '}{stem}"
    if habits.version_suffix:
        stem = f"{stem}{sep}{habits.version_suffix}"
        reasons.append(f"{round(habits.version_share * 100)}% of your names end with a version "
                       f"({habits.version_suffix})")
    if style:
        reasons.append(f"your names are {style} ({round(habits.style_share * 100)}% of "
                       f"{habits.style_votes} names that show a convention)")
    else:
        reasons.append("no consistent naming convention seen yet: snake_case")
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
    name = f"{stem}.{ext}"

    # -- the folder
    org = _tier(profile, "C")
    lo, hi = _depth_range(org, habits)
    folders = _known_folders(store, habits)
    want = Counter(_norm(w) for w in words) + Counter(_norm(w) for w in kind_words)
    scored = []
    for folder, ftok in folders.items():
        depth = 0 if not folder else folder.count("/") + 1
        own = Counter(_norm(t) for t in tokens(folder))
        s_dir = sum(2.0 for w in want if own.get(w))
        total = sum(ftok.values()) or 1
        s_files = sum(min(ftok.get(w, 0) / total * 4, 1.0) for w in want)
        placed_here = habits.folder_counts.get(folder, 0)
        s_use = 0.3 * math.log1p(placed_here)
        fit = 0.0 if lo <= depth <= hi else -1.5 * min(abs(depth - lo), abs(depth - hi))
        scored.append((s_dir + s_files + s_use + fit, s_dir + s_files, -depth, folder))
    scored.sort(key=lambda x: (x[0], x[1], x[2], x[3]), reverse=True)
    similar_score = 0.0
    folder = ""
    if org == "R":
        folder = ""
        reasons.append("you keep files flat at the root (organisation R)")
    elif scored:
        best = scored[0]
        folder, similar_score = best[3], best[1]
        depth = 0 if not folder else folder.count("/") + 1
        if depth < lo:
            folder = _deepen(folder, folders, habits, lo, kind_words, today)
        if similar_score > 0:
            reasons.append(f"similar files went to {folder or 'the root'}")
        else:
            reasons.append(f"most of your files at this depth go to {folder or 'the root'}")
        if org != "unknown":
            reasons.append(f"organisation {org}: folders {lo}-{hi} level(s) deep" if org != "L"
                           else "organisation L: deeply nested folders")
    similar = _similar_files(store, want, folder)
    path = f"{folder}/{name}" if folder else name
    return {
        "name": name,
        "folder": folder or ".",
        "path": path,
        "kind": kind_key,
        "reasons": reasons,
        "similar": similar,
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


def _deepen(folder: str, folders: dict[str, Counter], habits: Habits, lo: int,
            kind_words: tuple[str, ...], today: _dt.date) -> str:
    """Go down the user's busiest subfolders until the depth they usually file at; invent a
    year folder (their most common kind of subfolder) only if there is none."""
    while (0 if not folder else folder.count("/") + 1) < lo:
        prefix = f"{folder}/" if folder else ""
        kids = [f for f in folders if f.startswith(prefix) and f != folder
                and "/" not in f[len(prefix):]]
        if not kids:
            top = (kind_words[1] if len(kind_words) > 1 else kind_words[0]) if kind_words else "documents"
            folder = f"{prefix}{top}" if not folder else f"{prefix}{today.year}"
            continue
        kids.sort(key=lambda f: (habits.folder_counts.get(f, 0)
                                 + sum(v for k, v in habits.folder_counts.items() if k.startswith(f + "/")), f),
                  reverse=True)
        folder = kids[0]
    return folder


def _similar_files(store: Any, want: Counter, folder: str, k: int = 5) -> list[str]:
    if not want:
        return []
    scored = []
    for p in store.paths():
        toks = {_norm(t) for t in tokens(p)}
        s = sum(1 for w in want if w in toks)
        if s:
            scored.append((s, _parent(p) == folder, p))
    scored.sort(key=lambda x: (x[0], x[1], x[2]), reverse=True)
    return [p for _, _, p in scored[:k]]


# -- the working style card -----------------------------------------------------------


def _when(ms: float | None) -> str:
    if not ms:
        return "never"
    return _dt.datetime.fromtimestamp(ms / 1000.0, _dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def style_card(profile: dict[str, Any], habits: Habits | None = None, *, max_drift: int = 5) -> str:
    """A short Markdown card for an agent's instructions file: each known tier with its
    confidence and what to do about it; unknown dimensions are left out."""
    dims = profile.get("dimensions") or {}
    lines = ["# Working style card", ""]
    n = profile.get("sessions")
    known = [d for d in DIM_ORDER if _tier(profile, d) != "unknown"]
    lines.append(f"_Learned by FileGram from {n if n is not None else 'the recorded'} work session(s); "
                 f"updated {_when(profile.get('updated_ms'))}."
                 + (" Follow these defaults unless the user says otherwise._" if known else "_"))
    lines.append("")
    if not known:
        lines.append("No working style is known yet: FileGram has not seen enough sessions.")
    for d in known:
        info = dims.get(d) or {}
        tier = _tier(profile, d)
        conf = info.get("confidence")
        conf_s = f", confidence {conf:.2f}" if isinstance(conf, int | float) else ""
        name = info.get("name") or DIM_NAMES[d]
        lines.append(f"- **{DIM_VERBS[d]}** ({d} {name}: {tier}{conf_s}): this user {ADVICE[d][tier]}")
    if habits is not None and (habits.style or habits.date_prefix or habits.top_folders):
        lines += ["", "## File conventions"]
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
    drift = [a for a in (profile.get("anomalies") or []) if isinstance(a, dict)
             and a.get("from") != a.get("to") and a.get("to") in ("L", "M", "R")
             and a.get("verdict") != "noise"
             and a.get("dimension") in known]
    if drift:
        lines += ["", "## Recent drift"]
        for a in drift[-max_drift:]:
            d = a.get("dimension")
            lines.append(f"- {a.get('label') or str(a.get('session'))[:8]}: {DIM_VERBS.get(d, d)} "
                         f"({d}) moved {a.get('from')} -> {a.get('to')} ({a.get('verdict')}); "
                         "the default above still holds unless this continues.")
    lines.append("")
    return "\n".join(lines)


# -- plots ------------------------------------------------------------------------------


def plot_profile(profile_dict: dict[str, Any], path: str | Path) -> Path:
    """Draw the six dimensions (tier and confidence) to an image; the format follows the
    extension (png, svg, pdf)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(path)
    if path.suffix.lower() not in (".png", ".svg", ".pdf", ".jpg", ".jpeg"):
        raise FileGramError(f"--plot needs a .png, .svg, .pdf or .jpg file name, not {path.name}")
    dims = profile_dict.get("dimensions") or {}
    labels, pos, confs, tiers = [], [], [], []
    for d in DIM_ORDER:
        info = dims.get(d) or {}
        tier = _tier(profile_dict, d)
        labels.append(f"{d} {info.get('name') or DIM_NAMES[d]}")
        tiers.append(tier)
        confs.append(float(info.get("confidence") or 0.0) if tier != "unknown" else 0.0)
        mp = info.get("mean_position")
        pos.append({"L": 0.0, "M": 1.0, "R": 2.0}.get(tier, float("nan")) if mp is None or tier == "unknown"
                   else float(mp))
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 3.6), gridspec_kw={"width_ratios": [3, 2]})
    ys = list(range(len(labels)))[::-1]
    for y, p, t, c in zip(ys, pos, tiers, confs, strict=True):
        if t == "unknown":
            ax1.text(1.0, y, "unknown", ha="center", va="center", color="#888")
            continue
        ax1.scatter([p], [y], s=80 + 320 * c, color="#2b6cb0", alpha=0.35 + 0.65 * c, zorder=3)
        ax1.text(p, y + 0.32, t, ha="center", va="bottom", fontsize=9)
    ax1.set_xlim(-0.4, 2.4)
    ax1.set_xticks([0, 1, 2], ["L", "M", "R"])
    ax1.set_yticks(ys, labels)
    ax1.set_ylim(-0.7, len(labels) - 0.2)
    ax1.grid(axis="x", alpha=0.3)
    ax1.set_title("tier (mean session position)")
    ax2.barh(ys, confs, color=["#2b6cb0" if t != "unknown" else "#ccc" for t in tiers])
    ax2.set_xlim(0, 1)
    ax2.set_yticks(ys, [""] * len(ys))
    ax2.set_title("confidence")
    n = profile_dict.get("sessions")
    fig.suptitle(f"FileGram working profile ({n} sessions)" if n is not None else "FileGram working profile")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


# -- one facade for the CLI, the MCP server and the dashboard ---------------------------


class Assistant:
    """The assistant-facing operations over one store and its memory.

    The daemon passes its own lock-holding accessors (its memory is consolidating in the
    background); the CLI and the MCP server use the store directly. `memory_held` is a
    context-manager factory that yields the Memory; `store_held` yields the store.
    """

    def __init__(self, store: Any, config: Any, *, memory_held: Any = None, store_held: Any = None,
                 consolidate: bool = False):
        import contextlib
        import threading

        self.store = store
        self.config = config
        self._lock = threading.RLock()
        self._memory: Any = None
        self._consolidate = consolidate
        self._consolidated = False

        @contextlib.contextmanager
        def _own_memory():  # noqa: ANN202
            with self._lock:
                if self._memory is None:
                    from filegram.memory import Memory

                    self._memory = Memory(store, config)
                if self._consolidate and not self._consolidated:
                    self._memory.consolidate()
                    self._consolidated = True
                yield self._memory

        @contextlib.contextmanager
        def _own_store():  # noqa: ANN202
            with self._lock:
                yield store

        self.memory_held = memory_held or _own_memory
        self.store_held = store_held or _own_store

    def profile(self) -> dict[str, Any]:
        with self.memory_held() as mem:
            return mem.profile()

    def ask(self, question: str, choices: list[str] | None = None) -> dict[str, Any]:
        import dataclasses

        question = (question or "").strip()
        if not question or len(question) > 4000:
            raise FileGramError("question must be 1 to 4000 characters")
        if choices is not None and not (2 <= len(choices) <= 26 and all(isinstance(c, str) and c.strip() for c in choices)):
            raise FileGramError("choices must be a list of 2 to 26 non-empty strings")
        with self.memory_held() as mem:
            ans = mem.ask(question, choices)
        out = dataclasses.asdict(ans) if dataclasses.is_dataclass(ans) else dict(ans)
        out.pop("scores", None)
        return out

    def recent_activity(self, limit: int = 20, session: str | None = None,
                        types: list[str] | None = None) -> list[dict[str, Any]]:
        from filegram.schema import ACTION_TYPES, primary_path

        limit = max(1, min(int(limit), 500))
        bad = [t for t in types or [] if t not in ACTION_TYPES]
        if bad:
            raise FileGramError(f"unknown action type(s): {', '.join(bad)}")
        with self.store_held() as st:
            acts = list(st.actions(session_id=session, types=types or None, limit=limit, newest_first=True))
        return [{"time": _when(a.get("timestamp")), "timestamp": a.get("timestamp"),
                 "type": a["event_type"], "path": primary_path(a), "session": a.get("session_id"),
                 "detail": describe_action(a)} for a in acts]

    def search(self, query: str, k: int = 5) -> dict[str, Any]:
        query = (query or "").strip()
        if not query:
            raise FileGramError("search needs a query")
        k = max(1, min(int(k), 50))
        with self.memory_held() as mem:
            hits = mem.search(query, k)
        want = {_norm(t) for t in tokens(query)}
        with self.store_held() as st:
            paths = st.paths()
        scored = sorted(((sum(1 for w in want if w in {_norm(t) for t in tokens(p)}), p) for p in paths),
                        key=lambda x: (-x[0], x[1]))
        return {
            "memory": [{"session": h.get("session"), "kind": h.get("kind"), "path": h.get("path"),
                        "text": (h.get("text") or "")[:600], "score": h.get("score")} for h in hits],
            "paths": [p for s, p in scored[:k] if s > 0],
        }

    def habits(self) -> Habits:
        with self.store_held() as st:
            return learn_habits(st)

    def suggest(self, text: str, kind: str | None = None) -> dict[str, Any]:
        prof = self.profile()
        with self.store_held() as st:
            out = suggest_name(st, prof, text, kind)
        out["absolute_path"] = absolute_path(out["path"], self.config["recorder"]["roots"])
        return out

    def card(self) -> str:
        return style_card(self.profile(), self.habits())


def absolute_path(rel: str, roots: list[str]) -> str | None:
    """Where a stored relative path lives on disk: under the one recorded root, or (with
    several roots, whose names prefix stored paths) under the root its first part names."""
    paths = [Path(r).expanduser() for r in roots or []]
    if len(paths) == 1:
        return str(paths[0] / rel)
    first, _, rest = rel.partition("/")
    for root in paths:
        if root.name == first and rest:
            return str(root / rest)
    return None


def describe_action(a: dict[str, Any]) -> str:
    """One readable line for an action (the dashboard's and MCP's recent activity)."""
    t = a.get("event_type")
    if t == "file_read":
        vr = a.get("view_range")
        return f"read {a.get('file_path')}" + (f" lines {vr[0]}-{vr[1]}" if isinstance(vr, list) and len(vr) == 2 else "")
    if t == "file_write":
        return f"{a.get('operation') or 'wrote'} {a.get('file_path')} ({a.get('content_length') or 0} chars)"
    if t == "file_edit":
        return f"edited {a.get('file_path')} ({a.get('diff_summary') or ''})"
    if t == "file_search":
        return f"searched {a.get('query')!r} ({a.get('search_type')}), {a.get('files_matched')} match(es)"
    if t == "file_browse":
        return f"listed {a.get('directory_path')} ({a.get('files_listed')} files)"
    if t in ("file_move", "file_rename"):
        return f"{'moved' if t == 'file_move' else 'renamed'} {a.get('old_path')} -> {a.get('new_path')}"
    if t == "file_copy":
        return f"copied {a.get('source_path')} -> {a.get('dest_path')}" + (" (backup)" if a.get("is_backup") else "")
    if t == "file_delete":
        return f"deleted {a.get('file_path')}" + (" (temporary)" if a.get("was_temporary") else "")
    if t == "dir_create":
        return f"created folder {a.get('dir_path')}"
    if t == "context_switch":
        return f"switched {a.get('from_file')} -> {a.get('to_file')}"
    if t == "cross_file_reference":
        return f"{a.get('reference_type')}: {a.get('source_file')} -> {a.get('target_file')}"
    return str(t)
