"""Import and export of FileGram trajectories (the paper's interchange format).

A trajectory is read and checked completely before anything is written, then stored in one
transaction: a malformed file costs one clear line and leaves the store as it was.
Re-importing is idempotent (sessions, actions and blobs are keyed by their ids and hashes).
"""

from __future__ import annotations

import json
import os
import posixpath
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .privacy import PathFilter
from .schema import (
    MEDIA_FIELDS,
    PATH_FIELDS,
    PATH_LIST_FIELDS,
    TraceError,
    event_paths,
    is_metadata_event,
    validate_event,
)
from .store import Store, content_hash

EVENTS_JSON = "events.json"
MAX_FILE_BYTES = 512 * 1024 * 1024
LABEL_RE = re.compile(r"^(?P<profile>p\d+)_(?P<task>T-\d+)$")
EXTERNAL_PREFIX = "external"
# Marks a summary.json written by our exporter (not the engine's): re-importing it adds nothing.
GENERATED_BY = "filegram export"
_HEX = re.compile(r"^[0-9a-f]{1,64}$")


@dataclass
class Trajectory:
    """A parsed, validated trajectory, ready to store."""

    source: Path
    label: str
    events: list[dict[str, Any]]
    blobs: dict[str, tuple[str, bytes, str | None]] = field(default_factory=dict)  # hash -> (kind, content, original_path)
    summary: dict[str, Any] | None = None
    perturbation: dict[str, Any] | None = None
    workspace_root: str | None = None
    dropped_metadata: int = 0
    denied: int = 0

    @property
    def session_ids(self) -> list[str]:
        return list(dict.fromkeys(ev["session_id"] for ev in self.events))

    @property
    def profile_id(self) -> str | None:
        if self.summary and isinstance(self.summary.get("profile_id"), str):
            return self.summary["profile_id"]
        m = LABEL_RE.match(self.label)
        if m:
            return m.group("profile")
        ids = {ev.get("profile_id") for ev in self.events if ev.get("profile_id")}
        return ids.pop() if len(ids) == 1 else None

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


# -- reading ---------------------------------------------------------------------------


def _read_text(path: Path) -> str:
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise TraceError(f"cannot read: {exc.strerror}", source=str(path)) from exc
    if size > MAX_FILE_BYTES:
        raise TraceError(f"file is larger than {MAX_FILE_BYTES >> 20} MiB", source=str(path))
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TraceError(f"not UTF-8 text (byte {exc.start})", source=str(path)) from exc
    except OSError as exc:
        raise TraceError(f"cannot read: {exc.strerror}", source=str(path)) from exc


def _display_name(name: str) -> str:
    """File names need not be UTF-8 on Linux; labels must be text."""
    return os.fsencode(name).decode("utf-8", "replace")


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


def _load_json(path: Path) -> Any:
    text = _read_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TraceError(
            f"not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}", source=str(path)
        ) from exc
    except RecursionError as exc:
        raise TraceError("JSON nests too deeply", source=str(path)) from exc
    if path.name != EVENTS_JSON:
        _check_plain_json(data, str(path))
    return data


def _load_events_file(path: Path) -> list[Any]:
    if path.suffix == ".jsonl":
        out = []
        for lineno, line in enumerate(_read_text(path).splitlines(), 1):
            if not line.strip():
                continue
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise TraceError(
                    f"line {lineno} is not valid JSON: {exc.msg}", source=str(path), index=len(out)
                ) from exc
            except RecursionError as exc:
                raise TraceError(f"line {lineno} nests too deeply", source=str(path)) from exc
        return out
    data = _load_json(path)
    if not isinstance(data, list):
        raise TraceError("must hold a JSON array of events", source=str(path))
    return data


def find_trajectories(paths: Iterable[str | Path]) -> list[Path]:
    """Expand the user's arguments: trajectory folders (holding events.json), event files
    (.json arrays or .jsonl), and folders containing any of these."""
    found: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if not p.exists():
            raise TraceError("no such file or folder", source=str(p))
        if p.is_file():
            found.append(p)
        elif (p / EVENTS_JSON).is_file() or (p / "events.jsonl").is_file():
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


