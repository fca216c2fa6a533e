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


def unavailable_types(platform: str | None = None, *, polled: bool = False,
                      folder_opens: bool = True) -> list[str]:
    """polled: a root is watched by polling (inotify watch limit exhausted), which sees
    no opens there; folder_opens False: watchdog's public observer (see watch), which
    reports file opens but not folder opens."""
    plat = platform or sys.platform
    if not plat.startswith("linux") or polled:
        return list(NEEDS_OPEN_EVENTS)
    if not folder_opens:
        return ["file_browse"]
    return []
