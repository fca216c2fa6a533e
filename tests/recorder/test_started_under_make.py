"""A recorder started by a program that runs as long as it does (`make demo`, a script, a
shell) still sees the person's work: the programs above it did none of the changes. With
`make` above it, every change had been claimed as a build's, and `make demo`, the README's
first command, recorded nothing in its "Record real file work" step."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = """
import sys, time
from pathlib import Path
from filegram.recorder import Recorder
from filegram.config import Config
from filegram.store import Store

root, db = Path(sys.argv[1]), sys.argv[2]
store = Store(db)
with Recorder(store, [root], Config()) as rec:
    time.sleep(0.3)
    (root / "plan.md").write_text("# plan\\nfirst\\n")
    time.sleep(0.6)
    with (root / "plan.md").open("a") as fh:
        fh.write("second\\n")
    rec.flush(10)
n = sum(1 for e in store.actions() if e["authored"] is not False and e.get("file_path") == "plan.md")
print(n)
"""


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_a_recorder_started_by_make_records_the_persons_writes(tmp_path: Path) -> None:
    root = tmp_path / "notes"
    root.mkdir()
    (tmp_path / "record.py").write_text(SCRIPT)
    # make's cwd holds the watched root, as `make demo` in the checkout holds demo-out/
    (tmp_path / "Makefile").write_text(f"all:\n\t{sys.executable} record.py {root} {tmp_path / 'db.sqlite'}\n")
    out = subprocess.run(["make", "-s"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout.strip().splitlines()[-1]) >= 2, out.stdout
