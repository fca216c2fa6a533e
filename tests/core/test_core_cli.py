from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time

from fg_helpers import run_cli

from filegram.config import DEFAULT_CONFIG_TEXT, DEFAULTS, parse_config


def test_help_is_fast_and_does_not_import_litellm():
    code = "import sys, time; t=time.perf_counter(); from filegram.cli import build_parser; build_parser().format_help(); print(sorted(m for m in sys.modules if m.split('.')[0] in ('litellm','pystray','numpy','matplotlib','sqlite_utils','watchdog','rapidocr')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out.replace("'", '"')) == []


def test_first_run_writes_commented_defaults(fg_home):
    p = run_cli("config", "path", home=fg_home, check=True)
    assert p.stdout.strip() == str(fg_home / "config.toml")
    shown = run_cli("config", "show", home=fg_home, check=True).stdout
    assert shown == DEFAULT_CONFIG_TEXT
    assert parse_config(shown).data == DEFAULTS
    assert oct((fg_home / "config.toml").stat().st_mode & 0o777) == "0o600"
    assert oct(fg_home.stat().st_mode & 0o777) == "0o700"


def test_bad_config_is_one_clear_line(fg_home):
    fg_home.mkdir(parents=True)
    (fg_home / "config.toml").write_text("[recorder]\nidle_gap_minutes = 'soon'\n")
    p = run_cli("status", home=fg_home)
    assert p.returncode == 2
    assert p.stderr.strip().splitlines() == [f"filegram: error: {fg_home / 'config.toml'}: recorder.idle_gap_minutes must be a number"]


def test_import_status_trace_export(fg_home, fixtures_dir, tmp_path):
    p = run_cli("import", str(fixtures_dir), home=fg_home, check=True)
    assert "26 new actions" in p.stdout and "5 simulation-metadata events dropped" in p.stdout
    status = json.loads(run_cli("status", "--json", home=fg_home, check=True).stdout)
    assert status["actions"] == 26
    assert status["actions_by_type"]["file_read"] == 6
    assert status["last_action_ms"] == 1770600006000.0
    table = run_cli("sessions", home=fg_home, check=True).stdout
    assert "p1_T-01" in table and "p3_T-12" in table
    shown = json.loads(run_cli("trace", "show", "--session", "p3_T-12", "--json", home=fg_home, check=True).stdout)
    assert [e["event_type"] for e in shown] == ["file_browse", "file_browse", "file_read", "file_write", "file_rename", "file_move", "file_write"]
    human = run_cli("trace", "show", "--session", "p3_T-12", home=fg_home, check=True).stdout
    assert "ops-memo.txt" in human
    out = tmp_path / "exp"
    run_cli("export", "--format", "filegram", str(out), "--session", "p3_T-12", home=fg_home, check=True)
    assert json.loads((out / "p3_T-12" / "events.json").read_text()) == shown


def test_event_a_watcher_delivered_twice_is_kept_once(fg_home, fixtures_dir, tmp_path):
    folder = tmp_path / "p3_T-12"
    shutil.copytree(fixtures_dir / "p3_T-12", folder)
    events = json.loads((folder / "events.json").read_text())
    events.insert(3, {**events[2], "timestamp": events[2]["timestamp"] + 4})  # the same read, 4 ms later
    (folder / "events.json").write_text(json.dumps(events))
    p = run_cli("import", str(folder), home=fg_home, check=True)
    assert "1 events delivered twice kept once" in p.stdout
    shown = json.loads(run_cli("trace", "show", "--session", "p3_T-12", "--json", home=fg_home, check=True).stdout)
    assert [e["event_type"] for e in shown] == ["file_browse", "file_browse", "file_read", "file_write", "file_rename", "file_move", "file_write"]


def test_missing_media_files_are_counted_and_the_trajectory_imported(fg_home, fixtures_dir, tmp_path):
    """An export that lost a media file: one summary line says what was dropped, exit 0."""
    folder = tmp_path / "p1_T-01"
    shutil.copytree(fixtures_dir / "p1_T-01", folder)
    next((folder / "media" / "diffs").iterdir()).unlink()
    p = run_cli("import", str(folder), home=fg_home, check=True)
    assert "1 references to missing media files dropped" in p.stdout, p.stdout
    status = json.loads(run_cli("status", "--json", home=fg_home, check=True).stdout)
    assert status["actions"] == len([e for e in json.loads((folder / "events.json").read_text())
                                     if not e["event_type"].startswith(("tool_", "llm_", "session_", "iteration_", "error_", "compaction", "fs_"))])


