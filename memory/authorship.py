"""Which actions a program did, when the producer of the trace did not say.

FileGram's recorder knows the process behind each change and marks a tool's actions
`"authored": false`; a trajectory from another recorder or behaviour model carries no such
mark, and an unpacked archive, a sync client or an export step would then read as the
person writing a dozen documents, making folders and deleting files. Two things tell a
program's work from the person's whatever recorded it:

- **speed**: a person writes the content of one file at a time, seconds apart at the least.
  Three or more different files written or edited with less than TOOL_GAP_MS between one
  change and the next is a program (an archive unpacked, a checkout or a sync rewriting
  files, a build or export step), and so is whatever else changed within that run (the
  folders it made, the files it deleted), except the save that set it off (a live-reload
  build or a formatter starts a moment after the save, then writes a file every few
  milliseconds). So is a run that writes the same content under two names in one folder (an
  export's dated file and its `_latest` twin). Several folders made or files moved at once are
  not enough: `mkdir -p` or dragging a selection is one human act that a recorder sees as
  many changes at the same instant, and it does not write content.
- **a run's end**: a run removes its intermediate files a moment after its last write (a
  reduction pipeline its overscan frames, knitr its `.knit.md`); a person who removes what a
  run left sees it finish first. Deletions that begin within a second of a write of another
  file and remove, one after another, only files the session made in the minute before and
  nobody opened are the run's, and so are those files' writes.
- **unwritten text**: a run of UNWRITTEN_MIN_FILES or more new text files, each holding more
  than anyone types or pastes in the seconds since the change before it, was unpacked or
  generated (a zip of submissions, a site generator's pages), however a recorder or an
  indexer spaced it out by reading each file in between.
- **clockwork**: a program that records on a clock (an instrument's acquisition, a data
  logger, a recorder's segments) writes a new file into one folder every few seconds for as
  long as it runs. SERIES_MIN_FILES or more new files in one folder whose pauses nearly all
  lie within SERIES_SPREAD of their median are its work: a person's pauses follow their
  thinking and their reading in between, and are never that even. The folder the series
  went into, made in the session before it began, is the program's too (an instrument makes
  a folder per run), and so is each folder above it made in the session for nothing else.
- **templates**: one human act makes one chain of folders (`mkdir -p a/b/c`) or a few
  siblings (`mkdir -p x/{raw,clean}`); a run that makes TEMPLATE_BRANCHES or more separate
  branches at once is a project template or a setup script laying out a standard tree, the
  same for everyone who runs it.
- **editor housekeeping**: lock, swap and autosave files (`~$report.docx`, `.notes.md.swp`,
  `.~lock.budget.ods#`) are made and removed by the editor, never by the person; so are the
  lock files programs name by convention (`.acquisition.lock`, `db.lck`, CAD's `A-101.dwl`,
  an Access database's `job.ldb`) and Office's save temporaries (`~WRL0001.tmp`), which it
  opens and removes around every save and close: a person who never deletes anything shows
  their removal every session. A backup named by a number alone (a game engine's
  `Temp/__Backupscenes/0.backup`) is an application's autosave slot: people name a backup
  after what it backs up. So is a file named an autosave or recovery copy, or kept in a
  folder so named (SketchUp's `~AutoSave_<model>.skp`, Premiere's `Auto-Save/`): nobody
  calls a file of their own an autosave.
- **application folders**: a folder whose name starts with a dot (`.vscode/`, `.git/`,
  `.cache/`, a sync client's `.dropbox.cache/`, an export step's `.pandoc-tmp-1234/`) is where
  programs keep their state; people keep their documents in folders they can see. What is
  made, changed, copied into or deleted in one is the program's. The person's workspace may
  itself lie in a hidden folder (a notes vault under `~/.local/share`): a hidden folder that
  holds at least half of the session's actions is the workspace, not an application's,
  unless the session changed or read visible files (the person's work is then out in the
  open).

- **shadow files**: a hidden file named after another file of the session
  (`.report.md.sync-8ae2b9.tmp` beside `report.md`) is a program's companion of that file: a
  sync client's or an editor's staging copy. People name their own files to find them, not
  after another file with a dot in front.

- **autosaves of an application's own file**: a backup written under another file's full
  name (`guide-en.sdlxliff.bak`, `model.als~`) of a file the session never names is an
  application keeping a copy of its working file as it saves: people back up what they
  work on, and they do it by copying it (the copy stays the person's).

- **a program's temporaries**: a file under a name no person types, a random token of
  RANDOM_TOKEN_MIN or more hexadecimal digits or a UUID (`Temp/UnityTempFile-03ef2e82...`),
  that the session made and deleted again is a program's scratch file, and so is a hidden
  file (`.syncthing.notes.md.tmp`) the session made and deleted within HIDDEN_TEMP_MS: people
  name their files with words to find them again, and a sync client's or a compiler's
  staging copy lives for the second of a transfer, while a person who makes a file and then
  decides to throw it away has spent longer with it. Its writes and its deletion are the
  program's (a person who never deletes anything otherwise shows a cleanup every time a sync
  client or a compiler tidies up). A hidden file the person kept for a while (`.env`), or
  deletes without having made it in the session, stays theirs. A folder named by such a
  token is a program's, and so is a folder the session made that holds nothing but folders
  a program made in it (a workflow engine's `work/3b/<task hash>/`, a store sharded by its
  hashes' first digits): no person files into a folder they never put anything in.

- **downloads**: a file written under a browser's in-progress name (`.crdownload`, `.part`)
  and its rename to the final name are the browser's.

- **files received from another device**: a sync client writes what arrives under a name of
  its own (Syncthing's `.syncthing.notes.md.tmp` or `~syncthing~notes.md.tmp`, Resilio's
  `notes.md.!sync`) and renames it into place. The file comes whole from the person's other
  machine: how they wrote or changed it there is not in this trace, and the whole-file
  replacement is the client's way of delivering it, not a rewrite of theirs.

- **cloud placeholders**: iCloud Drive keeps a file it has not downloaded as a placeholder
  `.name.icloud` beside it. Fetching the file writes it and removes the placeholder; evicting
  it removes the file and writes the placeholder back. Both are the sync client's, not the
  person writing a document or cleaning one up.

- **read bursts**: nobody opens files milliseconds apart; reads of three or more files each
  under READ_BURST_MS after the one before are a program's (grep -r, make, a thumbnailer),
  kept as one search of the person's where nothing was written meanwhile.

- **save followers**: a file changed within SAVE_FOLLOW_MS after another file's save, time
  after time (ctags' `tags`, a sync client's state), is a program's index of the saves.

- **build trees**: what changes under a build system's output folder (`build/`, `target/`,
  `dist/`, an IDE's `Debug/`: BUILD_FOLDERS) is the build's.

- **saves by replacing**: a file removed as another takes its name within REPLACED_MS was
  replaced by a newer version of itself, not cleaned up.

- **companion folders**: a document's `<name>_files/`, `<name>_cache/` or `<name>.assets/` is
  made and filled by the program that renders or saves it.

- **captures**: a picture named by the second it was taken is marked `captured`: the person's
  act, but no visual output or filing of theirs.

- **companions**: a file the session made under another file's full name with a further
  extension (`rivers.tif.aux.xml` beside `rivers.tif`: a GIS program's statistics of a raster
  it opened, a photo's `.xmp` sidecar) is that program's record of the file: people name a
  file of their own after what it holds. Backups (`.bak`, `~`), temporaries on their way to
  their final name (`part.gcode.tmp` renamed to `part.gcode`) and hidden files have rules of
  their own above.

- **folders named by a token**: a folder made under a random token (`processing_d1c3748e-...`,
  a GIS tool's run folder; an app bundle's UUID folders) was named, and so made, by a
  program: people name folders with words. Its making is the program's (what is written into
  it may still be the person's: a writing app keeps each scene in such a folder). A folder
  named as a key and its value (`year=2024/`, Airflow's `dag_id=<dag>/run_id=<run>/`) is a
  partition of a program's data or log store, and all that changes in it is the program's.

- **rotation**: an application that keeps timed backups (a CAT tool's `Backup/`, a DAW's
  `Backups/`) writes the new one and removes the oldest at once: the deletion of a file of
  the kind (extension) a program wrote into the same folder less than TOOL_GAP_MS before is
  the program's, like the write; so is the deletion of a file named like one just created
  beside it but for its numbers (a dated backup series), and that creation: no person
  removes the oldest of a series within seconds of saving the newest.

- **backups made on save**: a copy of a file to a backup name in the seconds (TOOL_GAP_MS)
  before a save of that file is the application's "keep a backup" step (AutoCAD's
  `drawing.bak` at every save): a person backs a file up before starting on it, not in the
  second before each save. The save stays the person's.

- **edits a tool made by itself**: an edit whose producer names the tool that made it as
  one that edits without the person's hand (an application's autosave, `git merge` or a
  checkout, a formatter) is that tool's: what a merge brought in is a co-author's work, and
  a save every confirmed segment is the application's rhythm, not a revision pass.

- **a file manager's own files**: `.DS_Store` (Finder), `Thumbs.db` and `desktop.ini`
  (Explorer), `.directory` (Dolphin) are written by the system as folders are viewed.

- **program folders**: some folders only programs make, whatever their owner does
  (`__pycache__` of Python's byte code, `node_modules` of npm, a virtual environment's
  `site-packages`, macOS's `__MACOSX` in an unpacked zip): what is made or changed in them
  is the program's.

An action the producer marked either way keeps its mark: the recorder's attribution is
better evidence than timing.
"""

from __future__ import annotations

import bisect
import datetime as dt
import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from filegram.naming import in_archive_folder, is_editor_artifact, looks_like_backup, scratch_named

from .content import TEXT_TYPES

