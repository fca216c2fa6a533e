"""From screen to actions: a window that shows a watched file becomes a file_read.

macOS and Windows report no reads at all, and even inotify misses a file an editor keeps
in memory while the user looks at it again. Editors, viewers and file managers put the
file or folder name in their window title ("notes.md - ~/work - Vim", "report.md (~/docs)
- gedit", "docs - Thunar"), so the active window says what is being looked at. A title
is matched against the names of files that exist under the watched roots (an index of
names rebuilt at most once a minute), and the action carries "source": "screen" so no
consumer mistakes it for a kernel event. One look at a file is one action: the same
window staying active adds nothing; coming back to it later is a new view.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from filegram.privacy import PathFilter
from filegram.schema import depth_of, dir_depth_of, file_type_of

from ..paths import RootSet, iter_tree
from .window import Window

FILE_MANAGERS = {
    "nautilus", "org.gnome.nautilus", "thunar", "dolphin", "pcmanfm", "pcmanfm-qt", "nemo",
    "caja", "konqueror", "spacefm", "doublecmd", "krusader", "xfe", "explorer", "finder",
    "files", "org.gnome.files",
}
BROWSERS = {
    "firefox", "firefox-esr", "chrome", "google-chrome", "chromium", "chromium-browser",
    "brave", "brave-browser", "msedge", "microsoft-edge", "safari", "opera", "vivaldi",
    "epiphany", "navigator",
}
_SEPARATORS = re.compile(r"\s+[-—–|·•:]\s+|\s*[()\[\]]\s*|\s+@\s+|^[*●•]\s*|\s*[*●•]$|:\s+")
_EXPLICIT = re.compile(r"(?:file://)?(~|/)[^\s\"'()\[\]<>|*]*")
_MARKERS = ("[+]", "[-]", "[RO]", "*", "●", "•")
INDEX_MAX_NAMES = 200_000
INDEX_REFRESH_S = 60.0
INDEX_MIN_REBUILD_S = 10.0


@dataclass(frozen=True)
class Seen:
    """What a window title shows: a file (read) or a folder (browse), by stored name."""

    event_type: str  # "file_read" | "file_browse"
    rel: str
    abs_path: str
    candidates: int = 1


def _app_key(win: Window) -> set[str]:
    keys = {win.app.lower()} if win.app else set()
    keys.update(c.lower() for c in win.wm_class)
    return keys


class TitleMatcher:
    """Finds the watched file or folder a window title names.

    The names come from the store's path index (every path the file recorder has stored)
    and, where the file recorder cannot see folder listings (macOS, Windows, polled
    roots), from walking the roots. On Linux the roots are never walked: inotify would
    report the walk's folder opens as the user browsing them. Folders named in a title
    ("report.md (~/work/docs)") are probed with stat, which no file watcher reports.
    """

    def __init__(self, roots: Sequence[Path | str], path_filter: PathFilter, home_root: Path | None = None,
                 own_files: Sequence[str] = (), *, known_paths: Callable[[], Iterable[str]] | None = None,
                 walk: bool | None = None):
        self.root_paths = [Path(r).expanduser().resolve() for r in roots]
        self.roots = RootSet(self.root_paths, path_filter, home_root, own_files=own_files)
        self.known_paths = known_paths
        self.walk = (not sys.platform.startswith("linux")) if walk is None else walk
        self._files: dict[str, list[str]] = {}
        self._dirs: dict[str, list[str]] = {}
        self._children: dict[str, set[str]] = {}
        self._built = 0.0
        self._cache: tuple[str, float, Seen | None] | None = None

    # -- the name index -----------------------------------------------------------------

    def abs_of(self, rel: str) -> str | None:
        """The absolute path of a stored (root-relative, maybe prefixed) name."""
        for r in self.roots.roots:
            if not r.prefix:
                return os.path.join(r.path, rel) if rel not in ("", ".") else r.path
            if rel == r.prefix:
                return r.path
            if rel.startswith(r.prefix + "/"):
                return os.path.join(r.path, rel[len(r.prefix) + 1:])
        return None

    def _build(self) -> None:
        files: dict[str, set[str]] = {}
        dirs: dict[str, set[str]] = {}
        children: dict[str, set[str]] = {}
        n = 0

        def add(p: str, is_dir: bool) -> None:
            (dirs if is_dir else files).setdefault(os.path.basename(p), set()).add(p)
            children.setdefault(os.path.dirname(p), set()).add(p)

        for top in self.roots.roots:
            dirs.setdefault(os.path.basename(top.path), set()).add(top.path)
        if self.known_paths is not None:
            try:
                known = list(self.known_paths())
            except Exception:  # noqa: BLE001 - a busy store: keep the names we can walk
                known = []
            for rel in known[:INDEX_MAX_NAMES]:
                ap = self.abs_of(rel)
                if ap is None or not self.roots.visible(ap):
                    continue
                add(ap, False)
                parent = os.path.dirname(ap)
                while self.roots.contains(parent) and parent not in children.get(os.path.dirname(parent), ()):
                    add(parent, True)
                    parent = os.path.dirname(parent)
        if self.walk:
            for top in self.roots.roots:
                for p, _st, is_dir in iter_tree(top.path, self.roots):
                    add(p, is_dir)
                    n += 1
                    if n >= INDEX_MAX_NAMES:
                        break
        self._files = {k: sorted(v) for k, v in files.items()}
        self._dirs = {k: sorted(v) for k, v in dirs.items()}
        self._children = children
        self._built = time.monotonic()

    def listed(self, abs_dir: str) -> int | None:
        """Entries of a folder known to the index (None when nothing is known)."""
        kids = self._children.get(abs_dir)
        return len(kids) if kids else None

    def _index(self, force: bool = False) -> None:
        if force or not self._built or time.monotonic() - self._built > INDEX_REFRESH_S:
            self._build()

    # -- matching -----------------------------------------------------------------------

    def _parts(self, title: str) -> tuple[list[str], list[str]]:
        """(name candidates, explicit absolute paths) in a title."""
        explicit = []
        for m in _EXPLICIT.finditer(title):
            s = m.group(0)
            if s.startswith("file://"):
                s = s[len("file://"):]
            if s in ("/", "~") or len(s) < 2:
                continue
            explicit.append(os.path.expanduser(s.rstrip("/.,;:")))
        names = []
        for seg in _SEPARATORS.split(title):
            seg = seg.strip()
            for mk in _MARKERS:
                seg = seg.replace(mk, "").strip()
            if seg:
                names.append(seg)
                names.extend(seg.split())
        names.extend(os.path.basename(p) for p in explicit)
        return list(dict.fromkeys(n for n in names if len(n) >= 2)), explicit

    def _visible(self, p: str) -> bool:
        return self.roots.visible(p) and os.path.exists(p)

    def match(self, win: Window | None) -> Seen | None:
        """The file or folder the window shows, or None."""
        if win is None or not win.title:
            return None
        apps = _app_key(win)
        key = win.title + "\x00" + ",".join(sorted(apps))
        if self._cache and self._cache[0] == key and self._cache[1] == self._built \
                and time.monotonic() - self._built < INDEX_REFRESH_S:
            return self._cache[2]
        seen = self._match(win.title, apps)
        if seen is None and self._built and time.monotonic() - self._built > INDEX_MIN_REBUILD_S:
            self._index(force=True)  # a file created since the last build?
            seen = self._match(win.title, apps)
        self._cache = (key, self._built, seen)
        return seen

    def _match(self, title: str, apps: set[str]) -> Seen | None:
        self._index()
        names, explicit = self._parts(title)
        is_fm = bool(apps & FILE_MANAGERS)
        is_browser = bool(apps & BROWSERS)
        # 1. an explicit path naming a file or folder under a root wins
        for p in explicit:
            ap = os.path.realpath(p)
            if not self.roots.contains(ap) or not self._visible(ap):
                continue
            if os.path.isfile(ap):
                return self._seen("file_read", ap)
            if os.path.isdir(ap) and is_fm:
                return self._seen("file_browse", ap)
        hint_dirs = {os.path.realpath(p) for p in explicit if os.path.isdir(os.path.realpath(p))}
        hint_names = set(names)
        if is_browser:
            return None  # "README.md · GitHub" is a web page, not the local README.md
        # 2a. a name in a folder the title names ("report.md (~/work/docs)"): stat only
        for d in sorted(hint_dirs):
            if not self.roots.contains(d):
                continue
            for name in names:
                if "/" in name:
                    continue
                cand = os.path.join(d, name)
                if os.path.isfile(cand) and self._visible(cand):
                    return self._seen("file_read", cand)
        # 2b. a file name that exists under a root
        for name in names:
            paths = [p for p in self._files.get(name, ()) if self._visible(p)]
            if not paths:
                continue
            if len(paths) > 1:
                hinted = [p for p in paths if os.path.dirname(p) in hint_dirs]
                if not hinted:
                    hinted = [p for p in paths if os.path.basename(os.path.dirname(p)) in hint_names]
                pool = hinted or paths
                best = max(pool, key=_mtime)
                return self._seen("file_read", best, candidates=len(pool))
            return self._seen("file_read", paths[0])
        # 3. a file manager showing a folder under a root
        if is_fm:
            for name in names:
                paths = [p for p in self._dirs.get(name, ()) if self._visible(p)]
                if paths:
                    best = max(paths, key=_mtime)
                    return self._seen("file_browse", best, candidates=len(paths))
        return None

    def _seen(self, etype: str, abs_path: str, candidates: int = 1) -> Seen | None:
        rel = self.roots.rel(abs_path)
        if rel is None:
            return None
        return Seen(etype, rel, abs_path, candidates)


def _mtime(p: str) -> float:
    try:
        return os.stat(p).st_mtime
    except OSError:
        return 0.0


def action_fields(seen: Seen, app: str, listed: int | None = None) -> dict[str, Any]:
    """The FileGram fields of the action, plus the source marker (extra fields are kept)."""
    if seen.event_type == "file_read":
        try:
            size: int | None = os.path.getsize(seen.abs_path)
        except OSError:
            size = None
        fields: dict[str, Any] = {
            "file_path": seen.rel,
            "file_type": file_type_of(seen.rel),
            "directory_depth": depth_of(seen.rel),
            "content_length": size,
        }
    else:
        fields = {
            "directory_path": seen.rel,
            "files_listed": listed,  # from the index: listing it here would be a browse itself
            "depth": dir_depth_of(seen.rel) if seen.rel != "." else 0,
        }
    fields["source"] = "screen"
    if app:
        fields["app"] = app
    if seen.candidates > 1:
        fields["candidates"] = seen.candidates
    return fields
