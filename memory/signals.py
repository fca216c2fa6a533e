"""What one session shows on each dimension, as raw counts a tier can be judged from.

Tier rules used to read the simulator's knobs off a fingerprint (a session with no delete
"voted" preservative, a file at the root "voted" flat). Here a session only reports, per
dimension, whether it gave the person a chance to show the behaviour (the opportunity) and
what they did with it, in units that do not depend on how verbose or busy the person is
(shares, counts of kinds of things, depths) wherever the meaning allows. memory/tiers.py
turns these signals into a per-session category and the user's posterior.

Only what the person did counts: actions a recorder marks `"authored": false` (archive
extraction, version control, package managers, editors' housekeeping) are left out, and so are
changes reconciled after the daemon was down (`"offline": true`), which have no real timing.
"""

from __future__ import annotations

import bisect
import difflib
import functools
import hashlib
import json
import math
import posixpath
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from filegram.naming import (
    in_archive_folder,
    looks_like_backup,
    looks_like_written_backup,
    looks_temporary,
    named_for_owner,
    scratch_named,
    undated,
)
from filegram.schema import EXTERNAL_PREFIX, OFFICE_TYPES, depth_of, dir_depth_of

from .authorship import (
    ARCHIVE_NAME,
    OS_FOLDER_FILES,
    RANDOM_TOKEN,
    SEQUENCE_MIN_FILES,
    counting_runs,
    stamp_ms,
)
from .content import (
    IMAGE_TYPES,
    STRUCTURED_TYPES,
    SUBTITLE_FORMATS,
    TEXT_TYPES,
    WRITING_FORMATS,
    analyse,
    diff_lines,
    figure_embeds,
    markup_table_rows,
    tab_separated_data,
    tab_table_rows,
    table_rows,
)

# Reads kept per session for the user-level reading-style calibration (first, last, size).
MAX_RANGES = 64
# Edit sizes kept per session (lines added + deleted of each edit).
MAX_EDIT_SIZES = 64
# Characters per line assumed for a document written without a stored snapshot.
FALLBACK_CHARS_PER_LINE = 45
# A document is a stub typed on when its edits added more than this many times what it held
# when written (two thirds of it and more came in the edits): an editor saving as the person
# types. An incremental reviser adds to a written document too, rarely twice its length in
# one session (at 1x, a minimal writer's 20-40 line notes grown by small edits read as
# balanced on the recorder-like model; 2x and 3x gave the same calls on every model here).
STUB_GROWTH = 2
# What one writes (B): prose and markup, and the source code that is the writing of people
# whose work is code (a script, a module, a notebook's cells: on a population of analysts and
# developers their reports were READMEs beside it). Data, configuration, logs and saved mail
# are text too, but not writing (a CSV is F's output; an .eml is usually received). A
# notebook counts its cells' source lines, not the JSON around them.
DOCUMENT_TYPES = frozenset({"md", "markdown", "txt", "rst", "org", "tex", "html", "htm", ""}) | WRITING_FORMATS
CODE_TYPES = frozenset({"py", "r", "sql", "js", "ts", "jsx", "tsx", "sh", "go", "rs", "java", "c", "cpp", "h",
                        "rb", "php", "jl", "scala", "kt", "swift", "m", "ipynb",
                        # the rest of the languages people write programs in (C# for a game engine,
                        # Lua, Dart, Haskell, Elixir, F#, PowerShell, Godot's GDScript, HDLs, ...)
                        "cs", "cc", "cxx", "hpp", "hh", "mm", "lua", "dart", "pl", "pm", "hs", "ex", "exs",
                        "erl", "fs", "fsx", "vb", "ps1", "gd", "groovy", "clj", "cljs", "ml", "zig", "nim",
                        "f90", "vhd", "vhdl", "sv", "el", "lisp", "scm", "pas", "vue", "svelte",
                        # the statistics packages' (Stata's do-files, SAS, SPSS syntax), Terraform's
                        # HCL and style sheets
                        "do", "ado", "sas", "sps", "tf", "hcl", "css", "scss"})
WRITTEN_TYPES = DOCUMENT_TYPES | CODE_TYPES
# What a save in place says how one revises (D): text and code, a notebook saved whole
# included (measured like an edit when its earlier text is known), but not data a script
# writes again on every run (a CSV or JSON summary, a YAML export): regenerating output is
# the program's, not a person rewriting their work.
# A log (`.log`) is a program's record: a server, a compiler or a statistics package appends to
# it or writes it again on every run. Lines added to it are no revision of the person's work
# (on the held-out models every edit of a `.log` file was a container's, LaTeX's or Stata's).
RECORD_TYPES = frozenset({"log"})
REVISED_TYPES = (TEXT_TYPES | CODE_TYPES) - STRUCTURED_TYPES - RECORD_TYPES
# A workbook is the exception among data files: people keep a price sheet or a budget by hand,
# cell by cell, and the spreadsheet saves it whole. Where a recorder kept its text (rows of
# cells), its saves are measured like an office document's.
WORKBOOK_TYPES = frozenset({"xlsx", "xls", "ods"})
# The data files that make a session's output visual-heavy (F): tables of values and records
# (csv, tsv, a workbook, json). XML and YAML are markup and configuration: a program's project
# file, metadata or sidecar (a GIS program writes `<raster>.aux.xml` and metadata XML for
# people who write only text), not numbers a person keeps to chart.
DATA_TYPES = STRUCTURED_TYPES - {"xml", "yaml"}
# Files whose saves can be diffed when their text is known (a save of any other is "blind").
DIFFABLE_TYPES = TEXT_TYPES | CODE_TYPES
# Office documents (filegram.schema.OFFICE_TYPES: Word, LibreOffice, PowerPoint, RTF) are
# writing (B) and revising (D) when their text is known: a recorder that extracts it stores
# it as the snapshot and diffs its saves. Known only by their bytes (pictures, fonts and zip
# overhead, not words), their writes say nothing about how much was written, nor their saves
# about how much changed (see _text_kind).

# A folder named for figures, charts or images, when the person put a visual in it.
FIGURE_DIR = re.compile(r"(fig|figure|chart|image|img|plot|visual|graph|图)", re.I)


# isinstance() against a tuple: `int | float` in a hot test builds a union type per call.
_NUMBER = (int, float)
_PAIR = (list, tuple)


def _name(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1]


@functools.lru_cache(maxsize=4096)
def _ext(path: str) -> str:
    """The extension of a path's name, lower-cased (cached: the same paths come back)."""
    name = _name(path)
    return name.rsplit(".", 1)[-1].lower() if "." in name.lstrip(".") else ""


def _int(v: Any) -> int:
    if type(v) is int:  # the common case: int(v) is v
        return v
    return int(v) if isinstance(v, _NUMBER) and not isinstance(v, bool) else 0


def _ts(e: Mapping[str, Any]) -> float:
    t = e.get("timestamp")
    return float(t) if isinstance(t, _NUMBER) else 0.0


@functools.lru_cache(maxsize=4096)
def _temporary(name: str) -> bool:
    """looks_temporary of a name (cached: the same names come back in many sessions)."""
    return looks_temporary(name)


# A draft is the document being written ("04화_대본_draft.md", "proposal draft.docx"): its
# writing is production (B) even though, beside a final version, it is a leftover a tidy person
# removes (E, which reads the name as temporary).
_DRAFT = re.compile(r"(?i)(^|[._\-~ ])drafts?([._\-~ ]|$)|草稿|下書き|초안")


@functools.lru_cache(maxsize=4096)
def _scratch(name: str) -> bool:
    """A temporary name that is not a draft: what the person did not mean as a document."""
    return _temporary(name) and not (_DRAFT.search(name) and not _temporary(_DRAFT.sub(" ", name)))


@functools.lru_cache(maxsize=4096)
def _backup(name: str) -> bool:
    return looks_like_backup(name)


@functools.lru_cache(maxsize=4096)
def _written_backup(name: str) -> bool:
    return looks_like_written_backup(name)


def _text_kind(e: Mapping[str, Any], kinds: frozenset[str], text_of: Mapping[int, str]) -> bool:
    """A write of one of `kinds`, or of an office document whose text was kept (a snapshot
    that is text: another producer may store the document's own bytes, whose length and
    replacement say nothing about what was written)."""
    x = _ext(str(e.get("file_path") or ""))
    if not x:  # a name with no extension is text only where its text was kept (a README, not a program's database)
        return "" in kinds and id(e) in text_of
    return x in kinds or (x in OFFICE_TYPES and id(e) in text_of)


