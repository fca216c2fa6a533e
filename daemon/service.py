"""The daemon: wires recorder, memory, scheduler, local web server and tray around one store.

Start-up order is chosen so that whatever a client can see is true: the lock first (one
instance per home), then orphaned sessions of a dead run are closed, then the web server,
the recorder and the jobs, and only then daemon.json says "ready". Shutdown runs the other
way and always flushes the recorder's queue and closes its session, on SIGTERM, SIGINT, the
tray's Quit or POST /api/stop alike.

Each thread talks to SQLite through its own connection (recorder, jobs and memory, API),
so a long consolidation never blocks the recorder's commits. What the daemon serves lives
in daemon/web (and daemon/assist); the shared Memory in shared_memory, the screen recorder
in screen_link.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from filegram.atomic import write_private
from filegram.config import Config, Home
from filegram.errors import FileGramError
from filegram.store import Store

from . import health as hl
from .desktop import open_with_system
from .maintenance import apply_retention, check_and_backup, close_orphaned_sessions
from .runtime import RunFiles, package_version
from .scheduler import Scheduler
from .screen_link import ScreenLink
from .shared_memory import MEMORY_BUSY_SECONDS, MemoryFactory, SharedMemory
from .supervisor import RecorderLike, RecorderSupervisor
from .web.http import WebServer

if TYPE_CHECKING:
    from filegram.memory import Memory

log = logging.getLogger(__name__)

PAUSED_STATE_KEY = "daemon.paused"
RecorderFactory = Callable[[Store], Callable[[], RecorderLike]]
RECORDER_FIELDS = ("running", "session_id", "queued", "stored", "dropped", "errors", "restarts",
                   "restarts_recent", "failures", "last_error", "gave_up", "last_stored_ms",
                   "last_activity_ms", "unstored_since_ms", "probes", "started_ms", "next_retry_s",
                   "unavailable_types", "resource_errors", "resource_error")


class Daemon:
    """One running FileGram daemon for one home."""

    def __init__(
        self,
        home: Home,
        config: Config,
        roots: list[Path],
        *,
        tray: bool | None = None,
        recorder_factory: RecorderFactory | None = None,
        memory_factory: MemoryFactory | None = None,
        handle_signals: bool = True,
    ):
        self.home = home
        self.config = config
        self.roots = roots
        self.dcfg = config["daemon"]
        self.tray_wanted = bool(self.dcfg.get("tray", True)) if tray is None else tray
        self.handle_signals = handle_signals
        self.files = RunFiles(home.run_dir)
        self._recorder_factory = recorder_factory
        self._memory_factory = memory_factory
        self.stop_event = threading.Event()
        self.started_ms: float | None = None
        self.ready_ms: float | None = None
        self.paused = False
        self.tray_state = "off"
        self._query_lock = threading.Lock()
        self._control_lock = threading.Lock()  # pause, resume, stop: one at a time
        self._reconcile_next = True  # the next recorder start looks for offline changes
        self._stop_requested = False
        self._integrity: str | None = None
        self._stop_callbacks: list[Callable[[], None]] = []
        self.api: WebServer | None = None
        self.scheduler: Scheduler | None = None
        self.supervisor: RecorderSupervisor | None = None
        self.shared_memory: SharedMemory | None = None
        self.screen: ScreenLink | None = None
        self._stores: list[Store] = []
        self._sync_store: Store | None = None

    # -- lifecycle --------------------------------------------------------------------

    def start(self) -> None:
        """Take the lock and start every component; on return the daemon is ready."""
        t0 = time.time()
        self.home.ensure()
        self.files.acquire()  # raises AlreadyRunning
        try:
            self._start_components(t0)
        except BaseException:
            self._stop_components()
            self.files.release()
            raise

    def _open_store(self) -> Store:
        store = self.home.open_store()
        self._stores.append(store)
        return store

    def _start_components(self, t0: float) -> None:
        self.started_ms = t0 * 1000.0
        self.query_store = self._open_store()  # API reads and health
        self._check_database(self.query_store)
        self.memory_store = self._open_store()  # memory and housekeeping jobs
        recorder_store = self._open_store()
        self.shared_memory = SharedMemory(self.memory_store, self.config, self._memory_factory)
        for source in ("recorder", "screen"):  # the sources a live daemon writes
            close_orphaned_sessions(self.memory_store, source=source, run_dir=self.home.run_dir)
        self.paused = bool(self.memory_store.get_state(PAUSED_STATE_KEY, False))

        self.api = self._start_web_server(self.files.new_token())
        self._start_recorder(recorder_store)
        self.screen = ScreenLink(self.config, self.home, self.roots, self.memory_store, self._open_store,
                                 self._recorder_session)
        self.scheduler = self._start_jobs()

        self.ready_ms = time.time() * 1000.0
        self.files.write_info({
            "pid": os.getpid(),
            "api_port": self.api.port,
            "api_url": self.api.url,
            "started_ms": self.started_ms,
            "ready_ms": self.ready_ms,
            "home": str(self.home.root),
            "roots": [str(r) for r in self.roots],
            "version": package_version(),
        })
        log.info("daemon ready in %.2f s (pid %d, API %s, roots %s%s)",
                 (self.ready_ms - self.started_ms) / 1000.0, os.getpid(), self.api.url,
                 ", ".join(map(str, self.roots)), ", paused" if self.paused else "")

    @staticmethod
    def _check_database(store: Store) -> None:
        """Refuse to run on a damaged file (quick_check reads every page once): recording
        into it would only bury what can still be saved. One line says what to do."""
        from filegram.store import DamagedDatabase

        result = store.conn.execute("PRAGMA quick_check").fetchone()[0]
        if result != "ok":
            raise DamagedDatabase(f"the database {store.path} is damaged ({result}): "
                                  "run `filegram doctor --repair`")

    def _start_web_server(self, token: str) -> WebServer:
        """The JSON API and, when this build has it, the dashboard, on 127.0.0.1."""
        from .web.api import DaemonApi
        from .web.auth import TokenAuth
        from .web.rest import JsonApi, daemon_routes

        port = int(self.dcfg["api_port"])
        api = JsonApi(TokenAuth(token), daemon_routes(DaemonApi(self)))
        try:
            server = WebServer(token, api, port=port)
        except OSError as exc:
            raise FileGramError(f"cannot listen on 127.0.0.1:{port} for the local API: "
                                f"{exc.strerror or exc} (set [daemon] api_port = 0 for any free port)") from exc
        try:
            from .web.backends import DaemonBackend
            from .web.dashboard import Dashboard
            from .web.rest import assistant_routes
        except ImportError as exc:  # the dashboard is optional: the JSON API still works
            log.warning("dashboard unavailable: %s", exc)
        else:
            from .web.auth import SIGNIN_CODE_SECONDS
            from .web.rest import Route

            backend = DaemonBackend(self)
            dashboard = Dashboard(backend, token)
            server.web = dashboard
            api.add(assistant_routes(backend.assistant))
            api.add([Route("POST", "/api/signin-code", lambda req: {
                "url": server.url + dashboard.signin_path(), "expires_in_s": SIGNIN_CODE_SECONDS})])
        server.start()
        return server

    def _start_recorder(self, recorder_store: Store) -> None:
        factory = (self._recorder_factory(recorder_store) if self._recorder_factory
                   else self._default_recorder(recorder_store))
        stale_s = float(self.dcfg["stale_warning_minutes"]) * 60.0
        self.supervisor = RecorderSupervisor(
            factory, probe_after_seconds=stale_s, probe_timeout=min(5.0, max(1.0, stale_s))
        )
        if self.paused:
            return
        self.supervisor.start()
        err = self.supervisor.last_exception
        if isinstance(err, FileGramError) and self.supervisor.recorder is None:
            # A setting the user must fix (a root in a private folder, ...): fail now,
            # clearly, instead of retrying in the background.
            raise FileGramError(f"cannot record: {err}")

    def _default_recorder(self, store: Store) -> Callable[[], RecorderLike]:
        def make() -> RecorderLike:
            from filegram.recorder import Recorder

            reconcile, self._reconcile_next = self._reconcile_next, True
            recorder: RecorderLike = Recorder(store, self.roots, self.config, home=self.home,
                                              owner="the FileGram daemon", reconcile=reconcile)
            return recorder

        return make

    def _recorder_session(self) -> str | None:
        sup = self.supervisor
        return getattr(sup.recorder, "session_id", None) if sup else None

    def _start_jobs(self) -> Scheduler:
        scheduler = Scheduler()
        minutes = float(self.dcfg["consolidate_minutes"])
        scheduler.add("consolidate", self.consolidate, minutes * 60, first_in_seconds=min(5.0, minutes * 60))
        scheduler.add("retention", self.retention, 6 * 3600, first_in_seconds=60)
        hours = float(self.dcfg["backup_hours"])
        scheduler.add("integrity_backup", self.integrity_backup, hours * 3600,
                      first_in_seconds=min(600.0, hours * 3600))
        if self.screen_available():
            every = float(self.config["screen"]["interval_seconds"])
            scheduler.add("screen", self.screen_tick, every, first_in_seconds=every)
        if str(self.config["sync"]["dir"]).strip():
            every = float(self.config["sync"]["interval_minutes"]) * 60
            scheduler.add("sync", self.sync, every, first_in_seconds=min(30.0, every))
        scheduler.start()
        return scheduler

    def request_stop(self) -> None:
        """Ask the daemon to shut down (any thread; signal-safe; a second ask is a no-op)."""
        self.stop_event.set()
        if self._stop_requested:
            return
        self._stop_requested = True
        for cb in list(self._stop_callbacks):
            try:
                cb()
            except Exception:
                log.exception("stop callback failed")

    def on_stop(self, callback: Callable[[], None]) -> None:
        self._stop_callbacks.append(callback)

    def stop(self) -> None:
        """Flush and close everything, then release the lock (idempotent)."""
        self.stop_event.set()
        with self._control_lock:
            pass  # a pause or resume under way finishes first; later ones see stop_event
        self._stop_components()
        self.files.release()
        log.info("daemon stopped")

    def _stop_components(self) -> None:
        if self.scheduler is not None:
            self.scheduler.shutdown()
            self.scheduler = None
        if self.screen is not None:
            self.screen.close()  # stores pending observations, closes its own session
        if self.supervisor is not None:
            self.supervisor.shutdown()  # flushes the queue and closes the open session
            self.supervisor = None
        if self.api is not None:
            self.api.shutdown()
            self.api = None
        for store in self._stores:
            with contextlib.suppress(Exception):
                store.close()
        self._stores.clear()
        self._sync_store = None

    def run(self) -> int:
        """Foreground: start, show the tray or wait, stop on a signal. Returns an exit code."""
        if self.handle_signals:
            self._install_signals()
        from .resident import limit_arenas

        limit_arenas()  # before the threads start: fewer malloc arenas to keep freed memory in
        self.start()
        try:
            shown = False
            if self.tray_wanted:
                from .tray import run_tray

                shown = run_tray(self)  # blocks on this (main) thread until stop
            if not shown:
                # Short waits: the kernel may hand SIGTERM to any thread, and Python runs the
                # handler on this one only when it wakes (an hour-long wait ignored a `kill`).
                while not self.stop_event.wait(0.5):
                    pass
        finally:
            self.stop()
        return 0

    def _install_signals(self) -> None:
        def handler(signum: int, _frame: FrameType | None) -> None:
            log.info("received %s: stopping", signal.Signals(signum).name)
            self.request_stop()

        for sig in (signal.SIGTERM, signal.SIGINT, getattr(signal, "SIGHUP", None)):
            if sig is not None:
                signal.signal(sig, handler)
        usr1 = getattr(signal, "SIGUSR1", None)
        if usr1 is not None and sys.stderr is not None:
            # `kill -USR1 <pid>`: every thread's stack to the daemon's log, for a daemon that
            # stopped answering (what a bug report about a hang needs)
            import faulthandler

            with contextlib.suppress(ValueError, OSError, AttributeError):
                faulthandler.register(usr1, file=sys.stderr, all_threads=True)

    # -- control ----------------------------------------------------------------------

    def pause(self) -> dict[str, Any]:
        """Stop recording; idempotent, and serialised with resume and stop."""
        with self._control_lock:
            if self.stop_event.is_set():
                return self.health()
            if self.supervisor is not None:
                self.supervisor.pause()
            if not self.paused:
                self.paused = True
                self.memory_store.set_state(PAUSED_STATE_KEY, True)
                log.info("recording paused")
        return self.health()

    def resume(self) -> dict[str, Any]:
        """Record again; idempotent (a resume while recording starts nothing), serialised
        with pause and stop, and nothing once the daemon is stopping."""
        with self._control_lock:
            if self.stop_event.is_set():
                return self.health()
            if self.paused:
                self.paused = False
                self.memory_store.set_state(PAUSED_STATE_KEY, False)
                self._reconcile_next = False  # what changed while paused is not recorded
                log.info("recording resumed")
            if self.supervisor is not None:
                self.supervisor.start()
        return self.health()

    # -- stores and memory ------------------------------------------------------------

    @contextlib.contextmanager
    def query_held(self) -> Iterator[Store]:
        """The store for reads (API, pages, health), one reader at a time."""
        with self._query_lock:
            yield self.query_store

    def memory_held(self, wait: float = MEMORY_BUSY_SECONDS) -> contextlib.AbstractContextManager[Memory]:
        """The one Memory; Busy (503 over HTTP) while a consolidation holds it for > wait s."""
        if self.shared_memory is None:
            raise FileGramError("the daemon is not running")
        return self.shared_memory.held(wait)

    # -- jobs -------------------------------------------------------------------------

    def consolidate(self) -> dict[str, Any]:
        """Store what the recorder holds, close idle sessions, learn from closed ones."""
        closed = 0
        if self.supervisor is not None:
            self.supervisor.flush(timeout=10.0)
            closer = getattr(self.supervisor.recorder, "close_idle_session", None)
            if callable(closer):
                closed = int(bool(closer()))
        with self.memory_held(wait=3600) as mem:
            # live memory: the open session too, at most every [memory] live_fold_minutes
            ingested = mem.consolidate(live=True, force=False)
            live = mem.live_status()
            if ingested or closed:  # hand back what learning allocated (daemon/resident.py)
                from .resident import release

                release([self.memory_store.conn])
        return {"ingested": ingested, "closed_idle": closed,
                "provisional": {"sessions": live["sessions"], "actions": live["actions"]}}

    def sync(self, shared: str | None = None) -> dict[str, Any]:
        """The [sync] job (filegram/sync), and `filegram sync` through the API (`shared`:
        its --dir): exchange sessions through the shared folder on a connection of its own,
        then learn from what arrived."""
        from filegram.sync import run_sync

        if self._sync_store is None:
            self._sync_store = self._open_store()
        report = run_sync(self.home, self.config, self._sync_store, shared,
                          warn=lambda msg: log.warning("sync: %s", msg), forgetting=self._forgetting)
        if report.received.sessions or report.forgets_applied:
            self.consolidate()
        return report.as_dict()

    @contextlib.contextmanager
    def _forgetting(self) -> Iterator[None]:
        """While a forget from another device is replayed: as for one of this device's
        (daemon/web/backends.py), one forget at a time, the recorder paused, memory held."""
        from .web.backends import FORGET_LOCK

        sup = self.supervisor
        restart = sup is not None and not self.paused
        with FORGET_LOCK:
            if sup is not None and restart:
                sup.pause()
            try:
                with self.memory_held(wait=3600):
                    yield
            finally:
                if sup is not None and restart:
                    sup.start()

    def retention(self) -> int:
        return apply_retention(self.memory_store, float(self.dcfg["snapshot_retention_days"]))

    def integrity_backup(self) -> dict[str, Any]:
        out = check_and_backup(self.memory_store, self.home.backup_dir, int(self.dcfg["backups_kept"]))
        self._integrity = out["integrity"]
        return out

    def screen_available(self) -> bool:
        return self.screen is not None and self.screen.available()

    def screen_enabled(self) -> bool:
        return self.screen is not None and self.screen.enabled()

    def set_screen_enabled(self, on: bool) -> None:
        """The tray's toggle; kept in the store, so it survives restarts."""
        if self.screen is not None:
            self.screen.set_enabled(on)

    def screen_tick(self) -> Any:
        """One capture attempt every [screen] interval_seconds; nothing while paused or off."""
        if self.paused or self.screen is None or not self.screen.enabled():
            return "off"
        return self.screen.tick()

    # -- health -----------------------------------------------------------------------

    def health(self) -> dict[str, Any]:
        now = time.time() * 1000.0
        # read once: stop() sets these to None from another thread
        supervisor, scheduler = self.supervisor, self.scheduler
        rec = supervisor.stats() if supervisor else {"running": False}
        with self.query_held() as store:
            last_stored = store.last_action_ms()
            provisional = provisional_actions(store)
        job_errors = scheduler.errors() if scheduler else {}
        memory_error = self.shared_memory.error if self.shared_memory else None
        if memory_error:
            job_errors = {**job_errors, "memory": memory_error}
        inputs = hl.HealthInputs(
            paused=self.paused,
            recorder_running=bool(rec.get("running")),
            recorder_started_ms=rec.get("started_ms"),
            unstored_since_ms=rec.get("unstored_since_ms"),
            stale_minutes=float(self.dcfg["stale_warning_minutes"]),
            recorder_restarts_recent=int(rec.get("restarts_recent") or 0),
            recorder_last_error=rec.get("last_error"),
            recorder_gave_up=bool(rec.get("gave_up")),
            recorder_resource_error=rec.get("resource_error") if rec.get("running") else None,
            integrity=self._integrity,
            job_errors=job_errors,
            now_ms=now,
        )
        state, warnings = hl.assess(inputs)
        last_memory = self.shared_memory.last_update_ms() if self.shared_memory else None
        return hl.to_json({
            "state": state,
            "ok": state in (hl.RECORDING, hl.PAUSED),
            "status_line": hl.status_line(state, last_stored, last_memory, now, provisional),
            "memory_provisional_actions": provisional,
            "warnings": warnings,
            "pid": os.getpid(),
            "version": package_version(),
            "started_ms": self.started_ms,
            "uptime_s": (now - self.started_ms) / 1000.0 if self.started_ms else None,
            "now_ms": now,
            "paused": self.paused,
            "roots": [str(r) for r in self.roots],
            "home": str(self.home.root),
            "api_url": self.api.url if self.api else None,
            "last_stored_action_ms": last_stored,
            "last_memory_update_ms": last_memory,
            "recorder": {k: rec.get(k) for k in RECORDER_FIELDS},
            "jobs": scheduler.describe() if scheduler else [],
            "integrity": self._integrity,
            "tray": self.tray_state,
            "litellm_loaded": "litellm" in sys.modules,
        })

    # -- UI helpers (tray) ------------------------------------------------------------

    def write_profile_page(self) -> Path:
        """Render the profile to a private HTML file (a browser cannot send the token)."""
        from .web.views import static_profile_page

        with self.memory_held() as mem:
            profile = mem.profile()
        path = self.home.run_dir / "profile.html"
        write_private(path, static_profile_page(profile, self.health()))
        return path

    def signin_url(self) -> str:
        """A one-time URL that signs a browser in to the dashboard (the tray's Open profile)."""
        api = self.api
        if api is None or api.web is None or not hasattr(api.web, "signin_path"):
            raise FileGramError("this build has no dashboard")
        return api.url + api.web.signin_path()

    def open_path(self, target: str | Path) -> None:
        open_with_system(str(target))


def provisional_actions(store: Store) -> int:
    """Actions of the open session(s) that live memory has folded in provisionally."""
    if not store.has_table("mem_live"):
        return 0
    return int(store.conn.execute("SELECT COALESCE(SUM(actions), 0) FROM mem_live").fetchone()[0])
