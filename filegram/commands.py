"""Core subcommands: status, sessions, trace, config, import, export."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser("config", help="show the configuration or its path")
    p.add_argument("what", choices=["show", "path"])
    p.set_defaults(func=_config)


def _config(args: argparse.Namespace, ctx: Any) -> int:
    if args.what == "path":
        print(ctx.home.config_path)
        return 0
    ctx.config  # writes defaults on first run
    print(ctx.home.config_path.read_text(encoding="utf-8"), end="")
    return 0
