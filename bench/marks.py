"""`filegram mark SESSION --unusual`: the user's own record of sessions that were not like
them, kept in the bench's table of the store. `bench real` turns marks into Anomaly
Detection questions, and marks that say what changed (--dim C:L:R) into Shift Analysis."""

from __future__ import annotations

from typing import Any

from filegram.errors import FileGramError
from filegram.store import Store, now_ms, register_migrations

NAMESPACE = "bench"
register_migrations(NAMESPACE, [
    """
    CREATE TABLE IF NOT EXISTS bench_marks (
        session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
        unusual INTEGER NOT NULL DEFAULT 1,
        note TEXT NOT NULL DEFAULT '',
        dim TEXT,
        from_tier TEXT,
        to_tier TEXT,
        marked_ms REAL NOT NULL
    )
    """,
])


def _ready(store: Store) -> None:
    store.migrate(NAMESPACE)


def resolve_session(store: Store, ref: str) -> str:
    """A full session id, or a unique prefix of one, or a unique session label."""
    ref = ref.strip()
    if not ref:
        raise FileGramError("give a session id")
    if store.session(ref):
        return ref
    rows = store.conn.execute(
        "SELECT id FROM sessions WHERE id LIKE ? OR label = ? LIMIT 3", (ref.replace("%", "") + "%", ref)
    ).fetchall()
    if not rows:
        raise FileGramError(f"no session {ref!r} (see `filegram sessions`)")
    if len(rows) > 1:
        raise FileGramError(f"session {ref!r} is ambiguous: give more of the id")
    return rows[0][0]


def parse_change(change: str | None) -> tuple[str, str, str] | None:
    if not change:
        return None
    parts = [p.strip().upper() for p in change.replace("->", ":").split(":")]
    if len(parts) != 3 or parts[0] not in "ABCDEF" or len(parts[0]) != 1 or any(p not in ("L", "M", "R") for p in parts[1:]) or parts[1] == parts[2]:
        raise FileGramError(f"--dim must look like C:L:R (dimension A-F, usual tier, tier in that session), got {change!r}")
    return parts[0], parts[1], parts[2]


def set_mark(store: Store, ref: str, *, note: str = "", change: str | None = None) -> str:
    _ready(store)
    sid = resolve_session(store, ref)
    parsed = parse_change(change)
    with store.transaction():
        store.conn.execute(
            "INSERT INTO bench_marks(session_id, unusual, note, dim, from_tier, to_tier, marked_ms) "
            "VALUES (?, 1, ?, ?, ?, ?, ?) ON CONFLICT(session_id) DO UPDATE SET unusual=1, note=excluded.note, "
            "dim=excluded.dim, from_tier=excluded.from_tier, to_tier=excluded.to_tier, marked_ms=excluded.marked_ms",
            (sid, note, *(parsed or (None, None, None)), now_ms()),
        )
    return sid


def clear_mark(store: Store, ref: str) -> str:
    _ready(store)
    sid = resolve_session(store, ref)
    with store.transaction():
        store.conn.execute("DELETE FROM bench_marks WHERE session_id = ?", (sid,))
    return sid


def marks(store: Store) -> dict[str, dict[str, Any]]:
    """session id -> {note, dim, from, to, marked_ms}."""
    _ready(store)
    out = {}
    for sid, note, dim, a, b, ms in store.conn.execute(
        "SELECT session_id, note, dim, from_tier, to_tier, marked_ms FROM bench_marks WHERE unusual = 1"
    ):
        out[sid] = {"note": note, "dim": dim, "from": a, "to": b, "marked_ms": ms}
    return out


# -- the table registry (filegram.tables): a mark goes with its session --------------------

from filegram.tables import TableRule, register_table  # noqa: E402

register_table(TableRule(
    "bench_marks", NAMESPACE, "match", session_column="session_id",
    note="the user's marks of unusual sessions; removed with their session",
))
