"""The SQLite connection under the store: durability settings, transactions, forward
migrations per namespace, the small key/value state, introspection and health.

Durability first (ActivityWatch users lost data to lazy commits): WAL with synchronous=FULL,
foreign keys on, every write batch in one transaction, so a crash loses nothing committed and
leaves no half batch. Data derived from the rest of the file (memory's tables) may commit
with synchronous=NORMAL (`derived_writes`): consistent, and rebuilt if a power failure takes
its last commits. Schema changes are forward migrations recorded per namespace, so other
packages (memory, screen) add their own tables without touching the core.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ..errors import FileGramError

Migration = str | Callable[[sqlite3.Connection], None]

CORE_NAMESPACE = "core"
IN_MEMORY = ":memory:"  # Store(":memory:"): a throwaway database (bench methods, tests)
SQLITE_BUSY_TIMEOUT_MS = 30_000


def _enable_wal(conn: sqlite3.Connection) -> None:
    """Switching a new database to WAL needs it to itself, and SQLite answers "database is
    locked" at once, without its busy handler, while another process is creating the same
    file (the daemon and a command on first run): retry within the busy timeout."""
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_MS / 1000
    pause = 0.005
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.2)

CORE_MIGRATIONS: list[Migration] = [
    # 1: the foundation
    """
    CREATE TABLE IF NOT EXISTS sessions (
        sn INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        source TEXT NOT NULL DEFAULT 'recorder',
        label TEXT,
        profile_id TEXT,
        task_id TEXT,
        root TEXT,
        started_ms REAL,
        ended_ms REAL,
        closed INTEGER NOT NULL DEFAULT 0,
        metadata TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX IF NOT EXISTS idx_sessions_started ON sessions(started_ms);
    CREATE TABLE IF NOT EXISTS actions (
        seq INTEGER PRIMARY KEY,
        event_id TEXT NOT NULL,
        session_sn INTEGER NOT NULL REFERENCES sessions(sn) ON DELETE CASCADE,
        event_type TEXT NOT NULL,
        ts REAL NOT NULL,
        path TEXT,
        data TEXT NOT NULL
    );
    CREATE UNIQUE INDEX IF NOT EXISTS idx_actions_session_ts_id ON actions(session_sn, ts, event_id);
    CREATE INDEX IF NOT EXISTS idx_actions_type_ts ON actions(event_type, ts);
    CREATE TABLE IF NOT EXISTS paths (
        path TEXT PRIMARY KEY,
        first_ms REAL NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS blobs (
        hash TEXT PRIMARY KEY,
        kind TEXT NOT NULL DEFAULT 'blob',
        size INTEGER NOT NULL,
        original_path TEXT,
        created_ms REAL NOT NULL,
        content BLOB NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS state (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_ms REAL NOT NULL
    ) WITHOUT ROWID;
    """,
]


# The actions table's secondary indexes, versioned on their own: an index is a speed
# trade-off, so changing one must not make an older FileGram refuse the file as it does a
# newer core schema. 1: the time index leads with ts, so every batch appends to it (the
# event_type-first index took one random insertion point per action type, as much time
# as the rest of the write); it still covers counts by type and finds the newest action.
INDEX_NAMESPACE = "core_indexes"
INDEX_MIGRATIONS: list[Migration] = [
    """
    CREATE INDEX IF NOT EXISTS idx_actions_ts_type ON actions(ts, event_type);
    DROP INDEX IF EXISTS idx_actions_type_ts;
    """,
]


class StoreError(FileGramError, RuntimeError):
    """A store operation that cannot be done; the message is one line for the user."""


class DamagedDatabase(StoreError):
    """The file is not a sound SQLite database (overwritten pages, not a database at all):
    `filegram doctor --repair` restores the newest good backup and what can still be read."""


class DiskFullError(StoreError):
    """The disk holding the database is full: nothing was written, nothing is corrupted;
    writers should pause and retry when space returns."""


def is_disk_full(exc: BaseException) -> bool:
    return "full" in str(exc).lower() or getattr(exc, "sqlite_errorname", "") == "SQLITE_FULL"


def store_error(exc: sqlite3.Error, path: Path) -> StoreError:
    if is_disk_full(exc):
        return DiskFullError(f"the disk holding {path} is full: writing paused, nothing stored was lost")
    return StoreError(f"cannot write to {path}: {exc}")


def is_damaged(exc: BaseException) -> bool:
    """True for SQLite's "the file is damaged" errors (not for a locked or missing file)."""
    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    name = getattr(exc, "sqlite_errorname", "") or ""
    if name.startswith("SQLITE_CORRUPT") or name == "SQLITE_NOTADB":
        return True
    text = str(exc).lower()
    return "malformed" in text or "not a database" in text


def damaged_message(path: Path | str, exc: BaseException) -> str:
    return f"the database {path} is damaged ({exc}): run `filegram doctor --repair`"


def now_ms() -> float:
    return time.time() * 1000.0


# The device a session was recorded on, versioned on its own so it never collides with the
# core's numbered migrations: NULL is this device; `filegram sync` fills in the name of the
# device a session came from (filegram/sync).
DEVICE_NAMESPACE = "core_sessions_device"
DEVICE_MIGRATIONS: list[Migration] = [
    """
    ALTER TABLE sessions ADD COLUMN device TEXT;
    CREATE INDEX IF NOT EXISTS idx_sessions_device ON sessions(device);
    """,
]

_REGISTERED: dict[str, list[Migration]] = {
    CORE_NAMESPACE: CORE_MIGRATIONS,
    INDEX_NAMESPACE: INDEX_MIGRATIONS,
    DEVICE_NAMESPACE: DEVICE_MIGRATIONS,
}


def register_migrations(namespace: str, migrations: Sequence[Migration]) -> None:
    """Let a package own tables in the store. Migrations only ever append; applied ones are
    recorded as `schema_version:<namespace>` and never run twice."""
    _REGISTERED[namespace] = list(migrations)


def registered_namespaces() -> list[str]:
    """The namespaces whose migrations are known, the core first."""
    return [CORE_NAMESPACE] + sorted(n for n in _REGISTERED if n != CORE_NAMESPACE)


def split_sql(script: str) -> list[str]:
    """Statements of a script, each complete (a trigger's inner ';' does not end it). Run
    one by one because executescript() would commit in the middle of our transaction."""
    out, buf = [], ""
    for piece in script.split(";"):
        buf += piece + ";"
        if sqlite3.complete_statement(buf):
            if buf.strip(" \t\n;"):
                out.append(buf.strip())
            buf = ""
    if buf.strip(" \t\n;"):
        out.append(buf.strip())
    return out


class Database:
    """One SQLite file opened for FileGram: safe to share across threads (writes are
    serialised by a lock and run in transactions)."""

    def __init__(self, path: str | Path, *, readonly: bool = False, create: bool = True):
        self.path = Path(path)
        self.in_memory = str(path) == IN_MEMORY
        if self.in_memory:
            uri = "file::memory:"  # a private database that lives as long as the connection
        elif not readonly and create:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        elif not self.path.exists():
            raise StoreError(f"no database at {self.path}")
        existed = self.in_memory or self.path.exists()
        if not self.in_memory:
            # a URI escapes what a path may hold (spaces, '?', '#', '%', any script)
            uri = self.path.absolute().as_uri() + ("?mode=ro" if readonly else "")
        try:
            conn = sqlite3.connect(
                uri,
                uri=True,
                timeout=SQLITE_BUSY_TIMEOUT_MS / 1000,
                check_same_thread=False,
                isolation_level=None,
            )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open database {self.path}: {exc}") from exc
        if not existed and not readonly:
            with contextlib.suppress(OSError):
                self.path.chmod(0o600)
        self.conn = conn
        self.readonly = readonly
        self._lock = threading.RLock()
        self._tx_depth = 0
        try:
            conn.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
            conn.execute("PRAGMA foreign_keys=ON")
            if not readonly:
                _enable_wal(conn)
                conn.execute("PRAGMA synchronous=FULL")
                self.migrate()
            else:
                conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        except sqlite3.DatabaseError as exc:
            conn.close()
            if is_damaged(exc):
                raise DamagedDatabase(damaged_message(self.path, exc)) from exc
            raise StoreError(f"cannot open database {self.path}: {exc}") from exc

    # -- lifecycle --------------------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            self.conn.close()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def clear_caches(self) -> None:
        """Forget what was cached about rows: called when a transaction rolls back (the
        write path keeps caches of sessions and paths; see Store)."""

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic batch; nested uses join the outer transaction."""
        with self._lock:
            if self._tx_depth == 0:
                if self.conn.in_transaction:  # left open by a rollback that failed (disk full)
                    self._rollback()
                self.conn.execute("BEGIN IMMEDIATE")
            self._tx_depth += 1
            try:
                yield self.conn
            except BaseException as exc:
                self._tx_depth -= 1
                if self._tx_depth == 0:
                    self._rollback()
                    self.clear_caches()
                    if isinstance(exc, sqlite3.OperationalError) and is_disk_full(exc):
                        raise store_error(exc, self.path) from exc
                raise
            else:
                self._tx_depth -= 1
                if self._tx_depth == 0:
                    try:
                        self.conn.execute("COMMIT")
                    except sqlite3.Error as exc:
                        # A failed COMMIT (disk full, I/O error) can leave the transaction
                        # open; roll it back so the next batch starts clean.
                        self._rollback()
                        self.clear_caches()
                        raise store_error(exc, self.path) from exc

    @contextlib.contextmanager
    def derived_writes(self) -> Iterator[None]:
        """The transactions opened inside commit with synchronous=NORMAL, for writes of data
        that is recomputed from the rest of the file (memory's tables, from the actions).

        In WAL mode NORMAL skips the fsync of each commit, never consistency: a power
        failure can only roll back the last such commits (the next FULL commit syncs
        them too), and what they wrote is derived again (memory re-ingests every session
        missing from it). Only a WAL database, and only outside an open transaction (one
        that holds other writes keeps its setting); the setting is restored afterwards,
        under the lock, so no other thread's transaction commits with it."""
        with self._lock:
            if self._tx_depth or self.readonly or self.in_memory:
                yield
                return
            conn = self.conn
            if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                yield
                return
            before = int(conn.execute("PRAGMA synchronous").fetchone()[0])
            conn.execute("PRAGMA synchronous=NORMAL")
            try:
                yield
            finally:
                conn.execute(f"PRAGMA synchronous={before}")

    def _rollback(self) -> None:
        """Roll back if a transaction is open. A rollback can itself fail on a full disk;
        the next transaction() tries again, so the connection is never stuck."""
        if self.conn.in_transaction:
            try:
                self.conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass

    # -- schema -----------------------------------------------------------------------

    def schema_version(self, namespace: str = CORE_NAMESPACE) -> int:
        row = self.conn.execute(
            "SELECT value FROM state WHERE key = ?", (f"schema_version:{namespace}",)
        ).fetchone() if self.has_table("state") else None
        return int(json.loads(row[0])) if row else 0

    def has_table(self, name: str) -> bool:
        return (
            self.conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (name,)
            ).fetchone()
            is not None
        )

    def migrate(self, namespace: str | None = None) -> None:
        """Apply pending forward migrations (all namespaces, or one)."""
        for ns in [namespace] if namespace else registered_namespaces():
            migrations = _REGISTERED.get(ns, [])
            current = self.schema_version(ns)
            if current > len(migrations) and ns == CORE_NAMESPACE:
                raise StoreError(
                    f"database {self.path} has schema version {current}, newer than this "
                    f"FileGram ({len(migrations)}): upgrade FileGram"
                )
            for version in range(current + 1, len(migrations) + 1):
                step = migrations[version - 1]
                with self.transaction():
                    # read again under the write lock: another connection opening the same
                    # file (the daemon opens several) may have applied it meanwhile, and an
                    # ALTER TABLE run twice fails ("duplicate column name")
                    if self.schema_version(ns) >= version:
                        continue
                    if isinstance(step, str):
                        for statement in split_sql(step):
                            self.conn.execute(statement)
                    else:
                        step(self.conn)
                    self.write_state(f"schema_version:{ns}", version)

    def tables(self) -> dict[str, str]:
        """Every table of the file by kind: 'table', 'virtual' (e.g. FTS) or 'shadow' (the
        tables SQLite keeps for a virtual one); SQLite's own tables are left out."""
        try:
            rows = self.conn.execute("PRAGMA table_list").fetchall()
        except sqlite3.OperationalError:  # SQLite before 3.37: read the schema instead
            return self._tables_from_schema()
        return {
            name: kind
            for schema, name, kind, *_rest in rows
            if schema == "main" and kind in ("table", "virtual", "shadow") and not name.startswith("sqlite_")
        }

    def _tables_from_schema(self) -> dict[str, str]:
        rows = self.conn.execute("SELECT name, sql FROM sqlite_master WHERE type='table'").fetchall()
        virtual = {n for n, sql in rows if (sql or "").upper().startswith("CREATE VIRTUAL TABLE")}
        out: dict[str, str] = {}
        for name, _sql in rows:
            if name.startswith("sqlite_"):
                continue
            if name in virtual:
                out[name] = "virtual"
            elif any(name.startswith(v + "_") for v in virtual):
                out[name] = "shadow"
            else:
                out[name] = "table"
        return out

    def columns(self, table: str) -> list[str]:
        return [r[1] for r in self.conn.execute(f'PRAGMA table_info("{table}")')]

    # -- state (small settings and markers) ---------------------------------------------

    def write_state(self, key: str, value: Any) -> None:
        """Set a state value inside the caller's transaction."""
        self.conn.execute(
            "INSERT INTO state(key, value, updated_ms) VALUES (?, ?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value=excluded.value, updated_ms=excluded.updated_ms",
            (key, json.dumps(value, ensure_ascii=False), now_ms()),
        )

    _set_state_raw = write_state  # the old name, until every caller says write_state

    def set_state(self, key: str, value: Any) -> None:
        with self.transaction():
            self.write_state(key, value)

    def get_state(self, key: str, default: Any = None) -> Any:
        row = self.conn.execute("SELECT value FROM state WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else default

    def state_updated_ms(self, key: str) -> float | None:
        row = self.conn.execute("SELECT updated_ms FROM state WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    # -- rows in bulk ---------------------------------------------------------------------

    def delete_where_in(self, table: str, column: str, values: Sequence[Any]) -> int:
        """Delete rows whose column is one of values, in chunks SQLite accepts; one transaction."""
        with self.transaction() as conn:
            before = conn.total_changes
            for i in range(0, len(values), 500):
                chunk = list(values[i : i + 500])
                conn.execute(f'DELETE FROM "{table}" WHERE "{column}" IN ({",".join("?" * len(chunk))})', chunk)
            return conn.total_changes - before

    # -- health -----------------------------------------------------------------------

    def integrity_check(self) -> str:
        return self.conn.execute("PRAGMA integrity_check").fetchone()[0]

    def vacuum(self) -> None:
        """Rebuild the file from its live rows (no free pages, no deleted bytes left in
        them); forget runs it. Outside any transaction, with other writers held off."""
        with self._lock:
            self._rollback()
            self.conn.execute("VACUUM")

    def backup(self, dest: str | Path) -> Path:
        dest = Path(dest)
        dest.parent.mkdir(parents=True, exist_ok=True)
        target = sqlite3.connect(dest)
        try:
            with self._lock:
                self.conn.backup(target)
        finally:
            target.close()
        with contextlib.suppress(OSError):
            dest.chmod(0o600)
        return dest
