"""The tray under a real X server (Xvfb) with a real system tray (trayer): icons per state,
every menu action invoked, the click menu, screenshots saved to test-artifacts/."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import pytest
from fg_helpers import stop_process, wait_until, xvfb

pytestmark = pytest.mark.display

XVFB = shutil.which("Xvfb")
TRAYER = shutil.which("trayer")


def _tray_owner(disp: str) -> int:
    """The window that owns the system tray selection (0: no tray yet)."""
    from Xlib import display

    d = display.Display(disp)
    try:
        owner = d.get_selection_owner(d.intern_atom(f"_NET_SYSTEM_TRAY_S{d.get_default_screen()}"))
        return owner if isinstance(owner, int) else owner.id  # X.NONE (0) comes back as an int
    finally:
        d.close()


@pytest.fixture(scope="module")
def xdisplay():
    """A private Xvfb with a light grey panel at the top holding a system tray, like a
    desktop's: trayer when it is installed, else our minimal tray (same protocol, docking
    only). Everything is stopped after the module, also when a test failed."""
    with xvfb("480x240x24", "-noreset") as (disp, _server):
        env = {**os.environ, "DISPLAY": disp}
        tray = mini = None
        try:
            if TRAYER and not os.environ.get("FILEGRAM_TEST_MINI_TRAY"):
                tray = subprocess.Popen(
                    [TRAYER, "--edge", "top", "--align", "right", "--widthtype", "pixel", "--width", "160",
                     "--height", "36", "--transparent", "false", "--tint", "0xdddddd", "--SetDockType", "true"],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                )
            else:
                from mini_tray import MiniTray

                mini = MiniTray(disp)

            def tray_ready() -> int:
                assert tray is None or tray.poll() is None, f"trayer exited ({tray.returncode})"
                return _tray_owner(disp)

            wait_until(tray_ready, 30, what="the system tray to own its selection")
            yield disp
        finally:
            if mini is not None:
                mini.close()
            if tray is not None:
                stop_process(tray, 5)


def _grab(disp: str, path: Path):
    """A screenshot through mss (ctypes: the GIL is released while X answers). Pillow's
    ImageGrab waits for the X server holding the GIL: with the tray's loop in this process
    holding a server grab and needing the GIL to finish it, the two waited for each other."""
    import mss
    from filegram.recorder.screen.image import to_image

    factory = getattr(mss, "MSS", None) or mss.mss
    with factory(display=disp) as sct:
        img = to_image(sct.grab(sct.monitors[0]))
    img.save(path)
    return img


def _count_near(img, rgb: tuple[int, int, int], box: tuple[int, int, int, int], tol: int = 30) -> int:
    region = img.convert("RGB").crop(box)
    return sum(1 for px in getattr(region, "get_flattened_data", region.getdata)() if all(abs(a - b) <= tol for a, b in zip(px, rgb, strict=True)))


PANEL = (480 - 160, 0, 480, 36)


def _wait_for_panel(disp: str, shot: Path, what: str, check) -> None:
    """Photograph the panel until check(image) holds: the icon is drawn by pystray's own
    thread some time after refresh() returns (under load, seconds later). The last
    screenshot is saved to `shot` either way, for the artifacts and for the failure."""
    last = {}

    def drawn() -> bool:
        last["img"] = img = _grab(disp, shot)
        return bool(check(img))

    def counts() -> str:
        from filegram.daemon.tray import COLORS

        img = last.get("img")
        if img is None:
            return "no screenshot"
        return ", ".join(f"{k} {_count_near(img, rgb, PANEL)} px" for k, rgb in COLORS.items()) + f" (saved {shot})"

    wait_until(drawn, 30, 0.2, what, seen=counts)


@pytest.fixture
def opener(tmp_path, monkeypatch):
    """A stand-in `xdg-open` on PATH that writes down what the tray asked to open."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "opened.txt"
    script = bin_dir / "xdg-open"
    script.write_text(f'#!/bin/sh\nprintf "%s\\n" "$1" >> "{log}"\n')
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return log


