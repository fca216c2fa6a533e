"""Re-runs issue 14's attacks on a real daemon and prints one row per attack: attempts and
outcomes. Figures, not assertions (the tests assert the behaviour): idle connections,
slow bodies, resume storms, kill -9, `filegram record` on a root the daemon records, and
the latency of one request on a keep-alive connection.

Run: python -m filegram.daemon.attacks [--idle N] [--kills N]
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import resource
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

DESKTOP_NOFILE = 1024
CONFIG = """\
[recorder]
roots = [{root}]
[daemon]
tray = false
consolidate_minutes = 0.05
stale_warning_minutes = 0.05
"""


def _wait(pred: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = pred()
        if v:
            return v
        time.sleep(0.05)
    raise RuntimeError(f"timed out waiting for {what}")


class Lab:
    """A temporary home and root with a daemon run as a child process."""

    def __init__(self, base: Path):
        self.home, self.root = base / "home", base / "root"
        self.home.mkdir()
        self.root.mkdir()
        (self.home / "config.toml").write_text(CONFIG.format(root=json.dumps(str(self.root))))
        self.env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        self.env["FILEGRAM_HOME"] = str(self.home)
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "filegram", "start", "--foreground"],
                                     env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     preexec_fn=_desktop_fd_limit)
        pid = self.proc.pid
        _wait(lambda: (self.info() or {}).get("pid") == pid, 60, "daemon ready")

    def info(self) -> dict[str, Any] | None:
        try:
            return json.loads((self.home / "run" / "daemon.json").read_text())
        except (OSError, ValueError):
            return None

    def token(self) -> str:
        return (self.home / "run" / "api.token").read_text().strip()

    def port(self) -> int:
        info = self.info()
        assert info
        return int(info["api_port"])

    def call(self, method: str, path: str, timeout: float = 30.0) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port(), timeout=timeout)
        try:
            conn.request(method, path, headers={"Authorization": f"Bearer {self.token()}"})
            resp = conn.getresponse()
            return resp.status, json.loads(resp.read() or b"null")
        finally:
            conn.close()

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(timeout=60)
        self.proc = None

    def db_count(self, sql: str, args: tuple[Any, ...] = ()) -> int:
        con = sqlite3.connect(f"file:{self.home / 'filegram.db'}?mode=ro", uri=True, timeout=30)
        try:
            return int(con.execute(sql, args).fetchone()[0])
        finally:
            con.close()

    def cli(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "filegram", *args], env=self.env, text=True,
                              capture_output=True, timeout=timeout)

    def flush(self) -> None:
        self.call("POST", "/api/consolidate", timeout=60)


def _desktop_fd_limit() -> None:
    """The daemon gets a desktop session's usual limit of open files (1024), whatever the
    limit of this process (raised to open the idle connections)."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(DESKTOP_NOFILE, hard), hard))


def _inotify_fds(pid: int) -> int:
    n = 0
    with contextlib.suppress(OSError):
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                if os.readlink(f"/proc/{pid}/fd/{fd}") == "anon_inode:inotify":
                    n += 1
    return n


def keepalive_latency(lab: Lab, n: int = 200) -> dict[str, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", lab.port(), timeout=30)
    headers = {"Authorization": f"Bearer {lab.token()}"}
    times = []
    try:
        for _ in range(n):
            t0 = time.perf_counter()
            conn.request("GET", "/api/sessions?limit=1", headers=headers)
            conn.getresponse().read()
            times.append((time.perf_counter() - t0) * 1000.0)
    finally:
        conn.close()
    return {"attack": "keep-alive latency", "attempts": n,
            "outcome": f"median {statistics.median(times):.2f} ms, p95 {sorted(times)[int(n * 0.95) - 1]:.2f} ms"}


def idle_connections(lab: Lab, n: int) -> dict[str, Any]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < n + 256:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, n + 1024), hard))
    socks = []
    opened = 0
    try:
        for _ in range(n):
            try:
                s = socket.create_connection(("127.0.0.1", lab.port()), timeout=5)
                socks.append(s)
                opened += 1
            except OSError:
                break
        files = 5
        for i in range(files):
            (lab.root / f"idle-{i}.txt").write_text(f"written during the idle attack {i}\n")
        t0 = time.perf_counter()
        try:
            status, health = lab.call("GET", "/api/health", timeout=30)
            answered = f"health {status} in {time.perf_counter() - t0:.2f} s, state {health.get('state')}"
        except OSError as exc:
            answered = f"health failed after {time.perf_counter() - t0:.1f} s ({type(exc).__name__})"
    finally:
        for s in socks:
            s.close()
    try:
        lab.flush()
    except OSError:
        pass
    stored = lab.db_count("SELECT COUNT(*) FROM actions WHERE event_type='file_write' AND path LIKE 'idle-%'")
    return {"attack": f"{n} idle connections, then 5 new files", "attempts": opened,
            "outcome": f"{answered}; {stored}/5 files stored"}


