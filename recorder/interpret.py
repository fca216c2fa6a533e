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

It is made of parts with one job each, composed here and sharing one `Pending` (what
waits to settle): this module is the intake (which raw event means what is pending);
settle.Settler finishes pending events into actions; searches.Searches tracks search
processes; tools.ToolRuns knows which program did what (a tool's work becomes one
summary, every action gets its `program` and `authored`); bulk.BulkSummariser
summarises busy folders no known tool explains; scan compares whole trees; disk reads
files without recording itself; output collects the actions and their content.
"""

from __future__ import annotations

import os
from typing import Any

from filegram.naming import is_editor_artifact, looks_like_temp_save

from .bulk import BulkSummariser
from .dbfiles import database_companion
from .disk import Disk
from .downloads import AMBIGUOUS, PARTIAL_SUFFIXES, final_path, partial
from .forgotten import Forgotten
from .output import Output
from .paths import RootSet
from .pending import (
    FRESH_DIR_MS,
    Change,
    Displaced,
    Pending,
    PendingBrowse,
    PendingDelete,
    PendingDir,
    PendingFolderDelete,
    PendingRead,
)
from .procs import ProcInfo
from .programs import ProgramTable
from .scan import baseline, lost_changes
from .scripts import ScriptBursts
from .searches import Searches
from .searchspec import SEARCH_TOOLS, parse_search
from .settle import Settler
from .state import FileInfo, FileState
from .tools import ToolRuns
from .watch import Raw

MOVE_PAIR_MS = 2000.0  # a move whose two halves were seen apart (see _moved_in_unseen)


def _stat(path: str) -> tuple[int, int] | None:
    """(size, mtime in ns) of a file, or None when it is gone."""
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns


class Interpreter:
    def __init__(
        self,
        roots: RootSet,
        state: FileState,
        *,
        settle_ms: float = 400.0,
        snapshot_max_bytes: int = 1 << 20,
        redact: bool = True,
        bulk_per_second: int = 200,
        tool_programs: list[str] | None = None,
    ):
        self.roots = roots
        self.state = state
        self.pending = Pending()
        self.output = Output(roots)
        self.disk = Disk(roots, state, snapshot_max_bytes=snapshot_max_bytes, redact=redact)
        self.searches = Searches(roots, self.disk, self.output, redact_queries=redact)
        self.tools = ToolRuns(roots, state, self.pending, self.output,
                              table=ProgramTable.with_extra(tool_programs or []), settle_ms=float(settle_ms))
        self.bulk = BulkSummariser(roots, state, self.pending, self.output, limit=bulk_per_second,
                                   absorb=self.tools.absorb_bulk)
        # a search known only by its name yields what a program we know did: a tool's
        # work, or an open a command line named (`cat notes.md` beside someone's grep)
        self.searches.known_tool = lambda path, t, folder: self.tools.names(path, t) or self.tools.claiming(
            path, t, "browse" if folder else "read") is not None
        self.settler = Settler(roots, state, self.pending, self.disk, self.output, self.searches, self.tools,
                               settle_ms=float(settle_ms), bulk_limit=int(bulk_per_second))
        self.scripts = ScriptBursts(self._new_file_settling, self.tools.unlisted_program)
        self.raw_events = 0
        self.rescans = 0

    @property
    def counters(self) -> dict[str, int]:
        return {"raw": self.raw_events, "rescans": self.rescans, "bulk_summaries": self.bulk.summaries,
                "searches_inferred": self.settler.searches_inferred, "tool_summaries": self.tools.summaries,
                "tool_events": self.tools.claimed}

    @property
    def pending_count(self) -> int:
        """Events still waiting to settle (0: everything seen has become actions)."""
        return (len(self.pending) + len(self.searches) + len(self.bulk) + len(self.tools) + len(self.settler.new_folders)
                + len(self.scripts))

    def _new_file_settling(self, t_lo: float, t_hi: float) -> bool:
        """Is a new file still settling (or held in a new folder) between t_lo and t_hi?
        Until none is, a burst of new files may not be whole (see scripts)."""
        if any(ch.kind == "create" and t_lo <= ch.t_first <= t_hi for ch in self.pending.changes.values()):
            return True
        return any(h.t <= t_hi and h.last_t >= t_lo for h in self.settler.new_folders.held.values())

    def baseline(self, budget_bytes: int, forgotten: Forgotten | None = None) -> dict[str, int]:
        """Know every file under the roots before recording (see scan.baseline)."""
        return baseline(self.roots, self.state, budget_bytes, snapshot_max_bytes=self.disk.snap_max,
                        redact=self.disk.redact, forgotten=forgotten)

    def tick(self, now: float, *, force: bool = False) -> list[dict[str, Any]]:
        """Turn everything that has settled (or everything, when forced) into actions."""
        self.bulk.settle(now, force=force)
        self.settler.settle(now, force=force, bulk_from=self.bulk.earliest_start())
        self.searches.settle(now, self.settler.settle_ms, force=force)
        # provenance first (a run is still known), then the summaries of runs that ended
        actions = self.tools.stamp(self.output.take_actions())
        # a script's burst of new files is only known once they have all settled
        actions = self.scripts.take(actions, now, force=force)
        self.tools.settle(now, force=force, bulk_open=bool(len(self.bulk)))
        self.state.prune_expectations()
        self.pending.forget_old(now)
        return sorted(actions + self.output.take_actions(), key=lambda e: e["timestamp"])

    # ------------------------------------------------------------------------------------
    # intake

    def feed(self, raw: Raw) -> None:
        self.raw_events += 1
        k = raw.kind
        if k == "proc_start":
            self._process_started(raw.data)
            return
        if k == "proc_end":
            self.searches.ended(raw.data, raw.t)
            self.tools.ended(raw.data, raw.t)
            return
        if k == "proc_activity":
            self.tools.activity(raw.data, raw.t)
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
                self._dir_deleted(raw.path, raw.t)
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

    def _process_started(self, info: ProcInfo) -> None:
        """A search the person ran, or a program of the table (a search run by a tool,
        like make's find, is the tool's)."""
        if self.tools.tool_ancestor(info) is not None:
            self.tools.started(info)
            return
        spec = parse_search(info.argv, info.cwd, info.pid, info.t_start) if info.argv else None
        if spec is not None:
            self.searches.started(spec)
            return
        if not info.argv and info.comm in SEARCH_TOOLS and info.comm != "git":
            self.searches.started_anonymous(info.comm, info.pid, info.t_start)  # gone before it was read
            return
        self.tools.started(info)

    # -- changes --------------------------------------------------------------------------

    def _changed(self, path: str, t: float, *, created: bool) -> None:
        name = os.path.basename(path)
        if is_editor_artifact(name):
            self.tools.note_artifact(path, t)
            return
        if partial(path) is not None:
            return  # a download still arriving: never recorded (see downloads)
        if database_companion(path):
            # SQLite's journal, WAL or shared-memory file beside a database (dbfiles); the
            # folder sync that follows is no listing
            self.pending.database_journals[os.path.dirname(path)] = t
            return
        if self.tools.editor_backup(path, t):
            self.tools.note_artifact(path, t)
            self.pending.changes.pop(path, None)
            self.tools.housekeeping_change(path, t)
            return
        kind = "create" if created and path not in self.state.files else "modify"
        # a folder already in a rate-based episode keeps counting there (it joins the tool
        # run that explains it when it ends): one operation is never split in two tallies
        if self.tools.runs and path not in self.pending.changes and not self.bulk.covering(path) \
                and self._claim_change(path, t, kind):
            return
        if self.bulk.count(path, t, kind):
            return
        self.pending.note_change(path, t)
        ch = self.pending.changes.get(path)
        if ch is not None:
            ch.t_last = t
            return
        if path in self.pending.deletes:  # deleted and written again: a rewrite of the same file
            before: FileInfo | None = self.pending.deletes.pop(path).info
            self.pending.changes[path] = Change("modify", t, t, before, tool="rename", unlinked=True)
        elif path in self.pending.displaced:  # vim: file -> file~, new file, delete file~
            d = self.pending.displaced.pop(path)
            self.pending.changes[path] = Change("modify" if d.info else "create", t, t, d.info, tool="vim")
        elif path in self.state.files:
            self.pending.changes[path] = Change("modify", t, t, self.state.files[path])
        elif not self._moved_in_unseen(path, t):
            self.pending.changes[path] = Change("create", t, t)

    def _claim_change(self, path: str, t: float, kind: str) -> bool:
        """A tool's write, counted for its summary. A file deleted a moment ago (before
        the tool was known) and written again is a rewrite (git checkout unlinks first)."""
        gone = self.pending.deletes.get(path) if kind == "create" else None
        if gone is not None:
            self.state.files[path] = gone.info
            if self.tools.claim(path, t, "replace"):
                del self.pending.deletes[path]
                return True
            self.state.files.pop(path, None)
            return False
        return self.tools.claim(path, t, kind)

    def _deleted(self, path: str, t: float) -> None:
        name = os.path.basename(path)
        if is_editor_artifact(name):
            self.tools.note_artifact(path, t)
            return
        if database_companion(path):
            self.pending.changes.pop(path, None)
            return  # SQLite removing its journal or WAL (dbfiles)
        if partial(path) is not None or self.pending.placeholders.pop(path, None) is not None:
            # a partial download (or Firefox's placeholder) removed: finished or cancelled
            self.pending.changes.pop(path, None)
            info = self.state.pop(path)
            if info is not None:
                self.state.forget(info)
            return
        if self.tools.editor_backup(path, t):  # vim's writebackup removing its copy
            self.tools.note_artifact(path, t)
            self.pending.changes.pop(path, None)
            info = self.state.pop(path)
            if info is not None:
                self.state.forget(info)
            return
        self.pending.recent_delete_dirs.append((t, os.path.dirname(path)))
        if self.tools.runs and path not in self.pending.changes and not self.bulk.covering(path) \
                and self.tools.claim(path, t, "delete"):
            return
        if self.bulk.count(path, t, "delete"):
            return
        ch = self.pending.changes.pop(path, None)
        if ch is not None and ch.kind == "create":
            self.state.pop(path)
            return  # lived shorter than the settle window: a program's temporary file
        disp = self.pending.displaced.get(path)
        if disp is not None:
            return
        # A displaced original's backup being deleted (vim's writebackup): nothing to say.
        for d in self.pending.displaced.values():
            if d.dest == path:
                d.dest = ""
                return
        info = self.state.pop(path)
        if info is None and ch is not None:
            info = ch.before
        if info is None:
            return
        if self._moved_out_unseen(path, info, t):
            return
        self.pending.deletes[path] = PendingDelete(info, t)

    # A move into a folder made a moment before (`mkdir new && mv a.txt new/`) can beat the
    # inotify watch on the new folder: the kernel reports only that a.txt left, and the scan
    # of the new folder finds new/a.txt. The same name, size and modification time (a
    # rename keeps them; a copy without -p does not) within the settle window is that move,
    # whichever of the two is read first.

    def _moved_in_unseen(self, path: str, t: float) -> bool:
        if not self.pending.deletes:
            return False
        st = _stat(path)
        if st is None:
            return False
        name = os.path.basename(path)
        for src, d in self.pending.deletes.items():
            if os.path.basename(src) == name and (d.info.size, d.info.mtime_ns) == st and abs(t - d.t) <= MOVE_PAIR_MS:
                del self.pending.deletes[src]
                self.state.put(path, d.info)
                self.output.emit_move(src, path, d.t)
                return True
        return False

    def _moved_out_unseen(self, src: str, info: FileInfo, t: float) -> bool:
        name = os.path.basename(src)
        for dest, ch in self.pending.changes.items():
            if ch.kind != "create" or os.path.basename(dest) != name or abs(t - ch.t_first) > MOVE_PAIR_MS:
                continue
            if _stat(dest) == (info.size, info.mtime_ns):
                del self.pending.changes[dest]
                self.state.put(dest, info)
                self.output.emit_move(src, dest, t)
                return True
        return False

    def _forget_early_sighting(self, src: str, dest: str) -> None:
        """watchdog walks a folder the moment it is made (`mkdir archive && mv a.md
        archive/`): the moved file can be seen there as new before the move's own event. A
        new file at the destination with the source's size and modification time was the
        move, seen early (E-1: stored as a file_write and a file_move)."""
        ch = self.pending.changes.get(dest)
        info = self.state.files.get(src)
        if ch is not None and ch.kind == "create" and info is not None and _stat(dest) == (info.size, info.mtime_ns):
            del self.pending.changes[dest]

    def _moved(self, src: str, dest: str, t: float) -> None:
        s_name, d_name = os.path.basename(src), os.path.basename(dest)
        s_art = is_editor_artifact(s_name)
        if s_art or is_editor_artifact(d_name):
            self.tools.note_artifact(src if s_art else dest, t)
        self.pending.note_change(dest, t)
        s_part = partial(src)
        if s_part is not None:
            if partial(dest) is not None:  # Chromium's `Unconfirmed 123.crdownload` -> X.crdownload
                info = self.state.pop(src)
                if info is not None:
                    self.state.forget(info)
                return
            if self._received(src, dest, s_part, t):
                return
        if self.tools.runs and not s_art:
            run = self.tools.claiming(dest, t, "create")
            if run is not None:  # a tool putting a file in place (pip, git)
                self.pending.changes.pop(src, None)
                self.pending.changes.pop(dest, None)
                info = self.state.rekey(src, dest)
                self.tools.moved(run, src, dest, t, known=info is not None)
                return
        pending = self.pending.changes.get(src)
        if s_art or s_part is not None or (pending is not None and pending.kind == "create") or (
            src not in self.state.files and looks_like_temp_save(s_name)
        ):
            # write-to-temp-and-rename: the destination got new content
            self.pending.changes.pop(src, None)
            self.state.pop(src)
            before: FileInfo | None = None
            ch = self.pending.changes.get(dest)
            if ch is not None:
                ch.t_last = t
                if ch.tool == "write":
                    ch.tool = "rename"
                return
            if dest in self.pending.deletes:
                before = self.pending.deletes.pop(dest).info
            elif dest in self.pending.displaced:
                before = self.pending.displaced.pop(dest).info
            elif dest in self.state.files:
                before = self.state.files[dest]
            t0 = pending.t_first if pending is not None else t
            self.pending.changes[dest] = Change("modify" if before else "create", t0, t, before, tool="rename")
            return
        if is_editor_artifact(d_name) or dest == src + "~":
            # The original steps aside while the editor writes the new version.
            info = self.state.pop(src)
            if pending is not None:
                self.pending.changes.pop(src, None)
                info = info or pending.before
            self.pending.displaced[src] = Displaced(dest, info, t)
            return
        if pending is not None:  # a modified file moved before it settled: report at dest
            self.pending.changes[dest] = self.pending.changes.pop(src)
        else:
            self._forget_early_sighting(src, dest)
        info = self.state.rekey(src, dest)
        if src in self.pending.deletes:
            return
        self.output.emit_move(src, dest, t)

    def _received(self, src: str, dest: str, suffix: str, t: float) -> bool:
        """A partial download renamed onto its final name, a new file: the browser finished
        it. One file_write create, not the person's (downloads). Over a file that existed
        it is a save (an editor's atomic save), and through `.part` only with Firefox's
        placeholder or a browser that writes `.part` running."""
        final = final_path(src)
        if final is None or final[0] != dest:
            return False
        p = self.pending
        if dest in self.state.files or dest in p.deletes or dest in p.displaced:
            return False
        ch = p.changes.get(dest)
        if ch is not None and ch.kind != "create":
            return False
        placeholder = dest in p.placeholders or ch is not None  # made empty when the download began
        if suffix in AMBIGUOUS and not placeholder and self.tools.browser(PARTIAL_SUFFIXES[suffix], t) is None:
            return False
        p.placeholders.pop(dest, None)
        info = self.state.pop(src)
        if info is not None:
            self.state.forget(info)
        if ch is None:
            ch = p.changes[dest] = Change("create", t, t)
        ch.t_first = ch.t_last = t  # received when it was complete
        ch.tool = "rename"
        ch.received = suffix
        return True

    # -- folders ----------------------------------------------------------------------------

    def _dir_created(self, path: str, t: float) -> None:
        self.pending.fresh_dirs[path] = t
        if partial(path) is not None:
            return  # Safari's download bundle (X.download/)
        if path in self.state.dirs or path in self.pending.new_dirs:
            return
        if self.tools.runs and not self.bulk.covering(path) and self.tools.claim(path, t, "dir"):
            return
        if self.bulk.count(path, t, "dir"):
            return
        # mkdir -p a/b/c: every missing level is a dir_create, parents first
        chain = []
        p = path
        r = self.roots.root_of(path)
        while r is not None and p != r.path and p not in self.state.dirs and p not in self.pending.new_dirs:
            chain.append(p)
            p = os.path.dirname(p)
        for i, d in enumerate(reversed(chain)):
            self.pending.new_dirs[d] = PendingDir(d, t + i * 0.001)
            self.state.dirs.add(d)

    def _dir_deleted(self, path: str, t: float) -> None:
        if partial(path) is not None:
            return
        claimed = bool(self.tools.runs) and self.tools.claim(path, t, "dir_delete")
        self.state.dirs.discard(path)
        self.pending.new_dirs.pop(path, None)
        self.pending.recent_delete_dirs.append((0.0, path))
        if not claimed:
            self._fold_into_folder_delete(path, t)

    def _fold_into_folder_delete(self, path: str, t: float) -> None:
        """A folder removed right after the files in it (rm -r, a file manager, rmtree) is
        one deletion of the folder, whichever program did it: the person deleted the folder,
        not each file. Its files' deletes are still waiting to settle; they become its
        count (a known tool may still claim them when they settle)."""
        p = self.pending
        pre = path + os.sep
        inside = [q for q in p.deletes if q.startswith(pre)]
        subs = [q for q in p.gone_dirs if q.startswith(pre)]
        if not inside and not subs:
            return
        files: dict[str, FileInfo] = {}
        t_first = t
        for q in inside:
            d = p.deletes.pop(q)
            files[q] = d.info
            t_first = min(t_first, d.t)
        for q in subs:
            g = p.gone_dirs.pop(q)
            files.update(g.files)
            t_first = min(t_first, g.t_first)
        p.gone_dirs[path] = PendingFolderDelete(t_first, t, files)

    def _dir_moved(self, src: str, dest: str, t: float) -> None:
        self.pending.fresh_dirs[dest] = t
        if self.tools.runs:
            run = self.tools.claiming(dest, t, "dir")
            if run is not None:  # a tool moving a folder into place
                self.state.rekey_tree(src, dest)
                self.state.dirs.discard(src)
                self.tools.count(run, dest, t, "dir")
                return
        self.state.rekey_tree(src, dest)
        self.state.dirs.discard(src)
        self.state.dirs.add(dest)
        for p in [p for p in self.pending.changes if p.startswith(src + os.sep)]:
            self.pending.changes[dest + p[len(src) :]] = self.pending.changes.pop(p)
        if src in self.pending.new_dirs:  # created and moved within the settle window
            self.pending.new_dirs.pop(src)
            self.pending.new_dirs[dest] = PendingDir(dest, t)
            return
        self.output.emit_move(src, dest, t)

    def _dir_opened(self, raw: Raw) -> None:
        path, t = raw.path, raw.t
        if self.state.consume_self_dir(path) or partial(path) is not None:
            return
        if t < self.pending.ignore_dir_opens_until or self.pending.syncing_database_folder(path, t):
            return
        p = path
        r = self.roots.root_of(path)
        while r is not None:
            ft = self.pending.fresh_dirs.get(p)
            if ft is not None and t - ft < FRESH_DIR_MS:
                return
            if p == r.path:
                break
            p = os.path.dirname(p)
        if self.tools.runs and self.tools.claim(path, t, "browse", update_state=False):
            return
        if self.bulk.covering(path):
            return
        self.pending.browses.append(PendingBrowse(path, t))

    # -- reads ----------------------------------------------------------------------------

    def _read(self, path: str, t: float) -> None:
        if self.state.consume_self_read(path):
            return
        if is_editor_artifact(os.path.basename(path)) or self.tools.editor_backup(path, t) or partial(path) \
                or database_companion(path):
            return
        if self.tools.runs and self.tools.claim(path, t, "read", update_state=False):
            return
        if self.bulk.covering(path) or self.bulk.absorb_read(path, t):
            return
        self.pending.reads.append(PendingRead(path, t))

    # -- overflow -------------------------------------------------------------------------

    def rescan(self, now: float, where: str | None = None) -> None:
        """The kernel dropped events: record what changed under the affected root."""
        self.rescans += 1
        self.pending.ignore_dir_opens_until = now + FRESH_DIR_MS
        for kind, path in lost_changes(self.roots, self.state, self.pending, where):
            if kind == "dir":
                self._dir_created(path, now)
            elif kind == "deleted":
                self._deleted(path, now)
            else:
                self._changed(path, now, created=(kind == "created"))
