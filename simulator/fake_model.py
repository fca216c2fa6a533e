"""A scripted OpenAI-compatible chat server on 127.0.0.1, for the agent-mode tests and the
scaling benchmark: every conversation gets the same short sequence of tool calls (by turn:
the number of assistant messages so far), after a fixed latency, like a real API that takes
its time. It can answer the first N requests with 429 (rate limited) to exercise retries,
and it records when each request arrived and for which persona and task.

    python -m filegram.simulator.fake_model --latency 0.5 --port 8765
"""

from __future__ import annotations

import argparse
import hashlib
import json
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ToolCall = tuple[str, dict[str, Any]]

SCRIPT: tuple[tuple[ToolCall, ...], ...] = (
    (("ls", {"path": "."}),),
    (("grep", {"pattern": "the"}),),
    (("mkdir", {"path": "output"}),
     ("write", {"path": "output/summary.md", "content": "# Summary\n\n- first point\n- second point\n"})),
    (("edit", {"path": "output/summary.md", "old": "- second point", "new": "- second point, checked"}),),
    (),  # the final answer: no tool call
)


@dataclass(frozen=True)
class Request:
    at: float  # time.monotonic() on arrival
    conversation: str  # a digest of the system prompt and first user message (one per pair)
    turn: int
    status: int


class FakeModel:
    """`with FakeModel(latency=0.2) as m: m.api_base` -> 'http://127.0.0.1:PORT/v1'."""

    def __init__(self, latency: float = 0.0, *, fail_first: int = 0, port: int = 0,
                 script: Sequence[Sequence[ToolCall]] = SCRIPT):
        self.latency = latency
        self.fail_first = fail_first
        self.script = [tuple(turn) for turn in script]
        self.requests: list[Request] = []
        self._lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                code, payload = outer.answer(body)
                data = json.dumps(payload).encode()
                try:
                    self.send_response(code)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, name="fake-model", daemon=True)

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @staticmethod
    def conversation_id(messages: Sequence[dict[str, Any]]) -> str:
        """One id per persona and task: a digest of the system prompt and the first user message."""
        head = json.dumps([m.get("content") for m in messages[:2]], ensure_ascii=False)
        return hashlib.sha256(head.encode("utf-8")).hexdigest()[:12]

    def answer(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        arrived = time.monotonic()
        messages = body.get("messages") or []
        conversation = self.conversation_id(messages)
        turn = sum(1 for m in messages if m.get("role") == "assistant")
        with self._lock:
            failing = len(self.requests) < self.fail_first
            self.requests.append(Request(arrived, conversation, turn, 429 if failing else 200))
        if self.latency > 0:
            time.sleep(self.latency)
        if failing:
            return 429, {"error": {"message": "rate limit reached, try again", "type": "rate_limit_error"}}
        calls = self.script[min(turn, len(self.script) - 1)]
        message: dict[str, Any] = {"role": "assistant", "content": None if calls else "Done."}
        if calls:
            message["tool_calls"] = [
                {"id": f"call_{turn}_{i}", "type": "function",
                 "function": {"name": name, "arguments": json.dumps(args)}}
                for i, (name, args) in enumerate(calls)]
        return 200, {"id": f"chatcmpl-{conversation}-{turn}", "object": "chat.completion", "created": 1,
                     "model": body.get("model", "fake"),
                     "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}],
                     "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}

    def start(self) -> FakeModel:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(timeout=10)

    def __enter__(self) -> FakeModel:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m filegram.simulator.fake_model", description=__doc__.split("\n\n")[0])
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--latency", type=float, default=0.5, help="seconds before each answer")
    args = ap.parse_args(argv)
    with FakeModel(args.latency, port=args.port) as model:
        print(f"serving {model.api_base} (model name: openai/fake); Ctrl-C stops", flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
