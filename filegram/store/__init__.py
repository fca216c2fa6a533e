"""One SQLite file holds everything: sessions, actions, content blobs and memory state.

- `database`: the connection (WAL, synchronous=FULL, foreign keys; NORMAL for the
  `derived_writes` of rebuildable data), transactions,
  forward migrations per namespace (`register_migrations`), the key/value state,
  introspection (`tables()`) and health.
- `ingest`: the write path's single pass that checks events against the format and builds
  their rows.
- `queries`: the read path's SQL and rows back into FileGram dicts.
- `blobs`: content addresses, compression, which blobs actions still refer to.
- `store`: `Store`, the one object the rest of FileGram uses.

Index design (measured in `python -m filegram.bench.perf_store`): an event never changes, so
its (session, ts, event_id) is as unique as its event_id and, unlike a random uuid, arrives
in time order, so the one unique index is appended to rather than scattered; sessions are
referenced by a small integer (sessions.sn) to keep that index narrow. Paths are indexed
through the `paths` table of distinct paths (a new path costs one insert; a repeated read
costs a lookup), instead of a per-action path index whose random inserts tripled the cost
of every batch.
"""

from __future__ import annotations

from .blobs import content_hash, text_of
from .database import (
    CORE_MIGRATIONS,
    CORE_NAMESPACE,
    SQLITE_BUSY_TIMEOUT_MS,
    DamagedDatabase,
    Database,
    DiskFullError,
    Migration,
    StoreError,
    now_ms,
    register_migrations,
    registered_namespaces,
)
from .queries import time_range_clause
from .store import KNOWN_PATHS_MAX, Store

__all__ = [
    "CORE_MIGRATIONS",
    "CORE_NAMESPACE",
    "KNOWN_PATHS_MAX",
    "SQLITE_BUSY_TIMEOUT_MS",
    "Database",
    "DamagedDatabase",
    "DiskFullError",
    "Migration",
    "Store",
    "StoreError",
    "content_hash",
    "now_ms",
    "register_migrations",
    "registered_namespaces",
    "text_of",
    "time_range_clause",
]
