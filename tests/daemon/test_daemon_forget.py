"""`filegram forget` while the daemon records: the CLI goes through the daemon's API, which
pauses the recorder (it flushes and closes its session), forgets, and records again in a
new session. Before, the CLI deleted the recorder's open session under it and left its
caches stale: later actions failed to store, and the next diff of a forgotten file used
the forgotten snapshot as its "before"."""

from __future__ import annotations

import json
import sqlite3

from daemon_harness import wait_for


def _actions(h) -> list[dict]:
    status, body = h.api("GET", "/api/actions?limit=200")
    assert status == 200, body
    return body["actions"]


def _mentions(h, text: str) -> bool:
    return any(text in json.dumps(a) for a in _actions(h))


def test_forget_all_while_recording_goes_through_the_daemon(daemon_env):
    h = daemon_env
    h.start_foreground()
    note = h.root / "quokka-plan.md"
    note.write_text("quokkasecretplan 1\n")
    wait_for(lambda: _mentions(h, "quokka-plan.md"), 30, what="the first file stored")
    session_before = h.api("GET", "/api/sessions?limit=5")[1]["sessions"][0]["id"]

    proc = h.cli("forget", "--all", "--yes", timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("forgot ")
    assert not _mentions(h, "quokka-plan.md")

    # recording goes on, in a new session, with a fresh file state
    (h.root / "after.md").write_text("written after forgetting\n")
    wait_for(lambda: _mentions(h, "after.md"), 30, what="an action stored after forget")
    with note.open("a") as fh:
        fh.write("line 2\n")
    def change() -> dict | None:
        return next((a for a in _actions(h) if a.get("file_path") == "quokka-plan.md"
                     and a["event_type"] in ("file_write", "file_edit")), None)

    changed = wait_for(change, 30, what="the forgotten file's next change stored")
    sessions = h.api("GET", "/api/sessions?limit=5")[1]["sessions"]
    assert session_before not in {s["id"] for s in sessions}
    health = h.api("GET", "/api/health")[1]
    assert health["state"] == "recording", health
    assert not health.get("recorder", {}).get("errors"), health
    assert changed["session_id"] != session_before

    assert h.stop_proc() == 0
    conn = sqlite3.connect(h.home / "filegram.db")
    files = [p for (p,) in conn.execute("SELECT path FROM recorder_files")]
    orphans = conn.execute("SELECT COUNT(*) FROM recorder_snapshots WHERE fid NOT IN (SELECT fid FROM recorder_files)").fetchone()[0]
    conn.close()
    assert any(p.endswith("after.md") for p in files) and orphans == 0


def test_forget_path_through_the_api(daemon_env):
    h = daemon_env
    h.start_foreground()
    (h.root / "keep.md").write_text("kept\n")
    (h.root / "private").mkdir()
    (h.root / "private" / "diary.md").write_text("dear diary\n")
    wait_for(lambda: _mentions(h, "private/diary.md") and _mentions(h, "keep.md"), 30, what="both files stored")
    status, body = h.api("POST", "/api/forget", {"path_glob": "private", "everything": False}, timeout=300)
    assert status == 200, body
    assert body["actions"] >= 1
    assert not _mentions(h, "private/diary.md") and _mentions(h, "keep.md")
    status, body = h.api("POST", "/api/forget", {"everything": False})
    assert (status, body) == (400, {"error": "say what to forget: --path GLOB, --since/--until, or --all"})
    status, body = h.api("POST", "/api/forget", {"since_ms": 5, "until_ms": 1, "everything": False})
    assert (status, body) == (400, {"error": "--since must be before --until"})
    assert h.stop_proc() == 0
