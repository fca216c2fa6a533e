"""What the screen adds to the trace: a look at a watched file becomes a file_read (a
folder in a file manager a file_browse) marked "source": "screen".

A look waits `settle_ms` so that the file recorder's own read of the same file lands
first; a kernel-observed read in the last minute covers it, and nothing is added. The
actions go into the file recorder's open session; when there is none (the file recorder
is not running, or its session closed after an idle gap) the screen opens a session of
its own and closes it after the same idle gap.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from filegram.config import Config
from filegram.privacy import PathFilter
from filegram.schema import Action, TraceError
from filegram.store import Store

from .actions import INDEX_MAX_NAMES, Seen, TitleMatcher, action_fields
from .window import Window

log = logging.getLogger(__name__)

ACTION_SETTLE_MS = 2_000.0  # wait this long so the file recorder's own read lands first
COVER_MS = 60_000.0  # a kernel-observed read this recent already covers the file
MAX_REMEMBERED_LOOKS = 10_000

SessionProvider = Callable[[], str | None]


def title_matcher(store: Store, config: Config, roots: list[Path | str], home_root: Path | None,
                  *, walk: bool | None) -> TitleMatcher:
    """The matcher over the watched roots, fed with the paths the store knows."""

    def known_paths() -> list[str]:
        return [p for (p,) in store.conn.execute(
            "SELECT path FROM paths ORDER BY first_ms DESC LIMIT ?", (INDEX_MAX_NAMES,)
        )]

    try:
        pf = PathFilter.from_config(config)
    except (KeyError, TypeError):
        pf = PathFilter()
    return TitleMatcher(roots, pf, home_root, own_files=[str(store.path)],
                        known_paths=known_paths, walk=walk)


class ScreenTrace:
    """Turns what the active window shows into actions (matcher None: nothing is added,
    and the screen still links its frames to the file recorder's session)."""

    def __init__(self, store: Store, matcher: TitleMatcher | None,
                 session_provider: SessionProvider | None, idle_gap_ms: float):
        self.store = store
        self.matcher = matcher
        self.session_provider = session_provider
        self.idle_gap_ms = idle_gap_ms
        self.settle_ms = ACTION_SETTLE_MS
        self.added = 0
        self.covered = 0
        self.errors = 0
        self._seen_key: tuple[str, str] | None = None
        self._last_look: dict[tuple[str, str], float] = {}
        self._pending: list[tuple[Seen, str, float]] = []
        self._own_session: str | None = None
        self._own_last_ms = 0.0

    # -- looks --------------------------------------------------------------------------

    def look_away(self) -> None:
        """The user stopped looking (idle, locked, an excluded window): the next look at
        the same file is a new one."""
        self._seen_key = None

    def drop_pending(self) -> None:
        """Capture was turned off: looks not yet stored are forgotten."""
        self._pending.clear()

    def observe(self, active: Window | None, now: float) -> None:
        if self.matcher is None:
            return
        seen = self.matcher.match(active)
        if seen is None:
            self._seen_key = None
            return
        key = (seen.event_type, seen.rel)
        if key == self._seen_key:
            return  # the same look, still going on
        self._seen_key = key
        last = self._last_look.get(key)
        if last is not None and now - last < COVER_MS:
            return  # alt-tabbing back within a minute is the same reading, not a new one
        self._last_look[key] = now
        if len(self._last_look) > MAX_REMEMBERED_LOOKS:
            self._last_look.clear()
        self._pending.append((seen, active.app if active else "", now))

    def _covered(self, seen: Seen, since: float) -> bool:
        field = "file_path" if seen.event_type == "file_read" else "directory_path"
        for ev in self.store.actions(types=[seen.event_type], since_ms=since):
            if ev.get(field) == seen.rel and ev.get("source") != "screen":
                return True
        return False

    def settle(self, now: float, *, force: bool = False) -> int:
        """Store the looks that have waited settle_ms (all, when forced); returns the
        number of actions added."""
        ready = [p for p in self._pending if force or now - p[2] >= self.settle_ms]
        if not ready:
            return 0
        self._pending = [p for p in self._pending if p not in ready]
        events = []
        for seen, app, t in ready:
            if self._covered(seen, t - COVER_MS):
                self.covered += 1
                continue
            sid = self.session_for(t, open_own=True)
            assert sid is not None  # open_own: there is always one
            listed = self.matcher.listed(seen.abs_path) if self.matcher and seen.event_type == "file_browse" else None
            action = Action(seen.event_type, sid, t, action_fields(seen, app, listed))
            events.append(action.to_event())
        if not events:
            return 0
        try:
            added = self.store.add_actions(events)
        except TraceError:
            self.errors += 1
            log.exception("screen: an action did not validate")
            return 0
        self.added += added
        if any(ev["session_id"] == self._own_session for ev in events):
            self._own_last_ms = max(ev["timestamp"] for ev in events)
        return added

    # -- sessions -----------------------------------------------------------------------

    def session_for(self, t: float, *, open_own: bool) -> str | None:
        """The file recorder's open session; else the screen's own (opened now if asked)."""
        sid = None
        if self.session_provider is not None:
            try:
                sid = self.session_provider()
            except Exception:  # noqa: BLE001 - a recorder restarting between sessions
                sid = None
        if sid:
            if self._own_session is not None:
                self.close_own()
            return sid
        if self._own_session is None and open_own:
            self._own_session = self.store.open_session(
                source="screen", started_ms=t, metadata={"source": "screen"}
            )
            self._own_last_ms = t
            with self.store.transaction() as conn:  # frames of this look, taken just before
                conn.execute(
                    "UPDATE frames SET session_id = ? WHERE session_id IS NULL AND ts >= ?",
                    (self._own_session, t),
                )
        return self._own_session

    def close_own(self) -> None:
        if self._own_session is not None:
            self.store.close_session(self._own_session)
            self._own_session = None

    def close_own_if_idle(self, now: float) -> None:
        if self._own_session is not None and now - self._own_last_ms > self.idle_gap_ms:
            self.close_own()

    @property
    def own_session(self) -> str | None:
        return self._own_session
