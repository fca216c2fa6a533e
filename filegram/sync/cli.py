"""`filegram sync [--dir SHARED]`, `filegram sync key show|import` (imports its code when run)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..cli import Context


def register(sub: Any) -> None:
    p = sub.add_parser("sync", help="share sessions with your other devices through a folder they already sync (encrypted)",
                       description="Append this device's new sessions to its own encrypted log in SHARED and "
                                   "apply what the other devices' logs hold. Needs: pip install 'filegram[sync]'.")
    p.add_argument("--dir", metavar="SHARED", default=None,
                   help="the shared folder (default: [sync] dir in the config)")
    p.add_argument("--json", action="store_true", help="print what was sent and received as JSON")
    p.set_defaults(func=cmd_sync)
    ksub = p.add_subparsers(dest="sync_command", metavar="SUBCOMMAND")
    k = ksub.add_parser("key", help="show this device's sync key, or import the one your other devices use")
    kk = k.add_subparsers(dest="key_command", metavar="ACTION", required=True)
    s = kk.add_parser("show", help="print the sync key (made on first use) on the last line")
    s.set_defaults(func=cmd_key_show)
    i = kk.add_parser("import", help="use the sync key of your other devices on this one")
    i.add_argument("key", metavar="KEY", help="the last line of `filegram sync key show` on another device")
    i.set_defaults(func=cmd_key_import)


# Who syncs for the CLI when a daemon records this home: named as a string (the daemon lives
# above the core), as filegram.forget names its forget. The daemon replays other devices'
# forgets with its recorder paused; synced from a second process, a replayed forget could
# delete the recorder's open session under it.
DAEMON_SYNC = "filegram.daemon.client:sync_through_daemon"


def sync_through_daemon(ctx: Context, shared: str | None) -> dict[str, Any] | None:
    from filegram.daemonhook import run_in_daemon

    return run_in_daemon(DAEMON_SYNC, ctx.home, shared)


def cmd_sync(args: argparse.Namespace, ctx: Context) -> int:
    from pathlib import Path

    from .engine import run_sync

    def warn(msg: str) -> None:
        print(f"filegram: warning: {msg}", file=sys.stderr)

    shared = str(Path(args.dir).expanduser().resolve()) if args.dir else None
    result = sync_through_daemon(ctx, shared)
    if result is not None:
        for msg in result.get("warnings", []):
            warn(msg)
        result["through_daemon"] = True
    else:
        result = {**run_sync(ctx.home, ctx.config, ctx.store(), shared, warn=warn).as_dict(), "through_daemon": False}
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return 0
    if result["created_key"]:
        print("made a new sync key for this device: run `filegram sync key show` and import it on your "
              "other devices (`filegram sync key import KEY`)")
    s, r = result["sent"], result["received"]
    sent = f"sent {s['sessions']} sessions, {s['actions']} actions, {s['blobs']} snapshots, {s['forgets']} forgets"
    got = (f"received {r['sessions']} sessions, {r['actions']} actions, {r['blobs']} snapshots, {r['forgets']} forgets"
           + (f" from {', '.join(r['devices'])}" if r["devices"] else ""))
    print(f"synced '{result['device']}' through {result['shared']}: {sent}; {got}"
          + (f"; replayed {result['forgets_applied']} forgets" if result["forgets_applied"] else "")
          + (f"; {s['withheld']} actions on excluded paths kept here" if s["withheld"] else "")
          + (f"; {result['waiting']} files not complete yet" if result["waiting"] else "")
          + f" ({result['seconds']:.1f} s{', by the running daemon' if result['through_daemon'] else ''})")
    return 0


def cmd_key_show(args: argparse.Namespace, ctx: Context) -> int:
    from .keys import create_key, key_text, load_key

    key = load_key(ctx.home)
    if key is None:
        key = create_key(ctx.home)
        print("made a new sync key for this device.")
    print("Anyone with this key and the shared folder can read your sessions: keep it like a password.")
    print("On each of your other devices run: filegram sync key import KEY")
    print(key_text(key))
    return 0


def cmd_key_import(args: argparse.Namespace, ctx: Context) -> int:
    from . import tables as sync_tables
    from .keys import key_path, load_key, parse_key, save_key
    from .tombstones import reseal

    new = parse_key(args.key)
    old = load_key(ctx.home)
    if old == new:
        print("this is already this device's sync key")
        return 0
    if old is not None:
        store = ctx.store()
        store.migrate(sync_tables.NAMESPACE)
        reseal(store, old, new)
    save_key(ctx.home, new)
    print(f"imported the sync key into {key_path(ctx.home)}"
          + ("; this device's log is written again with it at the next sync" if old is not None else ""))
    return 0


def status_extra(ctx: Context) -> dict[str, object]:
    """`filegram status`: when this device last synced, and through which folder."""
    try:
        store = ctx.store()
        last = store.get_state("sync:last_run_ms")
        folder = str(ctx.config["sync"]["dir"]).strip()
    except Exception:  # noqa: BLE001 - status must never fail because of sync
        return {}
    if last is None and not folder:
        return {}
    return {"sync_last_run_ms": last, "sync_dir": folder or "(given with --dir)"}
