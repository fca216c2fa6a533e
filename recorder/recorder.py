"""The recorder: observers -> bounded queue -> interpreter -> sessions -> store, in batches.

One worker thread owns the interpreter, the session router and the writer, so no lock is
needed on the file model, and every batch (actions, blobs and the recorder's file state)
is one transaction (see writer): a crash loses at most the last unwritten batch.

flush() is exact on Linux: it opens each root folder itself, and once the worker has seen
those opens come back through inotify, every event that happened before the call has been
read; it asks the process helper to report every program that started before the call;
only then are the pending events settled and written.
"""

from __future__ import annotations

import logging
import os
import queue
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from filegram.config import Config, check_root
from filegram.errors import FileGramError
from filegram.privacy import PathFilter
from filegram.store import Store, now_ms

from . import reconcile
from .forgotten import Forgotten
from .instances import Lease
from .interpret import Interpreter
from .paths import RootSet
from .platforms import unavailable_types
from .procs import ProcessWatcher, ProcInfo
from .sessions import SessionRouter
from .settings import HomeLike, home_root, section
from .settle import UNMATCHED_MOVE_WAIT_MS
from .state import FileState
from .watch import POLL_INTERVAL_S, Raw, Watcher
from .writer import BatchWriter

log = logging.getLogger(__name__)

TICK_MS = 50.0
# A program's exit waits this long at most for its marker (see Recorder._fence_end): a
# marker lost to a queue overflow must not keep a tool's run open.
FENCE_TIMEOUT_S = 2.0
# A process helper this far behind is stuck or gone: provenance stops waiting for it.
HELPER_LAG_MAX_MS = 10_000.0
MIN_QUEUE = 1000
# A stop waits for the worker to work through what is queued: up to STOP_MAX_S while it makes
# progress, STOP_STALL_S without any (it used to give up after 30 s, and a worker a minute
# behind lost everything it had not yet stored).
STOP_MAX_S = 600.0
STOP_STALL_S = 30.0


class RecorderError(FileGramError):
    """A recorder that cannot start (a root that is not a folder, a denied root)."""


@dataclass
class _EndFence:
    """A program's exit notice held until the markers sent after it come through."""

    raw: Raw
    targets: dict[str, int]
    t_mono: float


