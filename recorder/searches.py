"""Searches the process watcher reported (grep, find, rg, locate ...): each one claims the
folder opens and reads inside its scope while it runs, and becomes one file_search when it
has ended, with the number of files it matched: the recorder runs the search again,
read-only, listing the files (see searchrerun), and evaluates it itself only when that
cannot be done (see searchmatch). The re-run's own reads are claimed by a silent search
that records nothing (each file at most twice, in a short window)."""

from __future__ import annotations

import dataclasses
import os
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from filegram.privacy import redact_query

from . import searchrerun
from .disk import Disk
from .output import Output
from .paths import RootSet
from .searchmatch import content_pattern, name_matches
from .searchspec import SEARCH_TOOLS, SearchSpec

SEARCH_GRACE_MS = 300.0  # opens this long after the process ended are still its own
SEARCH_MAX_WAIT_MS = 30_000.0
MATCH_SCAN_MAX_FILES = 5000
MATCHED_TEXT_KEPT = 20  # matched files the query's redaction looks at (never stored)
SILENT_KEEP_MS = 2000.0  # a re-run's window stays this long (its events come a bit later)
SILENT_CLAIMS_PER_FOLDER = 2  # find opens a folder to list it and again to come back
MATCHED_KEPT = 1000  # matched files handed on for files_opened_after and references
OWN_RUN_SLACK_MS = 50.0  # a re-run's exec is seen a little before or after its Popen


@dataclass(frozen=True)
class OwnRun:
    """One of the recorder's re-runs: its program's name and when it ran. The process
    watcher can report it by name only (gone before its pid was read), after its silent
    echo has been dropped: that report is matched here, never taken for the person's."""

    comm: str
    t_start: float
    t_end: float


@dataclass
class ActiveSearch:
    spec: SearchSpec
    t_end: float | None = None
    scanned: set[str] = field(default_factory=set)  # files it read
    matched_text: list[bytes] = field(default_factory=list)  # some of what its query matched
    silent: bool = False  # the recorder's own re-run: claims its opens, records nothing
    claims: dict[str, int] = field(default_factory=dict)
    anonymous: bool = False  # its command line was gone: recorded only if it opened something here
    opened: bool = False
    listed: set[str] = field(default_factory=set)  # folders it opened

    @property
    def by_name_only_reading(self) -> bool:
        """A content search known only by its name: any grep on the machine. It is told
        from someone's `ls` or `cat` by its walk (see settle)."""
        return self.anonymous and self.spec.search_type == "grep"

    def covers(self, path: str, t: float) -> bool:
        if t < self.spec.t_start - 50:
            return False
        if self.t_end is not None and t > self.t_end + SEARCH_GRACE_MS:
            return False
        if self.spec.search_type == "locate":
            # locate reads its database, never the files under its folder: `locate x; cat
            # notes.md` is a search and a read (its re-run neither takes the reads after it)
            return path in self.spec.extra.get("databases", ())  # type: ignore[operator]
        if path == self.spec.cwd:
            return True  # find opens its working folder to come back to it
        for p in self.spec.paths:
            if path == p or path.startswith(p.rstrip(os.sep) + os.sep):
                return True
        return False


