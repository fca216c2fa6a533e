"""The local API over real HTTP: the token is required, bad input gets one JSON error."""

from __future__ import annotations

import http.client
import json
import socket

import pytest
from daemon_harness import wait_for


@pytest.fixture
def running(shared_daemon):
    return shared_daemon


def test_requests_without_the_token_are_refused(running):
    h = running
    for method, path in [("GET", "/api/health"), ("GET", "/api/profile"), ("POST", "/api/pause"),
                         ("POST", "/api/stop"), ("GET", "/api/nothing-here")]:
        status, body = h.api(method, path, token=None)
        assert status == 401, (method, path, status)
        assert "token" in body["error"]
        status, _ = h.api(method, path, token="wrong-" + h.token())
        assert status == 401
    # a 401 did nothing: still recording, not paused, not stopped
    assert h.health()["state"] == "recording"


def test_listens_on_loopback_only(running):
    info = running.info()
    port = info["api_port"]
    assert info["api_url"] == f"http://127.0.0.1:{port}"
    import psutil

    addrs = [a.address for nic in psutil.net_if_addrs().values() for a in nic
             if a.family == socket.AF_INET and not a.address.startswith("127.")]
    for addr in addrs[:2]:  # the machine's other addresses do not reach the API
        with pytest.raises(OSError):
            socket.create_connection((addr, port), timeout=2).close()


def test_endpoints_and_shapes(running):
    h = running
    (h.root / "a.md").write_text("hello\n")
    wait_for(lambda: h.get("/api/actions?limit=5")["count"] >= 1, 30, what="a stored action")

    health = h.health()
    for key in ("state", "ok", "status_line", "warnings", "pid", "last_stored_action_ms",
                "last_memory_update_ms", "recorder", "jobs", "api_url", "roots"):
        assert key in health, key
    assert {j["id"] for j in health["jobs"]} >= {"consolidate", "retention", "integrity_backup"}

    acts = h.get("/api/actions?limit=1")
    assert acts["count"] == 1 and acts["actions"][0]["event_type"]
    typed = h.get("/api/actions?limit=10&types=file_write,file_edit")
    assert all(a["event_type"] in ("file_write", "file_edit") for a in typed["actions"])

    sessions = h.get("/api/sessions?limit=3")
    assert sessions["count"] >= 1 and "action_count" in sessions["sessions"][0]

    status, ans = h.api("POST", "/api/ask", {"question": "How does this user read files?",
                                             "choices": ["in order, whole files", "search first",
                                                         "browse widely"]})
    assert status == 200, ans
    assert set(ans) >= {"text", "choice", "evidence", "used_llm", "warnings"}
    assert ans["used_llm"] is False  # no model configured: nothing leaves the machine
    assert ans["choice"] is None or 0 <= ans["choice"] < 3

    status, out = h.api("POST", "/api/consolidate")
    assert status == 200 and "ingested" in out


@pytest.mark.parametrize(
    ("method", "path", "raw", "headers", "status", "words"),
    [
        ("POST", "/api/ask", b"{not json", None, 400, "not valid JSON"),
        ("POST", "/api/ask", b"[1, 2]", None, 400, "JSON object"),
        ("POST", "/api/ask", b'{"choices": ["a", "b"]}', None, 400, "missing field: question"),
        ("POST", "/api/ask", b'{"question": 42}', None, 400, "question must be str"),
        ("POST", "/api/ask", b'{"question": "q", "extra": 1}', None, 400, "unknown field"),
        ("POST", "/api/ask", b'{"question": "q", "choices": ["only one"]}', None, 400, "2 to 26"),
        ("POST", "/api/ask", b'{"question": "q", "choices": [1, 2]}', None, 400, "2 to 26"),
        ("POST", "/api/ask", b'{"question": "   "}', None, 400, "1 to 4000"),
        ("POST", "/api/ask", b'{"question": "q"}', {"Content-Type": "text/plain"}, 415, "application/json"),
        ("POST", "/api/ask", b'{"question": "' + b"x" * 70000 + b'"}', None, 413, "too large"),
        ("GET", "/api/actions?limit=abc", None, None, 400, "integer"),
        ("GET", "/api/actions?limit=100000", None, None, 400, "between"),
        ("GET", "/api/actions?types=file_open", None, None, 400, "unknown action type"),
        ("GET", "/api/sessions?closed=maybe", None, None, 400, "true or false"),
        ("GET", "/api/ask", None, None, 405, "not allowed"),
        ("GET", "/api/nope", None, None, 404, "no such endpoint"),
    ],
)
def test_bad_requests_get_one_clear_error(running, method, path, raw, headers, status, words):
    h = running
    got, body = h.api(method, path, raw=raw, headers=headers)
    assert got == status, body
    assert set(body) == {"error"} and words in body["error"], body
    assert h.health()["state"] == "recording"  # the daemon is unharmed


def test_connection_survives_errors(running):
    """Keep-alive clients (assistants) reuse one connection across good and bad requests."""
    h = running
    port = h.info()["api_port"]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    auth = {"Authorization": f"Bearer {h.token()}", "Content-Type": "application/json"}
    conn.request("POST", "/api/ask", body=b"{bad", headers=auth)
    r = conn.getresponse()
    assert r.status == 400 and json.loads(r.read())["error"]
    conn.request("GET", "/api/health", headers=auth)
    r = conn.getresponse()
    assert r.status == 200 and json.loads(r.read())["state"] == "recording"
    conn.close()
