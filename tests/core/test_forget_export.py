"""Forgetting removes actions, snapshots and derived memory down to the bytes on disk;
`export --all` writes everything in open formats."""

from __future__ import annotations

import json
import sqlite3
import subprocess

from fg_helpers import run_cli


def _raw_bytes(home) -> bytes:
    data = (home / "filegram.db").read_bytes()
    wal = home / "filegram.db-wal"
    return data + (wal.read_bytes() if wal.exists() else b"")


def test_forget_path_removes_everything_about_it(fg_home, fixtures_dir):
    run_cli("import", str(fixtures_dir), home=fg_home, check=True)
    assert b"overview.md" in _raw_bytes(fg_home)
    p = run_cli("forget", "--path", "outputs", home=fg_home, check=True)
    assert "forgot 6 actions, 3 snapshots" in p.stdout
    events = json.loads(run_cli("trace", "show", "--session", "p1_T-01", "--json", home=fg_home, check=True).stdout)
    assert events and not any("outputs" in json.dumps(e) for e in events)
    raw = _raw_bytes(fg_home)
    assert b"overview.md" not in raw
    assert b"outputs/reports" not in raw
    conn = sqlite3.connect(fg_home / "filegram.db")
    assert conn.execute("SELECT COUNT(*) FROM blobs WHERE original_path LIKE 'outputs/%'").fetchone()[0] == 0
    # what is left is still consistent and other sessions are untouched
    status = json.loads(run_cli("status", "--json", home=fg_home, check=True).stdout)
    assert status["actions"] == 20 and status["sessions"] == 3


def test_forget_time_range_and_memory_matches_a_fresh_rebuild(fg_home, fixtures_dir, tmp_path):
    run_cli("import", str(fixtures_dir), home=fg_home, check=True)
    # the p3 and p1 fixtures are on 2026-02-08, the JSONL recording on 2026-02-09
    run_cli("forget", "--since", "1770600000000", "--until", "1770700000000", home=fg_home, check=True)
    sessions = json.loads(run_cli("sessions", "--json", home=fg_home, check=True).stdout)
    assert sorted(s["label"] for s in sessions) == ["p1_T-01", "p3_T-12"]
    from filegram.config import Home

    home = Home.resolve(fg_home)
    store = home.open_store()
    try:
        from filegram.memory import Memory
    except ImportError:
        return
    mem = Memory(store, home.load_config())
    after_forget = mem.snapshot()
    mem.rebuild()
    assert mem.snapshot() == after_forget
    store.close()


def test_forget_all_needs_yes_and_then_empties(fg_home, fixtures_dir):
    run_cli("import", str(fixtures_dir), home=fg_home, check=True)
    p = run_cli("forget", "--all", home=fg_home, stdin=subprocess.DEVNULL)
    assert p.returncode == 2 and "--yes" in p.stderr
    run_cli("forget", "--all", "--yes", home=fg_home, check=True)
    status = json.loads(run_cli("status", "--json", home=fg_home, check=True).stdout)
    assert status["actions"] == 0 and status["sessions"] == 0
    assert b"analyst" not in _raw_bytes(fg_home)


def test_forget_needs_a_selector_and_valid_times(fg_home):
    p = run_cli("forget", home=fg_home)
    assert p.returncode == 2 and "say what to forget" in p.stderr
    p = run_cli("forget", "--since", "last tuesday", home=fg_home)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "cannot read time 'last tuesday'" in p.stderr


def test_export_all_writes_open_formats(fg_home, fixtures_dir, tmp_path):
    run_cli("import", str(fixtures_dir), home=fg_home, check=True)
    out = tmp_path / "everything"
    run_cli("export", "--all", str(out), home=fg_home, check=True)
    assert {p.name for p in (out / "trajectories").iterdir()} == {"p1_T-01", "p3_T-12", "recorded"}
    assert (out / "config.toml").read_text() == (fg_home / "config.toml").read_text()
    state = json.loads((out / "state.json").read_text())
    assert state["schema_version:core"] == 1
    for table in (out / "tables").glob("*.jsonl"):
        for line in table.read_text().splitlines():
            json.loads(line)
    # the export is importable into a new home and gives the same trace
    other = tmp_path / "other-home"
    run_cli("import", str(out / "trajectories"), home=other, check=True)
    a = json.loads(run_cli("trace", "show", "--session", "p1_T-01", "--json", home=fg_home, check=True).stdout)
    b = json.loads(run_cli("trace", "show", "--session", "p1_T-01", "--json", home=other, check=True).stdout)
    assert a == b


def test_forget_a_name_at_any_depth(fg_home, fixtures_dir):
    """`--path NAME` is relative to the root (a folder means everything under it); `**/NAME`
    reaches NAME at any depth, as an exclusion does (the dashboard's "exclude and forget"
    forgets what the exclusion keeps out from then on)."""
    run_cli("import", str(fixtures_dir), home=fg_home, check=True)
    p = run_cli("forget", "--path", "reports", home=fg_home, check=True)
    assert p.stdout.startswith("forgot 0 actions"), p.stdout
    assert b"outputs/reports/2026/overview.md" in _raw_bytes(fg_home)
    run_cli("forget", "--path", "**/reports", home=fg_home, check=True)
    raw = _raw_bytes(fg_home)
    assert b"overview.md" not in raw and b"outputs/reports" not in raw
    from filegram.forget import path_matches

    for path in ("reports", "reports/a.md", "outputs/reports", "outputs/reports/2026/a.md"):
        assert path_matches(path, "**/reports"), path
    assert path_matches("ops-memo.txt", "**/*.txt") and path_matches("docs/ops-memo.txt", "**/*.txt")
    assert path_matches("a/documents/x/b.md", "**/documents/*") and path_matches("documents/b.md", "**/documents/*")
    assert not path_matches("outputs/reportsX/a.md", "**/reports") and not path_matches("reportsX", "**/reports")
    assert b"notes/todo.md" in raw, "what the glob does not name stays"



