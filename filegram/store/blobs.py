"""Content-addressed blobs: file snapshots and diffs, stored once, compressed."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import zlib
from typing import Any

from ..schema import media_hashes

BLOB_INFO_COLUMNS = ("hash", "kind", "size", "original_path", "created_ms")
COMPRESSION_LEVEL = 6


def content_hash(content: bytes) -> str:
    """FileGram's content address: the first 16 hex digits of SHA-256."""
    return hashlib.sha256(content).hexdigest()[:16]


def text_of(name: str) -> str:
    """A file name that is not valid UTF-8 (Linux allows any bytes) as storable text, with
    the odd bytes escaped (\\xff) rather than lost or fatal."""
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        return os.fsencode(name).decode("utf-8", "backslashreplace")


def compress(content: bytes) -> bytes:
    return zlib.compress(content, COMPRESSION_LEVEL)


def decompress(stored: bytes) -> bytes:
    return zlib.decompress(stored)


def referenced_hashes(conn: sqlite3.Connection) -> set[str]:
    """Content addresses some stored action still refers to."""
    referenced: set[str] = set()
    for etype, data in conn.execute(
        "SELECT event_type, data FROM actions WHERE event_type IN ('file_write', 'file_edit')"
    ):
        ev: dict[str, Any] = json.loads(data)
        ev["event_type"] = etype
        referenced.update(media_hashes(ev))
        for key in ("before_hash", "after_hash"):
            if isinstance(ev.get(key), str):
                referenced.add(ev[key])
    return referenced
