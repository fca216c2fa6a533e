"""The 17 published fingerprint features plus a few raw ones, computed from a trace.

The simulator uses them to check itself (tiers must move features the intended way, live and
fast runs must agree); memory computes its own. Kept here so the simulator never imports memory.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

STRUCTURED = {"csv", "json", "xlsx", "yaml", "xml", "tsv"}
IMAGES = {"png", "jpg", "jpeg", "svg", "gif"}
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")


def fingerprint(events: Iterable[dict[str, Any]], blobs: dict[str, bytes] | None = None) -> dict[str, float]:
    """Features of one trajectory; `blobs` (hash -> content) lets table rows be counted."""
    evs = list(events)
    by: dict[str, list[dict[str, Any]]] = {}
    for e in evs:
        by.setdefault(e["event_type"], []).append(e)
    reads, browses, searches = by.get("file_read", []), by.get("file_browse", []), by.get("file_search", [])
    creates = [e for e in by.get("file_write", []) if e.get("operation") == "create"]
    overwrites = [e for e in by.get("file_write", []) if e.get("operation") == "overwrite"]
    edits, dirs = by.get("file_edit", []), by.get("dir_create", [])
    deletes, copies = by.get("file_delete", []), by.get("file_copy", [])
    access = len(reads) + len(browses) + len(searches)
    changed = [(e.get("lines_added") or 0) + (e.get("lines_deleted") or 0) for e in edits]
    table_rows = heading_max = 0
    for e in creates:
        ref = e.get("media_ref") or {}
        data = (blobs or {}).get(ref.get("hash", ""))
        if data:
            text = data.decode("utf-8", "replace")
            table_rows += sum(1 for line in text.splitlines() if _TABLE_ROW.match(line))
            for line in text.splitlines():
                m = re.match(r"^(#{1,6})\s", line)
                if m:
                    heading_max = max(heading_max, len(m.group(1)))
    lengths = [e.get("content_length") or 0 for e in creates]
    return {
        "search_ratio": len(searches) / max(access, 1),
        "browse_ratio": len(browses) / max(access, 1),
        "revisit_ratio": sum(1 for e in reads if (e.get("view_count") or 1) > 1) / max(len(reads), 1),
        "avg_output_length": sum(lengths) / len(lengths) if lengths else 0.0,
        "files_created": float(len(creates)),
        "total_output_chars": float(sum(lengths)),
        "dirs_created": float(len(dirs)),
        "max_dir_depth": float(max((e.get("depth") or 0 for e in dirs), default=0)),
        "files_moved": float(len(by.get("file_move", []))),
        "total_edits": float(len(edits)),
        "avg_lines_changed": sum(changed) / len(changed) if changed else 0.0,
        "small_edit_ratio": sum(1 for c in changed if c < 10) / len(changed) if changed else 0.0,
        "total_deletes": float(len(deletes)),
        "delete_to_create_ratio": len(deletes) / max(len(creates), 1),
        "structured_files_created": float(sum(1 for e in creates if e.get("file_type") in STRUCTURED)),
        "markdown_table_rows": float(table_rows),
        "image_files_created": float(sum(1 for e in creates if e.get("file_type") in IMAGES)),
        # raw extras
        "reads": float(len(reads)),
        "backups": float(sum(1 for e in copies if e.get("is_backup"))),
        "overwrites": float(len(overwrites)),
        "temp_deletes": float(sum(1 for e in deletes if e.get("was_temporary"))),
        "max_heading_level": float(heading_max),
        "max_output_depth": float(max((e.get("directory_depth") or 0 for e in creates), default=0)),
    }
