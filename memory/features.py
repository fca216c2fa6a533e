"""Stage 1 procedural features: the 17-feature fingerprint and the wider raw feature set.

Everything here is a pure function of one session's event dicts (plus a blob getter for
content), so the bench's baselines and the simulator's tests can call the very same code.
Boolean features are kept as 0/1 per session and aggregated as "share of sessions" (the
published code averaged them as numbers and every such share read 0).
"""

from __future__ import annotations

import functools
import re
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from operator import le, ne
from typing import Any

from filegram.naming import (
    DATE_IN_NAME_RE,
    VERSION_IN_NAME_RE,
    looks_like_backup,
    looks_like_temp_save,
    looks_temporary,
)
from filegram.schema import METADATA_TYPES, depth_of, dir_depth_of, file_type_of

from .authorship import DOWNLOAD_SUFFIX, SYNC_RECEIVING, mark_tool_actions
from .content import (
    IMAGE_TYPES,
    STRUCTURED_TYPES,
    TEXT_TYPES,
    analyse,
    decode_text,
    diff_lines,
    table_rows,
)

BlobGetter = Callable[[str], bytes | None]

FINGERPRINT_FEATURES: tuple[tuple[str, str], ...] = (
    ("A", "search_ratio"),
    ("A", "browse_ratio"),
    ("A", "revisit_ratio"),
    ("B", "avg_output_length"),
    ("B", "files_created"),
    ("B", "total_output_chars"),
    ("C", "dirs_created"),
    ("C", "max_dir_depth"),
    ("C", "files_moved"),
    ("D", "total_edits"),
    ("D", "avg_lines_changed"),
    ("D", "small_edit_ratio"),
    ("E", "total_deletes"),
    ("E", "delete_to_create_ratio"),
    ("F", "structured_files_created"),
    ("F", "markdown_table_rows"),
    ("F", "image_files_created"),
)
FINGERPRINT_NAMES: tuple[str, ...] = tuple(n for _, n in FINGERPRINT_FEATURES)
FEATURE_DIM: dict[str, str] = {n: d for d, n in FINGERPRINT_FEATURES}

# Action types of the produce and organise phases; every other action explores.
PRODUCE = frozenset({"file_write", "file_edit"})
ORGANISE = frozenset({"dir_create", "file_move", "file_rename", "file_delete", "file_copy"})


# Path fields of each action type, which a Windows recorder writes with backslashes.
PATH_FIELDS = {
    **{t: ("file_path",) for t in ("file_read", "file_write", "file_edit", "file_delete")},
    "file_move": ("old_path", "new_path"), "file_rename": ("old_path", "new_path"),
    "file_copy": ("source_path", "dest_path"), "dir_create": ("dir_path",), "file_browse": ("directory_path",),
    "cross_file_reference": ("source_file", "target_file"), "context_switch": ("from_file", "to_file"),
}


def _posix_paths(e: dict[str, Any]) -> dict[str, Any]:
    """A Windows path (`C:\\Users\\ana\\report.docx`, `\\\\server\\share\\x`) with forward
    slashes, so that names, folders and depths read the same as a POSIX recorder's. A path
    that has a forward slash is left alone (on POSIX a backslash may be part of a name)."""
    for k in PATH_FIELDS.get(e.get("event_type"), ()):
        v = e.get(k)
        if type(v) is str and "\\" in v and "/" not in v:
            e[k] = v.replace("\\", "/")
    return e


# An atomic save as another recorder logs it: the editor writes the new text under a
# temporary name (`plan.md.2006517143`, `plan.md.sb-32b30ab7-RaL7fQ`, `.goutputstream-X2Y1`)
# and renames it over the file within moments. That is one save of the file, not a new
# document and a rename (our recorder joins them as it records; memory joins what it imports).
ATOMIC_SAVE_MS = 2000.0
# The old copy a swapping save renamed away is removed by the application at once, but a
# recorder may deliver that removal seconds later (alt502: Excel's `DE18A251.tmp` logged
# 3 s after its save, read as the traders' removing temporary files in most sessions,
# keepers called selective at p 0.8-0.95). The copy had no name the person gave it and no
# moment in their sight; its removal within the window the other program rules allow a
# recorder (authorship.HIDDEN_TEMP_MS) is the save's.
SWAPPED_COPY_MS = 10_000.0


def _save_temp_of(temp: str, target: str) -> bool:
    t, n = temp.rsplit("/", 1)[-1], target.rsplit("/", 1)[-1]
    return t != n and (t.startswith(n + ".") or looks_like_temp_save(t))


# The names a program gives the backup it makes of a file by renaming it away before writing
# the new one (Emacs' `plan.md~`, `plan.md.bak`, AutoCAD's `A-200.bak` for `A-200.dwg`).
_RENAMED_BACKUP = re.compile(r"(?i)~|\.(bak|backup|old|orig|sav)")


def _backup_name_of(backup: str, path: str) -> bool:
    b, p = backup.rsplit("/", 1), path.rsplit("/", 1)
    if len(b) != len(p) or (len(b) == 2 and b[0] != p[0]):
        return False
    name, target = b[-1], p[-1]
    if name.startswith(target) and _RENAMED_BACKUP.fullmatch(name[len(target):]):
        return True
    stem = target.rsplit(".", 1)[0]
    return stem != target and name[:len(stem)] == stem and _RENAMED_BACKUP.fullmatch(name[len(stem):]) is not None