# Longest pause between two changes of one program run. A person writes one file's content
# at a time, seconds apart at the least; an instrument's or an exporter's run writes a file
# every half second to second and a half (at 1 s such runs split into pieces of one or two
# files, each read as the person's: a lab's text-only people were called visual-heavy at
# p = 0.9-1.0 on the CSVs their plate reader wrote).
TOOL_GAP_MS = 2000.0
# Different files whose content a run must write for it to be a program's.
TOOL_MIN_FILES = 3
# A program that reacts to a save (a live-reload build, a formatter, a sync client) starts
# a moment after it and then writes a file every few milliseconds: a first change this many
# times the run's median pause, and at least TRIGGER_MIN_MS, before the rest is the save that
# set it off, the person's (an instrument writing a file a second has no such pause).
TRIGGER_PACE = 10.0
TRIGGER_MIN_MS = 500.0
# New files in one folder written at an even pace (nine in ten pauses within SERIES_SPREAD
# of their median) from which they are a program's clockwork: a person writing ten files
# one after another pauses for as long as each takes to think and write.
SERIES_MIN_FILES = 10
SERIES_SPREAD = 1.25
SERIES_EVEN_SHARE = 0.9
# Separate branches (folders with no subfolder made in the same run) of a run's new folders
# beyond which it lays out a template: a person's one act makes a chain or a few siblings,
# never six trees at once (in every model's data a person's run of folders has at most five
# branches, a company's setup script 23).
TEMPLATE_BRANCHES = 6
# Content a person can bring into a new file per second since their previous change, pasting
# included (typing is ten characters a second at the most). A run of UNWRITTEN_MIN_FILES or
# more new files each arriving faster than that, no more than UNWRITTEN_GAP_MS apart, was not
# written: it was unpacked, checked out or generated. A person who writes several documents
# in one sitting spends at least some seconds on each (the simulator's and users-dev's people
# never make five in a row this fast; an archive tool's run, seconds apart because a
# recorder or an indexer reads each file in between, makes dozens).
PERSON_CHARS_PER_S = 100.0
UNWRITTEN_GAP_MS = 10_000.0
UNWRITTEN_MIN_FILES = 5
# A person opens one file at a time and looks at it: a second at the least before the next.
# Reads of READ_BURST_MIN_FILES or more different files, each under READ_BURST_MS after the
# read before it, are a program opening them (grep -r or ripgrep scanning a folder, make
# reading every source, a file manager's thumbnailer, a validation script): on five
# independent behaviour models such bursts were a tool's, never a person's reading, and no
# model writes a person's reads that close.
READ_BURST_MS = 300.0
READ_BURST_MIN_FILES = 3
# A program that keeps an index or a state file rewrites it a moment after every save of
# another file (ctags' `tags`, a sync client's state file, a build's dependency list): a
# person who saves one file and changes another within SAVE_FOLLOW_MS once may be saving
# all their open files, but not after save after save. From SAVE_FOLLOWS times on in a
# session, each such change of that file is the program's.
SAVE_FOLLOW_MS = 1_500.0
SAVE_FOLLOWS = 2
CHANGES = frozenset({"file_write", "file_edit", "dir_create", "file_move", "file_delete", "file_copy", "file_rename"})
CONTENT = frozenset({"file_write", "file_edit"})
# The paths each action type names (the file an editor would lock or swap is one of them).
PATH_KEYS = {"file_read": ("file_path",), "file_write": ("file_path",), "file_edit": ("file_path",),
             "file_delete": ("file_path",), "dir_create": ("dir_path",), "file_move": ("old_path", "new_path"),
             "file_rename": ("old_path", "new_path"), "file_copy": ("source_path", "dest_path")}
