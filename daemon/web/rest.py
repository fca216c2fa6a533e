"""The JSON part of the site (/api/...): a bearer token on every request, JSON in and out,
and routes that only turn a request into arguments of a plain API object (daemon/web/api.py,
the Assistant) and its result into JSON. Routing is a table (method, path) -> handler."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from filegram.errors import FileGramError

from ..assist.facade import Assistant
from .api import DaemonApi
from .auth import TokenAuth
from .errors import BadRequest, MethodNotAllowed, NotFound, Unauthorized
from .http import Request, Response

MAX_BODY_BYTES = 64 * 1024

Handler = Callable[[Request], Any]


class Route(NamedTuple):
    method: str
    path: str
    handler: Handler


class JsonApi:
    """The JSON API: one JSON error object `{"error": ...}` for anything refused."""

    max_body = MAX_BODY_BYTES
    headers: tuple[tuple[str, str], ...] = ()

    def __init__(self, auth: TokenAuth, routes: Iterable[Route] = ()):
        self.auth = auth
        self.routes: dict[tuple[str, str], Handler] = {}
        self.add(routes)

    def add(self, routes: Iterable[Route]) -> None:
        for method, path, handler in routes:
            self.routes[(method.upper(), path)] = handler

    def owns(self, path: str) -> bool:
        return path == "/api" or path.startswith("/api/")

    def handle(self, req: Request) -> Response:
        path = req.path.rstrip("/") or "/"
        if not self.auth.bearer_ok(req.headers.get("authorization")):
            raise Unauthorized("missing or wrong bearer token (see the api.token file in the FileGram home)")
        handler = self.routes.get((req.method, path))
        if handler is None:
            if any(p == path for (_, p) in self.routes):
                raise MethodNotAllowed(f"{req.method} not allowed on {path}")
            raise NotFound(f"no such endpoint: {path}")
        if req.method in ("POST", "PUT"):
            req.json()  # a bad body is refused before any handler runs
        result = handler(req)
        status, payload = result if isinstance(result, tuple) else (200, result)
        return Response.json(payload, status)

    def error(self, status: int, message: str) -> Response:
        resp = Response.json({"error": message}, status)
        if status == 401:
            resp.headers.append(("WWW-Authenticate", 'Bearer realm="filegram"'))
        return resp


def require_object(body: Any, allowed: dict[str, tuple[type, ...]], required: tuple[str, ...]) -> dict[str, Any]:
    """Check a JSON object body: only known keys, required present, each of its types."""
    if not isinstance(body, dict):
        raise BadRequest("body must be a JSON object")
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise BadRequest(f"unknown field(s): {', '.join(unknown)}")
    for name in required:
        if name not in body:
            raise BadRequest(f"missing field: {name}")
    for name, value in body.items():
        types = allowed[name]
        if isinstance(value, bool) and bool not in types:
            raise BadRequest(f"{name} has the wrong type")
        if not isinstance(value, types):
            names = " or ".join("null" if t is type(None) else t.__name__ for t in types)
            raise BadRequest(f"{name} must be {names}")
    return body


def daemon_routes(api: DaemonApi) -> list[Route]:
    """The daemon's own endpoints (docs/daemon.md, Local API)."""

    def ask(req: Request) -> Any:
        body = require_object(req.json(), {"question": (str,), "choices": (list, type(None))}, ("question",))
        return api.ask(body["question"], body.get("choices"))

    def sessions(req: Request) -> Any:
        return api.sessions(req.int_param("limit", 50, 1, 1000), req.bool_param("closed"), req.param("source"))

    def actions(req: Request) -> Any:
        types = [t for t in (req.param("types") or "").split(",") if t]
        return api.actions(req.int_param("limit", 50, 1, 1000), req.param("session"), types)

    def forget(req: Request) -> Any:
        from filegram.forget import check_scope

        number = (int, float, type(None))
        body = require_object(req.json(), {"path_glob": (str, type(None)), "since_ms": number, "until_ms": number,
                                           "everything": (bool,)}, ())
        what = {"path_glob": body.get("path_glob"), "since_ms": body.get("since_ms"),
                "until_ms": body.get("until_ms"), "everything": bool(body.get("everything", False))}
        check_scope(**what)
        return api.forget(what)

    def sync(req: Request) -> Any:
        body = require_object(req.json(), {"dir": (str, type(None))}, ())
        return api.sync(body.get("dir"))

    return [
        Route("GET", "/api/health", lambda req: api.health()),
        Route("GET", "/api/profile", lambda req: api.profile()),
        Route("POST", "/api/ask", ask),
        Route("GET", "/api/sessions", sessions),
        Route("GET", "/api/actions", actions),
        Route("POST", "/api/pause", lambda req: api.pause()),
        Route("POST", "/api/resume", lambda req: api.resume()),
        Route("POST", "/api/consolidate", lambda req: api.consolidate()),
        Route("POST", "/api/forget", forget),
        Route("POST", "/api/sync", sync),
        Route("POST", "/api/stop", lambda req: api.stop()),
    ]


def assistant_routes(assistant: Assistant) -> list[Route]:
    """The assistant's endpoints: GET /api/suggest and GET /api/card (docs/assistant.md)."""

    def suggest(req: Request) -> Any:
        text = req.param("name_for")
        if not text:
            raise FileGramError("name_for is required, e.g. /api/suggest?name_for=patent+email+from+May")
        return assistant.suggest(text, req.param("kind") or None)

    def card(req: Request) -> Any:
        return {"markdown": assistant.card()}

    return [Route("GET", "/api/suggest", suggest), Route("GET", "/api/card", card)]