def authored(events: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The person's own actions, as they happened: not what a recorder marked as a tool's,
    nor changes reconstructed after the fact (`"offline": true`: made while nothing
    recorded, with no real order or timing)."""
    return [e for e in events if e.get("authored") is not False and not e.get("offline")]


Events = list[Mapping[str, Any]]
_NONE: Events = []
_PATH_KEYS = ("file_path", "old_path", "new_path", "source_path", "dest_path")


def session_signals(events: Sequence[Mapping[str, Any]], texts: Mapping[int, str],
                    diffs: Mapping[int, str] | None = None,
                    earlier: Mapping[str, str] | None = None,
                    owner: str | None = None) -> dict[str, dict[str, Any]]:
    """Per dimension: {"opp": bool, ...counts}. `events` are clean, time-ordered actions,
    `texts` maps an event's index to the text it wrote (memory.features.written_texts),
    `diffs` an edit's index to its diff (memory.features.edit_diff_texts) and `earlier` a
    content hash to the text an overwrite replaced (memory.features.earlier_texts); `owner`
    the session's digest of the person's login (naming.owner_key), where the import knew it."""
    by: dict[str, Events] = {}
    text_of: dict[int, str] = {}  # id(event) -> text, for the writes that have one
    diff_of: dict[int, str] = {}  # id(event) -> diff, for the edits that have one
    worked_on: set[Any] = set()  # paths the person wrote or edited so far in the session
    tool_made: set[Any] = set()  # paths a program created in the session (a build's, a test run's)
    tool_wrote: set[Any] = set()  # paths a program created or rewrote in the session
    tool_creates: Events = []  # the files a program created, as events
    tool_deleted: set[Any] = set()  # paths a program deleted in the session
    run_outputs: set[Any] = set()  # what a run wrote into its own folder (authorship._mark_run_folders)
    tool_copied: Events = []  # a program's copies (its backups), as events at their destination
    tool_saves: Events = []  # a program's writes over files that were there
    order: dict[int, int] = {}  # id(event) -> its place among the person's actions
    before_of: dict[int, str] = {}  # id(overwrite) -> the file's text before it, when known
    text_at: dict[Any, str] = {}  # path or content hash -> the last text written there
    for i, e in enumerate(events):
        if e.get("authored") is False:
            if e.get("scan"):  # a search the person ran through a program (authorship)
                by.setdefault("file_search", []).append(e)
            elif e["event_type"] == "file_delete":
                tool_deleted.add(e.get("file_path"))
            elif e["event_type"] in ("file_rename", "file_move"):
                # gone from that name as surely as deleted: an editor's save through a
                # temporary file (`notes.md~` written, then renamed over `notes.md`) leaves
                # nothing lying around for the person to clean (_curation)
                tool_deleted.add(e.get("old_path"))
            elif e["event_type"] == "file_write":
                tool_wrote.add(e.get("file_path"))
                if e.get("operation") == "create":
                    tool_made.add(e.get("file_path"))
                    tool_creates.append(e)
                    if e.get("run_output"):
                        run_outputs.add(e.get("file_path"))
                else:
                    tool_saves.append(e)
            elif e["event_type"] == "file_copy" and type(dest := e.get("dest_path")) is str and dest.endswith("~"):
                tool_wrote.add(dest)  # an editor's backup of the file it saves (vim's `x.c~`)
                tool_creates.append({**e, "file_path": dest})
            if e["event_type"] == "file_copy" and type(dest := e.get("dest_path")) is str:
                tool_copied.append({**e, "file_path": dest})
            continue
        order[id(e)] = len(order)
        t = e["event_type"]
        if t == "file_write" or t == "file_edit":
            worked_on.add(e.get("file_path"))
        elif t == "file_read" and e.get("file_path") in worked_on:
            continue  # opening one's own draft again is writing or revising it, not reading material
        if t in by:
            by[t].append(e)
        else:
            by[t] = [e]
        if diffs and i in diffs:
            diff_of[id(e)] = diffs[i]
        if i in texts:
            text_of[id(e)] = texts[i]
            if e.get("operation") == "overwrite":
                h = e.get("before_hash")
                before = ((text_at.get(h) or (earlier.get(h) if earlier else None)) if h else None) \
                    or text_at.get(e.get("file_path"))
                if before is not None:
                    before_of[id(e)] = before
            text_at[e.get("file_path")] = texts[i]
            if e.get("after_hash"):
                text_at[e["after_hash"]] = texts[i]
    writes = by.get("file_write", _NONE)
    creates = [e for e in writes if e.get("operation") == "create"]
    # What the session produced: not what the person threw away before it ended (a scratch
    # table, a raw dump) nor what they named as scratch. Curation sees those; output does not.
    thrown = _thrown_away(by)
    kept_writes = [e for e in writes if e.get("file_path") not in thrown]
    # (nor a download: the browser wrote it, though removing it is the person's, E; nor a
    # capture named by the second it was taken: authorship's CAPTURE_TYPES). A draft is
    # output (_scratch): the document being written, whose tables and figures are the
    # person's and whose folder is where they file it, as its writing is production (B).
    # Until round 55 its temporary-looking name left it out here (alt487's epidemiologists,
    # whose weekly reports are `<disease>_weekly_<week>_draft.md` with tables, read text-only).
    # A document saved into the home's Downloads folder is what the browser or a client's
    # portal saved there (an agenda, a template, speaker bios), not the person's writing, even
    # when they then file it into their work; pictures there are read by _left_in_downloads.
    # Counted as writing, an interpreter's downloaded agenda and bios made two documents of
    # every preparation session, and balanced writers read as comprehensive (alt752).
    for e in creates:
        if _DOWNLOADS.search((p := str(e.get("file_path") or "")).replace("\\", "/")) and _ext(p) not in IMAGE_TYPES:
            e["downloaded"] = True
    outputs = [e for e in creates if e.get("file_path") not in thrown and not _scratch(_name(str(e.get("file_path") or "")))
               and not e.get("downloaded") and not e.get("captured")]
    blank = _started_blank(events)
    started = {**blank, **_started_from_copies(by)}
    production, typed = _production(by, kept_writes, text_of, order, diff_of, started)
    typed = typed + _tables_added(by, diff_of, typed)
    return {
        "A": _consumption(by),
        "B": production,
        "C": _organisation(by, creates, outputs, blank, [e["file_path"] for e in tool_copied], tool_creates, owner),
        "D": _iteration(by, writes, text_of, order, before_of, started, blank, diff_of),
        "E": _curation(by, creates, tool_wrote, [e for e in tool_creates if e.get("file_path") not in tool_deleted],
                       tool_copied, tool_saves),
        "F": _cross_modal(outputs, text_of, kept_writes, tool_made - run_outputs, typed, blank,
                          [str(e.get("file_path") or "") for e in writes],
                          _reworked_pictures(started, kept_writes) + _collected_pictures(by),
                          _regenerated(by), tool_wrote, _left_in_downloads(by)),
    }


# The kinds of file whose backup copy is the person keeping a version of their work before
# revising it (table 2's incremental reviser): documents, code and workbooks.
BACKED_UP_WORK_TYPES = REVISED_TYPES | OFFICE_TYPES | WORKBOOK_TYPES


def _work_backups(copies: Events, writes: Events, edits: Events) -> Events:
    """The backup copies that keep a version of the person's work: of a document, code or a
    workbook, or of any file changed after the copy in the session. A program's database
    copied aside and never touched again (a CAT tool's translation memory, `Main.sdltm.bak`,
    hours before the person starts) is no revision habit: alt654's translators read as
    incremental revisers on it alone."""
    last_change: dict[str, float] = {}
    for e in (*writes, *edits):
        if e.get("event_type") == "file_edit" or e.get("operation") == "overwrite":
            p = str(e.get("file_path") or "")
            last_change[p] = max(last_change.get(p, float("-inf")), _ts(e))
    return [e for e in copies if _ext(src := str(e.get("source_path") or "")) in BACKED_UP_WORK_TYPES
            or last_change.get(src, float("-inf")) > _ts(e)]


def _hash_of(e: Mapping[str, Any], key: str, ref_key: str) -> str | None:
    """A version's content hash: the recorded one, or its snapshot's."""
    ref = e.get(ref_key)
    return e.get(key) or (ref.get("hash") if isinstance(ref, dict) else None)


def _backups_written(writes: Events, edits: Events) -> list[dict[str, Any]]:
    """Backup copies a recorder saw as new files, as copies: a file made in the session, named
    as a backup (`notes.bak`, `notes.md~`), whose bytes are a version another file of the
    session had and then changed: kept before revising it. A recorder that watches inotify
    sees `cp notes.md notes.bak` as a file created and written, not copied (alt674's compiler
    engineers: incremental revisers whose backups went unseen read as unknown or as
    rewriters). A duplicate of a file never changed after (`quick calc (3).txt`) keeps no
    version of anything."""
    holders: dict[str, set[str]] = {}  # content hash -> the other files that had it
    changed: dict[str, float] = {}  # path -> its last change
    for e in (*writes, *edits):
        p = str(e.get("file_path") or "")
        if e.get("event_type") == "file_edit" or e.get("operation") == "overwrite":
            changed[p] = max(changed.get(p, float("-inf")), _ts(e))
        if not _written_backup(_name(p)):
            for h in (_hash_of(e, "before_hash", "media_ref_old"), _hash_of(e, "after_hash", "media_ref_new"),
                      _hash_of(e, "after_hash", "media_ref")):
                if h:
                    holders.setdefault(h, set()).add(p)
    out = []
    for e in writes:
        p = str(e.get("file_path") or "")
        if e.get("operation") == "create" and _int(e.get("content_length")) > 0 and _written_backup(_name(p)) \
                and (sources := [q for q in holders.get(_hash_of(e, "after_hash", "media_ref") or "", ())
                                 if changed.get(q, float("-inf")) > _ts(e)]):
            out.append({**e, "event_type": "file_copy", "source_path": min(sources), "dest_path": p, "is_backup": True})
    return out


def _tables_added(by: dict[str, Events], diff_of: Mapping[int, str] | None, typed: Sequence[str]) -> list[str]:
    """What edits added to documents where it holds a table (two rows or more): output with a
    table, as a new document's is (F). A climate scientist's trends table goes into the paper
    draft they have been revising for weeks; only new documents were read, and balanced
    people whose tables go into documents they keep read as text-only (alt334: p 0.83-0.91).
    An edit that adds prose is no chance to show F: a sentence added to a report says
    nothing of whether its author makes tables."""
    if not diff_of:
        return []
    out = []
    for e in by.get("file_edit", _NONE):
        if (diff := diff_of.get(id(e))) is None:
            continue
        plus, minus = ("\n".join(lines) for lines in diff_lines(diff))
        # rows added, not rows changed: a text-only person updating a shared status table
        # rewrites its rows, a table writer adds them
        if plus not in typed and (table_rows(plus) + markup_table_rows(plus)
                                  - table_rows(minus) - markup_table_rows(minus)) >= 2:
            out.append(plus)
    return out


# Pictures deleted from one folder that make it a set cleared (one old chart replaced is not).
CLEARED_SET = 3


def _regenerated(by: dict[str, Events]) -> set[str]:
    """Pictures written again at paths the session had deleted, or into a folder it had
    cleared of a set of them: what a program made anew (a screenshot run that empties its
    folder first, a sync client fetching back what it evicted). The pictures were there
    before; writing them again is no new visual output. On 56 held-out behaviour models such
    rewrites came from text-only people as often as from visual-heavy ones."""
    gone: dict[str, float] = {}
    cleared: dict[str, list[float]] = {}
    for e in by.get("file_delete", _NONE):
        p = str(e.get("file_path") or "")
        if _ext(p) in IMAGE_TYPES:
            gone[p] = min(gone.get(p, _ts(e)), _ts(e))
            cleared.setdefault(posixpath.dirname(p), []).append(_ts(e))
    if not gone:
        return set()
    since = {f: sorted(ts)[CLEARED_SET - 1] for f, ts in cleared.items() if len(ts) >= CLEARED_SET}
    out = set()
    for e in by.get("file_write", _NONE):
        p, t = str(e.get("file_path") or ""), _ts(e)
        if (p in gone and t >= gone[p]) or (_ext(p) in IMAGE_TYPES and t >= since.get(posixpath.dirname(p), math.inf)):
            out.add(p)
    return out


def _reworked_pictures(started: Mapping[str, float], kept_writes: Events) -> list[str]:
    """Pictures the person copied under a name of their own and then saved over: a test run's
    screenshot cropped and marked up for a bug report, a chart redrawn from last month's. The
    saving over is their visual work; a copy alone (a file manager's) is not, unless it
    gathers pictures in a folder for them (_collected_pictures)."""
    return sorted({p for e in kept_writes if (p := str(e.get("file_path") or "")) in started
                   and _ext(p) in IMAGE_TYPES and e.get("operation") == "overwrite" and _ts(e) >= started[p]})


def _collected_pictures(by: dict[str, Events]) -> list[str]:
    """Pictures the person copied into a folder named for figures or images (FIGURE_DIR): a
    curator's object photographs gathered in an exhibition's `images/`, a writer's charts in
    the report's `figures/`. Gathering pictures for the work is a visual habit, though nothing
    was drawn: on the 96 models alt384-479, 19 visual-heavy people did so in two sessions or
    more, and no balanced or text-only one (alt473's curators read as text-only before)."""
    out = set()
    for e in by.get("file_copy", _NONE):
        p = str(e.get("dest_path") or "")
        if _ext(p) in IMAGE_TYPES and "/" in p and FIGURE_DIR.search(p.rsplit("/", 2)[-2]):
            out.add(p)
    return sorted(out)


# A picture saved into the Downloads folder and left there is where a program put it by
# default (a graphing tool's `graph_<n>.png`, a chat app's image, a site's chart), whoever's
# session it was: on the helper models whose people leave pictures there (alt646, alt697,
# alt704, alt708, alt731, alt734), visual-heavy, balanced and text-only people did so in
# about as many sessions each. One the person then moved or copied into their work, or that
# a document of theirs names, is theirs.
_DOWNLOADS = re.compile(r"^((.*/)?(users|home)/[^/]+/)?downloads/", re.I)


def _left_in_downloads(by: dict[str, Events]) -> frozenset[str]:
    """Pictures made in a Downloads folder this session and not moved or copied out of it."""
    made = {p for e in by.get("file_write", _NONE) if e.get("operation") == "create"
            and _ext(p := str(e.get("file_path") or "")) in IMAGE_TYPES and _DOWNLOADS.search(p.replace("\\", "/"))}
    if not made:
        return frozenset()
    taken = {e.get("old_path") for t in ("file_move", "file_rename") for e in by.get(t, _NONE)}
    taken |= {e.get("source_path") for e in by.get("file_copy", _NONE)}
    return frozenset(made - taken)


def _thrown_away(by: dict[str, Events]) -> set[Any]:
    """Paths the person made in this session and deleted after making them."""
    made: dict[Any, float] = {}
    for e in by.get("file_write", _NONE):
        if e.get("operation") == "create":
            made.setdefault(e.get("file_path"), _ts(e))
    return {e.get("file_path") for e in by.get("file_delete", _NONE)
            if e.get("file_path") in made and made[e.get("file_path")] <= _ts(e)}


def _range(e: Mapping[str, Any]) -> tuple[int, int] | None:
    vr = e.get("view_range")
    if isinstance(vr, _PAIR) and len(vr) == 2 and isinstance(vr[0], int) and isinstance(vr[1], int):
        return vr[0], vr[1]
    return None


# A read of the same file this soon after the last one is the same reading: the same window
# is that read logged twice (a viewer that previews, then opens; a recorder that sees both the
# open and the first paint), another window is the person's read and the one before it a
# program's (a sync client fetching a cloud-only file whole before it opens, an indexer, a
# preview): nobody finishes reading a file and opens it again within two seconds. The later
# read is kept, counted as the first view of the two.
HANDOVER_MS = 2000.0


def _scrolled(reads: Events) -> Events:
    """Reads with a window scrolled on through a file joined into one: a recorder that sees
    the screen logs a read as the run of windows shown ([1,45], [46,90], ...), which is one
    read of lines 1-90, not a read of the head, a passage and a revisit. Only a window that
    follows on from the one just before it, in the same file, continues a read. A read logged
    twice, or handed over from a program (HANDOVER_MS), is one read."""
    if len(reads) < 2:
        return reads
    out: list[Mapping[str, Any]] = []
    prev: tuple[int, int] | None = None
    for e in reads:
        rng = _range(e)
        same = bool(out) and e.get("file_path") == out[-1].get("file_path")
        if same and rng == prev and 0.0 <= _ts(e) - _ts(out[-1]) <= HANDOVER_MS:
            continue
        if same and rng is not None and prev is not None and prev[0] < rng[0] <= prev[1] + 1 and rng[1] > prev[1]:
            last = out[-1]
            out[-1] = {**last, "view_range": [prev[0], rng[1]],
                       "content_length": _int(last.get("content_length")) + _int(e.get("content_length"))}
            prev = (prev[0], rng[1])
            continue
        if same and 0.0 <= _ts(e) - _ts(out[-1]) <= HANDOVER_MS:
            out[-1] = {**e, "view_count": out[-1].get("view_count")}
            prev = rng
            continue
        out.append(e)
        prev = rng
    return out


# A search that names no term is a listing: `find <folder> -maxdepth 1 -name '*.csv'` (or
# `ls`) from a shell history shows what one folder holds, as a file manager's listing does,
# where a targeted reader's `grep` or `find -name '*flood*'` looks for something. On a
# recorder that logs no listings, the breadth-first hydrologists of alt728 listed folders so
# 210 times against 8 searches, and read as targeted readers at p 1.00.
_LISTING_COMMAND = re.compile(r"^\s*(find\s+\S+.*-maxdepth\s+1\b|ls\b|dir\b)")
_NAME_PATTERN = re.compile(r"-i?name\s+(?:'([^']*)'|\"([^\"]*)\"|(\S+))")
_ANY_NAME = re.compile(r"\*(\.[A-Za-z0-9]+)?")
_TERM_SIGNS = re.compile(r"\||-i?regex\b|-i?path\b|-exec\b")


def _lists_a_folder(e: Mapping[str, Any]) -> bool:
    """Is the search a listing of one folder (a term-less `find -maxdepth 1`, `ls`, `dir`)?
    A name pattern with a word in it (`-name '*flood*'`, `ls *flood*`), a path or regex test
    or a pipe into another command looks for something."""
    q = e.get("query")
    if type(q) is not str or not _LISTING_COMMAND.match(q) or _TERM_SIGNS.search(q):
        return False
    if q.lstrip().startswith("find"):
        patterns = [a or b or c for a, b, c in _NAME_PATTERN.findall(q)]
    else:
        patterns = [w.strip("'\"").replace("\\", "/").rsplit("/", 1)[-1] for w in q.split()[1:] if "*" in w or "?" in w]
    return all(_ANY_NAME.fullmatch(p) for p in patterns)


def _consumption(by: dict[str, Events]) -> dict[str, Any]:
    reads = _scrolled(by.get("file_read", _NONE))
    listed = sum(1 for e in by.get("file_search", _NONE) if _lists_a_folder(e))
    searches = len(by.get("file_search", _NONE)) - listed
    browses = len(by.get("file_browse", _NONE)) + listed
    access = len(reads) + searches + browses
    files = len({e.get("file_path") for e in reads})
    ranges: list[list[int] | None] = []
    for e in reads[:MAX_RANGES]:
        rng = _range(e)
        ranges.append(None if rng is None else [rng[0], rng[1], _int(e.get("content_length"))])
    return {
        # Style needs something to choose between: a few accesses over more than one file.
        "opp": access >= 3 and files >= 2,
        "access": access,
        "searches": searches,
        "browses": browses,
        "reads": len(reads),
        "files": files,
        "revisits": _revisits(reads),
        "ranges": ranges,
    }


def _revisits(reads: Events) -> int:
    """Reads of a file already read in the session. view_count says it (the n-th read of the
    path); a producer that leaves it out still shows it by reading the same path again."""
    seen: set[Any] = set()
    n = 0
    for e in reads:
        p = e.get("file_path")
        if _int(e.get("view_count")) > 1 or p in seen:
            n += 1
        seen.add(p)
    return n


# Writing formats stored as XML (Final Draft's .fdx): a paragraph of the script is an element
# spread over several lines of markup. What the person wrote is the text between the tags, so
# the lines and changes of their writing are counted there, as a notebook's are in its cells
# (at three lines of markup a paragraph, a screenwriter's one-paragraph touch-ups read as
# 10-30 line edits).
XML_WRITING_FORMATS = frozenset({"fdx"})
_TAG = re.compile(r"<[^>]*>")


def _xml_prose(text: str) -> str:
    """The text of an XML document between its tags, a line per element that holds some."""
    lines = (_TAG.sub("", line).strip() for line in text.splitlines())
    return "\n".join(line for line in lines if line) + "\n"


# Subtitle formats (content.SUBTITLE_FORMATS): a cue's text is what the person wrote; its
# number, its timing and an Advanced SubStation file's header and styles are the format's (a
# one-line cue is four lines of SubRip: as lines of the file, a one-line fix of its wording
# would read as a 3-4 line edit).
_CUE_NUMBER = re.compile(r"^\d+$")
_ASS_DIALOGUE = re.compile(r"^Dialogue:(?:[^,]*,){9}(.*)$")


def _subtitle_text(ext: str, text: str) -> str:
    """The cues' text of a subtitle file, a line per line of dialogue."""
    out: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if ext in ("ass", "ssa"):
            if (m := _ASS_DIALOGUE.match(line)) and m.group(1).strip():
                out.append(m.group(1).strip())
        elif line and not _CUE_NUMBER.match(line) and "-->" not in line and not line.startswith(("WEBVTT", "NOTE")):
            out.append(line)
    return "\n".join(out) + "\n"


def _person_text(path: str, text: str) -> str | None:
    """What the person wrote of a file's text: a notebook's cells, an XML script's paragraphs,
    a subtitle file's cues, else the text itself (None for a notebook that is no notebook)."""
    x = _ext(path)
    if x == "ipynb":
        return _notebook_source(text)
    if x in XML_WRITING_FORMATS:
        return _xml_prose(text)
    if x in SUBTITLE_FORMATS:
        return _subtitle_text(x, text)
    return text


def _notebook_source(text: str) -> str | None:
    """A Jupyter notebook's cells as the person wrote them (None when it is no notebook)."""
    try:
        cells = json.loads(text).get("cells")
    except (ValueError, AttributeError):
        return None
    if not isinstance(cells, list):
        return None
    parts = []
    for c in cells:
        src = c.get("source") if isinstance(c, dict) else None
        parts.append("".join(src) if isinstance(src, list) else src if isinstance(src, str) else "")
    return "\n".join(p.rstrip("\n") for p in parts if p) + "\n"


# Front matter naming the web page a document came from: what a web clipper saves (Obsidian's
# Web Clipper and MarkDownload write `source:`, others `url:` or `source_url:`).
_CLIP_SOURCE = re.compile(r"(?im)^(source|url|source_url|original_url)\s*:\s*[\"']?https?://")


def _clipped(text: str) -> bool:
    """A page saved from the web: the clipper wrote its words, not the person (B, F)."""
    if not text.startswith("---"):
        return False
    end = text.find("\n---", 3)
    return end > 0 and bool(_CLIP_SOURCE.search(text, 3, end))


def _versions(by: dict[str, Events]) -> Counter[str]:
    """How many differently named files of the session share each name once its date or
    version is taken off (`plan_v1.md`, `plan_v2.md` -> `plan.md`: 2)."""
    names = {_name(p) for evs in by.values() for e in evs for k in _PATH_KEYS
             if type(p := e.get(k)) is str and p}
    return Counter(undated(n) for n in names)


def _new_dated(name: str, versions: Counter[str]) -> bool:
    """A written document whose date or version is only its name (`memo_20260902.md`): no
    other file of the session carries its name with another date or version, and nothing
    else in the name says backup. `report_v2.md` beside `report_v1.md` is a version of it."""
    return not _written_backup(name) and versions[undated(name)] <= 1


# A copy's source named as a template (in a few languages), whatever the copy is called.
_TEMPLATE_SOURCE = re.compile(r"(?i)templat|vorlage|mod[eè]le|plantilla|modello|sjabloon")
_DIGITS = re.compile(r"\d+")


def _started_blank(events: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """Files that came into being empty in the session, under the name the person then gave
    them and where they put them: path -> when made. A note app's "new note" (`Untitled.md`,
    renamed and moved before anything is typed), a file manager's "New document": the
    person's writing goes into it in later saves, each an overwrite of a file that existed,
    and it is a new document of theirs all the same, whoever made the empty file."""
    out: dict[str, float] = {}
    for e in events:
        t = e["event_type"]
        if t == "file_write":
            if e.get("operation") == "create" and e.get("content_length") == 0 and type(p := e.get("file_path")) is str:
                out[p] = _ts(e)
        elif out and (t == "file_rename" or t == "file_move") and (old := e.get("old_path")) in out \
                and type(new := e.get("new_path")) is str:
            out[new] = out.pop(old)
    return out


def _started_from_copies(by: dict[str, Events]) -> dict[str, float]:
    """Files the session copied from a template, or from another document under another
    name, and the person then saved over: path -> when copied. A new proposal started as a
    copy of the firm's template is the person's new document once they write it; the first
    save replaces the template's text and is the writing of it, not a revision (D) of work
    that existed. A copy under the same name but for its numbers (`deck_v2` to `deck_v3`,
    last year's `Proposal_2024` to `Proposal_2025`) is a new version of the person's own
    document: saving over it revises that work. Backup copies are the person's safety net."""
    out: dict[str, float] = {}
    for e in by.get("file_copy", _NONE):
        dest, src = str(e.get("dest_path") or ""), str(e.get("source_path") or "")
        if not dest or e.get("is_backup") is True or _backup(_name(dest)):
            continue
        if _TEMPLATE_SOURCE.search(src) or _DIGITS.sub("", _name(src).lower()) != _DIGITS.sub("", _name(dest).lower()):
            out.setdefault(dest, _ts(e))
    return out


# Formats a program renders a document into: Org's and Quarto's exports, pandoc's, a static
# site's pages. Beside a source of the same name the session wrote (`paper.org` and
# `paper.html`, `report.qmd` and `report.docx`), the rendering is the program's output of the
# person's one document, not a second one: counted, an exporting minimal writer (Emacs's
# `C-c C-e h h` after each note) read as writing twice as much in two files.
EXPORT_TYPES = frozenset({"html", "htm", "tex", "docx", "odt", "rtf", "epub"})


def _exports(docs: Mapping[str, int]) -> list[str]:
    """The documents (paths) that are renderings of another document of the session: same
    folder, same name, an export format beside a source that is not one."""
    by_stem: dict[tuple[str, str], list[str]] = {}
    for path in docs:
        name = _name(path)
        stem = name.rsplit(".", 1)[0].lower() if "." in name else name.lower()
        by_stem.setdefault((posixpath.dirname(path), stem), []).append(path)
    out: list[str] = []
    for paths in by_stem.values():
        if len(paths) > 1 and any(_ext(p) not in EXPORT_TYPES for p in paths):
            out += [p for p in paths if _ext(p) in EXPORT_TYPES]
    return out


# A speech recogniser's transcript (Whisper's, Descript's, Otter's, a meeting app's): a line per
# turn, each opening with its time (`[00:01:25] SPEAKER_00: ...`, `00:01:25.300 Ana: ...`), or a
# speaker's name and the time on a line of their own (Otter's `Speaker 1  0:03`). A program wrote
# it whole; the person's writing is what they change in it. TRANSCRIPT_LINES such lines at
# least, and TRANSCRIPT_SHARE of the text's lines: a person's agenda or lab log has a few.
_TIMED_LINE = re.compile(r"^\s*(?:[\[(]?\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d{1,3})?[\])]?\s"
                         r"|[^\n]{1,40}?\s\d{1,2}:\d{2}(?::\d{2})?\s*$)")
# So is a program's log: a line per event, each opening with its date and its time to the second
# (`2026-08-27 09:22:53,120 INFO ...`, `[2026-08-27T09:22:53Z] ...`, adb logcat's `08-27
# 09:22:53.913 28753 ...`, syslog's `Aug 27 09:22:53 host ...`). A logger or a capture script
# (alt501's `adb logcat` into `logcat_<device>_<run>.txt`) wrote it whole, as it ran; a person
# stamps the second on a few lines of a timeline, not on every line of what they write (alt501:
# QA testers whose scripts' device logs read as 200-line reports, minimal writers called
# comprehensive at p 0.99-1.00).
_LOGGED_LINE = re.compile(r"^\s*[\[(]?(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}(?:[-/.]\d{2,4})?"
                          r"|[A-Z][a-z]{2}\s+\d{1,2})[T\s_]+\d{1,2}:\d{2}:\d{2}")
TRANSCRIPT_LINES = 20
TRANSCRIPT_SHARE = 0.5
_CLOCK = re.compile(r"\d:\d\d")


def _machine_record(text: str) -> bool:
    """Is the text a program's timed record: a recogniser's transcript (_TIMED_LINE) or a
    log (_LOGGED_LINE)?"""
    if text.count("\n") < TRANSCRIPT_LINES - 1 or not _CLOCK.search(text, 0, 2000):
        return False  # too short, or no time near its start: most texts, no line read
    lines = [line for line in text.splitlines() if line.strip()]
    timed = sum(1 for line in lines if _TIMED_LINE.match(line) or _LOGGED_LINE.match(line))
    return timed >= TRANSCRIPT_LINES and timed >= TRANSCRIPT_SHARE * len(lines)


# A plain-text document marks its sections as people did before markdown: a title underlined
# with `===`, sections numbered `1.`, `1.1`, `1.1.1` on lines of their own. Its heading depth is
# its outline's (the title one level, each part of a section's number one more), as `#`, `##`
# and `###` would give it: a report of numbered sections is no bullet list, whatever its
# sections hold (alt568: pharmacists' 300-line reports of `1.1 By drug` sections read as notes).
# A section number stands on a line of its own after a blank line, starts a short capitalised
# title, and is followed by its content, not by the next number of a numbered list.
_UNDERLINED_TITLE = re.compile(r"(?m)(?<=\S)[ \t]*\n[ \t]*={3,}[ \t]*$")
_NUMBERED_SECTION = re.compile(r"(?m)^[ \t]*(\d{1,2}(?:\.\d{1,2}){0,3})\.?[ \t]+[A-Z][^\n]{0,60}$")
_NEXT_LINE = re.compile(r"\s*([^\n]*)")
MIN_NUMBERED_SECTIONS = 2


def outline_depth(text: str) -> int:
    """The heading depth of a text's plain-text outline (0 when it has none). One pass of a
    regular expression finds the candidate lines; only those are looked at again."""
    if "\n\n1" not in text and text[:1] != "1":
        return 0  # an outline's first section is numbered 1, after a blank line (a cheap test first)
    found = list(_NUMBERED_SECTION.finditer(text))
    if len(found) < MIN_NUMBERED_SECTIONS:
        return 0
    sections: list[int] = []
    for m in found:
        at = m.start()
        if at:  # a section number stands after a blank line
            prev = text.rfind("\n", 0, at - 1)
            if text[prev + 1:at - 1].strip():
                continue
        if m.group(0).rstrip()[-1] in ".,;:":
            continue
        nxt = _NEXT_LINE.match(text, m.end())
        after = nxt.group(1).strip() if nxt else ""
        if not after:
            continue
        parts = m.group(1).count(".") + 1
        sub = _NUMBERED_SECTION.match(after)
        if sub is None or sub.group(1).count(".") + 1 > parts:
            sections.append(parts)
    if len(sections) < MIN_NUMBERED_SECTIONS:
        return 0
    return (1 if _UNDERLINED_TITLE.search(text) else 0) + max(sections)


def _production(by: dict[str, Events], writes: Events, text_of: Mapping[int, str],
                order: Mapping[int, int] | None = None,
                diff_of: Mapping[int, str] | None = None,
                started: Mapping[str, float] | None = None) -> tuple[dict[str, Any], list[str]]:
    """New documents the person wrote: not copies, backups, scratch files or versions. A
    document started as a stub and typed on in edits (each save of an editor an edit) is as
    long as it stood at the end of the session: most of its text came in the edits
    (STUB_GROWTH). Edits that added less are revision (D), not production.
    Also returns what was typed into such stubs (their edits' added lines, where the diffs
    are known): that text is the document's, for what it holds besides words (F)."""
    copied = {e.get("dest_path") for e in by.get("file_copy", _NONE)}
    # a recogniser's transcripts and a program's logs, and the copies the person made of one to
    # clean up: their lines are the program's words (_machine_record)
    records = {e.get("file_path") for e in writes if (t := text_of.get(id(e))) and _machine_record(t)}
    if records:
        records |= {e.get("dest_path") for e in by.get("file_copy", _NONE) if e.get("source_path") in records}
    versions: Counter[str] | None = None  # read only for a name that looks like a backup
    docs: dict[str, int] = {}
    shapes: dict[str, tuple[int, int]] = {}  # path -> (non-blank lines, list lines)
    depths: dict[str, int] = {}  # path -> how deep its headings go
    edits = by.get("file_edit", _NONE)
    changes: Events = writes
    if edits and order is not None:
        changes = sorted([*writes, *edits], key=lambda e: order.get(id(e), 0))
    grown: dict[str, int] = {}  # path -> lines the edits added since it was last written
    for e in changes:
        path = str(e.get("file_path") or "")
        if e["event_type"] == "file_edit":
            if path in docs:  # a document of this session's
                grown[path] = grown.get(path, 0) + _int(e.get("lines_added")) - _int(e.get("lines_deleted"))
            continue
        grown.pop(path, None)
        if not _text_kind(e, WRITTEN_TYPES, text_of):
            continue
        from_copy = started is not None and path in started and e.get("operation") == "overwrite"
        if e.get("operation") == "overwrite" and path not in docs and not from_copy:
            continue  # rewriting an existing file is iteration (D), not new production
        name = _name(path)
        if (path in copied and not from_copy) or _scratch(name) or path in records or e.get("downloaded") \
                or CONFLICT_COPY.search(name):
            continue
        if _backup(name):
            if versions is None:
                versions = _versions(by)
            if not _new_dated(name, versions):
                continue
        text = text_of.get(id(e))
        if text is not None and _clipped(text):
            continue
        if text is not None:
            text = _person_text(path, text)
            if text is None or tab_separated_data(text):
                continue  # no notebook, or a data file under a text name (an export's records)
        if text is None:
            docs[path] = round(_int(e.get("content_length")) / FALLBACK_CHARS_PER_LINE)
            shapes.pop(path, None)
            depths.pop(path, None)
            continue
        st = analyse(text)
        docs[path] = st.lines
        shapes[path] = (st.nonblank_lines, st.list_lines)
        depths[path] = st.max_heading_depth or outline_depth(text)
    for path in _exports(docs):
        docs.pop(path)
        shapes.pop(path, None)
        depths.pop(path, None)
        grown.pop(path, None)
    typed: list[str] = []
    for path, g in grown.items():
        if g > STUB_GROWTH * docs[path]:  # a stub typed on
            docs[path] += g
            if diff_of:
                typed += ["\n".join(diff_lines(t)[0]) for e in edits if e.get("file_path") == path
                          and (t := diff_of.get(id(e)))]
    written = sum(n for n, _ in shapes.values())
    return {"opp": bool(docs), "docs": len(docs), "lines": sum(docs.values()),
            "largest": max(docs.values(), default=0),
            # how much of what they wrote is bullet points (table 2's minimal style), where the text is known
            "text_lines": written,
            "list_share": round(sum(k for _, k in shapes.values()) / written, 3) if written else None,
            "heading_depth": max(depths.values(), default=0)}, typed


# A folder named for the day it was made (`Exports/2026-02-24/`, `CMS Exports/20260224/`,
# `runs/2026-01-14_lr3e-4/`) is what programs make for a day's exports and runs, and what
# people of every filing habit make for a day's work: on the 96 models alt384-479 and
# users-dev, deep nesters made 537 of them, moderate organisers 489 and flat people 467. It says
# nothing of how the person organises, unless they moved files into it (alt470's and alt473's
# flat people, whose case system and collection database export into such folders, read as
# organisers). A date may sit a time zone or a night's work away from the clock's day.
_DAY = re.compile(r"(?<!\d)((?:19|20)\d{2})[-_.]?(\d{2})[-_.]?(\d{2})(?!\d)")
DAY_BEFORE_MS = 14 * 3_600_000.0
DAY_AFTER_MS = 38 * 3_600_000.0


# A publishing tool's record of what it copied (a version's `.json`, a sidecar `.xml`).
METADATA_TYPES = frozenset({"json", "xml", "yaml", "yml"})


def _named_for_its_day(prefix: str, ms: Any) -> bool:
    """Does the folder's name carry the date it was made (`ms`) on?"""
    if not isinstance(ms, _NUMBER):
        return False
    day = stamp_ms(_DAY, _name(prefix.rstrip("/")))
    return day is not None and -DAY_BEFORE_MS <= ms - day <= DAY_AFTER_MS


def _not_organising(dirs: Events, by: dict[str, Events], creates: Events, laid: set[int],
                    tool_copies: Sequence[str] = (), tool_creates: Events = (),
                    delivered: set[Any] | None = None) -> set[int]:
    """Folders whose making says nothing of how the person organises (C), by what the
    session placed in them:

    - only copies, the person's or a program's: a backup or a copied project, whose structure
      is the source tree's (a music program's `Backup/`, filled with its copies of the set on
      every save), also with the metadata a publishing tool writes beside its copy (a
      pipeline's `publish/comp/v002/` holding the script and the version's `.json`: alt623);
    - only new images: a figures folder, the place of the visual output (table 2 counts a
      figures folder under F, cross-modal), whatever it is called in the person's language;
    - a project's folder that a program made for a new document (_document_folders);
    - a tree a program laid out in one burst (`laid`: _laid_out);
    - a program's temporary folder (`Temp/`, or one inside it: _in_temp_folder), where it
      keeps its working files (a game engine makes `Temp/` each time it opens a project);
    - a document package or a folder inside it (PACKAGE_TYPES): one document to the person;
    - a folder outside the workspace, which the importer keeps by its name alone
      (`external/<name>`): where it lies in the person's tree is unknown (Windows File
      History mirroring Documents on a backup drive made folders twelve levels deep: alt301);
    - a folder named for the day it was made, nothing moved into it (_named_for_its_day);
    - a folder a program began to fill within PROGRAM_FOLDER_MS of its making, with nothing
      of the person's arriving in those seconds (_program_filled), one a file was written
      straight into within FILLED_AT_ONCE_MS (_filled_at_once), one several new files were
      delivered to in those seconds (_delivered), and a folder made with such a folder in
      the same call that holds nothing else.

    A folder that receives files moved in, or documents written there, is organising."""
    placed: list[tuple[str, str]] = [(str(e.get("dest_path") or ""), "copy") for e in by.get("file_copy", _NONE)]
    placed += [(dest, "copy") for dest in tool_copies]
    placed += [(str(e.get("new_path") or ""), "move") for e in by.get("file_move", _NONE)]
    deleted = {str(e.get("file_path") or "") for e in by.get("file_delete", _NONE)}
    for e in creates:
        path = str(e.get("file_path") or "")
        ext = _ext(path)
        placed.append((path, "image" if ext in IMAGE_TYPES else "recording" if ext in RECORDING_TYPES
                       else "gone" if path in deleted else "metadata" if ext in METADATA_TYPES else "write"))
    out = _document_folders(dirs, creates) | laid
    if not dirs:
        return out
    moved_in = _moved_in(by)
    tools, persons, moved = _ByPath(tool_creates), _ByPath((*creates, *moved_in)), _ByPath(moved_in)
    created = _ByPath(creates)
    opened = {e.get("file_path") for t in ("file_read", "file_edit") for e in by.get(t, _NONE)}
    writes = _ByPath((*creates, *tool_creates))
    copied_in = _ByPath([{**e, "file_path": e.get("dest_path")} for e in by.get("file_copy", _NONE)])
    for e in dirs:
        prefix = str(e.get("dir_path") or "").rstrip("/") + "/"
        if _in_temp_folder(prefix) or _in_package(prefix) or prefix.startswith(EXTERNAL_PREFIX + "/"):
            out.add(id(e))
            continue
        if _delivered(e, prefix, created, moved, opened, delivered):
            out.add(id(e))
            continue
        kinds = {kind for path, kind in placed if path.startswith(prefix)}
        if "move" not in kinds and _named_for_its_day(prefix, e.get("timestamp")):
            out.add(id(e))
            continue
        if kinds in ({"copy"}, {"copy", "metadata"}) or kinds == {"image"} or kinds == {"recording", "gone"} \
                or _program_filled(e, prefix, tools, persons) or _filled_at_once(e, prefix, writes) \
                or _filled_at_once(e, prefix, copied_in, COPIED_AT_ONCE_MS):
            out.add(id(e))
    # a folder made just before such a folder (CHAIN_SECONDS: in the same call) that holds
    # nothing else was made with it (`results/` above a backtest's first run folder)
    folders = _ByPath(dirs, "dir_path")
    places = _ByPath([{"file_path": path} for path, _ in placed])
    for e in dirs:
        prefix = str(e.get("dir_path") or "").rstrip("/") + "/"
        if id(e) in out:
            continue
        inner = [d for d in folders.under(prefix) if d is not e]
        if inner and all(id(d) in out for d in inner) \
                and any(0 <= _ts(d) - _ts(e) <= CHAIN_SECONDS * 1000 for d in inner) \
                and all(_inside_any(str(x["file_path"]), inner) for x in places.under(prefix)):
            out.add(id(e))
    return out


class _ByPath:
    """Events in the order of a path of theirs, to find those under a folder by bisection
    (a package manager's install makes thousands of folders and files in one session)."""

    def __init__(self, events: Iterable[Mapping[str, Any]], key: str = "file_path") -> None:
        pairs = sorted(((str(e.get(key) or ""), i, e) for i, e in enumerate(events)), key=lambda x: (x[0], x[1]))
        self.keys = [p for p, _, _ in pairs]
        self.events = [e for _, _, e in pairs]

    def under(self, prefix: str) -> Iterator[Mapping[str, Any]]:
        i = bisect.bisect_left(self.keys, prefix)
        while i < len(self.keys) and self.keys[i].startswith(prefix):
            yield self.events[i]
            i += 1


def _moved_in(by: dict[str, Events]) -> Events:
    """The person's moves and copies, as events at their destination."""
    return [*({**e, "file_path": e.get("new_path")} for e in by.get("file_move", _NONE)),
            *({**e, "file_path": e.get("dest_path")} for e in by.get("file_copy", _NONE))]


def _folder_view_file(path: str) -> bool:
    """A file manager's file for the folder it shows (`.DS_Store`, `Thumbs.db`): written when
    anyone opens the folder, it says nothing of who made it."""
    return _name(path).lower() in OS_FOLDER_FILES


def _inside_any(path: str, folders: Events) -> bool:
    return any(path.startswith(str(d.get("dir_path") or "").rstrip("/") + "/") for d in folders)


# Making a folder and saving a file into it takes a person seconds (a name for the folder, a
# save dialog, a name for the file); a program does both in one go: a backtest engine's
# `results/<run-id>/` with its config written 0.1 s after, a build's output folder. A file
# written straight into a folder within FILLED_AT_ONCE_MS of its making was written by what
# made it. So is a file copied in within COPIED_AT_ONCE_MS: a script's `mkdir` and `cp`
# (a climate model's run script makes `runs/<case>/` and copies the namelist in 20 ms later,
# and flat modellers read as moderate organisers at p 0.90-0.93, alt653). A copy a second
# later may be a person's drag into the folder they just named, or a publishing tool's
# version folder that the person's notes make theirs (alt623), so copies get the tighter
# bound. (Files moved in at once stay the person's: Finder's "New Folder with Selection";
# so does a note of the folder's name, a note app's folder note: _document_folders.)
FILLED_AT_ONCE_MS = 1_000.0
COPIED_AT_ONCE_MS = 200.0


def _filled_at_once(folder: Mapping[str, Any], prefix: str, writes: _ByPath,
                    within_ms: float = FILLED_AT_ONCE_MS) -> bool:
    made = folder.get("timestamp")
    if not isinstance(made, _NUMBER) or folder.get("authored") is True:
        return False  # (a view that says the folder is the person's has no timing: bench.trajectories.files_only)
    name = _name(prefix.rstrip("/")).lower()
    return any(isinstance(t := e.get("timestamp"), _NUMBER) and 0.0 <= t - made <= within_ms
               and "/" not in (p := str(e.get("file_path") or ""))[len(prefix):]
               and not (_ext(p) in PLACED_TYPES and _name(p).rsplit(".", 1)[0].lower() == name)
               and not _folder_view_file(p) for e in writes.under(prefix))


# A program that keeps its work in folders of its own makes one and writes into it at once: a
# CAT tool's job folder `C:\CATalyst\Jobs\010526OKAFOR\` with its steno notes, audio and
# dictionary seconds after it was made, whatever the person's habits (alt401: flat court
# reporters read as moderate organisers at p 0.98). A person who makes a folder and saves into
# it in those seconds is in it too; where a program put the first file there within the
# seconds after the folder appeared, and nothing of the person's came then, the folder was
# made for the program, whatever arrives later (a simulation's study file, then its log and
# results minutes later, which the recorder cannot tell from the person's: alt438). (A folder
# the person makes and a program of theirs fills later, an export they start, stays their
# filing.)
PROGRAM_FOLDER_MS = 10_000.0


def _program_filled(folder: Mapping[str, Any], prefix: str, tools: _ByPath, persons: _ByPath) -> bool:
    """Did a program write a new file into the folder within PROGRAM_FOLDER_MS of its making
    (not a file manager's view file), and nothing of the person's (`persons`: their new
    files, moves and copies, at their paths) arrive there in that time?"""
    made = folder.get("timestamp")
    if not isinstance(made, _NUMBER):
        return False

    def soon(e: Mapping[str, Any]) -> bool:
        return isinstance(t := e.get("timestamp"), _NUMBER) and 0.0 <= t - made <= PROGRAM_FOLDER_MS
    return any(soon(e) and not _folder_view_file(str(e.get("file_path"))) for e in tools.under(prefix)) \
        and not any(soon(e) for e in persons.under(prefix))


# A folder that DELIVERED_FILES or more new files arrive in within PROGRAM_FOLDER_MS of its
# making, none moved in and none opened in the session, is a delivery: a build server's
# `Builds/3.5.382/` with the app, its symbols and release notes; a camera department's
# `Reports/Day 6/`; an experiment tracker's run folder; a package unpacked. A person who makes
# a folder saves into it through a dialog, one file at a time; two new files in those seconds,
# neither looked at again, are what a program writes, whoever the recorder says wrote them
# (alt500's and alt501's flat coordinators and testers read as moderate organisers at p
# 0.65-0.97). Over alt384-503: +14 -5, the losses deep nesters whose programs' folders (an
# MLflow run's, an e-learning package's, a Helm chart's) had read as their nesting; on the
# unseen alt504-519, +1 -4. The documents a delivery writes while it goes on (a scanner's
# `report.txt` 20 s into its export of a patient's images, in a folder named for the day) are
# the program's to place, not filed by the person (alt512: optometrists read as deep nesters at
# p 0.91-0.99; +7 -1 on alt384-519, +1 -1 outside alt512). Not recordings alone: a producer's
# bounce of stems into a dated folder of theirs is exported at their command, a few seconds a
# stem, and is their filing (RECORDING_TYPES: the thirty-eighth round's alt96).
DELIVERED_FILES = 2


def _delivered(folder: Mapping[str, Any], prefix: str, writes: _ByPath, moved: _ByPath,
               opened: set[Any], files: set[Any] | None = None) -> bool:
    """Did DELIVERED_FILES new files the recorder gives the person (`writes`; a program's
    own are _program_filled's) arrive within PROGRAM_FOLDER_MS of the folder's making, not
    recordings alone, with nothing moved in then and none of them opened in the session?
    The delivery's paths go into `files`, all it wrote while it went on: a document among
    them (a scanner's `report.txt` 20 s into its export) was the program's to place too."""
    made = folder.get("timestamp")
    if not isinstance(made, _NUMBER) or folder.get("authored") is True:
        return False  # (a view that says the folder is the person's has no timing: bench.trajectories.files_only)

    def soon(e: Mapping[str, Any]) -> bool:
        return isinstance(t := e.get("timestamp"), _NUMBER) and 0.0 <= t - made <= PROGRAM_FOLDER_MS
    arrived = [e for e in writes.under(prefix) if soon(e)]
    if len(arrived) >= DELIVERED_FILES and not any(soon(e) for e in moved.under(prefix)) \
            and not all(_ext(str(e.get("file_path") or "")) in RECORDING_TYPES for e in arrived) \
            and not any(e.get("file_path") in opened for e in writes.under(prefix)):
        if files is not None:  # the delivery, for as long as it goes on (each file within seconds of the last)
            last = made
            for e in sorted(writes.under(prefix), key=_ts):
                if not 0.0 <= _ts(e) - last <= PROGRAM_FOLDER_MS:
                    break
                files.add(e.get("file_path"))
                last = _ts(e)
        return True
    return False


# A folder that received recordings (audio, video, the playlist a meeting program writes
# beside them) as the working files they were converted from went again is the converting
# program's: Zoom makes `Documents/Zoom/<date> <meeting>/`, writes its `.zoom` files there and
# replaces them with the meeting's `.mp4` and `.m4a` (alt196: nine flat and moderate
# researchers read as deep nesters at p 0.97-1.00 from those folders alone). A folder that
# received recordings only stays the person's filing: the thirty-eighth round's try of that
# lost four of alt96's deep nesters, who export stems into dated folders of their own.
RECORDING_TYPES = frozenset({"wav", "mp3", "m4a", "aac", "flac", "ogg", "opus", "aif", "aiff", "wma",
                             "mp4", "mov", "mkv", "avi", "webm", "m4v", "wmv", "m3u", "m3u8"})


# Programs that keep a document as a folder make that folder when the person starts a new
# one: a music program's `Low Tide Project/` with `Low Tide.als` in it (and its `Ableton
# Project Info/`), an IDE's `App/` with `App.sln`, a recording program's session folder. The
# folder is named after the document and the document is in it within seconds: that is one
# "new" command, for flat people and nesters alike, like a package (PACKAGE_TYPES), not
# filing. Only a program's project file: a note of the folder's name (`Settings/Weather/
# Weather.md`, a note app's folder note) is the person's filing, made at once or not (alt162:
# two deep nesters of a novel's notes lost their calls to a first version that took those).
DOCUMENT_FOLDER_SECONDS = 5.0
MIN_DOCUMENT_STEM = 3
# A program makes the folders above a document's folder with it, in one call: a person
# making three levels by hand takes longer than a second between them.
CHAIN_SECONDS = 1.0


# A program that lays out a tree makes its folders in one burst: a tax program's client folder
# with `Source Docs/`, `Returns/`, `Correspondence/` and `Workpapers/` in it, a publishing
# tool's submission template, a project generator's scaffold. Three or more folders side by
# side, each made within a second of the one before, are such a layout, not a person's filing
# (on 74 independent models and users-dev, sessions with one came from deep, moderate and
# flat organisers alike: 227, 223 and 191); where the person then puts things is theirs. A
# person's own `mkdir -p a/b/c` is a chain, one folder inside the other, and stays theirs
# (deep nesters' chains: 1,172 sessions against 390 and 329).
LAYOUT_SECONDS = 1.0
LAYOUT_SIBLINGS = 3


def _laid_out(dirs: Events) -> set[int]:
    """The folders (by id) made in a burst that lays out three or more side by side."""
    out: set[int] = set()
    burst: list[Mapping[str, Any]] = []
    for e in sorted(dirs, key=_ts):
        if burst and _ts(e) - _ts(burst[-1]) > LAYOUT_SECONDS * 1000:
            out |= _layout_ids(burst)
            burst = []
        burst.append(e)
    return out | _layout_ids(burst)


def _layout_ids(burst: Sequence[Mapping[str, Any]]) -> set[int]:
    if len(burst) < LAYOUT_SIBLINGS:
        return set()
    parents = Counter(posixpath.dirname(str(e.get("dir_path") or "").rstrip("/")) for e in burst)
    return {id(e) for e in burst} if max(parents.values()) >= LAYOUT_SIBLINGS else set()


def _document_folders(dirs: Events, creates: Events) -> set[int]:
    """The folders (by id) a program made for a new document, and those it laid out inside at once."""
    out: set[int] = set()
    made: list[tuple[str, float]] = []  # (document folder, when)
    into: dict[str, list[Any]] = {}
    for c in creates:
        into.setdefault(posixpath.dirname(str(c.get("file_path") or "")), []).append(c)
    for e in dirs:
        folder = str(e.get("dir_path") or "").rstrip("/")
        t = _ts(e)
        inside = next((f for f, ft in made if folder.startswith(f + "/") and 0 <= t - ft <= DOCUMENT_FOLDER_SECONDS * 1000), None)
        if inside is not None:
            out.add(id(e))
            continue
        name = _name(folder).lower()
        for c in into.get(folder, ()):
            path = str(c.get("file_path") or "")
            if not 0 <= _ts(c) - t <= DOCUMENT_FOLDER_SECONDS * 1000 or _ext(path) in PLACED_TYPES:
                continue
            stem = _name(path).rsplit(".", 1)[0].lower()
            if len(stem) >= MIN_DOCUMENT_STEM and (name.startswith(stem) or stem.startswith(name)):
                out.add(id(e))
                made.append((folder, t))
                break
    # the folders above one, made just before it, are the program's too: it made the whole
    # chain at once (`mkdir -p Documents/Xactimate/Exports/<claim>/` for its first export)
    for folder, t in made:
        for e in dirs:
            above = str(e.get("dir_path") or "").rstrip("/")
            if folder.startswith(above + "/") and 0 <= t - _ts(e) <= CHAIN_SECONDS * 1000:
                out.add(id(e))
    return out


# Where a person saves a new document says how they organise (C); figures, data and code go
# where their tools put them (a figures folder is F's, src/ is the project's).
PLACED_TYPES = (DOCUMENT_TYPES - {"", "html", "htm"}) | OFFICE_TYPES


def _placed_depth(e: Mapping[str, Any], owner: str | None = None) -> int:
    """The folder level a new file was put at, below the person's own root: the recorder's
    directory_depth (from its workspace root), else the path's, less the home's standard
    folders above it (home_areas); below a folder named after the person (`owner`: the
    session's naming.owner_key), counted from that folder."""
    path = str(e.get("file_path") or "")
    if owner is not None and (own := _below_owner(path, owner)) is not None:
        return own
    d = e.get("directory_depth")
    if isinstance(d, _NUMBER) and not isinstance(d, bool):
        return _below_home(path, _int(d), depth_of(path))
    return max(depth_of(path) - home_areas(path), 0)


# A folder named after the person on a shared tree (`Design/<login>_WIP/`, `Coding/<login>/`,
# `/work/<project>/<login>/`) is their own place there: what they file into it is at their
# root, however deep the share puts it, as the home's own folders are (home_areas). Game
# designers who kept every document in their `<login>_WIP` folder while reading the whole
# depot read as filing one level down (alt651: six flat designers called moderate at p
# 0.61-0.95), as alt614's coders did in `Coding\<login>\`. The login is known by a digest
# only (the import's `owner_key`, from the sessions' home paths); the home itself
# (`Users/<login>/`) is not such a folder, nor is a macOS sync drive's account folder
# (`Library/CloudStorage/GoogleDrive-<login>/`: the system's, home_areas counts it out).
# Counted from it, a flat SEO consultant's `My Drive/Clients/<client>/` read three levels
# deep and six flat or moderate people as deep nesters at p 0.64-1.00 (alt722).
def _below_owner(path: str, owner: str) -> int | None:
    """Folder levels between a file and the deepest folder above it named after the person,
    None where no such folder is."""
    parts = path.replace("\\", "/").strip("/").split("/")[:-1]
    for i in range(len(parts) - 1, -1, -1):
        if named_for_owner(parts[i], owner) and not (i and parts[i - 1].lower() in ("users", "home")) \
                and not (i >= 2 and parts[i - 1] in _MAC_SYNC_AREAS and parts[i - 2] == "Library"):
            return len(parts) - 1 - i
    return None


def _recorder_root(folder: str, recorded: Any) -> str:
    """The prefix of the recorder's root above a folder that a file in it has at `recorded`
    depth ("" where the depth is not given or the root is the import's)."""
    if not isinstance(recorded, _NUMBER) or isinstance(recorded, bool):
        return ""
    parts = folder.strip("/").split("/")
    keep = len(parts) - _int(recorded)
    return "/".join(parts[:keep]) + "/" if 0 < keep <= len(parts) else ""


def _below_home(path: str, recorded: int, path_depth: int) -> int:
    """A recorded depth less the home's standard folders that lie below the recorder's root.

    A recorder that counts from a folder inside the home (`OneDrive - Firm/Claims/` is its
    level 0, where the import keeps paths from the home) has counted those folders out
    already: its depth is path_depth less the levels above its root, and only home areas
    below that root are still in it. The home areas are read from the recorder's root down:
    where the import kept the folders above the home (a session on `/home/<u>/` and
    `/mnt/projects/` is stored from `/`, `home/<u>/Documents/notes.md`), `Documents/` is no
    level of the person's all the same."""
    above_root = max(path_depth - recorded, 0)
    if not above_root:
        return max(recorded - home_areas(path), 0)
    below = "/".join(path.replace("\\", "/").strip("/").split("/")[above_root:])
    return max(recorded - home_areas(below + ("/" if path.endswith("/") else "")), 0)


# A recorder that watches a whole home sees the person's folders below the home's standard
# ones: Desktop/, Documents/, Downloads/, a sync client's folder (and its Documents/ or My
# Drive/). Those are where a person's own tree begins, made by the system for everyone: a flat
# person's notes on the Desktop lie one level below the home and are at their root, a
# moderate organiser's `Documents/<course>/` is one level of their own. Section 2's levels are
# the person's folders, not the system's.
_HOME_AREA = re.compile(r"^(desktop|documents|my documents|downloads|dropbox( \(.*\))?|onedrive( - .*)?|"
                        r"google drive|icloud drive|nextcloud|owncloud|box|box sync)$", re.I)
_SYNC_INNER = re.compile(r"^(desktop|documents|my documents|my drive)$", re.I)
# macOS keeps the synced drives in the home's Library: iCloud Drive in `Library/Mobile
# Documents/com~apple~CloudDocs/` (an app's iCloud folder in `Library/Mobile Documents/<app>/
# Documents/`), the File Provider drives in `Library/CloudStorage/<Provider-account>/` (Google
# Drive's `My Drive/` and each of its `Shared drives/<name>/` inside). They are the drive's
# top, as `Dropbox/` is: a document saved at iCloud Drive's top is at the person's root, not
# three levels down (alt427's shop owners, alt489's journalists, alt534's accountants: flat
# people read as organisers or unknown).
_MAC_SYNC_AREAS = frozenset({"Mobile Documents", "CloudStorage"})
# OneDrive for Business syncs a SharePoint site's library into the home as
# `<Organisation>/<Site> - Documents/` (`Documents` is the name every site's library is given):
# both levels are the sync client's, and the library's top is where the team's folders begin,
# as `OneDrive - <Organisation>/` is (alt683's event planners, whose every event folder read
# three levels deep).
_SHAREPOINT_LIBRARY = re.compile(r"^.+ - (shared )?documents$", re.I)


def _mac_sync_areas(parts: list[str]) -> int:
    """The standard folders of a path under `Library/Mobile Documents` or `Library/CloudStorage`
    (parts: the path's components, the last a file or the folder itself)."""
    n = 3
    if len(parts) > 4 and _SYNC_INNER.match(parts[3]):
        n = 4
    elif len(parts) > 5 and parts[3].lower() == "shared drives":
        n = 5
    return n


@functools.lru_cache(maxsize=8192)
def home_areas(path: str) -> int:
    """How many of the home's standard folders a path (from the recorder's root) begins with."""
    parts = path.replace("\\", "/").strip("/").split("/")
    if len(parts) > 3 and parts[0] == "Library" and parts[1] in _MAC_SYNC_AREAS:
        return _mac_sync_areas(parts)
    if len(parts) > 2 and _SHAREPOINT_LIBRARY.match(parts[1]):
        return 2
    if len(parts) < 2 or not _HOME_AREA.match(parts[0]):
        return 0
    return 2 if len(parts) >= 3 and _SYNC_INNER.match(parts[1]) and not _SYNC_INNER.match(parts[0]) else 1


# A note named by its day alone (`2026-01-25.md`, Logseq's `2026_01_25.md`) is a journal's
# daily note, which the note app makes in its journal folder by itself when it opens: where
# it goes is the app's setting, not the person's filing (every one of a journaling person's
# sessions otherwise files a document into `Daily/`).
_DAY_NAME = re.compile(r"^\d{4}[-_.]?\d{2}[-_.]?\d{2}\.[^.]+$")


def _placed_document(path: Any) -> bool:
    """A new file whose place says how the person files (PLACED_TYPES, not a daily note, not
    a part of a document package)."""
    path = str(path or "")
    return _ext(path) in PLACED_TYPES and not _DAY_NAME.match(_name(path)) and not _in_package(posixpath.dirname(path))


# A sync client's copy of a file it could not reconcile (OneDrive's `<name>-DESKTOP-4F2A1B.<ext>`,
# named for the Windows machine; Dropbox's `<name> (conflicted copy <date>).<ext>`; Syncthing's
# `<name>.sync-conflict-<date>-<time>-<id>.<ext>`) holds what the person wrote once already: no
# new writing (B). Whether they remove it is theirs to show (E).
CONFLICT_COPY = re.compile(r"(-(DESKTOP|LAPTOP)-(?=[A-Z0-9]*\d)[A-Z0-9]{4,15}|\s\([^)]*conflicted copy[^)]*\)"
                           r"|\.sync-conflict-\d{8}-\d{6}-[A-Z0-9]+)(\.[A-Za-z0-9]{1,8})?$")


# Folders that are one document to the person: macOS shows a package as a single file (a
# Pages or Keynote document, a Scrivener or Descript project, a Lightroom previews store, an app), and
# the program lays out the folders inside it (`Report.pages/Data/`, `Novel.scriv/Files/Data/
# <UUID>/`) on every save, for flat and nested people alike.
PACKAGE_TYPES = frozenset({"pages", "numbers", "key", "scriv", "rtfd", "textbundle", "app", "bundle",
                           "framework", "plugin", "lrdata", "lrlibrary", "photoslibrary", "musiclibrary",
                           "fcpbundle", "logicx", "band", "xcodeproj", "xcworkspace", "xcassets",
                           "playground", "sparsebundle", "docset", "oo3", "graffle", "dtbase2", "dscript"})


@functools.lru_cache(maxsize=4096)
def _in_package(path: str) -> bool:
    """Is the folder a document package, or inside one?"""
    return any("." in d and d.rsplit(".", 1)[1].lower() in PACKAGE_TYPES for d in path.rstrip("/").split("/"))


def _inside_package(path: str) -> bool:
    """Is the file part of a document package (not the package itself)? What a program
    writes and removes inside its document (Final Cut's render and proxy files in its
    library, Scrivener's in its project) is its own housekeeping: on the five held-out
    models whose recorders show it, sessions that deleted such files came from selective,
    pragmatic and preservative people alike (L 92, M 88, R 76)."""
    return _in_package(posixpath.dirname(path))


# Where a session's work lies says where the person's own tree begins for it: a quant's
# notes beside the configs, code and results of the strategy they work on
# (`research/<strategy>/`) are at that project's root, however deep the recorder puts it. The
# project is the deepest folder holding PROJECT_SHARE of the files from before that the
# session read or edited, spread over two or more folders (a single folder read is a topic
# folder as likely as a project), from PROJECT_MIN_FILES files on.
PROJECT_SHARE = 0.8
PROJECT_MIN_FILES = 3


def _project_root(worked: Sequence[str]) -> str:
    """The folder the session's work spans, "" where none below the recorder's root does."""
    if len(worked) < PROJECT_MIN_FILES:
        return ""
    under: dict[str, set[str]] = {}
    count: Counter[str] = Counter()
    for p in worked:
        parts = p.strip("/").split("/")[:-1]
        folder = "/".join(parts)
        for k in range(1, len(parts) + 1):
            a = "/".join(parts[:k])
            count[a] += 1
            under.setdefault(a, set()).add(folder)
    # the folders holding PROJECT_SHARE of the work lie on one line of descent: the deepest
    spans = [a for a, n in count.items() if n >= PROJECT_SHARE * len(worked) and len(under[a]) >= 2]
    return max(spans, key=lambda a: a.count("/"), default="")


def _organisation(by: dict[str, Events], creates: Events, outputs: Events,
                  blank: Mapping[str, float] | None = None, tool_copies: Sequence[str] = (),
                  tool_creates: Events = (), owner: str | None = None) -> dict[str, Any]:
    laid = _laid_out(by.get("dir_create", _NONE))
    delivered: set[Any] = set()  # what a program delivered into a folder it made (_delivered)
    aside = _not_organising(by.get("dir_create", _NONE), by, creates, laid, tool_copies, tool_creates, delivered)
    docs = [e for e in outputs if _placed_document(p := e.get("file_path")) and p not in delivered]
    if blank:  # a document started empty is placed where the person first saved into it
        placed = {e.get("file_path") for e in docs}
        for e in by.get("file_write", _NONE):
            p = e.get("file_path")
            if p in blank and p not in placed and _placed_document(p):
                placed.add(p)
                docs.append(e)
    dirs = [e for e in by.get("dir_create", _NONE) if id(e) not in aside]
    moves = by.get("file_move", _NONE)
    dir_depths = []
    for e in dirs:
        d = e.get("depth")
        path = str(e.get("dir_path") or "")
        if isinstance(d, _NUMBER) and not isinstance(d, bool):
            dir_depths.append(_below_home(path + "/", _int(d), dir_depth_of(path)))
        else:
            dir_depths.append(max(dir_depth_of(path) - home_areas(path + "/"), 0))
    levels, made_ids, bases, above, seen = _levels_made(dirs, by)
    into = 0
    move_depths = []
    work: set[str] | None = None
    for e in moves:
        new_path, old_path = str(e.get("new_path") or ""), str(e.get("old_path") or "")
        new, old = depth_of(new_path) - home_areas(new_path), depth_of(old_path) - home_areas(old_path)
        if isinstance(d := e.get("destination_directory_depth"), _NUMBER) and not isinstance(d, bool):
            # as the recorder counts, from its root; the old place too where it lies below that root
            new = _below_home(new_path, _int(d), depth_of(new_path))
            root = _recorder_root(posixpath.dirname(new_path), _int(d))
            if root and old_path.startswith(root):
                old = _below_home(old_path, depth_of(old_path) - root.count("/"), depth_of(old_path))
        came_from = posixpath.dirname(old_path)
        if new > old and came_from and not posixpath.dirname(new_path).startswith(came_from + "/"):
            if work is None:
                work = _work_folders(by)
            if posixpath.dirname(new_path) in work:
                continue  # brought in beside the session's documents (_work_folders)
        move_depths.append(new)
        into += new > old
    made = {e.get("file_path") for e in creates}
    worked: list[str] = []  # the files from before the session the person read or edited
    work_depth: int | None = None
    for e in (*by.get("file_read", _NONE), *by.get("file_edit", _NONE)):
        if (p := e.get("file_path")) and p not in made:
            worked.append(str(p).replace("\\", "/"))
            d = _placed_depth(e)
            work_depth = d if work_depth is None or d < work_depth else work_depth
    project = _project_root(worked)
    placed = {id(e): _placed_depth(e, owner) for e in docs}
    for e in docs:
        if project and placed[id(e)] >= 1 and posixpath.dirname(str(e.get("file_path") or "").replace("\\", "/")) == project:
            placed[id(e)] = 0  # beside the session's work, at the root of its project
    folders = {posixpath.dirname(str(e.get("file_path") or "").replace("\\", "/")) for e in docs if placed[id(e)] >= 1}
    doc_folders = {folder_id(f) for f in folders}
    work_in = {folder_id(f): sum(1 for p in worked if p.startswith(f + "/")) for f in folders}
    roots = {f: _recorder_root(f, e.get("directory_depth")) for e in docs
             if (f := posixpath.dirname(str(e.get("file_path") or "").replace("\\", "/"))) in folders}
    work_near = {folder_id(f): sum(1 for p in worked if p.startswith(roots.get(f, "")))
                 for f in folders}
    laid_ids: set[str] = set()
    for e in by.get("dir_create", _NONE):
        if id(e) in laid:
            path = str(e.get("dir_path") or "").replace("\\", "/").strip("/")
            laid_ids |= {folder_id(path), _level_name_id(path.count("/") + 1, _name(path))}
    trees = []  # per document filed two or more levels down: its depth and its folders' ids by level
    for e in docs:
        if (d := placed[id(e)]) >= 2:
            parts = posixpath.dirname(str(e.get("file_path") or "").replace("\\", "/").strip("/")).split("/")
            trees.append([d, len(parts), [folder_id("/".join(parts[:k])) for k in range(1, len(parts) + 1)],
                          [_level_name_id(k, parts[k - 1]) for k in range(1, len(parts) + 1)]])
    return {
        # Placing something is the chance to show how one organises: a new file, a folder, a
        # move (not a program's working file in its Temp/ folder).
        "opp": bool(dirs or moves or any(not _in_temp_folder(str(e.get("file_path") or "")) for e in creates)),
        "dirs": len(dirs),
        "max_dir_depth": max(dir_depths, default=0),
        "levels_made": levels,
        "made_ids": made_ids,
        "bases": bases,
        "above": above,
        "seen": seen,
        "moves": len(moves),
        "moves_into_subfolders": into,
        "max_move_depth": max(move_depths, default=0),
        "creates": len(creates),
        # where the session's new documents went: the root, or folders below it
        "docs_at_root": sum(1 for e in docs if placed[id(e)] == 0),
        "docs_below": sum(1 for e in docs if placed[id(e)] >= 1),
        # how deep below the root the deepest of them went (tiers._filing_depth)
        "doc_depth": max((placed[id(e)] for e in docs), default=0),
        # the folders they went into below it (tiers._filed_below: one folder for all is a root)
        "doc_folders": sorted(doc_folders)[:MADE_IDS_KEPT],
        # how many of the person's reads and edits of files from before lay in or below each
        # of those folders, and in all (tiers._home_folder: a folder they file everything in is
        # their root only where their work lies there too)
        "work_in": {f: n for f, n in work_in.items() if f in doc_folders},
        "work": len(worked),
        # and how many lay under the same root of the recorder's (tiers._home_folder: work
        # under another, a code base beside `Documents/notes/` where the recorder counts
        # from Documents/ and from the projects' folder, is no wider workspace of that folder)
        "work_near": {f: n for f, n in work_near.items() if f in doc_folders},
        # the shallowest level of the files from before they read or edited (tiers._filing_depth)
        "work_depth": work_depth,
        # the folders a program laid out in one burst (_laid_out), and per document filed
        # two or more levels down its depth and its folders' ids by level (tiers._filing_depth:
        # a program's tree is not the person's nesting)
        "laid_out": sorted(laid_ids)[:2 * MADE_IDS_KEPT],
        "doc_trees": sorted(trees, key=lambda t: -t[0])[:DOC_TREES_KEPT],
    }


# A file brought in from another place (a screenshot from the Desktop, a download, a file
# AirDropped) and put in the folder where the session's documents are written is put with the
# work, not filed into a subfolder: a flat person keeps everything of a project in its folder,
# and where the recorder's root is the home, that folder lies levels below it. On 76
# independent models such moves came from flat people 433 times, from moderate and deep
# organisers 178 and 202; filing is a move below the folder it came from, or below the work.
def _work_folders(by: dict[str, Events]) -> set[str]:
    """The folders of the documents the session wrote or edited."""
    return {posixpath.dirname(p) for t in ("file_write", "file_edit") for e in by.get(t, _NONE)
            if _ext(p := str(e.get("file_path") or "")) in PLACED_TYPES}


# Fields of an action that name a file (its folder existed) or a folder.
_FILE_FIELDS = ("file_path", "old_path", "new_path", "source_path", "dest_path")


def _level_name_id(level: int, name: str) -> str:
    """A folder's name at its level, as a short identity: a program lays out the same names
    for every client or project (`Clients/2026/<client>/Workpapers`)."""
    return folder_id(f"{level}:{name.lower()}")


# How many of a session's documents filed deep are remembered with their folders' ids.
DOC_TREES_KEPT = 8


# How many folders of a session are remembered by name (a short hash of their path) so that a
# later session can tell the person's own tree from one they were given.
MADE_IDS_KEPT = 32
# The folders that held or received something in a session, shallowest first, remembered (by id)
# so that a later session's new folder inside one of them is not counted from the root
# (tiers.known_tree). The person's tree lies in its first few levels.
SEEN_DEPTH_KEPT = 5
SEEN_IDS_KEPT = 96


@functools.lru_cache(maxsize=16384)
def _as_folder(path: str) -> str:
    return path.replace("\\", "/").strip("/")


@functools.lru_cache(maxsize=16384)
def _folder_of(path: str) -> str:
    """The folder of a file's path, as _levels_made compares folders."""
    return posixpath.dirname(_as_folder(path))


@functools.lru_cache(maxsize=16384)
def folder_id(path: str) -> str:
    """A folder's short, nameless identity (8 hex of a hash of its relative path): enough to
    recognise it in another session of the same person, not to read it back."""
    return hashlib.blake2b(path.encode("utf-8", "surrogatepass"), digest_size=4).hexdigest()


def _levels_made(dirs: Events, by: dict[str, Events]) -> tuple[int, list[str], list[list[Any]], list[list[Any]], list[str]]:
    """How many levels of folders the person built, at most, below the folders that already
    existed: a new folder's depth less that of its deepest ancestor the session shows was
    there (it held or received something and was not made in the session). A folder made
    inside a firm's deep tree (Close/2024/03-March/Accruals) is one level of the person's
    own, not the three of a deep nester (section 2's C is how the person organises, not the
    tree they were given). An ancestor seen only through the new folders themselves counts as
    made too: `mkdir -p a/b/c` logged as `a/b/c` alone is three levels.

    Also returned: the made folders' ids, and per pre-existing base its id and the depth of
    the deepest folder made under it: where another session of the person made that base,
    the tree is the person's own and counts whole (tiers.own_tree). And, for tiers.known_tree,
    per folder counted from above what the session showed, its depth and those ancestors'
    ids by level, and the ids of the folders the session showed were there."""
    made = {str(e.get("dir_path") or "").replace("\\", "/").strip("/") for e in dirs}
    made.discard("")

    def inside_made(folder: str) -> bool:
        return any(folder == m or folder.startswith(m + "/") for m in made)

    existing: set[str] = set()
    shown: set[str] = set()  # the folders the session's actions name
    for t, evs in by.items():
        if t == "dir_create":
            continue
        for e in evs:
            for f in _FILE_FIELDS:
                if isinstance(v := e.get(f), str):
                    shown.add(_folder_of(v))
            if isinstance(v := e.get("directory_path"), str):
                shown.add(_as_folder(v))
    for folder in shown:
        if folder in ("", ".") or folder in existing or (made and inside_made(folder)):
            continue
        while folder and folder not in existing:
            existing.add(folder)
            folder = posixpath.dirname(folder)
    shallow = sorted((f.count("/"), f) for f in existing if f.count("/") < SEEN_DEPTH_KEPT)[:SEEN_IDS_KEPT]
    seen = sorted(folder_id(f) for _, f in shallow)
    if not made:
        return 0, [], [], [], seen
    best = 0
    under: dict[str, int] = {}  # pre-existing base -> depth of the deepest folder made below it
    above: list[list[Any]] = []  # per folder: its depth and the ancestors counted as made, by level
    for m in made:
        parts = m.split("/")
        base = max((k for k in range(1, len(parts)) if "/".join(parts[:k]) in existing), default=0)
        best = max(best, len(parts) - base)
        if base:
            key = "/".join(parts[:base])
            under[key] = max(under.get(key, 0), len(parts))
        if len(parts) - base >= 2:
            above.append([len(parts), [[k, folder_id("/".join(parts[:k]))] for k in range(base + 1, len(parts))]])
    ids = sorted(folder_id(m) for m in made)[:MADE_IDS_KEPT]
    above = sorted(above, key=lambda a: (-a[0], a[1]))[:MADE_IDS_KEPT]
    return best, ids, sorted([folder_id(b), d] for b, d in under.items())[:MADE_IDS_KEPT], above, seen


# The longest pause between two saves of one editor while the person types (autosave: VS
# Code after 1 s, Obsidian every 2 s, Typora every few seconds). A person making the next
# change finds the place first: their separate edits are further apart, or have a read or
# a switch between them.
AUTOSAVE_GAP_MS = 5000.0


def _saves_joined(edits: Events, order: Mapping[int, int]) -> Events:
    """Edits of one file saved back to back while the person typed, joined into the one
    change the person made: an editor that saves as one types splits a 40-line rewrite of a
    section into three 13-line edits seconds apart, which read as small passes."""
    out: list[Mapping[str, Any]] = []
    last_pos = last_ts = -1.0
    for e in edits:
        pos, ts = order.get(id(e), -2), _ts(e)
        if out and pos == last_pos + 1 and ts - last_ts <= AUTOSAVE_GAP_MS \
                and out[-1].get("file_path") == e.get("file_path"):
            prev = out[-1]
            out[-1] = {**prev, "lines_added": _int(prev.get("lines_added")) + _int(e.get("lines_added")),
                       "lines_deleted": _int(prev.get("lines_deleted")) + _int(e.get("lines_deleted"))}
        else:
            out.append(e)
        last_pos, last_ts = pos, ts
    return out


# A change of a file within this long after the person rewrote it whole is part of that
# save, not a second revision: a formatter run on save (clang-format, black), an editor
# writing the file twice. Nobody reads a rewrite and starts on the next change in a second.
SAVE_ECHO_MS = 1_000.0


# A save that replaced less than this share of a file's lines kept the file: an edit saved whole.
# Table 2's bulk rewrite replaces the text; two behaviour models disagree on what lies between
# (one's careful revisers change 2-9% of the lines per save, another's rewriters keep up to 80%
# of them), so only a clearly small change is taken for an edit; at a half, 2 of 14 rewriters
# on the second model read as balanced.
REWRITE_SHARE = 0.2


def _hidden_file(path: str) -> bool:
    """A hidden file (`.bash_history`, `.viminfo`, `.gitignore`) is a program's state or a
    setting, not work of the person's they revise: a shell and an editor rewrite their history
    whole each time they exit (alt616: an incremental reviser read as a bulk rewriter on their
    shell's and vim's history files, sessions in which they changed nothing else)."""
    return _name(path).startswith(".")


# A save is measured as a diff is, lines in order: a line kept but moved elsewhere was deleted
# and added again. A rewrite that reorders a report's sections, rewording a line here and
# there, keeps most lines as a set and few in place; counted as multisets (order ignored, until
# round 65) it read as a small edit, and bulk rewriters as balanced revisers (alt704: five of
# them at p 0.93-1.00). Texts longer than ALIGN_MAX_LINES (a data dump saved whole) are
# counted as multisets, as before: aligning two texts takes time that grows with the product
# of their lengths, counting them time that grows with their sum.
ALIGN_MAX_LINES = 2_000


def _lines_changed(before: str, after: str) -> tuple[int, int, int]:
    """(lines added, lines deleted, lines in both texts together), as a diff counts them."""
    old, new = before.splitlines(), after.splitlines()
    if len(old) <= ALIGN_MAX_LINES and len(new) <= ALIGN_MAX_LINES:
        kept = sum(block.size for block in difflib.SequenceMatcher(None, old, new, autojunk=False).get_matching_blocks())
        return len(new) - kept, len(old) - kept, len(old) + len(new)
    b, a = Counter(old), Counter(new)
    return sum((a - b).values()), sum((b - a).values()), len(old) + len(new)


def _iteration(by: dict[str, Events], writes: Events, text_of: Mapping[int, str],
               order: Mapping[int, int], before_of: Mapping[int, str],
               started: Mapping[str, float] | None = None,
               blank: Mapping[str, float] | None = None,
               diff_of: Mapping[int, str] | None = None) -> dict[str, Any]:
    # A text file's overwrite whose earlier text is known and that kept the file (REWRITE_SHARE)
    # is measured like an edit: an editor that saves the whole file logs a one-word change as
    # an overwrite. A save of a file no one can diff (a Word or Excel file, a PDF, an image)
    # replaces it whole however little changed: only a text file's overwrite (an office
    # document's whose text was kept: it shared no line with before) says "rewrote it".
    overwrites = 0
    unseen = 0  # overwrites of text whose earlier text is not known (among `overwrites`)
    unseen_whole = 0  # of those, an application's whole-file saves (features._atomic_saves_joined)
    seen_rewrites = 0  # overwrites whose earlier text is known that replaced it
    diffed: list[dict[str, Any]] = []  # overwrites that kept most of the file, as edits
    rewritten: dict[Any, float] = {}  # path -> when the person last rewrote it in place
    made = {e.get("file_path"): _ts(e) for e in writes if e.get("operation") == "create"}
    if blank:
        made.update(blank)  # made empty in the session and filled by the person (_started_blank)

    def made_before(e: Mapping[str, Any]) -> bool:
        """Is the file one this session made before this change to it?"""
        p = e.get("file_path")
        return p in made and made[p] <= _ts(e)

    # the first save of a document started from a copied template writes it (_started_from_copies)
    writing: set[int] = set()
    if started:
        firsts: dict[str, Mapping[str, Any]] = {}
        for e in (*writes, *by.get("file_edit", _NONE)):
            p = str(e.get("file_path") or "")
            if p in started and started[p] <= _ts(e) and (p not in firsts or order.get(id(e), 0) < order.get(id(firsts[p]), 0)):
                firsts[p] = e
        writing = {id(e) for e in firsts.values()}
    for e in writes:
        if id(e) in writing or _hidden_file(str(e.get("file_path") or "")):
            continue
        if e.get("operation") != "overwrite" or not (_text_kind(e, REVISED_TYPES, text_of) or (
                _ext(str(e.get("file_path") or "")) in WORKBOOK_TYPES and id(e) in text_of)):
            continue
        before, after = before_of.get(id(e)), text_of.get(id(e))
        if before is not None and after is not None:
            # what the person wrote: a notebook's cells (not its JSON and outputs), a script's paragraphs
            path = str(e.get("file_path") or "")
            written_before, written_after = _person_text(path, before), _person_text(path, after)
            if written_before is not None and written_after is not None and written_after is not after:
                before, after = written_before.strip("\n"), written_after.strip("\n")
            added, deleted, both = _lines_changed(before, after)
            if not deleted and made_before(e):
                continue  # a new file saved whole as it grows (a notebook's autosave): the writing of it
            # a save that kept every line of the file added to it: no rewrite, however much
            if not deleted or REWRITE_SHARE * both > added + deleted:
                if added or deleted:
                    diffed.append({**e, "event_type": "file_edit", "lines_added": added, "lines_deleted": deleted})
                continue
            seen_rewrites += 1
            rewritten[e.get("file_path")] = _ts(e)
        else:
            unseen += 1
            unseen_whole += bool(e.get("saved_whole"))
            rewritten[e.get("file_path")] = _ts(e)
        overwrites += 1
    # Lines only added to a file made in this session are the writing of it going on (an
    # editor that saves as the person types logs a new document as a create and a run of
    # additions), not a revision of existing work; so is an edit that grows a stub made in
    # the session (a generator's front matter, a heading) past STUB_GROWTH times its length,
    # whatever placeholder line it replaced on the way: production counts that document as
    # written in the edits (_production), and its writing is no revision.
    edits = by.get("file_edit", _NONE)
    if edits and made:
        writing |= _stub_fills(edits, writes, text_of, made, order)
    logged_edits = len(edits)
    if diffed:
        edits = sorted([*edits, *diffed], key=_ts)
    edits = [e for e in edits
             if not (made_before(e) and _continued(e, diff_of)) and id(e) not in writing
             and _ext(str(e.get("file_path") or "")) not in RECORD_TYPES and not _hidden_file(str(e.get("file_path") or ""))
             and not 0.0 <= _ts(e) - rewritten.get(e.get("file_path"), float("-inf")) <= SAVE_ECHO_MS]
    backup_copies = [e for e in by.get("file_copy", _NONE)
                     if e.get("is_backup") is True or _backup(_name(str(e.get("dest_path") or "")))]
    backup_copies += _backups_written(writes, by.get("file_edit", _NONE))
    if backup_copies:
        backup_copies = _work_backups(backup_copies, writes, by.get("file_edit", _NONE))
    backups = len(backup_copies)
    # Saves no one can diff of a file backed up first: how much changed is unknown, that it was
    # backed up and then changed is not (table 2's incremental reviser keeps backup copies).
    backed_up = {str(e.get("source_path") or "") for e in backup_copies}
    blind_saves = sum(1 for e in writes if e.get("operation") == "overwrite" and str(e.get("file_path") or "") in backed_up
                      and not _text_kind(e, DIFFABLE_TYPES, text_of))
    if len(edits) > 1:
        edits = _saves_joined(edits, order)
    per_file = Counter(str(e.get("file_path")) for e in edits) if edits else {}
    return {
        # Changing existing work: an edit or a rewrite in place.
        "opp": bool(edits or overwrites or blind_saves),
        "edits": len(edits),
        "overwrites": overwrites,
        "backups": backups,
        "blind_saves": blind_saves,
        "sizes": [_int(e.get("lines_added")) + _int(e.get("lines_deleted")) for e in edits[:MAX_EDIT_SIZES]],
        "passes": max(per_file.values(), default=0),
        # for tiers.unseen_saves: how this person's saves read where their earlier text is known
        "unseen": unseen,
        "unseen_whole": unseen_whole,
        "seen_rewrites": seen_rewrites,
        "seen_kept": len(diffed),
        "logged_edits": logged_edits,
    }


_TRAILING_MARKS = re.compile(r"\W*$")


def _continued(e: Mapping[str, Any], diff_of: Mapping[int, str] | None) -> bool:
    """Did the edit only add to the file: no line removed, or only its last line rewritten
    to go on after it (an RTF document's last line, whose closing brace is rewritten each
    time text is added after it): kept, but for its closing marks, at the start of a line
    the edit added, with no line of the file after it?"""
    deleted = _int(e.get("lines_deleted"))
    if deleted == 0:
        return True
    if deleted != 1 or not diff_of or not (d := diff_of.get(id(e))):
        return False
    lines = d.splitlines()
    at = [i for i, x in enumerate(lines) if x[:1] == "-" and not x.startswith("---")]
    if len(at) != 1 or any(x[:1] not in ("+", "\\") for x in lines[at[0] + 1:]):
        return False  # not the file's last line: a line of the file comes after it
    line, added = lines[at[0]][1:], [x[1:] for x in lines[at[0] + 1:] if x[:1] == "+"]
    core = _TRAILING_MARKS.sub("", line)
    if core and any(a.startswith(core) for a in added):
        return True
    # A diff of a file whose last line has no newline can run the removed line and the first
    # added one together (difflib does: "-...instinct.}+...instinct.\").
    for k, ch in enumerate(line):
        if ch == "+" and (core := _TRAILING_MARKS.sub("", line[:k])) and line[k + 1:].startswith(core):
            return True
    return False


def _stub_fills(edits: Events, writes: Events, text_of: Mapping[int, str], made: Mapping[Any, float],
                order: Mapping[int, int]) -> set[int]:
    """The edits (ids) that grew a file made in the session past STUB_GROWTH times the lines
    it had before them."""
    lines: dict[Any, int] = {}
    for e in writes:
        p = e.get("file_path")
        if p in made and e.get("operation") == "create" and p not in lines:
            text = text_of.get(id(e))
            lines[p] = text.count("\n") + 1 if text is not None else round(_int(e.get("content_length")) / FALLBACK_CHARS_PER_LINE)
    out: set[int] = set()
    for e in sorted(edits, key=lambda x: order.get(id(x), 0)):
        p = e.get("file_path")
        if p not in lines:
            continue
        added, deleted = _int(e.get("lines_added")), _int(e.get("lines_deleted"))
        if added > STUB_GROWTH * max(lines[p], 1) and deleted < added:
            out.add(id(e))
        lines[p] = max(lines[p] + added - deleted, 0)
    return out


# The folder programs keep their working files in, by the name programs give it: Windows'
# `%TEMP%` (`AppData/Local/Temp`), a game engine's `Temp/`. What is made and removed there is
# the program's housekeeping, whoever started the program, and no one's leftover to clean. A
# scratch folder a person keeps in their work is named in lower case, as people name folders
# (`notes/tmp/`, `data/tmp/`, `scratch/tmp/`: on five independent models, their scratch files,
# removed by the tidy and kept by the others), and stays theirs.
_TEMP_FOLDERS = frozenset({"Temp", "TEMP"})


@functools.lru_cache(maxsize=4096)
def _in_temp_folder(path: str) -> bool:
    return any(d in _TEMP_FOLDERS for d in path.split("/")[:-1])


# A file deleted and put back at the same path within seconds (a CAD program's save: delete
# the old `X.bak`, rename `X.dwg` to `X.bak`, write `X.dwg`) was replaced, not removed: the
# path holds a file again, and nothing was thrown away.
REPLACED_SECONDS = 5.0
# An application's save that renames the old version aside, moves the new one into its name
# and removes the old takes a few seconds for a large workbook (Excel: 6 s measured on alt174).
SAVE_ASIDE_SECONDS = 10.0


# A program converting its working file removes it once its output is written beside it:
# Zoom's `double_click_to_convert_01.zoom` goes a moment after the meeting's `.mp4` and
# `.m4a` arrive in its folder, an editor's swap file as the saved file is written. A file
# made in the session that nobody opened, removed within a second of a new file arriving in
# its folder, went with that program's work; a person who finishes a document and then
# removes their scratch file looks at it first, and takes longer than a second.
CONVERTED_SECONDS = 1.0
# A file made (written, copied or renamed into its name) and removed within seconds, which
# nobody opened, was a program's step: a markup program's `plan.pdf.bak` beside the file it
# just saved, Vim's `notes.md~` renamed aside and removed as it writes the new one. A person
# who makes a scratch file uses it before throwing it away. On 74 independent models and
# users-dev, such deletes under 10 seconds came from selective, pragmatic and preservative
# people alike (1,731, 1,739 and 1,485 within a second; 337, 392 and 358 at 6-10 s); from
# 10 seconds on, selective people's grow apart from the others'.
QUICK_DELETE_SECONDS = 10.0


def _replaced(deletes: Events, by: dict[str, Events], tool_creates: Events, tool_copied: Events,
              opened: set[str], tool_saves: Events = ()) -> set[int]:
    """The deletes (by id) that a file put at the same path right after undid, or that a
    program's new files of the same kind in the same folder right after replaced (a build's
    `clean` then its outputs written anew: Gradle's `build/intermediates/dex/` empties and
    fills again in seconds, and the files it does not write again are the build's to drop,
    not leftovers the person removed). Another kind of file is no replacement: Finder's
    `.DS_Store`, rewritten in the folder a person just deleted a scratch file from. `opened`:
    the files the session read or edited."""
    arrivals: dict[str, list[float]] = {}
    # (a copy too: SolidWorks reuses a backup slot, `Backup (2) of Part.SLDPRT` deleted and
    # copied again in the same second)
    for t, key in (("file_rename", "new_path"), ("file_move", "new_path"), ("file_write", "file_path"),
                   ("file_copy", "dest_path")):
        for e in by.get(t, _NONE):
            if t != "file_write" or e.get("operation") == "create":
                arrivals.setdefault(str(e.get(key) or ""), []).append(_ts(e))
    # the old version of a saved file, renamed aside as the new one takes its name (Excel's
    # save: `Data.xlsx` -> `9F9872F0.tmp`, the new `D846FE11` -> `Data.xlsx`, then the `.tmp`
    # deleted): its deletion is the save's last step
    aside = {str(e.get("new_path") or ""): (str(e.get("old_path") or ""), _ts(e))
             for t in ("file_rename", "file_move") for e in by.get(t, _NONE)}
    for e in tool_copied:
        arrivals.setdefault(str(e.get("file_path") or ""), []).append(_ts(e))
    # files made in the session, and new files per folder (converted)
    made_here = {str(e.get("file_path") or "") for e in (*by.get("file_write", _NONE), *tool_creates)
                 if e.get("operation", "create") == "create"}
    rebuilt: dict[tuple[str, str], list[float]] = {}
    for e in tool_creates:
        arrivals.setdefault(p := str(e.get("file_path") or ""), []).append(_ts(e))
        rebuilt.setdefault((posixpath.dirname(p), _ext(p)), []).append(_ts(e))
    arrived_in: dict[str, list[float]] = {}
    for path, times in arrivals.items():
        arrived_in.setdefault(posixpath.dirname(path), []).extend(times)
    # a program's output written over its last run's (HEC-RAS's `computeMsgs.txt`, as its
    # `.bco01` compute file goes) is its work arriving as much as a new file is
    for e in (*tool_saves, *(e for e in by.get("file_write", _NONE) if e.get("operation") == "overwrite")):
        arrived_in.setdefault(posixpath.dirname(str(e.get("file_path") or "")), []).append(_ts(e))
    out = set()
    for e in deletes:
        t = _ts(e)
        p = str(e.get("file_path") or "")
        if any(0 <= a - t <= REPLACED_SECONDS * 1000
               for a in (*arrivals.get(p, ()), *rebuilt.get((posixpath.dirname(p), _ext(p)), ()))):
            out.add(id(e))
        elif p in made_here and p not in opened and any(
                0 <= t - a <= CONVERTED_SECONDS * 1000 for a in arrived_in.get(posixpath.dirname(p), ())):
            out.add(id(e))
        elif p in aside and 0 <= t - aside[p][1] <= SAVE_ASIDE_SECONDS * 1000 and any(
                0 <= a - aside[p][1] <= SAVE_ASIDE_SECONDS * 1000 for a in arrivals.get(aside[p][0], ())):
            out.add(id(e))
    return out


# An archive of a folder, named after it (`S246575_20240715.zip` for `S246575_20240715.sequence/`,
# `Q3_runs.tar.gz` for `Q3_runs/`): the folder's files removed after it was written were
# packed, not thrown away. Their content is kept, as a move keeps it, whoever packed them (a
# lab's nightly archiver, a person tidying): no curation either way (authorship.ARCHIVE_NAME).


def _not_packed(deletes: Events, by: dict[str, Events], creates: Events, tool_creates: Events) -> Events:
    """The deletes but those of files inside a folder that an archive named after it, made
    earlier in the session, holds."""
    packed: dict[str, float] = {}  # an archive's name without its suffix -> when it was first made
    for e, key in [*((e, "file_path") for e in (*creates, *tool_creates)),
                   *((e, "dest_path") for e in by.get("file_copy", _NONE)),
                   *((e, "new_path") for t in ("file_move", "file_rename") for e in by.get(t, _NONE))]:
        name = _name(str(e.get(key) or ""))
        if (m := ARCHIVE_NAME.search(name)) and m.start() > 0:
            packed.setdefault(name[: m.start()].lower(), _ts(e))
    if not packed:
        return deletes
    # a file that came after the archive came out of it (unpacked): removing that copy while
    # the archive stays is clearing an intermediate, not packing (alt577's `rm -rf` of an
    # evidence archive's unpacked folder; +3 -3 over alt384-583 with LEFT_BY_PROGRAM_SECONDS' first form)
    came: dict[str, float] = {}
    for e in (*creates, *tool_creates):
        came.setdefault(str(e.get("file_path") or ""), _ts(e))

    def inside(e: Mapping[str, Any]) -> bool:
        p = str(e.get("file_path") or "")
        for folder in p.split("/")[:-1]:
            f = folder.lower()
            made = packed.get(f, packed.get(f.rsplit(".", 1)[0]) if "." in f else None)
            if made is not None and made <= _ts(e):
                return not (p in came and came[p] >= made)
        return False

    return [e for e in deletes if not inside(e)]


# A log (`acq.log`, `build.log`, `paper.log`) is a program's record of a run, kept beside its
# output by tidy and keeping people alike: over users-dev and the held-out models, sessions
# that made one removed it 36% of the time where the person was selective, 19% pragmatic and
# 18% preservative. One left lying is no sign of a keeper; one removed is still a removal.
def _log(path: str) -> bool:
    return path[-4:].lower() == ".log"


# How far apart the deletions of one removal may be: a file manager or `rm -r` removes a
# folder, or a GIS a layer's files, within milliseconds of each other. A person removing
# files one by one takes seconds over each (authorship's TOOL_GAP_MS, a program's pace).
REMOVAL_GAP_MS = 2_000.0


def _removal_unit(path: str) -> str:
    """What went when a file went, if it went with the rest: the folder a program named by a
    random token (a workflow's task folder), else the file with its companions of one name
    (a shapefile's `.shp .shx .dbf .prj`, a build's `main.aux main.log main.toc`)."""
    parts = path.split("/")
    for i, part in enumerate(parts[:-1]):
        if RANDOM_TOKEN.search(part):
            return "/".join(parts[: i + 1])
    name = parts[-1]
    return "/".join(parts[:-1]) + "/" + (name.split(".", 1)[0] if name[:1] != "." else name)


def _removals(deletes: Events, removed: set[str]) -> tuple[int, set[str]]:
    """How many acts removed the files of `removed`, and the units they removed: the files of
    one unit (_removal_unit) deleted each within REMOVAL_GAP_MS of the last are one act."""
    acts, last = 0, {}
    for e in deletes:
        p = str(e.get("file_path") or "")
        if p not in removed:
            continue
        unit, t = _removal_unit(p), _ts(e)
        acts += unit not in last or t - last[unit] > REMOVAL_GAP_MS
        last[unit] = t
    return acts, set(last)


# A solver's or a compiler's run writes its results as one family of files: the input's name
# with an extension per kind of result (ETABS's `.OUT .Y01 .K_ .LLA`, LaTeX's `.aux .log .toc
# .out .bbl`, a refinement's `.pdb .mtz .cif .geo .log`), and removes some of them as it runs
# again. A person exports one document to two or three formats at most.
FAMILY_EXTENSIONS = 5


def _run_results(by: dict[str, Events], made_at: Mapping[str, float]) -> set[str]:
    """The files of a result family (FAMILY_EXTENSIONS or more extensions to one name in one
    folder, among the files written or removed in the session) whose removal is the run's:
    made in the session, or followed by a write of the family (the run again). An old run's
    files removed and not written again are the person's to remove."""
    members: dict[tuple[str, str], list[tuple[float, str, bool]]] = {}
    for t in ("file_write", "file_delete"):
        for e in by.get(t, _NONE):
            p = str(e.get("file_path") or "")
            parent, _, name = p.rpartition("/")
            if "." in name[1:]:
                members.setdefault((parent, name.rsplit(".", 1)[0]), []).append((_ts(e), p, t == "file_delete"))
    runs: set[str] = set()
    for acts in members.values():
        if len({_name(p).rsplit(".", 1)[1].lower() for _, p, _ in acts}) < FAMILY_EXTENSIONS:
            continue
        last_write = max((ts for ts, _, gone in acts if not gone), default=-1.0)
        runs |= {p for ts, p, gone in acts if gone and (p in made_at or ts < last_write)}
    return runs


# A program's file the person removes LEFT_BY_PROGRAM_SECONDS or more after the program made
# it, among their own actions, is an intermediate file they cleared, whoever wrote its bytes:
# an evidence archive's unpacked copy removed with `rm -rf` once read (alt577: selective
# analysts read as keepers). Not what the program wrote again and again (a build's `main.aux`
# and `main.log`, rewritten at every save), nor what the recorder or its name marks
# temporary, nor a log: clearing those (`latexmk -c` at the end of the day) is the program's
# housekeeping, whoever starts it, as before. Over alt384-583: E +25 -11 (selective people
# called pragmatic now right; the losses pragmatic people who now and then clear what a
# program unpacked or exported, read as selective); the first form, with rewritten,
# temporary and log files, was +36 -18 and took the build's housekeeping for cleanup.
# users-dev and rows a-f unchanged.
LEFT_BY_PROGRAM_SECONDS = 60.0


def _curation(by: dict[str, Events], creates: Events, tool_wrote: set[Any],
              tool_creates: Events = (), tool_copied: Events = (), tool_saves: Events = ()) -> dict[str, Any]:
    """Leftovers a tidy person removes (their own scratch, temporary and backup files, and
    temporary files lying around) and whether they removed them; and, apart, the superseded
    versions and duplicates (`plan_old.md`, `report_v1.md`, `scan (1).pdf`, `copy of notes`)
    that were there before and that they deleted: what a tidy person removes too, but also
    what a cleanup task asks anyone to remove, so tiers read them as weaker evidence.

    A file the person made and threw away within the session is intermediate by what they
    did with it, whatever its name: names are only a hint (people and programs call their
    scratch files anything), so that behaviour counts as cleaning even where no name says
    "temporary"."""
    made_at: dict[str, float] = {}  # path -> when the person first made it in this session
    for e in creates:
        if not _in_temp_folder(p := str(e.get("file_path") or "")) and not _inside_package(p):
            made_at.setdefault(p, _ts(e))
    # What a program wrote at the person's command into a file they named as scratch (a GIS
    # tool's `tmp_clip` export, a script's `scratch/` output) is the person's intermediate
    # file: a tidy person removes it, whichever program wrote its bytes (tool_creates leaves
    # out what a program removed again itself, like a game engine's `scratch.txt.meta`). So
    # is an editor's `x.c~` backup: the one backup convention tidy people are known to clear
    # (`rm *~`). Other programs' backups (a CAD program's `.bak`) are their recovery copies,
    # kept by every tier (counted too, alt100's selective people read pragmatic: +9 -6 on 60
    # folders; the tilde alone +7 -0).
    persons: set[str] = set()  # what a program made that is the person's to keep or remove
    for e in tool_creates:
        if scratch_named(p := str(e.get("file_path") or "")) or p.endswith("~"):
            made_at.setdefault(p, _ts(e))
            persons.add(p)
    # So is a program's file the person removed long after the program made it
    # (LEFT_BY_PROGRAM_SECONDS): an intermediate file they cleared.
    # What an archive tool unpacked is the person's to remove whenever they do, whatever the
    # recorder calls it: the tool clears nothing after it (alt606: a maintainer removing the CI
    # logs they unzipped seconds before).
    wrote_at: dict[str, float] = {}
    unpacked: set[str] = set()
    for e in tool_creates:
        p = str(e.get("file_path") or "")
        wrote_at[p] = max(_ts(e), wrote_at.get(p, 0.0))
        if e.get("unpacked"):
            unpacked.add(p)
    for e in tool_saves:  # a file the program wrote again is its own to clear (_run_results)
        wrote_at.pop(str(e.get("file_path") or ""), None)
    for e in by.get("file_delete", _NONE):
        p = str(e.get("file_path") or "")
        if p in wrote_at and (p in unpacked or _ts(e) - wrote_at[p] >= LEFT_BY_PROGRAM_SECONDS * 1000
                              and e.get("was_temporary") is not True and not _temporary(_name(p)) and not _log(p)):
            made_at.setdefault(p, wrote_at[p])
            persons.add(p)
    copied: set[str] = set()
    for e in by.get("file_copy", _NONE):
        dest = str(e.get("dest_path") or "")
        copied.add(dest)
        made_at.setdefault(dest, _ts(e))
    # made and removed within seconds, never opened: a program's (QUICK_DELETE_SECONDS), not
    # the person's to keep or to remove
    opened = {str(e.get("file_path") or "") for t in ("file_read", "file_edit") for e in by.get(t, _NONE)}
    arrived = {str(e.get("new_path") or ""): _ts(e) for t in ("file_rename", "file_move") for e in by.get(t, _NONE)}
    arrived.update(made_at)
    quick = {p for e in by.get("file_delete", _NONE) if (p := str(e.get("file_path") or "")) in arrived
             and p not in opened and 0 <= _ts(e) - arrived[p] < QUICK_DELETE_SECONDS * 1000}
    for p in quick:
        made_at.pop(p, None)
    # a date or a version in the name of a copy marks a backup; in a new document's, its name
    leftovers = {p for p in made_at if p and ((_temporary(_name(p)) and not _log(p)) or
                                               (_backup(_name(p)) if p in copied else _written_backup(_name(p))))
                 and not in_archive_folder(p)}  # filed in Backups/ or archive/: kept on purpose
    # A program's intermediate files (what a build or a test run made or wrote again in the
    # session, then removed: `latexmk -c` after the builds of a day's saves) are the
    # program's housekeeping, whoever started it: no curation habit of the person's, unless
    # the person named them as scratch, or removed long after what the program made only
    # once (above).
    # A hidden file (its name dot-led) the session did not make is out of the person's sight:
    # file managers do not show it, and what removes one is a program (an NFS client's
    # `.nfs<hex>`, a sync client's staging `.tmp.drivedownload`, an editor's `.notes.md.swp`
    # as it exits, iCloud's `.X.icloud` placeholder). On the 96 independent models alt384-479
    # such deletes came from selective, pragmatic and preservative people alike (181, 339 and
    # 207 of them).
    # What a run removes of its own results as it writes them again is the run's (_run_results),
    # unless the person named them as scratch.
    family = _run_results(by, made_at)
    deletes = [e for e in by.get("file_delete", _NONE) if (e.get("file_path") not in tool_wrote
               or e.get("file_path") in persons) and not _in_temp_folder(p := str(e.get("file_path") or ""))
               and not _inside_package(p) and p not in quick and (_name(p)[:1] != "." or p in arrived)
               and (p not in family or scratch_named(p))]
    if deletes:
        deletes = _not_packed(deletes, by, creates, tool_creates)
    if deletes:
        gone = _replaced(deletes, by, tool_creates, tool_copied, opened, tool_saves)
        deletes = [e for e in deletes if id(e) not in gone]
    cleaned = set()
    for e in deletes:
        p = str(e.get("file_path") or "")
        if p in leftovers or e.get("was_temporary") is True or _temporary(_name(p)):
            cleaned.add(p)
        elif p and p in made_at and made_at[p] <= _ts(e):
            cleaned.add(p)  # made, then thrown away: an intermediate file
    superseded = {p for e in deletes if (p := str(e.get("file_path") or "")) not in cleaned and p and _backup(_name(p))}
    # A leftover the person moved out of the folder it was made in (an old version filed in a
    # `superseded/` folder) no longer lies around, and is kept: neither removed nor left.
    moved_away = {str(e.get("old_path") or "") for t in ("file_move", "file_rename") for e in by.get(t, _NONE)}
    leftovers -= moved_away - cleaned
    # files from before the session the person deleted that no name marks as a version or a
    # scratch file: what a tidy person removes too, and what a task may ask anyone to remove
    discarded = {p for e in deletes if (p := str(e.get("file_path") or "")) and p not in cleaned
                 and p not in superseded and p not in made_at}
    acts, units = _removals(deletes, cleaned)  # a folder or a layer removed at once is one removal
    return {"opp": bool(leftovers or cleaned or superseded or discarded),
            "leftovers": acts + len({u for p in leftovers - cleaned if (u := _removal_unit(p)) not in units}),
            "cleaned": acts, "superseded": len(superseded), "deletes": len(deletes),
            "discarded": len(discarded)}


# A notebook that keeps a chart among its cells' outputs (Jupyter stores it as base64 under
# its MIME type).
_NOTEBOOK_CHART = re.compile(r'"image/(png|svg\+xml|jpeg)"\s*:')


# Names a camera gives its pictures (IMG_1234.heic, DSC01234.jpg, PXL_20240518_101500.jpg):
# a photo synced from a phone is what the person saw, not visual output they made, unless a
# document of theirs shows it (the inspector's report that embeds it). A chart exported, or a
# screenshot the person named, stays theirs.
CAMERA_NAME = re.compile(r"(?i)^(img|dsc|dscn|dscf|pxl|dji|gopr|gp|p)[-_]?\d{3,}[^/]*\.(jpe?g|heic|heif|png|dng|raw|cr2|nef|arw|tiff?)$")
# Names the screenshot tools give (macOS "Screenshot 2026-05-23 at 14.20.47.png", older "Screen
# Shot ...", Windows "Screenshot (12).png", GNOME "Screenshot from ...", a hidden name while it is
# written): a capture of what was on the screen is, like a camera's photo, what the person saw,
# not a chart or figure they made, unless a document of theirs shows it.
SCREENSHOT_NAME = re.compile(r"(?i)^\.?(screen ?shot|screen capture|bildschirmfoto|capture d.[eé]cran)\b[^/]*\.(png|jpe?g|heic|gif|webp|tiff?)$")
# JPEG is the format of photographs (cameras, phones, a photo library's exports); charts and
# diagrams are drawn as PNG, SVG or PDF. A photo, whoever named it, is what the person saw or
# delivers as a photographer, not a figure made to show something in a document, unless a
# document of theirs shows it.
PHOTO_TYPES = frozenset({"jpg", "jpeg", "heic", "heif"})
# A picture named by a number alone (`0001.png`, `0240.exr`) is a frame of a sequence a
# program wrote: a 3D render's or a video's frames, a scanner's pages. People name the charts
# and figures they make with words; a frame is visual output of theirs only where a document
# of theirs shows it (alt172: text-only 3D artists called visual-heavy at p 0.99 on their
# renders' frames).
FRAME_NAME = re.compile(r"^\d+\.[A-Za-z]+$")
# A picture whose name says the person marked it up (`20260316_091216_annotated.jpg`,
# `IMG_2890_markup.jpg`, `proof p18 redline.png`) is visual work of theirs, a photo or a
# capture though it was: the camera or the screen gave the picture, the person the marks.
MARKED_UP = re.compile(r"(?i)[-_ .](annotated|annotations?|marked[-_ ]?up|markup|redlined?|callouts?)(?![a-z])")
# So is a run of pictures in one folder named alike but for a zero-padded number
# (`frame_0001.png` ... `frame_0240.png`, `shot040.0012.exr`): a render's or a capture's
# sequence, one picture every few seconds for minutes, which no person names one by one
# (alt202: text-only and balanced 3D artists called visual-heavy at p 0.96-0.99 on their
# renders' `frame_####.png`). SEQUENCE_FRAMES of them at least; a person's few exported
# figures (`fig_001.png`, `fig_002.png`) stay theirs.
NUMBERED_NAME = re.compile(r"^(.*?)(\d{3,})\.([A-Za-z]+)$")
SEQUENCE_FRAMES = 5
# A counter without padding is a sequence too where it counts up by one SEQUENCE_MIN_FILES
# times or more in one folder (`render_overview_0.png` ... `render_overview_87.png`): a render
# farm's or a capture's frames of one view, which no person names one by one, as authorship's
# counted sequences (alt718: text-only and balanced exhibition designers read as visual-heavy
# at p 0.90-0.99 on the farm's batches of 30-100 frames). A person's own numbered figures
# (`fig1.png` ... `fig6.png`) are a handful and stay theirs.
COUNTER_NAME = re.compile(r"^(.*?\D)(\d+)\.([A-Za-z]+)$")


# Words people and their scripts name a chart by, for what it shows (`volcano_s03.png`,
# `ma_plot.png`, `revenue-trend.svg`, `fig2_umap.png`). A plotting script run by the person
# writes its figures in a burst, as an archive or an install writes its images; the install's
# are named for the program (`icon-16.png`, `logo.png`, `bg.jpg`), a figure for its chart
# (alt386: bioinformaticians' plot scripts' figures, read as a program's, left visual-heavy
# analysts text only). A script draws a figure per chart, several at a run; one chart beside
# a page in a program's burst is an export of a document (SCRIPT_FIGURES), which the document
# shows or not. So are the views a visualiser renders of the person's model, named for the
# view (`Enscape_St_aerial02.jpg`, `lobby_render.png`, `sketch_03.png`, a mockup, a storyboard):
# an architect's or a designer's pictures, made at their command in a batch (alt409:
# visual-heavy architects read as text only at p 0.81-0.92). A numbered frame sequence stays
# a renderer's (_sequences).
SCRIPT_FIGURES = 2
CHART_WORDS = re.compile(
    r"(?i)(?:^|[^a-z])(plots?|charts?|graphs?|hist(?:ogram)?s?|scatter|heatmaps?|volcano|pca|umap|tsne|boxplots?"
    r"|barplots?|violin|curves?|trends?|diagrams?|figs?|figures?"
    r"|renders?|renderings?|perspectives?|aerials?|elevations?|axo|axonometrics?|visuali[sz]ations?|viz"
    r"|mockups?|moodboards?|storyboards?|wireframes?|sketch|sketches)(?=[^a-z]|$)")


def _script_figures(paths: Iterable[Any]) -> set[str]:
    """The pictures among a program's that a plotting script drew: named for the charts they
    show (CHART_WORDS), SCRIPT_FIGURES or more of them in one folder."""
    by_folder: dict[str, list[str]] = {}
    for p in paths:
        if isinstance(p, str) and _ext(p) in IMAGE_TYPES and CHART_WORDS.search(_name(p).rsplit(".", 1)[0]):
            by_folder.setdefault(posixpath.dirname(p), []).append(p)
    return {p for ps in by_folder.values() if len(ps) >= SCRIPT_FIGURES for p in ps}


# A program's source, and a patch to one, is no place for a chart or a table: a session that
# wrote only code gave no chance to show how visual the person's output is (alt621: kernel
# developers who chart every benchmark, read as text only on the patches of every other
# session). Its charts, drawn by the code, still count where they are written.
PROGRAM_TEXT_TYPES = CODE_TYPES - {"ipynb"} | {"patch", "diff"}


# A run that writes a data file and pictures named for the same study (`reset-page-bench.csv`
# beside `reset-page-throughput.png` and `reset-page-flamegraph.svg`) is a benchmark or analysis
# script the person ran, which plotted its results: the charts are their output, whatever words
# name them (alt621: performance engineers' charts, written in a burst with their data, left
# visual-heavy kernel developers text only). An instrument writes data and a camera pictures;
# neither names both for a study. The shared start of the names runs to a separator and is at
# least PLOTTED_PREFIX characters long. A photo (PHOTO_TYPES) is no plot, though a camera app
# writes a data file named for each picture beside it (a field tablet's `scouting_0712_5.jpg`
# with its `scouting_0712_5.json` of location and notes, Google Takeout's sidecars): a
# script draws its charts as PNG, SVG or PDF (alt702: text-only agronomists, whose tablet
# synced scouting photos with sidecars, read as visual-heavy at p 0.86-1.00). Nor is a picture
# with a data file of exactly its name (`funnel_weekly_2024-09-12.png` beside
# `funnel_weekly_2024-09-12.csv`): one object exported in two formats, a BI tool's morning
# export of a dashboard as an image and its data; a script names its data for the run and its
# charts for what each shows (alt708: text-only marketing analysts, whose BI tool exported every
# dashboard so, read as visual-heavy at p 1.00).
PLOTTED_PREFIX = 6
_NAME_BREAK = re.compile(r"[-_. ]")


def _plotted_from_data(made: Iterable[Any], wrote: Iterable[Any]) -> set[str]:
    """The pictures a program made that came with a data file it wrote (made or rewrote)
    named for the same study, SCRIPT_FIGURES or more of them in one folder."""
    data: dict[str, list[str]] = {}
    pictures: dict[str, list[str]] = {}
    for p in made:
        if isinstance(p, str) and _ext(p) in IMAGE_TYPES and _ext(p) not in PHOTO_TYPES:
            pictures.setdefault(posixpath.dirname(p), []).append(p)
    for p in wrote:
        if isinstance(p, str) and _ext(p) in DATA_TYPES:
            data.setdefault(posixpath.dirname(p), []).append(p)
    out: set[str] = set()
    for folder, pics in pictures.items():
        stems = [_name(d).lower().rsplit(".", 1)[0] for d in data.get(folder, ())]
        named = [p for p in pics if (stem := _name(p).lower().rsplit(".", 1)[0]) not in stems
                 and any(_study_prefix(stem, d) for d in stems)]
        if len(named) >= SCRIPT_FIGURES:
            out.update(named)
    return out


def _study_prefix(a: str, b: str) -> bool:
    """Do two names start alike, up to a separator, for PLOTTED_PREFIX characters or more?"""
    n = len(posixpath.commonprefix([a, b]))
    if n == len(a) or n == len(b):
        return n >= PLOTTED_PREFIX
    return max((m.start() for m in _NAME_BREAK.finditer(a, 0, n)), default=-1) >= PLOTTED_PREFIX


def _sequences(paths: Sequence[str]) -> set[str]:
    """The pictures among `paths` that are frames of a numbered sequence: zero-padded
    (SEQUENCE_FRAMES), or counting up by one without padding (SEQUENCE_MIN_FILES in a row)."""
    runs: dict[tuple[str, str, str], list[str]] = {}
    counted: dict[tuple[str, str, str], dict[int, str]] = {}
    for p in paths:
        if (m := NUMBERED_NAME.match(name := _name(p))) and m.group(2).startswith("0"):
            runs.setdefault((posixpath.dirname(p), m.group(1), m.group(3).lower()), []).append(p)
        elif m := COUNTER_NAME.match(name):
            counted.setdefault((posixpath.dirname(p), m.group(1), m.group(3).lower()), {})[int(m.group(2))] = p
    out = {p for run in runs.values() if len(set(run)) >= SEQUENCE_FRAMES for p in run}
    for by_number in counted.values():
        if len(by_number) >= SEQUENCE_MIN_FILES:
            numbers = sorted(by_number)
            for run in counting_runs(numbers):
                out.update(by_number[numbers[i]] for i in run)
    return out


# A picture a game engine imported as an asset is the game's material, as a photographer's
# photos are theirs: a sprite sheet says nothing of how its maker presents information. The
# engine shows the import by the sidecar it writes beside the file within a second or two
# (Unity's `<file>.png.meta`, Godot's `<file>.png.import`). Indie game programmers drew and
# imported sprites whatever their habits, and text-only and balanced ones read as visual-heavy
# at p 0.67-0.99 (alt725). A picture a document of theirs names is still shown.
ENGINE_SIDECARS = (".meta", ".import")


def _engine_assets(written: Iterable[Any]) -> set[str]:
    """The files a game engine imported: those with its sidecar (ENGINE_SIDECARS) written."""
    return {p[: -len(x)] for p in written if isinstance(p, str) for x in ENGINE_SIDECARS if p.endswith(x)}


# A web page saved whole, its pictures in its companion folder (`RM-1-094.html` with
# `RM-1-094_files/image001.png`: Word's "Save as Web Page", a browser's "Save page as,
# complete", an electronic lab notebook's export) is a program's rendering of a document,
# written with its pictures in one go (authorship marks the folder's files as the program's).
# The page naming those pictures does not make them the person's figures, and its tables are
# the rendered document's (alt499: balanced chemists whose notebook exported each page so read
# visual-heavy at p 0.76-0.86).
PAGE_TYPES = frozenset({"html", "htm", "xhtml"})


def _saved_pages(creates: Events, tool_made: set[Any] | frozenset[Any]) -> dict[str, int]:
    """The new pages (path -> id of the event) whose companion folder a program filled."""
    if not tool_made:
        return {}
    folders = {p.rsplit("/", 1)[0].lower() for p in tool_made if isinstance(p, str) and "/" in p}
    return {p: id(e) for e in creates if _ext(p := str(e.get("file_path") or "")) in PAGE_TYPES
            and p.rsplit(".", 1)[0].lower() + "_files" in folders}


def _cross_modal(creates: Events, text_of: Mapping[int, str], kept_writes: Events = _NONE,
                 tool_made: set[Any] | frozenset[Any] = frozenset(), typed: Sequence[str] = (),
                 blank: Mapping[str, float] | None = None, written: Sequence[str] = (),
                 reworked: Sequence[str] = (), regenerated: set[str] | frozenset[str] = frozenset(),
                 tool_wrote: set[Any] | frozenset[Any] = frozenset(),
                 unfiled: frozenset[str] = frozenset()) -> dict[str, Any]:
    """What the session produced besides text. A chart is the person's output also when a
    program drew it: a chart in their notebook's cell outputs, or a figure their script wrote
    that their document shows (its file name in the text they wrote). A burst of images no
    document of theirs names (an archive, an install) stays the program's. A document started
    empty (`blank`: a note app's `Untitled.md`) is new output like a created one: its saves hold
    its tables and figures. So is a picture copied and reworked (`_reworked_pictures`)."""
    pages = _saved_pages(creates, tool_made)
    if pages:
        creates = [e for e in creates if e.get("file_path") not in pages]
        text_of = {k: t for k, t in text_of.items() if k not in pages.values()}
    paths = [str(e.get("file_path") or "") for e in creates]
    exts = [_ext(p) for p in paths]
    mine: list[str] = []  # what the person wrote, read once an image needs it

    def shown(path: str) -> bool:
        """A document of the person's names the image (its file name in their text)."""
        if not mine:
            mine.extend([t for t in text_of.values() if t] + list(typed))
        return any(_name(path) in t for t in mine)

    # a sequence is told by all the pictures written, the program's and those removed again too
    frames = _sequences([p for p in {*paths, *written, *tool_made} if isinstance(p, str) and _ext(p) in IMAGE_TYPES])
    assets = _engine_assets((*written, *tool_wrote))
    visual_paths = [p for p, x in zip(paths, exts, strict=True)
                    if x in IMAGE_TYPES and (not (x in PHOTO_TYPES or CAMERA_NAME.match(_name(p)) or SCREENSHOT_NAME.match(_name(p))
                                                  or FRAME_NAME.match(_name(p)) or p in frames or p in assets
                                                  or p in unfiled)
                        or shown(p) or MARKED_UP.search(_name(p)))]
    charts = {str(e.get("file_path") or "") for e in kept_writes if _ext(str(e.get("file_path") or "")) == "ipynb"
              and (t := text_of.get(id(e))) and _NOTEBOOK_CHART.search(t)}
    drawn = _script_figures(tool_made) | _plotted_from_data(tool_made, tool_wrote)
    visual_paths += [p for p in tool_made if isinstance(p, str) and _ext(p) in IMAGE_TYPES
                     and ((p in drawn and p not in frames) or shown(p))]
    visual_paths += sorted(charts)
    visual_paths += [p for p in reworked if p not in visual_paths]
    if regenerated:
        visual_paths = [p for p in visual_paths if p not in regenerated]
        again = {_name(p) for p in regenerated}
    data_files = sum(1 for x in exts if x in DATA_TYPES)
    rows = embeds = 0  # table rows (markdown, LaTeX, HTML); figures the person's documents embed
    seen = 0  # outputs whose content can show it: a text whose words are known
    # Every save of a new document in the session is read: an editor that saves as the person
    # types logs its first save when it held a title and a line, the table typed later.
    versions: dict[Any, list[str]] = {}
    for e in kept_writes:
        if (t := text_of.get(id(e))) and not _clipped(t):
            versions.setdefault(e.get("file_path"), []).append(t)
    new_docs = list(creates)
    if blank:  # the first save of what the person typed into it, under its final name
        first = {}
        for e in kept_writes:
            if e.get("file_path") in blank and e.get("file_path") not in first and text_of.get(id(e)):
                first[e.get("file_path")] = e
        new_docs += first.values()
    prose = 0  # of them, texts besides data files (tiers.cross_modal: data alone says nothing)
    for e in new_docs:
        text = text_of.get(id(e))
        if text and not _clipped(text):
            seen += _ext(str(e.get("file_path") or "")) not in PROGRAM_TEXT_TYPES
            prose += _ext(str(e.get("file_path") or "")) not in DATA_TYPES
            # an office document's text holds its tables as markdown rows (recorder.officetext),
            # or, from another recorder, as tab-separated cells
            if _text_kind(e, TEXT_TYPES, text_of):
                tabbed = _ext(str(e.get("file_path") or "")) in PLACED_TYPES
                saves = versions.get(e.get("file_path")) or [text]
                rows += max(table_rows(t) + markup_table_rows(t) + (tab_table_rows(t) if tabbed else 0) for t in saves)
                # a page listing the pictures a run made again (fastlane's screenshots.html) shows none of the person's
                embeds += max(max(figure_embeds(t) - (sum(1 for n in again if n in t) if regenerated else 0), 0) for t in saves)
    rows += sum(table_rows(t) + markup_table_rows(t) for t in typed if t)
    embeds += sum(figure_embeds(t) for t in typed if t)
    # a table typed into a document is output whose content shows it, whatever the document held
    seen += any(table_rows(t) + markup_table_rows(t) >= 2 for t in typed if t)
    figure_dirs = {p.rsplit("/", 1)[0] for p in visual_paths if "/" in p and FIGURE_DIR.search(p.rsplit("/", 1)[0].rsplit("/", 1)[-1])}
    # A chance to show it: an image or data file made, or a text whose tables can be seen.
    # Output that is only bytes (a Word or PDF file whose text was not kept) may hold a
    # table or a chart no one can see: it is no evidence of text only.
    # of them, pictures a program saved into the Downloads folder that the person kept for the
    # work: gathered, not made (tiers.GATHERED_WEIGHT)
    gathered = sum(1 for p in visual_paths if _DOWNLOADS.search(p.replace("\\", "/")))
    return {"opp": bool(visual_paths or data_files or seen), "images": len(visual_paths), "gathered": gathered,
            "data_files": data_files,
            "figure_dirs": len(figure_dirs), "table_rows": rows, "embeds": embeds, "texts": prose}
