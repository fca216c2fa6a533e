"""The read-only view of memory that answering and evidence assembly work from.

`Memory` satisfies it; answer.py and evidence.py depend on this Protocol instead of on the
facade, so the facade can import them without a cycle and they cannot change memory's state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from filegram.config import Config
from filegram.store import Store

from .drift import SessionView
from .embed import Embedder

T = TypeVar("T")


class MemoryView(Protocol):
    store: Store
    config: Config

    @property
    def embedder(self) -> Embedder: ...

    def version(self) -> int:
        """The state version: anything derived from memory is valid while it is unchanged."""
        ...

    def cached(self, key: str, build: Callable[[], T]) -> T:
        """The value built for `key` at the current state version (built once per version)."""
        ...

    def profile_view(self) -> dict[str, Any]:
        """The profile (shared, read-only: copy before changing it)."""
        ...

    def session_views(self) -> list[SessionView]: ...

    def session_tiers(self, session_id: str) -> dict[str, dict[str, Any]]: ...

    def session_shift(self, session_id: str) -> list[dict[str, Any]]: ...
