"""A browser's download is a file the person received, not one they wrote: the browser
writes `X.crdownload` (Chromium, Edge, Brave, Vivaldi, Opera), `X.part` (Firefox, after a
0-byte placeholder `X`), `X.opdownload` (Opera) or `X.download` (Safari), then renames it
to X. Real files, the real recorder; the browser is a real process whose name is a
browser's (a renamed `sleep`), as the process helper sees any program."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fg_helpers import FLUSH_S, stop_process, wait_until
from filegram.recorder import Recorder
from rec_helpers import make_config, sh

from filegram.store import Store

DERIVED = ("context_switch", "cross_file_reference")
CHROMIUM = {"chrome", "chromium", "chromium-browser", "msedge", "brave", "vivaldi", "vivaldi-bin", "opera"}
FIREFOX_COMMS = ("firefox", "firefox-esr", "firefox-bin", "librewolf", "GeckoMain")


def primary(store: Store) -> list[dict]:
    return [e for e in store.actions() if e["event_type"] not in DERIVED]


def _browser(tmp_path: Path, name: str) -> Iterator[subprocess.Popen]:
    """A long-lived process named like a browser (the helper reads its name from /proc)."""
    folder = tmp_path / "browser-bin"
    folder.mkdir(exist_ok=True)
    exe = folder / name
    shutil.copy(shutil.which("sleep") or "/bin/sleep", exe)
    proc = subprocess.Popen([str(exe), "120"])
    try:
        wait_until(lambda: Path(f"/proc/{proc.pid}/comm").read_text().strip() == name, 30, 0.05,
                   f"{name} to start")
        yield proc
    finally:
        stop_process(proc)


@pytest.fixture
def chrome(tmp_path: Path) -> Iterator[subprocess.Popen]:
    yield from _browser(tmp_path, "chrome")


@pytest.fixture
def firefox(tmp_path: Path) -> Iterator[subprocess.Popen]:
    yield from _browser(tmp_path, "firefox")


def _download(partial: Path, pieces: int = 4) -> None:
    """Write a partial download in pieces, as a browser does while the bytes arrive."""
    with open(partial, "wb") as f:
        for i in range(pieces):
            f.write(bytes([i % 256]) * 4096 + b"%PDF piece\n")
            f.flush()
            time.sleep(0.2)  # the network's pace: the partial file outlives the settle window


def _names(store: Store) -> str:
    return " ".join(str(v) for e in store.actions() for v in e.values())


def test_a_chromium_download_is_a_received_file(root: Path, store: Store, chrome: subprocess.Popen) -> None:
    """report.pdf.crdownload written in pieces and renamed to report.pdf: one file_write
    create of report.pdf the browser made (authored: false), the partial file never
    recorded. What the person does with it afterwards is theirs."""
    with Recorder(store, [root], make_config()) as rec:
        # the browser runs all day: what the person writes meanwhile is still theirs
        sh("printf 'my own words\\n' > notes.md", root)
        time.sleep(1.0)
        # Chromium names the partial `Unconfirmed NNN.crdownload` until the name is known
        _download(root / "Unconfirmed 41213.crdownload", pieces=2)
        os.rename(root / "Unconfirmed 41213.crdownload", root / "report.pdf.crdownload")
        _download(root / "report.pdf.crdownload")
        os.rename(root / "report.pdf.crdownload", root / "report.pdf")
        rec.flush(FLUSH_S)
        evs = primary(store)
        assert [(e["event_type"], e["file_path"], e["operation"], e["authored"], e.get("program_kind"))
                for e in evs] == [("file_write", "notes.md", "create", True, None),
                                  ("file_write", "report.pdf", "create", False, "download")], evs
        assert evs[0]["program"] is None, evs[0]
        assert evs[1]["program"] in CHROMIUM, evs[1]
        evs = evs[1:]
        assert "crdownload" not in _names(store)
        time.sleep(1.0)  # the person, a moment later (the settle windows)
        sh("sleep 0.6 | cat report.pdf - > /dev/null", root)
        time.sleep(1.0)
        sh("mv report.pdf report-2026.pdf", root)
        time.sleep(1.0)
        sh("rm report-2026.pdf", root)
        rec.flush(FLUSH_S)
    later = primary(store)[2:]
    assert [(e["event_type"], e["authored"]) for e in later] == [
        ("file_read", True), ("file_rename", True), ("file_delete", True)], later
    # the download itself moves no focus: only the person's read of it does
    assert [e["trigger"] for e in store.actions() if e["event_type"] == "context_switch"] == ["read"]


def test_a_firefox_download_with_its_placeholder_is_one_received_file(root: Path, store: Store,
                                                                       firefox: subprocess.Popen) -> None:
    """Firefox makes an empty placeholder paper.pdf, writes paper.pdf.part and renames it
    over the placeholder: one received file, neither the placeholder nor the partial."""
    with Recorder(store, [root], make_config()) as rec:
        (root / "paper.pdf").write_bytes(b"")
        _download(root / "paper.pdf.part", pieces=5)
        os.rename(root / "paper.pdf.part", root / "paper.pdf")
        rec.flush(FLUSH_S)
    evs = primary(store)
    assert [(e["event_type"], e["file_path"], e["operation"], e["authored"], e["program_kind"], e["program"])
            for e in evs] == [("file_write", "paper.pdf", "create", False, "download", "firefox")], evs
    assert ".part" not in _names(store)


def _firefox_running() -> bool:
    for pid in os.listdir("/proc"):
        try:
            if Path(f"/proc/{pid}/comm").read_text().strip() in FIREFOX_COMMS:
                return True
        except OSError:
            continue
    return False


def test_the_persons_own_part_saves_stay_theirs(root: Path, store: Store) -> None:
    """A save through `NAME.part` renamed over an existing file is an atomic save by the
    person's editor: an edit, authored. With no Firefox running and no placeholder, a new
    file saved that way is the person's new file too (a `.part` is only a download when a
    browser that writes them could have)."""
    (root / "notes").write_text("first line\n")
    with Recorder(store, [root], make_config()) as rec:
        (root / "notes.part").write_text("first line\nsecond line\n")
        os.rename(root / "notes.part", root / "notes")
        rec.flush(FLUSH_S)
        time.sleep(1.0)  # a second save, of a new file
        (root / "plan.part").write_text("the plan\n")
        os.rename(root / "plan.part", root / "plan")
        rec.flush(FLUSH_S)
    evs = primary(store)
    assert [(e["event_type"], e["file_path"], e["authored"]) for e in evs][:1] == [("file_edit", "notes", True)], evs
    if not _firefox_running():  # another suite's Firefox would make plan a download
        assert [(e["event_type"], e["file_path"], e["authored"]) for e in evs][1:] == [
            ("file_write", "plan", True)], evs
    assert ".part" not in _names(store)


def test_a_safari_style_bundle_download_is_one_received_file(root: Path, store: Store) -> None:
    """Safari keeps a download in a bundle folder X.download and moves the file out of it
    when done: one received file X, the bundle and what is in it never recorded."""
    with Recorder(store, [root], make_config()) as rec:
        (root / "slides.pdf.download").mkdir()
        _download(root / "slides.pdf.download" / "slides.pdf")
        os.rename(root / "slides.pdf.download" / "slides.pdf", root / "slides.pdf")
        (root / "slides.pdf.download").rmdir()
        rec.flush(FLUSH_S)
    evs = primary(store)
    assert [(e["event_type"], e.get("file_path"), e["authored"], e.get("program_kind")) for e in evs] == [
        ("file_write", "slides.pdf", False, "download")], evs
    assert ".download" not in _names(store)
