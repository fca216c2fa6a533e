"""The tray icon: the state at a glance (recording, paused, warning) and a small menu.

pystray is imported only here and only when a display exists (it raises at import
without one). Icons are drawn with Pillow at run time, so there are no binary assets.
The icon and menu are refreshed from the same health verdict the API serves, so the tray
can only say "recording" when rows are being written.

On X11 without AppIndicator/GTK (pystray's xorg backend) there is no native menu: a left
click then opens the same menu as a small Tk popup, so every action stays reachable.

The screen recorder shows here too (its menu line and a badge on the icon while capture is
on); its state is read through the daemon, which is the one place that talks to it.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from .runtime import RunFiles

if TYPE_CHECKING:
    from PIL.Image import Image

    from filegram.config import Home

    from .web.http import WebServer

log = logging.getLogger(__name__)

REFRESH_SECONDS = 3.0

COLORS = {
    "recording": (200, 40, 40),
    "paused": (120, 120, 120),
    "warning": (235, 160, 0),
    "starting": (70, 120, 200),
}


def draw_icon(state: str, size: int = 64) -> Image:
    """A 64x64 RGBA icon: a red record dot, grey pause bars or an amber warning sign."""
    from PIL import Image, ImageDraw

    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    s = size
    d.rounded_rectangle((1, 1, s - 2, s - 2), radius=s // 6, fill=(245, 245, 245, 255),
                        outline=(60, 60, 60, 255), width=max(1, s // 32))
    color = COLORS.get(state, COLORS["starting"])
    if state == "paused":
        w = s // 7
        d.rectangle((s * 0.30, s * 0.25, s * 0.30 + w, s * 0.75), fill=color)
        d.rectangle((s * 0.70 - w, s * 0.25, s * 0.70, s * 0.75), fill=color)
    elif state == "warning":
        d.polygon([(s * 0.5, s * 0.14), (s * 0.88, s * 0.84), (s * 0.12, s * 0.84)], fill=color)
        d.rectangle((s * 0.47, s * 0.36, s * 0.53, s * 0.64), fill=(30, 30, 30))
        d.rectangle((s * 0.47, s * 0.70, s * 0.53, s * 0.76), fill=(30, 30, 30))
    else:
        d.ellipse((s * 0.22, s * 0.22, s * 0.78, s * 0.78), fill=color)
    return img


def draw_screen_badge(icon: Image) -> Image:
    """The tray icon with a small screen mark in its corner: shown while capture is on."""
    from PIL import ImageDraw

    img = icon.copy()
    s = img.width
    d = ImageDraw.Draw(img)
    box = (s * 0.56, s * 0.60, s * 0.96, s * 0.90)
    d.rectangle(box, fill=(30, 110, 220, 255), outline=(255, 255, 255, 255), width=max(1, s // 32))
    d.rectangle((s * 0.70, s * 0.90, s * 0.82, s * 0.96), fill=(30, 110, 220, 255))
    return img


def tray_label(enabled: bool) -> str:
    """The tray's menu line: the user always sees whether the screen is being recorded."""
    return "Screen capture: ON (click to stop)" if enabled else "Screen capture: off (click to start)"


class ScreenToggle(Protocol):
    """Anything with the screen recorder's on/off switch (the ScreenRecorder itself)."""

    @property
    def enabled(self) -> bool: ...
    def set_enabled(self, on: bool) -> None: ...


def tray_menu_item(rec: ScreenToggle) -> tuple[Callable[[], str], Callable[[], None]]:
    """(label, action) for MenuActions.items(): shows and flips the screen recorder's toggle."""

    def label() -> str:
        return tray_label(rec.enabled)

    def toggle() -> None:
        rec.set_enabled(not rec.enabled)

    return label, toggle


class TrayHost(Protocol):
    """What the tray needs from the daemon (daemon.service.Daemon)."""

    paused: bool
    tray_state: str
    files: RunFiles
    stop_event: threading.Event
    home: Home
    api: WebServer | None

    def health(self) -> dict[str, Any]: ...
    def pause(self) -> dict[str, Any]: ...
    def resume(self) -> dict[str, Any]: ...
    def request_stop(self) -> None: ...
    def on_stop(self, callback: Callable[[], None]) -> None: ...
    def write_profile_page(self) -> Path: ...
    def open_path(self, target: str | Path) -> None: ...
    def screen_available(self) -> bool: ...
    def screen_enabled(self) -> bool: ...
    def set_screen_enabled(self, on: bool) -> None: ...


