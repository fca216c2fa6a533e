"""Simulated users for the assistant tests: `filegram simulate` (fast mode) into a folder,
`filegram import` into a temporary home, memory consolidated. p11 and p16 have opposite
organisation tiers (C = L, deeply nested vs C = R, flat) and different naming habits
(kebab-case vs snake_case), so what the assistant suggests for them must differ."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

NESTED_USER = "p11"  # C = L, kebab-case names
FLAT_USER = "p16"  # C = R, snake_case names


def fg(*args: str, home: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run the real `filegram` command; fail the test with its output if it fails."""
    env = {**os.environ, "PYTHONUTF8": "1"}
    env.pop("FILEGRAM_HOME", None)
    pre = ["--home", str(home)] if home else []
    proc = subprocess.run([sys.executable, "-m", "filegram", *pre, *args], capture_output=True,
                          text=True, env=env, timeout=timeout)
    assert proc.returncode == 0, f"filegram {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    return proc


def make_user(base: Path, profile: str) -> Path:
    """A home holding one simulated user's 32 sessions, consolidated into memory."""
    sim = base / f"sim_{profile}"
    home = base / f"home_{profile}"
    fg("simulate", "--profiles", profile, "--tasks", "all", "--seed", "1", "--no-progress", "--out", str(sim))
    fg("import", str(sim), home=home)
    from filegram.memory import Memory

    from filegram.config import Home

    h = Home.resolve(home)
    store = h.open_store()
    try:
        Memory(store, h.load_config()).consolidate()
    finally:
        store.close()
    return home


@pytest.fixture(scope="session")
def users(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("assist_users")
    return {p: make_user(base, p) for p in (NESTED_USER, FLAT_USER)}