def test_an_event_logged_twice_with_a_field_lost_from_one_copy_is_kept_once(fg_home, fixtures_dir, tmp_path):
    """A log line written twice, one copy missing a field (seen in a held-out model's file
    server audit log): one event, not a malformed file. A copy that says something else under
    the same id is still refused (tests/core/test_trajectory.py)."""
    folder = tmp_path / "p3_T-12"
    shutil.copytree(fixtures_dir / "p3_T-12", folder)
    events = json.loads((folder / "events.json").read_text())
    assert events[2]["event_type"] == "file_read" and events[2]["file_type"]
    events.insert(3, {**events[2], "file_type": None, "timestamp": events[2]["timestamp"] + 4})
    (folder / "events.json").write_text(json.dumps(events))
    p = run_cli("import", str(folder), home=fg_home, check=True)
    assert "1 events delivered twice kept once" in p.stdout
    shown = json.loads(run_cli("trace", "show", "--session", "p3_T-12", "--json", home=fg_home, check=True).stdout)
    reads = [e for e in shown if e["event_type"] == "file_read"]
    assert len(reads) == 1 and reads[0]["file_type"] == events[2]["file_type"]


def test_bad_import_exits_nonzero_and_names_file_and_event(fg_home, fixtures_dir, tmp_path):
    run_cli("import", str(fixtures_dir / "p3_T-12"), home=fg_home, check=True)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"event_id": "e1", "event_type": "file_read", "timestamp": 1, "session_id": "s", "file_path": 7}\n')
    p = run_cli("import", str(bad), home=fg_home)
    assert p.returncode == 2
    assert f"filegram: error: {bad}: event 0: file_read: field 'file_path' must be a string, got int" in p.stderr
    status = json.loads(run_cli("status", "--json", home=fg_home, check=True).stdout)
    assert status["actions"] == 7


def test_unknown_session_is_a_clear_error(fg_home):
    p = run_cli("trace", "show", "--session", "nope", home=fg_home)
    assert p.returncode == 2 and p.stderr.startswith("filegram: error: no sessions stored yet")


def test_help_lists_core_commands():
    t = time.perf_counter()
    p = run_cli("--help", check=True)
    for cmd in ("status", "sessions", "trace", "config", "import", "export"):
        assert cmd in p.stdout
    assert time.perf_counter() - t < 60  # sanity only; the speed figure is in the perf bench


def test_config_get_and_set_keep_comments_and_validate(fg_home):
    assert run_cli("config", "get", "recorder.roots", home=fg_home, check=True).stdout.strip() == "[]"
    run_cli("config", "set", "recorder.roots", '["~/a", "~/b"]', home=fg_home, check=True)
    run_cli("config", "set", "llm.timeout_seconds", "20", home=fg_home, check=True)
    run_cli("config", "set", "llm.model", "ollama/llama3", home=fg_home, check=True)
    assert run_cli("config", "get", "recorder.roots", home=fg_home, check=True).stdout.strip() == '["~/a", "~/b"]'
    assert run_cli("config", "get", "llm.timeout_seconds", home=fg_home, check=True).stdout.strip() == "20"
    assert run_cli("config", "get", "llm.model", home=fg_home, check=True).stdout.strip() == "ollama/llama3"
    text = (fg_home / "config.toml").read_text()
    assert "# Folders to watch" in text and 'roots = ["~/a", "~/b"]' in text
    for args, words in (
        (("recorder.roots", "20"), "recorder.roots must be a list of strings"),
        (("llm.timeout_seconds", "-1"), "llm.timeout_seconds must be greater than 0, got -1"),
        (("daemon.api_port", "99999"), "daemon.api_port must be between 0 and 65535, got 99999"),
        (("recorder.nope", "1"), "unknown setting recorder.nope"),
    ):
        p = run_cli("config", "set", *args, home=fg_home)
        assert p.returncode == 2 and words in p.stderr and p.stderr.count("\n") == 1
    assert (fg_home / "config.toml").read_text() == text
