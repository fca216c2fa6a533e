from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("cryptography", reason="sync needs the 'cryptography' package (pip install 'filegram[sync]')")


@pytest.fixture(scope="session")
def sim_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Fast simulated trajectories: p1 (a 'laptop' habit) and p2 (organises differently), 6 tasks each."""
    from filegram.simulator import simulate

    out = tmp_path_factory.mktemp("sim")
    simulate(out, profiles=["p1", "p2"], tasks=["T-01", "T-02", "T-05", "T-09", "T-13", "T-17"], seed=3)
    return out
