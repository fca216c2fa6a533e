"""Core subcommands: status, sessions, trace show, config, import, export, forget, doctor."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .vocab import action_detail, action_subject

if TYPE_CHECKING:
    from .cli import Context
    from .store import Store


def register(sub: Any) -> None:
    p = sub.add_parser("status", help="paths, stored actions per type, time of the last stored action")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_status)

    p = sub.add_parser("sessions", help="list sessions as a table")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--limit", type=int, default=None, help="show only the newest N sessions")
    p.set_defaults(func=cmd_sessions)

    p = sub.add_parser("trace", help="show the stored trace")
    tsub = p.add_subparsers(dest="trace_cmd", metavar="SUBCOMMAND", required=True)
    ps = tsub.add_parser("show", help="the actions of a session (default: the newest)")
    ps.add_argument("--session", metavar="ID", help="session id, id prefix or label")
    ps.add_argument("--json", action="store_true", help="print FileGram event dicts as a JSON array")
    ps.add_argument("--limit", type=int, default=None, help="at most N actions")
    ps.add_argument("--wide", action="store_true", help="full paths, lines as long as they need (default: fit the terminal)")
    ps.set_defaults(func=cmd_trace_show)

    p = sub.add_parser("config", help="show, read or change the configuration")
    csub = p.add_subparsers(dest="what", metavar="SUBCOMMAND", required=True)
    c = csub.add_parser("show", help="print the config file (the commented defaults on first run)")
    c.set_defaults(func=cmd_config)
    c = csub.add_parser("path", help="print where the config file is")
    c.set_defaults(func=cmd_config)
    c = csub.add_parser("get", help="print one setting, e.g. recorder.roots")
    c.add_argument("key", metavar="KEY", help="section.name")
    c.set_defaults(func=cmd_config_get)
    c = csub.add_parser("set", help="change one setting in the config file, keeping its comments")
    c.add_argument("key", metavar="KEY", help="section.name")
    c.add_argument(
        "value", metavar="VALUE", help="a TOML value (20, true, '[\"~/a\", \"~/b\"]'); anything else is a string"
    )
    c.set_defaults(func=cmd_config_set)

    p = sub.add_parser("import", help="import FileGram trajectory folders or JSONL event files")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument(
        "--root", metavar="DIR", help="workspace root to anonymise absolute paths against (default: summary.json's, else their common folder)"
    )
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("export", help="write sessions back as FileGram trajectory folders (--all: everything you own)")
    p.add_argument("--format", choices=["filegram"], default="filegram")
    p.add_argument("--session", action="append", metavar="ID", help="only this session (repeatable)")
    p.add_argument("--all", action="store_true", help="everything: trajectories, memory, frames, state and config in open formats")
    p.add_argument("out", metavar="OUT")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("forget", help="remove actions, snapshots and everything derived from them, then rebuild memory")
    p.add_argument("--path", metavar="GLOB", help="paths matching GLOB, relative to the root (a folder means everything under it; **/GLOB: at any depth)")
    p.add_argument("--since", metavar="T", help="from this time (ISO date or date-time, 'now', or epoch ms)")
    p.add_argument("--until", metavar="T", help="until this time (exclusive)")
    p.add_argument("--all", action="store_true", help="everything FileGram has stored")
    p.add_argument("--yes", action="store_true", help="do not ask for confirmation of --all")
    p.set_defaults(func=cmd_forget)

    p = sub.add_parser("doctor", help="check the config and the database (integrity); --repair restores a damaged one")
    p.add_argument("--repair", action="store_true",
                   help="move a damaged database aside, restore the newest good backup and copy in every readable row")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_doctor)


# -- helpers ---------------------------------------------------------------------------


def fmt_time(ms: float | None) -> str:
    if ms is None:
        return "never"
    return datetime.fromtimestamp(ms / 1000).strftime("%Y-%m-%d %H:%M:%S")


def fmt_ago(ms: float | None) -> str:
    if ms is None:
        return "never"
    secs = max(time.time() - ms / 1000, 0)
    if secs < 90:
        ago = f"{secs:.0f} s ago"
    elif secs < 5400:
        ago = f"{secs / 60:.0f} min ago"
    elif secs < 172800:
        ago = f"{secs / 3600:.1f} h ago"
    else:
        ago = f"{secs / 86400:.0f} days ago"
    return f"{fmt_time(ms)} ({ago})"


@contextmanager
def progress_bar(label: str, total: int, count: Callable[[], int] | None = None) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr for a long command (only at a terminal, and only for more
    than one item): yields tick(done). With `count`, a thread also polls count() (the rows or
    folders written so far) for work that reports no progress of its own."""
    import threading

    if total <= 1 or not sys.stderr.isatty():
        yield lambda done: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    stop = threading.Event()
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as prog:
        task = prog.add_task(label, total=total)

        def tick(done: int) -> None:
            prog.update(task, completed=min(done, total))

        poller = None
        if count is not None:
            def poll() -> None:
                while not stop.wait(0.2):
                    try:
                        tick(count())
                    except Exception:  # noqa: BLE001 - a progress bar never fails the command
                        pass

            poller = threading.Thread(target=poll, name="progress-poll", daemon=True)
            poller.start()
        try:
            yield tick
        finally:
            stop.set()
            if poller is not None:
                poller.join()


