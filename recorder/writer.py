"""The recorder's write path: actions, the content they refer to and the recorder's file
state go to the store together, one transaction per batch, so a crash loses at most the
last unwritten batch and never half of one.

Batches grow under load and are written at once when the worker has caught up: low
latency at human pace, few transactions (each one an fsync) during a burst. A full disk
pauses writing (what was observed is kept, bounded) and says so once.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from filegram.schema import Action, TraceError, new_event_id
from filegram.store import DiskFullError, Store, now_ms

from .output import Output
from .state import FileState

log = logging.getLogger(__name__)

DISK_FULL_RETRY_S = 2.0
WRITE_RETRY_S = 0.2


class BatchWriter:
    def __init__(self, store: Store, *, profile_id: str | None, max_actions: int, max_seconds: float,
                 max_pending: int):
        self.store = store
        self.profile_id = profile_id
        self.max_actions = max(int(max_actions), 1)
        self.max_ms = float(max_seconds) * 1000.0
        self.max_pending = max_pending
        self.stored = 0
        self.errors = 0
        self.disk_full = False
        self.last_stored_ms: float | None = None
        self.measure_latency = False
        self.latencies: list[float] = []  # ms from an action to its write, when measured
        self._batch: list[dict[str, Any]] = []
        self._updates: dict[str, list[str]] = {}  # search event_id -> files_opened_after
        self._started = 0.0

    def __len__(self) -> int:
        return len(self._batch)

    def add(self, events: list[dict[str, Any]], session_id: str) -> None:
        """Actions of the session, completed with the trace's common fields."""
        if not events:
            return
        if not self._batch:
            self._started = now_ms()
        for ev in events:
            event_id = ev.pop("event_id", None) or new_event_id()
            etype, ts = ev.pop("event_type"), ev.pop("timestamp")
            action = Action(etype, session_id, ts, ev, event_id, profile_id=self.profile_id)
            self._batch.append(action.to_event())

    def add_updates(self, updates: dict[str, list[str]]) -> None:
        """files_opened_after of searches already stored, to be set in place."""
        self._updates.update(updates)
        if self._updates and not self._batch:
            self._started = now_ms()

    def due(self, now: float, *, caught_up: bool) -> bool:
        return bool(self._batch or self._updates) and (
            len(self._batch) >= self.max_actions or now - self._started >= self.max_ms or caught_up
        )

    def write(self, output: Output, state: FileState) -> None:
        """The batch, the content its actions refer to (from the interpreter's output) and
        the file state's pending changes, in one transaction."""
        if not self._batch and not output.blobs and not state.pending_writes and not self._updates:
            return
        updates, self._updates = self._updates, {}
        batch, self._batch = self._batch, []
        blobs = output.take_blobs()
        try:
            with self.store.transaction():
                seen: set[bytes] = set()
                for content, kind, rel in blobs:
                    key = kind.encode() + content[:64] + len(content).to_bytes(8, "little")
                    if key in seen:
                        continue
                    seen.add(key)
                    self.store.put_blob(content, kind=kind, original_path=rel)
                added = self.store.add_actions(batch)
                for event_id, opened in updates.items():
                    # a search is stored at once; reads that follow it are added here
                    self.store.conn.execute(
                        "UPDATE actions SET data = json_set(data, '$.files_opened_after', json(?)) "
                        "WHERE event_type = 'file_search' AND event_id = ?",  # the type index finds it
                        (json.dumps(opened, ensure_ascii=False), event_id),
                    )
                state.write_pending()
        except TraceError:
            self.errors += 1
            log.exception("recorder: an action did not validate; storing the others")
            added = 0
            for ev in batch:
                try:
                    added += self.store.add_actions([ev])
                except TraceError:
                    self.errors += 1
        except DiskFullError as exc:
            # Pause writing, keep what was observed (bounded), say so once, retry slowly.
            if not self.disk_full:
                self.disk_full = True
                log.warning("recorder: %s; will resume when space returns", exc)
            self._batch = (batch + self._batch)[-self.max_pending :]
            output.put_back_blobs(blobs, self.max_pending)
            self._updates = {**updates, **self._updates}
            time.sleep(DISK_FULL_RETRY_S)
            return
        except Exception:
            self.errors += 1
            log.exception("recorder: could not write a batch; retrying with the next one")
            self._batch = batch + self._batch
            output.put_back_blobs(blobs)
            self._updates = {**updates, **self._updates}
            time.sleep(WRITE_RETRY_S)
            return
        if self.disk_full:
            self.disk_full = False
            log.warning("recorder: space is back, recording resumed")
        self.stored += added
        if added:
            self.last_stored_ms = now_ms()
            if self.measure_latency:
                t = self.last_stored_ms
                self.latencies.extend(t - ev["timestamp"] for ev in batch)
