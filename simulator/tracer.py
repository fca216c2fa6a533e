"""Derive FileGram actions from file operations on an in-memory workspace.

This is the fast executor's recorder: it applies each step to a model of the workspace and
emits what the real recorder would store for it, with the same field conventions (depths via
filegram.schema, one dir_create per level of `mkdir -p`, real line diffs for edits, create vs
overwrite, backup and temporary-file heuristics, and the derived context_switch and
cross_file_reference actions).
"""

from __future__ import annotations

import fnmatch
import hashlib
import posixpath
import random
import uuid
from dataclasses import dataclass, field
from typing import Any

from filegram.linkevidence import (
    COPY_WINDOW_MS,
    EDIT_WINDOW_MS,
    MAX_EDIT_SOURCES,
    SEQUENTIAL_WINDOW_MS,
    Fingerprint,
    added_text,
    compare,
    fingerprint,
    related,
)
from filegram.naming import looks_like_backup, looks_temporary
from filegram.naming import naming_change as naming_pattern_change
from filegram.schema import Action, depth_of, dir_depth_of, file_type_of
from filegram.textdiff import line_diff, shares_lines

from .plan import Plan, Step

SNAPSHOT_MAX = 1 << 20
SEARCH_FOLLOWUP_MS = 60 * 1000.0  # recorder.search_followup_seconds

