"""The FileGram daemon: a background service that records the chosen folders, keeps memory
current, shows its state in the tray and answers assistants over a local API.

The service is here: lifecycle (service, startup, runtime), the recorder's supervisor, the
scheduler and housekeeping jobs (scheduler, maintenance), health, the shared Memory, the
screen recorder's link, the tray, autostart, the client and the CLI. What it serves lives in
two subpackages: `web` (the one HTTP layer, the JSON API and the dashboard) and `assist`
(suggestions, the style card, the Assistant facade and the MCP server).

Names load on first use so `filegram --help` (which imports daemon.cli) stays fast.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Daemon": "service",
    "DaemonClient": "client",
    "NotRunning": "client",
    "login_url": "client",
    "RunFiles": "runtime",
    "AlreadyRunning": "runtime",
    "HealthInputs": "health",
    "assess": "health",
    "run_perf": "perf",
    "resolve_roots": "startup",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(name)