def display_available() -> bool:
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


class MenuActions:
    """The menu's actions, kept apart from pystray so they read (and test) plainly."""

    def __init__(self, daemon: TrayHost):
        self.daemon = daemon

    def status_text(self) -> str:
        return self.daemon.health().get("status_line", "")

    def toggle_pause(self) -> None:
        if self.daemon.paused:
            self.daemon.resume()
        else:
            self.daemon.pause()

    def pause_label(self) -> str:
        return "Resume recording" if self.daemon.paused else "Pause recording"

    def open_profile(self) -> None:
        """The dashboard when this build has one (signed in by a one-time URL), else a
        static profile page rendered into the run folder."""
        api = self.daemon.api
        if api is not None and api.web is not None:
            try:
                self.daemon.open_path(self.daemon.signin_url())
                return
            except Exception as exc:
                log.error("cannot open the dashboard: %s", exc)
        try:
            path = self.daemon.write_profile_page()
        except Exception as exc:
            log.error("cannot show the profile: %s", exc)
            return
        self.daemon.open_path(path.as_uri())

    def screen_label(self) -> str:
        return tray_label(self.daemon.screen_enabled())

    def toggle_screen(self) -> None:
        self.daemon.set_screen_enabled(not self.daemon.screen_enabled())

    def open_data_folder(self) -> None:
        self.daemon.open_path(self.daemon.home.root)

    def quit(self) -> None:
        self.daemon.request_stop()

    def _has_screen(self) -> bool:
        return bool(self.daemon.screen_available())

    def items(self) -> list[tuple[Callable[[], str] | str, Callable[[], None] | None]]:
        """(label, action) pairs; a None action is the disabled status line, "-" a separator."""
        return [
            (self.status_text, None),
            ("-", None),
            (self.pause_label, self.toggle_pause),
            *([(self.screen_label, self.toggle_screen)] if self._has_screen() else []),
            ("Open profile", self.open_profile),
            ("Open data folder", self.open_data_folder),
            ("-", None),
            ("Quit FileGram", self.quit),
        ]


def _text_of(label: Callable[[], str]) -> Callable[[Any], str]:
    return lambda _item: label()


def _action_of(action: Callable[[], None]) -> Callable[[], None]:
    # pystray counts an action's parameters, so hand it a plain zero-argument function.
    return lambda: action()


