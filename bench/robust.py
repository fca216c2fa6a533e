"""`filegram bench robust`: do memory's tiers and drift flags hold for users it was not built
around?

Each condition is a population of users. For every user: a fresh temporary home and store,
the user's trajectories imported through the core's importer (`filegram.trajectory`) with
task ids, profile ids, summaries and perturbation records stripped (task ids are kept only
in condition a), `Memory(store, config).consolidate()`, then `profile()`. Memory is used
only through its public API (`filegram.memory.Memory`) at its default, offline settings.

Conditions (docs/memory.md, Robustness benchmark):

- a: the simulator as is (20 profiles x 32 tasks), WITH task ids;
- b: the same trajectories without task ids;
- c: without task ids, every user's verbosity and activity scaled by 0.3, and by 3 (two rows);
- d: without task ids, each user acting out a dimension in only a share R of the sessions
  that allow it, R drawn per user uniformly in [0.3, 1] (seeded);
- e: users folders (truth.json + trajectories): the shared users-dev set when present, and
  any folder given with --users;
- f: users written by other behaviour models (`filegram.bench.othermodels`: engine-like,
  recorder-like, mixed tools, knowledge workers), generated afresh from their own seeds into a temporary
  folder; like users-dev, none of them was written from memory's or the simulator's code.

Users are evaluated in worker processes, one job per (simulated population, user) or
(users folder, user); a simulated user's trajectories are written to a temporary folder
and deleted after use.
"""

from __future__ import annotations

import random
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from filegram.errors import FileGramError

from .robust_metrics import UserOutcome, condition_metrics
from .users import find_default_users, load_users

QUICK_PROFILES = ("p1", "p2", "p3", "p5", "p8", "p12", "p15", "p17")
EXPRESSION_RANGE = (0.3, 1.0)


@dataclass(frozen=True)
class Condition:
    key: str
    title: str
    task_ids: bool = False
    scale: float = 1.0
    expression: tuple[float, float] | None = None  # per-user range
    users: str | None = None  # a users folder instead of the simulator


SIM_CONDITIONS = (
    Condition("a", "(a) simulator, with task ids", task_ids=True),
    Condition("b", "(b) simulator, no task ids"),
    Condition("c0.3", "(c) scale 0.3, no task ids", scale=0.3),
    Condition("c3", "(c) scale 3, no task ids", scale=3.0),
    Condition("d", "(d) expression 0.3-1 per user, no task ids", expression=EXPRESSION_RANGE),
)


@dataclass
class RobustConfig:
    out: Path = Path("bench-robust")
    quick: bool = False
    seed: int = 0
    workers: int = 2
    users: Sequence[Path] = ()
    default_users: bool = True
    simulate: bool = True
    profiles: Sequence[str] | None = None
    progress: bool = True
    models: Sequence[str] | None = None  # other behaviour models (condition f); None: all


@dataclass
class Job:
    """One user under one or more conditions that share the same trajectories."""

    conditions: tuple[Condition, ...]
    user: str
    seed: int = 0
    users_root: str | None = None
    truth: dict[str, str] = field(default_factory=dict)
    perturbed: dict[str, dict[str, tuple[str, str]]] = field(default_factory=dict)
    folders: tuple[str, ...] = ()

    @property
    def cost(self) -> int:
        return 0 if self.users_root else 1


def expression_for(user: str, seed: int, bounds: tuple[float, float] = EXPRESSION_RANGE) -> float:
    """The user's share of sessions that act out an allowed dimension (condition d)."""
    return round(random.Random(f"{seed}:expression:{user}").uniform(*bounds), 3)


# -- one user ------------------------------------------------------------------------------


def import_sessions(store: Any, sessions: Sequence[tuple[Path, str, str | None]]) -> list[str]:
    """Import (folder, label, task id or None) through the core's importer as a recording
    would arrive: the given label, no profile id on the session or its events, no summary
    or perturbation record in its metadata, and a task id only where one is given."""
    from filegram.trajectory import read_trajectory, shared_roots, store_trajectory

    read = [read_trajectory(folder) for folder, _, _ in sessions]
    shared_roots(read)
    ids: list[str] = []
    for traj, (_, label, task_id) in zip(read, sessions, strict=True):
        summary = {"task_id": task_id} if task_id else None
        ids.extend(store_trajectory(store, replace(traj, label=label, summary=summary, perturbation=None),
                                    as_recording=True).session_ids)
    return ids


