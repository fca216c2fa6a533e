"""Screen frames in the FileGram store: their own tables, a full-text index, a disk budget.

Frames live in the same SQLite file as the trace (one backup, one integrity check, one
place to forget), in tables this module owns through `register_migrations("screen", ...)`:
`frames` (the name `filegram forget` and `export --all` know), `screen_fts`, `screen_days`.
A delete trigger keeps the text index and the day counters right whoever deletes a frame.
The budget is counted per local day in a small counter table, so deciding whether to prune
costs one indexed read, not a scan of image sizes. The text index uses FTS5's trigram
tokenizer where SQLite has it (3.34+): it finds substrings in any script, which matters
because the simulated and real users write Chinese as well as English.
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Sequence
from typing import Any

from filegram.store import Store, register_migrations

NAMESPACE = "screen"


def _create_fts(conn: sqlite3.Connection) -> None:
    trigram = sqlite3.sqlite_version_info >= (3, 34, 0)
    tok = "trigram" if trigram else "unicode61"
    conn.execute(
        "CREATE VIRTUAL TABLE IF NOT EXISTS screen_fts USING fts5("
        f"ocr_text, window_title, app, tokenize='{tok}')"
    )


def _create_delete_trigger(conn: sqlite3.Connection) -> None:
    """Whoever deletes a frame (prune, `filegram forget`), its text and bytes go with it.
    (A callable: the store splits SQL scripts at semicolons, which a trigger body has.)"""
    conn.execute(
        "CREATE TRIGGER IF NOT EXISTS frames_after_delete AFTER DELETE ON frames BEGIN "
        "DELETE FROM screen_fts WHERE rowid = old.id; "
        "UPDATE screen_days SET bytes = MAX(bytes - old.bytes, 0), frames = MAX(frames - 1, 0) "
        "WHERE day = old.day; "
        "END"
    )


MIGRATIONS: list[Any] = [
    """
    CREATE TABLE IF NOT EXISTS screen_frames (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        ts REAL NOT NULL,
        day TEXT NOT NULL,
        session_id TEXT,
        monitor INTEGER NOT NULL,
        window_title TEXT,
        app TEXT,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        bytes INTEGER NOT NULL,
        format TEXT NOT NULL,
        forced INTEGER NOT NULL DEFAULT 0,
        image BLOB NOT NULL,
        ocr_text TEXT
    );
    CREATE INDEX IF NOT EXISTS idx_screen_frames_ts ON screen_frames(ts);
    CREATE INDEX IF NOT EXISTS idx_screen_frames_session ON screen_frames(session_id, ts);
    CREATE INDEX IF NOT EXISTS idx_screen_frames_day ON screen_frames(day, ts);
    CREATE TABLE IF NOT EXISTS screen_days (
        day TEXT PRIMARY KEY,
        bytes INTEGER NOT NULL DEFAULT 0,
        frames INTEGER NOT NULL DEFAULT 0,
        pruned INTEGER NOT NULL DEFAULT 0
    ) WITHOUT ROWID
    """,
    _create_fts,
    # active time per day: the budget is paced over the hours the user is actually there
    "ALTER TABLE screen_days ADD COLUMN active_ms REAL NOT NULL DEFAULT 0",
    # the name other packages code against (forget, export)
    "ALTER TABLE screen_frames RENAME TO frames",
    _create_delete_trigger,
]

register_migrations(NAMESPACE, MIGRATIONS)

FRAME_COLUMNS = (
    "id", "ts", "session_id", "monitor", "window_title", "app", "width", "height",
    "bytes", "format", "forced", "ocr_text",
)


def ensure_tables(store: Store) -> None:
    if not store.readonly:
        store.migrate(NAMESPACE)


def has_tables(store: Store) -> bool:
    row = store.conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type='table' AND name='frames'"
    ).fetchone()
    return row is not None


def day_of(ts_ms: float) -> str:
    """The user's local calendar day: the budget is what one working day may take."""
    return time.strftime("%Y-%m-%d", time.localtime(ts_ms / 1000.0))


def frame_cost(image: bytes, ocr_text: str | None, title: str | None) -> int:
    return len(image) + len((ocr_text or "").encode()) + len((title or "").encode())


def add_frame(
    store: Store,
    *,
    ts: float,
    session_id: str | None,
    monitor: int,
    window_title: str | None,
    app: str | None,
    width: int,
    height: int,
    image: bytes,
    fmt: str,
    ocr_text: str | None,
    forced: bool = False,
    active_ms: float | None = None,
) -> int:
    """Store one frame and its index row in one transaction; returns the frame id."""
    day = day_of(ts)
    cost = frame_cost(image, ocr_text, window_title)
    with store.transaction() as conn:
        cur = conn.execute(
            "INSERT INTO frames(ts, day, session_id, monitor, window_title, app, width, "
            "height, bytes, format, forced, image, ocr_text) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (ts, day, session_id, monitor, window_title, app, width, height, cost, fmt,
             int(forced), image, ocr_text),
        )
        fid = int(cur.lastrowid)
        conn.execute(
            "INSERT INTO screen_fts(rowid, ocr_text, window_title, app) VALUES (?, ?, ?, ?)",
            (fid, ocr_text or "", window_title or "", app or ""),
        )
        conn.execute(
            "INSERT INTO screen_days(day, bytes, frames) VALUES (?, ?, 1) "
            "ON CONFLICT(day) DO UPDATE SET bytes = bytes + excluded.bytes, frames = frames + 1",
            (day, cost),
        )
        if active_ms is not None:
            conn.execute("UPDATE screen_days SET active_ms = MAX(active_ms, ?) WHERE day = ?", (active_ms, day))
    return fid


