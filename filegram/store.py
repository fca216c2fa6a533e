"""One SQLite file holds everything: sessions, actions, content blobs and memory state.

Durability first (ActivityWatch users lost data to lazy commits): WAL with synchronous=FULL,
foreign keys on, every write batch in one transaction, so a crash loses nothing committed and
leaves no half batch. Schema changes are forward migrations recorded per namespace, so other
packages (memory, screen) add their own tables without touching this file.

Index design (measured in `python -m filegram.bench.perf_store`): an event never changes, so its
(session, ts, event_id) is as unique as its event_id and, unlike a random uuid, arrives
in time order, so the one unique index is appended to rather than scattered; sessions are
referenced by a small integer (sessions.sn) to keep that index narrow. Paths are
indexed through the `paths` table of distinct paths (a new path costs one insert; a repeated
read costs a lookup), instead of a per-action path index whose random inserts tripled the
cost of every batch.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
import threading
import time
import uuid
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import orjson
import sqlite_utils

from .errors import FileGramError
from .schema import ENVELOPE_NAMES, PRIMARY_PATH_ORDER, media_hashes, validate_event

Migration = str | Callable[[sqlite3.Connection], None]

CORE_NAMESPACE = "core"

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

SQLITE_BUSY_TIMEOUT_MS = 30_000
KNOWN_PATHS_MAX = 200_000


class StoreError(FileGramError, RuntimeError):
    """A store operation that cannot be done; the message is one line for the user."""


class DiskFullError(StoreError):
    """The disk holding the database is full: nothing was written, nothing is corrupted;
    writers should pause and retry when space returns."""


def _is_full(exc: BaseException) -> bool:
    return "full" in str(exc).lower() or getattr(exc, "sqlite_errorname", "") == "SQLITE_FULL"


def _store_error(exc: sqlite3.Error, path: Path) -> StoreError:
    if _is_full(exc):
        return DiskFullError(f"the disk holding {path} is full: writing paused, nothing stored was lost")
    return StoreError(f"cannot write to {path}: {exc}")


def content_hash(content: bytes) -> str:
    """FileGram's content address: the first 16 hex digits of SHA-256."""
    return hashlib.sha256(content).hexdigest()[:16]


def text_of(name: str) -> str:
    """A file name that is not valid UTF-8 (Linux allows any bytes) as storable text, with
    the odd bytes escaped (\\xff) rather than lost or fatal."""
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        import os

        return os.fsencode(name).decode("utf-8", "backslashreplace")


def now_ms() -> float:
    return time.time() * 1000.0


_REGISTERED: dict[str, list[Migration]] = {CORE_NAMESPACE: CORE_MIGRATIONS}


def register_migrations(namespace: str, migrations: Sequence[Migration]) -> None:
    """Let a package own tables in the store. Migrations only ever append; applied ones are
    recorded as `schema_version:<namespace>` and never run twice."""
    _REGISTERED[namespace] = list(migrations)


