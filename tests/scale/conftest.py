from __future__ import annotations

import pytest


@pytest.fixture
def ray_installed() -> None:
    pytest.importorskip("ray", reason="the Ray engine needs ray (pip install 'filegram[scale]')")
