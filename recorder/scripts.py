"""A script's work: many new files written back to back by a program the table does not list.

The person ran `python3 gen.py`; they did not write out/item00..19.md, which appeared within
a few milliseconds. Nobody writes three new files within a few tens of milliseconds by hand,
so three or more new files whose consecutive write times are less than BURST_GAP_MS apart,
and which no program of the table explains (their actions have no `program`), are the
program's work: `"authored": false`, `"program_kind": "script"`, `program` the interpreter
the process helper saw running then (python3), else null. The folders it made for them in
that moment (a `dir_create` above them, no program) are its too.

What counts is each new file's own write time, its ctime (which no program can set back),
not when the recorder read the event: under a backlog the events of files written a second
apart are read within milliseconds. A file brought in with its times kept (moved in from
outside the roots, a copy that keeps modification times) was not written here and takes
no part; copies recognised as copies (`file_copy`), edits and overwrites of existing files
(an editor's "save all") are not new files and take no part either.

BURST_GAP_MS, measured here: a Python script writing files back to back leaves 0.03-0.7 ms
between them, one generating a .docx per file (python-docx) 16-37 ms; the live simulator
writes its steps at least 120 ms apart (simulator/live.py RECORDED_MIN_GAP_S), a person
seconds apart. 60 ms catches the first two with room for a busy machine (the kernel's
ctime has a 4 ms tick) and stays at half the simulator's gap.

The files are kept one row each (not one summary like a tool's run): the burst is only
known once its files have settled, after their content was read (to tell a copy or a save
from a new file), so each row keeps its snapshot, and the person's later edit of one of the
files is still a real diff against what the script wrote, their move or delete of it refers
to a file the trace knows. The rows take part in no view count, context switch or cross-file
reference (derive), and memory counts only authored actions.

New files' actions are held here until no other new file is still settling near them
(HOLD_NEAR_MS), so that a burst is decided whole; a person's lone new file passes at once.

One command over a list of names is no script: `touch a.md b.md c.md` (or `tee a b c`, a
shell loop echoing one line into each) also makes its files within a millisecond, and
without the process connector touch lives too briefly for the scan to name it. What tells
it apart is what the files hold and who ran: a command the person typed gives every file the
same content (touch: none; tee: its input) and runs no interpreter, while a script writes
each file its own content. So a burst of at most TYPED_MAX_FILES new files with one and
the same content, while no Python interpreter running a script was seen (namer), is the
person's command: authored, `program` null. The interactive shell it was typed in tells
nothing (it is the parent of a script's interpreter just as well). Limits: `touch
f{1..20}` (more files than a person types) is still taken for a script's, and a script
making a few empty files while its interpreter went unseen for the person's.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from .programs import SCRIPT_KIND

BURST_GAP_MS = 60.0  # consecutive new files closer than this (by their write times): a program
BURST_MIN_FILES = 3
TYPED_MAX_FILES = 8  # a command's list of names a person types (touch a b c): at most this many
HOLD_NEAR_MS = 1000.0  # a new file settling this close (by event time) may be in the same burst
HOLD_MAX_MS = 10_000.0  # never held longer than this
KEPT_TIMES_MS = 2000.0  # a file whose mtime is this much older than its ctime was not written here
WRITTEN = "_written_ms"  # set by the settler on a new file's file_write: its ctime, or None

Busy = Callable[[float, float], bool]  # is a new file still settling near this span of (event) time?
Namer = Callable[[float, float], "str | None"]  # the unlisted program alive over a time span


def written_ms(path: str) -> float | None:
    """When a new file was written here (its ctime), or None when it was not: gone, or its
    modification time kept from elsewhere (moved in, copied with its times)."""
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    if st.st_ctime_ns - st.st_mtime_ns > KEPT_TIMES_MS * 1e6:
        return None
    return st.st_ctime_ns / 1e6


def _candidate(ev: dict[str, Any]) -> bool:
    return ev.get("authored") is True and ev.get("program") is None and not ev.get("bulk")


def _one_typed_command(chain: list[dict[str, Any]]) -> bool:
    """A few new files all holding the same content (touch: none; tee: its input): one
    command over a list of names the person typed, not a script (see the module doc)."""
    hashes = {e.get("after_hash") for e in chain}
    return len(chain) <= TYPED_MAX_FILES and len(hashes) == 1 and None not in hashes


class ScriptBursts:
    def __init__(self, busy: Busy, namer: Namer):
        self.busy = busy
        self.namer = namer
        self.files: list[dict[str, Any]] = []  # held new files' file_write actions
        self.dirs: list[dict[str, Any]] = []  # held new folders' dir_create actions
        self.bursts = 0

    def __len__(self) -> int:
        return len(self.files) + len(self.dirs)

    def take(self, actions: list[dict[str, Any]], now: float, *, force: bool = False) -> list[dict[str, Any]]:
        """The actions that can go on now: everything but the new files (and folders) that
        may still turn out to be a script's, plus those decided now."""
        out = []
        for ev in actions:
            t_written = ev.pop(WRITTEN, None)
            etype = ev["event_type"]
            if etype == "file_write" and ev.get("operation") == "create" and t_written is not None and _candidate(ev):
                ev[WRITTEN] = t_written
                self.files.append(ev)
            elif etype == "dir_create" and _candidate(ev):
                self.dirs.append(ev)
            else:
                out.append(ev)
        if self.files or self.dirs:
            out += self._release(now, force)
        return out

    def _release(self, now: float, force: bool) -> list[dict[str, Any]]:
        self.files.sort(key=lambda e: e[WRITTEN])
        chains: list[list[dict[str, Any]]] = []
        for ev in self.files:
            if chains and ev[WRITTEN] - chains[-1][-1][WRITTEN] < BURST_GAP_MS:
                chains[-1].append(ev)
            else:
                chains.append([ev])
        out: list[dict[str, Any]] = []
        kept: list[dict[str, Any]] = []
        for chain in chains:
            t_lo = min(e["timestamp"] for e in chain)
            t_hi = max(e["timestamp"] for e in chain)
            if not force and now - t_lo < HOLD_MAX_MS and self.busy(t_lo - HOLD_NEAR_MS, t_hi + HOLD_NEAR_MS):
                kept += chain
                continue
            if len(chain) >= BURST_MIN_FILES:
                self._mark(chain)
            for e in chain:
                e.pop(WRITTEN, None)
            out += chain
        self.files = kept
        # a folder waits while a new file below it is held; it is a burst's when made in it
        held_dirs: list[dict[str, Any]] = []
        for d in self.dirs:
            below = d["dir_path"].rstrip("/") + "/"
            if not force and now - d["timestamp"] < HOLD_MAX_MS and (
                    self.busy(d["timestamp"] - HOLD_NEAR_MS, d["timestamp"] + HOLD_NEAR_MS) or any(f["file_path"].startswith(below) for f in self.files)):
                held_dirs.append(d)
                continue
            out.append(d)
        self.dirs = held_dirs
        return out

    def _mark(self, chain: list[dict[str, Any]]) -> None:
        program = self.namer(chain[0][WRITTEN], chain[-1][WRITTEN])
        if program is None and _one_typed_command(chain):
            return  # touch a b c: the person's
        self.bursts += 1
        for e in chain:
            e.update(program=program, program_kind=SCRIPT_KIND, authored=False)
        t_first = min(e["timestamp"] for e in chain)
        t_last = max(e["timestamp"] for e in chain)
        for d in self.dirs:
            below = d["dir_path"].rstrip("/") + "/"
            if t_first - 2 * BURST_GAP_MS <= d["timestamp"] <= t_last and any(
                    e["file_path"].startswith(below) for e in chain):
                d.update(program=program, program_kind=SCRIPT_KIND, authored=False)
