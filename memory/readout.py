"""The read side of memory: per-session views, drift flags and the user's profile.

Everything here is computed from the channel tables (running sums and votes), never from
the trace, so reading stays cheap however long the history is. `Memory` caches the results
per state version.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from filegram.errors import FileGramError
from filegram.store import Store

from . import channels as ch
from .dimensions import DIM_IDS, DIMENSIONS, TIERS, task_info
from .drift import SessionView, attribute, detect, judge, zscores
from .features import FINGERPRINT_FEATURES, is_boolean_feature
from .tiers import aggregate_votes

Votes = dict[str, tuple[int, dict[str, int], int]]
Groups = dict[str, tuple[int, dict[str, list]]]


@dataclass(frozen=True)
class ReadState:
    """What the profile, drift and shift questions are computed from (one state version)."""

    views: list[SessionView]
    groups: Groups
    votes: Votes
    anomalies: list[dict[str, Any]]
    distances: dict[str, float]
    threshold: float


def session_views(store: Store) -> list[SessionView]:
    labels = {s["id"]: s.get("label") for s in store.sessions()}
    out = []
    for sid, task_id, task_type, cluster, fp, tiers in store.conn.execute(
        "SELECT session_id, task_id, task_type, cluster, fingerprint, tiers FROM mem_sessions ORDER BY order_key"
    ):
        out.append(SessionView(sid, labels.get(sid), task_id, task_type, cluster, json.loads(fp), json.loads(tiers)))
    return out


def tier_votes(store: Store) -> Votes:
    return {d: (n, json.loads(v), p) for d, n, v, p in store.conn.execute("SELECT dim, n, votes, position_sum FROM mem_votes")}


def read_state(store: Store, drift_std: float) -> ReadState:
    views = session_views(store)
    groups = ch.all_groups(store)
    votes = tier_votes(store)
    anomalies, dist, thr = detect(views, groups, votes, drift_std)
    apply_llm_judgements(store, anomalies)
    return ReadState(views, groups, votes, anomalies, dist, thr)


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
    """Ranked candidate shifts of any session (flagged or not): dimension, from, to, score
    and the rule verdict."""
    view = next((v for v in st.views if v.session_id == session_id), None)
    if view is None:
        raise FileGramError(f"session {session_id} is not in memory (closed and consolidated?)")
    _, z = zscores(view, st.groups)
    shifts = attribute(view, z, st.votes)
    for s in shifts:
        s["verdict"], s["reason"] = judge(s, task_info(view.task_id) is not None)
    return shifts


def build_profile(store: Store, st: ReadState, updated_ms: float | None) -> dict[str, Any]:
    """The profile (shape of `filegram profile --json`, documented in docs/memory.md)."""
    votes = st.votes
    agg = aggregate_votes({d: {t: x / ch.QUANT for t, x in v[1].items()} for d, v in votes.items()},
                          {d: v[0] for d, v in votes.items()})
    n_all, all_stats = st.groups.get("all", (0, {}))
    dims: dict[str, Any] = {}
    for dim in DIM_IDS:
        a = agg[dim]
        d = DIMENSIONS[dim]
        feats = {name: _rounded(ch.summarise(all_stats[name])) for dd, name in FINGERPRINT_FEATURES
                 if dd == dim and name in all_stats}
        evidence = []
        if a["tier"] == "unknown":
            evidence.append(f"no session exercised {d.name.lower()} yet")
        else:
            vt = a["votes"]
            evidence.append(
                f"{a['sessions']} session(s) voted: " + ", ".join(f"{t} {vt[t]:.1f}" for t in TIERS)
            )
            evidence.extend(_feature_lines(feats))
            evidence.extend(_example_sessions(st.views, dim, a["tier"]))
        mean_pos = votes[dim][2] / ch.QUANT / max(votes[dim][0], 1) if dim in votes else None
        dims[dim] = {
            "name": d.name,
            "tier": a["tier"],
            "confidence": a["confidence"],
            "description": d.tiers.get(a["tier"], "not enough evidence"),
            "sessions": a["sessions"],
            "votes": a["votes"],
            "mean_position": round(mean_pos, 4) if mean_pos is not None else None,
            "features": feats,
            "evidence": evidence,
        }
    shares = {name: round(ch.summarise(e)["mean"], 4) for name, e in sorted(all_stats.items()) if is_boolean_feature(name)}
    clusters = [
        {"id": cid, "sessions": n, "first_session": first}
        for cid, n, first in store.conn.execute("SELECT id, n, first_session FROM mem_clusters ORDER BY id")
    ]
    return {
        "dimensions": dims,
        "anomalies": [
            {k: a[k] for k in ("session", "label", "task", "dimension", "from", "to", "verdict", "reason",
                               "judge", "distance", "threshold", "norm", "top_features", "candidates")}
            for a in st.anomalies
        ],
        "sessions": n_all,
        "session_shares": shares,
        "clusters": clusters,
        "drift_threshold": None if st.threshold == float("inf") else round(st.threshold, 4),
        "updated_ms": updated_ms,
    }


def _example_sessions(views: list[SessionView], dim: str, tier: str, k: int = 2) -> list[str]:
    out = []
    for v in views:
        t = v.tiers.get(dim)
        if t and t["tier"] == tier:
            out.append(f"e.g. {v.label or v.session_id[:8]}: {t['evidence']}")
            if len(out) >= k:
                break
    return out


def _rounded(d: dict[str, float]) -> dict[str, float]:
    return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in d.items()}


def _feature_lines(feats: dict[str, dict[str, float]]) -> list[str]:
    return [f"{name}: mean {s['mean']:.3g} (sd {s['std']:.3g}, min {s['min']:.3g}, max {s['max']:.3g})" for name, s in feats.items()]
