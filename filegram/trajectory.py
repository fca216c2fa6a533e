"""Import and export of FileGram trajectories (the paper's interchange format).

A trajectory is read and checked completely before anything is written, then stored in one
transaction: a malformed file costs one clear line and leaves the store as it was.
Re-importing is idempotent (sessions, actions and blobs are keyed by their ids and hashes).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import posixpath
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .importfiles import (
    MAX_EVENTS_FILE_BYTES,
    MAX_MEDIA_FILE_BYTES,
    iter_json_array,
    iter_jsonl,
    load_json_inside,
    open_inside,
    read_inside,
)
from .naming import OWNER_KEY_FIELD, home_login
from .naming import owner_key as login_digest
from .privacy import PathFilter, nfc
from .redact import redact_bytes, redact_event, redact_json, redact_path
from .schema import (
    EXTERNAL_PREFIX,
    MEDIA_FIELDS,
    PATH_LIST_NAMES,
    PATH_NAMES,
    TraceError,
    event_paths,
    is_metadata_event,
    named_paths,
    validate_event,
)
from .store import Store, content_hash

EVENTS_JSON = "events.json"
LABEL_RE = re.compile(r"^(?P<profile>p\d+)_(?P<task>T-\d+)$")
# Marks a summary.json written by our exporter (not the engine's): re-importing it adds nothing.
GENERATED_BY = "filegram export"
_HEX = re.compile(r"^[0-9a-f]{1,64}$")


@dataclass
class Trajectory:
    """A trajectory checked completely by a first streamed pass: what the second pass
    (`store_trajectory`) needs to store it. Its events stay in their file: memory does not
    grow with the trajectory."""

    source: Path  # what was named: a trajectory folder or an event file
    folder: Path  # every file read must stay inside it (symlinks resolved)
    events_file: Path
    label: str
    summary: dict[str, Any] | None = None
    perturbation: dict[str, Any] | None = None
    manifest: dict[str, Any] = field(default_factory=dict)
    workspace_root: str | None = None
    # True where workspace_root is the common folder of the trajectory's own paths (no root
    # given, none in its summary): shared_roots may widen it to a workspace the batch shows
    inferred_root: bool = False
    # per drive or share its paths touched (a Windows session on `C:` and `S:`): the common
    # folder of its paths there, how many changes were made there and when the last was
    # (_merge_tree_roots)
    tree_roots: dict[str, list[Any]] = field(default_factory=dict)
    sessions: dict[str, int] = field(default_factory=dict)  # id -> events, in order of appearance
    media: dict[str, tuple[str, Path]] = field(default_factory=dict)  # hash -> (kind, file), hashes checked
    event_profiles: set[str] = field(default_factory=set)
    events: int = 0
    dropped_metadata: int = 0
    # indices (in the events file) of events a watcher delivered twice: same id, same content
    redelivered: set[int] = field(default_factory=set)
    # hashes of media an event names but the folder lacks: the events are kept without it
    missing_media: set[str] = field(default_factory=set)
    # 1000 when the file's timestamps are epoch seconds, not the format's milliseconds
    timestamp_scale: float = 1.0
    # the logins the paths' home folders name (`C:\Users\<login>\`), with how many paths
    logins: Counter[str] = field(default_factory=Counter)

    @property
    def owner_key(self) -> str | None:
        """A digest of the login most of the trajectory's home paths name (naming.owner_key):
        memory recognises the person's own folder on a shared tree by it (`<login>_WIP`),
        and the name itself is not stored."""
        if self.logins:
            return login_digest(self.logins.most_common(1)[0][0])  # None for a role's login (`user`)
        given = (self.summary or {}).get(OWNER_KEY_FIELD)  # written by export_sessions, paths anonymised
        return given if isinstance(given, str) and given else None

    @property
    def session_ids(self) -> list[str]:
        return list(self.sessions)

    @property
    def profile_id(self) -> str | None:
        if self.summary and isinstance(self.summary.get("profile_id"), str):
            return self.summary["profile_id"]
        m = LABEL_RE.match(self.label)
        if m:
            return m.group("profile")
        return next(iter(self.event_profiles)) if len(self.event_profiles) == 1 else None

    @property
    def task_id(self) -> str | None:
        if self.summary and isinstance(self.summary.get("task_id"), str):
            return self.summary["task_id"]
        m = LABEL_RE.match(self.label)
        return m.group("task") if m else None


@dataclass
class ImportResult:
    source: Path
    label: str
    session_ids: list[str]
    actions_added: int
    actions_seen: int
    dropped_metadata: int
    denied: int = 0
    redelivered: int = 0
    media_missing: int = 0  # references to media files the folder lacks, dropped (events kept)


# -- reading ---------------------------------------------------------------------------


def _display_name(name: str) -> str:
    """File names need not be UTF-8 on Linux; labels must be text (and hold no secret)."""
    return redact_path(os.fsencode(name).decode("utf-8", "replace"))


def _check_plain_json(value: Any, source: str, depth: int = 0) -> None:
    """Metadata files are stored as given: they must be plain JSON text."""
    if depth > 64:
        raise TraceError("JSON nests too deeply", source=source)
    if isinstance(value, dict):
        for k, v in value.items():
            _check_plain_json(k, source, depth + 1)
            _check_plain_json(v, source, depth + 1)
    elif isinstance(value, list):
        for v in value:
            _check_plain_json(v, source, depth + 1)
    elif isinstance(value, str) and not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise TraceError("holds text that is not valid Unicode", source=source) from None
    elif isinstance(value, float) and value != value:
        raise TraceError("holds NaN", source=source)


def _load_object(path: Path, folder: Path) -> dict[str, Any]:
    data = load_json_inside(path, folder)
    _check_plain_json(data, str(path))
    if not isinstance(data, dict):
        raise TraceError("must hold a JSON object", source=str(path))
    return data


def _present(path: Path) -> bool:
    """A name in the folder (a symlink counts: open_inside then says where it leads)."""
    return os.path.lexists(path) and not os.path.isdir(path)


def iter_events(fh: Any, path: Path) -> Iterator[tuple[int, Any]]:
    """(index, raw event) of an events file, streamed: JSON array or JSON Lines."""
    if path.suffix == ".jsonl":
        for i, (_line, value) in enumerate(iter_jsonl(fh, str(path))):
            yield i, value
    else:
        yield from enumerate(iter_json_array(fh, str(path)))


def find_trajectories(paths: Iterable[str | Path]) -> list[Path]:
    """Expand the user's arguments: trajectory folders (holding events.json), event files
    (.json arrays or .jsonl), and folders containing any of these. Whether a file may be
    read (regular, inside its folder, not too large) is decided when it is opened."""
    found: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if not os.path.lexists(p):
            raise TraceError("no such file or folder", source=str(p))
        if not p.is_dir():
            found.append(p)
        elif _present(p / EVENTS_JSON) or _present(p / "events.jsonl"):
            found.append(p)
        else:
            inner = sorted(
                {q.parent for q in p.rglob(EVENTS_JSON)} | {q.parent for q in p.rglob("events.jsonl")}
            )
            loose = sorted(q for q in p.rglob("*.jsonl") if q.name != "events.jsonl")
            if not inner and not loose:
                raise TraceError("holds no trajectory (no events.json or .jsonl file)", source=str(p))
            found.extend(inner)
            found.extend(q for q in loose if not any(q.is_relative_to(d) for d in inner))
    return found


# A Windows recorder's absolute paths: a drive letter (C:\\x or C:/x) or a share (\\\\server\\x).
_WINDOWS_ABSOLUTE = re.compile(r"^(?:[A-Za-z]:[\\/]|\\\\)")


def _absolute(path: str) -> str | None:
    """An absolute path with forward slashes (C:\\a\\b -> C:/a/b), None for a relative one.
    A Windows recorder's paths are as absolute as a POSIX one's: without this every one of
    them was outside the workspace and kept only its name (external/x.md), so folders,
    depths and moves were lost."""
    path = nfc(path)  # a recorder may log one file in both Unicode forms: one path
    if path.startswith("/"):
        return path
    if _WINDOWS_ABSOLUTE.match(path):
        return path.replace("\\", "/")
    return None


def _windows(p: str) -> bool:
    """An absolute path (forward slashes) of a Windows recorder: a drive or a share."""
    return (p[1:2] == ":" and p[2:3] in ("", "/")) or p.startswith("//")


def _shared(a: list[str], b: list[str], fold: bool) -> int:
    """How many leading components two paths share (without regard to case where `fold`)."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y and not (fold and x.lower() == y.lower()):
            break
        n += 1
    return n


