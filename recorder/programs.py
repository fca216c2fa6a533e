"""The table of programs: which process did a file operation, and whether the person
authored it.

inotify never says who opened a file; the process table does (see procs). Each row says
what a program is (an archiver, a version-control tool, an editor ...), how its file
activity is recorded, and whether the person authored it:

* tool rows (`authored=False`): archive extraction and creation, version control,
  package managers, build tools, indexers. Everything they do under their scope while
  they run is ONE summary per action type (a `file_write` / `dir_create` /
  `file_delete` summary with `bulk_count`, or a `file_browse` summary when they only
  looked), never per-file writes, reads, listings, context switches or references,
  whatever the count.
* authored rows: shell utilities (cp, mv, rm, mkdir, sed ...), readers (cat, less ...)
  and editors. Their actions are the person's and only gain a `program`; a recursive
  copy or removal (`cp -r`, `rm -r`) is one summary of the folder.

Editors are authored, but their housekeeping (listing the folder on open and save, swap,
backup and lock files) is not recorded at all.

The table is extensible from the config: `[recorder] tool_programs = ["rsync",
"borg extract", "syncthing:indexer", "micro:editor"]` (see parse_extra). This module is
pure (no I/O beyond `os.path` checks when a scope is resolved) so that the process
helper can use it to decide which processes to report.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from filegram.config import TOOL_PROGRAM_KINDS

from .interpreters import PYTHONS, is_interpreter, script_index

# kind -> authored. "search" runs come from searchspec (grep, find ...): the person's.
AUTHORED_KINDS = {"shell": True, "reader": True, "editor": True, "search": True}
BUILD_KIND = "build"
TOOL_KINDS = ("archive", "vcs", "package", BUILD_KIND, "indexer", "tool")
assert set(TOOL_KINDS) | set(AUTHORED_KINDS) - {"search"} >= set(TOOL_PROGRAM_KINDS)
# `program_kind` values inferred from what happened: a burst of new files by a program the
# table does not list (scripts), a partial download renamed onto its name (downloads). Never
# authored; a config row cannot name them (TOOL_PROGRAM_KINDS). The built-in rows of the
# command-line downloaders (curl, wget) are of the download kind too.
SCRIPT_KIND = "script"
DOWNLOAD_KIND = "download"  # a file a browser saved (see downloads)
INFERRED_KINDS = (SCRIPT_KIND, DOWNLOAD_KIND)
assert not set(INFERRED_KINDS) & (set(TOOL_PROGRAM_KINDS) | set(AUTHORED_KINDS))


@dataclass(frozen=True)
class Rule:
    """One row: `names` are globs on the program name (argv[0]'s base name, or the
    16-byte kernel name); `subcommands` narrows the row to some first arguments (git
    status ...), `not_subcommands` excludes some (git grep is a search)."""

    names: tuple[str, ...]
    kind: str
    does: str  # what it does, for the documentation table
    subcommands: tuple[str, ...] = ()
    not_subcommands: tuple[str, ...] = ()
    scope: str = "cwd"  # cwd | repo | all: where its file activity is looked for
    resident: bool = False  # a daemon: its activity is followed by its I/O counters
    recursive_flags: tuple[str, ...] = ()  # authored utilities: these make it one summary
    kinds: tuple[str, ...] = ()  # what it can do (empty: anything): mv makes no folders
    quiet_reads: bool = False  # its reads and listings in its scope are housekeeping: not recorded

    @property
    def authored(self) -> bool:
        return AUTHORED_KINDS.get(self.kind, False)

    @property
    def summarised(self) -> bool:
        # a download program's files are received one by one, with their content (see RULES)
        return not self.authored and self.kind != DOWNLOAD_KIND


_SHELL = "shell"
_READER = "reader"
READER_KIND = _READER  # readers and viewers (cat, less, jq ...): they write nothing themselves
_EDITOR = "editor"

RULES: tuple[Rule, ...] = (
    # --- tools: one summary per operation, never authored --------------------------------
    Rule(("tar", "bsdtar", "gtar"), "archive", "extract / create archives"),
    Rule(("unzip", "zip", "7z", "7za", "7zr", "7zz", "unrar", "rar", "cpio", "ar", "ark", "file-roller"), "archive",
         "extract / create archives"),
    Rule(("gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd", "lz4", "pigz", "lzma", "unlzma"), "archive",
         "compress / decompress files"),
    Rule(("git",), "vcs", "version control (status, checkout, stash, merge, pull, clone, commit, add ...)",
         not_subcommands=("grep", "mv", "rm"), scope="repo"),
    Rule(("hg", "svn", "bzr", "fossil", "darcs", "jj"), "vcs", "version control", scope="repo"),
    Rule(("pip", "pip3", "pip3.*", "pipx", "uv", "poetry", "pdm", "conda", "mamba", "micromamba", "virtualenv",
          "venv", "ensurepip"), "package", "Python packages and environments (also python -m pip / venv)"),
    Rule(("npm", "npx", "pnpm", "yarn", "bun", "cargo", "rustup", "apt", "apt-get", "dpkg", "aptitude", "gem",
          "bundle", "composer", "brew", "go", "opam", "cabal", "stack", "nix", "flatpak", "snap"), "package",
         "package managers and toolchains"),
    Rule(("make", "gmake", "cmake", "ninja", "meson", "gcc", "g++", "cc", "c++", "clang", "clang++", "ld",
          "rustc", "javac", "mvn", "gradle", "tsc", "webpack", "esbuild", "vite", "pytest", "py.test", "tox",
          "nox", "mypy", "ruff", "latexmk", "pdflatex", "xelatex", "lualatex", "bibtex", "biber",
          "sphinx-build", "mkdocs", "pandoc", "jupyter-nbconvert", "compileall"), BUILD_KIND,
         "build, test and typeset (pytest caches, object files, PDFs)"),
    Rule(("tracker-miner-f*", "tracker-extract*", "localsearch*", "baloo_file*", "recollindex"), "indexer",
         "desktop search indexers (read what changed)", scope="all", resident=True),
    Rule(("updatedb", "updatedb.*", "mlocate", "plocate-build"), "indexer", "locate's database", scope="all"),
    Rule(("rclone", "unison"), "tool", "sync tools"),
    # --- received, not written: per-file actions with their content, authored: false -----
    # `curl -o x URL`, `wget URL`: the person asked for the file, they did not write it (as
    # a browser's download, see downloads). Before, curl and wget were no rows and what they
    # saved was the person's own new file. Per file, not one summary: the file is the
    # person's to read and edit next, so its snapshot is kept, as a browser's download's is.
    Rule(("curl", "wget", "wget2", "aria2c", "axel"), DOWNLOAD_KIND, "download files (received, not written)"),
    # --- authored: the person's own acts ------------------------------------------------
    Rule(("git",), _SHELL, "git mv / git rm: the person's own move or removal (git's own reads not recorded)",
         subcommands=("mv", "rm"), scope="repo", quiet_reads=True),
    Rule(("cp",), _SHELL, "copy (cp -r of a folder: one file_copy summary)", recursive_flags=("r", "R", "a", "recursive", "archive"),
         kinds=("read", "create", "modify", "dir", "browse")),
    Rule(("rm",), _SHELL, "remove (rm -r of a folder: one file_delete summary)", recursive_flags=("r", "R", "recursive"),
         kinds=("delete", "dir_delete", "browse")),
    # rsync typed by the person copies, as cp does (`rsync -a src/ dst/` is one folder copy):
    # the person's act, not a sync tool's work (it was a tool row: one summary of new files,
    # not authored). Its deletes (--delete) stay per file, the person's.
    Rule(("rsync",), _SHELL, "copy (rsync -a of a folder: one file_copy summary)",
         recursive_flags=("r", "a", "recursive", "archive")),
    Rule(("mv", "rename"), _SHELL, "move and rename", kinds=("modify", "create", "delete")),
    Rule(("mkdir", "rmdir"), _SHELL, "make and remove folders", kinds=("dir", "dir_delete")),
    Rule(("touch", "ln", "install", "truncate", "tee", "dd", "sed", "perl", "awk", "gawk", "mawk", "patch",
          "chmod"), _SHELL, "shell file utilities"),
    # the person's SQL changes their database: its writes are theirs (its journal, WAL and
    # shared-memory files are SQLite's housekeeping, never recorded: dbfiles)
    Rule(("sqlite3",), _SHELL, "SQL on a database file (journal, WAL, shared memory not recorded)"),
    Rule(("cat", "less", "more", "most", "head", "tail", "bat", "batcat", "wc", "diff", "cmp", "nl", "sort",
          "uniq", "cut", "column", "xxd", "hexdump", "od", "file", "jq", "yq", "csvlook", "glow", "mdcat"), _READER,
         "readers and viewers"),
    Rule(("vim", "vi", "nvim", "view", "vimdiff", "gvim", "nano", "pico", "rnano", "emacs", "emacs-*", "emacsclient",
          "micro", "hx", "helix", "kak", "joe", "jed", "mcedit", "ne", "gedit", "gnome-text-edit*", "kate", "kwrite",
          "mousepad", "pluma", "xed", "leafpad", "featherpad", "geany", "code", "codium", "code-oss", "subl",
          "sublime_text", "zed", "soffice", "soffice.bin", "libreoffice", "abiword", "gnumeric"), _EDITOR,
         "editors: real saves authored; listings, swap, backup and lock files not recorded"),
)

# PYTHONS: python, python3, python3.11, pypy3 (interpreters, which says what script each runs)

# Web browsers, by family (the partial-download names they write, see downloads). They are
# no rows of the table: a browser runs all day and writes its caches constantly, so it covers
# nothing and claims nothing; a running one only names a download it finished (a partial
# file renamed onto its final name), and only one of the family that writes that partial.
BROWSERS: dict[str, tuple[str, ...]] = {
    "chromium": ("chrome", "google-chrome*", "chromium", "chromium-browse*", "msedge", "microsoft-edge*",
                 "brave", "brave-browser*", "vivaldi", "vivaldi-bin"),
    "opera": ("opera", "opera-*"),
    "firefox": ("firefox", "firefox-*", "firefox.real", "GeckoMain", "librewolf*", "waterfox*", "icecat"),
    "safari": ("Safari", "safari"),
}
_BROWSER_RES = [(family, re.compile("|".join(f"(?:{fnmatch.translate(n)})" for n in names)))
                for family, names in BROWSERS.items()]


def browser_family(name: str | None) -> str | None:
    """The browser family of a program name (also its 15-byte kernel name), or None."""
    if not name:
        return None
    for family, rx in _BROWSER_RES:
        if rx.match(name):
            return family
    return None
_SUBCOMMAND_RE = re.compile(r"^[a-z][a-z0-9-]{0,23}$")
# Sub-command words shown in `command` (never other arguments: they can be names).
KNOWN_SUBCOMMANDS = frozenset(
    "status checkout switch stash merge pull push fetch clone commit add reset restore rebase cherry-pick "
    "revert log diff show init branch tag mv rm am apply bisect blame clean gc worktree submodule lfs "
    "archive export import update up install uninstall upgrade ci run build test sync remove lock exec "
    "download wheel freeze list check publish new fmt pop drop create extract pack".split()
)


@dataclass(frozen=True)
class Classified:
    """What one process is: its row, the program name shown in the trace, and the
    command words (program and sub-command only, never paths or other arguments)."""

    rule: Rule
    program: str
    command: str
    args: tuple[str, ...]  # the arguments after the program (and after `-m module`)


@dataclass
class ProgramTable:
    rules: tuple[Rule, ...] = RULES
    _compiled: list[tuple[re.Pattern[str], Rule]] = field(default_factory=list, init=False, repr=False)
    _comm: re.Pattern[str] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self._compiled = [(re.compile("|".join(f"(?:{fnmatch.translate(n)})" for n in r.names)), r) for r in self.rules]
        # the kernel keeps 15 bytes of a program's name
        pats = {n for r in self.rules for n in r.names} | {n[:15] for r in self.rules for n in r.names}
        self._comm = re.compile("|".join(f"(?:{fnmatch.translate(p)})" for p in sorted(pats)))

    @classmethod
    def with_extra(cls, extra: Iterable[str]) -> ProgramTable:
        """The built-in table with the config's rows first (they win)."""
        return cls(tuple(parse_extra(extra)) + RULES)

    def watches(self, comm: str) -> bool:
        """Should the process helper look at a process of this kernel name?"""
        assert self._comm is not None
        return bool(self._comm.match(comm)) or is_interpreter(comm)

    def classify(self, argv: Sequence[str], comm: str | None = None) -> Classified | None:
        """The row of a command line (None: not in the table). A script run by its
        interpreter (`python3 /env/bin/pip install`, as a shebang line runs it) and
        `python -m module` are classified by the script or module."""
        if comm and " " in comm.strip():
            comm = comm.split()[0]  # a retitled process (see below): "npm install" -> npm
        if len(argv) == 1 and " " in argv[0].strip() and os.sep not in argv[0].split()[0]:
            # A node program that set its title (npm sets process.title to `npm install`)
            # leaves that title as its whole command line, one string: its words are the
            # program and its sub-command.
            argv = argv[0].split()
        if not argv:
            if comm:
                return self._match(comm, ())
            return None
        name = os.path.basename(argv[0])
        args = tuple(argv[1:])
        if PYTHONS.match(name):
            i = 0
            while i < len(args) and args[i].startswith("-") and args[i] != "-m":
                i += 2 if args[i] in ("-W", "-X", "-c") else 1
            if i < len(args) and args[i] == "-m" and i + 1 < len(args):
                module = args[i + 1].split(".")[0]
                c = self._match(module, args[i + 2 :])
                return Classified(c.rule, c.program, f"python -m {c.command}", c.args) if c else None
            if i < len(args) and not args[i].startswith("-"):
                return self._match(os.path.basename(args[i]), args[i + 1 :])
            return None
        if name == "env":  # `#!/usr/bin/env node`: the command after env's options and assignments
            i = 0
            while i < len(args) and (args[i].startswith("-") or "=" in args[i]):
                i += 2 if args[i] in ("-u", "--unset", "-C", "--chdir") else 1
            return self.classify(args[i:], comm) if i < len(args) else None
        i = script_index(argv)
        if i is not None:
            # Any interpreter running a script (`bash x.sh`, and what a shebang line runs:
            # `node /usr/bin/npm install`, `ruby /usr/bin/gem install`) is classified by the
            # script, as Python's are above. npm is a node script: it was never recognised, and
            # everything `npm install` wrote was the person's writing.
            script = os.path.basename(argv[i])
            rest = argv[i + 1 :]
            return (self._match(script, rest) or self._match(_launcher(script), rest)
                    or (self._match(comm, rest) if comm and comm != name else None))
        return self._match(name, args) or (self._match(comm, args) if comm and comm != name else None)

    def _match(self, name: str, args: Sequence[str]) -> Classified | None:
        sub = _subcommand(args)
        for rx, rule in self._compiled:
            if not rx.match(name):
                continue
            if rule.subcommands and sub not in rule.subcommands:
                continue
            if sub is not None and sub in rule.not_subcommands:
                continue
            command = f"{name} {sub}" if sub in KNOWN_SUBCOMMANDS else name
            if name in ("tar", "bsdtar", "gtar"):
                command = f"tar {_tar_mode(args)}".rstrip()
            return Classified(rule, name, command, tuple(args))
        return None


