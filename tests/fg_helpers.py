"""Helpers shared by tests in several folders (a plain module: `conftest` names clash)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run_cli(*args: str, home: Path | None = None, check: bool = False, timeout: float = 120, **kw) -> subprocess.CompletedProcess:
    """Run the real `filegram` command in a subprocess."""
    env = dict(os.environ)
    if home is not None:
        env["FILEGRAM_HOME"] = str(home)
    env.setdefault("PYTHONUTF8", "1")
    proc = subprocess.run(
        [sys.executable, "-m", "filegram", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        **kw,
    )
    if check and proc.returncode != 0:
        raise AssertionError(f"filegram {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc


def wait_until(pred, timeout: float = 30.0, interval: float = 0.1, what: str = "condition"):
    """Poll until pred() is truthy (returns it) or fail naming what was awaited."""
    import time

    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = pred()
        if last:
            return last
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what} (last: {last!r})")


def inflated(raw: bytes, max_streams: int = 20_000) -> list[bytes]:
    """Every zlib stream that starts somewhere in raw, decompressed as far as it goes (a
    stream cut by a page boundary still gives its first part)."""
    import zlib

    out = []
    i = raw.find(b"\x78")
    while i >= 0 and len(out) < max_streams:
        if i + 1 < len(raw) and raw[i + 1] in (0x01, 0x5E, 0x9C, 0xDA):
            d = zlib.decompressobj()
            got = []
            for j in range(i, min(len(raw), i + (8 << 20)), 256):
                try:
                    got.append(d.decompress(raw[j : j + 256]))
                except zlib.error:
                    break
                if d.eof:
                    break
            data = b"".join(got)
            if data:
                out.append(data)
        i = raw.find(b"\x78", i + 1)
    return out


def leaks(places, strings) -> dict[str, list[str]]:
    """Which strings occur in the raw bytes of the files under `places` (files or folders),
    or in any zlib stream inside them: {string: [where, ...]} for those found."""
    files: list[Path] = []
    for place in places:
        place = Path(place)
        if place.is_file():
            files.append(place)
        elif place.is_dir():
            files.extend(p for p in place.rglob("*") if p.is_file() and not p.is_symlink())
    found: dict[str, list[str]] = {}
    for f in files:
        raw = f.read_bytes()
        blobs = [raw, *inflated(raw)]
        for s in strings:
            needle = s.encode() if isinstance(s, str) else s
            for k, b in enumerate(blobs):
                if needle in b:
                    found.setdefault(s, []).append(f"{f}{' (zlib)' if k else ''}")
                    break
    return found
