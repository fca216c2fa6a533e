"""A damaged database: how to tell, and `filegram doctor --repair`.

Repair never deletes: the damaged file (with its WAL) is moved aside as
`filegram.db.damaged-<time>`, the newest backup that passes SQLite's integrity check is
restored in its place (or a new, empty database is made when there is none), and then every
row that can still be read from the damaged file is copied in, table by table, the way
sqlite3's `.recover` salvages a file: a rowid table is scanned forward; where a damaged page
stops the scan, the next readable row is found by probing ever further ahead and the gap is
read back down from it, so only the rows on damaged pages are lost. A table without rowid
is scanned forward from its first key and backward from its last. A row the backup has too is updated to the damaged file's
version (it is the newer one); an action whose session row was on a damaged page keeps a
placeholder session (source "recovered") instead of being dropped.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .database import StoreError, damaged_message, is_damaged

BATCH = 500


def check(path: Path) -> str:
    """SQLite's integrity check of a database file, read-only: "ok" or the first problem."""
    if not path.exists():
        return "missing"
    try:
        con = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True, timeout=30)
    except sqlite3.Error as exc:
        return str(exc)
    try:
        rows = con.execute("PRAGMA integrity_check").fetchall()
        return "ok" if rows == [("ok",)] else "; ".join(str(r[0]) for r in rows[:3])
    except sqlite3.DatabaseError as exc:
        return str(exc)
    finally:
        con.close()


def newest_good_backup(backup_dir: Path) -> Path | None:
    if not backup_dir.is_dir():
        return None
    for b in sorted(backup_dir.glob("filegram-*.db"), key=lambda p: p.stat().st_mtime, reverse=True):
        if check(b) == "ok":
            return b
    return None


def repair(db_path: Path, backup_dir: Path) -> dict[str, Any]:
    """Move the damaged file aside, restore the newest good backup, copy in every readable
    row. Returns what was done (paths, per table: rows read, added, updated, unreadable).
    The caller registers every package's tables first (filegram.tables.load_plugins), so
    the new file has a table for each of their rows."""
    from .store import Store

    stamp = time.strftime("%Y%m%d-%H%M%S")
    damaged = db_path.with_name(f"{db_path.name}.damaged-{stamp}")
    n = 1
    while damaged.exists():
        n += 1
        damaged = db_path.with_name(f"{db_path.name}.damaged-{stamp}-{n}")
    if db_path.exists():
        os.replace(db_path, damaged)
        for suffix in ("-wal", "-shm"):  # the WAL holds committed rows: keep it with its file
            side = Path(str(db_path) + suffix)
            if side.exists():
                os.replace(side, Path(str(damaged) + suffix))
    backup = newest_good_backup(backup_dir)
    if backup is not None:
        shutil.copyfile(backup, db_path)
        with contextlib.suppress(OSError):
            db_path.chmod(0o600)
    store = Store(db_path)
    try:
        tables = copy_readable(damaged, store) if damaged.exists() else {}
        result = store.integrity_check()
    finally:
        store.close()
    return {"damaged": str(damaged) if damaged.exists() else None,
            "backup": str(backup) if backup is not None else None,
            "tables": tables, "integrity": result}


def _source(path: Path) -> sqlite3.Connection | None:
    try:
        con = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True, timeout=30)
        con.execute("SELECT name FROM sqlite_master").fetchall()
        return con
    except sqlite3.DatabaseError:
        return None


def _schema(con: sqlite3.Connection) -> list[tuple[str, str]]:
    rows = con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'").fetchall()
    virtual = {n for n, sql in rows if (sql or "").upper().startswith("CREATE VIRTUAL")}
    out = []
    for name, sql in rows:
        if name.startswith("sqlite_") or name in virtual or any(name.startswith(v + "_") for v in virtual):
            continue  # full-text indexes are rebuilt from their tables, not copied
        out.append((name, sql or ""))
    order = {"sessions": 0, "actions": 1}
    return sorted(out, key=lambda t: (order.get(t[0], 2), t[0]))


