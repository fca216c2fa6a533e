"""The episodic channel's judgement: clusters of sessions, drift flags and their attribution.

Clustering runs on fingerprints normalised by fixed, documented transforms (ratios as they
are, counts on a log scale against a cap) and weighted so each dimension counts equally,
because raw fingerprints are dominated by character counts (a defect of the reference).

Drift: each session's fingerprint is z-scored against the user's norm for the same task
type (leave-one-out, from the exact running sums), so that a task that simply needs more
folders is not called drift; sessions without a task use their behavioural cluster as the
norm, and small groups fall back to all sessions. Distance = root mean square of the
clipped z-scores; a session is flagged above mean + 1.5 std of all distances (as published).

Attribution compares the session's own tier estimate per dimension with the user's tier
from the other sessions (leave-one-out votes), and says which dimension moved and where:
"C: R -> M". The rule judge then calls it task-dependent, genuine or uncertain.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from filegram.vocab import TIER_POSITION, tier_of_position

from .channels import QUANT, loo
from .dimensions import DIM_IDS, TIERS, task_info
from .features import FEATURE_DIM, FINGERPRINT_NAMES

RATIO_FEATURES = {"search_ratio", "browse_ratio", "revisit_ratio", "small_edit_ratio"}
CAPS = {
    "avg_output_length": 20000, "files_created": 20, "total_output_chars": 100000,
    "dirs_created": 20, "max_dir_depth": 6, "files_moved": 30, "total_edits": 40,
    "avg_lines_changed": 100, "total_deletes": 20, "delete_to_create_ratio": 2,
    "structured_files_created": 10, "markdown_table_rows": 100, "image_files_created": 10,
}
# Smallest standard deviation used in a z-score, per feature: a group of similar sessions
# must not turn a difference of one file into a huge z.
SIGMA_FLOOR = {n: (0.05 if n in RATIO_FEATURES else 0.5) for n in FINGERPRINT_NAMES}
SIGMA_FLOOR.update({"avg_output_length": 300.0, "total_output_chars": 800.0, "avg_lines_changed": 3.0,
                    "delete_to_create_ratio": 0.1, "markdown_table_rows": 2.0})
Z_CLIP = 6.0
MIN_GROUP = 3  # sessions in a norm group besides the one judged


# A typical session (rounded means over a synthetic corpus). Vectors are centred on it so
# that cosine similarity compares how sessions differ from the typical one; uncentred,
# all-positive vectors put every session in one cluster at the published 0.6 threshold.
TYPICAL = {
    "search_ratio": 0.1, "browse_ratio": 0.2, "revisit_ratio": 0.15, "avg_output_length": 2000,
    "files_created": 2, "total_output_chars": 5000, "dirs_created": 2, "max_dir_depth": 1, "files_moved": 2,
    "total_edits": 1, "avg_lines_changed": 3, "small_edit_ratio": 0.2, "total_deletes": 0.5,
    "delete_to_create_ratio": 0.2, "structured_files_created": 0.2, "markdown_table_rows": 5,
    "image_files_created": 0.3,
}


def _scaled(fp: Mapping[str, float]) -> list[float]:
    out = []
    for name in FINGERPRINT_NAMES:
        x = max(float(fp.get(name, 0.0)), 0.0)
        if name in RATIO_FEATURES:
            v = min(x, 1.0)
        else:
            v = min(math.log1p(x) / math.log1p(CAPS[name]), 1.0)
        out.append(v / math.sqrt(3.0))
    return out


_CENTRE = _scaled(TYPICAL)


def norm_vector(fp: Mapping[str, float]) -> list[float]:
    """Fixed normalisation (no dependence on other sessions, so updates stay O(session)):
    ratios as they are, counts as log1p(x)/log1p(cap), each dimension weighted equally,
    centred on a typical session."""
    return [round(v - c, 6) for v, c in zip(_scaled(fp), _CENTRE, strict=True)]


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(x * x for x in b))
    if na == 0 or nb == 0:
        return 1.0 if na == nb else 0.0
    return sum(x * y for x, y in zip(a, b, strict=True)) / (na * nb)


def assign_cluster(vec: Sequence[float], clusters: Sequence[tuple[int, int, list[float]]], threshold: float) -> int | None:
    """Leader clustering: the most similar centroid at or above the threshold (lowest id on
    ties), else None (a new cluster)."""
    best, best_id = -2.0, None
    for cid, _n, csum in clusters:
        c = cosine(vec, csum)
        if c >= threshold and c > best + 1e-12:
            best, best_id = c, cid
    return best_id


@dataclass
class SessionView:
    session_id: str
    label: str | None
    task_id: str | None
    task_type: str | None
    cluster: int | None
    fingerprint: dict[str, float]
    tiers: dict[str, dict[str, Any]]


def active_dims(task_id: str | None, tiers: Mapping[str, Any]) -> list[str]:
    """Dimensions a session exercised: its task's when known, else those it has evidence for."""
    task = task_info(task_id)
    return [d for d in DIM_IDS if (d in task.dims if task else d in tiers)]


