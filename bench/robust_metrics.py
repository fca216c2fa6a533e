"""Scores of the robustness benchmark, from what memory said about each user.

One `UserOutcome` per (condition, user): the true tiers, memory's calls (tier and
confidence per dimension), the perturbed sessions with their shifts, and memory's drift
flags. Everything here is plain counting over those records, so each figure can be checked
by hand:

- tier accuracy: right calls / all (user, dimension) pairs; "unknown" counts as not right;
- unknown rate: "unknown" calls / all pairs;
- calibration over the calls that name a tier: 10 equal-width confidence bins, the expected
  calibration error = sum over bins of (bin share) x |accuracy - mean confidence|;
- accuracy of calls made with confidence >= 0.8, and accuracy against coverage: for each
  threshold, the share of all pairs called with at least that confidence and their accuracy;
- drift recall: perturbed sessions with at least one flag / perturbed sessions;
- false flags: flags whose (session, dimension) is not a recorded shift, per user, scaled to
  24 sessions, averaged over users;
- attribution: flagged perturbed sessions with a flag naming the shifted dimension with the
  right from and to tiers / flagged perturbed sessions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from filegram.vocab import DIM_IDS, TIER_POSITION, TIERS

BINS = 10
THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.9)
HIGH_CONFIDENCE = 0.8
SESSIONS_PER_USER = 24  # false flags are reported per 24 sessions (the unit)

# target name -> (metric key, comparison, bound)
TARGETS: dict[str, tuple[str, str, float]] = {
    "tier accuracy": ("tier_accuracy", ">=", 0.80),
    "unknown": ("unknown_rate", "<=", 0.10),
    "acc @ conf>=0.8": ("high_confidence_accuracy", ">=", 0.90),
    "drift recall": ("drift_recall", ">=", 0.60),
    "false flags": ("false_flags_per_user", "<=", 1.0),
    "attribution": ("attribution", ">=", 0.70),
}


@dataclass
class UserOutcome:
    condition: str
    user: str
    sessions: int
    truth: dict[str, str]
    calls: dict[str, tuple[str, float]]  # dim -> (tier or "unknown", confidence)
    perturbed: dict[str, dict[str, tuple[str, str]]] = field(default_factory=dict)  # label -> dim -> (from, to)
    flags: list[dict[str, Any]] = field(default_factory=list)  # {label, dimension, from, to, verdict}
    note: str = ""
    seconds: float = 0.0
    # session label -> dimensions on which it showed another tier's signature (flagged or not)
    shown: dict[str, list[str]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["calls"] = {k: {"tier": t, "confidence": c} for k, (t, c) in self.calls.items()}
        d["perturbed"] = {s: {k: list(v) for k, v in dims.items()} for s, dims in self.perturbed.items()}
        return d


def _mean(xs: Sequence[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def calibration(known: Sequence[tuple[float, bool]]) -> tuple[float | None, list[dict[str, Any]]]:
    """ECE and the reliability table over (confidence, right) pairs, 10 equal-width bins."""
    rows = []
    ece = 0.0
    for b in range(BINS):
        lo, hi = b / BINS, (b + 1) / BINS
        inside = [(c, ok) for c, ok in known if lo <= c < hi or (b == BINS - 1 and c >= hi)]
        if not inside:
            rows.append({"bin": f"{lo:.1f}-{hi:.1f}", "n": 0, "confidence": None, "accuracy": None})
            continue
        conf = sum(c for c, _ in inside) / len(inside)
        acc = sum(ok for _, ok in inside) / len(inside)
        ece += len(inside) / len(known) * abs(acc - conf)
        rows.append({"bin": f"{lo:.1f}-{hi:.1f}", "n": len(inside), "confidence": conf, "accuracy": acc})
    return (ece if known else None), rows


def tier_metrics(outcomes: Sequence[UserOutcome]) -> dict[str, Any]:
    pairs = [(d, truth, *o.calls.get(d, ("unknown", 0.0))) for o in outcomes for d, truth in o.truth.items()]
    n = len(pairs)
    right = [tier == truth for _d, truth, tier, _c in pairs]
    per_dim = {}
    for d in DIM_IDS:
        sel = [tier == truth for dd, truth, tier, _c in pairs if dd == d]
        per_dim[d] = _mean(sel)
    known = [(float(c), tier == truth) for _d, truth, tier, c in pairs if tier in TIERS]
    ece, reliability = calibration(known)
    high = [ok for c, ok in known if c >= HIGH_CONFIDENCE]
    coverage = []
    for t in THRESHOLDS:
        sel = [ok for c, ok in known if c >= t]
        coverage.append({"threshold": t, "coverage": len(sel) / n if n else None, "accuracy": _mean(sel), "n": len(sel)})
    return {
        "pairs": n,
        "tier_accuracy": _mean(right),
        "per_dimension": per_dim,
        "unknown_rate": (n - len(known)) / n if n else None,
        "known_accuracy": _mean([ok for _c, ok in known]),
        "ece": ece,
        "reliability": reliability,
        "high_confidence_accuracy": _mean(high),
        "high_confidence_n": len(high),
        "coverage": coverage,
    }


def _one_tier(dims: Mapping[str, Sequence[str]]) -> bool:
    """Every shift of the session moved one tier (filegram.md section 3: L->M, R->M, M->L or
    M->R), the only kind the reference's perturbations and users-dev have."""
    return all(a in TIER_POSITION and b in TIER_POSITION and abs(TIER_POSITION[a] - TIER_POSITION[b]) == 1
               for a, b in dims.values())