def slow_body(lab: Lab) -> dict[str, Any]:
    s = socket.create_connection(("127.0.0.1", lab.port()), timeout=60)
    try:
        s.sendall((f"POST /api/ask HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {lab.token()}\r\n"
                   "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"question\"").encode())
        t0 = time.perf_counter()
        try:
            data = s.recv(4096)
            first = data.split(b"\r\n", 1)[0].decode(errors="replace") or "connection closed"
            outcome = f"answered after {time.perf_counter() - t0:.1f} s: {first}"
        except TimeoutError:
            outcome = "no answer and connection held after 60 s"
    finally:
        s.close()
    return {"attack": "body shorter than its Content-Length", "attempts": 1, "outcome": outcome}


def resume_storm(lab: Lab, n: int = 10) -> dict[str, Any]:
    assert lab.proc is not None
    before = _inotify_fds(lab.proc.pid)
    for _ in range(n):
        lab.call("POST", "/api/resume")
    after = _inotify_fds(lab.proc.pid)
    lab.flush()
    a0 = lab.db_count("SELECT COUNT(*) FROM actions")
    (lab.root / "storm.txt").write_text("one file after the storm\n")
    time.sleep(5)
    lab.flush()
    a1 = lab.db_count("SELECT COUNT(*) FROM actions")
    writes = lab.db_count("SELECT COUNT(*) FROM actions WHERE path = 'storm.txt'")
    return {"attack": f"{n} extra POST /api/resume while recording", "attempts": n,
            "outcome": f"inotify instances {before} -> {after}; 1 file written: {writes} action(s) for it, "
                       f"{a1 - a0} action(s) in 5 s"}


def record_vs_daemon(lab: Lab) -> dict[str, Any]:
    lab.flush()
    open_before = lab.db_count("SELECT COUNT(*) FROM sessions WHERE closed = 0")
    proc = lab.cli("record", "--root", str(lab.root), "--for", "3", "--quiet")
    line = (proc.stderr.strip().splitlines() or [""])[-1][:110]
    open_after = lab.db_count("SELECT COUNT(*) FROM sessions WHERE closed = 0")
    sessions = lab.db_count("SELECT COUNT(*) FROM sessions")
    return {"attack": "filegram record --root R while the daemon records R", "attempts": 1,
            "outcome": f"exit {proc.returncode} ({line or 'no message'}); open sessions {open_before} -> "
                       f"{open_after}; sessions now {sessions}"}


def kill9(lab: Lab, kills: int) -> dict[str, Any]:
    lost = 0
    for i in range(kills):
        (lab.root / f"kill-{i}.txt").write_text(f"before kill {i}\n")
        lab.flush()
        stored = lab.db_count("SELECT COUNT(*) FROM actions")
        lab.stop(signal.SIGKILL)
        after = lab.db_count("SELECT COUNT(*) FROM actions")
        lost += max(stored - after, 0)
        lab.start()
    marked = lab.db_count("SELECT COUNT(*) FROM sessions WHERE json_extract(metadata, '$.closed_reason') = 'crash'")
    return {"attack": "kill -9 of the daemon after a flush", "attempts": kills,
            "outcome": f"committed actions lost {lost}; sessions marked crash {marked}"}


def run(idle: int, kills: int) -> list[dict[str, Any]]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="filegram-attacks-") as tmp:
        lab = Lab(Path(tmp))
        lab.start()
        try:
            for step in (lambda: keepalive_latency(lab), lambda: idle_connections(lab, idle),
                         lambda: slow_body(lab), lambda: resume_storm(lab), lambda: record_vs_daemon(lab),
                         lambda: kill9(lab, kills)):
                try:
                    rows.append(step())
                except Exception as exc:  # a figure that could not be taken is a figure too
                    rows.append({"attack": getattr(step, "__name__", "step"), "attempts": 0,
                                 "outcome": f"failed: {type(exc).__name__}: {exc}"})
                print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
        finally:
            lab.stop()
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m filegram.daemon.attacks", description=__doc__.split("\n")[0])
    ap.add_argument("--idle", type=int, default=2000, help="idle connections to open (default 2000)")
    ap.add_argument("--kills", type=int, default=5, help="kill -9 rounds (default 5)")
    args = ap.parse_args(argv)
    for r in run(args.idle, args.kills):
        print(f"| {r['attack']} | {r['attempts']} | {r['outcome']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
