"""The read side of memory: per-session views, the user's tiers, drift flags and the profile.

Tiers and drift are read from every session's stored signals (a few hundred bytes each), so
they can depend on the user as a whole (their reading calibration, how often they show a
habit) while an update stays O(session). `Memory` caches the results per state version.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from filegram.errors import FileGramError
from filegram.store import Store
from filegram.vocab import TIER_POSITION, TIERS, UNKNOWN

from . import channels as ch
from .dimensions import DIM_IDS, DIMENSIONS
from .drift import SessionRef, detect, not_detectable
from .features import FINGERPRINT_FEATURES, is_boolean_feature
from .tiers import NOTHING_HIDDEN, DimensionEstimate, chars_per_line, hidden_signs, user_tiers
from .view import SessionView

Groups = dict[str, tuple[int, dict[str, list]]]


@dataclass(frozen=True)
class ReadState:
    """What the profile, drift and shift questions are computed from (one state version)."""

    views: list[SessionView]
    groups: Groups
    estimates: dict[str, DimensionEstimate]
    anomalies: list[dict[str, Any]]
    shifts: dict[str, list[dict[str, Any]]]
    chars_per_line: float
    hidden_signs: frozenset[str] = NOTHING_HIDDEN  # the reading signs the person's recorder does not log


def session_views(store: Store) -> list[SessionView]:
    labels = {s["id"]: s.get("label") for s in store.sessions()}
    out = []
    for sid, task_id, task_type, cluster, fp, tiers, signals in store.conn.execute(
        "SELECT session_id, task_id, task_type, cluster, fingerprint, tiers, signals FROM mem_sessions ORDER BY order_key"
    ):
        out.append(SessionView(sid, labels.get(sid), task_id, task_type, cluster, json.loads(fp), json.loads(tiers),
                               json.loads(signals)))
    return out


def read_state(store: Store) -> ReadState:
    views = session_views(store)
    groups = ch.all_groups(store)
    signals = [v.signals for v in views]
    estimates = user_tiers(signals, [v.task_id for v in views], [v.label or v.session_id[:8] for v in views])
    apply_tier_judgements(store, estimates)
    refs = [SessionRef(v.session_id, v.label, v.task_id, v.signals) for v in views]
    anomalies, shifts = detect(refs, estimates)
    apply_llm_judgements(store, anomalies)
    return ReadState(views, groups, estimates, anomalies, shifts, chars_per_line(signals), hidden_signs(signals))


def evidence_key(est: DimensionEstimate) -> str:
    """What an LLM tier judgement was made from: it holds while the counts are unchanged."""
    return json.dumps({"counts": est.counts, "posterior": est.posterior}, sort_keys=True)


def apply_tier_judgements(store: Store, estimates: dict[str, DimensionEstimate]) -> None:
    """A stored LLM verdict on an uncertain dimension replaces the rules' call while the
    evidence it saw is unchanged (the rules stay in `posterior`)."""
    for dim, tier, key, reason in store.conn.execute("SELECT dim, tier, key, reason FROM mem_tier_judgements"):
        est = estimates.get(dim)
        if est is not None and key == evidence_key(est) and tier in (*TIERS, UNKNOWN):
            est.tier = tier
            est.confidence = est.posterior.get(tier, 0.0) if tier in TIERS else 0.0
            est.judge, est.judge_reason = "llm", reason or ""


def apply_llm_judgements(store: Store, anomalies: list[dict[str, Any]]) -> None:
    """Stored LLM verdicts for uncertain flags replace the rule's 'uncertain'."""
    for a in anomalies:
        row = store.conn.execute(
            "SELECT verdict, reason, key FROM mem_judgements WHERE session_id = ? AND dim = ?",
            (a["session"], a["dimension"]),
        ).fetchone()
        if row and row[2] == f"{a['from']}>{a['to']}":
            a["verdict"], a["reason"], a["judge"] = row[0], row[1], "llm"
        else:
            a["judge"] = "rules"


def session_shift(st: ReadState, session_id: str) -> list[dict[str, Any]]:
    """Ranked candidate shifts of any session (flagged or not): dimension, from, to, score,
    posterior, verdict; dimensions the session could not show a change on come last with
    `to` = "not detectable"."""
    view = next((v for v in st.views if v.session_id == session_id), None)
    if view is None:
        raise FileGramError(f"session {session_id} is not in memory (closed and consolidated?)")
    out = [dict(c) for c in st.shifts.get(session_id, [])]
    ref = SessionRef(view.session_id, view.label, view.task_id, view.signals)
    seen = {c["dimension"] for c in out}
    for dim in not_detectable(ref, st.estimates, st.chars_per_line, st.hidden_signs):
        if dim not in seen:
            out.append({"dimension": dim, "from": st.estimates[dim].tier, "to": "not detectable", "score": 0.0,
                        "posterior": 0.0, "verdict": "not detectable", "tier_changed": False,
                        "reason": f"this session gave no chance to show {dim}"})
    return out


