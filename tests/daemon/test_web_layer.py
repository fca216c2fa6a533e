"""The daemon's one HTTP layer (daemon/web/http.py), in-process: every route checks the Host
header before anything else, both parts of the site (JSON API and dashboard) share the body
limits and the error mapping, and an unexpected error is a 500 without details."""

from __future__ import annotations

import http.client
import json
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from filegram.daemon.web.auth import TokenAuth
from filegram.daemon.web.dashboard import Dashboard
from filegram.daemon.web.errors import Busy
from filegram.daemon.web.http import WebServer, host_name, status_of
from filegram.daemon.web.rest import JsonApi, Route

from filegram.errors import FileGramError

TOKEN = "web-layer-token-0123"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def _boom(req: Any) -> Any:
    raise RuntimeError("secret detail")


def _busy(req: Any) -> Any:
    raise Busy("memory is busy (consolidating); try again shortly")


@pytest.fixture(scope="module")
def server() -> Iterator[WebServer]:
    api = JsonApi(TokenAuth(TOKEN), [
        Route("GET", "/api/ping", lambda req: {"pong": True}),
        Route("POST", "/api/echo", lambda req: {"got": req.json()}),
        Route("GET", "/api/boom", _boom),
        Route("GET", "/api/busy", _busy),
    ])
    srv = WebServer(TOKEN, api)
    srv.web = Dashboard(backend=None, token=TOKEN)  # type: ignore[arg-type]  # no page is rendered here
    srv.start()
    yield srv
    srv.shutdown()


def _call(srv: WebServer, method: str, path: str, *, host: str | None = "auto", body: bytes | None = None,
          headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
    conn.putrequest(method, path, skip_host=True)
    if host == "auto":
        host = f"127.0.0.1:{srv.port}"
    if host is not None:
        conn.putheader("Host", host)
    for k, v in {**AUTH, **(headers or {})}.items():
        conn.putheader(k, v)
    if body is not None:
        conn.putheader("Content-Length", str(len(body)))
    conn.endheaders(body)
    r = conn.getresponse()
    out = r.status, dict(r.getheaders()), r.read()
    conn.close()
    return out


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "LocalHost", "[::1]:{port}", "127.0.0.1"])
def test_loopback_hosts_are_answered(server: WebServer, host: str) -> None:
    status, _, body = _call(server, "GET", "/api/ping", host=host.format(port=server.port))
    assert status == 200 and json.loads(body) == {"pong": True}


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1.evil.example", "10.0.0.1:{port}", ""])
def test_foreign_hosts_are_refused_on_every_route(server: WebServer, host: str) -> None:
    """A page that rebinds its own name to 127.0.0.1 gets nothing, with or without the token."""
    h = host.format(port=server.port)
    status, _, body = _call(server, "GET", "/api/ping", host=h)
    assert status == 403 and "Host" in json.loads(body)["error"]
    status, headers, body = _call(server, "GET", "/ui/", host=h)
    assert status == 403 and headers["Content-Type"].startswith("text/html") and b"Host" in body
    status, _, _ = _call(server, "GET", f"/?token={TOKEN}", host=h)
    assert status == 403  # no sign-in cookie either


def test_a_request_without_host_is_refused(server: WebServer) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(f"GET /api/ping HTTP/1.0\r\nAuthorization: Bearer {TOKEN}\r\n\r\n".encode())
        reply = s.recv(65536)
    assert reply.startswith(b"HTTP/1.0 403") or reply.startswith(b"HTTP/1.1 403")


def test_body_limits_per_part_of_the_site(server: WebServer) -> None:
    status, _, body = _call(server, "POST", "/api/echo", body=json.dumps({"x": "y" * 70_000}).encode(),
                            headers={"Content-Type": "application/json"})
    assert status == 413 and "too large" in json.loads(body)["error"]
    status, _, body = _call(server, "POST", "/api/echo", body=b'{"x": 1}', headers={"Content-Type": "application/json"})
    assert status == 200 and json.loads(body) == {"got": {"x": 1}}
    # the dashboard takes small forms only
    status, headers, body = _call(server, "POST", "/ui/privacy/pause", body=b"csrf=" + b"x" * 20_000,
                                  headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 413 and headers["Content-Type"].startswith("text/html")


def test_errors_map_to_status_codes_in_one_place(server: WebServer) -> None:
    status, _, body = _call(server, "GET", "/api/boom")
    assert status == 500 and "secret detail" not in body.decode() and "RuntimeError" in body.decode()
    status, _, body = _call(server, "GET", "/api/busy")
    assert status == 503 and "busy" in json.loads(body)["error"]
    status, headers, _ = _call(server, "GET", "/api/ping", headers={"Authorization": "Bearer nope"})
    assert status == 401 and headers["WWW-Authenticate"].startswith("Bearer")
    assert status_of(Busy("x")) == 503 and status_of(FileGramError("x")) == 400
    assert status_of(ValueError("x")) is None


def test_host_names() -> None:
    assert host_name("127.0.0.1:8080") == "127.0.0.1"
    assert host_name("[::1]:80") == "::1"
    assert host_name("LOCALHOST") == "localhost"
    assert host_name(None) == ""


@pytest.mark.parametrize("origin", ["null", "http://evil.example", "http://127.0.0.1:1", "https://127.0.0.1:{port}",
                                    "http://localhost:{port}"])
def test_state_changing_requests_from_another_origin_are_refused(server: WebServer, origin: str) -> None:
    """A page elsewhere (or a sandboxed frame, Origin: null) cannot make the API change anything,
    even with a token it somehow has; reads are not refused for an Origin."""
    body = b'{"a": 1}'
    status, _, raw = _call(server, "POST", "/api/echo", body=body,
                           headers={"Content-Type": "application/json", "Origin": origin.format(port=server.port)})
    assert status == 403 and "cross-site" in json.loads(raw)["error"]
    status, _, _ = _call(server, "GET", "/api/ping", headers={"Origin": "null"})
    assert status == 200


def test_same_origin_posts_pass(server: WebServer) -> None:
    status, _, raw = _call(server, "POST", "/api/echo", body=b'{"a": 1}',
                           headers={"Content-Type": "application/json", "Origin": f"http://127.0.0.1:{server.port}"})
    assert status == 200 and json.loads(raw) == {"got": {"a": 1}}
    status, _, _ = _call(server, "POST", "/api/echo", body=b'{"a": 1}',
                         headers={"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"})
    assert status == 403


def test_signin_codes_work_once_and_expire() -> None:
    from filegram.daemon.web.auth import SigninCodes

    codes = SigninCodes()
    code = codes.issue()
    assert not codes.redeem("") and not codes.redeem("guess")
    assert codes.redeem(code) and not codes.redeem(code)
    expired = SigninCodes(ttl_seconds=-1.0)
    assert not expired.redeem(expired.issue())


def test_keep_alive_connection_serves_many_requests_and_pipelining(server: WebServer) -> None:
    s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    try:
        one = f"GET /api/ping HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nAuthorization: Bearer {TOKEN}\r\n\r\n"
        s.sendall((one * 3).encode())  # three requests in one packet: three answers, in order
        got = b""
        while got.count(b'{"pong": true}') < 3:
            chunk = s.recv(65536)
            assert chunk, got
            got += chunk
        assert got.count(b"HTTP/1.1 200") == 3
    finally:
        s.close()
