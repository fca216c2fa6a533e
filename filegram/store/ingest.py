"""The write path's hot loop: FileGram event dicts become rows of the actions table, checked
against the format in the same single pass that builds them.

Checking an event field by field (schema.validate_event) cost as much as storing it. Most
of that work repeats: a producer sends the same fields with the same value types event
after event. So the pass keys each event by its shape (type, field names, value types),
decides once per shape which fields need a look at their values (finite floats, list and
object contents, counts not negative) and leaves the rest to work the row needs anyway:
the JSON encoder refuses invalid Unicode, and the encoded text shows a NUL character or an
oversized string. An event that fails any of these, or has a shape the fast checks do not
cover (e.g. an integer given as 3.0, which must be normalised), goes through
schema.validate_event, which gives the precise error or the normalised event. Nothing the
format forbids gets through on the fast path; the fuzz tests in tests/reliability and the
cases in tests/core/test_schema.py hold both paths to the same verdicts.
"""

from __future__ import annotations

import itertools
import json
import math
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from ..schema import (
    ACTION_SPECS,
    BOOL,
    COUNT,
    ENVELOPE_FIELDS,
    ENVELOPE_NAMES,
    INT,
    INT_PAIR,
    MAX_LIST,
    MAX_STRING,
    MEDIA_REF,
    NUM,
    PRIMARY_PATH_ORDER,
    STR,
    STR_LIST,
    WRITE_OPERATIONS,
    check_extra_value,
    field_error,
    is_unicode,
    primary_path,
    validate_event,
)

Row = tuple[str, int | None, str, float, str | None, str]

OPTIONAL_ENVELOPE = ENVELOPE_NAMES[4:]
# The first field of primary_path's order: one lookup, and primary_path only where that field
# is null (a reference from a search names no source file, a switch to a window no file).
PRIMARY_FIELD = {etype: names[0] for etype, names in PRIMARY_PATH_ORDER.items() if names}
EXTRA_NAME_MAX = 200
SHAPES_MAX = 4096

# What the fast path still looks at in a value, by shape.
FINITE, NOT_NEGATIVE, PAIR, STRINGS, COUNT_LIST, REF, EXTRA, OPERATION = range(8)
_NONE = type(None)
_SCALARS = (str, int, float, bool, _NONE)


@dataclass(frozen=True)
class Shape:
    """What one event shape needs beyond its types: value checks, and the optional envelope
    fields that are null (implied on read, so not stored)."""

    checks: tuple[tuple[str, int], ...]
    null_envelope: tuple[str, ...]
    primary: str
    all_envelope_null: bool  # all four engine fields present and null


def _shape(etype: Any, names: tuple[Any, ...], types: tuple[type, ...]) -> Shape | None:
    """The fast checks for a shape, or None when only validate_event can judge it."""
    specs = ACTION_SPECS.get(etype) if isinstance(etype, str) else None
    if specs is None:
        return None
    known = {f.name: f for f in ENVELOPE_FIELDS + specs}
    present = dict(zip(names, types, strict=True))
    if any(f.required and f.name not in present for f in known.values()):
        return None
    if etype == "context_switch" and all(present.get(n, _NONE) is _NONE for n in ("from_file", "to_file")):
        return None  # a switch that names no file: validate_event refuses it
    checks: list[tuple[str, int]] = []
    for name, t in present.items():
        spec = known.get(name)
        if spec is None:  # an extra field: kept if it is plain JSON
            if type(name) is not str or len(name) > EXTRA_NAME_MAX:
                return None
            if t in (dict, list):
                checks.append((name, EXTRA))
            elif t not in _SCALARS:
                return None
            continue
        if t is _NONE:
            if not spec.nullable:
                return None
            continue
        kind = spec.kind
        if kind == STR:
            ok = t is str
        elif kind == INT or kind == BOOL:
            ok = t is (int if kind == INT else bool)
        elif kind == NUM:
            ok = t is int or t is float
            if t is float and name != "timestamp":  # the pass checks the timestamp itself
                checks.append((name, FINITE))
        elif kind == COUNT:
            ok = t is int or t is list
            checks.append((name, NOT_NEGATIVE if t is int else COUNT_LIST))
        elif kind in (INT_PAIR, STR_LIST):
            ok = t is list
            checks.append((name, PAIR if kind == INT_PAIR else STRINGS))
        elif kind == MEDIA_REF:
            ok = t is dict
            checks.append((name, REF))
        else:
            ok = False
        if not ok:
            return None
    if etype == "file_write":
        checks.append(("operation", OPERATION))
    null_envelope = tuple(n for n in OPTIONAL_ENVELOPE if present.get(n) is _NONE)
    return Shape(tuple(checks), null_envelope, PRIMARY_FIELD.get(etype, ""), null_envelope == OPTIONAL_ENVELOPE)


def _values_ok(ev: dict[str, Any], checks: tuple[tuple[str, int], ...]) -> bool:
    for name, check in checks:
        v = ev[name]
        if check == FINITE:
            if not math.isfinite(v):
                return False
        elif check == NOT_NEGATIVE:
            if v < 0:
                return False
        elif check == PAIR:
            if len(v) != 2 or type(v[0]) is not int or type(v[1]) is not int:
                return False
        elif check in (STRINGS, COUNT_LIST):
            if len(v) > MAX_LIST or not all(type(x) is str for x in v):
                return False
        elif check == REF:
            if field_error(name, MEDIA_REF, v) is not None:
                return False
        elif check == EXTRA:
            try:
                _plain_json(v)
            except ValueError:
                return False
        elif check == OPERATION:
            if v not in WRITE_OPERATIONS:
                return False
    return True


def _plain_json(value: Any) -> None:
    def fail(msg: str) -> ValueError:
        return ValueError(msg)

    check_extra_value(value, fail)


