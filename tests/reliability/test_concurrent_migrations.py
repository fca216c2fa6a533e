"""Two connections that open the same database at the same moment (the daemon's memory job
and a CLI command, two threads of the daemon) both bring a package's tables up to date: each
step runs once, the loser finds it applied. Found under load: the daemon's warning said
"consolidate failed: ... duplicate column name: signals" (memory's ADD COLUMN ran twice)."""

from __future__ import annotations

import threading

from filegram.store import Store
from filegram.store.database import Database, register_migrations

NS = "test_race_ns"


def test_two_connections_migrating_at_once_apply_each_step_once(tmp_path, monkeypatch) -> None:
    path = tmp_path / "db.sqlite"
    register_migrations(NS, [])
    a, b = Store(path), Store(path)  # both open, nothing of NS pending yet
    try:
        register_migrations(NS, ["CREATE TABLE race_t (x INTEGER)", "ALTER TABLE race_t ADD COLUMN y TEXT"])
        # the interleaving load produced, made certain: both connections read the old
        # version before either applies a step (a barrier after each thread's first read)
        both_read = threading.Barrier(2, timeout=30)
        first_read: set[int] = set()
        real = Database.schema_version

        def schema_version(self: Database, namespace: str = "core") -> int:
            version = real(self, namespace)
            if namespace == NS and threading.current_thread().name.startswith("migrate-") \
                    and threading.get_ident() not in first_read:
                first_read.add(threading.get_ident())
                both_read.wait()
            return version

        monkeypatch.setattr(Database, "schema_version", schema_version)
        errors: list[BaseException] = []

        def migrate(s: Store) -> None:
            try:
                s.migrate(NS)
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)

        threads = [threading.Thread(target=migrate, args=(s,), name=f"migrate-{i}") for i, s in enumerate((a, b))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        assert not any(t.is_alive() for t in threads)
        assert errors == []
        assert a.schema_version(NS) == b.schema_version(NS) == 2
        assert [r[1] for r in a.conn.execute("PRAGMA table_info(race_t)")] == ["x", "y"]
    finally:
        register_migrations(NS, [])
        a.close()
        b.close()
