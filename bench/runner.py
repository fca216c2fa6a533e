"""One benchmark run: trajectories -> question bank -> every method -> predictions -> report.

Questions are grouped by their inputs, so each method ingests each distinct context once
(a user's history, an anonymous trajectory, an interleaved pair, a line-up) and answers all
the questions about it. With workers > 1 the contexts are split across processes.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from filegram.config import Config

from .answerers import OfflineAnswerer, make_answerer
from .context import build_context
from .methods import Method, make_methods
from .questions import Question
from .scoring import Prediction, score_choice
from .trajectories import Trajectory
from .truth import Truth

Progress = Callable[[int, int], None]


@dataclass
class RunOptions:
    methods: Sequence[str] | None = None
    ablations: bool = True
    budget_tokens: int = 16000
    workers: int = 1
    offline: bool = False
    memory_answerer: bool = False
    engine: str = "local"  # or "ray": question groups as Ray tasks (bench/engines.py)
    address: str | None = None  # an existing Ray cluster
    task_ids: bool = False  # give FileGramOS the task ids of known tasks (default: none)


@dataclass
class RunOutput:
    predictions: list[Prediction]
    method_names: list[str]
    method_descriptions: dict[str, str]
    answerer: str
    judge: str
    seconds: float
    timings: dict[str, float] = field(default_factory=dict)
    tier_checks: list[tuple[str, str, str, str]] = field(default_factory=list)


def _group(questions: Sequence[Question]) -> list[list[Question]]:
    groups: dict[tuple, list[Question]] = defaultdict(list)
    for q in questions:
        groups[q.context_key()].append(q)
    return list(groups.values())


TierCheck = tuple[str, str, str, str]  # (level, dim, true tier, memory's tier)


def _tier_checks(m: Method, q: Question, trajs: dict[str, Trajectory], tiers: dict[str, dict[str, str]],
                 dims_of: dict[str, tuple[str, ...]]) -> list[TierCheck]:
    """FileGramOS' tiers against the ground truth: per user (AttrRec histories, all dims) and
    per session (BehavFP, the task's dims)."""
    seen_fn = getattr(m, "tiers_seen", None)
    if seen_fn is None or q.sub_track not in ("AttrRec", "BehavFP") or not q.profile_id:
        return []
    seen = seen_fn()
    out: list[TierCheck] = []
    if q.sub_track == "AttrRec":
        for d, t in tiers[q.profile_id].items():
            out.append(("user", d, t, str(seen.get("", {}).get(d) or "unknown")))
    else:
        from .trajectories import effective_tiers

        t = trajs[q.input_trajectories[0]]
        eff = effective_tiers(tiers[q.profile_id], t)
        got = seen.get(q.labels[0], {})
        for d in dims_of.get(t.task_id or "", ()):
            out.append(("session", d, eff[d], str(got.get(d) or "unknown")))
    return out


def _answer_groups(groups: list[list[Question]], trajs: dict[str, Trajectory], titles: dict[str, str],
                   opts: RunOptions, config: Config, progress: Progress | None = None,
                   truth: Truth | None = None) -> tuple[list[Prediction], dict[str, float], list[TierCheck]]:
    answerer = make_answerer(config, offline=opts.offline)
    methods: list[Method] = make_methods(opts.methods, config=config, ablations=opts.ablations,
                                         budget_tokens=opts.budget_tokens, memory_answerer=opts.memory_answerer,
                                         task_ids=opts.task_ids)
    preds: list[Prediction] = []
    timing: dict[str, float] = defaultdict(float)
    checks: list[TierCheck] = []
    tiers = {pid: dict(p.tiers) for pid, p in truth.profiles.items()} if truth else {}
    dims_of = {tid: t.dims for tid, t in truth.tasks.items()} if truth else {}
    total = sum(len(g) for g in groups)
    done = 0
    for group in groups:
        ctx = build_context(group[0], trajs, titles)
        for m in methods:
            t0 = time.perf_counter()
            m.ingest(ctx)
            if truth is not None:
                probe = next((x for x in group if x.sub_track in ("AttrRec", "BehavFP")), None)
                if probe is not None:
                    checks.extend(_tier_checks(m, probe, trajs, tiers, dims_of))
            for q in group:
                for name, pred in m.direct_answers(q).items():
                    if q.is_open:
                        preds.append(Prediction(q.question_id, name, pred, answerer.judge(q, str(pred))))
                    else:
                        preds.append(Prediction(q.question_id, name, pred, score_choice(q, int(pred))))
                for name, ev in m.evidence(q).items():
                    if q.is_open:
                        ans = answerer.open(q, ev)
                        preds.append(Prediction(q.question_id, name, ans, answerer.judge(q, ans)))
                    else:
                        choice = answerer.choose(q, ev)
                        preds.append(Prediction(q.question_id, name, choice, score_choice(q, choice)))
            m.close()
            timing[m.name] += time.perf_counter() - t0
        done += len(group)
        if progress:
            progress(done, total)
    return preds, dict(timing), checks


def _worker(args: tuple) -> tuple[list[Prediction], dict[str, float], list[TierCheck]]:
    groups, trajs, titles, opts, config, truth = args
    return _answer_groups(groups, trajs, titles, opts, config, truth=truth)


def run_methods(questions: Sequence[Question], trajs: Sequence[Trajectory], truth: Truth, *,
                config: Config | None = None, options: RunOptions | None = None,
                progress: Progress | None = None) -> RunOutput:
    opts = options or RunOptions()
    config = config or Config()
    t0 = time.perf_counter()
    by_key = {t.key: t for t in trajs}
    titles = {tid: t.title for tid, t in truth.tasks.items()}
    answerable = [q for q in questions if all(k in by_key for k in q.input_trajectories)]
    groups = _group(answerable)
    methods = make_methods(opts.methods, config=config, ablations=opts.ablations, budget_tokens=opts.budget_tokens,
                           memory_answerer=opts.memory_answerer, task_ids=opts.task_ids)
    names = [n for m in methods for n in m.names()]
    descriptions = {n: getattr(m, "variant_descriptions", {}).get(n, m.description) for m in methods for n in m.names()}
    answerer = make_answerer(config, offline=opts.offline)
    if opts.engine == "ray" and isinstance(answerer, OfflineAnswerer):
        from .engines import answer_on_ray

        preds, timing, checks = answer_on_ray(_answer_groups, groups, by_key, titles, opts, config, truth, progress)
    elif opts.workers > 1 and len(groups) > 1 and isinstance(answerer, OfflineAnswerer):
        groups.sort(key=lambda g: -len(g[0].input_trajectories) * len(g))
        shards: list[list[list[Question]]] = [[] for _ in range(opts.workers)]
        for i, g in enumerate(groups):
            shards[i % opts.workers].append(g)
        preds: list[Prediction] = []
        timing: dict[str, float] = defaultdict(float)
        checks: list[TierCheck] = []
        total = len(answerable)
        done = 0
        with ProcessPoolExecutor(opts.workers) as pool:
            # smaller batches so the progress bar moves
            batches = []
            for shard in shards:
                for i in range(0, len(shard), 50):
                    batches.append(shard[i:i + 50])
            futs = [pool.submit(_worker, (b, {k: by_key[k] for g in b for q in g[:1] for k in q.input_trajectories}, titles, opts, config, truth)) for b in batches]
            for f, b in zip(futs, batches, strict=True):
                p, tm, ck = f.result()
                preds.extend(p)
                checks.extend(ck)
                for k, v in tm.items():
                    timing[k] += v
                done += sum(len(g) for g in b)
                if progress:
                    progress(done, total)
    else:
        preds, timing, checks = _answer_groups(groups, by_key, titles, opts, config, progress, truth)
    return RunOutput(preds, names, descriptions, answerer.name, answerer.judge_name,
                     time.perf_counter() - t0, dict(timing), checks)