def console() -> Any:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=False)


def closed_label(s: dict[str, Any]) -> str:
    """'open', 'yes', or why it closed when that matters: 'crash' (cut by a crash, closed
    at the next start) or 'offline' (changes made while nothing recorded)."""
    if not s["closed"]:
        return "open"
    reason = (s.get("metadata") or {}).get("closed_reason")
    return reason if reason in ("crash", "offline", "recovered") else "yes"


def resolve_session(store: Store, ref: str | None) -> dict[str, Any]:
    from .errors import FileGramError

    sessions = store.sessions()
    if not sessions:
        raise FileGramError("no sessions stored yet")
    if ref is None:
        return max(sessions, key=lambda s: (s["started_ms"] or 0))
    exact = [s for s in sessions if s["id"] == ref or s["label"] == ref]
    if len(exact) == 1:
        return exact[0]
    prefix = [s for s in sessions if s["id"].startswith(ref)]
    if len(prefix) == 1:
        return prefix[0]
    if not prefix and not exact:
        raise FileGramError(f"no session '{ref}' (see `filegram sessions`)")
    raise FileGramError(f"session '{ref}' is ambiguous: give more of its id")


# -- commands ----------------------------------------------------------------------------


def fmt_bytes(n: float | None) -> str:
    """A size in human units (decimal: 1.1 MB), the way file managers show it."""
    if not n:
        return "0 B"
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" or n >= 100 else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} GB"  # pragma: no cover


def database_sizes(db_path: Any) -> dict[str, int]:
    """The database file and its write-ahead log (recent writes sit in the WAL until a
    checkpoint: both are the database's size on disk)."""
    from pathlib import Path

    sizes = {}
    for key, suffix in (("file", ""), ("wal", "-wal"), ("shm", "-shm")):
        p = Path(f"{db_path}{suffix}")
        sizes[key] = p.stat().st_size if p.exists() else 0
    return sizes


