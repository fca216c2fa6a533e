"""The interpreter's own looks at the disk: reading a file to hash and diff it, listing a
folder to count its entries, walking a search's scope.

Every look is announced to the file state first, because inotify reports it a moment
later like any other open: an announced read or listing is recognised and dropped, so the
recorder never records itself. A look that opened nothing takes its announcement back.

A look that failed for want of descriptors, memory or space raises ResourceExhausted (the
settler puts the event back and tries again later) and is remembered in
`resource_error` until a look succeeds again, so health can say so.
"""

from __future__ import annotations

import os
import time

from filegram.naming import is_editor_artifact

from .content import Content, ResourceExhausted, check_resource, read_content
from .paths import RootSet, iter_tree
from .state import FileInfo, FileState

Walked = tuple[str, os.stat_result | None, bool]  # (path, stat, is_dir)


class Disk:
    def __init__(self, roots: RootSet, state: FileState, *, snapshot_max_bytes: int, redact: bool):
        self.roots = roots
        self.state = state
        self.snap_max = int(snapshot_max_bytes)
        self.redact = redact
        self.resource_errors = 0  # looks that failed for want of descriptors, memory, space
        self.resource_error: str | None = None  # the last one, until a look succeeds again
        self.resource_error_ms: float | None = None

    def _short_of(self, exc: ResourceExhausted) -> None:
        self.resource_errors += 1
        self.resource_error = f"{exc.strerror} reading {os.path.basename(exc.filename or '')}; retrying"
        self.resource_error_ms = time.time() * 1000.0

    def read(self, path: str) -> Content | None:
        """Hash (and keep the text of) a file; None when it cannot be read (gone);
        ResourceExhausted when the machine is short of descriptors, memory or space."""
        self.state.expect_self_read(path)
        try:
            c = read_content(path, self.snap_max, redact=self.redact)
        except ResourceExhausted as exc:
            self.state.consume_self_read(path)
            self._short_of(exc)
            raise
        self.resource_error = None
        if c is None:
            # nothing was opened, so no event will come: take the expectation back
            self.state.consume_self_read(path)
        return c

    def read_bytes(self, path: str) -> bytes | None:
        """The first snapshot_max_bytes of a file, as a search tool would read them."""
        self.state.expect_self_read(path)
        try:
            with open(path, "rb") as f:
                return f.read(self.snap_max)
        except OSError as exc:
            self.state.consume_self_read(path)
            try:
                check_resource(exc, path)
            except ResourceExhausted as short:
                self._short_of(short)
            return None

    def count_entries(self, folder: str) -> int:
        """Visible entries of a folder (editor artifacts and private names left out)."""
        self.state.expect_self_dir(folder)
        try:
            with os.scandir(folder) as it:
                return sum(1 for e in it if self.roots.visible(e.path) and not is_editor_artifact(e.name))
        except OSError as exc:
            self.state.consume_self_dir(folder)
            try:
                check_resource(exc, folder)
            except ResourceExhausted as short:
                self._short_of(short)
                raise
            return 0

    def walk(self, scope: list[str], max_entries: int) -> list[Walked]:
        """Files and folders under the scope paths (about max_entries at most)."""
        out: list[Walked] = []
        for top in scope:
            if os.path.isfile(top):
                if self.roots.visible(top):
                    out.append((top, None, False))
                continue
            for p, st, is_dir in iter_tree(top, self.roots):
                if is_dir:
                    self.state.expect_self_dir(p)
                out.append((p, st, is_dir))
                if len(out) > max_entries:
                    return out
            self.state.expect_self_dir(top)
        return out

    def remember(self, path: str, c: Content, first_seen: float | None, fid: int | None = None) -> FileInfo:
        """Record what a file now holds (its snapshot becomes the next diff's "before")."""
        try:
            mtime = os.stat(path, follow_symlinks=False).st_mtime_ns
        except OSError:
            mtime = 0
        old = self.state.files.get(path)
        info = FileInfo(
            fid if fid is not None else (old.fid if old else self.state.new_fid()),
            first_seen if first_seen is not None else (old.first_seen_ms if old else mtime / 1e6),
            c.size,
            mtime,
            c.hash,
            c.is_text,
        )
        self.state.put(path, info, c.text)
        return info
