"""From screen to actions: window titles naming watched files become marked reads."""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import pytest
from filegram.recorder.screen import ScreenRecorder
from filegram.recorder.screen.actions import TitleMatcher
from filegram.recorder.screen.window import Window

from filegram.privacy import PathFilter
from filegram.store import Store, now_ms

SETTLE_MS = 400.0  # production waits 2 s for the file recorder's own read to land
SETTLE_S = SETTLE_MS / 1000.0 + 0.1


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "work"
    (ws / "docs" / "drafts").mkdir(parents=True)
    (ws / "notes.md").write_text("notes\n")
    (ws / "docs" / "report.md").write_text("report\n")
    (ws / "docs" / "drafts" / "report.md").write_text("older report\n")
    (ws / ".env").write_text("TOKEN=x\n")
    return ws


def screen_reads(store: Store) -> list[dict]:
    return [ev for ev in store.actions(types=["file_read", "file_browse"]) if ev.get("source") == "screen"]


def test_title_naming_a_watched_file_yields_a_marked_read(tmp_path, workspace, display, window, screen_config):
    win = window("notes.md - ~/work - Vim", "notes")
    store = Store(tmp_path / "db.sqlite")
    rec = ScreenRecorder(store, screen_config, roots=[workspace], scan_roots=True)
    rec.action_settle_ms = SETTLE_MS
    first = rec.tick()
    assert first["result"] == "captured" and first["actions"] == 0  # waits for the kernel's read
    time.sleep(SETTLE_S)
    display.poke()
    assert rec.tick()["actions"] == 1
    (read,) = screen_reads(store)
    assert read["event_type"] == "file_read"
    assert read["file_path"] == "notes.md" and read["file_type"] == "md" and read["directory_depth"] == 0
    assert read["source"] == "screen" and read["content_length"] == len("notes\n")
    # no session was open: the screen opened its own, and the frame of that look is in it
    session = store.session(read["session_id"])
    assert session["source"] == "screen"
    assert [f["id"] for f in rec_frames(store, read["session_id"])] == [first["frame_id"]]
    # staying on the same window is the same look: nothing more
    time.sleep(SETTLE_S)
    display.poke()
    rec.tick()
    assert len(screen_reads(store)) == 1
    # gedit's format with the folder in brackets picks the right one of two report.md
    win.title("report.md (~/work/docs/drafts) - gedit")
    display.poke()
    rec.tick()
    time.sleep(SETTLE_S)
    rec.tick()
    assert [r["file_path"] for r in screen_reads(store)] == ["notes.md", "docs/drafts/report.md"]
    # switching back within a minute continues the same reading
    win.title("notes.md - ~/work - Vim")
    rec.tick()
    time.sleep(SETTLE_S)
    rec.tick()
    assert len(screen_reads(store)) == 2
    rec.close()
    assert store.session(read["session_id"])["closed"] is True


def rec_frames(store: Store, sid: str) -> list[dict]:
    from filegram.recorder.screen import frames_for_session

    return frames_for_session(store, sid)


def test_a_read_the_file_recorder_saw_is_not_repeated(tmp_path, workspace, display, window, screen_config):
    store = Store(tmp_path / "db.sqlite")
    sid = store.open_session(source="recorder")
    # the file recorder (inotify) stored a read of notes.md a moment ago
    store.add_actions([{
        "event_id": str(uuid.uuid4()), "event_type": "file_read", "timestamp": now_ms(),
        "session_id": sid, "file_path": "notes.md",
    }])
    window("notes.md + (~/work) - VIM", "notes")
    rec = ScreenRecorder(store, screen_config, roots=[workspace], session_provider=lambda: sid, scan_roots=True)
    rec.action_settle_ms = SETTLE_MS
    rec.tick()
    time.sleep(SETTLE_S)
    display.poke()
    rec.tick()
    assert screen_reads(store) == []
    assert rec.stats()["counters"]["covered"] == 1
    rec.close()


def test_reads_go_into_the_recorders_open_session(tmp_path, workspace, display, window, screen_config):
    store = Store(tmp_path / "db.sqlite")
    sid = store.open_session(source="recorder")
    window("report.md - docs - Visual Studio Code", "report")
    rec = ScreenRecorder(store, screen_config, roots=[workspace], session_provider=lambda: sid, scan_roots=True)
    rec.tick()
    rec.flush()  # stop: pending observations are stored at once
    (read,) = screen_reads(store)
    assert read["session_id"] == sid
    assert read["file_path"] == "docs/report.md"  # the "docs" in the title picks this one
    assert store.sessions(source="screen") == []
    rec.close()