def test_tray_icons_and_menu_actions(xdisplay, daemon_env, opener, artifacts_dir, monkeypatch):
    monkeypatch.setenv("DISPLAY", xdisplay)
    monkeypatch.setenv("PYSTRAY_BACKEND", "xorg")
    from filegram.daemon.service import Daemon
    from filegram.daemon.tray import COLORS, Tray

    from filegram.config import Home

    h = daemon_env
    home = Home.resolve(h.home)
    daemon = Daemon(home, home.load_config(), [h.root], tray=False, handle_signals=False)
    daemon.start()
    tray = None
    thread = None
    try:
        tray = Tray(daemon)
        thread = threading.Thread(target=tray.run, daemon=True)
        thread.start()
        wait_until(lambda: daemon.tray_state.startswith("shown"), 60, what="the tray icon")
        (h.root / "a.txt").write_text("hello")
        wait_until(lambda: daemon.health()["last_stored_action_ms"], 30, what="a stored action")
        tray.refresh()
        _wait_for_panel(xdisplay, artifacts_dir / "daemon-tray-recording.png", "the red recording icon docked",
                        lambda img: _count_near(img, COLORS["recording"], PANEL) > 20)

        items = {str(item.text): item for item in tray.icon.menu.items if item.text}
        status = next(t for t in items if " - last stored " in t)
        assert status.startswith("recording")
        assert not items[status].enabled

        items["Pause recording"](tray.icon)
        assert daemon.paused and daemon.health()["state"] == "paused"
        tray.refresh()
        _wait_for_panel(xdisplay, artifacts_dir / "daemon-tray-paused.png", "the paused icon instead of the red one",
                        lambda img: _count_near(img, COLORS["recording"], PANEL) == 0
                        and _count_near(img, COLORS["paused"], PANEL, tol=10) > 20)
        labels = [str(i.text) for i in tray.icon.menu.items]
        assert "Resume recording" in labels

        resume = next(i for i in tray.icon.menu.items if str(i.text) == "Resume recording")
        resume(tray.icon)
        assert not daemon.paused and daemon.health()["state"] == "recording"

        # warning: the roots change while another program holds the database's write lock
        blocker = sqlite3.connect(home.db_path, timeout=1, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")
        try:
            (h.root / "b.txt").write_text("blocked")
            wait_until(lambda: daemon.health()["state"] == "warning", 40, what="the warning state")
            tray.refresh()
            _wait_for_panel(xdisplay, artifacts_dir / "daemon-tray-warning.png", "the warning icon docked",
                            lambda img: _count_near(img, COLORS["warning"], PANEL) > 20)
            assert str(tray.icon.title).startswith("FileGram: warning")
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()

        items = {str(item.text): item for item in tray.icon.menu.items if item.text}
        items["Open data folder"](tray.icon)
        items["Open profile"](tray.icon)
        wait_until(lambda: opener.exists() and len(opener.read_text().splitlines()) >= 2, 10,
                 what="the opener to be called twice")
        opened = set(opener.read_text().splitlines())  # two openers race: order is free
        assert str(home.root) in opened
        if daemon.api.web is not None:  # this build has the dashboard: a one-time sign-in URL
            assert any(u.startswith(f"{daemon.api.url}/?code=") for u in opened)
            assert not any(daemon.api.token in u for u in opened)  # never the token in argv
        else:
            assert (home.run_dir / "profile.html").as_uri() in opened
        page = daemon.write_profile_page()  # the page used when there is no dashboard
        assert "How you work" in page.read_text()
        assert oct(page.stat().st_mode & 0o777) == "0o600"

        screen_item = next((i for i in tray.icon.menu.items if str(i.text).startswith("Screen capture")), None)
        if screen_item is not None:  # the screen recorder is part of this build
            assert "off" in str(screen_item.text)
            screen_item(tray.icon)
            assert daemon.screen_enabled()
            assert "ON" in str(screen_item.text)
            tray.refresh()
            _wait_for_panel(xdisplay, artifacts_dir / "daemon-tray-screen-on.png", "the icon still docked",
                            lambda img: sum(_count_near(img, rgb, PANEL) for rgb in COLORS.values()) > 20)
            screen_item(tray.icon)
            assert not daemon.screen_enabled()

        items["Quit FileGram"](tray.icon)
        assert daemon.stop_event.is_set()
        thread.join(timeout=10)
        if thread.is_alive():
            import faulthandler
            faulthandler.dump_traceback(all_threads=True)
        assert not thread.is_alive(), "Quit ends the tray loop"
    finally:
        if tray is not None and thread is not None and thread.is_alive():
            tray.stop()
        daemon.stop()
    assert not (home.run_dir / "daemon.json").exists()


def test_daemon_process_shows_tray_and_stops_on_sigterm(xdisplay, daemon_env):
    """The tray owns the main thread; SIGTERM must still flush and exit cleanly."""
    h = daemon_env
    (h.home / "config.toml").write_text(
        f"[recorder]\nroots = [{json.dumps(str(h.root))}]\n[daemon]\ntray = true\n"
    )
    h.start_foreground(env={"DISPLAY": xdisplay, "PYSTRAY_BACKEND": "xorg"})
    wait_until(lambda: str(h.health()["tray"]).startswith("shown"), 60, what="the tray")
    (h.root / "x.md").write_text("x")
    wait_until(lambda: h.get("/api/actions?limit=5")["count"] >= 1, 30, what="a stored action")
    assert h.stop_proc(signal.SIGTERM) == 0, h.output()
    assert not (h.home / "run" / "daemon.json").exists()


def test_headless_without_display(daemon_env):
    h = daemon_env
    (h.home / "config.toml").write_text(
        f"[recorder]\nroots = [{json.dumps(str(h.root))}]\n[daemon]\ntray = true\n"
    )
    h.start_foreground()  # the harness removes DISPLAY
    assert h.health()["tray"].startswith("headless")
    assert h.health()["state"] == "recording"
    assert h.stop_proc() == 0
    log = (h.home / "logs" / "daemon.log").read_text()
    assert log.count("running headless") == 1


def test_click_opens_the_menu_on_xorg(xdisplay, daemon_env, artifacts_dir, monkeypatch):
    """pystray's xorg backend has no native menu: a click pops the same menu (Tk)."""
    if not shutil.which("xdotool"):
        pytest.skip("xdotool is not installed")
    try:
        import tkinter  # noqa: F401
    except ImportError:
        pytest.skip("tkinter is not available")
    h = daemon_env
    (h.home / "config.toml").write_text(
        f"[recorder]\nroots = [{json.dumps(str(h.root))}]\n[daemon]\ntray = true\n"
    )
    h.start_foreground(env={"DISPLAY": xdisplay, "PYSTRAY_BACKEND": "xorg"})
    wait_until(lambda: str(h.health()["tray"]).startswith("shown"), 60, what="the tray")
    env = {**os.environ, "DISPLAY": xdisplay}

    def xdo(*args: str) -> str:
        return subprocess.run(["xdotool", *args], capture_output=True, text=True, env=env,
                              timeout=10).stdout.strip()

    wid = wait_until(lambda: xdo("search", "--onlyvisible", "--name", "^FileGram").split("\n")[-1], 10,
                   what="icon window")
    geo = dict(line.strip().split(": ", 1) for line in xdo("getwindowgeometry", wid).splitlines()[1:])
    w, hh = (int(v) for v in geo["Geometry"].split("x"))

    def click_icon() -> None:  # relative to the icon window: its docked position varies
        xdo("mousemove", "--window", wid, str(w // 2), str(hh // 2), "click", "1")
    before = xdo("search", "--onlyvisible", "--class", "Menu")
    click_icon()
    menu = wait_until(lambda: xdo("search", "--onlyvisible", "--class", "Menu") != before, 10,
                    what="the popup menu")
    assert menu
    # the screenshot is an artifact only (nothing is asserted on it): Tk may still be drawing
    time.sleep(0.3)
    _grab(xdisplay, artifacts_dir / "daemon-tray-menu.png")
    xdo("key", "Escape")
    wait_until(lambda: xdo("search", "--onlyvisible", "--class", "Menu") == before, 10,
             what="the menu to close")
    # open it again and stop the daemon while it is open: the menu must not hold it up
    click_icon()
    wait_until(lambda: xdo("search", "--onlyvisible", "--class", "Menu") != before, 10,
             what="the popup menu again")
    assert h.stop_proc(signal.SIGTERM) == 0, h.output()


def test_icons_are_drawn_for_every_state(artifacts_dir):
    from filegram.daemon.tray import draw_icon
    from PIL import Image

    sheet = Image.new("RGBA", (3 * 72, 72), (255, 255, 255, 255))
    seen = set()
    for i, state in enumerate(("recording", "paused", "warning")):
        icon = draw_icon(state)
        assert icon.size == (64, 64) and icon.mode == "RGBA"
        seen.add(icon.tobytes())
        sheet.paste(icon, (i * 72 + 4, 4), icon)
    assert len(seen) == 3
    sheet.save(artifacts_dir / "daemon-tray-icons.png")
