"""Capture under a real X server: frames, change detection, exclusions, idle, budget."""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest
from filegram.recorder.screen import ScreenRecorder, frames_for_session
from filegram.recorder.screen import store as ss

from filegram.store import Store


def frame_count(store: Store) -> int:
    return store.conn.execute("SELECT COUNT(*) FROM frames").fetchone()[0]


def db_bytes(path: Path) -> bytes:
    out = b""
    for p in (path, Path(str(path) + "-wal")):
        if p.exists():
            out += p.read_bytes()
    return out


def test_real_window_is_captured_with_title_and_pixels(tmp_path, display, window, screen_config):
    from PIL import Image

    window("Quarterly plan - FileGram test", "Known text on a white window")
    store = Store(tmp_path / "db.sqlite")
    rec = ScreenRecorder(store, screen_config)
    res = rec.tick()
    assert res["result"] == "captured", res
    assert res["window"]["title"] == "Quarterly plan - FileGram test"
    frame = ss.get_frame(store, res["frame_id"])
    assert frame["window_title"] == "Quarterly plan - FileGram test"
    assert frame["app"]  # WM_CLASS of the tk window
    img = Image.open(io.BytesIO(frame["image"]))
    assert img.format in ("WEBP", "JPEG")
    assert img.size == (1024, 768) == (frame["width"], frame["height"])  # below max_width: kept
    # the window's white area and its black text are in the stored pixels
    crop = img.convert("L").crop((60, 60, 900, 560))
    lo, hi = crop.getextrema()
    assert hi > 240 and lo < 60
    # health is "last frame written at", read from the database
    assert rec.stats()["last_frame_ms"] == frame["ts"]
    rec.close()


def test_unchanged_screen_adds_no_frame_until_forced(tmp_path, display, window, screen_config):
    win = window("Editor - FileGram test", "first text")
    screen_config["screen"]["force_after_seconds"] = 1.5
    store = Store(tmp_path / "db.sqlite")
    rec = ScreenRecorder(store, screen_config)
    assert rec.tick()["result"] == "captured"
    again = rec.tick()
    assert again["result"] == "skipped-unchanged"
    assert again["frames"] == [] and frame_count(store) == 1
    win.text("a different line of text\nand a second line")
    changed = rec.tick()
    assert changed["result"] == "captured" and not changed["forced"]
    assert rec.tick()["result"] == "skipped-unchanged"
    time.sleep(1.6)
    display.poke()
    forced = rec.tick()
    assert forced["result"] == "captured" and forced["forced"] is True
    assert frame_count(store) == 3
    rec.close()


def test_downscaled_to_max_width(tmp_path, display, window, screen_config):
    from PIL import Image

    window("Wide - FileGram test", "downscale me")
    screen_config["screen"]["max_width"] = 512
    store = Store(tmp_path / "db.sqlite")
    rec = ScreenRecorder(store, screen_config)
    frame = ss.get_frame(store, rec.tick()["frame_id"])
    assert (frame["width"], frame["height"]) == (512, 384)
    assert Image.open(io.BytesIO(frame["image"])).size == (512, 384)
    rec.close()


def test_excluded_active_window_stores_nothing_not_even_its_title(tmp_path, display, window, screen_config):
    window("KeePassXC - Vault Zanzibar", "very private content")
    store = Store(tmp_path / "db.sqlite")
    rec = ScreenRecorder(store, screen_config)
    res = rec.tick()
    assert res["result"] == "skipped-excluded"
    assert res.get("window") is None and res["frames"] == []
    assert frame_count(store) == 0
    store.close()
    raw = db_bytes(tmp_path / "db.sqlite")
    assert b"Zanzibar" not in raw and b"KeePassXC" not in raw


def test_visible_excluded_window_blocks_its_monitor_even_when_not_active(tmp_path, display, window, screen_config):
    secret = window("Private Browsing - Mozilla Firefox", "bank statement", geometry="400x300+600+400")
    editor = window("notes - Editor", "ordinary work", geometry="500x300+10+10")
    display.set_active(editor.wid)  # an EWMH window manager says the editor is active
    store = Store(tmp_path / "db.sqlite")
    rec = ScreenRecorder(store, screen_config)
    res = rec.tick()
    assert res["result"] == "skipped-excluded", res
    assert frame_count(store) == 0
    secret.close()
    display.poke()
    after = rec.tick()
    assert after["result"] == "captured"
    assert after["window"]["title"] == "notes - Editor"
    # the window manager says the desktop has the focus: no window, but the screen is kept
    display.set_active(0)
    assert rec.tick()["window"] is None
    rec.close()


