"""Memory's tables in the store's table registry (filegram.tables).

Everything memory stores is derived from the trace, so forgetting clears nothing here
directly: it asks memory to rebuild itself from what is left. `export --all` writes the
channels as tables and the learned profile as profile.json.
"""

from __future__ import annotations

from typing import Any

from filegram.config import Config
from filegram.store import Store
from filegram.tables import (
    TableRule,
    register_export_file,
    register_rebuild,
    register_search_provider,
    register_table,
)

from .channels import MEMORY_TABLES  # importing channels registers memory's migrations

NAMESPACE = "memory"

for _table in MEMORY_TABLES:
    register_table(
        TableRule(
            _table,
            NAMESPACE,
            "rebuild",
            exported=_table != "mem_fts",
            note="derived from the trace; rebuilt by memory after forgetting",
        )
    )


def rebuild_memory(store: Store, config: Config | None) -> str:
    """Recompute every memory table from the trace that is left."""
    from .core import Memory

    Memory(store, config or Config()).rebuild()
    return "rebuilt"


def profile_for_export(store: Store, config: Config | None) -> Any:
    from .core import Memory

    return Memory(store, config or Config()).profile()


def search_memory(store: Store, config: Config, query: str, limit: int) -> list[dict[str, Any]]:
    """Memory's chunks for `filegram search` that contain the query (highlighted), none of
    a file that is gone; nothing when memory holds none yet."""
    if not store.has_table("mem_chunks") or not store.conn.execute("SELECT 1 FROM mem_chunks LIMIT 1").fetchone():
        return []
    from filegram.ondisk import PathCheck

    from .evidence import text_search

    check = PathCheck(store, config["recorder"]["roots"])
    hits = text_search(store, query, limit * 4)
    return [h for h in hits if not check.gone(h.get("path"))][:limit]


register_rebuild(NAMESPACE, rebuild_memory)
register_search_provider("memory", search_memory)
register_export_file("profile.json", profile_for_export)
