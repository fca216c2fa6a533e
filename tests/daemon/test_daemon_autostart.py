"""`filegram autostart` writes real entries into a temporary HOME / XDG_CONFIG_HOME (never the
user's), and the systemd unit passes `systemd-analyze verify`."""

from __future__ import annotations

import configparser
import plistlib
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.fixture
def fake_home(daemon_env, tmp_path):
    h = daemon_env
    user = tmp_path / "user home"  # a space on purpose: quoting must hold
    user.mkdir()
    h.env["HOME"] = str(user)
    h.env["XDG_CONFIG_HOME"] = str(user / ".config")
    h.env["APPDATA"] = str(user / "AppData" / "Roaming")
    # no systemd user manager in tests, even where one runs
    h.env["PATH"] = "/nonexistent-bin-for-tests"
    h.user = user
    return h


def _run(h, *args):
    # PATH is emptied for systemctl's sake; run the interpreter by its absolute path
    return subprocess.run([sys.executable, "-m", "filegram", *args], capture_output=True,
                          text=True, env=h.env, timeout=60)


def test_xdg_entry_enable_status_disable(fake_home):
    h = fake_home
    r = _run(h, "autostart", "status")
    assert r.returncode == 0 and "autostart disabled" in r.stdout and "xdg" in r.stdout
    r = _run(h, "autostart", "enable")  # default on Linux without a user manager: XDG
    assert r.returncode == 0, r.stderr
    entry = h.user / ".config" / "autostart" / "filegram.desktop"
    assert entry.exists() and str(entry) in r.stdout
    cp = configparser.ConfigParser(interpolation=None)
    cp.optionxform = str
    cp.read(entry)
    de = cp["Desktop Entry"]
    assert de["Type"] == "Application" and de["Terminal"] == "false"
    argv = shlex.split(de["Exec"].replace("\\\\", "\\"))
    assert argv[:3] == [sys.executable, "-m", "filegram"]
    assert argv[argv.index("--home") + 1] == str(h.home.resolve())
    assert argv[-2:] == ["start", "--foreground"]

    r = _run(h, "autostart", "status", "--json")
    assert '"enabled": true' in r.stdout
    r = _run(h, "autostart", "disable")
    assert r.returncode == 0 and str(entry) in r.stdout
    assert not entry.exists()
    assert "not enabled" in _run(h, "autostart", "disable").stdout


def test_enable_needs_roots(fake_home):
    h = fake_home
    (h.home / "config.toml").write_text("[daemon]\ntray = false\n")
    r = _run(h, "autostart", "enable", "--method", "xdg")
    assert r.returncode == 2 and "no folders to record" in r.stderr
    r = _run(h, "autostart", "enable", "--method", "xdg", "--root", str(h.root))
    assert r.returncode == 0, r.stderr
    text = (h.user / ".config" / "autostart" / "filegram.desktop").read_text()
    assert f"--root {h.root}" in text


def test_systemd_unit_is_valid(fake_home):
    h = fake_home
    r = _run(h, "autostart", "enable", "--method", "systemd", "--root", str(h.root))
    assert r.returncode == 0, r.stderr
    unit = h.user / ".config" / "systemd" / "user" / "filegram.service"
    assert unit.exists()
    assert "no systemd user manager" in r.stdout  # written, and told how to enable it later
    text = unit.read_text()
    assert "ExecStart=" in text and "start --foreground" in text
    assert f'--home {h.home.resolve()}' in text or f'--home "{h.home.resolve()}"' in text
    assert "Restart=on-failure" in text and "WantedBy=default.target" in text

    analyze = shutil.which("systemd-analyze")
    if not analyze:
        pytest.skip("systemd-analyze is not installed")
    proc = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "filegram.service" not in proc.stderr, proc.stderr  # no warnings about our unit
    # and the check is real: a unit whose program does not exist fails it
    bad = unit.with_name("broken.service")
    bad.write_text(text.replace(sys.executable, "/nonexistent/python"))
    assert subprocess.run([analyze, "verify", str(bad)], capture_output=True, timeout=60).returncode != 0


def test_launchagent_and_windows_startup_render(fake_home):
    from filegram.daemon import autostart

    h = fake_home
    weird = Path("/tmp/My Files & <notes>")
    cmd = autostart.daemon_command(h.home, [weird])
    plist = plistlib.loads(autostart.render_plist(cmd, h.home / "logs" / "launchd.log").encode())
    assert plist["Label"] == "com.filegram.daemon"
    assert plist["ProgramArguments"] == cmd
    assert plist["RunAtLoad"] is True and plist["KeepAlive"] == {"SuccessfulExit": False}

    vbs = autostart.render_vbs(cmd)
    assert 'CreateObject("WScript.Shell").Run ' in vbs and vbs.rstrip().endswith(", 0, False")
    inner = vbs.split(".Run ", 1)[1].rsplit(", 0, False", 1)[0]
    assert inner.startswith('"') and inner.endswith('"')
    assert '"My Files & <notes>"' not in inner and '""/tmp/My Files & <notes>""' in inner

    r = _run(h, "autostart", "enable", "--method", "windows", "--root", str(h.root))
    assert r.returncode == 0, r.stderr
    startup = (h.user / "AppData" / "Roaming" / "Microsoft" / "Windows" / "Start Menu" /
               "Programs" / "Startup" / "filegram.vbs")
    assert startup.read_bytes().count(b"\r\n") >= 3  # CRLF for Windows Script Host
    r = _run(h, "autostart", "enable", "--method", "launchd", "--root", str(h.root))
    assert r.returncode == 0, r.stderr
    assert (h.user / "Library" / "LaunchAgents" / "com.filegram.daemon.plist").exists()
    r = _run(h, "autostart", "disable")
    assert r.returncode == 0 and r.stdout.count("removed") == 2
