"""Odd files on disk under a recorded root: non-UTF-8 names, symlink loops, unreadable files,
files that vanish between event and read, a multi-GB file. No crash, bounded memory, the
ordinary work around them is still recorded, and nothing is written outside the home."""

from __future__ import annotations

import os
import signal
import sqlite3
import sys
import threading
import time

import pytest
from filegram.bench.faults import peak_rss_sampler as _peak_rss_sampler
from filegram.bench.faults import start_recorder

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="inotify recorder")


def test_odd_files_do_not_break_recording(tmp_path):
    home, root = tmp_path / "home", tmp_path / "root"
    root.mkdir()
    outside_before = set(os.listdir(tmp_path))
    proc = start_recorder(home, root)
    stop = threading.Event()
    rss: list[int] = []
    threading.Thread(target=_peak_rss_sampler, args=(proc.pid, stop, rss), daemon=True).start()
    try:
        odd = os.fsencode(root) + b"/r\xe9sum\xe9-\xff.txt"
        with open(odd, "wb") as fh:
            fh.write(b"latin-1 name\n")
        with open(odd, "rb") as fh:
            fh.read()
        (root / "loop-a").symlink_to(root / "loop-b")
        (root / "loop-b").symlink_to(root / "loop-a")
        (root / "sub").mkdir()
        (root / "sub" / "up").symlink_to(root, target_is_directory=True)
        os.listdir(root / "sub")
        locked = root / "locked.md"
        locked.write_text("no access\n")
        locked.chmod(0)
        for i in range(200):  # files that vanish between event and read
            p = root / f"tmp{i}.txt"
            p.write_text("gone soon\n")
            p.unlink()
        time.sleep(3)  # that burst is a bulk episode of the root's files; let it end
        big = root / "huge.bin"
        with open(big, "wb") as fh:
            fh.truncate(3 * 2**30)  # sparse 3 GiB
        with open(big, "rb") as fh:
            fh.read(4096)
        (root / "ordinary.md").write_text("# still recorded\n")
        (root / "ordinary.md").read_text()
        time.sleep(3)
        assert proc.poll() is None, "the recorder must survive odd files"
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=120)
        stop.set()
    assert proc.returncode in (0, 1)
    conn = sqlite3.connect(home / "filegram.db")
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    paths = {p for (p,) in conn.execute("SELECT path FROM paths")}
    conn.close()
    assert "ordinary.md" in paths
    assert max(rss) < 400 * 2**20, "a multi-GB file must never be read into memory"
    assert set(os.listdir(tmp_path)) - outside_before == {"home"}
