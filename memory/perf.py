"""Memory benchmarks: `python -m filegram.memory.perf [--users DIR]` prints a table.

Figures, never asserts: the machine is shared and timings vary. Sessions come from
memory's own small generator (filegram.memory.synth), so this runs without the simulator;
the consolidate throughput on real-looking users needs a users folder (one sub-folder of
trajectories per user, e.g. ../shared/datasets/users-dev): `--users DIR` or the environment
variable FILEGRAM_PERF_USERS, else the row says it was skipped.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from filegram.store import Store

from . import channels as ch
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


UPDATE_REPEATS = 31


def _update_store(tmp: Path, stored: int) -> tuple[Store, Memory]:
    """A store that already holds `stored` consolidated sessions."""
    store = Store(tmp / f"update_{stored}.db")
    _fill(store, stored)
    mem = Memory(store)
    mem.consolidate()
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # same WAL state for both sizes
    return store, mem


def _update_ms(tmp: Path, sizes: tuple[int, ...], repeats: int = UPDATE_REPEATS) -> dict[int, tuple[float, float]]:
    """Median wall and CPU milliseconds of ingesting one new session into stores that already
    hold each of `sizes` consolidated sessions. The sizes take turns, session by session
    (the same new session for each): load on a shared machine comes and goes over seconds,
    and measuring one size after the other let it land on one side (ratios of 0.9 to 1.6
    from run to run for the same code)."""
    held = {n: _update_store(tmp, n) for n in sizes}
    wall: dict[int, list[float]] = {n: [] for n in sizes}
    cpu: dict[int, list[float]] = {n: [] for n in sizes}
    for r in range(repeats):
        for n in (sizes if r % 2 == 0 else sizes[::-1]):  # neither size always goes first
            store, mem = held[n]
            sid = store_session(store, PERSONAS[r % 20], TASK_IDS[r % 32], seed=9_000_000 + r,
                                start_ms=1.7e12 + (n + r + 1) * 3.6e6, label=f"new{r}")
            t0, c0 = time.perf_counter(), time.process_time()
            mem.ingest_session(sid)
            wall[n].append((time.perf_counter() - t0) * 1000)
            cpu[n].append((time.process_time() - c0) * 1000)
    for store, _ in held.values():
        store.close()
    return {n: (statistics.median(wall[n]), statistics.median(cpu[n])) for n in sizes}


def bench_update_ratio(tmp: Path) -> list[dict[str, Any]]:
    times = _update_ms(tmp, (10, 1000))
    (small, small_cpu), (large, large_cpu) = times[10], times[1000]
    metric = f"median wall time of {UPDATE_REPEATS}"
    return [
        {"benchmark": "one incremental update at 10 stored sessions", "metric": metric,
         "value": round(small, 2),
         "unit": "ms", "target": "", "note": f"CPU {small_cpu:.2f} ms; wall includes the commit (without fsync: Store.derived_writes)"},
        {"benchmark": "one incremental update at 1,000 stored sessions", "metric": metric,
         "value": round(large, 2),
         "unit": "ms", "target": "", "note": f"CPU {large_cpu:.2f} ms"},
        {"benchmark": "update time ratio 1,000 / 10 sessions", "metric": "ratio of median wall times",
         "value": round(large / small, 3), "unit": "x",
         "target": "< 1.5", "note": f"CPU ratio {large_cpu / small_cpu:.3f}; the two sizes measured in turn"},
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


USERS_ENV = "FILEGRAM_PERF_USERS"
USERS_TARGET = 30_000  # events/s (issue 13)


def users_dir(arg: str | Path | None = None) -> Path | None:
    """The users folder to measure: the argument, else $FILEGRAM_PERF_USERS, else
    ../shared/datasets/users-dev next to the source tree, when it exists."""
    for cand in (arg, os.environ.get(USERS_ENV), Path(__file__).resolve().parents[1].parent / "shared/datasets/users-dev"):
        if cand and Path(cand).is_dir():
            return Path(cand)
    return None


def bench_users(tmp: Path, users: Path, repeats: int = 3) -> dict[str, Any]:
    """Memory.consolidate() throughput in-process, all sessions of one user per store (each
    user's trajectories imported into a store of its own first, not timed). The best of
    `repeats` passes over all users, memory emptied between passes."""
    from filegram.trajectory import import_paths

    stores = []
    for i, folder in enumerate(sorted(p for p in users.iterdir() if p.is_dir())):
        store = Store(tmp / f"user{i}.db")
        import_paths(store, [folder])
        stores.append(store)
    events = sum(s.action_count() for s in stores)
    best_wall, best_cpu, per_user = float("inf"), float("inf"), []
    for _ in range(repeats):
        wall = cpu = 0.0
        times = []
        for store in stores:
            with store.transaction():
                ch.wipe(store)
            mem = Memory(store)
            c0, t0 = time.process_time(), time.perf_counter()
            mem.consolidate()
            dt = time.perf_counter() - t0
            wall, cpu = wall + dt, cpu + time.process_time() - c0
            times.append(store.action_count() / dt)
        if wall < best_wall:
            best_wall, best_cpu, per_user = wall, cpu, times
    for store in stores:
        store.close()
    return {"benchmark": f"consolidate {users.name}: {len(stores)} users, one store each, {events} events",
            "metric": f"events/s (best of {repeats})", "value": round(events / best_wall),
            "unit": "events/s", "target": f">= {USERS_TARGET:,}",
            "note": (f"wall {best_wall * 1000:.0f} ms, CPU {best_cpu * 1000:.0f} ms ({events / best_cpu:,.0f} events/s "
                     f"of CPU); median user {statistics.median(per_user):,.0f} events/s")}


def run_perf(users: str | Path | None = None) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="filegram-memory-perf-") as d:
        tmp = Path(d)
        folder = users_dir(users)
        if folder is not None:
            rows = [bench_users(tmp, folder)]
        else:
            rows = [{"benchmark": "consolidate a users folder", "metric": f"skipped: set {USERS_ENV}=DIR",
                     "value": "", "unit": "", "target": f">= {USERS_TARGET:,} events/s"}]
        rows.append(bench_consolidate(tmp))
        rows += bench_update_ratio(tmp)
        rows.append(bench_answer(tmp))
        rows.append(bench_answer(tmp, n_questions=100, sessions=1000))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m filegram.memory.perf", description=__doc__.splitlines()[0])
    ap.add_argument("--users", metavar="DIR", help=f"users folder for the consolidate throughput (default ${USERS_ENV})")
    args = ap.parse_args(argv)
    rows = run_perf(args.users)
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
