"""Private, atomic file writes: a config or token file is never seen half written, nor for a
moment readable by others (the home is 0700 and its files 0600)."""

from __future__ import annotations

import contextlib
import os
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
