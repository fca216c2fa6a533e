"""Simulated users for the assistant tests: `filegram simulate` (fast mode) into a folder,
`filegram import` into a temporary home, memory consolidated (the fixture is in conftest). p11 and p3 have opposite
organisation tiers (C = L, deeply nested vs C = R, flat) and different naming habits
(kebab-case vs snake_case), so what the assistant suggests for them must differ."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

NESTED_USER = "p11"  # C = L, kebab-case names
FLAT_USER = "p3"  # C = R, snake_case names


def fg(*args: str, home: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run the real `filegram` command; fail the test with its output if it fails."""
    env = {**os.environ, "PYTHONUTF8": "1"}
    env.pop("FILEGRAM_HOME", None)
    pre = ["--home", str(home)] if home else []
    proc = subprocess.run([sys.executable, "-m", "filegram", *pre, *args], capture_output=True,
                          text=True, env=env, timeout=timeout)
    assert proc.returncode == 0, f"filegram {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    return proc


def make_users(base: Path, profiles: tuple[str, ...]) -> dict[str, Path]:
    """One home per simulated user (32 sessions each), consolidated into memory."""
    sim = base / "sim"
    fg("simulate", "--profiles", ",".join(profiles), "--tasks", "all", "--seed", "1", "--no-progress",
       "--out", str(sim))
    from filegram.memory import Memory

    from filegram.config import Home

    homes = {}
    for profile in profiles:
        home = base / f"home_{profile}"
        fg("import", *sorted(str(p) for p in sim.glob(f"{profile}_T-*")), home=home)
        h = Home.resolve(home)
        store = h.open_store()
        try:
            Memory(store, h.load_config()).consolidate()
        finally:
            store.close()
        homes[profile] = home
    return homes