def _norm_groups(s: SessionView, dim: str) -> list[str]:
    """Norm groups for a feature of `dim`, most specific first: same task type among the
    sessions that exercised dim, all sessions that exercised dim, same task type (or
    behavioural cluster when the task is unknown), everything."""
    out = []
    if s.task_type:
        out.append(f"type:{s.task_type}|active:{dim}")
    out.append(f"active:{dim}")
    if s.task_type:
        out.append(f"type:{s.task_type}")
    elif s.cluster is not None:
        out.append(f"cluster:{s.cluster}")
    out.append("all")
    return out


def zscores(s: SessionView, groups: Mapping[str, tuple[int, dict[str, list]]]) -> tuple[str, dict[str, float]]:
    """Leave-one-out z-score of each fingerprint feature against the session's norm group;
    returns the group used for most features and the z-scores."""
    all_stats = groups.get("all", (0, {}))[1]
    active = set(active_dims(s.task_id, s.tiers))
    z: dict[str, float] = {}
    used: dict[str, int] = {}
    for name in FINGERPRINT_NAMES:
        x = float(s.fingerprint.get(name, 0.0))
        dim = FEATURE_DIM[name]
        entry, grp = None, "all"
        for g in _norm_groups(s, dim) if dim in active else [f"type:{s.task_type}", "all"]:
            e = groups.get(g, (0, {}))[1].get(name)
            if e and e[0] - 1 >= MIN_GROUP:
                entry, grp = e, g
                break
        if entry is None:
            entry = all_stats.get(name)
        if not entry:
            z[name] = 0.0
            continue
        mean, sd, n = loo(entry, x)
        if n == 0:
            z[name] = 0.0
            continue
        _, sd_all, _ = loo(all_stats[name], x) if name in all_stats else (0.0, 0.0, 0)
        sigma = max(sd, 0.5 * sd_all, SIGMA_FLOOR[name])
        z[name] = max(-Z_CLIP, min(Z_CLIP, (x - mean) / sigma))
        used[grp] = used.get(grp, 0) + 1
    top = sorted(used, key=lambda g: (-used[g], g))[0] if used else "all"
    return top, z


def distance(s: SessionView, z: Mapping[str, float], votes: Mapping[str, tuple[int, dict[str, int], int]] | None = None) -> float:
    """Root mean square z over the features of the dimensions the session exercised (its
    task's; a task shows signal only on its own dimensions, the others add noise), plus,
    per exercised dimension, the tier disagreement with the user's other sessions
    (2 x tier gap x session confidence x the user's vote share): a one-tier change of habit
    may move a feature or two only a little, but it is what drift means here."""
    active = set(active_dims(s.task_id, s.tiers)) or set(DIM_IDS)
    names = [n for n in FINGERPRINT_NAMES if FEATURE_DIM[n] in active]
    sq = sum(z.get(n, 0.0) ** 2 for n in names) / len(names) if names else 0.0
    if votes is not None:
        for dim in active:
            own = s.tiers.get(dim)
            if not own:
                continue
            user_tier, share = loo_user_tier(votes, dim, own)
            if user_tier in TIER_POSITION and own["tier"] != user_tier:
                gap = abs(TIER_POSITION[own["tier"]] - TIER_POSITION[user_tier])
                sq += (2.0 * gap * float(own["confidence"]) * share) ** 2
    return math.sqrt(sq)


