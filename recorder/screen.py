"""The screen recorder: a few cheap captures a minute, nothing private, linked to the trace.

One `tick()` is one capture attempt, called by the daemon's scheduler every
[screen].interval_seconds. Its order is the privacy order: is capture on at all; is
the user there (not idle, not locked); is an excluded window active or visible (decided
from the window list, before a pixel is read: an excluded window leaves nothing, not even
its title); only then grab each monitor with mss, compare a downscaled grey thumbnail with
the last stored frame's (cheap, and blind to a blinking caret), and store a frame only when
enough of the screen changed or when `force_after_seconds` passed without one. Frames are
stored downscaled as WebP, and the day's byte counter prunes the day's oldest frames once
it passes the budget. OCR (optional extra) reads the full-size capture in a background
thread at most once per `ocr_interval_seconds`; its text is redacted before it is stored.

screenpipe's top complaint was a tray saying "recording" while nothing was written:
`stats()` reports the time of the last stored frame, read from the database.

The active window also feeds the trace: a title naming a watched file becomes a file_read
(a folder in a file manager a file_browse) marked "source": "screen", unless the file
recorder already stored a read of it (see screen_actions).
"""

from __future__ import annotations

import io
import logging
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from filegram.privacy import PathFilter
from filegram.schema import TraceError
from filegram.store import Store, now_ms

from . import screen_store as ss
from .screen_actions import Seen, TitleMatcher, action_fields
from .screen_privacy import Exclusions, redact_screen_text
from .screen_window import ScreenState, Window, probe

log = logging.getLogger("filegram.recorder.screen")

__all__ = [
    "ScreenRecorder",
    "ScreenCapture",
    "frames_for_session",
    "is_enabled",
    "set_enabled",
    "tray_label",
    "tray_menu_item",
    "draw_screen_badge",
    "screen_text_for_session",
    "RESULTS",
]

ENABLED_STATE_KEY = "screen.enabled"
RESULTS = (
    "captured",
    "skipped-unchanged",
    "skipped-excluded",
    "skipped-idle",
    "skipped-disabled",
    "skipped-budget",
    "skipped-unavailable",
)
PIXEL_DELTA = 8  # grey levels a thumbnail cell must move to count as changed
ACTION_SETTLE_MS = 2_000.0  # wait this long so the file recorder's own read lands first
COVER_MS = 60_000.0  # a kernel-observed read this recent already covers the file


def frames_for_session(store: Store, session_id: str, *, with_image: bool = False) -> list[dict[str, Any]]:
    """Frames of one session in time order (for bench's Visual Grounding)."""
    return ss.frames_for_session(store, session_id, with_image=with_image)


def _section(config: Any, name: str) -> dict[str, Any]:
    from filegram.config import DEFAULTS

    merged = dict(DEFAULTS.get(name, {}))
    try:
        merged.update(config[name] or {})
    except (KeyError, TypeError):
        pass
    return merged


def is_enabled(store: Store, config: Any) -> bool:
    """The tray toggle (kept in the store) wins over the config's [screen] enabled."""
    value = store.get_state(ENABLED_STATE_KEY)
    return bool(value) if value is not None else bool(_section(config, "screen")["enabled"])


def set_enabled(store: Store, on: bool) -> None:
    store.set_state(ENABLED_STATE_KEY, bool(on))


def tray_label(enabled: bool) -> str:
    """The tray's menu line: the user always sees whether the screen is being recorded."""
    return "Screen capture: ON (click to stop)" if enabled else "Screen capture: off (click to start)"


def screen_text_for_session(store: Store, session_id: str, max_chars: int = 20_000) -> str:
    """Redacted screen text and window titles of a session (for memory's semantic channel)."""
    return ss.text_for_session(store, session_id, max_chars)