def test_file_manager_window_yields_a_marked_browse(tmp_path, workspace, display, window, screen_config):
    window("drafts - Thunar", "folder view", klass="thunar")
    store = Store(tmp_path / "db.sqlite")
    rec = ScreenRecorder(store, screen_config, roots=[workspace], scan_roots=True)
    rec.tick()
    rec.flush()
    (browse,) = screen_reads(store)
    assert browse["event_type"] == "file_browse"
    assert browse["directory_path"] == "docs/drafts" and browse["files_listed"] == 1
    assert browse["depth"] == 2
    rec.close()


def test_excluded_window_naming_a_file_records_nothing(tmp_path, workspace, display, window, screen_config):
    window("notes.md - secret - Vim", "notes")
    store = Store(tmp_path / "db.sqlite")
    rec = ScreenRecorder(store, screen_config, roots=[workspace], scan_roots=True)
    assert rec.tick()["result"] == "skipped-excluded"
    rec.flush()
    assert list(store.actions()) == [] and store.sessions() == []


def matcher(ws: Path) -> TitleMatcher:
    return TitleMatcher([ws], PathFilter(), walk=True)


@pytest.mark.parametrize(
    ("title", "app", "expected"),
    [
        ("notes.md - ~/work - Vim", "vim", ("file_read", "notes.md")),
        ("notes.md (~/work) - VIM", "gvim", ("file_read", "notes.md")),
        ("● notes.md - work - Visual Studio Code", "code", ("file_read", "notes.md")),
        ("*report.md - GNU Emacs at host", "emacs", None),  # two report.md: newest wins
        ("notes.md — Firefox", "firefox", None),  # a browser tab is not the local file
        (".env - Vim", "vim", None),  # denied: never named
        ("Terminal", "xterm", None),
        ("docs — Dolphin", "dolphin", ("file_browse", "docs")),
        ("docs - Terminal", "xterm", None),  # a folder name alone is not a browse
    ],
)
def test_title_formats(workspace, title, app, expected):
    seen = matcher(workspace).match(Window(title=title, app=app))
    if title.startswith("*report.md"):
        assert seen is not None and seen.rel.endswith("report.md") and seen.candidates == 2
        return
    assert (None if seen is None else (seen.event_type, seen.rel)) == expected


def test_absolute_path_in_title(workspace):
    t = f"{workspace}/docs/drafts/report.md - Document Viewer"
    seen = matcher(workspace).match(Window(title=t, app="evince"))
    assert seen is not None and seen.rel == "docs/drafts/report.md"


def test_with_the_real_file_recorder(tmp_path, workspace, display, window, screen_config):
    """inotify saw `cat notes.md`: the screen adds nothing for it; report.md, only looked
    at on screen, becomes a marked read in the recorder's own session. On Linux the roots
    are not walked (the names come from the store's path index and the title)."""
    import subprocess

    from filegram.recorder import Recorder

    store = Store(tmp_path / "db.sqlite")
    recorder = Recorder(store, [workspace], screen_config)
    recorder.start()
    try:
        rec = ScreenRecorder(store, screen_config, roots=[workspace], session_provider=lambda: recorder.session_id)
        rec.action_settle_ms = SETTLE_MS
        subprocess.run(["cat", str(workspace / "notes.md")], check=True, stdout=subprocess.DEVNULL)
        assert recorder.flush(10.0)
        kernel = [e for e in store.actions(types=["file_read"]) if e.get("source") != "screen"]
        assert [e["file_path"] for e in kernel] == ["notes.md"]
        win = window("notes.md (~/work) - VIM", "notes")
        rec.tick()
        time.sleep(SETTLE_S)
        display.poke()
        rec.tick()
        assert screen_reads(store) == []
        win.title(f"report.md ({workspace}/docs) - VIM")  # a folder in the title: probed with stat
        display.poke()
        rec.tick()
        rec.flush()
        (read,) = screen_reads(store)
        assert read["file_path"] == "docs/report.md" and read["session_id"] == recorder.session_id
        assert recorder.flush(10.0)
        # matching never opened a folder, so the file recorder saw no browse of ours
        assert [e["event_type"] for e in store.actions() if e.get("source") != "screen"] == ["file_read"]
    finally:
        recorder.stop()
    assert store.sessions(source="screen") == []


def test_names_from_the_store_path_index_without_walking(workspace):
    m = TitleMatcher([workspace], PathFilter(), known_paths=lambda: ["docs/drafts/report.md", "gone.md"], walk=False)
    seen = m.match(Window(title="report.md - Vim", app="vim"))
    assert seen is not None and seen.rel == "docs/drafts/report.md"
    assert m.match(Window(title="notes.md - Vim", app="vim")) is None  # never stored, not walked
    assert m.match(Window(title="gone.md - Vim", app="vim")) is None  # stored once, deleted since
    browse = m.match(Window(title="drafts - Thunar", app="thunar"))
    assert browse is not None and browse.rel == "docs/drafts" and m.listed(browse.abs_path) == 1
