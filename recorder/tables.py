"""The recorder's and the screen's tables in the store's table registry (filegram.tables).

Importing this module registers their migrations too (state, screen_store), so the registry
and the migrations always name the same tables.

The recorder's file state is a cache (first sighting, size, hash, the last text snapshot of
each file), but it holds absolute paths and content, so forgetting reaches it: a file whose
actions were forgotten, or whose path matches the forgotten glob, loses its state and
snapshot (the recorder then meets it as a new file). Matching goes by the absolute path's
trailing parts, so `--path notes/a.md` reaches /home/u/work/notes/a.md whatever the root;
a cache may lose a little more than asked, never keep what was asked to go.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable

from filegram.forget import path_matches
from filegram.store import Store
from filegram.tables import ForgetScope, TableRule, register_table

from . import forgotten, reconcile, state
from .screen import store as screen_store
from .state import db_form


def _trailing_forms(path: str) -> Iterable[str]:
    """a/b/c.md -> c.md, b/c.md, a/b/c.md: every way a stored relative path can end it."""
    parts = [p for p in path.replace(os.sep, "/").split("/") if p]
    for i in range(len(parts) - 1, -1, -1):
        yield "/".join(parts[i:])


def _in_range(ms: float | None, scope: ForgetScope) -> bool:
    if ms is None:
        return False
    return (scope.since_ms is None or ms >= scope.since_ms) and (scope.until_ms is None or ms < scope.until_ms)


def _hit(path: str, times: tuple[float | None, ...], scope: ForgetScope) -> bool:
    """Whether forgetting `scope` reaches a file at this absolute path (times: when it was
    first seen or changed)."""
    timed = scope.since_ms is not None or scope.until_ms is not None
    forms = list(_trailing_forms(path))
    if any(f in scope.paths for f in forms):
        return True
    if scope.path_glob is not None:
        return any(path_matches(f, scope.path_glob) for f in forms) and (
            not timed or any(_in_range(t, scope) for t in times))
    return timed and any(_in_range(t, scope) for t in times)


def forget_file_state(store: Store, scope: ForgetScope) -> int:
    """recorder_files rows (and their snapshots) of forgotten files; everything with --all.
    The files forgotten that are still on disk under a root the recorder watched are
    remembered (as hashes, see forgotten.py), so that its next start leaves them out until
    they change."""
    conn = store.conn
    now = time.time() * 1000.0
    if scope.everything:
        forgotten.record(store, (), now, everything=True)
        return conn.execute("DELETE FROM recorder_snapshots").rowcount + conn.execute("DELETE FROM recorder_files").rowcount
    doomed: list[tuple[str | bytes, int]] = []
    for raw, fid, first_ms, mtime_ns in conn.execute("SELECT path, fid, first_seen_ms, mtime_ns FROM recorder_files"):
        path = os.fsdecode(raw) if isinstance(raw, bytes) else raw
        if _hit(path, (first_ms, (mtime_ns or 0) / 1e6), scope):
            doomed.append((raw, fid))
    n = 0
    if doomed:
        n += store.delete_where_in("recorder_snapshots", "fid", [fid for _, fid in doomed])
        n += store.delete_where_in("recorder_files", "path", [raw for raw, _ in doomed])
    # a snapshot whose file row is gone is nobody's "before" any more
    n += conn.execute("DELETE FROM recorder_snapshots WHERE fid NOT IN (SELECT fid FROM recorder_files)").rowcount
    stored = {os.fsdecode(raw) if isinstance(raw, bytes) else raw for raw, _ in doomed}
    forgotten.record(store, stored | set(_on_disk(store, scope, stored)), now)
    return n


def _on_disk(store: Store, scope: ForgetScope, stored: set[str]) -> Iterable[str]:
    """Files on disk under the roots recorders watched that forgetting reaches: also those
    the recorder did not know (made while nothing recorded: its next start would announce
    them as made offline), and those whose row kept their name redacted (a secret in it)."""
    redacted = {p for p in stored if "[REDACTED:" in p}
    for top in reconcile.seen_times(store):
        for folder, _subdirs, names in os.walk(top):
            for name in names:
                path = os.path.join(folder, name)
                if path in stored:
                    continue
                try:
                    st = os.stat(path, follow_symlinks=False)
                except OSError:
                    continue
                if _hit(path, (st.st_mtime_ns / 1e6, st.st_ctime_ns / 1e6), scope) or (
                        redacted and db_form(path) in redacted):
                    yield path


def what_forget_leaves(store: Store, scope: ForgetScope) -> int:
    """recorder_forgotten is what forgetting leaves behind (hashes of forgotten paths, no
    names), written by forget_file_state: nothing of it is deleted."""
    return 0


def snapshots_follow_files(store: Store, scope: ForgetScope) -> int:
    """recorder_snapshots go with their recorder_files row (forget_file_state deletes both)."""
    return 0


def forget_screen_days(store: Store, scope: ForgetScope) -> int:
    """Day counters (bytes, frames, active time) of days forgotten whole: every day with
    --all, else the days in the time range that no frame is left on."""
    conn = store.conn
    if scope.everything:
        return conn.execute("DELETE FROM screen_days").rowcount
    if scope.since_ms is None and scope.until_ms is None:
        return 0  # a path is not a day: the frames delete trigger keeps the counts right
    lo = screen_store.day_of(scope.since_ms) if scope.since_ms is not None else "0000-00-00"
    hi = screen_store.day_of(scope.until_ms) if scope.until_ms is not None else time.strftime("9999-12-31")
    return conn.execute(
        "DELETE FROM screen_days WHERE day >= ? AND day <= ? AND NOT EXISTS (SELECT 1 FROM frames f WHERE f.day = screen_days.day)",
        (lo, hi),
    ).rowcount


def text_follows_frames(store: Store, scope: ForgetScope) -> int:
    """screen_fts rows go with their frame (the frames delete trigger); forget then merges
    the index so no deleted text stays in its pages (see filegram.forget)."""
    return 0


register_table(TableRule(
    "recorder_files", state.NAMESPACE, "custom", path_columns=("path",), forget_rows=forget_file_state,
    note="the recorder's per-file state (first sighting, size, hash) by absolute path; a forgotten file's row goes",
))
register_table(TableRule(
    "recorder_snapshots", state.NAMESPACE, "custom", content_columns=("content",), forget_rows=snapshots_follow_files,
    note="the last text snapshot of each file in recorder_files (by fid); goes with its file's row",
))
register_table(TableRule(
    "recorder_forgotten", state.NAMESPACE, "custom", time_column="at_ms", forget_rows=what_forget_leaves,
    exported=False,
    note="files forgotten on request that the recorder must not take in again until they change: hashes of their "
         "absolute paths (no names); --all empties it and keeps the time in the state key recorder.forgotten_all_ms",
))
register_table(TableRule(
    "frames", screen_store.NAMESPACE, "match", time_column="ts", session_column="session_id",
    text_columns=("window_title", "ocr_text"), content_columns=("image",),
    note="screen frames: forgotten by time, session, or a path's name in their title or text",
))
register_table(TableRule(
    "screen_days", screen_store.NAMESPACE, "custom", forget_rows=forget_screen_days,
    note="per-day byte and frame counters; the frames delete trigger keeps them in step, forget drops emptied days",
))
register_table(TableRule(
    "screen_fts", screen_store.NAMESPACE, "custom", text_columns=("ocr_text", "window_title", "app"),
    forget_rows=text_follows_frames, exported=False,
    note="full-text index of frames; the frames delete trigger removes a frame's text, forget merges the index",
))
