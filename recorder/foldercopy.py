"""A folder copied whole into a new folder is one file_copy of the folder.

`cp -r notes notes-backup` whose command line was read is summarised by its run (see
tools). When it was not (cp gone before the process scan saw it, an ordinary user on a busy
machine), or when a file manager or a script made the copy, the settled actions are a
dir_create and one file_copy per file. Holding a new folder's actions until its first
contents have settled lets them be told apart: when every file in the new folder is a copy
of the file at the same place in one other folder, and that folder holds nothing else, the
person copied the folder; anything else (a file written there, moved in, a subset copied)
keeps its own actions.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from filegram.naming import backup_of, looks_like_backup

from .disk import Disk
from .output import Output
from .paths import RootSet, under

HOLD_MAX_MS = 10_000.0  # a folder still filling after this long is not held any longer
WALK_MAX = 2000  # folders larger than this are the rate-based summariser's (see bulk)

Stamp = Callable[[list[dict[str, Any]]], list[dict[str, Any]]]


@dataclass
class HeldFolder:
    path: str
    t: float
    actions: list[dict[str, Any]] = field(default_factory=list)  # stamped; the dir_create first
    copies: dict[str, str] = field(default_factory=dict)  # dest -> source (absolute paths)
    others: bool = False  # something other than a copy or a sub-folder was made in it
    last_t: float = 0.0


class NewFolders:
    """New folders whose actions wait until their first contents settled."""

    def __init__(self, roots: RootSet, disk: Disk, output: Output, stamp: Stamp):
        self.roots = roots
        self.disk = disk
        self.output = output
        self.stamp = stamp
        self.held: dict[str, HeldFolder] = {}
        self.folded = 0

    def __len__(self) -> int:
        return len(self.held)

    def holding(self, path: str) -> HeldFolder | None:
        for h in self.held.values():
            if under(path, h.path):
                return h
        return None

    def hold_dir(self, path: str, action: dict[str, Any]) -> None:
        """A new folder's dir_create: held, or a member of a held folder above it."""
        h = self.holding(path)
        stamped = self.stamp([action])
        if h is None:
            if not stamped:
                return  # a tool's (counted for its summary)
            self.held[path] = HeldFolder(path, action["timestamp"], stamped, last_t=action["timestamp"])
            return
        h.actions += stamped
        h.last_t = max(h.last_t, action["timestamp"])

    def add(self, path: str, action: dict[str, Any], source: str | None = None) -> bool:
        """A new file's action (file_copy with its source, or file_write): True when a held
        folder took it."""
        h = self.holding(path)
        if h is None:
            return False
        stamped = self.stamp([action])
        h.actions += stamped
        h.last_t = max(h.last_t, action["timestamp"])
        if source is not None and stamped:
            h.copies[path] = source
        else:
            h.others = True
        return True

    def settle(self, now: float, quiet_ms: float, busy: Callable[[str], bool], *, force: bool = False) -> None:
        """Folders with nothing left settling below them (busy) and quiet for quiet_ms
        become their actions: one copy of the folder, or what was held, as it was."""
        for path, h in list(self.held.items()):
            waited = now - h.t
            if not force and waited < HOLD_MAX_MS and (now - h.last_t < quiet_ms or busy(path)):
                continue
            del self.held[path]
            folded = self._fold(h)
            self.output.actions += [folded] if folded is not None else h.actions

    def _fold(self, h: HeldFolder) -> dict[str, Any] | None:
        if h.others or not h.copies or not os.path.isdir(h.path):
            return None
        tops = set()
        for dest, src in h.copies.items():
            rel = os.path.relpath(dest, h.path)
            if not src.endswith(os.sep + rel):
                return None  # copied under another name or place: files, not the folder
            tops.add(src[: -len(rel) - 1])
        if len(tops) != 1:
            return None
        top = tops.pop()
        if under(top, h.path) or under(h.path, top):
            return None
        made = self._files(h.path)
        there = self._files(top)
        if made is None or there is None or made != set(os.path.relpath(d, h.path) for d in h.copies) or made != there:
            return None  # more made there than copied, or only part of the folder copied
        rs, rd = self.roots.rel(top), self.roots.rel(h.path)
        if rs is None or rd is None:
            return None
        programs = {a.get("program") for a in h.actions}
        self.folded += 1
        return {"event_type": "file_copy", "timestamp": h.t, "source_path": rs, "dest_path": rd,
                "is_backup": looks_like_backup(rd) or backup_of(rs, rd), "bulk_count": len(h.copies), "bulk": True,
                "program": programs.pop() if len(programs) == 1 else None,
                "authored": all(a.get("authored", True) for a in h.actions)}

    def _files(self, folder: str) -> set[str] | None:
        walked = self.disk.walk([folder], WALK_MAX)
        if len(walked) > WALK_MAX:
            return None
        return {os.path.relpath(p, folder) for p, _, is_dir in walked if not is_dir}
