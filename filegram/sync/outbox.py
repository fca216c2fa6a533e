"""What this device sends: its closed sessions (recorded or imported here, never ones it
received), their actions and blobs, and its forgets; each only once.

Sessions are sent when closed, as memory learns only from closed sessions; a session whose
fields change later (a label, a mark) is sent again, and actions added to it later follow.
Batches are cut at about SEGMENT_TARGET_BYTES so one segment stays a file a sync client
copies in seconds, and each batch's progress is committed with its segment.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..schema import event_paths
from ..store.queries import event_from_row
from . import tombstones as tb
from .devices import referenced_hashes
from .payload import blob_record, session_record

if TYPE_CHECKING:
    from ..store import Store

SEGMENT_TARGET_BYTES = 8 << 20
ACTIONS_PER_RECORD = 2000


@dataclass
class Batch:
    records: list[dict[str, Any]] = field(default_factory=list)
    sessions: list[tuple[str, str, int]] = field(default_factory=list)  # (id, fields hash, sent up to seq)
    blobs: list[str] = field(default_factory=list)
    tombstones: list[str] = field(default_factory=list)
    actions: int = 0
    withheld: int = 0  # actions on paths now denied here: they never leave the device
    size: int = 0

    def add(self, record: dict[str, Any]) -> None:
        self.records.append(record)
        self.size += len(json.dumps(record, ensure_ascii=False))

    @property
    def session_records(self) -> int:
        return sum(1 for r in self.records if r["type"] == "session")


def fields_hash(record: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(record, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()[:32]


def outgoing(store: Store, key: bytes, device_id: str, device_name: str,
             denied: Callable[[str], bool]) -> Iterator[Batch]:
    batch = Batch()
    for t in tb.load(store, key, "WHERE sent = 0 AND origin = ?", (device_id,)):
        batch.add(t.record())
        batch.tombstones.append(t.id)
    sent = {sid: (h, seq) for sid, h, seq in store.conn.execute(
        "SELECT session_id, fields_hash, max_seq FROM sync_sent_sessions")}
    sent_blobs = {h for (h,) in store.conn.execute("SELECT hash FROM sync_sent_blobs")}
    rows = store.conn.execute(
        "SELECT s.id, s.sn, (SELECT MAX(a.seq) FROM actions a WHERE a.session_sn = s.sn) FROM sessions s "
        "WHERE s.closed = 1 AND s.device IS NULL ORDER BY s.started_ms, s.id"
    ).fetchall()
    for sid, sn, max_seq in rows:
        session = store.session(sid)
        if session is None:
            continue
        record = session_record(session, device_name)
        h = fields_hash(record)
        prev_hash, prev_seq = sent.get(sid, (None, 0))
        if prev_hash == h and prev_seq >= (max_seq or 0):
            continue
        if prev_hash != h:
            batch.add(record)
        upto = prev_seq
        cur = store.conn.execute(
            "SELECT a.seq, a.event_id, a.event_type, a.ts, a.data FROM actions a WHERE a.session_sn = ? AND a.seq > ? "
            "ORDER BY a.ts, a.seq", (sn, prev_seq))
        while True:
            chunk = cur.fetchmany(ACTIONS_PER_RECORD)
            if not chunk:
                break
            events = []
            for seq, event_id, etype, ts, data in chunk:
                upto = max(upto, seq)
                ev = event_from_row(event_id, etype, ts, sid, data)
                if any(denied(p) for p in event_paths(ev)):
                    batch.withheld += 1
                    continue
                events.append(ev)
            for ev in events:
                for ref in sorted(referenced_hashes(ev) - sent_blobs):
                    info = store.blob_info(ref)
                    content = store.get_blob(ref) if info else None
                    if info is None or content is None or (info["original_path"] and denied(info["original_path"])):
                        continue
                    batch.add(blob_record(ref, info["kind"], info["original_path"], content))
                    batch.blobs.append(ref)
                    sent_blobs.add(ref)
            if events:
                batch.add({"type": "actions", "session": sid, "events": events})
                batch.actions += len(events)
            if batch.size >= SEGMENT_TARGET_BYTES:
                batch.sessions.append((sid, h, upto))
                yield batch
                batch = Batch()
        batch.sessions.append((sid, h, max(upto, max_seq or 0)))
    if batch.records or batch.sessions:
        yield batch


def mark_sent(store: Store, batch: Batch) -> None:
    """Inside the caller's transaction: what this batch's segment now holds."""
    conn = store.conn
    conn.executemany(
        "INSERT INTO sync_sent_sessions(session_id, fields_hash, max_seq) VALUES (?, ?, ?) "
        "ON CONFLICT(session_id) DO UPDATE SET fields_hash = excluded.fields_hash, max_seq = excluded.max_seq",
        batch.sessions)
    conn.executemany("INSERT OR IGNORE INTO sync_sent_blobs(hash) VALUES (?)", [(h,) for h in batch.blobs])
    conn.executemany("UPDATE sync_tombstones SET sent = 1 WHERE id = ?", [(t,) for t in batch.tombstones])
