"""The disk budget of screen frames: so much per local day, paced over the hours the user
is actually there, so a busy morning cannot use up the afternoon's room.

The byte counts live in the store (screen_days, kept right by a trigger); this object only
keeps today's presence time between ticks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from filegram.store import Store

from . import store as frames
from .settings import daily_budget_bytes

HEAD_START_HOURS = 0.5  # frames allowed before any presence has been counted


class DailyBudget:
    """cfg is the screen recorder's live [screen] settings (a change applies at once)."""

    def __init__(self, store: Store, cfg: Mapping[str, Any]):
        self.store = store
        self.cfg = cfg
        self.active_ms = 0.0
        self.pruned = 0
        self._day = ""
        self._last_tick: float | None = None

    @property
    def bytes_per_day(self) -> int:
        return daily_budget_bytes(self.cfg)

    def count_presence(self, now: float) -> None:
        """Time the user was there today (gaps longer than two intervals do not count)."""
        day = frames.day_of(now)
        if day != self._day:
            self._day = day
            self.active_ms = float(frames.day_usage(self.store, day).get("active_ms") or 0.0)
            self._last_tick = None
        if self._last_tick is not None:
            gap = now - self._last_tick
            self.active_ms += min(max(gap, 0.0), 2000.0 * float(self.cfg["interval_seconds"]))
        self._last_tick = now

    def over_pace(self, now: float) -> bool:
        """Today's frames are ahead of the budget spread over budget_active_hours of
        presence (with half an hour of head start): new frames wait."""
        hours = float(self.cfg["budget_active_hours"])
        budget = self.bytes_per_day
        if hours <= 0 or budget <= 0:
            return False
        allowed = budget * min(1.0, (self.active_ms / 3_600_000.0 + HEAD_START_HOURS) / hours)
        return frames.day_usage(self.store, frames.day_of(now))["bytes"] >= allowed

    def prune_today(self, now: float) -> None:
        day = frames.day_of(now)
        if frames.day_usage(self.store, day)["bytes"] > self.bytes_per_day > 0:
            self.pruned += frames.prune(self.store, daily_budget_bytes=self.bytes_per_day, days=[day])

    def prune(self) -> int:
        """Apply the retention period and every day's budget; returns frames deleted."""
        n = frames.prune(self.store, daily_budget_bytes=self.bytes_per_day,
                         retention_days=float(self.cfg["retention_days"]))
        self.pruned += n
        return n
