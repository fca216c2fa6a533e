"""A local process cannot blind the recorder through the API, and a recorder short of
descriptors says so and retries (issue 14, section 2). Real daemon, real sockets, real
inotify events, a real lowered RLIMIT_NOFILE."""

from __future__ import annotations

import http.client
import json
import os
import resource
import socket
import sys
from typing import Any

import pytest
from daemon_harness import DaemonHarness, wait_for

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux: inotify, /proc, prlimit")

IDLE_CONNECTIONS = 2000
DESKTOP_NOFILE = 1024  # the usual soft limit of a desktop session


def _desktop_limit() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(DESKTOP_NOFILE, hard), hard))


class KeepAlive:
    """One keep-alive connection to the daemon's API, opened once."""

    def __init__(self, h: DaemonHarness):
        info = h.info()
        assert info
        self.conn = http.client.HTTPConnection("127.0.0.1", int(info["api_port"]), timeout=30)
        self.auth = {"Authorization": f"Bearer {h.token()}"}
        self.conn.connect()

    def get(self, path: str) -> Any:
        self.conn.request("GET", path, headers=self.auth)
        resp = self.conn.getresponse()
        body = resp.read()
        assert resp.status == 200, (resp.status, body[:300])
        return json.loads(body)

    def close(self) -> None:
        self.conn.close()


def _stored(k: KeepAlive, name: str) -> int:
    acts = k.get("/api/actions?limit=1000&types=file_write")["actions"]
    return sum(1 for a in acts if a["file_path"] == name)


def test_2000_idle_connections_do_not_blind_the_recorder(daemon_env: DaemonHarness) -> None:
    h = daemon_env
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = IDLE_CONNECTIONS + 256
    if soft < need:
        if hard != resource.RLIM_INFINITY and hard < need:
            pytest.skip(f"this test needs {need} open files, the hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (need, hard))
    socks: list[socket.socket] = []
    try:
        h.start_foreground(preexec_fn=_desktop_limit)
        port = int(h.info()["api_port"])  # type: ignore[index]
        for _ in range(IDLE_CONNECTIONS):  # connect, send nothing
            socks.append(socket.create_connection(("127.0.0.1", port), timeout=30))
        for i in range(5):
            (h.root / f"during-{i}.txt").write_text(f"written while {IDLE_CONNECTIONS} connections idle {i}\n")
        k = KeepAlive(h)  # a new client is answered while the idle ones are still open
        try:
            wait_for(lambda: all(_stored(k, f"during-{i}.txt") == 1 for i in range(5)), 60,
                     what="every file written during the flood stored once",
                     seen=lambda: (f"stored {[_stored(k, f'during-{i}.txt') for i in range(5)]}, "
                                   f"health {k.get('/api/health')}"))
            health = k.get("/api/health")
            assert health["state"] == "recording", health["warnings"]
            assert health["recorder"]["errors"] == 0 and health["recorder"]["dropped"] == 0
            assert health["recorder"]["resource_error"] is None
        finally:
            k.close()
    finally:
        for s in socks:
            s.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert h.stop_proc() == 0


def test_a_body_shorter_than_its_length_times_out(daemon_env: DaemonHarness) -> None:
    h = daemon_env
    h.start_foreground()
    port = int(h.info()["api_port"])  # type: ignore[index]
    slow = socket.create_connection(("127.0.0.1", port), timeout=60)
    try:
        slow.sendall((f"POST /api/ask HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {h.token()}\r\n"
                      "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"question\"").encode())
        k = KeepAlive(h)  # the slow client holds one worker, not the API
        try:
            assert k.get("/api/health")["state"] in ("recording", "starting")
        finally:
            k.close()
        answer = b""
        while b"\r\n\r\n" not in answer:  # the daemon answers and closes; no client timeout hit
            chunk = slow.recv(4096)
            assert chunk, "connection closed without an answer"
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
        assert b"Connection: close" in answer
    finally:
        slow.close()
    assert h.stop_proc() == 0


def test_emfile_in_the_recorder_is_reported_and_retried(daemon_env: DaemonHarness) -> None:
    """The daemon's descriptor limit is lowered below what it holds (prlimit): every open
    fails with EMFILE. A file written then is not taken for gone: health says why it is
    not stored, and once descriptors are back the retry stores it."""
    h = daemon_env
    h.start_foreground()
    assert h.proc is not None
    pid = h.proc.pid
    k = KeepAlive(h)  # opened now: it needs no new descriptor later
    try:
        assert k.get("/api/health")["state"] == "recording"
        soft, hard = resource.prlimit(pid, resource.RLIMIT_NOFILE)
        resource.prlimit(pid, resource.RLIMIT_NOFILE, (3, hard))  # 0, 1, 2 are taken: no open succeeds
        try:
            (h.root / "short-of-fds.txt").write_text("written while the recorder has no descriptor to spare\n")
            health = wait_for(lambda: (x := k.get("/api/health"))["recorder"]["resource_error"] and x, 30,
                              what="health to report the resource error")
            assert health["state"] == "warning"
            assert any("Too many open files" in w and "EMFILE" in w for w in health["warnings"]), health["warnings"]
            assert health["recorder"]["resource_errors"] >= 1
            assert _stored(k, "short-of-fds.txt") == 0  # not stored, and not forgotten either
        finally:
            resource.prlimit(pid, resource.RLIMIT_NOFILE, (soft, hard))
        wait_for(lambda: _stored(k, "short-of-fds.txt") == 1, 30, what="the retry to store the file")
        health = wait_for(lambda: (x := k.get("/api/health"))["state"] == "recording" and x, 30,
                          what="health back to recording")
        assert health["recorder"]["resource_error"] is None
        assert not any(a["event_type"] == "file_delete" for a in k.get("/api/actions?limit=100")["actions"])
    finally:
        k.close()
    assert h.stop_proc() == 0
    assert os.path.exists(h.root / "short-of-fds.txt")
