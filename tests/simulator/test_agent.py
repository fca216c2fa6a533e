"""Agent mode against a local OpenAI-compatible server that returns scripted tool calls."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from filegram.schema import validate_event

SCRIPT = [
    [("ls", {"path": "."})],
    [("grep", {"pattern": "Harbor Capital"})],
    [("read", {"path": "notes/portfolio_rebalancing.md"})],
    [("mkdir", {"path": "reports"}),
     ("write", {"path": "reports/2025/summary.md", "content": "# Summary\n\n- Harbor Capital first\n- second\n"})],
    [("edit", {"path": "reports/2025/summary.md", "old": "- second", "new": "- second, checked"}),
     ("read", {"path": "../../etc/passwd"})],
    [],  # final answer, no tool call
]


class FakeLLM(BaseHTTPRequestHandler):
    requests: list[dict] = []

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        FakeLLM.requests.append(body)
        turn = len(FakeLLM.requests) - 1
        calls = SCRIPT[min(turn, len(SCRIPT) - 1)]
        message: dict = {"role": "assistant", "content": None if calls else "Done."}
        if calls:
            message["tool_calls"] = [
                {"id": f"call_{turn}_{i}", "type": "function",
                 "function": {"name": name, "arguments": json.dumps(args)}}
                for i, (name, args) in enumerate(calls)]
        payload = {"id": f"chatcmpl-{turn}", "object": "chat.completion", "created": 1, "model": "fake",
                   "choices": [{"index": 0, "message": message,
                                "finish_reason": "tool_calls" if calls else "stop"}],
                   "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture()
def fake_server():
    FakeLLM.requests = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeLLM)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()


def test_agent_loop_acts_observes_and_writes_a_trajectory(fake_server: str, tmp_path: Path) -> None:
    from filegram.simulator.agent import run_agent

    out = run_agent("p3", "T-01", model="openai/fake", api_base=fake_server, api_key="x",
                    out=tmp_path / "out" / "p3_T-01", sandbox=tmp_path / "sandbox")
    # the work really happened in the sandbox
    summary_file = tmp_path / "sandbox" / "reports" / "2025" / "summary.md"
    assert summary_file.read_text() == "# Summary\n\n- Harbor Capital first\n- second, checked\n"
    # the model saw real observations: the listing, the grep hits, the refused path
    sent = FakeLLM.requests
    assert len(sent) == len(SCRIPT)
    tool_msgs = [m for m in sent[-1]["messages"] if m["role"] == "tool"]
    assert "notes/" in tool_msgs[0]["content"] and "emails/" in tool_msgs[0]["content"]
    assert "notes/portfolio_rebalancing.md" in tool_msgs[1]["content"]
    assert tool_msgs[-1]["content"].startswith("error: path outside the workspace")
    assert "Sam Taylor" in sent[0]["messages"][0]["content"]
    assert {t["function"]["name"] for t in sent[0]["tools"]} >= {"read", "ls", "grep", "glob", "write", "edit",
                                                                   "mv", "cp", "rm", "mkdir"}
    events = json.loads((out / "events.json").read_text())
    for ev in events:
        validate_event(ev)
    types = [e["event_type"] for e in events]
    for t in ("file_browse", "file_search", "file_read", "dir_create", "file_write", "file_edit"):
        assert t in types, t
    assert [e["depth"] for e in events if e["event_type"] == "dir_create"] == [1, 2]
    search = next(e for e in events if e["event_type"] == "file_search")
    assert search["files_opened_after"] == ["notes/portfolio_rebalancing.md"]
    edit = next(e for e in events if e["event_type"] == "file_edit")
    assert (edit["lines_added"], edit["lines_deleted"], edit["diff_summary"]) == (1, 1, "+1 -1")
    assert all(e["model_name"] == "fake" and e["message_id"].startswith("chatcmpl-") for e in events)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["profile_id"] == "p3" and summary["mode"] == "agent"


def test_agent_loop_under_the_real_recorder(fake_server: str, tmp_path: Path) -> None:
    try:
        from filegram.recorder import Recorder  # noqa: F401
    except ImportError as exc:  # pragma: no cover
        pytest.skip(f"filegram.recorder.Recorder is not importable yet: {exc}")
    from filegram.simulator.agent import run_agent

    out = run_agent("p3", "T-01", model="openai/fake", api_base=fake_server, api_key="x", live=True,
                    out=tmp_path / "out" / "p3_T-01", sandbox=tmp_path / "sandbox")
    events = json.loads((out / "events.json").read_text())
    types = {e["event_type"] for e in events}
    assert {"file_read", "dir_create", "file_write"} <= types, types
    tool_msgs = [m for m in FakeLLM.requests[-1]["messages"] if m["role"] == "tool"]
    assert "notes/portfolio_rebalancing.md" in tool_msgs[1]["content"]  # grep hits seen from disk
    written = [e["file_path"] for e in events if e["event_type"] in ("file_write", "file_edit")]
    assert "reports/2025/summary.md" in written
    assert json.loads((out / "summary.json").read_text())["mode"] == "live"


def test_cli_agent_mode(fake_server: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from filegram.cli import main

    rc = main(["--home", str(tmp_path / "home"), "simulate", "--agent", "openai/fake", "--api-base", fake_server,
               "--profiles", "p3", "--tasks", "T-01", "--no-progress", "--out", str(tmp_path / "out")])
    assert rc == 0
    assert "1 trajectories" in capsys.readouterr().out
    summary = json.loads((tmp_path / "out" / "p3_T-01" / "summary.json").read_text())
    assert summary["mode"] == "agent" and summary["model"] == "openai/fake"
    assert summary["counts"]["file_write"] == 1
