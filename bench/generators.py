"""Question generators for the nine FileGramBench sub-tasks.

The paper's generators were never published; these follow its formats (filegram.md
section 6) and one rule: every option's truth is decided by the ground truth (persona tiers,
task dimensions, perturbation records), and a distractor is only used when the ground truth
makes it false. A task shows signal only on its own dimensions, so questions about a single
trajectory only ask about (and only discriminate on) the dimensions that task exercises.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .questions import Question
from .trajectories import Trajectory, effective_tiers, output_files
from .truth import (
    DIM_CHANNEL,
    DIMS,
    PUBLISHED_COUNTS,
    SUBTASK_TRACK,
    TIERS,
    Truth,
    claim_text,
    dim_label,
    profile_order,
    tier_text,
)

FILE_VISIBLE_DIMS = ("B", "C", "F")


@dataclass
class BankSpec:
    """Which questions to generate: sizes per sub-task (default: the published counts)."""

    seed: int = 0
    sizes: dict[str, int] | None = None
    subtasks: Sequence[str] | None = None

    def size(self, sub: str) -> int:
        if self.sizes and sub in self.sizes:
            return self.sizes[sub]
        return PUBLISHED_COUNTS[sub]


def _rng(seed: int, sub: str) -> random.Random:
    return random.Random(f"{seed}:{sub}")


def _mismatch(a: dict[str, str], b: dict[str, str], dims: Sequence[str]) -> int:
    return sum(1 for d in dims if a.get(d) != b.get(d))


def _shuffle_options(rng: random.Random, options: list[tuple[str, Any]], correct: int) -> tuple[list[str], list[Any], int]:
    order = list(range(len(options)))
    rng.shuffle(order)
    texts = [options[i][0] for i in order]
    claims = [options[i][1] for i in order]
    return texts, claims, order.index(correct)


def _sample(rng: random.Random, items: list[Any], n: int) -> list[Any]:
    if len(items) <= n:
        return list(items)
    return rng.sample(items, n)


class _Index:
    def __init__(self, trajs: Sequence[Trajectory], truth: Truth):
        self.truth = truth
        self.by_key = {t.key: t for t in trajs}
        self.by_profile: dict[str, list[Trajectory]] = defaultdict(list)
        for t in trajs:
            if t.profile_id in truth.profiles and t.task_id:
                self.by_profile[t.profile_id].append(t)
        for v in self.by_profile.values():
            v.sort(key=lambda t: t.task_id or "")
        self.profiles = profile_order(self.by_profile)

    def eff(self, t: Trajectory) -> dict[str, str]:
        return effective_tiers(self.truth.tiers(t.profile_id), t)

    def dims(self, t: Trajectory) -> tuple[str, ...]:
        """The dimensions this trajectory can show and whose truth is known (a real user may
        state only some of their tiers)."""
        known = self.truth.tiers(t.profile_id)
        return tuple(d for d in self.truth.task_dims(t.task_id) if d in known)

    def title(self, task_id: str | None) -> str:
        task = self.truth.tasks.get(task_id or "")
        return f"{task_id} ({task.title})" if task and task.title else str(task_id)


def _q(sub: str, n: int, channel: str, pid: str | None, inputs: list[str], text: str,
       choices: list[str], correct: int | str, **meta: Any) -> Question:
    return Question(f"{sub}-{n:04d}", SUBTASK_TRACK[sub], sub, channel, pid, inputs, text, choices, correct, meta)


# -- T1 ----------------------------------------------------------------------------------


def gen_attr_rec(ix: _Index, spec: BankSpec) -> list[Question]:
    """Per user and behavioural attribute: which of the dimension's three tier descriptions
    fits, judged from all of the user's trajectories."""
    rng = _rng(spec.seed, "AttrRec")
    pool = []
    for pid in ix.profiles:
        for attr, (dim, _) in ix.truth.attributes.items():
            if dim in ix.truth.tiers(pid):
                pool.append((pid, attr, dim))
    out = []
    for n, (pid, attr, dim) in enumerate(_sample(rng, pool, spec.size("AttrRec"))):
        trajs = ix.by_profile[pid]
        truth_tier = ix.truth.tiers(pid)[dim]
        opts = [(tier_text(dim, t), {"dim": dim, "tier": t}) for t in TIERS]
        texts, claims, correct = _shuffle_options(rng, opts, TIERS.index(truth_tier))
        out.append(_q(
            "AttrRec", n, DIM_CHANNEL[dim], pid, [t.key for t in trajs],
            f"Across all of this user's sessions, which description best fits their "
            f"{attr.replace('_', ' ')} ({dim_label(dim)})?",
            texts, correct, context="history", labels=[t.task_id for t in trajs],
            dims=[dim], attribute=attr, option_claims=claims,
        ))
    return out


