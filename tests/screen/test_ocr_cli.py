"""OCR into the text index, and the commands a user runs: search, screen on/off/status/..."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from filegram.recorder.screen import ScreenRecorder
from filegram.recorder.screen import ocr as screen_ocr
from filegram.recorder.screen import store as ss
from screen_helpers import run_cli

from filegram.config import Home
from filegram.store import Store

needs_ocr = pytest.mark.skipif(
    not screen_ocr.available(), reason="OCR extra not installed (pip install 'filegram[ocr]')"
)


@needs_ocr
def test_ocr_text_is_indexed_redacted_and_found_by_search(fg_home, display, window, screen_config):
    win = window("Field notes - FileGram test", "quokka lighthouse 4217\nwrite to alice@example.com")
    screen_config["screen"]["ocr"] = True
    store = Home(fg_home).open_store()
    rec = ScreenRecorder(store, screen_config)
    res = rec.tick()
    assert res["result"] == "captured" and res["monitors"][0]["ocr"] is True
    assert rec.wait_ocr(120)
    frame = ss.get_frame(store, res["frame_id"], with_image=False)
    text = frame["ocr_text"]
    assert "quokka" in text.lower() and "lighthouse" in text.lower()
    assert "alice@example.com" not in text and "[REDACTED:EMAIL]" in text
    hits = ss.search_frames(store, "quokka lighthouse")
    assert [h["id"] for h in hits] == [res["frame_id"]]
    assert ss.search_frames(store, "alice") == []
    # within ocr_interval_seconds the next frame is stored without text (CPU stays bounded)
    win.text("a completely different screen now")
    nxt = rec.tick()
    assert nxt["result"] == "captured" and nxt["monitors"][0]["ocr"] is False
    assert ss.get_frame(store, nxt["frame_id"], with_image=False)["ocr_text"] is None
    rec.close()
    store.close()

    out = run_cli("search", "lighthouse", "quokka", "--json", home=fg_home)
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout)
    assert [f["id"] for f in found["frames"]] == [res["frame_id"]]
    assert "lighthouse" in found["frames"][0]["snippet"].lower()


def run(*args: str, home: Path, display) -> object:  # noqa: ANN001 - DISPLAY is set by the fixture
    return run_cli(*args, home=home)


def test_screen_commands_end_to_end(fg_home, tmp_path, display, window):
    ws = tmp_path / "work"
    ws.mkdir()
    (ws / "budget-2026.xlsx").write_bytes(b"PK")
    title = f"budget-2026.xlsx ({ws}) - gedit"
    window(title, "numbers")
    home = Home(fg_home)
    home.ensure()
    home.config_path.write_text("[screen]\nocr = false\n")

    st = run("screen", "status", "--json", home=fg_home, display=display)
    assert st.returncode == 0 and json.loads(st.stdout)["enabled"] is False
    off = run("screen", "capture", home=fg_home, display=display)
    assert off.stdout.startswith("skipped-disabled")

    assert run("screen", "on", home=fg_home, display=display).returncode == 0
    cap = run("screen", "capture", "--json", "--root", str(ws), home=fg_home, display=display)
    assert cap.returncode == 0, cap.stderr
    res = json.loads(cap.stdout)
    assert res["result"] == "captured" and res["actions"] == 1  # stored on exit (flush)

    st = json.loads(run("screen", "status", "--json", home=fg_home, display=display).stdout)
    assert st["enabled"] is True and st["frames"] == 1 and st["today_bytes"] > 0

    frames = json.loads(run("screen", "frames", "--json", home=fg_home, display=display).stdout)
    assert [f["window_title"] for f in frames] == [title]

    img = tmp_path / "frame.webp"
    exp = run("screen", "export", str(res["frame_id"]), str(img), home=fg_home, display=display)
    assert exp.returncode == 0 and img.read_bytes()[:4] == b"RIFF"
    bad = run("screen", "export", "999", str(img), home=fg_home, display=display)
    assert bad.returncode == 2 and "no frame 999" in bad.stderr

    # search finds the frame by its window title and the file by its path
    found = json.loads(run("search", "budget", "--json", home=fg_home, display=display).stdout)
    assert [f["id"] for f in found["frames"]] == [res["frame_id"]]
    assert [f["path"] for f in found["files"]] == ["budget-2026.xlsx"]
    text = run("search", "nothing-like-this", home=fg_home, display=display)
    assert text.returncode == 0 and "nothing found" in text.stdout

    status = run("status", home=fg_home, display=display)
    assert status.returncode == 0 and "\n  screen      on" in status.stdout

    assert run("screen", "off", home=fg_home, display=display).returncode == 0
    store = Store(home.db_path)
    assert ScreenRecorder(store, home.load_config()).enabled is False


@needs_ocr
def test_stopping_ocr_waits_for_its_thread() -> None:
    """The OCR thread runs at a low priority: on a busy machine it took more than 5 s to
    notice it was stopped and outlived its daemon (the suite's leak check caught it)."""
    from PIL import Image

    texts: list[str] = []
    worker = screen_ocr.OcrWorker(lambda _frame, text: texts.append(text), lambda s: s)
    worker.submit(1, Image.new("RGB", (60, 20), "white"))
    worker.stop(120)
    assert worker.done + worker.errors == 1
    assert worker._thread is not None and not worker._thread.is_alive()


@needs_ocr
def test_a_stop_whose_time_is_up_still_waits_for_the_frame_being_read() -> None:
    """A daemon stopped on a loaded machine gave its OCR 5 s; the frame being read took
    longer, and the thread outlived the daemon. A read in progress cannot be interrupted:
    stop waits for it to end (the text is kept), and gives up frames not yet begun."""
    import threading

    from PIL import Image

    reading = threading.Event()
    texts: list[str] = []

    def slow_store(_frame: int, text: str) -> None:  # a read that outlasts the stop's time
        reading.set()
        threading.Event().wait(3.0)
        texts.append(text)

    worker = screen_ocr.OcrWorker(slow_store, lambda s: s)
    worker.submit(1, Image.new("RGB", (60, 20), "white"))
    assert reading.wait(120)
    worker.submit(2, Image.new("RGB", (60, 20), "white"))  # waits behind it, never begun
    worker.stop(0.1)
    assert worker._thread is not None and not worker._thread.is_alive()
    assert len(texts) == 1 and worker.dropped == 1
