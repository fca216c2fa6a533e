"""What a search command line asks: which tool, which query, over which folders.

The recorder sees a search as a process (see procs) and needs its meaning: `grep -rn
budget projects` searches file contents under projects/ for "budget"; `find . -name
'*.md'` searches names. The parser knows each tool's options that take a value, so an
option's argument is never taken for the pattern.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

# Program name -> FileGram search_type.
SEARCH_TOOLS: dict[str, str] = {
    "grep": "grep",
    "egrep": "grep",
    "fgrep": "grep",
    "rg": "grep",
    "ag": "grep",
    "ack": "grep",
    "ack-grep": "grep",
    "git": "grep",  # only `git grep`
    "find": "find",
    "fd": "find",
    "fdfind": "find",
    "locate": "locate",
    "plocate": "locate",
    "mlocate": "locate",
}

# Options that take a value, per tool family (the value is not the pattern).
_GREP_VALUE_OPTS = {
    "-f", "--file", "-m", "--max-count", "-A", "--after-context", "-B", "--before-context",
    "-C", "--context", "-d", "--directories", "-D", "--devices", "--include", "--exclude",
    "--exclude-dir", "--exclude-from", "--label", "--color", "--colour", "-g", "--glob",
    "-t", "--type", "-T", "--type-not", "-j", "--threads", "-M", "--max-columns",
    "--max-depth", "--ignore-file", "-E", "--encoding", "--pre", "--sort", "--sortr",
}
_GREP_PATTERN_OPTS = {"-e", "--regexp"}
_FIND_NAME_TESTS = {"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname"}


@dataclass
class SearchSpec:
    pid: int
    tool: str
    search_type: str
    query: str | None
    paths: list[str]  # absolute scope paths
    cwd: str
    argv: list[str]
    t_start: float
    ignore_case: bool = False
    fixed: bool = False
    name_test: str | None = None  # for find: -name / -iname / -path ...
    extra: dict[str, object] = field(default_factory=dict)


_LOCATE_VALUE_OPTS = {"-l", "-n", "--limit"}


def _parse_locate(tool: str, args: list[str], cwd: str, argv: list[str], pid: int, t_start: float) -> SearchSpec:
    """locate [-d DB] [-l N] PATTERN...: the query is the first pattern, never the value of
    an option (`-d ../locate.db` names the database, not what is looked for). locate reads
    only its database: the database files are kept in extra["databases"] (see
    searches.ActiveSearch.covers)."""
    pos: list[str] = []
    dbs: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            pos.extend(args[i + 1 :])
            break
        if a in ("-d", "--database") and i + 1 < len(args):
            dbs.extend(args[i + 1].split(":"))
            i += 2
            continue
        if a.startswith("--database="):
            dbs.extend(a.split("=", 1)[1].split(":"))
        elif a.startswith("-d") and not a.startswith("--") and len(a) > 2:
            dbs.extend(a[2:].split(":"))
        elif a in _LOCATE_VALUE_OPTS:
            i += 2
            continue
        elif not a.startswith("-"):
            pos.append(a)
        i += 1
    return SearchSpec(pid, tool, "locate", pos[0] if pos else None, [cwd], cwd, argv, t_start,
                      extra={"databases": [_abs(d, cwd) for d in dbs if d]})


def parse_search(argv: list[str], cwd: str, pid: int = 0, t_start: float = 0.0) -> SearchSpec | None:
    """Understand a search tool's command line; None if it is not a search."""
    if not argv:
        return None
    tool = os.path.basename(argv[0])
    stype = SEARCH_TOOLS.get(tool)
    if stype is None:
        return None
    args = argv[1:]
    if tool == "git":
        # git [-C dir] grep ...
        i = 0
        while i < len(args) and args[i].startswith("-"):
            if args[i] == "-C" and i + 1 < len(args):
                cwd = os.path.join(cwd, args[i + 1])
                i += 2
                continue
            i += 1
        if i >= len(args) or args[i] != "grep":
            return None
        args = args[i + 1 :]
    if stype == "find" and tool == "find":
        paths: list[str] = []
        i = 0
        while i < len(args) and not args[i].startswith(("-", "(", "!", ")", ",")):
            paths.append(args[i])
            i += 1
        # the query: what it looks for by name (-name / -iname first, then -path ...),
        # never a negated test (`-not -path './code/*'` is what it leaves out)
        tests: list[tuple[str, str]] = []
        while i < len(args):
            if args[i] in _FIND_NAME_TESTS and i + 1 < len(args):
                negated = i > 0 and args[i - 1] in ("-not", "!")
                pruned = i + 2 < len(args) and args[i + 2] == "-prune"
                if not negated and not pruned:
                    tests.append((args[i], args[i + 1]))
                i += 2
                continue
            i += 1
        best = next((t for t in tests if t[0] in ("-name", "-iname")), tests[0] if tests else None)
        name_test, query = best if best is not None else (None, None)
        if not paths:
            paths = ["."]
        # `find tmp -name '*.tmp' -delete` is cleanup, not a search: its walk is still its
        # own (claimed, see searches), but only its deletes are recorded
        extra: dict[str, object] = {"deletes": True} if "-delete" in args else {}
        return SearchSpec(pid, tool, "find", query, [_abs(p, cwd) for p in paths], cwd, argv, t_start,
                          name_test=name_test, extra=extra)
    if tool in ("fd", "fdfind"):
        return _parse_fd(tool, args, cwd, argv, pid, t_start)
    if stype == "locate":
        return _parse_locate(tool, args, cwd, argv, pid, t_start)
    # grep family and fd
    pattern: str | None = None
    positional: list[str] = []
    ignore_case = fixed = False
    recursive = tool in ("rg", "ag", "ack", "ack-grep", "git", "fd", "fdfind")
    value_letters = "fmABCdD" if tool in ("grep", "egrep", "fgrep", "git") else "fmABCgtTjEMd"
    extended = tool not in ("grep", "fgrep", "git")  # rg, ag, ack, fd and egrep: extended syntax
    i = 0
    only_positional = False
    while i < len(args):
        a = args[i]
        if only_positional or not a.startswith("-") or a == "-":
            positional.append(a)
        elif a == "--":
            only_positional = True
        elif a in _GREP_PATTERN_OPTS:
            if i + 1 < len(args):
                pattern = pattern or args[i + 1]
            i += 1
        elif a.startswith("--regexp="):
            pattern = pattern or a.split("=", 1)[1]
        elif a.startswith("--"):
            name = a.split("=", 1)[0]
            if name in ("--ignore-case",):
                ignore_case = True
            elif name in ("--fixed-strings",):
                fixed = True
            elif name in ("--extended-regexp", "--perl-regexp"):
                extended = True
            elif name in ("--recursive", "--dereference-recursive"):
                recursive = True
            if "=" not in a and name in _GREP_VALUE_OPTS:
                i += 1
        else:
            letters = a[1:]
            for k, ch in enumerate(letters):
                if ch == "i":
                    ignore_case = True
                elif ch == "F":
                    fixed = True
                elif ch in "EP" and tool in ("grep", "egrep", "fgrep", "git"):
                    extended = True
                elif ch in "rR":
                    recursive = True
                elif ch == "e":
                    rest = letters[k + 1 :]
                    if rest:
                        pattern = pattern or rest
                    elif i + 1 < len(args):
                        pattern = pattern or args[i + 1]
                        i += 1
                    break
                elif ch in value_letters:
                    if not letters[k + 1 :] and i + 1 < len(args):
                        i += 1
                    break
        i += 1
    if pattern is None and positional:
        pattern = positional.pop(0)
    if tool == "fgrep":
        fixed = True
    if not positional:
        positional = ["."] if recursive else []
    stype_out = "find" if tool in ("fd", "fdfind") else "grep"
    return SearchSpec(
        pid, tool, stype_out, pattern, [_abs(p, cwd) for p in positional], cwd, argv, t_start,
        ignore_case=ignore_case, fixed=fixed, extra={"recursive": recursive, "extended": extended},
    )


