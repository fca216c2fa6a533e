"""The mistakes a newcomer makes in the first hour (issue 18), each with its exact one-line
message and exit code, run through the real `filegram` command; and the readable outputs
(status, trace show, profile) at 80 columns. (`open` and `start --root`: tests/daemon.)"""

from __future__ import annotations

import json
import os

from fg_helpers import run_cli

NOT_RUNNING = "filegram: error: the FileGram daemon is not running: start it with `filegram start --root DIR`"


def one_line_error(p) -> str:
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    return lines[0]


def test_a_misspelt_option_names_the_right_one(fg_home, tmp_path):
    p = run_cli("start", "--roots", str(tmp_path), home=fg_home)
    assert one_line_error(p) == "filegram: error: start: unknown option --roots (did you mean --root?)"
    assert p.stdout == ""  # no top-level usage
    p = run_cli("record", "--rot", str(tmp_path), home=fg_home)
    assert one_line_error(p) == "filegram: error: record: unknown option --rot (did you mean --root?)"
    p = run_cli("trace", "show", "--sesion", "x", home=fg_home)
    assert one_line_error(p) == "filegram: error: trace show: unknown option --sesion (did you mean --session?)"


def test_a_root_that_is_a_file_or_missing_is_one_accurate_line_in_every_command(fg_home, tmp_path):
    todo = tmp_path / "todo.txt"
    todo.write_text("buy milk\n")
    missing = tmp_path / "nope"
    for command in (["start", "--no-tray"], ["record", "--for", "1"], ["autostart", "enable"]):
        assert one_line_error(run_cli(*command, "--root", str(todo), home=fg_home)) == \
            f"filegram: error: root is a file, not a folder: {todo}"
        assert one_line_error(run_cli(*command, "--root", str(missing), home=fg_home)) == \
            f"filegram: error: root folder does not exist: {missing}"
    assert not (fg_home / "filegram.db").exists() or run_cli("status", "--json", home=fg_home, check=True)


def test_a_command_that_needs_the_daemon_says_it_is_not_running_and_how_to_start_it(fg_home):
    for command in ("pause", "resume", "open"):
        assert one_line_error(run_cli(command, home=fg_home)) == NOT_RUNNING


def test_empty_is_not_an_error(fg_home):
    p = run_cli("trace", "show", home=fg_home)
    assert p.returncode == 0 and p.stderr == ""
    assert p.stdout.strip() == ("no sessions stored yet (record with `filegram record --root DIR` "
                                "or `filegram start --root DIR`)")
    assert json.loads(run_cli("trace", "show", "--json", home=fg_home, check=True).stdout) == []
    p = run_cli("sessions", home=fg_home)
    assert p.returncode == 0 and p.stdout.strip() == "no sessions stored yet"


def test_a_model_configured_without_the_llm_extra_is_one_line_naming_it(fg_home, tmp_path):
    """A real interpreter in which litellm cannot be found: a venv without it that sees this
    checkout's code and the base dependencies (numpy, rich ...) but not the dev venv's
    site-packages."""
    import site
    import subprocess
    import sys
    import venv

    env_dir = tmp_path / "nollm"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    pure = next((env_dir / "lib").glob("python3*")) / "site-packages"
    base = next(p for p in site.getsitepackages() if p.endswith("site-packages"))
    blocked = {"litellm"}
    # Link each installed top-level package except litellm into the new venv.
    for entry in os.scandir(base):
        name = entry.name.split("-")[0].split(".")[0].lower()
        if name in blocked or entry.name.endswith(".pth") and "litellm" in entry.name:
            continue
        os.symlink(entry.path, pure / entry.name)
    python = env_dir / "bin" / "python"
    check = subprocess.run([str(python), "-c", "import importlib.util as u; print(u.find_spec('litellm'))"],
                           capture_output=True, text=True, check=True)
    assert check.stdout.strip() == "None"
    run_cli("config", "set", "llm.model", "openai/gpt-4o-mini", home=fg_home, check=True)
    env = dict(os.environ, FILEGRAM_HOME=str(fg_home))
    want = ("filegram: error: llm.model is set to 'openai/gpt-4o-mini' but the model support is not installed: "
            "pip install 'filegram[llm]' (or run offline: filegram config set llm.model '')")
    for command in (["ask", "how do I name files?"], ["start", "--foreground", "--no-tray", "--root", str(tmp_path)]):
        p = subprocess.run([str(python), "-m", "filegram", *command], capture_output=True, text=True, env=env,
                           timeout=120)
        assert one_line_error(p) == want
    assert sys.executable != str(python)


