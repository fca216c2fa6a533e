"""Shared fixtures: one small simulated corpus per test session (real simulator, fast mode)."""

from __future__ import annotations

from pathlib import Path

import pytest
from bench_helpers import PROFILES


@pytest.fixture(scope="session")
def sim_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from filegram.simulator import simulate

    out = tmp_path_factory.mktemp("bench-sim")
    simulate(out, profiles=list(PROFILES), seed=0)
    return out


@pytest.fixture(scope="session")
def corpus(sim_dir: Path):
    from filegram.bench.trajectories import load_folders
    from filegram.bench.truth import load_truth

    trajs = load_folders(sorted(p for p in sim_dir.iterdir() if p.is_dir()))
    return trajs, load_truth()