def _text_ok(s: str) -> bool:
    return len(s) <= MAX_STRING and "\x00" not in s and (s.isascii() or is_unicode(s))


_SHAPES: dict[tuple[Any, ...], Shape | None] = {}


def shape_of(ev: dict[str, Any]) -> Shape | None:
    """The fast checks for this event's shape (cached), None when there are none."""
    key = (ev.get("event_type"), tuple(ev), tuple(map(type, ev.values())))
    try:
        return _SHAPES[key]
    except KeyError:
        if len(_SHAPES) >= SHAPES_MAX:
            _SHAPES.clear()
        shape = _SHAPES[key] = _shape(*key)
        return shape
    except TypeError:  # an unhashable event_type: not JSON the format allows
        return None


def _encode(rest: dict[str, Any], *, lenient: bool) -> str:
    try:
        return orjson.dumps(rest).decode()
    except orjson.JSONEncodeError:
        if not lenient:
            raise
        return json.dumps(rest, ensure_ascii=False)  # valid but beyond orjson (huge integers)


@dataclass
class Batch:
    """What one pass over a batch of events gives the write path."""

    rows: list[Row]
    missing_sessions: list[str]  # session ids no session exists for
    new_paths: dict[str, float]  # paths that were not in known_paths, first time seen here


def action_rows(
    events: Sequence[Any],
    session_sn: Callable[[str], int | None],
    known_paths: set[str],
    *,
    validate: bool = True,
) -> Batch:
    """Rows for the actions table in one pass. New paths are added to known_paths (the
    caller's cache of the paths table: it must drop the cache if the batch is not
    committed). With validate, raises schema.TraceError for the first event that does not
    follow the format (naming its index), before any missing session is reported."""
    dumps = orjson.dumps
    shapes = _SHAPES
    sns: dict[str, int | None] = {}
    missing: list[str] = []
    rows: list[Row] = []
    new_paths: dict[str, float] = {}
    append = rows.append
    for i, ev in enumerate(events):
        data = None
        if validate and type(ev) is dict:
            # the fast path: a known shape, then only the values its shape says to look at
            try:
                shape = shapes[(ev["event_type"], tuple(ev), tuple(map(type, ev.values())))]
            except (KeyError, TypeError):
                shape = shape_of(ev)
            if shape is not None:
                eid = ev["event_id"]
                sid = ev["session_id"]
                ts = float(ev["timestamp"])
                if (
                    ts - ts == 0.0  # finite
                    and eid and sid  # empty ids: validate_event refuses them
                    and (not shape.checks or _values_ok(ev, shape.checks))
                    and len(eid) <= MAX_STRING and "\x00" not in eid and (eid.isascii() or is_unicode(eid))
                    and (sid in sns or _text_ok(sid))
                ):
                    rest = ev.copy()  # copying and deleting keys is several times faster than filtering
                    if shape.all_envelope_null:
                        del rest["event_id"], rest["event_type"], rest["timestamp"], rest["session_id"], \
                            rest["profile_id"], rest["message_id"], rest["model_provider"], rest["model_name"]
                    else:
                        del rest["event_id"], rest["event_type"], rest["timestamp"], rest["session_id"]
                        for name in shape.null_envelope:  # null engine fields are implied on read
                            del rest[name]
                    try:
                        data = dumps(rest).decode()
                    except orjson.JSONEncodeError:  # e.g. invalid Unicode: validate_event names it
                        data = None
                    else:
                        if len(data) > MAX_STRING or "\\u0000" in data:
                            data = None  # a NUL or an oversized string: validate_event decides
                        else:
                            etype = ev["event_type"]
                            path = ev.get(shape.primary)
                            if path is None and shape.primary:
                                path = primary_path(ev)
        if data is None:
            if validate:
                ev = validate_event(ev, index=i)
            rest = ev.copy()
            del rest["event_id"], rest["event_type"], rest["timestamp"], rest["session_id"]
            for name in OPTIONAL_ENVELOPE:  # null engine fields are implied on read
                if rest.get(name, 0) is None:
                    del rest[name]
            data = _encode(rest, lenient=validate)
            eid, sid, etype, ts = ev["event_id"], ev["session_id"], ev["event_type"], float(ev["timestamp"])
            path = ev.get(PRIMARY_FIELD.get(etype, "")) or primary_path(ev)
        try:
            sn = sns[sid]
        except KeyError:
            sn = sns[sid] = session_sn(sid)
            if sn is None:
                missing.append(sid)
        append((eid, sn, etype, ts, path, data))
        if path is not None and path not in known_paths:
            known_paths.add(path)
            new_paths[path] = ts
    return Batch(rows, missing, new_paths)


INSERT_ACTIONS = "INSERT OR IGNORE INTO actions(event_id, session_sn, event_type, ts, path, data) VALUES "
# Rows per INSERT statement: one statement with many VALUES rows costs SQLite less than as
# many single-row steps (executemany), measured about 15% of the insert time. A few fixed
# sizes keep the statement cache small; old SQLite allows 999 variables per statement.
CHUNKS = (256, 32, 4, 1) if sqlite3.sqlite_version_info >= (3, 32, 0) else (128, 16, 4, 1)
_INSERT_SQL = {n: INSERT_ACTIONS + ",".join(["(?, ?, ?, ?, ?, ?)"] * n) for n in CHUNKS}


def insert_rows(conn: sqlite3.Connection, rows: Sequence[Row]) -> None:
    """INSERT OR IGNORE the rows in as few statements as the fixed chunk sizes allow."""
    i, n = 0, len(rows)
    for size in CHUNKS:
        sql = _INSERT_SQL[size]
        while n - i >= size:
            conn.execute(sql, list(itertools.chain.from_iterable(rows[i : i + size])))
            i += size