def _key_columns(con: sqlite3.Connection, table: str, sql: str) -> list[str]:
    if "WITHOUT ROWID" in sql.upper():
        pk = sorted((r[5], r[1]) for r in con.execute(f'PRAGMA table_info("{table}")') if r[5])
        return [name for _, name in pk]
    return ["rowid"]


MAX_ROWID = 2**63 - 1


def _scan_rowid(con: sqlite3.Connection, table: str, cols: list[str]) -> Iterator[tuple[Any, ...]]:
    """Rows (rowid first) of a rowid table, skipping damaged pages: scan forward until a
    read fails, probe ever further ahead (1, 2, 4, ... rowids) for the next readable row,
    read back down from it into the gap, and go on from there."""
    select = f'SELECT rowid, {", ".join(chr(34) + c + chr(34) for c in cols)} FROM "{table}"'
    seen: set[int] = set()
    last: int | None = None
    while True:
        try:
            while True:
                where = " WHERE rowid > ?" if last is not None else ""
                rows = con.execute(f"{select}{where} ORDER BY rowid LIMIT {BATCH}",
                                   (last,) if last is not None else ()).fetchall()
                if not rows:
                    return
                for r in rows:
                    if r[0] not in seen:
                        seen.add(r[0])
                        yield r
                last = rows[-1][0]
        except sqlite3.DatabaseError:
            pass
        base = last if last is not None else -1
        step, resumed = 1, None
        while base + step <= MAX_ROWID:
            try:
                row = con.execute(f'SELECT rowid FROM "{table}" WHERE rowid > ? ORDER BY rowid LIMIT 1',
                                  (base + step,)).fetchone()
            except sqlite3.DatabaseError:
                step *= 2
                continue
            resumed = row[0] if row else None
            break
        if resumed is None:
            return
        upper = resumed + 1
        try:  # back down into the gap, as far as the pages allow
            while True:
                rows = con.execute(f"{select} WHERE rowid < ? AND rowid > ? ORDER BY rowid DESC LIMIT {BATCH}",
                                   (upper, base)).fetchall()
                if not rows:
                    break
                for r in rows:
                    if r[0] not in seen:
                        seen.add(r[0])
                        yield r
                upper = rows[-1][0]
        except sqlite3.DatabaseError:
            pass
        last = resumed


def _scan(con: sqlite3.Connection, table: str, key: list[str], cols: list[str]) -> Iterator[tuple[Any, ...]]:
    """Rows (key values first) readable from the front of the table, then from its back."""
    if key == ["rowid"]:
        yield from _scan_rowid(con, table, cols)
        return
    keys = ", ".join(f'"{k}"' if k != "rowid" else "rowid" for k in key)
    select = f'SELECT {keys}, {", ".join(chr(34) + c + chr(34) for c in cols)} FROM "{table}"'
    tup = f"({keys})" if len(key) > 1 else keys
    marks = f"({', '.join('?' * len(key))})" if len(key) > 1 else "?"
    first_bad: tuple[Any, ...] | None = None
    last: tuple[Any, ...] | None = None
    try:
        while True:
            where = f" WHERE {tup} > {marks}" if last is not None else ""
            rows = con.execute(f"{select}{where} ORDER BY {keys} LIMIT {BATCH}", last or ()).fetchall()
            if not rows:
                return  # read to the end: nothing damaged here
            for r in rows:
                yield r
            last = tuple(rows[-1][: len(key)])
    except sqlite3.DatabaseError:
        first_bad = last
    desc = ", ".join(f"{k} DESC" for k in (keys.split(", ")))
    upper: tuple[Any, ...] | None = None
    try:
        while True:
            terms = []
            args: list[Any] = []
            if upper is not None:
                terms.append(f"{tup} < {marks}")
                args += upper
            if first_bad is not None:
                terms.append(f"{tup} > {marks}")
                args += first_bad
            where = (" WHERE " + " AND ".join(terms)) if terms else ""
            rows = con.execute(f"{select}{where} ORDER BY {desc} LIMIT {BATCH}", args).fetchall()
            if not rows:
                return
            for r in rows:
                yield r
            upper = tuple(rows[-1][: len(key)])
    except sqlite3.DatabaseError:
        return


