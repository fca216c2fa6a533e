"""Assistant commands: suggest, card, mcp, open. Only argparse-level imports here; the
real code loads when a command runs, so `filegram --help` stays fast.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from filegram.cli import Context

    from .facade import Assistant


def register(sub: Any) -> None:
    p = sub.add_parser("suggest", help="propose a file name and folder in your own conventions")
    p.add_argument("--name-for", required=True, metavar="TEXT",
                   help='what the file is, e.g. "patent email from May"')
    p.add_argument("--kind", metavar="KIND", help="report, notes, email, data, chart, slides, ... or an extension")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_suggest)

    p = sub.add_parser("card", help="write a Markdown working-style card for an agent's instructions")
    p.add_argument("--out", metavar="FILE", help="write to FILE instead of printing")
    p.set_defaults(func=_card)

    p = sub.add_parser("mcp", help="serve your working profile to assistants (Model Context Protocol, stdio)")
    p.set_defaults(func=_mcp)

    p = sub.add_parser("open", help="open the dashboard of the running daemon in a browser")
    p.add_argument("--print", dest="print_only", action="store_true",
                   help="print the one-time sign-in URL instead of opening a browser")
    p.set_defaults(func=_open)


def assistant_for(ctx: Context) -> Assistant:
    """An Assistant over the home's store. Memory is brought up to date first unless the
    daemon runs (it consolidates in the background; two writers would only race)."""
    from filegram.daemon.runtime import RunFiles

    from .facade import Assistant

    running = RunFiles(ctx.home.run_dir).is_locked()
    return Assistant(ctx.store(), ctx.config, consolidate=not running)


def _suggest(args: argparse.Namespace, ctx: Context) -> int:
    out = assistant_for(ctx).suggest(args.name_for, args.kind)
    if args.json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    print(out["path"])
    for r in out["reasons"]:
        print(f"  - {r}")
    if out["similar"]:
        print("  similar: " + ", ".join(out["similar"][:3]))
    return 0


def _card(args: argparse.Namespace, ctx: Context) -> int:
    text = assistant_for(ctx).card()
    if args.out:
        from pathlib import Path

        from filegram.errors import FileGramError

        path = Path(args.out).expanduser()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise FileGramError(f"cannot write {path}: {exc.strerror}") from None
        print(f"wrote {path}")
    else:
        sys.stdout.write(text)
    return 0


def _mcp(args: argparse.Namespace, ctx: Context) -> int:
    from .mcp_server import serve_stdio

    return serve_stdio(assistant_for(ctx))


def _open(args: argparse.Namespace, ctx: Context) -> int:
    from filegram.daemon.client import login_url
    from filegram.daemon.desktop import open_and_report
    from filegram.daemon.runtime import RunFiles

    files = RunFiles(ctx.home.run_dir)
    url = login_url(files)
    if args.print_only:
        print(url)
        return 0
    opened, how = open_and_report(url)
    # A sign-in link works once: the browser's is spent, so the link to type is a fresh one.
    spare = login_url(files)
    if opened:
        print(f"asked your desktop to open the dashboard ({how}).")
        print(f"No window? Open this link by hand within a minute (it works once):\n  {spare}")
        return 0
    print(f"could not open a browser: {how}.", file=sys.stderr)
    print(f"Open this link by hand within a minute (it works once):\n  {spare}")
    return 1
