"""The daemon's job scheduler on real apscheduler threads.

H-1 (two CPU hogs): a control storm stopped the daemon while a resume request was reading
the health view, and the daemon never exited. apscheduler's shutdown holds its job-store
lock while it waits for a running job; the health view asked apscheduler for a job's next
run while holding the scheduler's own lock, which the running job takes when it ends. The
test builds exactly that interleaving and fails on the old code (both threads hang)."""

from __future__ import annotations

import threading

from fg_helpers import wait_until
from filegram.daemon.scheduler import Scheduler


def _held(lock: object) -> bool:
    """Whether another thread holds the lock (works for RLock too, which has no locked())."""
    if lock.acquire(blocking=False):  # type: ignore[attr-defined]
        lock.release()  # type: ignore[attr-defined]
        return False
    return True


def test_a_health_view_during_shutdown_does_not_deadlock_a_running_job() -> None:
    sched = Scheduler()
    running, release = threading.Event(), threading.Event()

    def job() -> None:
        running.set()
        release.wait(30)

    sched.add("slow", job, every_seconds=3600, first_in_seconds=0)
    sched.start()
    stopper = threading.Thread(target=sched.shutdown, name="stopper", daemon=True)
    try:
        assert running.wait(30), "the job never started"
        stopper.start()
        # shutdown now holds apscheduler's job-store lock while it waits for the job
        wait_until(lambda: _held(sched._sched._jobstores_lock), 30, what="shutdown holding the job-store lock")
        views: list[list[dict]] = []
        viewer = threading.Thread(target=lambda: views.append(sched.describe()), name="viewer", daemon=True)
        viewer.start()
        # the old code blocked here holding the scheduler's own lock; give it the chance
        viewer.join(0.5)
        release.set()  # the job ends, and records its run under the scheduler's lock
        stopper.join(30)
        viewer.join(30)
        assert not stopper.is_alive(), "shutdown never returned: deadlocked with the health view"
        assert not viewer.is_alive(), "the health view never returned"
        assert views and views[0][0]["id"] == "slow"
        assert sched.jobs["slow"].runs == 1
    finally:
        release.set()
        if stopper.is_alive() and sched._lock.locked():
            # deadlocked (the old code): free the job so the process can still exit (a plain
            # Lock may be released by any thread); the test has already failed
            sched._lock.release()
            stopper.join(30)