def human(value: Any) -> str:
    """A status value in words: None is 'never' or 'none', lists are joined, no Python reprs."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(human(v) for v in value) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{k} {human(v)}" for k, v in value.items()) or "none"
    return str(value)


# Keys of `status --json` the screen below shows in its own words (the rest: one line each).
STATUS_SHOWN = {
    "home", "config", "database", "database_bytes", "database_file_bytes", "database_wal_bytes", "sessions",
    "open_sessions", "actions", "actions_by_type", "last_action_ms", "roots", "recording_roots", "llm",
    "memory_sessions", "memory_updated_ms", "daemon", "daemon_state", "daemon_pid", "daemon_status", "daemon_api",
    "daemon_last_stored_action_ms", "daemon_last_memory_update_ms", "daemon_recorder_restarts",
    "daemon_recorder_errors", "daemon_recorder_last_error", "daemon_warnings", "daemon_roots",
    "unavailable action types", "screen capture", "screen frames", "last screen frame", "memory_provisional",
}


def cmd_status(args: argparse.Namespace, ctx: Context) -> int:
    from .cli import command_modules

    cfg = ctx.config
    store = ctx.store()
    counts = store.count_by_type()
    sizes = database_sizes(ctx.home.db_path)
    info: dict[str, Any] = {
        "home": str(ctx.home.root),
        "config": str(ctx.home.config_path),
        "database": str(ctx.home.db_path),
        "database_bytes": sizes["file"] + sizes["wal"],
        "database_file_bytes": sizes["file"],
        "database_wal_bytes": sizes["wal"],
        "sessions": len(store.sessions()),
        "open_sessions": len(store.sessions(closed=False)),
        "actions": sum(counts.values()),
        "actions_by_type": counts,
        "last_action_ms": store.last_action_ms(),
        "roots": cfg["recorder"]["roots"],
        "llm": cfg["llm"]["model"] or None,
    }
    for mod in command_modules():
        extra = getattr(mod, "status_extra", None)
        if extra is not None:
            try:
                info.update(extra(ctx))
            except Exception as exc:  # a broken part must not hide the rest of the status
                info[f"{mod.__name__} error"] = str(exc)
    # What is being recorded right now: the running daemon's roots, else nothing.
    info["recording_roots"] = info.get("daemon_roots") or []
    if args.json:
        print(json.dumps(info, indent=2, ensure_ascii=False, default=str))
        return 0
    print(render_status(info))
    return 0


def render_status(info: dict[str, Any]) -> str:
    """`filegram status` on one screen: each fact once, in words and human units."""
    rows: list[tuple[str, str]] = []
    daemon = str(info.get("daemon") or "not running")
    if info.get("daemon_api"):
        daemon += ", dashboard: filegram open"
    rows.append(("daemon", daemon))
    if info.get("daemon_status") and info.get("daemon_state") != "recording":
        rows.append(("", str(info["daemon_status"])))
    recording = info.get("recording_roots") or []
    if recording:
        rows.append(("recording", ", ".join(map(str, recording))))
    else:
        roots = info.get("roots") or []
        rows.append(("roots", (", ".join(roots) + " (recorded while the daemon runs)") if roots
                     else "none set: filegram start --root DIR"))
    rows.append(("last action", fmt_ago(info.get("last_action_ms"))))
    mem = info.get("memory_sessions")
    updated = info.get("daemon_last_memory_update_ms") or info.get("memory_updated_ms")
    if mem is None and updated is None:
        rows.append(("memory", "not built yet (the daemon builds it; or run filegram profile)"))
    else:
        rows.append(("memory", (f"{mem} session(s), " if mem is not None else "") + f"updated {fmt_ago(updated)}"))
    live = info.get("memory_provisional") or {}
    if live.get("sessions"):
        rows.append(("", f"{live['sessions']} open session(s) folded in provisionally ({live.get('actions', 0)} action(s))"))
    by_type = info.get("actions_by_type") or {}
    top = sorted(by_type.items(), key=lambda kv: -kv[1])
    kinds = ", ".join(f"{k.removeprefix('file_')} {v}" for k, v in top)
    rows.append(("stored", f"{info['sessions']} session(s) ({info['open_sessions']} open), {info['actions']} action(s)"))
    if kinds:
        rows.append(("", kinds))
    wal = info.get("database_wal_bytes") or 0
    rows.append(("database", f"{fmt_bytes(info.get('database_bytes'))}"
                 + (f" (of which {fmt_bytes(wal)} in the write-ahead log)" if wal else "")))
    rows.append(("model", info.get("llm") or "none (offline, deterministic answers)"))
    if "screen capture" in info:
        screen = str(info["screen capture"])
        if info.get("screen frames"):
            screen += f", {info['screen frames']} frame(s), last {info.get('last screen frame')}"
        rows.append(("screen", screen))
    if info.get("unavailable action types"):
        rows.append(("not visible", human(info["unavailable action types"])))
    if info.get("daemon_recorder_errors") or info.get("daemon_recorder_restarts"):
        rows.append(("recorder", f"{info.get('daemon_recorder_restarts') or 0} restart(s), "
                                 f"{info.get('daemon_recorder_errors') or 0} error(s)"
                                 + (f": {info['daemon_recorder_last_error']}" if info.get("daemon_recorder_last_error") else "")))
    for w in info.get("daemon_warnings") or []:
        rows.append(("warning", str(w)))
    for k, v in info.items():
        if k in STATUS_SHOWN or v in (None, [], {}, ""):
            continue
        if k.endswith("_ms") and isinstance(v, int | float):
            v = fmt_ago(v)
        rows.append((k.removesuffix("_ms").replace("_", " "), human(v)))
    rows.append(("home", str(info["home"])))
    import shutil
    import textwrap

    width = max(shutil.get_terminal_size((80, 24)).columns, 40)
    lines = ["FileGram status"]
    for k, v in rows:
        wrapped = textwrap.wrap(v, width - 14, break_on_hyphens=False, break_long_words=False) or [""]
        lines.append(f"  {k:<11} {wrapped[0]}")
        lines.extend(f"{'':14}{more}" for more in wrapped[1:])
    return "\n".join(lines)


def cmd_sessions(args: argparse.Namespace, ctx: Context) -> int:
    store = ctx.store()
    sessions = store.sessions()
    if args.limit:
        sessions = sessions[-args.limit :]
    if args.json:
        print(json.dumps(sessions, indent=2, ensure_ascii=False))
        return 0
    from rich.table import Table

    from .sync.devices import device_of, local_device_name

    here = local_device_name(ctx.config)
    synced = any(s.get("device") for s in sessions)  # the device column only once sessions came from another
    t = Table(show_edge=False)
    for col in ("id", "label", "source", *(["device"] if synced else []), "task", "started", "minutes", "actions",
                "closed"):
        t.add_column(col, justify="right" if col in ("minutes", "actions") else "left")
    for s in sessions:
        dur = (s["ended_ms"] - s["started_ms"]) / 60000 if s["ended_ms"] and s["started_ms"] else None
        t.add_row(
            s["id"][:8],
            s["label"] or "",
            s["source"],
            *([device_of(s, here)] if synced else []),
            s["task_id"] or "",
            fmt_time(s["started_ms"]),
            f"{dur:.1f}" if dur is not None else "",
            str(s["action_count"]),
            closed_label(s),
        )
    c = console()
    if not sessions:
        c.print("no sessions stored yet")
    else:
        c.print(t)
    return 0


# `trace show`'s short names for the 12 action types (one column of 6 cells).
SHORT_TYPE = {
    "file_read": "read", "file_browse": "browse", "file_search": "search", "file_write": "write",
    "file_edit": "edit", "file_rename": "rename", "file_move": "move", "dir_create": "mkdir",
    "file_delete": "delete", "file_copy": "copy", "context_switch": "switch", "cross_file_reference": "ref",
}


def shorten_middle(text: str, width: int) -> str:
    """`text` in at most `width` terminal cells, cut in the middle (…) so the start of a path
    and its file name both stay; "a -> b" pairs are cut on each side."""
    from rich.cells import cell_len

    if cell_len(text) <= width:
        return text
    if " -> " in text and width >= 15:
        left, right = text.split(" -> ", 1)
        half = (width - 4) // 2
        return f"{shorten_middle(left, half)} -> {shorten_middle(right, width - 4 - half)}"
    if width <= 1:
        return "…"[:width]
    head_w = (width - 1) // 3
    tail_w = width - 1 - head_w
    head, tail = "", ""
    for ch in text:
        if cell_len(head + ch) > head_w:
            break
        head += ch
    for ch in reversed(text):
        if cell_len(ch + tail) > tail_w:
            break
        tail = ch + tail
    return f"{head}…{tail}"


def trace_lines(events: list[dict[str, Any]], width: int | None) -> list[str]:
    """One line per action: time, type, path (shortened from the middle) and detail, fitted to
    `width` cells (None: nothing shortened, for --wide)."""
    from rich.cells import cell_len

    out = []
    for ev in events:
        when = datetime.fromtimestamp(ev["timestamp"] / 1000).strftime("%H:%M:%S")
        kind = SHORT_TYPE.get(ev["event_type"], ev["event_type"]) + ("*" if ev.get("offline") else "")
        subject, detail = action_subject(ev), action_detail(ev)
        head = f"{when} {kind:<7}"
        if width is None:
            out.append(f"{head}{subject}" + (f"  {detail}" if detail else ""))
            continue
        room = width - cell_len(head) - 1
        if detail:
            detail = shorten_middle(detail, max(min(cell_len(detail), room // 3), 1))
            room -= cell_len(detail) + 2
        subject = shorten_middle(subject, max(room, 8))
        pad = max(width - 1 - cell_len(head) - cell_len(subject) - cell_len(detail), 2) if detail else 0
        out.append(f"{head}{subject}" + (f"{' ' * pad}{detail}" if detail else ""))
    return out


def cmd_trace_show(args: argparse.Namespace, ctx: Context) -> int:
    store = ctx.store()
    if not store.sessions() and args.session is None:  # empty is not an error: nothing recorded yet
        if args.json:
            print("[]")
        else:
            print("no sessions stored yet (record with `filegram record --root DIR` or `filegram start --root DIR`)")
        return 0
    s = resolve_session(store, args.session)
    events = list(store.actions(s["id"], limit=args.limit))
    if args.json:
        json.dump(events, sys.stdout, indent=1, ensure_ascii=False)
        print()
        return 0
    import shutil

    closed = closed_label(s)
    note = f", closed: {closed}" if closed not in ("yes", "open") else ""
    print(f"session {s['id'][:8]} {s['label'] or ''} ({len(events)} actions{note})".replace("  ", " "))
    width = None if args.wide else max(shutil.get_terminal_size((80, 24)).columns, 40)
    for line in trace_lines(events, width):
        print(line)
    if any(ev.get("offline") for ev in events):
        print("* changed while nothing recorded (offline)")
    return 0


def cmd_config(args: argparse.Namespace, ctx: Context) -> int:
    if args.what == "path":
        print(ctx.home.config_path)
        return 0
    ctx.config  # noqa: B018 - loading writes the commented defaults on first run
    print(ctx.home.config_path.read_text(encoding="utf-8"), end="")
    return 0


def toml_value(value: Any) -> str:
    """A setting as it is written in config.toml (strings bare, for scripts)."""
    import tomlkit

    return value if isinstance(value, str) else tomlkit.item(value).as_string()


def parse_setting(key: str, text: str) -> Any:
    """VALUE of `config set`: a TOML value (20, true, ["~/a"], "quoted"), else the text as a
    plain string. A string setting keeps unquoted text as it is (`llm.model 20` means "20")."""
    import tomllib

    from .config import DEFAULTS, split_key

    section, name = split_key(key)
    try:
        value = tomllib.loads(f"value = {text}")["value"]
    except tomllib.TOMLDecodeError:
        return text
    if isinstance(DEFAULTS[section][name], str) and not isinstance(value, str):
        return text
    return value


def cmd_config_get(args: argparse.Namespace, ctx: Context) -> int:
    from .config import split_key

    section, name = split_key(args.key)
    print(toml_value(ctx.config[section][name]))
    return 0


def cmd_config_set(args: argparse.Namespace, ctx: Context) -> int:
    from .config import update_config_file

    value = parse_setting(args.key, args.value)
    ctx.home.ensure()
    cfg = update_config_file(ctx.home.config_path, {args.key: value})
    section, name = args.key.strip().split(".", 1)
    print(f"{section}.{name} = {toml_value(cfg[section][name])}  ({ctx.home.config_path})")
    return 0


def cmd_import(args: argparse.Namespace, ctx: Context) -> int:
    from .privacy import PathFilter
    from .trajectory import find_trajectories, import_paths

    store = ctx.store()
    errors: list[str] = []
    started = time.monotonic()
    total = sum(1 for _ in find_trajectories(args.paths))
    with progress_bar("import", total) as tick:
        done = [0]

        def one_more(*_: Any) -> None:
            done[0] += 1
            tick(done[0])

        def failed(exc: Exception) -> None:
            errors.append(str(exc))
            one_more()

        results = import_paths(
            store,
            args.paths,
            root=args.root,
            path_filter=PathFilter.from_config(ctx.config),
            on_error=failed,
            progress=one_more,
        )
    added = sum(r.actions_added for r in results)
    seen = sum(r.actions_seen for r in results)
    dropped = sum(r.dropped_metadata for r in results)
    denied = sum(r.denied for r in results)
    redelivered = sum(r.redelivered for r in results)
    media_missing = sum(r.media_missing for r in results)
    print(
        f"imported {len(results)} trajectories: {added} new actions "
        f"({seen - added} already stored, {dropped} simulation-metadata events dropped"
        + (f", {denied} actions on excluded paths dropped" if denied else "")
        + (f", {redelivered} events delivered twice kept once" if redelivered else "")
        + (f", {media_missing} references to missing media files dropped" if media_missing else "")
        + ")"
        + (f" in {time.monotonic() - started:.1f} s" if total > 1 else "")
    )
    for err in errors:
        print(f"filegram: error: {err}", file=sys.stderr)
    return 2 if errors else 0


def cmd_export(args: argparse.Namespace, ctx: Context) -> int:
    from .trajectory import export_sessions

    store = ctx.store()
    if args.all:
        from .errors import FileGramError
        from .export_all import export_everything

        if args.session:
            raise FileGramError("--all exports every session; leave out --session")
        from pathlib import Path

        from .atomic import make_private, private_umask

        started = time.monotonic()
        trajectories = Path(args.out) / "trajectories"

        def written() -> int:
            return sum(1 for _ in trajectories.iterdir()) if trajectories.is_dir() else 0

        with private_umask(), progress_bar("export", len(store.sessions()), count=written):
            # everything you own, private like the home (0600 / 0700)
            summary = export_everything(store, args.out, config_path=ctx.home.config_path, config=ctx.config)
        make_private(args.out)
        tables = ", ".join(f"{k} {v}" for k, v in summary["tables"].items()) or "none"
        print(f"exported {summary['trajectories']} sessions and tables ({tables}) to {args.out} "
              f"in {time.monotonic() - started:.1f} s")
        return 0
    written = export_sessions(store, args.out, args.session)
    print(f"exported {len(written)} sessions to {args.out}")
    return 0


def cmd_forget(args: argparse.Namespace, ctx: Context) -> int:
    from .errors import FileGramError
    from .forget import check_scope, forget, forget_through_daemon, parse_time

    if args.all and (args.path or args.since or args.until):
        raise FileGramError("--all forgets everything; leave out --path, --since and --until")
    if args.all and not args.yes:
        if not sys.stdin.isatty():
            raise FileGramError("forget --all needs --yes when not run interactively")
        answer = input("Forget everything FileGram has stored? Type 'yes': ")
        if answer.strip().lower() != "yes":
            print("nothing forgotten")
            return 1
    what = {
        "path_glob": args.path,
        "since_ms": parse_time(args.since) if args.since else None,
        "until_ms": parse_time(args.until) if args.until else None,
        "everything": bool(args.all),
    }
    check_scope(**what)
    result = forget_through_daemon(ctx.home, what)  # a running daemon pauses its recorder for it
    if result is None:
        result = forget(ctx.store(), ctx.config, home=ctx.home, **what)
    print(
        f"forgot {result['actions']} actions, {result['blobs']} snapshots, {result['sessions']} sessions"
        + (f", {result['derived_rows']} derived rows" if result["derived_rows"] else "")
        + (f"; memory {result['memory']}" if result.get("memory") else "")
    )
    outside = result.get("outside") or {}
    if outside:
        backups, exports = outside.get("backups") or {}, outside.get("exports") or {}
        print(
            f"backups: {backups.get('deleted', 0)} deleted" + (", 1 clean one written" if backups.get("written") else "")
            + f"; logs: {outside.get('log_lines', 0)} lines removed"
            + f"; exports: {len(exports.get('rewritten', []))} rewritten"
            + (f", {len(exports['unreachable'])} no longer where they were written (not reached)" if exports.get("unreachable") else "")
            + (f"; {n} damaged cop{'y' if n == 1 else 'ies'} deleted (kept aside by doctor --repair)"
               if (n := outside.get("damaged_copies")) else "")
        )
    for warning in result.get("warnings", []):
        print(f"filegram: warning: {warning}", file=sys.stderr)
    return 0


def cmd_doctor(args: argparse.Namespace, ctx: Context) -> int:
    """Checks, each one line: config, database integrity, backups. Exit 0 when all is well,
    1 when something needs `--repair`; with --repair, 0 once the database is sound again."""
    from .config import ConfigError
    from .errors import FileGramError
    from .store.recover import check, daemon_holds, newest_good_backup, repair

    report: dict[str, Any] = {"home": str(ctx.home.root)}
    try:
        ctx.config  # noqa: B018 - loading checks every setting
        report["config"] = "ok"
    except ConfigError as exc:
        report["config"] = str(exc)
    db = ctx.home.db_path
    report["database"] = str(db)
    report["integrity"] = check(db) if db.exists() else "missing (made on first use)"
    good = newest_good_backup(ctx.home.backup_dir)
    report["backups"] = len(list(ctx.home.backup_dir.glob("filegram-*.db"))) if ctx.home.backup_dir.is_dir() else 0
    report["newest_good_backup"] = str(good) if good else None
    damaged = report["integrity"] not in ("ok", "missing (made on first use)")
    if args.repair and damaged:
        if daemon_holds(ctx.home.run_dir):
            raise FileGramError("the daemon has the database open: run `filegram stop` first, then `filegram doctor --repair`")
        from .tables import load_plugins

        load_plugins()  # every package's tables exist in the repaired file
        report["repair"] = repair(db, ctx.home.backup_dir)
        report["integrity"] = report["repair"]["integrity"]
        damaged = report["integrity"] != "ok"
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return 1 if damaged or report["config"] != "ok" else 0
    print(f"config     {report['config']}")
    print(f"database   {db}: integrity {report['integrity']}")
    print(f"backups    {report['backups']} (newest good: {report['newest_good_backup'] or 'none'})")
    rep = report.get("repair")
    if rep:
        print(f"repaired   damaged file kept as {rep['damaged'] or '(none)'}; restored "
              f"{rep['backup'] or 'nothing (no good backup): a new database'}")
        for table, c in rep["tables"].items():
            print(f"  {table}: {c['read']} rows read from the damaged file, {c['added']} added, "
                  f"{c['updated']} updated, {c['skipped']} not stored")
    elif damaged:
        print("the database is damaged: stop the daemon (`filegram stop`), then run `filegram doctor --repair`")
    return 1 if damaged or report["config"] != "ok" else 0