_DIFF_SUMMARY = re.compile(r"^\s*\+(\d+)\s+-(\d+)\s*$")


def _edit_counts_from_summaries(evs: list[dict[str, Any]]) -> None:
    """An edit's added and deleted lines as its diff summary ("+9 -8") counts them, where it
    counts more: a replaced line is a line added and a line deleted in a diff (and in
    FileGram's own counts, where `lines_modified` overlaps them), but some producers count
    it apart, as modified only (`lines_added` 2, `lines_deleted` 1, `lines_modified` 7,
    "+9 -8"), and a ten-line revision would read as a three-line touch-up. An edit with no
    line counts at all takes the summary's (a stored diff, where there is one, is not read
    again: `size_edits_from_diffs` fills only counts still missing)."""
    for e in evs:
        if e.get("event_type") != "file_edit" or type(summary := e.get("diff_summary")) is not str:
            continue
        m = _DIFF_SUMMARY.match(summary)
        if m is None:
            continue
        plus, minus = int(m[1]), int(m[2])
        added, deleted = e.get("lines_added"), e.get("lines_deleted")
        if added is None and deleted is None:
            e["lines_added"], e["lines_deleted"] = plus, minus
        elif type(added) is int and type(deleted) is int and plus >= added and minus >= deleted \
                and plus + minus > added + deleted:
            e["lines_added"], e["lines_deleted"] = plus, minus


