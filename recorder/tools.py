"""Provenance: which program did an action, whether the person authored it, and the one
summary a tool's work becomes.

The process helper (see procs) reports every run of a program of the table (see
programs) with its working folder, command line, parent and real start time. A run
*covers* a path at a time when the time falls in its life (for a resident indexer: next
to a move of its I/O counters) and the path lies in its scope. When several runs cover
an event the most specific wins: a run whose command line names the path (or a folder
above it) beats one whose working folder merely holds it, and the latest start breaks
ties; an editor covers only what it names or what its swap and lock files point at, so a
shell redirect next to an open vim is not vim's.

* A tool run (archiver, version control, package manager, build, indexer) *claims* what
  it covers: the events are counted (the file model stays exact, by stat only, and no
  content is read) and become, when the run ends, one summary per action type with
  `bulk_count`, `program`, `command` and `"authored": false`. Children of a tool run
  (make's compilers, pip's build backend, git's helpers) count as the parent's.
* A recursive copy or removal (`cp -r`, `rm -r`) claims what it does under the folders
  it names and becomes one authored `file_copy` / `file_delete` of the folder.
* Any other action gets the program that covers it (`"cp"`, `"vim"`, `"cat"` ... or null
  when no known program did it: a shell redirection, a script) and `"authored": true`.

Events may arrive before the run that made them is known (a 3 ms `tar x` is over before
the helper has read its command line), so claims are checked three times: when the
event comes in, when it settles, and once more on the finished action.
"""

from __future__ import annotations

import os
import re
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from filegram.naming import backup_of, looks_like_backup, looks_temporary
from filegram.schema import depth_of, dir_depth_of, file_type_of

from .bulk import BULK_WINDOW_MS
from .interpreters import module_suffixes, script_of
from .output import Output
from .paths import RootSet, under
from .pending import Pending
from .procs import ProcInfo
from .programs import (
    PYTHONS,
    READER_KIND,
    Classified,
    ProgramTable,
    browser_family,
    is_recursive,
    named_paths,
    repository_top,
    scope_of,
    told_folders,
)
from .state import FileInfo, FileState

START_SLACK_MS = 30.0  # the kernel's start time has a 10 ms tick
# How long an exit notice may take (the scan's interval, the recorder's marker, a busy
# machine) before settle takes a vanished process as ended without one.
EXIT_NOTICE_WAIT_MS = 3000.0
END_GRACE_MS = 400.0  # events observed this long after a run ended can still be its own
RESIDENT_BEFORE_MS = 400.0  # a resident indexer's read shows in its I/O counters this much later
RESIDENT_AFTER_MS = 150.0
RESIDENT_QUIET_MS = 2000.0  # an indexer's burst of reads is one summary
EDITOR_LOOK_MS = 1000.0  # an editor lists its folder this close to its start or its swap file
AUTHORED_CWD_MS = 5000.0  # `cat > report.md`: a utility naming no file owns its folder this long
MAX_RUNS = 512
MAX_TRACKED = 20_000  # paths remembered per run (created / deleted, to net them out)
TOOL_MADE_KEPT = 20_000
FALLBACK_AUTHORED = {"file_copy": True, "file_delete": True}  # a rate-based summary, program unknown

# what an action means for a run's tally
_KIND_OF_ACTION = {
    "file_read": "read", "file_browse": "browse", "file_edit": "modify", "dir_create": "dir",
    "file_delete": "delete", "file_rename": "modify", "file_move": "modify", "file_copy": "create",
}
_MAIN_PATH = {
    "file_read": "file_path", "file_browse": "directory_path", "file_write": "file_path", "file_edit": "file_path",
    "file_rename": "new_path", "file_move": "new_path", "dir_create": "dir_path", "file_delete": "file_path",
    "file_copy": "dest_path",
}


