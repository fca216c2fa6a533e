"""`filegram record`: record file-system activity in the foreground (the daemon wraps the
same Recorder). Imports only argparse-level things at load."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from filegram.cli import Context

    from .recorder import Recorder


def register(sub: Any) -> None:
    p = sub.add_parser(
        "record",
        help="record what you do in folders into the store (foreground; Ctrl-C stops)",
        description="Record file-system activity under the given folders as FileGram actions. "
        "Sessions close after an idle gap and when recording stops.",
    )
    p.add_argument("--root", action="append", metavar="DIR", help="folder to record (repeatable; default: recorder.roots in the config)")
    p.add_argument("--for", dest="seconds", type=float, metavar="SECONDS", help="stop after this many seconds")
    p.add_argument("--quiet", action="store_true", help="print nothing but errors")
    p.set_defaults(func=cmd_record)


def cmd_record(args: argparse.Namespace, ctx: Context) -> int:
    from filegram.errors import FileGramError

    from .recorder import record

    roots = args.root or ctx.config["recorder"]["roots"]
    if not roots:
        raise FileGramError("nothing to record: give --root DIR (or set recorder.roots in the config)")
    from filegram.config import check_root

    for root in roots:
        check_root(root)
    if args.seconds is not None and args.seconds <= 0:
        raise FileGramError("--for must be a positive number of seconds")
    store = ctx.store()

    def started(rec: Recorder) -> None:
        if args.quiet:
            return
        st = rec.stats()
        print(f"recording {', '.join(st['roots'])} (session {rec.session_id[:8]}); Ctrl-C stops", file=sys.stderr, flush=True)
        for msg in st["messages"]:
            print(f"filegram: warning: {msg}", file=sys.stderr)
        if st["unavailable_types"]:
            print(f"not visible on this platform: {', '.join(st['unavailable_types'])}", file=sys.stderr)

    stats = record(store, roots, ctx.config, args.seconds, home=ctx.home, on_start=started)
    if not args.quiet:
        print(
            f"stored {stats['stored']} actions (dropped {stats['dropped']}, errors {stats['errors']}, "
            f"overflow rescans {stats['rescans']}, bulk summaries {stats['bulk_summaries']})",
            flush=True,
        )
    return 0 if stats["errors"] == 0 else 1


def status_extra(ctx: Context) -> dict[str, object]:
    """Merged into `filegram status`: which action types this platform cannot see."""
    from .platforms import unavailable_types

    return {"unavailable action types": unavailable_types()}