def drift_metrics(outcomes: Sequence[UserOutcome]) -> dict[str, Any]:
    total = flagged = attributed = visible = 0
    flagged_one = attributed_one = 0  # perturbed sessions whose shifts all moved one tier
    false_rates = []
    verdicts: Counter[str] = Counter()
    for o in outcomes:
        shifted = {(s, d) for s, dims in o.perturbed.items() for d in dims}
        by_session: dict[str, list[dict[str, Any]]] = {}
        for f in o.flags:
            by_session.setdefault(str(f.get("label")), []).append(f)
            verdicts[str(f.get("verdict") or "none")] += 1
        false = sum(1 for f in o.flags if (str(f.get("label")), f.get("dimension")) not in shifted)
        false_rates.append(false * SESSIONS_PER_USER / max(o.sessions, 1))
        for session, dims in o.perturbed.items():
            total += 1
            visible += any(d in dims for d in o.shown.get(session, ()))
            flags = by_session.get(session, [])
            if not flags:
                continue
            flagged += 1
            one = _one_tier(dims)
            flagged_one += one
            if any(f.get("dimension") in dims and (f.get("from"), f.get("to")) == tuple(dims[f["dimension"]])
                   for f in flags):
                attributed += 1
                attributed_one += one
    return {
        "perturbed_sessions": total,
        "flagged_perturbed": flagged,
        "drift_recall": flagged / total if total else None,
        # the ceiling of any detector that reads a session's tier signature: the perturbed
        # sessions that showed another tier's on the perturbed dimension at all
        "drift_visible": visible / total if total else None,
        "flags": sum(len(o.flags) for o in outcomes),
        "false_flags_per_user": _mean(false_rates),
        "attribution": attributed / flagged if flagged else None,
        "attributed": attributed,
        # the same over the sessions whose shifts all moved one tier: a session showing the
        # far tier is attributed to the middle one (memory.drift.shifted_to), so another
        # model's two-tier shifts are misattributed by design
        "attribution_one_tier": attributed_one / flagged_one if flagged_one else None,
        "flagged_one_tier": flagged_one,
        "verdicts": dict(verdicts),
    }


def judge(metrics: dict[str, Any]) -> dict[str, bool | None]:
    """Each target met (True), missed (False) or not measurable here (None)."""
    out: dict[str, bool | None] = {}
    for name, (key, op, bound) in TARGETS.items():
        v = metrics.get(key)
        if v is None:
            out[name] = None
        else:
            out[name] = v >= bound if op == ">=" else v <= bound
    return out


def condition_metrics(outcomes: Sequence[UserOutcome]) -> dict[str, Any]:
    m = {"users": len(outcomes), "sessions": sum(o.sessions for o in outcomes)}
    m.update(tier_metrics(outcomes))
    m.update(drift_metrics(outcomes))
    m["targets"] = judge(m)
    return m
