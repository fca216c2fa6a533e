"""The README's quick start, second half (issue 18): in a fresh clone and an empty HOME, the
install block as written (pipx, else the venv lines), then each command of the last block.
Apart from tests/test_quickstart.py (`make demo`) so that the two slow halves, each with an
install of its own, run on both test workers at once.

Slow (an install, several minutes): `pytest tests/test_quickstart_install.py`."""

from __future__ import annotations

import http.cookiejar
import json
import shutil
import signal
import subprocess
import urllib.request
from pathlib import Path

import pytest
from fg_helpers import wait_until
from quickstart_helpers import command_of, newcomer_in, quick_start_blocks, sh

BASE_INSTALL_LIMIT_MB = 150

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]


def test_the_readme_quick_start_install_and_commands_work_as_typed(tmp_path: Path) -> None:
    nc = newcomer_in(tmp_path)
    pipx_block, venv_block, use_block = quick_start_blocks()[1:4]

    # -- the install: pipx when there is one, else the README's venv lines, as written
    if shutil.which("pipx", path=nc["env"]["PATH"]):
        for line in pipx_block:
            sh(command_of(line), nc)
        env_dir = Path(sh("pipx environment --value PIPX_LOCAL_VENVS", nc).stdout.strip()) / "filegram"
    else:
        for line in venv_block:
            sh(command_of(line), nc)
        env_dir = nc["home"] / ".local" / "share" / "filegram-venv"
    install_mb = sum(f.stat().st_size for f in env_dir.rglob("*") if f.is_file() and not f.is_symlink()) / 1e6
    print(f"base install: {install_mb:.0f} MB in {env_dir}")
    assert install_mb < BASE_INSTALL_LIMIT_MB
    assert sh("command -v filegram", nc).stdout.strip() == str(nc["home"] / ".local" / "bin" / "filegram") or \
        shutil.which("pipx", path=nc["env"]["PATH"])
    assert sh("python3 -c 'import sys; print(sys.prefix)'", nc).stdout  # the user's own python still works
    check = sh(f"{env_dir}/bin/python -c 'import importlib.util as u; print(u.find_spec(\"litellm\"), u.find_spec(\"matplotlib\"))'", nc)
    assert check.stdout.strip() == "None None"  # the base install has no model SDKs

    # -- the commands of the last block, each as written
    commands = [command_of(c) for c in use_block]
    assert commands == ["filegram record --root ~/Documents", "filegram start --root ~/Documents", "filegram status",
                        "filegram profile", "filegram open", "filegram stop"]
    docs = nc["home"] / "Documents"

    # record: runs in the foreground until Ctrl-C
    rec = subprocess.Popen(["bash", "-c", f"exec {commands[0]}"], cwd=nc["clone"], env=nc["env"], text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert "Ctrl-C stops" in rec.stderr.readline()
        (docs / "plan.md").write_text("# Plan\n\n- write the report\n")
        wait_until(lambda: json.loads(sh("filegram status --json", nc).stdout)["actions"] >= 1, timeout=60,
                   what="the recorder to store the new file")
        rec.send_signal(signal.SIGINT)
        out, err = rec.communicate(timeout=60)
    finally:
        if rec.poll() is None:
            rec.kill()
            rec.wait()
    assert rec.returncode == 0, err
    assert out.startswith("stored ")

    started = sh(commands[1], nc)
    try:
        assert "kept in" in started.stdout and f"recording {docs}" in started.stdout
        status = sh(commands[2], nc).stdout
        assert f"  recording   {docs}" in status and "None" not in status and "[]" not in status, status
        # at 80 columns only a line naming a long path (this test's temporary HOME) may be wider
        assert all(len(ln) <= 80 for ln in status.splitlines() if str(nc["home"]) not in ln), status
        assert sh(commands[3], nc).stdout.startswith("Profile from ")
        opened = sh(commands[4], nc, check=False)  # no browser here: it says so, with a link
        assert opened.returncode in (0, 1), opened.stderr
        link = opened.stdout.strip().splitlines()[-1].strip()
        assert link.startswith("http://127.0.0.1:") and "code=" in link
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        with browser.open(link, timeout=20) as resp:  # as a browser: the sign-in cookie kept
            assert resp.status == 200 and "How you work" in resp.read().decode()
        # a model configured without the `llm` extra: one line naming it
        sh("filegram config set llm.model openai/gpt-4o-mini", nc)
        asked = sh('filegram ask "how do I name files?"', nc, check=False)
        assert asked.returncode == 2 and asked.stderr.strip() == (
            "filegram: error: llm.model is set to 'openai/gpt-4o-mini' but the model support is not installed: "
            "pip install 'filegram[llm]' (or run offline: filegram config set llm.model '')")
        sh("filegram config set llm.model ''", nc)
    finally:
        stopped = sh(commands[5], nc, check=False)
    assert stopped.returncode == 0 and stopped.stdout.startswith("FileGram daemon stopped")
    info = json.loads(sh("filegram status --json", nc).stdout)
    assert info["roots"] == [str(docs)] and info["actions"] >= 1