def loo_user_tier(votes: Mapping[str, tuple[int, dict[str, int], int]], dim: str, own: Mapping[str, Any] | None) -> tuple[str, float]:
    """The user's tier on a dimension without this session's vote, and its vote share."""
    n, v, _ = votes.get(dim, (0, {}, 0))
    v = dict(v)
    if own:
        v[own["tier"]] = v.get(own["tier"], 0) - int(round(float(own["confidence"]) * QUANT))
        n -= 1
    total = sum(max(x, 0) for x in v.values())
    if n <= 0 or total <= 0:
        return "unknown", 0.0
    best = sorted(TIERS, key=lambda t: (-v.get(t, 0), abs(TIER_POSITION[t] - 1.0)))[0]
    return best, v.get(best, 0) / total


# Which way a rising feature pushes its dimension: -1 towards L (more nesting, more
# output, more small edits, more deletes, more visuals), +1 towards R (bigger edits).
TOWARDS_R = {"avg_lines_changed": 1.0}
A_STYLE = {"revisit_ratio": "L", "search_ratio": "M", "browse_ratio": "R"}


def _lean(dim: str, user_tier: str, position: float, z: Mapping[str, float]) -> str:
    """The neighbouring tier a session leans to when its tier estimate did not change:
    from the position on the tier axis, else from the signed z-scores of the dimension's
    features. From an outer tier the only neighbour is M."""
    if dim == "A":
        style, zmax = max(((t, z.get(n, 0.0)) for n, t in A_STYLE.items()), key=lambda kv: (kv[1], kv[0]))
        return style if zmax >= 1.0 and style != user_tier else user_tier
    delta = position - TIER_POSITION[user_tier]
    if abs(delta) < 0.35:
        signed = sum(z.get(n, 0.0) * TOWARDS_R.get(n, -1.0) for n in FINGERPRINT_NAMES if FEATURE_DIM[n] == dim)
        if abs(signed) < 1.0:
            return user_tier
        delta = signed
    target = TIER_POSITION[user_tier] + math.copysign(1.0, delta)
    if target < 0 or target > 2:
        return user_tier
    return tier_of_position(target)


def attribute(s: SessionView, z: Mapping[str, float], votes: Mapping[str, tuple[int, dict[str, int], int]]) -> list[dict[str, Any]]:
    """Ranked candidate shifts of one session: which dimension moved, from which tier to which."""
    task = task_info(s.task_id)
    out = []
    for dim in DIM_IDS:
        if task is not None and dim not in task.dims:
            continue  # the task does not exercise it: no evidence either way
        own = s.tiers.get(dim)
        feats = [n for n in FINGERPRINT_NAMES if FEATURE_DIM[n] == dim]
        dz = math.sqrt(sum(z.get(n, 0.0) ** 2 for n in feats) / len(feats))
        if own is None:
            if dz >= 1.0:
                out.append({"dimension": dim, "from": loo_user_tier(votes, dim, None)[0], "to": "unknown",
                            "score": round(0.25 * dz, 4), "z": round(dz, 4), "active": bool(task and dim in task.dims),
                            "session_confidence": 0.0, "user_share": 0.0})
            continue
        user_tier, share = loo_user_tier(votes, dim, own)
        to = own["tier"]
        moved = user_tier != "unknown" and to != user_tier
        if not moved and user_tier != "unknown":
            to = _lean(dim, user_tier, float(own["position"]), z)
        gap = abs(TIER_POSITION.get(to, 1.0) - TIER_POSITION.get(user_tier, 1.0)) if user_tier != "unknown" else 0.0
        score = (2.0 if moved else 0.0) * float(own["confidence"]) * max(share, 0.34) + 0.5 * dz + 0.25 * gap
        if not moved:
            score *= 0.6 if to != user_tier else 0.3
        out.append({"dimension": dim, "from": user_tier, "to": to, "score": round(score, 4), "z": round(dz, 4),
                    "active": bool(task and dim in task.dims) if task else True,
                    "session_confidence": float(own["confidence"]), "user_share": round(share, 4),
                    "tier_changed": moved})
    out.sort(key=lambda d: (-d["score"], d["dimension"]))
    return out


