"""Which windows are on screen, which one is active, and whether the user is there at all.

The privacy check needs this BEFORE a frame is grabbed: a password manager that is active
(or merely visible on a monitor) must stop the capture of that monitor, so nothing of it is
ever stored. On X11 everything comes from the X server through python-xlib (already
installed with pystray): EWMH properties (`_NET_ACTIVE_WINDOW`, `_NET_CLIENT_LIST_STACKING`,
`_NET_WM_NAME`, `_NET_WM_PID`) when a window manager sets them, and the plain window tree
otherwise (bare Xvfb, some tiling managers). Idle time and the screen saver come from the
MIT-SCREEN-SAVER extension; without it, an unmoved pointer stands in for "no input".

Windows: the foreground window's title and process (GetForegroundWindow, GetWindowText,
GetWindowThreadProcessId), the visible windows (EnumWindows, IsIconic, GetWindowRect),
idle time (GetLastInputInfo) and the lock screen (OpenInputDesktop fails) through ctypes;
written to the documented API, not run by CI. macOS gives the frontmost application
(NSWorkspace) and window titles and bounds only with the Screen Recording permission
(CGWindowListCopyWindowInfo, via pyobjc): not implemented, so `probe()` returns a probe
that reports no window and the recorder refuses to capture (privacy first: no exclusion
check, no frame). Wayland forbids both window listing and mss capture.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from .perthread import PerThread


@dataclass(frozen=True)
class Window:
    """A top-level window: title, application name and where it is on the screen.

    x, y, width, height are in the virtual screen's coordinates (the root window's, which
    mss uses for its monitors too); a width or height of 0 means the geometry is unknown.
    """

    title: str
    app: str
    pid: int | None = None
    x: int = 0
    y: int = 0
    width: int = 0
    height: int = 0
    wm_class: tuple[str, ...] = field(default_factory=tuple)

    def intersects(self, mon: dict[str, int]) -> bool:
        """Does the window cover part of this mss monitor (left, top, width, height)?"""
        if self.width <= 0 or self.height <= 0:
            return True  # unknown geometry: assume it is everywhere
        return not (
            self.x >= mon["left"] + mon["width"]
            or self.x + self.width <= mon["left"]
            or self.y >= mon["top"] + mon["height"]
            or self.y + self.height <= mon["top"]
        )


@dataclass
class ScreenState:
    """One look at the desktop, taken before any pixel is read."""

    available: bool
    reason: str = ""
    active: Window | None = None
    visible: list[Window] = field(default_factory=list)
    idle_ms: float | None = None
    locked: bool = False


def process_name(pid: int | None) -> str:
    if not pid:
        return ""
    try:
        import psutil

        return psutil.Process(pid).name()
    except Exception:  # noqa: BLE001 - gone, or not ours to inspect
        return ""


class WindowProbe(Protocol):
    """What the screen recorder asks of a platform: one look at the desktop per tick."""

    def look(self) -> ScreenState: ...

    def close(self) -> None: ...


class NoWindows:
    """The probe for platforms without a window API here: capture stays off."""

    def __init__(self, reason: str):
        self.reason = reason

    def look(self) -> ScreenState:
        return ScreenState(available=False, reason=self.reason)

    def close(self) -> None:
        pass


@dataclass
class XConnection:
    """One thread's X display connection and what it learnt about the server."""

    display: Any
    has_screensaver: bool
    atoms: dict[str, int] = field(default_factory=dict)

    def close(self) -> None:
        self.display.close()


