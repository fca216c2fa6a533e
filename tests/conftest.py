"""Shared test fixtures: every test gets its own FileGram home (never the user's)."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"


@pytest.fixture
def fixtures_dir() -> Path:
    return FIXTURES


@pytest.fixture
def artifacts_dir() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def fg_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "fghome"
    monkeypatch.setenv("FILEGRAM_HOME", str(home))
    return home
