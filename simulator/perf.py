"""Simulator benchmarks: `python -m filegram.simulator.perf [--live N]` prints a table.

Figures, not asserts: the fast path's target is all 640 trajectories in under 60 s on 2 cores;
recorded live runs are paced for the recorder (0.12-1 s between steps), so they are measured in
trajectories per minute.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

LIVE_SAMPLE = (("p1", "T-10"), ("p3", "T-09"), ("p16", "T-22"), ("p8", "T-05"))


def _row(name: str, n: int, seconds: float, unit: str, note: str = "", target: str = "") -> dict[str, Any]:
    """One row; the keys benchmark/metric/value/unit/target are those of `filegram bench perf`."""
    per_minute = unit == "per minute"
    rate = n / seconds * (60 if per_minute else 1) if seconds > 0 else float("inf")
    what = "trajectories" if "workspace" not in name else "workspaces"
    return {"benchmark": name, "metric": f"{n} in {seconds:.2f} s" + (f" ({note})" if note else ""),
            "value": round(rate, 2), "unit": f"{what}/{'min' if per_minute else 's'}", "target": target,
            "n": n, "seconds": round(seconds, 2), "note": note}


def run_perf(*, workers: int = 2, live_n: int = 2, recorded: bool = True) -> list[dict[str, Any]]:
    from .fast import trace_plan
    from .live import prepare_sandbox, run_live
    from .policy import plan_trajectory
    from .profiles import PROFILES
    from .runner import simulate
    from .tasks import TASKS
    from .workspace import build_workspace

    rows = []
    build_workspace.cache_clear()
    t = time.perf_counter()
    for tid in TASKS:
        for lang in ("en", "zh"):
            build_workspace(tid, 0, lang)
    rows.append(_row("input workspaces (32 tasks x 2 languages)", 64, time.perf_counter() - t, "per second"))

    t = time.perf_counter()
    n_events = 0
    for pid in PROFILES:
        for tid in TASKS:
            n_events += len(trace_plan(plan_trajectory(pid, tid, 0)).events)
    dt = time.perf_counter() - t
    rows.append(_row("plan + in-memory trace, 1 process", 640, dt, "per second", f"{n_events} actions"))

    tmp = Path(tempfile.mkdtemp(prefix="filegram-simperf-"))
    try:
        build_workspace.cache_clear()
        t = time.perf_counter()
        paths = simulate(tmp / "fast", seed=1, workers=workers)
        rows.append(_row(f"fast mode, all 640 to disk, {workers} workers", len(paths), time.perf_counter() - t,
                         "per second", target="640 in < 60 s on 2 cores"))
        sample = LIVE_SAMPLE[:max(live_n, 1)]
        t = time.perf_counter()
        steps = 0
        for pid, tid in sample:
            plan = plan_trajectory(pid, tid, 0)
            steps += len(plan.steps)
            root = prepare_sandbox(plan, tmp / "plain" / plan.name)
            run_live(plan, root, pause_scale=0, human_gaps=False)
        rows.append(_row("live file operations, unpaced (no recorder)", len(sample), time.perf_counter() - t,
                         "per minute", f"{steps} steps"))
        if recorded:
            try:
                from .live import load_recorder

                load_recorder()
            except Exception as exc:  # noqa: BLE001 - report, do not fail the table
                rows.append({"benchmark": "live mode recorded by the real recorder", "metric": f"skipped: {exc}",
                             "value": "", "unit": "", "target": "", "n": 0, "seconds": 0, "note": ""})
            else:
                t = time.perf_counter()
                for pid, tid in sample:
                    plan = plan_trajectory(pid, tid, 0)
                    run_live(plan, tmp / "rec" / plan.name / "workspace", tmp / "recout" / plan.name)
                rows.append(_row("live mode recorded by the real recorder", len(sample), time.perf_counter() - t,
                                 "per minute", f"{steps} steps, human gaps"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return rows


def print_table(rows: list[dict[str, Any]]) -> None:
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:  # pragma: no cover
        for r in rows:
            print(r)
        return
    table = Table(title="FileGramEngine benchmarks")
    cols = ("benchmark", "n", "seconds", "value", "unit", "note", "target")
    for col in cols:
        table.add_column(col, justify="right" if col in ("n", "seconds", "value") else "left")
    for r in rows:
        table.add_row(*(str(r.get(c, "")) for c in cols))
    Console().print(table)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m filegram.simulator.perf")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--live", type=int, default=2, help="live trajectories to time (default 2)")
    ap.add_argument("--no-recorder", action="store_true", help="skip the recorded live runs")
    args = ap.parse_args(argv)
    print_table(run_perf(workers=args.workers, live_n=args.live, recorded=not args.no_recorder))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
