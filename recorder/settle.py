"""Settling: pending events whose follow-ups had time to come become actions.

A change becomes a file_write, a file_edit with its diff, or a file_copy (a new file whose
content equals a file read just before); a displaced original a move or a delete; a read
a file_read unless a copy, a search or a rewrite claimed it; a folder listing a
file_browse, or with its neighbours a traversal (an inferred search). The intake
(interpret) decides what is pending; this module decides what it was.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from filegram.linkevidence import added_text, fingerprint
from filegram.naming import (
    backup_of,
    is_editor_artifact,
    looks_like_backup,
    looks_like_temp_save,
    looks_temporary,
)
from filegram.schema import depth_of, dir_depth_of, file_type_of
from filegram.textdiff import line_diff, shares_lines

from .bulk import BULK_WINDOW_MS, folder_key
from .content import Content, ResourceExhausted
from .disk import Disk
from .downloads import PARTIAL_SUFFIXES, placeholder_of
from .foldercopy import NewFolders
from .output import Output, extraction
from .paths import RootSet
from .pending import FRESH_DIR_MS, Pending, PendingDelete, PendingFolderDelete
from .programs import DOWNLOAD_KIND, SCRIPT_KIND
from .scripts import written_ms
from .searches import ActiveSearch, Searches
from .state import FileInfo, FileState
from .tools import ToolRuns

if TYPE_CHECKING:
    from .pending import Change, Displaced, PendingBrowse, PendingDir, PendingRead

READ_GRACE_MS = 200.0  # reads wait a little longer than changes, so a copy can claim them
COPY_WINDOW_MS = 3000.0
RW_SAME_PROGRAM_MS = 3.0  # a read this close to a rewrite of the same file is the rewrite's
RW_FOLLOW_MS = 300.0  # ... or a rewrite that follows the read this quickly (sed -i, vim -es)
DOUBLE_READ_MS = 100.0
TEMP_SAVE_WAIT_MS = 5000.0  # a new file named like a save's temporary waits for its rename
OWN_LISTING_MS = 20.0  # a folder listed this shortly before one of its files is opened
TRAVERSAL_GAP_MS = 300.0
BULK_COPY_LEAD_MS = 1000.0  # a listing this shortly before a bulk copy may be the copy's
LAST_READS_KEPT = 4096
# `mkdir archive && mv notes/old.md archive/` can beat the watch on archive/: watchdog then
# holds the unmatched IN_MOVED_FROM 0.5 s before reporting it as a delete, while its walk of
# the new folder reports archive/old.md at once. A new file in a folder made a moment ago,
# not written since it appeared, waits this long, so the two halves still meet (E-1: stored
# as a create and a delete). A file written there (a copy, a save) settles as usual.
UNMATCHED_MOVE_WAIT_MS = 800.0


def _denser_than(reads: list[PendingRead], limit: int) -> bool:
    """Whether more than limit of these (sorted by time) fall within one bulk window."""
    j = 0
    for i, r in enumerate(reads):
        while r.t - reads[j].t > BULK_WINDOW_MS:
            j += 1
        if i - j + 1 > limit:
            return True
    return False


def _near(times: list[float], t: float) -> bool:
    return any(abs(tc - t) <= COPY_WINDOW_MS for tc in times)


@dataclass
class Settler:
    roots: RootSet
    state: FileState
    pending: Pending
    disk: Disk
    output: Output
    searches: Searches
    tools: ToolRuns
    settle_ms: float
    bulk_limit: int = 0  # reads per second in one folder beyond which they are a storm (0: never)
    searches_inferred: int = 0  # traversals taken for a search whose process was missed
    _last_read_t: dict[str, float] = field(default_factory=dict)
    new_folders: NewFolders = field(init=False)

    def __post_init__(self) -> None:
        self.new_folders = NewFolders(self.roots, self.disk, self.output, self.tools.stamp)

    def settle(self, now: float, *, force: bool = False, bulk_from: float | None = None) -> None:
        """Finish what has waited long enough (everything, when forced), in dependency
        order: folders before the files in them, changes before the reads a copy claims.
        bulk_from: when the earliest bulk episode began (its listings wait for it).
        When the machine is short of descriptors, memory or space (ResourceExhausted) the
        event goes back to wait and settling stops until the next tick: retried, never
        taken for a file that vanished."""
        try:
            self._settle(now, force=force, bulk_from=bulk_from)
        except ResourceExhausted:
            return

    def _settle(self, now: float, *, force: bool, bulk_from: float | None) -> None:
        S = self.settle_ms
        p = self.pending
        for path, pd in list(p.new_dirs.items()):
            if force or now - pd.t >= S:
                del p.new_dirs[path]
                try:
                    self.finish_dir(pd)
                except ResourceExhausted:
                    p.new_dirs[path] = pd
                    raise
        for path, ch in list(p.changes.items()):
            wait = S + TEMP_SAVE_WAIT_MS if ch.kind == "create" and looks_like_temp_save(os.path.basename(path)) else S
            if ch.kind == "create" and ch.t_last == ch.t_first and wait < UNMATCHED_MOVE_WAIT_MS \
                    and self._in_fresh_folder(path, ch.t_first):
                # found in a folder made a moment ago, and not written since: the arriving
                # half of a move whose leaving half may come late
                wait = UNMATCHED_MOVE_WAIT_MS
            if force or now - ch.t_last >= wait:
                del p.changes[path]
                try:
                    self.finish_change(path, ch)
                except ResourceExhausted:
                    p.changes[path] = ch
                    raise
        for path, d in list(p.displaced.items()):
            if force or now - d.t >= S:
                del p.displaced[path]
                self.finish_displaced(path, d)
        for path, dl in list(p.deletes.items()):
            if force or now - dl.t >= S:
                del p.deletes[path]
                self.finish_delete(path, dl)
        for path, fd in list(p.gone_dirs.items()):
            if force or now - fd.t >= S:
                del p.gone_dirs[path]
                self.finish_folder_delete(path, fd)
        waiting = [] if force else self._waiting_creates()
        if p.browses:
            try:
                for b in p.browses:
                    if b.done:
                        continue
                    if not force and bulk_from is not None and b.t >= bulk_from - BULK_COPY_LEAD_MS:
                        continue  # wait: a bulk copy may claim this folder's listing
                    if force or (now - b.t >= S + READ_GRACE_MS and not _near(waiting, b.t)):
                        try:
                            self.finish_browse(b, now)
                        except ResourceExhausted:
                            b.done = False
                            raise
            finally:
                p.browses = [b for b in p.browses if not b.done]
        if p.reads:
            try:
                ready = [r for r in p.reads if not r.claimed and (force or (now - r.t >= S + READ_GRACE_MS
                                                                          and not _near(waiting, r.t)))]
                self._summarise_read_storms(ready)
                for r in ready:
                    if not r.claimed:
                        self.finish_read(r)
                        r.claimed = r.claimed or "done"
            finally:
                p.reads = [r for r in p.reads if not r.claimed]
        self.new_folders.settle(now, S, self._busy_below, force=force)

    def _waiting_creates(self) -> list[float]:
        """When the new files still waiting in fresh folders appeared. Such a file waits
        longer than a read (a move's late half, see UNMATCHED_MOVE_WAIT_MS); a read or a
        listing near it waits too, for the new file may be its copy (cp -r: the reads of
        the source, the listing of its folder)."""
        return [ch.t_first for path, ch in self.pending.changes.items()
                if ch.kind == "create" and ch.t_last == ch.t_first and self._in_fresh_folder(path, ch.t_first)]

    def _busy_below(self, folder: str) -> bool:
        pre = folder.rstrip(os.sep) + os.sep
        p = self.pending
        return any(k.startswith(pre) for k in p.changes) or any(k.startswith(pre) for k in p.new_dirs)

    def finish_dir(self, pd: PendingDir) -> None:
        rel = self.roots.rel(pd.path)
        if rel is None or not os.path.isdir(pd.path):
            return
        if self.tools.claim(pd.path, pd.t, "dir"):
            return
        parent = os.path.dirname(pd.path)
        siblings = max(self.disk.count_entries(parent) - 1, 0)
        self.new_folders.hold_dir(pd.path, self.output.action("dir_create", pd.t, dir_path=rel, depth=dir_depth_of(rel),
                                                             sibling_count=siblings))

    def finish_change(self, path: str, ch: Change) -> None:
        rel = self.roots.rel(path)
        if rel is None:
            return
        if self._claimed_by_tool(path, ch):
            return  # a tool's work: counted for its summary, no content read
        c = self.disk.read(path)
        if c is None:
            return  # gone again; its delete (if any) tells the story
        if ch.received is not None:
            self._received(path, rel, ch, c)
            return
        if ch.kind == "create" and c.size == 0 and placeholder_of(path):
            self.pending.placeholders[path] = ch.t_first  # Firefox's, until its download lands
            return
        if ch.kind == "create" or ch.before is None:
            src = self._copy_source(path, c, ch.t_first)
            info = self.disk.remember(path, c, first_seen=ch.t_first)
            if src is not None:
                rs = self.roots.rel(src)
                if rs is not None:
                    self.pending.recent_copy_dirs.append((ch.t_first, os.path.dirname(src)))
                    copy = self.output.action("file_copy", ch.t_first, source_path=rs, dest_path=rel,
                                              is_backup=looks_like_backup(rel) or backup_of(rs, rel))
                    if not self.new_folders.add(path, copy, source=src):
                        self.output.actions.append(copy)
                    return
            write = self.output.action(
                "file_write", ch.t_first,
                file_path=rel, file_type=file_type_of(rel), directory_depth=depth_of(rel),
                operation="create", content_length=c.chars, before_hash=None, after_hash=c.hash,
                media_ref=self.output.snapshot_ref(c, rel), _first_seen_ms=info.first_seen_ms,
                _fp=fingerprint(c.text), _written_ms=written_ms(path), **extraction(c),
            )
            if not self.new_folders.add(path, write):
                self.output.actions.append(write)
            return
        before = ch.before
        if ch.tool == "write":  # cp over an existing file is still a copy
            src = self._copy_source(path, c, ch.t_first)
            rs = self.roots.rel(src) if src is not None else None
            if rs is not None:
                self.disk.remember(path, c, first_seen=before.first_seen_ms, fid=before.fid)
                self.output.emit("file_copy", ch.t_first, source_path=rs, dest_path=rel, is_backup=looks_like_backup(rel) or backup_of(rs, rel))
                return
        if before.hash == c.hash and before.hash is not None:
            self.disk.remember(path, c, first_seen=before.first_seen_ms, fid=before.fid)
            return  # saved without a change
        if before.hash is None and ch.tool == "write" and _unchanged_since(path, before, c):
            # Opened for writing and closed with nothing written (cargo's target/.cargo-lock,
            # `: >> f`): a file a tool made is known by its size and time only (tools count
            # by stat), so without this it was an overwrite by the person, program null.
            self.disk.remember(path, c, first_seen=before.first_seen_ms, fid=before.fid)
            return
        old_text = self.state.snapshot(before) if before.is_text else None
        info = self.disk.remember(path, c, first_seen=before.first_seen_ms, fid=before.fid)
        if old_text is not None and c.text is not None and shares_lines(old_text, c.text):
            d = line_diff(old_text, c.text, rel, rel)
            ref_old = self.output.keep(old_text, "blob", rel)
            ref_new = self.output.snapshot_ref(c, rel)
            diff_bytes = d.unified.encode("utf-8")
            ref_diff = self.output.keep(diff_bytes, "diff", rel) if diff_bytes else None
            self.output.emit(
                "file_edit", ch.t_last,
                file_path=rel, file_type=file_type_of(rel), edit_tool=ch.tool,
                lines_added=d.added, lines_deleted=d.deleted, lines_modified=d.modified,
                diff_summary=d.summary, before_hash=before.hash, after_hash=c.hash,
                media_ref_old=ref_old, media_ref_new=ref_new, media_ref_diff=ref_diff,
                _fp=fingerprint(added_text(d.unified)), **extraction(c),
            )
            return
        self.output.emit(
            "file_write", ch.t_last,
            file_path=rel, file_type=file_type_of(rel), directory_depth=depth_of(rel),
            operation="overwrite", content_length=c.chars, before_hash=before.hash, after_hash=c.hash,
            media_ref=self.output.snapshot_ref(c, rel), _first_seen_ms=info.first_seen_ms,
            _fp=fingerprint(c.text), **extraction(c),
        )

    def _received(self, path: str, rel: str, ch: Change, c: Content) -> None:
        """A download a browser finished (see downloads): a file the person received."""
        info = self.disk.remember(path, c, first_seen=ch.t_first)
        browser = self.tools.browser(PARTIAL_SUFFIXES[ch.received or ""], ch.t_last)
        write = self.output.action(
            "file_write", ch.t_first,
            file_path=rel, file_type=file_type_of(rel), directory_depth=depth_of(rel),
            operation="create", content_length=c.chars, before_hash=None, after_hash=c.hash,
            media_ref=self.output.snapshot_ref(c, rel), program=browser, program_kind=DOWNLOAD_KIND,
            authored=False, _first_seen_ms=info.first_seen_ms, **extraction(c),
        )
        if not self.new_folders.add(path, write):
            self.output.actions.append(write)

    def _in_fresh_folder(self, path: str, t: float) -> bool:
        made = self.pending.fresh_dirs.get(os.path.dirname(path))
        return made is not None and 0 <= t - made < FRESH_DIR_MS

    def _claimed_by_tool(self, path: str, ch: Change) -> bool:
        if ch.kind == "create" or ch.before is None:
            return self.tools.claim(path, ch.t_first, "create")
        # Deleted and written again before the tool was known (git checkout unlinks first):
        # the delete took the file out of the model, but what the tool did is rewrite it.
        restored = path not in self.state.files
        if restored:
            self.state.files[path] = ch.before
        if self.tools.claim(path, ch.t_first, "replace" if restored or ch.unlinked else "modify"):
            return True
        if restored:
            self.state.files.pop(path, None)
        return False

    def _copy_source(self, path: str, c: Content, t: float) -> str | None:
        """A new file whose content equals a file read just before is a copy of it."""
        if c.size == 0:
            return None
        for r in reversed(self.pending.reads):
            if r.claimed or r.path == path or abs(r.t - t) > COPY_WINDOW_MS:
                continue
            if r.hash is None:
                rc = self.disk.read(r.path)
                if rc is None:
                    continue
                r.hash, r.content = rc.hash, rc
            if r.hash == c.hash:
                r.claimed = "copy"
                return r.path
        return None

    def finish_displaced(self, path: str, d: Displaced) -> None:
        # The original was renamed to a backup name and nothing replaced it.
        if not d.dest or is_editor_artifact(os.path.basename(d.dest)):
            if d.info is not None:
                self.finish_delete(path, PendingDelete(d.info, d.t))
            return
        if d.info is not None:
            self.state.files[d.dest] = d.info
            self.state.put(d.dest, d.info)
        self.output.emit_move(path, d.dest, d.t)

    def finish_delete(self, path: str, dl: PendingDelete) -> None:
        rel = self.roots.rel(path)
        self.state.forget(dl.info)
        if rel is None or os.path.exists(path):
            return
        if self.tools.claim(path, dl.t, "delete", info=dl.info, update_state=False):
            return
        self.output.emit(
            "file_delete", dl.t, file_path=rel, file_age_ms=max(dl.t - dl.info.first_seen_ms, 0.0),
            was_temporary=None, _first_seen_ms=dl.info.first_seen_ms, **self._cleaner(path, dl.t),
        )

    def _cleaner(self, path: str, t: float) -> dict[str, object]:
        """`find . -name '*.tmp' -delete` removed it: the person's delete, done by find. A
        find is a search, no row of the table, so no run covers it when the delete is
        stamped (tools.stamp) and its `program` was null; the search that covers it names
        the tool instead (`_tool`, as on a file_search)."""
        tool = self.searches.cleaner(path, t)
        return {} if tool is None else {"_tool": tool}

    def finish_folder_delete(self, path: str, fd: PendingFolderDelete) -> None:
        n = 0
        for f, info in fd.files.items():
            self.state.forget(info)
            if not self.tools.claim(f, fd.t_first, "delete", info=info, update_state=False):
                n += 1  # the deletes a known tool (seen late) did not claim
        rel = self.roots.rel(path)
        if rel is None or not n:
            return
        self.output.emit("file_delete", fd.t_first, file_path=rel, file_age_ms=None,
                         was_temporary=looks_temporary(rel), bulk_count=n, bulk=True, **self._cleaner(path, fd.t_first))

    def finish_browse(self, b: PendingBrowse, now: float) -> None:
        b.done = True
        pre = b.path.rstrip(os.sep) + os.sep
        copied = any((d == b.path or d.startswith(pre)) and b.t - 50 <= tc <= b.t + self.settle_ms + 1000
                     for tc, d in self.pending.recent_copy_dirs)
        def takes(s: ActiveSearch) -> bool:
            return not (copied and s.anonymous) and not self._bare_listing_for(s, b, pre)

        if self.searches.covering(b.path, b.t, folder=True, consume=False, passing=takes) is not None:
            self.searches.covering(b.path, b.t, folder=True, passing=takes)
            return  # the search's own walk (a search known only by its name yields to a copy)
        if self.tools.claim(b.path, b.t, "browse", update_state=False):
            return  # a tool's walk (git status, tar c, an indexer)
        if self.tools.editor_listing(b.path, b.t):
            return  # an editor looking at its folder on open or save
        if self.tools.import_listing(b.path, b.t):
            return  # a running script's import system listing its folder
        # rm -r lists a folder before emptying it; cp -r lists the folders it copies
        for td, d in self.pending.recent_delete_dirs:
            if (d == b.path or d.startswith(pre)) and (td == 0.0 or b.t - 50 <= td <= b.t + self.settle_ms + 1000):
                return
        if copied:
            return
        # a burst of folder opens down a tree is a traversal (find, grep -r, ls -R)
        group = [b]
        t_hi = b.t
        for o in sorted(self.pending.browses, key=lambda x: x.t):
            if o.done or o is b:
                continue
            if self.searches.covering(o.path, o.t, consume=False, folder=True) is not None:
                continue  # a search we know about opened it
            if self.tools.claiming(o.path, o.t, "browse") is not None:
                continue
            if (o.path == b.path or o.path.startswith(pre)) and o.t >= b.t - 50 and o.t <= t_hi + TRAVERSAL_GAP_MS:
                group.append(o)
                t_hi = max(t_hi, o.t)
        # A read whose file a live command line names is that program's, not a traversal's:
        # `cat notes/*.md` (the shell lists notes/ to expand the glob, then cat reads every
        # file in it) is the person reading each file, not a search whose process was missed.
        reads = [
            r for r in self.pending.reads
            if not r.claimed and (r.path.startswith(pre)) and b.t - 50 <= r.t <= t_hi + TRAVERSAL_GAP_MS
            and self.searches.covering(r.path, r.t, consume=False) is None and self.tools.claiming(r.path, r.t, "read") is None
            and not self.tools.names(r.path, r.t) and not self._interpreters_read(r)
        ]
        rel = self.roots.rel(b.path)
        if rel is None:
            return
        read_paths = {r.path for r in reads}
        whole_folder = len(read_paths) >= 2 and read_paths >= self.state.files_in(b.path)
        if len({o.path for o in group}) > 1 or whole_folder:
            for o in group:
                o.done = True
            if len(read_paths) >= 2:
                # A content search whose process we did not catch: no query known.
                for r in reads:
                    r.claimed = "search"
                self.searches_inferred += 1
                self.output.emit("file_search", b.t, search_type="grep", query=None, files_matched=None, files_opened_after=[],
                                 search_scope=[rel], _scope=rel, _inferred=True)
                return
        else:
            for o in group:
                o.done = True  # the same folder opened again in one go: one listing
            # editors list the folder (swap and backup files) right before opening a file in it
            for r in self.pending.reads:
                if os.path.dirname(r.path) == b.path and 0 <= r.t - b.t <= OWN_LISTING_MS:
                    return
            for tc, d in self.pending.recent_change_dirs:
                if d == b.path and 0 <= tc - b.t <= OWN_LISTING_MS:
                    return
            # the shell expanding a glob lists the folder, then the program it starts opens the
            # files its command line names (`cat notes/*.md`): that listing is the command's,
            # however long the start took on a busy machine (23 ms once in a full suite run).
            # A listing that names its folder (`ls notes`), or one followed by a single named
            # file (`ls; cat notes/a.md`), stays the person's.
            named = {r.path for r in self.pending.reads if os.path.dirname(r.path) == b.path
                     and 0 <= r.t - b.t <= TRAVERSAL_GAP_MS and self.tools.names(r.path, r.t)}
            if len(named) >= 2 and not self.tools.names(b.path, b.t):
                return
        n = self.disk.count_entries(b.path)
        self.output.emit("file_browse", b.t, directory_path=rel, files_listed=n, depth=dir_depth_of(rel if rel != "." else ""))

    def _bare_listing_for(self, search: ActiveSearch, b: PendingBrowse, pre: str) -> bool:
        """A content search known only by its name (any grep on the machine, gone before its
        command line was read) does not take a listing it read nothing under. grep -r and rg
        open a folder to read the files below it; a folder opened with no read below it,
        while such a grep ran, is someone's `ls` (a clean clone's `make test`: another
        worker's grep took the person's `ls reports`). find lists folders only: it keeps
        them."""
        if not search.by_name_only_reading:
            return False
        if any(p.startswith(pre) for p in search.scanned):
            return False
        return not any(r.path.startswith(pre) and b.t - 50 <= r.t <= b.t + TRAVERSAL_GAP_MS
                       and self.searches.covering(r.path, r.t, consume=False) is search for r in self.pending.reads)

    def _lone_read_for(self, search: ActiveSearch, r: PendingRead) -> bool:
        """The same for a read: a content search known only by its name takes a read only as
        part of a walk, with another file read or the file's folder listed by it. One file
        opened while some grep ran is the person's read (or a missed program's)."""
        if not search.by_name_only_reading:
            return False
        if search.scanned - {r.path} or any(r.path.startswith(d.rstrip(os.sep) + os.sep) for d in search.listed):
            return False
        near = r.t - TRAVERSAL_GAP_MS, r.t + TRAVERSAL_GAP_MS
        if any(o.path != r.path and near[0] <= o.t <= near[1] and self.searches.covering(o.path, o.t, consume=False) is search
               for o in self.pending.reads):
            return False
        return not any(r.path.startswith(b.path.rstrip(os.sep) + os.sep) and near[0] <= b.t <= r.t + 50
                       and self.searches.covering(b.path, b.t, consume=False, folder=True) is search
                       for b in self.pending.browses)

    def _interpreters_read(self, r: PendingRead) -> bool:
        """A running script reading itself or a module it loads: no part of a traversal."""
        return self.tools.interpreter_reading(r.path, r.t) is not None

    def _summarise_read_storms(self, ready: list[PendingRead]) -> None:
        """More reads in one folder within a second than the bulk limit, by no program we
        know and no search, are no person reading: one summary. Under a backlog a tool's
        reads are read from the kernel after the tool has gone (CI: `git commit -a` hashing
        800 files became 1,220 file_reads the person never made); a person opens files one
        at a time, and a search or a known program keeps its reads as before."""
        if self.bulk_limit <= 0 or len(ready) <= self.bulk_limit:
            return
        groups: dict[str, list[PendingRead]] = {}
        for r in ready:
            groups.setdefault(folder_key(self.roots, r.path), []).append(r)
        for key, rs in groups.items():
            if len(rs) <= self.bulk_limit:
                continue
            loose = sorted((r for r in rs if self.searches.covering(r.path, r.t, consume=False) is None
                            and self.tools.covering(r.path, r.t, "read") is None), key=lambda r: r.t)
            if not _denser_than(loose, self.bulk_limit):
                continue
            rel = self.roots.rel(key)
            if rel is None:
                continue
            for r in loose:
                r.claimed = "storm"
            self.output.emit("file_browse", loose[0].t, directory_path=rel, files_listed=None,
                             depth=dir_depth_of(rel if rel != "." else ""), bulk_count=len(loose), bulk=True)

    def finish_read(self, r: PendingRead) -> None:
        search = self.searches.covering(r.path, r.t, passing=lambda s: not self._lone_read_for(s, r))
        if search is not None:
            search.scanned.add(r.path)
            r.claimed = "search"
            return
        if self.tools.claim(r.path, r.t, "read", update_state=False):
            r.claimed = "tool"
            return
        if self.pending.changed_near(r.path, r.t, RW_SAME_PROGRAM_MS, RW_FOLLOW_MS):
            r.claimed = "rewrite"  # sed -i, vim -es: the program read the file to rewrite it
            return
        last = self._last_read_t.get(r.path)
        if last is not None and 0 <= r.t - last <= DOUBLE_READ_MS:
            r.claimed = "duplicate"  # one program opening the same file twice in a row
            return
        # `python3 gen.py` opens gen.py to run it, and helpers.py to import it: the
        # interpreter's reads (see interpreters), each stored once per run
        interpreter = self.tools.interpreter_reading(r.path, r.t)
        if interpreter is not None and r.path in interpreter.read:
            r.claimed = "duplicate"
            return
        rel = self.roots.rel(r.path)
        # read first: a ResourceExhausted here leaves the read waiting, as if never tried
        c = (r.content or self.disk.read(r.path)) if rel is not None else None
        self._last_read_t[r.path] = r.t
        if len(self._last_read_t) > LAST_READS_KEPT:
            self._last_read_t = {p: t for p, t in self._last_read_t.items() if r.t - t <= DOUBLE_READ_MS}
        if rel is None:
            return
        if c is None:
            c_len = None
        else:
            c_len = c.chars
            known = self.state.files.get(r.path)
            changed_since = r.path in self.pending.changes or self.pending.last_change_t.get(r.path, 0.0) > r.t
            if changed_since:
                pass  # the content now on disk is not what was read: keep the file model as is
            elif known is not None and known.forgotten:
                pass  # forgotten on request and unchanged since: read again, not kept again
            elif known is None or known.hash != c.hash or (c.text is not None and not known.has_snapshot):
                self.disk.remember(r.path, c, first_seen=None if known else r.t)
        view_range = [1, c.lines] if c is not None and c.text is not None and c.lines else None
        provenance: dict[str, object] = {}
        if interpreter is not None:
            interpreter.read.add(r.path)
            provenance = {"program": interpreter.program, "program_kind": SCRIPT_KIND, "authored": False}
        self.output.emit(
            "file_read", r.t, file_path=rel, file_type=file_type_of(rel), directory_depth=depth_of(rel),
            view_count=None, view_range=view_range, content_length=c_len, revisit_interval_ms=None,
            _fp=fingerprint(c.text if c is not None else None), **(extraction(c) if c is not None else {}),
            **provenance,
        )


def _unchanged_since(path: str, before: FileInfo, c: Content) -> bool:
    """The file has the size and modification time the file model knew: nothing was
    written to it (a write sets the modification time)."""
    try:
        mtime = os.stat(path, follow_symlinks=False).st_mtime_ns
    except OSError:
        return False
    return c.size == before.size and mtime == before.mtime_ns