def _atomic_saves_joined(evs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each write under a temporary name that is renamed over a file becomes a write of that
    file: an overwrite where the file was named earlier in the session, else a create.

    Some applications (Excel) save by swapping: the new content is written under a random
    name, the file is renamed away to another random name, the new one renamed into its
    place and the old copy deleted, all within a second. A write renamed into the place of
    a file renamed away moments before is that save whatever the names; the renaming away
    and the old copy's removal are the application's (`"authored": false`), not the
    person's tidying. So is the file's removal just before its temporary copy is renamed
    into its place (Word and MATLAB on Windows: write `~WRL0001.tmp`, delete the file,
    rename the temporary file to its name).

    The joined write is marked `"saved_whole": true`: the application wrote the whole file
    whatever changed, so where its earlier text is unknown it says nothing about how much
    the person changed, even from a recorder that logs other files' edits."""
    if not any(e.get("event_type") == "file_rename" for e in evs):
        return evs
    pending: dict[str, dict[str, Any]] = {}  # temporary path -> its write
    named: set[Any] = set()
    joined: set[int] = set()  # id() of the renames that finished a save
    moved_away: dict[str, dict[str, Any]] = {}  # path -> the rename that just moved its file away
    old_copies: dict[str, float] = {}  # a swapped-out copy's path -> when its save happened
    deleted: dict[str, dict[str, Any]] = {}  # path -> its deletion, while a temporary write waits
    removed: dict[str, dict[str, Any]] = {}  # path -> its last deletion
    for e in evs:
        t = e.get("event_type")
        ts = float(e.get("timestamp") or 0.0)
        if t == "file_write" and e.get("operation") == "create":
            path = str(e.get("file_path") or "")
            away = moved_away.get(path)
            if away is not None and 0.0 <= ts - float(away.get("timestamp") or 0.0) <= ATOMIC_SAVE_MS \
                    and _backup_name_of(str(away.get("new_path") or ""), path):
                # A save that renames the file to its backup first and writes the new one in
                # its place (AutoCAD, Emacs): one save of the file; the backup's renaming, and
                # the removal of the backup before it, are the program's.
                del moved_away[path]
                e["operation"], e["saved_whole"] = "overwrite", True
                away.setdefault("authored", False)
                gone = removed.get(str(away.get("new_path") or ""))
                if gone is not None and 0.0 <= float(away.get("timestamp") or 0.0) - float(gone.get("timestamp") or 0.0) <= ATOMIC_SAVE_MS:
                    gone.setdefault("authored", False)
            else:
                pending[path] = e
        elif t == "file_rename":
            new = str(e.get("new_path") or "")
            w = pending.pop(str(e.get("old_path") or ""), None)
            away = moved_away.pop(new, None)
            swapped = away is not None and 0.0 <= ts - float(away.get("timestamp") or 0.0) <= ATOMIC_SAVE_MS
            if w is not None and new and (swapped or _save_temp_of(str(w.get("file_path") or ""), new)) \
                    and 0.0 <= ts - float(w.get("timestamp") or 0.0) <= ATOMIC_SAVE_MS:
                if DOWNLOAD_SUFFIX.search(str(w.get("file_path") or "")):
                    w["downloaded"] = True  # a download completing: no output of the person's
                elif SYNC_RECEIVING.match(str(w.get("file_path") or "").rsplit("/", 1)[-1]):
                    w.setdefault("authored", False)  # a file received from another device (authorship)
                w["file_path"], w["file_type"] = new, file_type_of(new)
                w["operation"] = "overwrite" if new in named else "create"
                w["saved_whole"] = True
                joined.add(id(e))
                gone = deleted.pop(new, None)
                if gone is not None and float(w.get("timestamp") or 0.0) <= float(gone.get("timestamp") or 0.0):
                    gone.setdefault("authored", False)
                if swapped and away is not None:
                    away.setdefault("authored", False)
                    old_copies[str(away.get("new_path") or "")] = ts
            else:
                moved_away[str(e.get("old_path") or "")] = e
        elif t == "file_delete":
            removed[str(e.get("file_path") or "")] = e
            if pending:
                deleted[str(e.get("file_path") or "")] = e
            at = old_copies.pop(str(e.get("file_path") or ""), None) if old_copies else None
            if at is not None and 0.0 <= ts - at <= SWAPPED_COPY_MS:
                e.setdefault("authored", False)
        for k in PATH_FIELDS.get(t, ()):
            named.add(e.get(k))
    return [e for e in evs if id(e) not in joined] if joined else evs


# A write of a file with the same content as its write just before is that write logged twice
# (a watcher that sees both the write and the close), not a second save. A save or an edit
# that leaves the file as it was (its content after is its content before, or what the
# session last gave it) changed nothing at whatever distance: an IDE saving every open file
# when it loses focus, an editor's autosave of an untouched buffer. It is no revision pass,
# and no rewrite in place.
DOUBLE_LOG_MS = 1000.0


def _double_writes_dropped(evs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    last: dict[Any, tuple[Any, float]] = {}  # path -> (content hash, time) of its last write or edit
    out = []
    for e in evs:
        t = e.get("event_type")
        if t == "file_write" or t == "file_edit":
            h, ts, p = e.get("after_hash"), float(e.get("timestamp") or 0.0), e.get("file_path")
            prev = last.get(p)
            last[p] = (h, ts)
            if h and prev is not None and prev[0] == h and (t == "file_edit" or e.get("operation") == "overwrite"
                                                            or 0.0 <= ts - prev[1] <= DOUBLE_LOG_MS):
                continue
            if h and h == e.get("before_hash") and (t == "file_edit" or e.get("operation") == "overwrite"):
                continue
        out.append(e)
    return out


# A recorder that pairs no moves (inotify without the cookie, a watcher that sees one side)
# logs a move or a rename as the old path's delete and the new path's create moments apart.
# That is one move, not a deletion and a new file: a person who files their scratch notes
# into refs/ has thrown nothing away and written nothing new. The two ends are the same
# file when they share the name (a move) or the content the session last gave the old path
# (by writing it or by editing it), or, where the recorder logs no content hash (a big
# binary save), a rename within one folder to a file of the very size the old one was
# written with: a finished download (`Unconfirmed 8754.crdownload` -> `hands.webp`). Sizes
# below SPLIT_RENAME_MIN_BYTES are too common to tell two files apart.
SPLIT_MOVE_MS = 2000.0
SPLIT_RENAME_MIN_BYTES = 1024


def _content_of(e: Mapping[str, Any]) -> Any:
    ref = e.get("media_ref")
    return e.get("after_hash") or (ref.get("hash") if isinstance(ref, dict) else None)


# The folders a file manager's "Move to Trash" puts files in (macOS' `.Trash`, an iCloud or
# external drive's `.Trashes`, Windows' `$Recycle.Bin`, the freedesktop `.local/share/Trash`).
_TRASH_FOLDERS = frozenset({".trash", ".trashes", "$recycle.bin"})


def _in_trash(path: str) -> bool:
    parts = path.lower().split("/")[:-1]
    return any(p in _TRASH_FOLDERS for p in parts) or "/.local/share/trash/" in path.lower()


def _trashed_as_deleted(evs: list[dict[str, Any]]) -> None:
    """A file moved into the trash was deleted: that is how a person deletes in a file
    manager, and the trash is no folder they file into."""
    for e in evs:
        if e.get("event_type") in ("file_move", "file_rename") and _in_trash(str(e.get("new_path") or "")) \
                and not _in_trash(old := str(e.get("old_path") or "")):
            for k in ("old_path", "new_path"):
                e.pop(k, None)
            e["event_type"], e["file_path"] = "file_delete", old


def _split_moves_joined(evs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each delete paired with a create of the same file elsewhere within SPLIT_MOVE_MS
    becomes one file_move (file_rename in the same folder), at the later end's place."""
    if not any(e.get("event_type") == "file_delete" for e in evs):
        return evs
    written: dict[str, Any] = {}  # path -> content of its last write in the session
    sizes: dict[str, int] = {}  # path -> size of its last write in the session
    deletes: list[tuple[float, str, Any, dict[str, Any], int | None]] = []  # recent unpaired deletes
    creates: list[tuple[float, str, Any, dict[str, Any], int | None]] = []  # recent unpaired creates
    paired: dict[int, dict[str, Any] | None] = {}  # id() -> its move (at the later end) or None

    def same_file(old: str, old_content: Any, old_size: int | None, new: str, new_content: Any,
                  new_size: int | None) -> bool:
        if old == new or not old or not new:
            return False
        if old.rsplit("/", 1)[-1] == new.rsplit("/", 1)[-1] or (old_content is not None and old_content == new_content):
            return True
        return old_content is None and new_content is None and old_size is not None and old_size == new_size \
            and old_size >= SPLIT_RENAME_MIN_BYTES and old.rpartition("/")[0] == new.rpartition("/")[0]

    def move(old: str, new: str, later: dict[str, Any]) -> dict[str, Any]:
        kind = "file_rename" if old.rpartition("/")[0] == new.rpartition("/")[0] else "file_move"
        keep = ("event_id", "timestamp", "session_id", "profile_id", "authored")
        return {**{k: later[k] for k in keep if k in later}, "event_type": kind, "old_path": old, "new_path": new}

    for e in evs:
        t = e.get("event_type")
        if t == "file_edit":  # an edit gives the file new content: the move carries that
            if h := e.get("after_hash"):
                written[str(e.get("file_path") or "")] = h
            sizes.pop(str(e.get("file_path") or ""), None)
            continue
        if t not in ("file_delete", "file_write"):
            continue
        ts, path = float(e.get("timestamp") or 0.0), str(e.get("file_path") or "")
        deletes = [d for d in deletes if ts - d[0] <= SPLIT_MOVE_MS]
        creates = [c for c in creates if ts - c[0] <= SPLIT_MOVE_MS]
        if t == "file_delete":
            old_content, old_size = written.pop(path, None), sizes.pop(path, None)
            hit = next((c for c in creates if same_file(path, old_content, old_size, c[1], c[2], c[4])), None)
            if hit is not None:
                creates.remove(hit)
                paired[id(hit[3])], paired[id(e)] = None, move(path, hit[1], e)
            else:
                deletes.append((ts, path, old_content, e, old_size))
            continue
        content = _content_of(e)
        size = e.get("content_length") if type(e.get("content_length")) is int else None
        if e.get("operation") == "create":
            hit = next((d for d in deletes if same_file(d[1], d[2], d[4], path, content, size)), None)
            if hit is not None:
                deletes.remove(hit)
                paired[id(hit[3])], paired[id(e)] = None, move(hit[1], path, e)
            else:
                creates.append((ts, path, content, e, size))
        written[path] = content
        if size is None:
            sizes.pop(path, None)
        else:
            sizes[path] = size
    if not paired:
        return evs
    out = []
    for e in evs:
        if id(e) in paired:
            m = paired[id(e)]
            if m is not None:
                out.append(m)
        else:
            out.append(e)
    return out


def clean_events(events: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Atomic actions only, as new dicts in time order (stable for equal timestamps), a
    program's actions marked `"authored": false` where the producer did not say
    (memory.authorship), Windows paths written with forward slashes, atomic saves joined
    into the write of the file they saved, a write logged twice kept once, a save or an edit
    that left the file as it was dropped, a move logged as a delete and a create joined into
    the move, a move into the trash read as the deletion it is.

    A save that left the file as it was is dropped only after authorship has looked: a
    program that rewrites its exports unchanged and prunes the old ones in the same fifth of a
    second still shows its run (alt753: the prunes alone read as the person's removals).

    The store yields a session's actions in time order already: their times are read once,
    and when they are in order (what a stable sort would keep) the sort is skipped."""
    evs = [_posix_paths(dict(e)) for e in events
           if (type(e) is dict or isinstance(e, Mapping)) and e.get("event_type") not in METADATA_TYPES]
    times = [float(e.get("timestamp") or 0.0) for e in evs]
    if not all(map(le, times, times[1:])):
        evs = [evs[i] for i in sorted(range(len(evs)), key=times.__getitem__)]
    evs = _split_moves_joined(_atomic_saves_joined(evs))
    _trashed_as_deleted(evs)
    _edit_counts_from_summaries(evs)
    mark_tool_actions(evs)
    return _double_writes_dropped(evs)


def event_file_type(ev: Mapping[str, Any], path_key: str = "file_path") -> str:
    """The file type an event names (its file_type, else the path's extension)."""
    t = ev.get("file_type")
    if isinstance(t, str) and t:
        return t.lower().lstrip(".")
    return file_type_of(str(ev.get(path_key) or ""))


# isinstance() against a tuple: `int | float` in a hot test builds a union type per call.
_NUMBER = (int, float)


def _int(v: Any, default: int = 0) -> int:
    if type(v) is int:  # the common case: int(v) is v
        return v
    if isinstance(v, bool) or v is None:
        return default
    if isinstance(v, _NUMBER):
        return int(v)
    if isinstance(v, list):
        return len(v)
    return default


def written_texts(evs: list[dict[str, Any]], get_blob: BlobGetter | None) -> dict[int, str]:
    """Index of write event (create or overwrite) -> its text snapshot, when stored."""
    out: dict[int, str] = {}
    if get_blob is None:
        return out
    for i, ev in enumerate(evs):
        if ev["event_type"] == "file_write":
            ref = ev.get("media_ref")
            h = ref.get("hash") if isinstance(ref, dict) else ev.get("after_hash")
            if isinstance(h, str) and h:
                text = decode_text(get_blob(h))
                if text is not None:
                    out[i] = text
    return out


def earlier_texts(evs: list[dict[str, Any]], get_blob: BlobGetter | None) -> dict[str, str]:
    """Content hash -> text of what an overwrite replaced, where the session did not write
    that content itself but the store holds it (the file's snapshot from an earlier session):
    a recorder that logs every save as a whole-file write still says how much changed."""
    out: dict[str, str] = {}
    if get_blob is None:
        return out
    written: set[str] = set()
    for ev in evs:
        if ev["event_type"] != "file_write":
            continue
        h = ev.get("before_hash")
        if ev.get("operation") == "overwrite" and type(h) is str and h and h not in written and h not in out:
            text = decode_text(get_blob(h))
            if text is not None:
                out[h] = text
        after = ev.get("after_hash")
        if type(after) is str:
            written.add(after)
    return out


def blob_hashes(events: Iterable[Mapping[str, Any]]) -> Iterator[str]:
    """The blobs `written_texts` and `edit_diff_texts` may read for these events (so a caller
    can read a batch's blobs at once; any other is still read through the getter)."""
    for ev in events:
        t = ev.get("event_type")
        if t == "file_write":
            ref = ev.get("media_ref")
            h = ref.get("hash") if isinstance(ref, dict) else ev.get("after_hash")
            before = ev.get("before_hash")
            if ev.get("operation") == "overwrite" and isinstance(before, str) and before:
                yield before  # earlier_texts
        elif t == "file_edit":
            ref = ev.get("media_ref_diff")
            h = ref.get("hash") if isinstance(ref, dict) else None
        else:
            continue
        if isinstance(h, str) and h:
            yield h


def fingerprint(events: Iterable[Mapping[str, Any]], get_blob: BlobGetter | None = None) -> dict[str, float]:
    """The 17 features of filegram.md section 4, exactly by their formulas.

    markdown_table_rows needs the created content: without a blob getter it is 0.
    """
    evs = clean_events(events)
    size_edits_from_diffs(evs, edit_diff_texts(evs, get_blob))
    return fingerprint_of(evs, written_texts(evs, get_blob))


def by_type(evs: list[dict[str, Any]]) -> dict[str, list[int]]:
    """Indices of the events of each type, in time order: one pass that the fingerprint and
    the raw features share instead of filtering all events for every feature."""
    out: dict[str, list[int]] = {}
    for i, e in enumerate(evs):
        t = e["event_type"]
        if t in out:
            out[t].append(i)
        else:
            out[t] = [i]
    return out


def _of(evs: list[dict[str, Any]], idx: list[int]) -> list[dict[str, Any]]:
    return [evs[i] for i in idx]


def fingerprint_of(evs: list[dict[str, Any]], texts: dict[int, str],
                   by: dict[str, list[int]] | None = None) -> dict[str, float]:
    """The 17 features of events already cleaned (clean_events) with their written texts
    (written_texts): encoding a session computes both once and shares them."""
    if by is None:
        by = by_type(evs)
    reads = _of(evs, by.get("file_read", []))
    n_search, n_browse = len(by.get("file_search", ())), len(by.get("file_browse", ()))
    access = len(reads) + n_browse + n_search
    create_idx = [i for i in by.get("file_write", ()) if evs[i].get("operation") == "create"]
    creates = _of(evs, create_idx)
    create_lens = [_int(e.get("content_length")) for e in creates]
    create_types = [event_file_type(e) for e in creates]
    dirs = _of(evs, by.get("dir_create", []))
    edits = _of(evs, by.get("file_edit", []))
    changed = [_int(e.get("lines_added")) + _int(e.get("lines_deleted")) for e in edits]
    deletes = len(by.get("file_delete", ()))
    n_creates = len(creates)
    return {
        "search_ratio": n_search / max(access, 1),
        "browse_ratio": n_browse / max(access, 1),
        "revisit_ratio": sum(1 for r in reads if _int(r.get("view_count"), 1) > 1) / max(len(reads), 1),
        "avg_output_length": (sum(create_lens) / n_creates) if n_creates else 0.0,
        "files_created": float(n_creates),
        "total_output_chars": float(sum(create_lens)),
        "dirs_created": float(len(dirs)),
        "max_dir_depth": float(max((_dir_create_depth(d) for d in dirs), default=0)),
        "files_moved": float(len(by.get("file_move", ()))),
        "total_edits": float(len(edits)),
        "avg_lines_changed": (sum(changed) / len(changed)) if changed else 0.0,
        "small_edit_ratio": (sum(1 for c in changed if c < 10) / len(changed)) if changed else 0.0,
        "total_deletes": float(deletes),
        "delete_to_create_ratio": deletes / max(n_creates, 1),
        "structured_files_created": float(sum(1 for t in create_types if t in STRUCTURED_TYPES)),
        "markdown_table_rows": float(sum(table_rows(texts[i]) for i in create_idx if i in texts)),
        "image_files_created": float(sum(1 for t in create_types if t in IMAGE_TYPES)),
    }


def _dir_create_depth(ev: Mapping[str, Any]) -> int:
    d = ev.get("depth")
    if isinstance(d, _NUMBER) and not isinstance(d, bool):
        return int(d)
    return dir_depth_of(str(ev.get("dir_path") or ""))


def _file_depth(ev: Mapping[str, Any], key: str = "file_path") -> int:
    d = ev.get("directory_depth")
    if key == "file_path" and isinstance(d, _NUMBER) and not isinstance(d, bool):
        return int(d)
    return depth_of(str(ev.get(key) or ""))


def _name(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1]


def _naming_style(name: str) -> str:
    stem = name.rsplit(".", 1)[0] if "." in name.lstrip(".") else name
    if " " in stem:
        return "spaces"
    if re.search(r"[\u3400-\u9fff]", stem):
        return "cjk"
    if "_" in stem and "-" not in stem:
        return "snake"
    if "-" in stem and "_" not in stem:
        return "kebab"
    if re.search(r"[a-z][A-Z]", stem):
        return "camel"
    if "_" in stem and "-" in stem:
        return "mixed"
    return "plain"


def raw_features(events: Iterable[Mapping[str, Any]], get_blob: BlobGetter | None = None) -> dict[str, float]:
    """The fingerprint plus the wider set (naming, headings, lists, tables, backups,
    overwrites, reads and edits per file, phases). Names starting with "has_" are 0/1."""
    evs = clean_events(events)
    size_edits_from_diffs(evs, edit_diff_texts(evs, get_blob))
    texts = written_texts(evs, get_blob)
    return raw_features_of(evs, texts)


_COUNTED_TYPES = ("file_read", "file_browse", "file_search", "file_write", "file_edit", "file_rename",
                  "file_move", "dir_create", "file_delete", "file_copy", "context_switch",
                  "cross_file_reference")
_FIGURE_DIR = re.compile(r"(fig|figure|chart|image|img|plot|visual|graph|图)", re.I)


@functools.lru_cache(maxsize=4096)
def _backup_path(path: str) -> bool:
    """looks_like_backup (cached: the same names come back in many sessions)."""
    return looks_like_backup(path)


@functools.lru_cache(maxsize=4096)
def _temporary_path(path: str) -> bool:
    return looks_temporary(path)


# "n_read", "n_browse", ...: the key of each counted type, built once.
_COUNTED_KEYS = tuple((t, "n_" + t.removeprefix("file_")) for t in _COUNTED_TYPES)
_STYLE_KEYS = tuple((s, f"naming_{s}_share") for s in ("snake", "kebab", "camel", "spaces", "plain", "cjk", "mixed"))
_NO_INDEX: list[int] = []


@functools.lru_cache(maxsize=4096)
def _name_traits(name: str) -> tuple[str, bool, bool]:
    """Naming style of a created name, and whether it holds a date and a version (cached:
    three regex passes per name, and the same names come back in many sessions)."""
    return _naming_style(name), DATE_IN_NAME_RE.search(name) is not None, VERSION_IN_NAME_RE.search(name) is not None


# value -> float(round(value, 6)) for the fractional values rounded lately: round() with
# digits formats and parses the number (about a microsecond), and the same shares (1/2,
# 1/3, 2/3, ...) come back session after session. Bounded: cleared when full.
_ROUNDED: dict[float, float] = {}
ROUNDED_CACHE = 16384


def rounded(f: dict[str, float]) -> dict[str, float]:
    """Every value as float(round(v, 6)). Most features are counts, whole floats round()
    returns unchanged: only the others are rounded, and their rounding is looked up when it
    was done before."""
    out = dict(f)
    known = _ROUNDED
    for k in [k for k, v in f.items() if type(v) is not float or not v.is_integer()]:
        v = f[k]
        cached = type(v) is float and v != 0.0  # 0.0 == -0.0: a key would mix them up
        r = known.get(v) if cached else None
        if r is None:
            r = float(round(v, 6))
            if cached:
                if len(known) >= ROUNDED_CACHE:
                    known.clear()
                known[v] = r
        out[k] = r
    return out


def raw_features_of(evs: list[dict[str, Any]], texts: dict[int, str],
                    fp: dict[str, float] | None = None,
                    by: dict[str, list[int]] | None = None) -> dict[str, float]:
    """raw_features of events already cleaned, with their written texts (and their
    fingerprint and by_type index, when the caller has them already).

    Sessions are small (a dozen actions), so the cost is per feature, not per event: each
    group of features is counted in one loop over the few events it reads, and a loop over
    an action type the session does not have is skipped."""
    if by is None:
        by = by_type(evs)
    f: dict[str, float] = dict(fp if fp is not None else fingerprint_of(evs, texts, by))
    get = by.get
    n = len(evs)
    f["actions"] = float(n)
    for t, key in _COUNTED_KEYS:
        f[key] = float(len(get(t, ())))
    f["duration_min"] = (round((float(evs[-1].get("timestamp") or 0.0) - float(evs[0].get("timestamp") or 0.0)) / 60000.0, 4)
                         if n > 1 else 0.0)

    # A: consumption
    reads = _of(evs, get("file_read", _NO_INDEX))
    read_paths = set()
    n_ranged = n_offset = n_skim = 0
    for e in reads:
        read_paths.add(str(e.get("file_path")))
        vr = e.get("view_range")
        if isinstance(vr, list) and len(vr) == 2:
            n_ranged += 1
            if vr[0] > 1:
                n_offset += 1
            elif vr[0] <= 1 and vr[1] - vr[0] + 1 <= 30:
                n_skim += 1
    n_reads = max(len(reads), 1)
    f["files_read"] = float(len(read_paths))
    f["reads_per_file"] = len(reads) / max(len(read_paths), 1)
    f["ranged_read_share"] = n_ranged / n_reads
    f["offset_read_share"] = n_offset / n_reads
    f["skim_read_share"] = n_skim / n_reads
    f["whole_read_share"] = 1.0 - f["ranged_read_share"] if reads else 0.0
    search_idx = get("file_search", _NO_INDEX)
    f["search_followed_share"] = (sum(1 for i in search_idx if evs[i].get("files_opened_after")) / len(search_idx)
                                  if search_idx else 0.0)
    ref_idx = get("cross_file_reference")
    if ref_idx:
        refs = Counter(evs[i].get("reference_type") for i in ref_idx)
        n_refs = sum(refs.values())
        f["sequential_ref_share"] = refs["sequential_access"] / max(n_refs, 1)
        f["search_then_read_share"] = refs["search_then_read"] / max(n_refs, 1)
    else:
        f["sequential_ref_share"] = f["search_then_read_share"] = 0.0
    browses = get("file_browse", _NO_INDEX)
    f["files_listed_per_browse"] = (sum(_int(evs[i].get("files_listed")) for i in browses) / len(browses)
                                    if browses else 0.0)
    access_idx = sorted([*get("file_read", ()), *get("file_browse", ()), *search_idx])
    first_access = [evs[i]["event_type"] for i in access_idx[:5]]
    f["first_access_search_share"] = first_access.count("file_search") / max(len(first_access), 1)
    f["first_access_browse_share"] = first_access.count("file_browse") / max(len(first_access), 1)
    f["access_actions"] = float(len(access_idx))

    # B: production, content structure
    write_idx = get("file_write", _NO_INDEX)
    create_idx = [i for i in write_idx if evs[i].get("operation") == "create"]
    # Documents produced: the last written version of each text path (create or overwrite),
    # so a rewrite-in-place user's output counts as much as a create-new user's.
    last_write: dict[str, int] = {}
    for i in write_idx:
        if event_file_type(evs[i]) in TEXT_TYPES:
            last_write[str(evs[i].get("file_path"))] = i
    text_creates = sorted(last_write.values())
    # no snapshot: estimate the lines from the length (about 45 characters a line)
    est_lines: list[int] = []
    heading_depth = headings = nonblank = list_lines = table_lines = code_blocks = 0
    sent: list[float] = []
    cjk: list[float] = []
    for i in text_creates:
        text = texts.get(i)
        if text is None:
            est_lines.append(round(_int(evs[i].get("content_length")) / 45.0))
            continue
        s = analyse(text)
        est_lines.append(s.lines)
        heading_depth = max(heading_depth, s.max_heading_depth)  # depths are >= 0
        headings += s.headings
        nonblank += s.nonblank_lines
        list_lines += s.list_lines
        table_lines += s.table_rows
        code_blocks += s.code_blocks
        if s.sentences:
            sent.append(s.mean_sentence_chars)
        cjk.append(s.cjk_share)
    f["text_files_written"] = float(len(text_creates))
    f["output_lines"] = float(sum(est_lines))
    f["max_file_lines"] = float(max(est_lines, default=0))
    f["avg_lines_per_file"] = sum(est_lines) / len(est_lines) if est_lines else 0.0
    f["max_heading_depth"] = float(heading_depth)
    f["headings"] = float(headings)
    f["list_line_share"] = list_lines / max(nonblank, 1)
    f["table_row_share"] = table_lines / max(nonblank, 1)
    f["code_blocks"] = float(code_blocks)
    f["mean_sentence_chars"] = round(statistics.fmean(sent), 4) if sent else 0.0
    f["cjk_share"] = round(statistics.fmean(cjk), 4) if cjk else 0.0

    # C: organisation
    dirs = _of(evs, get("dir_create", _NO_INDEX))
    placed = [_file_depth(evs[i]) for i in create_idx]
    moved = _of(evs, get("file_move", _NO_INDEX))
    moved_depths = []
    into_subfolders = 0
    for e in moved:
        d = e.get("destination_directory_depth")
        depth = int(d) if isinstance(d, _NUMBER) and not isinstance(d, bool) else depth_of(str(e.get("new_path") or ""))
        moved_depths.append(depth)
        if depth > depth_of(str(e.get("old_path") or "")):
            into_subfolders += 1
    # Dir depth counts levels ("a/b/c" = 3); a file in "a/b/c/" sits at directory_depth 3.
    f["final_structure_depth"] = float(max([_dir_create_depth(d) for d in dirs] + placed + moved_depths, default=0))
    f["max_created_file_depth"] = float(max(placed, default=0))
    f["root_create_share"] = placed.count(0) / max(len(placed), 1)
    f["moves_into_subfolders"] = float(into_subfolders)
    n_renames = len(get("file_rename", ()))
    f["n_renames"] = float(n_renames)
    f["organise_actions"] = float(len(dirs) + len(moved) + n_renames)

    # D: iteration
    edits = _of(evs, get("file_edit", _NO_INDEX))
    overwrites = sum(1 for i in write_idx if evs[i].get("operation") == "overwrite")
    copy_idx = get("file_copy")
    backups = sum(1 for i in copy_idx
                  if evs[i].get("is_backup") is True or _backup_path(str(evs[i].get("dest_path") or ""))) if copy_idx else 0
    f["overwrites"] = float(overwrites)
    f["overwrite_ratio"] = overwrites / max(overwrites + len(edits), 1)
    f["backups"] = float(backups)
    edit_paths = set()
    added = deleted = medium = large = 0
    for e in edits:
        edit_paths.add(str(e.get("file_path")))
        a, d = _int(e.get("lines_added")), _int(e.get("lines_deleted"))
        added += a
        deleted += d
        c = a + d
        if c > 30:
            large += 1
        elif c >= 10:
            medium += 1
    f["edits_per_file"] = len(edits) / max(len(edit_paths), 1)
    f["medium_edit_ratio"] = medium / max(len(edits), 1)
    f["large_edit_ratio"] = large / max(len(edits), 1)
    f["lines_added"] = float(added)
    f["lines_deleted"] = float(deleted)
    f["revision_actions"] = float(len(edits) + overwrites + backups)

    # E: curation
    deletes = _of(evs, get("file_delete", _NO_INDEX))
    if deletes:
        created_paths = {str(evs[i].get("file_path")) for i in create_idx}
        f["temp_deletes"] = float(sum(
            1 for e in deletes if e.get("was_temporary") is True or _temporary_path(str(e.get("file_path") or ""))
        ))
        f["deletes_of_own_files"] = float(sum(1 for e in deletes if str(e.get("file_path")) in created_paths))
    else:
        f["temp_deletes"] = f["deletes_of_own_files"] = 0.0

    # F: cross-modal
    f["visual_files_created"] = f["image_files_created"] + f["structured_files_created"]
    f["figure_dirs_created"] = float(sum(1 for d in dirs if _FIGURE_DIR.search(_name(str(d.get("dir_path") or "")))))
    f["output_types"] = float(len({event_file_type(evs[i]) for i in create_idx}))

    # naming of created files and folders ("" is no name: no style, no date, no version)
    names = [_name(str(evs[i].get("file_path") or "")) for i in create_idx] + [_name(str(d.get("dir_path") or "")) for d in dirs]
    styles: dict[str, int] = {}
    dated = versioned = 0
    for nm in names:
        if nm:
            style, has_date, has_version = _name_traits(nm)
            styles[style] = styles.get(style, 0) + 1
            dated += has_date
            versioned += has_version
    total_names = max(len(names) - names.count(""), 1)
    for style, key in _STYLE_KEYS:
        f[key] = styles.get(style, 0) / total_names
    f["naming_dated_share"] = dated / total_names
    f["naming_versioned_share"] = versioned / total_names

    # phases
    phases = [PHASE_OF_TYPE.get(e["event_type"], "explore") for e in evs]
    denominator = max(n, 1)
    for ph in ("explore", "produce", "organise"):
        f[f"phase_{ph}_share"] = phases.count(ph) / denominator
    f["phase_switches"] = float(sum(map(ne, phases, phases[1:])))

    # booleans (0/1 per session; aggregated as a share of sessions)
    f["has_search"] = float(len(search_idx) > 0)
    f["has_backup"] = float(backups > 0)
    f["has_overwrite"] = float(overwrites > 0)
    f["has_delete"] = float(len(deletes) > 0)
    f["has_nested_dirs"] = float(f["final_structure_depth"] >= 3)
    f["has_move"] = float(len(moved) > 0)
    f["has_table"] = float(f["markdown_table_rows"] > 0)
    f["has_image"] = float(f["image_files_created"] > 0)
    f["has_structured"] = float(f["structured_files_created"] > 0)
    f["has_headings"] = float(f["headings"] > 0)
    f["has_lists"] = float(f["list_line_share"] > 0)
    return rounded(f)


# The phase of each produce and organise action type (any other type explores).
PHASE_OF_TYPE: dict[str, str] = {**{t: "produce" for t in PRODUCE}, **{t: "organise" for t in ORGANISE}}


def phase_of(etype: str) -> str:
    """The phase an action type belongs to: produce, organise or explore."""
    return PHASE_OF_TYPE.get(etype, "explore")


def is_boolean_feature(name: str) -> bool:
    return name.startswith("has_")


def edit_diff_texts(evs: list[dict[str, Any]], get_blob: BlobGetter | None) -> dict[int, str]:
    """Index of each edit whose diff is stored -> the diff's text."""
    out: dict[int, str] = {}
    if get_blob is None:
        return out
    for i, e in enumerate(evs):
        if e["event_type"] != "file_edit":
            continue
        ref = e.get("media_ref_diff")
        if isinstance(ref, dict) and isinstance(ref.get("hash"), str):
            text = decode_text(get_blob(ref["hash"]))
            if text:
                out[i] = text
    return out


# A line of a notebook's JSON that holds a cell's execution count.
_EXECUTION_COUNT = re.compile(r'\s*"execution_count"\s*:')


def size_edits_from_diffs(evs: list[dict[str, Any]], diffs: Mapping[int, str]) -> None:
    """Give an edit whose producer left both line counts out (a recorder that keeps the diff
    and not its summary: the counts are optional in the format) the counts of its stored
    diff, so that every measure of edit sizes reads what changed, not a zero-line touch-up.
    Before the fingerprint, features and signals, which all read the counts."""
    for i, text in diffs.items():
        e = evs[i]
        if str(e.get("file_path") or "").endswith(".ipynb"):
            # Running cells renumbers them: lines of execution counts are the kernel's, not
            # what the person typed (an autosave after a run changes nothing else).
            added, removed = diff_lines(text)
            e["lines_added"] = sum(1 for x in added if not _EXECUTION_COUNT.match(x))
            e["lines_deleted"] = sum(1 for x in removed if not _EXECUTION_COUNT.match(x))
            e.pop("lines_modified", None)
            e.pop("diff_summary", None)
        elif e.get("lines_added") is None and e.get("lines_deleted") is None:
            added, removed = diff_lines(text)
            e["lines_added"], e["lines_deleted"] = len(added), len(removed)


__all__ = [
    "FINGERPRINT_FEATURES",
    "FINGERPRINT_NAMES",
    "BlobGetter",
    "fingerprint",
    "fingerprint_of",
    "raw_features",
    "raw_features_of",
    "clean_events",
    "written_texts",
    "earlier_texts",
    "edit_diff_texts",
    "size_edits_from_diffs",
    "blob_hashes",
    "event_file_type",
    "phase_of",
    "diff_lines",
]
