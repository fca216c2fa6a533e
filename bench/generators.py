"""Question generators for the nine FileGramBench sub-tasks.

The paper's generators were never published; these follow its formats (filegram.md
section 6) and one rule: every option's truth is decided by the ground truth (persona tiers,
task dimensions, perturbation records), and a distractor is only used when the ground truth
makes it false. A task shows signal only on its own dimensions, so questions about a single
trajectory only ask about (and only discriminate on) the dimensions that task exercises.

One module per track writes the questions (gen_profile.py T1, gen_behaviour.py T2,
gen_change.py T3, gen_grounding.py T4, over the shared machinery of bank.py); this one
runs them in sub-task order and re-derives any option's truth from the ground truth.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .bank import BankSpec, QuestionIndex, mismatch
from .gen_behaviour import gen_behav_inf, gen_trace_dis
from .gen_change import gen_anom_det, gen_shift_ana
from .gen_grounding import (
    FILE_VISIBLE_DIMS,
    gen_file_grd,
    gen_vis_grd,
    visual_grounding_skip_reason,
)
from .gen_profile import gen_attr_rec, gen_behav_fp, gen_prof_rec
from .questions import Question
from .trajectories import Trajectory, effective_tiers
from .truth import Truth

__all__ = [
    "FILE_VISIBLE_DIMS",
    "GENERATORS",
    "BankSpec",
    "generate_bank",
    "option_is_true",
    "visual_grounding_skip_reason",
]


GENERATORS: dict[str, Callable[[QuestionIndex, BankSpec], list[Question]]] = {
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
    ix = QuestionIndex(trajs, truth)
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
        return mismatch(claim["tiers"], eff, dims) <= mismatch(truth.tiers(t.profile_id), eff, dims)
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
