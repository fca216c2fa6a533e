"""Daemon idle cost, measured from outside: used by `bench perf` while the daemon package
has no perf module of its own.

A real `filegram start --foreground` runs on a private home watching an empty folder; after
it settles, its CPU time (with children) is sampled over a window and its resident memory
read. It is stopped with `filegram stop`, and only if that fails, terminated by its pid.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def _tree(pid: int) -> list[Any]:
    import psutil

    try:
        p = psutil.Process(pid)
        return [p, *p.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def _cpu_seconds(procs: list[Any]) -> float:
    total = 0.0
    for p in procs:
        try:
            t = p.cpu_times()
            total += t.user + t.system
        except Exception:  # noqa: BLE001 - a child may exit between listing and reading
            pass
    return total


def _rss_mb(procs: list[Any]) -> float:
    total = 0
    for p in procs:
        try:
            total += p.memory_info().rss
        except Exception:  # noqa: BLE001
            pass
    return total / (1024 * 1024)


def run_perf(settle_s: float = 8.0, window_s: float = 20.0) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="fg-daemon-idle-") as d:
        home, root = Path(d) / "home", Path(d) / "watched"
        root.mkdir()
        env = {**os.environ, "FILEGRAM_HOME": str(home), "PYSTRAY_BACKEND": "dummy"}
        env.pop("DISPLAY", None)
        cmd = [sys.executable, "-m", "filegram", "--home", str(home), "start", "--foreground", "--no-tray",
               "--root", str(root)]
        t0 = time.perf_counter()
        log = open(Path(d) / "daemon.log", "wb")  # noqa: SIM115 - closed below
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env)
        try:
            up = None
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and proc.poll() is None:
                if (home / "run").is_dir() and any((home / "run").iterdir()):
                    up = time.perf_counter() - t0
                    break
                time.sleep(0.1)
            if proc.poll() is not None:
                tail = (Path(d) / "daemon.log").read_bytes()[-300:].decode("utf-8", "replace").strip().splitlines()
                raise RuntimeError(f"daemon exited at start: {tail[-1] if tail else proc.returncode}")
            time.sleep(settle_s)
            procs = _tree(proc.pid)
            c0, w0 = _cpu_seconds(procs), time.perf_counter()
            time.sleep(window_s)
            procs = _tree(proc.pid)
            cpu = (_cpu_seconds(procs) - c0) / (time.perf_counter() - w0) * 100.0
            rss = _rss_mb(procs)
        finally:
            subprocess.run([sys.executable, "-m", "filegram", "--home", str(home), "stop", "--timeout", "20"],
                           env=env, capture_output=True, timeout=60, check=False)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.terminate()
                proc.wait(timeout=10)
            log.close()
    return [
        {"benchmark": "daemon idle", "metric": "time until its run files exist", "value": round(up or 0.0, 2),
         "unit": "s", "target": ""},
        {"benchmark": "daemon idle", "metric": f"CPU while idle ({window_s:.0f} s window, with children)",
         "value": round(cpu, 2), "unit": "%", "target": "< 1%"},
        {"benchmark": "daemon idle", "metric": "resident memory (with children)", "value": round(rss, 1),
         "unit": "MB", "target": ""},
    ]