def judge(shift: Mapping[str, Any], task_known: bool) -> tuple[str, str]:
    """Rule judge: task-dependent vs genuine vs uncertain, with the reason."""
    dim = shift["dimension"]
    if task_known and not shift.get("active", True):
        return "task-dependent", f"{dim} is not exercised by this task; the deviation comes from the task's demands"
    if shift.get("tier_changed") and shift["session_confidence"] >= 0.6 and shift["user_share"] >= 0.5:
        return "genuine", (f"{dim} was {shift['to']} here (confidence {shift['session_confidence']:.2f}) while the "
                           f"user is {shift['from']} in {shift['user_share']:.0%} of the other sessions' votes")
    if not shift.get("tier_changed") and shift["z"] < 1.0:
        return "task-dependent", f"{dim} stayed within the user's tier; the distance comes from the task's own volume"
    return "uncertain", f"{dim} moved (z {shift['z']:.1f}) but the evidence for a change of tier is weak"


def detect(
    sessions: Sequence[SessionView],
    groups: Mapping[str, tuple[int, dict[str, list]]],
    votes: Mapping[str, tuple[int, dict[str, int], int]],
    std_threshold: float = 1.5,
) -> tuple[list[dict[str, Any]], dict[str, float], float]:
    """Flag drifted sessions and attribute each flag. Returns (anomalies, distances, threshold)."""
    dist: dict[str, float] = {}
    zs: dict[str, dict[str, float]] = {}
    norm_of: dict[str, str] = {}
    for s in sessions:
        grp, z = zscores(s, groups)
        zs[s.session_id], norm_of[s.session_id] = z, grp
        dist[s.session_id] = distance(s, z, votes)
    if len(dist) < 4:
        return [], dist, math.inf
    vals = list(dist.values())
    mean = sum(vals) / len(vals)
    sd = math.sqrt(sum((v - mean) ** 2 for v in vals) / (len(vals) - 1))
    thr = mean + std_threshold * sd
    anomalies = []
    for s in sessions:
        d = dist[s.session_id]
        if d <= thr or sd == 0:
            continue
        z = zs[s.session_id]
        shifts = attribute(s, z, votes)
        top = shifts[0] if shifts else {"dimension": "unknown", "from": "unknown", "to": "unknown", "z": 0.0,
                                        "active": True, "session_confidence": 0.0, "user_share": 0.0}
        if top["to"] == top["from"]:
            top = {**top, "to": "unknown"}  # far from the norm, but no tier it moved to
        verdict, reason = judge(top, task_info(s.task_id) is not None)
        top_feats = sorted(z, key=lambda n: (-abs(z[n]), n))[:3]
        anomalies.append({
            "session": s.session_id,
            "label": s.label,
            "task": s.task_id,
            "dimension": top["dimension"],
            "from": top["from"],
            "to": top["to"],
            "verdict": verdict,
            "reason": reason,
            "distance": round(d, 4),
            "threshold": round(thr, 4),
            "norm": norm_of[s.session_id],
            "top_features": [{"feature": n, "z": round(z[n], 3)} for n in top_feats],
            "candidates": [{k: c[k] for k in ("dimension", "from", "to", "score")} for c in shifts[:3]],
        })
    anomalies.sort(key=lambda a: (-a["distance"], a["session"]))
    return anomalies, dist, thr
