from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture
def ray_installed() -> None:
    pytest.importorskip("ray", reason="the Ray engine needs ray (pip install 'filegram[scale]')")


@pytest.fixture(scope="module")
def ray_here() -> Iterator[Any]:
    """One local Ray runtime (2 CPUs) in this process for a whole module: simulate and bench
    use a runtime that is already running as it is, so the module pays for one start, not
    one per run (a start costs 5-15 s on this machine). Shut down after the module."""
    pytest.importorskip("ray", reason="the Ray engine needs ray (pip install 'filegram[scale]')")
    from filegram.simulator.engines import ray_runtime

    with ray_runtime(None, workers=2) as ray:
        yield ray
