"""The daemon's one Memory, shared by the consolidation job, the API, the dashboard and the
tray: built on first use (it imports numpy and friends), held by one caller at a time, and
"busy" rather than a hang when a long consolidation holds it."""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from filegram.config import Config
from filegram.errors import FileGramError
from filegram.store import Store

from .web.errors import Busy

if TYPE_CHECKING:
    from filegram.memory import Memory

log = logging.getLogger(__name__)

MEMORY_BUSY_SECONDS = 60.0
MemoryFactory = Callable[[Store, Config], "Memory"]


def default_memory_factory(store: Store, config: Config) -> Memory:
    from filegram.memory import Memory

    return Memory(store, config)


class SharedMemory:
    """One Memory over the daemon's memory store, behind one lock."""

    def __init__(self, store: Store, config: Config, factory: MemoryFactory | None = None):
        self.store = store
        self.config = config
        self.factory = factory or default_memory_factory
        self.error: str | None = None  # why the last attempt to build it failed
        self._memory: Memory | None = None
        self._lock = threading.Lock()
        self._last_update_ms: float | None = None

    def get(self) -> Memory:
        """The Memory, built on first use; a FileGramError (kept in `error`) if it cannot be."""
        if self._memory is None:
            try:
                self._memory = self.factory(self.store, self.config)
                self.error = None
            except Exception as exc:
                self.error = f"{type(exc).__name__}: {exc}"
                log.exception("memory is unavailable")
                raise FileGramError(f"memory is unavailable: {self.error}") from exc
        return self._memory

    @contextlib.contextmanager
    def held(self, wait: float = MEMORY_BUSY_SECONDS) -> Iterator[Memory]:
        """The Memory for one caller; Busy when another holds it for longer than `wait` s."""
        if not self._lock.acquire(timeout=wait):
            raise Busy("memory is busy (consolidating); try again shortly")
        try:
            yield self.get()
        finally:
            self._lock.release()

    def last_update_ms(self) -> float | None:
        """When memory last learned something; the last known value while it is busy."""
        try:
            memory = self.get()
        except FileGramError:
            return None
        if not self._lock.acquire(timeout=0.5):
            return self._last_update_ms
        try:
            self._last_update_ms = memory.last_update_ms()
        except Exception:
            log.exception("memory.last_update_ms failed")
            self._last_update_ms = None
        finally:
            self._lock.release()
        return self._last_update_ms
