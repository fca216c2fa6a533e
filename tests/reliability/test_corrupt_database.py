"""A really damaged database (pages overwritten with garbage): every command answers in one
line, `start` says to run `filegram doctor --repair`, and the repair restores the newest
good backup plus every row still readable from the damaged file (issue 14, section 6)."""

from __future__ import annotations

import json
import os
import random
import sqlite3
from pathlib import Path

from fg_helpers import run_cli

from filegram.store import Store

SESSIONS = 4
ACTIONS_BEFORE_BACKUP = 1500
ACTIONS_AFTER_BACKUP = 1500


def _events(session: str, start: int, n: int) -> list[dict]:
    return [{"event_id": f"{session}-{i:05d}", "event_type": "file_read", "timestamp": 1_700_000_000_000.0 + i,
             "session_id": session, "file_path": f"notes/file-{i:05d}.md", "file_type": "md",
             "directory_depth": 1, "view_count": 1, "view_range": None, "content_length": 100 + i,
             "revisit_interval_ms": None, "padding": "x" * 200}
            for i in range(start, start + n)]


def _make_home(home: Path) -> tuple[set[str], set[str]]:
    home.mkdir(parents=True)
    store = Store(home / "filegram.db")
    before, after = set(), set()
    for s in range(SESSIONS):
        sid = store.open_session(f"s{s}", source="import", started_ms=1.7e12)
        evs = _events(sid, 0, ACTIONS_BEFORE_BACKUP // SESSIONS)
        store.add_actions(evs)
        before |= {e["event_id"] for e in evs}
    store.backup(home / "backups" / "filegram-20240101-000000.db")
    for s in range(SESSIONS):
        evs = _events(f"s{s}", 10_000, ACTIONS_AFTER_BACKUP // SESSIONS)
        store.add_actions(evs)
        after |= {e["event_id"] for e in evs}
    store.close()  # the last connection checkpoints the WAL into the file
    return before, after


PAGE = 4096


def _pages_holding(db: Path, marker: bytes) -> list[int]:
    data = db.read_bytes()
    pages, at = set(), data.find(marker)
    while at >= 0:
        pages.add(at // PAGE)
        at = data.find(marker, at + 1)
    return sorted(pages)


def _damage(db: Path, pages: list[int]) -> None:
    """Overwrite whole pages with random bytes."""
    size = db.stat().st_size
    rng = random.Random(14)
    with open(db, "r+b") as f:
        for p in pages:
            assert 0 < p and (p + 1) * PAGE <= size
            f.seek(p * PAGE)
            f.write(bytes(rng.randrange(256) for _ in range(PAGE)))


def _ids(db: Path) -> set[str]:
    con = sqlite3.connect(db)
    try:
        return {r[0] for r in con.execute("SELECT event_id FROM actions")}
    finally:
        con.close()


def test_damaged_database_one_line_then_doctor_repairs(tmp_path: Path) -> None:
    home = tmp_path / "home"
    before, after = _make_home(home)
    db = home / "filegram.db"
    # three table pages in the middle of session s3's rows written after the backup
    rows = _pages_holding(db, b"s3-10")
    mid = len(rows) // 2
    _damage(db, rows[mid:mid + 3])

    for args in (["status"], ["sessions"], ["trace", "show", "--session", "s3"], ["status", "--json"]):
        p = run_cli(*args, home=home)
        assert "Traceback" not in p.stderr, (args, p.stderr)
        if p.returncode != 0:
            lines = p.stderr.strip().splitlines()
            assert p.returncode == 2 and len(lines) == 1, (args, p.stderr)
            assert lines[0].startswith("filegram: error: ") and "filegram doctor --repair" in lines[0]
    p = run_cli("trace", "show", "--session", "s3", "--json", home=home)  # reads the damaged pages
    assert p.returncode == 2 and "damaged" in p.stderr and len(p.stderr.strip().splitlines()) == 1

    root = tmp_path / "work"
    root.mkdir()
    p = run_cli("start", "--foreground", "--no-tray", "--root", str(root), home=home)
    lines = p.stderr.strip().splitlines()
    assert p.returncode == 2 and lines and "filegram doctor --repair" in lines[-1], p.stderr
    assert "Traceback" not in p.stderr

    p = run_cli("doctor", home=home)
    assert p.returncode == 1 and "damaged" in p.stdout and "doctor --repair" in p.stdout

    p = run_cli("doctor", "--repair", "--json", home=home)
    assert p.returncode == 0, p.stdout + p.stderr
    report = json.loads(p.stdout)
    assert report["integrity"] == "ok"
    assert report["repair"]["backup"].endswith("filegram-20240101-000000.db")
    damaged = Path(report["repair"]["damaged"])
    assert damaged.exists() and damaged.name.startswith("filegram.db.damaged-")  # kept, not deleted
    got = _ids(db)
    assert before <= got  # everything the backup had
    readable_after = after & got
    lost = len(after) - len(readable_after)
    # only rows on the 3 overwritten pages may be lost (a 4 KiB page holds ~10 of these rows)
    assert lost <= 3 * 15, f"{lost} rows lost for 3 damaged pages"
    assert len(readable_after) > 0.9 * len(after)
    stats = report["repair"]["tables"]["actions"]
    assert stats["added"] == len(readable_after)
    assert oct(db.stat().st_mode & 0o777) == "0o600"

    p = run_cli("status", "--json", home=home)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["actions"] == len(got)
    assert run_cli("doctor", home=home).returncode == 0


def test_not_a_database_at_all_is_one_line(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "filegram.db").write_bytes(os.urandom(64 * 1024))
    p = run_cli("status", home=home)
    lines = p.stderr.strip().splitlines()
    assert p.returncode == 2 and len(lines) == 1 and "doctor --repair" in lines[0]
    p = run_cli("doctor", "--repair", home=home)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "a new database" in p.stdout  # no backup: a fresh file, the damaged one kept aside
    assert len(list(home.glob("filegram.db.damaged-*"))) == 1
    assert run_cli("status", home=home).returncode == 0


def test_forget_deletes_the_damaged_copy_repair_kept(tmp_path: Path) -> None:
    """`doctor --repair` keeps the damaged file aside (filegram.db.damaged-<time>, with its
    -wal and -shm): a whole copy of the history. What it could read was copied in when
    repairing, so a later forget deletes it rather than leave what it forgot in the home."""
    home = tmp_path / "home"
    _make_home(home)
    db = home / "filegram.db"
    rows = _pages_holding(db, b"s3-10")
    _damage(db, rows[len(rows) // 2:len(rows) // 2 + 3])
    assert run_cli("doctor", "--repair", home=home).returncode == 0
    assert list(home.glob("filegram.db.damaged-*"))
    p = run_cli("forget", "--path", "notes/file-0000*", home=home)
    assert p.returncode == 0, p.stderr
    assert "1 damaged copy deleted" in p.stdout, p.stdout
    assert not list(home.glob("filegram.db.damaged-*"))
    for f in home.rglob("*"):
        if f.is_file():
            assert b"notes/file-00001.md" not in f.read_bytes(), f
