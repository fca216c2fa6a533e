"""Applying another device's records to this store (inside the caller's transaction).

A session keeps the device it came from. A session id this store already holds as its own
(both devices imported the same trajectory) stays as it is here; its actions are the same
events and are stored once. Actions whose session was forgotten here are not stored again.

What arrives passes through this FileGram's redaction layer (filegram.redact) like an import:
the sender redacted it already (redacting twice changes nothing), but a device with newer
rules must not store a secret an older one missed. A blob whose content changes under
redaction is stored under its new content address and the segment's references follow.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..redact import redact, redact_bytes, redact_event, redact_json, redact_path
from ..schema import MEDIA_FIELDS
from ..store import content_hash
from .payload import blob_content

if TYPE_CHECKING:
    from ..store import Store

UPDATABLE = ("source", "label", "profile_id", "task_id", "root", "started_ms", "ended_ms", "closed", "metadata")


@dataclass
class Received:
    sessions: int = 0
    actions: int = 0
    blobs: int = 0
    tombstones: int = 0
    devices: set[str] = field(default_factory=set)

    def add(self, other: Received) -> None:
        self.sessions += other.sessions
        self.actions += other.actions
        self.blobs += other.blobs
        self.tombstones += other.tombstones
        self.devices |= other.devices


def redacted_event(ev: dict[str, Any], rekeyed: dict[str, str]) -> dict[str, Any]:
    ev = redact_event(dict(ev))
    for name in MEDIA_FIELDS.get(ev.get("event_type", ""), ()):
        ref = ev.get(name)
        if isinstance(ref, dict) and ref.get("hash") in rekeyed:
            new_h = rekeyed[ref["hash"]]
            folder, ext = ("diffs", "diff") if name.endswith("_diff") else ("blobs", "blob")
            ev[name] = {**ref, "hash": new_h, "path": f"media/{folder}/{new_h}.{ext}"}
    return ev


def apply_records(store: Store, records: Sequence[dict[str, Any]]) -> Received:
    got = Received()
    rekeyed: dict[str, str] = {}  # content address sent -> address stored (after redaction)
    for r in records:
        kind = r["type"]
        if kind == "session":
            s = dict(r["session"])
            s["label"] = redact(s["label"]) if isinstance(s.get("label"), str) else s.get("label")
            s["root"] = redact_path(s["root"]) if isinstance(s.get("root"), str) else s.get("root")
            s["metadata"] = redact_json(s.get("metadata") or {})
            sid = str(s["id"])
            device = str(r.get("device") or "another device")
            existing = store.session(sid)
            if existing is not None and existing.get("device") is None:
                continue  # this device's own session under the same id
            if existing is None:
                store.open_session(sid, source=s.get("source") or "sync", started_ms=s.get("started_ms"),
                                   label=s.get("label"), profile_id=s.get("profile_id"), task_id=s.get("task_id"),
                                   root=s.get("root"), metadata=s.get("metadata") or {})
                got.sessions += 1
            fields = {k: s.get(k) for k in UPDATABLE}
            fields["closed"] = int(bool(fields["closed"]))
            fields["metadata"] = fields["metadata"] or {}
            fields["source"] = fields["source"] or "sync"
            store.update_session(sid, **fields, device=device)
            got.devices.add(device)
        elif kind == "blob":
            h = str(r["hash"])
            content = blob_content(r)
            red = redact_bytes(content)
            if red != content:
                rekeyed[h] = h = content_hash(red)
            if not store.has_blob(h):
                original = r.get("original_path")
                store.put_blob(red, kind=str(r.get("kind") or "blob"),
                               original_path=redact_path(original) if isinstance(original, str) else None, hash_=h)
                got.blobs += 1
        elif kind == "actions":
            if store.session(str(r["session"])) is None:
                continue  # forgotten here, or dropped by a tombstone
            got.actions += store.add_actions([redacted_event(ev, rekeyed) for ev in r["events"]], validate=True)
    return got
