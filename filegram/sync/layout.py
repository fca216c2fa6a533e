"""The shared folder's layout. Each device owns one folder and is the only writer of it:

    SHARED/filegram-sync/devices/<device id>/0000000001.fgs, 0000000002.fgs, ...

A device id is random (it names nothing about the machine); segment files are written once
(to a hidden temporary name, synced to disk, then renamed), so a reader sees a segment whole
or, while a sync client is still copying it, as a file that does not open yet. Names that
are not segments (temporary files, a sync client's own) are ignored.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
from pathlib import Path

from .errors import SyncError

ROOT_NAME = "filegram-sync"
DEVICE_ID = re.compile(r"^[0-9a-f]{16}$")
SEGMENT = re.compile(r"^(\d{10})\.fgs$")


def new_device_id() -> str:
    return secrets.token_hex(8)


def segment_name(number: int) -> str:
    return f"{number:010d}.fgs"


class SharedFolder:
    def __init__(self, path: str | Path):
        self.path = Path(path).expanduser()
        self.devices_dir = self.path / ROOT_NAME / "devices"

    def ensure(self) -> SharedFolder:
        if not self.path.is_dir():
            raise SyncError(f"no folder {self.path}: give the folder your devices already share (Syncthing, "
                            "a cloud drive, a network share)")
        try:
            self.devices_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SyncError(f"cannot write to {self.path}: {exc.strerror or exc}") from exc
        return self

    def device_dir(self, device_id: str) -> Path:
        return self.devices_dir / device_id

    def device_ids(self) -> list[str]:
        if not self.devices_dir.is_dir():
            return []
        return sorted(p.name for p in self.devices_dir.iterdir() if p.is_dir() and DEVICE_ID.match(p.name))

    def segments(self, device_id: str) -> list[tuple[int, Path]]:
        folder = self.device_dir(device_id)
        if not folder.is_dir():
            return []
        out = []
        for p in folder.iterdir():
            m = SEGMENT.match(p.name)
            if m and p.is_file():
                out.append((int(m.group(1)), p))
        return sorted(out)

    def write_segment(self, device_id: str, number: int, data: bytes) -> Path:
        """Write (or, when compacting, replace) one of this device's segments atomically."""
        folder = self.device_dir(device_id)
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / segment_name(number)
        tmp = folder / f".{segment_name(number)}.{os.getpid()}.tmp"
        try:
            with open(tmp, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, target)
        except OSError as exc:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise SyncError(f"cannot write {target}: {exc.strerror or exc}") from exc
        return target

    def remove_segment(self, path: Path) -> None:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
