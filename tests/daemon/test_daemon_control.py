"""One recorder per daemon, always (issue 14, section 3): pause, resume, consolidate and stop
from several clients at once leave exactly one inotify recorder and exactly one action per
user operation; the search helper belongs to the daemon, not to the request that resumed;
`filegram record` refuses a root the daemon records and never closes its session."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import threading
import uuid
from pathlib import Path
from typing import Any

import psutil
import pytest
from daemon_harness import FAST_CONFIG, DaemonHarness, wait_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux: inotify, /proc")

OPS = ("pause", "resume", "consolidate", "stop")


def inotify_instances(pid: int) -> int:
    n = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") == "anon_inode:inotify":
                n += 1
        except OSError:
            pass
    return n


def live_leases(home: Path) -> list[dict[str, Any]]:
    from filegram.recorder.instances import live_leases as leases

    return list(leases(home / "run").values())


def search_helpers(pid: int) -> list[psutil.Process]:
    out = []
    for p in psutil.Process(pid).children(recursive=True):
        try:
            if "filegram.recorder.procs" in " ".join(p.cmdline()):
                out.append(p)
        except psutil.Error:
            pass
    return out


def post(port: int, token: str, path: str) -> int | None:
    """One request on its own connection; None when the daemon is gone (stopping)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("POST", path, headers={"Authorization": f"Bearer {token}"})
        resp = conn.getresponse()
        resp.read()
        return resp.status
    except OSError:
        return None
    finally:
        conn.close()


def actions_for(h: DaemonHarness, prefix: str) -> dict[str, list[str]]:
    """event_type -> paths of the actions whose path starts with prefix."""
    out: dict[str, list[str]] = {}
    for a in h.get("/api/actions?limit=1000")["actions"]:
        path = a.get("file_path") or a.get("new_path") or a.get("old_path") or a.get("dir_path") or ""
        if path.startswith(prefix):
            out.setdefault(a["event_type"], []).append(path)
    return out


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Any:
    base = tmp_path_factory.mktemp("control")
    home, root = base / "home", base / "work"
    home.mkdir()
    root.mkdir()
    (home / "config.toml").write_text(FAST_CONFIG.format(root=json.dumps(str(root))))
    h = DaemonHarness(home, root)
    h.start_foreground()
    yield h
    try:
        if h.proc is not None and h.proc.poll() is None:
            h.stop_proc()
    finally:
        h.cleanup()


def _running(h: DaemonHarness) -> None:
    if h.proc is None or h.proc.poll() is not None:
        h.start_foreground()


clients = st.lists(st.lists(st.sampled_from(OPS), min_size=1, max_size=5), min_size=2, max_size=4)


@pytest.mark.allow_leaks("a stop in the plan restarts the module's daemon, which outlives the test")
@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(plan=clients)
def test_control_storms_leave_exactly_one_recorder(daemon: DaemonHarness, plan: list[list[str]]) -> None:
    h = daemon
    _running(h)
    port, token = int(h.info()["api_port"]), h.token()  # type: ignore[index]
    stopping = any("stop" in ops for ops in plan)
    threads = [threading.Thread(target=lambda ops=ops: [post(port, token, f"/api/{op}") for op in ops])
               for ops in plan]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    if stopping:
        assert h.proc is not None and h.proc.wait(timeout=60) == 0
        h.start_foreground()
    status, health = h.api("POST", "/api/resume")
    assert status == 200 and health["state"] in ("recording", "starting"), health
    assert h.proc is not None
    pid = h.proc.pid
    assert inotify_instances(pid) == 1
    assert len(live_leases(h.home)) == 1
    wait_for(lambda: len(search_helpers(pid)) == 1, 10, what="one search helper")
    assert all(p.status() != psutil.STATUS_ZOMBIE for p in search_helpers(pid))

    tag = f"op-{uuid.uuid4().hex[:8]}"
    folder = h.root / tag
    folder.mkdir()
    for i in range(3):
        (folder / f"n{i}.txt").write_text(f"note {i}\n")
    wait_for(lambda: len(actions_for(h, tag).get("file_write", [])) == 3, 30, what="three writes")
    (folder / "n0.txt").rename(folder / "renamed.txt")
    (folder / "n1.txt").unlink()
    h.api("POST", "/api/consolidate")
    def moved_and_deleted() -> bool:
        a = actions_for(h, tag)
        return len(a.get("file_rename", [])) == 1 and len(a.get("file_delete", [])) == 1

    wait_for(moved_and_deleted, 30, what="the rename and the delete")
    h.api("POST", "/api/consolidate")
    got = actions_for(h, tag)
    assert sorted(got["file_write"]) == [f"{tag}/n{i}.txt" for i in range(3)]
    assert got["file_rename"] == [f"{tag}/renamed.txt"]
    assert got["file_delete"] == [f"{tag}/n1.txt"]
    assert len(got.get("dir_create", [])) == 1
    assert set(got) <= {"file_write", "file_rename", "file_delete", "dir_create"}, got  # no phantom browses