class X11Probe:
    """Reads windows and idle state from an X server (one connection per thread)."""

    LOCKED_HINT_EVERY_S = 30.0

    def __init__(self, display_name: str | None = None):
        self.display_name = display_name or os.environ.get("DISPLAY")
        self._xconn = PerThread(self._open, XConnection.close)
        self._pointer: tuple[int, int] | None = None
        self._pointer_since = time.monotonic()
        self._locked_hint: tuple[float, bool] = (0.0, False)

    # -- connection ---------------------------------------------------------------------

    def _open(self) -> XConnection:
        from Xlib import display as xdisplay

        d = xdisplay.Display(self.display_name)
        d.set_error_handler(lambda *_a, **_k: None)  # a window closing mid-look is normal
        return XConnection(d, has_screensaver=d.has_extension("MIT-SCREEN-SAVER"))

    def _conn(self) -> Any:
        return self._xconn.get().display

    def _atom(self, name: str) -> int:
        atoms = self._xconn.get().atoms
        if name not in atoms:
            atoms[name] = self._conn().intern_atom(name)
        return atoms[name]

    def close(self) -> None:
        self._xconn.close()

    # -- look ---------------------------------------------------------------------------

    def look(self) -> ScreenState:
        try:
            d = self._conn()
        except Exception as exc:  # noqa: BLE001 - no server, bad DISPLAY, auth refused
            return ScreenState(available=False, reason=f"cannot open X display {self.display_name!r}: {exc}")
        try:
            root = d.screen().root
            visible = self._visible(d, root)
            active = self._active(d, root, visible)
            idle_ms, saver_on = self._idle(d, root)
            locked = saver_on or self._session_locked()
            return ScreenState(available=True, active=active, visible=visible, idle_ms=idle_ms, locked=locked)
        except Exception as exc:  # noqa: BLE001 - connection lost: reconnect next time
            self.close()
            return ScreenState(available=False, reason=f"X11 query failed: {type(exc).__name__}: {exc}")

    def _prop(self, win: Any, name: str) -> Any:
        from Xlib import X

        try:
            p = win.get_full_property(self._atom(name), X.AnyPropertyType)
        except Exception:  # noqa: BLE001 - BadWindow
            return None
        return p.value if p is not None else None

    def _window(self, d: Any, root: Any, win: Any) -> Window | None:
        """Title, app and absolute geometry of a window, or None if it has no title."""
        title = self._title(win)
        if title is None:
            return None
        pid_v = self._prop(win, "_NET_WM_PID")
        pid = int(pid_v[0]) if pid_v is not None and len(pid_v) else None
        try:
            wm_class = tuple(win.get_wm_class() or ())
        except Exception:  # noqa: BLE001
            wm_class = ()
        app = process_name(pid) or (wm_class[1] if len(wm_class) > 1 else (wm_class[0] if wm_class else ""))
        x = y = w = h = 0
        try:
            g = win.get_geometry()
            t = win.translate_coords(root, 0, 0)
            x, y, w, h = -t.x, -t.y, g.width, g.height
        except Exception:  # noqa: BLE001
            pass
        return Window(title=title, app=app, pid=pid, x=x, y=y, width=w, height=h, wm_class=wm_class)

    def _title(self, win: Any) -> str | None:
        v = self._prop(win, "_NET_WM_NAME")
        if v is not None:
            return v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)
        try:
            name = win.get_wm_name()
        except Exception:  # noqa: BLE001
            return None
        if name is None:
            return None
        return name.decode("latin-1") if isinstance(name, bytes) else str(name)

    def _named_child(self, win: Any, depth: int = 0) -> Any:
        """A window manager's frame holds the client window with the title: find it."""
        if self._title(win) is not None:
            return win
        if depth >= 2:
            return None
        try:
            children = win.query_tree().children
        except Exception:  # noqa: BLE001
            return None
        for c in reversed(children):
            found = self._named_child(c, depth + 1)
            if found is not None:
                return found
        return None

    def _visible(self, d: Any, root: Any) -> list[Window]:
        """Titled, mapped top-level windows, bottom to top."""
        from Xlib import X

        out: list[Window] = []
        ids = self._prop(root, "_NET_CLIENT_LIST_STACKING")
        if ids is None:
            ids = self._prop(root, "_NET_CLIENT_LIST")
        if ids is not None:
            hidden = self._atom("_NET_WM_STATE_HIDDEN")
            for wid in ids:
                win = d.create_resource_object("window", int(wid))
                try:
                    if win.get_attributes().map_state != X.IsViewable:
                        continue
                except Exception:  # noqa: BLE001
                    continue
                state = self._prop(win, "_NET_WM_STATE")
                if state is not None and hidden in list(state):
                    continue
                w = self._window(d, root, win)
                if w is not None:
                    out.append(w)
            return out
        for top in root.query_tree().children:
            try:
                if top.get_attributes().map_state != X.IsViewable:
                    continue
            except Exception:  # noqa: BLE001
                continue
            client = self._named_child(top)
            if client is None:
                continue
            w = self._window(d, root, client)
            if w is not None:
                out.append(w)
        return out

    def _active(self, d: Any, root: Any, visible: list[Window]) -> Window | None:
        v = self._prop(root, "_NET_ACTIVE_WINDOW")
        if v is not None:  # an EWMH window manager runs: its word is final
            if not len(v) or not int(v[0]):
                return None  # the desktop itself is focused
            win = d.create_resource_object("window", int(v[0]))
            named = self._named_child(win)
            return self._window(d, root, named) if named is not None else None
        try:
            focus = d.get_input_focus().focus
        except Exception:  # noqa: BLE001
            focus = None
        if focus is not None and not isinstance(focus, int) and focus.id != root.id:
            named = self._named_child(focus)
            if named is None:  # focus on an inner widget: climb to the titled ancestor
                cur = focus
                for _ in range(8):
                    try:
                        cur = cur.query_tree().parent
                    except Exception:  # noqa: BLE001
                        break
                    if cur is None or cur.id == root.id:
                        break
                    if self._title(cur) is not None:
                        named = cur
                        break
            if named is not None:
                w = self._window(d, root, named)
                if w is not None:
                    return w
        # No window manager and focus follows the pointer: the topmost window is it.
        return visible[-1] if visible else None

    def _idle(self, d: Any, root: Any) -> tuple[float | None, bool]:
        if self._xconn.get().has_screensaver:
            try:
                from Xlib.ext import screensaver

                info = root.screensaver_query_info()
                return float(info.idle), info.state == screensaver.StateOn
            except Exception:  # noqa: BLE001
                pass
        # Fallback: time since the pointer last moved.
        try:
            p = root.query_pointer()
            pos = (p.root_x, p.root_y)
        except Exception:  # noqa: BLE001
            return None, False
        now = time.monotonic()
        if pos != self._pointer:
            self._pointer = pos
            self._pointer_since = now
        return (now - self._pointer_since) * 1000.0, False

    def _session_locked(self) -> bool:
        """systemd-logind's LockedHint (set by GNOME, KDE, light-locker), checked rarely."""
        checked, value = self._locked_hint
        now = time.monotonic()
        if now - checked < self.LOCKED_HINT_EVERY_S:
            return value
        value = False
        sid = os.environ.get("XDG_SESSION_ID")
        exe = shutil.which("loginctl")
        if sid and exe:
            try:
                out = subprocess.run(
                    [exe, "show-session", sid, "-p", "LockedHint", "--value"],
                    capture_output=True, text=True, timeout=2,
                )
                value = out.stdout.strip() == "yes"
            except (OSError, subprocess.SubprocessError):
                value = False
        self._locked_hint = (now, value)
        return value


