"""One sync: read the other devices' logs, replay their forgets, purge what was forgotten
from this device's own log, then append what is new here.

Reading comes first, so a forget made elsewhere is known before anything is sent. Each
remote segment is applied in one transaction together with the number of the last segment
applied, so a crash, a replayed log or a second run never applies anything twice; a segment
that does not open yet (half-copied, truncated, damaged) stops that device's log there with a
warning and is read again on the next sync, which is also how a device that was offline for
weeks catches up: in order, from where it stopped.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import FileGramError
from ..forget import ForgetError, forget, leave_no_copy, scrub_outside
from ..privacy import PathFilter
from ..scrub import needles_for, scrub_logs
from ..store import now_ms
from ..tables import ForgetScope, rebuilders
from . import tables as sync_tables
from . import tombstones as tb
from .devices import local_device_name
from .errors import DamagedFileError, SyncError
from .inbox import Received, apply_records
from .keys import create_key, key_id, load_key
from .layout import SharedFolder, new_device_id
from .lock import sync_lock
from .outbox import mark_sent, outgoing
from .payload import decode, encode, filter_records
from .seal import HEADER, aesgcm, open_segment, read_header, seal_segment

if TYPE_CHECKING:
    from ..config import Config, Home
    from ..store import Store

NEXT_SEGMENT_KEY = "sync:next_segment"
BASE_KEY = "sync:generation_base"
LAST_RUN_KEY = "sync:last_run_ms"
LAST_REPORT_KEY = "sync:last_report"
APPLIED_PREFIX = "sync:applied:"
FORMAT = 1


@dataclass
class SyncReport:
    shared: str
    device: str
    device_id: str = ""
    created_key: bool = False
    regenerated: bool = False
    segments_written: int = 0
    sessions_sent: int = 0
    actions_sent: int = 0
    blobs_sent: int = 0
    forgets_sent: int = 0
    withheld: int = 0
    received: Received = field(default_factory=Received)
    segments_read: int = 0
    forgets_applied: int = 0
    segments_compacted: int = 0
    waiting: int = 0
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> dict[str, Any]:
        r = self.received
        return {
            "sent": {"segments": self.segments_written, "sessions": self.sessions_sent, "actions": self.actions_sent,
                     "blobs": self.blobs_sent, "forgets": self.forgets_sent, "withheld": self.withheld},
            "received": {"segments": self.segments_read, "sessions": r.sessions, "actions": r.actions, "blobs": r.blobs,
                         "forgets": r.tombstones, "devices": sorted(r.devices)},
            "forgets_applied": self.forgets_applied, "segments_compacted": self.segments_compacted,
            "waiting": self.waiting, "warnings": list(self.warnings),
        }

    def as_dict(self) -> dict[str, Any]:
        """What `filegram sync --json` prints (and the daemon's API returns)."""
        return {"shared": self.shared, "device": self.device, "created_key": self.created_key,
                **self.summary(), "seconds": round(self.seconds, 3)}


def run_sync(home: Home, config: Config, store: Store, shared: str | Path | None = None, *,
             warn: Callable[[str], None] | None = None,
             forgetting: Callable[[], AbstractContextManager[Any]] | None = None) -> SyncReport:
    """Sync this home's store through the shared folder (argument, else `[sync] dir`).
    `forgetting()` is held while forgets from other devices are replayed (the daemon pauses
    its recorder and holds memory, as for a forget of its own)."""
    target = shared or str(config["sync"]["dir"]).strip()
    if not target:
        raise SyncError("say which folder to sync through: filegram sync --dir SHARED, or set [sync] dir")
    folder = SharedFolder(target).ensure()
    aesgcm(bytes(32))  # the extra is installed, or one clear line now
    store.migrate(sync_tables.NAMESPACE)
    t0 = time.monotonic()
    report = SyncReport(shared=str(folder.path), device=local_device_name(config))

    def note(msg: str) -> None:
        report.warnings.append(msg)
        if warn is not None:
            warn(msg)

    with sync_lock(home):
        device_id = store.get_state(tb.DEVICE_ID_KEY)
        others = [d for d in folder.device_ids() if d != device_id]
        key = load_key(home)
        if key is None:
            if any(folder.segments(d) for d in others):
                raise SyncError(f"{folder.path} already holds other devices' sync logs: import their key first "
                                "(`filegram sync key import KEY`, with the last line of `filegram sync key show` there)")
            key = create_key(home)
            report.created_key = True
        if not device_id:
            device_id = new_device_id()
            while device_id in others:
                device_id = new_device_id()
            store.set_state(tb.DEVICE_ID_KEY, device_id)
        report.device_id = device_id
        denied = PathFilter.from_config(config).denied
        base, next_n = _prepare_own_log(store, folder, key, device_id, report)
        for dev in others:
            _receive(store, folder, key, device_id, dev, denied, report, note)
        _replay_forgets(store, config, home, key, report, note, forgetting)
        _compact_own_log(store, folder, key, device_id, denied, report, note)
        _send(store, folder, key, device_id, report.device, denied, base, next_n, report)
        report.seconds = time.monotonic() - t0
        with store.transaction():
            store.write_state(LAST_RUN_KEY, now_ms())
            store.write_state(LAST_REPORT_KEY, report.summary())
    return report


def _read_head(path: Path) -> bytes:
    with open(path, "rb") as fh:
        return fh.read(HEADER.size)


def _prepare_own_log(store: Store, folder: SharedFolder, key: bytes, device_id: str,
                     report: SyncReport) -> tuple[int, int]:
    """(generation base, next segment number). This device's log is written again from the
    start when its segments were sealed with an earlier key (after `sync key import`) or
    when the shared folder no longer holds what this device sent (a new folder)."""
    own = folder.segments(device_id)
    next_n = int(store.get_state(NEXT_SEGMENT_KEY, 1))
    if own:
        next_n = max(next_n, own[-1][0] + 1)  # a segment written just before a crash keeps its number
    kid = key_id(key)
    stale = False
    for _n, path in own:
        try:
            header = read_header(_read_head(path))
        except OSError:
            header = None
        if header is None or header.key_id != kid:
            stale = True
            break
    sent_before = store.conn.execute("SELECT 1 FROM sync_sent_sessions LIMIT 1").fetchone() is not None or \
        store.conn.execute("SELECT 1 FROM sync_tombstones WHERE sent = 1 AND origin = ? LIMIT 1", (device_id,)).fetchone() is not None
    base = int(store.get_state(BASE_KEY, 1))
    if stale or (not own and sent_before):
        for _n, path in own:
            folder.remove_segment(path)
        base = next_n
        with store.transaction():
            store.conn.execute("DELETE FROM sync_sent_sessions")
            store.conn.execute("DELETE FROM sync_sent_blobs")
            store.conn.execute("UPDATE sync_tombstones SET sent = 0 WHERE origin = ?", (device_id,))
            store.write_state(BASE_KEY, base)
        report.regenerated = True
    store.set_state(NEXT_SEGMENT_KEY, next_n)
    return base, next_n


def _receive(store: Store, folder: SharedFolder, key: bytes, device_id: str, dev: str,
             denied: Callable[[str], bool], report: SyncReport, note: Callable[[str], None]) -> None:
    applied_key = APPLIED_PREFIX + dev
    applied = int(store.get_state(applied_key, 0))
    for n, path in folder.segments(dev):
        if n <= applied:
            continue
        where = str(path.relative_to(folder.path))
        try:
            data = path.read_bytes()
        except OSError as exc:
            note(f"{where}: cannot read it yet ({exc.strerror or exc}); trying again on the next sync")
            report.waiting += 1
            return
        header = read_header(data)
        if header is not None and header.key_id == key_id(key) and not (n == applied + 1 or (header.base == n and n > applied)):
            note(f"{where}: waiting for the segments before it to arrive; trying again on the next sync")
            report.waiting += 1
            return
        try:
            _header, payload = open_segment(key, data, device_id=dev, number=n, where=where)
            records = decode(payload, where)
        except DamagedFileError as exc:
            note(f"{exc}; skipped, trying again on the next sync")
            report.waiting += 1
            return
        try:
            with store.transaction():
                new_forgets = 0
                for r in records:
                    if r["type"] == "tombstone":
                        t = tb.Tombstone.from_record(r)
                        if t.origin != device_id and tb.save(store, key, t, sent=True, applied=False):
                            new_forgets += 1
                kept = filter_records(records, tb.load(store, key), denied)
                got = apply_records(store, kept.records)
                store.write_state(applied_key, n)
        except (FileGramError, KeyError, TypeError, ValueError) as exc:
            # sealed with our key, yet not what this FileGram can store: nothing of it is kept
            note(f"{where}: cannot apply it ({exc}); skipped, trying again on the next sync")
            report.waiting += 1
            return
        got.tombstones += new_forgets
        report.received.add(got)
        applied = n
        report.segments_read += 1


def _replay_forgets(store: Store, config: Config, home: Home, key: bytes, report: SyncReport,
                    note: Callable[[str], None],
                    forgetting: Callable[[], AbstractContextManager[Any]] | None) -> None:
    """Forgets received from other devices, replayed here through the core's forget, and
    then, as a forget made here does: memory rebuilt, no copy left in the file, backups,
    logs and known exports scrubbed (filegram.scrub)."""
    pending = tb.load(store, key, "WHERE applied = 0")
    if not pending:
        return
    with forgetting() if forgetting is not None else contextlib.nullcontext():
        for t in pending:
            try:
                with tb.applying_remote():
                    forget(store, config, rebuild_memory=False, **t.forget_arguments())
            except ForgetError as exc:
                note(f"a forget from another device does not apply here: {exc}")
            with store.transaction():
                store.conn.execute("UPDATE sync_tombstones SET applied = 1 WHERE id = ?", (t.id,))
                store.write_state(tb.COMPACT_KEY, True)
            report.forgets_applied += 1
        for rebuild in rebuilders().values():
            rebuild(store, config)
        warning = leave_no_copy(store)  # what the rebuild replaced, too
        if warning:
            note(warning)
        scopes = [ForgetScope(t.path_glob, t.since_ms, t.until_ms, t.everything) for t in pending]
        for scope in scopes[:-1]:
            scrub_logs(home.log_dir, everything=scope.everything, needles=needles_for((), scope.path_glob),
                       since_ms=scope.since_ms, until_ms=scope.until_ms)
        scrub_outside(store, config, home, scopes[-1])  # logs, and backups and exports once


def _compact_own_log(store: Store, folder: SharedFolder, key: bytes, device_id: str,
                     denied: Callable[[str], bool], report: SyncReport, note: Callable[[str], None]) -> None:
    """After a forget (here or received), this device's own segments are written again
    without what was forgotten, so the shared folder keeps none of it."""
    if not store.get_state(tb.COMPACT_KEY, False):
        return
    tombs = tb.load(store, key)
    for n, path in folder.segments(device_id):
        where = str(path.relative_to(folder.path))
        try:
            header, payload = open_segment(key, path.read_bytes(), device_id=device_id, number=n, where=where)
            records = decode(payload, where)
        except (OSError, DamagedFileError) as exc:
            note(f"cannot purge {where}: {exc}")
            continue
        kept = filter_records(records, tombs, denied)
        if kept.dropped_events or kept.dropped_sessions or kept.dropped_blobs:
            folder.write_segment(device_id, n, seal_segment(key, encode(kept.records), device_id=device_id,
                                                            number=n, base=header.base))
            report.segments_compacted += 1
    store.set_state(tb.COMPACT_KEY, False)


def _send(store: Store, folder: SharedFolder, key: bytes, device_id: str, device_name: str,
          denied: Callable[[str], bool], base: int, next_n: int, report: SyncReport) -> None:
    for batch in outgoing(store, key, device_id, device_name, denied):
        report.withheld += batch.withheld
        if not batch.records:
            with store.transaction():
                mark_sent(store, batch)
            continue
        head = {"type": "segment", "format": FORMAT, "device": device_name, "number": next_n, "created_ms": now_ms()}
        data = seal_segment(key, encode([head, *batch.records]), device_id=device_id, number=next_n, base=base)
        folder.write_segment(device_id, next_n, data)
        with store.transaction():
            mark_sent(store, batch)
            store.write_state(NEXT_SEGMENT_KEY, next_n + 1)
        next_n += 1
        report.segments_written += 1
        report.sessions_sent += batch.session_records
        report.actions_sent += batch.actions
        report.blobs_sent += len(batch.blobs)
        report.forgets_sent += len(batch.tombstones)
