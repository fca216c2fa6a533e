"""Keep the daemon small while it idles: what a burst of work (a consolidation, a page of the
dashboard) allocated is handed back to the operating system afterwards.

Measured (issue 18): after learning from 5 recorded sessions and serving the dashboard, most
of the growth was not live objects but freed memory that glibc kept in its per-thread arenas
(the daemon runs ~27 threads: HTTP, scheduler, recorder, tray) and SQLite's page caches. So:
fewer arenas from the start (M_ARENA_MAX 2, like MALLOC_ARENA_MAX=2), and after each burst
`malloc_trim(0)` and `PRAGMA shrink_memory`. Everything here is best effort: on another libc
or platform these calls are skipped.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging
import sqlite3
import sys
from collections.abc import Iterable

log = logging.getLogger(__name__)

M_ARENA_MAX = -8  # mallopt parameter (glibc malloc.h)
ARENAS = 2


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None
    return libc if hasattr(libc, "malloc_trim") and hasattr(libc, "mallopt") else None


def limit_arenas() -> bool:
    """Fewer malloc arenas for the threads started after this (call before they start)."""
    libc = _libc()
    if libc is None:
        return False
    try:
        return bool(libc.mallopt(M_ARENA_MAX, ARENAS))
    except (OSError, AttributeError):  # pragma: no cover - a libc without mallopt
        return False


def release(connections: Iterable[sqlite3.Connection] = ()) -> None:
    """After a burst: collect cycles, shrink SQLite's page caches, return free heap pages."""
    gc.collect()
    for conn in connections:
        try:
            conn.execute("PRAGMA shrink_memory")
        except sqlite3.Error as exc:  # a closed or busy connection keeps its cache
            log.debug("shrink_memory: %s", exc)
    libc = _libc()
    if libc is not None:
        try:
            libc.malloc_trim(0)
        except (OSError, AttributeError):  # pragma: no cover
            pass