def h16(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def is_binary(data: bytes) -> bool:
    return b"\x00" in data[:8192] or data[:4] in (b"%PDF", b"PK\x03\x04", b"\x89PNG", b"RIFF") \
        or data[:3] == b"\xff\xd8\xff"


def text_of(data: bytes) -> str | None:
    if is_binary(data):
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def content_length(data: bytes) -> int:
    """Characters for text, bytes for binary content."""
    t = text_of(data)
    return len(t) if t is not None else len(data)


@dataclass
class MediaStore:
    """media/blobs and media/diffs content with the manifest, deduplicated by hash."""

    items: dict[str, tuple[str, str, bytes]] = field(default_factory=dict)  # h -> (type, path, data)
    refs: dict[str, int] = field(default_factory=dict)

    def put(self, data: bytes, kind: str, original_path: str) -> dict[str, str]:
        data = data[:SNAPSHOT_MAX]
        h = h16(data)
        if h not in self.items:
            self.items[h] = (kind, original_path, data)
        self.refs[h] = self.refs.get(h, 0) + 1
        folder, ext = ("blobs", "blob") if kind == "blob" else ("diffs", "diff")
        return {"type": kind, "hash": h, "path": f"media/{folder}/{h}.{ext}"}

    def manifest(self) -> dict[str, Any]:
        return {h: {"type": k, "original_path": p, "size_bytes": len(d), "references": self.refs[h]}
                for h, (k, p, d) in self.items.items()}


class Tracer:
    """Applies steps to an in-memory workspace and collects the FileGram events."""

    def __init__(self, plan: Plan, files: dict[str, bytes], *, session_id: str | None = None):
        self.plan = plan
        self.rng = random.Random(f"ids|{plan.profile_id}|{plan.task_id}|{plan.seed}")
        self.session_id = session_id or str(uuid.UUID(int=self.rng.getrandbits(128), version=4))
        self.now = plan.start_ms
        self.files: dict[str, bytes] = dict(files)
        self.created: dict[str, float] = {p: plan.start_ms for p in files}
        self.dirs: set[str] = set()
        self.made: set[str] = set()  # files created during the session (deleting one is cleanup)
        for p in files:
            parts = p.split("/")[:-1]
            for i in range(1, len(parts) + 1):
                self.dirs.add("/".join(parts[:i]))
        self.events: list[dict[str, Any]] = []
        self.media = MediaStore()
        self.view_counts: dict[str, int] = {}
        self.last_read_at: dict[str, float] = {}
        self.last_file: str | None = None
        self.prev_read: tuple[str, float, Fingerprint] | None = None
        self.reads: list[tuple[str, float, Fingerprint]] = []  # recent reads, oldest first
        self.switches = 0
        self.search: dict[str, Any] | None = None  # the last search event and its matches

    # --- helpers -----------------------------------------------------------------------
    def emit(self, etype: str, **fields: Any) -> dict[str, Any]:
        a = Action.make(etype, self.session_id, self.now, **fields)
        a.event_id = str(uuid.UUID(int=self.rng.getrandbits(128), version=4))
        a.profile_id = self.plan.profile_id
        ev = a.to_event()
        self.events.append(ev)
        return ev

    def entries(self, d: str) -> list[str]:
        prefix = f"{d}/" if d else ""
        names = set()
        for p in list(self.files) + list(self.dirs):
            if p.startswith(prefix) and p != d:
                names.add(p[len(prefix):].split("/", 1)[0])
        return sorted(names)

    def under(self, d: str) -> list[str]:
        prefix = f"{d}/" if d else ""
        return sorted(p for p in self.files if p.startswith(prefix))

    def matches(self, step: Step) -> list[str]:
        if step.op == "grep":
            q = step.query.lower()
            out = []
            for p in self.under(step.path):
                t = text_of(self.files[p])
                if t is not None and q in t.lower():
                    out.append(p)
            return out
        pat = step.query
        if step.op == "find":
            return [p for p in self.under(step.path) if fnmatch.fnmatch(posixpath.basename(p), pat)]
        return [p for p in self.under(step.path) if fnmatch.fnmatch(p, pat)
                or fnmatch.fnmatch(posixpath.basename(p), pat)]

    def _touch_file(self, op: str, path: str, fp: Fingerprint) -> None:
        """search follow-ups, cross_file_reference and context_switch, by the recorder's rules
        (recorder/derive.py, filegram/linkevidence.py): a link needs evidence, never mere
        closeness in time. A file the last search matched, read in its follow-up window, is
        opened-after it (search_then_read, never the scope itself); the previous read is the
        source of the next read in the same folder or with related content
        (sequential_access); a write or edit links to the reads whose lines it copies or whose
        words it takes up (read_then_edit). A change of focus is a switch."""
        t = self.now
        s = self.search
        if op == "read" and s is not None:
            if t <= s["until"]:
                if path in s["matches"] and path != s["scope"] and path not in s["event"]["files_opened_after"]:
                    s["event"]["files_opened_after"].append(path)
                    self._derived("cross_file_reference", 0.002, source_file=s["scope"], target_file=path,
                                  reference_type="search_then_read", interval_ms=max(t - s["t"], 0.0))
            else:
                self.search = None
        if op == "read":
            prev = self.prev_read
            if prev is not None and prev[0] != path and t - prev[1] <= SEQUENTIAL_WINDOW_MS and (
                posixpath.dirname(prev[0]) == posixpath.dirname(path) or related(prev[2], fp)
            ):
                self._derived("cross_file_reference", 0.002, source_file=prev[0], target_file=path,
                              reference_type="sequential_access", interval_ms=max(t - prev[1], 0.0))
            self.prev_read = (path, t, fp)
            self.reads = [r for r in self.reads if r[0] != path and t - r[1] <= COPY_WINDOW_MS]
            self.reads.append((path, t, fp))
        elif not fp.empty:
            scored = []
            for src, at, sfp in self.reads:
                if src == path or t - at > COPY_WINDOW_MS:
                    continue
                link = compare(sfp, fp)
                if link.copied or (t - at <= EDIT_WINDOW_MS and related(sfp, fp)):
                    scored.append((link.copied_lines, link.shared_terms, at, src))
            scored.sort(reverse=True)
            for _, _, at, src in scored[:MAX_EDIT_SOURCES]:
                self._derived("cross_file_reference", 0.002, source_file=src, target_file=path,
                              reference_type="read_then_edit", interval_ms=max(t - at, 0.0))
        if self.last_file is not None and self.last_file != path:
            self.switches += 1
            self._derived("context_switch", 0.001, from_file=self.last_file, to_file=path,
                          trigger=op, switch_count=self.switches)
        self.last_file = path

    def _derived(self, etype: str, offset: float, **fields: Any) -> None:
        now = self.now
        self.now = now + offset
        self.emit(etype, **fields)
        self.now = now

    # --- steps -------------------------------------------------------------------------
    def apply(self, step: Step) -> None:
        self.now += step.pause_ms
        getattr(self, f"_op_{step.op}")(step)

    def run(self) -> list[dict[str, Any]]:
        for step in self.plan.steps:
            self.apply(step)
        return self.events

    def _op_ls(self, step: Step) -> None:
        self.emit("file_browse", directory_path=step.path or ".", files_listed=len(self.entries(step.path)),
                  depth=dir_depth_of(step.path))

    def _op_read(self, step: Step) -> None:
        data = self.files[step.path]
        text = text_of(data)
        n = max(len(text.splitlines()), 1) if text is not None else 1
        first, last = step.view_range or (1, n)
        first, last = max(1, min(first, n)), max(1, min(last, n))
        view_range = [first, last] if text is not None else None
        count = self.view_counts.get(step.path, 0) + 1
        self.view_counts[step.path] = count
        prev = self.last_read_at.get(step.path)
        self.emit("file_read", file_path=step.path, file_type=file_type_of(step.path),
                  directory_depth=depth_of(step.path), view_count=count, view_range=view_range,
                  content_length=content_length(data),
                  revisit_interval_ms=None if prev is None else round(self.now - prev, 1))
        self.last_read_at[step.path] = self.now
        self._touch_file("read", step.path, fingerprint(text))

    def _search(self, step: Step, kind: str) -> None:
        found = self.matches(step)
        ev = self.emit("file_search", search_type=kind, query=step.query, files_matched=len(found),
                       files_opened_after=[])
        self.search = {"event": ev, "matches": set(found), "t": self.now, "scope": step.path or ".",
                       "until": self.now + SEARCH_FOLLOWUP_MS}

    def _op_grep(self, step: Step) -> None:
        self._search(step, "grep")

    def _op_glob(self, step: Step) -> None:
        self._search(step, "glob")

    def _op_find(self, step: Step) -> None:
        self._search(step, "find")

    def _op_write(self, step: Step) -> None:
        data = step.content or b""
        old = self.files.get(step.path)
        if old is not None and old != data and not is_binary(old) and not is_binary(data) \
                and shares_lines(old, data):
            self._edit(step.path, data, tool="write")  # an in-place save that kept some lines
            return
        ref = None if is_binary(data) else self.media.put(data, "blob", step.path)
        self.emit("file_write", file_path=step.path, file_type=file_type_of(step.path),
                  directory_depth=depth_of(step.path), operation="create" if old is None else "overwrite",
                  content_length=content_length(data), before_hash=None if old is None else h16(old),
                  after_hash=h16(data), media_ref=ref)
        if old is None:
            self.created[step.path] = self.now
            self.made.add(step.path)
        self.files[step.path] = data
        self._touch_file("write", step.path, fingerprint(text_of(data)))

    def _op_edit(self, step: Step) -> None:
        self._edit(step.path, step.content or b"", tool="rename")  # editor save: temp file + rename

    def _edit(self, path: str, new: bytes, *, tool: str) -> None:
        step = Step("edit", path=path)
        old = self.files[step.path]
        ot, nt = text_of(old) or "", text_of(new) or ""
        d = line_diff(ot, nt, step.path, step.path)
        added, deleted, modified, diff = d.added, d.deleted, d.modified, d.unified
        self.emit("file_edit", file_path=step.path, file_type=file_type_of(step.path), edit_tool=tool,
                  lines_added=added, lines_deleted=deleted, lines_modified=modified,
                  diff_summary=f"+{added} -{deleted}", before_hash=h16(old), after_hash=h16(new),
                  media_ref_old=self.media.put(old, "blob", step.path),
                  media_ref_new=self.media.put(new, "blob", step.path),
                  media_ref_diff=self.media.put(diff.encode(), "diff", step.path))
        self.files[step.path] = new
        self._touch_file("edit", step.path, fingerprint(added_text(diff)))

    def _op_mkdir(self, step: Step) -> None:
        parts = step.path.strip("/").split("/")
        for i in range(1, len(parts) + 1):
            d = "/".join(parts[:i])
            if d in self.dirs:
                continue
            parent = "/".join(parts[: i - 1])
            siblings = len(self.entries(parent))
            self.dirs.add(d)
            self.emit("dir_create", dir_path=d, depth=dir_depth_of(d), sibling_count=siblings)

    def _op_mv(self, step: Step) -> None:
        data = self.files.pop(step.path)
        self.files[step.dest] = data
        self.created[step.dest] = self.created.pop(step.path, self.now)
        if step.path in self.made:
            self.made.discard(step.path)
            self.made.add(step.dest)
        # view counts are per path, as the recorder keeps them: a moved file is read afresh
        if posixpath.dirname(step.path) == posixpath.dirname(step.dest):
            self.emit("file_rename", old_path=step.path, new_path=step.dest,
                      naming_pattern_change=naming_pattern_change(step.path, step.dest))
        else:
            self.emit("file_move", old_path=step.path, new_path=step.dest,
                      destination_directory_depth=depth_of(step.dest))

    def _op_cp(self, step: Step) -> None:
        self.files[step.dest] = self.files[step.path]
        self.created[step.dest] = self.now
        self.made.add(step.dest)
        self.emit("file_copy", source_path=step.path, dest_path=step.dest,
                  is_backup=looks_like_backup(step.dest))

    def _op_rm(self, step: Step) -> None:
        self.files.pop(step.path)
        born = self.created.pop(step.path, self.plan.start_ms)
        made_here = step.path in self.made
        self.emit("file_delete", file_path=step.path, file_age_ms=round(self.now - born, 1),
                  was_temporary=looks_temporary(step.path) or made_here)
