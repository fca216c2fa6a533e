"""Constants shared by the bench tests."""

from __future__ import annotations

from fg_helpers import run_cli  # noqa: F401 - re-exported for the bench tests

# Eight profiles that cover every tier of every dimension, and all 32 tasks (so the
# perturbed trajectories exist for Shift Analysis).
PROFILES = ("p1", "p2", "p3", "p5", "p8", "p12", "p15", "p17")

# filegram.md section 2, table of the 20 profiles (A..F), kept here so the tests check the
# simulator's ground truth against the reference instead of trusting it.
TABLE9 = {
    "p1": "LLLLLM", "p2": "LLRRLM", "p3": "MRRRMR", "p4": "MLMLRL", "p5": "RMMMRM",
    "p6": "RMLRMR", "p7": "LMMMML", "p8": "RRMLRR", "p9": "MMLMLL", "p10": "LRRRRM",
    "p11": "MLLLLR", "p12": "RLRLMM", "p13": "LMLMLL", "p14": "MRLLMR", "p15": "RLMMRM",
    "p16": "MMRMLR", "p17": "LLLLML", "p18": "RRRRLM", "p19": "MMRMMR", "p20": "LRMRRL",
}
