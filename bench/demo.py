"""`make demo`: the main job end to end on the embedded defaults (SQLite, no key, no network).

1. Import the hand-written FileGram fixtures and show the trace and status.
2. Record a short scripted workflow of real programs (mkdir, cat, ls, grep, an editor-style
   save, cp, mv, rm) with the real recorder.
3. Simulate one persona over several tasks in live mode, the real recorder watching each
   task as a session; build memory from what was recorded; print the recovered profile next
   to the persona's truth; answer two questions offline.

Everything lands in ./demo-out (a fresh FileGram home and workspaces each run).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from filegram.memory.cli import summary_sentence
from rich.console import Console
from rich.table import Table

from filegram.config import Config, Home

if TYPE_CHECKING:
    from filegram.store import Store

DEMO_PROFILE = "p17"
# Thirteen tasks that give each of the six dimensions several chances. T-18 (three rounds of
# one knowledge base, ~84 s live on its own) was the demo's longest task by far and bounded
# its live part; T-12 and T-19 revise documents too, in ~13 s each (6/6 tiers either way).
DEMO_TASKS = ("T-01", "T-03", "T-05", "T-09", "T-10", "T-12", "T-14", "T-16", "T-19", "T-21", "T-22", "T-27", "T-28")
# The live steps mostly wait (the gaps a watching recorder needs between actions: about 5 s of
# CPU in two minutes), so three tasks run at once, each a session in its own folder, the
# longest first (T-10, about 31 s planned).
LIVE_TASKS_AT_ONCE = 3
FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"

console = Console(highlight=False)


def _cli(home: Path, *args: str) -> None:
    from filegram.cli import main

    console.print(f"[dim]$ filegram {' '.join(args)}[/dim]")
    code = main(["--home", str(home), *args])
    if code:
        raise SystemExit(f"demo: `filegram {' '.join(args)}` failed with exit code {code}")


def step_import(home: Path, fixtures: Path = FIXTURES) -> None:
    console.rule("[bold]1. Import FileGram trajectories")
    _cli(home, "import", str(fixtures))
    _cli(home, "trace", "show", "--session", "p3_T-12")


def step_record(home: Path, out: Path) -> None:
    console.rule("[bold]2. Record real file work")
    from filegram.recorder import Recorder, demo_workflow

    root = out / "my-notes"
    root.mkdir(parents=True)
    store = _store(home)
    cfg = home_config(home)
    rec = Recorder(store, [root], cfg, home=_home(home))
    rec.start()
    try:
        demo_workflow(root)
        rec.flush(timeout=10)
    finally:
        stats = rec.stop()
        store.close()
    console.print(f"recorded {stats.get('stored', '?')} actions from a scripted workflow under {root}")
    _cli(home, "trace", "show")


def _home(home: Path) -> Home:
    return Home.resolve(home)


def home_config(home: Path) -> Config:
    return _home(home).load_config()


def _store(home: Path) -> Store:
    return _home(home).open_store()


def step_simulate_and_remember(home: Path, out: Path, profile_id: str, tasks: tuple[str, ...], seed: int,
                               task_ids: bool = False) -> None:
    """The recorder watches each task as a session, as it would watch a real person: the
    sessions carry no task id and no profile id (`task_ids=True` labels them with the task,
    for comparison)."""
    console.rule(f"[bold]3. Simulate {profile_id} live, record, remember")
    from filegram.memory import DIMENSIONS, Memory
    from filegram.recorder import Recorder
    from filegram.simulator import (
        PROFILES,
        TASKS,
        plan_trajectory,
        planned_seconds,
        prepare_sandbox,
        run_live,
    )

    profile = PROFILES[profile_id]
    cfg = home_config(home)

    plans = {tid: plan_trajectory(profile, TASKS[tid], seed) for tid in tasks}

    def record_task(tid: str) -> int:
        """One task in its own folder, watched by a recorder of its own, into the home's
        database through a connection of its own."""
        plan = plans[tid]
        root = out / "sim" / f"{profile_id}_{tid}"
        root.mkdir(parents=True)
        prepare_sandbox(plan, root)  # the task's input files exist before the user starts
        task_store = _store(home)
        try:
            rec = Recorder(task_store, [root], cfg, home=_home(home), task_id=tid if task_ids else None)
            rec.start()
            try:
                run_live(plan, root)
                rec.flush(timeout=10)
            finally:
                stats = rec.stop()
        finally:
            task_store.close()
        return int(stats.get("stored", 0))

    store = _store(home)
    started = time.perf_counter()
    try:
        longest_first = sorted(tasks, key=lambda tid: -planned_seconds(plans[tid]))
        with ThreadPoolExecutor(max_workers=LIVE_TASKS_AT_ONCE) as pool:
            running = {tid: pool.submit(record_task, tid) for tid in longest_first}
            for tid in tasks:
                console.print(f"  {tid} {TASKS[tid].title[:48]:<48} {running[tid].result():>4} actions recorded")
        console.print(f"live simulation of {len(tasks)} tasks recorded in {time.perf_counter() - started:.1f} s")
        mem = Memory(store, cfg)
        n = mem.consolidate()
        prof = mem.profile()
        console.print(f"memory built from {n} new sessions ({'with' if task_ids else 'no'} task ids, no LLM, no network)")
        table = Table(title=f"Recovered profile vs truth for {profile_id} ({profile.name}, {profile.role})", show_edge=False)
        for col in ("dim", "name", "truth", "recovered", "confidence", "evidence"):
            table.add_column(col, overflow="fold")
        agree = known = 0
        for dim, info in prof["dimensions"].items():
            truth = profile.tiers[dim]
            tier = info["tier"]
            if tier != "unknown":
                known += 1
                agree += tier == truth
            ev = info.get("evidence") or []
            plain = summary_sentence(dim, info.get("features") or {}) if info.get("sessions") else ""
            table.add_row(
                dim,
                DIMENSIONS[dim].name,
                truth,
                f"[green]{tier}[/green]" if tier == truth else f"[red]{tier}[/red]",
                f"{info.get('confidence', 0):.2f}",
                plain or (str(ev[0]) if ev else ""),
            )
        console.print(table)
        console.print(f"{agree}/{known} known dimensions agree with the persona's labels")
        if prof.get("anomalies"):
            console.print(f"drift: {len(prof['anomalies'])} session(s) unlike the usual" +
                          (" (the first 3)" if len(prof["anomalies"]) > 3 else ""))
            for a in prof["anomalies"][:3]:
                console.print(f"  {a['label'] or a['session'][:8]}: {a['dimension']} looked {a['to']} instead of "
                              f"{a['from']} ({a['verdict']})")
        dim_c = DIMENSIONS["C"]
        choices = [dim_c.tiers[t] for t in ("L", "M", "R")]
        for question, opts in (
            (f"How does this user organise files ({dim_c.name})?", choices),
            ("How does this user usually start working on a task: reading files in order, searching first, or browsing folders?", None),
        ):
            ans = mem.ask(question, opts)
            console.print(f"[bold]Q:[/bold] {question}")
            if opts:
                for i, o in enumerate(opts):
                    console.print(f"   {'>' if ans.choice == i else ' '} {chr(65 + i)}. {o}")
            console.print(f"[bold]A:[/bold] {ans.text}  [dim](answered offline: {'LLM' if ans.used_llm else 'deterministic'})[/dim]")
    finally:
        store.close()


def bin_dir() -> str:
    """Where this Python's scripts are (`.venv/bin` for `make demo`), relative to the current
    folder when inside it: the hint names a command that runs as typed."""
    d = Path(sys.executable).parent
    try:
        return str(d.relative_to(Path.cwd()))
    except ValueError:
        return str(d)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="demo-out", help="folder for the demo's home and workspaces (recreated)")
    parser.add_argument("--fixtures", default=str(FIXTURES),
                        help="the bundled trajectories to import (default: the checkout's tests/fixtures)")
    parser.add_argument("--profile", default=DEMO_PROFILE)
    parser.add_argument("--tasks", default=",".join(DEMO_TASKS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--with-task-ids", action="store_true",
                        help="label the recorded sessions with their task (memory never gets them by default)")
    args = parser.parse_args(argv)
    out = Path(args.out).resolve()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    home = out / "home"
    step_import(home, Path(args.fixtures))
    step_record(home, out)
    # The persona gets a home of its own: its memory must not mix with the fixtures' users.
    persona_home = out / "persona-home"
    step_simulate_and_remember(persona_home, out, args.profile, tuple(t.strip() for t in args.tasks.split(",") if t.strip()),
                               args.seed, args.with_task_ids)
    console.rule("[bold]status")
    _cli(persona_home, "status")
    console.print(f"\nEverything is in {out}. Try it yourself (the filegram command is in {bin_dir()}):")
    console.print(f"  {bin_dir()}/filegram --home {persona_home} profile", soft_wrap=True)
    console.print(f"or first `source {bin_dir()}/activate`, then: filegram --home {persona_home} profile",
                  soft_wrap=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