_LAUNCHER_RE = re.compile(r"(?:-cli)?\.(?:js|cjs|mjs|rb)$")


def _launcher(script: str) -> str:
    """The program a launcher script stands for: npm-cli.js -> npm, pnpm.cjs -> pnpm."""
    return _LAUNCHER_RE.sub("", script)


def _subcommand(args: Sequence[str]) -> str | None:
    """The first word that looks like a sub-command (git *status*, pip *install*)."""
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-C", "-c", "--git-dir", "--work-tree", "-R", "--repository", "--cwd", "--prefix"):
            i += 2
            continue
        if a.startswith("-"):
            i += 1
            continue
        return a if _SUBCOMMAND_RE.match(a) else None
    return None


def _tar_mode(args: Sequence[str]) -> str:
    for a in args:
        if a in ("--extract", "--get"):
            return "x"
        if a in ("--create",):
            return "c"
        if a in ("--list",):
            return "t"
        if a.startswith("--"):
            continue
        letters = a.lstrip("-")
        for m in "xct":
            if m in letters:
                return m
        if letters and not a.startswith("-"):
            break
    return ""


def parse_extra(entries: Iterable[str]) -> list[Rule]:
    """Rows from the config: "NAME [SUBCOMMAND ...][:KIND]". NAME is a glob on the program
    name; KIND one of TOOL_PROGRAM_KINDS (default "tool"). An "indexer" is followed by
    its I/O counters (it runs all the time)."""
    out = []
    for entry in entries:
        spec, _, kind = entry.partition(":")
        kind = kind.strip() or "tool"
        words = spec.split()
        if not words:
            continue
        name, subs = words[0], tuple(words[1:])
        out.append(Rule((name,), kind, "from the config", subcommands=subs,
                        scope="all" if kind == "indexer" else "cwd", resident=kind == "indexer"))
    return out


