from __future__ import annotations

import functools

import pytest
from filegram.simulator.fingerprint import fingerprint


@functools.lru_cache(maxsize=4)
def all_fingerprints(seed: int) -> tuple[tuple[str, str, dict, dict], ...]:
    """(profile, task, effective tiers, features) for all 640 pairs of one seed, traced in memory."""
    from filegram.simulator import PROFILES, TASKS, plan_trajectory
    from filegram.simulator.fast import trace_plan

    out = []
    for pid in PROFILES:
        for tid in TASKS:
            plan = plan_trajectory(pid, tid, seed)
            tr = trace_plan(plan)
            blobs = {h: d for h, (_k, _p, d) in tr.media.items.items()}
            out.append((pid, tid, plan.tiers, fingerprint(tr.events, blobs)))
    return tuple(out)


@pytest.fixture(scope="session")
def fingerprints():
    return all_fingerprints
