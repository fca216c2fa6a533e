"""Interpreters and the script each one runs: `python3 gen.py`, `bash x.sh`, `node build.js`.

An interpreter opens its script to run it. inotify reports that open like any other, and
without knowing who opened it the recorder took it for the person reading gen.py. The
process helper reports an interpreter that runs a script file (see procs), and this module
says which file that is, so that the read is the program's (tools.ToolRuns.interpreter_reading,
settle.finish_read): `program` the interpreter, `program_kind` "script", `authored` false,
as the files a script writes are (scripts).

A script run through its shebang line (`./build.py`) is the same interpreter under the
script's name: the process helper knows it by its program file (procs._runs_interpreter),
and its command line (`/usr/bin/python3 ./build.py`) names the script as above.

The modules a script loads are the interpreter's reads too: `import helpers` opens
helpers.py next to the script, `source lib.sh` opens lib.sh. A file in the interpreter's
own language (module_suffixes) under the script's folder or the folder it was started in,
read while it runs, is the program's (the same), and so is Python's
listing of those folders (its import system lists sys.path[0], the script's folder, on the
first import that is not built in). `python3 -c ...`, `python3 -m pkg`, `bash -c ...` and
an interactive shell run no script file and take none of this; the other files a script
opens (its data) are its work only when something else says so (a burst of new files, see
scripts).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass

PYTHONS = re.compile(r"^(python|pypy)(\d+(\.\d+)?)?$")
SHELLS = re.compile(r"^(?:sh|bash|dash|zsh|ksh|mksh|fish)$")
OTHERS = re.compile(r"^(?:node|nodejs|ruby|php|lua|Rscript|tclsh)$")  # perl is a row of the table


@dataclass(frozen=True)
class _Family:
    value_opts: tuple[str, ...]  # options that take the next word as their value (never the script)
    no_script: str  # option letters after which no script file runs (code given inline, a module, stdin)
    no_script_long: tuple[str, ...] = ()


_PYTHON = _Family(("-W", "-X", "--check-hash-based-pycs"), "cm")
_SHELL = _Family(("-o", "-O", "+o", "+O", "--rcfile", "--init-file"), "cs")
_OTHER = _Family(("-r", "--require", "-I", "--import", "--loader", "-d", "-f"), "ep", ("--eval", "--print"))


_SUFFIXES = (
    (PYTHONS, (".py",)),
    (SHELLS, (".sh", ".bash")),
    (re.compile(r"^(?:node|nodejs)$"), (".js", ".mjs", ".cjs", ".json")),
    (re.compile(r"^ruby$"), (".rb",)),
    (re.compile(r"^php$"), (".php", ".inc")),
    (re.compile(r"^lua$"), (".lua",)),
    (re.compile(r"^Rscript$"), (".R", ".r")),
    (re.compile(r"^tclsh$"), (".tcl",)),
)


def module_suffixes(name: str) -> tuple[str, ...]:
    """The file names an interpreter loads as code (its modules, sourced files): what it
    reads of its own language is running the program, not the person reading."""
    for rx, suffixes in _SUFFIXES:
        if rx.match(name):
            return suffixes
    return ()


def is_interpreter(name: str) -> bool:
    """A program that runs a script file it is given (its 15-byte kernel name will do)."""
    return bool(PYTHONS.match(name) or SHELLS.match(name) or OTHERS.match(name))


def script_index(argv: Sequence[str]) -> int | None:
    """The index in argv of the script file an interpreter's command line runs, or None
    (not an interpreter, or no script file: `-c`, `-m`, stdin, an interactive shell)."""
    if not argv:
        return None
    name = os.path.basename(argv[0])
    if PYTHONS.match(name):
        fam = _PYTHON
    elif SHELLS.match(name):
        fam = _SHELL
    elif OTHERS.match(name):
        fam = _OTHER
    else:
        return None
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--":
            i += 1
            break
        if a in fam.no_script_long or (a.startswith("-") and not a.startswith("--")
                                       and any(c in fam.no_script for c in a[1:])):
            return None  # python3 -c CODE, python3 -im pkg, bash -xc CMD, node -e CODE
        if a in fam.value_opts:
            i += 2
            continue
        if a.startswith(("-", "+")) and len(a) > 1:
            i += 1
            continue
        break
    if i >= len(argv) or argv[i] in ("-", ""):
        return None
    return i


def script_of(argv: Sequence[str], cwd: str) -> str | None:
    """The absolute path of the script file an interpreter's command line runs, or None
    (not an interpreter, or no script file: `-c`, `-m`, stdin, an interactive shell)."""
    i = script_index(argv)
    if i is None:
        return None
    return os.path.normpath(os.path.join(cwd, os.path.expanduser(argv[i])))
