"""T1 questions: who is this user? Their tier on an attribute, their profile in words, and which
profile produced one anonymous trajectory."""

from __future__ import annotations

from collections.abc import Sequence

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
from .truth import DIM_CHANNEL, TIERS, dim_label
from .wording import Wording


def gen_attr_rec(ix: QuestionIndex, spec: BankSpec) -> list[Question]:
    """Per user and behavioural attribute: which of the dimension's three tiers, each in one of
    the bench's own wordings, fits, judged from all of the user's trajectories."""
    rng = subtask_rng(spec.seed, "AttrRec")
    pool = []
    for pid in ix.profiles:
        for attr, (dim, _) in ix.truth.attributes.items():
            if dim in ix.truth.tiers(pid):
                pool.append((pid, attr, dim))
    out = []
    for n, (pid, attr, dim) in enumerate(sample(rng, pool, spec.size("AttrRec"))):
        trajs = ix.by_profile[pid]
        truth_tier = ix.truth.tiers(pid)[dim]
        words = Wording(rng)
        opts = [(words.text(dim, t), {"dim": dim, "tier": t}) for t in TIERS]
        texts, claims, correct = shuffle_options(rng, opts, TIERS.index(truth_tier))
        out.append(make_question(
            "AttrRec", n, DIM_CHANNEL[dim], pid, [t.key for t in trajs],
            f"Across all of this user's sessions, which description best fits their "
            f"{attr.replace('_', ' ')} ({dim_label(dim)})?",
            texts, correct, context="history", labels=[t.task_id for t in trajs],
            dims=[dim], attribute=attr, option_claims=claims,
        ))
    return out


def gen_prof_rec(ix: QuestionIndex, spec: BankSpec) -> list[Question]:
    """Open: describe one behavioural attribute of the user (the 16 attributes of each
    profile are the scored items of the published Profile Reconstruction)."""
    rng = subtask_rng(spec.seed, "ProfRec")
    pool = [(pid, attr, dim) for pid in ix.profiles for attr, (dim, _) in ix.truth.attributes.items()
            if dim in ix.truth.tiers(pid)]
    out = []
    for n, (pid, attr, dim) in enumerate(sample(rng, pool, spec.size("ProfRec"))):
        trajs = ix.by_profile[pid]
        tier = ix.truth.tiers(pid)[dim]
        descs = ix.truth.attributes[attr][1]
        out.append(make_question(
            "ProfRec", n, DIM_CHANNEL[dim], pid, [t.key for t in trajs],
            f"Reconstruct this user's profile: in one phrase, describe their "
            f"{attr.replace('_', ' ')} ({dim_label(dim)}).",
            [], descs[tier], context="history", labels=[t.task_id for t in trajs],
            dims=[dim], attribute=attr, tier=tier, attribute_tiers=dict(descs),
        ))
    return out


def _profile_option(words: Wording, tiers: dict[str, str], dims: Sequence[str]) -> str:
    return "; ".join(words.claim(d, tiers[d]) for d in dims)


def gen_behav_fp(ix: QuestionIndex, spec: BankSpec) -> list[Question]:
    """One anonymous trajectory, four candidate profiles described on the task's dimensions.
    Distractors are the profiles closest to the truth that the trajectory still rules out."""
    rng = subtask_rng(spec.seed, "BehavFP")
    all_trajs = [t for pid in ix.profiles for t in ix.by_profile[pid]]
    out: list[Question] = []
    for t in sample(rng, all_trajs, spec.size("BehavFP")):
        dims = ix.dims(t)
        if not dims:
            continue
        eff = ix.eff(t)
        true_tiers = ix.truth.tiers(t.profile_id)
        base = mismatch(true_tiers, eff, dims)
        seen = {tuple(true_tiers[d] for d in dims)}
        cands = []
        for pid, p in ix.truth.profiles.items():
            if pid == t.profile_id:
                continue
            vec = tuple(p.tiers[d] for d in dims)
            if mismatch(p.tiers, eff, dims) > base:
                cands.append((mismatch(p.tiers, true_tiers, tuple(true_tiers)), rng.random(), pid, vec))
        cands.sort()
        chosen = []
        for _, _, pid, vec in cands:
            if vec not in seen:
                seen.add(vec)
                chosen.append(pid)
            if len(chosen) == 3:
                break
        if len(chosen) < 3:
            continue
        pids = [t.profile_id, *chosen]
        words = Wording(rng)
        opts = [(_profile_option(words, ix.truth.tiers(p), dims), {"profile": p, "tiers": {d: ix.truth.tiers(p)[d] for d in dims}}) for p in pids]
        texts, claims, correct = shuffle_options(rng, opts, 0)
        out.append(make_question(
            "BehavFP", len(out), "procedural", t.profile_id, [t.key],
            f"This anonymous session is task {ix.title(t.task_id)}. Which of these profiles "
            f"(described on the dimensions the task exercises) produced it?",
            texts, correct, context="anonymous", labels=["trajectory"], dims=list(dims),
            option_claims=claims,
        ))
    return out
