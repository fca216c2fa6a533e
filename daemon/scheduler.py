"""Periodic jobs on apscheduler 3.x, each with a record of its last run for the health view.

A job that raises does not stop the scheduler; its error is kept and shown as a warning
until the next successful run clears it. Jobs never overlap themselves (max_instances=1)
and missed runs coalesce, so a laptop waking from sleep runs each job once, not N times.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

log = logging.getLogger(__name__)


@dataclass
class JobRecord:
    id: str
    every_seconds: float
    last_run_ms: float | None = None
    last_seconds: float | None = None
    last_error: str | None = None
    runs: int = 0


class Scheduler:
    def __init__(self) -> None:
        from apscheduler.schedulers.background import BackgroundScheduler

        self._sched = BackgroundScheduler(
            job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": 3600},
            timezone="UTC",
        )
        self.jobs: dict[str, JobRecord] = {}
        self._lock = threading.Lock()

    def add(self, job_id: str, func: Callable[[], Any], every_seconds: float,
            first_in_seconds: float | None = None) -> None:
        """Run `func` every `every_seconds` (first run after `first_in_seconds`)."""
        if every_seconds <= 0:
            return  # 0 turns a job off
        rec = JobRecord(job_id, every_seconds)
        self.jobs[job_id] = rec
        first = every_seconds if first_in_seconds is None else first_in_seconds
        self._sched.add_job(
            self._run,
            "interval",
            seconds=every_seconds,
            args=[rec, func],
            id=job_id,
            next_run_time=datetime.now().astimezone() + timedelta(seconds=first),
        )

    def _run(self, rec: JobRecord, func: Callable[[], Any]) -> None:
        t0 = time.time()
        try:
            func()
        except Exception as exc:
            log.exception("job %s failed", rec.id)
            with self._lock:
                rec.last_error = f"{type(exc).__name__}: {exc}"
        else:
            with self._lock:
                rec.last_error = None
        with self._lock:
            rec.runs += 1
            rec.last_run_ms = t0 * 1000.0
            rec.last_seconds = time.time() - t0

    def start(self) -> None:
        self._sched.start()

    def shutdown(self) -> None:
        try:
            self._sched.shutdown(wait=True)
        except Exception:  # already stopped
            pass

    def errors(self) -> dict[str, str]:
        with self._lock:
            return {j.id: j.last_error for j in self.jobs.values() if j.last_error}

    def describe(self) -> list[dict[str, Any]]:
        # apscheduler's shutdown holds its job-store lock while it waits for a running job,
        # and a job's last step takes self._lock: asking apscheduler for the next run time
        # while holding self._lock deadlocked a daemon stopped during a health request (H-1).
        with self._lock:
            records = [(rec.id, rec.every_seconds, rec.runs, rec.last_run_ms, rec.last_seconds, rec.last_error)
                       for rec in self.jobs.values()]
        out = []
        for job_id, every, runs, last_run, last_seconds, last_error in records:
            job = self._sched.get_job(job_id)
            nxt = job.next_run_time.timestamp() * 1000.0 if job and job.next_run_time else None
            out.append({
                "id": job_id,
                "every_seconds": every,
                "runs": runs,
                "last_run_ms": last_run,
                "last_seconds": last_seconds,
                "last_error": last_error,
                "next_run_ms": nxt,
            })
        return out
