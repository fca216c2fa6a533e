"""The daemon: wires recorder, memory, scheduler, local API and tray around one store.

Start-up order is chosen so that whatever a client can see is true: the lock first (one
instance per home), then orphaned sessions of a dead run are closed, then the API, the
recorder and the jobs, and only then daemon.json says "ready". Shutdown runs the other way
and always flushes the recorder's queue and closes its session, on SIGTERM, SIGINT, the
tray's Quit or POST /api/stop alike.

Each thread talks to SQLite through its own connection (recorder, jobs and memory, API),
so a long consolidation never blocks the recorder's commits.
"""

from __future__ import annotations

import contextlib
import dataclasses
import html
import logging
import logging.handlers
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from filegram.config import Config, Home
from filegram.errors import FileGramError

from . import health as hl
from .api import ApiError, ApiServer, Request, require_object
from .maintenance import apply_retention, check_and_backup, close_orphaned_sessions
from .runtime import RunFiles
from .scheduler import Scheduler
from .supervisor import RecorderSupervisor

log = logging.getLogger("filegram.daemon")

PAUSED_STATE_KEY = "daemon.paused"
MEMORY_BUSY_SECONDS = 60.0


def version() -> str:
    try:
        from importlib.metadata import version as _v

        return _v("filegram")
    except Exception:
        return "unknown"


def setup_logging(home: Home, *, to_stderr: bool) -> None:
    """A rotating log in the home (1 MB x 3) and, in the foreground, stderr too."""
    logger = logging.getLogger("filegram")
    if getattr(logger, "_filegram_daemon_logging", False):
        return
    home.log_dir.mkdir(parents=True, exist_ok=True)
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    fh = logging.handlers.RotatingFileHandler(
        home.log_dir / "daemon.log", maxBytes=1_000_000, backupCount=3, encoding="utf-8"
    )
    fh.setFormatter(fmt)
    logger.addHandler(fh)
    if to_stderr:
        sh = logging.StreamHandler(sys.stderr)
        sh.setFormatter(fmt)
        logger.addHandler(sh)
    logger.setLevel(logging.INFO)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)  # one INFO line per job run
    for h in logger.handlers:
        logging.getLogger("apscheduler").addHandler(h)
    logger._filegram_daemon_logging = True  # type: ignore[attr-defined]


def resolve_roots(roots: list[str | Path], home: Home) -> list[Path]:
    if not roots:
        raise FileGramError(
            "no folders to record: pass --root DIR or set [recorder] roots in "
            f"{home.config_path}"
        )
    out = []
    for r in roots:
        p = Path(r).expanduser()
        if not p.is_dir():
            raise FileGramError(f"root folder does not exist: {p}")
        p = p.resolve()
        if p == home.root or home.is_inside(p):
            raise FileGramError(f"root {p} is inside the FileGram home; choose your own folders")
        out.append(p)
    return out


def _default_recorder_factory(store: Any, roots: list[Path], config: Config, home: Home) -> Callable[[], Any]:
    def make() -> Any:
        from filegram.recorder import Recorder

        return Recorder(store, roots, config, home=home)

    return make


def _default_memory_factory(store: Any, config: Config) -> Any:
    from filegram.memory import Memory

    return Memory(store, config)


