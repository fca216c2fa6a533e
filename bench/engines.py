"""Scoring on Ray (`filegram bench run --engine ray`): the question groups go out as Ray tasks
in batches, each answered by the same code as on the local engine (runner.py), so results
are the same number for number; the simulation before it runs on the same Ray runtime
(filegram.simulator.engines)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from filegram.simulator.engines import ray_runtime, task_error

BATCH_GROUPS = 50  # question groups per Ray task: big enough to amortise a task, small enough to spread


def answer_on_ray(answer_groups: Callable[..., tuple[list[Any], dict[str, float], list[Any]]],
                  groups: Sequence[Sequence[Any]], trajs: dict[str, Any], titles: dict[str, str], opts: Any,
                  config: Any, truth: Any, progress: Callable[[int, int], None] | None = None,
                  ) -> tuple[list[Any], dict[str, float], list[Any]]:
    """`answer_groups(groups, trajs, titles, opts, config, truth=truth)` over batches of groups
    as Ray tasks; predictions come back in the groups' order."""
    with ray_runtime(getattr(opts, "address", None), max(int(opts.workers), 1)) as ray:
        task = ray.remote(num_cpus=1, max_retries=2)(_answer_batch)
        batches = [list(groups[i:i + BATCH_GROUPS]) for i in range(0, len(groups), BATCH_GROUPS)]
        refs = []
        for batch in batches:
            needed = {k: trajs[k] for g in batch for q in g[:1] for k in q.input_trajectories}
            refs.append(task.remote(answer_groups, batch, needed, titles, opts, config, truth))
        index = {ref: i for i, ref in enumerate(refs)}
        results: list[Any] = [None] * len(refs)
        total = sum(len(g) for g in groups)
        done = 0
        pending = list(refs)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            try:
                results[index[ready[0]]] = ray.get(ready[0])
            except ray.exceptions.RayError as exc:
                raise task_error(exc) from None
            done += sum(len(g) for g in batches[index[ready[0]]])
            if progress:
                progress(done, total)
    preds: list[Any] = []
    timing: dict[str, float] = defaultdict(float)
    checks: list[Any] = []
    for p, tm, ck in results:
        preds.extend(p)
        checks.extend(ck)
        for k, v in tm.items():
            timing[k] += v
    return preds, dict(timing), checks


def _answer_batch(answer_groups: Callable[..., Any], groups: list[Any], trajs: dict[str, Any], titles: dict[str, str],
                  opts: Any, config: Any, truth: Any) -> Any:
    return answer_groups(groups, trajs, titles, opts, config, truth=truth)