class Win32Probe:
    """Windows through user32 (ctypes, no extra dependency): the foreground window, the
    visible top-level windows with their rectangles, idle time and the lock screen.

    Written against the documented Win32 API but not run by this project's CI (Linux
    only): any failure makes the probe report itself unavailable, and capture stays off.
    """

    def __init__(self) -> None:
        import ctypes
        from ctypes import wintypes

        self.ctypes = ctypes
        self.wt = wt = wintypes
        u = self.user32 = ctypes.WinDLL("user32", use_last_error=True)  # type: ignore[attr-defined]
        k = self.kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]

        class LASTINPUTINFO(ctypes.Structure):
            _fields_ = [("cbSize", wt.UINT), ("dwTime", wt.DWORD)]

        self.LASTINPUTINFO = LASTINPUTINFO
        self.WNDENUMPROC = ctypes.WINFUNCTYPE(wt.BOOL, wt.HWND, wt.LPARAM)  # type: ignore[attr-defined]
        # Handles are pointer-sized: without these declarations ctypes truncates them to int.
        u.GetForegroundWindow.restype = wt.HWND
        u.GetForegroundWindow.argtypes = []
        u.GetWindowTextLengthW.argtypes = [wt.HWND]
        u.GetWindowTextW.argtypes = [wt.HWND, wt.LPWSTR, ctypes.c_int]
        u.GetClassNameW.argtypes = [wt.HWND, wt.LPWSTR, ctypes.c_int]
        u.GetWindowThreadProcessId.argtypes = [wt.HWND, ctypes.POINTER(wt.DWORD)]
        u.GetWindowThreadProcessId.restype = wt.DWORD
        u.GetWindowRect.argtypes = [wt.HWND, ctypes.POINTER(wt.RECT)]
        u.IsWindowVisible.argtypes = [wt.HWND]
        u.IsIconic.argtypes = [wt.HWND]
        u.EnumWindows.argtypes = [self.WNDENUMPROC, wt.LPARAM]
        u.GetLastInputInfo.argtypes = [ctypes.POINTER(LASTINPUTINFO)]
        u.OpenInputDesktop.argtypes = [wt.DWORD, wt.BOOL, wt.DWORD]
        u.OpenInputDesktop.restype = wt.HANDLE
        u.CloseDesktop.argtypes = [wt.HANDLE]
        k.GetTickCount.restype = wt.DWORD
        k.GetTickCount.argtypes = []

    def _title(self, hwnd: Any) -> str:
        n = self.user32.GetWindowTextLengthW(hwnd)
        if n <= 0:
            return ""
        buf = self.ctypes.create_unicode_buffer(n + 1)
        self.user32.GetWindowTextW(hwnd, buf, n + 1)
        return buf.value

    def _window(self, hwnd: Any) -> Window | None:
        title = self._title(hwnd)
        if not title:
            return None
        pid = self.wt.DWORD()
        self.user32.GetWindowThreadProcessId(hwnd, self.ctypes.byref(pid))
        rect = self.wt.RECT()
        x = y = w = h = 0
        if self.user32.GetWindowRect(hwnd, self.ctypes.byref(rect)):
            x, y, w, h = rect.left, rect.top, rect.right - rect.left, rect.bottom - rect.top
        cls = self.ctypes.create_unicode_buffer(256)
        self.user32.GetClassNameW(hwnd, cls, 256)
        p = int(pid.value) or None
        return Window(title=title, app=process_name(p), pid=p, x=x, y=y, width=w, height=h,
                      wm_class=(cls.value,) if cls.value else ())

    def look(self) -> ScreenState:
        try:
            visible: list[Window] = []

            def each(hwnd: Any, _lparam: Any) -> bool:
                if hwnd and self.user32.IsWindowVisible(hwnd) and not self.user32.IsIconic(hwnd):
                    w = self._window(hwnd)
                    if w is not None:
                        visible.append(w)
                return True

            callback = self.WNDENUMPROC(each)  # kept referenced for the duration of the call
            self.user32.EnumWindows(callback, 0)
            visible.reverse()  # EnumWindows goes top to bottom; ScreenState lists bottom to top
            fg = self.user32.GetForegroundWindow()
            active = self._window(fg) if fg else None
            info = self.LASTINPUTINFO()
            info.cbSize = self.ctypes.sizeof(self.LASTINPUTINFO)
            idle_ms = None
            if self.user32.GetLastInputInfo(self.ctypes.byref(info)):
                idle_ms = float((self.kernel32.GetTickCount() - info.dwTime) & 0xFFFFFFFF)
            desk = self.user32.OpenInputDesktop(0, False, 0x0100)  # DESKTOP_SWITCHDESKTOP
            locked = not desk  # the secure desktop (lock screen) cannot be opened
            if desk:
                self.user32.CloseDesktop(desk)
            return ScreenState(available=True, active=active, visible=visible, idle_ms=idle_ms, locked=locked)
        except Exception as exc:  # noqa: BLE001 - unknown Windows build: capture stays off
            return ScreenState(available=False, reason=f"Windows window query failed: {type(exc).__name__}: {exc}")

    def close(self) -> None:
        pass


def probe(display_name: str | None = None) -> X11Probe | Win32Probe | NoWindows:
    """The window probe for this platform and session."""
    if sys.platform.startswith("linux") or "bsd" in sys.platform:
        wayland = os.environ.get("XDG_SESSION_TYPE") == "wayland" or (
            os.environ.get("WAYLAND_DISPLAY") and not os.environ.get("DISPLAY")
        )
        if wayland and display_name is None:
            return NoWindows("Wayland session: windows cannot be listed and mss cannot capture")
        if not (display_name or os.environ.get("DISPLAY")):
            return NoWindows("no X display (DISPLAY is not set)")
        return X11Probe(display_name)
    if sys.platform == "win32":
        try:
            return Win32Probe()
        except Exception as exc:  # noqa: BLE001
            return NoWindows(f"user32 is not available: {exc}")
    return NoWindows(f"window listing is not implemented on {sys.platform} yet")
