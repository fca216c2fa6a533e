"""Private, atomic file writes: a config or token file is never seen half written, nor for a
moment readable by others (the home is 0700 and its files 0600)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path


def write_private(path: str | Path, text: str | bytes) -> None:
    """Write a file only the owner can read, atomically (never a moment at 0644)."""
    path = Path(path)
    data = text.encode("utf-8") if isinstance(text, str) else text
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    with contextlib.suppress(OSError):
        os.chmod(tmp, 0o600)
    os.replace(tmp, path)


@contextlib.contextmanager
def private_umask() -> Iterator[None]:
    """Files and folders made inside are 0600 / 0700 whatever the user's umask (0666 under
    022 otherwise). The umask is per process: for commands, not for the daemon's threads."""
    old = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(old)


def make_private(path: str | Path) -> None:
    """Make a written tree private like the home: folders 0700, files 0600 (symlinks are
    left alone, never followed). `export --all` calls it on its output."""
    top = Path(path)
    if top.is_symlink() or not top.exists():
        return
    if top.is_file():
        top.chmod(0o600)
        return
    top.chmod(0o700)
    for dirpath, dirnames, filenames in os.walk(top):
        for d in dirnames:
            p = Path(dirpath) / d
            if not p.is_symlink():
                p.chmod(0o700)
        for f in filenames:
            p = Path(dirpath) / f
            if not p.is_symlink():
                p.chmod(0o600)