_NUMBER = (int, float)
# Suffixes by which programs name the backup of a whole file: `X.ext.bak`, `X.ext~`.
AUTOSAVE_SUFFIX = re.compile(r"(?i)^(.+\.\w+)(\.(bak|backup|orig|sav)|~)$")
# Lock files by the conventions programs share (`<name>.lock`, `<name>.lck`; AutoCAD's
# `<drawing>.dwl`/`.dwl2`; Microsoft Access's, and every program's built on its database
# engine, `<database>.ldb`/`.laccdb`, made on opening the database and removed on closing it;
# InDesign's and InCopy's `~<document>~<id>.idlk`, Premiere Pro's `<project>.prlock`, Rhino's
# `<model>.rhl`, each beside the open document) and Office's temporaries (`~WRL0001.tmp`,
# `~DF12.tmp`: a name starting with a tilde, as its `~$` owner files do).
LOCK_NAME = re.compile(r"(?i)(\.(lock|lck|dwl2?|ldb|laccdb|idlk|prlock|rhl)$)|(^~.+\.tmp$)")
# SQLite's companions of an open database (`landuse.gpkg-wal`, `places.sqlite-shm`,
# `notes.db-journal`): the database engine makes and removes them while a program has the file
# open (a GeoPackage in QGIS, a browser's history, a note app's index), whatever the person does.
DATABASE_COMPANION = re.compile(r"(?i)\.\w+-(wal|shm|journal)$")
# A backup named by a number alone (`0.backup`, `3.bak`): an application's rotating autosave
# slot. People name a backup after what it backs up.
NUMBERED_BACKUP = re.compile(r"(?i)^\d+\.(bak|backup|sav|autosave)$")
# An application's autosave of an open document, by its name: `<model>.slx.autosave`
# (Simulink), `<story>.autosave` (a newsroom editor's, removed on publish), Word's
# `AutoRecovery save of <doc>.asd`, Ableton's `<sample>.wav.asd` analysis file. The program
# writes it every minute and removes it when the document is saved or closed, whatever the
# person's habits (alt365: preservative journalists read as pragmatic at p 0.86).
AUTOSAVE_NAME = re.compile(r"(?i)\.(autosave|asd)$")
# The words applications name their autosave and recovery copies and folders with, in a file's
# name or its folder's: SketchUp's `AutoSave_<model>.skp` (`~AutoSave_...` in some versions), Premiere's
# and After Effects' `Adobe Premiere Pro Auto-Save/`, Blender's `<pid>_autosave.blend`, KiCad's
# `_autosave-<board>.kicad_pcb`, Office's `AutoRecovery/` and Photoshop's `AutoRecover/`. The
# program writes them on a timer and removes them when the document is saved or closed, or
# keeps the newest few: people name their own files after what they hold and never call one
# an autosave. (alt403: a pragmatic designer's SketchUp removing its autosave as each model
# was closed read as deleting scratch files in 14 of 15 sessions, selective at p 1.00.)
AUTOSAVE_WORD = re.compile(r"(?i)auto[-_ ]?(save|recover)")
# A random token in a file's name: RANDOM_TOKEN_MIN or more hex digits mixing digits and
# letters, or a UUID. People name files with words, dates and versions; 16 hex digits is
# longer than any date or counter they type, and as long as the shortest ids programs make.
RANDOM_TOKEN_MIN = 16
RANDOM_TOKEN = re.compile(r"(?i)(?<![0-9a-z])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{" + str(RANDOM_TOKEN_MIN)
                          + r",}(?![0-9a-z])|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
# Longest life of a temporary-named file made and deleted by a program (a staging copy, a
# cancelled download): a person who writes a file and decides to remove it spends longer with it.
HIDDEN_TEMP_MS = 10_000.0
TEMPORARY_SUFFIX = re.compile(r"(?i)\.(tmp|temp|part|partial|crdownload|download|swp)$")
# A browser writes a download under its name with one of these suffixes and renames it when
# done: both are the browser's (nobody names a file of theirs so; a survey export downloaded
# read as the person writing a 24-row table). What the person then does with the file
# (moving it into a project's folder) is theirs.
DOWNLOAD_SUFFIX = re.compile(r"(?i)\.(part|partial|crdownload|download)$")
# The names sync clients give a file they are receiving, before renaming it into place
# (features._atomic_saves_joined): Syncthing's on Unix and on Windows, Resilio's.
SYNC_RECEIVING = re.compile(r"^(\.syncthing\..+\.tmp|~syncthing~.+\.tmp|.+\.!sync)$")

# edit_tool values that name a tool editing by itself, not the person's editor: version
# control, merges and formatters bring in lines the person did not type. An editor's autosave
# (`highland_autosave`, `trados_autosave`) is not among them: it saves what the person typed,
# at the editor's moment (memory.signals joins a file's saves made back to back); in writing
# apps that save by themselves it is the only record of the person's revising.
AUTOMATIC_EDIT_TOOL = re.compile(r"(?i)(^|[^a-z])git([^a-z]|$)|merge|formatter|prettier")
# Process names, where the producer records them (fanotify, fs_usage, ETW: `process` or
# `process_name`), of programs that change files by themselves or in bulk: version control,
# builds, formatters, package managers, sync clients, archivers, indexers. The person's
# editor, shell and their own scripts (python, R) are not among them: what those do is theirs.
PROGRAM_PROCESS = re.compile(
    r"(?i)^(git|hg|svn|make|gmake|cmake|ninja|latexmk|pdflatex|xelatex|lualatex|bibtex|biber|prettier|black|ruff|"
    r"isort|eslint|gofmt|rustfmt|clang-format|npm|yarn|pnpm|pip\d*|cargo|rsync|syncthing|dropbox|onedrive|"
    r"googledrivesync|tar|unzip|zip|gzip|gunzip|7z|mdworker|mds|tracker-miner-fs|baloo_file|updatedb|"
    r"logrotate|cron|crond|anacron)(\.exe)?$")
# Fields a recorder names the acting process in (Linux audit's `comm` among them).
PROCESS_KEYS = ("process", "process_name", "comm")
PROGRAM_FOLDERS = frozenset({"__pycache__", "node_modules", "site-packages", "dist-packages", "__MACOSX",
                             ".ipynb_checkpoints", ".tmp.drivedownload", ".tmp.driveupload"})
# The output trees build systems make by convention, named as they name them: CMake's,
# Gradle's, BitBake's and setuptools' `build/`, Sphinx's `_build/`, Cargo's, Maven's and dbt's
# `target/`, bundlers' `dist/`, MSBuild's `obj/`, and the build configurations IDEs name
# capitalised (Eclipse CDT's and STM32CubeIDE's `Debug/` and `Release/`, Visual Studio's
# `x64/Debug/`, which `make clean` empties: alt405's keepers read as tidy). What changes there
# is the build's (a build of ten thousand files sampled by a recorder whose queue overflowed
# reads as a person making folders seven levels deep); reading a build log stays the person's.
BUILD_FOLDERS = frozenset({"build", "_build", "target", "dist", "obj", "Debug", "Release"})
# A translation project keeps its translated documents in `target/` beside `source/` (OmegaT's
# layout, and the habit of translators who copy it): prose and office documents the translator
# edits there are theirs. A build's `target/` holds classes, binaries, compiled SQL and JSON,
# never such a document (alt735: the translators' edits read as a build's, and D as unknown).
TARGET_DOCUMENTS = frozenset({"md", "markdown", "txt", "rst", "docx", "doc", "odt", "rtf"})


# A folder named as a cache (`cache`, `.cache`, `render_cache`, a video editor's `CacheClip`,
# `ThumbCache`): what a program keeps to work faster, written and pruned by it.
CACHE_FOLDER = re.compile(r"(^|[^A-Za-z])[Cc]aches?(?![a-z])|(?<=[a-z])Caches?(?![a-z])|^CACHES?$")


# The folders an operating system gives programs in the person's home for their settings,
# caches and recovery files, hidden from the person's own view: macOS's `~/Library/Preferences`,
# `Application Support`, `Caches`, ... and Windows' `AppData/Local` and `Roaming` (the dot
# folders' counterparts there; Linux's are `~/.config` and `~/.local`). A crash-recovery file a
# music program writes into `~/Library/Preferences` when it opens and removes when it quits is
# no leftover of the person's (alt168: eight people's E wrong, four who never delete read as
# tidy). Named
# whole, folder and subfolder, so that the cloud drives macOS keeps in `~/Library` (iCloud
# Drive's `Mobile Documents`, `CloudStorage`), which hold the person's documents, and a
# `Library/` of the person's own stay theirs.
HOME_PROGRAM_FOLDERS = {
    "Library": frozenset({"Preferences", "Application Support", "Caches", "Logs", "Containers",
                          "Group Containers", "Saved Application State", "LaunchAgents", "Cookies",
                          "HTTPStorages", "WebKit", "Keychains", "Autosave Information"}),
    "AppData": frozenset({"Local", "LocalLow", "Roaming"}),
}


# What a program keeps for itself, to work faster or to remember its settings (a cache folder,
# the home's folders for programs), is read by that program too: a person does not open the
# parquet files a data loader caches in `~/.cache/marketdata/` (alt750: the backtester's
# reads of them, again and again over a session, read as a person's revisits).
@functools.lru_cache(maxsize=4096)
def _in_cache(path: str) -> bool:
    parts = path.split("/")
    return any(CACHE_FOLDER.search(part) for part in parts[:-1]) \
        or any(part in HOME_PROGRAM_FOLDERS and parts[i + 1] in HOME_PROGRAM_FOLDERS[part]
               for i, part in enumerate(parts[:-2]))


@functools.lru_cache(maxsize=4096)
def _in_program_folder(path: str) -> bool:
    parts = path.split("/")
    document = _extension(path) in TARGET_DOCUMENTS
    return any(part in PROGRAM_FOLDERS for part in parts) \
        or any(part in BUILD_FOLDERS and not (document and part == "target") for part in parts[:-1]) \
        or _in_cache(path)


# Files an operating system's file manager keeps in folders for itself (Finder's view settings,
# Explorer's thumbnail cache and folder settings, KDE Dolphin's): never the person's work.
OS_FOLDER_FILES = frozenset({".ds_store", "thumbs.db", "ehthumbs.db", "desktop.ini", ".localized", ".directory"})
# The names a file system gives a file removed while a program still holds it open: the NFS
# client's `.nfs<hex>`, FUSE's `.fuse_hidden<hex>`, Samba's `.smbdelete<hex>`. The file system
# makes and removes them as the last handle closes; no one sees them in a file manager, and
# their removal is nobody's cleaning (alt426: keepers on an NFS home read as tidy).
SILLY_RENAME = re.compile(r"^\.(nfs|fuse_hidden|smbdelete)[0-9a-fA-F]{8,}$")


@functools.lru_cache(maxsize=4096)
def _editor_file(path: str) -> bool:
    name = path.rstrip("/").rsplit("/", 1)[-1]
    return is_editor_artifact(name) or LOCK_NAME.search(name) is not None or NUMBERED_BACKUP.match(name) is not None \
        or DATABASE_COMPANION.search(name) is not None or AUTOSAVE_NAME.search(name) is not None \
        or AUTOSAVE_WORD.search("/".join(path.rstrip("/").rsplit("/", 2)[-2:])) is not None \
        or name.lower() in OS_FOLDER_FILES or SILLY_RENAME.match(name) is not None


def _ts(e: Mapping[str, Any]) -> float:
    t = e.get("timestamp")
    return float(t) if isinstance(t, _NUMBER) else 0.0


def _hidden_folders(path: str, is_dir: bool = False) -> list[str]:
    """The path's prefixes that end in a folder whose name starts with a dot (the folder
    itself included when the path names a folder)."""
    if "." not in path:
        return []
    parts = path.rstrip("/").split("/")
    if not is_dir:
        parts.pop()
    return ["/".join(parts[: i + 1]) for i, part in enumerate(parts)
            if len(part) > 1 and part[0] == "." and part != ".."]


def _application_folders(evs: list[dict[str, Any]]) -> set[str]:
    """Hidden folders of this session that are an application's: all but one that holds at
    least half of the session's actions (the workspace itself), and that one too when the
    person changed or read visible files in the session: their work is then out in the open,
    and a small session's cache traffic (a sync client making and removing a file or two per
    save, an IDE's state for each file opened) is easily half of what it logged."""
    held: dict[str, int] = {}
    named = 0
    visible_change = False
    for e in evs:
        paths = [v for k in PATH_KEYS.get(e["event_type"], ("directory_path",)) if type(v := e.get(k)) is str and v]
        if not paths:
            continue
        named += 1
        # a move or copy names two places: the folder it went into counts as much as the one it left
        hidden = {h for p in paths for h in _hidden_folders(p, e["event_type"] == "dir_create")}
        for h in hidden:
            held[h] = held.get(h, 0) + 1
        p = paths[-1]
        if not hidden and (e["event_type"] in CHANGES or e["event_type"] == "file_read") \
                and p.rstrip("/").rsplit("/", 1)[-1][:1] != ".":
            visible_change = True
    return {h for h, n in held.items() if visible_change or 2 * n < named}


# macOS keeps a file's resource fork and Finder information in `._<name>` beside it wherever
# the volume cannot hold them (an SMB share, a USB stick, a synced folder, a zip's
# `__MACOSX/`): the system writes, moves and removes it with the file. Never the person's,
# whatever its name says (`._notes_old.md` is no leftover, `._report.md` no second document).
APPLE_DOUBLE = "._"


def _file_names(evs: list[dict[str, Any]]) -> set[str]:
    """The names of the visible files the session's actions name."""
    out: set[str] = set()
    for e in evs:
        if e["event_type"] == "dir_create":
            continue
        for k in PATH_KEYS.get(e["event_type"], ()):
            p = e.get(k)
            if p and type(p) is str:
                name = p.rstrip("/").rsplit("/", 1)[-1]
                if name and name[0] != ".":
                    out.add(name)
    return out


def _shadow_of(hidden: str, names: set[str]) -> bool:
    """`hidden` (".report.md.sync-8ae2b9.tmp") is named after one of `names` ("report.md"),
    with something after it."""
    rest = hidden[1:]
    return any(len(rest) > len(n) and rest.startswith(n) for n in names if len(n) >= 3)


def mark_tool_actions(evs: list[dict[str, Any]]) -> None:
    """Set `"authored": false` on the actions of `evs` (time-ordered, mutable copies) that
    a program did, where the producer left authorship unsaid."""
    apps: set[str] | None = None
    names: set[str] | None = None
    for e in evs:
        if "authored" in e:
            continue
        if e["event_type"] == "file_edit" and type(tool := e.get("edit_tool")) is str \
                and AUTOMATIC_EDIT_TOOL.search(tool):
            e["authored"] = False
            continue
        if any(type(proc := e.get(k)) is str and PROGRAM_PROCESS.match(proc.replace("\\", "/").rsplit("/", 1)[-1].strip())
               for k in PROCESS_KEYS):
            e["authored"] = False
            continue
        for k in PATH_KEYS.get(e["event_type"], ()):
            p = e.get(k)
            if not p or type(p) is not str:
                continue
            if _editor_file(p) or (e["event_type"] in CHANGES and (_in_program_folder(p) or DOWNLOAD_SUFFIX.search(p))):
                e["authored"] = False
                break
            if e["event_type"] == "file_read" and _in_cache(p):
                e["authored"] = False
                break
            if e["event_type"] in CHANGES and ("/." in p or p[0] == "."):
                if apps is None:
                    apps = _application_folders(evs)
                if apps and any(h in apps for h in _hidden_folders(p, e["event_type"] == "dir_create")):
                    e["authored"] = False
                    break
                name = p.rstrip("/").rsplit("/", 1)[-1]
                if len(name) > 2 and name[:2] == APPLE_DOUBLE:
                    e["authored"] = False
                    break
                if len(name) > 1 and name[0] == ".":
                    if names is None:
                        names = _file_names(evs)
                    if _shadow_of(name, names):
                        e["authored"] = False
                        break
    _mark_cloud_placeholders(evs)
    _mark_temporaries(evs)
    _mark_autosaves(evs)
    _mark_save_backups(evs)
    _mark_replaced_in_place(evs)
    _mark_companions(evs)
    _mark_companion_folders(evs)
    _mark_following_companions(evs)
    _mark_token_folders(evs)
    _mark_unpacked_archives(evs)
    _mark_counted_sequences(evs)
    _mark_series(evs)
    _mark_stamped(evs)
    _mark_run_folders(evs)
    run: list[dict[str, Any]] = []
    last = 0.0
    for e in evs:
        if e["event_type"] not in CHANGES:
            continue
        t = _ts(e)
        if run and t - last >= TOOL_GAP_MS:
            _close(run)
            run = []
        run.append(e)
        last = t
    _close(run)
    _mark_unwritten(evs)
    _mark_extracted_texts(evs)
    _mark_rotations(evs)
    _mark_folder_rotations(evs)
    _mark_steps_between_writes(evs)
    _mark_end_of_run_removals(evs)
    _mark_save_followers(evs)
    _mark_read_bursts(evs)
    _mark_program_trees(evs)


def _mark_save_followers(evs: list[dict[str, Any]]) -> None:
    """Mark the changes of a file that follow the person's saves of other files
    (SAVE_FOLLOW_MS), where it followed them SAVE_FOLLOWS times or more in the session. A
    program's own write does not count as a save that something follows: Word writes its
    `~WRL` temporary and then the document, which is the person's save."""
    follows: dict[str, list[dict[str, Any]]] = {}
    prev_path: Any = None
    prev_ts = float("-inf")
    for e in evs:
        t = e["event_type"]
        if (t != "file_write" and t != "file_edit") or e.get("authored") is False:
            continue
        p, ms = e.get("file_path"), _ts(e)
        if type(p) is str and prev_path is not None and p != prev_path and ms - prev_ts < SAVE_FOLLOW_MS:
            follows.setdefault(p, []).append(e)
        prev_path, prev_ts = p, ms
    for changes in follows.values():
        if len(changes) >= SAVE_FOLLOWS:
            for e in changes:
                e.setdefault("authored", False)


def _mark_read_bursts(evs: list[dict[str, Any]]) -> None:
    """Mark the reads a program made in a burst (READ_BURST_MS): what the person read is
    what they opened at a person's pace. Listings and other reads within the burst are the
    same program walking the folders; reads of one file again do not split it.

    A burst during which no program changed anything is a search the person ran (grep -r,
    ripgrep): its first action is kept as one search (`"scan": true`). One that wrote as it
    read (make's objects, a validation script's report) is that program's work.

    A recorder's view_count counts the program's opens too: a file make read twice before
    the person opened it is not the person's third look. Their later reads' counts leave
    the program's out."""
    looks = [e for e in evs if e["event_type"] == "file_read" or e["event_type"] == "file_browse"]
    if len(looks) < READ_BURST_MIN_FILES:
        return
    changes = [_ts(e) for e in evs if e["event_type"] in CHANGES and e.get("authored") is False]
    run: list[dict[str, Any]] = []
    files: set[Any] = set()
    folders: set[Any] = set()
    last = float("-inf")
    marked = False

    def close() -> None:
        nonlocal marked
        if len(files) >= READ_BURST_MIN_FILES:
            for x in run:
                x.setdefault("authored", False)
            t0, t1 = _ts(run[0]), _ts(run[-1]) + TOOL_GAP_MS
            if not any(t0 <= t <= t1 for t in changes):
                run[0]["scan"] = True
            marked = True
        elif len(folders) >= READ_BURST_MIN_FILES:
            # listings of several folders at once: a program walking the tree (an editor
            # indexing the project it opens, a file manager expanding its sidebar), not a
            # person looking into one folder after another
            for x in run:
                x.setdefault("authored", False)
            marked = True
        run.clear()
        files.clear()
        folders.clear()

    for e in looks:
        ms = _ts(e)
        if ms - last >= READ_BURST_MS:
            close()
        run.append(e)
        if e["event_type"] == "file_read":
            files.add(e.get("file_path"))
        else:
            folders.add(e.get("directory_path") or e.get("file_path"))
        last = ms
    close()
    if not marked:
        return
    by_program: dict[Any, int] = {}
    for e in looks:
        if e["event_type"] != "file_read":
            continue
        p = e.get("file_path")
        if e.get("authored") is False:
            by_program[p] = by_program.get(p, 0) + 1
        elif by_program.get(p) and type(vc := e.get("view_count")) is int and vc > 1:
            e["view_count"] = max(1, vc - by_program[p])


def _random_named(name: str) -> bool:
    return RANDOM_TOKEN.search(name) is not None


def _program_temporary_name(name: str) -> bool:
    """A name programs give the files they make for a moment: hidden (`.name`), tilde-led
    (Office's and WPS's `~wps3f2a.wps~tmp`, `~$report.docx`) or a download's (a browser's
    `.crdownload`, a `.part`). Not any `.tmp`: people name their scratch files so too
    (`scratch_0.tmp`), and delete them seconds later as well."""
    return len(name) > 1 and (name[0] in ".~" or DOWNLOAD_SUFFIX.search(name) is not None)


def _mark_temporaries(evs: list[dict[str, Any]]) -> None:
    """Mark the actions on randomly named files the session made and deleted, and on files
    named as temporaries (_program_temporary_name) it made and deleted within HIDDEN_TEMP_MS
    (written, or copied: Jupyter saves a notebook by copying it to `.~name.ipynb` first and
    removes the copy 50 ms later; WPS saves through a `~wps<hex>.wps~tmp` it deletes a second
    later; a browser deletes the `.crdownload` of a cancelled download)."""
    made: dict[str, float] = {}
    for e in evs:
        if e["event_type"] == "file_write" and e.get("operation") == "create" and type(p := e.get("file_path")) is str:
            made.setdefault(p, _ts(e))
        elif e["event_type"] == "file_copy" and type(p := e.get("dest_path")) is str:
            made.setdefault(p, _ts(e))
    if not made:
        return
    gone = set()
    for e in evs:
        if e["event_type"] == "file_delete" and "authored" not in e and type(p := e.get("file_path")) is str \
                and p in made:
            name = p.rsplit("/", 1)[-1]
            if _random_named(name) or (_program_temporary_name(name) and _ts(e) - made[p] <= HIDDEN_TEMP_MS):
                gone.add(p)
    _mark_paths(evs, gone)


# iCloud Drive's placeholder of a file it keeps only in the cloud, and the longest pause between
# a placeholder going (coming) and its file coming (going) for the two to be one fetch (eviction).
# iCloud does both within the second; a recorder may deliver them a few seconds apart.
CLOUD_PLACEHOLDER = re.compile(r"^\.(.+)\.icloud$")
PLACEHOLDER_MS = 10_000.0


def _mark_cloud_placeholders(evs: list[dict[str, Any]]) -> None:
    """Mark placeholders' comings and goings and, where one falls within PLACEHOLDER_MS, the
    creation or deletion of the file it stands for: a download or an eviction."""
    swaps: dict[str, list[float]] = {}  # the file's path -> when its placeholder came or went
    for e in evs:
        if e["event_type"] in ("file_write", "file_delete") and type(p := e.get("file_path")) is str \
                and p.endswith(".icloud"):
            folder, _, name = p.rpartition("/")
            if m := CLOUD_PLACEHOLDER.match(name):
                swaps.setdefault(f"{folder}/{m.group(1)}" if folder else m.group(1), []).append(_ts(e))
                e.setdefault("authored", False)
    if not swaps:
        return
    for e in evs:
        t = e["event_type"]
        if "authored" not in e and (t == "file_delete" or (t == "file_write" and e.get("operation") == "create")) \
                and type(p := e.get("file_path")) is str and p in swaps \
                and any(abs(_ts(e) - x) <= PLACEHOLDER_MS for x in swaps[p]):
            e["authored"] = False


def _mark_paths(evs: list[dict[str, Any]], paths: set[str]) -> None:
    """Mark every change still unattributed that names one of `paths`."""
    if not paths:
        return
    for e in evs:
        if "authored" not in e and e["event_type"] in CHANGES and any(
                e.get(k) in paths for k in PATH_KEYS.get(e["event_type"], ())):
            e["authored"] = False


def _mark_save_backups(evs: list[dict[str, Any]]) -> None:
    """Mark the backup copies an application makes as it saves: a copy of a file to a backup
    name within TOOL_GAP_MS before or after a save of that file (AutoCAD's `drawing.bak` and an
    editor's "keep a backup on save" before it; OmegaT's `project_save.tmx.<time>.bak` after
    each autosave). A person's own backup comes before they start on the file, not in the
    seconds around each save; the save stays theirs. A copy just after a save is the
    program's where it follows more than one save of the file: the program copies at each
    save, a person who copies a file they have just written does it once, before editing."""
    pending: dict[str, list[dict[str, Any]]] = {}  # source path -> its backup copies not yet followed by a save
    saved: dict[str, float] = {}  # path -> when it was last saved
    after: dict[str, list[dict[str, Any]]] = {}  # source path -> its backup copies just after a save
    for e in evs:
        t = e["event_type"]
        if t == "file_copy":
            src, dest = e.get("source_path"), e.get("dest_path")
            if "authored" not in e and type(src) is str and type(dest) is str and (
                    e.get("is_backup") is True or looks_like_backup(dest.rsplit("/", 1)[-1])):
                if src in saved and _ts(e) - saved[src] < TOOL_GAP_MS:
                    after.setdefault(src, []).append(e)
                else:
                    pending.setdefault(src, []).append(e)
        elif t in CONTENT:
            p = str(e.get("file_path") or "")
            saved[p] = _ts(e)
            for c in pending.pop(p, ()) if pending else ():
                if _ts(e) - _ts(c) < TOOL_GAP_MS:
                    c["authored"] = False
    for copies in after.values():
        if len(copies) > 1:
            for c in copies:
                c["authored"] = False


# Longest pause between removing a file and a new one taking its name for the two to be one
# save: programs that save by replacing do both in the same few milliseconds.
REPLACED_MS = 1_000.0
# What puts a file at a path: its new name after a rename or move, a copy's destination, a write.
ARRIVALS = {"file_rename": "new_path", "file_move": "new_path", "file_copy": "dest_path", "file_write": "file_path"}


def _mark_replaced_in_place(evs: list[dict[str, Any]]) -> None:
    """Mark removals of a file that another takes the place of within REPLACED_MS: a save by
    replacing (AutoCAD drops the old `drawing.bak`, renames `drawing.dwg` to it and its
    temporary to `drawing.dwg`, all in one millisecond). The file is still there afterwards, a
    newer version of it: nothing was cleaned up."""
    deletes: dict[str, dict[str, Any]] = {}
    for e in evs:
        t = e["event_type"]
        if t == "file_delete" and "authored" not in e and type(p := e.get("file_path")) is str:
            deletes[p] = e
        elif deletes and t in ARRIVALS and type(p := e.get(ARRIVALS[t])) is str and p in deletes:
            d = deletes.pop(p)
            if _ts(e) - _ts(d) <= REPLACED_MS and "authored" not in d:
                d["authored"] = False


def _mark_autosaves(evs: list[dict[str, Any]]) -> None:
    """Mark the actions on backups written (not copied) of files the session never names."""
    backs_up = {p: m.group(1) for e in evs if e["event_type"] == "file_write" and "authored" not in e
                and type(p := e.get("file_path")) is str and (m := AUTOSAVE_SUFFIX.match(p.rsplit("/", 1)[-1]))}
    if not backs_up:
        return
    named = _file_names(evs)
    _mark_paths(evs, {p for p, original in backs_up.items() if original not in named})


def _companion_of(name: str, names: set[str]) -> bool:
    """`name` ("rivers.tif.aux.xml") is one of `names` ("rivers.tif", a name with an
    extension of its own) followed by a further extension."""
    parts = name.split(".")
    return any(".".join(parts[:i]) in names for i in range(2, len(parts)))


def _mark_companions(evs: list[dict[str, Any]]) -> None:
    """Mark the actions on companion files the session made and never renamed or moved."""
    made = [p for e in evs if e["event_type"] == "file_write" and e.get("operation") == "create"
            and "authored" not in e and type(p := e.get("file_path")) is str and p.count(".") >= 2]
    if not made:
        return
    names = _file_names(evs)
    passed_on = {e.get("old_path") for e in evs if e["event_type"] in ("file_rename", "file_move")}
    passed_on |= {e.get("source_path") for e in evs if e["event_type"] == "file_copy"}
    companions = set()
    for p in made:
        name = p.rsplit("/", 1)[-1]
        if p in passed_on or name[:1] == "." or AUTOSAVE_SUFFIX.match(name) or TEMPORARY_SUFFIX.search(name):
            continue
        if _companion_of(name, names):
            companions.add(p)
    _mark_paths(evs, companions)


# A folder named after a document with one of these endings (`rates_04_files/`,
# `rates_04_cache/`, `notes.assets/`) is the document's own, made beside it by the program that
# renders or saves it: knitr's and Quarto's figures and cache, Word's "web page" files,
# Jupyter's exports, Typora's pasted images. Only these words: a person's `report_figures/`
# is their own filing.
COMPANION_FOLDER = re.compile(r"(?i)^(.+?)(_files|_cache|[._]assets)$")
COMPANION_PART = re.compile(r"(?i).(_files|_cache|[._]assets)(/|$)")  # one in a folder's path


def _stem(name: str) -> str:
    return name.rsplit(".", 1)[0] if "." in name[1:] else name


def _mark_companion_folders(evs: list[dict[str, Any]]) -> None:
    """Mark every change in a document's companion folder (COMPANION_FOLDER), made in the
    session or before, where the session names a file of that stem in the folder's parent,
    and the making of the folder."""
    folders = {p.rpartition("/")[0] if e["event_type"] != "dir_create" else p
               for e in evs if e["event_type"] in CHANGES
               for k in PATH_KEYS[e["event_type"]] if type(p := e.get(k)) is str}
    if not any(COMPANION_PART.search(f) for f in folders):
        return
    stems: set[tuple[str, str]] = set()
    for e in evs:
        if e["event_type"] == "dir_create":
            continue
        for k in PATH_KEYS.get(e["event_type"], ()):
            if type(p := e.get(k)) is str:
                parent, _, name = p.rpartition("/")
                stems.add((parent, _stem(name)))

    def in_companion(path: str) -> bool:
        parts = path.rstrip("/").split("/")
        for i in range(len(parts)):
            m = COMPANION_FOLDER.match(parts[i])
            if m and ("/".join(parts[:i]), m.group(1)) in stems:
                return True
        return False

    for e in evs:
        if "authored" not in e and e["event_type"] in CHANGES and any(
                type(p := e.get(k)) is str and in_companion(p) for k in PATH_KEYS.get(e["event_type"], ())):
            e["authored"] = False


FOLLOWING = frozenset({"file_delete", "file_rename", "file_move"})


def _mark_following_companions(evs: list[dict[str, Any]]) -> None:
    """Mark the deletion, rename or move of a companion file (`EnemyAI.cs.bak.meta`, `IMG_3.CR3.xmp`:
    another file's name with an extension added) within TOOL_GAP_MS after the same action on
    that file: the program that keeps it (Unity, a photo library) follows its file. The person
    removed one file, not two."""
    last: dict[tuple[str, str], float] = {}  # (action, path) -> when
    for e in evs:
        t = e["event_type"]
        if t not in FOLLOWING:
            continue
        p = e.get("file_path" if t == "file_delete" else "old_path")
        if type(p) is not str:
            continue
        main = p.rsplit(".", 1)[0]
        if "authored" not in e and "." in p.rsplit("/", 1)[-1] and "." in main.rsplit("/", 1)[-1] \
                and (t, main) in last and _ts(e) - last[(t, main)] < TOOL_GAP_MS:
            e["authored"] = False
        last[(t, p)] = _ts(e)


# A reference manager's attachment folder: Zotero keeps each attachment in
# `storage/<item key>/`, the key eight of its own characters (capitals and digits, without 0,
# 1 or O), and makes the folder and copies the file in when the person adds an item.
REFERENCE_STORE = re.compile(r"(^|/)storage/[2-9A-NP-Z]{8}(/|$)")


# A folder named like a file, a word after a dot (`001-90101.D`, `S2404_0910.sequence`,
# `collection.media`, `Report.pages`): a program's container for one run or document, made
# as it writes it. People name their folders with words, dates and numbers (`2024.03`, `v1.2`).
FILE_LIKE_FOLDER = re.compile(r"^[^.].*\.(?:[a-z]{1,12}|[A-Z]{1,12})$")


# A folder named as a key and its value (`year=2024`, `dag_id=nightly_sales`,
# `run_id=scheduled__2026-04-28T16:00:00+00:00`): the partition layout of a program's data or
# log store (Hive, Spark and Parquet datasets, Airflow's task logs), laid out by the program
# for every run. People name folders with words, dates and numbers, not assignments.
PARTITION_FOLDER = re.compile(r"(^|/)[A-Za-z_][A-Za-z0-9_]*=[^/=\s]+(/|$)")


def _mark_token_folders(evs: list[dict[str, Any]]) -> None:
    """Mark the making of folders named by a random token (a UUID): no person types one; of
    folders named like a file (FILE_LIKE_FOLDER), a program's containers; what a reference
    manager does in its attachment folders (REFERENCE_STORE); and what changes in a
    partitioned store (PARTITION_FOLDER), folders and files alike."""
    for e in evs:
        if "authored" in e:
            continue
        if e["event_type"] == "dir_create" and type(p := e.get("dir_path")) is str \
                and (_random_named(name := p.rstrip("/").rsplit("/", 1)[-1]) or FILE_LIKE_FOLDER.match(name)):
            e["authored"] = False
        elif e["event_type"] in CHANGES and any(
                type(q := e.get(k)) is str and (REFERENCE_STORE.search(q) or PARTITION_FOLDER.search(q))
                for k in PATH_KEYS[e["event_type"]]):
            e["authored"] = False


# An archive unpacked beside itself: the folder named after it (`Export123.zip` ->
# `Export123/`, `data.tar.gz` -> `data/`), which macOS's Archive Utility, Windows' Extract All
# and 7-Zip's "Extract to" make, and what lands in it at the tool's pace. The person chose to
# unpack; the folder and its files are the archive's, not a folder they made or documents
# they wrote (alt585: a voter-file export unzipped into `Downloads/Export123/` read as a flat
# organiser's new folder and a 200-line report).
# An archive's name ends in its format's suffix (signals reads archives of folders with it too).
ARCHIVE_NAME = re.compile(r"(?i)\.(zip|7z|rar|tar|tgz|tbz2?|txz|tar\.(gz|bz2|xz|zst))$")


def _mark_unpacked_archives(evs: list[dict[str, Any]]) -> None:
    """Mark the making of a folder named after an archive the session named before it, in
    the archive's folder, and the new files and folders that follow in it, each within
    UNWRITTEN_GAP_MS of the one before."""
    archives: set[str] = set()
    open_at: dict[str, float] = {}  # unpacked folder + "/" -> when its last change came
    for e in evs:
        t = e["event_type"]
        ms = _ts(e)
        for k in PATH_KEYS.get(t, ()):
            if type(p := e.get(k)) is str and ARCHIVE_NAME.search(p):
                archives.add(ARCHIVE_NAME.sub("", p))
        if not archives or t not in CHANGES or "authored" in e:
            continue
        if t == "dir_create" and type(d := e.get("dir_path")) is str and d.rstrip("/") in archives:
            e["authored"] = False
            open_at[d.rstrip("/") + "/"] = ms
            continue
        if not open_at or (t != "dir_create" and (t != "file_write" or e.get("operation") != "create")):
            continue
        p = e.get("dir_path" if t == "dir_create" else "file_path")
        if type(p) is not str:
            continue
        for folder, last in open_at.items():
            if p.startswith(folder) and ms - last <= UNWRITTEN_GAP_MS:
                e["authored"] = False
                e["unpacked"] = True  # the person's to keep or remove: no tool clears it (signals._curation)
                open_at[folder] = ms
                break


def _mark_program_trees(evs: list[dict[str, Any]]) -> None:
    """Mark the making of folders that hold nothing but folders a program made in the
    session: a workflow engine's `work/3b/<task hash>/`, a store sharded by its hashes'
    first digits. Deepest first, so that the folder above a program's shards is its too."""
    made: dict[str, dict[str, Any]] = {}
    for e in evs:
        if e["event_type"] == "dir_create" and type(p := e.get("dir_path")) is str:
            made.setdefault(p.rstrip("/"), e)
    if len(made) < 2:
        return
    children: dict[str, set[str]] = {}
    for e in evs:
        if e["event_type"] not in CHANGES:
            continue
        for k in PATH_KEYS[e["event_type"]]:
            if type(q := e.get(k)) is str:
                q = q.rstrip("/")
                children.setdefault(_parent(q), set()).add(q)
    for folder in sorted(made, key=lambda f: -f.count("/")):
        e = made[folder]
        if e.get("authored") is False:
            continue
        kids = children.get(folder)
        if kids and all(made.get(k, {}).get("authored") is False for k in kids):
            e["authored"] = False


_DIGITS = re.compile(r"\d+")


def _mark_rotations(evs: list[dict[str, Any]]) -> None:
    """Mark the deletion of a file of the kind a program has just written into the same
    folder (within TOOL_GAP_MS): an application that keeps timed backups writes the new one
    and removes the oldest in one step. A write into a folder kept for backups (`Backups/`,
    `filegram.naming.in_archive_folder`) counts as such a write, whoever it is known as: a
    DAW writes the project's backup there a second after each save and removes the oldest
    backup, of whatever project, at once. Where the write was not known as the program's, a
    deletion of a file named like it but for its numbers within ROTATION_MS (`set [2024-01-03
    1141].als` right after `set [2024-02-12 1459].als` was written; a database's nightly
    `objects_20250127.xml` four seconds after `objects_20250212.xml`) is that step: both are
    the program's. So is such a deletion after a write known as the program's: a trainer
    writes a run's `epoch_3.ckpt` and removes `epoch_2.ckpt` a second or three later (alt755).
    So is the deletion of another backup of a file a backup copy of it went beside
    (ROTATION_MS)."""
    last_write: dict[tuple[str, str], float] = {}  # (folder, extension) -> the program's last write
    series: dict[tuple[str, str], tuple[float, dict[str, Any]]] = {}  # (folder, name but its digits) -> last write
    copies: dict[str, list[tuple[str, float, dict[str, Any]]]] = {}  # folder -> (stem, when, backup copy)
    for e in evs:
        t = e["event_type"]
        if t == "file_copy":
            _note_backup_copy(e, copies)
            continue
        p = e.get("file_path")
        if type(p) is not str or t not in ("file_write", "file_delete"):
            continue
        key = (_parent(p), _extension(p))
        numbered = _DIGITS.search(p.rsplit("/", 1)[-1]) is not None
        if t == "file_write":
            if e.get("authored") is False or in_archive_folder(p):
                last_write[key] = _ts(e)
            if numbered and e.get("operation") == "create":
                series[(key[0], _DIGITS.sub("#", p.rsplit("/", 1)[-1]))] = (_ts(e), e)
        elif "authored" not in e:
            if key in last_write and _ts(e) - last_write[key] < TOOL_GAP_MS:
                e["authored"] = False
            elif numbered and (w := series.get((key[0], _DIGITS.sub("#", p.rsplit("/", 1)[-1])))) is not None \
                    and _ts(e) - w[0] < ROTATION_MS and w[1].get("file_path") != p:
                e["authored"] = False
                w[1].setdefault("authored", False)
            else:
                name = p.rsplit("/", 1)[-1]
                for stem, ms, c in copies.get(key[0], ()):
                    if name.startswith(stem) and p not in (c.get("dest_path"), c.get("source_path")) \
                            and 0 <= _ts(e) - ms <= ROTATION_MS:
                        e["authored"] = False
                        c.setdefault("authored", False)
                        break


# A program that keeps dated runs (a library's nightly loader filling `loads/2024-02-08/` and
# emptying `loads/2024-02-07/`, a backup job's `2024-07-03/`) fills the new folder and empties
# the old one in one go, milliseconds apart. A person who copies a batch into a new folder and
# then clears an older one takes seconds to turn from one to the other; one who moves files
# between such folders keeps their names.
def _mark_folder_rotations(evs: list[dict[str, Any]]) -> None:
    """Mark the files arriving in one folder and deleted from another, named like it but for
    its numbers, in one run of changes each within STEP_MS of the last, where no deleted file's
    name arrived: the program's step of rotating dated folders."""
    by_kind: dict[tuple[str, str], list[tuple[float, str, str, bool, dict[str, Any]]]] = {}
    for e in evs:
        t = e["event_type"]
        p = e.get("dest_path") if t == "file_copy" else e.get("file_path") if t in ("file_write", "file_delete") else None
        if type(p) is not str:
            continue
        folder, _, name = p.rpartition("/")
        parent, _, folder_name = folder.rpartition("/")
        if _DIGITS.search(folder_name) is None:
            continue
        by_kind.setdefault((parent, _DIGITS.sub("#", folder_name)), []).append(
            (_ts(e), folder, name, t == "file_delete", e))
    rotated: set[str] = set()
    for acts in by_kind.values():
        if len({folder for _, folder, _, _, _ in acts}) < 2:
            continue
        run: list[tuple[float, str, str, bool, dict[str, Any]]] = []
        for act in [*acts, None]:
            if act is not None and (not run or act[0] - run[-1][0] <= STEP_MS):
                run.append(act)
                continue
            emptied = {folder for _, folder, _, gone, _ in run if gone}
            filled = {folder for _, folder, _, gone, _ in run if not gone}
            arrived = {name for _, _, name, gone, _ in run if not gone}
            if filled - emptied and emptied - filled and not any(gone and name in arrived for _, _, name, gone, _ in run):
                for *_, e in run:
                    e.setdefault("authored", False)
                rotated |= filled
            run = [act] if act is not None else []
    if rotated:  # the new folder is the program's too when all it holds came that way
        inside = {f: all(e.get("authored") is False for e in evs if e["event_type"] in CHANGES
                         and any(type(q := e.get(k)) is str and q.startswith(f + "/") for k in PATH_KEYS[e["event_type"]]))
                  for f in rotated}
        for e in evs:
            if e["event_type"] == "dir_create" and inside.get(str(e.get("dir_path") or "").rstrip("/")):
                e.setdefault("authored", False)


# A program that keeps its last few backups of a file as copies (OmegaT's
# `project_save.tmx.<time>.bak`, Ableton Live's `Backup/<Song> [<date>].als`) removes the
# oldest some seconds after it copies the newest in (3-7 s on two held-out models, past
# TOOL_GAP_MS): a deletion of another file named after the same file, in the folder a backup
# copy went into ROTATION_MS before, is that step, and the copy is the program's too. The
# program decides how many it keeps, for tidy and keeping people alike (alt169: eight E calls). The
# file backed up itself, deleted just after, is no backup: that deletion stays the person's.
ROTATION_MS = 10_000.0


def _note_backup_copy(e: dict[str, Any], copies: dict[str, list[tuple[str, float, dict[str, Any]]]]) -> None:
    """Remember a copy of a file to a backup of it (by name or flag), by the folder it went to."""
    src, dest = e.get("source_path"), e.get("dest_path")
    if type(src) is not str or type(dest) is not str:
        return
    stem = src.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    if stem and dest.rsplit("/", 1)[-1].startswith(stem) and (e.get("is_backup") is True or looks_like_backup(dest)):
        copies.setdefault(_parent(dest), []).append((stem, _ts(e), e))


# A person deletes a file as one act and does something else seconds later; a pipeline that
# removes its intermediate file (Snakemake's `temp()` output once the next rule has read it)
# does it between its own writes, within a second of each.
STEP_MS = 1_000.0


def _mark_steps_between_writes(evs: list[dict[str, Any]]) -> None:
    """Mark a deletion that falls within STEP_MS after one write and before another (of
    other files): a step of the program writing them."""
    writes = [e for e in evs if e["event_type"] in CONTENT]
    if len(writes) < 2:
        return
    times = [_ts(e) for e in writes]
    for e in evs:
        if e["event_type"] != "file_delete" or "authored" in e:
            continue
        t, p = _ts(e), e.get("file_path")
        i = bisect.bisect_left(times, t)
        before = writes[i - 1] if i > 0 else None
        after = writes[i] if i < len(writes) else None
        if before is not None and after is not None and t - times[i - 1] <= STEP_MS and times[i] - t <= STEP_MS \
                and before.get("file_path") != p and after.get("file_path") != p:
            e["authored"] = False


# How long before its end a run made the intermediates it removes as it ends: a reduction or
# a render writes them and removes them within the same minute. What the session made longer
# ago and removes at once after a save is a person's choice, however quickly a behaviour model
# had them act (rejected photos from the morning's upload, a scratch file from ten minutes
# earlier).
RUN_INTERMEDIATE_MS = 60_000.0


def _mark_end_of_run_removals(evs: list[dict[str, Any]]) -> None:
    """Mark the deletions a run makes as it ends, and the writes of what they removed: a
    series of deletions (each within TOOL_GAP_MS of the one before) that begins within STEP_MS
    of a write of another file and removes only files the session made in the
    RUN_INTERMEDIATE_MS before and nobody opened since (a reduction pipeline removing its
    overscan intermediates once its quality plot is written, knitr its `.knit.md`). A person
    who removes what a run left sees it finish first: their deletion comes seconds later, and
    stays theirs. So does the removal of files the person named as scratch (`tmp_clip.shp`):
    theirs to remove, whichever program wrote them."""
    last_write: tuple[float, Any] | None = None
    made: dict[Any, dict[str, Any]] = {}  # path -> the write that made it, while nobody opened it
    i, n = 0, len(evs)
    while i < n:
        e = evs[i]
        t = e["event_type"]
        if t in CONTENT:
            last_write = (_ts(e), e.get("file_path"))
            if t == "file_write" and e.get("operation") == "create":
                made.setdefault(e.get("file_path"), e)
        if t in ("file_read", "file_edit"):
            made.pop(e.get("file_path"), None)
        if t != "file_delete" or last_write is None or _ts(e) - last_write[0] > STEP_MS \
                or e.get("file_path") == last_write[1]:
            i += 1
            continue
        series = [e]
        j = i + 1
        while j < n and evs[j]["event_type"] == "file_delete" and _ts(evs[j]) - _ts(series[-1]) < TOOL_GAP_MS:
            series.append(evs[j])
            j += 1
        start = _ts(e)
        writes = [w for d in series if (w := made.get(d.get("file_path"))) is not None
                  and start - _ts(w) <= RUN_INTERMEDIATE_MS]
        if len(writes) == len(series) and not any(scratch_named(str(d.get("file_path"))) for d in series):
            for x in (*series, *writes):
                x.setdefault("authored", False)
        for d in series:
            made.pop(d.get("file_path"), None)
        i = j


def _extension(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[-1].lower() if "." in name.lstrip(".") else ""


# A date and a time of day in a file's name (`AAPL_20260114_1650.csv`, `run 2026-03-04 09.15.csv`,
# with or without the seconds: `Screenshot_2025-03-27_174412.png`).
STAMP = re.compile(r"(?<!\d)((?:19|20)\d{2})[-_.]?(\d{2})[-_.]?(\d{2})[ _T\-.]{0,3}(?:at )?(\d{2})[-_.:h]?(\d{2})"
                   r"(?:[-_.:]?\d{2})?(?!\d)")
# The data files a stamp marks as a program's record.
STAMPED_TYPES = frozenset({"csv", "tsv", "json", "jsonl", "ndjson", "parquet", "xml", "txt", "log", "dat"})
# The pictures a stamp marks as a capture: a screenshot's `Screenshot 2026-10-14 at
# 09.41.22.png`, an emulator's `Screenshot_20261105_142233.png`. The person pressed the key, so
# the capture and what they later do with it (removing it, filing it under a name) are theirs;
# but the capturing program named it by the second, while a chart or figure made for the work
# is named by what it shows, so a capture left as it was is no visual output (F), nor a
# document placed (C).
CAPTURE_TYPES = frozenset({"png", "jpg", "jpeg", "heic", "bmp", "tif", "tiff"})
# How far the name's clock may be from the write's, beyond the time zone (whole quarter hours).
STAMP_SLACK_MS = 180_000.0
_QUARTER_MS = 900_000.0


def stamp_ms(pattern: re.Pattern[str], name: str) -> float | None:
    """The UTC epoch milliseconds of the first date (and time) `pattern`'s groups find in
    `name` (year, month, day[, hour, minute]), or None where there is none or it is no date."""
    m = pattern.search(name)
    if m is None:
        return None
    try:
        return dt.datetime(*(int(g) for g in m.groups()), tzinfo=dt.UTC).timestamp() * 1000.0
    except ValueError:
        return None


def _stamped_at(name: str, ms: float) -> bool:
    """True when the name carries the date and minute the file was written (in some time zone)."""
    named = stamp_ms(STAMP, name)
    if named is None:
        return False
    offset = named - ms
    if abs(offset) > 14 * 3_600_000.0 + STAMP_SLACK_MS:
        return False
    return abs(offset - round(offset / _QUARTER_MS) * _QUARTER_MS) <= STAMP_SLACK_MS


def _mark_stamped(evs: list[dict[str, Any]]) -> None:
    """A data file named by the date and minute it was written is a program's record (a
    market feed, a logger, a scheduled export): people name their files by what they hold,
    a date at most, not by the minute of their saving. A picture so named is a capture
    (CAPTURE_TYPES): marked `captured`, still the person's. Any file named by the very second
    it was written in a folder kept for backups is a program's timed backup, and so are the
    folders made for it (Logseq's `logseq/bak/pages/<page>/<time>.Desktop.md`, Final Draft's
    `Backups/<script> backup <date> <h-m-s>.fdx`, Gramps' `Backups/<tree>-<date>-<h>-<m>-<s>.gramps`):
    a person names a backup by its date, not by the second of the save."""
    for e in evs:
        if e["event_type"] != "file_write" or e.get("operation") != "create" or "authored" in e \
                or type(p := e.get("file_path")) is not str:
            continue
        name = p.rsplit("/", 1)[-1]
        if (ext := _extension(p)) in STAMPED_TYPES | CAPTURE_TYPES and _stamped_at(name, _ts(e)):
            if ext in CAPTURE_TYPES:
                e["captured"] = True
            else:
                e["authored"] = False
        elif in_archive_folder(p) and (m := STAMP.search(name)) and m.end(5) < m.end() and _stamped_at(name, _ts(e)):
            e["authored"] = False
            _mark_series_folder(evs, _parent(p), _ts(e))


# A folder named by the date and minute it was made (`results/20241014_112634_e259/`, Hydra's
# `outputs/2024-10-14/11-26-34/`) is a program's folder for one run: people name their folders
# by what they hold, a date at most, not by the minute of their making. What the run writes in
# it is the run's, its charts too (`"run_output"`): a training run's logged loss curves are in
# every run of every person, not figures made for the work (signals: no visual output).
# Folders seen only through the files written into them count from the first of those.
RUN_FOLDER_LEVELS = 3
_YEAR = re.compile(r"(19|20)\d{2}")


def _stamped_folder(path: str, ms: float) -> bool:
    """True when the folder's name (or its parent's date with its own time of day) carries
    the minute it was made."""
    parts = path.rstrip("/").split("/")
    if _stamped_at(parts[-1], ms):
        return True
    return len(parts) > 1 and STAMP.search(parts[-1]) is None and _stamped_at(parts[-2] + "_" + parts[-1], ms)


def _mark_run_folders(evs: list[dict[str, Any]]) -> None:
    """Mark what is made and written inside folders named by the minute they were made."""
    first: dict[str, float] = {}
    for e in evs:
        kind = e["event_type"]
        if kind == "dir_create" and type(p := e.get("dir_path")) is str:
            folders = [p.rstrip("/")]
        elif kind == "file_write" and type(p := e.get("file_path")) is str:
            folders = []
        else:
            continue
        parts = p.rstrip("/").split("/")
        folders += ["/".join(parts[:i]) for i in range(len(parts) - 1, max(len(parts) - 1 - RUN_FOLDER_LEVELS, 0), -1)]
        for f in folders:
            first.setdefault(f, _ts(e))
    stamped = {f for f, ms in first.items() if _YEAR.search(f) and _stamped_folder(f, ms)}
    if not stamped:
        return
    for e in evs:
        kind = e["event_type"]
        if e.get("authored") is True:
            continue
        if kind == "dir_create" and type(p := e.get("dir_path")) is str:
            inside = p.rstrip("/")
        elif kind == "file_write" and e.get("operation") == "create" and type(p := e.get("file_path")) is str:
            inside = p.rsplit("/", 1)[0]
        else:
            continue
        parts = inside.split("/")
        if any("/".join(parts[:i]) in stamped for i in range(len(parts), max(len(parts) - RUN_FOLDER_LEVELS, 0), -1)):
            e["authored"] = False
            if kind == "file_write":
                e["run_output"] = True


def _unwritten_file(e: Mapping[str, Any], gap_ms: float) -> bool:
    """A new file whose content came faster than a person brings content into a file."""
    n = e.get("content_length")
    return (e["event_type"] == "file_write" and e.get("operation") == "create" and type(n) in _NUMBER
            and n > PERSON_CHARS_PER_S * max(gap_ms, 50.0) / 1000.0)


def _mark_unwritten(evs: list[dict[str, Any]]) -> None:
    """Mark runs of new files whose content nobody wrote (an unpacked archive, a generator),
    with the folders made among them. Pauses are measured from the change before, whoever
    made it, so a recorder or an indexer reading each new file in between does not split the
    run; a slower new file, or any other change (an edit, a deletion, a move: the person's
    hand again), ends it. Files another rule gave to a program already do not count towards
    the run's size (an export's run of images does not make the note written after it a
    program's). Only text counts: its length is what someone would have had to type, while a
    figure's or a PDF's size says nothing of the effort behind it (a plotting script's five
    figures in the folders the person made for them stay the person's placing)."""
    run: list[dict[str, Any]] = []
    files: set[str] = set()
    last: float | None = None

    def close() -> None:
        if len(files) >= UNWRITTEN_MIN_FILES:
            for x in run:
                x.setdefault("authored", False)
        run.clear()
        files.clear()

    for e in evs:
        t = e["event_type"]
        if t not in CHANGES:
            continue
        ms = _ts(e)
        gap = ms - last if last is not None else float("inf")
        last = ms
        if gap > UNWRITTEN_GAP_MS or (t != "dir_create" and not _unwritten_file(e, gap)):
            close()
            if t == "dir_create":
                run.append(e)  # the folder an unpacking starts with; a first file's pace is unknown
            continue
        run.append(e)
        if t == "file_write" and e.get("authored") is not False and _extension(p := str(e.get("file_path"))) in TEXT_TYPES:
            files.add(p)
    close()


# A page's text, extracted: an OCR step or a converter writes `statement_2023-01.txt` beside
# `statement_2023-01.pdf` (or `scan.jpg.txt` beside `scan.jpg`), the whole text at once, faster
# than anyone types since the change before it (_unwritten_file). A person's transcription of
# the same page comes at a typist's pace; their own notes on it carry a name of their own
# (alt593: a bank statement's OCR text beside each statement, a flat writer's bullet notes
# read as 300-line reports). A PDF the person made of a document of theirs of that name
# (`update.docx` saved as `update.pdf`) is no page received: a text of that name is theirs too
# (alt550).
EXTRACTED_FROM = frozenset({"pdf", "jpg", "jpeg", "png", "tif", "tiff", "heic", "bmp", "gif", "webp"})
EXTRACTED_TYPES = frozenset({"txt", "text", "hocr"})


def _mark_extracted_texts(evs: list[dict[str, Any]]) -> None:
    """Mark a new text file named after a picture or a PDF beside it that the session named
    before, written faster than a person types."""
    sources: set[str] = set()  # folder/stem of the pictures and PDFs named so far, lower case
    written: set[str] = set()  # folder/stem of the other files written so far, lower case
    last: float | None = None
    for e in evs:
        t = e["event_type"]
        for k in PATH_KEYS.get(t, ()):
            if type(p := e.get(k)) is str and _extension(p) in EXTRACTED_FROM:
                low = p.lower()
                sources.add(low.rsplit(".", 1)[0])
                sources.add(low)
        if t == "file_write" and type(p := e.get("file_path")) is str and "." in p \
                and _extension(p) not in EXTRACTED_FROM and _extension(p) not in EXTRACTED_TYPES:
            written.add(p.lower().rsplit(".", 1)[0])
        if t not in CHANGES:
            continue
        ms = _ts(e)
        gap = ms - last if last is not None else float("inf")
        last = ms
        if sources and t == "file_write" and "authored" not in e and type(p := e.get("file_path")) is str \
                and _extension(p) in EXTRACTED_TYPES and (stem := p.lower().rsplit(".", 1)[0]) in sources \
                and stem not in written and _unwritten_file(e, gap):
            e["authored"] = False


# A device's or a renderer's counter: a camera's `IMG_0412.HEIC`, a scanner's `scan0007.jpg`, a
# renderer's `beauty.1001.exr`, a telescope's `sci_0042.fits`. New files in one folder named alike
# but for a counter of COUNTER_DIGITS or more digits, each one past the one before, are a
# program's output however slowly they come (a render writes a frame a minute, a scanner a page
# each time the person feeds one). The folders made for them within SEQUENCE_FOLDER_MS before
# the first (and each folder above, made as quickly before the one below it, that holds nothing
# else) are the program's: it makes its output path as it starts (alt612: a renderer's
# `render/v001/spec/` chain read as a flat filer's deep nesting). A folder the person made a
# minute before starting a scraper into it stays theirs (alt537's `data/raw/run_0623/`), and so
# do the files themselves: deleting old renders or scans is curation, and a render is what the
# person chose to make, for F. A person who numbers their own files names them `fig3.png` or
# `Ep37.fdx` and does not write SEQUENCE_MIN_FILES of them in a row.
COUNTER_DIGITS = 3
SEQUENCE_MIN_FILES = 8
SEQUENCE_FOLDER_MS = 10_000.0
COUNTED_NAME = re.compile(r"^(.*?)(\d{" + str(COUNTER_DIGITS) + r",})(\.[A-Za-z0-9]+)$")


def counting_runs(numbers: Sequence[int], at_least: int = SEQUENCE_MIN_FILES) -> list[range]:
    """The stretches (index ranges) of `numbers` that count up by one, each at least
    `at_least` long."""
    out, start = [], 0
    for i in range(1, len(numbers) + 1):
        if i == len(numbers) or numbers[i] != numbers[i - 1] + 1:
            if i - start >= at_least:
                out.append(range(start, i))
            start = i
    return out


def _mark_counted_sequences(evs: list[dict[str, Any]]) -> None:
    """Mark the folders made for runs of new files in one folder whose names count up by one."""
    runs: dict[tuple[str, str, str], list[tuple[int, dict[str, Any]]]] = {}
    for e in evs:
        if e["event_type"] == "file_write" and e.get("operation") == "create" \
                and type(p := e.get("file_path")) is str and (m := COUNTED_NAME.match(p.rsplit("/", 1)[-1])):
            runs.setdefault((_parent(p), m.group(1), m.group(3)), []).append((int(m.group(2)), e))
    for (folder, _, _), files in runs.items():
        if len(files) >= SEQUENCE_MIN_FILES:
            for run in counting_runs([n for n, _ in files]):
                _mark_series_folder(evs, folder, _ts(files[run.start][1]), SEQUENCE_FOLDER_MS)


def _mark_series(evs: list[dict[str, Any]]) -> None:
    """Mark the new files a program wrote into one folder on a clock."""
    by_folder: dict[str, list[dict[str, Any]]] = {}
    for e in evs:
        if e["event_type"] == "file_write" and e.get("operation") == "create" and "authored" not in e \
                and type(p := e.get("file_path")) is str and "/" in p:
            by_folder.setdefault(p.rsplit("/", 1)[0], []).append(e)
    for folder, files in by_folder.items():
        if len(files) < SERIES_MIN_FILES:
            continue
        gaps = sorted(_ts(b) - _ts(a) for a, b in zip(files, files[1:], strict=False))
        pace = gaps[len(gaps) // 2]
        if pace <= 0:
            continue
        even = sum(1 for g in gaps if pace / SERIES_SPREAD <= g <= pace * SERIES_SPREAD)
        if even >= SERIES_EVEN_SHARE * len(gaps):
            for e in files:
                e["authored"] = False
            _mark_series_folder(evs, folder, _ts(files[0]))


def _mark_series_folder(evs: list[dict[str, Any]], folder: str, first_ms: float,
                        within_ms: float = float("inf")) -> None:
    """The folder a clockwork series went into (or a timed backup: _mark_stamped), made in
    the session before its first file, is the program's (an instrument makes a run folder
    for each run); so is each folder above it made in the session that holds nothing else
    made in the session. With `within_ms`, only folders made that soon before the first file
    (or before the folder below) count."""
    made = {e["dir_path"].rstrip("/"): e for e in evs if e["event_type"] == "dir_create" and "authored" not in e
            and type(e.get("dir_path")) is str and _ts(e) <= first_ms}
    while folder in made and first_ms - _ts(made[folder]) <= within_ms:
        first_ms = _ts(made[folder])
        made.pop(folder)["authored"] = False
        parent = _parent(folder)
        if parent not in made:
            return
        for e in evs:
            if e["event_type"] in CHANGES and e.get("authored") is not False and any(
                    type(p := e.get(k)) is str and _parent(p) == parent for k in PATH_KEYS.get(e["event_type"], ())):
                return  # something else made or changed in it
        folder = parent


def _parent(path: str) -> str:
    path = path.rstrip("/")
    return path.rsplit("/", 1)[0] if "/" in path else ""


def _close(run: list[dict[str, Any]]) -> None:
    if len(run) < 2:
        return
    if not _twins(run):  # an export and its twin: no save of the person's set it off
        if len(run) < TOOL_MIN_FILES:
            return
        run = _without_trigger(run)
        written = {e.get("file_path") for e in run if e["event_type"] in CONTENT}
        if len(written) < TOOL_MIN_FILES and not _template(run):
            return
    for e in run:
        e.setdefault("authored", False)


def _twins(run: list[dict[str, Any]]) -> bool:
    """Two files of one folder written with the same (non-empty) content in the run: an export writing
    a dated file and its `_latest` twin. A person who wants a second copy copies the file,
    and not within TOOL_GAP_MS of writing the first."""
    seen: dict[tuple[str, Any], str] = {}
    for e in run:
        if e["event_type"] != "file_write" or type(p := e.get("file_path")) is not str:
            continue
        ref = e.get("media_ref")
        h = e.get("after_hash") or (ref.get("hash") if isinstance(ref, dict) else None)
        if not h or e.get("content_length") == 0:  # `touch a.md b.md`: empty alike, not twins
            continue
        key = (_parent(p), h)
        if seen.setdefault(key, p) != p:
            return True
    return False


def _without_trigger(run: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The run without the person's save that set it off: a live-reload build, a sync or a
    formatter starts a moment after the save it reacts to, then writes its files a few
    milliseconds apart. A first change set apart from the rest by TRIGGER_PACE times the
    run's own pace (and by TRIGGER_MIN_MS at least) is that save, the person's."""
    if len(run) < TOOL_MIN_FILES + 1:
        return run
    if _named_by_companion(run):
        return run[1:]
    gaps = sorted(_ts(b) - _ts(a) for a, b in zip(run[1:], run[2:], strict=False))
    pace = gaps[len(gaps) // 2]
    first = _ts(run[1]) - _ts(run[0])
    if first >= TRIGGER_MIN_MS and first > TRIGGER_PACE * pace:
        return run[1:]
    return run


def _named_by_companion(run: list[dict[str, Any]]) -> bool:
    """The run's first change is a new file that a companion made in the run names
    (`PlayerController.cs`, then `PlayerController.cs.meta`): the program that keeps
    companions (a game engine's importer) reacted to the file appearing, however soon."""
    first = run[0]
    if first["event_type"] != "file_write" or first.get("operation") != "create" \
            or type(p := first.get("file_path")) is not str:
        return False
    return any(e["event_type"] == "file_write" and type(q := e.get("file_path")) is str
               and q.startswith(p + ".") and "." not in q[len(p) + 1:] and "/" not in q[len(p) + 1:]
               for e in run[1:])


def _template(run: list[dict[str, Any]]) -> bool:
    """The run's new folders spread over TEMPLATE_BRANCHES or more branches."""
    made = {p.rstrip("/") for e in run if e["event_type"] == "dir_create"
            and type(p := e.get("dir_path")) is str and p}
    if len(made) < TEMPLATE_BRANCHES:
        return False
    parents = {p.rsplit("/", 1)[0] for p in made if "/" in p}
    return len(made - parents) >= TEMPLATE_BRANCHES
