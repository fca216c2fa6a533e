"""From raw file-system events to FileGram's atomic actions.

Programs do not save files the way people think of saving them: vim renames the file to a
backup, writes a new one and deletes the backup; VS Code, JetBrains, gedit and sed write a
temporary file and rename it over the original; LibreOffice and emacs leave lock files.
Every raw event therefore waits a short settle window (settle_ms) for its follow-ups, and
the whole sequence becomes the one action the user performed: a save is one file_edit on
the real path, never a phantom create, move or delete of a temporary file.

The interpreter is single-threaded and knows nothing about sessions; it produces "primary"
actions (file_read..file_copy, file_search, file_browse) with timestamps, and the recorder
derives view counts, context switches and cross-file references from them in time order.
"""

from __future__ import annotations

import logging
import os
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from filegram.naming import (
    backup_of,
    is_editor_artifact,
    looks_like_backup,
    looks_like_temp_save,
    naming_change,
)
from filegram.schema import depth_of, dir_depth_of, file_type_of
from filegram.store import content_hash

from .bulk import MAX_BULK_SOURCES, BulkAgg, BulkMixin
from .content import Content, line_diff, read_content, shares_lines
from .paths import RootSet, iter_tree
from .procs import SearchSpec
from .scan import FRESH_DIR_MS, ScanMixin
from .searchmatch import content_pattern, name_matches
from .state import FileInfo, FileState
from .watch import Raw

log = logging.getLogger("filegram.recorder")

READ_GRACE_MS = 200.0  # reads wait a little longer than changes, so a copy can claim them
COPY_WINDOW_MS = 3000.0
RW_SAME_PROGRAM_MS = 3.0  # a read this close to a rewrite of the same file is the rewrite's
RW_FOLLOW_MS = 300.0  # ... or a rewrite that follows the read this quickly (sed -i, vim -es)
DOUBLE_READ_MS = 100.0
TEMP_SAVE_WAIT_MS = 5000.0  # a new file named like a save's temporary waits for its rename
OWN_LISTING_MS = 20.0  # a folder listed this shortly before one of its files is opened
SEARCH_GRACE_MS = 300.0
SEARCH_MAX_WAIT_MS = 30_000.0
TRAVERSAL_GAP_MS = 300.0
BULK_QUIET_MS = 2000.0
MATCH_SCAN_MAX_FILES = 5000


def media_ref(kind: str, h: str) -> dict[str, str]:
    if kind == "diff":
        return {"type": "diff", "hash": h, "path": f"media/diffs/{h}.diff"}
    return {"type": "blob", "hash": h, "path": f"media/blobs/{h}.blob"}


@dataclass
class Change:
    kind: str  # "create" | "modify"
    t_first: float
    t_last: float
    before: FileInfo | None = None
    tool: str = "write"  # how the save happened: write (in place), rename, vim
    copy_of: str | None = None


@dataclass
class PendingRead:
    path: str
    t: float
    claimed: str | None = None  # "copy", "search", "rewrite"
    hash: str | None = None
    content: Content | None = None


@dataclass
class PendingBrowse:
    path: str
    t: float
    done: bool = False


@dataclass
class PendingDelete:
    info: FileInfo
    t: float


@dataclass
class Displaced:
    dest: str
    info: FileInfo | None
    t: float


@dataclass
class PendingDir:
    path: str
    t: float


@dataclass
class ActiveSearch:
    spec: SearchSpec
    t_end: float | None = None
    scanned: set[str] = field(default_factory=set)
    dirs: int = 0

    def covers(self, path: str, t: float) -> bool:
        if t < self.spec.t_start - 50:
            return False
        if self.t_end is not None and t > self.t_end + SEARCH_GRACE_MS:
            return False
        if path == self.spec.cwd:
            return True  # find opens its working folder to come back to it
        for p in self.spec.paths:
            if path == p or path.startswith(p.rstrip(os.sep) + os.sep):
                return True
        return False


