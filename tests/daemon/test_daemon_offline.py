"""What happens while the daemon is down is not lost and not faked (issue 14, section 6):
sessions cut by a crash say so, and files created, changed, renamed or deleted while
nothing recorded are stored on start as actions marked offline, in a session of their own."""

from __future__ import annotations

import json
import signal
import time

from daemon_harness import DaemonHarness, wait_for


def _paths(h: DaemonHarness, session: str) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for a in h.get(f"/api/actions?limit=1000&session={session}")["actions"]:
        out.setdefault(a["event_type"], []).append(a)
    return out


def test_changes_while_stopped_are_stored_offline(daemon_env: DaemonHarness) -> None:
    h = daemon_env
    for name in ("keep.txt", "edit.txt", "old-name.txt", "gone.txt"):
        (h.root / name).write_text(f"{name}\n")
    h.start_foreground()
    for name in ("late.txt",):
        (h.root / name).write_text("written while recording\n")
    wait_for(lambda: any(a["file_path"] == "late.txt" for a in h.get("/api/actions?types=file_write")["actions"]),
             what="the live write")
    assert h.stop_proc() == 0
    stopped = time.time() * 1000.0

    (h.root / "new.txt").write_text("created while stopped\n")
    (h.root / "edit.txt").write_text("edit.txt\nchanged while stopped\n")
    (h.root / "old-name.txt").rename(h.root / "new-name.txt")
    (h.root / "gone.txt").unlink()

    h.start_foreground()
    sessions = h.get("/api/sessions?limit=100")["sessions"]
    offline = [s for s in sessions if s["label"] == "offline"]
    assert len(offline) == 1
    s = offline[0]
    assert s["closed"] and s["metadata"]["offline"] is True and s["metadata"]["closed_reason"] == "offline"
    acts = _paths(h, s["id"])
    assert set(acts) == {"file_write", "file_rename", "file_delete"}, acts
    writes = {a["file_path"]: a for a in acts["file_write"]}
    assert writes["new.txt"]["operation"] == "create" and writes["edit.txt"]["operation"] == "overwrite"
    assert set(writes) == {"new.txt", "edit.txt"}
    assert [(a["old_path"], a["new_path"]) for a in acts["file_rename"]] == [("old-name.txt", "new-name.txt")]
    assert [a["file_path"] for a in acts["file_delete"]] == ["gone.txt"]
    for group in acts.values():
        for a in group:
            assert a["offline"] is True and a["seen_ms"] >= stopped
    # none of it passes for a live action of the new recording
    live = [x for x in sessions if x["label"] != "offline" and not x["closed"]]
    assert len(live) == 1 and h.get(f"/api/actions?session={live[0]['id']}")["count"] == 0
    assert h.stop_proc() == 0


def test_kill9_marks_the_cut_session_and_reconciles(daemon_env: DaemonHarness) -> None:
    h = daemon_env
    h.start_foreground()
    (h.root / "before-crash.txt").write_text("stored before the crash\n")
    wait_for(lambda: h.get("/api/actions?types=file_write")["count"] == 1, what="the write before the crash")
    cut = [s for s in h.get("/api/sessions?closed=false")["sessions"] if s["source"] == "recorder"][0]
    assert h.stop_proc(signal.SIGKILL) == -signal.SIGKILL
    (h.root / "during-crash.txt").write_text("created while the daemon was dead\n")
    h.start_foreground()
    sessions = {s["id"]: s for s in h.get("/api/sessions?limit=100")["sessions"]}
    assert sessions[cut["id"]]["closed"] and sessions[cut["id"]]["metadata"]["closed_reason"] == "crash"
    offline = [s for s in sessions.values() if s["label"] == "offline"]
    assert len(offline) == 1
    acts = _paths(h, offline[0]["id"])
    assert [a["file_path"] for a in acts["file_write"]] == ["during-crash.txt"]
    assert acts["file_write"][0]["offline"] is True
    # the commands show the marker
    out = h.cli("sessions").stdout
    assert "crash" in out and "offline" in out
    shown = h.cli("trace", "show", "--session", cut["id"]).stdout
    assert "closed: crash" in shown
    js = json.loads(h.cli("sessions", "--json").stdout)
    assert any(x["metadata"].get("closed_reason") == "crash" for x in js)
    assert h.stop_proc() == 0


def test_nothing_is_reconciled_after_a_pause(daemon_env: DaemonHarness) -> None:
    """Pause means nothing is recorded: what changed while paused is not stored on resume."""
    h = daemon_env
    h.start_foreground()
    (h.root / "a.txt").write_text("a\n")
    wait_for(lambda: h.get("/api/actions?types=file_write")["count"] == 1, what="the first write")
    assert h.api("POST", "/api/pause")[0] == 200
    (h.root / "private.txt").write_text("written while paused\n")
    assert h.api("POST", "/api/resume")[0] == 200
    h.api("POST", "/api/consolidate")
    names = {a.get("file_path") for a in h.get("/api/actions?limit=100")["actions"]}
    assert "private.txt" not in names
    assert not [s for s in h.get("/api/sessions")["sessions"] if s["label"] == "offline"]
    assert h.stop_proc() == 0
