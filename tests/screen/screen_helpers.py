"""Helpers for the screen tests (a unique module name: test folders share sys.path)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run_cli(*args: str, home: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    """The real `filegram` command in a subprocess, with this test's DISPLAY and home."""
    env = dict(os.environ, FILEGRAM_HOME=str(home), PYTHONUTF8="1")
    return subprocess.run(
        [sys.executable, "-m", "filegram", *args],
        capture_output=True, text=True, env=env, timeout=timeout,
    )
