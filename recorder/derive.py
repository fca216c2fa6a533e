"""Session-scoped facts no single file-system event carries: the n-th read of a file and the
time since the last one, what was read after a search (files_opened_after: the reference
never fills it), and the two derived action types, context_switch and
cross_file_reference. Fed with primary actions in time order, one session at a time.

A cross_file_reference needs evidence of a real link, never mere closeness in time:

* `search_then_read`: a file the search matched (the recorder knows which, see
  searchrerun) read within the follow-up window; source = the search's scope; never the
  file itself.
* `read_then_edit`: a file read before an edit or write of another file whose new lines
  were copied from it (within COPY_WINDOW_MS) or share enough distinctive words with it
  (within EDIT_WINDOW_MS) (see filegram/linkevidence.py).
* `sequential_access`: the previous file read, within SEQUENTIAL_WINDOW_MS, in the same
  folder or with related content.

Never a file to itself, never from a tool's work (actions with "authored": false take
part in nothing here).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from filegram.linkevidence import (
    COPY_WINDOW_MS,
    EDIT_WINDOW_MS,
    EMPTY,
    MAX_EDIT_SOURCES,
    SEQUENTIAL_WINDOW_MS,
    Fingerprint,
    compare,
    related,
)
from filegram.schema import new_event_id

FOCUS_TYPES = {"file_read": "read", "file_edit": "edit", "file_write": "write"}
FOLLOWUP_MAX = 50
TEMP_AGE_MS = 24 * 3600 * 1000.0
RECENT_READS = 32


@dataclass
class _HeldSearch:
    event_id: str
    t: float
    until: float
    scope: str
    matched: set[str] | None  # the files it matched, when known
    program: str | None
    opened: list[str] = field(default_factory=list)

    def found(self, path: str) -> bool:
        if path == self.scope:
            return False
        if self.matched is not None:
            return path in self.matched
        return self.scope in (".", "") or path.startswith(self.scope.rstrip("/") + "/")


@dataclass
class _Read:
    path: str
    t: float
    fp: Fingerprint


def _folder(path: str) -> str:
    return os.path.dirname(path)


class Deriver:
    def __init__(self, session_started_ms: float, followup_ms: float):
        self.started = session_started_ms
        self.followup_ms = followup_ms
        self.views: dict[str, int] = {}
        self.last_read: dict[str, float] = {}
        self.focus: str | None = None
        self.switches = 0
        self.prev_read: _Read | None = None
        self.reads: list[_Read] = []  # recent reads, newest last, one per path
        self.held: _HeldSearch | None = None
        # (event_id, files_opened_after) of searches stored earlier that gained follow-ups
        self.updates: dict[str, list[str]] = {}

    def feed(self, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for ev in actions:
            out.extend(self._one(ev))
        return out

    def release(self, now: float, *, force: bool = False) -> None:
        """Stop collecting follow-up reads for the last search once its window is over.
        The search itself was stored at once (flush() must not wait a minute for it);
        its files_opened_after is updated in place as reads come."""
        if self.held is not None and (force or now >= self.held.until):
            self.held = None

    def take_updates(self) -> dict[str, list[str]]:
        out, self.updates = self.updates, {}
        return out

    def _one(self, ev: dict[str, Any]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        t = ev["timestamp"]
        etype = ev["event_type"]
        first_seen = ev.pop("_first_seen_ms", None)
        scope = ev.pop("_scope", None)
        matched = ev.pop("_matched", None)
        fp: Fingerprint = ev.pop("_fp", None) or EMPTY
        ev.pop("_inferred", None)
        ev.pop("_tool", None)
        if ev.get("authored") is False:
            return [ev]  # a tool's work: no view counts, focus changes or references
        program = ev.get("program")
        if etype == "file_search":
            ev["event_id"] = new_event_id()
            ev["files_opened_after"] = []
            self.held = _HeldSearch(ev["event_id"], t, t + self.followup_ms, scope or ".",
                                    set(matched) if matched is not None else None, program)
            return [ev]
        if etype == "file_delete" and ev.get("was_temporary") is None:
            from filegram.naming import looks_temporary

            created_here = first_seen is not None and first_seen >= self.started
            young = ev.get("file_age_ms") is not None and ev["file_age_ms"] < TEMP_AGE_MS and created_here
            ev["was_temporary"] = bool(looks_temporary(ev["file_path"]) or young)
        if etype == "file_read":
            path = ev["file_path"]
            n = self.views.get(path, 0) + 1
            self.views[path] = n
            ev["view_count"] = n
            last = self.last_read.get(path)
            ev["revisit_interval_ms"] = (t - last) if last is not None else None
            self.last_read[path] = t
        out.append(ev)
        # files opened after a search: the ones it found
        if etype == "file_read" and self.held is not None:
            if t <= self.held.until:
                path = ev["file_path"]
                if self.held.found(path) and path not in self.held.opened and len(self.held.opened) < FOLLOWUP_MAX:
                    self.held.opened.append(path)
                    self.updates[self.held.event_id] = list(self.held.opened)
                    out.append(self._ref(self.held.scope, path, "search_then_read", t - self.held.t, t, self.held.program))
            else:
                self.held = None
        kind = FOCUS_TYPES.get(etype)
        if kind is None:
            return out
        path = ev["file_path"]
        if ev.get("bulk"):
            return out
        if kind == "read":
            prev = self.prev_read
            if prev is not None and prev.path != path and t - prev.t <= SEQUENTIAL_WINDOW_MS and (
                _folder(prev.path) == _folder(path) or related(prev.fp, fp)
            ):
                out.append(self._ref(prev.path, path, "sequential_access", t - prev.t, t, program))
            self._remember(_Read(path, t, fp))
        else:
            out.extend(self._edit_sources(path, t, fp, program))
        # context switches
        if self.focus is not None and self.focus != path:
            self.switches += 1
            out.append(
                {
                    "event_type": "context_switch",
                    "timestamp": t + 0.001,
                    "from_file": self.focus,
                    "to_file": path,
                    "trigger": kind,
                    "switch_count": self.switches,
                    "program": program,
                    "authored": True,
                }
            )
        self.focus = path
        return out

    def _remember(self, r: _Read) -> None:
        self.prev_read = r
        self.reads = [x for x in self.reads if x.path != r.path and r.t - x.t <= COPY_WINDOW_MS][-(RECENT_READS - 1):]
        self.reads.append(r)

    def _edit_sources(self, path: str, t: float, fp: Fingerprint, program: str | None) -> list[dict[str, Any]]:
        """read_then_edit from the files read before whose content the edit takes up."""
        if fp.empty:
            return []
        scored = []
        for r in self.reads:
            if r.path == path or t - r.t > COPY_WINDOW_MS or t < r.t:
                continue
            link = compare(r.fp, fp)
            if link.copied or (t - r.t <= EDIT_WINDOW_MS and related(r.fp, fp)):
                scored.append((link.copied_lines, link.shared_terms, r.t, r))
        scored.sort(key=lambda x: (x[0], x[1], x[2]), reverse=True)
        return [self._ref(r.path, path, "read_then_edit", t - r.t, t, program) for *_, r in scored[:MAX_EDIT_SOURCES]]

    @staticmethod
    def _ref(src: str, dst: str, rtype: str, interval: float, t: float, program: str | None) -> dict[str, Any]:
        return {
            "event_type": "cross_file_reference",
            "timestamp": t + 0.002,
            "source_file": src,
            "target_file": dst,
            "reference_type": rtype,
            "interval_ms": max(interval, 0.0),
            "program": program,
            "authored": True,
        }
