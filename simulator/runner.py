"""`simulate`: many profile-task pairs, in worker processes or on Ray (engines.py), with an
optional progress bar; agent and live runs resume where they stopped (resume.py)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from filegram.errors import FileGramError

from .llmgate import Limits
from .profiles import PROFILES
from .tasks import TASKS


def _names(value: str | Iterable[str] | None, known: dict[str, Any], what: str) -> list[str]:
    if value is None:
        return list(known)
    items = [value] if isinstance(value, str) else list(value)
    out: list[str] = []
    for item in items:
        for part in str(item).split(","):
            part = part.strip()
            if not part:
                continue
            if part == "all":
                out.extend(known)
                continue
            if what == "task" and part.upper().startswith("T") and part[1:].lstrip("-").isdigit():
                part = f"T-{int(part[1:].lstrip('-')):02d}"
            if what == "profile" and part.isdigit():
                part = f"p{part}"
            if part not in known:
                raise FileGramError(f"unknown {what} '{part}' (known: {', '.join(list(known)[:3])}, ...)")
            out.append(part)
    return list(dict.fromkeys(out))


def run_pair(pid: str, tid: str, seed: int, out_dir: str, live: bool, agent: str | None,
             agent_options: dict[str, Any] | None, sandbox_base: str | None, scale: float = 1.0,
             expression: float = 1.0) -> str:
    """One profile-task pair into out_dir/<profile>_<task>/ (the unit a worker or Ray task runs)."""
    from .policy import plan_trajectory

    dest = Path(out_dir) / f"{pid}_{tid}"
    if agent:
        from .agent import run_agent

        return str(run_agent(pid, tid, model=agent, out=dest, seed=seed, live=live,
                             sandbox=Path(sandbox_base or tempfile.gettempdir()) / f"{pid}_{tid}" / "workspace",
                             **(agent_options or {})))
    plan = plan_trajectory(pid, tid, seed, scale=scale, expression=expression)
    if live:
        from .live import run_live

        base = Path(sandbox_base or tempfile.mkdtemp(prefix="filegram-sim-"))
        return str(run_live(plan, base / f"{pid}_{tid}" / "workspace", dest))
    from .fast import run_fast

    return str(run_fast(plan, dest))


def simulate(
    out_dir: str | Path,
    profiles: str | Sequence[str] | None = None,
    tasks: str | Sequence[str] | None = None,
    seed: int = 0,
    live: bool = False,
    workers: int = 1,
    agent: str | None = None,
    progress: bool | Callable[[int, int, str], None] | None = None,
    *,
    agent_options: dict[str, Any] | None = None,
    sandbox_dir: str | Path | None = None,
    engine: str = "local",
    address: str | None = None,
    limits: Limits | None = None,
    scale: float = 1.0,
    expression: float = 1.0,
) -> list[Path]:
    """Write one FileGram trajectory folder per profile-task pair to out_dir/<profile>_<task>/.

    `progress` is True for a rich progress bar, or a callable(done, total, name). Jobs are
    ordered task by task, so each worker builds a task's input workspace once. `engine` is
    "local" or "ray" (`address`: an existing Ray cluster); `limits` pace agent-mode LLM
    calls per provider across all workers. In agent and live mode, pairs whose folder
    already holds a whole trajectory of the same seed, mode and knobs are kept, not run again.
    `scale` and `expression` are the robustness knobs of the offline policies (docs/simulator.md).
    """
    from .engines import check_engine
    from .policy import check_knobs

    check_engine(engine, address)
    check_knobs(scale, expression)
    if agent and (float(scale) != 1.0 or float(expression) != 1.0):
        raise FileGramError("--scale and --expression apply to the offline policies, not to --agent")
    limits = limits or Limits()
    pids = _names(profiles, PROFILES, "profile")
    tids = _names(tasks, TASKS, "task")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    own_sandbox = None
    if live or agent:
        if live:
            from .live import load_recorder

            load_recorder()  # fail early with a clear message
        if sandbox_dir is None:
            sandbox_dir = own_sandbox = tempfile.mkdtemp(prefix="filegram-sandbox-")
    jobs = [(p, t) for t in tids for p in pids]
    total = len(jobs)
    bar, tick = _progress(progress, total)
    results: list[Path] = []
    if live or agent:
        from .resume import finished

        results = [out / f"{p}_{t}" for p, t in jobs
                   if finished(out / f"{p}_{t}", seed=int(seed), live=bool(live), agent=agent,
                               scale=float(scale), expression=float(expression))]
        done = {r.name for r in results}
        jobs = [(p, t) for p, t in jobs if f"{p}_{t}" not in done]
        for i, r in enumerate(results, 1):
            tick(i, r.name)
    args = (int(seed), str(out), bool(live), agent, agent_options, str(sandbox_dir) if sandbox_dir else None,
            float(scale), float(expression))
    try:
        if engine == "ray" and jobs:
            from .engines import run_on_ray

            for path in run_on_ray(run_pair, jobs, out, seed=int(seed), live=bool(live), agent=agent,
                                   agent_options=agent_options, limits=limits, workers=workers, address=address,
                                   scale=float(scale), expression=float(expression)):
                results.append(path)
                tick(len(results), path.name)
        elif workers <= 1 or len(jobs) <= 1:
            from .engines import local_gate

            with local_gate(limits, processes=False):
                for p, t in jobs:
                    results.append(Path(run_pair(p, t, *args)))
                    tick(len(results), f"{p}_{t}")
        else:
            from .engines import local_gate

            workers = min(workers, os.cpu_count() or 1, len(jobs))
            with local_gate(limits, processes=bool(agent)) as (init, init_args), \
                    ProcessPoolExecutor(max_workers=workers, initializer=init, initargs=init_args) as pool:
                futs = [pool.submit(run_pair, p, t, *args) for p, t in jobs]
                for fut in as_completed(futs):
                    path = Path(fut.result())
                    results.append(path)
                    tick(len(results), path.name)
    finally:
        if bar is not None:
            bar.stop()
        if own_sandbox is not None:  # the trajectories keep workspace_root as a name only
            import shutil

            shutil.rmtree(own_sandbox, ignore_errors=True)
    return sorted(results, key=lambda p: _order_key(p.name))


def _order_key(name: str) -> tuple[int, int]:
    pid, tid = name.split("_", 1)
    return int(pid[1:]), int(tid[2:])


def _progress(progress: Any, total: int) -> tuple[Any, Callable[[int, str], None]]:
    if callable(progress):
        return None, lambda i, name: progress(i, total, name)
    if not progress:
        return None, lambda i, name: None
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(TextColumn("simulate"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   TextColumn("{task.description}"), transient=False)
    bar.start()
    tid = bar.add_task("", total=total)

    def tick(i: int, name: str) -> None:
        bar.update(tid, completed=i, description=name)

    return bar, tick
