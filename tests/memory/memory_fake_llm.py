"""A tiny OpenAI-compatible chat server on 127.0.0.1 for end-to-end tests of the LLM path."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class FakeLLM:
    """Serves /v1/chat/completions; `mode` picks the behaviour: ok, error, garbage, slow."""

    def __init__(self, reply: str = "Answer: B\nThe evidence points there.") -> None:
        self.reply = reply
        self.mode = "ok"
        self.requests: list[dict[str, Any]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                outer.requests.append({"path": self.path, "body": body})
                if outer.mode == "slow":
                    time.sleep(3)
                if outer.mode == "error":
                    self._send(500, {"error": {"message": "boom", "type": "server_error"}})
                    return
                if self.path.rstrip("/").endswith("/embeddings"):
                    inputs = body.get("input") or []
                    inputs = [inputs] if isinstance(inputs, str) else inputs
                    data = [{"object": "embedding", "index": i, "embedding": outer.embed(str(t))} for i, t in enumerate(inputs)]
                    self._send(200, {"object": "list", "data": data, "model": body.get("model", "fake"),
                                     "usage": {"prompt_tokens": 1, "total_tokens": 1}})
                    return
                text = "I would rather not say." if outer.mode == "garbage" else outer.reply
                self._send(200, {
                    "id": "chatcmpl-test", "object": "chat.completion", "created": int(time.time()),
                    "model": body.get("model", "fake"),
                    "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
                })

            def _send(self, code: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(code)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @staticmethod
    def embed(text: str) -> list[float]:
        """A toy 8-dimensional embedding: letter counts folded by alphabet position."""
        v = [0.0] * 8
        for c in text.lower():
            if "a" <= c <= "z":
                v[(ord(c) - 97) % 8] += 1.0
        return v

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def __enter__(self) -> FakeLLM:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
