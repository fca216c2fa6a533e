"""Whole-tree comparisons: the baseline at start (know every file, snapshot the small
text ones) and the rescan after an inotify overflow (record what changed while events
were lost). A mixin of the Interpreter."""

from __future__ import annotations

from typing import Any

from .content import read_content
from .paths import iter_tree
from .state import FileInfo

FRESH_DIR_MS = 1500.0


class ScanMixin:
    """Uses the interpreter's roots, state, pending events and event handlers."""

    roots: Any
    state: Any
    counters: dict[str, int]

    def rescan(self, now: float, where: str | None = None) -> None:
        """The kernel dropped events: compare the affected root (all roots if unknown)
        with what we knew and record the difference (new, changed and vanished files, new
        folders). Reads in the lost stretch cannot be recovered."""
        self.counters["rescans"] += 1
        self.ignore_dir_opens_until = now + FRESH_DIR_MS
        seen_files: set[str] = set()
        hit = self.roots.root_of(where) if where else None
        roots = [hit] if hit is not None else list(self.roots.roots)
        for r in roots:
            self.state.expect_self_dir(r.path)
            for p, st, is_dir in iter_tree(r.path, self.roots):
                if is_dir:
                    self.state.expect_self_dir(p)
                    if p not in self.state.dirs and p not in self.new_dirs:
                        self._dir_created(p, now)
                    continue
                seen_files.add(p)
                info = self.state.files.get(p)
                if p in self.changes:
                    continue
                if info is None:
                    self._changed(p, now, created=True)
                elif info.size != st.st_size or info.mtime_ns != st.st_mtime_ns:
                    self._changed(p, now, created=False)
        for p in [p for p in self.state.files if p not in seen_files and self.roots.root_of(p) in roots]:
            if p not in self.changes and p not in self.displaced:
                self._deleted(p, now)

    # -- initial scan ---------------------------------------------------------------------

    def baseline(self, budget_bytes: int) -> dict[str, int]:
        """Know every file under the roots before recording, with text snapshots up to a
        byte budget, so the first edit of a file has a "before"."""
        known = self.state.load([r.path for r in self.roots.roots])
        spent = 0
        files = dirs = snaps = 0
        present: set[str] = set()
        for r in self.roots.roots:
            for p, st, is_dir in iter_tree(r.path, self.roots):
                if is_dir:
                    self.state.dirs.add(p)
                    dirs += 1
                    continue
                files += 1
                present.add(p)
                old = known.get(p)
                if old is not None and old.size == st.st_size and old.mtime_ns == st.st_mtime_ns:
                    self.state.files[p] = old
                    continue
                first = old.first_seen_ms if old is not None else st.st_mtime_ns / 1e6
                if spent + st.st_size <= budget_bytes and st.st_size <= self.snap_max:
                    c = read_content(p, self.snap_max, redact=self.redact)
                    if c is not None:
                        spent += c.size
                        snaps += c.text is not None
                        info = FileInfo(old.fid if old else self.state.new_fid(), first, c.size, st.st_mtime_ns, c.hash, c.is_text)
                        self.state.put(p, info, c.text)
                        continue
                info = FileInfo(old.fid if old else self.state.new_fid(), first, st.st_size, st.st_mtime_ns, None, False)
                self.state.put(p, info)
        for p, info in known.items():
            if p not in present:
                self.state.pop(p)
                self.state.forget(info)
        return {"files": files, "dirs": dirs, "snapshots": snaps, "snapshot_bytes": spent}
