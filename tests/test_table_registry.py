"""Every table any package creates has a forget rule in the table registry (filegram.tables),
so a table added without one fails here instead of silently keeping what the user asked to
erase. The check migrates every registered namespace into a fresh database and reads back
what SQLite actually made, FTS shadow tables included."""

from __future__ import annotations

from pathlib import Path

import pytest

from filegram.store import Store, registered_namespaces
from filegram.tables import load_plugins, rebuilders, rule_for, table_rules


@pytest.fixture(scope="module")
def fresh_store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    load_plugins()  # each plugin imports its package's migrations with its rules
    store = Store(Path(tmp_path_factory.mktemp("registry")) / "fresh.db")
    yield store
    store.close()


def test_every_namespace_is_migrated(fresh_store: Store) -> None:
    for ns in registered_namespaces():
        if ns.startswith("test_"):
            continue  # namespaces other tests register for themselves
        assert fresh_store.schema_version(ns) >= 1, f"namespace {ns} has no applied migration"
    assert {"core", "memory", "recorder", "screen", "bench"} <= set(registered_namespaces())


def tables_without_rules(store: Store, *, skip: tuple[str, ...] = ()) -> list[str]:
    rules = table_rules()
    tables = store.tables()
    virtual = [name for name, kind in tables.items() if kind == "virtual"]
    missing = []
    for name, kind in tables.items():
        if name.startswith(skip):
            continue
        if kind == "shadow":
            owner = next((v for v in virtual if name.startswith(v + "_")), None)
            if owner is None or owner not in rules:
                missing.append(f"{name} (shadow of {owner})")
        elif name not in rules:
            missing.append(name)
    return sorted(missing)


# tables other test modules create for themselves in the same process
OTHER_TESTS = ("t1", "test_")


def test_every_table_has_a_forget_rule(fresh_store: Store) -> None:
    missing = tables_without_rules(fresh_store, skip=OTHER_TESTS)
    assert not missing, f"tables without a forget rule in filegram.tables: {', '.join(missing)}"
    shadows = [name for name, kind in fresh_store.tables().items() if kind == "shadow"]
    assert shadows, "the FTS tables' shadow tables are checked too"
    assert all(rule_for(name) is not None for name in shadows)


def test_every_rule_can_be_applied(fresh_store: Store) -> None:
    tables = fresh_store.tables()
    hooks = rebuilders()
    for name, rule in table_rules().items():
        assert name in tables, f"rule for {name}, but no migration creates it"
        cols = set(fresh_store.columns(name))
        named = [rule.time_column, rule.session_column, *rule.path_columns, *rule.text_columns, *rule.content_columns]
        unknown = [c for c in named if c is not None and c not in cols]
        assert not unknown, f"{name}: rule names columns it does not have: {unknown}"
        if rule.forget == "rebuild":
            assert rule.namespace in hooks, f"{name}: rebuilt by '{rule.namespace}', which registers no rebuild hook"
        if rule.forget == "custom":
            assert rule.forget_rows is not None
        if rule.forget == "match":
            assert rule.time_column or rule.session_column or rule.path_columns or rule.text_columns, (
                f"{name}: a match rule needs a time, session, path or text column"
            )


def test_a_table_without_a_rule_is_caught(tmp_path: Path) -> None:
    from filegram.store import register_migrations

    register_migrations("test_unruled", ["CREATE TABLE unruled_notes (x TEXT)"])
    try:
        store = Store(tmp_path / "db.sqlite")
        assert tables_without_rules(store, skip=OTHER_TESTS) == ["unruled_notes"]
        store.close()
    finally:
        register_migrations("test_unruled", [])
