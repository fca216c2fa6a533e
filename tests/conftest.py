"""Shared test fixtures: every test gets its own FileGram home (never the user's)."""

from __future__ import annotations

import os
import subprocess
import sys
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


def run_cli(*args: str, home: Path | None = None, check: bool = False, timeout: float = 120, **kw) -> subprocess.CompletedProcess:
    """Run the real `filegram` command in a subprocess."""
    env = dict(os.environ)
    if home is not None:
        env["FILEGRAM_HOME"] = str(home)
    env.setdefault("PYTHONUTF8", "1")
    proc = subprocess.run(
        [sys.executable, "-m", "filegram", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        **kw,
    )
    if check and proc.returncode != 0:
        raise AssertionError(f"filegram {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc
