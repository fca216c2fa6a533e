"""Helpers for the scale tests: the real `filegram` command and folders compared byte for byte."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def fg(*args: str, home: Path, check: bool = True, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, FILEGRAM_HOME=str(home), PYTHONUTF8="1")
    proc = subprocess.run([sys.executable, "-m", "filegram", *args], capture_output=True, text=True, env=env,
                          timeout=timeout)
    if check and proc.returncode != 0:
        raise AssertionError(f"filegram {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr[-3000:]}")
    return proc


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def max_in_window(times: list[float], window: float) -> int:
    """The most requests that arrived within any `window` seconds."""
    times = sorted(times)
    best, j = 0, 0
    for i, t in enumerate(times):
        while times[j] < t - window:
            j += 1
        best = max(best, i - j + 1)
    return best


def conversation_of(pair: str) -> str:
    """The fake model's id of a pair's conversation (its system prompt and task)."""
    from filegram.simulator import PROFILES, TASKS
    from filegram.simulator.agent import system_prompt
    from filegram.simulator.fake_model import FakeModel

    pid, tid = pair.split("_", 1)
    return FakeModel.conversation_id([{"content": system_prompt(pid, tid)},
                                      {"content": TASKS[tid].instructions(PROFILES[pid].language)}])
