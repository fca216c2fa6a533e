"""The dashboard and the assistant endpoints served by the real daemon (`filegram start
--foreground` in a subprocess) on a simulated user's data: `filegram open --print` gives
the one-time URL, the browser session works, /api/suggest and /api/card answer with the
bearer token. Skips (saying so) while the daemon does not serve the dashboard yet."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import shutil
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from assist_users import NESTED_USER
from fg_helpers import wait_until

CONFIG = """\
[recorder]
roots = [{root}]

[daemon]
consolidate_minutes = 5.0
tray = false
"""


def _get(url: str, opener: Any = None, headers: dict[str, str] | None = None) -> tuple[int, str, str]:
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with (opener or urllib.request.build_opener()).open(req, timeout=30) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("Content-Type", ""), exc.read().decode()


def _post(url: str, form: dict[str, str], opener: Any) -> tuple[int, str, str]:
    data = urllib.parse.urlencode(form).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/x-www-form-urlencoded"})
    try:
        with opener.open(req, timeout=60) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("Content-Type", ""), exc.read().decode()


def _actions(info: dict[str, Any], auth: dict[str, str], limit: int) -> list[dict[str, Any]]:
    status, _, body = _get(info["api_url"] + f"/api/actions?limit={limit}", headers=auth)
    assert status == 200, body
    return json.loads(body)["actions"]


def _count_under(home: Path, glob: str) -> int:
    """Stored actions touching a path under glob, read from the database itself."""
    from filegram.forget import path_matches
    from filegram.schema import event_paths
    from filegram.store import Store

    with Store(home / "filegram.db", readonly=True) as store:
        return sum(1 for a in store.actions() if any(path_matches(p, glob) for p in event_paths(a)))


def test_daemon_serves_dashboard_and_assistant_api(users: dict[str, Path], tmp_path: Path,
                                                   artifacts_dir: Path) -> None:
    home = tmp_path / "home"
    shutil.copytree(users[NESTED_USER], home)
    root = tmp_path / "work"
    root.mkdir()
    (home / "config.toml").write_text(CONFIG.format(root=json.dumps(str(root))))
    env = {**os.environ, "FILEGRAM_HOME": str(home), "PYTHONUTF8": "1"}
    env.pop("DISPLAY", None)
    proc = subprocess.Popen([sys.executable, "-m", "filegram", "start", "--foreground", "--no-tray"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        info_path = home / "run" / "daemon.json"

        def ready() -> bool:
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
            return info_path.exists()

        wait_until(ready, 60, what="the daemon to become ready (run/daemon.json)")
        url = subprocess.run([sys.executable, "-m", "filegram", "open", "--print"], env=env,
                             capture_output=True, text=True, timeout=30).stdout.strip()
        info = json.loads(info_path.read_text())
        assert url.startswith(info["api_url"] + "/?code=")
        assert (home / "run" / "api.token").read_text().strip() not in url
        status, ctype, body = _get(info["api_url"] + "/ui/")
        if ctype.startswith("application/json"):
            pytest.skip("the daemon does not serve the dashboard yet (see docs/assistant.md, wiring)")
        assert status == 401
        jar = http.cookiejar.CookieJar()
        op = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        status, ctype, body = _get(url, op)
        assert status == 200 and ctype.startswith("text/html") and "How you work" in body
        assert 'id="dim-C" data-dim="C" data-tier="L"' in body
        for page in ("/ui/timeline", "/ui/activity", "/ui/ask?name_for=patent+email+from+May&kind=report",
                     "/ui/card", "/ui/privacy", "/ui/screen"):
            status, _, body = _get(info["api_url"] + page, op)
            assert status == 200, (page, body[:500])
        assert "patent-email-may.md" in _get(info["api_url"] + "/ui/ask?name_for=patent+email+from+May&kind=report", op)[2]
        token = (home / "run" / "api.token").read_text().strip()
        auth = {"Authorization": f"Bearer {token}"}
        status, _, body = _get(info["api_url"] + "/api/suggest?name_for=patent%20email%20from%20May&kind=report",
                               headers=auth)
        assert status == 200 and json.loads(body)["name"] == "patent-email-may.md"
        status, _, body = _get(info["api_url"] + "/api/card", headers=auth)
        assert status == 200 and json.loads(body)["markdown"].startswith("# Working style card")
        status, _, body = _get(info["api_url"] + "/api/suggest", headers=auth)
        assert status == 400 and "name_for" in body
        assert _get(info["api_url"] + "/api/health", headers=auth)[0] == 200  # the API is untouched

        # privacy from the dashboard: exclude a folder and forget what is stored under it;
        # the recorder restarts at once with the new exclusion and keeps recording the rest
        page = _get(info["api_url"] + "/ui/privacy", op)[2]
        csrf = re.search(r'name=csrf value="([^"]+)"', page).group(1)
        n_docs = _count_under(home, "docs/*")  # the nested user's documents
        assert n_docs
        status, _, body = _post(info["api_url"] + "/ui/privacy/exclude",
                                {"csrf": csrf, "pattern": "docs/*", "forget": "1"}, op)
        assert status == 200 and f"Forgot {n_docs} action(s)" in body, body[-1500:]
        assert _count_under(home, "docs/*") == 0
        (root / "docs").mkdir()
        (root / "docs" / "secret-plan.md").write_text("do not keep\n")
        (root / "kept-note.md").write_text("keep me\n")
        wait_until(lambda: any("kept-note.md" in json.dumps(a) for a in _actions(info, auth, 50)), 60, 0.2,
                   "the recorder to record after the exclusion", seen=lambda: _actions(info, auth, 5))
        assert not any("secret-plan" in json.dumps(a) for a in _actions(info, auth, 200))
        h = json.loads(_get(info["api_url"] + "/api/health", headers=auth)[2])
        assert h["recorder"]["running"], h
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
