"""The user's file habits, read from what they did: the names they chose and the places they
put files.

Names the user chose (creates, renames) teach the naming convention; files the user placed
(creates, moves, copies) teach where things go. Input files merely read say nothing about
the user's habits. What a name says (its convention, a date prefix, a version, whether it is
a temporary or backup copy) is decided by filegram.naming, the rules the recorder uses too.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from filegram.naming import (
    DATE_IN_NAME_RE,
    DATE_PREFIXES,
    VERSION_IN_NAME_RE,
    looks_like_backup,
    looks_temporary,
    stem_style,
)
from filegram.store import Store

_WORD = re.compile(r"[A-Za-z]+|\d+|[\u3400-\u9fff]+")
_CAMEL_SPLIT = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_STOP = {"a", "an", "the", "of", "for", "from", "about", "in", "on", "with", "to", "and", "my",
         "our", "new", "file", "some", "this", "that", "at", "by", "into", "re"}
_SEPARATORS = " _-."


def split_version(stem: str) -> tuple[str, str | None]:
    """(stem without it, version) when a name ends with a version marker after a separator
    (`_v2`, ` final`, `-draft`, `.rev3`), else (stem, None)."""
    cut = max(stem.rfind(c) for c in _SEPARATORS)
    if cut < 0:
        return stem, None
    m = VERSION_IN_NAME_RE.fullmatch(stem, cut)
    if m is None:
        return stem, None
    return stem[:cut], m.group(2).lower()


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
    stem, version = split_version(stem)
    return date_fmt, stem, version, ext[1:].lower()


def chosen_by_habit(name: str) -> bool:
    """False for names nobody picks by habit: hidden, temporary or scratch files, and backup
    or numbered copies. A version or a date at the end is part of a convention, not a copy."""
    if name.startswith(".") or looks_temporary(name):
        return False
    if not looks_like_backup(name):
        return True
    stem = posixpath.splitext(name)[0]
    return split_version(stem)[1] is not None or DATE_IN_NAME_RE.search(stem) is not None


def tokens(text: str) -> list[str]:
    """Lower-case words of a name or request: split on separators, camelCase and digits."""
    out = []
    for w in _WORD.findall(_CAMEL_SPLIT.sub(" ", text)):
        w = w.lower()
        if w in _STOP:
            continue
        out.append(w)
    return out


def word_stem(tok: str) -> str:
    """A crude stem so "reports" matches "report" and "emails" matches "email"."""
    if len(tok) > 4 and tok.endswith("ies"):
        return tok[:-3] + "y"
    if len(tok) > 3 and tok.endswith("s") and not tok.endswith("ss"):
        return tok[:-1]
    return tok


def name_words(path: str) -> list[str]:
    """The stemmed words of a path's file name, without its date, version and extension."""
    return [word_stem(t) for t in tokens(split_name(posixpath.basename(path))[1])]


def parent_folder(path: str) -> str:
    p = posixpath.dirname(path.strip("/"))
    return "" if p in (".", "/") else p


def folder_depth(folder: str) -> int:
    return 0 if not folder else folder.count("/") + 1


@dataclass
class Habits:
    """The user's observable file habits, from creates, renames, moves and copies."""

    names: int = 0  # names the user chose
    style: str | None = None
    style_share: float = 0.0
    style_votes: int = 0  # names that show a convention (one-word names show none)
    styles: dict[str, float] = field(default_factory=dict)
    date_prefix: str | None = None
    date_share: float = 0.0
    version_suffix: str | None = None
    version_share: float = 0.0
    placements: int = 0
    depth_median: float | None = None
    depths: dict[int, int] = field(default_factory=dict)
    extensions: dict[str, int] = field(default_factory=dict)
    top_folders: list[tuple[str, int]] = field(default_factory=list)
    # folder -> Counter of words of the files placed there
    folder_tokens: dict[str, Counter[str]] = field(default_factory=dict, repr=False)
    folder_counts: dict[str, int] = field(default_factory=dict, repr=False)
    folders_used: list[str] = field(default_factory=list, repr=False)  # folders made or filed into


def _chosen_and_placed(store: Store, limit: int) -> tuple[list[str], list[str], list[str]]:
    """(base names the user chose, paths of files they put somewhere, folders they made)."""
    chosen: list[str] = []
    placed: list[str] = []
    dirs_made: list[str] = []
    acts = store.actions(types=["file_write", "file_rename", "file_move", "file_copy", "dir_create"],
                         limit=limit, newest_first=True)
    for ev in acts:
        if ev.get("authored") is False:
            continue  # a tool's work (tar, git, pip ...): names and places the person never chose
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
    return chosen, placed, dirs_made


def _learn_names(h: Habits, chosen: list[str], dirs_made: list[str]) -> None:
    styles: Counter[str] = Counter()
    dates: Counter[str] = Counter()
    versions: Counter[str] = Counter()
    exts: Counter[str] = Counter()
    real = [n for n in chosen if chosen_by_habit(n)]
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
    votes: dict[str, float] = dict(styles)
    if sum(styles.values()) < 3:
        # few file names to go by: folder names the user made count too (file names win
        # otherwise: folders are often named after the material, not by habit)
        for d in dirs_made:
            st = stem_style(posixpath.basename(d.rstrip("/")))
            if st:
                votes[st] = votes.get(st, 0) + 0.5
    ranked = sorted(votes.items(), key=lambda kv: -kv[1])
    h.names = len(real)
    h.styles = {k: round(v, 1) for k, v in ranked}
    if ranked:
        style, n = ranked[0]
        total = sum(votes.values())
        share = n / total
        h.style_votes = round(total)
        h.style = style if share >= 0.5 and style != "mixed" else "mixed"
        h.style_share = round(share, 3)
    if real:
        h.date_share = round(sum(dates.values()) / len(real), 3)
        if h.date_share >= 0.4:
            h.date_prefix = dates.most_common(1)[0][0]
        h.version_share = round(sum(versions.values()) / len(real), 3)
        if h.version_share >= 0.4:
            kind = versions.most_common(1)[0][0]
            h.version_suffix = "v1" if kind == "v" else kind
    h.extensions = dict(exts.most_common())


def _learn_places(h: Habits, placed: list[str]) -> None:
    depth_count: Counter[int] = Counter()
    folders: Counter[str] = Counter()
    ftoks: dict[str, Counter[str]] = defaultdict(Counter)
    for p in placed:
        parent = parent_folder(p)
        depth_count[folder_depth(parent)] += 1
        folders[parent] += 1
        ftoks[parent].update(name_words(p))
    h.placements = len(placed)
    h.depths = dict(depth_count)
    if placed:
        ordered = sorted(d for d, n in depth_count.items() for _ in range(n))
        h.depth_median = float(ordered[len(ordered) // 2])
    h.top_folders = folders.most_common(8)
    h.folder_tokens = dict(ftoks)
    h.folder_counts = dict(folders)


def learn_habits(store: Store, *, limit: int = 20000) -> Habits:
    """Read the user's naming and placement habits from the store's recent actions."""
    chosen, placed, dirs_made = _chosen_and_placed(store, limit)
    h = Habits()
    _learn_names(h, chosen, dirs_made)
    _learn_places(h, placed)
    h.folders_used = sorted({d.strip("/") for d in dirs_made} | {parent_folder(p) for p in placed} - {""})
    return h