def copy_readable(damaged: Path, store: Any) -> dict[str, dict[str, int]]:
    """Copy every readable row of the damaged file into the store (see the module doc)."""
    src = _source(damaged)
    if src is None:
        return {}
    out: dict[str, dict[str, int]] = {}
    conn: sqlite3.Connection = store.conn
    try:
        schema = _schema(src)
    except sqlite3.DatabaseError:
        src.close()
        return {}
    try:
        for table, sql in schema:
            if not store.has_table(table):
                try:
                    with store.transaction():
                        conn.execute(sql)
                except sqlite3.Error:
                    continue
            try:
                src_cols = [r[1] for r in src.execute(f'PRAGMA table_info("{table}")')]
            except sqlite3.DatabaseError:
                continue
            cols = [c for c in src_cols if c in set(store.columns(table))]
            if not cols:
                continue
            key = _key_columns(src, table, sql)
            out[table] = _copy_table(src, conn, store, table, key, cols)
    finally:
        src.close()
    return out


def _copy_table(src: sqlite3.Connection, conn: sqlite3.Connection, store: Any, table: str,
                key: list[str], cols: list[str]) -> dict[str, int]:
    counts = {"read": 0, "added": 0, "updated": 0, "skipped": 0}
    rowid = key == ["rowid"]
    ins_cols = (["rowid"] if rowid else []) + cols
    quoted = ", ".join("rowid" if c == "rowid" else f'"{c}"' for c in ins_cols)
    insert = f'INSERT OR IGNORE INTO "{table}" ({quoted}) VALUES ({", ".join("?" * len(ins_cols))})'
    sets = ", ".join(f'"{c}" = ?' for c in cols)
    match = " AND ".join(("rowid" if k == "rowid" else f'"{k}"') + " = ?" for k in key)
    update = f'UPDATE "{table}" SET {sets} WHERE {match}'
    batch: list[tuple[Any, ...]] = []

    def flush() -> None:
        with store.transaction():
            for r in batch:
                k, values = r[: len(key)], r[len(key):]
                if table == "actions" and "session_sn" in cols:
                    _placeholder_session(conn, values[cols.index("session_sn")])
                try:
                    cur = conn.execute(insert, ((k[0],) if rowid else ()) + tuple(values))
                    if cur.rowcount:
                        counts["added"] += 1
                    else:
                        conn.execute(update, tuple(values) + tuple(k))
                        counts["updated"] += 1
                except sqlite3.Error:
                    counts["skipped"] += 1
        batch.clear()

    for r in _scan(src, table, key, cols):
        counts["read"] += 1
        batch.append(r)
        if len(batch) >= BATCH:
            flush()
    if batch:
        flush()
    return counts


def _placeholder_session(conn: sqlite3.Connection, sn: Any) -> None:
    """An action whose session row was unreadable keeps a session of its own."""
    if sn is None or conn.execute("SELECT 1 FROM sessions WHERE sn = ?", (sn,)).fetchone():
        return
    conn.execute(
        "INSERT INTO sessions(sn, id, source, label, closed, metadata) VALUES (?, ?, 'recovered', ?, 1, ?)",
        (sn, f"recovered-{sn}", f"recovered session {sn}", '{"closed_reason": "recovered"}'),
    )


def daemon_holds(run_dir: Path) -> bool:
    """True while a daemon of this home runs (it holds the database open)."""
    lock = run_dir / "daemon.lock"
    if not lock.exists():
        return False
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: trust the pid file
        return (run_dir / "daemon.pid").exists()
    fd = os.open(lock, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    except OSError:
        return True
    finally:
        os.close(fd)


__all__ = ["StoreError", "check", "copy_readable", "damaged_message", "daemon_holds", "is_damaged",
           "newest_good_backup", "repair"]
