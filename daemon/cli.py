"""Daemon commands: start, stop, pause, resume, autostart; plus the daemon's part of
`filegram status`. Only argparse-level imports here: the daemon's code loads when a
command runs, so `filegram --help` stays fast.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from filegram.cli import Context

START_WAIT_SECONDS = 30.0


def register(sub: Any) -> None:
    p = sub.add_parser("start", help="start the background daemon (recorder, memory, tray, local API)")
    p.add_argument("--foreground", action="store_true",
                   help="run in this process (for service managers and debugging)")
    p.add_argument("--root", action="append", metavar="DIR", default=None,
                   help="folder to record (repeatable; default: [recorder] roots in the config)")
    p.add_argument("--no-tray", action="store_true", help="never show a tray icon")
    p.add_argument("--detached-child", action="store_true", help=argparse.SUPPRESS)
    p.set_defaults(func=_start)

    p = sub.add_parser("stop", help="stop the daemon (flushes and closes the open session)")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds to wait (default 60)")
    p.set_defaults(func=_stop)

    p = sub.add_parser("pause", help="pause recording (the daemon keeps running)")
    p.set_defaults(func=_pause)
    p = sub.add_parser("resume", help="resume recording")
    p.set_defaults(func=_resume)

    p = sub.add_parser("autostart", help="start the daemon at login (systemd, XDG, LaunchAgent, Startup)")
    p.add_argument("what", choices=["enable", "disable", "status"])
    p.add_argument("--method", choices=["systemd", "xdg", "launchd", "windows"],
                   help="which mechanism (default: the platform's; on Linux systemd when a user "
                        "manager runs, else an XDG autostart entry)")
    p.add_argument("--root", action="append", metavar="DIR", default=None,
                   help="folder to record, written into the entry (default: the config's roots)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_autostart)


# -- start / stop ----------------------------------------------------------------------


def _start(args: argparse.Namespace, ctx: Context) -> int:
    from .runtime import RunFiles
    from .service import Daemon
    from .startup import open_private_log, resolve_roots, setup_logging

    roots = resolve_roots(args.root or ctx.config["recorder"]["roots"], ctx.home)
    ctx.config.require_llm_extra()  # a configured model without the `llm` extra: one line, not a crash later
    files = RunFiles(ctx.home.run_dir)
    if args.root and not args.detached_child:
        remember_roots(ctx, roots)
    if args.foreground or args.detached_child:
        setup_logging(ctx.home, to_stderr=not args.detached_child)
        tray = False if args.no_tray else None
        return Daemon(ctx.home, ctx.config, roots, tray=tray).run()

    from filegram.errors import FileGramError

    if files.is_locked():
        pid = files.read_pid()
        raise FileGramError(f"a FileGram daemon is already running for this home (pid {pid})")
    ctx.home.ensure()
    cmd = [sys.executable, "-m", "filegram", "--home", str(ctx.home.root), "start", "--detached-child"]
    for r in roots:
        cmd += ["--root", str(r)]
    if args.no_tray:
        cmd.append("--no-tray")
    out_path = ctx.home.log_dir / "daemon.out"
    kwargs: dict[str, Any] = {}
    if sys.platform == "win32":  # pragma: no cover
        kwargs["creationflags"] = subprocess.DETACHED_PROCESS | subprocess.CREATE_NEW_PROCESS_GROUP
    else:
        kwargs["start_new_session"] = True
    out = open_private_log(out_path)
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                                cwd=str(ctx.home.root), **kwargs)
    finally:
        os.close(out)
    deadline = time.monotonic() + START_WAIT_SECONDS
    while time.monotonic() < deadline:
        code = proc.poll()
        if code is not None:
            tail = _tail(out_path)
            raise FileGramError(f"the daemon exited at start (code {code}): {tail}")
        info = files.read_info()
        if info and info.get("pid") == proc.pid:
            print(f"FileGram daemon started (pid {proc.pid}), recording {', '.join(map(str, roots))}")
            print(f"  API {info['api_url']}  log {ctx.home.log_dir / 'daemon.log'}")
            try:
                from .client import DaemonClient

                if DaemonClient(ctx.home.run_dir, timeout=5).health().get("paused"):
                    print("  recording is PAUSED (paused before the last stop): `filegram resume`")
            except FileGramError:
                pass
            return 0
        time.sleep(0.1)
    raise FileGramError(f"the daemon did not become ready in {START_WAIT_SECONDS:.0f} s; see {out_path}")


def remember_roots(ctx: Context, roots: list[Path]) -> None:
    """`start --root DIR` keeps the folders: they become [recorder] roots in config.toml, so
    the next `filegram start` (and autostart, and status) records and shows the same ones."""
    from filegram.config import update_config_file

    wanted = [str(r) for r in roots]
    if [str(Path(r).expanduser().resolve()) for r in ctx.config["recorder"]["roots"]] == wanted:
        return
    ctx.home.ensure()
    update_config_file(ctx.home.config_path, {"recorder.roots": wanted})
    ctx._config = None  # the next read sees the file as written
    print(f"kept in {ctx.home.config_path}: recorder.roots = {json.dumps(wanted)} (`filegram start` records them from now on)")


def _tail(path: Path) -> str:
    try:
        lines = [ln for ln in path.read_text(errors="replace").splitlines() if ln.strip()]
    except OSError:
        return "no output"
    return lines[-1] if lines else "no output"


def _stop(args: argparse.Namespace, ctx: Context) -> int:
    from filegram.errors import FileGramError

    from .client import DaemonClient
    from .runtime import RunFiles

    files = RunFiles(ctx.home.run_dir)
    if not files.is_locked():
        print("FileGram daemon is not running")
        return 0
    pid = files.read_pid()
    try:
        DaemonClient(ctx.home.run_dir, timeout=5).request("POST", "/api/stop")
    except FileGramError:
        if pid:  # the API is unreachable: fall back to the signal
            import signal

            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
    deadline = time.monotonic() + args.timeout
    while time.monotonic() < deadline:
        if not files.is_locked():
            print(f"FileGram daemon stopped (pid {pid})")
            return 0
        time.sleep(0.1)
    raise FileGramError(f"the daemon (pid {pid}) did not stop within {args.timeout:.0f} s")


def _pause(args: argparse.Namespace, ctx: Context) -> int:
    from .client import DaemonClient

    h = DaemonClient(ctx.home.run_dir).request("POST", "/api/pause")
    print(h.get("status_line", h.get("state")))
    return 0


def _resume(args: argparse.Namespace, ctx: Context) -> int:
    from .client import DaemonClient

    h = DaemonClient(ctx.home.run_dir).request("POST", "/api/resume")
    print(h.get("status_line", h.get("state")))
    return 0


# -- autostart ----------------------------------------------------------------------------


def _autostart(args: argparse.Namespace, ctx: Context) -> int:
    from filegram.errors import FileGramError

    from . import autostart

    if args.what == "enable":
        if args.root:
            from .startup import resolve_roots

            roots = resolve_roots(args.root, ctx.home)
        else:
            if not ctx.config["recorder"]["roots"]:
                raise FileGramError(
                    "no folders to record: pass --root DIR or set [recorder] roots in "
                    f"{ctx.home.config_path} before enabling autostart"
                )
            roots = []
        ctx.home.ensure()
        result = autostart.enable(ctx.home.root, roots, args.method)
        if args.json:
            print(json.dumps(result, indent=2))
        else:
            print(f"autostart enabled ({result['method']}): {result['path']}")
            for note in result["notes"]:
                print(f"  note: {note}")
        return 0
    if args.what == "disable":
        result = autostart.disable(args.method)
        if args.json:
            print(json.dumps(result, indent=2))
        elif result["removed"]:
            for path in result["removed"]:
                print(f"removed {path}")
        else:
            print("autostart was not enabled")
        return 0
    result = autostart.status()
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"autostart {'enabled' if result['enabled'] else 'disabled'} "
          f"(default method here: {result['default_method']})")
    for m, e in result["entries"].items():
        if e["installed"]:
            extra = f" [{e['systemd']}]" if "systemd" in e else ""
            print(f"  {m}: {e['path']}{extra}")
    return 0


# -- status --------------------------------------------------------------------------------


def status_extra(ctx: Context) -> dict[str, object]:
    """The daemon's part of `filegram status`: is it running, and is data being written."""
    from filegram.errors import FileGramError

    from .client import DaemonClient
    from .runtime import RunFiles

    files = RunFiles(ctx.home.run_dir)
    info = files.read_info()
    if not info:
        if files.is_locked():
            return {"daemon": f"starting (pid {files.read_pid()})"}
        return {"daemon": "not running (filegram start)"}
    try:
        h = DaemonClient(ctx.home.run_dir, timeout=5).health()
    except FileGramError as exc:
        return {"daemon": f"running (pid {info.get('pid')}) but not answering: {exc}"}
    rec = h.get("recorder") or {}
    return {
        "daemon": f"running (pid {h.get('pid')}), {h.get('state')}",
        "daemon_state": h.get("state"),
        "daemon_pid": h.get("pid"),
        "daemon_status": h.get("status_line"),
        "daemon_api": h.get("api_url"),
        "daemon_last_stored_action_ms": h.get("last_stored_action_ms"),
        "daemon_last_memory_update_ms": h.get("last_memory_update_ms"),
        "daemon_recorder_restarts": rec.get("restarts"),
        "daemon_recorder_errors": rec.get("failures"),
        "daemon_recorder_last_error": rec.get("last_error"),
        "daemon_warnings": h.get("warnings") or [],
        "daemon_roots": h.get("roots") or [],
    }
