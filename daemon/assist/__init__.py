"""What an assistant does with the memory: name and place a new file the way this user would
(suggest), a working style card for an agent's instructions (card), the Assistant facade the
CLI, the MCP server and the dashboard share (facade), and the MCP server itself.

Modules: habits (what the user's names and placements show), suggest, card, tiers, facade,
mcp_server, cli. Names load on first use so `filegram --help` stays fast.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Assistant": "facade",
    "check_question": "facade",
    "Habits": "habits",
    "learn_habits": "habits",
    "split_name": "habits",
    "suggest_name": "suggest",
    "absolute_path": "suggest",
    "KINDS": "suggest",
    "style_card": "card",
    "ADVICE": "card",
    "tier_of": "tiers",
    "build_server": "mcp_server",
    "serve_stdio": "mcp_server",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(name)
