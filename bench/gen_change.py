"""T3 questions: when did this user act unlike themselves? The impostor among a user's sessions,
and the change (dimension and direction) that characterises a perturbed session."""

from __future__ import annotations

from typing import Any

from .bank import BankSpec, QuestionIndex, make_question, sample, shuffle_options, subtask_rng
from .questions import Question
from .truth import TIERS
from .wording import Wording


def gen_anom_det(ix: QuestionIndex, spec: BankSpec) -> list[Question]:
    """Five (or four) trajectories of one user and one of someone else: which is the impostor?
    The impostor differs from the user on a dimension its task exercises, and at least two of
    the user's own trajectories exercise that dimension too, so the odd one is visible."""
    rng = subtask_rng(spec.seed, "AnomDet")
    want = spec.size("AnomDet")
    per_user = max(1, -(-want // max(len(ix.profiles), 1)))
    out: list[Question] = []
    others_all = [t for pid in ix.profiles for t in ix.by_profile[pid]]
    for pid in ix.profiles:
        own = [t for t in ix.by_profile[pid] if not t.perturbed]
        tiers = ix.truth.tiers(pid)
        made = tries = 0
        while made < per_user and tries < per_user * 20 and len(out) < want:
            tries += 1
            imp = rng.choice(others_all)
            if imp.profile_id == pid:
                continue
            ei = ix.eff(imp)
            diff = [d for d in ix.dims(imp) if ei[d] != tiers[d]]
            if not diff:
                continue
            showing = [t for t in own if set(ix.dims(t)) & set(diff)]
            if len(showing) < 2:
                continue
            n_own = rng.choice((4, 5, 5))
            first = rng.sample(showing, 2)
            rest = [t for t in own if t not in first]
            chosen = first + rng.sample(rest, min(n_own - 2, len(rest)))
            lineup = [*chosen, imp]
            rng.shuffle(lineup)
            labels = [f"Trajectory {i + 1}" for i in range(len(lineup))]
            correct = lineup.index(imp)
            out.append(make_question(
                "AnomDet", len(out), "episodic", pid, [t.key for t in lineup],
                f"All but one of these {len(lineup)} sessions come from the same person. "
                f"Which session was done by someone else?",
                labels, correct, context="lineup", labels=labels, dims=diff,
                impostor_profile=imp.profile_id,
                option_claims=[{"profile": t.profile_id} for t in lineup],
            ))
            made += 1
    return out


def gen_shift_ana(ix: QuestionIndex, spec: BankSpec) -> list[Question]:
    """The perturbed trajectory, named, within the user's whole history: which change
    (dimension and direction) characterises it? Distractors: the reverse change, the other
    direction on the same dimension, and shifts on the task's other dimensions. Each
    perturbed trajectory gets about three questions with different option sets."""
    rng = subtask_rng(spec.seed, "ShiftAna")
    perturbed = [t for pid in ix.profiles for t in ix.by_profile[pid] if t.perturbed]
    want = spec.size("ShiftAna")
    variants = max(1, -(-want // max(len(perturbed), 1)))
    pool = []
    for t in perturbed:
        for v in range(variants):
            pool.append((t, v))
    out: list[Question] = []
    for t, _v in sample(rng, pool, want):
        (dim, change), = list(t.shifted_dims.items())[:1]
        orig, pert = str(change["original"]), str(change["perturbed"])
        pid = t.profile_id
        tiers = ix.truth.tiers(pid)
        ctx = ix.by_profile[pid]  # the whole history: shared with AttrRec, one memory per user
        words = Wording(rng)
        options: list[tuple[str, Any]] = [(words.change(dim, orig, pert), {"dim": dim, "from": orig, "to": pert})]
        distract = [(dim, pert, orig)]
        distract += [(dim, orig, x) for x in TIERS if x not in (orig, pert)]
        for d in ix.dims(t):
            if d != dim:
                for x in TIERS:
                    if x != tiers[d]:
                        distract.append((d, tiers[d], x))
        rng.shuffle(distract)
        n_opts = rng.choice((3, 4, 4, 5, 6))
        seen = {(dim, orig, pert)}
        for d, a, b in distract:
            if len(options) >= n_opts:
                break
            if (d, a, b) in seen:
                continue
            seen.add((d, a, b))
            options.append((words.change(d, a, b), {"dim": d, "from": a, "to": b}))
        texts, claims, correct = shuffle_options(rng, options, 0)
        out.append(make_question(
            "ShiftAna", len(out), "episodic", pid, [c.key for c in ctx],
            f"In session {t.task_id} this user worked unlike their usual self. Which change "
            f"characterises that session?",
            texts, correct, context="history", labels=[c.task_id for c in ctx],
            target=t.task_id, target_key=t.key, dims=[dim], option_claims=claims,
        ))
    return out
