"""The tray's screen items (moved from the screen recorder to daemon/tray.py): the menu
line that shows and flips screen capture, and the badge on the icon while it is on."""

from __future__ import annotations

from filegram.daemon.tray import draw_screen_badge, tray_menu_item
from filegram.recorder.screen import ScreenRecorder

from filegram.store import Store


def test_tray_item_shows_and_flips_the_toggle(tmp_path):
    from filegram.config import Config

    store = Store(tmp_path / "db.sqlite")
    rec = ScreenRecorder(store, Config())
    label, toggle = tray_menu_item(rec)
    assert "off" in label()
    toggle()
    assert rec.enabled and "ON" in label()
    toggle()
    assert not rec.enabled and store.get_state("screen.enabled") is False


def test_tray_badge_marks_the_icon():
    from PIL import Image

    icon = Image.new("RGBA", (64, 64), (245, 245, 245, 255))
    marked = draw_screen_badge(icon)
    assert marked.size == icon.size and marked.getpixel((48, 46)) != icon.getpixel((48, 46))
    assert icon.getpixel((48, 46)) == (245, 245, 245, 255)  # the original is untouched
