"""The user's right to erase: remove actions, their snapshots and everything derived from them.

Deleting rows is not enough for a memory of everything a person does: freed pages keep old
bytes and the WAL keeps recent ones. So forgetting turns on secure_delete, truncates the WAL
afterwards, drops blobs nothing refers to any more, and rebuilds what is derived (memory)
from what is left. The tables of other packages are reached through the table registry
(filegram.tables): each table's rule says whether its rows are matched by time, session,
path or text, handed to its owner, or rebuilt by its namespace.
"""

from __future__ import annotations

import fnmatch
import json
import re
import sqlite3
from datetime import datetime
from typing import Any

from .config import Config, Home
from .daemonhook import run_in_daemon
from .errors import FileGramError
from .privacy import nfc
from .schema import event_paths, media_hashes
from .scrub import delete_damaged_copies, needles_for, rewrite_backups, rewrite_exports, scrub_logs
from .store import Store, time_range_clause
from .tables import ForgetScope, TableRule, rebuilders, table_rules


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
    """A glob matches a path itself or, naming a folder, everything under it. A glob that
    starts with `**/` matches at any depth, the top included (`**/private` is private/... and
    notes/private/...), as an exclusion without a folder part does. Accents match however
    they are encoded (decomposed on macOS, composed as typed)."""
    path, glob = nfc(path), nfc(glob)
    g = glob.strip().lstrip("./") if glob.strip() not in (".", "./") else "."
    p = path.lstrip("./") if path not in (".",) else "."
    if g.startswith("**/") and g.strip("*/"):
        rest = g[3:]
        while rest.startswith("**/"):
            rest = rest[3:]
        parts = p.split("/")
        return any(path_matches("/".join(parts[i:]), rest) for i in range(len(parts)))
    if fnmatch.fnmatchcase(p, g):
        return True
    folder = g.rstrip("/")
    return p.startswith(folder + "/") or fnmatch.fnmatchcase(p, folder + "/*")


def glob_name(glob: str) -> str:
    """The literal last part of a glob (`notes/secret-*` -> `secret-`), as text may name it."""
    return glob.rstrip("/").rsplit("/", 1)[-1].replace("*", "").replace("?", "")


def query_names(ev: dict[str, Any], glob: str) -> bool:
    """A search that names no path (a trace made before searches kept their scope,
    `search_scope`) is tied to a folder only by its query naming it: `grep -r
    "secret-project/plan"` goes with --path secret-project."""
    query = ev.get("query")
    name = glob_name(glob)
    return isinstance(query, str) and len(name) >= 3 and name in query


def check_scope(*, path_glob: str | None, since_ms: float | None, until_ms: float | None, everything: bool) -> None:
    if not everything and path_glob is None and since_ms is None and until_ms is None:
        raise ForgetError("say what to forget: --path GLOB, --since/--until, or --all")
    if since_ms is not None and until_ms is not None and since_ms >= until_ms:
        raise ForgetError("--since must be before --until")


# Who forgets for the CLI when a daemon records this home: named as a string (like the
# table plugins), because the daemon lives above the core. It returns None when no daemon
# runs; otherwise the daemon pauses its recorder, forgets, and records again.
DAEMON_FORGET = "filegram.daemon.client:forget_through_daemon"


def forget_through_daemon(home: Home, what: dict[str, Any]) -> dict[str, Any] | None:
    return run_in_daemon(DAEMON_FORGET, home, what)


