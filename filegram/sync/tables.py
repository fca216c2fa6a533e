"""Sync's own tables, with their rules in the core's table registry (filegram/tables.py).

- sync_sent_sessions: what of each local session this device's log already holds.
- sync_sent_blobs: content hashes already in the log (a blob is sent once).
- sync_tombstones: forgets to send and forgets received, their scopes sealed (tombstones.py).

None of them holds a path or content in the clear; none is exported by `export --all` (they
are bookkeeping, rebuilt by sending again).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..store import register_migrations
from ..tables import ForgetScope, TableRule, register_table
from .tombstones import record_local_forget

if TYPE_CHECKING:
    from ..store import Store

NAMESPACE = "sync"

MIGRATIONS = [
    """
    CREATE TABLE IF NOT EXISTS sync_sent_sessions (
        session_id TEXT PRIMARY KEY,
        fields_hash TEXT NOT NULL,
        max_seq INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS sync_sent_blobs (
        hash TEXT PRIMARY KEY
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS sync_tombstones (
        id TEXT PRIMARY KEY,
        origin TEXT NOT NULL,
        at_ms REAL NOT NULL,
        scope BLOB NOT NULL,
        sent INTEGER NOT NULL DEFAULT 0,
        applied INTEGER NOT NULL DEFAULT 0
    ) WITHOUT ROWID;
    """,
]

register_migrations(NAMESPACE, MIGRATIONS)


def forget_sent_blobs(store: Store, scope: ForgetScope) -> int:
    """A forgotten blob is no longer "sent": if the same content comes back, it goes again."""
    return store.conn.execute("DELETE FROM sync_sent_blobs WHERE hash NOT IN (SELECT hash FROM blobs)").rowcount


register_table(TableRule(
    "sync_sent_sessions", NAMESPACE, "match", session_column="session_id", exported=False,
    note="which local sessions (and up to which action) this device's sync log holds",
))
register_table(TableRule(
    "sync_sent_blobs", NAMESPACE, "custom", forget_rows=forget_sent_blobs, exported=False,
    note="content hashes already in this device's sync log; rows of forgotten blobs go",
))
register_table(TableRule(
    "sync_tombstones", NAMESPACE, "custom", time_column="at_ms", content_columns=("scope",),
    forget_rows=record_local_forget, exported=False,
    note="forgets to send to and received from other devices; the scope is sealed with the sync key",
))
