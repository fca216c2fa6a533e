"""Episodic clusters: sessions grouped by how they went, in canonical order.

Clustering runs on fingerprints normalised by fixed, documented transforms (ratios as they
are, counts on a log scale against a cap) and weighted so each dimension counts equally,
because raw fingerprints are dominated by character counts (a defect of the reference).
Fixed transforms mean an update never renormalises old sessions.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from filegram.vocab import DIM_IDS, task_info

from .features import FINGERPRINT_NAMES

RATIO_FEATURES = {"search_ratio", "browse_ratio", "revisit_ratio", "small_edit_ratio"}
CAPS = {
    "avg_output_length": 20000, "files_created": 20, "total_output_chars": 100000,
    "dirs_created": 20, "max_dir_depth": 6, "files_moved": 30, "total_edits": 40,
    "avg_lines_changed": 100, "total_deletes": 20, "delete_to_create_ratio": 2,
    "structured_files_created": 10, "markdown_table_rows": 100, "image_files_created": 10,
}
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


_SQRT3 = math.sqrt(3.0)
# Per fingerprint feature, in order: None for a ratio (kept as it is, up to 1), else the
# log1p of its cap (computed once: the same number as computing it per session).
_SCALES: list[tuple[str, float | None]] = [
    (name, None if name in RATIO_FEATURES else math.log1p(CAPS[name])) for name in FINGERPRINT_NAMES
]


def _scaled(fp: Mapping[str, float]) -> list[float]:
    out = []
    get = fp.get
    for name, cap in _SCALES:
        x = max(float(get(name, 0.0)), 0.0)
        v = min(x, 1.0) if cap is None else min(math.log1p(x) / cap, 1.0)
        out.append(v / _SQRT3)
    return out


_CENTRE = _scaled(TYPICAL)


# Per fingerprint feature: its value -> its normalised component. Counts and ratios repeat
# from session to session, and a component costs a log and a decimal round to compute.
_COMPONENTS: list[dict[float, float]] = [{} for _ in _SCALES]
_MAX_COMPONENTS = 4096  # values kept per feature


def norm_vector(fp: Mapping[str, float]) -> list[float]:
    """Fixed normalisation (no dependence on other sessions, so updates stay O(session)):
    ratios as they are, counts as log1p(x)/log1p(cap), each dimension weighted equally,
    centred on a typical session."""
    out = []
    get = fp.get
    for (name, cap), c, known in zip(_SCALES, _CENTRE, _COMPONENTS, strict=True):
        x = float(get(name, 0.0))
        y = known.get(x)
        if y is None:
            x0 = max(x, 0.0)
            v = min(x0, 1.0) if cap is None else min(math.log1p(x0) / cap, 1.0)
            y = round(v / _SQRT3 - c, 6)
            if len(known) < _MAX_COMPONENTS:
                known[x] = y  # 0.0 and -0.0 share an entry: the centre is never 0, so both give -c
        out.append(y)
    return out


def vector_norm(a: Sequence[float]) -> float:
    """The Euclidean norm (the products summed in order, as cosine always has)."""
    return math.sqrt(sum(map(operator.mul, a, a)))


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    return _cosine(a, vector_norm(a), b, vector_norm(b))


def _cosine(a: Sequence[float], na: float, b: Sequence[float], nb: float) -> float:
    if na == 0 or nb == 0:
        return 1.0 if na == nb else 0.0
    if len(a) != len(b):
        raise ValueError("vectors of different lengths")
    return sum(map(operator.mul, a, b)) / (na * nb)


def assign_cluster(vec: Sequence[float], clusters: Sequence[tuple[int, int, list[float]]], threshold: float) -> int | None:
    """Leader clustering: the most similar centroid at or above the threshold (lowest id on
    ties), else None (a new cluster)."""
    return leader_of(vec, vector_norm(vec), [(cid, csum, vector_norm(csum)) for cid, _n, csum in clusters], threshold)


def leader_of(vec: Sequence[float], norm: float, centroids: Iterable[tuple[int, Sequence[float], float]],
              threshold: float) -> int | None:
    """`assign_cluster` for callers that keep the norms of the vector and of each centroid
    sum (id, sum, norm): folding compares a session with every cluster, and the norms
    only change when a cluster does."""
    best, best_id = -2.0, None
    for cid, csum, cnorm in centroids:
        c = _cosine(vec, norm, csum, cnorm)
        if c >= threshold and c > best + 1e-12:
            best, best_id = c, cid
    return best_id


def active_dims(task_id: str | None, tiers: Mapping[str, Any]) -> list[str]:
    """Dimensions a session exercised: its task's when known, else those it has evidence for."""
    task = task_info(task_id)
    return [d for d in DIM_IDS if (d in task.dims if task else d in tiers)]


