"""The registry of the store's tables: who owns each one and what forgetting does to it.

Packages above the core own tables in the one SQLite file (memory's channels, the screen's
frames, the recorder's file state, the bench's marks). The core must be able to forget and
export all of them without importing those packages, and a table added later without a rule
must be caught by a test rather than silently keep what the user asked to erase. So each
package registers its tables here, next to its migrations, and the core reads the registry.

Plugins are named as strings (like the CLI's command modules): `load_plugins()` imports the
modules that register tables, skipping a package that is not installed.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from .config import Config
    from .store import Store

# What forget does with a table's rows:
# - "core": the trace itself (sessions, actions, blobs, paths, state); forget handles it.
# - "rebuild": derived from the trace; cleared and recomputed by its namespace's rebuild hook.
# - "match": independent rows; those whose time, session or path columns fall in what is
#   forgotten are deleted, and with --all every row.
# - "custom": the owner's own function decides (`forget_rows`).
ForgetRule = Literal["core", "rebuild", "match", "custom"]


@dataclass(frozen=True)
class ForgetScope:
    """What the user asked to forget. Empty scope means nothing; `everything` means all."""

    path_glob: str | None = None
    since_ms: float | None = None
    until_ms: float | None = None
    everything: bool = False
    paths: frozenset[str] = frozenset()  # every path the forgotten actions named (stored form)


@dataclass(frozen=True)
class TableRule:
    table: str
    namespace: str
    forget: ForgetRule
    time_column: str | None = None  # epoch ms
    session_column: str | None = None  # sessions.id
    path_columns: tuple[str, ...] = ()  # hold a path (relative or absolute)
    text_columns: tuple[str, ...] = ()  # free text that can quote content or paths
    content_columns: tuple[str, ...] = ()  # file content, possibly compressed
    forget_rows: Callable[[Store, ForgetScope], int] | None = None  # for forget == "custom"
    exported: bool = True  # written by `export --all`
    note: str = ""


@dataclass
class _Registry:
    tables: dict[str, TableRule] = field(default_factory=dict)
    rebuilders: dict[str, Callable[[Store, Config], str]] = field(default_factory=dict)
    export_files: dict[str, Callable[[Store, Config], Any]] = field(default_factory=dict)
    search_providers: dict[str, Callable[[Store, Config, str, int], list[dict[str, Any]]]] = field(default_factory=dict)


_REGISTRY = _Registry()

# Modules that register tables when imported (the store's own are registered below).
PLUGIN_MODULES: tuple[str, ...] = (
    "filegram.recorder.tables",
    "filegram.memory.tables",
    "filegram.bench.marks",
    "filegram.sync.tables",
)


def register_table(rule: TableRule) -> None:
    if rule.forget == "custom" and rule.forget_rows is None:
        raise ValueError(f"table {rule.table}: a custom forget rule needs forget_rows")
    _REGISTRY.tables[rule.table] = rule


def register_rebuild(namespace: str, rebuild: Callable[[Store, Config], str]) -> None:
    """`rebuild(store, config)` recomputes a namespace's derived tables from the trace."""
    _REGISTRY.rebuilders[namespace] = rebuild


def register_export_file(name: str, make: Callable[[Store, Config], Any]) -> None:
    """`export --all` writes `name` (JSON) from `make(store, config)`, e.g. memory's profile.json."""
    _REGISTRY.export_files[name] = make


def register_search_provider(name: str, search: Callable[[Store, Config, str, int], list[dict[str, Any]]]) -> None:
    """`filegram search` also asks `search(store, config, query, limit)`, e.g. memory's chunks;
    the command lives below memory, so memory offers its hits here instead of being imported."""
    _REGISTRY.search_providers[name] = search


def search_providers() -> dict[str, Callable[[Store, Config, str, int], list[dict[str, Any]]]]:
    load_plugins()
    return dict(_REGISTRY.search_providers)


def load_plugins() -> None:
    for name in PLUGIN_MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is None or not name.startswith(exc.name):
                raise


def table_rules() -> dict[str, TableRule]:
    load_plugins()
    return dict(_REGISTRY.tables)


def rebuilders() -> dict[str, Callable[[Store, Config], str]]:
    load_plugins()
    return dict(_REGISTRY.rebuilders)


def export_files() -> dict[str, Callable[[Store, Config], Any]]:
    load_plugins()
    return dict(_REGISTRY.export_files)


def rule_for(table: str) -> TableRule | None:
    """The rule of a table, also for the shadow tables SQLite makes for an FTS table."""
    rules = table_rules()
    if table in rules:
        return rules[table]
    for name, rule in rules.items():
        if table.startswith(name + "_") and rule.forget in ("rebuild", "match", "custom"):
            return rule
    return None


for _core in ("sessions", "actions", "paths", "blobs", "state"):
    register_table(TableRule(_core, "core", "core", exported=False))