_FD_VALUE_OPTS = {"-e", "--extension", "-t", "--type", "-E", "--exclude", "-d", "--max-depth", "--min-depth",
                  "--exact-depth", "-S", "--size", "--changed-within", "--changed-before", "--change-newer-than",
                  "--change-older-than", "-o", "--owner", "-j", "--threads", "-c", "--color", "--base-directory",
                  "--path-separator", "--max-results", "--ignore-file", "--search-path", "--format", "--strip-cwd-prefix"}


def _parse_fd(tool: str, args: list[str], cwd: str, argv: list[str], pid: int, t_start: float) -> SearchSpec:
    """fd PATTERN [PATH...]: the pattern is the first word that is not an option or an
    option's value (fd -e md has no pattern: everything with that extension)."""
    positional: list[str] = []
    search_paths: list[str] = []
    ignore_case = False
    glob = False
    i = 0
    while i < len(args):
        a = args[i]
        name = a.split("=", 1)[0]
        if a == "--":
            positional.extend(args[i + 1 :])
            break
        if name in _FD_VALUE_OPTS and "=" not in a:
            if name == "--search-path" and i + 1 < len(args):
                search_paths.append(args[i + 1])
            i += 2
            continue
        if a.startswith("-") and a != "-":
            if a in ("-i", "--ignore-case"):
                ignore_case = True
            elif a in ("-g", "--glob"):
                glob = True
            elif a in ("-x", "--exec", "-X", "--exec-batch"):
                break  # the rest is a command
            i += 1
            continue
        positional.append(a)
        i += 1
    pattern = positional[0] if positional else None
    paths = positional[1:] + search_paths or ["."]
    return SearchSpec(pid, tool, "find", pattern, [_abs(p, cwd) for p in paths], cwd, argv, t_start,
                      ignore_case=ignore_case, extra={"recursive": True, "extended": True, "glob": glob})


def _abs(p: str, cwd: str) -> str:
    return os.path.normpath(os.path.join(cwd, os.path.expanduser(p)))