def set_ocr_text(store: Store, frame_id: int, text: str) -> bool:
    """Attach (already redacted) OCR text to a stored frame and index it; False if the
    frame was pruned meanwhile."""
    with store.transaction() as conn:
        row = conn.execute(
            "SELECT day, window_title, app, COALESCE(ocr_text, '') FROM frames WHERE id = ?",
            (int(frame_id),),
        ).fetchone()
        if row is None:
            return False
        day, title, app, old = row
        delta = len(text.encode()) - len(old.encode())
        conn.execute(
            "UPDATE frames SET ocr_text = ?, bytes = bytes + ? WHERE id = ?", (text, delta, int(frame_id))
        )
        conn.execute("DELETE FROM screen_fts WHERE rowid = ?", (int(frame_id),))
        conn.execute(
            "INSERT INTO screen_fts(rowid, ocr_text, window_title, app) VALUES (?, ?, ?, ?)",
            (int(frame_id), text, title or "", app or ""),
        )
        conn.execute("UPDATE screen_days SET bytes = MAX(bytes + ?, 0) WHERE day = ?", (delta, day))
    return True


def _delete(conn: sqlite3.Connection, rows: Sequence[tuple[int, str, int]]) -> None:
    """Prune frames (the delete trigger drops their index rows and bytes)."""
    for fid, day, _cost in rows:
        conn.execute("DELETE FROM frames WHERE id = ?", (fid,))
        conn.execute("UPDATE screen_days SET pruned = pruned + 1 WHERE day = ?", (day,))


def prune(
    store: Store,
    *,
    daily_budget_bytes: int,
    retention_days: float = 0,
    now_ms: float | None = None,
    days: Sequence[str] | None = None,
) -> int:
    """Delete frames past retention, then the oldest frames of any day over its budget.
    Returns the number of frames deleted."""
    if not has_tables(store):
        return 0
    now = now_ms if now_ms is not None else time.time() * 1000.0
    deleted = 0
    with store.transaction() as conn:
        if retention_days > 0:
            cutoff = now - retention_days * 86_400_000.0
            old = conn.execute(
                "SELECT id, day, bytes FROM frames WHERE ts < ? ORDER BY ts", (cutoff,)
            ).fetchall()
            _delete(conn, old)
            deleted += len(old)
        if daily_budget_bytes > 0:
            if days is None:
                over = conn.execute(
                    "SELECT day, bytes FROM screen_days WHERE bytes > ?", (daily_budget_bytes,)
                ).fetchall()
            else:
                over = [
                    r for d in days
                    for r in conn.execute(
                        "SELECT day, bytes FROM screen_days WHERE day = ? AND bytes > ?",
                        (d, daily_budget_bytes),
                    )
                ]
            for day, total in over:
                doomed = []
                rows = conn.execute(
                    "SELECT id, bytes FROM frames WHERE day = ? ORDER BY ts, id", (day,)
                ).fetchall()
                for fid, cost in rows[:-1]:  # a day keeps at least its newest frame
                    if total <= daily_budget_bytes:
                        break
                    doomed.append((fid, day, cost))
                    total -= cost
                _delete(conn, doomed)
                deleted += len(doomed)
    return deleted


def day_usage(store: Store, day: str | None = None) -> dict[str, Any]:
    if not has_tables(store):
        return {"bytes": 0, "frames": 0, "pruned": 0, "active_ms": 0.0}
    row = store.conn.execute(
        "SELECT bytes, frames, pruned, active_ms FROM screen_days WHERE day = ?", (day or day_of(time.time() * 1000),)
    ).fetchone()
    return dict(zip(("bytes", "frames", "pruned", "active_ms"), row or (0, 0, 0, 0.0), strict=True))


def totals(store: Store) -> dict[str, Any]:
    if not has_tables(store):
        return {"frames": 0, "bytes": 0, "first_ms": None, "last_ms": None}
    n, size, first, last = store.conn.execute(
        "SELECT COUNT(*), COALESCE(SUM(bytes), 0), MIN(ts), MAX(ts) FROM frames"
    ).fetchone()
    return {"frames": n, "bytes": size, "first_ms": first, "last_ms": last}


def _frame_dict(row: Sequence[Any], image: bytes | None = None) -> dict[str, Any]:
    d = dict(zip(FRAME_COLUMNS, row, strict=True))
    d["forced"] = bool(d["forced"])
    if image is not None:
        d["image"] = image
    return d


