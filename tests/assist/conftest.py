"""Fixtures for the assistant tests (helpers live in assist_users.py: every test folder
has a conftest module, so test modules import helpers from uniquely named modules)."""

from __future__ import annotations

from pathlib import Path

import pytest
from assist_users import FLAT_USER, NESTED_USER, make_users


@pytest.fixture(scope="session")
def users(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return make_users(tmp_path_factory.mktemp("assist_users"), (NESTED_USER, FLAT_USER))
