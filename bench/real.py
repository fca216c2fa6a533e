"""`filegram bench run real`: the question bank over the user's own recorded sessions.

The truth is what the user states: their tiers in a small TOML file, and the sessions they
marked unusual with `filegram mark`. The same generators build the questions (with the
dimensions the user vouched for), the same methods and answerer answer them, and the same
tables come out: the paper's sim-to-real gap, measured on real data. Sub-tasks that need a
second person (Trace Disentanglement, the impostor form of Anomaly Detection) cannot be
built from one user's data; Anomaly Detection asks instead which session was the unusual
one, from the marks.
"""

from __future__ import annotations

import random
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from filegram.errors import FileGramError

from .bank import make_question
from .generators import BankSpec, generate_bank
from .marks import marks
from .questions import Question, write_jsonl
from .report import ReportInfo, terminal_table, write_reports
from .runner import RunOptions, run_methods
from .scoring import aggregate
from .trajectories import Trajectory, load_store_sessions
from .truth import DIMS, TIERS, ProfileTruth, Truth, load_truth

if TYPE_CHECKING:
    from filegram.config import Config
    from filegram.store import Store

ME = "me"
TRUTH_EXAMPLE = """\
# How I work, in FileGram's six dimensions (L / M / R). Leave out what you cannot say.
[tiers]
A = "M"  # consumption: L reads files in order / M searches first / R browses and skims
B = "R"  # production:  L long, several files / M one 80-150 line file / R short notes
C = "M"  # organisation: L folders 3+ deep / M 1-2 levels / R everything at the root
D = "L"  # iteration: L small edits and backups / M 10-30 line edits / R rewrites
E = "R"  # curation: L deletes temp files / M sometimes / R never deletes
F = "R"  # cross-modal: L charts, images, CSV / M markdown tables / R text only
"""


