"""T4 questions: what do the outputs alone say? T1-style questions over only the files a session
produced, and open ones over only its screen recording."""

from __future__ import annotations

from .bank import BankSpec, QuestionIndex, make_question, sample, shuffle_options, subtask_rng
from .questions import Question
from .trajectories import output_files
from .truth import TIERS, dim_label
from .wording import Wording

FILE_VISIBLE_DIMS = ("B", "C", "F")


def gen_file_grd(ix: QuestionIndex, spec: BankSpec) -> list[Question]:
    """T1-style questions answered from the produced files only (no actions): the dimensions
    a folder of outputs can show (production, organisation, cross-modal)."""
    rng = subtask_rng(spec.seed, "FileGrd")
    pool = []
    for pid in ix.profiles:
        for t in ix.by_profile[pid]:
            if not output_files(t):
                continue
            for d in ix.dims(t):
                if d in FILE_VISIBLE_DIMS:
                    pool.append((t, d))
    out = []
    for t, d in sample(rng, pool, spec.size("FileGrd")):
        tier = ix.eff(t)[d]
        words = Wording(rng)
        opts = [(words.text(d, x), {"dim": d, "tier": x}) for x in TIERS]
        texts, claims, correct = shuffle_options(rng, opts, TIERS.index(tier))
        out.append(make_question(
            "FileGrd", len(out), "semantic", t.profile_id, [t.key],
            f"Looking only at the files this user produced for task {ix.title(t.task_id)}, "
            f"which description best fits their {dim_label(d)}?",
            texts, correct, context="files", labels=["output files"], dims=[d], option_claims=claims,
        ))
    return out


def gen_vis_grd(ix: QuestionIndex, spec: BankSpec) -> list[Question]:
    """Open, from the screen recording of one session only (its frames and the actions the
    screen shows): describe one attribute of the user. Only sessions with frames qualify."""
    rng = subtask_rng(spec.seed, "VisGrd")
    pool = []
    for pid in ix.profiles:
        for t in ix.by_profile[pid]:
            if not t.frames:
                continue
            for attr, (dim, _) in ix.truth.attributes.items():
                if dim in ix.truth.tiers(pid):
                    pool.append((t, attr, dim))
    out = []
    for t, attr, dim in sample(rng, pool, spec.size("VisGrd")):
        tier = ix.eff(t)[dim]
        descs = ix.truth.attributes[attr][1]
        out.append(make_question(
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
