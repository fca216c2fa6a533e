"""Daemon benchmarks for `filegram bench perf`: start-to-ready, idle CPU, RSS, stop time.

Measured on the real daemon process (`python -m filegram start --foreground`) with a
temporary home and a root of a few hundred files, default settings, no tray. Figures are
printed, never asserted: the targets (idle CPU < 0.5 %, RSS < 80 MB without litellm) are
reported next to each figure.

Run: python -m filegram.daemon.perf [--window SECONDS]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any


def _make_root(root: Path, dirs: int = 20, files_per_dir: int = 15) -> None:
    for d in range(dirs):
        sub = root / f"project{d:02d}" / "notes"
        sub.mkdir(parents=True, exist_ok=True)
        for f in range(files_per_dir):
            (sub / f"note{f:02d}.md").write_text(f"# note {d}/{f}\n\n" + "text line\n" * 20)


def _api(info: dict[str, Any], token: str, path: str, method: str = "GET") -> Any:
    req = urllib.request.Request(info["api_url"] + path, method=method)
    req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=60) as resp:
        return json.loads(resp.read())


LEARN_SESSIONS = 5
IDLE_GAP_MINUTES = 0.05  # sessions close after 3 s without activity (the learning phase)


def _learn(root: Path, info: dict[str, Any], token: str, sessions: int = LEARN_SESSIONS) -> None:
    """Work in `sessions` separate sessions (files written, read, appended to, renamed, then
    an idle gap), let the daemon learn from them and serve the dashboard's pages: what a
    newcomer's first hour leaves resident."""
    import random

    rnd = random.Random(7)

    def closed() -> int:
        return int(_api(info, token, "/api/sessions?closed=1&limit=1000")["count"])

    before = closed()
    for s in range(sessions):
        d = root / f"work{s}" / "drafts"
        d.mkdir(parents=True)
        for i in range(40):
            lines = (f"line {j} " + "word " * rnd.randint(3, 15) for j in range(rnd.randint(20, 300)))
            (d / f"doc_{i}.md").write_text("\n".join(lines))
        for i in range(0, 40, 3):
            (d / f"doc_{i}.md").read_text()
            with open(d / f"doc_{i}.md", "a") as fh:
                fh.write("one more line\n")
        for i in range(0, 40, 5):
            os.rename(d / f"doc_{i}.md", d / f"final_{i}.md")
        deadline = time.monotonic() + 120
        while closed() < before + s + 1 and time.monotonic() < deadline:
            _api(info, token, "/api/consolidate", "POST")  # closes the idle session
            time.sleep(0.5)
    _api(info, token, "/api/consolidate", "POST")
    _api(info, token, "/api/profile")
    for page in ("/ui/", "/ui/timeline", "/ui/activity", "/ui/card"):
        req = urllib.request.Request(info["api_url"] + page)
        req.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(req, timeout=60) as resp:
            resp.read()


def run_perf(window_s: float = 60.0, *, warmup_s: float = 5.0) -> list[dict[str, Any]]:
    """Start a daemon, measure it, stop it; one row per figure."""
    import psutil

    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="filegram-perf-") as tmp:
        home, root = Path(tmp) / "home", Path(tmp) / "root"
        home.mkdir()
        root.mkdir()
        _make_root(root)
        (home / "config.toml").write_text(f"[recorder]\nroots = [{json.dumps(str(root))}]\n"
                                          f"idle_gap_minutes = {IDLE_GAP_MINUTES}\n"
                                          "[daemon]\ntray = false\n")
        env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        env["FILEGRAM_HOME"] = str(home)
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "filegram", "start", "--foreground"],
                                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            info: dict[str, Any] | None = None
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                if proc.poll() is not None:
                    raise RuntimeError(f"daemon exited with {proc.returncode} during start")
                try:
                    info = json.loads((home / "run" / "daemon.json").read_text())
                    token = (home / "run" / "api.token").read_text().strip()
                    if _api(info, token, "/api/health")["state"] == "recording":
                        break
                except (OSError, ValueError):
                    pass
                time.sleep(0.02)
            else:
                raise RuntimeError("daemon did not become ready in 60 s")
            ready_s = time.perf_counter() - t0
            rows.append(_row("daemon start-to-ready (process start to recording, 300 files)",
                             ready_s, "s", None))

            p = psutil.Process(proc.pid)
            time.sleep(warmup_s)
            c0 = p.cpu_times()
            w0 = time.perf_counter()
            time.sleep(window_s)
            c1 = p.cpu_times()
            elapsed = time.perf_counter() - w0
            cpu = ((c1.user - c0.user) + (c1.system - c0.system)) / elapsed * 100.0
            rows.append(_row(f"daemon idle CPU over {window_s:.0f} s", cpu, "%", 0.5))
            health = _api(info, token, "/api/health")
            rss = p.memory_info().rss / 1e6
            rows.append(_row(
                "daemon RSS idle" + (" (litellm NOT loaded)" if not health["litellm_loaded"] else " (litellm loaded!)"),
                rss, "MB", 80.0))
            _api(info, token, "/api/profile")
            rows.append(_row("daemon RSS after a profile request (memory loaded)",
                             p.memory_info().rss / 1e6, "MB", None))
            _learn(root, info, token)
            time.sleep(warmup_s)  # back to idle
            rows.append(_row(f"daemon RSS idle after learning from {LEARN_SESSIONS} recorded sessions "
                             "and serving the dashboard", p.memory_info().rss / 1e6, "MB", 80.0))
            t1 = time.perf_counter()
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=60)
            rows.append(_row("daemon stop on SIGTERM (flush, close session)",
                             time.perf_counter() - t1, "s", None))
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return rows


def _row(name: str, value: float, unit: str, target: float | None) -> dict[str, Any]:
    return {
        "benchmark": "daemon",
        "metric": name,
        "value": round(value, 3),
        "unit": unit,
        "target": f"< {target:g} {unit}" if target is not None else None,
        "ok": (value < target) if target is not None else None,
    }


def format_rows(rows: list[dict[str, Any]]) -> str:
    width = max(len(r["metric"]) for r in rows)
    lines = [f"{'daemon':<{width}}  {'value':>10}  unit  target"]
    for r in rows:
        verdict = "" if r["ok"] is None else ("  ok" if r["ok"] else "  MISSED")
        lines.append(f"{r['metric']:<{width}}  {r['value']:>10.3f}  {r['unit']:<4}  "
                     f"{r['target'] or '-'}{verdict}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m filegram.daemon.perf", description=__doc__.split("\n")[0])
    ap.add_argument("--window", type=float, default=60.0, help="idle CPU window in seconds (default 60)")
    ap.add_argument("--json", action="store_true", help="print JSON rows")
    args = ap.parse_args(argv)
    rows = run_perf(args.window)
    print(json.dumps(rows, indent=2) if args.json else format_rows(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
