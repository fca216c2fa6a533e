"""Bulk operations (tar x, rm -rf, cp -r, git checkout): counted and summarised per
folder instead of recorded file by file.

A folder turns busy when more than `limit` events hit it within a second. From then on
its events are only counted, and what was still waiting to settle there is swept into the
count; when the folder has been quiet for BULK_QUIET_MS the episode becomes a few summary
actions marked "bulk": true (a copy of a folder, N files written, N deleted ...).

The summariser is owned by the interpreter and works on what it is given: the roots, the
file state, the interpreter's pending events and its output.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from filegram.naming import backup_of, looks_like_backup
from filegram.schema import dir_depth_of

from .output import Output
from .paths import RootSet
from .pending import Pending, PendingRead
from .state import FileInfo, FileState

MAX_BULK_SOURCES = 100_000
NAME_SAMPLE = 2000  # names of created files kept per episode to tell a copy (see _copied)
BULK_WINDOW_MS = 1000.0  # events per this window decide whether a folder is busy
BULK_QUIET_MS = 2000.0  # a busy folder this long without events: the episode is over


@dataclass
class BulkAgg:
    key: str
    t_first: float
    t_last: float
    creates: int = 0
    modifies: int = 0
    deletes: int = 0
    dirs: int = 0
    # The earliest change time (ctime) of a file the episode counted: when it was really
    # written. Events carry the time they were read, which a backlog can delay by seconds.
    t_written: float | None = None
    # reads elsewhere while the folder filled up: the other side of a `cp -r`
    sources: list[PendingRead] = field(default_factory=list)
    # names of files it created (a sample): a copy's sources carry the same names
    names: set[str] = field(default_factory=set)

    @property
    def empty(self) -> bool:
        return not (self.creates or self.modifies or self.deletes or self.dirs)

    @property
    def t_began(self) -> float:
        """When the episode's changes really began (see t_written)."""
        return self.t_first if self.t_written is None else min(self.t_first, self.t_written)

    def written_at(self, ctime_ns: int) -> None:
        # ctime, unlike mtime, cannot be set by the writer (tar and cp -p restore old mtimes)
        t = ctime_ns / 1e6
        if t > 0 and (self.t_written is None or t < self.t_written):
            self.t_written = t


def folder_key(roots: RootSet, path: str) -> str:
    """The folder an event counts for: the first level below its root."""
    r = roots.root_of(path)
    if r is None:
        return path
    inner = path[len(r.path) + 1 :]
    if "/" not in inner:
        return r.path
    return r.path + os.sep + inner.split("/", 1)[0]


# (folder, first t, last t, counts per kind) -> True when a known tool run took the episode
Absorb = Callable[[str, float, float, dict[str, int]], bool]