def test_window_manager_lists_minimised_excluded_window(tmp_path, display, window, screen_config):
    """With an EWMH manager's client list: a minimised password manager does not block
    the capture, a shown one does."""
    vault = window("Bitwarden", "vault", geometry="300x200+700+500")
    editor = window("draft.txt - Editor", "work", geometry="500x300+10+10")
    display.set_client_list([vault.wid, editor.wid])
    display.set_active(editor.wid)
    display.set_hidden(vault.wid, True)
    store = Store(tmp_path / "db.sqlite")
    rec = ScreenRecorder(store, screen_config)
    shown = rec.tick()
    assert shown["result"] == "captured" and shown["window"]["title"] == "draft.txt - Editor"
    display.set_hidden(vault.wid, False)
    editor.text("more work")
    assert rec.tick()["result"] == "skipped-excluded"
    assert frame_count(store) == 1
    rec.close()


def test_exclusion_rules_come_from_config(tmp_path, display, window, screen_config):
    window("Payroll 2026 - Spreadsheet", "salaries")
    screen_config["screen"]["exclude_titles"] = ["payroll"]
    store = Store(tmp_path / "db.sqlite")
    rec = ScreenRecorder(store, screen_config)
    assert rec.tick()["result"] == "skipped-excluded"
    assert frame_count(store) == 0
    rec.close()


def test_disabled_by_default_and_toggle_survives_restart(tmp_path, display, window, screen_config):
    from filegram.config import Config

    window("Plain - FileGram test", "text")
    store = Store(tmp_path / "db.sqlite")
    cfg = Config()  # the shipped defaults (OCR off only to keep the test fast)
    cfg["screen"]["ocr"] = False
    default = ScreenRecorder(store, cfg)
    assert default.enabled is False
    assert default.tick()["result"] == "skipped-disabled"
    default.set_enabled(True)
    store.close()
    store = Store(tmp_path / "db.sqlite")
    again = ScreenRecorder(store, cfg)  # config still says off: the toggle wins
    assert again.enabled is True
    assert again.tick()["result"] == "captured"
    again.set_enabled(False)
    assert ScreenRecorder(store, screen_config).tick()["result"] == "skipped-disabled"
    assert frame_count(store) == 1


def test_idle_user_is_not_captured(tmp_path, display, window, screen_config):
    window("Idle - FileGram test", "nobody here")
    screen_config["screen"]["idle_after_seconds"] = 0.6
    store = Store(tmp_path / "db.sqlite")
    rec = ScreenRecorder(store, screen_config)
    time.sleep(0.8)
    res = rec.tick()
    assert res["result"] == "skipped-idle", res
    assert frame_count(store) == 0
    display.poke()
    assert rec.tick()["result"] == "captured"
    rec.close()


def test_screen_saver_on_means_no_capture(tmp_path, display, window, screen_config):
    from Xlib import X

    window("Locked - FileGram test", "behind the lock")
    store = Store(tmp_path / "db.sqlite")
    rec = ScreenRecorder(store, screen_config)
    d = display.conn()
    d.force_screen_saver(X.ScreenSaverActive)
    d.sync()
    try:
        res = rec.tick()
        assert res["result"] == "skipped-idle" and res["reason"] == "screen locked"
        assert frame_count(store) == 0
    finally:
        d.force_screen_saver(X.ScreenSaverReset)
        d.sync()
    display.poke()
    assert rec.tick()["result"] == "captured"
    rec.close()