class Searches:
    def __init__(self, roots: RootSet, disk: Disk, output: Output, *, redact_queries: bool):
        self.roots = roots
        self.disk = disk
        self.output = output
        self.redact_queries = redact_queries
        self.active: list[ActiveSearch] = []
        self.own_pids: deque[int] = deque(maxlen=64)  # the recorder's re-runs
        self.own_runs: deque[OwnRun] = deque(maxlen=64)
        # (path, t, is_folder) -> a known program did that open: a search known only by its
        # name (any grep on the machine) does not take it
        self.known_tool: Callable[[str, float, bool], bool] | None = None
        self.reruns = 0

    def __len__(self) -> int:
        return len(self.active)

    def __iter__(self) -> Iterator[ActiveSearch]:
        return iter(self.active)

    def started(self, spec: SearchSpec) -> None:
        if spec.pid in self.own_pids:
            return
        paths = [p for p in spec.paths if self.roots.overlapping(p)]
        if not paths:
            return
        if any(self.roots.denied(p) for p in paths if self.roots.contains(p)):
            return
        if spec.query and self.roots.filter.denied(spec.query.strip("*/ ")):
            return  # `find . -name id_rsa`: the query itself names a private file
        spec.paths = paths
        self.active.append(ActiveSearch(spec))

    def started_anonymous(self, tool: str, pid: int, t_start: float) -> None:
        """A search tool whose command line was gone before it could be read: it searched
        somewhere under the roots, for something unknown. Its opens are still its own.
        The recorder's own re-run, seen the same way, is no search at all."""
        if pid in self.own_pids or self._own_run(tool, t_start):
            return
        stype = SEARCH_TOOLS.get(tool, "grep")
        spec = SearchSpec(pid, tool, "find" if tool in ("fd", "fdfind") else stype, None,
                          [r.path for r in self.roots.roots], "", [], t_start)
        self.active.append(ActiveSearch(spec, anonymous=True))

    def _own_run(self, comm: str, t: float) -> bool:
        return any(r.comm == comm and r.t_start - OWN_RUN_SLACK_MS <= t <= r.t_end + OWN_RUN_SLACK_MS
                   for r in self.own_runs)

    def ended(self, pid: int, t: float) -> None:
        for s in self.active:
            if s.spec.pid == pid and s.t_end is None:
                s.t_end = t

    def covering(self, path: str, t: float, *, consume: bool = True, folder: bool = False,
                 passing: Callable[[ActiveSearch], bool] | None = None) -> ActiveSearch | None:
        """The running (or just ended) search this open belongs to, if any (and passing the
        caller's test). A silent re-run opened each file once (a folder up to twice): consume
        counts that. A search whose command line was read comes before one known only by its
        name, which may be any grep on the machine."""
        for s in sorted(self.active, key=lambda s: s.anonymous):
            if s.covers(path, t) and (passing is None or passing(s)):
                if s.anonymous and self.known_tool is not None and self.known_tool(path, t, folder):
                    continue
                if s.silent:
                    n = s.claims.get(path, 0)
                    if n >= (SILENT_CLAIMS_PER_FOLDER if folder else 1):
                        continue
                    if consume:
                        s.claims[path] = n + 1
                if consume:
                    s.opened = True
                    if folder:
                        s.listed.add(path)
                return s
        return None

    def cleaner(self, path: str, t: float) -> str | None:
        """The tool of a cleanup search (`find tmp -name '*.tmp' -delete`) whose walk covers
        path at t, or None. Its deletes are recorded (as the person's: they typed it) and
        name it, as the actions of every other known program do."""
        for s in self.active:
            if not s.silent and s.spec.extra.get("deletes") and s.covers(path, t):
                return s.spec.tool
        return None

    def settle(self, now: float, settle_ms: float, *, force: bool = False) -> None:
        """Searches that ended (or ran too long) become file_search actions."""
        for s in self.active:  # an exit notice can be missed: ask the process table
            if s.t_end is None and now - s.spec.t_start > settle_ms and not os.path.exists(f"/proc/{s.spec.pid}"):
                s.t_end = now - settle_ms
        for s in list(self.active):
            if s.silent:
                if (force and s.claims) or (s.t_end is not None and now - s.t_end >= SILENT_KEEP_MS):
                    self.active.remove(s)
                continue
            done = s.t_end is not None and now - s.t_end >= settle_ms + SEARCH_GRACE_MS
            if force or done or now - s.spec.t_start > SEARCH_MAX_WAIT_MS:
                self.active.remove(s)
                self._finish(s)

    def _finish(self, s: ActiveSearch) -> None:
        spec = s.spec
        if s.anonymous and not s.opened and not s.scanned:
            return  # someone's grep elsewhere on the machine
        if spec.extra.get("deletes"):
            return  # find ... -delete: cleanup, recorded as its deletes only
        scope = [p for p in spec.paths if self.roots.contains(p)] or [r.path for p in spec.paths for r in self.roots.overlapping(p)]
        rel_scope = self.roots.rel(scope[0]) if scope else "."
        found = self._rerun(spec)
        matched_rel: list[str] | None = None
        if found is not None:
            matched: int | None = len(found)
            matched_rel = [r for p in found if (r := self.roots.rel(p)) is not None and self.roots.visible(p)][:MATCHED_KEPT]
        else:
            matched = self._count_matches(s, scope)
        query = spec.query
        if query is not None and self.redact_queries:
            if found is not None and not s.matched_text and spec.search_type == "grep":
                for p in found[:MATCHED_TEXT_KEPT]:  # what it matched tells whether it is a secret
                    c = self.disk.read_bytes(p)
                    if c is not None:
                        s.matched_text.append(c)
            query = redact_query(query, s.matched_text)  # a grep for a password is hidden too
        self.output.emit(
            "file_search", spec.t_start, search_type=spec.search_type, query=query,
            files_matched=matched, files_opened_after=[], search_scope=self._stored_scope(spec, scope),
            _scope=rel_scope or ".", _tool=spec.tool, _matched=matched_rel,
        )

    def _stored_scope(self, spec: SearchSpec, scope: list[str]) -> list[str] | None:
        """What the search was run over, as stored names (`grep -r q notes/` -> ["notes"]),
        so that forgetting notes/ forgets the search and its query. A folder the recorder
        does not record (ignored) stands as its nearest recorded folder above it. locate
        searched its database, not a folder: None."""
        if spec.search_type == "locate":
            return None
        out: list[str] = []
        for p in scope:
            root = self.roots.root_of(p)
            while root is not None and p != root.path and not self.roots.visible(p):
                p = os.path.dirname(p)
            rel = self.roots.rel(p) if self.roots.visible(p) else None
            if rel is not None and rel not in out:
                out.append(rel)
        return out or None

    def _rerun(self, spec: SearchSpec) -> list[str] | None:
        """The files the search matched, by running it again read-only (see searchrerun);
        None when it cannot be re-run here."""
        if spec.search_type != "locate" and not all(self.roots.contains(p) for p in spec.paths):
            return None  # a search over more than the roots: not ours to repeat
        cmd = searchrerun.rerun_command(spec)
        if cmd is None:
            return None
        result = searchrerun.run(cmd)
        if result is None:
            return None
        self.reruns += 1
        self.own_pids.append(result.pid)
        self.own_runs.append(OwnRun(os.path.basename(cmd.argv[0])[:15], result.t_start, result.t_end))
        # its opens come through inotify like anyone's: claimed here, never recorded
        echo = dataclasses.replace(spec, pid=result.pid, t_start=result.t_start, cwd=cmd.cwd)
        self.active.append(ActiveSearch(echo, t_end=result.t_end, silent=True))
        return result.paths

    def _count_matches(self, s: ActiveSearch, scope: list[str]) -> int | None:
        spec = s.spec
        if spec.query is None:
            return None
        max_walk = MATCH_SCAN_MAX_FILES * 4
        try:
            if spec.search_type == "grep":
                rx = content_pattern(spec)
                files = sorted(s.scanned) or [p for p, _, is_dir in self.disk.walk(scope, max_walk) if not is_dir]
                n = 0
                for p in files[:MATCH_SCAN_MAX_FILES]:
                    c = self.disk.read_bytes(p)
                    if c is not None and rx is not None and rx.search(c):
                        n += 1
                        if len(s.matched_text) < MATCHED_TEXT_KEPT:
                            s.matched_text.append(c)
                return n
            if spec.search_type in ("find", "locate"):
                return sum(name_matches(spec, p, self.roots.inner(p) or "") for p, _, _ in self.disk.walk(scope, max_walk))
        except OSError:
            return None
        return None