def _parts_under(p: str, root: str) -> list[str] | None:
    """p's components below root, or None when p is not under it. Windows names folders
    without regard to case, and a recorder may report a path's prefix in another case than
    the rest of the session (`c:/users/ana/...` beside `C:/Users/Ana/...`): one folder."""
    pp, rp = p.split("/"), root.rstrip("/").split("/")
    if len(pp) < len(rp) or _shared(pp, rp, _windows(p) and _windows(root)) < len(rp):
        return None
    return pp[len(rp):]


# The system's temporary folders on Linux and macOS. A program's autosave there (Blender's
# `/tmp/<pid>_autosave.blend`) is outside the person's workspace: counted into the common
# root, it made the root `/` and every folder of the person's three levels deeper. Such a file
# is stored as `external/Temp/<name>`, in a folder named as Windows names its own.
SYSTEM_TEMP = ("/tmp/", "/var/tmp/", "/private/tmp/", "/var/folders/", "/private/var/folders/")
# Windows' own: a user's %TEMP% and the system's, in any case (a recorder may log them
# lower-cased). SAS's work library there, made and removed on every run, kept only its file
# names outside the workspace and read as a person removing dozens of temporary files (alt264:
# nine pragmatic and preservative programmers called selective at p 0.92-1.00).
_WINDOWS_TEMP = re.compile(r"(?i)^[a-z]:/(?:users/[^/]+/appdata/local/temp|windows/temp)/")


