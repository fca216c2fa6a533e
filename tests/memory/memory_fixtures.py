"""Fixtures for memory tests (imported by the test modules: a conftest.py here would shadow the root one for `from conftest import ...`): real SQLite stores filled with hand-built or generated sessions."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from filegram.schema import Action
from filegram.store import Store


class SessionBuilder:
    """Builds one session's events in time order with the schema's own constructor."""

    def __init__(self, session_id: str = "s1", start_ms: float = 1_700_000_000_000.0):
        self.sid, self.t = session_id, start_ms
        self.events: list[dict[str, Any]] = []
        self.blobs: dict[str, bytes] = {}

    def add(self, etype: str, gap_ms: float = 10_000, **fields: Any) -> SessionBuilder:
        self.t += gap_ms
        self.events.append(Action.make(etype, self.sid, self.t, **fields).to_event())
        return self

    def write(self, path: str, text: str, op: str = "create", gap_ms: float = 10_000, *,
              snapshot: bool = True) -> SessionBuilder:
        """A write with its text kept (`snapshot=False`: a binary file, known by its bytes only)."""
        from filegram.store import content_hash

        data = text.encode()
        h = content_hash(data)
        ref = None
        if snapshot:
            self.blobs[h] = data
            ref = {"type": "blob", "hash": h, "path": f"media/blobs/{h}.blob"}
        ftype = path.rsplit(".", 1)[-1] if "." in path else ""
        return self.add("file_write", gap_ms, file_path=path, file_type=ftype, directory_depth=path.count("/"),
                        operation=op, content_length=len(text), media_ref=ref)

    def read(self, path: str, view_count: int = 1, view_range: list[int] | None = None,
             content_length: int = 100) -> SessionBuilder:
        return self.add("file_read", file_path=path, file_type=path.rsplit(".", 1)[-1], directory_depth=path.count("/"),
                        view_count=view_count, view_range=view_range, content_length=content_length)

    def edit(self, path: str, added: int, deleted: int) -> SessionBuilder:
        return self.add("file_edit", file_path=path, file_type="md", lines_added=added, lines_deleted=deleted,
                        diff_summary=f"+{added} -{deleted}")

    def get_blob(self, h: str) -> bytes | None:
        return self.blobs.get(h)

    def store_into(self, store: Store, task_id: str | None = None, label: str | None = None, close: bool = True) -> str:
        store.open_session(self.sid, source="import", started_ms=self.events[0]["timestamp"] if self.events else self.t,
                           task_id=task_id, label=label)
        with store.transaction():
            for data in self.blobs.values():
                store.put_blob(data)
            store.add_actions(self.events)
        if close:
            store.close_session(self.sid)
        return self.sid


@pytest.fixture
def session_builder() -> Callable[..., SessionBuilder]:
    return SessionBuilder


@pytest.fixture
def store(tmp_path: Path):
    st = Store(tmp_path / "memory.db")
    yield st
    st.close()


@pytest.fixture(scope="session")
def persona_store() -> Callable[..., tuple[Store, dict[str, str]]]:
    return make_persona_store


def make_persona_store(path: Path, tiers: dict[str, str], *, perturb: dict[str, Any] | None = None, seed: int = 0) -> tuple[Store, dict[str, str]]:
    """A store with one synthetic user's 32 sessions (one per task); `perturb` = {task_id: {dim: tier}}."""
    from filegram.memory.dimensions import TASKS
    from filegram.memory.synth import store_session

    st = Store(path)
    ids = {}
    for i, tid in enumerate(sorted(TASKS)):
        t = dict(tiers)
        t.update((perturb or {}).get(tid, {}))
        ids[tid] = store_session(st, t, tid, seed=seed * 1000 + i, start_ms=1.7e12 + i * 3.6e6, label=f"u_{tid}")
    return st, ids
