"""Helpers for the recorder tests (a module of their own: conftest names clash)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from filegram.config import Config, parse_config
from filegram.store import Store


def run_cli(*args: str, home: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    env = dict(os.environ, FILEGRAM_HOME=str(home), PYTHONUTF8="1")
    return subprocess.run([sys.executable, "-m", "filegram", *args], capture_output=True, text=True, env=env, timeout=timeout)


def make_config(**recorder: Any) -> Config:
    lines = ["[recorder]"]
    for k, v in recorder.items():
        if isinstance(v, list):
            lines.append(f"{k} = [{', '.join(repr(x).replace(chr(39), chr(34)) for x in v)}]")
        else:
            lines.append(f"{k} = {v!r}")
    return parse_config("\n".join(lines) + "\n")



def sh(cmd: str, cwd: Path) -> None:
    subprocess.run(cmd, shell=True, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def kinds(store: Store) -> list[tuple[str, ...]]:
    from filegram.recorder.actionkeys import key_of

    return [key_of(e) for e in store.actions()]
