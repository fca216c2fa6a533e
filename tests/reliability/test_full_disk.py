"""Recording onto a full file system: a clear warning, no corruption, recording pauses and
resumes when space returns. The home lives on a small tmpfs the test mounts (root only)."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import string
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from fg_helpers import wait_until

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="tmpfs and inotify")


@pytest.fixture
def small_home(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a size-limited tmpfs needs root (CI runs as root)")
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=600k,mode=0700", "tmpfs", str(home)], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.strip()}")
    # Each file's snapshot is what fills the disk. Under load the watcher reads the 150
    # writes in one burst, the folder went into bulk mode (no snapshots) and the disk never
    # filled: this test is about a full disk, so bulk summaries are off.
    (home / "config.toml").write_text("[recorder]\nbulk_events_per_second = 0\n")
    yield home
    subprocess.run(["umount", "-l", str(home)], capture_output=True)


def _count(db: Path, where: str = "1") -> tuple[str, int]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0], conn.execute(f"SELECT COUNT(*) FROM actions WHERE {where}").fetchone()[0]
    finally:
        conn.close()


def test_full_disk_pauses_and_resumes(small_home, tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    # the marker goes to a folder of its own: the 150 files are one bulk episode of the
    # root's own files, which a file written there within 2 s would join
    (root / "later").mkdir()
    proc = subprocess.Popen(
        [sys.executable, "-m", "filegram", "--home", str(small_home), "record", "--root", str(root)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    err_lines: list[str] = []
    try:
        assert proc.stderr.readline().startswith("recording ")
        # keep the pipe drained (a full pipe would block the recorder's logging) and keep
        # what it said for the failure message
        reader = threading.Thread(target=lambda: err_lines.extend(proc.stderr), daemon=True)
        reader.start()
        rng = random.Random(3)
        for i in range(150):  # incompressible snapshots fill 600 KiB quickly
            (root / f"f{i}.txt").write_text("".join(rng.choice(string.ascii_letters) for _ in range(6000)))
            time.sleep(0.01)
        wait_until(lambda: "full" in "".join(err_lines) or proc.poll() is not None, 60,
                   what="the recorder to say the disk is full", seen=lambda: "".join(err_lines[-20:]))
        assert proc.poll() is None, "the recorder must keep running on a full disk"
        check, _ = _count(small_home / "filegram.db")
        assert check == "ok"
        subprocess.run(["mount", "-o", "remount,size=64m", str(small_home)], check=True)
        (root / "later" / "marker.txt").write_text("space is back\n")
        wait_until(lambda: _count(small_home / "filegram.db", "path = 'later/marker.txt'")[1] > 0, 90, 0.5,
                   "recording to resume (marker.txt stored)", seen=lambda: "".join(err_lines[-20:]))
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
    reader.join(timeout=30)  # everything it said, up to its exit
    assert "full" in "".join(err_lines)
    check, total = _count(small_home / "filegram.db")
    assert check == "ok" and total > 0
