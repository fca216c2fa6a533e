"""Helpers shared by tests in several folders (a plain module: `conftest` names clash)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


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


# Deadlines are generous (a wait costs only what the condition takes; the deadline matters only
# when it fails); FILEGRAM_TEST_TIMEOUT_SCALE stretches them all on a very slow machine.
TIMEOUT_SCALE = float(os.environ.get("FILEGRAM_TEST_TIMEOUT_SCALE", "1") or 1)
# How long a test lets Recorder.flush() wait for what was observed to be stored (the product's
# default, 5 s, is the daemon's health probe; a loaded test machine needs longer).
FLUSH_S = 30.0 * TIMEOUT_SCALE


def wait_until(pred: Callable[[], T], timeout: float = 30.0, interval: float = 0.1, what: str = "condition", *,
               ignore: tuple[type[BaseException], ...] = (), seen: Callable[[], object] | None = None) -> T:
    """The one way a test waits for something (a window, a pixel, a row, a process, an HTTP
    answer, an inotify event): poll pred() until it returns something truthy and return that.

    Polls quickly at first and then every `interval` s, so a condition that is met at once
    costs nothing; asks once more after the deadline (a loaded machine may have starved the
    last poll). At the deadline it fails naming `what`, what pred() returned last (or the
    exception it raised: the types in `ignore` mean "not yet", e.g. a refused connection),
    how often it asked, and `seen()` if given (a description of the state at the deadline:
    a pixel count, a process's output)."""
    timeout *= TIMEOUT_SCALE
    start = time.monotonic()
    deadline = start + timeout
    last: object = None
    polls = 0
    pause = min(0.01, interval)
    while True:
        polls += 1
        try:
            last = pred()
        except ignore as exc:
            last = exc
        else:
            if last:
                return last
        if time.monotonic() > deadline:
            break
        time.sleep(min(pause, max(deadline - time.monotonic(), 0.0) + 0.001))
        pause = min(pause * 2, interval)
    note = ""
    if seen is not None:
        try:
            note = f"; at the deadline: {seen()}"
        except Exception as exc:  # noqa: BLE001 - the description must not hide the failure
            note = f"; describing the state failed: {exc!r}"
    raise AssertionError(f"timed out after {time.monotonic() - start:.1f} s ({polls} polls) waiting for {what} "
                         f"(last: {last!r}){note}")


def stop_process(proc: subprocess.Popen, timeout: float = 10.0, sig: int = signal.SIGTERM) -> int | None:
    """End a child started by a test or fixture (a finalizer's job, so it never raises):
    the signal, then SIGKILL if it has not exited within timeout s; reaps it. Returns its
    exit code (None if it could not be reaped)."""
    if proc.poll() is None:
        with contextlib.suppress(OSError):
            proc.send_signal(sig)
        try:
            return proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                proc.kill()
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        return None


@contextlib.contextmanager
def xvfb(size: str = "1024x768x24", *extra: str) -> Iterator[tuple[str, subprocess.Popen]]:
    """A private Xvfb: (":N", its process). The server picks a free display number itself
    (-displayfd), so two suites (or two pytest-xdist workers) never race for one; it is
    stopped on the way out even when the test fails. Skips when Xvfb is not installed."""
    import pytest

    exe = shutil.which("Xvfb")
    if exe is None:
        pytest.skip("Xvfb is not installed (Debian package xvfb)")
    import tempfile

    log = tempfile.TemporaryFile()  # a file, not a pipe: a chatty server never blocks on it
    r, w = os.pipe()
    proc = subprocess.Popen([exe, "-displayfd", str(w), "-screen", "0", size, "-nolisten", "tcp", *extra],
                            pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=log)
    os.close(w)
    try:
        num = b""
        os.set_blocking(r, False)

        def number() -> bool:
            nonlocal num
            if proc.poll() is not None:
                log.seek(0)
                raise AssertionError(f"Xvfb exited ({proc.returncode}): {log.read()[-500:]!r}")
            with contextlib.suppress(BlockingIOError):
                num += os.read(r, 16)
            return num.endswith(b"\n")

        wait_until(number, 30, 0.05, "Xvfb to say its display number")
        display = f":{int(num)}"
        wait_until(lambda: Path(f"/tmp/.X11-unix/X{int(num)}").exists(), 30, 0.05, f"Xvfb's socket for {display}")
        yield display, proc
    finally:
        os.close(r)
        stop_process(proc, 5)
        log.close()


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
