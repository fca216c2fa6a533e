"""One handle per thread, opened on first use.

Neither an Xlib display connection nor mss's grabber may be shared between threads, and
the screen recorder is ticked from the daemon's scheduler thread as well as from a CLI
command: each thread gets its own handle, and a handle that broke is dropped so the next
use opens a fresh one.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class PerThread(Generic[T]):
    def __init__(self, open_handle: Callable[[], T], close_handle: Callable[[T], None]):
        self._open = open_handle
        self._close = close_handle
        self._local = threading.local()

    def get(self) -> T:
        """This thread's handle, opened now if it has none."""
        handle: T | None = getattr(self._local, "handle", None)
        if handle is None:
            handle = self._local.handle = self._open()
        return handle

    def drop(self) -> None:
        """Forget this thread's handle without closing it (its connection is gone)."""
        self._local.handle = None

    def close(self) -> None:
        """Close this thread's handle (a failure to close is no news) and forget it."""
        handle = getattr(self._local, "handle", None)
        if handle is not None:
            with contextlib.suppress(Exception):
                self._close(handle)
            self._local.handle = None