@dataclass
class Tally:
    """What a summarised run did, per kind, with the folder it happened in."""

    t_first: float | None = None
    counts: dict[str, int] = field(default_factory=dict)  # create, modify, delete, dir, read, browse
    tops: dict[str, str] = field(default_factory=dict)  # kind -> common folder (absolute)
    firsts: dict[str, str] = field(default_factory=dict)  # kind -> the first path (for a count of one)
    created: set[str] = field(default_factory=set)
    deleted: set[str] = field(default_factory=set)
    modified: set[str] = field(default_factory=set)
    made_root: bool = False  # cp -r: the destination folder itself was created by the run
    by_child: dict[str, int] = field(default_factory=dict)  # cp -r: files per entry below the destination
    root: str | None = None  # cp -r: the destination whose entries by_child counts

    def add_many(self, kind: str, folder: str, t: float, n: int) -> None:
        """n events of one kind somewhere under folder (a rate-based summary joining)."""
        if n <= 0:
            return
        if self.t_first is None or t < self.t_first:
            self.t_first = t
        self._bump(kind, n)
        top = self.tops.get(kind)
        self.tops[kind] = folder if top is None else _common(top, folder)
        self.firsts.setdefault(kind, folder)

    def add(self, kind: str, path: str, t: float, is_dir: bool = False) -> None:
        if self.t_first is None or t < self.t_first:
            self.t_first = t
        if kind == "modify" and (path in self.created or path in self.modified):
            return  # one file written in several steps is counted once
        if kind == "create" and path in self.created:
            return
        if kind == "create" and path in self.deleted:  # deleted and written again: replaced
            self.deleted.discard(path)
            self._bump("delete", -1)
            kind = "modify"
        elif kind == "delete" and path in self.created:  # the tool's own temporary file
            self.created.discard(path)
            self._bump("create", -1, path)
            return
        if kind == "create" and len(self.created) < MAX_TRACKED:
            self.created.add(path)
        elif kind == "delete" and len(self.deleted) < MAX_TRACKED:
            self.deleted.add(path)
        elif kind == "modify" and len(self.modified) < MAX_TRACKED:
            self.modified.add(path)
        self._bump(kind, 1, path)
        folder = path if is_dir or kind in ("dir", "browse") else os.path.dirname(path)
        top = self.tops.get(kind)
        if top is None:
            self.tops[kind] = folder
            self.firsts[kind] = path
        elif folder != top and not folder.startswith(top + os.sep):
            self.tops[kind] = _common(top, folder)

    def _bump(self, kind: str, n: int, path: str | None = None) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + n
        if self.root is not None and path is not None and kind in ("create", "modify") and path != self.root:
            # files per entry below a copy's destination, kept with the counts: a file counted
            # twice and then once less (seen by the walk of a new folder, then renamed into
            # place from rsync's temporary) was two files of `rsync -a photos fresh`
            child = path[len(self.root.rstrip(os.sep)) + 1 :].split(os.sep, 1)[0]
            self.by_child[child] = self.by_child.get(child, 0) + n

    def n(self, kind: str) -> int:
        return max(self.counts.get(kind, 0), 0)

    @property
    def empty(self) -> bool:
        return not any(v > 0 for v in self.counts.values())


def _common(a: str, b: str) -> str:
    try:
        return os.path.commonpath([a, b])
    except ValueError:
        return a


@dataclass
class Run:
    pid: int
    ppid: int
    c: Classified
    cwd: str
    scope: list[str]
    named: list[str]
    t_start: float
    t_end: float | None = None
    recursive: bool = False
    anonymous: bool = False
    tally: Tally = field(default_factory=Tally)
    per_target: dict[str, Tally] = field(default_factory=dict)  # cp -r / rm -r: per named path
    activity: deque[float] = field(default_factory=lambda: deque(maxlen=256))
    last_count_t: float = 0.0
    t_gone: float | None = None  # when settle first found /proc/<pid> gone (no exit notice yet)
    end_guessed: bool = False  # t_end is settle's guess; the exit notice, when it comes, wins

    @property
    def program(self) -> str:
        return self.c.program

    @property
    def claims(self) -> bool:
        return self.c.rule.summarised or self.recursive

    @property
    def is_editor(self) -> bool:
        return self.c.rule.kind == "editor"

    def alive_at(self, t: float) -> bool:
        if t < self.t_start - START_SLACK_MS:
            return False
        return self.t_end is None or t <= self.t_end + END_GRACE_MS

    def active_at(self, t: float) -> bool:
        """A resident indexer acts only when its I/O counters move."""
        for a in reversed(self.activity):
            if a - RESIDENT_BEFORE_MS <= t <= a + RESIDENT_AFTER_MS:
                return True
            if a < t - RESIDENT_AFTER_MS:
                break
        return False


@dataclass
class Unlisted:
    """A run of a program the table does not list (python3 gen.py, a web browser): it covers
    and claims nothing; it only names the burst of new files a script writes (scripts) or a
    download a browser finished (downloads)."""

    pid: int
    program: str
    t_start: float
    t_end: float | None = None
    family: str | None = None  # a browser's family (programs.BROWSERS); None: an interpreter
    script: str | None = None  # the script file an interpreter runs (interpreters.script_of)
    code_folders: tuple[str, ...] = ()  # where its modules are: the script's folder, its cwd
    read: set[str] = field(default_factory=set)  # what it read, stored once (the kernel opens a
    # shebang script for exec, then the interpreter opens it again)

    def alive_at(self, t: float) -> bool:
        return self.t_start - START_SLACK_MS <= t and (self.t_end is None or t <= self.t_end + END_GRACE_MS)

    def loads(self, path: str) -> bool:
        """Could path be a module this interpreter's script loads (its language, its folders)?"""
        suffixes = module_suffixes(self.program)
        return bool(suffixes) and path.endswith(suffixes) and any(under(path, f) for f in self.code_folders)


def _ctime_ms(path: str) -> float | None:
    """When the file last changed (ctime, which no program can set back), or None."""
    try:
        return os.stat(path, follow_symlinks=False).st_ctime_ns / 1e6
    except OSError:
        return None


