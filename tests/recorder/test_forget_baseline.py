"""Forget keeps its word across a restart: a file the person asked to forget that is still
on disk under a root is not snapshotted, named or announced again by the recorder's next
start (its baseline, the offline reconciliation), until the person changes it; then it is
new activity, recorded as usual. A real recorder, the real CLI, the database's bytes."""

from __future__ import annotations

import sqlite3
import time
import zlib
from pathlib import Path

from fg_helpers import FLUSH_S
from filegram.recorder import Recorder
from rec_helpers import make_config, run_cli, sh

from filegram.store import Store

PLANTED = "zanzibar-okapi-7731"


def _leaks(db: Path, needles: tuple[str, ...]) -> list[str]:
    """Which needles the database holds anywhere: the raw bytes of the file and its WAL, and
    the compressed snapshots and blobs, unpacked."""
    raw = b"".join(p.read_bytes() for p in (db, db.with_name(db.name + "-wal")) if p.exists())
    conn = sqlite3.connect(db)
    try:
        for (content,) in conn.execute("SELECT content FROM recorder_snapshots"):
            raw += zlib.decompress(content)
        for (content,) in conn.execute("SELECT content FROM blobs"):
            raw += zlib.decompress(content)
    finally:
        conn.close()
    return [n for n in needles if n.encode() in raw]


def _record(db: Path, root: Path, *, then=None) -> list[dict]:
    store = Store(db)
    try:
        with Recorder(store, [root], make_config()) as rec:
            rec.flush(FLUSH_S)
            if then is not None:
                time.sleep(1.0)  # the person, a moment after the start (the settle windows)
                then()
                rec.flush(FLUSH_S)
        return list(store.actions())
    finally:
        store.close()


def test_a_forgotten_file_stays_forgotten_after_the_recorder_restarts(tmp_path: Path, root: Path) -> None:
    home = tmp_path / "fg"
    db = home / "filegram.db"
    (root / "private").mkdir()
    (root / "private" / "plan.md").write_text(f"the plan: {PLANTED}\n")
    (root / "keep.md").write_text("kept\n")
    _record(db, root, then=lambda: sh("printf 'step two\\n' >> private/plan.md", root))
    assert _leaks(db, ("plan.md",)) == ["plan.md"]
    # while nothing records: the plan changes, and a second private file appears
    (root / "private" / "plan.md").write_text(f"the plan, revised: {PLANTED}\n")
    (root / "private" / "late.md").write_text(f"late: {PLANTED}\n")

    proc = run_cli("forget", "--path", "private", home=home, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert _leaks(db, (PLANTED, "plan.md", "late.md")) == []

    # the next start: its baseline and its look at what changed offline leave them out
    _record(db, root)
    assert _leaks(db, (PLANTED, "plan.md", "late.md")) == []
    # and the start after that
    _record(db, root)
    assert _leaks(db, (PLANTED, "plan.md", "late.md")) == []
    assert _leaks(db, ("keep.md",)) == ["keep.md"]

    # the person changes the file afterwards: new activity, recorded as usual
    acts = _record(db, root, then=lambda: sh("printf 'a new plan\\n' > private/plan.md", root))
    writes = [(a["event_type"], a.get("operation"), a["authored"]) for a in acts
              if a.get("file_path") == "private/plan.md"]
    assert writes == [("file_write", "overwrite", True)], acts
    assert _leaks(db, (PLANTED,)) == []


def test_forget_all_keeps_the_files_on_disk_out_of_the_next_baseline(tmp_path: Path, root: Path) -> None:
    home = tmp_path / "fg"
    db = home / "filegram.db"
    (root / "diary.md").write_text(f"dear diary: {PLANTED}\n")
    _record(db, root, then=lambda: sh("sleep 0.6 | cat diary.md - > /dev/null", root))
    assert _leaks(db, ("diary.md",)) == ["diary.md"]

    proc = run_cli("forget", "--all", "--yes", home=home, timeout=120)
    assert proc.returncode == 0, proc.stderr
    acts = _record(db, root)
    assert acts == [] and _leaks(db, (PLANTED, "diary.md")) == []

    # reading it again is new activity (a read, no snapshot of what was forgotten); writing it too
    acts = _record(db, root, then=lambda: sh("sleep 0.6 | cat diary.md - > /dev/null", root))
    assert [(a["event_type"], a["file_path"]) for a in acts] == [("file_read", "diary.md")], acts
    assert _leaks(db, (PLANTED,)) == []
    acts = _record(db, root, then=lambda: sh("printf 'a new day\\n' >> diary.md", root))
    assert [(a["event_type"], a["file_path"], a.get("operation"), a["authored"]) for a in acts] == [
        ("file_read", "diary.md", None, True), ("file_write", "diary.md", "overwrite", True)], acts
