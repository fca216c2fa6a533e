"""Keeps the recorder alive: restart with backoff, remember every failure, give up loudly.

ActivityWatch's manager restarts a crashed watcher a few times and then stops; what users
missed was being TOLD. Here each failure is counted and its message kept, so the health
verdict (and so the tray and `filegram status`) shows it, and after too many failures in a
window the supervisor stops trying and says so instead of flapping forever.

There is one recorder, always: start, pause and shutdown are idempotent and run one at a
time on the supervisor's own thread, whatever thread asks (an API request, the tray, a
signal). So a second resume is a no-op instead of a second inotify recorder, and what a
recorder starts (its search helper process, which the kernel ties to the thread that
started it) belongs to a thread that lives as long as the daemon, not to a request thread
that ends a moment later.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from filegram.errors import FileGramError

log = logging.getLogger(__name__)


class RecorderLike(Protocol):
    def start(self) -> None: ...
    def stop(self) -> None: ...
    def flush(self, timeout: float = 5.0) -> Any: ...
    def stats(self) -> dict[str, Any]: ...


class RecorderSupervisor:
    """Owns the current recorder instance; a fresh one is built for every (re)start."""

    def __init__(
        self,
        factory: Callable[[], RecorderLike],
        *,
        check_seconds: float = 2.0,
        backoff_initial: float = 1.0,
        backoff_max: float = 300.0,
        give_up_after: int = 5,
        window_seconds: float = 600.0,
        probe_after_seconds: float = 600.0,
        probe_timeout: float = 5.0,
    ):
        self.factory = factory
        self.check_seconds = check_seconds
        self.backoff_initial = backoff_initial
        self.backoff_max = backoff_max
        self.give_up_after = give_up_after
        self.window_seconds = window_seconds
        self.probe_after_seconds = probe_after_seconds
        self.probe_timeout = probe_timeout
        # The data probe: activity the recorder saw that a flush could not store.
        self.unstored_since_ms: float | None = None
        self._acked_activity_ms = 0.0
        self.probes = 0
        self.recorder: RecorderLike | None = None
        self.started_ms: float | None = None
        self.restarts = 0
        self.errors = 0
        self.last_error: str | None = None
        self.last_exception: BaseException | None = None
        self.gave_up = False
        self._failures: deque[float] = deque()
        self._backoff = backoff_initial
        self._next_try = 0.0
        self._want_running = False
        self._lock = threading.RLock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._thread_lock = threading.Lock()
        self._commands: queue.SimpleQueue[tuple[Callable[[], None], threading.Event]] = queue.SimpleQueue()

    # -- control: every change runs on the supervisor's thread, one at a time ----------------

    def _ensure_thread(self) -> None:
        with self._thread_lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._watch, name="recorder-supervisor", daemon=True)
                self._thread.start()

    def _on_supervisor(self, fn: Callable[[], None], timeout: float = 120.0) -> None:
        """Run fn on the supervisor thread (at once when already on it) and wait for it."""
        if threading.current_thread() is self._thread or self._stop.is_set():
            fn()  # on the thread already, or it is ending: nothing starts any more
            return
        self._ensure_thread()
        done = threading.Event()
        self._commands.put((fn, done))
        self._wake.set()
        if not done.wait(timeout):
            log.error("recorder supervisor did not carry out a command within %.0f s", timeout)

    def _run_commands(self) -> None:
        while True:
            try:
                fn, done = self._commands.get_nowait()
            except queue.Empty:
                return
            try:
                fn()
            except Exception:
                log.exception("recorder supervisor: a command failed")
            finally:
                done.set()

    def start(self) -> None:
        """Record (raises nothing: a failure is recorded and retried). A no-op while the
        recorder runs; after giving up, a fresh start from a clean slate."""

        def go() -> None:
            with self._lock:
                if self._stop.is_set():
                    return  # shutting down
                self._want_running = True
                if self.recorder is not None and self._stats(self.recorder).get("running"):
                    return  # already recording: never a second recorder
                self.gave_up = False
                self._failures.clear()
                self._backoff = self.backoff_initial
                self._next_try = 0.0
                self._stop_recorder()  # a dead one, if any: salvage what it holds
                self._start_recorder()

        self._on_supervisor(go)

    def pause(self) -> None:
        """Stop recording (flushes and closes the open session); the watcher stays. A
        no-op when not recording."""

        def go() -> None:
            with self._lock:
                self._want_running = False
                self._stop_recorder()

        self._on_supervisor(go)

    def shutdown(self) -> None:
        """Stop for good: no start is carried out after this begins."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        with self._lock:
            self._want_running = False
            self._stop_recorder()
        self._run_commands()  # release anyone who asked meanwhile

    @property
    def running(self) -> bool:
        with self._lock:
            return self.recorder is not None and bool(self._stats(self.recorder).get("running"))

    def flush(self, timeout: float = 5.0) -> None:
        with self._lock:
            rec = self.recorder
        if rec is not None:
            try:
                rec.flush(timeout=timeout)
            except Exception as exc:  # a flush failure is a recorder failure to show
                self._note_failure(f"flush failed: {exc}")

    def stats(self) -> dict[str, Any]:
        with self._lock:
            rec = self.recorder
            base = self._stats(rec) if rec is not None else {}
            now = time.time()
            recent = sum(1 for t in self._failures if now - t <= self.window_seconds)
            return {
                **base,
                "running": bool(base.get("running")) if rec is not None else False,
                "wanted": self._want_running,
                "restarts": self.restarts,
                "restarts_recent": recent,
                "failures": self.errors,
                "last_error": self.last_error,
                "gave_up": self.gave_up,
                "started_ms": self.started_ms,
                "unstored_since_ms": self.unstored_since_ms,
                "probes": self.probes,
                "next_retry_s": round(max(0.0, self._next_try - time.monotonic()), 1)
                if self._want_running and (rec is None) and not self.gave_up
                else None,
            }

    # -- internals --------------------------------------------------------------------

    @staticmethod
    def _stats(rec: RecorderLike) -> dict[str, Any]:
        try:
            st = dict(rec.stats())
        except Exception as exc:
            return {"running": False, "stats_error": str(exc)}
        # A recorder whose worker thread died may still say "running": believe the thread.
        worker = getattr(rec, "_worker", None)
        if st.get("running") and isinstance(worker, threading.Thread) and not worker.is_alive():
            st["running"] = False
            st.setdefault("last_error", "the recorder's worker thread died")
        return st

    def _probe(self, rec: RecorderLike, st: dict[str, Any]) -> None:
        """Health means data: when the roots saw activity a while ago and no later probe
        confirmed it, ask the recorder to flush. A flush that cannot finish means what the
        user did is not reaching the database (locked or full disk, hung writer)."""
        act = st.get("last_activity_ms")
        if not act or act <= self._acked_activity_ms:
            return
        if time.time() * 1000.0 - act < self.probe_after_seconds * 1000.0:
            return
        self.probes += 1
        try:
            ok = bool(rec.flush(timeout=self.probe_timeout))
        except Exception as exc:
            ok = False
            self.last_error = f"flush failed: {exc}"
        with self._lock:
            if ok:
                self._acked_activity_ms = act
                self.unstored_since_ms = None
            elif self.unstored_since_ms is None:
                self.unstored_since_ms = act
                log.error("activity since %.0f is not being stored (flush timed out)", act)

    def _start_recorder(self) -> bool:
        try:
            rec = self.factory()
            rec.start()
        except Exception as exc:
            if isinstance(exc, FileGramError):  # a clear message is the whole story
                log.error("recorder failed to start: %s", exc)
            else:
                log.exception("recorder failed to start")
            self.last_exception = exc
            self._note_failure(f"{type(exc).__name__}: {exc}")
            return False
        self.recorder = rec
        self.started_ms = time.time() * 1000.0
        self.unstored_since_ms = None
        self._acked_activity_ms = 0.0
        log.info("recorder started")
        return True

    def _stop_recorder(self) -> None:
        rec, self.recorder = self.recorder, None
        if rec is None:
            return
        try:
            rec.stop()
        except Exception:
            log.exception("recorder failed to stop cleanly")

    def _note_failure(self, message: str) -> None:
        now = time.time()
        with self._lock:
            self.errors += 1
            self.last_error = message
            self._failures.append(now)
            while self._failures and now - self._failures[0] > self.window_seconds:
                self._failures.popleft()
            if len(self._failures) >= self.give_up_after:
                self.gave_up = True
                log.error("recorder failed %d times in %.0f s; giving up: %s",
                          len(self._failures), self.window_seconds, message)
            self._next_try = time.monotonic() + self._backoff
            self._backoff = min(self._backoff * 2, self.backoff_max)

    def _watch(self) -> None:
        try:
            self._watch_loop()
        finally:
            self._run_commands()  # release anyone waiting (a start is a no-op now)

    def _watch_loop(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self.check_seconds)
            self._wake.clear()
            self._run_commands()
            if self._stop.is_set():
                break
            with self._lock:
                rec = self.recorder if self._want_running else None
            if rec is not None:
                st = self._stats(rec)
                if st.get("running"):
                    self._probe(rec, st)
            with self._lock:
                if not self._want_running or self.gave_up:
                    continue
                rec = self.recorder
                if rec is not None:
                    st = self._stats(rec)
                    if st.get("running"):
                        if self.started_ms and time.time() * 1000.0 - self.started_ms > 60_000:
                            self._backoff = self.backoff_initial  # it has been stable
                        continue
                    # Claims nothing: it died. Salvage what it holds, then restart later.
                    err = st.get("last_error") or st.get("stats_error") or "recorder thread died"
                    log.error("recorder stopped unexpectedly: %s", err)
                    self._stop_recorder()
                    self._note_failure(str(err))
                    continue
                if time.monotonic() < self._next_try:
                    continue
                if self._start_recorder():
                    self.restarts += 1
                    log.warning("recorder restarted (restart %d)", self.restarts)
