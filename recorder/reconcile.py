"""What changed while no recorder watched: on start, the watched trees are compared with what
the last recorder of this home knew (recorder_files), and the differences are stored as
actions marked as seen offline.

Without this, files created, changed, renamed or deleted while the daemon was down (90 of
157 creates, 30 of 44 renames in the issue's test) left no trace at all: the start-up
baseline silently took them as the new normal. They are not the person's live actions
either: nobody knows when they happened or in which order. So they go to a session of
their own (label "offline", metadata {"offline": true, "since_ms", "until_ms"}, closed at
once with closed_reason "offline"), and every action carries "offline": true and
"seen_ms" (when the recorder noticed). Timestamps: a created or changed file keeps the
modification time the file system recorded (within the offline window), a rename or a
delete the time it was noticed.

Which time is "since": a recorder notes, every 30 s and when it stops, the time up to which
it has seen each root (state key `recorder.seen_ms`). A root never recorded before is not
reconciled (everything in it would look new), and a file the recorder did not know that
has not changed since then (an older file, a path forgotten on request) is not announced as
created. A rename is a vanished known file and a new file with the same content (hash, or
size and modification time for files too large to hash).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from filegram.naming import naming_change
from filegram.schema import Action, depth_of, file_type_of
from filegram.store import Store, content_hash

from .content import Content, read_content
from .output import extraction, media_ref
from .paths import RootSet, iter_tree
from .state import FileInfo

SEEN_KEY = "recorder.seen_ms"
SEEN_EVERY_MS = 30_000.0


def seen_times(store: Store) -> dict[str, float]:
    value = store.get_state(SEEN_KEY, {})
    return value if isinstance(value, dict) else {}


def mark_seen(store: Store, roots: list[str], now_ms: float) -> None:
    """Note that these roots were watched up to now (one small state row)."""
    with store.transaction():
        seen = seen_times(store)
        seen.update({r: now_ms for r in roots})
        store.write_state(SEEN_KEY, seen)


@dataclass
class OfflineChanges:
    actions: list[dict[str, Any]] = field(default_factory=list)  # fields + event_type/timestamp
    blobs: list[tuple[bytes, str]] = field(default_factory=list)  # (snapshot, relative path)
    since_ms: float | None = None


KeptOut = Callable[[str, os.stat_result], bool]


def offline_changes(roots: RootSet, known: dict[str, FileInfo], now_ms: float, seen: dict[str, float], *,
                    snapshot_max_bytes: int, redact: bool, kept_out: KeptOut | None = None) -> OfflineChanges:
    """kept_out: files the person asked to forget, unchanged since (forgotten.Forgotten):
    they are no offline creations, whatever their times."""
    out = OfflineChanges()
    for r in roots.roots:
        since = seen.get(r.path)
        if since is None:
            continue  # never recorded: nothing to compare with
        out.since_ms = since if out.since_ms is None else min(out.since_ms, since)
        _root_changes(roots, r.path, known, since, now_ms, out, snapshot_max_bytes, redact, kept_out)
    out.actions.sort(key=lambda a: a["timestamp"])
    return out


def _root_changes(roots: RootSet, top: str, known: dict[str, FileInfo], since: float, now: float,
                  out: OfflineChanges, snap_max: int, redact: bool, kept_out: KeptOut | None) -> None:
    prefix = top.rstrip(os.sep) + os.sep
    present: dict[str, os.stat_result] = {}
    for p, st, is_dir in iter_tree(top, roots):
        if not is_dir and st is not None:
            present[p] = st
    gone = {p: i for p, i in known.items() if p.startswith(prefix) and p not in present}
    new: dict[str, tuple[os.stat_result, Content]] = {}
    for p, st in present.items():
        info = known.get(p)
        if info is None:
            if max(st.st_mtime_ns, st.st_ctime_ns) / 1e6 <= since:
                continue  # older than the last look: not created while nobody watched
            if kept_out is not None and kept_out(p, st):
                continue  # forgotten on request since it changed
            c = read_content(p, snap_max, redact=redact)
            if c is not None:
                new[p] = (st, c)
        elif info.size != st.st_size or info.mtime_ns != st.st_mtime_ns:
            c = read_content(p, snap_max, redact=redact)
            if c is not None and c.hash != info.hash:
                _write(roots, p, st, c, info, since, now, out)
    for p, (st, c) in sorted(new.items()):
        src = _renamed_from(gone, st, c)
        if src is not None:
            del gone[src]
            _move(roots, src, p, now, out)
        else:
            _write(roots, p, st, c, None, since, now, out)
    for p, info in sorted(gone.items()):
        rel = roots.rel(p)
        if rel is not None:
            _emit(out, "file_delete", now, now, file_path=rel, file_age_ms=max(now - info.first_seen_ms, 0.0),
                  was_temporary=None)


def _renamed_from(gone: dict[str, FileInfo], st: os.stat_result, c: Content) -> str | None:
    for p, info in gone.items():
        if info.hash is not None and info.hash == c.hash:
            return p
    for p, info in gone.items():
        if info.hash is None and info.size == st.st_size and info.mtime_ns == st.st_mtime_ns:
            return p
    return None


def _write(roots: RootSet, path: str, st: os.stat_result, c: Content, before: FileInfo | None,
           since: float, now: float, out: OfflineChanges) -> None:
    rel = roots.rel(path)
    if rel is None:
        return
    ref = None
    if c.text is not None:
        out.blobs.append((c.text, rel))
        ref = media_ref("blob", content_hash(c.text))
    t = min(max(st.st_mtime_ns / 1e6, since), now)
    _emit(out, "file_write", t, now, file_path=rel, file_type=file_type_of(rel), directory_depth=depth_of(rel),
          operation="create" if before is None else "overwrite", content_length=c.chars,
          before_hash=before.hash if before is not None else None, after_hash=c.hash, media_ref=ref,
          **extraction(c))


def _move(roots: RootSet, src: str, dest: str, now: float, out: OfflineChanges) -> None:
    rs, rd = roots.rel(src), roots.rel(dest)
    if rs is None or rd is None:
        return
    if os.path.dirname(src) == os.path.dirname(dest):
        _emit(out, "file_rename", now, now, old_path=rs, new_path=rd,
              naming_pattern_change=naming_change(os.path.basename(src), os.path.basename(dest)))
    else:
        _emit(out, "file_move", now, now, old_path=rs, new_path=rd, destination_directory_depth=depth_of(rd))


def _emit(out: OfflineChanges, etype: str, t: float, seen: float, **fields: Any) -> None:
    out.actions.append({"event_type": etype, "timestamp": float(t), "fields": fields, "seen_ms": seen})


def store_offline(store: Store, changes: OfflineChanges, *, root: str, roots: list[str], now_ms: float,
                  profile_id: str | None, instance: str | None) -> str | None:
    """Store the changes in a closed session of their own; returns its id (None: nothing)."""
    if not changes.actions:
        return None
    first = changes.actions[0]["timestamp"]
    last = changes.actions[-1]["timestamp"]
    sid = store.open_session(
        source="recorder", started_ms=first, label="offline", profile_id=profile_id, root=root,
        metadata={"offline": True, "since_ms": changes.since_ms, "until_ms": now_ms, "roots": roots,
                  "recorder_instance": instance},
    )
    events = []
    for a in changes.actions:
        ev = Action.make(a["event_type"], sid, a["timestamp"], **a["fields"]).to_event()
        ev["profile_id"] = profile_id
        ev["offline"] = True
        ev["seen_ms"] = a["seen_ms"]
        events.append(ev)
    with store.transaction():
        for text, rel in changes.blobs:
            store.put_blob(text, kind="blob", original_path=rel)
        store.add_actions(events)
    store.close_session(sid, ended_ms=max(last, first), reason="offline")
    return sid