def forget(
    store: Store,
    config: Config | None = None,
    *,
    path_glob: str | None = None,
    since_ms: float | None = None,
    until_ms: float | None = None,
    everything: bool = False,
    rebuild_memory: bool = True,
    home: Home | None = None,
) -> dict[str, Any]:
    """Remove what matches and everything derived from it, then leave no copy of it in the
    file: full-text indexes merged, VACUUM, WAL truncated. With `home`, also the backups,
    logs and known exports (filegram.scrub). Returns counts (and, with rebuild_memory, what
    each rebuilt namespace said, e.g. result["memory"] == "rebuilt")."""
    check_scope(path_glob=path_glob, since_ms=since_ms, until_ms=until_ms, everything=everything)
    conn = store.conn
    conn.execute("PRAGMA secure_delete=ON")
    result: dict[str, Any] = {"actions": 0, "sessions": 0, "blobs": 0, "paths": 0, "derived_rows": 0}
    gone_sessions: list[str] = []
    forgotten_paths: set[str] = set()
    with store.transaction():
        if everything:
            result["actions"] = conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
            result["sessions"] = conn.execute("SELECT COUNT(*) FROM sessions").fetchone()[0]
            result["blobs"] = conn.execute("SELECT COUNT(*) FROM blobs").fetchone()[0]
            result["paths"] = conn.execute("SELECT COUNT(*) FROM paths").fetchone()[0]
            gone_sessions = [sid for (sid,) in conn.execute("SELECT id FROM sessions")]
            conn.execute("DELETE FROM actions")
            conn.execute("DELETE FROM sessions")
            conn.execute("DELETE FROM blobs")
            conn.execute("DELETE FROM paths")
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
                paths = event_paths(ev) or ([path] if path else [])
                if path_glob is not None and not any(path_matches(p, path_glob) for p in paths) \
                        and not query_names(ev, path_glob):
                    continue
                doomed.append(seq)
                # a search's scope is where it looked, not a file forgotten: a time range
                # holding `grep -r x .` must not make every log line with "." or every file
                # called like a searched folder go too
                looked_in = ev.get("search_scope") or ()
                forgotten_paths.update(p for p in paths if p not in looked_in)
                doomed_hashes.update(media_hashes(ev))
            result["actions"] = store.delete_where_in("actions", "seq", doomed)
            if path_glob is not None:
                # blobs named after a forgotten path go even if some other action kept them
                for (h, original) in conn.execute("SELECT hash, original_path FROM blobs").fetchall():
                    if original and path_matches(original, path_glob):
                        doomed_hashes.add(h)
            # the path index keeps only paths some action still names
            gone = [p for (p,) in conn.execute(
                "SELECT path FROM paths WHERE path NOT IN (SELECT path FROM actions WHERE path IS NOT NULL)")]
            if path_glob is not None:
                gone += [p for (p,) in conn.execute("SELECT path FROM paths") if path_matches(p, path_glob) and p not in gone]
            result["paths"] = store.delete_where_in("paths", "path", gone)
            if since_ms is not None or until_ms is not None:
                empty = conn.execute(
                    "SELECT s.id FROM sessions s WHERE NOT EXISTS (SELECT 1 FROM actions a WHERE a.session_sn = s.sn)"
                    " AND s.started_ms >= ? AND COALESCE(s.ended_ms, s.started_ms) < ?",
                    (since_ms if since_ms is not None else float("-inf"), until_ms if until_ms is not None else float("inf")),
                ).fetchall()
                for (sid,) in empty:
                    conn.execute("DELETE FROM sessions WHERE id = ?", (sid,))
                    gone_sessions.append(sid)
                result["sessions"] = len(empty)
            if doomed_hashes:
                still = store.referenced_blob_hashes()
                for h in doomed_hashes:
                    blob = conn.execute("SELECT original_path FROM blobs WHERE hash = ?", (h,)).fetchone()
                    named = blob and blob[0] and path_glob is not None and path_matches(blob[0], path_glob)
                    if h not in still or named:
                        result["blobs"] += conn.execute("DELETE FROM blobs WHERE hash = ?", (h,)).rowcount
        scope = ForgetScope(path_glob, since_ms, until_ms, everything, frozenset(forgotten_paths))
        result["derived_rows"] = forget_registered(store, scope, gone_sessions)
    store.clear_caches()  # sessions and paths the write path cached may be gone
    if rebuild_memory:
        for namespace, rebuild in rebuilders().items():
            result[namespace] = rebuild(store, config or Config())
    warning = leave_no_copy(store)
    if warning:
        result["warnings"] = [warning]
    if home is not None:
        result["outside"] = scrub_outside(store, config or Config(), home, scope)
    return result


