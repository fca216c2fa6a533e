"""Helpers for the daemon's tests, which drive the real thing: `python -m filegram start` in a subprocess with a
temporary home and root, spoken to over its real HTTP API with the token from its file."""

from __future__ import annotations

import collections
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from fg_helpers import TIMEOUT_SCALE, stop_process
from fg_helpers import wait_until as wait_for  # noqa: F401 - the daemon tests' name for the shared helper

FAST_CONFIG = """\
[recorder]
roots = [{root}]

[daemon]
consolidate_minutes = 0.03
stale_warning_minutes = 0.02
tray = false
"""


def _drain(out: Any, lines: collections.deque[str]) -> None:
    with contextlib.suppress(ValueError, OSError):  # closed under it by cleanup
        for line in out:
            lines.append(line)


class DaemonHarness:
    def __init__(self, home: Path, root: Path):
        self.home = home
        self.root = root
        self.proc: subprocess.Popen[str] | None = None
        self._reader: threading.Thread | None = None
        self._log_lines: collections.deque[str] = collections.deque()
        self.env = dict(os.environ)
        self.env["FILEGRAM_HOME"] = str(home)
        self.env.pop("DISPLAY", None)
        self.env.pop("WAYLAND_DISPLAY", None)
        self.env.setdefault("PYTHONUTF8", "1")

    # -- processes ----------------------------------------------------------------------

    def cli(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "filegram", *args], capture_output=True,
                              text=True, env=self.env, timeout=timeout * TIMEOUT_SCALE)

    def start_foreground(self, *extra: str, env: dict[str, str] | None = None,
                         preexec_fn: Any = None) -> subprocess.Popen[str]:
        """Start `filegram start --foreground` as our child and wait until it is ready."""
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "filegram", "start", "--foreground", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**self.env, **(env or {})}, preexec_fn=preexec_fn,
        )
        # Read what it logs as it goes. Left in the pipe, a long-lived daemon's log filled
        # the 64 KiB buffer and its next log line blocked the thread writing it, with the
        # logging lock held: every request hung (stress run C-1, the control storms).
        self._log_lines = lines = collections.deque(maxlen=4000)
        out = self.proc.stdout
        self._reader = threading.Thread(target=_drain, args=(out, lines), name="daemon-log-reader", daemon=True)
        self._reader.start()
        self.wait_ready(self.proc.pid)
        return self.proc

    def wait_ready(self, pid: int | None = None, timeout: float = 90.0) -> dict[str, Any]:
        def ready() -> dict[str, Any] | None:
            if self.proc is not None and self.proc.poll() is not None:
                out = self.proc.stdout.read() if self.proc.stdout else ""
                raise AssertionError(f"daemon exited early ({self.proc.returncode}):\n{out}")
            info = self.info()
            if info and (pid is None or info.get("pid") == pid):
                return info
            return None

        return wait_for(ready, timeout, what="daemon.json of a ready daemon")

    def info(self) -> dict[str, Any] | None:
        try:
            return json.loads((self.home / "run" / "daemon.json").read_text())
        except (OSError, ValueError):
            return None

    def token(self) -> str:
        return (self.home / "run" / "api.token").read_text().strip()

    def stop_proc(self, sig: int = signal.SIGTERM, timeout: float = 90.0) -> int:
        """The daemon's exit code; a generous deadline, since stopping stores what is pending
        and a loaded machine makes that slow (seen: over 30 s with both cores busy)."""
        assert self.proc is not None
        self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout=timeout * TIMEOUT_SCALE)
        except subprocess.TimeoutExpired:
            self.proc.send_signal(signal.SIGUSR1)  # the daemon writes every thread's stack
            try:
                self.proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                pass
            self.proc.kill()
            self.proc.wait()
            raise AssertionError(f"the daemon did not stop within {timeout * TIMEOUT_SCALE:.0f} s of signal {sig} "
                                 f"(its threads at the deadline are at the end):\n{self.output()[-12000:]}") from None

    def output(self) -> str:
        """What the daemon logged (the last 4,000 lines), all of it once it has exited."""
        if self.proc is None or self._reader is None:
            return ""
        if self.proc.poll() is not None:
            self._reader.join(5)
        return "".join(list(self._log_lines))

    # -- HTTP -------------------------------------------------------------------------

    def api(self, method: str, path: str, body: Any = None, *, token: str | None = "auto",
            raw: bytes | None = None, headers: dict[str, str] | None = None,
            timeout: float = 60.0) -> tuple[int, Any]:
        info = self.info()
        assert info, "daemon is not running"
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(info["api_url"] + path, data=data, method=method)
        if token == "auto":
            token = self.token()
        if token is not None:
            req.add_header("Authorization", f"Bearer {token}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        for k, v in (headers or {}).items():
            req.add_header(k, v)
        try:
            with urllib.request.urlopen(req, timeout=timeout * TIMEOUT_SCALE) as resp:
                return resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"null")

    def get(self, path: str) -> Any:
        status, payload = self.api("GET", path)
        assert status == 200, (status, payload)
        return payload

    def health(self) -> dict[str, Any]:
        return self.get("/api/health")

    def cleanup(self) -> None:
        """A fixture's finalizer: runs when the test failed too, so nothing outlives it."""
        if self.proc is not None:
            stop_process(self.proc, 10, signal.SIGKILL)
            if self._reader is not None:
                self._reader.join(5)
            if self.proc.stdout is not None:
                self.proc.stdout.close()
        # a detached daemon (filegram start) is not our child: stop it by its pid file
        from filegram.daemon.runtime import RunFiles

        pid_file = self.home / "run" / "daemon.pid"
        if pid_file.exists() and RunFiles(self.home / "run").is_locked():
            try:
                pid = int(pid_file.read_text().strip())
                if pid != os.getpid():
                    os.kill(pid, signal.SIGKILL)
            except (OSError, ValueError):
                pass
