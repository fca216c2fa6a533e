"""The geometry of the dashboard's three inline SVG charts: the profile (each dimension on an
L-M-R axis, dot size by confidence), one sparkline per dimension, the session timeline.

Only numbers and labels here; templates/charts.html draws them (and escapes every label).
Coordinates are formatted once, here, so the markup stays plain.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from filegram.vocab import DIM_IDS, DIMENSION_NAMES, TIER_POSITION, TIERS, UNKNOWN

PROFILE_WIDTH, PROFILE_ROW, PROFILE_LEFT, PROFILE_AXIS = 700, 34, 150, 300
SPARK_WIDTH, SPARK_HEIGHT = 300, 60
TIMELINE_WIDTH, TIMELINE_HEIGHT = 960, 120


def _f(x: float) -> str:
    return f"{x:.1f}"


def _axis_x(position: float) -> float:
    """x of a tier position (L = 0, M = 1, R = 2) on the profile chart's axis."""
    return PROFILE_LEFT + 20 + position * (PROFILE_AXIS - 40) / 2


def profile_chart(profile: Mapping[str, Any]) -> dict[str, Any]:
    """Six rows: the tier's badge in its column of an L-M-R axis (size = confidence), the mean
    position of the tier probabilities as a small separate mark, and a confidence bar."""
    dims = profile.get("dimensions") or {}
    height = PROFILE_ROW * len(DIM_IDS) + 34
    bar_x = PROFILE_LEFT + PROFILE_AXIS + 30
    rows = []
    for i, d in enumerate(DIM_IDS):
        info = dims.get(d) or {}
        tier = info.get("tier", UNKNOWN)
        conf = float(info.get("confidence") or 0.0)
        y = 30 + i * PROFILE_ROW
        dot = mean = None
        if tier in TIER_POSITION:
            # the tier's badge sits in its tier's column; the posterior's mean is its own mark
            dot = {"x": _f(_axis_x(TIER_POSITION[tier])), "r": _f(5 + 9 * conf), "opacity": f"{0.3 + 0.7 * conf:.2f}"}
            mp = info.get("mean_position")
            if isinstance(mp, int | float):
                mean = {"x": _f(_axis_x(float(mp))), "position": f"{float(mp):.2f}"}
        rows.append({"dim": d, "label": f"{d} {info.get('name') or DIMENSION_NAMES[d]}", "tier": tier,
                     "y": y, "text_y": y + 4, "bar_y": y - 6, "dot": dot, "mean": mean,
                     "bar_width": _f(150 * conf), "confidence": f"{conf:.2f}"})
    return {
        "width": PROFILE_WIDTH, "height": height,
        "ticks": [{"x": _f(_axis_x(k)), "label": t} for k, t in enumerate(TIERS)],
        "unknown_x": _f(PROFILE_LEFT + PROFILE_AXIS / 2),
        "bar_x": bar_x, "value_x": bar_x + 156, "rows": rows,
    }


def sparkline(points: Sequence[tuple[int, float]], n: int, dim: str) -> dict[str, Any]:
    """Per-session positions of one dimension (L top, R bottom) with a running mean."""
    w, h = SPARK_WIDTH, SPARK_HEIGHT

    def xy(i: int, p: float) -> tuple[float, float]:
        return 12 + (w - 24) * (i / max(n - 1, 1)), 8 + (h - 16) * (p / 2.0)

    dots = [{"x": _f(x), "y": _f(y)} for x, y in (xy(i, p) for i, p in points)]
    run, acc = [], 0.0
    for k, (i, p) in enumerate(points, start=1):
        acc += p
        run.append(xy(i, acc / k))
    grid = [{"y": _f(8 + (h - 16) * q / 2), "text_y": _f(12 + (h - 16) * q / 2), "label": t}
            for q, t in enumerate(TIERS)]
    return {"dim": dim, "width": w, "height": h, "dots": dots, "grid": grid,
            "line": " ".join(f"{x:.1f},{y:.1f}" for x, y in run)}


def timeline(sessions: Sequence[Mapping[str, Any]], flagged: Mapping[str, list[dict[str, Any]]],
             perturbations: Mapping[str, str], when: Any) -> dict[str, Any] | None:
    """Sessions as bars on a time axis: red when memory flagged them (with the dimension and
    direction above), an orange dot when the session's own metadata says it was perturbed.
    `when` formats a time for the axis ends and tooltips. None without sessions."""
    if not sessions:
        return None
    w = TIMELINE_WIDTH
    t0 = min(float(s.get("started_ms") or 0) for s in sessions)
    t1 = max(float(s.get("ended_ms") or s.get("started_ms") or 0) for s in sessions)
    span = max(t1 - t0, 1.0)

    def x(t: float) -> float:
        return 20 + (w - 40) * (t - t0) / span

    bars = []
    for s in sessions:
        a = float(s.get("started_ms") or t0)
        b = float(s.get("ended_ms") or a)
        x0, x1 = x(a), max(x(b), x(a) + 3)
        sid = str(s["id"])
        marks = flagged.get(sid) or []
        bars.append({"session": sid, "x": _f(x0), "width": _f(x1 - x0), "mid": _f((x0 + x1) / 2),
                     "color": "#c53030" if marks else "#2b6cb0",
                     "title": f"{s.get('label') or sid[:8]} {when(a)}", "marks": marks,
                     "perturbation": perturbations.get(sid, "")})
    return {"width": w, "height": TIMELINE_HEIGHT, "start": when(t0), "end": when(t1),
            "axis_end": w - 20, "bars": bars}
