"""Bulk operations (tar x, rm -rf, cp -r, git checkout): counted and summarised per
folder instead of recorded file by file. A mixin of the Interpreter: it shares the
interpreter's pending events, which it sweeps into the summary when a folder turns busy."""

from __future__ import annotations

import os
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from filegram.naming import backup_of, looks_like_backup
from filegram.schema import dir_depth_of

from .state import FileInfo

if TYPE_CHECKING:
    from .interpret import PendingRead

MAX_BULK_SOURCES = 100_000


@dataclass
class BulkAgg:
    key: str
    t_first: float
    t_last: float
    creates: int = 0
    modifies: int = 0
    deletes: int = 0
    dirs: int = 0
    bytes: int = 0
    # reads elsewhere while the folder filled up: the other side of a `cp -r`
    sources: list[PendingRead] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.creates or self.modifies or self.deletes or self.dirs)


class BulkMixin:
    """Uses the interpreter's roots, state, pending events, counters and _emit."""

    roots: Any
    state: Any
    bulk_limit: int
    bulk: dict[str, BulkAgg]
    _bulk_hits: dict[str, deque[float]]

    def _bulk_key(self, path: str) -> str:
        r = self.roots.root_of(path)
        if r is None:
            return path
        inner = path[len(r.path) + 1 :]
        if "/" not in inner:
            return r.path
        return r.path + os.sep + inner.split("/", 1)[0]

    def _bulk(self, path: str, t: float, kind: str) -> bool:
        """Count an event for its folder; True when the folder is in bulk mode (the event
        has then been summarised)."""
        if self.bulk_limit <= 0:
            return False
        key = self._bulk_key(path)
        agg = self.bulk.get(key)
        if agg is None:
            hits = self._bulk_hits.get(key)
            if hits is None:
                hits = self._bulk_hits[key] = deque(maxlen=self.bulk_limit + 1)
            hits.append(t)
            if len(hits) <= self.bulk_limit or t - hits[0] > 1000.0:
                return False
            agg = self.bulk[key] = BulkAgg(key, hits[0], t)
            self._sweep_into_bulk(agg)
        agg.t_last = max(agg.t_last, t)
        self._count_bulk(agg, path, t, kind)
        return True

    def _count_bulk(self, agg: BulkAgg, path: str, t: float, kind: str) -> None:
        if kind == "create":
            if path not in self.state.files:
                agg.creates += 1
                try:
                    st = os.stat(path, follow_symlinks=False)
                    size, mtime = st.st_size, st.st_mtime_ns
                except OSError:
                    size, mtime = 0, 0
                self.state.put(path, FileInfo(self.state.new_fid(), t, size, mtime, None, False))
        elif kind == "modify":
            info = self.state.files.get(path)
            if info is not None:
                try:
                    st = os.stat(path, follow_symlinks=False)
                    agg.bytes += max(st.st_size - info.size, 0)
                    info.size, info.mtime_ns, info.hash = st.st_size, st.st_mtime_ns, None
                    self.state.put(path, info)
                except OSError:
                    pass
        elif kind == "delete":
            info = self.state.pop(path)
            if info is not None:
                self.state.forget(info)
                agg.deletes += 1
        elif kind == "dir":
            if path not in self.state.dirs:
                self.state.dirs.add(path)
                agg.dirs += 1
        self.last_change_t[path] = t

    def _in_bulk(self, path: str) -> BulkAgg | None:
        if not self.bulk:
            return None
        return self.bulk.get(self._bulk_key(path))

    def _sweep_into_bulk(self, agg: BulkAgg) -> None:
        key = agg.key
        pre = key + os.sep

        def under(p: str) -> bool:
            return (p.startswith(pre) or p == key) if key not in [r.path for r in self.roots.roots] else os.path.dirname(p) == key

        for p in [p for p in self.changes if under(p)]:
            ch = self.changes.pop(p)
            self._count_bulk(agg, p, ch.t_first, "create" if ch.kind == "create" else "modify")
        for p in [p for p in self.new_dirs if under(p) or p == key]:
            self.new_dirs.pop(p)
            agg.dirs += 1
        for p in [p for p in self.deletes if under(p)]:
            self.deletes.pop(p)
            agg.deletes += 1
        keep = []
        for r in self.reads:
            if under(r.path):
                continue
            if not r.claimed and r.t >= agg.t_first - 1000.0 and len(agg.sources) < MAX_BULK_SOURCES:
                agg.sources.append(r)
            else:
                keep.append(r)
        self.reads = keep
        self.browses = [b for b in self.browses if not (under(b.path) or b.path == key)]

    def _end_bulk(self, agg: BulkAgg) -> None:
        rel = self.roots.rel(agg.key) or "."
        extra = {"bulk": True}
        sources = {r.path for r in agg.sources}
        if agg.creates and len(sources) >= 2:
            # cp -r / a file manager's folder copy: one copy of a folder
            src_dir = os.path.commonpath(sorted(sources))
            if src_dir in sources:
                src_dir = os.path.dirname(src_dir)
            rs = self.roots.rel(src_dir)
            if rs is not None:
                # the source folders were listed by the copying program, not by the user
                self.recent_copy_dirs.append((agg.t_first, src_dir))
                self._emit("file_copy", agg.t_first, source_path=rs, dest_path=rel, is_backup=looks_like_backup(rel) or backup_of(rs, rel), bulk_count=agg.creates, **extra)
                agg.creates = agg.dirs = 0
                agg.sources = []
        if agg.sources:  # not a copy after all: these were reads
            self.reads.extend(agg.sources)
            agg.sources = []
        if agg.dirs:
            self._emit("dir_create", agg.t_first, dir_path=rel, depth=dir_depth_of(rel if rel != "." else ""), sibling_count=None, bulk_count=agg.dirs, **extra)
        if agg.creates:
            self._emit("file_write", agg.t_first, file_path=rel, file_type=None, directory_depth=dir_depth_of(rel if rel != "." else ""), operation="create", content_length=None, before_hash=None, after_hash=None, media_ref=None, bulk_count=agg.creates, **extra)
        if agg.modifies:
            self._emit("file_write", agg.t_first, file_path=rel, file_type=None, directory_depth=dir_depth_of(rel if rel != "." else ""), operation="overwrite", content_length=None, before_hash=None, after_hash=None, media_ref=None, bulk_count=agg.modifies, **extra)
        if agg.deletes:
            self._emit("file_delete", agg.t_first, file_path=rel, file_age_ms=None, was_temporary=False, bulk_count=agg.deletes, **extra)
        self.counters["bulk_summaries"] += 1