class Daemon:
    """One running FileGram daemon for one home."""

    def __init__(
        self,
        home: Home,
        config: Config,
        roots: list[Path],
        *,
        tray: bool | None = None,
        recorder_factory: Callable[[Any], Callable[[], Any]] | None = None,
        memory_factory: Callable[[Any, Config], Any] | None = None,
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
        self._memory_factory = memory_factory or _default_memory_factory
        self.stop_event = threading.Event()
        self.started_ms: float | None = None
        self.ready_ms: float | None = None
        self.paused = False
        self.tray_state = "off"
        self._memory: Any = None
        self._memory_error: str | None = None
        self._memory_lock = threading.Lock()
        self._query_lock = threading.Lock()
        self._integrity: str | None = None
        self._stop_callbacks: list[Callable[[], None]] = []
        self._screen: Any = None
        self._screen_lock = threading.Lock()
        self.api: ApiServer | None = None
        self.scheduler: Scheduler | None = None
        self.supervisor: RecorderSupervisor | None = None
        self._stores: list[Any] = []

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

    def _open_store(self) -> Any:
        store = self.home.open_store()
        self._stores.append(store)
        return store

    def _start_components(self, t0: float) -> None:
        self.started_ms = t0 * 1000.0
        self.query_store = self._open_store()  # API reads and health
        self.memory_store = self._open_store()  # memory and housekeeping jobs
        recorder_store = self._open_store()
        for source in ("recorder", "screen"):  # the sources a live daemon writes
            close_orphaned_sessions(self.memory_store, source=source)
        self.paused = bool(self.memory_store.get_state(PAUSED_STATE_KEY, False))

        token = self.files.new_token()
        port = int(self.dcfg["api_port"])
        try:
            self.api = ApiServer(token, port=port)
        except OSError as exc:
            raise FileGramError(f"cannot listen on 127.0.0.1:{port} for the local API: "
                                f"{exc.strerror or exc} (set [daemon] api_port = 0 for any free port)") from exc
        self._add_routes(self.api)
        self.api.start()

        factory = (
            self._recorder_factory(recorder_store)
            if self._recorder_factory
            else _default_recorder_factory(recorder_store, self.roots, self.config, self.home)
        )
        stale_s = float(self.dcfg["stale_warning_minutes"]) * 60.0
        self.supervisor = RecorderSupervisor(
            factory, probe_after_seconds=stale_s, probe_timeout=min(5.0, max(1.0, stale_s))
        )
        if not self.paused:
            self.supervisor.start()
            err = self.supervisor.last_exception
            if isinstance(err, FileGramError) and self.supervisor.recorder is None:
                # A setting the user must fix (a root in a private folder, ...): fail now,
                # clearly, instead of retrying in the background.
                raise FileGramError(f"cannot record: {err}")

        self.scheduler = Scheduler()
        minutes = float(self.dcfg["consolidate_minutes"])
        self.scheduler.add("consolidate", self.consolidate, minutes * 60, first_in_seconds=min(5.0, minutes * 60))
        self.scheduler.add("retention", self.retention, 6 * 3600, first_in_seconds=60)
        hours = float(self.dcfg["backup_hours"])
        self.scheduler.add("integrity_backup", self.integrity_backup, hours * 3600,
                           first_in_seconds=min(600.0, hours * 3600))
        if self.screen_available():
            every = float(self.config["screen"]["interval_seconds"])
            self.scheduler.add("screen", self.screen_tick, every, first_in_seconds=every)
        self.scheduler.start()

        self.ready_ms = time.time() * 1000.0
        self.files.write_info({
            "pid": os.getpid(),
            "api_port": self.api.port,
            "api_url": self.api.url,
            "started_ms": self.started_ms,
            "ready_ms": self.ready_ms,
            "home": str(self.home.root),
            "roots": [str(r) for r in self.roots],
            "version": version(),
        })
        log.info("daemon ready in %.2f s (pid %d, API %s, roots %s%s)",
                 (self.ready_ms - self.started_ms) / 1000.0, os.getpid(), self.api.url,
                 ", ".join(map(str, self.roots)), ", paused" if self.paused else "")

    def request_stop(self) -> None:
        """Ask the daemon to shut down (any thread; signal-safe)."""
        self.stop_event.set()
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
        self._stop_components()
        self.files.release()
        log.info("daemon stopped")

    def _stop_components(self) -> None:
        if self.scheduler is not None:
            self.scheduler.shutdown()
            self.scheduler = None
        if self._screen is not None:
            try:
                self._screen.close()  # stores pending observations, closes its own session
            except Exception:
                log.exception("screen recorder did not close cleanly")
            self._screen = None
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

    def run(self) -> int:
        """Foreground: start, show the tray or wait, stop on a signal. Returns an exit code."""
        if self.handle_signals:
            self._install_signals()
        self.start()
        try:
            shown = False
            if self.tray_wanted:
                from .tray import run_tray

                shown = run_tray(self)  # blocks on this (main) thread until stop
            if not shown:
                while not self.stop_event.wait(3600):
                    pass
        finally:
            self.stop()
        return 0

    def _install_signals(self) -> None:
        def handler(signum: int, _frame: Any) -> None:
            log.info("received %s: stopping", signal.Signals(signum).name)
            self.request_stop()

        for sig in (signal.SIGTERM, signal.SIGINT, getattr(signal, "SIGHUP", None)):
            if sig is not None:
                signal.signal(sig, handler)

    # -- control ----------------------------------------------------------------------

    def pause(self) -> dict[str, Any]:
        if self.supervisor is not None:
            self.supervisor.pause()
        self.paused = True
        self.memory_store.set_state(PAUSED_STATE_KEY, True)
        log.info("recording paused")
        return self.health()

    def resume(self) -> dict[str, Any]:
        self.paused = False
        self.memory_store.set_state(PAUSED_STATE_KEY, False)
        if self.supervisor is not None:
            self.supervisor.start()
        log.info("recording resumed")
        return self.health()

    # -- memory and jobs --------------------------------------------------------------

    def memory(self) -> Any:
        """The one Memory instance (built lazily: it may import numpy and friends)."""
        if self._memory is None:
            try:
                self._memory = self._memory_factory(self.memory_store, self.config)
                self._memory_error = None
            except Exception as exc:
                self._memory_error = f"{type(exc).__name__}: {exc}"
                log.exception("memory is unavailable")
                raise FileGramError(f"memory is unavailable: {self._memory_error}") from exc
        return self._memory

    @contextlib.contextmanager
    def _memory_held(self, wait: float = MEMORY_BUSY_SECONDS):  # noqa: ANN202
        if not self._memory_lock.acquire(timeout=wait):
            raise ApiError(503, "memory is busy (consolidating); try again shortly")
        try:
            yield self.memory()
        finally:
            self._memory_lock.release()

    def consolidate(self) -> dict[str, Any]:
        """Store what the recorder holds, close idle sessions, learn from closed ones."""
        closed = 0
        if self.supervisor is not None:
            self.supervisor.flush(timeout=10.0)
            rec = self.supervisor.recorder
            closer = getattr(rec, "close_idle_session", None)
            if callable(closer):
                closed = int(bool(closer()))
        with self._memory_held(wait=3600) as mem:
            ingested = mem.consolidate()
        return {"ingested": ingested, "closed_idle": closed}

    def retention(self) -> int:
        return apply_retention(self.memory_store, float(self.dcfg["snapshot_retention_days"]))

    def integrity_backup(self) -> dict[str, Any]:
        out = check_and_backup(self.memory_store, self.home.backup_dir, int(self.dcfg["backups_kept"]))
        self._integrity = out["integrity"]
        return out

    def screen_available(self) -> bool:
        try:
            from filegram.recorder import screen  # noqa: F401
        except ImportError:
            if self.config["screen"]["enabled"]:
                log.warning("screen capture is enabled but not available in this build")
            return False
        return True

    def screen(self) -> Any:
        """The screen recorder (built on first use, on its own store connection). Its on/off
        switch lives in the store, so the tray's toggle survives restarts."""
        if self._screen is None:
            from filegram.recorder import screen

            with self._screen_lock:
                if self._screen is None:
                    sup = self.supervisor
                    self._screen = screen.ScreenCapture(
                        self._open_store(), self.config, home=self.home, roots=list(self.roots),
                        session_provider=lambda: getattr(sup.recorder, "session_id", None) if sup else None,
                    )
        return self._screen

    def screen_enabled(self) -> bool:
        try:
            from filegram.recorder import screen
        except ImportError:
            return False
        return bool(screen.is_enabled(self.memory_store, self.config))

    def screen_tick(self) -> Any:
        """One capture attempt every [screen] interval_seconds; nothing while paused or off."""
        if self.paused or not self.screen_enabled():
            return "off"
        return self.screen().tick()

    # -- health -----------------------------------------------------------------------

    def last_memory_update_ms(self) -> float | None:
        if self._memory is None:
            try:
                self.memory()
            except FileGramError:
                return None
        if not self._memory_lock.acquire(timeout=0.5):
            return getattr(self, "_last_memory_ms", None)
        try:
            self._last_memory_ms = self._memory.last_update_ms()
        except Exception:
            log.exception("memory.last_update_ms failed")
            self._last_memory_ms = None
        finally:
            self._memory_lock.release()
        return self._last_memory_ms

    def health(self) -> dict[str, Any]:
        now = time.time() * 1000.0
        rec = self.supervisor.stats() if self.supervisor else {"running": False}
        with self._query_lock:
            last_stored = self.query_store.last_action_ms()
        job_errors = self.scheduler.errors() if self.scheduler else {}
        if self._memory_error:
            job_errors = {**job_errors, "memory": self._memory_error}
        inputs = hl.HealthInputs(
            paused=self.paused,
            recorder_running=bool(rec.get("running")),
            recorder_started_ms=rec.get("started_ms"),
            unstored_since_ms=rec.get("unstored_since_ms"),
            stale_minutes=float(self.dcfg["stale_warning_minutes"]),
            recorder_restarts_recent=int(rec.get("restarts_recent") or 0),
            recorder_last_error=rec.get("last_error"),
            recorder_gave_up=bool(rec.get("gave_up")),
            integrity=self._integrity,
            job_errors=job_errors,
            now_ms=now,
        )
        state, warnings = hl.assess(inputs)
        last_memory = self.last_memory_update_ms()
        recorder = {
            k: rec.get(k)
            for k in ("running", "session_id", "queued", "stored", "dropped", "errors", "restarts",
                      "restarts_recent", "failures", "last_error", "gave_up", "last_stored_ms",
                      "last_activity_ms", "unstored_since_ms", "probes", "started_ms", "next_retry_s",
                      "unavailable_types")
        }
        return hl.to_json({
            "state": state,
            "ok": state in (hl.RECORDING, hl.PAUSED),
            "status_line": hl.status_line(state, last_stored, last_memory, now),
            "warnings": warnings,
            "pid": os.getpid(),
            "version": version(),
            "started_ms": self.started_ms,
            "uptime_s": (now - self.started_ms) / 1000.0 if self.started_ms else None,
            "now_ms": now,
            "paused": self.paused,
            "roots": [str(r) for r in self.roots],
            "home": str(self.home.root),
            "api_url": self.api.url if self.api else None,
            "last_stored_action_ms": last_stored,
            "last_memory_update_ms": last_memory,
            "recorder": recorder,
            "jobs": self.scheduler.describe() if self.scheduler else [],
            "integrity": self._integrity,
            "tray": self.tray_state,
            "litellm_loaded": "litellm" in sys.modules,
        })

    # -- UI helpers (tray) ------------------------------------------------------------

    def write_profile_page(self) -> Path:
        """Render the profile to a private HTML file (a browser cannot send the token)."""
        with self._memory_held() as mem:
            profile = mem.profile()
        path = self.home.run_dir / "profile.html"
        from .runtime import write_private

        write_private(path, render_profile_html(profile, self.health()))
        return path

    def open_path(self, target: str | Path) -> None:
        open_with_system(str(target))

    # -- API routes -------------------------------------------------------------------

    def _add_routes(self, api: ApiServer) -> None:
        api.route("GET", "/api/health", lambda r: self.health())
        api.route("GET", "/api/profile", self._api_profile)
        api.route("POST", "/api/ask", self._api_ask)
        api.route("GET", "/api/sessions", self._api_sessions)
        api.route("GET", "/api/actions", self._api_actions)
        api.route("POST", "/api/pause", lambda r: self.pause())
        api.route("POST", "/api/resume", lambda r: self.resume())
        api.route("POST", "/api/consolidate", lambda r: self.consolidate())
        api.route("POST", "/api/stop", self._api_stop)
        try:
            from .dashboard import DaemonBackend, Dashboard, api_routes
        except ImportError as exc:  # the dashboard is optional: the JSON API still works
            log.warning("dashboard unavailable: %s", exc)
            return
        backend = DaemonBackend(self)
        api.web = Dashboard(backend, api.token)
        for method, path, handler in api_routes(backend.assistant):
            api.route(method, path, handler)

    def _api_profile(self, req: Request) -> Any:
        with self._memory_held() as mem:
            return mem.profile()

    def _api_ask(self, req: Request) -> Any:
        body = require_object(req.body, {"question": (str,), "choices": (list, type(None))}, ("question",))
        question = body["question"].strip()
        if not question or len(question) > 4000:
            raise ApiError(400, "question must be 1 to 4000 characters")
        choices = body.get("choices")
        if choices is not None:
            if not 2 <= len(choices) <= 26 or not all(isinstance(c, str) and c.strip() for c in choices):
                raise ApiError(400, "choices must be a list of 2 to 26 non-empty strings")
            if any(len(c) > 4000 for c in choices):
                raise ApiError(400, "each choice must be at most 4000 characters")
        with self._memory_held() as mem:
            answer = mem.ask(question, choices)
        if dataclasses.is_dataclass(answer):
            return dataclasses.asdict(answer)
        return answer

    def _api_sessions(self, req: Request) -> Any:
        limit = req.int_param("limit", 50, 1, 1000)
        closed = req.bool_param("closed")
        source = req.param("source")
        with self._query_lock:
            sessions = self.query_store.sessions(closed=closed, source=source)
        sessions = sessions[-limit:][::-1]
        return {"sessions": sessions, "count": len(sessions)}

    def _api_actions(self, req: Request) -> Any:
        from filegram.schema import ACTION_TYPES

        limit = req.int_param("limit", 50, 1, 1000)
        session = req.param("session")
        types = [t for t in (req.param("types") or "").split(",") if t]
        bad = [t for t in types if t not in ACTION_TYPES]
        if bad:
            raise ApiError(400, f"unknown action type(s): {', '.join(bad)}")
        with self._query_lock:
            actions = list(self.query_store.actions(session_id=session, types=types or None,
                                                    limit=limit, newest_first=True))
        return {"actions": actions, "count": len(actions)}

    def _api_stop(self, req: Request) -> Any:
        # Answer first, then stop: the stop joins the API thread.
        threading.Timer(0.1, self.request_stop).start()
        return {"stopping": True, "pid": os.getpid()}


def open_with_system(target: str) -> None:
    """Open a folder, file or URL with the desktop's handler, without waiting for it."""
    if sys.platform == "win32":  # pragma: no cover
        os.startfile(target)  # type: ignore[attr-defined]
        return
    cmd = ["open", target] if sys.platform == "darwin" else ["xdg-open", target]
    try:
        subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    except OSError as exc:
        raise FileGramError(f"cannot open {target}: {exc.strerror}") from exc


def render_profile_html(profile: dict[str, Any], health: dict[str, Any]) -> str:
    esc = html.escape
    rows = []
    for dim, d in sorted((profile.get("dimensions") or {}).items()):
        d = d if isinstance(d, dict) else {"tier": d}
        ev = d.get("evidence") or []
        ev_html = "".join(f"<li>{esc(str(e))}</li>" for e in (ev if isinstance(ev, list) else [ev])[:6])
        name = d.get("name") or ""
        conf = d.get("confidence")
        conf_s = f"{conf:.2f}" if isinstance(conf, int | float) else ""
        rows.append(
            f"<tr><td>{esc(dim)} {esc(str(name))}</td><td><b>{esc(str(d.get('tier', '?')))}</b></td>"
            f"<td>{esc(conf_s)}</td><td><ul>{ev_html}</ul></td></tr>"
        )
    anomalies = "".join(
        f"<li>{esc(str(a.get('session')))}: {esc(str(a.get('dimension')))} "
        f"{esc(str(a.get('from')))} &rarr; {esc(str(a.get('to')))} ({esc(str(a.get('verdict')))})</li>"
        for a in (profile.get("anomalies") or []) if isinstance(a, dict)
    )
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>FileGram profile</title>
<style>body{{font-family:sans-serif;margin:2em;max-width:60em}}td{{vertical-align:top;padding:.3em .8em;border-bottom:1px solid #ddd}}</style>
</head><body><h1>How you work</h1><p>{esc(health.get('status_line', ''))}</p>
<table><tr><th>dimension</th><th>tier</th><th>confidence</th><th>evidence</th></tr>{''.join(rows)}</table>
<h2>Changes noticed</h2><ul>{anomalies or '<li>none</li>'}</ul></body></html>
"""