def _common_root(paths: list[str]) -> str | None:
    absolute = [p for p in paths if p.startswith("/")]
    if not absolute:
        return None
    dirs = [posixpath.dirname(p) for p in absolute]
    try:
        return posixpath.commonpath(dirs) or "/"
    except ValueError:
        return None


def anonymise_path(path: str, root: str | None) -> str:
    """Relative to the workspace root; absolute paths outside it keep only their name."""
    if not path.startswith("/") and not re.match(r"^[A-Za-z]:[\\/]", path):
        return path.replace("\\", "/")
    p = path.replace("\\", "/")
    if root:
        r = root.rstrip("/") or "/"
        if p == r:
            return "."
        if p.startswith(r + "/") or r == "/":
            return p[len(r) :].lstrip("/") or "."
    return f"{EXTERNAL_PREFIX}/{posixpath.basename(p.rstrip('/'))}"


def _anonymise_event(ev: dict[str, Any], root: str | None) -> None:
    etype = ev["event_type"]
    for name in PATH_FIELDS.get(etype, ()):
        if isinstance(ev.get(name), str):
            ev[name] = anonymise_path(ev[name], root)
    for name in PATH_LIST_FIELDS.get(etype, ()) + (("files_matched",) if etype == "file_search" else ()):
        if isinstance(ev.get(name), list):
            ev[name] = [anonymise_path(v, root) for v in ev[name]]


def read_trajectory(path: str | Path, *, root: str | None = None, path_filter: PathFilter | None = None) -> Trajectory:
    """Parse and check a trajectory folder or event file completely; raises TraceError."""
    path = Path(path)
    folder = path if path.is_dir() else None
    if folder is not None:
        events_file = folder / EVENTS_JSON
        if not events_file.is_file():
            events_file = folder / "events.jsonl"
        label = _display_name(folder.name)
    else:
        events_file = path
        label = _display_name(path.stem)
    raw_events = _load_events_file(events_file)
    src = str(events_file)

    summary = perturbation = None
    manifest: dict[str, Any] = {}
    if folder is not None:
        if (folder / "summary.json").is_file():
            summary = _load_json(folder / "summary.json")
            if not isinstance(summary, dict):
                raise TraceError("must hold a JSON object", source=str(folder / "summary.json"))
        if (folder / "perturbation.json").is_file():
            perturbation = _load_json(folder / "perturbation.json")
            if not isinstance(perturbation, dict):
                raise TraceError("must hold a JSON object", source=str(folder / "perturbation.json"))
        mpath = folder / "media" / "manifest.json"
        if mpath.is_file():
            manifest = _load_json(mpath)
            if not isinstance(manifest, dict):
                raise TraceError("must hold a JSON object", source=str(mpath))

    events: list[dict[str, Any]] = []
    dropped = 0
    for i, ev in enumerate(raw_events):
        if is_metadata_event(ev):
            dropped += 1
            continue
        events.append(validate_event(ev, source=src, index=i))
    ids = Counter(ev["event_id"] for ev in events)
    dup = next((k for k, n in ids.items() if n > 1), None)
    if dup is not None:
        idx = [i for i, ev in enumerate(raw_events) if isinstance(ev, dict) and ev.get("event_id") == dup][-1]
        raise TraceError(f"event_id '{dup[:40]}' appears twice", source=src, index=idx)

    # Media: every referenced hash must be present (blobs or diffs folder).
    blobs: dict[str, tuple[str, bytes, str | None]] = {}
    raw_index = [i for i, ev in enumerate(raw_events) if not is_metadata_event(ev)]
    for ev, i in zip(events, raw_index, strict=True):
        for name in MEDIA_FIELDS.get(ev["event_type"], ()):
            ref = ev.get(name)
            if not isinstance(ref, dict):
                continue
            h = ref["hash"].lower()
            if not _HEX.match(h):
                raise TraceError(f"{name}.hash is not hexadecimal", source=src, index=i)
            if h in blobs:
                continue
            if folder is None:
                raise TraceError(f"{name} refers to media, but an event file has no media folder", source=src, index=i)
            kind = "diff" if (ref.get("type") == "diff" or name == "media_ref_diff") else "blob"
            candidates = [folder / "media" / "diffs" / f"{h}.diff", folder / "media" / "blobs" / f"{h}.blob"]
            if kind == "blob":
                candidates.reverse()
            media_file = next((c for c in candidates if c.is_file()), None)
            if media_file is None:
                raise TraceError(f"{name} refers to missing media file media/{'diffs' if kind == 'diff' else 'blobs'}/{h}.{kind}", source=src, index=i)
            try:
                content = media_file.read_bytes()
            except OSError as exc:
                raise TraceError(f"cannot read {media_file}: {exc.strerror}", source=src, index=i) from exc
            info = manifest.get(h) if isinstance(manifest.get(h), dict) else {}
            original = info.get("original_path") if isinstance(info.get("original_path"), str) else None
            kind = "diff" if media_file.suffix == ".diff" else "blob"
            if not content_matches_name(content, h):
                raise TraceError(
                    f"media/{media_file.parent.name}/{media_file.name} does not hold what its name says "
                    f"(its content hashes to {content_hash(content)})",
                    source=src,
                    index=i,
                )
            blobs[h] = (kind, content, original)

    ws_root = root
    if ws_root is None and summary:
        for key in ("workspace_root", "workspace", "workspace_dir", "cwd", "working_directory"):
            if isinstance(summary.get(key), str) and summary[key]:
                ws_root = summary[key]
                break
    if ws_root is None:
        ws_root = _common_root([p for ev in events for p in event_paths(ev)])
    for ev in events:
        _anonymise_event(ev, ws_root)
    blobs = {h: (k, c, anonymise_path(o, ws_root) if o else None) for h, (k, c, o) in blobs.items()}

    denied = 0
    if path_filter is not None:
        kept = []
        for ev in events:
            if any(path_filter.denied(p) for p in event_paths(ev)):
                denied += 1
            else:
                kept.append(ev)
        events = kept
        used = {r["hash"].lower() for ev in events for n in MEDIA_FIELDS.get(ev["event_type"], ()) if isinstance(r := ev.get(n), dict)}
        blobs = {h: v for h, v in blobs.items() if h in used}

    return Trajectory(
        source=path,
        label=label,
        events=events,
        blobs=blobs,
        summary=summary,
        perturbation=perturbation,
        workspace_root=ws_root,
        dropped_metadata=dropped,
        denied=denied,
    )


