"""Fault injection for `filegram bench faults` and the reliability tests: the real recorder
killed with SIGKILL mid-ingest, recording onto a full file system, event storms.

Each function drives real processes and real files and returns the figures it measured.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path


def start_recorder(home: Path, root: Path) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "filegram", "--home", str(home), "record", "--root", str(root)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if line.startswith("recording "):
            threading.Thread(target=proc.stderr.read, daemon=True).start()  # keep the pipe drained
            return proc
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError("recorder did not start")


def committed(db: Path) -> tuple[str, list[str]]:
    conn = sqlite3.connect(db)
    try:
        check = conn.execute("PRAGMA integrity_check").fetchone()[0]
        ids = [r[0] for r in conn.execute("SELECT event_id FROM actions")]
    finally:
        conn.close()
    return check, ids


def run_kill_loop(home: Path, root: Path, kills: int, seed: int = 0) -> dict[str, int]:
    rng = random.Random(seed)
    db = home / "filegram.db"
    stop = threading.Event()
    counter = [0]

    def writer() -> None:
        while not stop.is_set():
            i = counter[0]
            d = root / f"batch{i // 50}"
            d.mkdir(exist_ok=True)
            (d / f"note_{i}.md").write_text(f"# note {i}\n\nsome text {i}\n")
            if i % 7 == 0:
                (d / f"note_{i}.md").write_text(f"# note {i}\n\nedited {i}\n")
            counter[0] += 1
            time.sleep(0.002)

    seen: set[str] = set()
    survived = lost = duplicated = 0
    t = threading.Thread(target=writer, daemon=True)
    t.start()
    try:
        for _ in range(kills):
            proc = start_recorder(home, root)
            time.sleep(rng.uniform(0.3, 1.5))
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            check, ids = committed(db)
            assert check == "ok"
            now = set(ids)
            lost += len(seen - now)
            duplicated += len(ids) - len(now)
            seen = now
            survived += 1
    finally:
        stop.set()
        t.join()
    return {"kills_survived": survived, "actions_lost": lost, "duplicates": duplicated, "actions": len(seen), "files_created": counter[0]}
