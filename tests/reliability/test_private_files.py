"""What FileGram writes outside the database is private like the home, whatever the umask
(issue 14, section 6): `export --all` output 0600 / 0700, the daemon's logs 0600 in a 0700
folder (they were 0666 / 0644 under umask 022)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

from fg_helpers import run_cli


def _umask_022() -> None:
    os.umask(0o022)


def _modes(top: Path) -> dict[str, int]:
    out = {".": stat.S_IMODE(top.stat().st_mode)}
    for dirpath, dirnames, filenames in os.walk(top):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            out[str(p.relative_to(top))] = stat.S_IMODE(p.lstat().st_mode)
    return out


def test_export_all_is_private_under_umask_022(tmp_path: Path, fixtures_dir: Path) -> None:
    home = tmp_path / "home"
    traj = next(p for p in sorted(fixtures_dir.rglob("events.json"))).parent
    assert run_cli("import", str(traj), home=home, preexec_fn=_umask_022).returncode == 0
    out = tmp_path / "everything"
    p = run_cli("export", "--all", str(out), home=home, preexec_fn=_umask_022)
    assert p.returncode == 0, p.stderr
    modes = _modes(out)
    assert len(modes) > 3
    for name, mode in modes.items():
        want = 0o700 if (out / name).is_dir() else 0o600
        assert mode == want, f"{name}: {oct(mode)}"


def test_daemon_logs_are_private_under_umask_022(tmp_path: Path) -> None:
    home, root = tmp_path / "home", tmp_path / "work"
    root.mkdir()
    home.mkdir()
    (home / "config.toml").write_text(f"[recorder]\nroots = [{json.dumps(str(root))}]\n[daemon]\ntray = false\n")
    env = {**os.environ, "FILEGRAM_HOME": str(home)}
    env.pop("DISPLAY", None)
    p = subprocess.run([sys.executable, "-m", "filegram", "start", "--no-tray"], env=env, capture_output=True,
                       text=True, timeout=120, preexec_fn=_umask_022)
    try:
        assert p.returncode == 0, p.stderr
    finally:
        stop = subprocess.run([sys.executable, "-m", "filegram", "stop"], env=env, capture_output=True, text=True,
                              timeout=120)
    assert stop.returncode == 0, stop.stderr
    logs = home / "logs"
    assert stat.S_IMODE(logs.stat().st_mode) == 0o700
    for name in ("daemon.log", "daemon.out"):
        assert stat.S_IMODE((logs / name).stat().st_mode) == 0o600, name
    assert (logs / "daemon.log").read_text().strip()
