"""Runtime files in the home's run folder: one instance lock, the pid, daemon.json, the token.

The lock is an OS file lock (flock on POSIX, msvcrt on Windows), not a pid check: the kernel
drops it when the process dies, even by kill -9, so a stale lock is recovered by simply
taking it again, and a recycled pid can never be mistaken for a live daemon.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sys
from pathlib import Path
from typing import Any

from filegram.atomic import write_private
from filegram.errors import FileGramError

LOCK_NAME = "daemon.lock"
PID_NAME = "daemon.pid"
INFO_NAME = "daemon.json"
TOKEN_NAME = "api.token"


class AlreadyRunning(FileGramError):
    """A second daemon for the same home."""


def package_version() -> str:
    """The installed FileGram's version (daemon.json and /api/health say which one runs)."""
    try:
        from importlib.metadata import version

        return version("filegram")
    except Exception:
        return "unknown"


def _try_lock(fd: int) -> bool:
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False


def _unlock(fd: int) -> None:
    if sys.platform == "win32":  # pragma: no cover
        import msvcrt

        with contextlib.suppress(OSError):
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        return
    import fcntl

    with contextlib.suppress(OSError):
        fcntl.flock(fd, fcntl.LOCK_UN)


class RunFiles:
    """The daemon's runtime files for one home."""

    def __init__(self, run_dir: str | Path):
        self.run_dir = Path(run_dir)
        self.lock_path = self.run_dir / LOCK_NAME
        self.pid_path = self.run_dir / PID_NAME
        self.info_path = self.run_dir / INFO_NAME
        self.token_path = self.run_dir / TOKEN_NAME
        self._lock_fd: int | None = None

    # -- the instance lock ------------------------------------------------------------

    def acquire(self) -> None:
        """Take the instance lock or raise AlreadyRunning naming the running pid."""
        self.run_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        if not _try_lock(fd):
            os.close(fd)
            pid = self.read_pid()
            who = f" (pid {pid})" if pid else ""
            raise AlreadyRunning(f"a FileGram daemon is already running for this home{who}")
        self._lock_fd = fd
        # Anything left by a daemon that died without cleaning up is stale now.
        for stale in (self.info_path, self.token_path, self.pid_path):
            with contextlib.suppress(FileNotFoundError):
                stale.unlink()
        write_private(self.pid_path, f"{os.getpid()}\n")

    def release(self) -> None:
        for path in (self.info_path, self.token_path, self.pid_path):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
        if self._lock_fd is not None:
            _unlock(self._lock_fd)
            os.close(self._lock_fd)
            self._lock_fd = None

    def is_locked(self) -> bool:
        """True while some process (a live daemon) holds the lock."""
        if self._lock_fd is not None:
            return True
        if not self.lock_path.exists():
            return False
        fd = os.open(self.lock_path, os.O_RDWR)
        try:
            if _try_lock(fd):
                _unlock(fd)
                return False
            return True
        finally:
            os.close(fd)

    # -- what clients read ------------------------------------------------------------

    def read_pid(self) -> int | None:
        try:
            return int(self.pid_path.read_text().strip())
        except (OSError, ValueError):
            return None

    def new_token(self) -> str:
        token = secrets.token_urlsafe(32)
        write_private(self.token_path, token + "\n")
        return token

    def read_token(self) -> str | None:
        try:
            return self.token_path.read_text().strip() or None
        except OSError:
            return None

    def write_info(self, info: dict[str, Any]) -> None:
        write_private(self.info_path, json.dumps(info, indent=2) + "\n")

    def read_info(self) -> dict[str, Any] | None:
        """daemon.json of a LIVE daemon, or None (a leftover file of a dead one is ignored)."""
        if not self.is_locked():
            return None
        try:
            data = json.loads(self.info_path.read_text())
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None
