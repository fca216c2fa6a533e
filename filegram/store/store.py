"""The FileGram store: sessions, actions and blobs over the database (see __init__)."""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from . import blobs, queries
from .database import Database, StoreError, now_ms
from .ingest import action_rows, insert_rows

KNOWN_PATHS_MAX = 200_000


class Store(Database):
    """The FileGram database. Safe to share across threads (writes are serialised)."""

    def __init__(self, path: str | Path, *, readonly: bool = False, create: bool = True):
        self._sn_cache: dict[str, int] = {}
        self._known_paths: set[str] = set()  # paths certainly in the paths table
        super().__init__(path, readonly=readonly, create=create)
        self._session_select = (
            queries.SESSION_SELECT if "device" in self.columns("sessions") else queries.SESSION_SELECT_WITHOUT_DEVICE
        )

    def __enter__(self) -> Store:
        return self

    def clear_caches(self) -> None:
        self._known_paths.clear()
        self._sn_cache.clear()

    def forget_cached(self, *, session_id: str | None = None, path: str | None = None) -> None:
        """Drop what the write path cached about a deleted session or path."""
        if session_id is not None:
            self._sn_cache.pop(session_id, None)
        if path is not None:
            self._known_paths.discard(path)

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
        bad = set(fields) - queries.SESSION_FIELDS
        if bad:
            raise StoreError(f"unknown session field(s): {', '.join(sorted(bad))}")
        if "metadata" in fields:
            fields["metadata"] = json.dumps(fields["metadata"], ensure_ascii=False)
        if not fields:
            return
        sets = ", ".join(f"{k} = ?" for k in fields)
        with self.transaction():
            self.conn.execute(f"UPDATE sessions SET {sets} WHERE id = ?", (*fields.values(), session_id))

    def close_session(self, session_id: str, ended_ms: float | None = None, *, reason: str | None = None) -> None:
        """Mark a session finished: memory encodes closed sessions only. `reason` (e.g.
        "crash": cut by a crash and closed at the next start) goes to metadata.closed_reason."""
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
            if reason is not None:
                self.conn.execute(
                    "UPDATE sessions SET metadata = json_set(CASE WHEN json_valid(metadata) THEN metadata "
                    "ELSE '{}' END, '$.closed_reason', ?) WHERE id = ?", (reason, session_id)
                )

    def session(self, session_id: str) -> dict[str, Any] | None:
        row = self.conn.execute(self._session_select + " WHERE s.id = ?", (session_id,)).fetchone()
        return queries.session_from_row(row) if row else None

    def sessions(
        self, *, closed: bool | None = None, source: str | None = None, limit: int | None = None
    ) -> list[dict[str, Any]]:
        sql, args = queries.sessions_query(closed=closed, source=source, limit=limit, select=self._session_select)
        return [queries.session_from_row(r) for r in self.conn.execute(sql, args)]

    def delete_session(self, session_id: str) -> None:
        with self.transaction():
            self.conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,))
            self._sn_cache.pop(session_id, None)

    def _session_sn(self, session_id: str) -> int | None:
        sn = self._sn_cache.get(session_id)
        if sn is None:
            row = self.conn.execute("SELECT sn FROM sessions WHERE id = ?", (session_id,)).fetchone()
            if row is None:
                return None
            sn = self._sn_cache[session_id] = row[0]
        return sn

    # -- actions: the write path --------------------------------------------------------

    def add_actions(self, events: Iterable[dict[str, Any]], *, validate: bool = True) -> int:
        """Insert FileGram event dicts in one transaction; duplicates (by event_id) are
        ignored, so re-importing changes nothing. Sessions must exist. With validate, every
        event is checked against the format while its row is built (see ingest), and one
        bad event stores nothing of the batch. Returns rows added."""
        evs = events if isinstance(events, list | tuple) else list(events)
        if not evs:
            return 0
        with self.transaction() as conn:
            known = self._known_paths
            batch = action_rows(evs, self._session_sn, known, validate=validate)
            if batch.missing_sessions:
                sid = batch.missing_sessions[0]
                raise StoreError(f"cannot store actions: no session '{sid[:40]}' (open it first)")
            before = conn.total_changes
            try:
                insert_rows(conn, batch.rows)
            except sqlite3.IntegrityError as exc:  # a session deleted by another process
                self._sn_cache.clear()
                raise StoreError(f"cannot store actions: {exc}") from exc
            added = conn.total_changes - before
            if batch.new_paths:  # already in the cache: a rollback clears it (clear_caches)
                conn.executemany("INSERT OR IGNORE INTO paths(path, first_ms) VALUES (?, ?)", batch.new_paths.items())
                if len(known) > KNOWN_PATHS_MAX:
                    known.clear()
            return added

    def delete_actions(self, event_ids: Iterable[str]) -> int:
        return self.delete_where_in("actions", "event_id", list(event_ids))

    # -- actions: the read path ---------------------------------------------------------

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
        sn = None
        if session_id is not None:
            sn = self._session_sn(session_id)
            if sn is None:
                return
        sql, args = queries.actions_query(
            sn, types=types, since_ms=since_ms, until_ms=until_ms, limit=limit, newest_first=newest_first
        )
        rows = self.conn.execute(sql, args)
        event_from_row = queries.event_from_row
        if sn is not None:  # one session's rows carry no session id: it is session_id
            for event_id, etype, ts, data in rows:
                yield event_from_row(event_id, etype, ts, session_id, data)
        else:
            for event_id, etype, ts, sid, data in rows:
                yield event_from_row(event_id, etype, ts, sid, data)

    def actions_of_sessions(self, session_ids: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
        """Each session's actions as `actions(session_id)` yields them (time order, ties in
        insertion order), read with one query per 500 sessions: memory encodes a batch of
        small sessions, and a query per session cost more than its rows. Sessions the store
        does not have are left out."""
        out: dict[str, list[dict[str, Any]]] = {}
        by_sn: dict[int, list[dict[str, Any]]] = {}
        sid_of: dict[int, str] = {}
        for session_id in session_ids:
            sn = self._session_sn(session_id)
            if sn is not None and session_id not in out:
                out[session_id] = by_sn[sn] = []
                sid_of[sn] = session_id
        sns = list(by_sn)
        event_from_row = queries.event_from_row
        for i in range(0, len(sns), 500):  # within SQLite's limit on parameters
            part = sns[i : i + 500]
            for sn, event_id, etype, ts, data in self.conn.execute(queries.sessions_actions_query(len(part)), part):
                by_sn[sn].append(event_from_row(event_id, etype, ts, sid_of[sn], data))
        return out

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
        (One lookup at the end of the time index: no scan of the actions table.)"""
        return self.conn.execute("SELECT MAX(ts) FROM actions").fetchone()[0]

    def paths(self, glob: str | None = None) -> list[str]:
        """Distinct paths ever stored (optionally matching a GLOB), from the path index."""
        if glob is None:
            return [p for (p,) in self.conn.execute("SELECT path FROM paths ORDER BY path")]
        return [p for (p,) in self.conn.execute("SELECT path FROM paths WHERE path GLOB ? ORDER BY path", (glob,))]

    def last_insert_ms(self) -> float | None:
        return self.get_state("last_insert_ms")

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
        h = hash_ or blobs.content_hash(content)
        if original_path is not None:
            original_path = blobs.text_of(original_path)
        with self.transaction():
            self.conn.execute(
                "INSERT OR IGNORE INTO blobs(hash, kind, size, original_path, created_ms, content) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (h, kind, len(content), original_path, now_ms(), blobs.compress(content)),
            )
        return h

    def get_blob(self, h: str) -> bytes | None:
        row = self.conn.execute("SELECT content FROM blobs WHERE hash = ?", (h,)).fetchone()
        return blobs.decompress(row[0]) if row else None

    def get_blobs(self, hashes: Iterable[str]) -> dict[str, bytes]:
        """Several blobs by hash in one query per 500 (those not stored are left out), as
        `get_blob` reads them one by one."""
        want = list(dict.fromkeys(hashes))
        out: dict[str, bytes] = {}
        for i in range(0, len(want), 500):
            part = want[i : i + 500]
            for h, content in self.conn.execute(
                    f"SELECT hash, content FROM blobs WHERE hash IN ({','.join('?' * len(part))})", part):
                out[h] = blobs.decompress(content)
        return out

    def blob_info(self, h: str) -> dict[str, Any] | None:
        row = self.conn.execute(
            f"SELECT {', '.join(blobs.BLOB_INFO_COLUMNS)} FROM blobs WHERE hash = ?", (h,)
        ).fetchone()
        return dict(zip(blobs.BLOB_INFO_COLUMNS, row, strict=True)) if row else None

    def has_blob(self, h: str) -> bool:
        return self.conn.execute("SELECT 1 FROM blobs WHERE hash = ?", (h,)).fetchone() is not None

    def referenced_blob_hashes(self) -> set[str]:
        """Content addresses some stored action still refers to."""
        return blobs.referenced_hashes(self.conn)

    def delete_unreferenced_blobs(self) -> int:
        """Drop blobs no stored action refers to (after forgetting or retention)."""
        referenced = self.referenced_blob_hashes()
        doomed = [h for (h,) in self.conn.execute("SELECT hash FROM blobs") if h not in referenced]
        return self.delete_where_in("blobs", "hash", doomed)
