"""What the interpreter holds while events settle: raw facts waiting for their follow-ups
(a change for its rename, a read for the copy that may claim it, a folder listing for the
traversal it may belong to) and the recent history that later decisions look back on.

One `Pending` object is shared by the parts of the interpreter (intake, settling, bulk
summaries, rescans); it has no behaviour beyond bookkeeping, so what each part does with
it stays in that part.
"""

from __future__ import annotations

import os
from collections import deque
from dataclasses import dataclass, field

from .content import Content
from .state import FileInfo

FRESH_DIR_MS = 1500.0  # opens of a folder this young are its creator's, not the user's
RECENT_DIRS = 4096
CHANGE_TIMES_KEPT = 8
FORGET_CHANGES_MS = 5000.0
PLACEHOLDERS_KEPT = 256
# SQLite fsyncs a database's folder right after it creates (and first syncs) the journal or
# WAL beside it; a busy machine can hold the process for a while between the two calls
DB_FOLDER_SYNC_MS = 1000.0


@dataclass
class Change:
    kind: str  # "create" | "modify"
    t_first: float
    t_last: float
    before: FileInfo | None = None
    tool: str = "write"  # how the save happened: write (in place), rename, vim
    unlinked: bool = False  # deleted and created again (git checkout): replaced, not written in place
    received: str | None = None  # a download finished: the partial suffix it came under (downloads)


@dataclass
class PendingRead:
    path: str
    t: float
    claimed: str | None = None  # "copy", "search", "rewrite", "duplicate", "done" (settled)
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
class PendingFolderDelete:
    """A folder deleted with files whose deletes were still waiting: one deletion of it."""

    t_first: float
    t: float
    files: dict[str, FileInfo]  # what it held (paths below it -> what was known of them)


@dataclass
class Displaced:
    """An original renamed aside (file -> file~) while an editor writes the new version."""

    dest: str
    info: FileInfo | None
    t: float


@dataclass
class PendingDir:
    path: str
    t: float


@dataclass
class Pending:
    changes: dict[str, Change] = field(default_factory=dict)
    reads: list[PendingRead] = field(default_factory=list)
    browses: list[PendingBrowse] = field(default_factory=list)
    deletes: dict[str, PendingDelete] = field(default_factory=dict)
    displaced: dict[str, Displaced] = field(default_factory=dict)
    new_dirs: dict[str, PendingDir] = field(default_factory=dict)
    gone_dirs: dict[str, PendingFolderDelete] = field(default_factory=dict)
    # history
    fresh_dirs: dict[str, float] = field(default_factory=dict)
    last_change_t: dict[str, float] = field(default_factory=dict)
    change_times: dict[str, deque[float]] = field(default_factory=dict)
    recent_change_dirs: deque[tuple[float, str]] = field(default_factory=lambda: deque(maxlen=RECENT_DIRS))
    recent_delete_dirs: deque[tuple[float, str]] = field(default_factory=lambda: deque(maxlen=RECENT_DIRS))
    recent_copy_dirs: deque[tuple[float, str]] = field(default_factory=lambda: deque(maxlen=RECENT_DIRS))
    # empty new files beside a partial download (Firefox's placeholder): not recorded, and the
    # download renamed over one is a new file (path -> when it appeared)
    placeholders: dict[str, float] = field(default_factory=dict)
    ignore_dir_opens_until: float = 0.0
    # folder -> when SQLite last wrote a journal or WAL in it (dbfiles): its folder sync follows
    database_journals: dict[str, float] = field(default_factory=dict)

    def __len__(self) -> int:
        return (
            len(self.changes) + len(self.reads) + len(self.browses) + len(self.deletes)
            + len(self.displaced) + len(self.new_dirs) + len(self.gone_dirs)
        )

    def note_change(self, path: str, t: float) -> None:
        self.last_change_t[path] = t
        times = self.change_times.get(path)
        if times is None:
            times = self.change_times[path] = deque(maxlen=CHANGE_TIMES_KEPT)
        times.append(t)
        self.recent_change_dirs.append((t, os.path.dirname(path)))

    def syncing_database_folder(self, folder: str, t: float) -> bool:
        """Is an open of folder SQLite syncing it after writing a journal there?"""
        tj = self.database_journals.get(folder)
        return tj is not None and -50.0 <= t - tj <= DB_FOLDER_SYNC_MS

    def changed_near(self, path: str, t: float, before: float, after: float) -> bool:
        times = self.change_times.get(path)
        return bool(times) and any(t - before <= ct <= t + after for ct in times)

    def forget_old(self, now: float) -> None:
        """Keep the history tables small."""
        if len(self.fresh_dirs) > 256:
            self.fresh_dirs = {p: ft for p, ft in self.fresh_dirs.items() if now - ft < FRESH_DIR_MS}
        if len(self.database_journals) > PLACEHOLDERS_KEPT:
            self.database_journals = {d: tj for d, tj in self.database_journals.items() if now - tj < DB_FOLDER_SYNC_MS}
        if len(self.placeholders) > PLACEHOLDERS_KEPT:
            self.placeholders = dict(sorted(self.placeholders.items(), key=lambda kv: kv[1])[-PLACEHOLDERS_KEPT // 2:])
        if len(self.last_change_t) > RECENT_DIRS:
            self.last_change_t = {p: ft for p, ft in self.last_change_t.items() if now - ft < FORGET_CHANGES_MS}
            self.change_times = {p: v for p, v in self.change_times.items() if p in self.last_change_t}
