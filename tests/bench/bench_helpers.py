"""Constants shared by the bench tests."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

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


USERS = {"u1": "p1", "u2": "p3", "u3": "p17"}


def make_users_folder(sim_dir: Path, root: Path, users: dict[str, str] = USERS, per_user: int = 32) -> Path:
    """A users folder in the users-dev layout, built from simulated people: sessions named
    <user>_S00.., summaries without task or profile ids, truth.json from the reference table
    and the perturbation records."""
    truth: dict[str, dict] = {}
    for user, pid in users.items():
        folders = sorted((p for p in sim_dir.iterdir() if p.name.startswith(f"{pid}_T-")),
                         key=lambda p: int(p.name.split("-")[1]))[:per_user]
        perturbed = {}
        for i, src in enumerate(folders):
            name = f"{user}_S{i:02d}"
            dest = root / user / name
            shutil.copytree(src, dest)
            (dest / "summary.json").write_text(json.dumps({"session_id": name}), encoding="utf-8")
            pert = dest / "perturbation.json"
            if pert.exists():
                shifted = json.loads(pert.read_text())["shifted_dims"]
                perturbed[name] = {d: [v["original"], v["perturbed"]] for d, v in shifted.items()}
        truth[user] = {"tiers": dict(zip("ABCDEF", TABLE9[pid], strict=True)), "perturbed": perturbed}
    (root / "truth.json").write_text(json.dumps(truth), encoding="utf-8")
    return root
