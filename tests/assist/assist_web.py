"""Serve the dashboard the way the daemon's HTTP server does (Dashboard.owns / serve on a
BaseHTTPRequestHandler), from a ThreadingHTTPServer on 127.0.0.1 in the test process."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class DashboardServer:
    def __init__(self, dashboard: Any):
        dash = dashboard

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def _go(self, method: str) -> None:
                if dash.owns(self.path):
                    dash.serve(self, method)
                    return
                body = b'{"error": "not the dashboard"}'
                self.send_response(404)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:  # noqa: N802
                self._go("GET")

            def do_POST(self) -> None:  # noqa: N802
                self._go("POST")

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __enter__(self) -> DashboardServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