class Tray:
    def __init__(self, daemon: TrayHost):
        import pystray  # raises without a display

        self.pystray = pystray
        self.daemon = daemon
        self.actions = MenuActions(daemon)
        self.state = "starting"
        self._screen_on = False
        self._last_line = ""
        self.icon = pystray.Icon("filegram", draw_icon(self.state), "FileGram", menu=self._menu())
        self.native_menu = bool(getattr(self.icon, "HAS_MENU", True))
        if not self.native_menu:
            _listen_for_clicks(self.icon)
        self._stop = threading.Event()
        # pystray's xorg backend hands results of cross-thread calls through one shared
        # queue: two threads updating the icon at once can swap results and hang one of
        # them (seen with Quit racing a refresh). So one thread at a time touches the icon.
        self._icon_lock = threading.Lock()
        self._done = threading.Event()
        self._loop_thread: threading.Thread | None = None
        self._poster = _XorgPoster.attach(self.icon)

    def _menu(self) -> Any:
        ps = self.pystray
        entries = []
        for label, action in self.actions.items():
            if label == "-":
                entries.append(ps.Menu.SEPARATOR)
                continue
            text = _text_of(label) if callable(label) else label
            if action is None:
                entries.append(ps.MenuItem(text, None, enabled=False))
            else:
                entries.append(ps.MenuItem(text, _action_of(action)))
        # The default item is what a click does; on xorg (no native menus) it pops our menu.
        entries.append(ps.MenuItem("Menu", _action_of(self.popup_menu), default=True, visible=False))
        return ps.Menu(*entries)

    def refresh(self) -> None:
        h = self.daemon.health()
        if self._poster is not None:
            self._poster.post(lambda: (self._apply_unless_stopped(h), self._poster.dock_if_lost()))
            return
        with self._icon_lock:
            self._apply_unless_stopped(h)

    def _apply_unless_stopped(self, h: dict[str, Any]) -> None:
        if not self._stop.is_set():
            self._apply(h)

    def _apply(self, h: dict[str, Any]) -> None:
        state = h.get("state", "starting")
        line = h.get("status_line", "")
        screen_on = bool(self.daemon.screen_enabled())
        if state != self.state or screen_on != self._screen_on:
            self.state = state
            self._screen_on = screen_on
            img = draw_icon(state)
            if screen_on:
                img = draw_screen_badge(img)
            self.icon.icon = img
        if line != self._last_line:
            self._last_line = line
            self.icon.title = f"FileGram: {line}"
            try:
                self.icon.update_menu()
            except Exception:  # some backends cannot update a hidden menu
                pass
        self.daemon.tray_state = f"shown ({state})"

    def popup_menu(self) -> None:
        """A Tk popup for backends without native menus (X11 xorg)."""
        if self.native_menu:
            return
        try:
            import tkinter as tk
        except ImportError:
            log.warning("no native tray menu and no tkinter: click does nothing")
            return
        root = tk.Tk()
        root.withdraw()
        menu = tk.Menu(root, tearoff=0)
        for label, action in self.actions.items():
            if label == "-":
                menu.add_separator()
                continue
            text = label() if callable(label) else label
            if action is None:
                menu.add_command(label=text, state="disabled")
            else:
                menu.add_command(label=text, command=lambda a=action: (root.after(10, root.destroy), a()))
        menu.bind("<Unmap>", lambda _e: root.after(50, root.destroy))

        def close_on_stop() -> None:  # the daemon is stopping: never hold it up
            if self._stop.is_set():
                root.quit()
            else:
                root.after(200, close_on_stop)

        root.after(200, close_on_stop)
        x, y = root.winfo_pointerxy()
        try:
            menu.tk_popup(x, y)
            root.mainloop()
        finally:
            try:
                root.destroy()
            except tk.TclError:
                pass

    def _refresher(self) -> None:
        while not self._stop.wait(REFRESH_SECONDS):
            try:
                self.refresh()
            except Exception:
                log.exception("tray refresh failed")

    def run(self) -> None:
        """Block on the calling (main) thread until the daemon stops."""

        def setup(icon: Any) -> None:
            if self._poster is not None:
                self._poster.post(self._show)
            else:
                self._show()
            threading.Thread(target=self._refresher, name="tray-refresh", daemon=True).start()

        self.daemon.on_stop(self.stop)
        if self.daemon.stop_event.is_set():
            return
        self._loop_thread = threading.current_thread()
        try:
            self.icon.run(setup=setup)
        finally:
            self._done.set()
            if self._poster is not None:
                self._poster.close()

    def _show(self) -> None:
        h = self.daemon.health()
        with self._icon_lock:
            if self._stop.is_set():
                return
            self.icon.visible = True
            self._apply(h)

    def _stop_icon(self) -> None:
        with self._icon_lock:
            try:
                self.icon.stop()
            except Exception:
                log.exception("tray: could not stop the icon")

    def stop(self) -> None:
        self._stop.set()
        on_loop = self._loop_thread is None or threading.current_thread() is self._loop_thread
        if self._poster is None or on_loop or not self._poster.post(self._stop_icon):
            self._stop_icon()
        if on_loop:
            return
        if not self._done.wait(10.0):
            # The backend missed its own stop (xorg can lose the window's DestroyNotify):
            # closing its X connection ends the loop for sure, so the daemon can exit.
            log.warning("tray loop did not end on stop; closing its display connection")
            display = getattr(self.icon, "_display", None)
            if display is not None:
                try:
                    display.close()
                except Exception:
                    pass


