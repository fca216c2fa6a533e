"""Property-based fuzzing of the real daemon's local API over HTTP: malformed JSON, wrong
types, huge fields, deep nesting, odd paths and queries. Every answer is a JSON error or a
result, never a server error, and the daemon keeps running and keeps its data."""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "daemon"))
harness = pytest.importorskip("daemon_harness", reason="daemon test harness not present")

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
OK_STATUSES = {200, 400, 401, 403, 404, 405, 411, 413, 415, 422}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory):
    base = tmp_path_factory.mktemp("fuzzapi")
    home, root = base / "home", base / "root"
    root.mkdir()
    home.mkdir()
    (home / "config.toml").write_text(harness.FAST_CONFIG.format(root=json.dumps(str(root))))
    h = harness.DaemonHarness(home, root)
    h.start_foreground()
    (root / "note.md").write_text("# hello\n")
    yield h
    h.stop_proc()


def _send(h, method: str, path: str, data: bytes | None, token: bool = True) -> tuple[int, bytes]:
    info = h.info()
    req = urllib.request.Request(info["api_url"] + path, data=data, method=method)
    if token:
        req.add_header("Authorization", f"Bearer {h.token()}")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=50),
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
    max_leaves=15,
)
bodies = (
    st.dictionaries(st.sampled_from(["question", "choices", "session", "limit", "x"]), json_values, max_size=4).map(lambda d: json.dumps(d).encode())
    | st.binary(max_size=200)
    | st.integers(1, 3000).map(lambda n: ("[" * n + "]" * n).encode())
    | st.integers(1, 3).map(lambda n: json.dumps({"question": "q" * (30_000 * n)}).encode())
)


@FUZZ
@given(body=bodies)
def test_ask_never_errors_on_hostile_bodies(daemon, body):
    status, raw = _send(daemon, "POST", "/api/ask", body)
    assert status in OK_STATUSES, (status, raw[:200])
    json.loads(raw or b"null")


@FUZZ
@given(path=st.sampled_from(["/api/actions", "/api/sessions", "/api/profile", "/api/health", "/api/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/api/actions/../../x"]),
       query=st.text(alphabet=st.characters(codec="ascii", exclude_characters="#"), max_size=40))
def test_get_paths_and_queries(daemon, path, query):
    from urllib.parse import quote

    status, raw = _send(daemon, "GET", path + ("?" + quote(query, safe="=&") if query else ""), None)
    assert status in OK_STATUSES, (status, raw[:200])
    assert b"root:" not in raw


def test_without_token_nothing_is_answered(daemon):
    for method, path, body in (("GET", "/api/profile", None), ("POST", "/api/ask", b'{"question": "q"}'), ("GET", "/api/actions", None)):
        status, raw = _send(daemon, method, path, body, token=False)
        assert status == 401
        assert b"note.md" not in raw


def test_daemon_survives_the_fuzzing(daemon):
    status, raw = _send(daemon, "GET", "/api/health", None)
    assert status == 200
    assert daemon.proc.poll() is None
