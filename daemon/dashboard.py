"""The local web dashboard, served by the daemon's HTTP server on 127.0.0.1.

Routing: the dashboard owns `/` and everything under `/ui/`; the JSON API keeps `/api/`.
`Dashboard.serve(handler, method)` answers one request on a BaseHTTPRequestHandler, so
the daemon's server hands a request over in two lines (see docs/assistant.md).

Authentication: a browser cannot send the API's bearer header, so `filegram open` opens
`/?token=<api token>` once; that sets an HttpOnly, SameSite=Strict cookie holding a key
derived from the token (never the token itself) and redirects to a URL without it. Every
page needs that cookie or the bearer header; every POST also needs the CSRF token the
pages embed. Pages carry a strict Content-Security-Policy (no scripts at all), deny
framing and are never cached.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs, urlsplit

from filegram.errors import FileGramError

from . import dashboard_views as v
from .assist import Assistant

log = logging.getLogger("filegram.daemon")

COOKIE = "filegram_session"
MAX_FORM_BYTES = 16 * 1024
HISTORY_SESSIONS = 120
CSP = ("default-src 'none'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
       "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")


@dataclass
class WebRequest:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]  # lower-case names
    body: bytes = b""

    def param(self, name: str, default: str = "") -> str:
        vals = self.query.get(name)
        return vals[-1] if vals else default

    def form(self) -> dict[str, str]:
        ctype = self.headers.get("content-type", "").split(";")[0].strip()
        if ctype != "application/x-www-form-urlencoded":
            raise WebError(415, "forms must be sent as application/x-www-form-urlencoded")
        try:
            pairs = parse_qs(self.body.decode("utf-8"), keep_blank_values=True)
        except UnicodeDecodeError:
            raise WebError(400, "form is not UTF-8") from None
        return {k: vs[-1] for k, vs in pairs.items()}


@dataclass
class WebResponse:
    status: int
    body: bytes
    content_type: str = "text/html; charset=utf-8"
    headers: list[tuple[str, str]] = field(default_factory=list)


class WebError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


# -- what the dashboard needs from its host -----------------------------------------------


class LocalBackend:
    """The dashboard over a store with no daemon around it (tests, and a read-mostly view):
    pause and resume only flip the daemon's stored flag."""

    can_pause = True

    def __init__(self, home: Any, store: Any, config: Any):
        self.home = home
        self.store = store
        self.config = config
        self.assistant = Assistant(store, config)
        self._paused = bool(store.get_state("daemon.paused", False))

    def status(self) -> str:
        return "paused" if self._paused else "recording"

    def paused(self) -> bool:
        return self._paused

    def pause(self) -> None:
        self._paused = True
        self.store.set_state("daemon.paused", True)

    def resume(self) -> None:
        self._paused = False
        self.store.set_state("daemon.paused", False)

    def sessions(self) -> list[dict[str, Any]]:
        with self.assistant.store_held() as st:
            return st.sessions()

    def session_tiers(self, session_ids: list[str]) -> dict[str, dict[str, Any]]:
        out = {}
        with self.assistant.memory_held() as mem:
            for sid in session_ids:
                with contextlib.suppress(FileGramError):
                    out[sid] = mem.session_tiers(sid)
        return out

    @contextlib.contextmanager
    def writer(self) -> Iterator[Any]:
        """The store to forget from, with memory held so nothing consolidates meanwhile."""
        with self.assistant.memory_held():
            yield self.store

    def after_forget(self) -> None:
        pass

    def apply_exclusions(self) -> bool:
        """Make a new exclusion effective; False when it waits for the next recorder start."""
        return False


class DaemonBackend(LocalBackend):
    """The dashboard inside the running daemon: its query store and lock for reads, its
    one Memory (held while busy) for the profile, its own pause and resume."""

    def __init__(self, daemon: Any):
        self.daemon = daemon
        self.home = daemon.home
        self.config = daemon.config
        self.store = daemon.query_store

        @contextlib.contextmanager
        def store_held() -> Iterator[Any]:
            with daemon._query_lock:
                yield daemon.query_store

        self.assistant = Assistant(daemon.query_store, daemon.config,
                                   memory_held=daemon._memory_held, store_held=store_held)

    def status(self) -> str:
        try:
            return str(self.daemon.health().get("status_line") or "")
        except Exception:  # the status line must never break a page
            return "paused" if self.daemon.paused else "running"

    def paused(self) -> bool:
        return bool(self.daemon.paused)

    def pause(self) -> None:
        self.daemon.pause()

    def resume(self) -> None:
        self.daemon.resume()

    @contextlib.contextmanager
    def writer(self) -> Iterator[Any]:
        """Stop the recorder (it flushes its queue and closes its session, which forget may
        delete), forget with memory held, then record again in a new session."""
        sup = self.daemon.supervisor
        restart = sup is not None and not self.daemon.paused
        if restart:
            sup.pause()
        try:
            with self.daemon._memory_held():
                yield self.daemon.memory_store
        finally:
            if restart:
                sup.start()

    def apply_exclusions(self) -> bool:
        """Restart the recorder so a new exclusion applies now (it reads the config's
        exclude list when it starts; add_exclusion updated that list in place)."""
        sup = self.daemon.supervisor
        if sup is None or self.daemon.paused:
            return not self.daemon.paused
        sup.pause()
        sup.start()
        return True


