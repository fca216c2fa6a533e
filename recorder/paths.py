"""Which paths the recorder may see, and how they are named in stored events.

Stored events name paths relative to the watched root (several roots: prefixed with the
root folder's name), so a trace never leaks where the user keeps their files and matches
the simulator's workspace-relative paths. The deny check runs here, before anything is
queued: a denied path must leave no trace at all, not even in a log line.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from filegram.naming import is_editor_artifact
from filegram.privacy import PathFilter, matches_any, redact_path
from filegram.store import text_of

from .dbfiles import database_companion


@dataclass(frozen=True)
class Root:
    path: str  # absolute, resolved, no trailing slash
    prefix: str  # "" for a single root, else the root folder's name


class _FastFilter:
    """PathFilter's verdicts, fast enough for 100,000 events a second: the single-name
    globs are compiled into one regex each, and folder verdicts are cached."""

    def __init__(self, pf: PathFilter):
        self.pf = pf
        single_deny = [p.strip("/") for p in pf.deny if "/" not in p.strip("/")]
        single_ignore = [p.strip("/") for p in pf.ignore if "/" not in p.strip("/")]
        self.multi_deny = [p for p in pf.deny if "/" in p.strip("/")]
        self.multi_ignore = [p for p in pf.ignore if "/" in p.strip("/")]
        self.deny_re = re.compile("|".join(f"(?:{fnmatch.translate(p)})" for p in single_deny) or "(?!)")
        self.ignore_re = re.compile("|".join(f"(?:{fnmatch.translate(p)})" for p in single_ignore) or "(?!)")
        self._dir_cache: dict[str, tuple[bool, bool]] = {}

    def _names(self, inner: str) -> tuple[bool, bool]:
        """(denied, ignored) looking at the names only."""
        denied = ignored = False
        for part in inner.split("/"):
            if not part:
                continue
            if self.deny_re.match(part):
                denied = True
                break
            if not ignored and self.ignore_re.match(part):
                ignored = True
        return denied, ignored

    def verdict(self, inner: str) -> tuple[bool, bool]:
        head, _, name = inner.rpartition("/")
        d = self._dir_cache.get(head)
        if d is None:
            d = self._names(head)
            if self.multi_deny and not d[0]:
                d = (matches_any(head, self.multi_deny), d[1])
            if self.multi_ignore and not d[1]:
                d = (d[0], matches_any(head, self.multi_ignore))
            if len(self._dir_cache) > 50_000:
                self._dir_cache.clear()
            self._dir_cache[head] = d
        if d[0]:
            return True, True
        denied = bool(self.deny_re.match(name)) or (bool(self.multi_deny) and matches_any(inner, self.multi_deny))
        if denied:
            return True, True
        ignored = d[1] or bool(self.ignore_re.match(name)) or (bool(self.multi_ignore) and matches_any(inner, self.multi_ignore))
        return False, ignored


class RootSet:
    """Maps absolute paths to stored (relative) names and applies the privacy filters."""

    def __init__(self, roots: Sequence[Path | str], path_filter: PathFilter, home_root: Path | None = None, own_files: Sequence[str] = ()):
        resolved = [str(Path(r).expanduser().resolve()) for r in roots]
        multi = len(resolved) > 1
        names: dict[str, int] = {}
        out = []
        for r in resolved:
            base = os.path.basename(r) or "root"
            n = names.get(base, 0)
            names[base] = n + 1
            prefix = (base if n == 0 else f"{base}-{n + 1}") if multi else ""
            out.append(Root(r, prefix))
        # Longest first, so a nested root wins.
        self.roots = sorted(out, key=lambda r: -len(r.path))
        self.filter = path_filter
        self._fast = _FastFilter(path_filter)
        self.home_root = str(home_root.resolve()) if home_root else None
        # FileGram's own database (and its -wal/-shm companions), wherever it lives
        self.own_files = tuple(str(Path(f).resolve()) for f in own_files)

    def root_of(self, abs_path: str) -> Root | None:
        for r in self.roots:
            if abs_path == r.path or abs_path.startswith(r.path + os.sep):
                return r
        return None

    def rel(self, abs_path: str) -> str | None:
        """The stored name of a path, or None when it is outside every root."""
        r = self.root_of(abs_path)
        if r is None:
            return None
        inner = abs_path[len(r.path) + 1 :].replace(os.sep, "/") if abs_path != r.path else ""
        inner = redact_path(text_of(inner))  # escaped when not UTF-8 (r\xe9sum\xe9.txt); no secret in a name
        if r.prefix:
            return f"{r.prefix}/{inner}" if inner else r.prefix
        return inner or "."

    def abs(self, rel: str) -> str | None:
        """The absolute path of a stored name (rel's inverse), or None."""
        if len(self.roots) == 1 and not self.roots[0].prefix:
            r = self.roots[0]
            return r.path if rel in (".", "") else os.path.join(r.path, rel.replace("/", os.sep))
        head, _, rest = rel.partition("/")
        for r in self.roots:
            if r.prefix == head:
                return os.path.join(r.path, rest.replace("/", os.sep)) if rest else r.path
        return None

    def inner(self, abs_path: str) -> str | None:
        """The path relative to its own root (what the filters see)."""
        r = self.root_of(abs_path)
        if r is None:
            return None
        return abs_path[len(r.path) + 1 :].replace(os.sep, "/") if abs_path != r.path else ""

    def denied(self, abs_path: str) -> bool:
        inner = self.inner(abs_path)
        if inner is None:
            return self.filter.denied(abs_path)
        return self._fast.verdict(inner)[0] if inner else False

    def visible(self, abs_path: str) -> bool:
        """False for anything the recorder must not record: outside the roots, denied,
        ignored, or FileGram's own data folder."""
        inner = self.inner(abs_path)
        if inner is None:
            return False
        if self.home_root and (abs_path == self.home_root or abs_path.startswith(self.home_root + os.sep)):
            return False
        if self.own_files and abs_path.startswith(self.own_files):
            return False
        if not inner:
            return True
        denied, ignored = self._fast.verdict(inner)
        return not denied and not ignored

    def contains(self, abs_path: str) -> bool:
        return self.root_of(abs_path) is not None

    def overlapping(self, abs_path: str) -> list[Root]:
        """Roots a path lies in or contains (a search over ~ covers a root below it)."""
        out = []
        for r in self.roots:
            if abs_path == r.path or abs_path.startswith(r.path + os.sep) or r.path.startswith(abs_path.rstrip(os.sep) + os.sep):
                out.append(r)
        return out


def under(path: str, top: str) -> bool:
    """Whether path is top or lies below it (plain strings, no file system access)."""
    return path == top or path.startswith(top.rstrip(os.sep) + os.sep)


def iter_tree(top: str, roots: RootSet, *, include_dirs: bool = True) -> Iterable[tuple[str, os.stat_result, bool]]:
    """Walk a folder without following links, skipping what the recorder must not see.

    Yields (abs_path, stat, is_dir). Errors (a folder removed mid-walk) are skipped.
    """
    stack = [top]
    while stack:
        d = stack.pop()
        try:
            it = os.scandir(d)
        except OSError:
            continue
        with it:
            entries = list(it)
        for e in entries:
            p = e.path
            if not roots.visible(p):
                continue
            try:
                st = e.stat(follow_symlinks=False)
            except OSError:
                continue
            if e.is_dir(follow_symlinks=False):
                if include_dirs:
                    yield p, st, True
                stack.append(p)
            elif e.is_file(follow_symlinks=False):
                if is_editor_artifact(e.name) or database_companion(p):
                    continue  # an editor's or SQLite's housekeeping (dbfiles)
                yield p, st, False
