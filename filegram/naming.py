"""What a file's name says: an editor's temporary file, a temporary or backup copy, a
naming convention. Names are all the recorder has to tell a save's scaffolding from the
user's files, and a backup from a plain copy; the simulator's fast path uses the same rules so
that its traces label files as a recording would."""

from __future__ import annotations

import fnmatch
import functools
import hashlib
import os
import re

# Files an editor or office suite creates while saving or editing: never the user's work.
# They are dropped, except as the source of a rename onto a real file (an atomic save).
EDITOR_ARTIFACTS: tuple[str, ...] = (
    ".*.sw[a-p]",  # vim swap files
    ".*.swx",
    "*.swp",
    "4913",  # vim's probe that a folder is writable
    ".#*",  # emacs lock (a symlink)
    "#*#",  # emacs autosave
    ".~lock.*#",  # LibreOffice lock
    "~$*",  # MS Office owner file
    ".goutputstream-*",  # gedit / GIO atomic save
    "*___jb_tmp___",  # JetBrains safe write
    "*___jb_old___",
    "*.kate-swp",
    "*.crswap",  # Chromium File System Access temp
    ".*.tmp.[0-9]*",
    "*.*$",  # a dollar ending an extension: Windows programs' autosaves and temporaries (AutoCAD's .sv$, .ac$, .$$$)
)

# Names a program picks for the temporary half of write-to-temp-and-rename saves.
_TEMP_SAVE_RE = re.compile(
    r"(^\.?tmp[\w.-]*$)|(\.tmp$)|(\.tmp\.\w+$)|(^\..+\.\w{6,8}$)|(^sed\w{6}$)|(\.part$)|(^\.~)|(\.new$)|(\.filegram-tmp)"
)

# Names that say "this file is temporary", for file_delete.was_temporary and for the leftovers
# memory counts. Only words that rarely name real work: "interim report", "intermediate
# course" or "deprecated APIs" are documents (memory sees an intermediate file by its being
# made and deleted in the same session instead).
# Also the names applications give a document nobody named ("Untitled 3", "New Text
# Document", Word's "Document1", Excel's "Book1"): a file its author never named is scratch.
# The CJK words say draft or temporary (Chinese 草稿 临时, Japanese 臨時 一時 下書き, Korean
# 임시 초안).
_TEMPORARY_RE = re.compile(
    r"(?i)(^|[._\-~ ])((tmp|temp|scratch|scratchpad|wip|junk)\d*|draft|old|bak|backup|cache|throwaway)([._\-~ ]|$)"
    r"|~$|\.(tmp|bak|old|swp|log)$|草稿|临时|臨時|一時|下書き|임시|초안"
    r"|^(untitled( (document|spreadsheet|presentation|drawing))?|new (text )?document|new file)([ _\-]?\(?\d+\)?)?(\.\w+)?$|^(document|book|presentation)\d+\.\w+$|^未命名"
)

# Names that say "this copy is a backup", for file_copy.is_backup.
# A sync client's copy of a file two machines changed at once is a duplicate too: Dropbox's
# and Nextcloud's "(... conflicted copy 2026-02-25 ...)", Syncthing's ".sync-conflict-<date>-".
_BACKUP_RE = re.compile(
    r"(?i)(~$)|(\.(bak|backup|orig|old|save|sav)$)|([_\-. ](bak|backup|old|orig|copy|v\d+|\d{8}|\d{4}-\d{2}-\d{2})(\.\w+)?$)|(\(\d+\)(\.\w+)?$)|( copy( \d+)?(\.\w+)?$)|^copy of |备份|副本"
    r"|\([^()]*conflicted copy[^()]*\)|\.sync-conflict-\d{8}-\d{6}"
)
# A date in a name (2025-03, 20250301, 2025_03) and a version marker (v2, final, draft, rev3).
DATE_IN_NAME_RE = re.compile(r"(19|20)\d{2}[-_.]?(0[1-9]|1[0-2])")
VERSION_IN_NAME_RE = re.compile(r"(^|[_\-. ])(v\d+|final|draft|rev\d*)([_\-. ]|$)", re.I)
# A date that starts a name, by the format a person chose.
DATE_PREFIXES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("YYYY-MM-DD", re.compile(r"^(19|20)\d\d-[01]\d-[0-3]\d(?=[ _\-.]|$)")),
    ("YYYYMMDD", re.compile(r"^(19|20)\d\d[01]\d[0-3]\d(?=[ _\-.]|$)")),
    ("YYYY-MM", re.compile(r"^(19|20)\d\d-[01]\d(?=[ _\-.]|$)")),
)
_ARCHIVE_DIRS = {"archive", "archives", "backup", "backups", "old", "versions", "history", "_archive", ".backup", "bak"}