# -- the dashboard ----------------------------------------------------------------------


class Dashboard:
    def __init__(self, backend: Any, token: str):
        self.backend = backend
        self.token = token
        self.session_key = hmac.new(token.encode(), b"filegram-dashboard-session", hashlib.sha256).hexdigest()
        self.csrf = hmac.new(token.encode(), b"filegram-dashboard-csrf", hashlib.sha256).hexdigest()[:32]
        self._forget_lock = threading.Lock()
        self.routes: dict[tuple[str, str], Callable[[WebRequest], WebResponse]] = {
            ("GET", "/"): self.root,
            ("GET", "/ui"): self.profile,
            ("GET", "/ui/"): self.profile,
            ("GET", "/ui/style.css"): self.style,
            ("GET", "/ui/timeline"): self.timeline,
            ("GET", "/ui/activity"): self.activity,
            ("GET", "/ui/ask"): self.ask_get,
            ("POST", "/ui/ask"): self.ask_post,
            ("GET", "/ui/card"): self.card,
            ("GET", "/ui/card.md"): self.card_md,
            ("GET", "/ui/screen"): self.screen,
            ("GET", "/ui/privacy"): self.privacy,
            ("POST", "/ui/privacy/pause"): self.pause,
            ("POST", "/ui/privacy/resume"): self.resume,
            ("POST", "/ui/privacy/exclude"): self.exclude,
            ("POST", "/ui/privacy/forget"): self.forget,
        }

    # -- plumbing ---------------------------------------------------------------------

    @staticmethod
    def owns(path: str) -> bool:
        """True for the paths the dashboard answers (the rest belongs to the JSON API)."""
        p = urlsplit(path).path
        return p == "/" or p == "/ui" or p.startswith("/ui/") or p == "/favicon.ico"

    def serve(self, handler: Any, method: str) -> None:
        """Answer one request on an http.server BaseHTTPRequestHandler."""
        parts = urlsplit(handler.path)
        headers = {k.lower(): val for k, val in handler.headers.items()}
        body = b""
        length = headers.get("content-length")
        try:
            if headers.get("transfer-encoding"):
                handler.close_connection = True
                raise WebError(411, "send a Content-Length")
            if length:
                if not length.isdigit():
                    handler.close_connection = True
                    raise WebError(400, "bad Content-Length")
                n = int(length)
                if n > MAX_FORM_BYTES:
                    handler.close_connection = True
                    raise WebError(413, "form too large")
                body = handler.rfile.read(n)
            req = WebRequest(method, parts.path, parse_qs(parts.query, keep_blank_values=True), headers, body)
            resp = self.handle(req)
        except WebError as exc:
            resp = self._error(exc.status, exc.message)
        self._write(handler, resp)

    def _write(self, handler: Any, resp: WebResponse) -> None:
        try:
            handler.send_response(resp.status)
            handler.send_header("Content-Type", resp.content_type)
            handler.send_header("Content-Length", str(len(resp.body)))
            handler.send_header("Cache-Control", "no-store")
            handler.send_header("X-Content-Type-Options", "nosniff")
            handler.send_header("X-Frame-Options", "DENY")
            handler.send_header("Referrer-Policy", "no-referrer")
            handler.send_header("Content-Security-Policy", CSP)
            for k, val in resp.headers:
                handler.send_header(k, val)
            if getattr(handler, "close_connection", False):
                handler.send_header("Connection", "close")
            handler.end_headers()
            if handler.command != "HEAD":
                handler.wfile.write(resp.body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def handle(self, req: WebRequest) -> WebResponse:
        try:
            if req.path == "/" and req.param("token"):
                return self.login(req)
            if not self.authorized(req):
                if req.path.startswith("/ui/") and req.path != "/ui/style.css":
                    return WebResponse(401, v.login_page().encode())
                if req.path == "/ui/style.css":
                    return self.style(req)
                return WebResponse(401, v.login_page().encode())
            handler = self.routes.get((req.method, req.path))
            if handler is None and req.method == "GET" and req.path.startswith("/ui/frame/"):
                handler = self.frame
            if handler is None:
                if any(p == req.path for (_, p) in self.routes):
                    raise WebError(405, f"{req.method} is not allowed here")
                raise WebError(404, "no such page")
            if req.method == "POST":
                self.check_csrf(req)
            return handler(req)
        except WebError as exc:
            return self._error(exc.status, exc.message)
        except FileGramError as exc:
            return self._error(400, str(exc))
        except Exception as exc:
            if getattr(exc, "status", None) == 503:  # the daemon's "memory is busy"
                return self._error(503, getattr(exc, "message", str(exc)))
            log.exception("dashboard %s %s failed", req.method, req.path)
            return self._error(500, f"internal error ({type(exc).__name__}); see the daemon log")

    def _error(self, status: int, message: str) -> WebResponse:
        return WebResponse(status, v.error_page(status, message).encode())

    def authorized(self, req: WebRequest) -> bool:
        auth = req.headers.get("authorization", "")
        if auth.startswith("Bearer "):
            return hmac.compare_digest(auth[7:].strip().encode(), self.token.encode())
        cookie = SimpleCookie()
        with contextlib.suppress(Exception):
            cookie.load(req.headers.get("cookie", ""))
        morsel = cookie.get(COOKIE)
        return bool(morsel) and hmac.compare_digest(morsel.value.encode(), self.session_key.encode())

    def check_csrf(self, req: WebRequest) -> None:
        origin = req.headers.get("origin")
        host = req.headers.get("host", "")
        if origin and origin not in ("null",) and urlsplit(origin).netloc != host:
            raise WebError(403, "cross-site request refused")
        if req.headers.get("sec-fetch-site") == "cross-site":
            raise WebError(403, "cross-site request refused")
        form = req.form()
        if not hmac.compare_digest(form.get("csrf", "").encode(), self.csrf.encode()):
            raise WebError(403, "the form has expired: reload the page and try again")
        req._form = form  # type: ignore[attr-defined]

    def login(self, req: WebRequest) -> WebResponse:
        if not hmac.compare_digest(req.param("token").encode(), self.token.encode()):
            return WebResponse(401, v.login_page().encode())
        cookie = f"{COOKIE}={self.session_key}; Path=/; HttpOnly; SameSite=Strict"
        return WebResponse(303, b"", headers=[("Location", "/ui/"), ("Set-Cookie", cookie)])

    def _html(self, text: str, status: int = 200) -> WebResponse:
        return WebResponse(status, text.encode("utf-8"))

    @staticmethod
    def _form(req: WebRequest) -> dict[str, str]:
        return getattr(req, "_form", None) or req.form()

    # -- pages --------------------------------------------------------------------------

    def root(self, req: WebRequest) -> WebResponse:
        return WebResponse(303, b"", headers=[("Location", "/ui/")])

    def style(self, req: WebRequest) -> WebResponse:
        return WebResponse(200, v.CSS.encode(), "text/css; charset=utf-8")

    def profile(self, req: WebRequest) -> WebResponse:
        prof = self.backend.assistant.profile()
        sessions = [s for s in self.backend.sessions() if s.get("closed")]
        sessions.sort(key=lambda s: (s.get("started_ms") or 0, s["id"]))
        recent = sessions[-HISTORY_SESSIONS:]
        tiers = self.backend.session_tiers([s["id"] for s in recent])
        history: dict[str, list[tuple[int, float]]] = {}
        for i, s in enumerate(recent):
            for d, t in (tiers.get(s["id"]) or {}).items():
                pos = t.get("position") if isinstance(t, dict) else None
                if isinstance(pos, int | float):
                    history.setdefault(d, []).append((i, float(pos)))
        return self._html(v.profile_page(prof, history, len(recent), self.backend.status()))

    def timeline(self, req: WebRequest) -> WebResponse:
        prof = self.backend.assistant.profile()
        sessions = sorted(self.backend.sessions(), key=lambda s: (s.get("started_ms") or 0, s["id"]))
        return self._html(v.timeline_page(sessions, prof.get("anomalies") or [], self.backend.status()))

    def activity(self, req: WebRequest) -> WebResponse:
        try:
            limit = max(1, min(int(req.param("limit", "100")), 500))
        except ValueError:
            raise WebError(400, "limit must be a number") from None
        session = req.param("session") or None
        acts = self.backend.assistant.recent_activity(limit, session)
        return self._html(v.activity_page(acts, session, self.backend.status()))

    def ask_get(self, req: WebRequest) -> WebResponse:
        name_for, kind, q = req.param("name_for"), req.param("kind"), req.param("q")
        suggestion = hits = None
        error = ""
        try:
            if name_for:
                suggestion = self.backend.assistant.suggest(name_for, kind or None)
            if q:
                hits = self.backend.assistant.search(q, 8)
        except FileGramError as exc:
            error = str(exc)
        return self._html(v.ask_page(self.csrf, self.backend.status(), name_for=name_for, kind=kind,
                                     suggestion=suggestion, hits=hits, query=q, error=error))

    def ask_post(self, req: WebRequest) -> WebResponse:
        question = self._form(req).get("question", "").strip()
        try:
            answer = self.backend.assistant.ask(question)
            return self._html(v.ask_page(self.csrf, self.backend.status(), question=question, answer=answer))
        except FileGramError as exc:
            return self._html(v.ask_page(self.csrf, self.backend.status(), question=question, error=str(exc)), 400)

    def card(self, req: WebRequest) -> WebResponse:
        return self._html(v.card_page(self.backend.assistant.card(), self.backend.status()))

    def card_md(self, req: WebRequest) -> WebResponse:
        return WebResponse(200, self.backend.assistant.card().encode(), "text/markdown; charset=utf-8",
                           [("Content-Disposition", 'attachment; filename="working-style.md"')])

    def _screen_state(self) -> tuple[dict[str, Any], Any]:
        try:
            from filegram.recorder import screen
            from filegram.recorder.screen import store as screen_store
        except ImportError:
            return {"available": False, "reason": "Screen capture is not part of this build."}, None
        with self.backend.assistant.store_held() as st:
            enabled = screen.is_enabled(st, self.backend.config)
            totals = screen_store.totals(st)
        if not enabled and not totals.get("frames"):
            return {"available": False, "reason": "Screen capture is off. Turn it on from the tray "
                    "or set [screen] enabled = true in the config."}, screen_store
        return {"available": True, "enabled": enabled, "frames": totals.get("frames", 0)}, screen_store

    def screen(self, req: WebRequest) -> WebResponse:
        state, ss = self._screen_state()
        frames: list[dict[str, Any]] = []
        hits = None
        q = req.param("q").strip()
        if state.get("available"):
            with self.backend.assistant.store_held() as st:
                frames = ss.recent_frames(st, 24)
                if q:
                    hits = ss.search_frames(st, q, 24)
        return self._html(v.screen_page(state, frames, q, hits, self.backend.status()))

    def frame(self, req: WebRequest) -> WebResponse:
        try:
            fid = int(req.path.rsplit("/", 1)[-1])
        except ValueError:
            raise WebError(404, "no such frame") from None
        state, ss = self._screen_state()
        if ss is None:
            raise WebError(404, "no such frame")
        with self.backend.assistant.store_held() as st:
            f = ss.get_frame(st, fid, with_image=True)
        if not f:
            raise WebError(404, "no such frame")
        fmt = str(f.get("format") or "jpeg").lower()
        return WebResponse(200, f["image"], f"image/{'jpeg' if fmt in ('jpg', 'jpeg') else fmt}")

    # -- privacy --------------------------------------------------------------------------

    def _privacy(self, *, message: str = "", error: str = "", status: int = 200) -> WebResponse:
        return self._html(v.privacy_page(self.csrf, self.backend.status(), paused=self.backend.paused(),
                                         exclusions=list(self.backend.config["recorder"]["exclude"]),
                                         message=message, error=error, can_pause=self.backend.can_pause), status)

    def privacy(self, req: WebRequest) -> WebResponse:
        return self._privacy()

    def pause(self, req: WebRequest) -> WebResponse:
        self.backend.pause()
        return self._privacy(message="Recording paused. Nothing is recorded until you resume.")

    def resume(self, req: WebRequest) -> WebResponse:
        self.backend.resume()
        return self._privacy(message="Recording resumed.")

    def exclude(self, req: WebRequest) -> WebResponse:
        form = self._form(req)
        pattern = form.get("pattern", "").strip()
        try:
            add_exclusion(self.backend.home, self.backend.config, pattern)
        except FileGramError as exc:
            return self._privacy(error=str(exc), status=400)
        msg = f"Excluded {pattern}."
        if form.get("forget"):
            result = self._forget(path_glob=pattern)
            msg += " " + forget_summary(result)
        if self.backend.apply_exclusions():
            msg += " Recording continues without it."
        else:
            msg += " It applies from the next time recording starts."
        return self._privacy(message=msg)

    def forget(self, req: WebRequest) -> WebResponse:
        from filegram.forget import parse_time

        form = self._form(req)
        path = form.get("path", "").strip() or None
        since = form.get("since", "").strip()
        until = form.get("until", "").strip()
        everything = form.get("all") == "1"
        if not (everything or path or since or until):
            return self._privacy(error="say what to forget: a path glob, a time range, or everything", status=400)
        try:
            result = self._forget(path_glob=path, since_ms=parse_time(since) if since else None,
                                  until_ms=parse_time(until) if until else None, everything=everything)
        except FileGramError as exc:
            return self._privacy(error=str(exc), status=400)
        return self._privacy(message=forget_summary(result))

    def _forget(self, **kw: Any) -> dict[str, Any]:
        from filegram.forget import forget

        with self._forget_lock, self.backend.writer() as store:
            result = forget(store, self.backend.config, **kw)
        self.backend.after_forget()
        return result


def forget_summary(result: dict[str, Any]) -> str:
    return (f"Forgot {result.get('actions', 0)} action(s), {result.get('sessions', 0)} session(s), "
            f"{result.get('blobs', 0)} snapshot(s), {result.get('paths', 0)} path(s) and "
            f"{result.get('derived_rows', 0)} derived row(s); memory {result.get('memory', 'unchanged')}.")


# -- config edits ------------------------------------------------------------------------


def add_exclusion(home: Any, config: Any, pattern: str) -> list[str]:
    """Append a pattern to [recorder] exclude in the config file, keeping the rest of the
    file (comments included) as it was; the running config is updated too."""
    import re

    from filegram.config import DEFAULT_CONFIG_TEXT, parse_config

    pattern = pattern.strip()
    if not pattern or len(pattern) > 300 or any(c in pattern for c in "\n\r\x00"):
        raise FileGramError("give one glob pattern (at most 300 characters), e.g. private/* or *.kdbx")
    current = list(config["recorder"]["exclude"])
    if pattern in current:
        return current
    new = current + [pattern]
    path = home.config_path
    text = path.read_text(encoding="utf-8") if path.exists() else DEFAULT_CONFIG_TEXT
    line = "exclude = [" + ", ".join(json.dumps(p, ensure_ascii=False) for p in new) + "]"
    sec = re.search(r"(?m)^\[recorder\][ \t]*$", text)
    if sec is None:
        text = text.rstrip("\n") + "\n\n[recorder]\n" + line + "\n"
    else:
        nxt = re.search(r"(?m)^\[", text[sec.end():])
        end = sec.end() + (nxt.start() if nxt else len(text) - sec.end())
        body = text[sec.end():end]
        m = re.search(r"(?m)^exclude[ \t]*=[^\n]*$", body)
        if m and m.group(0).count("[") == m.group(0).count("]"):
            body = body[: m.start()] + line + body[m.end():]
        elif m:
            raise FileGramError(f"{path}: [recorder] exclude spans several lines; add {pattern!r} there by hand")
        else:
            body = "\n" + line + body
        text = text[: sec.end()] + body + text[end:]
    parsed = parse_config(text, str(path))  # never write a config that would not load
    if parsed["recorder"]["exclude"] != new:
        raise FileGramError(f"{path}: could not add the exclusion safely; edit [recorder] exclude by hand")
    from .runtime import write_private

    write_private(path, text)
    config["recorder"]["exclude"] = new
    return new


def login_url(run_files: Any) -> str:
    """The one-time sign-in URL of the running daemon's dashboard."""
    from .client import NotRunning

    info = run_files.read_info()
    token = run_files.read_token()
    if not info or not info.get("api_url") or not token:
        raise NotRunning("the FileGram daemon is not running (start it with `filegram start`)")
    return f"{info['api_url']}/?token={token}"


# -- JSON API routes for the daemon's router ---------------------------------------------


def api_routes(assistant: Assistant) -> list[tuple[str, str, Callable[[Any], Any]]]:
    """(method, path, handler(request)) for daemon.api.ApiServer.route: suggest and card."""

    def suggest(req: Any) -> Any:
        text = req.param("name_for")
        if not text:
            raise FileGramError("name_for is required, e.g. /api/suggest?name_for=patent+email+from+May")
        return assistant.suggest(text, req.param("kind") or None)

    def card(req: Any) -> Any:
        return {"markdown": assistant.card()}

    return [("GET", "/api/suggest", suggest), ("GET", "/api/card", card)]