def gen_prof_rec(ix: _Index, spec: BankSpec) -> list[Question]:
    """Open: describe one behavioural attribute of the user (the 16 attributes of each
    profile are the scored items of the published Profile Reconstruction)."""
    rng = _rng(spec.seed, "ProfRec")
    pool = [(pid, attr, dim) for pid in ix.profiles for attr, (dim, _) in ix.truth.attributes.items()
            if dim in ix.truth.tiers(pid)]
    out = []
    for n, (pid, attr, dim) in enumerate(_sample(rng, pool, spec.size("ProfRec"))):
        trajs = ix.by_profile[pid]
        tier = ix.truth.tiers(pid)[dim]
        descs = ix.truth.attributes[attr][1]
        out.append(_q(
            "ProfRec", n, DIM_CHANNEL[dim], pid, [t.key for t in trajs],
            f"Reconstruct this user's profile: in one phrase, describe their "
            f"{attr.replace('_', ' ')} ({dim_label(dim)}).",
            [], descs[tier], context="history", labels=[t.task_id for t in trajs],
            dims=[dim], attribute=attr, tier=tier, attribute_tiers=dict(descs),
        ))
    return out


def _profile_option(tiers: dict[str, str], dims: Sequence[str]) -> str:
    return "; ".join(claim_text(d, tiers[d]) for d in dims)


def gen_behav_fp(ix: _Index, spec: BankSpec) -> list[Question]:
    """One anonymous trajectory, four candidate profiles described on the task's dimensions.
    Distractors are the profiles closest to the truth that the trajectory still rules out."""
    rng = _rng(spec.seed, "BehavFP")
    all_trajs = [t for pid in ix.profiles for t in ix.by_profile[pid]]
    out: list[Question] = []
    for t in _sample(rng, all_trajs, spec.size("BehavFP")):
        dims = ix.dims(t)
        if not dims:
            continue
        eff = ix.eff(t)
        true_tiers = ix.truth.tiers(t.profile_id)
        base = _mismatch(true_tiers, eff, dims)
        seen = {tuple(true_tiers[d] for d in dims)}
        cands = []
        for pid, p in ix.truth.profiles.items():
            if pid == t.profile_id:
                continue
            vec = tuple(p.tiers[d] for d in dims)
            if _mismatch(p.tiers, eff, dims) > base:
                cands.append((_mismatch(p.tiers, true_tiers, tuple(true_tiers)), rng.random(), pid, vec))
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
        opts = [(_profile_option(ix.truth.tiers(p), dims), {"profile": p, "tiers": {d: ix.truth.tiers(p)[d] for d in dims}}) for p in pids]
        texts, claims, correct = _shuffle_options(rng, opts, 0)
        out.append(_q(
            "BehavFP", len(out), "procedural", t.profile_id, [t.key],
            f"This anonymous session is task {ix.title(t.task_id)}. Which of these profiles "
            f"(described on the dimensions the task exercises) produced it?",
            texts, correct, context="anonymous", labels=["trajectory"], dims=list(dims),
            option_claims=claims,
        ))
    return out


# -- T2 ----------------------------------------------------------------------------------

N_FOLDS = 4


