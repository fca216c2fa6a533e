"""The screen recorder: a few cheap captures a minute, nothing private, linked to the trace.

One `tick()` is one capture attempt, called by the daemon's scheduler every
[screen].interval_seconds. Its order is the privacy order: is capture on at all; is
the user there (not idle, not locked); is an excluded window active or visible (decided
from the window list, before a pixel is read: an excluded window leaves nothing, not even
its title); only then grab each monitor with mss, compare a downscaled grey thumbnail with
the last stored frame's (cheap, and blind to a blinking caret), and store a frame only when
enough of the screen changed or when `force_after_seconds` passed without one. Frames are
stored downscaled as WebP, and the day's byte counter prunes the day's oldest frames once
it passes the budget (see budget). OCR (optional extra) reads the full-size capture in a
background thread at most once per `ocr_interval_seconds`; its text is redacted before it
is stored.

screenpipe's top complaint was a tray saying "recording" while nothing was written:
`stats()` reports the time of the last stored frame, read from the database.

The active window also feeds the trace: a title naming a watched file becomes a file_read
(a folder in a file manager a file_browse) marked "source": "screen", unless the file
recorder already stored a read of it (see trace and actions).
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Any

from filegram.config import Config
from filegram.store import Store, now_ms

from ..settings import HomeLike, home_root, section
from . import image
from . import store as frames
from .actions import TitleMatcher
from .budget import DailyBudget
from .ocr import OcrWorker
from .perthread import PerThread
from .privacy import Exclusions, redact_screen_text
from .settings import is_enabled, screen_settings, set_enabled
from .trace import ScreenTrace, SessionProvider, title_matcher
from .window import ScreenState, Window, WindowProbe, probe

log = logging.getLogger(__name__)

__all__ = ["ScreenRecorder", "ScreenCapture", "RESULTS"]

RESULTS = (
    "captured",
    "skipped-unchanged",
    "skipped-excluded",
    "skipped-idle",
    "skipped-disabled",
    "skipped-budget",
    "skipped-unavailable",
)


class ScreenRecorder:
    """Captures screen frames into the store on each `tick()`; see the module docstring.

    roots: watched folders for screen-to-actions (default [recorder] roots);
    session_provider: returns the file recorder's open session id (or None);
    scan_roots: walk the roots for file names (default: only where the file recorder
    cannot see folder listings, since on Linux inotify would report the walk as browsing).
    """

    def __init__(
        self,
        store: Store,
        config: Config,
        *,
        home: HomeLike | None = None,
        roots: list[Path | str] | None = None,
        session_provider: SessionProvider | None = None,
        window_probe: WindowProbe | None = None,
        scan_roots: bool | None = None,
    ):
        self.store = store
        self.config = config
        self.cfg = screen_settings(config)
        rec = section(config, "recorder")
        self.exclusions = Exclusions(self.cfg["exclude_titles"])
        self.probe = window_probe if window_probe is not None else probe()
        frames.ensure_tables(store)
        root_list = list(roots) if roots is not None else list(rec.get("roots", []))
        root_list = [r for r in root_list if Path(r).expanduser().is_dir()]
        matcher = None
        if root_list and self.cfg["file_actions"]:
            matcher = title_matcher(store, config, root_list, home_root(home), walk=scan_roots)
        self.trace = ScreenTrace(store, matcher, session_provider,
                                 idle_gap_ms=float(rec.get("idle_gap_minutes", 20.0)) * 60_000.0)
        self.budget = DailyBudget(store, self.cfg)
        self._grabber = PerThread(image.open_grabber, image.close_grabber)
        self._lock = threading.RLock()
        self._thumbs: dict[int, Any] = {}
        self._last_frame_ms: dict[int, float] = {}
        self._format = "webp" if image.webp_supported() else "jpeg"
        self._ocr_worker: OcrWorker | None = None
        self._last_ocr_ms = float("-inf")
        self._ocr_on: bool | None = None
        self._results: dict[str, int] = {r: 0 for r in RESULTS}
        self._errors = 0
        self.last_result: dict[str, Any] | None = None
        self.last_reason = ""

    @property
    def matcher(self) -> TitleMatcher | None:
        return self.trace.matcher

    @property
    def action_settle_ms(self) -> float:
        """How long a look waits for the file recorder's own read of the file."""
        return self.trace.settle_ms

    @action_settle_ms.setter
    def action_settle_ms(self, ms: float) -> None:
        self.trace.settle_ms = ms

    @property
    def counters(self) -> dict[str, int]:
        """Tick results by kind, and what the trace and the budget did."""
        return {**self._results, "actions": self.trace.added, "covered": self.trace.covered,
                "pruned": self.budget.pruned, "errors": self._errors + self.trace.errors}

    # -- the toggle ---------------------------------------------------------------------

    @property
    def enabled(self) -> bool:
        return is_enabled(self.store, self.config)

    def set_enabled(self, on: bool) -> None:
        """Persisted in the store, so the tray's choice survives a restart."""
        with self._lock:
            set_enabled(self.store, on)
            if not on:
                self._thumbs.clear()
        log.info("screen capture %s", "enabled" if on else "disabled")

    @property
    def ocr_enabled(self) -> bool:
        if self._ocr_on is None:
            from . import ocr

            self._ocr_on = bool(self.cfg["ocr"]) and ocr.available()
        return self._ocr_on

    # -- one capture attempt --------------------------------------------------------------

    def tick(self) -> dict[str, Any]:
        with self._lock:
            cpu0, wall0 = time.process_time(), time.perf_counter()
            try:
                out = self._tick()
            except Exception as exc:
                self._errors += 1
                log.exception("screen: capture failed")
                out = {"result": "skipped-unavailable", "reason": f"{type(exc).__name__}: {exc}",
                       "frame_id": None, "frames": []}
            out["cpu_ms"] = round((time.process_time() - cpu0) * 1000.0, 2)
            out["wall_ms"] = round((time.perf_counter() - wall0) * 1000.0, 2)
            self._results[out["result"]] = self._results.get(out["result"], 0) + 1
            self.last_result = out
            self.last_reason = out.get("reason") or ""
            return out

    @staticmethod
    def _done(result: str, reason: str = "", **extra: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"result": result, "reason": reason, "frame_id": None, "frames": [],
                               "ts": now_ms(), "actions": 0}
        out.update(extra)
        return out

    def _tick(self) -> dict[str, Any]:
        now = now_ms()
        if not self.enabled:
            self.trace.drop_pending()
            return self._done("skipped-disabled", "screen capture is off")
        state: ScreenState = self.probe.look()
        if not state.available:
            return self._done("skipped-unavailable", state.reason)
        if state.locked:
            self.trace.look_away()
            return self._done("skipped-idle", "screen locked")
        idle_after = float(self.cfg["idle_after_seconds"]) * 1000.0
        if idle_after > 0 and state.idle_ms is not None and state.idle_ms >= idle_after:
            self.trace.look_away()
            return self._done("skipped-idle", f"no input for {state.idle_ms / 1000.0:.0f} s")
        self.budget.count_presence(now)
        active = state.active
        if self.exclusions.excluded(active):
            self.trace.look_away()
            self._thumbs.clear()  # what comes after is compared afresh
            added = self.trace.settle(now)
            return self._done("skipped-excluded", "the active window matches an exclusion rule", actions=added)
        self.trace.observe(active, now)
        added = self.trace.settle(now)
        self.trace.close_own_if_idle(now)
        window = {"title": redact_screen_text(active.title), "app": active.app} if active else None
        mons = self._grab_all(state, active, now)
        frame_ids = [m["frame_id"] for m in mons if m.get("frame_id") is not None]
        if frame_ids:
            result = "captured"
        elif any(m["result"] == "skipped-excluded" for m in mons):
            result = "skipped-excluded"
        elif any(m["result"] == "skipped-budget" for m in mons):
            result = "skipped-budget"
        elif mons:
            result = "skipped-unchanged"
        else:
            result = "skipped-unavailable"
        if frame_ids:
            self.budget.prune_today(now)
        return self._done(
            result,
            "" if result != "skipped-excluded" else "an excluded window is visible on the monitor",
            frame_id=frame_ids[0] if frame_ids else None,
            frames=frame_ids,
            monitors=mons,
            window=window if result != "skipped-excluded" or frame_ids else None,
            actions=added,
            forced=any(m.get("forced") for m in mons),
            ts=now,
        )

    # -- capture ------------------------------------------------------------------------

    def _grab_all(self, state: ScreenState, active: Window | None, now: float) -> list[dict[str, Any]]:
        try:
            sct = self._grabber.get()
            monitors = list(sct.monitors[1:]) or list(sct.monitors[:1])
        except Exception as exc:  # noqa: BLE001 - Wayland, no X server, lost connection
            self._grabber.drop()
            return [{"monitor": 0, "result": "skipped-unavailable", "reason": f"mss: {exc}"}]
        out: list[dict[str, Any]] = []
        force_ms = float(self.cfg["force_after_seconds"]) * 1000.0
        threshold = float(self.cfg["change_threshold"])
        over_pace = self.budget.over_pace(now)
        for i, mon in enumerate(monitors, 1):
            if self.exclusions.excluded_on(state.visible, mon):
                self._thumbs.pop(i, None)
                out.append({"monitor": i, "result": "skipped-excluded"})
                continue
            if over_pace:  # ahead of the budget's pace: not even a grab
                out.append({"monitor": i, "result": "skipped-budget"})
                continue
            try:
                shot = sct.grab(mon)
            except Exception as exc:  # noqa: BLE001
                self._grabber.drop()
                out.append({"monitor": i, "result": "skipped-unavailable", "reason": f"mss: {exc}"})
                continue
            img = image.to_image(shot)
            thumb = image.thumbnail(img)
            prev = self._thumbs.get(i)
            change = 1.0 if prev is None or prev.shape != thumb.shape else image.changed_fraction(prev, thumb)
            forced = False
            if change < threshold:
                if force_ms <= 0 or now - self._last_frame_ms.get(i, 0.0) < force_ms:
                    out.append({"monitor": i, "result": "skipped-unchanged", "change": round(change, 5)})
                    continue
                forced = True
            fid, info = self._store_frame(img, i, active, now, forced)
            self._thumbs[i] = thumb
            self._last_frame_ms[i] = now
            out.append({"monitor": i, "result": "captured", "frame_id": fid, "forced": forced,
                        "change": round(change, 5), **info})
        return out

    def _store_frame(self, img: Any, monitor: int, active: Window | None, now: float,
                     forced: bool) -> tuple[int, dict[str, Any]]:
        data, (w, h) = image.encode(img, int(self.cfg["max_width"]), int(self.cfg["quality"]), self._format)
        title = redact_screen_text(active.title) if active else None
        fid = frames.add_frame(
            self.store, ts=now, session_id=self.trace.session_for(now, open_own=False), monitor=monitor,
            window_title=title, app=active.app if active else None, width=w, height=h,
            image=data, fmt=self._format, ocr_text=None, forced=forced, active_ms=self.budget.active_ms,
        )
        ocr = False
        # A forced frame shows what the last one showed: its text would be a copy.
        if not forced and self.ocr_enabled and now - self._last_ocr_ms >= float(self.cfg["ocr_interval_seconds"]) * 1000.0:
            self._ocr_reader().submit(fid, img)  # full-size capture: small text stays legible
            self._last_ocr_ms = now
            ocr = True
        return fid, {"bytes": len(data), "ocr": ocr}

    def _ocr_reader(self) -> OcrWorker:
        if self._ocr_worker is None:

            def store_text(fid: int, text: str) -> None:
                frames.set_ocr_text(self.store, fid, text)

            def clean(raw: str) -> str:
                return redact_screen_text(self.exclusions.drop_lines(raw))

            self._ocr_worker = OcrWorker(store_text, clean)
        return self._ocr_worker

    def wait_ocr(self, timeout: float = 120.0) -> bool:
        """Until the frames handed to OCR have their text stored."""
        return True if self._ocr_worker is None else self._ocr_worker.wait(timeout)

    def prune(self) -> int:
        """Apply the retention period and every day's budget; returns frames deleted."""
        return self.budget.prune()

    # -- stopping -------------------------------------------------------------------------

    def flush(self, timeout: float = 120.0) -> int:
        """Store pending observations and pending OCR text now (on stop); returns the
        number of actions added."""
        with self._lock:
            added = self.trace.settle(now_ms(), force=True)
        self.wait_ocr(timeout)
        return added

    @property
    def session_id(self) -> str | None:
        """The screen's own session, open while the file recorder has none."""
        return self.trace.own_session

    def close(self, ocr_timeout: float = 5.0) -> None:
        """Store pending observations and close the screen's own session, if any. Text
        not yet begun after ocr_timeout seconds is given up (the frame stays); a frame being
        read then is finished first (OcrWorker.stop)."""
        if self._ocr_worker is not None:
            self._ocr_worker.stop(ocr_timeout)
        with self._lock:
            self.trace.settle(now_ms(), force=True)
            self.trace.close_own()
            self._grabber.close()
            self.probe.close()

    # -- health -------------------------------------------------------------------------

    def stats(self) -> dict[str, Any]:
        tot = frames.totals(self.store)
        today = frames.day_usage(self.store)
        ocr = self._ocr_worker
        return {
            "enabled": self.enabled,
            "last_frame_ms": tot["last_ms"],
            "frames": tot["frames"],
            "bytes": tot["bytes"],
            "today_bytes": today["bytes"],
            "today_frames": today["frames"],
            "today_pruned": today["pruned"],
            "daily_budget_bytes": self.budget.bytes_per_day,
            "ocr": self.ocr_enabled,
            "ocr_pending": ocr.pending if ocr else 0,
            "ocr_done": ocr.done if ocr else 0,
            "ocr_dropped": ocr.dropped if ocr else 0,
            "ocr_last_ms": ocr.last_ms if ocr else None,
            "file_actions": self.trace.matcher is not None,
            "format": self._format,
            "counters": self.counters,
            "last_result": (self.last_result or {}).get("result"),
            "last_reason": self.last_reason,
            "own_session": self.trace.own_session,
        }


# Name the daemon's first hook used; kept so both spellings work.
ScreenCapture = ScreenRecorder
