"""The recorder's and the screen's tables in the store's table registry (filegram.tables).

Importing this module registers their migrations too (state, screen_store), so the registry
and the migrations always name the same tables.
"""

from __future__ import annotations

from filegram.store import Store
from filegram.tables import ForgetScope, TableRule, register_table

from . import state
from .screen import store as screen_store


def kept_by_forget(store: Store, scope: ForgetScope) -> int:
    """Forgetting does not touch this table today; see the table's note."""
    return 0


register_table(TableRule(
    "recorder_files", state.NAMESPACE, "custom", path_columns=("path",), forget_rows=kept_by_forget,
    note="the recorder's per-file state (first sighting, size, hash); forget leaves it as it is",
))
register_table(TableRule(
    "recorder_snapshots", state.NAMESPACE, "custom", content_columns=("content",), forget_rows=kept_by_forget,
    note="the last text snapshot of each file in recorder_files (by fid); forget leaves it as it is",
))
register_table(TableRule(
    "frames", screen_store.NAMESPACE, "match", time_column="ts", session_column="session_id",
    text_columns=("window_title", "ocr_text"), content_columns=("image",),
    note="screen frames: forgotten by time, session, or a path's name in their title or text",
))
register_table(TableRule(
    "screen_days", screen_store.NAMESPACE, "custom", forget_rows=kept_by_forget,
    note="per-day byte and frame counters; the frames delete trigger keeps them in step",
))
register_table(TableRule(
    "screen_fts", screen_store.NAMESPACE, "custom", text_columns=("ocr_text", "window_title", "app"),
    forget_rows=kept_by_forget, exported=False,
    note="full-text index of frames; the frames delete trigger removes a frame's text with it",
))
