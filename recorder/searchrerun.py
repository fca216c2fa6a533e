"""What a search matched, exactly: the recorder runs the same search again, read-only,
with its output turned into a list of files.

A search tool's output is not ours to read, and re-implementing grep's, find's, rg's and
fd's semantics (basic and extended patterns, -c/-l/-L, --include/--exclude, -not, -prune,
-path, .gitignore rules, globs) would always be a little wrong. The command line is
known, so the recorder runs it once more in the same folder, with only its output mode
changed: grep and git grep list the matching files (`-l`, or `-L` when the person asked
for files without a match), rg likewise, find prints each entry it would have printed
(`-print0`), fd and locate print NUL-separated paths. The number of distinct files is
`files_matched`.

Only commands that cannot change anything are run again: find's -delete, -exec, -ok and
-fprint*, fd's --exec and rg's --pre (a preprocessor command) make the recorder fall back
to its own evaluation (see searchmatch). A search that reads stdin is not re-run. The
re-run has a time limit; its own reads are recognised and never recorded (see searches).
"""

from __future__ import annotations

import os
import subprocess
import time
from dataclasses import dataclass

from .searchspec import SearchSpec

RERUN_TIMEOUT_S = 5.0
MAX_OUTPUT_BYTES = 64 << 20

_GREP_DROP_FLAGS = set("clLnoqbHhZTs")  # output modes; -s is re-added
_GREP_VALUE_LETTERS = "efmABCdD"
_GREP_DROP_LONG = {
    "--count", "--files-with-matches", "--files-without-match", "--line-number", "--only-matching", "--quiet",
    "--silent", "--byte-offset", "--with-filename", "--no-filename", "--null", "--initial-tab", "--line-buffered",
    "--color", "--colour", "--name-only", "--no-messages", "--show-function", "--heading", "--break", "--column",
}
_GREP_DROP_VALUE_LONG = {"--after-context", "--before-context", "--context", "--color", "--colour"}
_GREP_KEEP_VALUE_LONG = {"--regexp", "--file", "--max-count", "--directories", "--devices", "--include", "--exclude",
                         "--exclude-dir", "--exclude-from", "--label", "--binary-files", "--max-depth", "--threads"}
_RG_VALUE_LETTERS = "efgtTjmMABCErd"
_RG_DROP_FLAGS = set("clnNoqpHIb0v") - {"v"}
_RG_DROP_LONG = _GREP_DROP_LONG | {"--count-matches", "--no-line-number", "--json", "--vimgrep", "--pretty", "--no-heading",
                                   "--stats", "--trim", "--files-without-match", "--passthru", "--passthrough", "--debug"}
_RG_DROP_VALUE_LONG = {"--after-context", "--before-context", "--context", "--color", "--colors", "--replace", "-r",
                       "--path-separator", "--context-separator", "--field-match-separator", "--field-context-separator"}
_FIND_ACTIONS_WITH_ARGS = {"-printf": 1, "-fprint": 1, "-fprint0": 1, "-fls": 1, "-fprintf": 2}
_FIND_UNSAFE_EXEC = {"-exec", "-execdir", "-ok", "-okdir"}


@dataclass
class Rerun:
    argv: list[str]
    cwd: str
    base: str  # output paths are relative to this folder
    invert: bool = False  # grep -L: the files listed are those without a match


def rerun_command(spec: SearchSpec) -> Rerun | None:
    """The read-only command that lists what spec's search matched, or None."""
    argv = spec.argv
    if not argv:
        return None
    tool = os.path.basename(argv[0])
    try:
        if tool in ("grep", "egrep", "fgrep"):
            return _grep(spec, argv)
        if tool == "git":
            return _git_grep(spec, argv)
        if tool == "rg":
            return _rg(spec, argv)
        if tool in ("fd", "fdfind"):
            return _fd(spec, argv)
        if tool == "find":
            return _find(spec, argv)
        if tool in ("locate", "plocate", "mlocate"):
            return Rerun([argv[0], "-0", *argv[1:]], spec.cwd, spec.cwd)
    except (IndexError, ValueError):
        return None
    return None


