"""Every `filegram` subcommand, nested ones too, has help text and is documented in README.md
or docs/*.md (sqlite-utils' tests/test_docs.py is the model): a command added without a line
in the docs fails here."""

from __future__ import annotations

import argparse
import functools
import itertools
import re
from pathlib import Path

import pytest

from filegram.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

# `filegram screen status|on|off` (in a table the bar is written \|) documents three commands.
WORD = r"[a-z][a-z0-9_-]*"
MENTION = re.compile(rf"filegram((?:[ ]+{WORD}(?:\\?\|{WORD})*){{1,3}})")


def subcommands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], str | None]]:
    """(command path, help text) for every subcommand under parser, depth first."""
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, sub in action.choices.items():
                out.append(((*path, name), helps.get(name)))
                out.extend(subcommands(sub, (*path, name)))
    return out


@functools.cache
def documented() -> set[tuple[str, ...]]:
    """Every command path the docs mention, with each `a|b` alternative expanded."""
    paths: set[tuple[str, ...]] = set()
    for doc in DOCS:
        for m in MENTION.finditer(doc.read_text(encoding="utf-8")):
            tokens = [re.split(r"\\?\|", t) for t in m.group(1).split()]
            for combo in itertools.product(*tokens):
                for n in range(1, len(combo) + 1):
                    paths.add(combo[:n])
    return paths


COMMANDS = subcommands(build_parser())


def test_the_walk_finds_nested_commands() -> None:
    names = {path for path, _help in COMMANDS}
    assert ("trace", "show") in names and ("config", "set") in names and len(names) > 20


@pytest.mark.parametrize(("path", "help_text"), COMMANDS, ids=[" ".join(p) for p, _h in COMMANDS])
def test_command_has_help_and_docs(path: tuple[str, ...], help_text: str | None) -> None:
    assert help_text and help_text.strip(), f"`filegram {' '.join(path)}` has no help text"
    assert path in documented(), (
        f"`filegram {' '.join(path)}` is not mentioned in README.md or docs/*.md"
    )
