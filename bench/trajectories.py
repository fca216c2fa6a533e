"""Trajectories as the bench handles them: loaded from FileGram folders or a store, made
anonymous, interleaved, reduced to their output files, and told as a plain-text narrative.

The narrative is what the text baselines (full context, RAG, summaries, fact store) see: one
line per action, in words a reader (or an LLM) understands, with the numbers an event
carries. It never names the profile.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from filegram.errors import FileGramError
from filegram.schema import METADATA_TYPES, depth_of, dir_depth_of, file_type_of
from filegram.vocab import describe_action

if TYPE_CHECKING:
    from filegram.store import Store

PATH_KEYS = (
    "file_path",
    "directory_path",
    "old_path",
    "new_path",
    "dir_path",
    "source_path",
    "dest_path",
    "from_file",
    "to_file",
    "source_file",
    "target_file",
)


@dataclass
class Trajectory:
    """One user's work on one task: atomic actions in time order plus content snapshots."""

    key: str
    profile_id: str | None
    task_id: str | None
    events: list[dict[str, Any]]
    blobs: dict[str, bytes] = field(default_factory=dict)
    perturbation: dict[str, Any] | None = None
    source: Path | None = None
    # What a screen recording adds (real sessions): one line per frame, in time order.
    frames: list[dict[str, Any]] = field(default_factory=list)

    @property
    def perturbed(self) -> bool:
        return bool(self.shifted_dims)

    @property
    def shifted_dims(self) -> dict[str, dict[str, str]]:
        p = self.perturbation or {}
        return dict(p.get("shifted_dims") or {})

    def get_blob(self, h: str) -> bytes | None:
        return self.blobs.get(h)

    def anonymous(self, label: str) -> Trajectory:
        """The same actions with the persona removed: no profile id, a neutral session id."""
        evs = [{**e, "profile_id": None, "session_id": label} for e in self.events]
        return replace(self, key=label, profile_id=None, events=evs, perturbation=None)


def effective_tiers(tiers: Mapping[str, str], traj: Trajectory) -> dict[str, str]:
    """The tiers this trajectory actually acts out: the persona's, with any shift applied."""
    out = dict(tiers)
    for dim, change in traj.shifted_dims.items():
        if isinstance(change, Mapping) and change.get("perturbed"):
            out[dim] = str(change["perturbed"])
    return out


# -- loading ------------------------------------------------------------------------------


def _relativise(events: list[dict[str, Any]], root: str | None) -> list[dict[str, Any]]:
    if not root:
        return events
    prefix = root.rstrip("/") + "/"
    out = []
    for e in events:
        e = dict(e)
        for k in PATH_KEYS:
            v = e.get(k)
            if isinstance(v, str) and (v == root or v.startswith(prefix)):
                e[k] = v[len(prefix):] if v != root else "."
        for k in ("files_opened_after",):
            if isinstance(e.get(k), list):
                e[k] = [v[len(prefix):] if isinstance(v, str) and v.startswith(prefix) else v for v in e[k]]
        out.append(e)
    return out


def common_root(events: list[dict[str, Any]]) -> str | None:
    """The deepest folder that holds every absolute path of a trajectory without a stated
    workspace root (the importer's rule), so paths read as they did in the workspace."""
    import posixpath

    dirs = [posixpath.dirname(v) for e in events for k in PATH_KEYS
            if isinstance(v := e.get(k), str) and v.startswith("/")]
    if not dirs:
        return None
    try:
        return posixpath.commonpath(dirs) or None
    except ValueError:
        return None


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FileGramError(f"{path}: cannot read JSON: {exc}") from exc


