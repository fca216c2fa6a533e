"""Drift: did a session show, on some dimension, a tier other than the user's own?

A test per (session, dimension), not a quota of sessions: a session is a candidate on X when
it gave an opportunity on X and showed the signature of another tier than the user's (a
deletion by someone who never deletes, tables by someone who writes text only). Whether
that is a change or just this person's usual variety depends on how often they show it:

    P(shift | shown) = pi * rho / (pi * rho + (1 - pi) * own_rate)

where own_rate is how often the user's OTHER opportunities show the same category
(leave-one-out, Jeffreys-smoothed: (k + 1/2) / (n + 1)), rho is the chance a shifted session
shows the new tier's signature and pi the prior share of shifted (session, dimension) pairs.
Flags are the candidates whose posterior reaches FLAG_POSTERIOR, so the expected share of
false flags among them is at most 1 - FLAG_POSTERIOR (a Bayesian false discovery rate over
all sessions and dimensions), whatever the number of sessions.

A session that showed nothing on X (no opportunity, or the absence every tier shows when the
work did not call for it) is "not detectable" on X: silence is not evidence of change.

Attribution is the dimension, `from` (the user's tier) and `to`: one tier from the user's
towards the tier whose signature the session showed (`shown`; see shifted_to). The verdict:
"task-dependent" when the session's known task does not exercise the dimension or the same
task type shows the category in the user's other sessions; "genuine" when both the shift and
the user's own tier are firm (p >= 0.8: a long history in which the user never showed this);
"uncertain" otherwise (an LLM judge, when configured, may settle those).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from filegram.vocab import DIM_IDS, TIER_POSITION, TIERS, UNKNOWN, task_info

from .tiers import (
    NOTHING_HIDDEN,
    DimensionEstimate,
    categorise,
    chars_per_line,
    hidden_signs,
    person_signals,
    signature,
    task_allows,
)

# Prior share of (session, dimension) pairs whose tier moved: about one session in seven
# shows a one-tier change on one of the ~3 dimensions its work exercises.
DRIFT_PRIOR = 0.05
# Chance that a session whose tier moved shows the new tier's signature: a change of habit is
# acted out, so most such sessions show it (4 in 5).
SHIFTED_RATE = 0.8
FLAG_POSTERIOR = 0.5
FIRM = 0.8


@dataclass(frozen=True)
class SessionRef:
    """What drift needs of a session: its id, label, task and per-dimension signals."""

    session_id: str
    label: str | None
    task_id: str | None
    signals: Mapping[str, Any]


def candidates(
    sessions: Sequence[SessionRef], estimates: Mapping[str, DimensionEstimate]
) -> dict[str, list[dict[str, Any]]]:
    """Every candidate shift of every session, ranked per session (highest posterior first)."""
    sessions = [SessionRef(s.session_id, s.label, s.task_id, sig)
                for s, sig in zip(sessions, person_signals([s.signals for s in sessions]), strict=True)]
    cpl = chars_per_line([s.signals for s in sessions])
    hidden = hidden_signs([s.signals for s in sessions])
    out: dict[str, list[dict[str, Any]]] = {s.session_id: [] for s in sessions}
    for dim in DIM_IDS:
        est = estimates.get(dim)
        if est is None or est.tier not in TIERS:
            continue
        own = signature(dim, est.tier)
        cats: list[tuple[SessionRef, Any, float, str]] = []
        for s in sessions:
            if not task_allows(s.task_id, dim):
                continue
            sc = categorise(dim, s.signals.get(dim) or {}, cpl, hidden=hidden)
            if sc is not None and sc.weight > 0:
                cats.append((s, sc.category, sc.weight, sc.evidence, sc.traits.get(est.tier, 0.0)))
        total = sum(c[2] for c in cats)
        by_cat: dict[Any, float] = {}
        for _, c, w, _, _ in cats:
            by_cat[c] = by_cat.get(c, 0.0) + w
        for s, c, w, evidence, trace in cats:
            if c is None or c == own:
                continue
            k = by_cat[c] - w
            n = total - w
            own_rate = (k + 0.5) / (n + 1.0)
            # a session with little evidence (weight < 1) moves the odds less, and so does one
            # that also shows the person's usual habit (passages read by a search-first reader
            # who also listed folders): a changed session shows the other tier, not both
            lr = (SHIFTED_RATE / own_rate) ** (w * (1.0 - trace))
            post = DRIFT_PRIOR * lr / (DRIFT_PRIOR * lr + (1 - DRIFT_PRIOR))
            task = task_info(s.task_id)
            same_task_shows = task is not None and any(
                c2 == c and o.session_id != s.session_id and task_info(o.task_id) is not None
                and task_info(o.task_id).type == task.type for o, c2, _, _, _ in cats)
            to = shifted_to(est.tier, c)
            verdict, reason = judge(dim, est, to, post, same_task_shows)
            out[s.session_id].append({
                "dimension": dim, "from": est.tier, "to": to, "shown": c, "score": round(post, 4),
                "posterior": round(post, 4), "own_rate": round(own_rate, 4), "user_confidence": est.confidence,
                "gap": abs(TIER_POSITION[c] - TIER_POSITION[est.tier]), "evidence": evidence,
                "verdict": verdict, "reason": reason, "tier_changed": True,
            })
    for lst in out.values():
        lst.sort(key=lambda d: (-d["posterior"], d["dimension"]))
    return out


def shifted_to(frm: str, shown: str) -> str:
    """The tier a session moved to: one tier from the user's towards the one it showed.

    A change of habit is a one-tier shift (filegram.md section 3, perturbations: L->M, R->M,
    M->L or M->R). A session that shows the far tier's signature (a minimal writer's 250-line
    report) is likelier the neighbouring tier plus a task that asked for more than a two-tier
    jump: a middle-tier person shows the far signature in EPS_ADJ of their chances, a far-tier
    person in rho of them, and two-tier shifts are not among the ones described. The
    session's own category stays in the candidate as `shown`."""
    if abs(TIER_POSITION[shown] - TIER_POSITION[frm]) > 1:
        return TIERS[1]
    return shown


