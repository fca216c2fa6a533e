"""Fixtures for the daemon's tests (helpers live in daemon_harness.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from daemon_harness import FAST_CONFIG, DaemonHarness


def _make(base: Path) -> DaemonHarness:
    home = base / "home"
    root = base / "work"
    root.mkdir(parents=True)
    home.mkdir(parents=True)
    (home / "config.toml").write_text(FAST_CONFIG.format(root=json.dumps(str(root))))
    return DaemonHarness(home, root)


@pytest.fixture
def daemon_env(tmp_path: Path) -> Any:
    """A temporary home and root, no daemon started yet."""
    h = _make(tmp_path)
    yield h
    h.cleanup()


@pytest.fixture(scope="module")
def shared_daemon(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """One running daemon shared by a module's read-mostly tests (starting one costs ~0.5 s)."""
    h = _make(tmp_path_factory.mktemp("shared"))
    h.start_foreground()
    yield h
    try:
        assert h.stop_proc() == 0
    finally:
        h.cleanup()
