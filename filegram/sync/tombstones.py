"""Tombstones: a forget on one device, replayed on the others.

`filegram forget` (and the dashboard's forget) reach this module through the core's table
registry: the sync_tombstones rule is "custom", so forget hands it the scope it just erased
and a tombstone is recorded in the same transaction, without the core knowing about sync.
A tombstone names what it forgot, so its scope is kept sealed with the sync key in the
database (a byte scan of the file finds no forgotten path) and travels sealed in the log.

A tombstone forgets what existed when it was made: actions before its time (`at_ms`) that
match its path glob or time range, so what the user does later on another device is kept,
as `forget` keeps what is recorded after it on this one.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import math
import uuid
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from ..forget import path_matches, query_names
from ..schema import event_paths
from ..store import now_ms
from .seal import open_small, seal_small

if TYPE_CHECKING:
    from ..store import Store
    from ..tables import ForgetScope

log = logging.getLogger(__name__)

DEVICE_ID_KEY = "sync:device_id"
COMPACT_KEY = "sync:compact_pending"

# Set while a tombstone from another device is being applied: that forget is not a new one.
_APPLYING_REMOTE: contextvars.ContextVar[bool] = contextvars.ContextVar("filegram_sync_applying", default=False)


@contextlib.contextmanager
def applying_remote() -> Iterator[None]:
    token = _APPLYING_REMOTE.set(True)
    try:
        yield
    finally:
        _APPLYING_REMOTE.reset(token)


@dataclass(frozen=True)
class Tombstone:
    id: str
    origin: str  # the device id that forgot
    at_ms: float
    path_glob: str | None = None
    since_ms: float | None = None
    until_ms: float | None = None
    everything: bool = False

    # -- what it covers -------------------------------------------------------------

    def _in_range(self, ts: float) -> bool:
        if ts >= self.at_ms:
            return False
        if self.since_ms is not None and ts < self.since_ms:
            return False
        return not (self.until_ms is not None and ts >= self.until_ms)

    def covers_event(self, ev: Mapping[str, Any]) -> bool:
        ts = float(ev.get("timestamp") or 0)
        if self.everything:
            return ts < self.at_ms
        if not self._in_range(ts):
            return False
        if self.path_glob is None:
            return True
        # as the core's forget: a search naming no path goes when its query names the glob
        return any(path_matches(p, self.path_glob) for p in event_paths(ev)) or query_names(dict(ev), self.path_glob)

    def covers_session(self, sess: Mapping[str, Any]) -> bool:
        """The session itself is gone (forget --all, or a time range around all of it)."""
        started = sess.get("started_ms")
        if started is None:
            return False
        if self.everything:
            return float(started) < self.at_ms
        if self.path_glob is not None:
            return False
        ended = sess.get("ended_ms") if sess.get("ended_ms") is not None else started
        lo = self.since_ms if self.since_ms is not None else -math.inf
        hi = min(self.until_ms if self.until_ms is not None else math.inf, self.at_ms)
        return float(started) >= lo and float(ended) < hi

    def covers_blob_path(self, original_path: str | None) -> bool:
        return bool(original_path and self.path_glob is not None and path_matches(original_path, self.path_glob))

    def forget_arguments(self) -> dict[str, Any]:
        """The core forget() that replays this tombstone here: what existed at `at_ms`."""
        if self.everything:
            return {"until_ms": self.at_ms}
        until = min(self.until_ms if self.until_ms is not None else math.inf, self.at_ms)
        return {"path_glob": self.path_glob, "since_ms": self.since_ms, "until_ms": until}

    # -- as data --------------------------------------------------------------------

    def scope(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if k not in ("id", "origin", "at_ms")}

    def record(self) -> dict[str, Any]:
        return {"type": "tombstone", **asdict(self)}

    @classmethod
    def from_record(cls, rec: Mapping[str, Any]) -> Tombstone:
        def num(v: Any) -> float | None:
            return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else None

        glob = rec.get("path_glob")
        return cls(str(rec["id"]), str(rec["origin"]), float(rec["at_ms"]),
                   glob if isinstance(glob, str) else None, num(rec.get("since_ms")), num(rec.get("until_ms")),
                   bool(rec.get("everything")))


def covers_event(tombstones: Iterable[Tombstone], ev: Mapping[str, Any]) -> bool:
    return any(t.covers_event(ev) for t in tombstones)


# -- kept in the database, sealed ----------------------------------------------------------


def _context(tid: str) -> bytes:
    return b"filegram sync tombstone " + tid.encode("utf-8")


def save(store: Store, key: bytes, t: Tombstone, *, sent: bool, applied: bool) -> bool:
    """Keep a tombstone (once: its id is unique). Returns True when it was new."""
    sealed = seal_small(key, json.dumps(t.scope()).encode("utf-8"), _context(t.id))
    cur = store.conn.execute(
        "INSERT OR IGNORE INTO sync_tombstones(id, origin, at_ms, scope, sent, applied) VALUES (?, ?, ?, ?, ?, ?)",
        (t.id, t.origin, t.at_ms, sealed, int(sent), int(applied)),
    )
    return cur.rowcount > 0


def load(store: Store, key: bytes, where: str = "", args: tuple[Any, ...] = ()) -> list[Tombstone]:
    """The tombstones kept here (optionally those matching a WHERE clause), oldest first."""
    out = []
    for tid, origin, at_ms, sealed in store.conn.execute(
        f"SELECT id, origin, at_ms, scope FROM sync_tombstones {where} ORDER BY at_ms, id", args
    ):
        raw = open_small(key, sealed, _context(tid))
        if raw is None:
            log.warning("sync: tombstone %s does not open with this key; skipped", tid)
            continue
        out.append(Tombstone.from_record({"id": tid, "origin": origin, "at_ms": at_ms, **json.loads(raw)}))
    return out


def reseal(store: Store, old_key: bytes, new_key: bytes) -> int:
    """After `sync key import`: the same tombstones under the new key, to be sent again."""
    kept = load(store, old_key)
    with store.transaction():
        for t in kept:
            sealed = seal_small(new_key, json.dumps(t.scope()).encode("utf-8"), _context(t.id))
            store.conn.execute("UPDATE sync_tombstones SET scope = ?, sent = 0 WHERE id = ?", (sealed, t.id))
    return len(kept)


def record_local_forget(store: Store, scope: ForgetScope) -> int:
    """The table registry's forget hook: this device forgot `scope`; keep a tombstone to send.
    Nothing happens on a device that never synced, nor for a tombstone being replayed here.
    Returns the rows deleted (none: tombstones are what forgetting leaves behind)."""
    if _APPLYING_REMOTE.get() or store.in_memory:
        return 0
    device_id = store.get_state(DEVICE_ID_KEY)
    if not device_id:
        return 0
    from ..config import Home
    from .errors import SyncError
    from .keys import load_key

    try:
        key = load_key(Home(store.path.parent))
    except SyncError as exc:
        key = None
        log.warning("sync: %s", exc)
    if key is None:
        log.warning("sync: no sync key in %s: this forget is not sent to the other devices", store.path.parent)
        return 0
    t = Tombstone(uuid.uuid4().hex, str(device_id), now_ms(), scope.path_glob, scope.since_ms, scope.until_ms,
                  scope.everything)
    save(store, key, t, sent=False, applied=True)
    store.write_state(COMPACT_KEY, True)
    return 0
