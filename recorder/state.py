"""What the recorder knows about each file: when it was first seen, its hash and its last
text snapshot, kept in the store so that a restart still diffs against the right "before"
and file_age_ms still counts from the first sighting (not from the last read, as the
reference recorder did).

Snapshots live in the recorder's own table (one per file, replaced on change), not in the
shared blob table: only a snapshot that an action refers to becomes a blob.
"""

from __future__ import annotations

import itertools
import os
import time
import zlib
from collections import OrderedDict
from dataclasses import dataclass

from filegram.privacy import redact_path
from filegram.store import Store, register_migrations

NAMESPACE = "recorder"
FORGOTTEN_SQL = """
    CREATE TABLE IF NOT EXISTS recorder_forgotten (
        key TEXT PRIMARY KEY,
        at_ms REAL NOT NULL
    ) WITHOUT ROWID
"""

MIGRATIONS = [
    """
    CREATE TABLE IF NOT EXISTS recorder_files (
        path TEXT PRIMARY KEY,
        fid INTEGER NOT NULL,
        first_seen_ms REAL NOT NULL,
        size INTEGER,
        mtime_ns INTEGER,
        hash TEXT,
        is_text INTEGER NOT NULL DEFAULT 0
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS recorder_snapshots (
        fid INTEGER PRIMARY KEY,
        content BLOB NOT NULL
    );
    """,
    # files the person asked to forget that the recorder must not take in again (forgotten.py)
    FORGOTTEN_SQL,
]
register_migrations(NAMESPACE, MIGRATIONS)

# Our own reads show up as inotify events a moment later; an expectation older than this
# (its event was lost in an overflow) must not swallow a real read of the user.
SELF_EVENT_TTL_S = 5.0


def _consume(expected: dict[str, list[float]], path: str) -> bool:
    times = expected.get(path)
    if not times:
        return False
    now = time.monotonic()
    while times and times[0] < now:
        times.pop(0)
    if not times:
        del expected[path]
        return False
    times.pop(0)
    if not times:
        del expected[path]
    return True


@dataclass(slots=True)
class FileInfo:
    fid: int
    first_seen_ms: float
    size: int
    mtime_ns: int
    hash: str | None
    is_text: bool
    has_snapshot: bool = False
    forgotten: bool = False  # asked to be forgotten, unchanged since: known in memory only (forgotten.py)