def test_status_is_one_screen_in_words_and_counts_the_wal(fg_home, fixtures_dir, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    run_cli("import", str(fixtures_dir), home=fg_home, check=True)
    p = run_cli("status", check=True)
    text = p.stdout
    for python_value in ("None", "[]", "{}", "True", "False", "KiB"):
        assert python_value not in text, text
    lines = text.splitlines()
    assert len(lines) <= 24 and all(len(ln) <= 80 for ln in lines if not ln.startswith("  home")), text
    assert "not running" in text and text.count("not running") == 1
    assert "roots       none set: filegram start --root DIR" in text
    info = json.loads(run_cli("status", "--json", home=fg_home, check=True).stdout)
    db = fg_home / "filegram.db"
    wal = db.with_name("filegram.db-wal")
    assert info["database_file_bytes"] == db.stat().st_size
    assert info["database_wal_bytes"] == (wal.stat().st_size if wal.exists() else 0)
    assert info["database_bytes"] == info["database_file_bytes"] + info["database_wal_bytes"]
    assert info["roots"] == [] and info["recording_roots"] == []


def test_trace_show_is_one_line_per_action_at_the_terminal_width(fg_home, fixtures_dir, monkeypatch):
    run_cli("import", str(fixtures_dir), home=fg_home, check=True)
    monkeypatch.setenv("COLUMNS", "60")
    out = run_cli("trace", "show", "--session", "p3_T-12", check=True).stdout
    lines = out.splitlines()
    assert lines[0] == "session " + lines[0].split()[1] + " p3_T-12 (7 actions)"
    assert len(lines) == 1 + 7 and all(len(ln) <= 60 for ln in lines), out
    assert "rename docs/memo.txt -> docs/ops-memo.txt" in out
    monkeypatch.setenv("COLUMNS", "20")
    wide = run_cli("trace", "show", "--session", "p3_T-12", "--wide", check=True).stdout
    assert len(wide.splitlines()) == 8 and "docs/memo.txt -> docs/ops-memo.txt" in wide


def test_trace_show_shortens_long_paths_from_the_middle():
    from filegram.commands import shorten_middle

    path = "projects/2026/quarterly-reports/drafts/very-long-file-name-final-v3.md"
    short = shorten_middle(path, 30)
    assert len(short) == 30 and short.startswith("projects/") and short.endswith("final-v3.md") and "…" in short
    assert shorten_middle("a.md", 30) == "a.md"


def test_profile_leads_with_a_sentence_and_keeps_the_statistics_for_verbose(fg_home, fixtures_dir, monkeypatch):
    run_cli("import", str(fixtures_dir), home=fg_home, check=True)
    monkeypatch.setenv("COLUMNS", "80")
    text = run_cli("profile", check=True).stdout
    assert "You wrote" in text and "You made" in text
    assert "mean" not in text and "e+0" not in text and "sd " not in text
    assert all(len(ln) <= 80 for ln in text.splitlines())
    verbose = run_cli("profile", "--verbose", check=True).stdout
    assert "mean" in verbose and "gave a chance to show" in verbose
    prof = json.loads(run_cli("profile", "--json", home=fg_home, check=True).stdout)
    assert all("features" in d and "evidence" in d for d in prof["dimensions"].values())


def test_at_an_80_column_terminal_nothing_wraps(fg_home, fixtures_dir, tmp_path):
    """In a real terminal (tmux, 80 columns: what docs/screenshots/ show), status, trace show
    and profile fit: every action of the trace on one line, no line wider than the screen."""
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    if shutil.which("tmux") is None:
        import pytest

        pytest.skip("tmux is not installed (.ci/run installs it)")
    run_cli("import", str(fixtures_dir), home=fg_home, check=True)
    capture = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "capture.sh"
    screens = {}
    for name, args in (("status", ["status"]), ("trace", ["trace", "show", "--session", "p1_T-01"]),
                       ("profile", ["profile"])):
        out = tmp_path / f"{name}.txt"
        subprocess.run([str(capture), str(out), sys.executable, "-m", "filegram", "--home", str(fg_home), *args],
                       check=True, timeout=120)
        screens[name] = out.read_text(encoding="utf-8").splitlines()
        assert screens[name][-1] == "[exit 0]", screens[name]
    trace = screens["trace"][1:-2]
    assert len(trace) == 15 and all(line[:2].isdigit() for line in trace), screens["trace"]
    assert screens["status"][0] == "FileGram status" and len(screens["status"]) <= 20
    assert screens["profile"][0].startswith("Profile from ")


def test_long_commands_show_a_progress_bar_at_a_terminal_and_end_with_a_summary(fg_home, fixtures_dir, tmp_path):
    """At a terminal (a pseudo-terminal here), import, memory rebuild and export --all draw a
    bar (N/total) and end with one summary line; piped, they print only the summary."""
    import re
    import sys

    import pexpect

    def at_terminal(*args: str) -> str:
        child = pexpect.spawn(sys.executable, ["-m", "filegram", "--home", str(fg_home), *args],
                              encoding="utf-8", dimensions=(24, 80), timeout=120)
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0, child.before
        return child.before

    out = at_terminal("import", str(fixtures_dir))
    assert re.search(r"import .*━+.*3/3", out) and re.search(r"imported 3 trajectories: 26 new actions .* in \d+\.\d s", out)
    out = at_terminal("memory", "rebuild")
    assert re.search(r"memory rebuild .*━+.*/3", out) and re.search(r"memory rebuilt from 3 session\(s\) in \d+\.\d s", out)
    out = at_terminal("export", "--all", str(tmp_path / "everything"))
    assert re.search(r"export .*━+", out) and re.search(r"exported 3 sessions and tables .* in \d+\.\d s", out)
    piped = run_cli("memory", "rebuild", check=True)
    assert piped.stdout.startswith("memory rebuilt from 3 session(s) in ") and "━" not in piped.stdout + piped.stderr
