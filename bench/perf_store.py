"""Store ingest benchmark: FileGram's store against ActivityWatch's raw-SQLite datastore,
same machine, same run, equivalent events (one flat JSON record with a timestamp each).

Run: `python -m filegram.bench.perf_store [N]`. aw-core comes with the `bench` extra; without it
the comparison row says so. Both sides get prebuilt records so only storing is timed; both
commit once per batch of 1,000 (ActivityWatch's insert_many with its own commit logic).
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from filegram.schema import Action

BATCH = 1000


def _events(n: int, sid: str) -> list[dict[str, Any]]:
    rng = random.Random(7)
    kinds = ["file_read", "file_browse", "file_write", "file_edit", "context_switch"]
    out = []
    t0 = 1.77e12
    for i in range(n):
        k = kinds[i % len(kinds)]
        path = f"projects/p{rng.randrange(40)}/notes_{rng.randrange(500)}.md"
        if k == "file_read":
            a = Action.make(k, sid, t0 + i, file_path=path, file_type="md", directory_depth=2, view_count=rng.randrange(1, 4), view_range=[1, 80], content_length=rng.randrange(100, 9000))
        elif k == "file_browse":
            a = Action.make(k, sid, t0 + i, directory_path=path.rsplit("/", 1)[0], files_listed=rng.randrange(1, 60), depth=1)
        elif k == "file_write":
            a = Action.make(k, sid, t0 + i, file_path=path, file_type="md", directory_depth=2, operation="create", content_length=rng.randrange(100, 9000), after_hash=f"{rng.getrandbits(64):016x}")
        elif k == "file_edit":
            a = Action.make(k, sid, t0 + i, file_path=path, file_type="md", edit_tool="vim", lines_added=3, lines_deleted=1, lines_modified=1, diff_summary="+3 -1", before_hash=f"{rng.getrandbits(64):016x}", after_hash=f"{rng.getrandbits(64):016x}")
        else:
            a = Action.make(k, sid, t0 + i, from_file=path, to_file="inbox/todo.md", trigger="read", switch_count=i % 50)
        out.append(a.to_event())
    return out


def bench_filegram(n: int, *, validate: bool) -> float:
    from filegram.store import Store

    with tempfile.TemporaryDirectory() as d:
        store = Store(Path(d) / "fg.db")
        sid = store.open_session("bench", source="bench")
        events = _events(n, sid)
        t = time.perf_counter()
        for i in range(0, n, BATCH):
            store.add_actions(events[i : i + BATCH], validate=validate)
        elapsed = time.perf_counter() - t
        assert store.action_count() == n
        store.close()
    return n / elapsed


def bench_activitywatch(n: int) -> float | None:
    try:
        from aw_core.models import Event
        from aw_datastore.storages.sqlite import SqliteStorage
    except ImportError:
        return None
    from datetime import UTC, datetime, timedelta

    with tempfile.TemporaryDirectory() as d:
        storage = SqliteStorage(testing=True, filepath=str(Path(d) / "aw.db"), enable_lazy_commit=False)
        storage.create_bucket("bench", "filegram.bench", "bench", "localhost", datetime.now(UTC).isoformat())
        sid = "bench"
        base = datetime(2026, 1, 1, tzinfo=UTC)
        events = [
            Event(timestamp=base + timedelta(milliseconds=i), duration=0, data={k: v for k, v in ev.items() if k not in ("timestamp",)})
            for i, ev in enumerate(_events(n, sid))
        ]
        t = time.perf_counter()
        for i in range(0, n, BATCH):
            storage.insert_many("bench", events[i : i + BATCH])
        storage.commit()
        elapsed = time.perf_counter() - t
        assert storage.get_eventcount("bench") == n
    return n / elapsed


def run_perf(n: int = 100_000, repeats: int = 3) -> list[dict[str, Any]]:
    """Best of `repeats` alternating rounds for each side, so a busy moment on the machine
    does not decide the comparison."""
    fg_raw, fg_val, aw_runs = [], [], []
    for _ in range(repeats):
        fg_raw.append(bench_filegram(n, validate=False))
        fg_val.append(bench_filegram(n, validate=True))
        aw_runs.append(bench_activitywatch(n))
    fg_raw_best, fg_val_best = max(fg_raw), max(fg_val)
    aw = None if aw_runs[0] is None else max(r for r in aw_runs if r is not None)
    rows = [
        {"benchmark": "store ingest", "metric": f"FileGram add_actions, {n:,} actions, batches of {BATCH}, best of {repeats}", "value": round(fg_raw_best), "unit": "actions/s", "target": ">= 1.5x ActivityWatch"},
        {"benchmark": "store ingest", "metric": "FileGram add_actions with validation", "value": round(fg_val_best), "unit": "actions/s", "target": ""},
    ]
    if aw is None:
        rows.append({"benchmark": "store ingest", "metric": "ActivityWatch insert_many", "value": None, "unit": "actions/s", "target": "install the bench extra (aw-core)"})
    else:
        rows.append({"benchmark": "store ingest", "metric": "ActivityWatch (aw-core) insert_many", "value": round(aw), "unit": "events/s", "target": ""})
        rows.append({"benchmark": "store ingest", "metric": "FileGram / ActivityWatch", "value": round(fg_raw_best / aw, 2), "unit": "x", "target": ">= 1.5"})
        rows.append({"benchmark": "store ingest", "metric": "FileGram with validation / ActivityWatch", "value": round(fg_val_best / aw, 2), "unit": "x", "target": ">= 1.5"})
    return rows


def print_rows(rows: list[dict[str, Any]]) -> None:
    from rich.console import Console
    from rich.table import Table

    t = Table(show_edge=False)
    for col in ("benchmark", "metric", "value", "unit", "target"):
        t.add_column(col, justify="right" if col == "value" else "left")
    for r in rows:
        v = r["value"]
        t.add_row(r["benchmark"], r["metric"], "n/a" if v is None else f"{v:,}" if isinstance(v, int) else str(v), r["unit"], r.get("target", ""))
    Console().print(t)


if __name__ == "__main__":
    print_rows(run_perf(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000))