def judge(dim: str, est: DimensionEstimate, to: str, post: float, same_task_shows: bool) -> tuple[str, str]:
    if same_task_shows:
        return "task-dependent", f"other sessions of the same kind of task also show {dim} = {to}"
    if post >= FIRM and est.confidence >= FIRM:
        return "genuine", (f"{dim} showed {to} here; the user is {est.tier} "
                           f"(p {est.confidence:.2f}) and rarely shows {to} elsewhere")
    return "uncertain", f"{dim} showed {to} here, but the user's own variety or a weak tier makes it unsure"


def detect(
    sessions: Sequence[SessionRef], estimates: Mapping[str, DimensionEstimate]
) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    """(flags, all candidates per session). A session is flagged on its best candidate whose
    posterior reaches FLAG_POSTERIOR; the others stay in its `candidates`."""
    cands = candidates(sessions, estimates)
    flags = []
    for s in sessions:
        lst = cands[s.session_id]
        if not lst or lst[0]["posterior"] < FLAG_POSTERIOR:
            continue
        top = lst[0]
        flags.append({
            "session": s.session_id, "label": s.label, "task": s.task_id,
            "dimension": top["dimension"], "from": top["from"], "to": top["to"],
            "verdict": top["verdict"], "reason": top["reason"],
            "posterior": top["posterior"], "distance": top["posterior"], "threshold": FLAG_POSTERIOR,
            "norm": f"user:{top['dimension']}={top['from']}",
            "top_features": [{"feature": top["evidence"], "z": top["own_rate"]}],
            "candidates": [{k: c[k] for k in ("dimension", "from", "to", "score")} for c in lst[:3]],
        })
    flags.sort(key=lambda a: (-a["posterior"], a["session"]))
    return flags, cands


def not_detectable(session: SessionRef, estimates: Mapping[str, DimensionEstimate], cpl: float,
                   hidden: frozenset[str] = NOTHING_HIDDEN) -> list[str]:
    """Dimensions on which this session could not show a change (no opportunity or silence)."""
    out = []
    for dim in DIM_IDS:
        est = estimates.get(dim)
        sc = (categorise(dim, session.signals.get(dim) or {}, cpl, hidden=hidden)
              if task_allows(session.task_id, dim) else None)
        if est is None or est.tier == UNKNOWN or sc is None or sc.category is None:
            out.append(dim)
    return out
