"""The daemon's housekeeping: orphaned sessions, snapshot retention, integrity and backups.

Each job is a plain function over a Store so the scheduler, tests and a user at a Python
prompt all run the same code. None of them deletes an action: retention drops only the
content snapshots of old sessions, and a backup is taken only of a database that passed
its integrity check (a corrupt copy would push out the last good one).
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

from filegram.scrub import take_backup
from filegram.store import Store

log = logging.getLogger(__name__)

MEDIA_KEYS = ("media_ref", "media_ref_old", "media_ref_new", "media_ref_diff")
HASH_KEYS = ("before_hash", "after_hash")


def close_orphaned_sessions(store: Store, *, source: str = "recorder", keep: set[str] | None = None,
                            run_dir: Path | None = None) -> list[str]:
    """Close sessions a dead daemon left open (kill -9, power loss) so memory can use them,
    marked closed_reason "crash". A session whose recorder still runs (a `filegram record`
    of this home, see recorder/instances.py) is not an orphan and stays open.

    The session ends at its last stored action: nothing after it was committed.
    """
    from filegram.recorder.instances import instance_alive

    keep = keep or set()
    closed = []
    for s in store.sessions(closed=False, source=source):
        if s["id"] in keep:
            continue
        if instance_alive(run_dir, (s.get("metadata") or {}).get("recorder_instance")):
            continue
        store.close_session(s["id"], reason="crash")
        closed.append(s["id"])
    if closed:
        log.info("closed %d session(s) left open by an earlier run", len(closed))
    return closed


def _hashes_of(data: str) -> set[str]:
    ev = json.loads(data)
    out = set()
    for key in MEDIA_KEYS:
        ref = ev.get(key)
        if isinstance(ref, dict) and isinstance(ref.get("hash"), str):
            out.add(ref["hash"])
    for key in HASH_KEYS:
        if isinstance(ev.get(key), str):
            out.add(ev[key])
    return out


def apply_retention(store: Store, days: float, *, now_ms: float | None = None) -> int:
    """Drop content snapshots older than `days` that no newer action refers to.

    0 days keeps everything. The actions themselves (paths, counts, hashes) stay, so the
    behavioural memory is unchanged; only the stored text goes. Returns blobs removed.
    """
    if days <= 0:
        return 0
    now = now_ms if now_ms is not None else time.time() * 1000.0
    cutoff = now - days * 86_400_000.0
    recent: set[str] = set()
    for (data,) in store.conn.execute(
        "SELECT data FROM actions WHERE event_type IN ('file_write', 'file_edit') AND ts >= ?",
        (cutoff,),
    ):
        recent |= _hashes_of(data)
    doomed = [
        h
        for (h,) in store.conn.execute("SELECT hash FROM blobs WHERE created_ms < ?", (cutoff,))
        if h not in recent
    ]
    with store.transaction() as conn:
        for i in range(0, len(doomed), 500):
            chunk = doomed[i : i + 500]
            conn.execute(f"DELETE FROM blobs WHERE hash IN ({','.join('?' * len(chunk))})", chunk)
    if doomed:
        log.info("retention: removed %d snapshot(s) older than %g days", len(doomed), days)
    return len(doomed)


def check_and_backup(store: Store, backup_dir: Path, keep: int) -> dict[str, Any]:
    """Run SQLite's integrity check; when it passes, back up and keep the newest `keep`."""
    started = time.time()
    result = store.integrity_check()
    out: dict[str, Any] = {"integrity": result, "checked_ms": started * 1000.0, "backup": None}
    if result != "ok":
        log.error("database integrity check failed: %s (no backup taken)", result)
        return out
    if keep <= 0:
        return out
    dest = take_backup(store, Path(backup_dir), keep, started=started)  # the naming forget rewrites
    out["backup"] = str(dest)
    log.info("integrity ok; backup written to %s", dest)
    return out
