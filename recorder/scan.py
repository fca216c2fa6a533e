"""Whole-tree comparisons: the baseline at start (know every file, snapshot the small
text ones) and the rescan after an inotify overflow (what changed while events were
lost)."""

from __future__ import annotations

from collections.abc import Iterator

from .content import read_content
from .forgotten import Forgotten
from .officetext import office_kind
from .paths import RootSet, iter_tree
from .pending import Pending
from .state import FileInfo, FileState


def lost_changes(roots: RootSet, state: FileState, pending: Pending, where: str | None) -> Iterator[tuple[str, str]]:
    """Compare the root holding `where` (every root if unknown) with what is known, and
    yield the differences as (kind, path): "dir" for a new folder, "created", "changed"
    or "deleted" for a file. Lazily: each difference is applied before the walk goes on,
    so a folder reported new is known when its sub-folders are looked at. Reads in the
    lost stretch cannot be recovered."""
    seen_files: set[str] = set()
    hit = roots.root_of(where) if where else None
    scanned = [hit] if hit is not None else list(roots.roots)
    for r in scanned:
        state.expect_self_dir(r.path)
        for p, st, is_dir in iter_tree(r.path, roots):
            if is_dir:
                state.expect_self_dir(p)  # our walk opens it: not the user's listing
                if p not in state.dirs and p not in pending.new_dirs:
                    yield "dir", p
                continue
            seen_files.add(p)
            info = state.files.get(p)
            if p in pending.changes:
                continue
            if info is None:
                yield "created", p
            elif info.size != st.st_size or info.mtime_ns != st.st_mtime_ns:
                yield "changed", p
    for p in [p for p in state.files if p not in seen_files and roots.root_of(p) in scanned]:
        if p not in pending.changes and p not in pending.displaced:
            yield "deleted", p


def baseline(roots: RootSet, state: FileState, budget_bytes: int, *, snapshot_max_bytes: int,
             redact: bool, forgotten: Forgotten | None = None) -> dict[str, int]:
    """Know every file under the roots before recording, with text snapshots up to a
    byte budget, so the first edit of a file has a "before". A file the person asked to
    forget, unchanged since, is known by its size and time only, in memory (forgotten)."""
    known = state.load([r.path for r in roots.roots])
    spent = 0
    files = dirs = snaps = kept_out = 0
    present: set[str] = set()
    for r in roots.roots:
        for p, st, is_dir in iter_tree(r.path, roots):
            if is_dir:
                state.dirs.add(p)
                dirs += 1
                continue
            files += 1
            present.add(p)
            old = known.get(p)
            if forgotten and forgotten.kept_out(p, st):
                state.keep_out(p, st.st_size, st.st_mtime_ns, old)
                kept_out += 1
                continue
            if old is not None and old.size == st.st_size and old.mtime_ns == st.st_mtime_ns:
                state.files[p] = old
                continue
            first = old.first_seen_ms if old is not None else st.st_mtime_ns / 1e6
            # an office document's text is extracted whatever its size on disk (pictures make it big)
            if spent + st.st_size <= budget_bytes and (st.st_size <= snapshot_max_bytes or office_kind(p)):
                c = read_content(p, snapshot_max_bytes, redact=redact)
                if c is not None:
                    spent += c.size
                    snaps += c.text is not None
                    info = FileInfo(old.fid if old else state.new_fid(), first, c.size, st.st_mtime_ns, c.hash, c.is_text)
                    state.put(p, info, c.text)
                    continue
            info = FileInfo(old.fid if old else state.new_fid(), first, st.st_size, st.st_mtime_ns, None, False)
            state.put(p, info)
    for p, info in known.items():
        if p not in present:
            state.pop(p)
            state.forget(info)
    return {"files": files, "dirs": dirs, "snapshots": snaps, "snapshot_bytes": spent, "forgotten": kept_out}