def _system_temp(p: str) -> bool:
    """Is the absolute path (forward slashes) in one of the system's temporary folders?"""
    return p.startswith(SYSTEM_TEMP) or _WINDOWS_TEMP.match(p) is not None


# The profile every account shares and the programs' own data: Windows' `C:\Users\Public\`
# and `C:\ProgramData\`, macOS's `/Users/Shared/`. Programs keep their shared files there
# (QuickBooks' company files and backups, a licence server's state); a person's own files are
# in their own profile. Counted into the common root, `C:\Users\Public\...` beside the
# person's `C:\Users\ana\Documents\...` made the root `C:\Users`: every path of theirs began
# with their account's name, one level deeper, and their Documents/ was no longer seen as the
# home's standard folder (alt398: flat accountants called adaptive at p 0.97). Like the system's
# temporary folders they stay outside the root, stored as `external/<name>`.
_SHARED_PROFILE = re.compile(r"(?i)^(?:[a-z]:/(?:users/public|programdata)/|/users/shared/)")


def _outside_workspace(p: str) -> bool:
    """Is the absolute path where the system or its programs keep files (temporary folders,
    the shared profile), never the root of a person's workspace?"""
    return _system_temp(p) or _SHARED_PROFILE.match(p) is not None


def _widen(common: str | None, d: str) -> str:
    """The common folder of `common` and the folder `d`, both absolute on one tree (forward
    slashes). A Windows tree's folders are compared without regard to case."""
    if common is None:
        return d
    if _parts_under(d, common) is not None:
        return common
    if _windows(d) and _windows(common):
        cp = common.split("/")
        n = _shared(cp, d.split("/"), True)
        return "/".join(cp[:n]) if n else common
    try:
        return posixpath.commonpath([common, d]) or "/"
    except ValueError:
        return common


# What a person does to files (the actions that say where they work), as against what they
# read: a session that reads exports on a share and writes every document in their home works
# in their home.
_CHANGES = frozenset({"file_write", "file_edit", "dir_create", "file_move", "file_rename", "file_copy", "file_delete"})


def _tree(p: str) -> str:
    """The tree an absolute path (forward slashes) lies in: a Windows drive (`c:`) or share
    (`//server/share`), in lower case; `/` for every POSIX path."""
    if p.startswith("//"):
        return "/".join(p.split("/")[:4]).lower()
    return p[:2].lower() if _windows(p) else "/"


# Changes on one tree less than this far apart are one: a program's burst (a Perforce sync
# writing hundreds of files on `D:`, an export) is one act, as a person's save is. Counted
# file by file, a game designer's sync made the depot the root and every document of theirs
# in `C:\\Users\\<u>\\Documents\\` kept only its name (alt604).
BURST_MS = 2_000.0


def _merge_tree_roots(trees: dict[str, list[Any]], ev: dict[str, Any], ms: float) -> None:
    """Fold one event's paths into the common folder of each tree they lie in, and count
    the tree's changes, a burst as one (`trees`: tree -> [common folder, changes, when the
    last change was]; `ms`: the event's time in milliseconds)."""
    # `listed`: the folder a listing showed, itself a folder of the workspace (browsing one's
    # `OneDrive - University/` is working in it, not in the home above it; taken as a file's
    # path, it made every path of the person's one level deeper)
    listed = ev.get("directory_path") if ev.get("event_type") == "file_browse" else None
    folder = _absolute(listed) if listed else None
    change = ev.get("event_type") in _CHANGES
    for path in event_paths(ev):
        p = _absolute(path)
        if p is None or _outside_workspace(p):  # the system's temporary folders, the shared profile
            continue
        t = trees.setdefault(_tree(p), [None, 0, -math.inf])
        t[0] = _widen(t[0], (p.rstrip("/") or "/") if p == folder else posixpath.dirname(p))
        if change:
            t[1] += ms - t[2] > BURST_MS
            t[2] = ms


