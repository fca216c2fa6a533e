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
from typing import Any


def start_recorder(home: Path, root: Path, stdout: Any = subprocess.DEVNULL) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "filegram", "--home", str(home), "record", "--root", str(root)],
        stdout=stdout,
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


def peak_rss_sampler(pid: int, stop: threading.Event, out: list[int]) -> None:
    import psutil

    try:
        proc = psutil.Process(pid)
        while not stop.is_set():
            out.append(proc.memory_info().rss)
            time.sleep(0.05)
    except psutil.Error:
        pass


def run_event_storm(home: Path, root: Path, files: int = 100_000, git_files: int = 2_000) -> dict[str, int | float]:
    """Mass creation, a large `git checkout` and `rm -rf` under a recorded root; returns peak
    RSS of the recorder, raw events seen, rows written and files accounted for."""
    proc = start_recorder(home, root, stdout=subprocess.PIPE)
    stop = threading.Event()
    samples: list[int] = []
    sampler = threading.Thread(target=peak_rss_sampler, args=(proc.pid, stop, samples), daemon=True)
    sampler.start()
    t0 = time.monotonic()
    try:
        # 1. many small files in seconds (a tool unpacking a dataset)
        storm = root / "dataset"
        for i in range(files):
            d = storm / f"part{i // 1000:03d}"
            if i % 1000 == 0:
                d.mkdir(parents=True, exist_ok=True)
            (d / f"item{i}.txt").write_bytes(b"x")
        # 2. a large git checkout of another branch
        repo = root / "repo"
        repo.mkdir()
        git = ["git", "-c", "user.email=t@example.invalid", "-c", "user.name=t", "-c", "init.defaultBranch=main"]
        subprocess.run([*git, "init", "-q"], cwd=repo, check=True)
        for i in range(git_files):
            (repo / f"src{i % 20}").mkdir(exist_ok=True)
            (repo / f"src{i % 20}" / f"m{i}.py").write_text(f"value = {i}\n")
        subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
        subprocess.run([*git, "commit", "-qm", "one"], cwd=repo, check=True)
        subprocess.run([*git, "checkout", "-qb", "other"], cwd=repo, check=True)
        for i in range(git_files):
            (repo / f"src{i % 20}" / f"m{i}.py").write_text(f"value = {i * 2}\n")
        subprocess.run([*git, "commit", "-qam", "two"], cwd=repo, check=True)
        subprocess.run([*git, "checkout", "-q", "main"], cwd=repo, check=True)
        # 3. rm -rf of the big tree
        subprocess.run(["rm", "-rf", str(storm)], check=True)
        time.sleep(3.0)  # let bulk episodes end (2 s of quiet)
    finally:
        proc.send_signal(signal.SIGINT)
        said = proc.communicate(timeout=300)[0] or ""
        stop.set()
        sampler.join()
    elapsed = time.monotonic() - t0
    conn = sqlite3.connect(home / "filegram.db")
    try:
        rows = conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
        bulk_rows = conn.execute("SELECT COUNT(*) FROM actions WHERE json_extract(data, '$.bulk') = 1").fetchone()[0]
        created = conn.execute(
            "SELECT COALESCE(SUM(json_extract(data, '$.bulk_count')), 0) FROM actions "
            "WHERE event_type = 'file_write' AND json_extract(data, '$.operation') = 'create' AND json_extract(data, '$.bulk') = 1 AND path LIKE 'dataset%'"
        ).fetchone()[0]
        single = conn.execute(
            "SELECT COUNT(*) FROM actions WHERE event_type = 'file_write' AND path LIKE 'dataset/%' AND json_extract(data, '$.bulk') IS NULL"
        ).fetchone()[0]
        check = conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()
    return {
        "files_created": files,
        "git_files": git_files,
        "seconds": round(elapsed, 1),
        "rows_written": rows,
        "bulk_summary_rows": bulk_rows,
        "dataset_files_accounted": int(created) + single,
        "peak_rss_mb": round(max(samples, default=0) / 2**20, 1),
        "integrity": check,
        "recorder_exit": proc.returncode,
        "recorder_said": said.strip().splitlines()[-1] if said.strip() else "",
    }