class Store:
    """The FileGram database. Safe to share across threads (writes are serialised)."""

    def __init__(self, path: str | Path, *, readonly: bool = False, create: bool = True):
        self.path = Path(path)
        if not readonly and create:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        elif not self.path.exists():
            raise StoreError(f"no database at {self.path}")
        existed = self.path.exists()
        uri = f"file:{self.path}?mode=ro" if readonly else f"file:{self.path}"
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
        self.db = sqlite_utils.Database(conn)
        self._lock = threading.RLock()
        self._tx_depth = 0
        self._sn_cache: dict[str, int] = {}
        self._known_paths: set[str] = set()  # paths certainly in the paths table
        conn.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA foreign_keys=ON")
        if not readonly:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            self.migrate()

    # -- lifecycle --------------------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

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
                    self._known_paths.clear()
                    self._sn_cache.clear()
                    if isinstance(exc, sqlite3.OperationalError) and _is_full(exc):
                        raise _store_error(exc, self.path) from exc
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
                        self._known_paths.clear()
                        self._sn_cache.clear()
                        raise _store_error(exc, self.path) from exc

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
        ).fetchone() if self._has_table("state") else None
        return int(json.loads(row[0])) if row else 0

    def _has_table(self, name: str) -> bool:
        return (
            self.conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (name,)
            ).fetchone()
            is not None
        )

    def migrate(self, namespace: str | None = None) -> None:
        """Apply pending forward migrations (all namespaces, or one)."""
        names = [namespace] if namespace else [CORE_NAMESPACE] + sorted(
            n for n in _REGISTERED if n != CORE_NAMESPACE
        )
        for ns in names:
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
                    if isinstance(step, str):
                        for statement in _split_sql(step):
                            self.conn.execute(statement)
                    else:
                        step(self.conn)
                    self._set_state_raw(f"schema_version:{ns}", version)

    # -- state (room for memory) --------------------------------------------------------

    def _set_state_raw(self, key: str, value: Any) -> None:
        self.conn.execute(
            "INSERT INTO state(key, value, updated_ms) VALUES (?, ?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value=excluded.value, updated_ms=excluded.updated_ms",
            (key, json.dumps(value, ensure_ascii=False), now_ms()),
        )

    def set_state(self, key: str, value: Any) -> None:
        with self.transaction():
            self._set_state_raw(key, value)

    def get_state(self, key: str, default: Any = None) -> Any:
        row = self.conn.execute("SELECT value FROM state WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else default

    def state_updated_ms(self, key: str) -> float | None:
        row = self.conn.execute("SELECT updated_ms FROM state WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    # -- sessions ---------------------------------------------------------------------

    def open_session(
        self,
        session_id: str | None = None,
        *,
        source: str = "recorder",
        started_ms: float | None = None,
        label: str | None = None,
        profile_id: str | None = None,
        task_id: str | None = None,
        root: str | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> str:
        """Create a session (or leave an existing one as it is) and return its id."""
        sid = session_id or str(uuid.uuid4())
        with self.transaction():
            self.conn.execute(
                "INSERT OR IGNORE INTO sessions(id, source, label, profile_id, task_id, root, "
                "started_ms, metadata) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    sid,
                    source,
                    label,
                    profile_id,
                    task_id,
                    root,
                    started_ms if started_ms is not None else now_ms(),
                    json.dumps(metadata or {}, ensure_ascii=False),
                ),
            )
        return sid

    def update_session(self, session_id: str, **fields: Any) -> None:
        allowed = {"source", "label", "profile_id", "task_id", "root", "started_ms", "ended_ms", "closed", "metadata"}
        bad = set(fields) - allowed
        if bad:
            raise StoreError(f"unknown session field(s): {', '.join(sorted(bad))}")
        if "metadata" in fields:
            fields["metadata"] = json.dumps(fields["metadata"], ensure_ascii=False)
        if not fields:
            return
        sets = ", ".join(f"{k} = ?" for k in fields)
        with self.transaction():
            self.conn.execute(f"UPDATE sessions SET {sets} WHERE id = ?", (*fields.values(), session_id))

    def close_session(self, session_id: str, ended_ms: float | None = None) -> None:
        """Mark a session finished: memory encodes closed sessions only."""
        if ended_ms is None:
            row = self.conn.execute(
                "SELECT MAX(a.ts) FROM actions a JOIN sessions s ON s.sn = a.session_sn WHERE s.id = ?",
                (session_id,),
            ).fetchone()
            ended_ms = row[0] if row and row[0] is not None else now_ms()
        with self.transaction():
            self.conn.execute(
                "UPDATE sessions SET closed = 1, ended_ms = ? WHERE id = ?", (ended_ms, session_id)
            )

    def session(self, session_id: str) -> dict[str, Any] | None:
        row = self.conn.execute(_SESSION_SELECT + " WHERE s.id = ?", (session_id,)).fetchone()
        return _session_row(row) if row else None

    def sessions(
        self, *, closed: bool | None = None, source: str | None = None, limit: int | None = None
    ) -> list[dict[str, Any]]:
        where, args = [], []
        if closed is not None:
            where.append("s.closed = ?")
            args.append(1 if closed else 0)
        if source is not None:
            where.append("s.source = ?")
            args.append(source)
        sql = _SESSION_SELECT + (" WHERE " + " AND ".join(where) if where else "")
        sql += " ORDER BY s.started_ms, s.id"
        if limit:
            sql += f" LIMIT {int(limit)}"
        return [_session_row(r) for r in self.conn.execute(sql, args)]

    def delete_session(self, session_id: str) -> None:
        with self.transaction():
            self.conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,))
            self._sn_cache.pop(session_id, None)

    # -- actions ----------------------------------------------------------------------

    def add_actions(self, events: Iterable[dict[str, Any]], *, validate: bool = True) -> int:
        """Insert FileGram event dicts in one transaction; duplicates (by event_id) are
        ignored, so re-importing changes nothing. Sessions must exist. Returns rows added."""
        evs = [validate_event(ev, index=i) for i, ev in enumerate(events)] if validate else list(events)
        if not evs:
            return 0
        with self.transaction() as conn:
            sns: dict[str, int] = {}
            for sid in {ev["session_id"] for ev in evs}:
                sn = self._session_sn(sid)
                if sn is None:
                    raise StoreError(f"cannot store actions: no session '{sid[:40]}' (open it first)")
                sns[sid] = sn
            rows = _action_rows(evs, sns)
            before = conn.total_changes
            try:
                conn.executemany(
                    "INSERT OR IGNORE INTO actions(event_id, session_sn, event_type, ts, path, data) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    rows,
                )
            except sqlite3.IntegrityError as exc:  # a session deleted by another process
                self._sn_cache.clear()
                raise StoreError(f"cannot store actions: {exc}") from exc
            added = conn.total_changes - before
            known = self._known_paths
            new_paths = {r[4]: r[3] for r in reversed(rows) if r[4] is not None and r[4] not in known}
            if new_paths:
                conn.executemany("INSERT OR IGNORE INTO paths(path, first_ms) VALUES (?, ?)", new_paths.items())
                if len(known) > KNOWN_PATHS_MAX:
                    known.clear()
                known.update(new_paths)
            return added

    def _session_sn(self, session_id: str) -> int | None:
        sn = self._sn_cache.get(session_id)
        if sn is None:
            row = self.conn.execute("SELECT sn FROM sessions WHERE id = ?", (session_id,)).fetchone()
            if row is None:
                return None
            sn = self._sn_cache[session_id] = row[0]
        return sn

    def actions(
        self,
        session_id: str | None = None,
        *,
        types: Sequence[str] | None = None,
        since_ms: float | None = None,
        until_ms: float | None = None,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> Iterator[dict[str, Any]]:
        """FileGram event dicts in time order (ties in insertion order)."""
        where, args = [], []
        if session_id is not None:
            sn = self._session_sn(session_id)
            if sn is None:
                return
            where.append("a.session_sn = ?")
            args.append(sn)
        if types:
            where.append(f"a.event_type IN ({','.join('?' * len(types))})")
            args.extend(types)
        range_where, range_args = time_range_clause(since_ms, until_ms)
        where += range_where
        args += range_args
        sql = "SELECT a.event_id, a.event_type, a.ts, s.id, a.data FROM actions a JOIN sessions s ON s.sn = a.session_sn"
        if where:
            sql += " WHERE " + " AND ".join(where)
        order = "DESC" if newest_first else "ASC"
        sql += f" ORDER BY a.ts {order}, a.seq {order}"
        if limit:
            sql += f" LIMIT {int(limit)}"
        for event_id, etype, ts, sid, data in self.conn.execute(sql, args):
            yield _event_from_row(event_id, etype, ts, sid, data)

    def action_count(self, session_id: str | None = None) -> int:
        if session_id is None:
            return self.conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
        sn = self._session_sn(session_id)
        if sn is None:
            return 0
        return self.conn.execute("SELECT COUNT(*) FROM actions WHERE session_sn = ?", (sn,)).fetchone()[0]

    def count_by_type(self) -> dict[str, int]:
        return dict(
            self.conn.execute(
                "SELECT event_type, COUNT(*) FROM actions GROUP BY event_type ORDER BY event_type"
            ).fetchall()
        )

    def last_action_ms(self) -> float | None:
        """Time of the newest stored action: health means data, not a live process.
        (One indexed MAX per action type: no scan of the actions table.)"""
        from .schema import ACTION_TYPES

        best = None
        for etype in ACTION_TYPES:
            (m,) = self.conn.execute("SELECT MAX(ts) FROM actions WHERE event_type = ?", (etype,)).fetchone()
            if m is not None and (best is None or m > best):
                best = m
        return best

    def paths(self, glob: str | None = None) -> list[str]:
        """Distinct paths ever stored (optionally matching a GLOB), from the path index."""
        if glob is None:
            return [p for (p,) in self.conn.execute("SELECT path FROM paths ORDER BY path")]
        return [p for (p,) in self.conn.execute("SELECT path FROM paths WHERE path GLOB ? ORDER BY path", (glob,))]

    def last_insert_ms(self) -> float | None:
        return self.get_state("last_insert_ms")

    def delete_actions(self, event_ids: Iterable[str]) -> int:
        return self.delete_where_in("actions", "event_id", list(event_ids))

    # -- blobs ------------------------------------------------------------------------

    def put_blob(
        self,
        content: bytes,
        *,
        kind: str = "blob",
        original_path: str | None = None,
        hash_: str | None = None,
    ) -> str:
        """Store content once under its content address and return the address."""
        h = hash_ or content_hash(content)
        if original_path is not None:
            original_path = text_of(original_path)
        with self.transaction():
            self.conn.execute(
                "INSERT OR IGNORE INTO blobs(hash, kind, size, original_path, created_ms, content) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (h, kind, len(content), original_path, now_ms(), zlib.compress(content, 6)),
            )
        return h

    def get_blob(self, h: str) -> bytes | None:
        row = self.conn.execute("SELECT content FROM blobs WHERE hash = ?", (h,)).fetchone()
        return zlib.decompress(row[0]) if row else None

    def blob_info(self, h: str) -> dict[str, Any] | None:
        row = self.conn.execute(
            "SELECT hash, kind, size, original_path, created_ms FROM blobs WHERE hash = ?", (h,)
        ).fetchone()
        if not row:
            return None
        return dict(zip(("hash", "kind", "size", "original_path", "created_ms"), row, strict=True))

    def has_blob(self, h: str) -> bool:
        return self.conn.execute("SELECT 1 FROM blobs WHERE hash = ?", (h,)).fetchone() is not None

    def referenced_blob_hashes(self) -> set[str]:
        """Content addresses some stored action still refers to."""
        referenced: set[str] = set()
        for etype, data in self.conn.execute(
            "SELECT event_type, data FROM actions WHERE event_type IN ('file_write', 'file_edit')"
        ):
            ev = json.loads(data)
            ev["event_type"] = etype
            referenced.update(media_hashes(ev))
            for key in ("before_hash", "after_hash"):
                if isinstance(ev.get(key), str):
                    referenced.add(ev[key])
        return referenced

    def delete_unreferenced_blobs(self) -> int:
        """Drop blobs no stored action refers to (after forgetting or retention)."""
        referenced = self.referenced_blob_hashes()
        doomed = [h for (h,) in self.conn.execute("SELECT hash FROM blobs") if h not in referenced]
        return self.delete_where_in("blobs", "hash", doomed)

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


def time_range_clause(since_ms: float | None, until_ms: float | None, column: str = "a.ts") -> tuple[list[str], list[float]]:
    """WHERE terms for [since, until) on an actions alias."""
    where, args = [], []
    if since_ms is not None:
        where.append(f"{column} >= ?")
        args.append(since_ms)
    if until_ms is not None:
        where.append(f"{column} < ?")
        args.append(until_ms)
    return where, args


def _split_sql(script: str) -> list[str]:
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


_SESSION_SELECT = (
    "SELECT s.id, s.source, s.label, s.profile_id, s.task_id, s.root, s.started_ms, s.ended_ms, "
    "s.closed, s.metadata, (SELECT COUNT(*) FROM actions a WHERE a.session_sn = s.sn) FROM sessions s"
)


def _session_row(row: Sequence[Any]) -> dict[str, Any]:
    keys = ("id", "source", "label", "profile_id", "task_id", "root", "started_ms", "ended_ms", "closed", "metadata", "action_count")
    d = dict(zip(keys, row, strict=True))
    d["closed"] = bool(d["closed"])
    d["metadata"] = json.loads(d["metadata"] or "{}")
    return d


_INDEXED = ("event_id", "event_type", "timestamp", "session_id")
_OPTIONAL_ENVELOPE = ENVELOPE_NAMES[4:]
# The first field of primary_path's order is always a required field: one lookup suffices.
_PRIMARY_FIELD = {etype: names[0] for etype, names in PRIMARY_PATH_ORDER.items() if names}


def _action_rows(evs: list[dict[str, Any]], sns: dict[str, int]) -> list[tuple[Any, ...]]:
    """Rows for the actions table. The hot path of every write: one loop, no calls per row
    beyond the JSON encoder (measured in `python -m filegram.bench.perf_store`)."""
    dumps = orjson.dumps
    primary = _PRIMARY_FIELD
    optional = _OPTIONAL_ENVELOPE
    rows = []
    append = rows.append
    for ev in evs:
        rest = ev.copy()  # copying and deleting keys is several times faster than filtering
        del rest["event_id"], rest["event_type"], rest["timestamp"], rest["session_id"]
        for key in optional:  # null engine fields are implied on read
            if rest.get(key, 0) is None:
                del rest[key]
        etype = ev["event_type"]
        append((ev["event_id"], sns[ev["session_id"]], etype, float(ev["timestamp"]), ev.get(primary.get(etype, "")), dumps(rest).decode()))
    return rows


def _event_from_row(event_id: str, etype: str, ts: float, sid: str, data: str) -> dict[str, Any]:
    rest = json.loads(data)
    ev: dict[str, Any] = {"event_id": event_id, "event_type": etype, "timestamp": ts, "session_id": sid}
    for name in ENVELOPE_NAMES[4:]:
        ev[name] = rest.pop(name, None)
    ev.update(rest)
    return ev
