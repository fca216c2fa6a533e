"""The `filegram` command. Each package contributes its subcommands from its own `cli.py`
(a `register(subparsers)` function), so the packages stay independent and `--help` stays
fast: command modules import only argparse at load and their heavy code when run.
"""

from __future__ import annotations

import argparse
import importlib
import sqlite3
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .config import Config, Home
from .errors import FileGramError

if TYPE_CHECKING:
    from .store import Store

COMMAND_MODULES: tuple[str, ...] = (
    "filegram.commands",
    "filegram.sync.cli",
    "filegram.recorder.cli",
    "filegram.memory.cli",
    "filegram.simulator.cli",
    "filegram.bench.cli",
    "filegram.daemon.cli",
    "filegram.daemon.assist.cli",
    "filegram.recorder.screen.cli",
)


@dataclass
class Context:
    """What every command gets: the home folder, the config and the store, opened lazily."""

    home: Home
    _config: Config | None = None
    _store: Store | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def config(self) -> Config:
        if self._config is None:
            self._config = self.home.load_config()
        return self._config

    def store(self, *, readonly: bool = False) -> Store:
        if self._store is None:
            self._store = self.home.open_store(readonly=readonly)
        return self._store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None


def command_modules() -> list[ModuleType]:
    return [importlib.import_module(name) for name in COMMAND_MODULES]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="filegram",
        description="FileGram: a local-first memory of how you work, learned from what you do on disk.",
    )
    parser.add_argument(
        "--home",
        metavar="DIR",
        help="folder for config, database and logs (env FILEGRAM_HOME; default: the platform's user data folder)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for mod in command_modules():
        mod.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    ctx = Context(home=Home.resolve(args.home))
    try:
        result = args.func(args, ctx)
        return int(result or 0)
    except FileGramError as exc:
        print(f"filegram: error: {exc}", file=sys.stderr)
        return 2
    except sqlite3.DatabaseError as exc:  # a damaged file found after it opened: one line too
        from .store.database import damaged_message, is_damaged

        msg = damaged_message(ctx.home.db_path, exc) if is_damaged(exc) else f"database error: {exc}"
        print(f"filegram: error: {msg}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("filegram: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    finally:
        ctx.close()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
