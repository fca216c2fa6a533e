"""The daemon's one contact with the screen recorder package: whether this build has it,
whether capture is on (the tray's toggle, kept in the store), the recorder the scheduler
ticks, and the frames the dashboard shows. Everything else in the daemon asks here, so the
tray and the pages never import the screen package themselves."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from filegram.config import Config, Home
from filegram.store import Store

log = logging.getLogger(__name__)

UNAVAILABLE_REASON = "Screen capture is not part of this build."
OFF_REASON = ("Screen capture is off. Turn it on from the tray or set [screen] enabled = true "
              "in the config.")


def screen_modules() -> tuple[ModuleType, ModuleType] | None:
    """(the screen recorder, its frame store) when this build has them."""
    try:
        from filegram.recorder import screen
        from filegram.recorder.screen import store as screen_store
    except ImportError:
        return None
    return screen, screen_store


def capture_enabled(store: Store, config: Config) -> bool:
    mods = screen_modules()
    return bool(mods and mods[0].is_enabled(store, config))


def set_capture_enabled(store: Store, on: bool) -> None:
    mods = screen_modules()
    if mods is not None:
        mods[0].set_enabled(store, on)


class ScreenFrames:
    """The stored frames, for the dashboard's gallery and text search (reads only)."""

    def __init__(self, store: Store, config: Config):
        self.store = store
        self.config = config
        self._mods = screen_modules()

    def state(self) -> dict[str, Any]:
        """{"available": False, "reason"} or {"available": True, "enabled", "frames"}."""
        if self._mods is None:
            return {"available": False, "reason": UNAVAILABLE_REASON}
        screen, frames = self._mods
        enabled = screen.is_enabled(self.store, self.config)
        totals = frames.totals(self.store)
        if not enabled and not totals.get("frames"):
            return {"available": False, "reason": OFF_REASON}
        return {"available": True, "enabled": enabled, "frames": totals.get("frames", 0)}

    def recent(self, limit: int) -> list[dict[str, Any]]:
        return self._mods[1].recent_frames(self.store, limit) if self._mods else []

    def search(self, query: str, limit: int) -> list[dict[str, Any]]:
        return self._mods[1].search_frames(self.store, query, limit) if self._mods else []

    def image(self, frame_id: int) -> dict[str, Any] | None:
        """The frame with its image bytes, or None."""
        if self._mods is None:
            return None
        frame: dict[str, Any] | None = self._mods[1].get_frame(self.store, frame_id, with_image=True)
        return frame


class ScreenLink:
    """The daemon's screen recorder: built on first use on its own store connection, linked
    to the file recorder's open session."""

    def __init__(self, config: Config, home: Home, roots: list[Path], state_store: Store,
                 open_store: Callable[[], Store], session_provider: Callable[[], str | None]):
        self.config = config
        self.home = home
        self.roots = roots
        self.state_store = state_store
        self.open_store = open_store
        self.session_provider = session_provider
        self._recorder: Any = None
        self._lock = threading.Lock()

    def available(self) -> bool:
        if screen_modules() is None:
            if self.config["screen"]["enabled"]:
                log.warning("screen capture is enabled but not available in this build")
            return False
        return True

    def enabled(self) -> bool:
        return capture_enabled(self.state_store, self.config)

    def set_enabled(self, on: bool) -> None:
        set_capture_enabled(self.state_store, on)

    def recorder(self) -> Any:
        """The screen recorder (its on/off switch lives in the store, so the tray's toggle
        survives restarts)."""
        if self._recorder is None:
            mods = screen_modules()
            if mods is None:
                raise RuntimeError(UNAVAILABLE_REASON)
            with self._lock:
                if self._recorder is None:
                    self._recorder = mods[0].ScreenCapture(
                        self.open_store(), self.config, home=self.home, roots=list(self.roots),
                        session_provider=self.session_provider,
                    )
        return self._recorder

    def tick(self) -> Any:
        return self.recorder().tick()

    def close(self) -> None:
        """Store pending observations and close the screen's own session."""
        if self._recorder is None:
            return
        try:
            self._recorder.close()
        except Exception:
            log.exception("screen recorder did not close cleanly")
        self._recorder = None
