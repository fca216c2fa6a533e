"""The read-only view of memory that answering and evidence assembly work from.

`Memory` satisfies it; answer.py and evidence.py depend on this Protocol instead of on the
facade, so the facade can import them without a cycle and they cannot change memory's state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from filegram.config import Config
from filegram.store import Store

from .embed import Embedder

T = TypeVar("T")


@dataclass
class SessionView:
    """One session as memory holds it (canonical order): its task, cluster, fingerprint,
    per-dimension signals and its own tier reading."""

    session_id: str
    label: str | None
    task_id: str | None
    task_type: str | None
    cluster: int | None
    fingerprint: dict[str, float]
    tiers: dict[str, dict[str, Any]]
    signals: dict[str, dict[str, Any]]


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
