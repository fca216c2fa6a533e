"""`filegram search` and `filegram screen ...`: find what you saw, control what is captured.

Imports only argparse-level things at load; the store, Pillow, mss and OCR load inside
the commands.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from filegram.cli import Context
    from filegram.config import Config
    from filegram.store import Store


def register(sub: Any) -> None:
    p = sub.add_parser(
        "search",
        help="find frames (screen text, window titles), files and memory by words",
        description="Full-text search over the screen frames' redacted OCR text and window "
        "titles, the paths of recorded files and, when memory has been built, its semantic "
        "channel. Every result contains the words (shown in [brackets]); files that are gone are "
        "left out. Read-only.",
    )
    p.add_argument("words", nargs="+", help="words to find (all must match a frame)")
    p.add_argument("--limit", type=int, default=10, metavar="N", help="at most N results per kind (default 10)")
    p.add_argument("--json", action="store_true", help="print JSON: {query, frames, files, memory}")
    p.set_defaults(func=cmd_search)

    p = sub.add_parser("screen", help="screen capture: on, off, status, one capture, frames, prune")
    ssub = p.add_subparsers(dest="screen_cmd", metavar="SUBCOMMAND", required=True)
    s = ssub.add_parser("status", help="on or off, frames stored, today's use of the budget, last frame")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.set_defaults(func=cmd_status)
    s = ssub.add_parser("on", help="turn screen capture on (kept across restarts; the tray shows it)")
    s.set_defaults(func=cmd_toggle, on=True)
    s = ssub.add_parser("off", help="turn screen capture off")
    s.set_defaults(func=cmd_toggle, on=False)
    s = ssub.add_parser("capture", help="one capture attempt now (what the daemon does every interval)")
    s.add_argument("--root", action="append", metavar="DIR", help="watched folder for screen-to-action matching (default: recorder.roots)")
    s.add_argument("--json", action="store_true", help="print the attempt's result as JSON")
    s.set_defaults(func=cmd_capture)
    s = ssub.add_parser("frames", help="list stored frames (newest first)")
    s.add_argument("--session", metavar="ID", help="only frames linked to this session")
    s.add_argument("--limit", type=int, default=20, metavar="N")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.set_defaults(func=cmd_frames)
    s = ssub.add_parser("export", help="write one frame's image to a file")
    s.add_argument("frame_id", type=int, metavar="FRAME_ID")
    s.add_argument("out", metavar="OUT", help="file to write (the frame's format: .webp or .jpg)")
    s.set_defaults(func=cmd_export)
    s = ssub.add_parser("prune", help="apply retention and the daily budget now")
    s.set_defaults(func=cmd_prune)


# -- helpers -------------------------------------------------------------------------------


def _existing_store(ctx: Context) -> Store | None:
    """The store read-only, or None when there is no database yet (nothing is created)."""
    if not ctx.home.db_path.exists():
        return None
    return ctx.store(readonly=True)


def _writable_store(ctx: Context) -> Store:
    """The store with the screen's tables."""
    from . import store as frames

    store = ctx.store()
    frames.ensure_tables(store)
    return store


def _when(ms: float | None) -> str:
    from filegram.commands import fmt_time

    return fmt_time(ms)


def _mb(n: int) -> str:
    return f"{n / 1024 / 1024:.2f} MB"


# -- search --------------------------------------------------------------------------------


def search_all(store: Store | None, config: Config, query: str, limit: int) -> dict[str, Any]:
    """Frames, files and memory chunks matching the query (the JSON of `filegram search`)."""
    from . import store as frames

    out: dict[str, Any] = {"query": query, "frames": [], "files": [], "memory": []}
    if store is None:
        return out
    for f in frames.search_frames(store, query, limit):
        f["time"] = _when(f["ts"])
        out["frames"].append(f)
    out["files"] = _file_hits(store, config, query, limit)
    out["memory"] = _memory_hits(store, config, query, limit)
    return out


CANDIDATES = 2000  # paths holding the words, ranked by FTS5 (newest first when more)


