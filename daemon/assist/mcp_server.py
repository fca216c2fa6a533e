"""`filegram mcp`: the user's working profile for desktop assistants and coding agents,
over the Model Context Protocol on stdio (the way they already connect to tools).

It serves one Assistant (see assist.cli.assistant_for: the home's store directly, so it works
whether or not the daemon runs). Tools return JSON objects (the card returns Markdown).
Nothing here writes to the user's files. Built on the official Python SDK (the optional
extra `filegram[mcp]`), version 1.x (FastMCP) or 2.x (MCPServer).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from filegram.errors import FileGramError

from .facade import Assistant

SERVER_NAME = "filegram"

INSTRUCTIONS = (
    "FileGram knows how this user works with files: how they read, write, organise, edit, "
    "curate and use visuals (six dimensions, tiers L/M/R with confidence), learned locally from "
    "their own activity. Call style_card once and follow it; call suggest_name before creating a "
    "file; use ask for questions about their habits and search / recent_activity for continuity."
)


def sdk() -> tuple[Any, type[Exception]]:
    """The SDK's server class and its ToolError (the error whose message reaches the client)."""
    try:
        from mcp.server.mcpserver import MCPServer  # SDK 2.x
        from mcp.server.mcpserver.exceptions import ToolError

        return MCPServer, ToolError
    except ImportError:
        pass
    try:
        from mcp.server.fastmcp import FastMCP  # SDK 1.x
        from mcp.server.fastmcp.exceptions import ToolError as ToolError1

        return FastMCP, ToolError1
    except ImportError:
        raise FileGramError(
            "the MCP server needs the official MCP SDK: pip install 'filegram[mcp]' (or pip install mcp)"
        ) from None


def build_server(assistant: Assistant) -> Any:
    """An MCP server with FileGram's tools bound to one Assistant."""
    server_cls, tool_error = sdk()
    server = server_cls(SERVER_NAME, instructions=INSTRUCTIONS)

    def get_profile() -> dict[str, Any]:
        """The user's working profile: for each of six dimensions (A Consumption, B Production,
        C Organization, D Iteration, E Curation, F Cross-modal) the tier L/M/R or unknown,
        confidence, description and evidence; plus drift anomalies (which session, which
        dimension, which direction)."""
        return assistant.profile()

    def ask(question: str, choices: list[str] | None = None) -> dict[str, Any]:
        """Ask the memory a question about how the user works (optionally multiple choice:
        give 2-26 choices and read `choice`, a 0-based index). Returns text, choice,
        evidence, used_llm, warnings."""
        return assistant.ask(question, choices)

    def recent_activity(limit: int = 20, session: str | None = None) -> dict[str, Any]:
        """The user's most recent file actions (newest first): time, type, path, session and a
        one-line description. limit 1-500; session restricts to one session id."""
        acts = assistant.recent_activity(limit, session)
        return {"actions": acts, "count": len(acts)}

    def search(query: str, k: int = 5) -> dict[str, Any]:
        """Search what the user worked on: passages of their documents and edits (memory's
        semantic channel) and matching file paths."""
        return assistant.search(query, k)

    def suggest_name(name_for: str, kind: str | None = None) -> dict[str, Any]:
        """Propose a file name and folder in the user's own conventions (naming style, date
        prefixes, version suffixes, folder depth, where similar files went). name_for
        describes the file ("patent email from May"); kind is report, notes, email, data,
        chart, slides, ... or an extension. Returns name, folder, path, reasons, similar."""
        return assistant.suggest(name_for, kind)

    def style_card() -> str:
        """A short Markdown working-style card (how this user reads, writes, organises, edits,
        curates and uses visuals, with confidence and recent drift) to follow as defaults."""
        return assistant.card()

    for fn in (get_profile, ask, recent_activity, search, suggest_name, style_card):
        server.add_tool(user_errors(fn, tool_error), name=fn.__name__,
                        description=" ".join((fn.__doc__ or "").split()))
    return server


def user_errors(fn: Callable[..., Any], tool_error: type[Exception]) -> Callable[..., Any]:
    """A FileGramError is the client's problem: its one line goes back as the tool's error
    (anything else stays a generic crash, its details only in the server's log)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except FileGramError as exc:
            raise tool_error(str(exc)) from None

    return wrapper


def serve_stdio(assistant: Assistant) -> int:
    """Run until the client closes stdin. Logs go to stderr: stdout is the protocol."""
    logging.basicConfig(level=logging.WARNING)
    build_server(assistant).run("stdio")
    return 0
