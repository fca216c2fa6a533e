"""FileGramEngine: persona-driven simulation of file work with known ground truth.

Offline and deterministic: `plan_trajectory` turns a profile and a task into a plan of file
operations; `run_fast` derives its trace in memory, `run_live` performs it on disk for the
real recorder, and the agent mode lets an LLM act the persona through tools.
"""

from __future__ import annotations

from .fast import run_fast
from .live import prepare_sandbox, run_live
from .perturb import CANDIDATE_TASKS, perturbation_for
from .plan import Plan, Step
from .policy import plan_trajectory
from .profiles import DIMENSIONS, PROFILES, Profile
from .runner import simulate
from .tasks import TASKS, Task

__all__ = [
    "CANDIDATE_TASKS",
    "DIMENSIONS",
    "PROFILES",
    "TASKS",
    "Plan",
    "Profile",
    "Step",
    "Task",
    "perturbation_for",
    "plan_trajectory",
    "prepare_sandbox",
    "run_fast",
    "run_live",
    "simulate",
]