def leave_no_copy(store: Store) -> str | None:
    """Deleted rows leave bytes behind: in full-text index segments (until merged), in free
    pages and cell gaps (secure_delete zeroes only what this connection deletes), and in
    the WAL. So: merge every FTS index, VACUUM the file, truncate the WAL. Returns a
    warning when the file could not be rebuilt (VACUUM needs free space the size of it)."""
    conn = store.conn
    for name, sql in conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'").fetchall():
        if "fts5" in (sql or "").lower():
            with store.transaction():
                conn.execute(f'INSERT INTO "{name}"("{name}") VALUES (\'optimize\')')
    warning = None
    try:
        store.vacuum()
    except sqlite3.Error as exc:
        warning = (f"the rows are deleted, but the file could not be rebuilt ({exc}): deleted bytes may remain in "
                   "free pages until `filegram forget` runs again with enough free disk space")
    busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    if busy and busy[0]:  # a reader held the WAL: try once more after it let go
        busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        if busy and busy[0]:
            warning = warning or "another process is reading the database: its WAL could not be truncated yet"
    return warning


def scrub_outside(store: Store, config: Config, home: Home, scope: ForgetScope) -> dict[str, Any]:
    """Backups, damaged copies, logs and known exports (filegram.scrub), after the database is clean."""
    from .export_all import export_everything, written_names

    out: dict[str, Any] = {}
    out["backups"] = rewrite_backups(store, home.backup_dir, int(config["daemon"]["backups_kept"]))
    out["damaged_copies"] = delete_damaged_copies(home.db_path)
    out["log_lines"] = scrub_logs(
        home.log_dir, everything=scope.everything, needles=needles_for(scope.paths, scope.path_glob),
        since_ms=scope.since_ms, until_ms=scope.until_ms,
    )
    out["exports"] = rewrite_exports(
        store, lambda dest: export_everything(store, dest, config_path=home.config_path, config=config),
        written_names(),
    )
    return out


def forget_registered(store: Store, scope: ForgetScope, gone_sessions: list[str]) -> int:
    """Apply the rule of every registered table of other packages that exists in this
    file; returns the rows removed. ("rebuild" tables are recomputed afterwards.)"""
    present = store.tables()
    n = 0
    for rule in table_rules().values():
        if present.get(rule.table) not in ("table", "virtual"):
            continue
        if rule.forget == "match":
            n += forget_matching(store, rule, scope, gone_sessions)
        elif rule.forget == "custom" and rule.forget_rows is not None:
            n += rule.forget_rows(store, scope)
    return n


def forget_matching(store: Store, rule: TableRule, scope: ForgetScope, gone_sessions: list[str]) -> int:
    """A "match" table: with --all every row; otherwise rows of a forgotten session, rows in
    the time range, rows whose path columns match the glob or whose text columns name the
    glob's last part (for --path with a time range, both must hold)."""
    conn = store.conn
    table = f'"{rule.table}"'
    if scope.everything:
        return conn.execute(f"DELETE FROM {table}").rowcount
    cols = set(store.columns(rule.table))
    n = 0
    if rule.session_column in cols and gone_sessions:
        n += store.delete_where_in(rule.table, rule.session_column, gone_sessions)
    timed = scope.since_ms is not None or scope.until_ms is not None
    where: list[str] = []
    args: list[Any] = []
    if timed and rule.time_column in cols:
        where, args = time_range_clause(scope.since_ms, scope.until_ms, f'"{rule.time_column}"')
    elif timed and scope.path_glob is None:
        return n  # nothing in this table says when
    if scope.path_glob is None:
        if where:
            n += conn.execute(f"DELETE FROM {table} WHERE {' AND '.join(where)}", args).rowcount
        return n
    name = glob_name(scope.path_glob)
    for col in (c for c in rule.text_columns if c in cols):
        if name:
            sql = f'DELETE FROM {table} WHERE instr("{col}", ?) > 0'
            n += conn.execute(sql + "".join(f" AND {w}" for w in where), [name, *args]).rowcount
    for col in (c for c in rule.path_columns if c in cols):
        values = [
            v for (v,) in conn.execute(f'SELECT DISTINCT "{col}" FROM {table}')
            if isinstance(v, str) and path_matches(v, scope.path_glob)
        ]
        for v in values:
            sql = f'DELETE FROM {table} WHERE "{col}" = ?'
            n += conn.execute(sql + "".join(f" AND {w}" for w in where), [v, *args]).rowcount
    return n
