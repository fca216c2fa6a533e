"""The daemon as a newcomer meets it (issue 18): `start --root` keeps the root and `status`
shows what is recorded; `filegram open` says what happened and prints a link that works;
an exclusion added on the dashboard's Privacy page applies at once to the running recorder."""

from __future__ import annotations

import http.cookiejar
import json
import re
import sqlite3
import stat
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from daemon_harness import DaemonHarness, wait_for


def test_start_root_is_kept_and_status_shows_what_is_recorded(tmp_path: Path) -> None:
    home, docs = tmp_path / "home", tmp_path / "Documents"
    docs.mkdir()
    h = DaemonHarness(home, docs)
    try:
        p = h.cli("start", "--root", str(docs), "--no-tray")
        assert p.returncode == 0, p.stderr
        assert p.stdout.splitlines()[0] == (f"kept in {home / 'config.toml'}: recorder.roots = "
                                            f"{json.dumps([str(docs.resolve())])} (`filegram start` records them from now on)")
        assert json.loads(h.cli("config", "get", "recorder.roots").stdout) == [str(docs.resolve())]
        info = json.loads(h.cli("status", "--json").stdout)
        assert info["roots"] == info["recording_roots"] == [str(docs.resolve())]
        text = h.cli("status").stdout
        assert f"  recording   {docs.resolve()}" in text and "None" not in text
        assert h.cli("stop").returncode == 0
        # the next plain `filegram start` records the same folder
        p = h.cli("start", "--no-tray")
        assert p.returncode == 0 and f"recording {docs.resolve()}" in p.stdout and "kept in" not in p.stdout
        assert h.cli("stop").returncode == 0
    finally:
        h.cleanup()


def _fake_opener(tmp_path: Path, script: str) -> dict[str, str]:
    import os

    bin_dir = tmp_path / "fakebin"
    bin_dir.mkdir(exist_ok=True)
    opener = bin_dir / "xdg-open"
    opener.write_text("#!/bin/sh\n" + script)
    opener.chmod(opener.stat().st_mode | stat.S_IXUSR)
    return {"PATH": f"{bin_dir}:{os.environ['PATH']}"}


def _signed_in(url: str) -> tuple[int, str]:
    """Open a sign-in link the way a browser does (cookies kept, redirect followed)."""
    jar = http.cookiejar.CookieJar()
    op = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    try:
        with op.open(url, timeout=20) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_open_says_what_happened_and_prints_a_link_that_works(daemon_env: Any, tmp_path: Path) -> None:
    h = daemon_env
    h.start_foreground("--no-tray")
    # the browser refused to start: said so, with a link to open by hand
    h.env.update(_fake_opener(tmp_path, "echo 'no method available for opening' >&2\nexit 3\n"))
    p = h.cli("open")
    assert p.returncode == 1
    assert p.stderr.strip() == "could not open a browser: xdg-open failed (exit code 3: no method available for opening)."
    lines = p.stdout.strip().splitlines()
    assert lines[0] == "Open this link by hand within a minute (it works once):"
    status, body = _signed_in(lines[1].strip())
    assert status == 200 and "How you work" in body
    # the opener accepted it: said so, and a spare link still works (the browser's was spent)
    h.env.update(_fake_opener(tmp_path, "exit 0\n"))
    p = h.cli("open")
    assert p.returncode == 0, p.stderr
    out = p.stdout.strip().splitlines()
    assert out[0] == "asked your desktop to open the dashboard (xdg-open accepted it)."
    assert out[1] == "No window? Open this link by hand within a minute (it works once):"
    assert _signed_in(out[2].strip())[0] == 200
    assert h.stop_proc() == 0


def test_an_exclusion_from_the_privacy_page_applies_at_once(daemon_env: Any) -> None:
    """Added while the daemon records: files under it written right after are not stored
    (not even the name), while the rest keeps being recorded."""
    h: DaemonHarness = daemon_env
    h.start_foreground("--no-tray")
    base = h.info()["api_url"]
    _, code = h.api("POST", "/api/signin-code")
    jar = http.cookiejar.CookieJar()
    op = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    op.open(base + code["url"].removeprefix(base), timeout=20).read()
    page = op.open(base + "/ui/privacy", timeout=20).read().decode()
    assert "applies at once" in page
    csrf = re.search(r'name="?csrf"? value="([^"]+)"', page).group(1)
    form = urllib.parse.urlencode({"csrf": csrf, "pattern": "private/*"}).encode()
    done = op.open(urllib.request.Request(base + "/ui/privacy/exclude", data=form), timeout=60).read().decode()
    assert "Excluded private/*" in done and "Recording continues without it" in done
    (h.root / "private").mkdir()
    (h.root / "private" / "salary-2026.txt").write_text("private numbers\n")
    (h.root / "notes.txt").write_text("a note written after the exclusion\n")
    wait_for(lambda: any("notes.txt" in json.dumps(a) for a in h.get("/api/actions?limit=50")["actions"]),
             timeout=30, what="notes.txt recorded")
    h.api("POST", "/api/consolidate")
    assert h.stop_proc() == 0
    db = h.home / "filegram.db"
    with sqlite3.connect(db) as conn:
        rows = [r[0] for r in conn.execute("SELECT path FROM actions")] + [r[0] for r in conn.execute("SELECT path FROM paths")]
    assert "notes.txt" in rows and not [r for r in rows if r and "salary" in r]
    assert b"salary-2026" not in db.read_bytes()
