"""Start the daemon at login: a systemd user unit, an XDG autostart entry, a macOS
LaunchAgent or a Windows Startup script, each rendered from a template in packaging/ (package data through daemon/templates).

The command written is this interpreter's absolute path with `-m filegram`, so a pipx or
venv install starts the same FileGram that enabled it, and `--home` is always explicit so
the service uses the same data the user set up. Locations honour XDG_CONFIG_HOME, HOME and
APPDATA, which keeps tests away from the real user's files.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape as xml_escape

from filegram.errors import FileGramError

UNIT_NAME = "filegram.service"
DESKTOP_NAME = "filegram.desktop"
PLIST_LABEL = "com.filegram.daemon"
VBS_NAME = "filegram.vbs"
METHODS = ("systemd", "xdg", "launchd", "windows")


def template(name: str) -> str:
    """A template from packaging/ (reached through the daemon/templates symlink)."""
    return (resources.files("filegram.daemon") / "templates" / name).read_text(encoding="utf-8")


def _fill(text: str, **values: str) -> str:
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    return text


def daemon_command(home: Path, roots: list[Path] | None = None) -> list[str]:
    cmd = [sys.executable, "-m", "filegram", "--home", str(home), "start", "--foreground"]
    for r in roots or []:
        cmd += ["--root", str(r)]
    return cmd


# -- rendering --------------------------------------------------------------------------


def _systemd_quote(arg: str) -> str:
    arg = arg.replace("%", "%%").replace("$", "$$")
    if arg and not any(c in arg for c in ' \t"\'\\;'):
        return arg
    return '"' + arg.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render_systemd(cmd: list[str]) -> str:
    return _fill(template(UNIT_NAME), exec_start=" ".join(_systemd_quote(a) for a in cmd))


def _desktop_quote(arg: str) -> str:
    arg = arg.replace("%", "%%")
    if arg and not any(c in arg for c in ' \t\n"\'\\><~|&;$*?#()`'):
        return arg
    escaped = arg.replace("\\", "\\\\").replace('"', '\\"').replace("`", "\\`").replace("$", "\\$")
    # The Desktop Entry spec reads the value through one more level of backslash escapes.
    return '"' + escaped.replace("\\", "\\\\") + '"'


def render_desktop(cmd: list[str]) -> str:
    return _fill(template(DESKTOP_NAME), exec_start=" ".join(_desktop_quote(a) for a in cmd))


def render_plist(cmd: list[str], log_path: Path) -> str:
    args = "\n".join(f"        <string>{xml_escape(a)}</string>" for a in cmd)
    return _fill(template(f"{PLIST_LABEL}.plist"), label=PLIST_LABEL, program_arguments=args,
                 log_path=xml_escape(str(log_path)))


def render_vbs(cmd: list[str]) -> str:
    line = subprocess.list2cmdline(cmd)
    return _fill(template("filegram-startup.vbs"), command_vbs='"' + line.replace('"', '""') + '"')


# -- locations --------------------------------------------------------------------------


def config_home() -> Path:
    env = os.environ.get("XDG_CONFIG_HOME")
    return Path(env) if env else Path.home() / ".config"


def entry_path(method: str) -> Path:
    if method == "systemd":
        return config_home() / "systemd" / "user" / UNIT_NAME
    if method == "xdg":
        return config_home() / "autostart" / DESKTOP_NAME
    if method == "launchd":
        return Path.home() / "Library" / "LaunchAgents" / f"{PLIST_LABEL}.plist"
    if method == "windows":
        appdata = os.environ.get("APPDATA") or str(Path.home() / "AppData" / "Roaming")
        return Path(appdata) / "Microsoft" / "Windows" / "Start Menu" / "Programs" / "Startup" / VBS_NAME
    raise FileGramError(f"unknown autostart method {method!r} (known: {', '.join(METHODS)})")


def _systemctl(*args: str, timeout: float = 10.0) -> subprocess.CompletedProcess[str] | None:
    exe = shutil.which("systemctl")
    if not exe:
        return None
    try:
        return subprocess.run([exe, "--user", *args], capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired):
        return None


def systemd_user_available() -> bool:
    """True when a systemd user manager runs for this user (not just systemctl installed)."""
    proc = _systemctl("show-environment", timeout=5.0)
    return proc is not None and proc.returncode == 0


def default_method() -> str:
    if sys.platform == "win32":
        return "windows"
    if sys.platform == "darwin":
        return "launchd"
    return "systemd" if systemd_user_available() else "xdg"


# -- enable / disable / status ----------------------------------------------------------


def _write(path: Path, text: str, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8", newline="\r\n" if path.suffix == ".vbs" else None)
    tmp.chmod(mode)
    tmp.replace(path)


def enable(home: Path, roots: list[Path] | None = None, method: str | None = None,
           log_path: Path | None = None) -> dict[str, Any]:
    """Write the entry for `method` (default: the platform's) and activate it if possible."""
    method = method or default_method()
    cmd = daemon_command(home, roots)
    path = entry_path(method)
    notes: list[str] = []
    if method == "systemd":
        _write(path, render_systemd(cmd))
        if systemd_user_available():
            for step in (("daemon-reload",), ("enable", UNIT_NAME)):
                proc = _systemctl(*step)
                if proc is None or proc.returncode != 0:
                    err = (proc.stderr.strip() if proc else "systemctl not found") or "failed"
                    notes.append(f"systemctl --user {' '.join(step)}: {err}")
        else:
            notes.append("no systemd user manager running: unit written; enable it later with "
                         f"`systemctl --user enable {UNIT_NAME}`")
    elif method == "xdg":
        _write(path, render_desktop(cmd))
    elif method == "launchd":
        _write(path, render_plist(cmd, log_path or home / "logs" / "launchd.log"))
        if sys.platform == "darwin":  # pragma: no cover - macOS only
            proc = subprocess.run(["launchctl", "load", "-w", str(path)], capture_output=True, text=True)
            if proc.returncode != 0:
                notes.append(f"launchctl load: {proc.stderr.strip()}")
    elif method == "windows":
        _write(path, render_vbs(cmd))
    else:
        entry_path(method)  # raises the clear error
    return {"method": method, "path": str(path), "enabled": True, "command": cmd, "notes": notes}


def disable(method: str | None = None) -> dict[str, Any]:
    """Remove the autostart entry of `method`, or of every method when none is given."""
    removed, notes = [], []
    for m in [method] if method else list(METHODS):
        path = entry_path(m)
        if m == "systemd" and path.exists() and systemd_user_available():
            proc = _systemctl("disable", UNIT_NAME)
            if proc is not None and proc.returncode != 0:
                notes.append(f"systemctl --user disable: {proc.stderr.strip()}")
        if m == "launchd" and path.exists() and sys.platform == "darwin":  # pragma: no cover
            subprocess.run(["launchctl", "unload", "-w", str(path)], capture_output=True)
        if path.exists():
            path.unlink()
            removed.append(str(path))
        if m == "systemd" and removed and systemd_user_available():
            _systemctl("daemon-reload")
    return {"removed": removed, "notes": notes}


def status() -> dict[str, Any]:
    entries = {}
    for m in METHODS:
        path = entry_path(m)
        entry: dict[str, Any] = {"path": str(path), "installed": path.exists()}
        if m == "systemd" and path.exists():
            proc = _systemctl("is-enabled", UNIT_NAME, timeout=5.0)
            entry["systemd"] = proc.stdout.strip() if proc is not None and proc.stdout else "unknown"
        entries[m] = entry
    return {
        "default_method": default_method(),
        "enabled": any(e["installed"] for e in entries.values()),
        "entries": entries,
    }
