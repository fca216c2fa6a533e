"""The read path: SQL for sessions and actions, and rows back into FileGram dicts."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import orjson

from ..schema import ENVELOPE_NAMES

SESSION_SELECT = (
    "SELECT s.id, s.source, s.label, s.profile_id, s.task_id, s.root, s.started_ms, s.ended_ms, "
    "s.closed, s.metadata, (SELECT COUNT(*) FROM actions a WHERE a.session_sn = s.sn), s.device FROM sessions s"
)
# A file opened read-only before its `device` column was added (core_sessions_device).
SESSION_SELECT_WITHOUT_DEVICE = SESSION_SELECT.replace("s.device FROM", "NULL FROM")
SESSION_KEYS = ("id", "source", "label", "profile_id", "task_id", "root", "started_ms", "ended_ms", "closed", "metadata", "action_count", "device")
ACTION_SELECT = (
    "SELECT a.event_id, a.event_type, a.ts, s.id, a.data FROM actions a JOIN sessions s ON s.sn = a.session_sn"
)
# One session's actions: its id is known, so no join (sn is AUTOINCREMENT, never reused).
SESSION_ACTIONS_SELECT = "SELECT a.event_id, a.event_type, a.ts, a.data FROM actions a WHERE a.session_sn = ?"
SESSION_FIELDS = frozenset({"source", "label", "profile_id", "task_id", "root", "started_ms", "ended_ms", "closed", "metadata", "device"})


def sessions_actions_query(n: int) -> str:
    """SQL for the actions of n sessions (by sn), each session's in time order (ties in
    insertion order), rows led by their session's sn."""
    return ("SELECT a.session_sn, a.event_id, a.event_type, a.ts, a.data FROM actions a "
            f"WHERE a.session_sn IN ({','.join('?' * n)}) ORDER BY a.session_sn, a.ts ASC, a.seq ASC")


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


def session_from_row(row: Sequence[Any]) -> dict[str, Any]:
    d = dict(zip(SESSION_KEYS, row, strict=True))
    d["closed"] = bool(d["closed"])
    d["metadata"] = json.loads(d["metadata"] or "{}")
    return d


def sessions_query(*, closed: bool | None, source: str | None, limit: int | None,
                   select: str = SESSION_SELECT) -> tuple[str, list[Any]]:
    where: list[str] = []
    args: list[Any] = []
    if closed is not None:
        where.append("s.closed = ?")
        args.append(1 if closed else 0)
    if source is not None:
        where.append("s.source = ?")
        args.append(source)
    sql = select + (" WHERE " + " AND ".join(where) if where else "")
    sql += " ORDER BY s.started_ms, s.id"
    if limit:
        sql += f" LIMIT {int(limit)}"
    return sql, args


def actions_query(
    session_sn: int | None,
    *,
    types: Sequence[str] | None,
    since_ms: float | None,
    until_ms: float | None,
    limit: int | None,
    newest_first: bool,
) -> tuple[str, list[Any]]:
    """SQL and arguments for actions; with a session, the rows have no session id column
    (the caller knows it: see SESSION_ACTIONS_SELECT)."""
    where: list[str] = []
    args: list[Any] = []
    if session_sn is not None:
        where.append("a.session_sn = ?")
        args.append(session_sn)
    if types:
        where.append(f"a.event_type IN ({','.join('?' * len(types))})")
        args.extend(types)
    range_where, range_args = time_range_clause(since_ms, until_ms)
    where += range_where
    args += range_args
    if session_sn is not None:
        sql = SESSION_ACTIONS_SELECT + "".join(" AND " + w for w in where[1:])
    else:
        sql = ACTION_SELECT + (" WHERE " + " AND ".join(where) if where else "")
    order = "DESC" if newest_first else "ASC"
    sql += f" ORDER BY a.ts {order}, a.seq {order}"
    if limit:
        sql += f" LIMIT {int(limit)}"
    return sql, args


# Every ASCII digit becomes "0" and every other byte a space: a run of 19 zeros in the
# translation is a number orjson may read differently from json (see parse_data).
_DIGIT_BYTES = bytes(0x30 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))
_LONG_DIGITS = b"0" * 19
# The optional envelope fields, null unless the stored data names them (ingest drops nulls).
_NULL_ENGINE = dict.fromkeys(ENVELOPE_NAMES[4:])


def parse_data(data: str) -> dict[str, Any]:
    """An action's stored JSON, as json.loads reads it. orjson is three times faster and
    reads the same values, except an integer beyond 64 bits (it gives a float) and what it
    rejects (NaN, lone surrogates, huge exponents): a long digit run, the only way to
    write such an integer, and any orjson error take the json path."""
    if _LONG_DIGITS not in data.encode("utf-8", "surrogatepass").translate(_DIGIT_BYTES):
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass
    return json.loads(data)


def event_from_row(event_id: str, etype: str, ts: float, sid: str, data: str) -> dict[str, Any]:
    """A stored action as the FileGram event dict (envelope first, null engine fields back).

    The envelope is laid out first, its optional fields null, and the stored fields update
    it: a stored engine field takes its envelope slot (a dict keeps a key's position when
    its value changes), the rest follow in stored order."""
    ev: dict[str, Any] = {"event_id": event_id, "event_type": etype, "timestamp": ts, "session_id": sid,
                          **_NULL_ENGINE}
    ev.update(parse_data(data))
    return ev