def _main_tree(trees: dict[str, list[Any]]) -> str | None:
    """The common folder of the tree where the session changed most (the first seen of those
    that tie): a Windows session's other drives and shares stay outside it (`external/`).
    Until round 61 the first path's tree was the root, whatever was done there: an assessor's
    documents in `C:\\Users\\<u>\\Documents\\`, read after a morning's exports on `S:`, kept their
    names only and their folders were lost (alt622)."""
    best = max(trees.values(), key=lambda t: t[1])
    return best[0]


# A root this shallow (`/`, `/home`, a drive) is no one's workspace: a session that touched two
# unrelated trees has it, and it would make every other session's paths absolute again.
MIN_SHARED_ROOT_PARTS = 2


def shared_roots(trajectories: Sequence[Trajectory]) -> None:
    """One person's sessions imported together, each with the common folder of its own paths
    as its root, are put under the widest of those roots that holds theirs: a session that
    touched only `Work/UXR` lies in the home another session of theirs showed, and its
    paths, depths and folder names then read as that session's do (otherwise the same folder
    is `Work/UXR/` in one session and the root in the next). Sessions whose roots are
    siblings (a workspace per task) keep their own. A session whose paths named no home
    folder is the person's of the batch all the same: it takes the logins the others name
    (Trajectory.owner_key: a game designer's session spent on the depot's `D:` alone still
    files into their `<login>_WIP` folder)."""
    logins: Counter[str] = Counter()
    for t in trajectories:
        logins.update(t.logins)
    for t in trajectories:
        if not t.logins:
            t.logins.update(logins)
    roots = {t.workspace_root for t in trajectories if t.inferred_root and t.workspace_root}
    wide = [r for r in roots if len([x for x in r.replace("\\", "/").split("/") if x]) >= MIN_SHARED_ROOT_PARTS]
    for t in trajectories:
        if not (t.inferred_root and t.workspace_root):
            continue
        outer = [r for r in wide if r != t.workspace_root and _parts_under(t.workspace_root, r) is not None]
        if outer:
            t.workspace_root = min(outer, key=len)


def anonymise_path(path: str, root: str | None) -> str:
    """Relative to the workspace root; absolute paths outside it keep only their name."""
    p = _absolute(path)
    if p is None:
        return nfc(path).replace("\\", "/")
    if root:
        r = (_absolute(root) or root).rstrip("/") or "/"
        if r == "/":
            if p.startswith("/"):
                return p.lstrip("/") or "."
        else:
            below = _parts_under(p.rstrip("/") or "/", r)
            if below is not None:
                return "/".join(below) or "."
    if _system_temp(p):
        return f"{EXTERNAL_PREFIX}/Temp/{posixpath.basename(p.rstrip('/'))}"
    return f"{EXTERNAL_PREFIX}/{posixpath.basename(p.rstrip('/'))}"


def _anonymise_event(ev: dict[str, Any], root: str | None) -> None:
    """Every path the event names (schema.named_paths), relative to the workspace root."""
    for name, value in list(ev.items()):
        if name in PATH_NAMES and isinstance(value, str):
            ev[name] = anonymise_path(value, root)
        elif name in PATH_LIST_NAMES and isinstance(value, list):
            ev[name] = [anonymise_path(v, root) if isinstance(v, str) else v for v in value]


def _id_key(event_id: str) -> int:
    """Event ids are remembered as 8-byte digests: duplicates are found in bounded memory."""
    return int.from_bytes(hashlib.blake2b(event_id.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "big")


def _content_key(ev: dict[str, Any]) -> int:
    """What an event says apart from when it was delivered: file watchers fire the same
    event twice (inotify, FSEvents), and a recorder passing both on repeats its id and
    contents a few milliseconds apart. That is one action, not a malformed file."""
    body = {k: v for k, v in ev.items() if k != "timestamp"}
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, default=str)
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "big")


# Epoch milliseconds below this are before March 1973; epoch seconds below it are any date
# before the year 5138. A recording made with time.time() (seconds) is read as such.
SECONDS_BELOW = 1e11
SECONDS_ABOVE = 1e8  # epoch seconds after March 1973: smaller numbers are no epoch in either unit


