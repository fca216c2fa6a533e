"""The README's quick start as a newcomer types it (issue 18), first half: in a fresh clone and
an empty HOME, `make demo` as written, then the commands it tells the user to try, run as
printed. The install block and the commands after it: tests/test_quickstart_install.py.

Slow (an install and the demo, several minutes): `pytest tests/test_quickstart.py`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from quickstart_helpers import command_of, newcomer_in, quick_start_blocks, sh

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]


def test_the_readme_quick_start_make_demo_works_as_typed_in_a_fresh_clone(tmp_path: Path) -> None:
    nc = newcomer_in(tmp_path)
    blocks = quick_start_blocks()
    make_block = blocks[0]
    assert [command_of(c) for c in make_block] == ["make demo", "make test"]

    # -- make demo: no setuptools warning scrolls past, and its last hint runs as printed
    demo = sh("make demo", nc, timeout=1200)
    assert "absent from the `packages` configuration" not in demo.stdout + demo.stderr
    assert "is absent from the" not in demo.stdout + demo.stderr
    assert "Warning" not in demo.stdout + demo.stderr, demo.stderr[-3000:]  # nothing scrolls past first
    tail = demo.stdout[demo.stdout.index("Try it yourself"):]
    hints = [ln.strip() for ln in tail.splitlines()[1:] if "filegram" in ln]
    direct = hints[0]
    assert direct.startswith(".venv/bin/filegram --home ") and direct.endswith(" profile")
    out = sh(direct, nc).stdout
    assert out.startswith("Profile from ")
    activate = re.search(r"first `(source [^`]+)`, then: (filegram .+)$", hints[1]).groups()
    out = sh(f"{activate[0]} && {activate[1]}", nc).stdout
    assert out.startswith("Profile from ")
    assert '[{"session"' not in demo.stdout  # drift in words, no JSON blob
    # the recorder saw the scripted work and the live simulation under make (a `make` above
    # the recorder had once claimed every change as its build's: "recorded 0 actions")
    recorded = re.search(r"recorded (\d+) actions from a scripted workflow", demo.stdout)
    assert recorded and int(recorded.group(1)) >= 10, demo.stdout[:3000]
    live = [int(n) for n in re.findall(r"(\d+) actions recorded", demo.stdout)]
    assert live and min(live) > 0, demo.stdout[:3000]
