"""The deterministic tier classifier: L/M/R per dimension, per session and per user.

Each rule restates a definition of filegram.md table 2 over measured features, so the
reason for a tier can be printed next to it. Ordinal dimensions (B-F) get a position on
a 0 (L) .. 1 (M) .. 2 (R) axis, interpolated between the table's anchors (for B: <=60
lines is R, 80-150 is M, >=200 is L); the tier is the nearest anchor and the confidence
grows with the distance from the 0.5 / 1.5 boundaries. Consumption (A) is categorical
(deep reading / search-first / browsing), so it is scored per style and the best wins.

A session votes on a dimension only when it exercised it: when its task is known, the
task must list the dimension (filegram.md section 3: "a task shows signal only on its own
dimensions"); in every case there must be evidence (something read, written, edited,
placed). A user tier is the confidence-weighted vote of the sessions; a dimension no
session voted on is "unknown".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .dimensions import DIM_IDS, TIERS, task_info

TIER_POS = {"L": 0.0, "M": 1.0, "R": 2.0}


def _interp(x: float, points: Sequence[tuple[float, float]]) -> float:
    if x <= points[0][0]:
        return points[0][1]
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        if x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0) if x1 > x0 else y1
    return points[-1][1]


def tier_of_position(p: float) -> str:
    return "L" if p < 0.5 else ("M" if p < 1.5 else "R")


def _confidence(p: float) -> float:
    """0.5 on a boundary, 1.0 on an anchor."""
    d = min(abs(p - 0.5), abs(p - 1.5), 0.5) / 0.5
    return round(0.5 + 0.5 * d, 4)


def _clamp(p: float) -> float:
    return max(0.0, min(2.0, p))


@dataclass
class SessionTier:
    tier: str
    confidence: float
    position: float
    evidence: str

    def as_dict(self) -> dict[str, Any]:
        return {"tier": self.tier, "confidence": self.confidence, "position": round(self.position, 4), "evidence": self.evidence}


def _g(f: Mapping[str, float], key: str, default: float = 0.0) -> float:
    v = f.get(key)
    return float(v) if isinstance(v, int | float) else default


# -- per dimension -------------------------------------------------------------------------


def _a(f: Mapping[str, float]) -> SessionTier | None:
    sr, br, rv = _g(f, "search_ratio"), _g(f, "browse_ratio"), _g(f, "revisit_ratio")
    access = _g(f, "access_actions", -1)
    if access < 0:  # only a fingerprint: any ratio above zero means something was read
        access = 3.0 if sr + br + rv > 0 else 0.0
    if access < 3:
        return None
    # Each style scored against what "a lot" means for it: a search-first reader searches
    # for ~1 in 7 accesses, a browser lists folders for ~1 in 4, a deep reader comes back
    # to ~1 in 5 of the files read (and reads files more than once).
    scores = {
        "L": rv / 0.2 + 0.5 * min(max(_g(f, "reads_per_file", 1.0) - 1.0, 0.0) / 0.3, 1.5)
        + 0.25 * _g(f, "sequential_ref_share"),
        "M": sr / 0.15 + 0.5 * _g(f, "offset_read_share") / 0.3 + 0.25 * _g(f, "search_then_read_share"),
        "R": br / 0.25 + 0.25 * _g(f, "first_access_browse_share"),
    }
    order = sorted(TIERS, key=lambda t: (-scores[t], TIERS.index(t)))
    best, second = scores[order[0]], scores[order[1]]
    conf = 0.5 + 0.5 * min((best - second) / max(best, 1e-9), 1.0) if best > 0 else 0.34
    ev = f"search {sr:.2f}, browse {br:.2f} of accesses, revisits {rv:.2f} of reads"
    return SessionTier(order[0], round(conf, 4), TIER_POS[order[0]], ev)


def _b(f: Mapping[str, float]) -> SessionTier | None:
    files = _g(f, "text_files_written", _g(f, "files_created"))
    if files < 1:
        return None
    total = _g(f, "output_lines", -1)
    if total < 0:
        total = _g(f, "total_output_chars") / 45.0
    avg = _g(f, "avg_lines_per_file", total / max(files, 1))
    anchors = ((60, 2.0), (80, 1.0), (150, 1.0), (200, 0.0))
    p = (_interp(total, anchors) + _interp(avg, anchors)) / 2
    if files >= 3:
        p -= 0.5
    if _g(f, "max_heading_depth") >= 3:
        p -= 0.25
    if _g(f, "list_line_share") >= 0.5 and avg < 100:
        p += 0.25
    p = _clamp(p)
    ev = f"{int(files)} document(s), {int(total)} lines ({avg:.0f} per file), heading depth {int(_g(f, 'max_heading_depth'))}"
    return SessionTier(tier_of_position(p), _confidence(p), p, ev)


def _c(f: Mapping[str, float]) -> SessionTier | None:
    placed = _g(f, "files_created") + _g(f, "dirs_created") + _g(f, "files_moved")
    if placed < 1:
        return None
    depth = _g(f, "final_structure_depth", _g(f, "max_dir_depth"))
    p = _interp(depth, ((0, 2.0), (1, 1.25), (2, 0.75), (3, 0.0)))
    if _g(f, "moves_into_subfolders") >= 3:
        p -= 0.25
    if _g(f, "files_created") >= 3 and _g(f, "root_create_share") >= 0.8 and _g(f, "dirs_created") == 0:
        p += 0.5
    p = _clamp(p)
    ev = (f"structure {int(depth)} level(s) deep, {int(_g(f, 'dirs_created'))} folder(s) created, "
          f"{int(_g(f, 'files_moved'))} move(s)")
    return SessionTier(tier_of_position(p), _confidence(p), p, ev)


def _d(f: Mapping[str, float]) -> SessionTier | None:
    edits = _g(f, "total_edits")
    overwrites = _g(f, "overwrites")
    backups = _g(f, "backups")
    if edits + overwrites + backups < 1:
        return None
    avg = _g(f, "avg_lines_changed")
    if edits > 0:
        # small edits (< 10 lines, the fingerprint's own cut) -> L; 10-30 -> M; bulk -> R
        p_avg = _interp(avg, ((6, 0.0), (10, 1.0), (30, 1.0), (40, 2.0)))
        small = _g(f, "small_edit_ratio")
        p_small = _interp(small, ((0.5, 1.0), (0.85, 0.0)))
        p_edit = (p_avg + p_small) / 2
        # one overwrite rewrites a whole file: it weighs as much as two edits
        ow = overwrites / (overwrites + edits / 2)
        p = p_edit * (1 - ow) + 2.0 * ow
    else:
        p = 2.0 if overwrites > 0 else 0.25
    if backups >= 2:
        p -= 0.5
    elif backups >= 1:
        p -= 0.3
    if _g(f, "edits_per_file") >= 5:  # several passes over the same file
        p -= 0.25
    p = _clamp(p)
    ev = (f"{int(edits)} edit(s) of {avg:.0f} lines on average, {int(overwrites)} overwrite(s), "
          f"{int(backups)} backup(s)")
    return SessionTier(tier_of_position(p), _confidence(p), p, ev)


def _e(f: Mapping[str, float]) -> SessionTier | None:
    deletes = _g(f, "total_deletes")
    creates = _g(f, "files_created")
    if deletes < 1 and creates < 1:
        return None
    if deletes == 0:
        p = 2.0
        conf = round(min(0.5 + 0.1 * creates, 0.9), 4)
    else:
        temp = _g(f, "temp_deletes")
        # Selective: removes temporary/intermediate files as a habit (several deletes, or
        # temp files among them); pragmatic: an occasional delete.
        if temp >= 2 or deletes >= 3:
            p = 0.0
        elif deletes >= 2:
            p = 0.6
        else:
            p = 1.0
        conf = _confidence(p)
    ev = f"{int(deletes)} delete(s) ({int(_g(f, 'temp_deletes'))} temporary) for {int(creates)} file(s) created"
    return SessionTier(tier_of_position(p), conf, p, ev)


def _f(f: Mapping[str, float]) -> SessionTier | None:
    creates = _g(f, "files_created")
    if creates < 1:
        return None
    images, structured = _g(f, "image_files_created"), _g(f, "structured_files_created")
    figdirs = _g(f, "figure_dirs_created")
    rows = _g(f, "markdown_table_rows")
    visual = images + structured + figdirs
    # visual-heavy: several charts/images/data files (or one plus a figures folder);
    # balanced: tables in markdown (a lone image leans that way too); text only: neither.
    if visual >= 3:
        p = 0.0
    elif visual >= 2:
        p = 0.25
    elif visual >= 1:
        p = 0.75
    elif rows >= 6:
        p = 1.0
    elif rows >= 2:
        p = 1.4
    else:
        p = 2.0
    ev = f"{int(images)} image(s), {int(structured)} structured file(s), {int(figdirs)} figure folder(s), {int(rows)} table row(s)"
    return SessionTier(tier_of_position(p), _confidence(p), p, ev)


_CLASSIFIERS = {"A": _a, "B": _b, "C": _c, "D": _d, "E": _e, "F": _f}


def session_tiers(features: Mapping[str, float], task_id: str | None = None) -> dict[str, dict[str, Any]]:
    """Tier estimate of one session per dimension it exercised: {dim: {tier, confidence,
    position, evidence}}. Dimensions the session (or its task) did not exercise are absent."""
    task = task_info(task_id)
    out: dict[str, dict[str, Any]] = {}
    for dim in DIM_IDS:
        if task is not None and dim not in task.dims:
            continue
        st = _CLASSIFIERS[dim](features)
        if st is not None:
            out[dim] = st.as_dict()
    return out


def tiers_from_fingerprint(fp: Mapping[str, float], task_id: str | None = None) -> dict[str, dict[str, Any]]:
    """Same rules when only the 17 fingerprint features are known (e.g. a baseline)."""
    return session_tiers(fp, task_id)


def match_profiles(
    estimates: Mapping[str, Mapping[str, Any]], candidates: Mapping[str, Mapping[str, str]]
) -> dict[str, float]:
    """Score candidate profiles ({name: {dim: tier}}) against session or user estimates:
    confidence-weighted agreement, with half credit for an adjacent tier on ordinal dims.
    Higher is better; used for "which profile produced this trajectory"."""
    scores: dict[str, float] = {}
    for name, tiers in candidates.items():
        s = 0.0
        for dim, est in estimates.items():
            want = tiers.get(dim)
            if want not in TIER_POS or est.get("tier") not in TIER_POS:
                continue
            w = float(est.get("confidence", 0.5))
            if dim == "A":
                s += w * (1.0 if est["tier"] == want else -0.5)
            else:
                dist = abs(float(est.get("position", TIER_POS[est["tier"]])) - TIER_POS[want])
                s += w * (1.0 - dist)
        scores[name] = round(s, 6)
    return scores


def aggregate_votes(votes: Mapping[str, Mapping[str, float]], counts: Mapping[str, int]) -> dict[str, dict[str, Any]]:
    """User tiers from the summed confidence votes per dimension and tier."""
    out: dict[str, dict[str, Any]] = {}
    for dim in DIM_IDS:
        v = votes.get(dim, {})
        n = int(counts.get(dim, 0))
        total = sum(v.values())
        if n == 0 or total <= 0:
            out[dim] = {"tier": "unknown", "confidence": 0.0, "sessions": 0, "votes": {t: 0.0 for t in TIERS}}
            continue
        best = sorted(TIERS, key=lambda t: (-v.get(t, 0.0), abs(TIER_POS[t] - 1.0), TIERS.index(t)))[0]
        share = v.get(best, 0.0) / total
        conf = share * n / (n + 1)
        out[dim] = {
            "tier": best,
            "confidence": round(conf, 4),
            "sessions": n,
            "votes": {t: round(v.get(t, 0.0), 4) for t in TIERS},
        }
    return out