def load_folder(folder: Path, *, key: str | None = None) -> Trajectory:
    """Read one FileGram trajectory folder (events.json, summary.json, perturbation.json,
    media/blobs). Simulation metadata events are dropped; absolute paths become relative."""
    folder = Path(folder)
    events_path = folder / "events.json"
    if not events_path.is_file():
        raise FileGramError(f"{folder}: not a trajectory folder (no events.json)")
    raw = _read_json(events_path)
    if not isinstance(raw, list):
        raise FileGramError(f"{events_path}: must hold a JSON array of events")
    summary = _read_json(folder / "summary.json") if (folder / "summary.json").is_file() else {}
    pert = _read_json(folder / "perturbation.json") if (folder / "perturbation.json").is_file() else None
    events = [dict(e) for e in raw if isinstance(e, dict) and e.get("event_type") not in METADATA_TYPES]
    events.sort(key=lambda e: float(e.get("timestamp") or 0.0))
    root = summary.get("workspace_root") if isinstance(summary, dict) else None
    events = _relativise(events, root or common_root(events))
    name = key or folder.name
    pid = (summary or {}).get("profile_id") if isinstance(summary, dict) else None
    tid = (summary or {}).get("task_id") if isinstance(summary, dict) else None
    if (not pid or not tid) and "_" in name:
        pid = pid or name.split("_", 1)[0]
        tid = tid or name.split("_", 1)[1]
    if not pid:
        pid = next((e.get("profile_id") for e in events if e.get("profile_id")), None)
    blobs: dict[str, bytes] = {}
    for sub in ("blobs", "diffs"):
        d = folder / "media" / sub
        if d.is_dir():
            for f in d.iterdir():
                if f.is_file():
                    blobs[f.stem] = f.read_bytes()
    if pert is not None and not isinstance(pert, dict):
        pert = None
    return Trajectory(name, pid, tid, events, blobs, pert, folder)


def load_folders(folders: Iterable[Path]) -> list[Trajectory]:
    return [load_folder(f) for f in folders]


def load_store_sessions(store: Store, session_ids: Iterable[str] | None = None) -> list[Trajectory]:
    """Closed sessions of a store as trajectories (used by the real-world evaluation)."""
    out = []
    sessions = store.sessions(closed=True)
    wanted = set(session_ids) if session_ids is not None else None
    for s in sessions:
        if wanted is not None and s["id"] not in wanted:
            continue
        events = list(store.actions(s["id"]))
        hashes = set()
        for e in events:
            for k in ("media_ref", "media_ref_new", "media_ref_old", "media_ref_diff"):
                ref = e.get(k)
                if isinstance(ref, dict) and isinstance(ref.get("hash"), str):
                    hashes.add(ref["hash"])
        blobs = {h: b for h in hashes if (b := store.get_blob(h)) is not None}
        meta = s.get("metadata") or {}
        out.append(
            Trajectory(
                s["id"], s.get("profile_id"), s.get("task_id"), events, blobs,
                meta.get("perturbation") if isinstance(meta.get("perturbation"), dict) else None,
            )
        )
    return out


# -- derived views -------------------------------------------------------------------------


def interleave(parts: list[tuple[str, Trajectory]]) -> list[dict[str, Any]]:
    """Events of several labelled trajectories merged in time order, each tagged with its
    label (as session_id). Start times are aligned so the traces overlap."""
    merged = []
    for label, t in parts:
        t0 = float(t.events[0]["timestamp"]) if t.events else 0.0
        for i, e in enumerate(t.events):
            ts = float(e["timestamp"]) - t0
            merged.append((ts, label, i, {**e, "session_id": label, "profile_id": None, "timestamp": ts}))
    merged.sort(key=lambda x: (x[0], x[1], x[2]))
    return [m[3] for m in merged]


def _ref_hash(e: Mapping[str, Any], *keys: str) -> str | None:
    for k in keys:
        v = e.get(k)
        if isinstance(v, dict) and isinstance(v.get("hash"), str):
            return v["hash"]
        if isinstance(v, str) and k.endswith("hash"):
            return v
    return None


def output_files(traj: Trajectory) -> dict[str, str | None]:
    """The files the user produced or reshaped, as they stand at the end: path -> content hash
    (None when no snapshot is known). Replays writes, edits, copies, moves and deletes."""
    files: dict[str, str | None] = {}
    touched: set[str] = set()
    for e in traj.events:
        t = e.get("event_type")
        if t == "file_write":
            p = e.get("file_path")
            files[p] = _ref_hash(e, "media_ref", "after_hash")
            touched.add(p)
        elif t == "file_edit":
            p = e.get("file_path")
            files[p] = _ref_hash(e, "media_ref_new", "after_hash") or files.get(p)
            touched.add(p)
        elif t in ("file_move", "file_rename"):
            old, new = e.get("old_path"), e.get("new_path")
            files[new] = files.pop(old, None)
            touched.discard(old)
            touched.add(new)
        elif t == "file_copy":
            src, dst = e.get("source_path"), e.get("dest_path")
            files[dst] = files.get(src)
            touched.add(dst)
        elif t == "file_delete":
            p = e.get("file_path")
            files.pop(p, None)
            touched.discard(p)
    return {p: files.get(p) for p in sorted(touched) if isinstance(p, str)}


