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

from filegram.vocab import TIER_POSITION, tier_of_position

from .dimensions import DIM_IDS, TIERS, task_info


def _interp(x: float, points: Sequence[tuple[float, float]]) -> float:
    if x <= points[0][0]:
        return points[0][1]
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        if x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0) if x1 > x0 else y1
    return points[-1][1]


def _confidence(p: float) -> float:
    """0.5 on a boundary, 1.0 on an anchor."""
    d = min(abs(p - 0.5), abs(p - 1.5), 0.5) / 0.5
    return round(0.5 + 0.5 * d, 4)


@dataclass
class SessionTier:
    tier: str
    confidence: float
    position: float
    evidence: str

    def as_dict(self) -> dict[str, Any]:
        return {"tier": self.tier, "confidence": self.confidence, "position": round(self.position, 4), "evidence": self.evidence}


def _ordinal_vote(p: float, evidence: str) -> SessionTier:
    """An ordinal dimension's vote from its position (clamped to the L..R axis): the nearest
    tier, with a confidence that grows with the distance from the boundaries."""
    p = max(0.0, min(2.0, p))
    return SessionTier(tier_of_position(p), _confidence(p), p, evidence)


def _feature(f: Mapping[str, float], key: str, default: float = 0.0) -> float:
    """A numeric feature, or the default when it is missing or not a number."""
    v = f.get(key)
    return float(v) if isinstance(v, int | float) else default


# -- per dimension -------------------------------------------------------------------------


def consumption_vote(f: Mapping[str, float]) -> SessionTier | None:
    """A: deep reading (L), search-first (M) or browsing (R), each style scored by its own cues; None with fewer than 3 accesses."""
    sr, br, rv = _feature(f, "search_ratio"), _feature(f, "browse_ratio"), _feature(f, "revisit_ratio")
    access = _feature(f, "access_actions", -1)
    if access < 0:  # only a fingerprint: any ratio above zero means something was read
        access = 3.0 if sr + br + rv > 0 else 0.0
    if access < 3:
        return None
    # Each style scored against what "a lot" means for it: a search-first reader searches
    # for ~1 in 7 accesses, a browser lists folders for ~1 in 4, a deep reader comes back
    # to ~1 in 5 of the files read (and reads files more than once).
    scores = {
        "L": rv / 0.2 + 0.5 * min(max(_feature(f, "reads_per_file", 1.0) - 1.0, 0.0) / 0.3, 1.5)
        + 0.25 * _feature(f, "sequential_ref_share"),
        "M": sr / 0.15 + 0.5 * _feature(f, "offset_read_share") / 0.3 + 0.25 * _feature(f, "search_then_read_share"),
        "R": br / 0.25 + 0.25 * _feature(f, "first_access_browse_share"),
    }
    order = sorted(TIERS, key=lambda t: (-scores[t], TIERS.index(t)))
    best, second = scores[order[0]], scores[order[1]]
    conf = 0.5 + 0.5 * min((best - second) / max(best, 1e-9), 1.0) if best > 0 else 0.34
    ev = f"search {sr:.2f}, browse {br:.2f} of accesses, revisits {rv:.2f} of reads"
    return SessionTier(order[0], round(conf, 4), TIER_POSITION[order[0]], ev)


def production_vote(f: Mapping[str, float]) -> SessionTier | None:
    """B: how much one session writes, on the table's line anchors (<=60 R, 80-150 M, >=200 L); None when nothing was written."""
    files = _feature(f, "text_files_written", _feature(f, "files_created"))
    if files < 1:
        return None
    total = _feature(f, "output_lines", -1)
    if total < 0:
        total = _feature(f, "total_output_chars") / 45.0
    avg = _feature(f, "avg_lines_per_file", total / max(files, 1))
    anchors = ((60, 2.0), (80, 1.0), (150, 1.0), (200, 0.0))
    p = (_interp(total, anchors) + _interp(avg, anchors)) / 2
    if files >= 3:
        p -= 0.5
    if _feature(f, "max_heading_depth") >= 3:
        p -= 0.25
    if _feature(f, "list_line_share") >= 0.5 and avg < 100:
        p += 0.25
    ev = f"{int(files)} document(s), {int(total)} lines ({avg:.0f} per file), heading depth {int(_feature(f, 'max_heading_depth'))}"
    return _ordinal_vote(p, ev)