def frames_for_session(store: Store, session_id: str, *, with_image: bool = False) -> list[dict[str, Any]]:
    """Frames linked to a session in time order: what Visual Grounding questions are
    asked about. Each dict has id, ts, session_id, monitor, window_title, app, width,
    height, bytes, format ("webp"/"jpeg"), forced, ocr_text (and image bytes if asked)."""
    if not has_tables(store):
        return []
    cols = ", ".join(FRAME_COLUMNS) + (", image" if with_image else "")
    rows = store.conn.execute(
        f"SELECT {cols} FROM frames WHERE session_id = ? ORDER BY ts, id", (session_id,)
    ).fetchall()
    if with_image:
        return [_frame_dict(r[:-1], bytes(r[-1])) for r in rows]
    return [_frame_dict(r) for r in rows]


def screen_text_for_session(store: Store, session_id: str, max_chars: int = 20_000) -> str:
    """The distinct (redacted) screen text and window titles of a session, oldest first:
    what memory's semantic channel can index next to file contents."""
    if not has_tables(store):
        return ""
    seen: set[str] = set()
    parts: list[str] = []
    total = 0
    for title, text in store.conn.execute(
        "SELECT window_title, ocr_text FROM frames WHERE session_id = ? ORDER BY ts, id", (session_id,)
    ):
        for piece in (title, text):
            piece = (piece or "").strip()
            if not piece or piece in seen:
                continue
            seen.add(piece)
            parts.append(piece)
            total += len(piece)
            if total >= max_chars:
                return "\n".join(parts)[:max_chars]
    return "\n".join(parts)


def get_frame(store: Store, frame_id: int, *, with_image: bool = True) -> dict[str, Any] | None:
    if not has_tables(store):
        return None
    cols = ", ".join(FRAME_COLUMNS) + (", image" if with_image else "")
    r = store.conn.execute(f"SELECT {cols} FROM frames WHERE id = ?", (int(frame_id),)).fetchone()
    if r is None:
        return None
    return _frame_dict(r[:-1], bytes(r[-1])) if with_image else _frame_dict(r)


def recent_frames(store: Store, limit: int = 20) -> list[dict[str, Any]]:
    if not has_tables(store):
        return []
    rows = store.conn.execute(
        f"SELECT {', '.join(FRAME_COLUMNS)} FROM frames ORDER BY ts DESC, id DESC LIMIT ?",
        (int(limit),),
    ).fetchall()
    return [_frame_dict(r) for r in rows]


_TERM_RE = re.compile(r"\w[\w.\-]*", re.UNICODE)


def _terms(query: str) -> list[str]:
    return [t for t in _TERM_RE.findall(query) if t][:16]


def _snippet(text: str, terms: Sequence[str], width: int = 80) -> str:
    low = text.lower()
    pos = min((i for i in (low.find(t.lower()) for t in terms) if i >= 0), default=0)
    start = max(pos - width // 3, 0)
    s = " ".join(text[start : start + width].split())
    return ("…" if start else "") + s + ("…" if start + width < len(text) else "")


def search_frames(store: Store, query: str, limit: int = 10) -> list[dict[str, Any]]:
    """Frames whose OCR text or window title holds every word of the query, best first."""
    if not has_tables(store):
        return []
    terms = _terms(query)
    if not terms:
        return []
    cols = ", ".join(f"f.{c}" for c in FRAME_COLUMNS)
    rows: list[Any] = []
    if all(len(t) >= 3 for t in terms):
        match = " AND ".join('"' + t.replace('"', '""') + '"' for t in terms)
        try:
            rows = store.conn.execute(
                f"SELECT {cols}, bm25(screen_fts) FROM screen_fts JOIN frames f "
                "ON f.id = screen_fts.rowid WHERE screen_fts MATCH ? "
                "ORDER BY bm25(screen_fts), f.ts DESC LIMIT ?",
                (match, int(limit)),
            ).fetchall()
        except sqlite3.OperationalError:
            rows = []
    else:  # words shorter than a trigram: a plain scan (fine for a personal archive)
        where = " AND ".join(
            "(LOWER(COALESCE(f.ocr_text,'')) LIKE ? OR LOWER(COALESCE(f.window_title,'')) LIKE ?)"
            for _ in terms
        )
        args: list[Any] = []
        for t in terms:
            like = f"%{t.lower()}%"
            args += [like, like]
        rows = [
            (*r, 0.0)
            for r in store.conn.execute(
                f"SELECT {cols} FROM frames f WHERE {where} ORDER BY f.ts DESC LIMIT ?",
                (*args, int(limit)),
            )
        ]
    out = []
    for r in rows:
        d = _frame_dict(r[:-1])
        d["score"] = round(-float(r[-1]), 6)
        text = d.get("ocr_text") or ""
        hay = text if any(t.lower() in text.lower() for t in terms) else (d.get("window_title") or "")
        d["snippet"] = _snippet(hay, terms)
        out.append(d)
    return out
