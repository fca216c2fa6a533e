"""The actions the interpreter produced since the last tick, and the content (snapshots,
diffs) they refer to, waiting for the recorder's next batch."""

from __future__ import annotations

import os
from typing import Any

from filegram.naming import naming_change
from filegram.schema import depth_of
from filegram.store import content_hash

from .content import Content
from .paths import RootSet

Blob = tuple[bytes, str, str | None]  # (content, kind "blob" | "diff", original path)


def extraction(c: Content) -> dict[str, bool]:
    """`text_extracted: true` for an action whose snapshot, diff and lengths are the text
    extracted from an office document (its hashes stay those of its bytes); nothing otherwise,
    so every other action keeps its fields."""
    return {"text_extracted": True} if c.extracted else {}


def media_ref(kind: str, h: str) -> dict[str, str]:
    if kind == "diff":
        return {"type": "diff", "hash": h, "path": f"media/diffs/{h}.diff"}
    return {"type": "blob", "hash": h, "path": f"media/blobs/{h}.blob"}


class Output:
    def __init__(self, roots: RootSet):
        self.roots = roots
        self.actions: list[dict[str, Any]] = []
        self.blobs: list[Blob] = []

    @staticmethod
    def action(etype: str, t: float, **fields: Any) -> dict[str, Any]:
        """An action not emitted yet (a new folder's, held until its contents settle)."""
        ev = {"event_type": etype, "timestamp": float(t)}
        ev.update(fields)
        return ev

    def emit(self, etype: str, t: float, **fields: Any) -> None:
        self.actions.append(self.action(etype, t, **fields))

    def emit_move(self, src: str, dest: str, t: float) -> None:
        """A rename in place, or a move to another folder."""
        rs, rd = self.roots.rel(src), self.roots.rel(dest)
        if rs is None or rd is None:
            return
        if os.path.dirname(src) == os.path.dirname(dest):
            self.emit("file_rename", t, old_path=rs, new_path=rd,
                      naming_pattern_change=naming_change(os.path.basename(src), os.path.basename(dest)))
        else:
            self.emit("file_move", t, old_path=rs, new_path=rd, destination_directory_depth=depth_of(rd))

    def keep(self, content: bytes, kind: str, rel: str | None) -> dict[str, str]:
        """Keep content for the store's blob table; returns the action's reference to it."""
        self.blobs.append((content, kind, rel))
        return media_ref(kind, content_hash(content))

    def snapshot_ref(self, c: Content, rel: str) -> dict[str, str] | None:
        if c.text is None:
            return None
        return self.keep(c.text, "blob", rel)

    def take_actions(self) -> list[dict[str, Any]]:
        """The actions so far, in time order; the list starts empty again."""
        out, self.actions = self.actions, []
        out.sort(key=lambda e: e["timestamp"])
        return out

    def take_blobs(self) -> list[Blob]:
        out, self.blobs = self.blobs, []
        return out

    def put_back_blobs(self, blobs: list[Blob], limit: int | None = None) -> None:
        """A batch that could not be written keeps its content for the next try."""
        merged = blobs + self.blobs
        self.blobs = merged[-limit:] if limit is not None else merged
