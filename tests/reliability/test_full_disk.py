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
    proc = subprocess.Popen(
        [sys.executable, "-m", "filegram", "--home", str(small_home), "record", "--root", str(root)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    err_lines: list[str] = []
    try:
        assert proc.stderr.readline().startswith("recording ")
        # keep the pipe drained (a full pipe would block the recorder's logging) and keep
        # what it said for the failure message
        threading.Thread(target=lambda: err_lines.extend(proc.stderr), daemon=True).start()
        rng = random.Random(3)
        for i in range(150):  # incompressible snapshots fill 600 KiB quickly
            (root / f"f{i}.txt").write_text("".join(rng.choice(string.ascii_letters) for _ in range(6000)))
            time.sleep(0.01)
        time.sleep(3)
        assert proc.poll() is None, "the recorder must keep running on a full disk"
        check, _ = _count(small_home / "filegram.db")
        assert check == "ok"
        subprocess.run(["mount", "-o", "remount,size=64m", str(small_home)], check=True)
        (root / "marker.txt").write_text("space is back\n")
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and _count(small_home / "filegram.db", "path = 'marker.txt'")[1] == 0:
            time.sleep(0.5)
        assert _count(small_home / "filegram.db", "path = 'marker.txt'")[1] > 0, "recording must resume: " + "".join(err_lines[-20:])
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
    time.sleep(0.2)
    assert "full" in "".join(err_lines)
    check, total = _count(small_home / "filegram.db")
    assert check == "ok" and total > 0
