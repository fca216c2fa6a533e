"""The recorder's sessions: primary actions are cut into sessions at idle gaps, enriched
with what only a session knows (view counts, files opened after a search, context
switches and cross-file references, see derive) and handed to the writer.

A session closes after recorder.idle_gap_minutes without actions (memory encodes only
closed sessions), when the next action comes after such a gap, and when recording stops.
"""

from __future__ import annotations

import getpass
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from filegram.naming import OWNER_KEY_FIELD, owner_key
from filegram.store import Store

from .derive import Deriver
from .platforms import unavailable_types
from .writer import BatchWriter


def _owner_key() -> str | None:
    """The digest of the account's login, None where the system names no user (a container
    without a passwd entry or $USER) or only a role (`root`, `user`: naming.owner_key)."""
    try:
        return owner_key(getpass.getuser())
    except (OSError, KeyError):
        return None


@dataclass
class SessionRouter:
    store: Store
    writer: BatchWriter
    write: Callable[[], None]  # stores what the writer holds (before a session closes)
    root_paths: Sequence[Path]
    profile_id: str | None
    task_id: str | None
    idle_gap_ms: float
    followup_ms: float
    polled: bool  # roots watched by polling (what the session cannot see)
    instance: str | None = None  # the recorder that opens these sessions (instances.Lease)
    run_dir: Path | None = None  # where live recorders hold their leases
    session_id: str | None = field(default=None, init=False)
    _deriver: Deriver | None = field(default=None, init=False)
    _last_action_ts: float | None = field(default=None, init=False)
    _started: float = field(default=0.0, init=False)

    @property
    def root(self) -> str:
        return str(self.root_paths[0])

    def close_crashed(self) -> list[str]:
        """A recorder killed mid-session (power loss, SIGKILL) leaves its session open;
        memory only encodes closed sessions, so close it at its last stored action, marked
        closed_reason "crash". Never a session whose recorder still runs: a session
        belongs to the recorder instance that opened it."""
        from .instances import instance_alive

        closed = []
        for s in self.store.sessions(closed=False, source="recorder"):
            if s.get("root") != self.root:
                continue
            if instance_alive(self.run_dir, (s.get("metadata") or {}).get("recorder_instance")):
                continue
            self.store.close_session(s["id"], reason="crash")
            closed.append(s["id"])
        return closed

    def open(self, started: float) -> None:
        self.session_id = self.store.open_session(
            source="recorder",
            started_ms=started,
            profile_id=self.profile_id,
            task_id=self.task_id,
            root=self.root,
            metadata={
                "roots": [str(r) for r in self.root_paths],
                "platform": sys.platform,
                "unavailable_types": unavailable_types(polled=self.polled),
                "recorder_instance": self.instance,
                # the person's login, as a digest only: memory reads a folder named after
                # them on a shared tree as their own root (filegram.naming.owner_key)
                OWNER_KEY_FIELD: _owner_key(),
            },
        )
        self._started = started
        self._deriver = Deriver(started, self.followup_ms)
        self._last_action_ts = None

    def route(self, actions: list[dict[str, Any]]) -> None:
        """Primary actions in time order into their session, derived facts added."""
        for a in actions:
            t = a["timestamp"]
            if self.session_id is None or (
                self._last_action_ts is not None and t - self._last_action_ts > self.idle_gap_ms
            ):
                self._rotate(t)
            elif self._last_action_ts is None and t - self._started > self.idle_gap_ms:
                # recording started long before anything happened: the session starts now
                self._started = t
                self.store.update_session(self.session_id, started_ms=t)
                if self._deriver is not None:
                    self._deriver.started = t
            assert self._deriver is not None and self.session_id is not None
            self.writer.add(self._deriver.feed([a]), self.session_id)
            self._last_action_ts = max(t, self._last_action_ts or t)

    def release(self, now: float, *, force: bool = False) -> None:
        """Searches whose follow-up window is over stop collecting reads; the reads they
        collected are handed to the writer."""
        if self._deriver is not None:
            self._deriver.release(now, force=force)
            self.writer.add_updates(self._deriver.take_updates())

    def _rotate(self, t: float) -> None:
        if self.session_id is not None and self._last_action_ts is not None:
            self.release(t, force=True)
            self.write()
            self.store.close_session(self.session_id, reason="idle")
            self.open(t)
        elif self.session_id is None:
            self.open(t)

    def close_if_idle(self, now: float, *, settled: bool) -> bool:
        """Close the session after an idle gap, once nothing is left to settle (True if
        it was closed now)."""
        if (
            self.session_id is not None
            and self._last_action_ts is not None
            and now - self._last_action_ts > self.idle_gap_ms
            and settled
        ):
            self.release(now, force=True)
            self.write()
            self.store.close_session(self.session_id, reason="idle")
            self.session_id = None
            self._deriver = None
            self._last_action_ts = None
            return True
        return False

    def close(self) -> None:
        if self.session_id is not None:
            self.store.close_session(self.session_id, reason="stopped")