def _folds(rng: random.Random, trajs: list[Trajectory]) -> list[list[Trajectory]]:
    order = list(trajs)
    rng.shuffle(order)
    return [order[i::N_FOLDS] for i in range(N_FOLDS)]


def gen_behav_inf(ix: _Index, spec: BankSpec) -> list[Question]:
    """Predict behaviour on a held-out task from the user's other trajectories (4 folds per
    user, so a method builds 4 memories per user, never one that saw the held-out task)."""
    rng = _rng(spec.seed, "BehavInf")
    pool = []
    for pid in ix.profiles:
        for fold in _folds(rng, ix.by_profile[pid]):
            held = {t.key for t in fold}
            ctx = [t for t in ix.by_profile[pid] if t.key not in held]
            for t in fold:
                pool.append((pid, t, ctx))
    out = []
    for pid, t, ctx in _sample(rng, pool, spec.size("BehavInf")):
        dims = list(ix.dims(t))
        if len(dims) < 2:
            continue
        rng.shuffle(dims)
        dims = sorted(dims[:2])
        tiers = ix.truth.tiers(pid)
        true_vec = tuple(tiers[d] for d in dims)
        combos = [(a, b) for a in TIERS for b in TIERS if (a, b) != true_vec]
        near = [c for c in combos if _mismatch(dict(zip(dims, c, strict=True)), tiers, dims) == 1]
        far = [c for c in combos if c not in near]
        rng.shuffle(near)
        rng.shuffle(far)
        picks = near[:2] + far[:1]
        vecs = [true_vec, *picks]
        opts = [("; ".join(claim_text(d, v) for d, v in zip(dims, vec, strict=True)),
                 {"tiers": dict(zip(dims, vec, strict=True))}) for vec in vecs]
        texts, claims, correct = _shuffle_options(rng, opts, 0)
        out.append(_q(
            "BehavInf", len(out), DIM_CHANNEL[dims[0]], pid, [c.key for c in ctx],
            f"This user is about to start task {ix.title(t.task_id)}, which they have not done "
            f"before. How will they most likely work?",
            texts, correct, context="history", labels=[c.task_id for c in ctx], dims=dims,
            held_out=t.key, option_claims=claims,
        ))
    return out