def run_full_disk(base: Path) -> dict[str, object]:
    """Record onto a 600 KiB tmpfs until it is full, then give space back (needs root)."""
    import random
    import string

    home, root = base / "home", base / "root"
    home.mkdir(parents=True)
    root.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=600k,mode=0700", "tmpfs", str(home)], capture_output=True, text=True)
    if r.returncode != 0:
        return {"skipped": f"cannot mount a tmpfs: {r.stderr.strip() or 'not root'}"}
    try:
        proc = start_recorder(home, root)
        rng = random.Random(3)
        for i in range(150):
            (root / f"f{i}.txt").write_text("".join(rng.choice(string.ascii_letters) for _ in range(6000)))
            time.sleep(0.01)
        time.sleep(3)
        alive_when_full = proc.poll() is None
        subprocess.run(["mount", "-o", "remount,size=64m", str(home)], check=True)
        (root / "marker.txt").write_text("space is back\n")
        resumed = False
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not resumed:
            time.sleep(0.5)
            conn = sqlite3.connect(home / "filegram.db")
            resumed = conn.execute("SELECT COUNT(*) FROM actions WHERE path = 'marker.txt'").fetchone()[0] > 0
            conn.close()
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
        conn = sqlite3.connect(home / "filegram.db")
        check = conn.execute("PRAGMA integrity_check").fetchone()[0]
        conn.close()
        return {"alive_when_full": alive_when_full, "resumed": resumed, "integrity": check}
    finally:
        subprocess.run(["umount", "-l", str(home)], capture_output=True)


def run_faults(kills: int = 20, storm_files: int = 100_000) -> list[dict[str, object]]:
    """Rows for `filegram bench faults` / `bench perf`."""
    import tempfile

    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="filegram-faults-") as d:
        base = Path(d)
        (base / "k" / "root").mkdir(parents=True)
        k = run_kill_loop(base / "k" / "home", base / "k" / "root", kills)
        rows += [
            {"benchmark": "crash safety", "metric": "SIGKILLs survived during heavy ingest", "value": k["kills_survived"], "unit": "kills", "target": f"{kills}"},
            {"benchmark": "crash safety", "metric": "committed actions lost", "value": k["actions_lost"], "unit": "actions", "target": "0"},
            {"benchmark": "crash safety", "metric": "duplicated actions", "value": k["duplicates"], "unit": "actions", "target": "0"},
        ]
        (base / "s" / "root").mkdir(parents=True)
        s = run_event_storm(base / "s" / "home", base / "s" / "root", files=storm_files)
        rows += [
            {"benchmark": "event storm", "metric": f"{storm_files:,} creations + git checkout of {s['git_files']:,} files + rm -rf", "value": s["rows_written"], "unit": "rows written", "target": "summarised"},
            {"benchmark": "event storm", "metric": "files accounted for by bulk summaries", "value": s["dataset_files_accounted"], "unit": "files", "target": f"{storm_files:,}"},
            {"benchmark": "event storm", "metric": "recorder peak RSS", "value": s["peak_rss_mb"], "unit": "MB", "target": "bounded"},
        ]
        f = run_full_disk(base / "f")
        if "skipped" in f:
            rows.append({"benchmark": "full disk", "metric": "pause and resume", "value": None, "unit": "", "target": str(f["skipped"])})
        else:
            rows.append({"benchmark": "full disk", "metric": "alive when full / resumed / integrity", "value": f"{f['alive_when_full']} / {f['resumed']} / {f['integrity']}", "unit": "", "target": "True / True / ok"})
    return rows


if __name__ == "__main__":
    from .perf_store import print_rows

    print_rows(run_faults(int(sys.argv[1]) if len(sys.argv) > 1 else 20, int(sys.argv[2]) if len(sys.argv) > 2 else 100_000))
