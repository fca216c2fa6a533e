"""The user's right to erase: remove actions, their snapshots and everything derived from them.

Deleting rows is not enough for a memory of everything a person does: freed pages keep old
bytes and the WAL keeps recent ones. So forgetting turns on secure_delete, truncates the WAL
afterwards, drops blobs nothing refers to any more, and rebuilds memory from what is left.
"""

from __future__ import annotations

import fnmatch
import json
import re
from datetime import datetime
from typing import Any

from .errors import FileGramError
from .schema import event_paths, media_hashes
from .store import Store, time_range_clause

# Tables of other packages that hold time-stamped, path-bearing or session-bound data, by
# namespace: (table, time column, session column, path-bearing text columns).
DERIVED_TABLES: tuple[tuple[str, str | None, str | None, tuple[str, ...]], ...] = (
    ("frames", "ts", "session_id", ("window_title", "ocr_text")),
)


class ForgetError(FileGramError):
    pass


def parse_time(text: str) -> float:
    """ISO date or date-time (local time), 'now', or epoch milliseconds -> epoch ms."""
    t = text.strip()
    if t == "now":
        return datetime.now().timestamp() * 1000
    if re.fullmatch(r"\d{11,}(\.\d+)?", t):
        return float(t)
    try:
        return datetime.fromisoformat(t).timestamp() * 1000
    except ValueError:
        raise ForgetError(f"cannot read time '{text}': use ISO like 2026-05-01 or 2026-05-01T14:30, 'now', or epoch ms") from None


def path_matches(path: str, glob: str) -> bool:
    """A glob matches a path itself or, naming a folder, everything under it."""
    g = glob.strip().lstrip("./") if glob.strip() not in (".", "./") else "."
    p = path.lstrip("./") if path not in (".",) else "."
    if fnmatch.fnmatchcase(p, g):
        return True
    folder = g.rstrip("/")
    return p.startswith(folder + "/") or fnmatch.fnmatchcase(p, folder + "/*")


def forget(
    store: Store,
    config: Any = None,
    *,
    path_glob: str | None = None,
    since_ms: float | None = None,
    until_ms: float | None = None,
    everything: bool = False,
    rebuild_memory: bool = True,
) -> dict[str, Any]:
    """Remove what matches and everything derived from it. Returns counts."""
    if not everything and path_glob is None and since_ms is None and until_ms is None:
        raise ForgetError("say what to forget: --path GLOB, --since/--until, or --all")
    if since_ms is not None and until_ms is not None and since_ms >= until_ms:
        raise ForgetError("--since must be before --until")
    conn = store.conn
    conn.execute("PRAGMA secure_delete=ON")
    result: dict[str, Any] = {"actions": 0, "sessions": 0, "blobs": 0, "paths": 0, "derived_rows": 0}
    with store.transaction():
        if everything:
            result["actions"] = conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
            result["sessions"] = conn.execute("SELECT COUNT(*) FROM sessions").fetchone()[0]
            result["blobs"] = conn.execute("SELECT COUNT(*) FROM blobs").fetchone()[0]
            result["paths"] = conn.execute("SELECT COUNT(*) FROM paths").fetchone()[0]
            conn.execute("DELETE FROM actions")
            conn.execute("DELETE FROM sessions")
            conn.execute("DELETE FROM blobs")
            conn.execute("DELETE FROM paths")
            result["derived_rows"] = _clear_derived(store, None, None, None)
            store._sn_cache.clear()
            store._known_paths.clear()
        else:
            doomed: list[int] = []
            doomed_hashes: set[str] = set()
            where, args = time_range_clause(since_ms, until_ms)
            sql = "SELECT a.seq, a.event_type, a.path, a.data FROM actions a"
            if where:
                sql += " WHERE " + " AND ".join(where)
            for seq, etype, path, data in conn.execute(sql, args).fetchall():
                ev = json.loads(data)
                ev["event_type"] = etype
                if path_glob is not None:
                    paths = event_paths(ev) or ([path] if path else [])
                    if not any(path_matches(p, path_glob) for p in paths):
                        continue
                doomed.append(seq)
                doomed_hashes.update(media_hashes(ev))
            result["actions"] = store.delete_where_in("actions", "seq", doomed)
            if path_glob is not None:
                gone = [p for (p,) in conn.execute("SELECT path FROM paths").fetchall() if path_matches(p, path_glob)]
                for p in gone:
                    conn.execute("DELETE FROM paths WHERE path = ?", (p,))
                    store._known_paths.discard(p)
                result["paths"] = len(gone)
                # blobs named after a forgotten path go even if some other action kept them
                for (h, original) in conn.execute("SELECT hash, original_path FROM blobs").fetchall():
                    if original and path_matches(original, path_glob):
                        doomed_hashes.add(h)
            if since_ms is not None or until_ms is not None:
                empty = conn.execute(
                    "SELECT s.id FROM sessions s WHERE NOT EXISTS (SELECT 1 FROM actions a WHERE a.session_sn = s.sn)"
                    " AND s.started_ms >= ? AND COALESCE(s.ended_ms, s.started_ms) < ?",
                    (since_ms if since_ms is not None else float("-inf"), until_ms if until_ms is not None else float("inf")),
                ).fetchall()
                for (sid,) in empty:
                    conn.execute("DELETE FROM sessions WHERE id = ?", (sid,))
                    store._sn_cache.pop(sid, None)
                result["sessions"] = len(empty)
            result["derived_rows"] = _clear_derived(store, path_glob, since_ms, until_ms)
            if doomed_hashes:
                still = store.referenced_blob_hashes()
                for h in doomed_hashes:
                    blob = conn.execute("SELECT original_path FROM blobs WHERE hash = ?", (h,)).fetchone()
                    named = blob and blob[0] and path_glob is not None and path_matches(blob[0], path_glob)
                    if h not in still or named:
                        result["blobs"] += conn.execute("DELETE FROM blobs WHERE hash = ?", (h,)).rowcount
    if rebuild_memory:
        result["memory"] = _rebuild_memory(store, config, everything)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return result


def _table_exists(store: Store, name: str) -> bool:
    return store.conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (name,)).fetchone() is not None


def _clear_derived(store: Store, path_glob: str | None, since_ms: float | None, until_ms: float | None) -> int:
    """Screen frames and similar rows of other packages within the forgotten range."""
    n = 0
    for table, ts_col, _sid_col, text_cols in DERIVED_TABLES:
        if not _table_exists(store, table):
            continue
        cols = {r[1] for r in store.conn.execute(f"PRAGMA table_info({table})")}
        if path_glob is None and since_ms is None and until_ms is None:
            n += store.conn.execute(f"DELETE FROM {table}").rowcount
            continue
        if path_glob is None and ts_col in cols:
            lo = since_ms if since_ms is not None else float("-inf")
            hi = until_ms if until_ms is not None else float("inf")
            n += store.conn.execute(f"DELETE FROM {table} WHERE {ts_col} >= ? AND {ts_col} < ?", (lo, hi)).rowcount
        elif path_glob is not None:
            name = path_glob.rstrip("/").rsplit("/", 1)[-1].replace("*", "")
            for col in (c for c in text_cols if c in cols):
                if name:
                    n += store.conn.execute(f"DELETE FROM {table} WHERE instr({col}, ?) > 0", (name,)).rowcount
    return n


def _rebuild_memory(store: Store, config: Any, everything: bool) -> str:
    try:
        from filegram.memory import Memory
    except ImportError:
        return "memory not installed"
    from .config import Config

    mem = Memory(store, config or Config())
    mem.rebuild()
    return "rebuilt"
