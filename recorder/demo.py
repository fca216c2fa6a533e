"""A short scripted workflow with real programs, for `make demo` and the docs: what a
person does in a notes folder over a minute, compressed into a few seconds."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path


def _run(*argv: str, cwd: Path) -> None:
    subprocess.run(list(argv), cwd=cwd, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _pause(step: float) -> None:
    time.sleep(step)


def atomic_save(path: Path, text: str) -> None:
    """Save like VS Code or gedit: write a temporary file, then rename it over the file."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def demo_workflow(root: Path, *, step: float = 0.6) -> None:
    """mkdir -p, write notes, cat, ls, grep, edit by atomic save, cp backup, mv, rm."""
    root = Path(root)
    _run("mkdir", "-p", "projects/q3/drafts", cwd=root)
    _pause(step)
    (root / "projects/q3/plan.md").write_text(
        "# Q3 plan\n\n- ship the recorder\n- write the docs\n- measure latency\n", encoding="utf-8"
    )
    _pause(step)
    (root / "projects/q3/drafts/scratch.txt").write_text("todo: ask about budget\n", encoding="utf-8")
    _pause(step)
    _run("cat", "projects/q3/plan.md", cwd=root)
    _pause(step)
    _run("ls", "projects/q3", cwd=root)
    _pause(step)
    _run("grep", "-rn", "budget", "projects", cwd=root)
    _pause(step)
    _run("cat", "projects/q3/drafts/scratch.txt", cwd=root)
    _pause(step)
    _run("cp", "projects/q3/plan.md", "projects/q3/plan.md.bak", cwd=root)
    _pause(step)
    atomic_save(
        root / "projects/q3/plan.md",
        "# Q3 plan\n\n- ship the recorder\n- write the docs\n- measure latency p95\n- demo it\n",
    )
    _pause(step)
    _run("mv", "projects/q3/drafts/scratch.txt", "projects/q3/notes.txt", cwd=root)
    _pause(step)
    _run("rm", "projects/q3/plan.md.bak", cwd=root)
    _pause(step)
    if shutil.which("find"):
        _run("find", "projects", "-name", "*.md", cwd=root)
        _pause(step)