def draw_screen_badge(icon: Any) -> Any:
    """The tray icon with a small screen mark in its corner: shown while capture is on."""
    from PIL import ImageDraw

    img = icon.copy()
    s = img.width
    d = ImageDraw.Draw(img)
    box = (s * 0.56, s * 0.60, s * 0.96, s * 0.90)
    d.rectangle(box, fill=(30, 110, 220, 255), outline=(255, 255, 255, 255), width=max(1, s // 32))
    d.rectangle((s * 0.70, s * 0.90, s * 0.82, s * 0.96), fill=(30, 110, 220, 255))
    return img


def tray_menu_item(rec: ScreenRecorder) -> tuple[Callable[[], str], Callable[[], None]]:
    """(label, action) for the daemon tray's MenuActions.items(): shows and flips the toggle."""

    def label() -> str:
        return tray_label(rec.enabled)

    def toggle() -> None:
        rec.set_enabled(not rec.enabled)

    return label, toggle


def _mss() -> Any:
    import mss

    factory = getattr(mss, "MSS", None) or mss.mss
    return factory()


def _webp_ok() -> bool:
    from PIL import features

    try:
        return bool(features.check("webp"))
    except Exception:  # noqa: BLE001
        return False


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
        config: Any,
        *,
        home: Any = None,
        roots: list[Path | str] | None = None,
        session_provider: Callable[[], str | None] | None = None,
        window_probe: Any = None,
        scan_roots: bool | None = None,
    ):
        self.store = store
        self.config = config
        self.cfg = _section(config, "screen")
        rec = _section(config, "recorder")
        self.session_provider = session_provider
        self.exclusions = Exclusions(self.cfg["exclude_titles"])
        self.probe = window_probe if window_probe is not None else probe()
        ss.ensure_tables(store)
        home_root = Path(getattr(home, "root", home)) if home is not None else None
        root_list = list(roots) if roots is not None else list(rec.get("roots", []))
        root_list = [r for r in root_list if Path(r).expanduser().is_dir()]
        self.matcher: TitleMatcher | None = None
        if root_list and self.cfg["file_actions"]:
            try:
                pf = PathFilter.from_config(config)
            except (KeyError, TypeError):
                pf = PathFilter()
            self.matcher = TitleMatcher(root_list, pf, home_root, own_files=[str(store.path)],
                                        known_paths=self._known_paths, walk=scan_roots)
        self._idle_gap_ms = float(rec.get("idle_gap_minutes", 20.0)) * 60_000.0
        self._local = threading.local()
        self._lock = threading.RLock()
        self._thumbs: dict[int, Any] = {}
        self._last_frame_ms: dict[int, float] = {}
        self._seen_key: tuple[str, str] | None = None
        self._last_look: dict[tuple[str, str], float] = {}
        self._pending: list[tuple[Seen, str, float]] = []
        self._own_session: str | None = None
        self._own_last_ms = 0.0
        self._format = "webp" if _webp_ok() else "jpeg"
        self.action_settle_ms = ACTION_SETTLE_MS
        self._ocr_thread: Any = None
        self._active_day = ""
        self._active_ms = 0.0
        self._last_active_tick: float | None = None
        self._last_ocr_ms = float("-inf")
        self._ocr: bool | None = None
        self.counters: dict[str, int] = {r: 0 for r in RESULTS}
        self.counters.update(actions=0, covered=0, pruned=0, errors=0)
        self.last_result: dict[str, Any] | None = None
        self.last_reason = ""

    def _known_paths(self) -> list[str]:
        """The newest paths the store knows (the name index for screen-to-actions)."""
        from .screen_actions import INDEX_MAX_NAMES

        return [p for (p,) in self.store.conn.execute(
            "SELECT path FROM paths ORDER BY first_ms DESC LIMIT ?", (INDEX_MAX_NAMES,)
        )]

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
        if self._ocr is None:
            from . import screen_ocr

            self._ocr = bool(self.cfg["ocr"]) and screen_ocr.available()
        return self._ocr

    # -- one capture attempt --------------------------------------------------------------

    def tick(self) -> dict[str, Any]:
        with self._lock:
            cpu0, wall0 = time.process_time(), time.perf_counter()
            try:
                out = self._tick()
            except Exception as exc:
                self.counters["errors"] += 1
                log.exception("screen: capture failed")
                out = {"result": "skipped-unavailable", "reason": f"{type(exc).__name__}: {exc}",
                       "frame_id": None, "frames": []}
            out["cpu_ms"] = round((time.process_time() - cpu0) * 1000.0, 2)
            out["wall_ms"] = round((time.perf_counter() - wall0) * 1000.0, 2)
            self.counters[out["result"]] = self.counters.get(out["result"], 0) + 1
            self.last_result = out
            self.last_reason = out.get("reason") or ""
            return out

    def _done(self, result: str, reason: str = "", **extra: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"result": result, "reason": reason, "frame_id": None, "frames": [],
                               "ts": now_ms(), "actions": 0}
        out.update(extra)
        return out

    def _tick(self) -> dict[str, Any]:
        now = now_ms()
        if not self.enabled:
            self._pending.clear()
            return self._done("skipped-disabled", "screen capture is off")
        state: ScreenState = self.probe.look()
        if not state.available:
            return self._done("skipped-unavailable", state.reason)
        if state.locked:
            self._seen_key = None
            return self._done("skipped-idle", "screen locked")
        idle_after = float(self.cfg["idle_after_seconds"]) * 1000.0
        if idle_after > 0 and state.idle_ms is not None and state.idle_ms >= idle_after:
            self._seen_key = None
            return self._done("skipped-idle", f"no input for {state.idle_ms / 1000.0:.0f} s")
        self._count_active(now)
        active = state.active
        if self.exclusions.excluded(active):
            self._seen_key = None
            self._thumbs.clear()  # what comes after is compared afresh
            added = self._settle_actions(now)
            return self._done("skipped-excluded", "the active window matches an exclusion rule", actions=added)
        self._observe(active, now)
        added = self._settle_actions(now)
        self._maybe_close_own(now)
        window = {"title": redact_screen_text(active.title), "app": active.app} if active else None
        mons = self._grab_all(state, active, now)
        frames = [m["frame_id"] for m in mons if m.get("frame_id") is not None]
        if frames:
            result = "captured"
        elif any(m["result"] == "skipped-excluded" for m in mons):
            result = "skipped-excluded"
        elif any(m["result"] == "skipped-budget" for m in mons):
            result = "skipped-budget"
        elif mons:
            result = "skipped-unchanged"
        else:
            result = "skipped-unavailable"
        if frames:
            self._prune_today(now)
        return self._done(
            result,
            "" if result != "skipped-excluded" else "an excluded window is visible on the monitor",
            frame_id=frames[0] if frames else None,
            frames=frames,
            monitors=mons,
            window=window if result != "skipped-excluded" or frames else None,
            actions=added,
            forced=any(m.get("forced") for m in mons),
            ts=now,
        )

    # -- capture ------------------------------------------------------------------------

    def _sct(self) -> Any:
        sct = getattr(self._local, "sct", None)
        if sct is None:
            sct = self._local.sct = _mss()
        return sct

    def _grab_all(self, state: ScreenState, active: Window | None, now: float) -> list[dict[str, Any]]:
        from PIL import Image

        try:
            sct = self._sct()
            monitors = list(sct.monitors[1:]) or list(sct.monitors[:1])
        except Exception as exc:  # noqa: BLE001 - Wayland, no X server, lost connection
            self._local.sct = None
            return [{"monitor": 0, "result": "skipped-unavailable", "reason": f"mss: {exc}"}]
        out: list[dict[str, Any]] = []
        force_ms = float(self.cfg["force_after_seconds"]) * 1000.0
        threshold = float(self.cfg["change_threshold"])
        over_pace = self._over_pace(now)
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
                self._local.sct = None
                out.append({"monitor": i, "result": "skipped-unavailable", "reason": f"mss: {exc}"})
                continue
            img = Image.frombuffer("RGB", shot.size, shot.bgra, "raw", "BGRX", 0, 1)
            thumb = thumbnail(img)
            prev = self._thumbs.get(i)
            change = 1.0 if prev is None or prev.shape != thumb.shape else changed_fraction(prev, thumb)
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
        data, (w, h) = encode(img, int(self.cfg["max_width"]), int(self.cfg["quality"]), self._format)
        title = redact_screen_text(active.title) if active else None
        fid = ss.add_frame(
            self.store, ts=now, session_id=self._session(now, open_own=False), monitor=monitor,
            window_title=title, app=active.app if active else None, width=w, height=h,
            image=data, fmt=self._format, ocr_text=None, forced=forced, active_ms=self._active_ms,
        )
        ocr = False
        # A forced frame shows what the last one showed: its text would be a copy.
        if not forced and self.ocr_enabled and now - self._last_ocr_ms >= float(self.cfg["ocr_interval_seconds"]) * 1000.0:
            self._ocr_worker().submit(fid, img)  # full-size capture: small text stays legible
            self._last_ocr_ms = now
            ocr = True
        return fid, {"bytes": len(data), "ocr": ocr}

    def _ocr_worker(self) -> Any:
        if self._ocr_thread is None:
            from .screen_ocr import OcrWorker

            def store_text(fid: int, text: str) -> None:
                ss.set_ocr_text(self.store, fid, text)

            def clean(raw: str) -> str:
                return redact_screen_text(self.exclusions.drop_lines(raw))

            self._ocr_thread = OcrWorker(store_text, clean)
        return self._ocr_thread

    def wait_ocr(self, timeout: float = 120.0) -> bool:
        """Until the frames handed to OCR have their text stored."""
        return True if self._ocr_thread is None else self._ocr_thread.wait(timeout)

    # -- budget -------------------------------------------------------------------------

    def _budget_bytes(self) -> int:
        return int(float(self.cfg["daily_budget_mb"]) * 1024 * 1024)

    def _count_active(self, now: float) -> None:
        """Time the user was there today (gaps longer than two intervals do not count)."""
        day = ss.day_of(now)
        if day != self._active_day:
            self._active_day = day
            self._active_ms = float(ss.day_usage(self.store, day).get("active_ms") or 0.0)
            self._last_active_tick = None
        if self._last_active_tick is not None:
            gap = now - self._last_active_tick
            self._active_ms += min(max(gap, 0.0), 2000.0 * float(self.cfg["interval_seconds"]))
        self._last_active_tick = now

    def _over_pace(self, now: float) -> bool:
        """The day's budget is spread over budget_active_hours of presence: while today's
        frames are ahead of that pace (half an hour of head start), new frames wait, so a
        busy morning cannot use up the afternoon's room."""
        hours = float(self.cfg["budget_active_hours"])
        budget = self._budget_bytes()
        if hours <= 0 or budget <= 0:
            return False
        allowed = budget * min(1.0, (self._active_ms / 3_600_000.0 + 0.5) / hours)
        return ss.day_usage(self.store, ss.day_of(now))["bytes"] >= allowed

    def _prune_today(self, now: float) -> None:
        day = ss.day_of(now)
        if ss.day_usage(self.store, day)["bytes"] > self._budget_bytes() > 0:
            self.counters["pruned"] += ss.prune(self.store, daily_budget_bytes=self._budget_bytes(), days=[day])

    def prune(self) -> int:
        """Apply the retention period and every day's budget; returns frames deleted."""
        n = ss.prune(self.store, daily_budget_bytes=self._budget_bytes(),
                     retention_days=float(self.cfg["retention_days"]))
        self.counters["pruned"] += n
        return n

    # -- screen to actions ----------------------------------------------------------------

    def _observe(self, active: Window | None, now: float) -> None:
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
        if len(self._last_look) > 10_000:
            self._last_look.clear()
        self._pending.append((seen, active.app if active else "", now))

    def _covered(self, seen: Seen, since: float) -> bool:
        field = "file_path" if seen.event_type == "file_read" else "directory_path"
        for ev in self.store.actions(types=[seen.event_type], since_ms=since):
            if ev.get(field) == seen.rel and ev.get("source") != "screen":
                return True
        return False

    def _settle_actions(self, now: float, *, force: bool = False) -> int:
        ready = [p for p in self._pending if force or now - p[2] >= self.action_settle_ms]
        if not ready:
            return 0
        self._pending = [p for p in self._pending if p not in ready]
        events = []
        for seen, app, t in ready:
            if self._covered(seen, t - COVER_MS):
                self.counters["covered"] += 1
                continue
            sid = self._session(t, open_own=True)
            ev = {
                "event_id": str(uuid.uuid4()),
                "event_type": seen.event_type,
                "timestamp": t,
                "session_id": sid,
                "profile_id": None,
                "message_id": None,
                "model_provider": None,
                "model_name": None,
            }
            listed = self.matcher.listed(seen.abs_path) if self.matcher and seen.event_type == "file_browse" else None
            ev.update(action_fields(seen, app, listed))
            events.append(ev)
        if not events:
            return 0
        try:
            added = self.store.add_actions(events)
        except TraceError:
            self.counters["errors"] += 1
            log.exception("screen: an action did not validate")
            return 0
        self.counters["actions"] += added
        if any(ev["session_id"] == self._own_session for ev in events):
            self._own_last_ms = max(ev["timestamp"] for ev in events)
        return added

    def flush(self, timeout: float = 120.0) -> int:
        """Store pending observations and pending OCR text now (on stop); returns the
        number of actions added."""
        with self._lock:
            added = self._settle_actions(now_ms(), force=True)
        self.wait_ocr(timeout)
        return added

    # -- sessions -----------------------------------------------------------------------

    def _session(self, t: float, *, open_own: bool) -> str | None:
        sid = None
        if self.session_provider is not None:
            try:
                sid = self.session_provider()
            except Exception:  # noqa: BLE001 - a recorder restarting between sessions
                sid = None
        if sid:
            if self._own_session is not None:
                self._close_own()
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

    def _close_own(self) -> None:
        if self._own_session is not None:
            self.store.close_session(self._own_session)
            self._own_session = None

    def _maybe_close_own(self, now: float) -> None:
        if self._own_session is not None and now - self._own_last_ms > self._idle_gap_ms:
            self._close_own()

    @property
    def session_id(self) -> str | None:
        return self._own_session

    def close(self, ocr_timeout: float = 5.0) -> None:
        """Store pending observations and close the screen's own session, if any. Text
        still being read after ocr_timeout seconds is given up (the frame stays)."""
        if self._ocr_thread is not None:
            self._ocr_thread.stop(ocr_timeout)
        with self._lock:
            self._settle_actions(now_ms(), force=True)
            self._close_own()
            sct = getattr(self._local, "sct", None)
            if sct is not None:
                try:
                    sct.close()
                except Exception:  # noqa: BLE001
                    pass
                self._local.sct = None
            self.probe.close()

    # -- health -------------------------------------------------------------------------

    def stats(self) -> dict[str, Any]:
        tot = ss.totals(self.store)
        today = ss.day_usage(self.store)
        return {
            "enabled": self.enabled,
            "last_frame_ms": tot["last_ms"],
            "frames": tot["frames"],
            "bytes": tot["bytes"],
            "today_bytes": today["bytes"],
            "today_frames": today["frames"],
            "today_pruned": today["pruned"],
            "daily_budget_bytes": self._budget_bytes(),
            "ocr": self.ocr_enabled,
            "ocr_pending": self._ocr_thread.pending if self._ocr_thread else 0,
            "ocr_done": self._ocr_thread.done if self._ocr_thread else 0,
            "ocr_dropped": self._ocr_thread.dropped if self._ocr_thread else 0,
            "ocr_last_ms": self._ocr_thread.last_ms if self._ocr_thread else None,
            "file_actions": self.matcher is not None,
            "format": self._format,
            "counters": dict(self.counters),
            "last_result": (self.last_result or {}).get("result"),
            "last_reason": self.last_reason,
            "own_session": self._own_session,
        }


# Name the daemon's first hook used; kept so both spellings work.
ScreenCapture = ScreenRecorder


# -- image helpers (module level: the benchmark times them one by one) ----------------------


def thumbnail(img: Any) -> Any:
    """A small grey copy for change detection: 4x4 cells (8x8 above 2K width)."""
    import numpy as np

    factor = 4 if img.width <= 2560 else 8
    return np.asarray(img.convert("L").reduce(factor), dtype=np.int16)


def changed_fraction(a: Any, b: Any) -> float:
    """Share of thumbnail cells whose grey level moved by more than PIXEL_DELTA."""
    import numpy as np

    return float(np.count_nonzero(np.abs(a - b) > PIXEL_DELTA)) / float(a.size or 1)


def encode(img: Any, max_width: int, quality: int, fmt: str = "webp") -> tuple[bytes, tuple[int, int]]:
    """Downscale to max_width (keeping the aspect) and compress."""
    from PIL import Image

    if max_width > 0 and img.width > max_width:
        h = max(1, round(img.height * max_width / img.width))
        img = img.resize((max_width, h), Image.Resampling.BOX)
    buf = io.BytesIO()
    quality = max(1, min(100, int(quality)))
    if fmt == "webp":
        img.save(buf, "WEBP", quality=quality, method=WEBP_METHOD)
    else:
        img.save(buf, "JPEG", quality=quality, optimize=True)
    return buf.getvalue(), img.size


WEBP_METHOD = 4


def settings_summary(cfg: Mapping[str, Any]) -> str:
    return (
        f"every {cfg['interval_seconds']} s, forced after {cfg['force_after_seconds']} s, "
        f"{cfg['max_width']} px wide, WebP q{cfg['quality']}, {cfg['daily_budget_mb']} MB/day"
    )
