"""The local HTTP API: 127.0.0.1 only, a bearer token on every request, JSON in and out.

ActivityWatch's API answered anyone on the machine (any local program or web page could
read a user's history). Here every request must carry the random token the daemon writes
to a 0600 file, compared in constant time; a request without it gets 401 and nothing else.
Routing is a table (method, path) -> handler so later features (dashboard, MCP) add
routes without touching the server. Bodies are size-limited and type-checked: bad input
gets one JSON error, never a traceback.
"""

from __future__ import annotations

import hmac
import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from filegram.errors import FileGramError

log = logging.getLogger("filegram.daemon")

MAX_BODY_BYTES = 64 * 1024
LOOPBACK = "127.0.0.1"


class ApiError(Exception):
    """A client error with its HTTP status; the message is shown to the client."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, list[str]]
    body: Any = None  # parsed JSON (POST) or None
    headers: dict[str, str] = field(default_factory=dict)

    def param(self, name: str, default: str | None = None) -> str | None:
        values = self.query.get(name)
        return values[-1] if values else default

    def int_param(self, name: str, default: int, lo: int, hi: int) -> int:
        raw = self.param(name)
        if raw is None:
            return default
        try:
            value = int(raw)
        except ValueError:
            raise ApiError(400, f"{name} must be an integer") from None
        if not lo <= value <= hi:
            raise ApiError(400, f"{name} must be between {lo} and {hi}")
        return value

    def bool_param(self, name: str) -> bool | None:
        raw = self.param(name)
        if raw is None:
            return None
        if raw.lower() in ("1", "true", "yes"):
            return True
        if raw.lower() in ("0", "false", "no"):
            return False
        raise ApiError(400, f"{name} must be true or false")


Handler = Callable[[Request], Any]


class ApiServer:
    """A ThreadingHTTPServer on 127.0.0.1 with token auth and a route table."""

    def __init__(self, token: str, port: int = 0):
        self.token = token
        self.routes: dict[tuple[str, str], Handler] = {}
        self.public: set[tuple[str, str]] = set()
        self.web: Any = None  # the dashboard (daemon.dashboard.Dashboard): owns / and /ui/
        server = ThreadingHTTPServer((LOOPBACK, port), _make_handler(self))
        server.daemon_threads = True
        self._server = server
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def route(self, method: str, path: str, handler: Handler, *, public: bool = False) -> None:
        """Add a route. `public` routes skip the token (none of the built-in ones do)."""
        self.routes[(method.upper(), path)] = handler
        if public:
            self.public.add((method.upper(), path))

    def start(self) -> None:
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 1.0},
            name="local-api", daemon=True,
        )
        self._thread.start()

    def shutdown(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def authorized(self, header: str | None) -> bool:
        if not header or not header.startswith("Bearer "):
            return False
        given = header[len("Bearer "):].strip().encode("utf-8", "replace")
        return hmac.compare_digest(given, self.token.encode("utf-8"))


def _make_handler(api: ApiServer) -> type[BaseHTTPRequestHandler]:
    class _Handler(BaseHTTPRequestHandler):
        server_version = "FileGram"
        sys_version = ""
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt: str, *args: Any) -> None:  # to our log, not stderr
            log.debug("api %s - %s", self.address_string(), fmt % args)

        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            self._dispatch("GET")

        def do_POST(self) -> None:  # noqa: N802
            self._dispatch("POST")

        def do_PUT(self) -> None:  # noqa: N802
            self._dispatch("PUT")

        def do_DELETE(self) -> None:  # noqa: N802
            self._dispatch("DELETE")

        def _dispatch(self, method: str) -> None:
            web = api.web
            if web is not None and web.owns(self.path):
                web.serve(self, method)  # HTML pages: their own sign-in (cookie from the token)
                return
            try:
                status, payload = self._handle(method)
            except ApiError as exc:
                status, payload = exc.status, {"error": exc.message}
            except FileGramError as exc:
                status, payload = 400, {"error": str(exc)}
            except Exception as exc:  # never a crash, never a traceback to the client
                log.exception("api %s %s failed", method, self.path)
                status, payload = 500, {"error": f"internal error ({type(exc).__name__}); see the daemon log"}
            self._send(status, payload)

        def _handle(self, method: str) -> tuple[int, Any]:
            parts = urlsplit(self.path)
            key = (method, parts.path.rstrip("/") or "/")
            if key not in api.public and not api.authorized(self.headers.get("Authorization")):
                self._drain()
                raise ApiError(401, "missing or wrong bearer token (see the api.token file in the FileGram home)")
            handler = api.routes.get(key)
            if handler is None:
                self._drain()
                if any(p == key[1] for (_, p) in api.routes):
                    raise ApiError(405, f"{method} not allowed on {key[1]}")
                raise ApiError(404, f"no such endpoint: {key[1]}")
            body = self._read_body() if method in ("POST", "PUT") else None
            if method not in ("POST", "PUT"):
                self._drain()
            req = Request(method, key[1], parse_qs(parts.query, keep_blank_values=True), body,
                          {k.lower(): v for k, v in self.headers.items()})
            result = handler(req)
            if isinstance(result, tuple):
                return result
            return 200, result

        def _drain(self) -> None:
            """Read (and drop) any body so the connection stays usable."""
            length = self.headers.get("Content-Length")
            if length and length.isdigit() and 0 < int(length) <= MAX_BODY_BYTES:
                self.rfile.read(int(length))
            elif length:
                self.close_connection = True

        def _read_body(self) -> Any:
            length = self.headers.get("Content-Length")
            if self.headers.get("Transfer-Encoding"):
                self.close_connection = True
                raise ApiError(411, "send the body with a Content-Length, not chunked")
            if length is None:
                return None
            if not length.isdigit():
                self.close_connection = True
                raise ApiError(400, "bad Content-Length")
            n = int(length)
            if n > MAX_BODY_BYTES:
                if n <= 16 * MAX_BODY_BYTES:
                    self.rfile.read(n)  # drop it, so the client reads our answer, not a reset
                else:
                    self.close_connection = True
                raise ApiError(413, f"request body too large (limit {MAX_BODY_BYTES} bytes)")
            raw = self.rfile.read(n) if n else b""
            if not raw.strip():
                return None
            ctype = (self.headers.get("Content-Type") or "application/json").split(";")[0].strip()
            if ctype != "application/json":
                raise ApiError(415, "Content-Type must be application/json")
            try:
                return json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError) as exc:
                raise ApiError(400, f"body is not valid JSON: {exc}") from None
            except RecursionError:
                raise ApiError(400, "body is not valid JSON: nested too deeply") from None

        def _send(self, status: int, payload: Any) -> None:
            data = json.dumps(payload, ensure_ascii=False, default=str).encode("utf-8")
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Cache-Control", "no-store")
                self.send_header("X-Content-Type-Options", "nosniff")
                if status == 401:
                    self.send_header("WWW-Authenticate", 'Bearer realm="filegram"')
                if self.close_connection:
                    self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass

    return _Handler


# -- body validation helpers used by the route handlers ---------------------------------


def require_object(body: Any, allowed: dict[str, tuple[type, ...]], required: tuple[str, ...]) -> dict[str, Any]:
    """Check a JSON object body: only known keys, required present, each of its types."""
    if not isinstance(body, dict):
        raise ApiError(400, "body must be a JSON object")
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise ApiError(400, f"unknown field(s): {', '.join(unknown)}")
    for name in required:
        if name not in body:
            raise ApiError(400, f"missing field: {name}")
    for name, value in body.items():
        types = allowed[name]
        if isinstance(value, bool) and bool not in types:
            raise ApiError(400, f"{name} has the wrong type")
        if not isinstance(value, types):
            names = " or ".join("null" if t is type(None) else t.__name__ for t in types)
            raise ApiError(400, f"{name} must be {names}")
    return body