def is_editor_artifact(name: str) -> bool:
    return any(fnmatch.fnmatchcase(name, p) for p in EDITOR_ARTIFACTS)


def looks_like_temp_save(name: str) -> bool:
    """True for names an atomic save uses for its temporary file."""
    return is_editor_artifact(name) or bool(_TEMP_SAVE_RE.search(name))


def looks_temporary(rel_path: str) -> bool:
    name = rel_path.rsplit("/", 1)[-1]
    return bool(_TEMPORARY_RE.search(name)) or is_editor_artifact(name)


def in_archive_folder(rel_path: str) -> bool:
    """True for a path inside a folder kept for backups or old versions (`Backups/`, `archive/`)."""
    return any(p.lower() in _ARCHIVE_DIRS for p in rel_path.split("/")[:-1])


def looks_like_backup(rel_dest: str) -> bool:
    return in_archive_folder(rel_dest) or bool(_BACKUP_RE.search(rel_dest.rsplit("/", 1)[-1]))


# A date or version at the end of a name: on a copy it dates the backup (`report_2025-03-01.md`);
# on a document written anew it is only its name (`minutes_2025-03-01.docx`, `plan_v2.md`).
_DATED_NAME_RE = re.compile(r"(?i)[_\-. ](v\d+|\d{8}|\d{4}-\d{2}-\d{2})(\.\w+)?$")


def undated(name: str) -> str:
    """The name without the date or version at its end (`minutes_2025-03-01.md` -> `minutes.md`)."""
    return _DATED_NAME_RE.sub(r"\2", name)


def looks_like_written_backup(rel_path: str) -> bool:
    """A file written (not copied) whose name says it is a backup (`notes.bak`, `draft~`,
    `copy of plan.md`, `scan (1).pdf`): looks_like_backup without the dates and versions that
    people put in the names of new documents."""
    if not looks_like_backup(rel_path):
        return False
    name = rel_path.rsplit("/", 1)[-1]
    return not _DATED_NAME_RE.search(name) or bool(_BACKUP_RE.search(_DATED_NAME_RE.sub("", name)))


def naming_change(old: str, new: str) -> str:
    """FileGram's naming_pattern_change for a rename."""
    so, sn = _stem(old), _stem(new)
    if so.lower() == sn.lower() and so != sn:
        return "case_change"
    co, cn = _convention(so), _convention(sn)
    if co == "snake" and cn == "kebab":
        return "snake_to_kebab"
    if co == "kebab" and cn == "snake":
        return "kebab_to_snake"
    if co == "mixed" and cn != "mixed":
        return "mixed_to_other"
    return "other"


def _stem(name: str) -> str:
    return name.rsplit(".", 1)[0] if "." in name.lstrip(".") else name


def _convention(stem: str) -> str:
    has_u, has_k = "_" in stem, "-" in stem
    if has_u and not has_k:
        return "snake"
    if has_k and not has_u:
        return "kebab"
    if has_u and has_k:
        return "mixed"
    if " " in stem or (any(c.isupper() for c in stem[1:]) and any(c.islower() for c in stem)):
        return "mixed"
    return "plain"


def backup_of(src_rel: str, dest_rel: str) -> bool:
    """cp notes.md notes.md.1 / notes-old.md: the destination's name extends the source's."""
    s = os.path.basename(src_rel)
    d = os.path.basename(dest_rel)
    stem = _stem(s)
    return d != s and (d.startswith(s) or (d.startswith(stem) and len(d) > len(s) and _stem(d) != stem and looks_like_backup(_stem(d))))