def _grep(spec: SearchSpec, argv: list[str]) -> Rerun | None:
    out = [argv[0]]
    invert_files = False
    positional: list[str] = []
    has_pattern_opt = False
    args = argv[1:]
    i = 0
    only_positional = False
    while i < len(args):
        a = args[i]
        if only_positional or a == "-" or not a.startswith("-"):
            positional.append(a)
        elif a == "--":
            only_positional = True
        elif a.startswith("--"):
            name, eq, _ = a.partition("=")
            if name == "--files-without-match":
                invert_files = True
            elif name in ("--regexp", "--file"):
                has_pattern_opt = True
            if name in _GREP_DROP_VALUE_LONG and not eq and name not in ("--color", "--colour"):
                i += 1  # --context 3
            elif name in _GREP_DROP_LONG or name in _GREP_DROP_VALUE_LONG:
                pass
            else:
                out.append(a)
                if not eq and name in _GREP_KEEP_VALUE_LONG and i + 1 < len(args):
                    out.append(args[i + 1])
                    i += 1
        else:
            letters = a[1:]
            kept = ""
            for k, ch in enumerate(letters):
                if ch in _GREP_VALUE_LETTERS:
                    rest = letters[k + 1 :]
                    value = rest if rest else (args[i + 1] if i + 1 < len(args) else "")
                    if not rest:
                        i += 1
                    if ch in "ABC":
                        break  # context lines: output only
                    if ch in "ef":
                        has_pattern_opt = True
                    if kept:
                        out.append("-" + kept)
                        kept = ""
                    out.extend(["-" + ch, value])
                    break
                if ch == "L":
                    invert_files = True
                if ch not in _GREP_DROP_FLAGS:
                    kept += ch
            if kept:
                out.append("-" + kept)
        i += 1
    files = positional if has_pattern_opt else positional[1:]
    if "-" in files or (not files and not spec.extra.get("recursive")):
        return None  # it read stdin
    out += ["-L" if invert_files else "-l", "-Z", "-s", "--", *([] if has_pattern_opt else positional[:1]), *files]
    return Rerun(out, spec.cwd, spec.cwd, invert_files)


def _git_grep(spec: SearchSpec, argv: list[str]) -> Rerun | None:
    k = argv.index("grep")
    head, rest = argv[:k], argv[k + 1 :]
    base = spec.cwd
    for j, a in enumerate(head):
        if a == "-C" and j + 1 < len(head):
            base = os.path.normpath(os.path.join(base, head[j + 1]))
    out = [*head, "--no-pager", "grep", "--no-color"]
    invert = False
    i = 0
    while i < len(rest):
        a = rest[i]
        if a == "--":
            out.extend(rest[i:])
            break
        if a.startswith("--"):
            name = a.split("=", 1)[0]
            if name == "--files-without-match":
                invert = True
            if name in ("--count", "--files-with-matches", "--files-without-match", "--name-only", "--line-number",
                        "--only-matching", "--quiet", "--null", "--heading", "--break", "--show-function",
                        "--column", "--color", "--full-name"):
                i += 1
                continue
            if name in ("--after-context", "--before-context", "--context", "--open-files-in-pager") and "=" not in a:
                i += 2
                continue
        elif a.startswith("-") and len(a) > 1 and not a[1:].isdigit():
            letters = a[1:]
            kept = ""
            for k2, ch in enumerate(letters):
                if ch in "efmABCO":
                    tail = letters[k2 + 1 :]
                    if ch == "O":
                        break  # open in a pager: its argument is attached, if any
                    if ch in "ABC":
                        if not tail:
                            i += 1
                        break
                    if kept:
                        out.append("-" + kept)
                        kept = ""
                    out.append("-" + ch + tail)
                    if not tail and i + 1 < len(rest):
                        out.append(rest[i + 1])
                        i += 1
                    break
                if ch == "L":
                    invert = True
                if ch not in "clLnoqhHzWp":
                    kept += ch
            if kept:
                out.append("-" + kept)
            i += 1
            continue
        out.append(a)
        i += 1
    g = out.index("grep") + 1
    if "--no-index" in rest:
        out[g:g] = ["-L" if invert else "-l", "-z"]
        return Rerun(out, spec.cwd, base, invert)
    out[g:g] = ["-L" if invert else "-l", "-z", "--full-name"]
    return Rerun(out, spec.cwd, _git_top(base), invert)