def files_only(traj: Trajectory, label: str) -> Trajectory:
    """The trajectory reduced to what a reader of the output folder sees: one create per
    produced file (with its final content) and the folders that hold them, no process.
    The events are a millisecond apart (no timing is known) and say they are the person's
    (`authored`): they are the user's output by construction, not a program's burst."""
    evs: list[dict[str, Any]] = []
    ts = 0.0
    dirs: set[str] = set()
    outs = output_files(traj)
    for path in outs:
        parent = str(PurePosixPath(path).parent)
        parts = [] if parent in (".", "") else parent.split("/")
        for i in range(1, len(parts) + 1):
            d = "/".join(parts[:i])
            if d not in dirs:
                dirs.add(d)
                ts += 1.0
                evs.append(_event("dir_create", label, ts, dir_path=d, depth=dir_depth_of(d), sibling_count=0,
                                  authored=True))
    for path, h in outs.items():
        ts += 1.0
        content = traj.blobs.get(h) if h else None
        evs.append(
            _event(
                "file_write", label, ts, file_path=path, file_type=file_type_of(path),
                directory_depth=depth_of(path), operation="create",
                content_length=len(content) if content is not None else None,
                before_hash=None, after_hash=h,
                media_ref={"type": "blob", "hash": h, "path": f"media/blobs/{h}.blob"} if h and content is not None else None,
                authored=True,
            )
        )
    blobs = {h: traj.blobs[h] for h in outs.values() if h and h in traj.blobs}
    return Trajectory(label, None, traj.task_id, evs, blobs, None, None)


def _event(etype: str, sid: str, ts: float, **fields: Any) -> dict[str, Any]:
    import uuid

    return {
        "event_id": str(uuid.uuid4()), "event_type": etype, "timestamp": ts, "session_id": sid,
        "profile_id": None, "message_id": None, "model_provider": None, "model_name": None, **fields,
    }


# -- narrative -------------------------------------------------------------------------


def _text(blobs: Mapping[str, bytes], h: str | None) -> str | None:
    if not h or h not in blobs:
        return None
    b = blobs[h]
    if b"\x00" in b[:8192]:
        return None
    return b.decode("utf-8", errors="replace")


def narrate_event(e: Mapping[str, Any], blobs: Mapping[str, bytes] | None = None, *, excerpt: int = 160) -> str:
    """One action in words, with its numbers (the core's filegram.vocab.describe_action); a
    created or overwritten file also shows its line count and the start of its text, from the
    trajectory's snapshots."""
    line = describe_action(e)
    if e.get("event_type") != "file_write":
        return line
    text = _text(blobs or {}, _ref_hash(e, "media_ref", "after_hash"))
    if text is None:
        return line
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    snippet = " ".join(text[:excerpt].split())
    # "created PATH (N chars)": the excerpt goes inside the parentheses
    return f"{line[:-1]}, {lines} lines: \"{snippet}\")"


def narrate_frame(f: Mapping[str, Any], *, excerpt: int = 200) -> str:
    """One screen frame in words: the active window and what OCR read on it."""
    text = " ".join(str(f.get("ocr_text") or "").split())[:excerpt]
    return f"screen: window '{f.get('window_title') or '?'}' ({f.get('app') or '?'}){': ' + text if text else ''}"


def narrate(traj: Trajectory, header: str | None = None, *, with_label: bool = False) -> list[str]:
    """The trajectory as text lines; the header names the session and its task."""
    lines = [f"### {header or traj.key}"]
    stamped = [(float(e.get("timestamp") or 0.0), 0, i) for i, e in enumerate(traj.events)]
    stamped += [(float(f.get("ts") or 0.0), 1, i) for i, f in enumerate(traj.frames)]
    stamped.sort()
    t0 = stamped[0][0] if stamped else 0.0
    for ts, kind, i in stamped:
        sec = (ts - t0) / 1000.0
        if kind:
            lines.append(f"- +{sec:.0f}s {narrate_frame(traj.frames[i])}")
            continue
        e = traj.events[i]
        who = f"[{e.get('session_id')}] " if with_label else ""
        lines.append(f"- {who}+{sec:.0f}s {narrate_event(e, traj.blobs)}")
    return lines


def screen_only(traj: Trajectory, label: str) -> Trajectory:
    """What a screen recording shows of a session: its frames, and the actions derived from
    the screen (window titles naming files, `"source": "screen"`), no kernel events."""
    evs = [{**e, "session_id": label, "profile_id": None} for e in traj.events if e.get("source") == "screen"]
    return Trajectory(label, None, traj.task_id, evs, {}, None, None, list(traj.frames))