class FileState:
    """Known files and folders under the roots. Changes are buffered and written by
    `write_pending()` inside the recorder's batch transaction."""

    def __init__(self, store: Store):
        self.store = store
        store.migrate(NAMESPACE)
        self.files: dict[str, FileInfo] = {}
        self.dirs: set[str] = set()
        self._upserts: dict[str, FileInfo | None] = {}
        self._snap_put: dict[int, bytes] = {}
        self._snap_del: set[int] = set()
        self._snap_cache: OrderedDict[int, bytes] = OrderedDict()
        row = store.conn.execute("SELECT MAX(fid) FROM recorder_files").fetchone()
        start = (row[0] or 0) + 1 if row else 1
        self._fids = itertools.count(start)
        # Self-inflicted events: our own reads and folder scans must not become actions.
        self._self_reads: dict[str, list[float]] = {}
        self._self_dirs: dict[str, list[float]] = {}

    # -- loading ------------------------------------------------------------------------

    def load(self, under: list[str]) -> dict[str, FileInfo]:
        """Known files from earlier runs below these roots."""
        out: dict[str, FileInfo] = {}
        snaps = {fid for (fid,) in self.store.conn.execute("SELECT fid FROM recorder_snapshots")}
        for raw_path, fid, first, size, mtime, h, is_text in self.store.conn.execute(
            "SELECT path, fid, first_seen_ms, size, mtime_ns, hash, is_text FROM recorder_files"
        ):
            path = _from_db(raw_path)
            if any(path == r or path.startswith(r + os.sep) for r in under):
                out[path] = FileInfo(fid, first, size or 0, mtime or 0, h, bool(is_text), fid in snaps)
        return out

    def new_fid(self) -> int:
        return next(self._fids)

    # -- changes ------------------------------------------------------------------------

    def put(self, path: str, info: FileInfo, snapshot: bytes | None = None) -> None:
        self.files[path] = info
        self._upserts[path] = info
        if snapshot is not None:
            info.has_snapshot = True
            self._snap_put[info.fid] = snapshot
            self._snap_del.discard(info.fid)
            self._cache(info.fid, snapshot)
        elif not info.has_snapshot:
            self._drop_snapshot(info.fid)

    def keep_out(self, path: str, size: int, mtime_ns: int, old: FileInfo | None) -> None:
        """A file the person asked to forget, unchanged since: known (so that its next change
        is a change and a rescan finds nothing new) in memory only, without a snapshot; a
        row left from before goes with its snapshot."""
        self.files[path] = FileInfo(old.fid if old else self.new_fid(), mtime_ns / 1e6, size, mtime_ns, None, False,
                                    forgotten=True)
        if old is not None:
            self._upserts[path] = None
            self._drop_snapshot(old.fid)

    def pop(self, path: str) -> FileInfo | None:
        info = self.files.pop(path, None)
        if info is not None:
            self._upserts[path] = None
        return info

    def forget(self, info: FileInfo) -> None:
        """A file is gone for good: drop its snapshot too."""
        self._drop_snapshot(info.fid)

    def _drop_snapshot(self, fid: int) -> None:
        self._snap_put.pop(fid, None)
        self._snap_cache.pop(fid, None)
        self._snap_del.add(fid)

    def rekey(self, src: str, dest: str) -> FileInfo | None:
        info = self.pop(src)
        old = self.pop(dest)
        if old is not None and (info is None or old.fid != info.fid):
            self.forget(old)
        if info is not None:
            self.files[dest] = info
            self._upserts[dest] = info
        return info

    def rekey_tree(self, src: str, dest: str) -> None:
        prefix = src + os.sep
        for p in [p for p in self.files if p.startswith(prefix)]:
            self.rekey(p, dest + p[len(src) :])
        moved = [d for d in self.dirs if d == src or d.startswith(prefix)]
        for d in moved:
            self.dirs.discard(d)
            self.dirs.add(dest + d[len(src) :])

    def files_in(self, folder: str) -> set[str]:
        """Known files directly in a folder (not in its sub-folders)."""
        pre = folder.rstrip(os.sep) + os.sep
        return {p for p in self.files if p.startswith(pre) and os.sep not in p[len(pre):]}

    def snapshot(self, info: FileInfo) -> bytes | None:
        if not info.has_snapshot:
            return None
        fid = info.fid
        if fid in self._snap_put:
            return self._snap_put[fid]
        if fid in self._snap_cache:
            self._snap_cache.move_to_end(fid)
            return self._snap_cache[fid]
        row = self.store.conn.execute("SELECT content FROM recorder_snapshots WHERE fid = ?", (fid,)).fetchone()
        if not row:
            return None
        data = zlib.decompress(row[0])
        self._cache(fid, data)
        return data

    def _cache(self, fid: int, data: bytes) -> None:
        self._snap_cache[fid] = data
        self._snap_cache.move_to_end(fid)
        total = 0
        for k in reversed(self._snap_cache):
            total += len(self._snap_cache[k])
        while len(self._snap_cache) > 64 or (total > 16 << 20 and len(self._snap_cache) > 1):
            _, v = self._snap_cache.popitem(last=False)
            total -= len(v)

    @property
    def pending_writes(self) -> int:
        return len(self._upserts) + len(self._snap_put) + len(self._snap_del)

    def write_pending(self) -> None:
        """Write buffered changes; call inside a store transaction."""
        conn = self.store.conn
        if self._upserts:
            ups = [(_to_db(p), i.fid, i.first_seen_ms, i.size, i.mtime_ns, i.hash, int(i.is_text)) for p, i in self._upserts.items() if i is not None]
            dels = [(_to_db(p),) for p, i in self._upserts.items() if i is None]
            if dels:
                conn.executemany("DELETE FROM recorder_files WHERE path = ?", dels)
            if ups:
                conn.executemany(
                    "INSERT INTO recorder_files(path, fid, first_seen_ms, size, mtime_ns, hash, is_text) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(path) DO UPDATE SET fid=excluded.fid, "
                    "first_seen_ms=excluded.first_seen_ms, size=excluded.size, mtime_ns=excluded.mtime_ns, "
                    "hash=excluded.hash, is_text=excluded.is_text",
                    ups,
                )
            self._upserts.clear()
        if self._snap_del:
            conn.executemany("DELETE FROM recorder_snapshots WHERE fid = ?", [(f,) for f in self._snap_del])
            self._snap_del.clear()
        if self._snap_put:
            conn.executemany(
                "INSERT INTO recorder_snapshots(fid, content) VALUES (?, ?) "
                "ON CONFLICT(fid) DO UPDATE SET content=excluded.content",
                [(f, zlib.compress(c, 6)) for f, c in self._snap_put.items()],
            )
            self._snap_put.clear()

    # -- self-inflicted events --------------------------------------------------------------

    def expect_self_read(self, path: str) -> None:
        self._self_reads.setdefault(path, []).append(time.monotonic() + SELF_EVENT_TTL_S)

    def consume_self_read(self, path: str) -> bool:
        return _consume(self._self_reads, path)

    def expect_self_dir(self, path: str) -> None:
        self._self_dirs.setdefault(path, []).append(time.monotonic() + SELF_EVENT_TTL_S)

    def consume_self_dir(self, path: str) -> bool:
        return _consume(self._self_dirs, path)

    def prune_expectations(self) -> None:
        """Forget expectations whose events never came (polled roots see no reads)."""
        now = time.monotonic()
        for table in (self._self_reads, self._self_dirs):
            if len(table) > 256:
                for k in [k for k, v in table.items() if not v or v[-1] < now]:
                    del table[k]



def _to_db(path: str) -> str | bytes:
    """Linux file names need not be UTF-8: such a name is kept as its bytes (reversibly),
    where the trace shows it escaped. A name holding a secret is kept redacted (the file
    then counts as new after a restart)."""
    path = redact_path(path)
    try:
        path.encode("utf-8")
        return path
    except UnicodeEncodeError:
        return os.fsencode(path)


def _from_db(value: str | bytes) -> str:
    return os.fsdecode(value) if isinstance(value, bytes) else value


def db_form(path: str) -> str:
    """A path as recorder_files keeps it (redacted when its name holds a secret), decoded."""
    return _from_db(_to_db(path))