def _rg(spec: SearchSpec, argv: list[str]) -> Rerun | None:
    out = [argv[0]]
    invert = False
    listing = False
    args = argv[1:]
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            out.extend(args[i:])
            break
        if a.startswith("--"):
            name, eq, _ = a.partition("=")
            if name == "--pre":
                return None  # runs a command of the person's choosing
            if name == "--files":
                listing = True
            if name == "--files-without-match":
                invert = True
            if name in _RG_DROP_VALUE_LONG:
                i += 1 if eq else 2
                continue
            if name in _RG_DROP_LONG:
                i += 1
                continue
            out.append(a)
            if not eq and name in ("--regexp", "--file", "--glob", "--iglob", "--type", "--type-not", "--max-count",
                                   "--max-depth", "--max-filesize", "--threads", "--encoding", "--sort", "--sortr",
                                   "--ignore-file", "--type-add", "--engine", "--max-columns") and i + 1 < len(args):
                out.append(args[i + 1])
                i += 1
        elif a.startswith("-") and len(a) > 1:
            letters = a[1:]
            kept = ""
            for k, ch in enumerate(letters):
                if ch in _RG_VALUE_LETTERS:
                    tail = letters[k + 1 :]
                    if ch in "ABCr":
                        if not tail:
                            i += 1
                        break
                    if kept:
                        out.append("-" + kept)
                        kept = ""
                    out.append("-" + ch + tail)
                    if not tail and i + 1 < len(args):
                        out.append(args[i + 1])
                        i += 1
                    break
                if ch not in _RG_DROP_FLAGS:
                    kept += ch
            if kept:
                out.append("-" + kept)
        else:
            out.append(a)
        i += 1
    if not listing:
        out.insert(1, "--files-without-match" if invert else "--files-with-matches")
    out.insert(1, "--null")
    out.insert(1, "--no-config")
    return Rerun(out, spec.cwd, spec.cwd, invert)


def _fd(spec: SearchSpec, argv: list[str]) -> Rerun | None:
    out = [argv[0]]
    for a in argv[1:]:
        name = a.split("=", 1)[0]
        if name in ("-x", "--exec", "-X", "--exec-batch"):
            return None
        if name in ("-l", "--list-details", "-0", "--print0") or name.startswith("--color") or name == "-c":
            continue
        out.append(a)
    out.insert(1, "--color=never")
    out.insert(1, "-0")
    return Rerun(out, spec.cwd, spec.cwd)


def _find(spec: SearchSpec, argv: list[str]) -> Rerun | None:
    out = [argv[0]]
    i = 1
    while i < len(argv) and argv[i] in ("-H", "-L", "-P") or (i < len(argv) and argv[i].startswith("-D")):
        out.append(argv[i])
        i += 1
    while i < len(argv) and not argv[i].startswith(("-", "(", "!", ")", ",")):
        out.append(argv[i])  # starting points
        i += 1
    expr: list[str] = []
    has_action = False
    while i < len(argv):
        a = argv[i]
        if a in _FIND_UNSAFE_EXEC:
            # -exec cmd {} ; : what reached it is what it matched
            j = i + 1
            while j < len(argv) and argv[j] not in (";", "+"):
                j += 1
            expr.append("-print0")
            has_action = True
            i = j + 1
            continue
        if a == "-delete":
            return None  # the matches are gone: counted from the deletes instead
        if a in _FIND_ACTIONS_WITH_ARGS:
            expr.append("-print0")
            has_action = True
            i += 1 + _FIND_ACTIONS_WITH_ARGS[a]
            continue
        if a in ("-print", "-print0", "-ls"):
            expr.append("-print0")
            has_action = True
            i += 1
            continue
        if a in ("-quit",):
            expr.append(a)
            i += 1
            continue
        expr.append(a)
        i += 1
    if has_action:
        out += expr
    elif expr:
        out += ["(", *expr, ")", "-print0"]
    else:
        out.append("-print0")
    return Rerun(out, spec.cwd, spec.cwd)


def _git_top(start: str) -> str:
    p = start
    while True:
        if os.path.exists(os.path.join(p, ".git")):
            return p
        parent = os.path.dirname(p)
        if parent == p:
            return start
        p = parent


@dataclass
class RerunResult:
    paths: list[str]  # absolute, distinct, in output order
    pid: int
    t_start: float  # epoch ms
    t_end: float


def run(rerun: Rerun, *, timeout: float = RERUN_TIMEOUT_S) -> RerunResult | None:
    """Run the listing command; None if it failed to run, timed out or reported an
    error it could not recover from (grep exit 2 with nothing listed)."""
    env = dict(os.environ, LC_ALL="C", GIT_OPTIONAL_LOCKS="0", GIT_PAGER="cat", GIT_TERMINAL_PROMPT="0")
    t0 = time.time() * 1000.0
    try:
        proc = subprocess.Popen(rerun.argv, cwd=rerun.cwd, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    except OSError:
        return None
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return None
    t1 = time.time() * 1000.0
    if proc.returncode not in (0, 1) and not out:
        return RerunResult([], proc.pid, t0, t1) if proc.returncode == 2 else None
    seen: dict[str, None] = {}
    for name in out[:MAX_OUTPUT_BYTES].split(b"\0"):
        if not name:
            continue
        p = os.path.normpath(os.path.join(rerun.base, os.fsdecode(name)))
        seen.setdefault(p, None)
    return RerunResult(list(seen), proc.pid, t0, t1)
