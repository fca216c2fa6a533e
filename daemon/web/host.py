"""What the web layer needs from the running daemon. A Protocol, not the Daemon class: the
daemon builds its web layer, so the web layer cannot import the daemon."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol

from filegram.config import Config, Home
from filegram.store import Store

if TYPE_CHECKING:
    from filegram.memory import Memory

    from ..supervisor import RecorderSupervisor


class DaemonHost(Protocol):
    home: Home
    config: Config
    query_store: Store  # reads for the API and the pages, under query_held()
    memory_store: Store  # memory's and housekeeping's connection
    supervisor: RecorderSupervisor | None
    paused: bool

    def health(self) -> dict[str, Any]: ...
    def pause(self) -> dict[str, Any]: ...
    def resume(self) -> dict[str, Any]: ...
    def consolidate(self) -> dict[str, Any]: ...
    def sync(self, shared: str | None = None) -> dict[str, Any]: ...
    def request_stop(self) -> None: ...
    def memory_held(self) -> AbstractContextManager[Memory]: ...
    def query_held(self) -> AbstractContextManager[Store]: ...
