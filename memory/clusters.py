"""Episodic clusters: sessions grouped by how they went, in canonical order.

Clustering runs on fingerprints normalised by fixed, documented transforms (ratios as they
are, counts on a log scale against a cap) and weighted so each dimension counts equally,
because raw fingerprints are dominated by character counts (a defect of the reference).
Fixed transforms mean an update never renormalises old sessions.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
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


def active_dims(task_id: str | None, tiers: Mapping[str, Any]) -> list[str]:
    """Dimensions a session exercised: its task's when known, else those it has evidence for."""
    task = task_info(task_id)
    return [d for d in DIM_IDS if (d in task.dims if task else d in tiers)]


