"""What the daemon serves over HTTP on 127.0.0.1: one request/response/error layer (http:
Host check, body limits, JSON and form reading, typed errors to status codes), the API token
and what the dashboard derives from it (auth), the JSON API (rest: routes over the plain API
object in api, and the Assistant), and the dashboard (dashboard, backends, views with
Jinja2 templates, charts).

Names load on first use: the daemon imports only what it serves, Jinja2 with the first page.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "WebServer": "http",
    "Request": "http",
    "Response": "http",
    "Site": "http",
    "status_of": "http",
    "TokenAuth": "auth",
    "JsonApi": "rest",
    "Route": "rest",
    "daemon_routes": "rest",
    "assistant_routes": "rest",
    "require_object": "rest",
    "DaemonApi": "api",
    "DaemonHost": "host",
    "Dashboard": "dashboard",
    "add_exclusion": "dashboard",
    "forget_summary": "dashboard",
    "LocalBackend": "backends",
    "DaemonBackend": "backends",
    "RequestError": "errors",
    "BadRequest": "errors",
    "Busy": "errors",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(name)
