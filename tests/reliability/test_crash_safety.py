"""Fault injection: the real recorder is killed with SIGKILL at random points while files
are being created under its root, many times. After every kill the database passes
integrity_check, every action committed before the kill is still there exactly once, and a
restarted recorder records again."""

from __future__ import annotations

import signal
import sqlite3
import sys

import pytest
from fg_helpers import stop_process, wait_until
from filegram.bench.faults import run_kill_loop, start_recorder

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="inotify recorder")


def test_sigkill_during_heavy_ingest_loses_nothing_committed(tmp_path):
    home, root = tmp_path / "home", tmp_path / "root"
    root.mkdir()
    result = run_kill_loop(home, root, kills=6)
    print(f"\ncrash safety: {result}")
    assert result["kills_survived"] == 6
    assert result["actions_lost"] == 0
    assert result["duplicates"] == 0
    assert result["actions"] > 0
    # recording resumes after the last kill
    proc = start_recorder(home, root)
    try:
        (root / "after-the-crash.md").write_text("hello again\n")

        def recorded() -> bool:
            conn = sqlite3.connect(home / "filegram.db")
            try:
                return conn.execute("SELECT COUNT(*) FROM actions WHERE path = 'after-the-crash.md'").fetchone()[0] > 0
            finally:
                conn.close()

        wait_until(recorded, 60, 0.2, "a restarted recorder to record again")
    finally:
        stop_process(proc, 30, signal.SIGINT)
