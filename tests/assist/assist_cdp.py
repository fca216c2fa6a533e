"""A small Chrome DevTools Protocol driver for Debian's headless chromium: launch with a
fresh profile, navigate, evaluate JavaScript, fill and submit forms, take screenshots.
(Playwright's own browser download does not work here; this needs only websocket-client.)"""

from __future__ import annotations

import base64
import itertools
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM_CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
         "--window-size=1280,900", "--remote-debugging-port=0", "--remote-allow-origins=*"]


def find_chromium() -> str | None:
    env = os.environ.get("FILEGRAM_CHROMIUM")
    if env:
        return env
    for name in CHROMIUM_CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    def __init__(self, executable: str):
        import websocket  # websocket-client

        self.profile = tempfile.mkdtemp(prefix="fg-chromium-")
        self.proc = subprocess.Popen([executable, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                     start_new_session=True)
        port = self._devtools_port()
        targets = self._json(f"http://127.0.0.1:{port}/json/list")
        page = next(t for t in targets if t.get("type") == "page")
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=30, suppress_origin=True)
        self._ids = itertools.count(1)
        self.call("Page.enable")
        self.call("Runtime.enable")

    def _devtools_port(self, timeout: float = 30.0) -> int:
        active = Path(self.profile) / "DevToolsActivePort"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"chromium exited: {self.proc.stderr.read()[-2000:] if self.proc.stderr else ''}")
            if active.exists():
                first = active.read_text().splitlines()[:1]
                if first and first[0].isdigit():
                    return int(first[0])
            time.sleep(0.05)
        raise RuntimeError("chromium did not open its DevTools port")

    @staticmethod
    def _json(url: str) -> Any:
        with urllib.request.urlopen(url, timeout=10) as r:
            return json.loads(r.read())

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        msg_id = next(self._ids)
        self.ws.send(json.dumps({"id": msg_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == msg_id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})

    def js(self, expr: str) -> Any:
        res = self.call("Runtime.evaluate", expression=expr, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in res:
            raise RuntimeError(f"JS error in {expr!r}: {res['exceptionDetails']}")
        return res["result"].get("value")

    def wait(self, expr: str, timeout: float = 20.0) -> Any:
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            try:
                last = self.js(expr)
            except RuntimeError:
                last = None  # the page is navigating
            if last:
                return last
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {expr!r} (last {last!r}) on {self.url()}")

    def url(self) -> str:
        try:
            return str(self.js("location.href"))
        except RuntimeError:
            return "?"

    def goto(self, url: str) -> None:
        """Navigate and wait until the new document has loaded."""
        marker = f"fg{time.monotonic_ns()}"
        self.js(f"window.{marker} = 1")
        self.call("Page.navigate", url=url)
        self.wait(f"document.readyState === 'complete' && !window.{marker}")

    def submit(self, form_selector: str, fields: dict[str, str | bool] | None = None) -> None:
        """Fill a form's inputs (text or checkbox) and submit it like a user pressing its button."""
        marker = f"fg{time.monotonic_ns()}"
        payload = json.dumps(fields or {})
        self.js(f"""(() => {{ window.{marker} = 1; const f = document.querySelector({json.dumps(form_selector)});
            const v = {payload};
            for (const [k, val] of Object.entries(v)) {{
              const el = f.querySelector('[name="' + k + '"]');
              if (el.type === 'checkbox') el.checked = !!val; else el.value = val; }}
            (f.querySelector('button') || f).click(); }})()""")
        self.wait(f"document.readyState === 'complete' && !window.{marker}")

    def text(self, selector: str) -> str:
        return self.js(f"(document.querySelector({json.dumps(selector)}) || {{}}).innerText || ''")

    def screenshot(self, path: Path) -> Path:
        data = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=True)["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))
        return path

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:
            pass
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(self.proc.pid, signal.SIGKILL)
        shutil.rmtree(self.profile, ignore_errors=True)
