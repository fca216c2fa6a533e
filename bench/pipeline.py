"""`filegram bench run` end to end: simulate (or read official data), generate the question
bank, run every method through the shared answerer, score, and write the reports."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from filegram.config import Config
from filegram.errors import FileGramError

from .ceiling import ceiling_section, reader_ceiling
from .generators import BankSpec, generate_bank
from .questions import Question, read_jsonl, write_jsonl
from .report import ReportInfo, terminal_table, tier_agreement_section, write_reports
from .runner import RunOptions, run_methods
from .scoring import aggregate
from .trajectories import Trajectory, load_folders
from .truth import SUBTASK_KEYS, Truth, load_truth

QUICK_PROFILES = ("p1", "p2", "p3", "p5", "p8", "p12", "p15", "p17")
QUICK_SIZE = 40


@dataclass
class BenchConfig:
    out: Path = Path("bench-out")
    quick: bool = False
    methods: Sequence[str] | None = None
    profiles: Sequence[str] | None = None
    subtasks: Sequence[str] | None = None
    seed: int = 0
    workers: int = 1
    data: Path | None = None
    questions: Path | None = None
    ablations: bool = True
    offline: bool = False
    budget_tokens: int = 16000
    memory_answerer: bool = False
    sizes: dict[str, int] = field(default_factory=dict)
    progress: bool = True
    engine: str = "local"  # "ray": simulation and scoring as Ray tasks
    address: str | None = None  # an existing Ray cluster (default: a local runtime)
    users: Path | None = None  # a users folder (truth.json + trajectories) instead of a simulation
    task_ids: bool = False  # give FileGramOS the task ids (default: none, as in real recordings)


# What a users folder supports: its truth is per user and per perturbed session, and its
# sessions carry no task, so questions that need the task's dimensions or two people on one
# task cannot be built from it.
USERS_SUBTASKS = ("AttrRec", "ProfRec", "AnomDet", "ShiftAna")
USERS_SKIPPED = {
    "BehavFP": "needs each session's task (which dimensions it exercises); a users folder has none",
    "BehavInf": "needs each session's task (the held-out task's dimensions); a users folder has none",
    "TraceDis": "needs two people on the same task; a users folder has no task ids",
    "FileGrd": "needs each session's task (which dimensions its files show); a users folder has none",
    "VisGrd": "needs screen recordings",
}


@contextlib.contextmanager
def progress_bar(enabled: bool, label: str) -> Iterator[Any]:
    """A rich progress bar for one phase, as a tick(done, total) callback (None when off)."""
    if not enabled:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  transient=False) as prog:
        task = prog.add_task(label, total=None)

        def tick(done: int, total: int, *_: Any) -> None:
            prog.update(task, completed=done, total=total)

        yield tick


def simulate_trajectories(out: Path, profiles: Sequence[str] | None, seed: int, workers: int,
                          progress: bool, engine: str = "local", address: str | None = None) -> list[Path]:
    from filegram.simulator import simulate

    with progress_bar(progress, "simulate") as tick:
        return simulate(out, profiles=list(profiles) if profiles else None, seed=seed, workers=workers,
                        progress=tick or None, engine=engine, address=address)


def _sizes(cfg: BenchConfig) -> dict[str, int] | None:
    sizes = dict(cfg.sizes)
    if cfg.quick:
        for s in SUBTASK_KEYS:
            sizes.setdefault(s, QUICK_SIZE)
    return sizes or None


def load_users_data(root: Path) -> tuple[list[Trajectory], Truth, str]:
    """A users folder as trajectories (keyed by folder name; the user as profile, the session's
    short name standing in for a task) and the truth it states."""
    from .trajectories import load_folder
    from .truth import ProfileTruth
    from .users import load_users, session_label

    data = load_users(root)
    sim = load_truth()
    trajs = []
    for user, folders in data.sessions.items():
        shifts = data.perturbed.get(user, {})
        for folder in folders:
            t = load_folder(folder)
            pert = shifts.get(folder.name)
            t.profile_id, t.task_id = user, session_label(user, folder)
            t.perturbation = ({"shifted_dims": {d: {"original": a, "perturbed": b} for d, (a, b) in pert.items()}}
                              if pert else None)
            trajs.append(t)
    truth = Truth(profiles={u: ProfileTruth(u, tiers) for u, tiers in data.tiers.items()}, tasks={},
                  attributes=sim.attributes)
    return trajs, truth, f"users folder {data.root} ({len(data.tiers)} users, {data.count()} trajectories)"


def load_data(cfg: BenchConfig) -> tuple[list[Trajectory], str]:
    """Trajectories from --data (official release layout) or a fresh simulation."""
    if cfg.data is not None:
        from .official import load_official

        trajs = load_official(cfg.data, trajectories_only=True)[0]
        if cfg.profiles:
            trajs = [t for t in trajs if t.profile_id in set(cfg.profiles)]
        return trajs, f"official release at {cfg.data} ({len(trajs)} trajectories)"
    profiles = cfg.profiles or (QUICK_PROFILES if cfg.quick else None)
    sim_dir = cfg.out / "trajectories"
    paths = simulate_trajectories(sim_dir, profiles, cfg.seed, max(cfg.workers, 1), cfg.progress, cfg.engine, cfg.address)
    return load_folders(paths), f"simulated (fast mode, seed {cfg.seed}): {len(paths)} trajectories in {sim_dir}"


def run_bench(cfg: BenchConfig, config: Config | None = None) -> dict[str, Any]:
    from filegram.simulator.engines import check_engine, ray_runtime

    check_engine(cfg.engine, cfg.address)
    if cfg.engine == "ray":  # one Ray runtime for the simulation and the scoring
        with ray_runtime(cfg.address, max(cfg.workers, 1)):
            return _run_bench(cfg, config)
    return _run_bench(cfg, config)


def _run_bench(cfg: BenchConfig, config: Config | None = None) -> dict[str, Any]:
    from filegram.config import Config

    config = config or Config()
    t0 = time.perf_counter()
    skipped: dict[str, str] = {}
    if cfg.users is not None:
        trajs, truth, data_note = load_users_data(cfg.users)
        wanted = [s for s in (cfg.subtasks or USERS_SUBTASKS)]
        for sub in wanted:
            if sub not in USERS_SUBTASKS:
                skipped[sub] = USERS_SKIPPED.get(sub, "not supported on a users folder")
        if not cfg.subtasks:
            skipped.update({k: v for k, v in USERS_SKIPPED.items()})
        subtasks = [s for s in wanted if s in USERS_SUBTASKS]
    else:
        truth = load_truth()
        trajs, data_note = load_data(cfg)
        subtasks = list(cfg.subtasks) if cfg.subtasks else None
    if not trajs:
        raise FileGramError("no trajectories to evaluate (check --profiles / --data)")
    if cfg.questions is not None:
        questions: list[Question] = read_jsonl(cfg.questions)
        if cfg.subtasks:
            questions = [q for q in questions if q.sub_track in set(cfg.subtasks)]
    elif cfg.data is not None and (cfg.data / "data").is_dir():
        from .official import load_official

        questions, skipped = load_official(cfg.data, truth=truth, trajectories=trajs)[1:]
    else:
        questions, more = generate_bank(trajs, truth, BankSpec(cfg.seed, _sizes(cfg), subtasks))
        skipped.update(more)
    cfg.out.mkdir(parents=True, exist_ok=True)
    write_jsonl(questions, cfg.out / "questions.jsonl")
    opts = RunOptions(cfg.methods, cfg.ablations, cfg.budget_tokens, max(cfg.workers, 1), cfg.offline,
                      cfg.memory_answerer, engine=cfg.engine, address=cfg.address, task_ids=cfg.task_ids)
    with progress_bar(cfg.progress, "answer") as tick:
        out = run_methods(questions, trajs, truth, config=config, options=opts, progress=tick)
    with (cfg.out / "predictions.jsonl").open("w", encoding="utf-8") as f:
        for p in out.predictions:
            f.write(json.dumps(p.as_dict(), ensure_ascii=False) + "\n")
    table = aggregate(questions, out.predictions, out.method_names)
    info = ReportInfo(
        answerer=out.answerer, judge=out.judge, data=data_note, seed=cfg.seed,
        seconds=time.perf_counter() - t0, descriptions=out.method_descriptions, skipped=skipped,
        notes=[f"{'quick subset' if cfg.quick else 'full bank'}; method time (s): "
               + ", ".join(f"{k} {v:.0f}" for k, v in out.timings.items())],
        extra_sections=[s for s in [ceiling_section(reader_ceiling(questions, trajs, truth)),
                                    tier_agreement_section(out.tier_checks)] if s],
    )
    paths = write_reports(cfg.out, table, info)
    return {"table": table, "paths": paths, "terminal": terminal_table(table), "answerer": out.answerer,
            "questions": len(questions), "seconds": info.seconds}
