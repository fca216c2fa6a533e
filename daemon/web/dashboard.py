"""The local web dashboard: the pages part of the daemon's site (it owns `/` and `/ui/...`).

Sign-in: a browser cannot send the API's bearer header, so `filegram open` opens
`/?code=<one-time code>` (auth.SigninCodes: single use, valid 60 s); that sets an HttpOnly,
SameSite=Strict cookie holding a key derived from the token (never the token itself) and
redirects to a URL without it. The API token in a URL signs nobody in. Every
page needs that cookie or the bearer header; every POST also needs the CSRF token the
pages embed. Pages carry a strict Content-Security-Policy (no scripts at all), deny
framing and are never cached. Reading requests, limits and errors is the web layer's
(daemon/web/http.py); the HTML comes from templates (daemon/web/views.py).
"""

from __future__ import annotations

from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import quote, unquote, urlencode, urlsplit

from filegram.config import Config, Home
from filegram.errors import FileGramError

from . import views
from .auth import SigninCodes, TokenAuth
from .backends import LocalBackend, run_forget
from .errors import BadRequest, Forbidden, MethodNotAllowed, NotFound
from .http import Request, Response, check_origin, serve

MAX_FORM_BYTES = 16 * 1024
HISTORY_SESSIONS = 120
CSP = ("default-src 'none'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
       "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
# same-origin, not no-referrer: under no-referrer browsers send `Origin: null` with the
# pages' own form posts, which the web layer refuses as cross-site.
PAGE_HEADERS = (("X-Frame-Options", "DENY"), ("Referrer-Policy", "same-origin"),
                ("Content-Security-Policy", CSP))
FRAME_PREFIX = "/ui/frame/"
STYLE_PATH = "/ui/style.css"

Page = Callable[[Request], Response]


NEXT_COOKIE = "filegram_next"


def remembered_target(cookie_header: str | None) -> str:
    """The page a browser was turned away from before it signed in ('' for none); only a
    local dashboard path is ever returned (never another site)."""
    from http.cookies import SimpleCookie

    cookie: SimpleCookie = SimpleCookie()
    try:
        cookie.load(cookie_header or "")
    except Exception:  # noqa: BLE001 - a malformed cookie is no target
        return ""
    morsel = cookie.get(NEXT_COOKIE)
    target = unquote(morsel.value) if morsel is not None else ""
    return target if target.startswith("/ui/") and not target.startswith("//") and "\\" not in target else ""


class Dashboard:
    max_body = MAX_FORM_BYTES
    headers = PAGE_HEADERS

    def __init__(self, backend: LocalBackend, token: str, codes: SigninCodes | None = None):
        self.backend = backend
        self.auth = TokenAuth(token)
        self.codes = codes if codes is not None else SigninCodes()
        self.csrf = self.auth.csrf
        self.routes: dict[tuple[str, str], Page] = {
            ("GET", "/"): self.root,
            ("GET", "/ui"): self.profile,
            ("GET", "/ui/"): self.profile,
            ("GET", STYLE_PATH): self.style,
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

    # -- the site ------------------------------------------------------------------------

    @staticmethod
    def owns(path: str) -> bool:
        """True for the paths the dashboard answers (the rest belongs to the JSON API)."""
        p = urlsplit(path).path
        return p == "/" or p == "/ui" or p.startswith("/ui/") or p == "/favicon.ico"

    def serve(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        """Answer one request on an http.server BaseHTTPRequestHandler."""
        serve(self, handler, method)

    def handle(self, req: Request) -> Response:
        if req.method == "GET" and req.param("code"):
            return self.login(req)
        if not self.authorized(req):
            if req.path == STYLE_PATH:
                return self.style(req)
            resp = Response.html(views.login_page(), 401)
            if req.method == "GET" and self.page_target(req.path, req.query):
                # the page asked for: signing in (with any code) returns to it
                resp.headers.append(("Set-Cookie", f"{NEXT_COOKIE}={quote(self.page_target(req.path, req.query))}; "
                                                   "Path=/; HttpOnly; SameSite=Strict; Max-Age=600"))
            return resp
        page = self.routes.get((req.method, req.path))
        if page is None and req.method == "GET" and req.path.startswith(FRAME_PREFIX):
            page = self.frame
        if page is None:
            if any(p == req.path for (_, p) in self.routes):
                raise MethodNotAllowed(f"{req.method} is not allowed here")
            raise NotFound("no such page")
        if req.method == "POST":
            self.check_csrf(req)
        return page(req)

    def error(self, status: int, message: str) -> Response:
        return Response.html(views.error_page(status, message), status)

    def authorized(self, req: Request) -> bool:
        if req.headers.get("authorization", "").startswith("Bearer "):
            return self.auth.bearer_ok(req.headers.get("authorization"))
        return self.auth.session_ok(req.headers.get("cookie"))

    def check_csrf(self, req: Request) -> None:
        check_origin(req.method, req.headers)  # the web layer did too; a form must never skip it
        if not self.auth.csrf_ok(req.form().get("csrf", "")):
            raise Forbidden("the form has expired: reload the page and try again")

    def signin_path(self) -> str:
        """A fresh one-time sign-in path, `/?code=...` (for `filegram open` and the tray)."""
        return f"/?code={self.codes.issue()}"

    def page_target(self, path: str, query: dict[str, list[str]]) -> str:
        """A dashboard page worth returning to after sign-in ('' for none): one of ours, on
        this server (a path, never a URL), its query kept without the code."""
        if path not in {p for (m, p) in self.routes if m == "GET"} and not path.startswith(FRAME_PREFIX):
            return ""
        if path in ("/", "/ui", "/ui/"):
            return ""
        rest = urlencode([(k, v) for k, vs in query.items() if k != "code" for v in vs])
        return path + (f"?{rest}" if rest else "")

    def login(self, req: Request) -> Response:
        """A one-time code on any page signs the browser in and returns to that page (or to
        the page it was turned away from, remembered in a short-lived cookie)."""
        if not self.codes.redeem(req.param("code", "")):
            return Response.html(views.login_page(), 401)
        target = self.page_target(req.path, req.query) or remembered_target(req.headers.get("cookie")) or "/ui/"
        return Response.redirect(target, ("Set-Cookie", self.auth.session_cookie()),
                                 ("Set-Cookie", f"{NEXT_COOKIE}=; Path=/; Max-Age=0"))

    def _page(self, text: str, status: int = 200) -> Response:
        return Response.html(text, status)

    # -- pages --------------------------------------------------------------------------

    def root(self, req: Request) -> Response:
        return Response.redirect("/ui/")

    def style(self, req: Request) -> Response:
        return Response(200, views.stylesheet(), "text/css; charset=utf-8")

    def profile(self, req: Request) -> Response:
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
        return self._page(views.profile_page(prof, history, len(recent), self.backend.status()))

    def timeline(self, req: Request) -> Response:
        prof = self.backend.assistant.profile()
        sessions = sorted(self.backend.sessions(), key=lambda s: (s.get("started_ms") or 0, s["id"]))
        return self._page(views.timeline_page(sessions, prof.get("anomalies") or [], self.backend.status()))

    def activity(self, req: Request) -> Response:
        try:
            limit = max(1, min(int(req.param("limit", "100")), 500))
        except ValueError:
            raise BadRequest("limit must be a number") from None
        session = req.param("session") or None
        acts = self.backend.assistant.recent_activity(limit, session)
        return self._page(views.activity_page(acts, session, self.backend.status()))

    def ask_get(self, req: Request) -> Response:
        name_for, kind, q = req.param("name_for", ""), req.param("kind", ""), req.param("q", "")
        suggestion = hits = None
        error = ""
        try:
            if name_for:
                suggestion = self.backend.assistant.suggest(name_for, kind or None)
            if q:
                hits = self.backend.assistant.search(q, 8)
        except FileGramError as exc:
            error = str(exc)
        return self._page(views.ask_page(self.csrf, self.backend.status(), name_for=name_for, kind=kind,
                                         suggestion=suggestion, hits=hits, query=q, error=error))

    def ask_post(self, req: Request) -> Response:
        question = req.form().get("question", "").strip()
        try:
            answer = self.backend.assistant.ask(question)
            return self._page(views.ask_page(self.csrf, self.backend.status(), question=question, answer=answer))
        except FileGramError as exc:
            return self._page(views.ask_page(self.csrf, self.backend.status(), question=question,
                                             error=str(exc)), 400)

    def card(self, req: Request) -> Response:
        return self._page(views.card_page(self.backend.assistant.card(), self.backend.status()))

    def card_md(self, req: Request) -> Response:
        return Response(200, self.backend.assistant.card().encode(), "text/markdown; charset=utf-8",
                        [("Content-Disposition", 'attachment; filename="working-style.md"')])

    def screen(self, req: Request) -> Response:
        q = req.param("q", "").strip()
        frames: list[dict[str, Any]] = []
        hits = None
        with self.backend.screen_frames() as screen:
            state = screen.state()
            if state.get("available"):
                frames = screen.recent(24)
                if q:
                    hits = screen.search(q, 24)
        return self._page(views.screen_page(state, frames, q, hits, self.backend.status()))

    def frame(self, req: Request) -> Response:
        try:
            fid = int(req.path.rsplit("/", 1)[-1])
        except ValueError:
            raise NotFound("no such frame") from None
        with self.backend.screen_frames() as screen:
            f = screen.image(fid)
        if not f:
            raise NotFound("no such frame")
        fmt = str(f.get("format") or "jpeg").lower()
        return Response(200, f["image"], f"image/{'jpeg' if fmt in ('jpg', 'jpeg') else fmt}")

    # -- privacy --------------------------------------------------------------------------

    def _privacy(self, *, message: str = "", error: str = "", status: int = 200) -> Response:
        return self._page(views.privacy_page(self.csrf, self.backend.status(), paused=self.backend.paused(),
                                             exclusions=list(self.backend.config["recorder"]["exclude"]),
                                             message=message, error=error, can_pause=self.backend.can_pause),
                          status)

    def privacy(self, req: Request) -> Response:
        return self._privacy()

    def pause(self, req: Request) -> Response:
        self.backend.pause()
        return self._privacy(message="Recording paused. Nothing is recorded until you resume.")

    def resume(self, req: Request) -> Response:
        self.backend.resume()
        return self._privacy(message="Recording resumed.")

    def exclude(self, req: Request) -> Response:
        form = req.form()
        pattern = form.get("pattern", "").strip()
        try:
            add_exclusion(self.backend.home, self.backend.config, pattern)
        except FileGramError as exc:
            return self._privacy(error=str(exc), status=400)
        msg = f"Excluded {pattern}."
        if form.get("forget"):
            msg += " " + forget_summary(self._forget(path_glob=exclusion_glob(pattern)))
        if self.backend.apply_exclusions():
            msg += " Recording continues without it."
        else:
            msg += " It applies from the next time recording starts."
        return self._privacy(message=msg)

    def forget(self, req: Request) -> Response:
        from filegram.forget import parse_time

        form = req.form()
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
        return run_forget(self.backend, **kw)


def forget_summary(result: dict[str, Any]) -> str:
    return (f"Forgot {result.get('actions', 0)} action(s), {result.get('sessions', 0)} session(s), "
            f"{result.get('blobs', 0)} snapshot(s), {result.get('paths', 0)} path(s) and "
            f"{result.get('derived_rows', 0)} derived row(s); memory {result.get('memory', 'unchanged')}.")


def exclusion_glob(pattern: str) -> str:
    """The forget glob that reaches what an exclusion keeps out: an exclusion matches a name
    (or a run of names) at any depth, forget's --path is relative to the root unless it
    starts with `**/`."""
    pattern = pattern.strip().strip("/")
    return pattern if pattern.startswith("**/") else f"**/{pattern}"


def add_exclusion(home: Home, config: Config, pattern: str) -> list[str]:
    """Append a pattern to [recorder] exclude in the config file, keeping the rest of the
    file (comments included) as it was; the running config is updated too."""
    from filegram.config import update_config_file

    pattern = pattern.strip()
    if not pattern or len(pattern) > 300 or any(c in pattern for c in "\n\r\x00"):
        raise FileGramError("give one glob pattern (at most 300 characters), e.g. private/* or *.kdbx")
    current = list(config["recorder"]["exclude"])
    if pattern in current:
        return current
    new = current + [pattern]
    update_config_file(home.config_path, {"recorder.exclude": new})
    config["recorder"]["exclude"] = new
    return new