def describe(est: DimensionEstimate) -> list[str]:
    """The evidence in words: what the tier rests on, then examples of sessions."""
    name = DIMENSIONS[est.dim].name.lower()
    odds = f"(L {est.posterior['L']:.2f}, M {est.posterior['M']:.2f}, R {est.posterior['R']:.2f})"
    if est.working_only:  # tiers._work_removals: read from the working sessions alone
        lead = f"{est.sessions} session(s) left leftovers in sight to show {name}, too few to read; {est.working}"
    elif est.sessions == 0:
        return [f"no session gave a chance to show {name} yet"]
    else:
        parts = ", ".join(f"{k} {v:g}" for k, v in est.counts.items() if v)
        lead = f"{est.sessions} session(s) gave a chance to show {name}; they showed: {parts}"
    if est.tier == UNKNOWN:
        reason = "too few chances" if est.opportunities < 2 and not est.working_only else f"no tier is likely enough {odds}"
        lines = [lead, f"unknown: {reason}"]
    else:
        lines = [lead, f"{est.tier} with probability {est.confidence:.2f} {odds}"]
    if est.working and not est.working_only:
        lines.insert(1, f"and {est.working}")
    if est.judge == "llm":
        lines.append(f"a language model judged {est.tier}: {est.judge_reason}")
    for key in (est.tier if est.tier in TIERS else None, "L", "M", "R", "none"):
        for ex in est.examples.get(key or "", [])[:1]:
            line = f"e.g. {ex}"
            if line not in lines:
                lines.append(line)
    return lines


def build_profile(store: Store, st: ReadState, updated_ms: float | None) -> dict[str, Any]:
    """The profile (shape of `filegram profile --json`, documented in docs/memory.md)."""
    n_all, all_stats = st.groups.get("all", (0, {}))
    dims: dict[str, Any] = {}
    for dim in DIM_IDS:
        est = st.estimates[dim]
        d = DIMENSIONS[dim]
        feats = {name: _rounded(ch.summarise(all_stats[name])) for dd, name in FINGERPRINT_FEATURES
                 if dd == dim and name in all_stats}
        mean_pos = sum(p * TIER_POSITION[t] for t, p in est.posterior.items()) if est.sessions else None
        dims[dim] = {
            "name": d.name,
            "tier": est.tier,
            "confidence": est.confidence,
            "description": d.tiers.get(est.tier, "not enough evidence"),
            "sessions": est.sessions,
            "opportunities": est.opportunities,
            "votes": {t: est.counts.get(t, 0.0) for t in TIERS},
            "shown": est.counts,
            "posterior": est.posterior,
            "mean_position": round(mean_pos, 4) if mean_pos is not None else None,
            "judge": est.judge,
            "features": feats,
            "evidence": describe(est),
        }
    shares = {name: round(ch.summarise(e)["mean"], 4) for name, e in sorted(all_stats.items()) if is_boolean_feature(name)}
    live = live_summary(store)
    clusters = [
        {"id": cid, "sessions": n, "first_session": first}
        for cid, n, first in store.conn.execute("SELECT id, n, first_session FROM mem_clusters ORDER BY id")
    ]
    return {
        "dimensions": dims,
        "anomalies": [
            {**{k: a[k] for k in ("session", "label", "task", "dimension", "from", "to", "verdict", "reason",
                                  "judge", "posterior", "distance", "threshold", "norm", "top_features", "candidates")},
             "provisional": a["session"] in live["session_ids"]}
            for a in st.anomalies
        ],
        "sessions": n_all,
        "session_shares": shares,
        "clusters": clusters,
        "drift_threshold": st.anomalies[0]["threshold"] if st.anomalies else None,
        "updated_ms": updated_ms,
        "provisional": {"sessions": live["sessions"], "actions": live["actions"], "folded_ms": live["folded_ms"]},
    }


def live_summary(store: Store) -> dict[str, Any]:
    """The open sessions folded into memory provisionally (live memory, core.fold_live)."""
    rows = store.conn.execute("SELECT session_id, actions, folded_ms FROM mem_live ORDER BY session_id").fetchall()
    return {"sessions": len(rows), "actions": sum(int(r[1]) for r in rows), "session_ids": [r[0] for r in rows],
            "folded_ms": max((r[2] for r in rows), default=None)}


def _rounded(d: dict[str, float]) -> dict[str, float]:
    return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in d.items()}