def test_forget_path_reaches_an_imported_search_by_its_scope(fg_home, tmp_path):
    """A search names no file it opened or matched and its query does not name the folder:
    its scope (`search_scope`, made relative to the workspace root on import) is what ties
    it to the folder, so forgetting the folder forgets its query, also at any depth."""
    env = {"session_id": "s-scope", "profile_id": None, "message_id": None, "model_provider": None,
           "model_name": None, "search_type": "grep", "files_matched": 0, "files_opened_after": []}
    events = [
        {"event_id": "q1", "event_type": "file_search", "timestamp": 1770600000000.0, **env,
         "query": "lemurtop8811", "search_scope": ["/ws/hidden"]},
        {"event_id": "q2", "event_type": "file_search", "timestamp": 1770600001000.0, **env,
         "query": "lemurdeep8812", "search_scope": ["/ws/work/hidden/sub"]},
        {"event_id": "q3", "event_type": "file_search", "timestamp": 1770600002000.0, **env,
         "query": "lemurkept8813", "search_scope": ["/ws"]},
    ]
    folder = tmp_path / "scope_T-01"
    folder.mkdir()
    (folder / "events.json").write_text(json.dumps(events))
    (folder / "summary.json").write_text(json.dumps({"workspace_root": "/ws"}))
    run_cli("import", str(folder), home=fg_home, check=True)
    shown = json.loads(run_cli("trace", "show", "--json", home=fg_home, check=True).stdout)
    assert [e["search_scope"] for e in shown] == [["hidden"], ["work/hidden/sub"], ["."]]
    run_cli("forget", "--path", "hidden", home=fg_home, check=True)
    raw = _raw_bytes(fg_home)
    assert b"lemurtop8811" not in raw and b"lemurdeep8812" in raw
    run_cli("forget", "--path", "**/hidden", home=fg_home, check=True)
    raw = _raw_bytes(fg_home)
    assert b"lemurdeep8812" not in raw and b"lemurkept8813" in raw


def test_forgetting_a_time_range_with_a_search_of_the_whole_root_keeps_other_log_lines(fg_home, tmp_path):
    """A search's scope is where it looked, not a forgotten file: forgetting the time of
    `grep -r x .` (scope ["."]) removes the search, not every log line holding a "."."""
    env = {"session_id": "s-root", "profile_id": None, "message_id": None, "model_provider": None,
           "model_name": None, "search_type": "grep", "files_matched": 0, "files_opened_after": []}
    ts = 1770600000000.0
    events = [{"event_id": "r1", "event_type": "file_search", "timestamp": ts, **env,
               "query": "lemurroot8814", "search_scope": ["/ws"]}]
    folder = tmp_path / "root_T-01"
    folder.mkdir()
    (folder / "events.json").write_text(json.dumps(events))
    (folder / "summary.json").write_text(json.dumps({"workspace_root": "/ws"}))
    run_cli("import", str(folder), home=fg_home, check=True)
    (fg_home / "logs").mkdir(exist_ok=True)
    line = "2020-01-01 10:00:00,001 INFO filegram.daemon: started v1.2 in notes.d\n"
    (fg_home / "logs" / "daemon.log").write_text(line)
    run_cli("forget", "--since", f"{ts - 1000:.0f}", "--until", f"{ts + 1000:.0f}", home=fg_home, check=True)
    assert b"lemurroot8814" not in _raw_bytes(fg_home)
    assert (fg_home / "logs" / "daemon.log").read_text() == line


def test_forget_matches_a_recorded_path_whatever_its_unicode_form(fg_home, fixtures_dir):
    """A file copied from a Mac keeps its decomposed name on Linux (`U` + combining
    diaeresis); the person types `Übung*` composed. Forget must reach it."""
    import unicodedata

    from filegram.schema import Action
    from filegram.store import Store

    run_cli("import", str(fixtures_dir), home=fg_home, check=True)
    nfd = unicodedata.normalize("NFD", "Kurse/Übungsblatt 3.md")
    store = Store(fg_home / "filegram.db")
    store.open_session("rec1", source="recorder", started_ms=1_770_000_000_000.0)
    store.add_actions([Action.make("file_read", "rec1", 1_770_000_000_000.0, file_path=nfd, file_type="md",
                                   directory_depth=1, view_count=1, view_range=[1, 20], content_length=400).to_event()])
    store.close_session("rec1")
    store.close()
    assert b"bungsblatt" in _raw_bytes(fg_home)
    run_cli("forget", "--path", "Kurse/Übung*", home=fg_home, check=True)
    assert b"bungsblatt" not in _raw_bytes(fg_home)
