"""Talks to a running daemon over its local API with the token from the home's run folder.

The CLI's stop, pause, resume and status use this; so can any local script. It never
guesses: no lock held means no daemon, whatever stale files say.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from filegram.config import Home
from filegram.errors import FileGramError

from .runtime import RunFiles


class NotRunning(FileGramError):
    """No daemon is running for this home."""


# The one line for every command that needs the daemon (pause, resume, open ...) when it is not
# running: what is wrong and what to type.
NOT_RUNNING = "the FileGram daemon is not running: start it with `filegram start --root DIR`"


class DaemonClient:
    def __init__(self, run_dir: str | Path, timeout: float = 10.0):
        self.files = RunFiles(run_dir)
        self.timeout = timeout

    def info(self) -> dict[str, Any] | None:
        return self.files.read_info()

    @property
    def url(self) -> str:
        info = self.info()
        if not info or not info.get("api_url"):
            raise NotRunning(NOT_RUNNING)
        return str(info["api_url"])

    def request(self, method: str, path: str, body: Any = None, *, timeout: float | None = None) -> Any:
        """One JSON request; errors become a FileGramError with the daemon's message."""
        token = self.files.read_token()
        if not token:
            raise NotRunning(NOT_RUNNING)
        data = None if body is None else json.dumps(body).encode("utf-8")
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Authorization", f"Bearer {token}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=timeout or self.timeout) as resp:
                return json.loads(resp.read().decode("utf-8"))
        except urllib.error.HTTPError as exc:
            try:
                msg = json.loads(exc.read().decode("utf-8")).get("error", str(exc))
            except ValueError:
                msg = str(exc)
            raise FileGramError(f"daemon answered {exc.code}: {msg}") from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise FileGramError(f"cannot reach the daemon's API at {self.url}: {reason}") from None

    def health(self) -> dict[str, Any]:
        return self.request("GET", "/api/health")


def login_url(run_files: RunFiles) -> str:
    """A one-time sign-in URL of the running daemon's dashboard (`filegram open`): the
    daemon hands out a code that works once, within a minute; the API token never goes
    into a URL (nor into the argv of the browser launcher, which `ps` shows)."""
    if not run_files.read_info():
        raise NotRunning(NOT_RUNNING)
    out = DaemonClient(run_files.run_dir).request("POST", "/api/signin-code")
    url = out.get("url") if isinstance(out, dict) else None
    if not isinstance(url, str):
        raise FileGramError("the daemon did not hand out a sign-in code")
    return url


FORGET_TIMEOUT_S = 600.0  # forgetting ends with a VACUUM of the whole file


def sync_through_daemon(home: Home, shared: str | None) -> dict[str, Any] | None:
    """`filegram sync` while a daemon records this home: the daemon syncs, replaying other
    devices' forgets with its recorder paused (filegram.sync names this function). None when
    no daemon holds the home's lock."""
    files = RunFiles(home.run_dir)
    if not files.is_locked():
        return None
    try:
        result: dict[str, Any] = DaemonClient(home.run_dir, timeout=FORGET_TIMEOUT_S).request(
            "POST", "/api/sync", {"dir": shared})
    except NotRunning:
        raise FileGramError("a FileGram daemon is starting for this home: try again in a moment") from None
    return result


def forget_through_daemon(home: Home, what: dict[str, Any]) -> dict[str, Any] | None:
    """`filegram forget` while a daemon records this home: the daemon pauses its recorder,
    forgets and records again (filegram.forget names this function). None when no daemon
    holds the home's lock."""
    files = RunFiles(home.run_dir)
    if not files.is_locked():
        return None
    try:
        result: dict[str, Any] = DaemonClient(home.run_dir, timeout=FORGET_TIMEOUT_S).request("POST", "/api/forget", what)
    except NotRunning:
        raise FileGramError("a FileGram daemon is starting for this home: try again in a moment (nothing was forgotten)") from None
    return result
