"""`filegram bench run|real|perf` and `filegram mark`. Only argparse at import time."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from filegram.cli import Context

METHOD_NAMES = ("no_context", "full_context", "naive_rag", "eager_summ", "mem0_flat", "filegramos")


def _csv(value: str) -> list[str]:
    return [v.strip() for v in value.replace(",", " ").split() if v.strip()]


class _Names(argparse.Action):
    """Names given as `--methods a b`, `--methods a,b` or both: one flat list."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        flat = [n for v in values for n in _csv(v)]
        setattr(namespace, self.dest, flat or None)


def register(sub: Any) -> None:
    p = sub.add_parser("bench", help="FileGramBench: question bank, methods, scores and reports")
    bsub = p.add_subparsers(dest="bench_command", metavar="SUBCOMMAND")
    p.set_defaults(func=lambda args, ctx: (p.print_help(), 0)[1])

    r = bsub.add_parser("run", help="simulate, generate the question bank, run all methods, write reports")
    r.add_argument("--quick", action="store_true", help="8 profiles, about 40 questions per sub-task (under 2 minutes)")
    r.add_argument("--methods", nargs="+", action=_Names, default=None, metavar="M",
                   help=f"methods to run (default all): {', '.join(METHOD_NAMES)}")
    r.add_argument("--profiles", nargs="+", action=_Names, default=None, metavar="P", help="profile ids (default all 20)")
    r.add_argument("--subtasks", nargs="+", action=_Names, default=None, metavar="S",
                   help="sub-tasks (default all): AttrRec,BehavFP,ProfRec,BehavInf,TraceDis,AnomDet,ShiftAna,FileGrd,VisGrd")
    r.add_argument("--out", type=Path, default=Path("bench-out"), metavar="DIR", help="output folder (default ./bench-out)")
    r.add_argument("--size", type=int, default=None, metavar="N",
                   help="questions per sub-task (default: the published counts; --quick: 40)")
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--workers", type=int, default=2, help="processes (default 2; with --engine ray: the local runtime's CPUs)")
    r.add_argument("--engine", choices=("local", "ray"), default="local",
                   help="simulate and score on this machine's processes (default) or as Ray tasks (pip install 'filegram[scale]')")
    r.add_argument("--address", default=None, metavar="ADDR",
                   help="with --engine ray: join this Ray cluster (ray://HEAD:10001, or 'auto') instead of starting one")
    r.add_argument("--data", type=Path, default=None, metavar="PATH",
                   help="official release folder (signal/<profile>_<task>/ and data/*.parquet) instead of simulating")
    r.add_argument("--users", type=Path, default=None, metavar="DIR",
                   help="a users folder (truth.json + one folder of trajectories per user) instead of simulating: "
                        "AttrRec, ProfRec, AnomDet and ShiftAna from its truth")
    r.add_argument("--with-task-ids", action="store_true",
                   help="give FileGramOS the task ids of the sessions (default: none, as in real recordings)")
    r.add_argument("--questions", type=Path, default=None, metavar="FILE", help="reuse a questions.jsonl")
    r.add_argument("--no-ablations", action="store_true", help="skip the FileGramOS channel ablations")
    r.add_argument("--offline", action="store_true", help="use the offline answerer even if [llm] model is set")
    r.add_argument("--memory-answerer", action="store_true",
                   help="also report FileGramOS answering with its own answerer (memory.ask), for comparison")
    r.add_argument("--context-budget", type=int, default=16000, metavar="TOKENS",
                   help="token budget of the full-context baseline (default 16000)")
    r.add_argument("--no-progress", action="store_true")
    r.set_defaults(func=_run)

    rr = bsub.add_parser("real", help="the same question bank over your own recorded sessions")
    rr.add_argument("--truth", type=Path, required=True, metavar="MY_TIERS.toml",
                    help="the tiers you state for yourself (see docs/bench.md)")
    rr.add_argument("--methods", nargs="+", action=_Names, default=None, metavar="M")
    rr.add_argument("--out", type=Path, default=Path("bench-real"), metavar="DIR")
    rr.add_argument("--seed", type=int, default=0)
    rr.add_argument("--offline", action="store_true")
    rr.add_argument("--no-progress", action="store_true")
    rr.set_defaults(func=_real)

    rb = bsub.add_parser("robust", help="tier accuracy, calibration and drift of memory on users it was not built around",
                         description="Memory's profile per user (fresh home, import, consolidate, profile) under six "
                                     "conditions: the simulator with and without task ids, scaled by 0.3 and 3, "
                                     "partial expression, users folders, and users of other behaviour models "
                                     "(see docs/memory.md).")
    rb.add_argument("--quick", action="store_true", help="8 simulated profiles instead of 20")
    rb.add_argument("--out", type=Path, default=Path("bench-robust"), metavar="DIR",
                    help="output folder for results.json and report.md (default ./bench-robust)")
    rb.add_argument("--users", nargs="+", type=Path, default=[], metavar="DIR",
                    help="users folders (truth.json + one folder of trajectories per user) to add")
    rb.add_argument("--no-users-dev", action="store_true",
                    help="leave out the shared users-dev folder even when it is present")
    rb.add_argument("--profiles", nargs="+", action=_Names, default=None, metavar="P",
                    help="simulated profiles (default all 20; --quick: 8)")
    rb.add_argument("--no-simulator", action="store_true", help="only the users folders and other models (e, f)")
    rb.add_argument("--models", nargs="+", action=_Names, default=None, metavar="NAME",
                    help="other behaviour models to generate users from (condition f; default all: "
                         "engine-like, recorder-like, mixed-tools, knowledge-workers)")
    rb.add_argument("--no-models", action="store_true", help="leave out the other behaviour models (condition f)")
    rb.add_argument("--seed", type=int, default=0, help="simulator seed (default 0)")
    rb.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    rb.add_argument("--no-progress", action="store_true")
    rb.set_defaults(func=_robust)

    pf = bsub.add_parser("perf", help="one table: store ingest, recorder, memory, query latency, daemon")
    pf.add_argument("--json", action="store_true", help="print the rows as JSON")
    pf.add_argument("--only", nargs="+", action=_Names, default=None, metavar="NAME",
                    help="suites: store,recorder,screen,memory,simulator,daemon")
    pf.set_defaults(func=_perf)

    fl = bsub.add_parser("faults", help="fault injection: SIGKILLs during ingest, event storms, a full disk")
    fl.add_argument("--kills", type=int, default=20, help="SIGKILLs of the recorder during heavy ingest (default 20)")
    fl.add_argument("--storm-files", type=int, default=100_000, help="files created in the event storm (default 100,000)")
    fl.add_argument("--json", action="store_true", help="print the rows as JSON")
    fl.set_defaults(func=_faults)

    m = sub.add_parser("mark", help="mark a recorded session as unusual (ground truth for `bench real`)")
    m.add_argument("session", metavar="SESSION", help="session id (or a unique prefix)")
    g = m.add_mutually_exclusive_group()
    g.add_argument("--unusual", action="store_true", help="mark it unusual (the default)")
    g.add_argument("--clear", action="store_true", help="remove the mark")
    m.add_argument("--note", default="", help="why it was unusual (optional)")
    m.add_argument("--dim", default=None, metavar="X:FROM:TO",
                   help="what changed, e.g. C:L:R (optional; enables Shift Analysis on it)")
    m.set_defaults(func=_mark)


def _check_names(kind: str, given: list[str] | None, known: tuple[str, ...]) -> None:
    """Fail before any work starts (a typo must not cost a simulation)."""
    bad = [g for g in given or [] if g not in known]
    if bad:
        from filegram.errors import FileGramError

        raise FileGramError(f"unknown {kind}(s): {', '.join(bad)} (known: {', '.join(known)})")


def _run(args: argparse.Namespace, ctx: Context) -> int:
    from .pipeline import BenchConfig, run_bench
    from .truth import SUBTASK_KEYS

    _check_names("method", args.methods, METHOD_NAMES)
    _check_names("sub-task", args.subtasks, SUBTASK_KEYS)
    if args.profiles:
        from filegram.simulator import PROFILES

        _check_names("profile", args.profiles, tuple(PROFILES))
    if args.users is not None and (args.data is not None or args.profiles):
        from filegram.errors import FileGramError

        raise FileGramError("--users replaces the simulation: it cannot be combined with --data or --profiles")
    if args.users is not None:
        from .users import load_users

        load_users(args.users)  # a bad folder costs one line, before any work

    cfg = BenchConfig(
        out=args.out, quick=args.quick, methods=args.methods, profiles=args.profiles,
        subtasks=args.subtasks, seed=args.seed, workers=max(args.workers, 1), data=args.data,
        questions=args.questions, ablations=not args.no_ablations, offline=args.offline,
        budget_tokens=args.context_budget, progress=not args.no_progress,
        memory_answerer=args.memory_answerer, engine=args.engine, address=args.address,
        users=args.users, task_ids=args.with_task_ids,
    )
    if args.size is not None:
        if args.size < 1:
            from filegram.errors import FileGramError

            raise FileGramError("--size must be at least 1")
        from .truth import SUBTASK_KEYS

        cfg.sizes = {s: args.size for s in SUBTASK_KEYS}
    res = run_bench(cfg, ctx.config)
    _print_result(res, f"{res['questions']} questions in {res['seconds']:.0f} s")
    return 0


def _real(args: argparse.Namespace, ctx: Context) -> int:
    from .real import run_real

    _check_names("method", args.methods, METHOD_NAMES)

    res = run_real(ctx.store(), args.truth, out=args.out, methods=args.methods, seed=args.seed,
                   config=ctx.config, offline=args.offline, progress=not args.no_progress)
    _print_result(res, f"{res['questions']} questions")
    return 0


def _print_result(res: dict[str, Any], counted: str) -> None:
    """The score table, the answerer, what was asked and where the reports are."""
    print(res["terminal"])
    print(f"answerer: {res['answerer']}; {counted}")
    for name, path in res["paths"].items():
        print(f"{name}: {path}")


def _robust(args: argparse.Namespace, ctx: Context) -> int:
    from .pipeline import progress_bar
    from .robust import RobustConfig, run_robust
    from .robust_report import print_tables, stamp, write_results

    if args.workers < 1:
        from filegram.errors import FileGramError

        raise FileGramError("--workers must be at least 1")
    cfg = RobustConfig(out=args.out, quick=args.quick, seed=args.seed, workers=args.workers, users=args.users,
                       default_users=not args.no_users_dev, simulate=not args.no_simulator,
                       profiles=args.profiles, progress=not args.no_progress,
                       models=[] if args.no_models else args.models)
    with progress_bar(cfg.progress, "users") as tick:
        res = stamp(run_robust(cfg, progress=tick))
    print_tables(res)
    for name, path in write_results(res, cfg.out).items():
        print(f"{name}: {path}")
    return 0


def _perf(args: argparse.Namespace, ctx: Context) -> int:
    from .perf_suite import print_table, run_suite

    rows = run_suite(only=args.only)
    print_table(rows, as_json=args.json)
    return 0


def _faults(args: argparse.Namespace, ctx: Any) -> int:
    from filegram.errors import FileGramError

    from .faults import run_faults
    from .perf_suite import print_table

    if args.kills < 1 or args.storm_files < 1:
        raise FileGramError("--kills and --storm-files must be positive")
    print_table(run_faults(args.kills, args.storm_files), as_json=args.json)
    return 0


def _mark(args: argparse.Namespace, ctx: Context) -> int:
    from .marks import clear_mark, set_mark

    store = ctx.store()
    if args.clear:
        sid = clear_mark(store, args.session)
        print(f"cleared the mark on session {sid}")
        return 0
    sid = set_mark(store, args.session, note=args.note, change=args.dim)
    print(f"marked session {sid} as unusual")
    return 0