def stem_style(stem: str) -> str | None:
    """The naming convention of one file or folder name: snake, kebab, camel, pascal, title,
    spaces or mixed; None when a name shows none (one word reads the same in every style)."""
    s = stem.strip()
    if not s or re.search(r"[\u3400-\u9fff]", s):
        return None
    has_space, has_us, has_dash = " " in s, "_" in s, "-" in s
    if has_space and not has_us:
        words = [w for w in s.split() if w[:1].isalpha()]
        return "title" if words and all(w[:1].isupper() for w in words) else "spaces"
    if has_us and not has_dash and not has_space:
        return "snake" if s == s.lower() else "mixed"
    if has_dash and not has_us and not has_space:
        return "kebab" if s == s.lower() else "mixed"
    if not (has_space or has_us or has_dash):
        if re.fullmatch(r"[a-z]+(?:[A-Z0-9][a-z0-9]*)+", s):
            return "camel"
        if re.fullmatch(r"(?:[A-Z][a-z0-9]+){2,}", s):
            return "pascal"
        return None
    return "mixed"


# A name a person gives a file they mean to throw away: a word for it (`tmp_clip.shp`,
# `scratch_join.csv`, `junk-2.txt`) or a folder named so (`scratch/`). Programs name
# their own temporary files by suffix (`.tmp`, `~`, `.log`) or token, and their by-products
# (`.aux`, `.o`) not at all.
_SCRATCH_WORD = re.compile(r"(?i)(^|[._\- ])(tmp|temp|scratch|junk|wip|throwaway)\d*[._\- ]")
# A folder people name for scratch work; `tmp/` and `Temp/` are where programs keep theirs
# (a game engine's `Temp/__Backupscenes/0.backup`).
_SCRATCH_FOLDER = re.compile(r"(?i)(scratch|junk|throwaway)\d*")


@functools.lru_cache(maxsize=4096)
def scratch_named(path: str) -> bool:
    """Did the person name this file (by its name or its folder's) as one to throw away?"""
    parts = path.split("/")
    name = parts[-1]
    if name[:1] in ".~":  # hidden or tilde-led: a program's own name
        return False
    return _SCRATCH_WORD.search(name) is not None or any(_SCRATCH_FOLDER.fullmatch(d) for d in parts[-3:-1])


# -- the person's own folder on a shared tree ----------------------------------------------

# Home folders that belong to no one person.
_SHARED_HOMES = frozenset({"public", "default", "default user", "all users", "shared", "guest", "root"})
# Logins that name a role or a machine, not a person: a folder called `user-guides` or
# `admin` is no one's own.
_GENERIC_LOGINS = _SHARED_HOMES | frozenset({"user", "users", "admin", "administrator", "owner", "home", "dev",
                                             "developer", "ubuntu", "pi", "vagrant", "test", "work", "me"})
_HOME_PARENTS = frozenset({"users", "home"})
_NAME_TOKENS = re.compile(r"[\s_\-]+")


# The session metadata's (and an exported summary.json's) field for owner_key's digest: the
# importer and the recorder write it, memory reads it.
OWNER_KEY_FIELD = "owner_key"


def _digest(name: str) -> str:
    return hashlib.blake2b(name.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def owner_key(login: str) -> str | None:
    """A short digest of a login: what a session keeps to recognise folders named after the
    person (`Design/jdoe_WIP/`, `Coding/jdoe/`) without storing the name itself. None for a
    login that names a role (`user`, `admin`) or is too short to be told from a word."""
    name = login.strip().lower()
    if len(name) < 3 or name in _GENERIC_LOGINS:
        return None
    return _digest(name)


def home_login(path: str) -> str | None:
    """The login a path's home folder names (`/home/<u>/`, `/Users/<u>/`, `C:/Users/<u>/`,
    forward slashes), None for a path outside a personal home."""
    parts = path.split("/")
    start = 1 if path.startswith("/") else (1 if parts[0].endswith(":") else 0)
    if len(parts) > start + 2 and parts[start].lower() in _HOME_PARENTS:
        login = parts[start + 1]
        if login and login.lower() not in _SHARED_HOMES:
            return login
    return None


@functools.lru_cache(maxsize=4096)
def named_for_owner(folder_name: str, key: str) -> bool:
    """A folder named after the login whose owner_key is `key`: the whole name, or one of its
    words (`jdoe_WIP`, `WIP - jdoe`)."""
    name = folder_name.strip().lower()
    if not name:
        return False
    return _digest(name) == key or any(_digest(w) == key for w in _NAME_TOKENS.split(name) if w and w != name)
