"""Helpers shared by tests in several folders (a plain module: `conftest` names clash)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run_cli(*args: str, home: Path | None = None, check: bool = False, timeout: float = 120, **kw) -> subprocess.CompletedProcess:
    """Run the real `filegram` command in a subprocess."""
    env = dict(os.environ)
    if home is not None:
        env["FILEGRAM_HOME"] = str(home)
    env.setdefault("PYTHONUTF8", "1")
    proc = subprocess.run(
        [sys.executable, "-m", "filegram", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        **kw,
    )
    if check and proc.returncode != 0:
        raise AssertionError(f"filegram {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc
