"""The README's quick start as a newcomer meets it: a fresh clone and an empty HOME, and its
commands run as typed (tests/test_quickstart.py and tests/test_quickstart_install.py)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def quick_start_blocks() -> list[list[str]]:
    """The ```sh blocks of the README's Quick start section, as lists of commands."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, flags=re.S)
    return [[ln for ln in b.splitlines() if ln.strip()] for b in blocks]


def command_of(line: str) -> str:
    """A README line without its trailing `# comment`."""
    return re.sub(r"\s+#\s.*$", "", line).strip()


def newcomer_in(tmp_path: Path) -> dict:
    """A fresh clone of this checkout and an empty HOME (only ~/Documents, as an account has)."""
    for tool in ("git", "make"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed")
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout: nothing to clone")
    clone = tmp_path / "FileGram"
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True)
    home = tmp_path / "home"
    (home / "Documents").mkdir(parents=True)
    keep = ("PATH", "LANG", "LC_ALL", "TERM", "TMPDIR") + tuple(k for k in os.environ if k.startswith("PIP_"))
    env = {k: os.environ[k] for k in keep if k in os.environ}
    # the interpreter the user has, never this test run's venv
    path = [p for p in env.get("PATH", "/usr/bin:/bin").split(":") if ".venv" not in p and "/venv" not in p]
    env.update(HOME=str(home), PATH=":".join([str(home / ".local" / "bin"), *path]), COLUMNS="80", PYTHONUTF8="1")
    return {"clone": clone, "home": home, "env": env}


def sh(cmd: str, nc: dict, timeout: float = 900, check: bool = True) -> subprocess.CompletedProcess:
    p = subprocess.run(["bash", "-c", cmd], cwd=nc["clone"], env=nc["env"], capture_output=True, text=True,
                       timeout=timeout)
    if check and p.returncode != 0:
        if re.search(r"(Could not find a version|No matching distribution|Failed to establish a new connection)", p.stderr):
            pytest.skip(f"no package index reachable for `{cmd}`")
        raise AssertionError(f"`{cmd}` failed ({p.returncode}):\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    return p