class BulkSummariser:
    def __init__(self, roots: RootSet, state: FileState, pending: Pending, output: Output, *, limit: int,
                 absorb: Absorb | None = None):
        self.absorb = absorb
        self.roots = roots
        self.state = state
        self.pending = pending
        self.output = output
        self.limit = int(limit)
        self.episodes: dict[str, BulkAgg] = {}
        self.summaries = 0
        self._hits: dict[str, deque[float]] = {}

    def __len__(self) -> int:
        return len(self.episodes)

    def _key(self, path: str) -> str:
        return folder_key(self.roots, path)

    def count(self, path: str, t: float, kind: str) -> bool:
        """Count an event for its folder; True when the folder is in bulk mode (the event
        has then been summarised). kind: create, modify, delete or dir."""
        if self.limit <= 0:
            return False
        key = self._key(path)
        agg = self.episodes.get(key)
        if agg is not None and t - agg.t_last > BULK_QUIET_MS:
            # The folder went quiet before this event (by the events' own clock): the episode
            # is over even if the worker, busy with a backlog, has not settled it yet.
            if not agg.empty:
                self._end(agg)
            del self.episodes[key]
            self._hits.pop(key, None)
            agg = None
        if agg is None:
            hits = self._hits.get(key)
            if hits is None:
                hits = self._hits[key] = deque(maxlen=self.limit + 1)
            hits.append(t)
            if len(hits) <= self.limit or t - hits[0] > BULK_WINDOW_MS:
                return False
            agg = self.episodes[key] = BulkAgg(key, hits[0], t)
            self._sweep_into(agg)
        agg.t_last = max(agg.t_last, t)
        self._count(agg, path, t, kind)
        return True

    def covering(self, path: str) -> BulkAgg | None:
        """The busy folder's episode this path belongs to, if any."""
        if not self.episodes:
            return None
        return self.episodes.get(self._key(path))

    def absorb_read(self, path: str, t: float) -> bool:
        """A read elsewhere while a folder fills up may be a copy's source: kept with the
        episode (True) until it ends and tells."""
        for agg in self.episodes.values():
            if t - agg.t_last <= BULK_WINDOW_MS and len(agg.sources) < MAX_BULK_SOURCES:
                agg.sources.append(PendingRead(path, t))
                return True
        return False

    def earliest_start(self) -> float | None:
        return min((a.t_first for a in self.episodes.values()), default=None)

    def settle(self, now: float, *, force: bool = False) -> None:
        """Episodes that went quiet (all, when forced) become summary actions."""
        for key, agg in list(self.episodes.items()):
            if force or now - agg.t_last > BULK_QUIET_MS:
                if not agg.empty:
                    self._end(agg)
                if force and now - agg.t_last <= BULK_QUIET_MS:
                    self.episodes[key] = BulkAgg(key, now, agg.t_last)
                else:
                    del self.episodes[key]
                    self._hits.pop(key, None)
        if len(self._hits) > 1000:
            self._hits = {k: v for k, v in self._hits.items() if v and now - v[-1] < BULK_QUIET_MS}

    # -- counting -----------------------------------------------------------------------

    def _count(self, agg: BulkAgg, path: str, t: float, kind: str) -> None:
        if kind == "create":
            if path not in self.state.files:
                agg.creates += 1
                if len(agg.names) < NAME_SAMPLE:
                    agg.names.add(os.path.basename(path))
                try:
                    st = os.stat(path, follow_symlinks=False)
                    size, mtime = st.st_size, st.st_mtime_ns
                    agg.written_at(st.st_ctime_ns)
                except OSError:
                    size, mtime = 0, 0
                self.state.put(path, FileInfo(self.state.new_fid(), t, size, mtime, None, False))
        elif kind == "modify":
            info = self.state.files.get(path)
            if info is not None:
                try:
                    st = os.stat(path, follow_symlinks=False)
                    info.size, info.mtime_ns, info.hash = st.st_size, st.st_mtime_ns, None
                    agg.written_at(st.st_ctime_ns)
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
        self.pending.last_change_t[path] = t

    def _sweep_into(self, agg: BulkAgg) -> None:
        """What was waiting to settle in the busy folder joins the count."""
        key = agg.key
        pre = key + os.sep
        pending = self.pending

        def under(p: str) -> bool:
            return (p.startswith(pre) or p == key) if key not in [r.path for r in self.roots.roots] else os.path.dirname(p) == key

        for p in [p for p in pending.changes if under(p)]:
            ch = pending.changes.pop(p)
            self._count(agg, p, ch.t_first, "create" if ch.kind == "create" else "modify")
        for p in [p for p in pending.new_dirs if under(p) or p == key]:
            pending.new_dirs.pop(p)
            agg.dirs += 1
        for p in [p for p in pending.deletes if under(p)]:
            pending.deletes.pop(p)
            agg.deletes += 1
        keep = []
        for r in pending.reads:
            if under(r.path):
                continue
            if not r.claimed and r.t >= agg.t_first - BULK_WINDOW_MS and len(agg.sources) < MAX_BULK_SOURCES:
                agg.sources.append(r)
            else:
                keep.append(r)
        pending.reads = keep
        pending.browses = [b for b in pending.browses if not (under(b.path) or b.path == key)]

    # -- the summary --------------------------------------------------------------------

    def _end(self, agg: BulkAgg) -> None:
        counts = {"create": agg.creates, "modify": agg.modifies, "delete": agg.deletes, "dir": agg.dirs}
        if self.absorb is not None and self.absorb(agg.key, agg.t_began, agg.t_last, counts):
            # a tool we know did this (its process was seen after the events began)
            self.pending.reads.extend(agg.sources)
            agg.sources = []
            self.summaries += 1
            return
        emit = self.output.emit
        rel = self.roots.rel(agg.key) or "."
        depth = dir_depth_of(rel if rel != "." else "")
        extra = {"bulk": True}
        sources = {r.path for r in agg.sources}
        if agg.creates and len(sources) >= 2 and _copied(sources, agg.names):
            # cp -r / a file manager's folder copy: one copy of a folder
            src_dir = os.path.commonpath(sorted(sources))
            if src_dir in sources:
                src_dir = os.path.dirname(src_dir)
            rs = self.roots.rel(src_dir)
            if rs is not None:
                # the source folders were listed by the copying program, not by the user
                self.pending.recent_copy_dirs.append((agg.t_first, src_dir))
                emit("file_copy", agg.t_first, source_path=rs, dest_path=rel, is_backup=looks_like_backup(rel) or backup_of(rs, rel), bulk_count=agg.creates, **extra)
                agg.creates = agg.dirs = 0
                agg.sources = []
        if agg.sources:  # not a copy after all: these were reads
            self.pending.reads.extend(agg.sources)
            agg.sources = []
        if agg.dirs:
            emit("dir_create", agg.t_first, dir_path=rel, depth=depth, sibling_count=None, bulk_count=agg.dirs, **extra)
        if agg.creates:
            emit("file_write", agg.t_first, file_path=rel, file_type=None, directory_depth=depth, operation="create", content_length=None, before_hash=None, after_hash=None, media_ref=None, bulk_count=agg.creates, **extra)
        if agg.modifies:
            emit("file_write", agg.t_first, file_path=rel, file_type=None, directory_depth=depth, operation="overwrite", content_length=None, before_hash=None, after_hash=None, media_ref=None, bulk_count=agg.modifies, **extra)
        if agg.deletes:
            emit("file_delete", agg.t_first, file_path=rel, file_age_ms=None, was_temporary=False, bulk_count=agg.deletes, **extra)
        self.summaries += 1


def _copied(sources: set[str], created: set[str]) -> bool:
    """Whether reads elsewhere were the sources of the files created: a copy (cp -r, a file
    manager) writes files of the same names as those it reads. Reads that merely happened
    meanwhile (CI: `git add` reading its repository while a script filled another folder)
    share no names with them, and 8,000 new files were stored as a copy of the repository."""
    names = {os.path.basename(p) for p in sources}
    if not names or not created:
        return False
    return len(names & created) * 2 >= min(len(names), len(created))
