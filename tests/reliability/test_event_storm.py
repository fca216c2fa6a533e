"""Event storms (mass creation, a large git checkout, rm -rf of a big tree): nothing crashes,
memory stays bounded, and bulk operations are summarised rather than stored per file.
The full 100,000-file figure is in `python -m filegram.bench.faults` (bench faults)."""

from __future__ import annotations

import json
import shutil
import sqlite3
import sys

import pytest
from filegram.bench.faults import run_event_storm

pytestmark = pytest.mark.skipif(sys.platform != "linux" or shutil.which("git") is None, reason="needs inotify and git")


def test_storm_is_summarised_and_bounded(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    r = run_event_storm(tmp_path / "home", root, files=8_000, git_files=800)
    print(f"\nevent storm: {r}")
    assert r["recorder_exit"] == 0 and r["integrity"] == "ok"
    assert r["bulk_summary_rows"] > 0
    assert r["rows_written"] < 2_000, "a storm must not become tens of thousands of user actions"
    assert r["dataset_files_accounted"] == 8_000, f"every created file is accounted for; stored:\n{_stored(tmp_path / 'home')}"
    assert r["peak_rss_mb"] < 400, "memory must stay bounded"


def _stored(home) -> str:
    """What the recorder stored, one action per line, for a failure's report."""
    conn = sqlite3.connect(home / "filegram.db")
    try:
        rows = conn.execute("SELECT event_type, path, data FROM actions ORDER BY seq").fetchall()
    finally:
        conn.close()
    keys = ("operation", "bulk_count", "program", "command", "authored")
    return "\n".join(f"{t} {p} {({k: json.loads(d).get(k) for k in keys})}" for t, p, d in rows)
