"""What each platform lets the recorder see.

Linux's inotify reports opens and closes, so all 12 action types are recorded. macOS
(FSEvents) and Windows (ReadDirectoryChangesW) report only creations, changes, moves and
deletions: plain reads, folder listings, searches (no /proc to watch) and copies (found by
matching a new file with a file read just before) are invisible there, and `filegram
status` says so instead of pretending.
"""

from __future__ import annotations

import sys

NEEDS_OPEN_EVENTS = ("file_read", "file_browse", "file_search", "file_copy")


def unavailable_types(platform: str | None = None, *, polled: bool = False) -> list[str]:
    plat = platform or sys.platform
    if not plat.startswith("linux"):
        return list(NEEDS_OPEN_EVENTS)
    if polled:
        # a root watched by polling (inotify watch limit exhausted) sees no reads there
        return list(NEEDS_OPEN_EVENTS)
    return []