# -- storing ---------------------------------------------------------------------------


def store_trajectory(store: Store, traj: Trajectory) -> ImportResult:
    """Write one checked trajectory in a single transaction."""
    metadata: dict[str, Any] = {}
    if traj.summary is not None and traj.summary.get("generated_by") != GENERATED_BY:
        metadata["summary"] = traj.summary
    if traj.perturbation is not None:
        metadata["perturbation"] = traj.perturbation
    sessions = traj.session_ids
    with store.transaction():
        for sid in sessions:
            evs = [ev for ev in traj.events if ev["session_id"] == sid]
            started = min(ev["timestamp"] for ev in evs)
            ended = max(ev["timestamp"] for ev in evs)
            label = traj.label if len(sessions) == 1 else f"{traj.label}:{sid[:8]}"
            store.open_session(
                sid,
                source="import",
                started_ms=started,
                label=label,
                profile_id=traj.profile_id,
                task_id=traj.task_id,
                metadata=metadata,
            )
            store.update_session(sid, ended_ms=ended, closed=1)
        for h, (kind, content, original) in traj.blobs.items():
            store.put_blob(content, kind=kind, original_path=original, hash_=h)
        added = store.add_actions(traj.events, validate=False)
    return ImportResult(
        source=traj.source,
        label=traj.label,
        session_ids=sessions,
        actions_added=added,
        actions_seen=len(traj.events),
        dropped_metadata=traj.dropped_metadata,
        denied=traj.denied,
    )


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
    for traj_path in find_trajectories(paths):
        try:
            traj = read_trajectory(traj_path, root=root, path_filter=path_filter)
            if not traj.events:
                results.append(ImportResult(traj.source, traj.label, [], 0, 0, traj.dropped_metadata, traj.denied))
                continue
            result = store_trajectory(store, traj)
        except TraceError as exc:
            if on_error is None:
                raise
            on_error(exc)
            continue
        results.append(result)
        if progress:
            progress(result)
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