def _file_hits(store: Store, config: Config, query: str, limit: int) -> list[dict[str, Any]]:
    """Recorded paths holding every word of the query, ranked by FTS5 (bm25 over trigrams)
    with the match in [brackets]; paths that are gone (on disk, or by the trace) left out."""
    from filegram.ondisk import PathCheck
    from filegram.pathsearch import query_words, rank_paths

    terms = query_words(query)
    if not terms:
        return []
    where = " AND ".join("LOWER(path) LIKE ? ESCAPE '\\'" for _ in terms)
    args = ["%" + t.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%" for t in terms]
    try:
        rows = store.conn.execute(
            f"SELECT path, first_ms FROM paths WHERE {where} ORDER BY first_ms DESC LIMIT ?", (*args, CANDIDATES),
        ).fetchall()
    except Exception:  # noqa: BLE001 - an empty or foreign database
        return []
    first = dict(rows)
    check = PathCheck(store, config["recorder"]["roots"])
    out = []
    for path, marked in rank_paths(first, query, len(first)):
        if check.gone(path):
            continue
        out.append({"path": path, "match": marked, "first_ms": first[path], "first_seen": _when(first[path])})
        if len(out) >= limit:
            break
    return out


def _memory_hits(store: Store, config: Config, query: str, limit: int) -> list[dict[str, Any]]:
    """Hits other packages offer (memory's chunks), through the core's registry."""
    from filegram.tables import search_providers

    out: list[dict[str, Any]] = []
    for search in search_providers().values():
        try:
            out.extend(search(store, config, query, limit))
        except Exception:  # noqa: BLE001 - a provider failing: frames and files still answer
            continue
    return out


def cmd_search(args: argparse.Namespace, ctx: Context) -> int:
    from filegram.errors import FileGramError

    if args.limit <= 0:
        raise FileGramError("--limit must be a positive number")
    query = " ".join(args.words).strip()
    if not query:
        raise FileGramError("give some words to search for")
    store = _existing_store(ctx)
    res = search_all(store, ctx.config, query, args.limit)
    if args.json:
        print(json.dumps(res, ensure_ascii=False, indent=2))
        return 0
    if not (res["frames"] or res["files"] or res["memory"]):
        print(f"nothing found for {query!r}")
        return 0
    if res["frames"]:
        print(f"frames ({len(res['frames'])}):")
        for f in res["frames"]:
            title = f.get("window_title") or ""
            print(f"  #{f['id']}  {f['time']}  {title[:60]}")
            if f.get("snippet"):
                print(f"        {f['snippet']}")
    if res["files"]:
        print(f"files ({len(res['files'])}):")
        for f in res["files"]:
            print(f"  {f['match']}  (first seen {f['first_seen']})")
    if res["memory"]:
        print(f"memory ({len(res['memory'])}):")
        for m in res["memory"]:
            text = " ".join(str(m.get("text", "")).split())[:90]
            print(f"  [{m.get('kind', '')}] {m.get('path') or ''} {text}")
    return 0


# -- screen ---------------------------------------------------------------------------------


def status_info(store: Store | None, config: Config) -> dict[str, Any]:
    from . import store as frames
    from .settings import daily_budget_bytes, is_enabled, screen_settings

    cfg = screen_settings(config)
    if store is None:
        return {"enabled": bool(cfg["enabled"]), "frames": 0, "bytes": 0, "last_frame_ms": None,
                "today_bytes": 0, "today_frames": 0, "daily_budget_bytes": daily_budget_bytes(cfg)}
    tot = frames.totals(store)
    today = frames.day_usage(store)
    return {
        "enabled": is_enabled(store, config),
        "frames": tot["frames"],
        "bytes": tot["bytes"],
        "last_frame_ms": tot["last_ms"],
        "today_bytes": today["bytes"],
        "today_frames": today["frames"],
        "today_pruned": today["pruned"],
        "daily_budget_bytes": daily_budget_bytes(cfg),
    }


def cmd_status(args: argparse.Namespace, ctx: Context) -> int:
    from . import ocr

    info = status_info(_existing_store(ctx), ctx.config)
    info["ocr_installed"] = ocr.available()
    if args.json:
        print(json.dumps(info, indent=2))
        return 0
    print(f"screen capture: {'ON' if info['enabled'] else 'off'}")
    print(f"frames stored:  {info['frames']} ({_mb(info['bytes'])})")
    print(f"today:          {info['today_frames']} frames, {_mb(info['today_bytes'])} of {_mb(info['daily_budget_bytes'])}")
    print(f"last frame:     {_when(info['last_frame_ms'])}")
    print(f"OCR:            {'installed' if info['ocr_installed'] else 'not installed (pip install filegram[ocr])'}")
    return 0


def cmd_toggle(args: argparse.Namespace, ctx: Context) -> int:
    from .settings import set_enabled

    set_enabled(_writable_store(ctx), bool(args.on))
    print(f"screen capture {'ON' if args.on else 'off'}"
          + (" (the running daemon picks this up at its next interval)" if args.on else ""))
    return 0


def cmd_capture(args: argparse.Namespace, ctx: Context) -> int:
    from .capture import ScreenRecorder

    store = _writable_store(ctx)
    rec = ScreenRecorder(store, ctx.config, home=ctx.home, roots=args.root)
    try:
        res = rec.tick()
        res["actions"] = res.get("actions", 0) + rec.flush()
    finally:
        rec.close()
    if args.json:
        print(json.dumps(res, ensure_ascii=False, indent=2, default=str))
    else:
        line = res["result"]
        if res.get("frames"):
            line += f": frame {', '.join(map(str, res['frames']))}"
        if res.get("reason"):
            line += f" ({res['reason']})"
        print(line)
    return 0 if res["result"] != "skipped-unavailable" else 1


def cmd_frames(args: argparse.Namespace, ctx: Context) -> int:
    from . import store as frames

    store = _existing_store(ctx)
    if store is None:
        found: list[dict[str, Any]] = []
    elif args.session:
        from filegram.commands import resolve_session

        sid = resolve_session(store, args.session)["id"]
        found = frames.frames_for_session(store, sid)[-args.limit:][::-1]
    else:
        found = frames.recent_frames(store, args.limit)
    if args.json:
        print(json.dumps(found, ensure_ascii=False, indent=2))
        return 0
    if not found:
        print("no frames stored")
        return 0
    for f in found:
        print(f"#{f['id']:<6} {_when(f['ts'])}  mon {f['monitor']}  {f['width']}x{f['height']}  "
              f"{f['bytes'] / 1024:.0f} KB  {(f.get('window_title') or '')[:50]}")
    return 0


def cmd_export(args: argparse.Namespace, ctx: Context) -> int:
    from pathlib import Path

    from filegram.errors import FileGramError

    from . import store as frames

    store = _existing_store(ctx)
    frame = frames.get_frame(store, args.frame_id) if store is not None else None
    if frame is None:
        raise FileGramError(f"no frame {args.frame_id} (see `filegram screen frames`)")
    out = Path(args.out)
    try:
        out.write_bytes(frame["image"])
    except OSError as exc:
        raise FileGramError(f"cannot write {out}: {exc.strerror}") from exc
    print(f"wrote frame {args.frame_id} ({frame['format']}, {frame['width']}x{frame['height']}) to {out}", file=sys.stderr)
    return 0


def cmd_prune(args: argparse.Namespace, ctx: Context) -> int:
    from . import store as frames
    from .settings import daily_budget_bytes, screen_settings

    cfg = screen_settings(ctx.config)
    n = frames.prune(_writable_store(ctx), daily_budget_bytes=daily_budget_bytes(cfg),
                     retention_days=float(cfg["retention_days"]))
    print(f"pruned {n} frames")
    return 0


def status_extra(ctx: Context) -> dict[str, object]:
    """Merged into `filegram status`: whether the screen is recorded and when it last was."""
    try:
        info = status_info(_existing_store(ctx), ctx.config)
    except Exception:  # noqa: BLE001 - status must never fail because of the screen
        return {}
    return {
        "screen capture": "on" if info["enabled"] else "off",
        "screen frames": info["frames"],
        "last screen frame": _when(info["last_frame_ms"]),
    }