# -- scopes ---------------------------------------------------------------------------------

# Options that name the folder a program works in (tar -C, unzip -d, make -C, pip --target).
_DIR_OPTS: dict[str, tuple[str, ...]] = {
    "tar": ("-C", "--directory"), "bsdtar": ("-C", "--directory"), "gtar": ("-C", "--directory"),
    "unzip": ("-d",), "make": ("-C", "--directory"), "gmake": ("-C", "--directory"), "ninja": ("-C",),
    "cmake": ("-B", "-S"), "git": ("--work-tree",), "pip": ("--target", "-t", "--prefix", "--root"),
    "pip3": ("--target", "-t", "--prefix", "--root"), "npm": ("--prefix",), "yarn": ("--cwd",),
    "pnpm": ("--dir", "-C"),
    "updatedb": ("-U", "--database-root"), "updatedb.plocate": ("-U", "--database-root"),
}


def told_folders(c: Classified, cwd: str) -> list[str]:
    """The folders a command line tells the program to work in (tar -C, updatedb -U ...)."""
    opts = _DIR_OPTS.get(c.program, ())
    out = []
    args = list(c.args)
    for i, a in enumerate(args):
        if a in opts and i + 1 < len(args):
            out.append(_abs(args[i + 1], cwd))
        elif "=" in a and a.split("=", 1)[0] in opts:
            out.append(_abs(a.split("=", 1)[1], cwd))
    return out


