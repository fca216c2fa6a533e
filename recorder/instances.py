"""One recorder per folder per home, and sessions that belong to the recorder that opened them.

`filegram record --root R` while the daemon of the same home recorded R used to mark the
daemon's live session closed (it took it for one left by a crash) and record beside it:
two recorders then recorded each other's checks, about one a second. Now every running
recorder holds a lease in the home's run folder: a lock file the kernel releases when the
process dies (even by kill -9, so a stale lease is never mistaken for a live one) and a
small note of its roots, pid and who it is. A recorder whose roots overlap a live lease's
refuses to start, with one line naming the other; and a session is closed as crashed only
when the recorder that opened it (`metadata.recorder_instance`) no longer holds its lease.

Without a home (a recorder over a bare store, in tests and benchmarks) the leases are
kept in this process only.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from filegram.errors import FileGramError

LEASE_DIR = "recorders"
REGISTRY_LOCK = "recorders.lock"

_LOCAL: dict[str, tuple[str, ...]] = {}  # instance -> roots, for recorders without a home
_LOCAL_LOCK = threading.Lock()


class RootBusy(FileGramError):
    """A root another live recorder of this home already records."""


def _lock(fd: int, *, block: bool) -> bool:
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_LOCK if block else msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if block else fcntl.LOCK_NB))
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


def _held(lock_path: Path) -> bool:
    """True while a live process holds this lock file."""
    try:
        fd = os.open(lock_path, os.O_RDWR)
    except OSError:
        return False
    try:
        if _lock(fd, block=False):
            _unlock(fd)
            return False
        return True
    finally:
        os.close(fd)


def _overlap(a: str, b: str) -> bool:
    return a == b or a.startswith(b.rstrip(os.sep) + os.sep) or b.startswith(a.rstrip(os.sep) + os.sep)


@contextlib.contextmanager
def _registry(run_dir: Path) -> Iterator[None]:
    """The home's registry, one process at a time (check and claim are one step)."""
    run_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(run_dir / REGISTRY_LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        _lock(fd, block=True)
        yield
    finally:
        _unlock(fd)
        os.close(fd)


def live_leases(run_dir: Path | None) -> dict[str, dict[str, Any]]:
    """The leases of recorders that run now: instance -> {pid, roots, owner, started_ms}."""
    out: dict[str, dict[str, Any]] = {}
    with _LOCAL_LOCK:
        for inst, roots in _LOCAL.items():
            out[inst] = {"pid": os.getpid(), "roots": list(roots), "owner": "this process"}
    if run_dir is None:
        return out
    folder = run_dir / LEASE_DIR
    if not folder.is_dir():
        return out
    for note in folder.glob("*.json"):
        inst = note.stem
        if not _held(folder / f"{inst}.lock"):
            continue
        try:
            data = json.loads(note.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        out[inst] = data if isinstance(data, dict) else {}
    return out


def instance_alive(run_dir: Path | None, instance: str | None) -> bool:
    """True while the recorder `instance` runs (in this process, or holding its lease)."""
    if not instance:
        return False
    with _LOCAL_LOCK:
        if instance in _LOCAL:
            return True
    if run_dir is None:
        return False
    return _held(run_dir / LEASE_DIR / f"{instance}.lock")


class Lease:
    """A running recorder's claim on its roots (released by `release()` or by its death)."""

    def __init__(self, run_dir: Path | None, roots: Sequence[Path | str], owner: str):
        self.run_dir = run_dir
        self.roots = tuple(str(r) for r in roots)
        self.owner = owner
        self.instance = uuid.uuid4().hex
        self._fd: int | None = None

    def acquire(self) -> Lease:
        """Claim the roots, or raise RootBusy naming the recorder that has one of them."""
        if self.run_dir is None:
            with _LOCAL_LOCK:
                self._refuse_overlap({i: {"roots": list(r), "owner": "a recorder in this process",
                                          "pid": os.getpid()} for i, r in _LOCAL.items()})
                _LOCAL[self.instance] = self.roots
            return self
        with _registry(self.run_dir):
            self._refuse_overlap(live_leases(self.run_dir))
            folder = self.run_dir / LEASE_DIR
            folder.mkdir(parents=True, exist_ok=True)
            with contextlib.suppress(OSError):
                folder.chmod(0o700)
            for stale in folder.glob("*"):  # leases of recorders that died
                if stale.suffix == ".lock" and not _held(stale):
                    stale.unlink(missing_ok=True)
                    stale.with_suffix(".json").unlink(missing_ok=True)
            fd = os.open(folder / f"{self.instance}.lock", os.O_RDWR | os.O_CREAT, 0o600)
            _lock(fd, block=False)
            self._fd = fd
            note = {"pid": os.getpid(), "roots": list(self.roots), "owner": self.owner,
                    "started_ms": time.time() * 1000.0}
            (folder / f"{self.instance}.json").write_text(json.dumps(note), encoding="utf-8")
        with _LOCAL_LOCK:
            _LOCAL[self.instance] = self.roots
        return self

    def _refuse_overlap(self, live: dict[str, dict[str, Any]]) -> None:
        for other in live.values():
            for mine in self.roots:
                for theirs in other.get("roots") or []:
                    if _overlap(mine, str(theirs)):
                        who = other.get("owner") or "another recorder"
                        pid = f" (pid {other['pid']})" if other.get("pid") else ""
                        raise RootBusy(f"{mine} is already being recorded by {who}{pid} of this home: "
                                       "stop or pause it first (`filegram status` shows it)")

    def release(self) -> None:
        with _LOCAL_LOCK:
            _LOCAL.pop(self.instance, None)
        if self._fd is None or self.run_dir is None:
            return
        folder = self.run_dir / LEASE_DIR
        (folder / f"{self.instance}.json").unlink(missing_ok=True)
        (folder / f"{self.instance}.lock").unlink(missing_ok=True)
        _unlock(self._fd)
        os.close(self._fd)
        self._fd = None
