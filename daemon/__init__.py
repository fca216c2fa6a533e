"""The FileGram daemon: a background service that records the chosen folders, keeps memory
current, shows its state in the tray and answers assistants over a local API.

Names load on first use so `filegram --help` (which imports daemon.cli) stays fast.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Daemon": "service",
    "DaemonClient": "client",
    "RunFiles": "runtime",
    "AlreadyRunning": "runtime",
    "HealthInputs": "health",
    "assess": "health",
    "run_perf": "perf",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(name)
