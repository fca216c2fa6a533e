"""Whether a stored path still exists: on disk under the recorded roots when they are known,
else by the trace (its last action deleted it, or a deleted folder held it).

Stored paths are relative: to the one root, or (with several roots) prefixed by the root's
folder name. Search, the assistant's suggestions and its card use this so they never offer
a file or folder that is gone.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from .store import Store

ALIVE_TYPES = ("file_write", "file_edit", "file_copy", "file_rename", "file_move", "dir_create")


def absolute_path(rel: str, roots: Sequence[str] | None) -> str | None:
    """Where a stored relative path lives on disk: under the one recorded root, or (with
    several roots, whose names prefix stored paths) under the root its first part names."""
    paths = [Path(r).expanduser() for r in roots or []]
    if len(paths) == 1:
        return str(paths[0] / rel)
    first, _, rest = rel.partition("/")
    for root in paths:
        if root.name == first and rest:
            return str(root / rest)
    return None


class PathCheck:
    """Answers "is this stored path gone?" for one store and its roots (trace read once)."""

    def __init__(self, store: Store, roots: Sequence[str] | None):
        self.store = store
        self.roots = [str(r) for r in roots or []]
        self._deletes: list[tuple[str, float]] | None = None
        self._alive: dict[str, float] = {}

    def _load(self) -> list[tuple[str, float]]:
        if self._deletes is None:
            self._deletes = []
            for a in self.store.actions(types=[*ALIVE_TYPES, "file_delete"]):
                t, ts = a["event_type"], float(a["timestamp"])
                if t == "file_delete" and a.get("file_path"):
                    self._deletes.append((a["file_path"], ts))
                    continue
                if t in ("file_rename", "file_move") and a.get("old_path"):
                    self._deletes.append((a["old_path"], ts))
                for k in ("file_path", "dest_path", "new_path", "dir_path"):
                    if a.get(k):
                        self._alive[a[k]] = ts
        return self._deletes

    def gone_by_trace(self, rel: str) -> bool:
        """Deleted (or moved away) after it was last written, by itself or with its folder."""
        deletes = self._load()
        born = self._alive.get(rel, float("-inf"))
        return any(ts >= born and (rel == d or rel.startswith(d.rstrip("/") + "/")) for d, ts in deletes)

    def gone(self, rel: str | None) -> bool:
        if not rel:
            return False
        where = absolute_path(rel, self.roots)
        if where is not None:
            return not os.path.lexists(where)
        return self.gone_by_trace(rel)

    def is_dir(self, rel: str) -> bool | None:
        """A folder on disk (None when the roots cannot place it)."""
        where = absolute_path(rel, self.roots) if rel else (self.roots[0] if len(self.roots) == 1 else None)
        return None if where is None else os.path.isdir(where)