def scope_of(c: Classified, cwd: str, argv0: str | None = None) -> list[str]:
    """Folders where the program's file activity is looked for: its working folder (or
    the folder it is told to work in: tar -C, unzip -d, 7z -o, make -C, git -C), the
    repository for version control, the environment a script belongs to (a venv's pip
    installs into the venv) and the existing paths its command line names."""
    base = cwd
    out: list[str] = []
    args = list(c.args)
    opts = _DIR_OPTS.get(c.program, ())
    for i, a in enumerate(args):
        if c.program == "git" and a == "-C" and i + 1 < len(args):
            base = _abs(args[i + 1], base)
        elif a in opts and i + 1 < len(args):
            out.append(_abs(args[i + 1], base))
        elif "=" in a and a.split("=", 1)[0] in opts:
            out.append(_abs(a.split("=", 1)[1], base))
        elif c.program.startswith("7z") and a.startswith("-o") and len(a) > 2:
            out.append(_abs(a[2:], base))
    out.append(_repo_top(base) if c.rule.scope == "repo" else base)
    if argv0 and os.sep in argv0:
        env = os.path.dirname(os.path.dirname(_abs(argv0, cwd)))  # <env>/bin/pip
        if os.path.isfile(os.path.join(env, "pyvenv.cfg")):
            out.append(env)
    for a in args:  # existing paths named on the command line (tar xf ../pkg.tar)
        if a.startswith("-") or not a or len(a) > 4096:
            continue
        p = _abs(a, base)
        if os.path.lexists(p):
            out.append(p)
    return list(dict.fromkeys(out))