@pytest.mark.allow_leaks("the module's daemon may have been restarted by the storm test")
def test_the_search_helper_outlives_the_request_that_resumed(daemon: DaemonHarness) -> None:
    h = daemon
    _running(h)
    assert h.proc is not None
    pid = h.proc.pid
    for _ in range(3):
        assert h.api("POST", "/api/pause")[0] == 200
        assert h.api("POST", "/api/resume")[0] == 200
    wait_for(lambda: len(search_helpers(pid)) == 1, 10, what="one search helper")
    helper = search_helpers(pid)[0]
    # the request threads that resumed are gone by now; the helper must not have gone with them
    h.get("/api/health")
    assert helper.is_running() and helper.status() != psutil.STATUS_ZOMBIE
    word = f"needle{uuid.uuid4().hex[:6]}"
    (h.root / "haystack.txt").write_text(f"one {word} here\n")
    h.api("POST", "/api/consolidate")

    def found() -> bool:
        subprocess.run(["grep", "-r", word, str(h.root)], capture_output=True)
        searches = h.get("/api/actions?limit=200&types=file_search")["actions"]
        return any(s.get("query") == word for s in searches)

    wait_for(found, 30, interval=1.0, what=f"a grep for {word} stored with its query")


def test_record_refuses_a_root_the_daemon_records(daemon_env: DaemonHarness) -> None:
    h = daemon_env
    h.start_foreground()
    (h.root / "a.txt").write_text("before\n")
    session = wait_for(lambda: [s for s in h.get("/api/sessions?closed=false")["sessions"] if s["source"] == "recorder"],
                       20, what="the daemon's open session")[0]
    for root in (h.root, h.root / "sub"):
        root.mkdir(exist_ok=True)
        proc = h.cli("record", "--root", str(root), "--for", "2")
        assert proc.returncode == 2, proc.stderr
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("filegram: error: ")
        assert "already being recorded by the FileGram daemon" in lines[0]
    sessions = h.get("/api/sessions?limit=100")["sessions"]
    assert [s["id"] for s in sessions if s["source"] == "recorder"] == [session["id"]]
    assert not next(s for s in sessions if s["id"] == session["id"])["closed"]
    assert h.stop_proc() == 0


def test_a_recording_foreground_recorder_keeps_its_session_and_its_root(daemon_env: DaemonHarness) -> None:
    """The other way round: `filegram record` runs; the daemon's start refuses its root in
    one line and closes nothing of the live recording."""
    h = daemon_env
    rec = subprocess.Popen([sys.executable, "-m", "filegram", "record", "--root", str(h.root)],
                           env=h.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert rec.stderr is not None
        line = rec.stderr.readline()
        assert line.startswith("recording "), line
        proc = h.cli("start", "--foreground")
        assert proc.returncode == 2
        assert "already being recorded by `filegram record`" in proc.stderr.strip().splitlines()[-1]
        from filegram.store import Store

        with Store(h.home / "filegram.db", readonly=True) as store:
            open_sessions = store.sessions(closed=False, source="recorder")
        assert len(open_sessions) == 1  # the foreground recorder's, still open
    finally:
        rec.terminate()
        rec.wait(timeout=60)
    with Store(h.home / "filegram.db", readonly=True) as store:
        s = store.session(open_sessions[0]["id"])
    assert s is not None and s["closed"] and s["metadata"].get("closed_reason") == "stopped"
