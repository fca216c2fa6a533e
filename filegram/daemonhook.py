"""Calling into the daemon from the core: the daemon lives above the core (it imports it),
so the core names the daemon's functions as "module:function" strings and resolves them
only when called. forget and sync use it to let a running daemon do the work (it pauses its
recorder, acts, and records again)."""

from __future__ import annotations

import importlib
from typing import Any


def run_in_daemon(spec: str, *args: Any) -> dict[str, Any] | None:
    """Call the daemon's "module:function". None when the daemon package is not installed
    or, from the function, when no daemon runs for the home."""
    module, _, name = spec.partition(":")
    try:
        runner = getattr(importlib.import_module(module), name)
    except ModuleNotFoundError as exc:
        if exc.name is None or not module.startswith(exc.name):
            raise
        return None
    result: dict[str, Any] | None = runner(*args)
    return result
