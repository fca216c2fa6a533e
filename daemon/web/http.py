"""The daemon's one HTTP layer: a ThreadingHTTPServer on 127.0.0.1 and the whole life of a
request, written once for the JSON API and the dashboard alike.

Every request, whatever its path: the Host header must name the loopback (a web page that
rebinds its own domain to 127.0.0.1 is refused before any route runs); the body is read
only through `Request.body`, with a Content-Length and under the size limit of the part of
the site it goes to, and an unread body is dropped so keep-alive connections survive; a
typed error (daemon/web/errors.py) becomes its status code in `status_of`, any other
FileGramError a 400, anything else a 500 whose details stay in the log. The parts of the
site (`Site`: the JSON API, the dashboard) only turn a Request into a Response.

ActivityWatch's API answered anyone on the machine and any page that could reach it; here
every route needs the API token (daemon/web/auth.py) and a loopback Host, and a request
that changes something (any method but GET and HEAD) is refused when a browser says it
comes from another origin (`Origin: null` included: sandboxed frames and file pages send it).
The TCP side (how many connections, for how long, on which threads) is
daemon/web/connections.py.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any, Protocol, overload
from urllib.parse import parse_qs, urlsplit

from filegram.errors import FileGramError

from .connections import Connection, ConnectionServer
from .errors import (
    BadRequest,
    Busy,
    Forbidden,
    LengthRequired,
    MethodNotAllowed,
    NotFound,
    PayloadTooLarge,
    RequestTimeout,
    Unauthorized,
    UnsupportedMediaType,
)

log = logging.getLogger(__name__)

LOOPBACK = "127.0.0.1"
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
DROP_FACTOR = 16  # a body up to 16x the limit is read and dropped; a larger one closes the connection

STATUS_OF_ERROR: dict[type[Exception], int] = {
    BadRequest: 400,
    Unauthorized: 401,
    Forbidden: 403,
    NotFound: 404,
    MethodNotAllowed: 405,
    LengthRequired: 411,
    RequestTimeout: 408,
    PayloadTooLarge: 413,
    UnsupportedMediaType: 415,
    Busy: 503,
}


def status_of(exc: BaseException) -> int | None:
    """The status code of an error a client caused (None: our fault, a 500)."""
    for cls in type(exc).__mro__:
        if cls in STATUS_OF_ERROR:
            return STATUS_OF_ERROR[cls]
    return 400 if isinstance(exc, FileGramError) else None


def host_name(host: str | None) -> str:
    """'127.0.0.1:8080' -> '127.0.0.1', '[::1]:80' -> '::1', 'LocalHost' -> 'localhost'."""
    host = (host or "").strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def check_host(host: str | None) -> None:
    """Refuse a request whose Host is not a loopback name (DNS rebinding)."""
    if host_name(host) not in LOOPBACK_NAMES:
        raise Forbidden("request refused: the Host header must be 127.0.0.1, localhost or [::1]")


SAFE_METHODS = frozenset({"GET", "HEAD"})


def check_origin(method: str, headers: dict[str, str]) -> None:
    """Refuse a state-changing request a browser sent from another origin: `Origin` must be
    this very site (the loopback name and port of its Host header) when a browser sends
    one, and `Origin: null` (sandboxed frames, file: pages, some redirects) never is."""
    if method in SAFE_METHODS:
        return
    origin = headers.get("origin")
    if origin is not None:
        parts = urlsplit(origin.strip().lower())
        host = (headers.get("host") or "").strip().lower()
        if origin.strip().lower() == "null" or parts.scheme != "http" or parts.netloc != host:
            raise Forbidden("cross-site request refused (Origin is not this site)")
    if (headers.get("sec-fetch-site") or "").lower() == "cross-site":
        raise Forbidden("cross-site request refused")


def _read_exact(handler: BaseHTTPRequestHandler, n: int) -> bytes:
    """n bytes of the body; a client that sends fewer within the read timeout gets a 408."""
    try:
        data = handler.rfile.read(n)
    except TimeoutError:
        handler.close_connection = True
        raise RequestTimeout("the request body did not arrive in time (shorter than its Content-Length?)") from None
    if len(data) < n:
        handler.close_connection = True
        raise BadRequest("the request body is shorter than its Content-Length")
    return data


class BodySource:
    """The body of one request on the wire, read at most once, within a size limit."""

    def __init__(self, handler: BaseHTTPRequestHandler, limit: int):
        self.handler = handler
        self.limit = limit
        self.consumed = False

    def read(self) -> bytes:
        self.consumed = True
        h = self.handler
        if h.headers.get("Transfer-Encoding"):
            h.close_connection = True
            raise LengthRequired("send the body with a Content-Length, not chunked")
        length = h.headers.get("Content-Length")
        if length is None:
            return b""
        if not length.isdigit():
            h.close_connection = True
            raise BadRequest("bad Content-Length")
        n = int(length)
        if n > self.limit:
            if n <= DROP_FACTOR * self.limit:
                _read_exact(h, n)  # drop it, so the client reads our answer, not a reset
            else:
                h.close_connection = True
            raise PayloadTooLarge(f"request body too large (limit {self.limit} bytes)")
        return _read_exact(h, n) if n else b""

    def drop_unread(self) -> None:
        """Read (and drop) a body nobody asked for, so the connection stays usable."""
        if self.consumed:
            return
        self.consumed = True
        h = self.handler
        length = h.headers.get("Content-Length")
        if h.headers.get("Transfer-Encoding"):
            h.close_connection = True
        elif length and length.isdigit() and 0 < int(length) <= self.limit:
            try:
                if len(h.rfile.read(int(length))) < int(length):
                    h.close_connection = True
            except (TimeoutError, OSError):
                h.close_connection = True
        elif length:
            h.close_connection = True


@dataclass
class Request:
    """One request: method, path, query, headers (lower-case names) and a body read on demand."""

    method: str
    path: str
    query: dict[str, list[str]] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    source: BodySource | None = None
    _body: bytes | None = field(default=None, init=False, repr=False)
    _json: Any = field(default=None, init=False, repr=False)
    _json_read: bool = field(default=False, init=False, repr=False)
    _form: dict[str, str] | None = field(default=None, init=False, repr=False)

    @overload
    def param(self, name: str) -> str | None: ...
    @overload
    def param(self, name: str, default: str) -> str: ...

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
            raise BadRequest(f"{name} must be an integer") from None
        if not lo <= value <= hi:
            raise BadRequest(f"{name} must be between {lo} and {hi}")
        return value

    def bool_param(self, name: str) -> bool | None:
        raw = self.param(name)
        if raw is None:
            return None
        if raw.lower() in ("1", "true", "yes"):
            return True
        if raw.lower() in ("0", "false", "no"):
            return False
        raise BadRequest(f"{name} must be true or false")

    @property
    def body(self) -> bytes:
        if self._body is None:
            self._body = self.source.read() if self.source is not None else b""
        return self._body

    def content_type(self, default: str = "") -> str:
        return (self.headers.get("content-type") or default).split(";")[0].strip()

    def json(self) -> Any:
        """The body as JSON (None when empty), parsed once."""
        if not self._json_read:
            raw = self.body
            self._json_read = True
            if raw.strip():
                if self.content_type("application/json") != "application/json":
                    raise UnsupportedMediaType("Content-Type must be application/json")
                try:
                    self._json = json.loads(raw.decode("utf-8"))
                except (UnicodeDecodeError, ValueError) as exc:
                    raise BadRequest(f"body is not valid JSON: {exc}") from None
                except RecursionError:
                    raise BadRequest("body is not valid JSON: nested too deeply") from None
        return self._json

    def form(self) -> dict[str, str]:
        """The body as an HTML form (the last value of each field), parsed once."""
        if self._form is None:
            if self.content_type() != "application/x-www-form-urlencoded":
                raise UnsupportedMediaType("forms must be sent as application/x-www-form-urlencoded")
            try:
                pairs = parse_qs(self.body.decode("utf-8"), keep_blank_values=True)
            except UnicodeDecodeError:
                raise BadRequest("form is not UTF-8") from None
            self._form = {k: vs[-1] for k, vs in pairs.items()}
        return self._form


@dataclass
class Response:
    status: int
    body: bytes = b""
    content_type: str = "application/json; charset=utf-8"
    headers: list[tuple[str, str]] = field(default_factory=list)

    @classmethod
    def json(cls, payload: Any, status: int = 200) -> Response:
        data = json.dumps(payload, ensure_ascii=False, default=str).encode("utf-8")
        return cls(status, data)

    @classmethod
    def html(cls, text: str, status: int = 200) -> Response:
        return cls(status, text.encode("utf-8"), "text/html; charset=utf-8")

    @classmethod
    def redirect(cls, location: str, *headers: tuple[str, str]) -> Response:
        return cls(303, b"", "text/html; charset=utf-8", [("Location", location), *headers])


class Site(Protocol):
    """A part of the site (the JSON API, the dashboard): the paths it owns, the body size it
    accepts, the headers every answer of it carries, and its answers."""

    max_body: int
    headers: tuple[tuple[str, str], ...]

    def owns(self, path: str) -> bool: ...
    def handle(self, req: Request) -> Response: ...
    def error(self, status: int, message: str) -> Response: ...


def serve(site: Site, handler: BaseHTTPRequestHandler, method: str) -> None:
    """Answer one request on an http.server handler: the only place a request is read,
    checked, dispatched, turned into an error answer and written."""
    parts = urlsplit(handler.path)
    source = BodySource(handler, site.max_body)
    req = Request(method, parts.path, parse_qs(parts.query, keep_blank_values=True),
                  {k.lower(): v for k, v in handler.headers.items()}, source)
    try:
        check_host(req.headers.get("host"))
        check_origin(method, req.headers)
        resp = site.handle(req)
    except Exception as exc:  # never a crash, never a traceback to the client
        status = status_of(exc)
        if status is None:
            log.exception("%s %s failed", method, parts.path)
            resp = site.error(500, f"internal error ({type(exc).__name__}); see the daemon log")
        else:
            resp = site.error(status, str(exc))
    source.drop_unread()
    write(handler, resp, site.headers)


def write(handler: BaseHTTPRequestHandler, resp: Response, site_headers: tuple[tuple[str, str], ...] = ()) -> None:
    try:
        handler.send_response(resp.status)
        handler.send_header("Content-Type", resp.content_type)
        handler.send_header("Content-Length", str(len(resp.body)))
        handler.send_header("Cache-Control", "no-store")
        handler.send_header("X-Content-Type-Options", "nosniff")
        for k, v in (*site_headers, *resp.headers):
            handler.send_header(k, v)
        if handler.close_connection:
            handler.send_header("Connection", "close")
        handler.end_headers()
        if handler.command != "HEAD":
            handler.wfile.write(resp.body)
    except (BrokenPipeError, ConnectionResetError):
        pass


class WebServer:
    """The daemon's HTTP server on 127.0.0.1. A request goes to the pages (`web`, the
    dashboard: it owns / and /ui/) when they own its path, else to the JSON API."""

    def __init__(self, token: str, api: Site, port: int = 0, **limits: Any):
        self.token = token
        self.api = api
        self.web: Site | None = None  # mounted by the daemon when this build has a dashboard
        handler_class = _handler_class(self.site_for)

        def answer(conn: Connection) -> bool:
            handler = handler_class(conn, conn.address, self)
            return not handler.close_connection

        self._server = ConnectionServer((LOOPBACK, port), answer, **limits)
        self._thread: threading.Thread | None = None

    def site_for(self, path: str) -> Site:
        web = self.web
        return web if web is not None and web.owns(path) else self.api

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def connection_stats(self) -> dict[str, int]:
        return self._server.stats()

    def start(self) -> None:
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 1.0},
            name="local-api", daemon=True,
        )
        self._thread.start()

    def shutdown(self) -> None:
        self._server.shutdown()
        if self._thread is not None:
            self._thread.join(timeout=5)


def _handler_class(site_for: Callable[[str], Site]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        """One request on a Connection (daemon/web/connections.py answers each request of a
        keep-alive connection with a new handler; the connection's reader keeps what the
        client already sent)."""

        server_version = "FileGram"
        sys_version = ""
        protocol_version = "HTTP/1.1"

        def setup(self) -> None:
            conn: Connection = self.request
            self.connection = conn.sock
            self.rfile = conn.reader  # type: ignore[assignment]
            self.wfile = conn.writer  # type: ignore[assignment]

        def handle(self) -> None:
            self.close_connection = True
            try:
                self.handle_one_request()
            except OSError:  # the client went away mid-request
                self.close_connection = True
            finally:
                try:
                    self.wfile.flush()
                except OSError:
                    self.close_connection = True

        def finish(self) -> None:
            pass

        def log_message(self, format: str, *args: Any) -> None:  # to our log, not stderr
            log.debug("http %s - %s", self.address_string(), format % args)

        def _answer(self, method: str) -> None:
            serve(site_for(urlsplit(self.path).path), self, method)

        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            self._answer("GET")

        def do_POST(self) -> None:  # noqa: N802
            self._answer("POST")

        def do_PUT(self) -> None:  # noqa: N802
            self._answer("PUT")

        def do_DELETE(self) -> None:  # noqa: N802
            self._answer("DELETE")

    return Handler
