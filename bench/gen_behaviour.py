"""T2 questions: how does this user work? Their behaviour on a task they have not done, and
what tells two users apart when their actions are interleaved."""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

from .bank import (
    BankSpec,
    QuestionIndex,
    make_question,
    mismatch,
    sample,
    shuffle_options,
    subtask_rng,
)
from .questions import Question
from .trajectories import Trajectory
from .truth import DIM_CHANNEL, DIMS, TIERS
from .wording import Wording

N_FOLDS = 4


def _folds(rng: random.Random, trajs: list[Trajectory]) -> list[list[Trajectory]]:
    order = list(trajs)
    rng.shuffle(order)
    return [order[i::N_FOLDS] for i in range(N_FOLDS)]


def gen_behav_inf(ix: QuestionIndex, spec: BankSpec) -> list[Question]:
    """Predict behaviour on a held-out task from the user's other trajectories (4 folds per
    user, so a method builds 4 memories per user, never one that saw the held-out task)."""
    rng = subtask_rng(spec.seed, "BehavInf")
    pool = []
    for pid in ix.profiles:
        for fold in _folds(rng, ix.by_profile[pid]):
            held = {t.key for t in fold}
            ctx = [t for t in ix.by_profile[pid] if t.key not in held]
            for t in fold:
                pool.append((pid, t, ctx))
    out = []
    for pid, t, ctx in sample(rng, pool, spec.size("BehavInf")):
        dims = list(ix.dims(t))
        if len(dims) < 2:
            continue
        rng.shuffle(dims)
        dims = sorted(dims[:2])
        tiers = ix.truth.tiers(pid)
        true_vec = tuple(tiers[d] for d in dims)
        combos = [(a, b) for a in TIERS for b in TIERS if (a, b) != true_vec]
        near = [c for c in combos if mismatch(dict(zip(dims, c, strict=True)), tiers, dims) == 1]
        far = [c for c in combos if c not in near]
        rng.shuffle(near)
        rng.shuffle(far)
        picks = near[:2] + far[:1]
        vecs = [true_vec, *picks]
        words = Wording(rng)
        opts = [("; ".join(words.claim(d, v) for d, v in zip(dims, vec, strict=True)),
                 {"tiers": dict(zip(dims, vec, strict=True))}) for vec in vecs]
        texts, claims, correct = shuffle_options(rng, opts, 0)
        out.append(make_question(
            "BehavInf", len(out), DIM_CHANNEL[dims[0]], pid, [c.key for c in ctx],
            f"This user is about to start task {ix.title(t.task_id)}, which they have not done "
            f"before. How will they most likely work?",
            texts, correct, context="history", labels=[c.task_id for c in ctx], dims=dims,
            held_out=t.key, option_claims=claims,
        ))
    return out


def gen_trace_dis(ix: QuestionIndex, spec: BankSpec) -> list[Question]:
    """Two users on the same task, actions interleaved and tagged U1/U2: what is the main
    difference? Distractors: the same difference reversed, a wrong pair of tiers, or a
    difference on a dimension where the two act alike."""
    rng = subtask_rng(spec.seed, "TraceDis")
    by_task: dict[str, list[Trajectory]] = defaultdict(list)
    for pid in ix.profiles:
        for t in ix.by_profile[pid]:
            by_task[t.task_id].append(t)
    pool = []
    for tid in sorted(by_task):
        ts = by_task[tid]
        for i in range(len(ts)):
            for j in range(i + 1, len(ts)):
                pool.append((ts[i], ts[j]))
    rng.shuffle(pool)
    out: list[Question] = []
    want = spec.size("TraceDis")
    for a, b in pool:
        if len(out) >= want:
            break
        if rng.random() < 0.5:
            a, b = b, a
        dims = ix.dims(a)
        ea, eb = ix.eff(a), ix.eff(b)
        differ = [d for d in dims if ea[d] != eb[d]]
        if not differ:
            continue
        d = rng.choice(differ)
        same = [x for x in DIMS if x in ea and x in eb and ea[x] == eb[x]]

        words = Wording(rng)

        def opt(dim: str, t1: str, t2: str, words: Wording = words) -> tuple[str, dict[str, Any]]:
            return (f"U1 - {words.claim(dim, t1)}; U2 - {words.claim(dim, t2)}",
                    {"U1": {dim: t1}, "U2": {dim: t2}})

        options = [opt(d, ea[d], eb[d]), opt(d, eb[d], ea[d])]
        wrong_pairs = [(x, y) for x in TIERS for y in TIERS if x != y and {x, y} != {ea[d], eb[d]}]
        extra = []
        if wrong_pairs:
            extra.append(opt(d, *rng.choice(wrong_pairs)))
        if same:
            s = rng.choice(same)
            x, y = rng.sample(TIERS, 2)
            extra.append(opt(s, x, y))
        rng.shuffle(extra)
        n_opts = rng.choice((2, 3, 4))
        options = options + extra[: n_opts - 2]
        texts, claims, correct = shuffle_options(rng, options, 0)
        out.append(make_question(
            "TraceDis", len(out), "procedural", None, [a.key, b.key],
            f"Two people did task {ix.title(a.task_id)} at the same time; their actions are "
            f"interleaved below, tagged U1 and U2. What is the main difference between them?",
            texts, correct, context="interleaved", labels=["U1", "U2"], dims=[d],
            profiles=[a.profile_id, b.profile_id], option_claims=claims,
        ))
    return out
