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


def _path_variant(name: str, tmp_path):
    if name == "under-a-symlink":
        (tmp_path / "real").mkdir()
        (tmp_path / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    return tmp_path.joinpath(*PATHS[name])


@pytest.fixture(params=list(PATHS))
def db_path(request, tmp_path):
    return _path_variant(request.param, tmp_path)


@pytest.fixture(params=["new-file", "existing-file"])
def file_store(request, db_path):
    """A writable store at every path variant, on a new file and on one reopened."""
    if request.param == "existing-file":
        Store(db_path).close()
    s = Store(db_path)
    yield s
    s.close()


@pytest.fixture(params=[f"{age}:{where}" for age in ("new-file", "existing-file") for where in PATHS] + ["in-memory"])
def store(request, tmp_path):
    """Every store the code can open for writing: each file variant, and ':memory:'."""
    if request.param == "in-memory":
        s = Store(":memory:")
    else:
        age, where = request.param.split(":")
        path = _path_variant(where, tmp_path)
        if age == "existing-file":
            Store(path).close()
        s = Store(path)
    yield s
    s.close()


def _reads(sid: str, n: int, start: float = 1.0e12) -> list[dict]:
    return [Action.make("file_read", sid, start + i, file_path=f"f{i}.md", view_count=1).to_event() for i in range(n)]


def test_wal_foreign_keys_and_schema_version(file_store, db_path):
    s = file_store
    assert s.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert s.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert s.schema_version() == 1
    assert oct(db_path.stat().st_mode & 0o777) == "0o600"
    assert [p.name for p in db_path.parent.iterdir() if p.suffix not in (".sqlite-wal", ".sqlite-shm", ".db-wal", ".db-shm")] == [db_path.name]


def test_derived_writes_commit_without_fsync_and_restore_full(tmp_path):
    """Memory's batches commit with synchronous=NORMAL (WAL: consistent, only the last
    commits can be lost, and memory is derived again); every other write keeps FULL."""
    s = Store(tmp_path / "db.sqlite")

    def sync() -> int:
        return s.conn.execute("PRAGMA synchronous").fetchone()[0]

    assert sync() == 2  # FULL
    with s.derived_writes():
        assert sync() == 1  # NORMAL
        with s.transaction():
            s.write_state("k", 1)
    assert sync() == 2 and s.get_state("k") == 1
    with pytest.raises(RuntimeError), s.derived_writes():
        raise RuntimeError("restored on the way out too")
    assert sync() == 2
    with s.transaction():  # inside a transaction that holds other writes: no change
        with s.derived_writes():
            assert sync() == 2
    mem = Store(":memory:")  # no WAL: nothing to relax
    with mem.derived_writes():
        assert mem.conn.execute("PRAGMA synchronous").fetchone()[0] == 2


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


def _variants(sid: str) -> list[dict]:
    """Events that test each check of the format, valid and not."""
    base = Action.make("file_read", sid, 1.5e12, file_path="a.md", view_count=1, view_range=[1, 9]).to_event()
    write = Action.make("file_write", sid, 1.5e12, file_path="b.md", operation="create",
                        media_ref={"type": "blob", "hash": "ab12", "path": "media/blobs/ab12.blob"}).to_event()
    browse = Action.make("file_browse", sid, 1.5e12, directory_path=".", files_listed=3).to_event()
    deep: object = "x"
    for _ in range(40):
        deep = [deep]
    edits = [
        {}, {"timestamp": float("nan")}, {"timestamp": float("inf")}, {"timestamp": 12}, {"timestamp": True},
        {"view_count": 3.0}, {"view_count": 2.5}, {"view_count": True}, {"view_count": None}, {"view_count": -1},
        {"file_path": "a\x00b"}, {"file_path": "\ud800"}, {"file_path": "x" * (1 << 20 + 1)}, {"file_path": 7},
        {"file_path": None}, {"view_range": [1]}, {"view_range": [1, "2"]}, {"view_range": [1, True]},
        {"profile_id": "p\x00"}, {"profile_id": "p1"}, {"event_id": "e\x00"}, {"event_id": "é" * 3},
        {"session_id": 5}, {"revisit_interval_ms": float("-inf")}, {"extra": {"nested": [1, 2.5, None]}},
        {"extra": deep}, {"extra": "with \x00 nul"}, {"x" * 201: 1}, {"event_type": "file_teleport"},
        {"event_type": ["file_read"]}, {"event_type": "tool_call"},
    ]
    out = [{**base, **e} for e in edits]
    out.append({k: v for k, v in base.items() if k != "file_path"})
    out += [write, {**write, "operation": "append"}, {**write, "media_ref": {"hash": "zz"}},
            {**write, "media_ref": {"hash": "ab", "path": 3}}, browse, {**browse, "files_listed": -2},
            {**browse, "files_listed": ["a", 1]}, {**browse, "files_listed": ["a", "b"]}, [1, 2], "text"]
    return out


def test_the_single_pass_judges_every_event_as_validate_event_does(tmp_path):
    """The write path's fast checks (store.ingest) and schema.validate_event agree: the same
    error for a bad event, the same stored event for a good one."""
    from filegram.schema import validate_event

    s = Store(tmp_path / "db.sqlite")
    sid = s.open_session("S", source="test")
    for i, ev in enumerate(_variants(sid)):
        if isinstance(ev, dict) and isinstance(ev.get("event_id"), str):
            ev["event_id"] = ev["event_id"][:8] + f"-{i}"
        try:
            expected = validate_event(ev, index=0)
        except TraceError as exc:
            with pytest.raises(TraceError) as got:
                s.add_actions([ev])
            assert str(got.value) == str(exc), f"variant {i}"
            continue
        assert s.add_actions([ev]) == 1, f"variant {i}"
        (stored,) = [e for e in s.actions(sid) if e["event_id"] == expected["event_id"]]
        engine_fields = {k: None for k in ("profile_id", "message_id", "model_provider", "model_name")}
        assert stored == {**engine_fields, **expected}, f"variant {i}"