class Interpreter(BulkMixin, ScanMixin):
    def __init__(
        self,
        roots: RootSet,
        state: FileState,
        *,
        settle_ms: float = 400.0,
        snapshot_max_bytes: int = 1 << 20,
        redact: bool = True,
        bulk_per_second: int = 200,
    ):
        self.roots = roots
        self.state = state
        self.settle = float(settle_ms)
        self.snap_max = int(snapshot_max_bytes)
        self.redact = redact
        self.bulk_limit = int(bulk_per_second)
        self.out: list[dict[str, Any]] = []
        self.blobs: list[tuple[bytes, str, str | None]] = []
        self.changes: dict[str, Change] = {}
        self.reads: list[PendingRead] = []
        self.browses: list[PendingBrowse] = []
        self.deletes: dict[str, PendingDelete] = {}
        self.displaced: dict[str, Displaced] = {}
        self.new_dirs: dict[str, PendingDir] = {}
        self.searches: list[ActiveSearch] = []
        self.fresh_dirs: dict[str, float] = {}
        self.last_change_t: dict[str, float] = {}
        self.change_times: dict[str, deque[float]] = {}
        self.recent_change_dirs: deque[tuple[float, str]] = deque(maxlen=4096)
        self.recent_delete_dirs: deque[tuple[float, str]] = deque(maxlen=4096)
        self.recent_copy_dirs: deque[tuple[float, str]] = deque(maxlen=4096)
        self.ignore_dir_opens_until = 0.0
        self._bulk_hits: dict[str, deque[float]] = {}
        self.bulk: dict[str, BulkAgg] = {}
        self._last_read_t: dict[str, float] = {}
        self.counters = {"raw": 0, "rescans": 0, "bulk_summaries": 0, "searches_inferred": 0}

    # ------------------------------------------------------------------------------------
    # input

    def feed(self, raw: Raw) -> None:
        self.counters["raw"] += 1
        k = raw.kind
        if k == "proc_start":
            self._proc_start(raw.data)
            return
        if k == "proc_end":
            for s in self.searches:
                if s.spec.pid == raw.data and s.t_end is None:
                    s.t_end = raw.t
            return
        if k == "overflow":
            self.rescan(raw.t, raw.path)
            return
        if raw.synthetic and k == "moved":
            return  # the folder's own move carries it
        if k == "dir_opened":
            self._dir_opened(raw)
            return
        if raw.is_dir:
            if k == "created":
                self._dir_created(raw.path, raw.t)
            elif k == "deleted":
                self._dir_deleted(raw.path)
            elif k == "moved":
                self._dir_moved(raw.path, raw.dest or "", raw.t)
            return
        if k in ("created", "modified", "closed_write"):
            self._changed(raw.path, raw.t, created=(k == "created"))
        elif k == "closed_nowrite":
            self._read(raw.path, raw.t)
        elif k == "deleted":
            self._deleted(raw.path, raw.t)
        elif k == "moved":
            self._moved(raw.path, raw.dest or "", raw.t)

    # -- changes --------------------------------------------------------------------------

    def _changed(self, path: str, t: float, *, created: bool) -> None:
        name = os.path.basename(path)
        if is_editor_artifact(name):
            return
        if self._bulk(path, t, "create" if created and path not in self.state.files else "modify"):
            return
        self._note_change(path, t)
        ch = self.changes.get(path)
        if ch is not None:
            ch.t_last = t
            return
        if path in self.deletes:  # deleted and written again: a rewrite of the same file
            before: FileInfo | None = self.deletes.pop(path).info
            self.changes[path] = Change("modify", t, t, before, tool="rename")
        elif path in self.displaced:  # vim: file -> file~, new file, delete file~
            d = self.displaced.pop(path)
            self.changes[path] = Change("modify" if d.info else "create", t, t, d.info, tool="vim")
        elif path in self.state.files:
            self.changes[path] = Change("modify", t, t, self.state.files[path])
        else:
            self.changes[path] = Change("create", t, t)

    def _note_change(self, path: str, t: float) -> None:
        self.last_change_t[path] = t
        times = self.change_times.get(path)
        if times is None:
            times = self.change_times[path] = deque(maxlen=8)
        times.append(t)
        self.recent_change_dirs.append((t, os.path.dirname(path)))

    def _changed_near(self, path: str, t: float, before: float, after: float) -> bool:
        times = self.change_times.get(path)
        return bool(times) and any(t - before <= ct <= t + after for ct in times)

    def _deleted(self, path: str, t: float) -> None:
        name = os.path.basename(path)
        if is_editor_artifact(name):
            return
        self.recent_delete_dirs.append((t, os.path.dirname(path)))
        if self._bulk(path, t, "delete"):
            return
        ch = self.changes.pop(path, None)
        if ch is not None and ch.kind == "create":
            self.state.pop(path)
            return  # lived shorter than the settle window: a program's temporary file
        disp = self.displaced.get(path)
        if disp is not None:
            return
        # A displaced original's backup being deleted (vim's writebackup): nothing to say.
        for d in self.displaced.values():
            if d.dest == path:
                d.dest = ""
                return
        info = self.state.pop(path)
        if info is None and ch is not None:
            info = ch.before
        if info is None:
            return
        self.deletes[path] = PendingDelete(info, t)

    def _moved(self, src: str, dest: str, t: float) -> None:
        s_name, d_name = os.path.basename(src), os.path.basename(dest)
        s_art = is_editor_artifact(s_name)
        self._note_change(dest, t)
        pending = self.changes.get(src)
        if s_art or (pending is not None and pending.kind == "create") or (
            src not in self.state.files and looks_like_temp_save(s_name)
        ):
            # write-to-temp-and-rename: the destination got new content
            self.changes.pop(src, None)
            self.state.pop(src)
            before: FileInfo | None = None
            ch = self.changes.get(dest)
            if ch is not None:
                ch.t_last = t
                if ch.tool == "write":
                    ch.tool = "rename"
                return
            if dest in self.deletes:
                before = self.deletes.pop(dest).info
            elif dest in self.displaced:
                before = self.displaced.pop(dest).info
            elif dest in self.state.files:
                before = self.state.files[dest]
            t0 = pending.t_first if pending is not None else t
            self.changes[dest] = Change("modify" if before else "create", t0, t, before, tool="rename")
            return
        if is_editor_artifact(d_name) or dest == src + "~":
            # The original steps aside while the editor writes the new version.
            info = self.state.pop(src)
            if pending is not None:
                self.changes.pop(src, None)
                info = info or pending.before
            self.displaced[src] = Displaced(dest, info, t)
            return
        if pending is not None:  # a modified file moved before it settled: report at dest
            self.changes[dest] = self.changes.pop(src)
        info = self.state.rekey(src, dest)
        if src in self.deletes:
            return
        self._emit_move(src, dest, t, info)

    def _emit_move(self, src: str, dest: str, t: float, info: FileInfo | None) -> None:
        rs, rd = self.roots.rel(src), self.roots.rel(dest)
        if rs is None or rd is None:
            return
        if os.path.dirname(src) == os.path.dirname(dest):
            self._emit("file_rename", t, old_path=rs, new_path=rd, naming_pattern_change=naming_change(os.path.basename(src), os.path.basename(dest)))
        else:
            self._emit("file_move", t, old_path=rs, new_path=rd, destination_directory_depth=depth_of(rd))

    # -- folders ----------------------------------------------------------------------------

    def _dir_created(self, path: str, t: float) -> None:
        self.fresh_dirs[path] = t
        if path in self.state.dirs or path in self.new_dirs:
            return
        if self._bulk(path, t, "dir"):
            return
        # mkdir -p a/b/c: every missing level is a dir_create, parents first
        chain = []
        p = path
        r = self.roots.root_of(path)
        while r is not None and p != r.path and p not in self.state.dirs and p not in self.new_dirs:
            chain.append(p)
            p = os.path.dirname(p)
        for i, d in enumerate(reversed(chain)):
            self.new_dirs[d] = PendingDir(d, t + i * 0.001)
            self.state.dirs.add(d)

    def _dir_deleted(self, path: str) -> None:
        self.state.dirs.discard(path)
        self.new_dirs.pop(path, None)
        self.recent_delete_dirs.append((0.0, path))

    def _dir_moved(self, src: str, dest: str, t: float) -> None:
        self.fresh_dirs[dest] = t
        self.state.rekey_tree(src, dest)
        self.state.dirs.discard(src)
        self.state.dirs.add(dest)
        for p in [p for p in self.changes if p.startswith(src + os.sep)]:
            self.changes[dest + p[len(src) :]] = self.changes.pop(p)
        if src in self.new_dirs:  # created and moved within the settle window
            self.new_dirs.pop(src)
            self.new_dirs[dest] = PendingDir(dest, t)
            return
        self._emit_move(src, dest, t, None)

    def _dir_opened(self, raw: Raw) -> None:
        path, t = raw.path, raw.t
        if self.state.consume_self_dir(path):
            return
        if t < self.ignore_dir_opens_until:
            return
        p = path
        r = self.roots.root_of(path)
        while r is not None:
            ft = self.fresh_dirs.get(p)
            if ft is not None and t - ft < FRESH_DIR_MS:
                return
            if p == r.path:
                break
            p = os.path.dirname(p)
        if self._in_bulk(path):
            return
        self.browses.append(PendingBrowse(path, t))

    # -- reads ----------------------------------------------------------------------------

    def _read(self, path: str, t: float) -> None:
        if self.state.consume_self_read(path):
            return
        if is_editor_artifact(os.path.basename(path)):
            return
        if self._in_bulk(path):
            return
        if self.bulk:
            for agg in self.bulk.values():
                if t - agg.t_last <= 1000.0 and len(agg.sources) < MAX_BULK_SOURCES:
                    agg.sources.append(PendingRead(path, t))
                    return
        self.reads.append(PendingRead(path, t))

    # -- searches -------------------------------------------------------------------------

    def _proc_start(self, spec: SearchSpec) -> None:
        paths = [p for p in spec.paths if self.roots.overlapping(p)]
        if not paths:
            return
        if any(self.roots.denied(p) for p in paths if self.roots.contains(p)):
            return
        if spec.query and self.roots.filter.denied(spec.query.strip("*/ ")):
            return  # `find . -name id_rsa`: the query itself names a private file
        spec.paths = paths
        self.searches.append(ActiveSearch(spec))

    # ------------------------------------------------------------------------------------
    # output

    def _emit(self, etype: str, t: float, **fields: Any) -> None:
        ev = {"event_type": etype, "timestamp": float(t)}
        ev.update(fields)
        self.out.append(ev)

    def _snapshot_ref(self, c: Content, rel: str) -> dict[str, str] | None:
        if c.text is None:
            return None
        h = content_hash(c.text)
        self.blobs.append((c.text, "blob", rel))
        return media_ref("blob", h)

    def _read_file(self, path: str) -> Content | None:
        self.state.expect_self_read(path)
        c = read_content(path, self.snap_max, redact=self.redact)
        if c is None:
            # nothing was opened, so no event will come: take the expectation back
            self.state.consume_self_read(path)
        return c

    def _count_entries(self, d: str) -> int:
        self.state.expect_self_dir(d)
        try:
            with os.scandir(d) as it:
                return sum(1 for e in it if self.roots.visible(e.path) and not is_editor_artifact(e.name))
        except OSError:
            self.state.consume_self_dir(d)
            return 0

    def _remember(self, path: str, c: Content, first_seen: float | None, fid: int | None = None) -> FileInfo:
        try:
            mtime = os.stat(path, follow_symlinks=False).st_mtime_ns
        except OSError:
            mtime = 0
        old = self.state.files.get(path)
        info = FileInfo(
            fid if fid is not None else (old.fid if old else self.state.new_fid()),
            first_seen if first_seen is not None else (old.first_seen_ms if old else mtime / 1e6),
            c.size,
            mtime,
            c.hash,
            c.is_text,
        )
        self.state.put(path, info, c.text)
        return info

    def tick(self, now: float, *, force: bool = False) -> list[dict[str, Any]]:
        """Turn everything that has settled (or everything, when forced) into actions."""
        S = self.settle
        # bulk episodes that went quiet
        for key, agg in list(self.bulk.items()):
            if force or now - agg.t_last > BULK_QUIET_MS:
                if not agg.empty:
                    self._end_bulk(agg)
                if force and now - agg.t_last <= BULK_QUIET_MS:
                    self.bulk[key] = BulkAgg(key, now, agg.t_last)
                else:
                    del self.bulk[key]
                    self._bulk_hits.pop(key, None)
        if len(self._bulk_hits) > 1000:
            self._bulk_hits = {k: v for k, v in self._bulk_hits.items() if v and now - v[-1] < 2000}
        # folders first (a file in a new folder comes after the folder)
        for p, pd in list(self.new_dirs.items()):
            if force or now - pd.t >= S:
                del self.new_dirs[p]
                self._finish_dir(pd)
        for p, ch in list(self.changes.items()):
            wait = S + TEMP_SAVE_WAIT_MS if ch.kind == "create" and looks_like_temp_save(os.path.basename(p)) else S
            if force or now - ch.t_last >= wait:
                del self.changes[p]
                self._finish_change(p, ch)
        for p, d in list(self.displaced.items()):
            if force or now - d.t >= S:
                del self.displaced[p]
                self._finish_displaced(p, d)
        for p, dl in list(self.deletes.items()):
            if force or now - dl.t >= S:
                del self.deletes[p]
                self._finish_delete(p, dl)
        if self.browses:
            keep = []
            bulk_from = min((a.t_first for a in self.bulk.values()), default=None)
            for b in self.browses:
                if b.done:
                    continue
                if not force and bulk_from is not None and b.t >= bulk_from - 1000.0:
                    keep.append(b)  # wait: a bulk copy may claim this folder's listing
                    continue
                if force or now - b.t >= S + READ_GRACE_MS:
                    self._finish_browse(b, now)
                else:
                    keep.append(b)
            self.browses = [b for b in keep if not b.done]
        if self.reads:
            keep_r = []
            for r in self.reads:
                if r.claimed:
                    continue
                if force or now - r.t >= S + READ_GRACE_MS:
                    self._finish_read(r)
                else:
                    keep_r.append(r)
            self.reads = [r for r in keep_r if not r.claimed]
        for s in self.searches:  # an exit notice can be missed: ask the process table
            if s.t_end is None and now - s.spec.t_start > S and not os.path.exists(f"/proc/{s.spec.pid}"):
                s.t_end = now - S
        for s in list(self.searches):
            done = s.t_end is not None and now - s.t_end >= S + SEARCH_GRACE_MS
            if force or done or now - s.spec.t_start > SEARCH_MAX_WAIT_MS:
                self.searches.remove(s)
                self._finish_search(s)
        # housekeeping
        self.state.prune_expectations()
        if len(self.fresh_dirs) > 256:
            self.fresh_dirs = {p: ft for p, ft in self.fresh_dirs.items() if now - ft < FRESH_DIR_MS}
        if len(self.last_change_t) > 4096:
            self.last_change_t = {p: ft for p, ft in self.last_change_t.items() if now - ft < 5000}
            self.change_times = {p: v for p, v in self.change_times.items() if p in self.last_change_t}
        out, self.out = self.out, []
        out.sort(key=lambda e: e["timestamp"])
        return out

    @property
    def pending(self) -> int:
        return (
            len(self.changes) + len(self.reads) + len(self.browses) + len(self.deletes)
            + len(self.displaced) + len(self.new_dirs) + len(self.searches) + len(self.bulk)
        )

    # -- finishing ------------------------------------------------------------------------

    def _finish_dir(self, pd: PendingDir) -> None:
        rel = self.roots.rel(pd.path)
        if rel is None or not os.path.isdir(pd.path):
            return
        parent = os.path.dirname(pd.path)
        siblings = max(self._count_entries(parent) - 1, 0)
        self._emit("dir_create", pd.t, dir_path=rel, depth=dir_depth_of(rel), sibling_count=siblings)

    def _finish_change(self, path: str, ch: Change) -> None:
        rel = self.roots.rel(path)
        if rel is None:
            return
        c = self._read_file(path)
        if c is None:
            return  # gone again; its delete (if any) tells the story
        if ch.kind == "create" or ch.before is None:
            src = self._copy_source(path, c, ch.t_first)
            info = self._remember(path, c, first_seen=ch.t_first)
            if src is not None:
                rs = self.roots.rel(src)
                if rs is not None:
                    self.recent_copy_dirs.append((ch.t_first, os.path.dirname(src)))
                    self._emit("file_copy", ch.t_first, source_path=rs, dest_path=rel, is_backup=looks_like_backup(rel) or backup_of(rs, rel))
                    return
            self._emit(
                "file_write", ch.t_first,
                file_path=rel, file_type=file_type_of(rel), directory_depth=depth_of(rel),
                operation="create", content_length=c.chars, before_hash=None, after_hash=c.hash,
                media_ref=self._snapshot_ref(c, rel), _first_seen_ms=info.first_seen_ms,
            )
            return
        before = ch.before
        if ch.tool == "write":  # cp over an existing file is still a copy
            src = self._copy_source(path, c, ch.t_first)
            rs = self.roots.rel(src) if src is not None else None
            if rs is not None:
                self._remember(path, c, first_seen=before.first_seen_ms, fid=before.fid)
                self._emit("file_copy", ch.t_first, source_path=rs, dest_path=rel, is_backup=looks_like_backup(rel) or backup_of(rs, rel))
                return
        if before.hash == c.hash and before.hash is not None:
            self._remember(path, c, first_seen=before.first_seen_ms, fid=before.fid)
            return  # saved without a change
        old_text = self.state.snapshot(before) if before.is_text else None
        info = self._remember(path, c, first_seen=before.first_seen_ms, fid=before.fid)
        if old_text is not None and c.text is not None and shares_lines(old_text, c.text):
            d = line_diff(old_text, c.text, rel, rel)
            h_old = content_hash(old_text)
            self.blobs.append((old_text, "blob", rel))
            ref_new = self._snapshot_ref(c, rel)
            diff_bytes = d.unified.encode("utf-8")
            ref_diff = None
            if diff_bytes:
                self.blobs.append((diff_bytes, "diff", rel))
                ref_diff = media_ref("diff", content_hash(diff_bytes))
            self._emit(
                "file_edit", ch.t_last,
                file_path=rel, file_type=file_type_of(rel), edit_tool=ch.tool,
                lines_added=d.added, lines_deleted=d.deleted, lines_modified=d.modified,
                diff_summary=d.summary, before_hash=before.hash, after_hash=c.hash,
                media_ref_old=media_ref("blob", h_old), media_ref_new=ref_new, media_ref_diff=ref_diff,
            )
            return
        self._emit(
            "file_write", ch.t_last,
            file_path=rel, file_type=file_type_of(rel), directory_depth=depth_of(rel),
            operation="overwrite", content_length=c.chars, before_hash=before.hash, after_hash=c.hash,
            media_ref=self._snapshot_ref(c, rel), _first_seen_ms=info.first_seen_ms,
        )

    def _copy_source(self, path: str, c: Content, t: float) -> str | None:
        """A new file whose content equals a file read just before is a copy of it."""
        if c.size == 0:
            return None
        for r in reversed(self.reads):
            if r.claimed or r.path == path or abs(r.t - t) > COPY_WINDOW_MS:
                continue
            if r.hash is None:
                rc = self._read_file(r.path)
                if rc is None:
                    continue
                r.hash, r.content = rc.hash, rc
            if r.hash == c.hash:
                r.claimed = "copy"
                return r.path
        return None

    def _finish_displaced(self, path: str, d: Displaced) -> None:
        # The original was renamed to a backup name and nothing replaced it.
        if not d.dest or is_editor_artifact(os.path.basename(d.dest)):
            if d.info is not None:
                self._finish_delete(path, PendingDelete(d.info, d.t))
            return
        if d.info is not None:
            self.state.files[d.dest] = d.info
            self.state.put(d.dest, d.info)
        self._emit_move(path, d.dest, d.t, d.info)

    def _finish_delete(self, path: str, dl: PendingDelete) -> None:
        rel = self.roots.rel(path)
        self.state.forget(dl.info)
        if rel is None or os.path.exists(path):
            return
        self._emit(
            "file_delete", dl.t, file_path=rel, file_age_ms=max(dl.t - dl.info.first_seen_ms, 0.0),
            was_temporary=None, _first_seen_ms=dl.info.first_seen_ms,
        )

    def _finish_browse(self, b: PendingBrowse, now: float) -> None:
        b.done = True
        for s in self.searches:
            if s.covers(b.path, b.t):
                s.dirs += 1
                return
        pre = b.path.rstrip(os.sep) + os.sep
        # rm -r lists a folder before emptying it; cp -r lists the folders it copies
        for td, d in self.recent_delete_dirs:
            if (d == b.path or d.startswith(pre)) and (td == 0.0 or b.t - 50 <= td <= b.t + self.settle + 1000):
                return
        for tc, d in self.recent_copy_dirs:
            if (d == b.path or d.startswith(pre)) and b.t - 50 <= tc <= b.t + self.settle + 1000:
                return
        # a burst of folder opens down a tree is a traversal (find, grep -r, ls -R)
        group = [b]
        t_hi = b.t
        for o in sorted(self.browses, key=lambda x: x.t):
            if o.done or o is b:
                continue
            if any(s.covers(o.path, o.t) for s in self.searches):
                continue  # a search we know about opened it
            if (o.path == b.path or o.path.startswith(pre)) and o.t >= b.t - 50 and o.t <= t_hi + TRAVERSAL_GAP_MS:
                group.append(o)
                t_hi = max(t_hi, o.t)
        reads = [
            r for r in self.reads
            if not r.claimed and (r.path.startswith(pre)) and b.t - 50 <= r.t <= t_hi + TRAVERSAL_GAP_MS
            and not any(s.covers(r.path, r.t) for s in self.searches)
        ]
        rel = self.roots.rel(b.path)
        if rel is None:
            return
        read_paths = {r.path for r in reads}
        whole_folder = len(read_paths) >= 2 and read_paths >= self._files_in(b.path)
        if len({o.path for o in group}) > 1 or whole_folder:
            for o in group:
                o.done = True
            if len(read_paths) >= 2:
                # A content search whose process we did not catch: no query known.
                for r in reads:
                    r.claimed = "search"
                self.counters["searches_inferred"] += 1
                self._emit("file_search", b.t, search_type="grep", query=None, files_matched=None, files_opened_after=[], _scope=rel, _inferred=True)
                return
        else:
            for o in group:
                o.done = True  # the same folder opened again in one go: one listing
            # editors list the folder (swap and backup files) right before opening a file in it
            for r in self.reads:
                if os.path.dirname(r.path) == b.path and 0 <= r.t - b.t <= OWN_LISTING_MS:
                    return
            for tc, d in self.recent_change_dirs:
                if d == b.path and 0 <= tc - b.t <= OWN_LISTING_MS:
                    return
        n = self._count_entries(b.path)
        self._emit("file_browse", b.t, directory_path=rel, files_listed=n, depth=dir_depth_of(rel if rel != "." else ""))

    def _files_in(self, d: str) -> set[str]:
        pre = d.rstrip(os.sep) + os.sep
        return {p for p in self.state.files if p.startswith(pre) and os.sep not in p[len(pre):]}

    def _finish_read(self, r: PendingRead) -> None:
        for s in self.searches:
            if s.covers(r.path, r.t):
                s.scanned.add(r.path)
                r.claimed = "search"
                return
        if self._changed_near(r.path, r.t, RW_SAME_PROGRAM_MS, RW_FOLLOW_MS):
            r.claimed = "rewrite"  # sed -i, vim -es: the program read the file to rewrite it
            return
        last = self._last_read_t.get(r.path)
        if last is not None and 0 <= r.t - last <= DOUBLE_READ_MS:
            r.claimed = "duplicate"  # one program opening the same file twice in a row
            return
        self._last_read_t[r.path] = r.t
        if len(self._last_read_t) > 4096:
            self._last_read_t = {p: t for p, t in self._last_read_t.items() if r.t - t <= DOUBLE_READ_MS}
        rel = self.roots.rel(r.path)
        if rel is None:
            return
        c = r.content or self._read_file(r.path)
        if c is None:
            c_len = None
        else:
            c_len = c.chars
            known = self.state.files.get(r.path)
            changed_since = r.path in self.changes or self.last_change_t.get(r.path, 0.0) > r.t
            if changed_since:
                pass  # the content now on disk is not what was read: keep the file model as is
            elif known is None or known.hash != c.hash or (c.text is not None and not known.has_snapshot):
                self._remember(r.path, c, first_seen=None if known else r.t)
        view_range = [1, c.lines] if c is not None and c.text is not None and c.lines else None
        self._emit(
            "file_read", r.t, file_path=rel, file_type=file_type_of(rel), directory_depth=depth_of(rel),
            view_count=None, view_range=view_range, content_length=c_len, revisit_interval_ms=None,
        )

    def _finish_search(self, s: ActiveSearch) -> None:
        spec = s.spec
        scope = [p for p in spec.paths if self.roots.contains(p)] or [r.path for p in spec.paths for r in self.roots.overlapping(p)]
        rel_scope = self.roots.rel(scope[0]) if scope else "."
        matched = self._count_matches(s, scope)
        query = spec.query
        if query is not None and self.redact:
            from filegram.privacy import redact

            query = redact(query)
        self._emit(
            "file_search", spec.t_start, search_type=spec.search_type, query=query,
            files_matched=matched, files_opened_after=[], _scope=rel_scope or ".", _tool=spec.tool,
        )

    def _count_matches(self, s: ActiveSearch, scope: list[str]) -> int | None:
        spec = s.spec
        if spec.query is None:
            return None
        try:
            if spec.search_type == "grep":
                rx = content_pattern(spec)
                files = sorted(s.scanned) or [p for p, _, is_dir in self._walk(scope) if not is_dir]
                n = 0
                for p in files[:MATCH_SCAN_MAX_FILES]:
                    c = self._read_bytes(p)
                    if c is not None and rx is not None and rx.search(c):
                        n += 1
                return n
            if spec.search_type in ("find", "locate"):
                return sum(name_matches(spec, p, self.roots.inner(p) or "") for p, _, _ in self._walk(scope))
        except OSError:
            return None
        return None

    def _walk(self, scope: list[str]) -> list[tuple[str, Any, bool]]:
        out: list[tuple[str, Any, bool]] = []
        for top in scope:
            if os.path.isfile(top):
                if self.roots.visible(top):
                    out.append((top, None, False))
                continue
            # our own walk opens folders: expect them so they do not become browses
            for p, st, is_dir in iter_tree(top, self.roots):
                if is_dir:
                    self.state.expect_self_dir(p)
                out.append((p, st, is_dir))
                if len(out) > MATCH_SCAN_MAX_FILES * 4:
                    return out
            self.state.expect_self_dir(top)
        return out

    def _read_bytes(self, p: str) -> bytes | None:
        self.state.expect_self_read(p)
        try:
            with open(p, "rb") as f:
                return f.read(self.snap_max)
        except OSError:
            self.state.consume_self_read(p)
            return None