class ToolRuns:
    """The runs of programs of the table, what they cover, and their summaries."""

    def __init__(self, roots: RootSet, state: FileState, pending: Pending, output: Output, *,
                 table: ProgramTable | None = None, settle_ms: float = 400.0):
        self.roots = roots
        self.state = state
        self.pending = pending
        self.output = output
        self.table = table or ProgramTable()
        self.settle_ms = settle_ms
        self.runs: list[Run] = []
        self.by_pid: dict[int, Run] = {}  # a tool's children count as the tool
        self.summaries = 0
        self.claimed = 0
        self.tool_made: OrderedDict[str, str] = OrderedDict()  # path -> program (for was_temporary)
        # editors' signatures: swap, lock and backup files (folder / file -> last time)
        self.artifact_dirs: dict[str, float] = {}
        self.artifact_files: dict[str, float] = {}
        self._repo_folders: dict[str, bool] = {}  # folder -> inside a repository (see _in_repo)
        self.unlisted: dict[int, Unlisted] = {}  # pid -> an interpreter running an unlisted script

    def __len__(self) -> int:
        """Runs holding a tally not yet summarised."""
        return sum(1 for r in self.runs if r.claims and (not r.tally.empty or r.per_target))

    # -- processes ------------------------------------------------------------------------

    def tool_ancestor(self, info: ProcInfo) -> Run | None:
        """The tool run a process was started by (directly, or through a shell)."""
        for pid in info.ancestors or [info.ppid]:
            run = self.by_pid.get(pid)
            if run is not None and run.c.rule.summarised:
                return run
        return None

    def started(self, info: ProcInfo) -> Run | None:
        parent = self.tool_ancestor(info)
        if parent is not None and info.pid > 0:
            self.by_pid[info.pid] = parent  # make's compiler, pip's build backend: the parent's
            return parent
        c = self.table.classify(info.argv, info.comm)
        if c is None:
            self._unlisted_started(info)
            return None
        anonymous = not info.argv
        if anonymous or c.rule.scope == "all":  # an indexer looks everywhere
            scope = [r.path for r in self.roots.roots]
            named: list[str] = []
            if not anonymous and not c.rule.resident:
                # ... unless told where: `updatedb -U DIR` indexes DIR only (another folder's
                # database build took a person's new file in a root for its own)
                scope = told_folders(c, info.cwd) or scope
        else:
            scope = scope_of(c, info.cwd, info.argv[0])
            named = named_paths(c, info.cwd)
        run = Run(info.pid, info.ppid, c, info.cwd, scope, named, info.t_start,
                  recursive=is_recursive(c), anonymous=anonymous)
        if not any(self.roots.overlapping(p) for p in scope):
            return None  # nothing it does can be under a root
        self.runs.append(run)
        if info.pid > 0:
            self.by_pid[info.pid] = run
        if run.is_editor:
            for p in [run.cwd, *[os.path.dirname(n) for n in run.named]]:
                self.artifact_dirs[p] = max(self.artifact_dirs.get(p, 0.0), run.t_start)
        if len(self.runs) > MAX_RUNS:
            for old in [r for r in self.runs if r.t_end is not None and (not r.claims or r.tally.empty)][: len(self.runs) - MAX_RUNS]:
                self._drop(old)
        return run

    def _unlisted_started(self, info: ProcInfo) -> None:
        """An interpreter running a script the table does not list (the helper reports one
        that works in a root), or a web browser: kept only to name what they leave behind,
        a burst of new files a script writes (scripts) or a download (downloads)."""
        if not info.argv or info.pid <= 0:
            return
        family = None
        name = os.path.basename(info.argv[0])
        script = script_of(info.argv, info.cwd)
        if script is not None and not self.roots.contains(script):
            script = None  # its read of the script is nowhere the recorder looks
        if not PYTHONS.match(name) and script is None:
            family = browser_family(name)
            if family is None:
                name, family = info.comm, browser_family(info.comm)
            if family is None and not PYTHONS.match(name):
                return
        folders: tuple[str, ...] = ()
        if script is not None:  # the script's folder (sys.path[0]) and where it was started
            folders = tuple(dict.fromkeys(f for f in (os.path.dirname(script), info.cwd) if self.roots.contains(f)))
        self.unlisted[info.pid] = Unlisted(info.pid, name, info.t_start, family=family, script=script,
                                           code_folders=folders)
        if len(self.unlisted) > MAX_RUNS:
            done = [p for p, u in self.unlisted.items() if u.t_end is not None]
            for p in (done or list(self.unlisted))[: len(self.unlisted) - MAX_RUNS]:
                del self.unlisted[p]

    def unlisted_program(self, t_first: float, t_last: float) -> str | None:
        """The interpreter of an unlisted script alive from t_first to t_last (the latest
        started, when several were), or None."""
        # a Python interpreter only: a shell running a script somewhere is alive all day
        # (a terminal's `bash setup.sh`, a CI runner's) and would name every burst
        return self._latest_alive(lambda u: u.family is None and PYTHONS.match(u.program) is not None, t_first, t_last)

    def interpreter_reading(self, path: str, t: float) -> Unlisted | None:
        """The interpreter that read path at t because it runs it (`python3 gen.py` opening
        gen.py) or loads it (`import helpers` opening helpers.py next to the script, `source
        lib.sh`; see interpreters), or None: that read is the program's, not the person's.
        A program of the table naming the file (`cat helpers.py`) keeps its read."""
        for u in self.unlisted.values():
            if u.alive_at(t) and (u.script == path or (u.script is not None and u.loads(path))):
                return None if self._named_by_another(path, t) else u
        return None

    def _named_by_another(self, path: str, t: float) -> bool:
        """A program of the table whose command line names the file read it (`cat build.py`
        just after the script ended, within the interpreter's grace), not the interpreter.
        Not an editor: it read the file once when it started, and stays open for hours."""
        return any(not run.anonymous and not run.is_editor and run.alive_at(t) and any(under(path, n) for n in run.named)
                   for run in self.runs)

    def import_listing(self, folder: str, t: float) -> bool:
        """A Python script's import system listing a folder its modules come from (the
        script's folder, on the first import that is not built in): the interpreter's look,
        not the person's, unless a program of the table covers it (`ls`)."""
        for u in self.unlisted.values():
            if u.script is not None and PYTHONS.match(u.program) and u.alive_at(t) \
                    and any(under(folder, f) for f in u.code_folders):
                return self.covering(folder, t, "browse") is None
        return False

    def browser(self, families: tuple[str, ...], t: float) -> str | None:
        """A browser of one of these families running at t (the latest started), or None."""
        return self._latest_alive(lambda u: u.family in families, t, t)

    def _latest_alive(self, wanted: Callable[[Unlisted], bool], t_first: float, t_last: float) -> str | None:
        best: Unlisted | None = None
        for u in self.unlisted.values():
            if not wanted(u) or u.t_start - START_SLACK_MS > t_first:
                continue
            if u.t_end is not None and u.t_end + END_GRACE_MS < t_last:
                continue
            if best is None or u.t_start > best.t_start:
                best = u
        return best.program if best is not None else None

    def ended(self, pid: int, t: float) -> None:
        u = self.unlisted.get(pid)
        if u is not None and u.t_end is None:
            u.t_end = t
        if pid <= 0:  # an anonymous run (see procs): the latest one still open
            for r in reversed(self.runs):
                if r.anonymous and r.t_end is None:
                    r.t_end = t
                    return
            return
        run = self.by_pid.get(pid)
        if run is None:
            return
        if run.pid == pid:
            if run.t_end is None or run.end_guessed:
                run.t_end, run.end_guessed = t, False
        else:
            del self.by_pid[pid]  # a child of a tool

    def activity(self, pid: int, t: float) -> None:
        run = self.by_pid.get(pid)
        if run is not None:
            run.activity.append(t)


    def _drop(self, run: Run) -> None:
        if run in self.runs:
            self.runs.remove(run)
        for pid in [p for p, r in self.by_pid.items() if r is run]:
            del self.by_pid[pid]

    # -- coverage ---------------------------------------------------------------------------

    def covering(self, path: str, t: float, kind: str) -> Run | None:
        """The run an event belongs to (see the module docstring), or None. kind "replace"
        is a "modify" that unlinked or renamed over the file rather than writing in place."""
        if not self.runs:
            return None
        best: Run | None = None
        best_score: tuple[int, int, int, float] = (0, 0, 0, 0.0)
        written: list[float | None] = []
        base = "modify" if kind == "replace" else kind
        for run in self.runs:
            if not run.alive_at(t):
                continue
            if run.c.rule.resident:
                if kind not in ("read", "browse") or not run.active_at(t):
                    continue
            if run.anonymous and run.c.rule.kind == READER_KIND and base not in ("read", "browse"):
                # A reader writes nothing itself (`cat a > b`: the shell the person typed in
                # writes b), and one known only by its name may be any cat on the machine.
                continue
            if run.anonymous and kind == "modify" and not self._made_since(path, run.t_start):
                # A run known only by its name may be any program anywhere on the machine
                # (an IDE's cargo, an editor's git poll): it never takes a change made in place
                # to a file that was there before it, which is how people's saves and redirects
                # write. Tools replace files (unlink and create, rename into place), and write
                # the files they make: those it may still take.
                continue
            if base == "dir" and run.cwd and under(run.cwd, path):
                # A program starts in a folder that is already there: `mkdir app && cd app &&
                # npm init`, with mkdir gone before the process scan read it, had app/ made by
                # npm (its working folder is in its scope).
                continue
            how, depth = self._score(run, path, base, t)
            if not how:
                continue
            if base in ("create", "modify", "dir"):
                # An event carries the time it was read, seconds late under a backlog: a
                # change made before the run started (by its ctime) is not the run's.
                if not written:
                    written.append(_ctime_ms(path))
                if written[0] is not None and written[0] < run.t_start - START_SLACK_MS:
                    continue
            # what names the path, then the narrowest scope, then a tool, then the latest
            score = (how, depth, int(run.claims), run.t_start)
            if score > best_score:
                best, best_score = run, score
        return best

    def _score(self, run: Run, path: str, kind: str, t_event: float) -> tuple[int, int]:
        """(3: its command line names the path, 2: its swap file does, 1: its folder
        holds it, 0: not its; the length of what matched)."""
        if run.c.rule.kinds and kind not in run.c.rule.kinds and not run.recursive:
            return 0, 0  # mv makes no folders, mkdir writes no files
        for n in run.named:
            if path == n or under(path, n):
                if run.recursive and not self._recursive_covers(run, n, path, kind):
                    continue
                return 3, len(n)
            if kind == "dir" and not run.recursive and under(n, path):
                return 3, len(path)  # mkdir -p a/b/c also made a and a/b
        if run.recursive:
            return 0, 0
        if run.anonymous and run.c.rule.scope == "repo" and not self._in_repo(path):
            # known by name only (any git on the machine: an editor polling its repository):
            # version control works inside a repository, so nothing outside one is its
            return 0, 0
        if run.is_editor:
            # an editor covers what its swap / lock files point at, never its whole folder
            t_art = self.artifact_files.get(path)
            return (2, len(path)) if t_art is not None and run.alive_at(t_art) else (0, 0)
        if run.c.rule.quiet_reads and kind in ("read", "browse"):
            depth = max((len(s) for s in run.scope if under(path, s)), default=0)
            return (1, depth) if depth else (0, 0)  # git mv refreshing its index
        if run.c.rule.authored and (run.named or t_event - run.t_start > AUTHORED_CWD_MS):
            return 0, 0  # `tail -f log` in ~ does not own every file under ~, nor a long `less`
        depth = max((len(s) for s in run.scope if under(path, s)), default=0)
        return (1, depth) if depth else (0, 0)

    def _made_since(self, path: str, t: float) -> bool:
        known = self.state.files.get(path)
        return known is not None and known.first_seen_ms >= t - START_SLACK_MS

    def _in_repo(self, path: str) -> bool:
        folder = os.path.dirname(path)
        hit = self._repo_folders.get(folder)
        if hit is None:
            hit = repository_top(folder) is not None
            if len(self._repo_folders) > 4096:
                self._repo_folders.clear()
            self._repo_folders[folder] = hit
        return hit

    def _recursive_covers(self, run: Run, named: str, path: str, kind: str) -> bool:
        """rm -r claims what it removes below a folder it names; cp -r what it reads
        below a source and what it creates below the destination."""
        if run.program == "rm" or run.c.command.startswith("git rm"):
            return path != named or kind in ("browse", "dir_delete")
        dest = run.named[-1] if len(run.named) >= 2 else None
        if dest is None:
            return False
        if named == dest:
            # and its own reads there: rsync -a opens the temporary files it writes (.f.md.XXXXXX)
            # again, which were the person's reads of vanished files
            return kind in ("create", "modify", "dir", "browse", "read")
        return kind in ("read", "browse")

    def names(self, path: str, t: float) -> bool:
        """A run whose command line names the path (or a folder above it) was alive at t:
        `cat notes.md`, `cp -r notes backup` told us what they would open."""
        return any(not run.anonymous and run.alive_at(t) and any(under(path, n) for n in run.named)
                   for run in self.runs)

    def claiming(self, path: str, t: float, kind: str) -> Run | None:
        """The covering run when it claims the event (a tool, or a recursive cp / rm; or
        the reads of an authored run that are its housekeeping, like git mv's)."""
        run = self.covering(path, t, kind)
        if run is None:
            return None
        if run.claims or (run.c.rule.quiet_reads and kind in ("read", "browse")):
            return run
        return None

    # -- counting -------------------------------------------------------------------------

    def claim(self, path: str, t: float, kind: str, *, info: FileInfo | None = None, update_state: bool = True) -> bool:
        """Count an event for the run that claims it (True), keeping the file model exact.
        kind: create, modify, replace, delete, dir, dir_delete, read, browse."""
        if not self.runs:
            return False
        run = self.claiming(path, t, kind)
        if run is None:
            return False
        self.count(run, path, t, "modify" if kind == "replace" else kind, info=info, update_state=update_state)
        return True

    def count(self, run: Run, path: str, t: float, kind: str, *, info: FileInfo | None = None,
              update_state: bool = True) -> None:
        self.claimed += 1
        run.last_count_t = max(run.last_count_t, t)
        if not run.claims:
            return  # housekeeping of an authored run: not recorded
        if update_state:
            known = self.state.files.get(path)
            if kind == "modify" and known is not None and known.first_seen_ms >= run.t_start - START_SLACK_MS \
                    and path not in run.tally.created:
                # made during this run, its creation counted elsewhere (a rate-based episode,
                # a pending change): a later write of it is not another file
                self._account(path, t, kind, info)
                return
            kind = self._account(path, t, kind, info)
            if kind == "":
                return
        if kind == "dir_delete":
            return
        if run.recursive:
            target = next((n for n in reversed(run.named) if under(path, n)), run.named[0] if run.named else path)
            tally = run.per_target.setdefault(target, Tally(root=target))
            tally.add(kind, path, t)
            if kind == "dir" and path == target:
                tally.made_root = True
            return
        run.tally.add(kind, path, t)
        if kind == "create":
            self.tool_made[path] = run.program
            if len(self.tool_made) > TOOL_MADE_KEPT:
                self.tool_made.popitem(last=False)

    def moved(self, run: Run, src: str, dest: str, t: float, *, known: bool) -> None:
        """A tool renamed a file into place (pip, git): its temporary is the file it made."""
        tally = run.tally
        if run.recursive:
            target = next((n for n in reversed(run.named) if under(dest, n)), None)
            tally = run.per_target.setdefault(target or dest, Tally(root=target or dest))
        if src in tally.created:
            tally.created.discard(src)
            if dest in tally.created:
                tally._bump("create", -1, dest)  # it replaced a file it had made itself
            else:
                tally.created.add(dest)
            return
        self.count(run, dest, t, "modify" if known else "create")

    def _account(self, path: str, t: float, kind: str, info: FileInfo | None) -> str:
        """Keep the file model exact (stat only, no content read); the kind to count."""
        st = self.state
        if kind in ("create", "modify"):
            try:
                s = os.stat(path, follow_symlinks=False)
                size, mtime = s.st_size, s.st_mtime_ns
            except OSError:
                return ""  # already gone again: its delete tells
            known = st.files.get(path)
            if known is None:
                st.put(path, FileInfo(st.new_fid(), t, size, mtime, None, False))
                kind = "create"
            else:
                known.size, known.mtime_ns, known.hash = size, mtime, None
                st.put(path, known)
                kind = "modify"
        elif kind == "delete":
            gone = st.pop(path) or info
            if gone is None:
                return ""  # never known: a temporary the tool made and removed before we looked
            st.forget(gone)
        elif kind == "dir":
            st.dirs.add(path)
        elif kind == "dir_delete":
            st.dirs.discard(path)
        self.pending.last_change_t[path] = t
        return kind

    def absorb_bulk(self, key: str, t_first: float, t_last: float, counts: dict[str, int]) -> bool:
        """A rate-based bulk episode (see bulk) that a tool run explains joins its tally:
        its events came before the run was known, or kept counting there. The run's life
        must overlap the episode (events can be read long after they happened under load)."""
        best: Run | None = None
        best_score: tuple[int, int, float] = (0, 0, 0.0)
        for run in self.runs:
            if not run.claims or run.recursive or run.c.rule.resident:
                continue
            end = run.t_end if run.t_end is not None else t_last
            if t_last < run.t_start - START_SLACK_MS or t_first > end + END_GRACE_MS:
                continue
            # A folder is declared busy within one window of the events that made it so, so
            # an episode already busy a window before the program started was someone
            # else's. A run known only by its name (gone before its command line could be
            # read) has no folder to go by: it may only take what began after it started.
            lead = START_SLACK_MS if run.anonymous else BULK_WINDOW_MS + START_SLACK_MS
            if t_first < run.t_start - lead:
                continue
            how, depth = self._score(run, key, "create", max(t_first, run.t_start))
            if how and (how, depth, run.t_start) > best_score:
                best, best_score = run, (how, depth, run.t_start)
        if best is None:
            return False
        for kind, n in counts.items():
            best.tally.add_many(kind, key, t_first, n)
        return True

    # -- editors --------------------------------------------------------------------------

    def note_artifact(self, path: str, t: float) -> None:
        """An editor's swap, lock or backup file: its folder and its file are the editor's."""
        folder, name = os.path.split(path)
        self.artifact_dirs[folder] = t
        for run in self.runs:  # the editor working there is busy (vim lists its cwd on save)
            if run.is_editor and run.alive_at(t) and (under(path, run.cwd) or any(under(path, os.path.dirname(n)) for n in run.named)):
                run.activity.append(t)
        real = _artifact_target(name)
        if real:
            self.artifact_files[os.path.join(folder, real)] = t
        if len(self.artifact_files) > 4096:
            self.artifact_files = dict(list(self.artifact_files.items())[-2048:])
        if len(self.artifact_dirs) > 4096:
            self.artifact_dirs = dict(list(self.artifact_dirs.items())[-2048:])

    def editor_backup(self, path: str, t: float) -> bool:
        """`notes.md~` written while an editor that has notes.md open runs (nano -B or its
        `set backup`, vim with backupcopy=yes): the editor's backup copy of the file it is
        saving, housekeeping like its swap file, not a backup the person made."""
        name = os.path.basename(path)
        if len(name) < 2 or not name.endswith("~") or not self.runs:
            return False
        target = path[:-1]
        return any(run.is_editor and run.alive_at(t) and self._score(run, target, "modify", t)[0] >= 2
                   for run in self.runs)

    def housekeeping_change(self, path: str, t: float) -> None:
        """An editor's backup written: the file model follows it (stat only, nothing read),
        so that the person removing it later is a delete of a known file."""
        self._account(path, t, "modify" if path in self.state.files else "create", None)

    def editor_listing(self, folder: str, t: float) -> bool:
        """A folder listing next to an editor starting or touching its swap files there:
        the editor's housekeeping, not the person's look."""
        ta = self.artifact_dirs.get(folder)
        if ta is not None and abs(t - ta) <= EDITOR_LOOK_MS:
            return True
        for run in self.runs:
            if not (run.is_editor and run.alive_at(t)):
                continue
            if folder != run.cwd and not any(os.path.dirname(n) == folder for n in run.named):
                continue
            if abs(t - run.t_start) <= EDITOR_LOOK_MS or any(abs(t - a) <= EDITOR_LOOK_MS for a in run.activity):
                return True
        return False

    # -- the trace ------------------------------------------------------------------------

    def stamp(self, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Every finished action gets its program and whether the person authored it;
        those a tool run claims (they escaped the earlier checks) join its tally."""
        out = []
        for ev in actions:
            if "authored" in ev:
                out.append(ev)
                continue
            etype = ev["event_type"]
            t = ev["timestamp"]
            if etype == "file_search":
                ev["program"] = ev.get("_tool")
                ev["authored"] = True
                out.append(ev)
                continue
            if ev.get("bulk"):
                ev["program"] = ev.get("_tool")  # a find -delete's folder (settle), else unknown
                ev["authored"] = FALLBACK_AUTHORED.get(etype, False)
                out.append(ev)
                continue
            key = _MAIN_PATH.get(etype)
            rel = ev.get(key) if key else None
            path = self.roots.abs(rel) if rel is not None else None
            kind = "create" if etype == "file_write" and ev.get("operation") == "create" else (
                "modify" if etype == "file_write" else _KIND_OF_ACTION.get(etype, "read"))
            run = self.covering(path, t, kind) if path is not None else None
            if run is not None and run.claims:
                self.count(run, path, t, kind, update_state=False)  # type: ignore[arg-type]
                continue
            # no run of the table: a cleanup find's delete names find (settle), else unknown
            ev["program"] = run.program if run is not None else ev.get("_tool")
            ev["authored"] = run.c.rule.authored if run is not None else True
            if run is not None and not run.c.rule.authored:
                ev["program_kind"] = run.c.rule.kind  # a download program's file (programs.RULES)
            if run is not None and run.is_editor:
                self.artifact_dirs[os.path.dirname(path)] = t  # type: ignore[arg-type]
            if etype == "file_delete" and path in self.tool_made and ev.get("was_temporary") is None:
                # unpacked by a tool, removed by the person: not a temporary file they made
                ev["was_temporary"] = looks_temporary(rel or "")
            out.append(ev)
        return out

    def settle(self, now: float, *, force: bool = False, bulk_open: bool = False) -> None:
        """Runs that ended (all that can, when forced) become their summaries."""
        for run in list(self.runs):
            if run.t_end is None and not run.anonymous and run.pid > 0 and (force or now - run.t_start > self.settle_ms) \
                    and not os.path.exists(f"/proc/{run.pid}"):
                # Its exit notice was missed or is late. The recorder holds a notice until the
                # program's last events have come through (Recorder._fence_end), and under load
                # those are read a second or more late: guessing at once ended cargo's run
                # before its target/ was read. So wait for the notice as long as it can take.
                if run.t_gone is None:
                    run.t_gone = now
                if force or now - run.t_gone > EXIT_NOTICE_WAIT_MS:
                    run.t_end = now if force else run.t_gone - self.settle_ms
                    run.end_guessed = True
            if run.c.rule.resident:
                if not run.tally.empty and (force or now - run.last_count_t >= RESIDENT_QUIET_MS):
                    self._emit(run)
                    run.tally = Tally()
                if run.t_end is not None and now - run.t_end > END_GRACE_MS:
                    self._drop(run)
                continue
            finish_at = END_GRACE_MS + self.settle_ms + 300.0
            if run.t_end is None or (not force and (now - run.t_end < finish_at or (bulk_open and run.claims))):
                continue
            if run.claims:
                self._emit(run)
            if force or now - run.t_end >= finish_at:
                self._drop(run)

    # -- summaries ------------------------------------------------------------------------

    def _emit(self, run: Run) -> None:
        if run.recursive:
            for target, tally in run.per_target.items():
                self._emit_recursive(run, target, tally)
            run.per_target = {}
            return
        tally = run.tally
        if tally.empty:
            return
        base: dict[str, Any] = {"bulk": True, "program": run.program, "command": run.c.command,
                                "program_kind": run.c.rule.kind, "authored": False}
        t = tally.t_first if tally.t_first is not None else run.t_start
        wrote = False
        if tally.n("dir"):
            rel = self._rel_top(tally, "dir")
            self.output.emit("dir_create", t, dir_path=rel, depth=dir_depth_of(rel if rel != "." else ""),
                             sibling_count=None, bulk_count=tally.n("dir"), **base)
            wrote = True
        for kind, op in (("create", "create"), ("modify", "overwrite")):
            n = tally.n(kind)
            if not n:
                continue
            rel = self._rel_one(tally, kind) if n == 1 else self._rel_top(tally, kind)
            self.output.emit("file_write", t, file_path=rel, file_type=file_type_of(rel) if n == 1 else None,
                             directory_depth=depth_of(rel) if n == 1 else dir_depth_of(rel if rel != "." else ""),
                             operation=op, content_length=None, before_hash=None, after_hash=None, media_ref=None,
                             bulk_count=n, **base)
            wrote = True
        if tally.n("delete"):
            n = tally.n("delete")
            rel = self._rel_one(tally, "delete") if n == 1 else self._rel_top(tally, "delete")
            self.output.emit("file_delete", t, file_path=rel, file_age_ms=None, was_temporary=False, bulk_count=n, **base)
            wrote = True
        if not wrote and (tally.n("read") or tally.n("browse")):
            tops = [tally.tops[k] for k in ("read", "browse") if k in tally.tops]
            top = tops[0] if len(tops) == 1 else _common(tops[0], tops[1])
            rel = self._rel(top)
            self.output.emit("file_browse", t, directory_path=rel, files_listed=None,
                             depth=dir_depth_of(rel if rel != "." else ""),
                             bulk_count=tally.n("read") + tally.n("browse"), **base)
        self.summaries += 1
        run.tally = Tally()

    def _emit_recursive(self, run: Run, target: str, tally: Tally) -> None:
        if tally.empty:
            return
        base: dict[str, Any] = {"bulk": True, "program": run.program, "command": run.c.command,
                                "program_kind": run.c.rule.kind, "authored": True}
        t = tally.t_first if tally.t_first is not None else run.t_start
        rel = self.roots.rel(target)
        if run.program == "rm" or run.c.command.startswith("git rm"):
            if rel is not None and tally.n("delete"):
                self.output.emit("file_delete", t, file_path=rel, file_age_ms=None,
                                 was_temporary=looks_temporary(rel), bulk_count=tally.n("delete"), **base)
                self.summaries += 1
            return
        # cp -r: the destination's tally becomes copies of the sources
        dest = run.named[-1]
        if target != dest:
            return  # a source's reads: the copy itself is told by the destination's tally
        total = tally.n("create") + tally.n("modify")
        if not total:
            return
        sources = run.named[:-1] or [dest]
        if len(sources) == 1 and dest in tally.created | tally.modified and os.path.isfile(dest):
            # `cp -a notes.md notes.bak`, `rsync -a a.md b.md`: a recursive flag on one file is
            # a plain copy of that file (it was recorded as nothing at all)
            rs, rd = self.roots.rel(sources[0]), self.roots.rel(dest)
            if rd is not None:
                if rs is None:
                    self.output.emit("file_write", t, file_path=rd, file_type=file_type_of(rd), directory_depth=depth_of(rd),
                                     operation="create", content_length=None, before_hash=None, after_hash=None,
                                     media_ref=None, program=run.program, authored=True)
                else:
                    self.output.emit("file_copy", t, source_path=rs, dest_path=rd,
                                     is_backup=looks_like_backup(rd) or backup_of(rs, rd), program=run.program,
                                     authored=True)
                self.summaries += 1
            return
        contents = _rsync_contents(run)
        for src in sources:
            name = os.path.basename(src.rstrip(os.sep))
            if (tally.made_root and len(sources) == 1 and run.program != "rsync") or src in contents:
                # cp -r photos photos-backup (a new folder); rsync -a photos/ backup/ (a source
                # named with a trailing slash: its contents go into the destination itself;
                # without it, rsync copies into dest/photos whether dest was there or not)
                dest_folder, n = dest, total
            else:
                dest_folder, n = os.path.join(dest, name), tally.by_child.get(name, 0)  # into an existing folder
                if not n:
                    continue
            rs, rd = self.roots.rel(src), self.roots.rel(dest_folder)
            if rd is None:
                continue
            if rs is None:  # brought in from outside the roots: new files the person placed here
                self.output.emit("file_write", t, file_path=rd, file_type=None, directory_depth=dir_depth_of(rd if rd != "." else ""),
                                 operation="create", content_length=None, before_hash=None, after_hash=None, media_ref=None,
                                 bulk_count=n, **base)
            else:
                self.output.emit("file_copy", t, source_path=rs, dest_path=rd,
                                 is_backup=looks_like_backup(rd) or backup_of(rs, rd), bulk_count=n, **base)
            self.summaries += 1

    def _rel_top(self, tally: Tally, kind: str) -> str:
        return self._rel(tally.tops.get(kind, ""))

    def _rel_one(self, tally: Tally, kind: str) -> str:
        """The one file a kind of the tally touched (what is left of its temporaries)."""
        left = {"create": tally.created, "modify": tally.modified, "delete": tally.deleted}.get(kind, set())
        path = next(iter(left)) if len(left) == 1 else tally.firsts.get(kind, "")
        return self.roots.rel(path) or self._rel_top(tally, kind)

    def _rel(self, path: str) -> str:
        rel = self.roots.rel(path)
        if rel is not None:
            return rel
        # a scope above a root (a search over ~): name the first root it holds
        for r in self.roots.roots:
            if under(r.path, path):
                return self.roots.rel(r.path) or "."
        return "."


def _rsync_contents(run: Run) -> set[str]:
    """The sources an rsync copies the contents of (`rsync -a src/ dst/`: named with a
    trailing slash, their files go into the destination, not into dst/src)."""
    if run.program != "rsync":
        return set()
    return {os.path.normpath(os.path.join(run.cwd, a)) for a in run.c.args
            if a.endswith(os.sep) and not a.startswith("-")}


_SWAP_RE = re.compile(r"^\.?(.+)\.sw[a-px]$")


def _artifact_target(name: str) -> str | None:
    """The file an editor artifact belongs to: .notes.md.swp, .#notes.md, #notes.md#,
    notes.md~, notes.md___jb_tmp___ -> notes.md."""
    m = _SWAP_RE.match(name)
    if m:
        return m.group(1)
    if name.startswith(".#"):
        return name[2:]
    if name.startswith("#") and name.endswith("#") and len(name) > 2:
        return name[1:-1]
    if name.startswith(".~lock.") and name.endswith("#"):
        return name[7:-1]
    if name.endswith("~") and len(name) > 1:
        return name[:-1]
    for suffix in ("___jb_tmp___", "___jb_old___", ".kate-swp"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return None
