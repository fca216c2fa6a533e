"""The MCP server through the official Python SDK's stdio client, as a desktop assistant
would use it: spawn `python -m filegram --home H mcp`, list the tools, call each one."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

mcp = pytest.importorskip("mcp", reason="the MCP SDK is not installed (pip install 'filegram[mcp]')")

from mcp import ClientSession, StdioServerParameters, stdio_client  # noqa: E402

EXPECTED_TOOLS = {"get_profile", "ask", "recent_activity", "search", "suggest_name", "style_card"}


def _attr(obj: Any, *names: str) -> Any:
    """SDK 1.x spells fields in camelCase (isError), 2.x in snake_case (is_error)."""
    for n in names:
        if hasattr(obj, n):
            return getattr(obj, n)
    raise AttributeError(names)


def _is_error(result: Any) -> bool:
    return bool(_attr(result, "is_error", "isError"))


def _payload(result: Any) -> Any:
    assert not _is_error(result), result
    structured = _attr(result, "structured_content", "structuredContent")
    if structured:
        return structured.get("result", structured) if set(structured) == {"result"} else structured
    text = "".join(getattr(c, "text", "") for c in result.content)
    try:
        return json.loads(text)
    except ValueError:
        return text


async def _session_calls(home: Path) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "FILEGRAM_HOME"}
    params = StdioServerParameters(command=sys.executable, args=["-m", "filegram", "--home", str(home), "mcp"],
                                   env=env)
    out: dict[str, Any] = {}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = await session.list_tools()
        out["tools"] = {t.name: t for t in tools.tools}
        out["get_profile"] = _payload(await session.call_tool("get_profile", {}))
        out["ask"] = _payload(await session.call_tool("ask", {"question": "How does this user organise folders?"}))
        out["ask_choice"] = _payload(await session.call_tool("ask", {
            "question": "How are the user's folders organised?",
            "choices": ["flat (root only)", "deeply nested (3+ levels, moves into subfolders)"]}))
        out["recent_activity"] = _payload(await session.call_tool("recent_activity", {"limit": 5}))
        out["search"] = _payload(await session.call_tool("search", {"query": "quarterly summary"}))
        out["suggest_name"] = _payload(await session.call_tool(
            "suggest_name", {"name_for": "patent email from May", "kind": "report"}))
        out["style_card"] = _payload(await session.call_tool("style_card", {}))
        out["bad"] = await session.call_tool("suggest_name", {"name_for": ""})
    return out


def test_mcp_lists_and_calls_every_tool(users: dict[str, Path]) -> None:
    res = asyncio.run(asyncio.wait_for(_session_calls(users["p11"]), 90))
    assert EXPECTED_TOOLS <= set(res["tools"])
    for name in EXPECTED_TOOLS:
        assert res["tools"][name].description, name
    assert "question" in json.dumps(_attr(res["tools"]["ask"], "input_schema", "inputSchema"))

    dims = res["get_profile"]["dimensions"]
    assert set(dims) == {"A", "B", "C", "D", "E", "F"}
    assert dims["C"]["tier"] == "L"  # p11 nests deeply (ground truth C = L)

    assert "Organization" in res["ask"]["text"] and "L" in res["ask"]["text"]
    assert res["ask_choice"]["choice"] == 1

    acts = res["recent_activity"]["actions"]
    assert len(acts) == 5 and all(a["type"] and a["session"] for a in acts)
    times = [a["timestamp"] for a in acts]
    assert times == sorted(times, reverse=True)

    assert res["search"]["memory"], res["search"]
    assert any("quarterly" in p for p in res["search"]["paths"])

    sug = res["suggest_name"]
    assert sug["path"].endswith("patent-email-may.md") and "/" in sug["path"]

    card = res["style_card"]
    assert card.startswith("# Working style card") and "Organises" in card

    assert _is_error(res["bad"])
    assert "name-for" in "".join(getattr(c, "text", "") for c in res["bad"].content)
