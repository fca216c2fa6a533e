"""The fields that identify an action when a recording is compared with what a person
would write down (the fidelity suite, the workflow suite, the tests)."""

from __future__ import annotations

from typing import Any

KEYS: dict[str, tuple[str, ...]] = {
    "file_read": ("file_path",),
    "file_browse": ("directory_path",),
    "file_search": ("search_type", "query"),
    "file_write": ("file_path", "operation"),
    "file_edit": ("file_path",),
    "file_rename": ("old_path", "new_path"),
    "file_move": ("old_path", "new_path"),
    "dir_create": ("dir_path",),
    "file_delete": ("file_path",),
    "file_copy": ("source_path", "dest_path", "is_backup"),
    "context_switch": ("from_file", "to_file"),
    "cross_file_reference": ("source_file", "target_file", "reference_type"),
}


def key_of(ev: dict[str, Any]) -> tuple[Any, ...]:
    return (ev["event_type"], *(ev.get(k) for k in KEYS[ev["event_type"]]))