def _check_timestamp_unit(traj: Trajectory, ts: float, src: str, i: int) -> None:
    """The format's timestamps are epoch milliseconds; some recorders write epoch seconds
    (Python's time.time()). Read as milliseconds those put a whole session in 1970 within
    two seconds, so every gap, rate and duration is a thousandth of what happened. The
    first event decides the file's unit; a file mixing both is an error."""
    seconds = SECONDS_ABOVE <= ts < SECONDS_BELOW
    if traj.events == 0:
        traj.timestamp_scale = 1000.0 if seconds else 1.0
    elif seconds != (traj.timestamp_scale == 1000.0) and ts >= SECONDS_ABOVE:
        unit = "seconds" if traj.timestamp_scale == 1000.0 else "milliseconds"
        raise TraceError(f"timestamp {ts} is not in epoch {unit} like the first event's", source=src, index=i)


def read_trajectory(path: str | Path, *, root: str | None = None, path_filter: PathFilter | None = None) -> Trajectory:
    """Check a trajectory folder or event file completely, streaming its events; raises
    TraceError. Nothing is kept of the events but what storing them needs."""
    path = Path(path)
    if path.is_dir() and not path.is_symlink():
        folder = path
        events_file = folder / EVENTS_JSON
        if not _present(events_file):
            events_file = folder / "events.jsonl"
        label = _display_name(folder.name)
    else:
        folder = path.parent
        events_file = path
        label = _display_name(path.stem)
    traj = Trajectory(source=path, folder=folder, events_file=events_file, label=label)
    if folder is path:
        if _present(folder / "summary.json"):
            traj.summary = _load_object(folder / "summary.json", folder)
        if _present(folder / "perturbation.json"):
            traj.perturbation = _load_object(folder / "perturbation.json", folder)
        if _present(folder / "media" / "manifest.json"):
            traj.manifest = _load_object(folder / "media" / "manifest.json", folder)

    ws_root = root
    if ws_root is None and traj.summary:
        for key in ("workspace_root", "workspace", "workspace_dir", "cwd", "working_directory"):
            if isinstance(traj.summary.get(key), str) and traj.summary[key]:
                ws_root = traj.summary[key]
                break
    common: str | None = None
    seen: set[int] = set()
    repeats: dict[int, tuple[int, int, str]] = {}  # index of a repeated id -> (its digest, content digest, id)
    src = str(events_file)
    with open_inside(events_file, folder, MAX_EVENTS_FILE_BYTES) as fh:
        for i, raw in iter_events(fh, events_file):
            if is_metadata_event(raw):
                traj.dropped_metadata += 1
                continue
            ev = validate_event(raw, source=src, index=i)
            key = _id_key(ev["event_id"])
            if key in seen:
                repeats[i] = (key, _content_key(ev), ev["event_id"][:40])
                continue
            seen.add(key)
            _check_timestamp_unit(traj, ev["timestamp"], src, i)
            traj.events += 1
            sid = ev["session_id"]
            traj.sessions[sid] = traj.sessions.get(sid, 0) + 1
            if ev.get("profile_id") and len(traj.event_profiles) < 2:
                traj.event_profiles.add(ev["profile_id"])
            _check_media(traj, ev, src, i)
            for path in event_paths(ev):
                if (p := _absolute(path)) is not None and (login := home_login(p)) is not None:
                    traj.logins[login] += 1
            if ws_root is None:
                _merge_tree_roots(traj.tree_roots, ev, ev["timestamp"] * traj.timestamp_scale)
    if ws_root is None and traj.tree_roots:
        common = _main_tree(traj.tree_roots)
    traj.workspace_root = ws_root if ws_root is not None else common
    traj.inferred_root = ws_root is None
    if repeats:
        traj.redelivered = _redelivered(events_file, folder, repeats)
    return traj


