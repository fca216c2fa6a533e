"""A segment's records and their encoding: JSON lines, zlib-compressed, then sealed.

Records (one JSON object each):
  {"type": "session", "session": {id, source, label, profile_id, task_id, root, started_ms,
                                  ended_ms, closed, metadata}, "device": "<name>"}
  {"type": "blob", "hash", "kind", "original_path", "data": "<base64>"}
  {"type": "actions", "session": "<id>", "events": [FileGram event dicts]}
  {"type": "tombstone", "id", "origin", "at_ms", "path_glob", "since_ms", "until_ms", "everything"}

Every record is idempotent to apply: sessions by id, actions by event id, blobs by content
hash, tombstones by id. A blob travels in the same segment as the first actions that refer
to it, so filtering a segment (tombstones, the reader's own deny list) can drop blobs whose
every referring action is dropped.
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .devices import referenced_hashes
from .errors import DamagedFileError
from .tombstones import Tombstone, covers_event

SESSION_FIELDS = ("id", "source", "label", "profile_id", "task_id", "root", "started_ms", "ended_ms", "closed", "metadata")
KNOWN_TYPES = frozenset({"segment", "session", "blob", "actions", "tombstone"})


def session_record(session: dict[str, Any], device: str) -> dict[str, Any]:
    return {"type": "session", "session": {k: session.get(k) for k in SESSION_FIELDS}, "device": device}


def blob_record(h: str, kind: str, original_path: str | None, content: bytes) -> dict[str, Any]:
    return {"type": "blob", "hash": h, "kind": kind, "original_path": original_path,
            "data": base64.b64encode(content).decode("ascii")}


def blob_content(rec: dict[str, Any]) -> bytes:
    return base64.b64decode(rec["data"])


def encode(records: Iterable[dict[str, Any]]) -> bytes:
    text = "\n".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in records)
    return zlib.compress(text.encode("utf-8"), 6)


def decode(payload: bytes, where: str) -> list[dict[str, Any]]:
    try:
        text = zlib.decompress(payload).decode("utf-8")
        records = [json.loads(line) for line in text.split("\n") if line]
    except (zlib.error, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DamagedFileError(f"{where}: unreadable records ({exc})") from None
    for r in records:
        if not isinstance(r, dict) or r.get("type") not in KNOWN_TYPES:
            raise DamagedFileError(f"{where}: a record of an unknown kind (written by a newer FileGram?)")
    return records


@dataclass
class Filtered:
    """A segment's records after tombstones and a deny list: what to apply or keep."""

    records: list[dict[str, Any]]
    dropped_events: int = 0
    dropped_sessions: set[str] = field(default_factory=set)
    dropped_blobs: int = 0


def filter_records(records: Sequence[dict[str, Any]], tombstones: Sequence[Tombstone],
                   denied: Callable[[str], bool] | None = None) -> Filtered:
    """Drop what a tombstone covers and, with `denied`, actions on denied paths (and blobs
    named after one); blobs no kept action of the segment refers to go with them."""
    from ..schema import event_paths

    out = Filtered([])
    kept_events: dict[int, list[dict[str, Any]]] = {}
    for r in records:
        if r["type"] == "session" and any(t.covers_session(r["session"]) for t in tombstones):
            out.dropped_sessions.add(r["session"]["id"])
    referenced: set[str] = set()
    for i, r in enumerate(records):
        if r["type"] != "actions":
            continue
        keep = []
        for ev in r["events"]:
            if (r["session"] in out.dropped_sessions or covers_event(tombstones, ev)
                    or (denied is not None and any(denied(p) for p in event_paths(ev)))):
                out.dropped_events += 1
                continue
            keep.append(ev)
            referenced |= referenced_hashes(ev)
        kept_events[i] = keep
    for i, r in enumerate(records):
        kind = r["type"]
        if kind == "session" and r["session"]["id"] in out.dropped_sessions:
            continue
        if kind == "blob":
            path = r.get("original_path")
            if (r["hash"] not in referenced or any(t.covers_blob_path(path) for t in tombstones)
                    or (denied is not None and path and denied(path))):
                out.dropped_blobs += 1
                continue
        if kind == "actions":
            if not kept_events[i]:
                continue
            r = {**r, "events": kept_events[i]}
        out.records.append(r)
    return out
