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
from typing import TYPE_CHECKING, Any, NoReturn

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


class CommandParser(argparse.ArgumentParser):
    """argparse with FileGram's error form: one line naming the command, exit 2 (not the
    top-level usage for a mistake in a subcommand's options)."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("filegram").strip()
        print(f"filegram: error: {command + ': ' if command else ''}{message} (see `{self.prog} --help`)",
              file=sys.stderr)
        sys.exit(2)


def leaf_parser(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The (sub)command parser the arguments were parsed by: `filegram trace show` -> show's."""
    while True:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        name = getattr(args, subs[0].dest, None) if subs else None
        if not subs or name not in subs[0].choices:
            return parser
        parser = subs[0].choices[name]


def unknown_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace, extras: list[str]) -> str:
    """The one line for arguments no command takes, with the nearest option when one is near."""
    import difflib

    leaf = leaf_parser(parser, args)
    command = leaf.prog.removeprefix("filegram").strip()
    where = f"{command}: " if command else ""
    option = next((e.split("=", 1)[0] for e in extras if e.startswith("-")), None)
    if option is not None:
        known = [o for a in leaf._actions for o in a.option_strings if a.help != argparse.SUPPRESS]
        near = difflib.get_close_matches(option, known, n=1, cutoff=0.6)
        hint = f" (did you mean {near[0]}?)" if near else f" (see `{leaf.prog} --help`)"
        return f"{where}unknown option {option}{hint}"
    return f"{where}unexpected argument {' '.join(extras)} (see `{leaf.prog} --help`)"


def build_parser() -> argparse.ArgumentParser:
    parser = CommandParser(
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
    args, extras = parser.parse_known_args(argv)
    if extras:
        print(f"filegram: error: {unknown_arguments(parser, args, extras)}", file=sys.stderr)
        return 2
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