class _XorgPoster:
    """Runs work on pystray's xorg loop thread, asked for over an X connection of our own.

    pystray's xorg backend runs a call from another thread by sending its loop a message
    on the icon's own X connection, flushing it from that thread, and waiting on one queue
    shared by every caller. Here the icon's connection is only ever used by its loop thread
    (python-xlib's locking between threads on one connection is where the tray's hangs were
    first looked for) and nobody waits for the loop: other threads post a callable and wake
    the loop with a ClientMessage sent through a second connection. The loop thread is
    also where the icon can be docked again (dock_if_lost). Any in-process code that waits
    for the X server while holding the GIL (Pillow's ImageGrab does) can still deadlock with
    the loop while it holds a server grab to dock: the daemon has none."""

    ATOM = "_FILEGRAM_TRAY_RUN"

    def __init__(self, icon: Any, display: Any, atom: int):
        import queue

        self.icon = icon
        self.display = display  # ours: used only under self.lock, never by the loop thread
        self.atom = atom
        self.jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self.lock = threading.Lock()
        self.closed = False

    @classmethod
    def attach(cls, icon: Any) -> _XorgPoster | None:
        """A poster for an xorg icon (None for the other backends, which are thread-safe)."""
        handlers = getattr(icon, "_message_handlers", None)
        window = getattr(icon, "_window", None)
        if type(icon).__module__ != "pystray._xorg" or handlers is None or window is None:
            return None
        try:
            from Xlib import X
            from Xlib.display import Display

            display = Display()
            atom = display.intern_atom(cls.ATOM)  # atoms are the server's: same id on every connection
        except Exception:
            log.warning("tray: no second X connection; updating the icon through pystray", exc_info=True)
            return None
        poster = cls(icon, display, atom)
        previous = handlers.get(X.ClientMessage)

        def on_client_message(event: Any) -> None:
            if event.client_type == atom:
                poster.run_jobs()
            elif previous is not None:
                previous(event)

        handlers[X.ClientMessage] = on_client_message
        return poster

    def post(self, job: Callable[[], None]) -> bool:
        """Queue job for the loop thread and wake it; False when the loop cannot be woken."""
        from Xlib import X
        from Xlib.protocol import event

        self.jobs.put(job)
        with self.lock:
            if self.closed:
                return False
            try:
                window = self.display.create_resource_object("window", self.icon._window.id)
                window.send_event(event.ClientMessage(type=X.ClientMessage, window=window, client_type=self.atom, data=(32, [0] * 5)),
                                  event_mask=X.NoEventMask)
                self.display.flush()
                return True
            except Exception:
                log.warning("tray: cannot wake the icon's loop", exc_info=True)
                return False

    def dock_if_lost(self) -> None:
        """On the loop thread: ask the tray to embed the icon again when it is not embedded.
        A panel that started after us, restarted, or took the first request while it was
        still starting (seen with trayer on a busy machine) otherwise never shows the icon:
        pystray docks only when it is shown or its image changes."""
        icon = self.icon
        if self.closed or not icon.visible:
            return
        try:
            if icon._window.query_tree().parent.id != icon._display.screen().root.id:
                return  # embedded
            icon._systray_manager = None
            icon._assert_docked()
        except AssertionError:
            pass  # no tray owns the selection yet: the next refresh asks again
        except Exception:
            log.debug("tray: cannot check the icon's dock", exc_info=True)

    def run_jobs(self) -> None:
        """On the loop thread: everything posted so far."""
        import queue

        while True:
            try:
                job = self.jobs.get_nowait()
            except queue.Empty:
                return
            try:
                job()
            except Exception:
                log.exception("tray update failed")

    def close(self) -> None:
        with self.lock:
            if self.closed:
                return
            self.closed = True
            try:
                self.display.close()
            except Exception:
                pass


def _listen_for_clicks(icon: Any) -> None:
    """pystray 0.19's xorg backend handles ButtonPress but never asks X for it, so a click
    on the icon does nothing; add the event mask to its window."""
    window = getattr(icon, "_window", None)
    display = getattr(icon, "_display", None)
    if window is None or display is None:
        return
    try:
        from Xlib import X

        window.change_attributes(event_mask=X.ExposureMask | X.StructureNotifyMask | X.ButtonPressMask)
        display.flush()
    except Exception:
        log.warning("tray: cannot listen for clicks on the icon", exc_info=True)


def run_tray(daemon: TrayHost) -> bool:
    """Show the tray until the daemon stops; False (headless, logged once) if impossible."""
    if not display_available():
        log.info("no display: running headless (no tray icon)")
        daemon.tray_state = "headless (no display)"
        return False
    try:
        tray = Tray(daemon)
    except Exception as exc:  # pystray raises at import/creation without a usable display
        log.info("tray unavailable, running headless: %s", exc)
        daemon.tray_state = f"headless ({type(exc).__name__})"
        return False
    log.info("tray icon shown (backend %s)", type(tray.icon).__module__)
    tray.run()
    daemon.tray_state = "closed"
    return True
