"""The fast executor: derive the trace of a plan without touching the disk (except the output)."""

from __future__ import annotations

from pathlib import Path

from .output import write_trajectory
from .plan import Plan
from .tracer import Tracer
from .workspace import build_workspace

FAST_ROOT = "/filegram-sim"


def trace_plan(plan: Plan) -> Tracer:
    """Execute a plan on an in-memory copy of its workspace; the tracer holds events and media."""
    ws = build_workspace(plan.task_id, plan.seed, plan.language)
    tracer = Tracer(plan, ws.files)
    tracer.run()
    return tracer


def run_fast(plan: Plan, out: str | Path) -> Path:
    """Write the trajectory folder of `plan` to `out` (the folder itself, created if needed)."""
    tracer = trace_plan(plan)
    return write_trajectory(Path(out), plan, tracer.events, tracer.media,
                            workspace_root=f"{FAST_ROOT}/{plan.name}/workspace", mode="fast",
                            extra={"session_id": tracer.session_id})
