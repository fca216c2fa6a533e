"""One sync at a time per home (the daemon's job and a `filegram sync` in a terminal): an OS
file lock in the home's run folder, which the kernel drops if the process dies."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Iterator

from ..config import Home
from .errors import SyncError

LOCK_NAME = "sync.lock"


def _try_lock(fd: int) -> bool:
    try:
        if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
            import msvcrt

            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False


def _unlock(fd: int) -> None:
    with contextlib.suppress(OSError):
        if sys.platform == "win32":  # pragma: no cover
            import msvcrt

            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_UN)


@contextlib.contextmanager
def sync_lock(home: Home, wait_seconds: float = 120.0) -> Iterator[None]:
    home.ensure()
    fd = os.open(home.run_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        deadline = time.monotonic() + wait_seconds
        while not _try_lock(fd):
            if time.monotonic() > deadline:
                raise SyncError(f"another sync of {home.root} is still running (waited {wait_seconds:.0f} s)")
            time.sleep(0.2)
        try:
            yield
        finally:
            _unlock(fd)
    finally:
        os.close(fd)