def read_truth_file(path: Path) -> dict[str, str]:
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise FileGramError(f"{path}: no such file (example in docs/bench.md)") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise FileGramError(f"{path}: cannot read: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise FileGramError(f"{path}: not valid TOML: {exc}") from exc
    tiers = data.get("tiers")
    if not isinstance(tiers, dict) or not tiers:
        raise FileGramError(f"{path}: needs a [tiers] table such as A = \"M\"")
    out = {}
    for k, v in tiers.items():
        dim = str(k).strip().upper()
        if dim not in DIMS:
            raise FileGramError(f"{path}: unknown dimension {k!r} (use A-F)")
        if not isinstance(v, str) or v.strip().upper() not in TIERS:
            raise FileGramError(f"{path}: tier of {dim} must be \"L\", \"M\" or \"R\"")
        out[dim] = v.strip().upper()
    return out


def real_trajectories(store: Store) -> list[Trajectory]:
    """Closed recorded sessions as the user's trajectories: short names S01, S02, ... in time
    order stand in for task ids, and a mark with a change becomes a perturbation record."""
    sessions = [s for s in store.sessions(closed=True) if s.get("source") != "import" and s.get("action_count")]
    trajs = load_store_sessions(store, [s["id"] for s in sessions])
    mk = marks(store)
    out = []
    for i, t in enumerate(trajs, 1):
        m = mk.get(t.key)
        pert = None
        if m and m.get("dim"):
            pert = {"shifted_dims": {m["dim"]: {"original": m["from"], "perturbed": m["to"]}}}
        out.append(Trajectory(t.key, ME, f"S{i:02d}", t.events, t.blobs, pert, None, _frames(store, t.key)))
    return out


def _frames(store: Store, session_id: str) -> list[dict[str, Any]]:
    """Screen frames of a session (id, ts, window_title, app, ocr_text), if the screen
    recorder ran; never the images."""
    try:
        from filegram.recorder.screen.store import frames_for_session
    except ImportError:
        return []
    return [{k: f.get(k) for k in ("id", "ts", "window_title", "app", "ocr_text")}
            for f in frames_for_session(store, session_id)]


def gen_unusual(trajs: list[Trajectory], unusual: set[str], seed: int, size: int = 40) -> list[Question]:
    """Anomaly Detection on one person: four or five ordinary sessions and one they marked
    unusual; which is it?"""
    rng = random.Random(f"{seed}:real-anom")
    odd = [t for t in trajs if t.key in unusual]
    normal = [t for t in trajs if t.key not in unusual]
    out: list[Question] = []
    if len(normal) < 4:
        return out
    for n in range(size):
        if not odd:
            break
        imp = odd[n % len(odd)]
        lineup = [*rng.sample(normal, min(rng.choice((4, 5)), len(normal))), imp]
        rng.shuffle(lineup)
        labels = [f"Trajectory {i + 1}" for i in range(len(lineup))]
        out.append(make_question("AnomDet", n, "episodic", ME, [t.key for t in lineup],
                                 f"All but one of these {len(lineup)} sessions are ordinary for this person. "
                                 f"Which session was the unusual one?",
                                 labels, lineup.index(imp), context="lineup", labels=labels,
                                 option_claims=[{"unusual": t.key in unusual} for t in lineup]))
    return out


def run_real(store: Store, truth_path: Path, *, out: Path, methods: list[str] | None = None, seed: int = 0,
             config: Config | None = None, offline: bool = False, progress: bool = True) -> dict[str, Any]:
    tiers = read_truth_file(truth_path)
    trajs = real_trajectories(store)
    if len(trajs) < 2:
        raise FileGramError("bench real needs at least two closed recorded sessions (run `filegram record` first)")
    sim = load_truth()
    truth = Truth(profiles={**sim.profiles, ME: ProfileTruth(ME, tiers, "me", "")}, tasks={}, attributes=sim.attributes)
    sizes = {"AttrRec": 10**6, "ProfRec": 10**6, "BehavFP": min(len(trajs), 200), "BehavInf": 200,
             "ShiftAna": 100, "FileGrd": 200}
    sizes["VisGrd"] = 100
    questions, skipped = generate_bank(trajs, truth, BankSpec(seed, sizes, ["AttrRec", "BehavFP", "ProfRec", "BehavInf", "ShiftAna", "FileGrd", "VisGrd"]))
    unusual = set(marks(store))
    anom = gen_unusual(trajs, unusual, seed)
    questions += anom
    if not anom:
        skipped["AnomDet"] = "needs sessions marked unusual (`filegram mark SESSION --unusual`) and at least four ordinary ones"
    skipped["TraceDis"] = "needs two people's sessions of the same task; a recording has one person"
    if "VisGrd" in skipped:
        skipped["VisGrd"] = "no recorded session has screen frames (turn on [screen] enabled to record them)"
    if "ShiftAna" in skipped:
        skipped["ShiftAna"] = "needs an unusual session marked with what changed (`filegram mark SESSION --dim C:L:R`)"
    out.mkdir(parents=True, exist_ok=True)
    write_jsonl(questions, out / "questions.jsonl")
    from .pipeline import progress_bar

    with progress_bar(progress, "answer") as tick:
        res = run_methods(questions, trajs, truth, config=config,
                          options=RunOptions(methods, True, 16000, 1, offline), progress=tick)
    table = aggregate(questions, res.predictions, res.method_names)
    info = ReportInfo(answerer=res.answerer, judge=res.judge, title="FileGramBench on real sessions",
                      data=f"{len(trajs)} recorded sessions, {len(unusual)} marked unusual; truth from {truth_path}",
                      seed=seed, seconds=res.seconds, descriptions=res.method_descriptions, skipped=skipped,
                      notes=[f"stated tiers: {', '.join(f'{d}={t}' for d, t in sorted(tiers.items()))}"])
    paths = write_reports(out, table, info)
    return {"table": table, "paths": paths, "terminal": terminal_table(table), "answerer": res.answerer,
            "questions": len(questions)}


__all__ = ["TRUTH_EXAMPLE", "read_truth_file", "real_trajectories", "run_real"]