def test_budget_prunes_the_oldest_frames_of_the_day(tmp_path, display, window, screen_config):
    words = ["alpha north", "bravo south", "charlie east", "delta west", "echo river"]
    win = window("Budget - FileGram test", f"{words[0]}: the same amount of text")
    store = Store(tmp_path / "db.sqlite")
    rec = ScreenRecorder(store, screen_config)
    first = rec.tick()
    size = ss.get_frame(store, first["frame_id"], with_image=False)["bytes"]
    rec.cfg["daily_budget_mb"] = size * 2.5 / 1024 / 1024  # room for about two frames a day
    rec.cfg["budget_active_hours"] = 0  # no pacing: this test is about pruning
    ids = [first["frame_id"]]
    for i in range(1, 5):
        win.text(f"{words[i]}: the same amount of text")
        res = rec.tick()
        assert res["result"] == "captured"
        ids.append(res["frame_id"])
    kept = [r[0] for r in store.conn.execute("SELECT id FROM frames ORDER BY id")]
    assert 1 <= len(kept) <= 3 and kept == ids[-len(kept):]  # the newest survive
    usage = ss.day_usage(store)
    assert usage["bytes"] <= rec.cfg["daily_budget_mb"] * 1024 * 1024
    assert usage["pruned"] == len(ids) - len(kept) and usage["frames"] == len(kept)
    # pruned frames leave the text index too
    assert store.conn.execute("SELECT COUNT(*) FROM screen_fts").fetchone()[0] == len(kept)
    # a budget smaller than one frame still keeps the day's newest frame
    rec.cfg["daily_budget_mb"] = 1 / 1024 / 1024
    rec.prune()
    assert [r[0] for r in store.conn.execute("SELECT id FROM frames")] == [ids[-1]]
    rec.close()


def test_budget_is_paced_over_the_active_hours(tmp_path, display, window, screen_config):
    win = window("Pacing - FileGram test", "alpha north: some text")
    store = Store(tmp_path / "db.sqlite")
    rec = ScreenRecorder(store, screen_config)
    first = rec.tick()
    size = ss.get_frame(store, first["frame_id"], with_image=False)["bytes"]
    # the first half hour may use 1/16 of the day's budget: here half a frame's worth
    rec.cfg["daily_budget_mb"] = 16 * 0.5 * size / 1024 / 1024
    win.text("bravo south: other text")
    res = rec.tick()
    assert res["result"] == "skipped-budget" and frame_count(store) == 1
    rec.cfg["budget_active_hours"] = 0
    assert rec.tick()["result"] == "captured"
    rec.close()


def test_retention_deletes_old_days(tmp_path):
    store = Store(tmp_path / "db.sqlite")
    ss.ensure_tables(store)
    now = time.time() * 1000
    old = ss.add_frame(store, ts=now - 40 * 86_400_000, session_id=None, monitor=1, window_title="old",
                       app="x", width=1, height=1, image=b"x" * 100, fmt="webp", ocr_text="ancient words")
    new = ss.add_frame(store, ts=now, session_id=None, monitor=1, window_title="new", app="x",
                       width=1, height=1, image=b"y" * 100, fmt="webp", ocr_text="fresh words")
    assert ss.prune(store, daily_budget_bytes=10_000_000, retention_days=30, now_ms=now) == 1
    assert ss.get_frame(store, old) is None and ss.get_frame(store, new) is not None
    assert [f["id"] for f in ss.search_frames(store, "words")] == [new]


def test_frames_link_to_the_open_session(tmp_path, display, window, screen_config):
    window("Linked - FileGram test", "session frame")
    store = Store(tmp_path / "db.sqlite")
    sid = store.open_session(source="recorder")
    rec = ScreenRecorder(store, screen_config, session_provider=lambda: sid)
    fid = rec.tick()["frame_id"]
    frames = frames_for_session(store, sid)
    assert [f["id"] for f in frames] == [fid]
    assert frames[0]["window_title"] == "Linked - FileGram test"
    assert frames_for_session(store, sid, with_image=True)[0]["image"][:4] == b"RIFF"
    rec.close()


def test_no_display_means_no_capture(tmp_path, monkeypatch, screen_config):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    store = Store(tmp_path / "db.sqlite")
    rec = ScreenRecorder(store, screen_config)
    res = rec.tick()
    assert res["result"] == "skipped-unavailable"
    assert "DISPLAY" in res["reason"]
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    monkeypatch.setenv("XDG_SESSION_TYPE", "wayland")
    res = ScreenRecorder(store, screen_config).tick()
    assert res["result"] == "skipped-unavailable" and "Wayland" in res["reason"]


@pytest.mark.parametrize("text", ["sk-proj-abcdefghijklmnopqrstuvwx1234", "mail bob.smith@example.org now", "call +44 20 7946 0958"])
def test_screen_text_redaction(text):
    from filegram.recorder.screen.privacy import redact_screen_text

    out = redact_screen_text(text)
    assert "[REDACTED:" in out
    assert "abcdefghijklmnop" not in out and "bob.smith" not in out and "7946" not in out


def test_redaction_keeps_ordinary_numbers():
    from filegram.recorder.screen.privacy import redact_screen_text

    text = "Report 2026-11-30, page 12 of 40, 1024x768, version 3.10.0"
    assert redact_screen_text(text) == text