def gen_trace_dis(ix: _Index, spec: BankSpec) -> list[Question]:
    """Two users on the same task, actions interleaved and tagged U1/U2: what is the main
    difference? Distractors: the same difference reversed, a wrong pair of tiers, or a
    difference on a dimension where the two act alike."""
    rng = _rng(spec.seed, "TraceDis")
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

        def opt(dim: str, t1: str, t2: str) -> tuple[str, dict[str, Any]]:
            return (f"U1 - {claim_text(dim, t1)}; U2 - {claim_text(dim, t2)}",
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
        texts, claims, correct = _shuffle_options(rng, options, 0)
        out.append(_q(
            "TraceDis", len(out), "procedural", None, [a.key, b.key],
            f"Two people did task {ix.title(a.task_id)} at the same time; their actions are "
            f"interleaved below, tagged U1 and U2. What is the main difference between them?",
            texts, correct, context="interleaved", labels=["U1", "U2"], dims=[d],
            profiles=[a.profile_id, b.profile_id], option_claims=claims,
        ))
    return out


# -- T3 ----------------------------------------------------------------------------------


def gen_anom_det(ix: _Index, spec: BankSpec) -> list[Question]:
    """Five (or four) trajectories of one user and one of someone else: which is the impostor?
    The impostor differs from the user on a dimension its task exercises, and at least two of
    the user's own trajectories exercise that dimension too, so the odd one is visible."""
    rng = _rng(spec.seed, "AnomDet")
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
            out.append(_q(
                "AnomDet", len(out), "episodic", pid, [t.key for t in lineup],
                f"All but one of these {len(lineup)} sessions come from the same person. "
                f"Which session was done by someone else?",
                labels, correct, context="lineup", labels=labels, dims=diff,
                impostor_profile=imp.profile_id,
                option_claims=[{"profile": t.profile_id} for t in lineup],
            ))
            made += 1
    return out


def _shift_text(dim: str, a: str, b: str) -> str:
    return f"{dim_label(dim)}: from {a} ({tier_text(dim, a)}) to {b} ({tier_text(dim, b)})"


def gen_shift_ana(ix: _Index, spec: BankSpec) -> list[Question]:
    """The perturbed trajectory, named, within the user's whole history: which change
    (dimension and direction) characterises it? Distractors: the reverse change, the other
    direction on the same dimension, and shifts on the task's other dimensions. Each
    perturbed trajectory gets about three questions with different option sets."""
    rng = _rng(spec.seed, "ShiftAna")
    perturbed = [t for pid in ix.profiles for t in ix.by_profile[pid] if t.perturbed]
    want = spec.size("ShiftAna")
    variants = max(1, -(-want // max(len(perturbed), 1)))
    pool = []
    for t in perturbed:
        for v in range(variants):
            pool.append((t, v))
    out: list[Question] = []
    for t, _v in _sample(rng, pool, want):
        (dim, change), = list(t.shifted_dims.items())[:1]
        orig, pert = str(change["original"]), str(change["perturbed"])
        pid = t.profile_id
        tiers = ix.truth.tiers(pid)
        ctx = ix.by_profile[pid]  # the whole history: shared with AttrRec, one memory per user
        options: list[tuple[str, Any]] = [(_shift_text(dim, orig, pert), {"dim": dim, "from": orig, "to": pert})]
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
            options.append((_shift_text(d, a, b), {"dim": d, "from": a, "to": b}))
        texts, claims, correct = _shuffle_options(rng, options, 0)
        out.append(_q(
            "ShiftAna", len(out), "episodic", pid, [c.key for c in ctx],
            f"In session {t.task_id} this user worked unlike their usual self. Which change "
            f"characterises that session?",
            texts, correct, context="history", labels=[c.task_id for c in ctx],
            target=t.task_id, target_key=t.key, dims=[dim], option_claims=claims,
        ))
    return out


# -- T4 ----------------------------------------------------------------------------------


def gen_file_grd(ix: _Index, spec: BankSpec) -> list[Question]:
    """T1-style questions answered from the produced files only (no actions): the dimensions
    a folder of outputs can show (production, organisation, cross-modal)."""
    rng = _rng(spec.seed, "FileGrd")
    pool = []
    for pid in ix.profiles:
        for t in ix.by_profile[pid]:
            if not output_files(t):
                continue
            for d in ix.dims(t):
                if d in FILE_VISIBLE_DIMS:
                    pool.append((t, d))
    out = []
    for t, d in _sample(rng, pool, spec.size("FileGrd")):
        tier = ix.eff(t)[d]
        opts = [(tier_text(d, x), {"dim": d, "tier": x}) for x in TIERS]
        texts, claims, correct = _shuffle_options(rng, opts, TIERS.index(tier))
        out.append(_q(
            "FileGrd", len(out), "semantic", t.profile_id, [t.key],
            f"Looking only at the files this user produced for task {ix.title(t.task_id)}, "
            f"which description best fits their {dim_label(d)}?",
            texts, correct, context="files", labels=["output files"], dims=[d], option_claims=claims,
        ))
    return out


def gen_vis_grd(ix: _Index, spec: BankSpec) -> list[Question]:
    """Open, from the screen recording of one session only (its frames and the actions the
    screen shows): describe one attribute of the user. Only sessions with frames qualify."""
    rng = _rng(spec.seed, "VisGrd")
    pool = []
    for pid in ix.profiles:
        for t in ix.by_profile[pid]:
            if not t.frames:
                continue
            for attr, (dim, _) in ix.truth.attributes.items():
                if dim in ix.truth.tiers(pid):
                    pool.append((t, attr, dim))
    out = []
    for t, attr, dim in _sample(rng, pool, spec.size("VisGrd")):
        tier = ix.eff(t)[dim]
        descs = ix.truth.attributes[attr][1]
        out.append(_q(
            "VisGrd", len(out), "semantic", t.profile_id, [t.key],
            f"From the screen recording of session {t.task_id} alone, describe this user's "
            f"{attr.replace('_', ' ')} ({dim_label(dim)}).",
            [], descs[tier], context="screen", labels=["screen recording"], dims=[dim], attribute=attr,
            tier=tier, attribute_tiers=dict(descs),
        ))
    return out


def visual_grounding_skip_reason() -> str:
    return (
        "no screen frames: the simulator does not render a screen, so simulated trajectories "
        "have no recording; `filegram bench real` asks these questions over recorded sessions "
        "that have frames from the screen recorder"
    )


GENERATORS: dict[str, Callable[[_Index, BankSpec], list[Question]]] = {
    "AttrRec": gen_attr_rec,
    "BehavFP": gen_behav_fp,
    "ProfRec": gen_prof_rec,
    "BehavInf": gen_behav_inf,
    "TraceDis": gen_trace_dis,
    "AnomDet": gen_anom_det,
    "ShiftAna": gen_shift_ana,
    "FileGrd": gen_file_grd,
}


def generate_bank(trajs: Sequence[Trajectory], truth: Truth, spec: BankSpec | None = None) -> tuple[list[Question], dict[str, str]]:
    """All questions (in sub-task order) and the sub-tasks skipped, with the reason."""
    spec = spec or BankSpec()
    ix = _Index(trajs, truth)
    wanted = list(spec.subtasks or [*GENERATORS, "VisGrd"])
    questions: list[Question] = []
    skipped: dict[str, str] = {}
    for sub in wanted:
        if sub == "VisGrd":
            qs = gen_vis_grd(ix, spec)
            if not qs:
                skipped[sub] = visual_grounding_skip_reason()
            questions.extend(qs)
            continue
        qs = GENERATORS[sub](ix, spec)
        if not qs:
            skipped[sub] = "no trajectories fit this sub-task in the selected set"
        questions.extend(qs)
    return questions, skipped


def option_is_true(q: Question, i: int, truth: Truth, trajs: dict[str, Trajectory]) -> bool:
    """Re-derive from the ground truth alone whether option i is a true answer (used by the
    tests and `--check`): a distractor must never be true."""
    claim = q.metadata["option_claims"][i]
    sub = q.sub_track
    if sub in ("AttrRec",):
        return truth.tiers(q.profile_id)[claim["dim"]] == claim["tier"]
    if sub == "FileGrd":
        t = trajs[q.input_trajectories[0]]
        return effective_tiers(truth.tiers(t.profile_id), t)[claim["dim"]] == claim["tier"]
    if sub == "BehavFP":
        t = trajs[q.input_trajectories[0]]
        eff = effective_tiers(truth.tiers(t.profile_id), t)
        dims = truth.task_dims(t.task_id)
        # true = fits the trajectory at least as well as its real author does
        return _mismatch(claim["tiers"], eff, dims) <= _mismatch(truth.tiers(t.profile_id), eff, dims)
    if sub == "BehavInf":
        tiers = truth.tiers(q.profile_id)
        return all(tiers[d] == v for d, v in claim["tiers"].items())
    if sub == "TraceDis":
        a, b = (trajs[k] for k in q.input_trajectories)
        ea = effective_tiers(truth.tiers(a.profile_id), a)
        eb = effective_tiers(truth.tiers(b.profile_id), b)
        return all(ea[d] == v for d, v in claim["U1"].items()) and all(eb[d] == v for d, v in claim["U2"].items())
    if sub == "AnomDet":
        owners = [trajs[k].profile_id for k in q.input_trajectories]
        mine = owners[i]
        return owners.count(mine) == 1
    if sub == "ShiftAna":
        t = trajs[q.metadata["target_key"]]
        sd = t.shifted_dims.get(claim["dim"])
        return bool(sd) and sd["original"] == claim["from"] and sd["perturbed"] == claim["to"]
    raise KeyError(sub)
