"""Recorder test helpers: a real root folder, a real SQLite store, a real Recorder."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from filegram.store import Store

if not sys.platform.startswith("linux"):
    pytest.skip("the recorder tests observe real inotify events (Linux)", allow_module_level=True)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    r = tmp_path / "work"
    r.mkdir()
    return r


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "fg" / "filegram.db")
    yield s
    s.close()


