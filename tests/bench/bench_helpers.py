"""Constants shared by the bench tests."""

from __future__ import annotations

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


def run_cli(*args: str, home=None, timeout: float = 120):
    """Run the real `filegram` command in a subprocess (like tests/conftest.py's helper,
    which this folder's conftest.py shadows on import)."""
    import os
    import subprocess
    import sys

    env = dict(os.environ)
    if home is not None:
        env["FILEGRAM_HOME"] = str(home)
    env.setdefault("PYTHONUTF8", "1")
    return subprocess.run([sys.executable, "-m", "filegram", *args], capture_output=True, text=True,
                          env=env, timeout=timeout)
