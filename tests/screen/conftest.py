"""A real X server (Xvfb) and real windows for the screen recorder's tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fg_helpers import xvfb

WINDOW_APP = Path(__file__).parent / "window_app.py"


class XServer:
    def __init__(self, display: str, proc: subprocess.Popen):
        self.display = display
        self.proc = proc
        self._xlib = None

    def conn(self):  # noqa: ANN201
        if self._xlib is None:
            from Xlib import display

            self._xlib = display.Display(self.display)
        return self._xlib

    def poke(self) -> None:
        """Real input through XTEST: the user is active (resets the idle timer)."""
        from Xlib import X
        from Xlib.ext import xtest

        d = self.conn()
        xtest.fake_input(d, X.MotionNotify, x=3, y=3)
        xtest.fake_input(d, X.MotionNotify, x=1000, y=760)
        d.sync()

    def set_active(self, wid: int | None) -> None:  # 0: the desktop
        """Set _NET_ACTIVE_WINDOW on the root, as an EWMH window manager does."""
        from Xlib import X, Xatom

        d = self.conn()
        root = d.screen().root
        atom = d.intern_atom("_NET_ACTIVE_WINDOW")
        if wid is None:
            root.delete_property(atom)
        elif wid == 0:
            root.change_property(atom, Xatom.WINDOW, 32, [0], X.PropModeReplace)
        else:
            # a window manager names the client window: Tk's titled wrapper around its widget
            win = d.create_resource_object("window", wid)
            while win.get_wm_name() is None:
                win = win.query_tree().parent
            root.change_property(atom, Xatom.WINDOW, 32, [win.id], X.PropModeReplace)
        d.sync()


    def client(self, wid: int) -> int:
        """The titled client window a window manager would list for a Tk window."""
        d = self.conn()
        win = d.create_resource_object("window", wid)
        while win.get_wm_name() is None:
            win = win.query_tree().parent
        return win.id

    def set_client_list(self, wids: list[int] | None) -> None:
        """Set _NET_CLIENT_LIST_STACKING (bottom to top), as an EWMH window manager does."""
        from Xlib import X, Xatom

        d = self.conn()
        root = d.screen().root
        atom = d.intern_atom("_NET_CLIENT_LIST_STACKING")
        if wids is None:
            root.delete_property(atom)
        else:
            root.change_property(atom, Xatom.WINDOW, 32, [self.client(w) for w in wids], X.PropModeReplace)
        d.sync()

    def set_hidden(self, wid: int, hidden: bool) -> None:
        """_NET_WM_STATE_HIDDEN: what a window manager sets on a minimised window."""
        from Xlib import X, Xatom

        d = self.conn()
        win = d.create_resource_object("window", self.client(wid))
        state = [d.intern_atom("_NET_WM_STATE_HIDDEN")] if hidden else []
        win.change_property(d.intern_atom("_NET_WM_STATE"), Xatom.ATOM, 32, state, X.PropModeReplace)
        d.sync()


class AppWindow:
    """A tkinter window in its own process; title and text change on command."""

    def __init__(self, display: str, title: str, text: str, klass: str = "Filegramtest",
                 geometry: str = "900x560+40+40"):
        env = dict(os.environ, DISPLAY=display)
        self.proc = subprocess.Popen(
            [sys.executable, str(WINDOW_APP), title, text, klass, geometry],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
        )
        self.wid = self._wait()

    def _wait(self) -> int:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line.startswith("ok "):
            raise RuntimeError(f"test window did not start: {line!r}")
        time.sleep(0.05)
        return int(line.split()[1])

    def send(self, cmd: str, arg: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{cmd} {arg.replace(chr(10), chr(92) + 'n')}\n")
        self.proc.stdin.flush()
        self._wait()

    def title(self, t: str) -> None:
        self.send("title", t)

    def text(self, t: str) -> None:
        self.send("text", t)

    def close(self) -> None:
        try:
            if self.proc.stdin:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
            self.proc.wait(timeout=5)
        except Exception:  # noqa: BLE001
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(scope="session")
def xserver() -> Iterator[XServer]:
    """One Xvfb for the session's screen tests (the shared helper: a free display number
    chosen by the server, stopped at the end also after failures)."""
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (Debian package xvfb): screen capture needs an X server")
    try:
        import tkinter  # noqa: F401
    except ImportError:
        pytest.skip("tkinter is not available: the tests draw their windows with it")
    with xvfb("1024x768x24") as (disp, proc):
        server = XServer(disp, proc)
        yield server
        if server._xlib is not None:
            server._xlib.close()


@pytest.fixture
def display(xserver: XServer, monkeypatch: pytest.MonkeyPatch) -> XServer:
    monkeypatch.setenv("DISPLAY", xserver.display)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("XDG_SESSION_TYPE", raising=False)
    monkeypatch.delenv("XDG_SESSION_ID", raising=False)
    xserver.set_active(None)
    xserver.set_client_list(None)
    xserver.poke()
    return xserver


@pytest.fixture
def window(display: XServer) -> Iterator:
    """Factory: open real windows; all are closed after the test."""
    opened: list[AppWindow] = []

    def make(title: str, text: str, **kw: str) -> AppWindow:
        w = AppWindow(display.display, title, text, **kw)
        opened.append(w)
        return w

    yield make
    for w in opened:
        w.close()


@pytest.fixture
def screen_config():  # noqa: ANN201
    """Capture on, OCR off (the OCR test turns it on), everything else default."""
    from filegram.config import Config

    cfg = Config()
    cfg["screen"]["enabled"] = True
    cfg["screen"]["ocr"] = False
    return cfg


def pytest_collection_modifyitems(config, items) -> None:  # noqa: ANN001
    """Tests that use the X server carry the project's `display` marker (-m display)."""
    for item in items:
        if "xserver" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.display)
