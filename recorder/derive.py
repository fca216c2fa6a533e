"""Session-scoped facts no single file-system event carries: the n-th read of a file and the
time since the last one, what was read after a search (files_opened_after: the reference
never fills it), and the two derived action types, context_switch and
cross_file_reference. Fed with primary actions in time order, one session at a time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from filegram.schema import new_event_id

FOCUS_TYPES = {"file_read": "read", "file_edit": "edit", "file_write": "write"}
REFERENCE_WINDOW_MS = 10 * 60 * 1000.0
FOLLOWUP_MAX = 50
TEMP_AGE_MS = 24 * 3600 * 1000.0


@dataclass
class _HeldSearch:
    event_id: str
    t: float
    until: float
    scope: str
    opened: list[str] = field(default_factory=list)


class Deriver:
    def __init__(self, session_started_ms: float, followup_ms: float):
        self.started = session_started_ms
        self.followup_ms = followup_ms
        self.views: dict[str, int] = {}
        self.last_read: dict[str, float] = {}
        self.focus: str | None = None
        self.switches = 0
        self.prev_read: tuple[str, float] | None = None
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
        ev.pop("_inferred", None)
        ev.pop("_tool", None)
        if etype == "file_search":
            ev["event_id"] = new_event_id()
            ev["files_opened_after"] = []
            self.held = _HeldSearch(ev["event_id"], t, t + self.followup_ms, scope or ".")
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
        # files opened after a search
        if etype == "file_read" and self.held is not None:
            if t <= self.held.until:
                path = ev["file_path"]
                if path not in self.held.opened and len(self.held.opened) < FOLLOWUP_MAX:
                    self.held.opened.append(path)
                    self.updates[self.held.event_id] = list(self.held.opened)
                    out.append(self._ref(self.held.scope, path, "search_then_read", t - self.held.t, t))
            else:
                self.held = None
        kind = FOCUS_TYPES.get(etype)
        if kind is None:
            return out
        path = ev["file_path"]
        if ev.get("bulk"):
            return out
        # cross-file references
        if self.prev_read is not None and self.prev_read[0] != path and t - self.prev_read[1] <= REFERENCE_WINDOW_MS:
            rtype = "sequential_access" if kind == "read" else "read_then_edit"
            out.append(self._ref(self.prev_read[0], path, rtype, t - self.prev_read[1], t))
        if kind == "read":
            self.prev_read = (path, t)
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
                }
            )
        self.focus = path
        return out

    @staticmethod
    def _ref(src: str, dst: str, rtype: str, interval: float, t: float) -> dict[str, Any]:
        return {
            "event_type": "cross_file_reference",
            "timestamp": t + 0.002,
            "source_file": src,
            "target_file": dst,
            "reference_type": rtype,
            "interval_ms": max(interval, 0.0),
        }