def named_paths(c: Classified, cwd: str) -> list[str]:
    """The paths a command line names (absolute; they need not exist any more)."""
    out = []
    after_dashdash = False
    for a in c.args:
        if a == "--":
            after_dashdash = True
            continue
        if (a.startswith("-") and not after_dashdash) or not a or len(a) > 4096:
            continue
        if a == c.command.split(" ")[-1] and c.command != c.program:
            continue  # the sub-command word
        out.append(_abs(a, cwd))
    return out


def is_recursive(c: Classified) -> bool:
    flags = c.rule.recursive_flags
    if not flags:
        return False
    for a in c.args:
        if a == "--":
            break
        if a.startswith("--"):
            if a[2:] in flags:
                return True
        elif a.startswith("-") and any(f in a[1:] for f in flags if len(f) == 1):
            return True
    return False


def repository_top(start: str) -> str | None:
    """The top of the version-controlled tree holding start (git, hg, svn), or None."""
    p = start
    while True:
        if os.path.exists(os.path.join(p, ".git")) or os.path.isdir(os.path.join(p, ".hg")) or os.path.isdir(os.path.join(p, ".svn")):
            return p
        parent = os.path.dirname(p)
        if parent == p:
            return None
        p = parent


def _repo_top(start: str) -> str:
    return repository_top(start) or start


def _abs(p: str, cwd: str) -> str:
    return os.path.normpath(os.path.join(cwd, os.path.expanduser(p)))


def documentation_rows(table: ProgramTable | None = None) -> list[tuple[str, str, str, str]]:
    """(programs, kind, what it does, how it is recorded) for docs/recorder.md."""
    rows = []
    for r in (table or ProgramTable()).rules:
        names = ", ".join(r.names)
        if r.subcommands:
            names += " (" + ", ".join(r.subcommands) + ")"
        if r.not_subcommands:
            names += " (not " + ", ".join(r.not_subcommands) + ")"
        if r.authored:
            how = "authored; " + ("a recursive run is one summary" if r.recursive_flags else
                                  "housekeeping not recorded" if r.kind == "editor" else "per-file actions")
        elif not r.summarised:
            how = "per-file actions with their content, authored: false"
        else:
            how = "one summary per action type, authored: false" + ("; followed by its I/O" if r.resident else "")
        rows.append((names, r.kind, r.does, how))
    return rows