def _redelivered(events_file: Path, folder: Path, repeats: dict[int, tuple[int, int, str]]) -> set[int]:
    """The repeated ids that repeat their first event (a watcher that fired twice, a log line
    written twice with a field lost from one copy); raises TraceError at the first one that
    says something else. A second pass, taken only when an id repeats, so that an ordinary
    import keeps one digest per event, not two."""
    wanted = {key for key, _, _ in repeats.values()}
    first: dict[int, dict[str, Any]] = {}  # id digest -> its first event
    again: dict[int, dict[str, Any]] = {}  # index of a repeat whose content digest differs -> it
    src = str(events_file)
    with open_inside(events_file, folder, MAX_EVENTS_FILE_BYTES) as fh:
        for i, raw in iter_events(fh, events_file):
            if is_metadata_event(raw):
                continue
            if i in repeats:
                key, content, _ = repeats[i]
                if key in first and _content_key(first[key]) != content:
                    again[i] = validate_event(raw, source=src, index=i)
                continue
            ev = validate_event(raw, source=src, index=i)
            key = _id_key(ev["event_id"])
            if key in wanted and key not in first:
                first[key] = ev
    for i, (key, _content, event_id) in sorted(repeats.items()):
        if i in again and not _same_event(first[key], again[i]):
            raise TraceError(f"event_id '{event_id}' appears twice with different content", source=src, index=i)
    return set(repeats)


