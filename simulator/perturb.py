"""Perturbations as published: 5 of the 8 candidate tasks per profile, seeded from the profile
id; in each, one of the task's active dimensions shifts by one tier (L->M, R->M, M->L or R).

Seeded from the profile id only (not the run seed), so the 100 perturbed trajectories are the
same ground truth in every run.
"""

from __future__ import annotations

import functools
import hashlib
import random

from .profiles import PROFILES
from .tasks import TASKS

CANDIDATE_TASKS: tuple[str, ...] = ("T-12", "T-16", "T-18", "T-22", "T-24", "T-26", "T-29", "T-31")
PERTURBED_PER_PROFILE = 5


def shift_tier(tier: str, rng: random.Random) -> str:
    if tier == "M":
        return rng.choice(["L", "R"])
    return "M"


@functools.lru_cache(maxsize=64)
def _perturbation(profile_id: str) -> dict[str, dict[str, dict[str, str]]]:
    profile = PROFILES[profile_id]
    seed = int(hashlib.sha256(f"perturb|{profile_id}".encode()).hexdigest()[:16], 16)
    rng = random.Random(seed)
    chosen = sorted(rng.sample(CANDIDATE_TASKS, PERTURBED_PER_PROFILE))
    out: dict[str, dict[str, dict[str, str]]] = {}
    for tid in chosen:
        dim = rng.choice(TASKS[tid].dims)
        original = profile.tiers[dim]
        out[tid] = {dim: {"original": original, "perturbed": shift_tier(original, rng)}}
    return out


def perturbation_for(profile_id: str) -> dict[str, dict[str, dict[str, str]]]:
    """task_id -> {dim: {"original": tier, "perturbed": tier}} for the profile's 5 perturbed tasks."""
    if profile_id not in PROFILES:
        from filegram.errors import FileGramError

        raise FileGramError(f"unknown profile '{profile_id}' (known: p1..p20)")
    return {k: {d: dict(v) for d, v in dims.items()} for k, dims in _perturbation(profile_id).items()}
