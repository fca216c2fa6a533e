"""`filegram simulate`: write simulated FileGram trajectories (imports the engine only when run)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from filegram.cli import Context


def register(sub: Any) -> None:
    p = sub.add_parser("simulate", help="simulate personas doing file work; write FileGram trajectories",
                       description="Run FileGramEngine: each profile works through each task; one "
                                   "trajectory folder per pair is written to OUT/<profile>_<task>/.")
    p.add_argument("--profiles", default=None, metavar="p1,p5", help="profiles (default: all 20)")
    p.add_argument("--tasks", default=None, metavar="T-01,T-05|all", help="tasks (default: all 32)")
    p.add_argument("--seed", type=int, default=0, help="random seed (same seed, same trajectories)")
    p.add_argument("--live", action="store_true",
                   help="perform real file operations in a sandbox and record them with the recorder")
    p.add_argument("--agent", default=None, metavar="MODEL",
                   help="let an LLM (litellm model name) act the persona through file tools")
    p.add_argument("--api-base", default=None, help="agent mode: OpenAI-compatible base URL")
    p.add_argument("--max-turns", type=int, default=30, help="agent mode: tool-calling turns per task")
    p.add_argument("--scale", type=float, default=1.0, metavar="K",
                   help="multiply verbosity and activity (lengths written, edit sizes, how much is read) "
                        "by K; what kind of thing a person does is unchanged (default 1.0)")
    p.add_argument("--expression", type=float, default=1.0, metavar="R",
                   help="probability (0 < R <= 1) that a session acts out each dimension its task "
                        "activates; otherwise it behaves as on an inactive one (default 1.0)")
    p.add_argument("--workers", type=int, default=1, help="worker processes (with --engine ray: the local runtime's CPUs)")
    p.add_argument("--engine", choices=("local", "ray"), default="local",
                   help="where pairs run: this machine's processes (default) or Ray tasks (pip install 'filegram[scale]')")
    p.add_argument("--address", default=None, metavar="ADDR",
                   help="with --engine ray: join this Ray cluster (ray://HEAD:10001, or 'auto') instead of starting one")
    p.add_argument("--llm-rpm", type=float, default=None, metavar="N",
                   help="agent mode: model requests per minute per provider, across all workers (default 120; 0: no limit)")
    p.add_argument("--llm-retries", type=int, default=None, metavar="N",
                   help="agent mode: retries of a rate-limited or failed model call, with backoff (default 5)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--out", required=True, metavar="DIR", help="output folder")
    p.set_defaults(func=_simulate)


def _simulate(args: argparse.Namespace, ctx: Context) -> int:
    import sys
    import time

    from .runner import simulate

    options: dict[str, Any] = {"max_turns": args.max_turns}
    if args.agent:
        llm = ctx.config["llm"]
        options["api_base"] = args.api_base or llm.get("api_base") or None
        if llm.get("api_key_env"):
            import os

            options["api_key"] = os.environ.get(llm["api_key_env"]) or None
    from filegram.errors import FileGramError

    from .llmgate import Limits

    defaults = Limits()
    if (args.llm_rpm is not None and args.llm_rpm < 0) or (args.llm_retries is not None and args.llm_retries < 0):
        raise FileGramError("--llm-rpm and --llm-retries must not be negative")
    limits = Limits(defaults.per_minute if args.llm_rpm is None else args.llm_rpm, defaults.burst,
                    defaults.retries if args.llm_retries is None else args.llm_retries)
    t0 = time.perf_counter()
    paths = simulate(args.out, profiles=args.profiles, tasks=args.tasks, seed=args.seed, live=args.live,
                     workers=args.workers, agent=args.agent,
                     progress=not args.no_progress and sys.stderr.isatty(),
                     agent_options=options if args.agent else None,
                     engine=args.engine, address=args.address, limits=limits,
                     scale=args.scale, expression=args.expression)
    perturbed = sum(1 for p in paths if (p / "perturbation.json").exists())
    print(f"{len(paths)} trajectories ({perturbed} perturbed) in {args.out} "
          f"({time.perf_counter() - t0:.1f} s)")
    return 0