def organization_vote(f: Mapping[str, float]) -> SessionTier | None:
    """C: how deep the session's structure goes (root only R, 1-2 levels M, 3+ L); None when nothing was placed."""
    placed = _feature(f, "files_created") + _feature(f, "dirs_created") + _feature(f, "files_moved")
    if placed < 1:
        return None
    depth = _feature(f, "final_structure_depth", _feature(f, "max_dir_depth"))
    p = _interp(depth, ((0, 2.0), (1, 1.25), (2, 0.75), (3, 0.0)))
    if _feature(f, "moves_into_subfolders") >= 3:
        p -= 0.25
    if _feature(f, "files_created") >= 3 and _feature(f, "root_create_share") >= 0.8 and _feature(f, "dirs_created") == 0:
        p += 0.5
    ev = (f"structure {int(depth)} level(s) deep, {int(_feature(f, 'dirs_created'))} folder(s) created, "
          f"{int(_feature(f, 'files_moved'))} move(s)")
    return _ordinal_vote(p, ev)


def iteration_vote(f: Mapping[str, float]) -> SessionTier | None:
    """D: small incremental edits and backups (L), 10-30 line edits (M) or whole rewrites (R); None without edits, overwrites or backups."""
    edits = _feature(f, "total_edits")
    overwrites = _feature(f, "overwrites")
    backups = _feature(f, "backups")
    if edits + overwrites + backups < 1:
        return None
    avg = _feature(f, "avg_lines_changed")
    if edits > 0:
        # small edits (< 10 lines, the fingerprint's own cut) -> L; 10-30 -> M; bulk -> R
        p_avg = _interp(avg, ((6, 0.0), (10, 1.0), (30, 1.0), (40, 2.0)))
        small = _feature(f, "small_edit_ratio")
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
    if _feature(f, "edits_per_file") >= 5:  # several passes over the same file
        p -= 0.25
    ev = (f"{int(edits)} edit(s) of {avg:.0f} lines on average, {int(overwrites)} overwrite(s), "
          f"{int(backups)} backup(s)")
    return _ordinal_vote(p, ev)


def curation_vote(f: Mapping[str, float]) -> SessionTier | None:
    """E: deletes temporary files as a habit (L), deletes now and then (M) or never (R); None when nothing was deleted or created."""
    deletes = _feature(f, "total_deletes")
    creates = _feature(f, "files_created")
    if deletes < 1 and creates < 1:
        return None
    if deletes == 0:
        p = 2.0
        conf = round(min(0.5 + 0.1 * creates, 0.9), 4)
    else:
        temp = _feature(f, "temp_deletes")
        # Selective: removes temporary/intermediate files as a habit (several deletes, or
        # temp files among them); pragmatic: an occasional delete.
        if temp >= 2 or deletes >= 3:
            p = 0.0
        elif deletes >= 2:
            p = 0.6
        else:
            p = 1.0
        conf = _confidence(p)
    ev = f"{int(deletes)} delete(s) ({int(_feature(f, 'temp_deletes'))} temporary) for {int(creates)} file(s) created"
    return SessionTier(tier_of_position(p), conf, p, ev)


def cross_modal_vote(f: Mapping[str, float]) -> SessionTier | None:
    """F: charts, images and data files (L), markdown tables (M) or text only (R); None when nothing was created."""
    creates = _feature(f, "files_created")
    if creates < 1:
        return None
    images, structured = _feature(f, "image_files_created"), _feature(f, "structured_files_created")
    figdirs = _feature(f, "figure_dirs_created")
    rows = _feature(f, "markdown_table_rows")
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
    return _ordinal_vote(p, ev)


_CLASSIFIERS = {
    "A": consumption_vote,
    "B": production_vote,
    "C": organization_vote,
    "D": iteration_vote,
    "E": curation_vote,
    "F": cross_modal_vote,
}


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
            if want not in TIER_POSITION or est.get("tier") not in TIER_POSITION:
                continue
            w = float(est.get("confidence", 0.5))
            if dim == "A":
                s += w * (1.0 if est["tier"] == want else -0.5)
            else:
                dist = abs(float(est.get("position", TIER_POSITION[est["tier"]])) - TIER_POSITION[want])
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
        best = sorted(TIERS, key=lambda t: (-v.get(t, 0.0), abs(TIER_POSITION[t] - 1.0), TIERS.index(t)))[0]
        share = v.get(best, 0.0) / total
        conf = share * n / (n + 1)
        out[dim] = {
            "tier": best,
            "confidence": round(conf, 4),
            "sessions": n,
            "votes": {t: round(v.get(t, 0.0), 4) for t in TIERS},
        }
    return out
