from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from filegram.config import Home
from filegram.schema import Action, TraceError
from filegram.store import Store, StoreError, content_hash, register_migrations

# Every kind of place the store can live (aw-core's test_datastore runs each test against
# every backend; FileGram has one backend and these variants of it). SQLite is opened by
# URI, so a path with URI characters must be escaped, not parsed as a query.
PATHS = {
    "plain": ("db.sqlite",),
    "spaces": ("my data", "file gram.db"),
    "non-ascii": ("données 文件", "記憶.db"),
    "uri-characters": ("a?b#c%20d&mode=ro", "db.sqlite"),
    "under-a-symlink": ("link", "db.sqlite"),
}


@pytest.fixture(params=list(PATHS))
def db_path(request, tmp_path):
    parts = PATHS[request.param]
    if request.param == "under-a-symlink":
        (tmp_path / "real").mkdir()
        (tmp_path / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    return tmp_path.joinpath(*parts)


@pytest.fixture(params=["new-file", "existing-file"])
def store(request, db_path):
    """A writable store at every path variant, on a new file and on one reopened."""
    if request.param == "existing-file":
        Store(db_path).close()
    s = Store(db_path)
    yield s
    s.close()


def _reads(sid: str, n: int, start: float = 1.0e12) -> list[dict]:
    return [Action.make("file_read", sid, start + i, file_path=f"f{i}.md", view_count=1).to_event() for i in range(n)]


def test_wal_foreign_keys_and_schema_version(store, db_path):
    s = store
    assert s.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert s.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert s.schema_version() == 1
    assert oct(db_path.stat().st_mode & 0o777) == "0o600"
    assert [p.name for p in db_path.parent.iterdir() if p.suffix not in (".sqlite-wal", ".sqlite-shm", ".db-wal", ".db-shm")] == [db_path.name]


def test_actions_need_an_existing_session(store):
    s = store
    with pytest.raises(StoreError, match="session"):
        s.add_actions(_reads("nope", 1))
    assert s.action_count() == 0


def test_duplicates_by_event_id_are_ignored(store):
    s = store
    sid = s.open_session(source="test")
    evs = _reads(sid, 10)
    assert s.add_actions(evs) == 10
    assert s.add_actions(evs) == 0
    assert [e["event_id"] for e in s.actions(sid)] == [e["event_id"] for e in evs]


def test_a_bad_event_in_a_batch_stores_nothing_of_the_batch(store):
    s = store
    sid = s.open_session(source="test")
    evs = _reads(sid, 5)
    evs[3]["view_count"] = "x"
    with pytest.raises(TraceError):
        s.add_actions(evs)
    assert s.action_count() == 0


def test_blobs_are_deduplicated_and_compressed(store):
    s = store
    content = ("same text\n" * 1000).encode()
    h1 = s.put_blob(content)
    h2 = s.put_blob(content)
    assert h1 == h2 == content_hash(content)
    assert s.conn.execute("SELECT COUNT(*) FROM blobs").fetchone()[0] == 1
    stored = s.conn.execute("SELECT length(content) FROM blobs").fetchone()[0]
    assert stored < len(content) / 10
    assert s.get_blob(h1) == content


def test_namespace_migrations_run_once_and_forward(tmp_path):
    register_migrations("test_ns", ["CREATE TABLE t1 (x INTEGER)"])
    path = tmp_path / "db.sqlite"
    Store(path).close()
    register_migrations("test_ns", ["CREATE TABLE t1 (x INTEGER)", "ALTER TABLE t1 ADD COLUMN y TEXT"])
    s = Store(path)
    assert s.schema_version("test_ns") == 2
    cols = [r[1] for r in s.conn.execute("PRAGMA table_info(t1)")]
    assert cols == ["x", "y"]
    register_migrations("test_ns", [])


def test_newer_database_is_refused_with_a_clear_error(tmp_path):
    path = tmp_path / "db.sqlite"
    s = Store(path)
    s.set_state("schema_version:core", 99)
    s.close()
    with pytest.raises(StoreError, match="newer than this FileGram"):
        Store(path)


def test_sigkill_mid_batch_keeps_committed_batches_and_no_half_batch(tmp_path):
    """A real process is killed while writing batches of 200: afterwards every batch is
    either fully there or absent, and the database passes integrity_check."""
    path = tmp_path / "db.sqlite"
    script = textwrap.dedent(
        f"""
        import sys
        from filegram.store import Store
        from filegram.schema import Action
        s = Store({str(path)!r})
        sid = s.open_session("S", source="test")
        b = 0
        while True:
            evs = [Action.make("file_read", sid, b * 1000 + i, file_path=f"b{{b}}/{{i}}.md").to_event() for i in range(200)]
            s.add_actions(evs)
            b += 1
            if b == 3:
                print("ready", flush=True)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready"
    os.kill(proc.pid, 9)
    proc.wait()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    per_batch = conn.execute(
        "SELECT substr(path, 1, instr(path, '/') - 1) AS b, COUNT(*) FROM actions GROUP BY b"
    ).fetchall()
    assert len(per_batch) >= 3
    assert all(n == 200 for _, n in per_batch)


def test_readonly_store_reads_and_never_writes(db_path):
    with pytest.raises(StoreError, match="no database"):
        Store(db_path, readonly=True)
    assert not db_path.exists()
    s = Store(db_path)
    sid = s.open_session(source="test")
    s.add_actions(_reads(sid, 3))
    s.close()
    before = db_path.read_bytes()
    ro = Store(db_path, readonly=True)
    assert ro.readonly and ro.action_count(sid) == 3
    assert [e["file_path"] for e in ro.actions(sid)] == ["f0.md", "f1.md", "f2.md"]
    with pytest.raises((StoreError, sqlite3.Error)):
        ro.add_actions(_reads(sid, 1, start=2.0e12))
    ro.close()
    assert db_path.read_bytes() == before


def test_create_false_needs_an_existing_file(db_path):
    with pytest.raises(StoreError, match="no database"):
        Store(db_path, create=False)
    Store(db_path).close()
    Store(db_path, create=False).close()


def test_home_under_a_symlink_opens_the_real_file(tmp_path):
    (tmp_path / "real-home").mkdir()
    (tmp_path / "home-link").symlink_to(tmp_path / "real-home", target_is_directory=True)
    home = Home.resolve(tmp_path / "home-link")
    s = home.open_store()
    s.open_session("S", source="test")
    s.close()
    assert (tmp_path / "real-home" / "filegram.db").is_file()
    ro = Home.resolve(tmp_path / "home-link").open_store(readonly=True)
    assert [x["id"] for x in ro.sessions()] == ["S"]
    ro.close()
