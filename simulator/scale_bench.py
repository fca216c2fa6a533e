"""The scaling benchmark: trajectories per minute on the local engine and on Ray, with 1 and 2
workers, in fast mode and in agent mode against the fake model server (simulator/fake_model.py)
with a fixed latency. Figures, not asserts (docs/simulator.md has a run's table).

    python -m filegram.simulator.scale_bench [--pairs 64] [--agent-pairs 8] [--latency 0.5]
                                             [--workers 1 2] [--engines local ray] [--json]

Ray's start-up (the runtime, and each worker's imports and first pair) is measured on its own:
a cluster that is already up does not pay it again.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from .fake_model import SCRIPT, FakeModel
from .llmgate import Limits

FAST_PROFILES = ("p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10")
AGENT_TASK = "T-01"
WARM_TASK = "T-32"  # not among the measured pairs


@contextlib.contextmanager
def _engine(engine: str, workers: int, timings: dict[str, float], warm_up: Callable[[], object]) -> Iterator[None]:
    """Ray's runtime, started and its workers warmed up (imports, a first pair each) before
    the clock starts: a running cluster has paid that once; its cost is reported apart."""
    if engine != "ray":
        yield
        return
    from .engines import ray_runtime

    t = time.perf_counter()
    with ray_runtime(None, workers):
        warm_up()
        timings["startup"] = time.perf_counter() - t
        yield


def _pairs(n: int, profiles: Sequence[str]) -> tuple[list[str], list[str]]:
    from .tasks import TASKS

    tasks = list(TASKS)[: max(1, -(-n // len(profiles)))]
    return list(profiles)[: max(1, -(-n // len(tasks)))], tasks


def measure(engine: str, mode: str, workers: int, n: int, latency: float) -> dict[str, Any]:
    from .runner import simulate
    from .workspace import build_workspace

    build_workspace.cache_clear()  # every measurement starts cold (forked workers inherit the cache)
    from .profiles import PROFILES

    timings: dict[str, float] = {}
    tmp = Path(tempfile.mkdtemp(prefix="filegram-scale-"))
    try:
        with FakeModel(latency=latency) as model:
            agent_kw: dict[str, Any] = {
                "agent": "openai/fake", "agent_options": {"api_base": model.api_base, "max_turns": 10},
                "limits": Limits(per_minute=0)} if mode == "agent" else {}

            def warm_up() -> object:
                return simulate(tmp / "warm", profiles=list(PROFILES)[-workers:], tasks=[WARM_TASK], seed=0,
                                workers=workers, engine=engine, **agent_kw)

            with _engine(engine, workers, timings, warm_up):
                if mode == "fast":
                    profiles, tasks = _pairs(n, FAST_PROFILES)
                else:
                    profiles, tasks = list(PROFILES)[:n], [AGENT_TASK]
                t = time.perf_counter()
                paths = simulate(tmp / "out", profiles=profiles, tasks=tasks, seed=0, workers=workers,
                                 engine=engine, **agent_kw)
                seconds = time.perf_counter() - t
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {"engine": engine, "mode": mode, "workers": workers, "trajectories": len(paths),
            "seconds": round(seconds, 1), "per_minute": round(len(paths) / seconds * 60, 1),
            "ray_startup_s": round(timings["startup"], 1) if "startup" in timings else None}  # incl. warm-up


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m filegram.simulator.scale_bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=64, help="fast-mode trajectories per measurement")
    ap.add_argument("--agent-pairs", type=int, default=8, help="agent-mode trajectories per measurement")
    ap.add_argument("--latency", type=float, default=0.5, help="the fake model's seconds per answer")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--engines", nargs="+", default=["local", "ray"], choices=["local", "ray"])
    ap.add_argument("--modes", nargs="+", default=["fast", "agent"], choices=["fast", "agent"])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows = []
    for mode in args.modes:
        for engine in args.engines:
            for w in args.workers:
                n = args.pairs if mode == "fast" else args.agent_pairs
                rows.append(measure(engine, mode, w, n, args.latency))
                if not args.json:
                    r = rows[-1]
                    print(f"{r['mode']:<6} {r['engine']:<6} {r['workers']:>2} workers  {r['trajectories']:>4} in "
                          f"{r['seconds']:>6.1f} s  {r['per_minute']:>7.1f} / min"
                          + (f"  (Ray start-up and warm-up {r['ray_startup_s']} s)" if r["ray_startup_s"] is not None else ""),
                          flush=True)
    if args.json:
        print(json.dumps({"turns_per_agent_trajectory": len(SCRIPT), "latency_s": args.latency, "rows": rows}, indent=2))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