class Recorder:
    """Records real file-system activity under `roots` into `store` as FileGram actions."""

    def __init__(
        self,
        store: Store,
        roots: Sequence[Path | str],
        config: Config,
        *,
        home: HomeLike | None = None,
        profile_id: str | None = None,
        task_id: str | None = None,
        force_polling: bool = False,
        owner: str = "`filegram record`",
        reconcile: bool = True,
    ):
        self.store = store
        self.owner = owner  # who this recorder is, for the one line another one gets
        # On start, store what changed while no recorder watched, marked offline (reconcile.py);
        # the daemon turns it off when resuming after a pause (nothing is recorded while paused).
        self.reconcile = reconcile
        self.offline_session: str | None = None
        self._last_seen_mark = 0.0
        self.config = config
        self.rec = section(config, "recorder")
        self.privacy = section(config, "privacy")
        self.profile_id = profile_id
        self.task_id = task_id
        self.force_polling = force_polling
        if not roots:
            raise RecorderError("nothing to record: give at least one --root folder (or set recorder.roots)")
        self.root_paths: list[Path] = []
        for r in roots:
            try:
                self.root_paths.append(check_root(r))
            except FileGramError as exc:
                raise RecorderError(str(exc)) from None
        own_home = home_root(home)
        self.run_dir = own_home / "run" if own_home is not None else None
        self.lease: Lease | None = None
        try:
            pf = PathFilter.from_config(config)
        except (KeyError, TypeError):
            pf = PathFilter(deny=self.rec.get("exclude", []), ignore=self.rec.get("ignore", []))
        self.roots = RootSet(self.root_paths, pf, own_home, own_files=[str(store.path)])
        for r in self.root_paths:
            if pf.denied(str(r)):
                raise RecorderError("a recording root lies in a denied (private) folder")
            if own_home is not None and (r == own_home or own_home in r.parents):
                raise RecorderError(f"{r} is inside FileGram's own data folder: choose another root")
        max_queued = max(int(self.rec["queue_max_events"]), MIN_QUEUE)
        self.queue: queue.Queue[Raw] = queue.Queue(maxsize=max_queued)
        self.state: FileState | None = None
        self.interp: Interpreter | None = None
        self.watcher: Watcher | None = None
        self.procs: ProcessWatcher | None = None
        self._worker: threading.Thread | None = None
        self._running = False
        self.writer = BatchWriter(store, profile_id=profile_id, max_actions=int(self.rec["batch_max_actions"]),
                                  max_seconds=float(self.rec["batch_max_seconds"]), max_pending=max_queued)
        self.sessions = SessionRouter(
            store, self.writer, self._write, root_paths=self.root_paths, profile_id=profile_id,
            task_id=task_id, idle_gap_ms=float(self.rec["idle_gap_minutes"]) * 60_000.0,
            followup_ms=float(self.rec["search_followup_seconds"]) * 1000.0, polled=force_polling,
            run_dir=self.run_dir,
        )
        self._errors = 0
        self._last_activity_ms: float | None = None
        # Stream markers (see _send_echoes): per root, echoes asked for and echoes seen.
        self._echo_sent: dict[str, int] = {}
        self._echo_seen: dict[str, int] = {}
        self._echo_wanted: set[str] = set()  # roots whose next echo is asked for (one is out)
        self._marker_kind: dict[str, str] = {}
        self._marker_cv = threading.Condition()
        self._end_fences: list[_EndFence] = []  # program exits waiting for their echo (worker only)
        self._discard_dir_opens = False
        self._last_tick = 0.0
        self._last_raw_t = 0.0  # the latest read time of an event the worker handled
        self._procs_seen_ms: float | None = None  # the process helper has looked up to here
        # "Seen up to" marks wait beside the queue, not in it (a queue never empty would hold
        # the settle clock at the last event's time): each mark counts the helper's notices
        # queued before it, and holds once the worker has handled that many.
        self._proc_lock = threading.Lock()
        self._proc_notices_put = 0
        self._proc_notices_handled = 0
        self._seen_marks: deque[tuple[int, float]] = deque()
        # FILEGRAM_RECORDER_TRACE=FILE writes every raw event (after the privacy filters)
        # to FILE: how to see why a sequence became the actions it did.
        trace = os.environ.get("FILEGRAM_RECORDER_TRACE")
        self._trace = open(trace, "a", encoding="utf-8") if trace else None  # noqa: SIM115

    # ------------------------------------------------------------------------------------
    # lifecycle

    @property
    def session_id(self) -> str | None:
        return self.sessions.session_id

    def start(self) -> Recorder:
        """Start recording. Refuses (RootBusy, one line) a root that another live recorder
        of the same home records: one recorder per folder, always."""
        if self._running:
            return self
        self.lease = Lease(self.run_dir, self.root_paths, self.owner).acquire()
        self.sessions.instance = self.lease.instance
        try:
            return self._start()
        except BaseException:
            self._abort_start()
            raise

    def _abort_start(self) -> None:
        for part in (self.procs, self.watcher):
            if part is not None:
                try:
                    part.stop()
                except Exception:
                    log.exception("recorder: could not stop a part after a failed start")
        if self._running:
            self._running = False
            done = threading.Event()
            self.queue.put(Raw("stop", "", data=done))
            if self._worker is not None:
                self._worker.join(timeout=10.0)
        if self.sessions.session_id is not None:
            try:
                self.sessions.close()
            except Exception:
                log.exception("recorder: could not close the session of a failed start")
        if self.lease is not None:
            self.lease.release()
            self.lease = None

    def _start(self) -> Recorder:
        self.state = FileState(self.store)
        self.interp = Interpreter(
            self.roots,
            self.state,
            settle_ms=float(self.rec["settle_ms"]),
            snapshot_max_bytes=int(self.rec["snapshot_max_bytes"]),
            redact=bool(self.privacy.get("redact", True)),
            bulk_per_second=int(self.rec["bulk_events_per_second"]),
            tool_programs=list(self.rec.get("tool_programs", [])),
        )
        started = now_ms()
        root_names = [str(r) for r in self.root_paths]
        offline = None
        forgotten = Forgotten(self.store)  # files the person asked to forget stay out
        if self.reconcile:
            known = self.state.load(root_names)
            offline = reconcile.offline_changes(
                self.roots, known, started, reconcile.seen_times(self.store),
                snapshot_max_bytes=int(self.rec["snapshot_max_bytes"]), redact=bool(self.privacy.get("redact", True)),
                kept_out=forgotten.kept_out,
            )
        self.interp.baseline(int(self.rec["baseline_max_bytes"]), forgotten)
        with self.store.transaction():
            self.state.write_pending()
            forgotten.write_pending()
        self.sessions.close_crashed()
        if offline is not None:
            self.offline_session = reconcile.store_offline(
                self.store, offline, root=self.sessions.root, roots=root_names, now_ms=started,
                profile_id=self.profile_id, instance=self.lease.instance if self.lease else None,
            )
            if self.offline_session:
                log.info("stored %d change(s) made while nobody recorded (session %s, marked offline)",
                         len(offline.actions), self.offline_session[:8])
        reconcile.mark_seen(self.store, root_names, started)
        self._last_seen_mark = started
        self.sessions.open(now_ms())
        self.watcher = Watcher(self.roots, self.queue, force_polling=self.force_polling)
        self._running = True
        self._worker = threading.Thread(target=self._work, name="filegram-recorder", daemon=True)
        self._worker.start()
        self._discard_dir_opens = True
        self.watcher.start()
        self.procs = ProcessWatcher(self._on_proc_start, self._on_proc_end, poll_ms=float(self.rec["process_poll_ms"]),
                                    extra_programs=list(self.rec.get("tool_programs", [])),
                                    roots=[str(r) for r in self.root_paths],
                                    on_activity=self._on_proc_activity, on_seen=self._on_proc_seen)
        self.procs.start()
        # watchdog walks every folder when it adds its watches: those opens are not ours to
        # record. Wait until they have come through, then listen for real ones.
        self._sync_markers(5.0)
        self._discard_dir_opens = False
        log.info("recording %s", ", ".join(str(r) for r in self.root_paths))
        return self

    def flush(self, timeout: float = 5.0) -> bool:
        """Return once everything observed before the call is stored (True), or after
        timeout seconds (False)."""
        if not self._running:
            return True
        deadline = time.monotonic() + timeout
        self._sync_markers(timeout)
        late = self.watcher.last_dir_created_ms + UNMATCHED_MOVE_WAIT_MS - now_ms() if self.watcher else 0.0
        if late > 0:
            # a move into a folder made a moment ago: its leaving half may still be held
            # (see settle.UNMATCHED_MOVE_WAIT_MS); wait for it, then mark the stream again
            time.sleep(min(late / 1000.0, max(deadline - time.monotonic(), 0.0)))
            self._sync_markers(max(deadline - time.monotonic(), 0.1))
        if self.procs is not None:  # the programs that ran before the call are known too
            self.procs.sync(max(min(deadline - time.monotonic(), 2.0), 0.1))
        done = threading.Event()
        try:
            self.queue.put(Raw("flush", "", data=done), timeout=max(deadline - time.monotonic(), 0.1))
        except queue.Full:
            return False
        return done.wait(max(deadline - time.monotonic(), 0.1))

    def close_idle_session(self, timeout: float = 5.0) -> bool:
        """Close the open session now if it has been idle longer than the gap (the worker
        does this on its own too; the daemon calls it before consolidating). True if a
        session was closed."""
        if not self._running:
            return False
        done = threading.Event()
        done.result = False  # type: ignore[attr-defined]
        try:
            self.queue.put(Raw("close_idle", "", data=done), timeout=timeout)
        except queue.Full:
            return False
        done.wait(timeout)
        return bool(getattr(done, "result", False))

    def stop(self) -> dict[str, Any]:
        if not self._running:
            return self.stats()
        self.flush(10.0)
        if self.procs is not None:
            self.procs.stop()
        if self.watcher is not None:
            self.watcher.stop()
        done = threading.Event()
        self.queue.put(Raw("stop", "", data=done))
        self._wait_for_worker(done)
        if self._worker is not None:
            self._worker.join(timeout=STOP_STALL_S)
        self._running = False
        self.sessions.close()
        try:
            reconcile.mark_seen(self.store, [str(r) for r in self.root_paths], now_ms())
        except Exception:
            log.exception("recorder: could not note the time it stopped watching")
        if self.lease is not None:
            self.lease.release()
            self.lease = None
        return self.stats()

    def _wait_for_worker(self, done: threading.Event) -> None:
        """Wait for the worker to reach the stop: as long as it works through the queue
        (up to STOP_MAX_S), so that a backlog is stored rather than dropped with the
        process; a worker that makes no progress for STOP_STALL_S is given up."""
        start = last_progress = time.monotonic()
        left = self.queue.qsize()
        while not done.wait(1.0):
            now = time.monotonic()
            size = self.queue.qsize()
            if size < left:
                left, last_progress = size, now
            if now - last_progress > STOP_STALL_S or now - start > STOP_MAX_S:
                log.warning("recorder: stopped with %d event(s) not interpreted", size)
                return

    def __enter__(self) -> Recorder:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stats(self) -> dict[str, Any]:
        interp = self.interp
        w = self.watcher
        return {
            "running": self._running,
            "queued": self.queue.qsize() + (interp.pending_count if interp else 0) + len(self.writer),
            "stored": self.writer.stored,
            "dropped": w.dropped if w else 0,
            "errors": self._errors + self.writer.errors,
            "last_stored_ms": self.writer.last_stored_ms,
            "last_activity_ms": self._last_activity_ms,
            "session_id": self.sessions.session_id,
            "unavailable_types": unavailable_types(
                polled=bool(w and (w.polled_roots or w.polled_folders or self.force_polling)),
                folder_opens=w.sees_folder_opens if w else True,
            ),
            "roots": [str(r) for r in self.root_paths],
            "polled_roots": list(w.polled_roots) if w else [],
            "polled_folders": w.polled_folders if w else 0,
            "process_watch": self.procs.mode if self.procs else "none",
            "rescans": interp.counters["rescans"] if interp else 0,
            "bulk_summaries": interp.counters["bulk_summaries"] if interp else 0,
            "tool_summaries": interp.counters["tool_summaries"] if interp else 0,
            "raw_events": interp.counters["raw"] if interp else 0,
            "messages": list(w.messages) if w else [],
            "disk_full": self.writer.disk_full,
            # files that could not be read for want of descriptors, memory or space: retried
            "resource_errors": interp.disk.resource_errors if interp else 0,
            "resource_error": interp.disk.resource_error if interp else None,
        }

    # ------------------------------------------------------------------------------------
    # markers

    def _marker_roots(self) -> list[str]:
        """The roots whose events come from inotify, where a marker's echo is in order."""
        w = self.watcher
        if w is None or self.force_polling or not sys.platform.startswith("linux"):
            return []
        return [r for r in w.watched_roots if r not in w.polled_roots]

    def _send_echoes(self, roots: list[str]) -> dict[str, int]:
        """Mark the event stream of each root; {root: the number of the echo to wait for}.
        Every event of a root that happened before the call reaches the worker before it.

        Re-setting the root's own times yields IN_ATTRIB on the root: unlike a folder open,
        no user program does that in passing, so the echo is unambiguous. Echoes are counted,
        not owned: a flush and a program's exit may mark the same root, and the k-th echo
        seen is the k-th sent (one inotify queue per root keeps them in order). Only one is
        unread at a time: the kernel merges an event into an identical one still queued, so
        two echoes in a row while the recorder is behind arrived as one (and a flush waited
        for the second until its timeout). A request made while one is out is served by the
        next, sent when that one arrives."""
        sent: dict[str, int] = {}
        with self._marker_cv:
            for r in roots:
                if self._echo_sent.get(r, 0) > self._echo_seen.get(r, 0):
                    self._echo_wanted.add(r)
                    sent[r] = self._echo_sent[r] + 1
                elif self._emit_echo(r):
                    sent[r] = self._echo_sent[r]
        return sent

    def _emit_echo(self, r: str) -> bool:
        """Send root r's next echo (the caller holds _marker_cv); False if none can be."""
        k = self._echo_sent.get(r, 0) + 1
        try:
            self._marker_kind[r] = "root_attrib"  # before the echo can possibly arrive
            self._echo_sent[r] = k
            st = os.stat(r)
            os.utime(r, ns=(st.st_atime_ns, st.st_mtime_ns))
            return True
        except OSError:
            pass
        try:
            self._marker_kind[r] = "dir_opened"
            fd = os.open(r, os.O_RDONLY | os.O_DIRECTORY)
            os.close(fd)
            return True
        except OSError:
            self._echo_sent[r] = self._echo_seen[r] = k  # nothing to wait for
            return False

    def _echoes_lost(self, roots: Sequence[str]) -> None:
        """Stop waiting for these roots' echoes (an overflow lost them; the caller holds
        _marker_cv): what was asked for counts as seen, so later requests send again."""
        for r in roots:
            if r in self._echo_wanted:
                self._echo_wanted.discard(r)
                self._echo_sent[r] = self._echo_sent.get(r, 0) + 1
            self._echo_seen[r] = self._echo_sent.get(r, 0)
        self._marker_cv.notify_all()

    def _sync_markers(self, timeout: float) -> None:
        w = self.watcher
        if w is None:
            return
        marker_roots = self._marker_roots()
        if w.polled_roots or w.polled_folders:
            # polled places report up to one interval late: wait for one poll to pass
            time.sleep(min(POLL_INTERVAL_S + 0.3, max(timeout - 0.5, 0.1)))
        if not marker_roots:
            time.sleep(0.3 if not self.force_polling else 1.3)  # one poll (1 s) and a bit
            return
        targets = self._send_echoes(marker_roots)
        deadline = time.monotonic() + timeout
        with self._marker_cv:
            while any(self._echo_seen.get(r, 0) < k for r, k in targets.items()):
                left = deadline - time.monotonic()
                if left <= 0:
                    self._echoes_lost([r for r, k in targets.items() if self._echo_seen.get(r, 0) < k])
                    break
                self._marker_cv.wait(left)

    def _echo_arrived(self, raw: Raw) -> bool:
        """Is this root event the echo of a marker (then it is no action)?"""
        p = raw.path
        if self._marker_kind.get(p) != raw.kind or self._echo_seen.get(p, 0) >= self._echo_sent.get(p, 0):
            return False
        with self._marker_cv:
            if self._echo_seen.get(p, 0) >= self._echo_sent.get(p, 0):
                return False
            self._echo_seen[p] = self._echo_seen.get(p, 0) + 1
            if p in self._echo_wanted:
                self._echo_wanted.discard(p)
                self._emit_echo(p)
            self._marker_cv.notify_all()
        return True

    def _fence_end(self, raw: Raw) -> bool:
        """Hold a program's exit until the events it caused have come through (True: held).

        Events carry the time the recorder read them, which under load is a second or more
        after the change; the exit notice comes from the process scan, which is not delayed
        with them. A tool's last files, read after its exit plus END_GRACE_MS, were counted
        as the person's (a clean clone's `make test`: cargo's target/ and git's checkout).
        A marker sent now (after the exit) comes through behind every event the program
        caused, so the exit is placed at the marker's read time, on the events' own clock."""
        targets = self._send_echoes(self._marker_roots())
        if not targets:
            return False
        self._end_fences.append(_EndFence(raw, targets, time.monotonic()))
        return True

    def _release_fences(self, t_echo: float | None, *, all_: bool = False) -> None:
        """Feed the exits whose markers have all come through (at the later of the notice
        and the marker's read time); all_: every held exit, at its notice (a flush, a stop,
        a marker lost to an overflow)."""
        if not self._end_fences:
            return
        now = time.monotonic()
        keep: list[_EndFence] = []
        for f in self._end_fences:
            arrived = all(self._echo_seen.get(r, 0) >= k for r, k in f.targets.items())
            if arrived and t_echo is not None:
                self._feed(Raw("proc_end", "", t=max(f.raw.t, t_echo), data=f.raw.data))
            elif arrived or all_:
                self._feed(f.raw)
            elif now - f.t_mono > FENCE_TIMEOUT_S:
                with self._marker_cv:
                    self._echoes_lost([r for r, k in f.targets.items() if self._echo_seen.get(r, 0) < k])
                self._feed(f.raw)
            else:
                keep.append(f)
        self._end_fences = keep

    # ------------------------------------------------------------------------------------
    # processes

    def _on_proc_start(self, info: ProcInfo) -> None:
        self._put_proc_notice(Raw("proc_start", info.cwd, t=info.t_start, data=info))

    def _on_proc_activity(self, pid: int, t: float) -> None:
        self._put_proc_notice(Raw("proc_activity", "", t=t, data=pid))

    def _on_proc_end(self, pid: int, t: float) -> None:
        self._put_proc_notice(Raw("proc_end", "", t=t, data=pid))

    def _put_proc_notice(self, raw: Raw) -> None:
        with self._proc_lock:
            try:
                self.queue.put(raw, timeout=1.0)
            except queue.Full:
                return
            self._proc_notices_put += 1

    def _on_proc_seen(self, t: float) -> None:
        """The helper has looked up to t: it holds once the notices of that look are handled."""
        with self._proc_lock:
            self._seen_marks.append((self._proc_notices_put, t))

    # ------------------------------------------------------------------------------------
    # worker

    def _work(self) -> None:
        """The worker loop. It must outlive any single failure: a dead worker would leave
        the tray saying "recording" while nothing is stored."""
        while True:
            try:
                if self._work_once():
                    return
            except Exception:
                self._errors += 1
                log.exception("recorder: worker error; continuing")
                time.sleep(0.1)

    def _work_once(self) -> bool:
        """Process what is queued, settle, write. True when asked to stop."""
        interp = self.interp
        assert interp is not None
        try:
            raw: Raw | None = self.queue.get(timeout=TICK_MS / 1000.0)
        except queue.Empty:
            raw = None
        n = 0
        while raw is not None:
            if raw.kind == "close_idle":
                before = self.sessions.session_id
                try:
                    self._close_idle_session(now_ms())
                finally:
                    raw.data.result = before is not None and self.sessions.session_id is None
                    raw.data.set()
            elif raw.kind in ("flush", "stop"):
                try:
                    self._settle_all()
                finally:
                    raw.data.set()
                if raw.kind == "stop":
                    return True
            else:
                self._handle(raw)
            n += 1
            if n >= 2000:
                break
            try:
                raw = self.queue.get_nowait()
            except queue.Empty:
                raw = None
        now = now_ms()
        if now - self._last_tick >= TICK_MS:
            self._last_tick = now
            self._release_fences(None)  # markers lost to an overflow
            try:
                self.sessions.route(interp.tick(self._stream_clock(now)))
                self.sessions.release(now)
            except Exception:
                self._errors += 1
                log.exception("recorder: could not interpret events")
            self._close_idle_session(now)
        if self.writer.due(now, caught_up=self.queue.empty()):
            self._write()
        if now - self._last_seen_mark >= reconcile.SEEN_EVERY_MS and not self.writer.disk_full:
            self._last_seen_mark = now
            try:
                reconcile.mark_seen(self.store, [str(r) for r in self.root_paths], now)
            except Exception:
                log.exception("recorder: could not note the time it has watched up to")
        return False

    def _stream_clock(self, now: float) -> float:
        """The time the interpreter settles at: now when the worker has caught up, else
        the read time of the last event it handled. "Quiet for 2 s" is a statement about
        the event stream: a worker seconds behind, judging by the wall clock, ended a
        folder's storm while the storm's last files still waited in the queue, and the
        storm became several summaries and a tail of loose files, some in no row at all (a
        backlogged event storm: 9-54 of 8,000 new files, in CI and slowed here)."""
        clock = now if self.queue.empty() or self._last_raw_t <= 0 else min(now, self._last_raw_t)
        return self._helper_bound(clock, now)

    def _helper_bound(self, clock: float, now: float) -> float:
        """Hold the clock where the process helper has not looked yet. An event settles
        settle_ms after it came; until the helper has looked past it, the program that
        made it may be unknown, and a settled event would keep the person as its author
        (a clean clone's `make test`: the helper, starved of CPU, read `7z x` after half
        its archive was out, and those files were stored as the person's)."""
        marks = self._seen_marks
        while marks and marks[0][0] <= self._proc_notices_handled:
            self._procs_seen_ms = marks.popleft()[1]
        seen = self._procs_seen_ms
        if seen is None or now - seen > HELPER_LAG_MAX_MS:
            return clock
        return min(clock, seen + float(self.rec["settle_ms"]))

    def _handle(self, raw: Raw) -> None:
        if raw.kind in ("proc_start", "proc_end", "proc_activity"):
            self._proc_notices_handled += 1
        if raw.t > self._last_raw_t:
            self._last_raw_t = raw.t
        if raw.kind in ("dir_opened", "root_attrib"):
            if self._echo_arrived(raw):
                self._release_fences(raw.t)
                return
            if raw.kind == "root_attrib" or self._discard_dir_opens:
                return
        if self._trace is not None:
            detail = raw.data.argv if raw.kind == "proc_start" else (raw.data if raw.kind in ("proc_end", "proc_activity") else "")
            self._trace.write(f"{raw.t:.1f} {now_ms():.1f} {raw.kind} {self.roots.rel(raw.path) or raw.path} {raw.dest or ''} {detail}\n")
            self._trace.flush()
        if raw.kind not in ("proc_start", "proc_end", "proc_activity"):
            self._last_activity_ms = raw.t
        elif raw.kind == "proc_end" and self._fence_end(raw):
            return
        self._feed(raw)

    def _feed(self, raw: Raw) -> None:
        try:
            assert self.interp is not None
            self.interp.feed(raw)
        except Exception:
            self._errors += 1
            log.exception("recorder: could not interpret a %s event", raw.kind)

    def _settle_all(self) -> None:
        assert self.interp is not None
        self._release_fences(None, all_=True)
        now = now_ms()
        try:
            self.sessions.route(self.interp.tick(now, force=True))
            self.sessions.release(now)
        except Exception:
            self._errors += 1
            log.exception("recorder: could not interpret events")
        self._write()

    def _write(self) -> None:
        assert self.interp is not None and self.state is not None
        self.writer.write(self.interp.output, self.state)

    def _close_idle_session(self, now: float) -> None:
        if self.interp is not None:
            self.sessions.close_if_idle(now, settled=self.interp.pending_count == 0)


def record(store: Store, roots: Sequence[Path | str], config: Config, seconds: float | None = None, *,
           home: HomeLike | None = None, on_start: Callable[[Recorder], None] | None = None) -> dict[str, Any]:
    """Record in the foreground until `seconds` pass, Ctrl-C or SIGTERM; returns stats."""
    rec = Recorder(store, roots, config, home=home)
    stop = threading.Event()
    old = None
    if threading.current_thread() is threading.main_thread():
        old = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    rec.start()
    if on_start is not None:
        on_start(rec)
    try:
        end = None if seconds is None else time.monotonic() + seconds
        while not stop.is_set():
            left = None if end is None else end - time.monotonic()
            if left is not None and left <= 0:
                break
            stop.wait(1.0 if left is None else min(left, 1.0))
    except KeyboardInterrupt:
        pass
    finally:
        stats = rec.stop()
        if old is not None:
            signal.signal(signal.SIGTERM, old)
    return stats
