"""Several processes opening one new database at once (the daemon opens several connections,
a CLI command may start beside it): every migration runs once, none fails on a column the
other already added."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

OPEN = """
import sys, time
from filegram.store import Store
from filegram.tables import load_plugins
load_plugins()  # every package's migrations, as the daemon has them
start = float(sys.argv[2])
time.sleep(max(0.0, start - time.time()))
Store(sys.argv[1]).close()
"""


def test_processes_opening_a_new_database_at_once_all_succeed(tmp_path: Path) -> None:
    import time

    db = tmp_path / "filegram.db"
    start = time.time() + 3.0  # every process has imported by then, and they open together
    procs = [subprocess.Popen([sys.executable, "-c", OPEN, str(db), str(start)], stderr=subprocess.PIPE, text=True)
             for _ in range(6)]
    errors = [p.communicate(timeout=120)[1] for p in procs]
    assert [p.returncode for p in procs] == [0] * 6, "\n".join(e for e in errors if e)[-2000:]
    from filegram.store import Store

    with Store(db) as st:
        assert "device" in st.columns("sessions")