def remember(sessions: Sequence[tuple[Path, str, str | None]], config: Any = None) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Import the sessions into a fresh temporary home and return memory's profile, with
    anomaly labels filled in from the store where memory left them out, and per session
    label the dimensions on which it showed another tier's signature than the user's (a
    drift candidate, flagged or not: what any detector that reads a session's signature
    could find)."""
    from filegram.memory import Memory

    from filegram.config import Config, Home

    config = config or Config()
    with tempfile.TemporaryDirectory(prefix="filegram-robust-") as tmp:
        store = Home.resolve(tmp).open_store()
        try:
            import_sessions(store, sessions)
            mem = Memory(store, config)
            mem.consolidate()
            profile = mem.profile()
            labels = {s["id"]: s.get("label") for s in store.sessions()}
            shown = {str(labels.get(sid)): sorted({c["dimension"] for c in mem.session_shift(sid) if c.get("shown") is not None})
                     for sid in labels}
        finally:
            store.close()
    for a in profile.get("anomalies") or []:
        if not a.get("label"):
            a["label"] = labels.get(a.get("session"))
    return profile, {k: v for k, v in shown.items() if v}


def outcome(condition: Condition, user: str, profile: dict[str, Any], truth: dict[str, str],
            perturbed: dict[str, dict[str, tuple[str, str]]], sessions: int, note: str = "",
            seconds: float = 0.0, shown: dict[str, list[str]] | None = None) -> UserOutcome:
    dims = profile.get("dimensions") or {}
    calls = {}
    for d in truth:
        info = dims.get(d) or {}
        tier = info.get("tier") if info.get("tier") in ("L", "M", "R") else "unknown"
        calls[d] = (tier, float(info.get("confidence") or 0.0))
    flags = [{"label": a.get("label"), "dimension": a.get("dimension"), "from": a.get("from"), "to": a.get("to"),
              "verdict": a.get("verdict")} for a in profile.get("anomalies") or []]
    return UserOutcome(condition.key, user, sessions, dict(truth), calls, perturbed, flags, note, round(seconds, 2),
                       dict(shown or {}))


def _simulated(job: Job) -> list[UserOutcome]:
    from filegram.simulator import PROFILES, simulate

    cond0 = job.conditions[0]
    expression = expression_for(job.user, job.seed, cond0.expression) if cond0.expression else 1.0
    tmp = Path(tempfile.mkdtemp(prefix="filegram-robust-sim-"))
    try:
        paths = simulate(tmp, profiles=[job.user], seed=job.seed, scale=cond0.scale, expression=expression)
        truth = dict(PROFILES[job.user].tiers)
        out = []
        for cond in job.conditions:
            t0 = time.perf_counter()
            sessions, perturbed = [], {}
            for i, path in enumerate(paths, 1):
                task = path.name.split("_", 1)[1]
                # with task ids the session is named by its task; never "<profile>_<task>", which
                # the importer would read a profile id from
                label = task if cond.task_ids else f"{job.user}_S{i:02d}"
                sessions.append((path, label, task if cond.task_ids else None))
                pert = _perturbation(path)
                if pert:
                    perturbed[label] = pert
            profile, shown = remember(sessions)
            note = f"expression {expression:.2f}" if cond.expression else ""
            out.append(outcome(cond, job.user, profile, truth, perturbed, len(sessions), note, time.perf_counter() - t0,
                               shown))
        return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _perturbation(path: Path) -> dict[str, tuple[str, str]]:
    import json

    f = path / "perturbation.json"
    if not f.is_file():
        return {}
    shifted = json.loads(f.read_text(encoding="utf-8")).get("shifted_dims") or {}
    return {d: (v["original"], v["perturbed"]) for d, v in shifted.items()}


def _from_folder(job: Job) -> list[UserOutcome]:
    t0 = time.perf_counter()
    sessions = [(Path(f), Path(f).name, None) for f in job.folders]
    profile, shown = remember(sessions)
    cond = job.conditions[0]
    return [outcome(cond, job.user, profile, job.truth, job.perturbed, len(sessions), "", time.perf_counter() - t0, shown)]


def run_job(job: Job) -> list[UserOutcome]:
    return _from_folder(job) if job.users_root else _simulated(job)


# -- the whole benchmark -------------------------------------------------------------------


def plan_jobs(cfg: RobustConfig, workdir: Path | None = None) -> tuple[list[Condition], list[Job]]:
    """The conditions and one job per user; `workdir` holds what the other behaviour models
    generate (condition f; none are generated without it)."""
    conditions: list[Condition] = []
    jobs: list[Job] = []
    if cfg.simulate:
        from filegram.simulator import PROFILES

        pids = list(cfg.profiles or (QUICK_PROFILES if cfg.quick else PROFILES))
        unknown = [p for p in pids if p not in PROFILES]
        if unknown:
            raise FileGramError(f"unknown profile(s): {', '.join(unknown)}")
        conditions.extend(SIM_CONDITIONS)
        ab = (SIM_CONDITIONS[0], SIM_CONDITIONS[1])
        for pid in pids:
            jobs.append(Job(ab, pid, cfg.seed))
            for cond in SIM_CONDITIONS[2:]:
                jobs.append(Job((cond,), pid, cfg.seed))
    roots = list(cfg.users)
    if cfg.default_users:
        found = find_default_users()
        if found is not None and all(Path(r).resolve() != found.resolve() for r in roots):
            roots.insert(0, found)
    # (users, condition letter, title, where they came from): folders are checked before any work starts
    populations = [(data, "e", "", str(data.root)) for data in map(load_users, roots)]
    if workdir is not None:
        from .othermodels import MODELS

        names = list(MODELS) if cfg.models is None else list(cfg.models)
        unknown = [n for n in names if n not in MODELS]
        if unknown:
            raise FileGramError(f"unknown behaviour model(s): {', '.join(unknown)} (known: {', '.join(MODELS)})")
        for name in names:
            model = MODELS[name]
            populations.append((load_users(model.generate(workdir / name)), "f", f"other model: {name}",
                                f"{model.__name__} (seed {model.DEFAULT_SEED})"))
    names = folder_names([data.root for data, letter, _t, _s in populations if letter == "e"])
    for data, letter, title, source in populations:
        name = names.pop(0) if letter == "e" else data.name
        cond = Condition(f"{letter}:{name}", f"({letter}) {title or name}, no task ids", users=source)
        conditions.append(cond)
        for user, folders in data.sessions.items():
            jobs.append(Job((cond,), user, cfg.seed, str(data.root), data.tiers[user], data.perturbed.get(user, {}),
                            tuple(str(f) for f in folders)))
    if not jobs:
        raise FileGramError("nothing to evaluate: no simulated users and no users folder")
    return conditions, jobs


def folder_names(roots: list[Path]) -> list[str]:
    """The users folders' names in the report, one per folder. Folders that share a name
    (`h72/users`, `h73/users`) are named with as many of the folders above them as tell them
    apart: under one name their users would be scored as a single population."""
    paths = [Path(r).resolve() for r in roots]
    distinct = list(dict.fromkeys(paths))
    name = {p: p.name for p in distinct}
    depth = 1
    while len(set(name.values())) < len(name) and depth < max(len(p.parts) for p in distinct) - 1:
        depth += 1
        seen = Counter(name.values())
        name = {p: "/".join(p.parts[-depth:]) if seen[n] > 1 else n for p, n in name.items()}
    given = Counter(paths)
    order: Counter[Path] = Counter()
    out = []
    for p in paths:  # the same folder given twice: told apart by its place on the command line
        order[p] += 1
        out.append(f"{name[p]}#{order[p]}" if given[p] > 1 else name[p])
    return out


def run_robust(cfg: RobustConfig, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Every condition's metrics (robust_metrics) plus per-user details; also written under
    cfg.out by robust_report.write_results."""
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="filegram-robust-models-") as workdir:
        conditions, jobs = plan_jobs(cfg, Path(workdir))
        outcomes = _run_jobs(cfg, jobs, progress)
    results = []
    for cond in conditions:
        mine = sorted((o for o in outcomes if o.condition == cond.key), key=lambda o: _user_key(o.user))
        if not mine:
            continue
        results.append({"key": cond.key, "title": cond.title, "task_ids": cond.task_ids, "scale": cond.scale,
                        "expression": list(cond.expression) if cond.expression else None, "users_folder": cond.users,
                        **condition_metrics(mine), "per_user": [o.as_dict() for o in mine]})
    return {"seed": cfg.seed, "quick": cfg.quick, "workers": max(1, int(cfg.workers)),
            "seconds": round(time.perf_counter() - t0, 1), "conditions": results}


def _run_jobs(cfg: RobustConfig, jobs: list[Job], progress: Callable[[int, int], None] | None) -> list[UserOutcome]:
    jobs.sort(key=lambda j: -j.cost)
    outcomes: list[UserOutcome] = []
    workers = max(1, int(cfg.workers))
    if workers == 1:
        for i, job in enumerate(jobs, 1):
            outcomes.extend(run_job(job))
            if progress:
                progress(i, len(jobs))
    else:
        with ProcessPoolExecutor(workers) as pool:
            futs = [pool.submit(run_job, job) for job in jobs]
            for i, fut in enumerate(as_completed(futs), 1):
                outcomes.extend(fut.result())
                if progress:
                    progress(i, len(jobs))
    return outcomes


def _user_key(user: str) -> tuple[int, str]:
    digits = "".join(c for c in user if c.isdigit())
    return (int(digits) if digits else 10**9, user)