def _same_event(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two copies of one event: every field both copies fill holds the same value (a copy may
    lack a field the other has: a logger that dropped it). Different values are two events
    under one id, which no reading can tell apart."""
    return all(a[k] == b[k] for k in a.keys() & b.keys() - {"timestamp"} if a[k] is not None and b[k] is not None)


def _check_media(traj: Trajectory, ev: dict[str, Any], src: str, i: int) -> None:
    """Every referenced media file that is there must be readable and hold what its name
    says; one that is not there is noted in `missing_media`."""
    for name in MEDIA_FIELDS.get(ev["event_type"], ()):
        ref = ev.get(name)
        if not isinstance(ref, dict):
            continue
        h = ref["hash"].lower()
        if not _HEX.match(h):
            raise TraceError(f"{name}.hash is not hexadecimal", source=src, index=i)
        if h in traj.media or h in traj.missing_media:
            continue
        if traj.folder is not traj.source:  # a bare events file: no media folder to look in
            traj.missing_media.add(h)
            continue
        kind = "diff" if (ref.get("type") == "diff" or name == "media_ref_diff") else "blob"
        media = traj.folder / "media"
        candidates = [media / "diffs" / f"{h}.diff", media / "blobs" / f"{h}.blob"]
        if kind == "blob":
            candidates.reverse()
        media_file = next((c for c in candidates if _present(c)), None)
        if media_file is None:
            # an export that left some media out (a capped or failed copy): the event still says
            # what the person did, so it is kept without that content rather than losing the
            # whole trajectory; a media file that is there must hold what its name says
            traj.missing_media.add(h)
            continue
        _verified_media(media_file, traj.folder, h, src, i)
        traj.media[h] = ("diff" if media_file.suffix == ".diff" else "blob", media_file)


def _verified_media(media_file: Path, folder: Path, h: str, src: str, i: int) -> bytes:
    try:
        content = read_inside(media_file, folder, MAX_MEDIA_FILE_BYTES)
    except TraceError as exc:
        raise TraceError(f"media/{media_file.parent.name}/{media_file.name} {exc.reason}", source=src, index=i) from None
    if not content_matches_name(content, h):
        raise TraceError(
            f"media/{media_file.parent.name}/{media_file.name} does not hold what its name says "
            f"(its content hashes to {content_hash(content)})",
            source=src,
            index=i,
        )
    return content


# -- storing ---------------------------------------------------------------------------

STORE_BATCH = 1000


def store_trajectory(store: Store, traj: Trajectory, *, path_filter: PathFilter | None = None,
                     as_recording: bool = False) -> ImportResult:
    """Stream a checked trajectory into the store in one transaction: paths anonymised,
    events on denied paths dropped with their media, the rest redacted like the recorder's
    (paths, queries, diff summaries, snapshot and diff content; a redacted snapshot is
    stored under its new content address and its references follow). `as_recording` stores
    it as a recording would arrive: no profile id anywhere and a task id only from the
    summary given (benchmarks that must not hand memory what real recordings lack)."""
    profile_id = None if as_recording else traj.profile_id
    task_id = (traj.summary or {}).get("task_id") if as_recording else traj.task_id
    metadata: dict[str, Any] = {}
    if traj.summary is not None and traj.summary.get("generated_by") != GENERATED_BY:
        metadata["summary"] = redact_json({k: v for k, v in traj.summary.items() if k != OWNER_KEY_FIELD})
    if traj.perturbation is not None:
        metadata["perturbation"] = redact_json(traj.perturbation)
    if (key := traj.owner_key) is not None:
        metadata[OWNER_KEY_FIELD] = key
    several = len(traj.sessions) > 1
    src = str(traj.events_file)
    times: dict[str, list[float]] = {}
    rekeyed: dict[str, str] = {}  # content address in the file -> address stored
    batch: list[dict[str, Any]] = []
    added = kept = denied = media_missing = 0
    with store.transaction():
        with open_inside(traj.events_file, traj.folder, MAX_EVENTS_FILE_BYTES) as fh:
            for i, raw in iter_events(fh, traj.events_file):
                if is_metadata_event(raw) or i in traj.redelivered:
                    continue
                ev = validate_event(raw, source=src, index=i)  # again: the file may have changed
                ev["timestamp"] = ev["timestamp"] * traj.timestamp_scale
                as_given = [nfc(p) for p in named_paths(ev)]
                _anonymise_event(ev, traj.workspace_root)
                if path_filter is not None and _denied_event(path_filter, ev, as_given):
                    denied += 1
                    continue
                redact_event(ev)
                if as_recording:
                    ev["profile_id"] = None
                media_missing += _store_media(store, traj, ev, rekeyed, src, i)
                sid, ts = ev["session_id"], ev["timestamp"]
                if sid not in times:
                    store.open_session(
                        sid, source="import", started_ms=ts,
                        label=f"{traj.label}:{sid[:8]}" if several else traj.label,
                        profile_id=profile_id, task_id=task_id, metadata=metadata,
                    )
                    times[sid] = [ts, ts]
                span = times[sid]
                span[0], span[1] = min(span[0], ts), max(span[1], ts)
                batch.append(ev)
                kept += 1
                if len(batch) >= STORE_BATCH:
                    added += store.add_actions(batch, validate=False)
                    batch = []
        if batch:
            added += store.add_actions(batch, validate=False)
        for sid, (started, ended) in times.items():
            store.update_session(sid, ended_ms=ended, closed=1)
            store.conn.execute("UPDATE sessions SET started_ms = MIN(started_ms, ?) WHERE id = ?", (started, sid))
    return ImportResult(
        source=traj.source,
        label=traj.label,
        session_ids=list(times),
        actions_added=added,
        actions_seen=kept,
        dropped_metadata=traj.dropped_metadata,
        denied=denied,
        redelivered=len(traj.redelivered),
        media_missing=media_missing,
    )


def _denied_event(path_filter: PathFilter, ev: dict[str, Any], as_given: list[str]) -> bool:
    """An event the deny list drops: a stored path is denied, or a path outside the workspace
    root was (its stored form, external/<name>, no longer names the folders that denied it:
    ~/.ssh/config), or a search's query names a denied file (as the recorder drops it)."""
    stored = named_paths(ev)
    if any(path_filter.denied(p) for p in stored):
        return True
    if any(s.startswith(EXTERNAL_PREFIX + "/") and path_filter.denied(g) for s, g in zip(stored, as_given, strict=False)):
        return True
    query = ev.get("query") if ev["event_type"] == "file_search" else None
    return isinstance(query, str) and bool(query.strip("*/ ")) and path_filter.denied(query.strip("*/ "))


def _store_media(store: Store, traj: Trajectory, ev: dict[str, Any], rekeyed: dict[str, str], src: str, i: int) -> int:
    """Stores the media the event names; returns how many of its references named media the
    folder lacks (those references are set to null)."""
    missing = 0
    for name in MEDIA_FIELDS.get(ev["event_type"], ()):
        ref = ev.get(name)
        if not isinstance(ref, dict):
            continue
        h = ref["hash"].lower()
        if h in traj.missing_media:
            ev[name] = None
            missing += 1
            continue
        if h not in rekeyed:
            kind, media_file = traj.media[h]
            content = _verified_media(media_file, traj.folder, h, src, i)
            red = redact_bytes(content)
            new_h = h if red == content else content_hash(red)
            info = traj.manifest.get(h) if isinstance(traj.manifest.get(h), dict) else {}
            original = info.get("original_path") if isinstance(info.get("original_path"), str) else None
            if original:
                original = redact_path(anonymise_path(original, traj.workspace_root))
            store.put_blob(red, kind=kind, original_path=original, hash_=new_h)
            rekeyed[h] = new_h
        new_h = rekeyed[h]
        if new_h != ref["hash"]:
            kind = traj.media[h][0]
            folder, ext = ("diffs", "diff") if kind == "diff" else ("blobs", "blob")
            ev[name] = {**ref, "hash": new_h, "path": f"media/{folder}/{new_h}.{ext}"}
    return missing


def import_paths(
    store: Store,
    paths: Iterable[str | Path],
    *,
    root: str | None = None,
    path_filter: PathFilter | None = None,
    on_error: Callable[[TraceError], None] | None = None,
    progress: Callable[[ImportResult], None] | None = None,
) -> list[ImportResult]:
    """Import trajectories; each is all-or-nothing. Without on_error the first bad
    trajectory raises (after the good ones before it are stored); with on_error, bad ones
    are reported and the rest go on."""
    results = []
    read: list[Trajectory] = []
    failed: TraceError | None = None
    for traj_path in find_trajectories(paths):
        try:
            read.append(read_trajectory(traj_path, root=root))
        except TraceError as exc:
            if on_error is None:
                failed = exc
                break
            on_error(exc)
    shared_roots(read)
    for traj in read:
        try:
            result = store_trajectory(store, traj, path_filter=path_filter)
        except TraceError as exc:
            if on_error is None:
                raise
            on_error(exc)
            continue
        results.append(result)
        if progress and result.session_ids:
            progress(result)
    if failed is not None:
        raise failed
    return results


# -- exporting -------------------------------------------------------------------------


def _safe_name(name: str) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "session"
    return cleaned[:120]


def export_sessions(store: Store, out: str | Path, session_ids: Iterable[str] | None = None) -> list[Path]:
    """Write sessions as FileGram trajectory folders: OUT/<label or id>/events.json, ...
    An imported trajectory is written back with its summary and perturbation as they were."""
    out = Path(out)
    if session_ids is None:
        sessions = store.sessions()
    else:
        sessions = []
        for sid in session_ids:
            s = store.session(sid)
            if s is None:
                matches = [x for x in store.sessions() if x["id"].startswith(sid) or x["label"] == sid]
                if len(matches) != 1:
                    raise TraceError(f"no session '{sid}'" if not matches else f"session '{sid}' is ambiguous")
                s = matches[0]
            sessions.append(s)
    written: list[Path] = []
    used_names: set[str] = set()
    for s in sessions:
        name = _safe_name(s["label"] or s["id"])
        if name in used_names:
            name = f"{name}_{s['id'][:8]}"
        used_names.add(name)
        folder = out / name
        written.append(_export_one(store, s, folder))
    return written


def _export_one(store: Store, session: dict[str, Any], folder: Path) -> Path:
    events = list(store.actions(session["id"]))
    media = folder / "media"
    (media / "blobs").mkdir(parents=True, exist_ok=True)
    (media / "diffs").mkdir(parents=True, exist_ok=True)
    manifest: dict[str, dict[str, Any]] = {}
    for ev in events:
        for name in MEDIA_FIELDS.get(ev["event_type"], ()):
            ref = ev.get(name)
            if not isinstance(ref, dict):
                continue
            h = ref["hash"].lower()
            if h in manifest:
                manifest[h]["references"] += 1
                continue
            content = store.get_blob(h)
            info = store.blob_info(h)
            if content is None or info is None:
                continue
            kind = info["kind"]
            target = media / ("diffs" if kind == "diff" else "blobs") / f"{h}.{'diff' if kind == 'diff' else 'blob'}"
            target.write_bytes(content)
            manifest[h] = {
                "type": kind,
                "original_path": info["original_path"],
                "size_bytes": len(content),
                "references": 1,
            }
    _write_json(folder / EVENTS_JSON, events)
    _write_json(media / "manifest.json", manifest)
    meta = session.get("metadata") or {}
    summary = meta.get("summary")
    if summary is None:
        counts = Counter(ev["event_type"] for ev in events)
        summary = {
            "generated_by": GENERATED_BY,
            "session_id": session["id"],
            "profile_id": session.get("profile_id"),
            "task_id": session.get("task_id"),
            "source": session.get("source"),
            "started_ms": session.get("started_ms"),
            "ended_ms": session.get("ended_ms"),
            "total_events": len(events),
            "counts": dict(sorted(counts.items())),
        }
    if isinstance(meta.get(OWNER_KEY_FIELD), str):  # the paths written are anonymised: the digest goes with them
        summary = {**summary, OWNER_KEY_FIELD: meta[OWNER_KEY_FIELD]}
    _write_json(folder / "summary.json", summary)
    if meta.get("perturbation") is not None:
        _write_json(folder / "perturbation.json", meta["perturbation"])
    return folder


def _write_json(path: Path, data: Any) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(tmp, path)


def content_matches_name(content: bytes, h: str) -> bool:
    """A media file is named by its content address; a name shorter than the address is
    a prefix of it. A file that does not match was changed or mislabelled after export."""
    return content_hash(content).startswith(h[:16])
