"""A recorder that dies is restarted with backoff, the failure is visible, and the daemon gives
up loudly instead of flapping; housekeeping keeps backups and drops only old snapshots.

The dying recorder is a small stand-in: a real Recorder cannot be made to crash on cue. It
runs under the real supervisor and the real health verdict."""

from __future__ import annotations

import sqlite3
import threading
import time

from daemon_harness import wait_for
from filegram.daemon.health import HealthInputs, assess
from filegram.daemon.maintenance import apply_retention, check_and_backup, close_orphaned_sessions
from filegram.daemon.supervisor import RecorderSupervisor

from filegram.schema import Action
from filegram.store import Store


class CrashingRecorder:
    """Runs a worker thread that dies after `life` seconds; start() fails when told to."""

    made = 0

    def __init__(self, life: float = 0.3, fail_start: bool = False):
        CrashingRecorder.made += 1
        self.life = life
        self.fail_start = fail_start
        self._worker: threading.Thread | None = None
        self._halt = threading.Event()
        self.stopped = False

    def start(self) -> None:
        if self.fail_start:
            raise OSError("inotify watch limit reached")
        self._worker = threading.Thread(target=self._halt.wait, args=(self.life,), daemon=True)
        self._worker.start()

    def flush(self, timeout: float = 5.0) -> bool:
        return True

    def stop(self) -> None:
        self.stopped = True
        self._halt.set()  # the worker ends with its recorder, not 60 s after the test

    def stats(self) -> dict:
        # claims to run, like a recorder whose flag outlived its thread
        return {"running": True, "last_activity_ms": None}


def test_dead_worker_is_restarted_with_backoff_then_given_up():
    CrashingRecorder.made = 0
    sup = RecorderSupervisor(lambda: CrashingRecorder(life=0.2), check_seconds=0.05,
                             backoff_initial=0.1, backoff_max=0.4, give_up_after=4,
                             window_seconds=60)
    sup.start()
    try:
        wait_for(lambda: sup.stats()["restarts"] >= 2, 10, what="two restarts")
        st = sup.stats()
        assert st["failures"] >= 2 and "worker thread died" in st["last_error"]
        state, warnings = assess(HealthInputs(
            paused=False, recorder_running=st["running"], recorder_started_ms=st["started_ms"],
            unstored_since_ms=None, stale_minutes=10, recorder_restarts_recent=st["restarts_recent"],
            recorder_last_error=st["last_error"], recorder_gave_up=st["gave_up"]))
        assert state == "warning" and any("recorder" in w for w in warnings)

        wait_for(lambda: sup.stats()["gave_up"], 15, what="giving up")
        made = CrashingRecorder.made
        time.sleep(0.5)
        assert CrashingRecorder.made == made  # no more restarts once given up
        st = sup.stats()
        state, warnings = assess(HealthInputs(
            paused=False, recorder_running=st["running"], recorder_started_ms=st["started_ms"],
            unstored_since_ms=None, stale_minutes=10, recorder_last_error=st["last_error"],
            recorder_gave_up=True))
        assert state == "warning" and "repeated failures" in warnings[0]

        sup.start()  # resume (or a user's retry) tries again from a clean slate
        assert not sup.stats()["gave_up"]
    finally:
        sup.shutdown()


def test_start_failure_is_retried_and_reported():
    attempts = []

    def factory():
        attempts.append(time.monotonic())
        return CrashingRecorder(fail_start=len(attempts) < 3, life=60)

    sup = RecorderSupervisor(factory, check_seconds=0.05, backoff_initial=0.2, backoff_max=1.0,
                             give_up_after=10)
    sup.start()
    try:
        wait_for(lambda: sup.stats()["running"], 10, what="the third attempt to start")
        st = sup.stats()
        assert st["failures"] == 2 and "inotify watch limit" in st["last_error"]
        gaps = [b - a for a, b in zip(attempts, attempts[1:], strict=False)]
        assert gaps[1] > gaps[0] * 1.5  # backoff grows
    finally:
        sup.shutdown()


def test_health_verdicts():
    base = dict(paused=False, recorder_running=True, recorder_started_ms=1.0,
                unstored_since_ms=None, stale_minutes=10, now_ms=1_000_000.0)
    assert assess(HealthInputs(**base)) == ("recording", [])
    assert assess(HealthInputs(**{**base, "paused": True}))[0] == "paused"
    state, warnings = assess(HealthInputs(**{**base, "unstored_since_ms": 1_000_000.0 - 12 * 60000}))
    assert state == "warning" and "12 min ago" in warnings[0]
    state, warnings = assess(HealthInputs(**{**base, "integrity": "*** page 3 is never used"}))
    assert state == "warning" and "integrity" in warnings[0]
    # paused but the database is damaged: the warning wins
    assert assess(HealthInputs(**{**base, "paused": True, "integrity": "bad"}))[0] == "warning"


def _write(store, sid, ts, content: bytes, path: str) -> str:
    h = store.put_blob(content, original_path=path)
    ev = Action.make("file_write", sid, ts, file_path=path, file_type="md", directory_depth=0,
                     operation="create", content_length=len(content), after_hash=h,
                     media_ref={"type": "blob", "hash": h, "path": f"media/blobs/{h}.blob"}).to_event()
    store.add_actions([ev])
    return h


def test_retention_backup_and_orphans(tmp_path):
    store = Store(tmp_path / "fg.db")
    now = time.time() * 1000
    old_sid = store.open_session(started_ms=now - 200 * 86400000)
    new_sid = store.open_session(started_ms=now)
    old_h = _write(store, old_sid, now - 200 * 86400000, b"old text", "old.md")
    shared = _write(store, old_sid, now - 199 * 86400000, b"shared text", "s.md")
    _write(store, new_sid, now, b"shared text", "s2.md")
    store.conn.execute("UPDATE blobs SET created_ms = ? WHERE hash IN (?, ?)",
                       (now - 199 * 86400000, old_h, shared))

    assert apply_retention(store, 0, now_ms=now) == 0  # 0 keeps everything
    assert apply_retention(store, 90, now_ms=now) == 1
    assert store.get_blob(old_h) is None
    assert store.get_blob(shared) == b"shared text"  # a newer action still needs it
    assert store.action_count() == 3  # actions are never deleted

    assert close_orphaned_sessions(store) == [old_sid, new_sid]
    assert all(s["closed"] for s in store.sessions())

    bdir = tmp_path / "backups"
    for _ in range(4):
        out = check_and_backup(store, bdir, keep=2)
        assert out["integrity"] == "ok" and out["backup"]
    backups = sorted(bdir.glob("filegram-*.db"))
    assert len(backups) == 2
    copy = sqlite3.connect(backups[-1])
    assert copy.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == 3
    copy.close()
    store.close()
