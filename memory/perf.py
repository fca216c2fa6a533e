"""Memory benchmarks: `python -m filegram.memory.perf` prints a table.

Figures, never asserts: the machine is shared and timings vary. Sessions come from
memory's own small generator (filegram.memory.synth), so this runs without the simulator.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from filegram.store import Store

from .core import Memory
from .dimensions import DIMENSIONS, TASKS
from .synth import store_session

PERSONAS = [dict(zip("ABCDEF", t, strict=True)) for t in
            ("LLLLLM", "LLRRLM", "MRRRMR", "MLMLRL", "RMMMRM", "RMLRMR", "LMMMML", "RRMLRR", "MMLMLL", "LRRRRM",
             "MLLLLR", "RLRLMM", "LMLMLL", "MRLLMR", "RLMMRM", "MMRMLR", "LLLLML", "RRRRLM", "MMRMMR", "LRMRRL")]
TASK_IDS = sorted(TASKS)


def _fill(store: Store, n: int, seed: int = 0, start: float = 1.7e12) -> list[str]:
    ids = []
    for i in range(n):
        persona = PERSONAS[(seed + i // 32) % len(PERSONAS)]
        ids.append(store_session(store, persona, TASK_IDS[i % 32], seed=seed * 100_000 + i, start_ms=start + i * 3.6e6,
                                 label=f"s{i}"))
    return ids


def bench_consolidate(tmp: Path, n: int = 640) -> dict[str, Any]:
    store = Store(tmp / "consolidate.db")
    _fill(store, n)
    actions = store.action_count()
    mem = Memory(store)
    t0, c0 = time.perf_counter(), time.process_time()
    done = mem.consolidate()
    secs, cpu = time.perf_counter() - t0, time.process_time() - c0
    t1 = time.perf_counter()
    mem.profile()
    prof_secs = time.perf_counter() - t1
    store.close()
    return {"benchmark": f"ingest + consolidate {done} sessions / {actions} actions", "metric": "wall time",
            "value": round(secs, 3),
            "unit": "s", "target": "< 2 s",
            "note": f"CPU {cpu:.2f} s (wall includes other load); first profile() after it {prof_secs * 1000:.0f} ms"}


def _update_ms(tmp: Path, stored: int, repeats: int = 15) -> tuple[float, float]:
    """Median wall and CPU milliseconds of ingesting one new session into a store that
    already holds `stored` consolidated sessions."""
    store = Store(tmp / f"update_{stored}.db")
    _fill(store, stored)
    mem = Memory(store)
    mem.consolidate()
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # same WAL state for both sizes
    wall, cpu = [], []
    for r in range(repeats):
        sid = store_session(store, PERSONAS[r % 20], TASK_IDS[r % 32], seed=9_000_000 + r,
                            start_ms=1.7e12 + (stored + r + 1) * 3.6e6, label=f"new{r}")
        t0, c0 = time.perf_counter(), time.process_time()
        mem.ingest_session(sid)
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    store.close()
    return statistics.median(wall), statistics.median(cpu)


def bench_update_ratio(tmp: Path) -> list[dict[str, Any]]:
    small, small_cpu = _update_ms(tmp, 10)
    large, large_cpu = _update_ms(tmp, 1000)
    return [
        {"benchmark": "one incremental update at 10 stored sessions", "metric": "median wall time of 15",
         "value": round(small, 2),
         "unit": "ms", "target": "", "note": f"CPU {small_cpu:.2f} ms; wall includes the fsync of the commit"},
        {"benchmark": "one incremental update at 1,000 stored sessions", "metric": "median wall time of 15",
         "value": round(large, 2),
         "unit": "ms", "target": "", "note": f"CPU {large_cpu:.2f} ms"},
        {"benchmark": "update time ratio 1,000 / 10 sessions", "metric": "ratio of median wall times",
         "value": round(large / small, 3), "unit": "x",
         "target": "< 1.5", "note": f"CPU ratio {large_cpu / small_cpu:.3f}"},
    ]


def bench_answer(tmp: Path, n_questions: int = 200, sessions: int = 32) -> dict[str, Any]:
    store = Store(tmp / f"answer_{sessions}.db")
    _fill(store, sessions, seed=3)
    mem = Memory(store)
    mem.consolidate()
    rng = random.Random(1)
    labels = [s["label"] for s in store.sessions()]
    qs: list[tuple[str, list[str] | None]] = []
    for i in range(n_questions):
        d = rng.choice(list(DIMENSIONS))
        dim = DIMENSIONS[d]
        kind = i % 4
        if kind == 0:
            qs.append((f"Which description fits this user's {dim.name} ({d})?", [dim.tiers[t] for t in "LMR"]))
        elif kind == 1:
            qs.append((f"Which change characterises session {rng.choice(labels)}?",
                       [f"{x}: {a} -> {b}" for x, a, b in (("C", "R", "M"), ("A", "M", "L"), ("D", "L", "M"), ("F", "M", "R"))]))
        elif kind == 2:
            qs.append((f"How does this user handle {dim.name.lower()}?", None))
        else:
            qs.append(("Summarise this user's working style.", None))
    mem.ask(*qs[0])  # warm the per-version cache as a running daemon would have it
    times = []
    for q, choices in qs:
        t0 = time.perf_counter()
        mem.ask(q, choices)
        times.append((time.perf_counter() - t0) * 1000)
    store.close()
    times.sort()
    p95 = times[int(len(times) * 0.95) - 1]
    return {"benchmark": f"offline answer latency ({len(times)} questions, {sessions} sessions)", "metric": "p95",
            "value": round(p95, 2),
            "unit": "ms", "target": "< 50 ms", "note": f"median {statistics.median(times):.1f} ms"}


def run_perf() -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="filegram-memory-perf-") as d:
        tmp = Path(d)
        rows = [bench_consolidate(tmp)]
        rows += bench_update_ratio(tmp)
        rows.append(bench_answer(tmp))
        rows.append(bench_answer(tmp, n_questions=100, sessions=1000))
    return rows


def main() -> int:
    rows = run_perf()
    try:
        from rich.console import Console
        from rich.table import Table

        table = Table(title="FileGram memory benchmarks")
        cols = ("benchmark", "metric", "value", "unit", "target", "note")
        for col in cols:
            table.add_column(col)
        for r in rows:
            table.add_row(*(str(r.get(c, "")) for c in cols))
        Console().print(table)
    except ImportError:  # pragma: no cover
        for r in rows:
            print(f"{r['benchmark']:<60} {r['value']:>10} {r['unit']:<3} {r['target']:<8} {r['note']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
