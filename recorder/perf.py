"""Recorder benchmarks: sustained throughput with zero loss, event-to-row latency, and peak
memory while `tar x` unpacks a large archive under a root.

Figures are printed, never asserted (the machine is shared). `filegram bench perf` can
call `run_perf()`; standalone: python -m filegram.recorder.perf [--files N] [--tar-files N]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from filegram.config import Config

_WRITER = r"""
import os, sys, time
root, n = sys.argv[1], int(sys.argv[2])
t0 = time.perf_counter()
for i in range(n):
    with open(os.path.join(root, f"f{i:06d}.txt"), "w") as f:
        f.write(f"line one of {i}\nline two\n")
t1 = time.perf_counter()
time.sleep(1.0)  # edits must not fall into the creates' settle window
t2 = time.perf_counter()
for i in range(n):
    with open(os.path.join(root, f"f{i:06d}.txt"), "a") as f:
        f.write("appended\n")
t3 = time.perf_counter()
print(t1 - t0, t3 - t2)
"""


def _config(**rec: Any) -> Config:
    from filegram.config import parse_config

    body = "\n".join(f"{k} = {v!r}" for k, v in rec.items())
    return parse_config(f"[recorder]\n{body}\n")


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(int(round(q / 100 * (len(values) - 1))), len(values) - 1)
    return values[k]


def bench_throughput(n_files: int, work: Path) -> dict[str, Any]:
    """Create n files and then append to each, from another process, as fast as it can."""
    from filegram.store import Store

    from .recorder import Recorder

    root = work / "tp-root"
    root.mkdir()
    store = Store(work / "tp.db")
    rec = Recorder(store, [root], _config(bulk_events_per_second=0))  # every file as rows
    rec.start()
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", _WRITER, str(root), str(n_files)], capture_output=True, text=True, check=True)
    create_s, edit_s = (float(x) for x in out.stdout.split())
    rec.flush(timeout=600)
    total_s = time.perf_counter() - t0
    st = rec.stop()
    counts = store.count_by_type()
    store.close()
    writes, edits = counts.get("file_write", 0), counts.get("file_edit", 0)
    lost = (n_files - writes) + (n_files - edits)
    return {
        "benchmark": "throughput",
        "files": n_files,
        "ops": 2 * n_files,
        "generator_ops_per_s": round(2 * n_files / (create_s + edit_s)),
        "recorded_ops_per_s": round((writes + edits) / max(total_s - 1.0, 1e-9)),
        "file_write": writes,
        "file_edit": edits,
        "lost": lost,
        "dropped": st["dropped"],
        "rescans": st["rescans"],
        "wall_s": round(total_s, 2),
    }


def bench_latency(n_events: int, work: Path, gap_s: float = 0.1) -> dict[str, Any]:
    """Single creations at a human-like pace: time from the event to its stored row."""
    from filegram.store import Store

    from .recorder import Recorder

    root = work / "lat-root"
    root.mkdir()
    store = Store(work / "lat.db")
    rec = Recorder(store, [root], _config())
    rec.writer.measure_latency = True
    rec.start()
    for i in range(n_events):
        (root / f"n{i:04d}.md").write_text(f"note {i}\n")
        time.sleep(gap_s)
    time.sleep(1.0)
    rec.flush()
    settle = float(rec.rec["settle_ms"])
    lat = list(rec.writer.latencies)
    rec.stop()
    store.close()
    return {
        "benchmark": "latency",
        "events": n_events,
        "p50_ms": round(_pct(lat, 50), 1),
        "p95_ms": round(_pct(lat, 95), 1),
        "max_ms": round(max(lat), 1) if lat else None,
        "settle_ms": settle,
        "note": "includes the settle window that merges editor saves into one action",
    }


_ARCHIVER = r"""
import os, sys, tarfile, tempfile, shutil
path, n, per_dir = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
src = tempfile.mkdtemp(prefix="fg-tar-src-")
top = os.path.join(src, "unpacked")
for i in range(n):
    d = os.path.join(top, f"d{i // per_dir:04d}")
    if i % per_dir == 0:
        os.makedirs(d)
    with open(os.path.join(d, f"f{i:06d}.txt"), "wb") as f:
        f.write(b"x\n")
with tarfile.open(path, "w") as tf:
    tf.add(top, arcname="unpacked")
shutil.rmtree(src)
"""


def _make_archive(path: Path, n_files: int, per_dir: int = 1000) -> None:
    """Built in another process, so that its memory does not hide the recorder's."""
    subprocess.run([sys.executable, "-c", _ARCHIVER, str(path), str(n_files), str(per_dir)], check=True)


def bench_tar(n_files: int, work: Path) -> dict[str, Any]:
    """Peak RSS of the recording process while tar unpacks n files under the root."""
    import psutil

    from filegram.store import Store

    from .recorder import Recorder

    archive = work / "big.tar"
    _make_archive(archive, n_files)
    root = work / "tar-root"
    root.mkdir()
    store = Store(work / "tar.db")
    proc = psutil.Process()
    rss_before = proc.memory_info().rss
    peak = [rss_before]
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], proc.memory_info().rss)
            stop.wait(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    rec = Recorder(store, [root], _config())
    rec.start()
    sampler.start()
    t0 = time.perf_counter()
    subprocess.run(["tar", "xf", str(archive)], cwd=root, check=True)
    tar_s = time.perf_counter() - t0
    rec.flush(timeout=900)
    time.sleep(2.5)  # let the bulk episode end on its own
    rec.flush(timeout=60)
    drain_s = time.perf_counter() - t0
    st = rec.stop()
    stop.set()
    sampler.join()
    evs = list(store.actions(types=["file_write", "dir_create"]))
    store.close()
    files = sum(e.get("bulk_count", 1) for e in evs if e["event_type"] == "file_write")
    dirs = sum(e.get("bulk_count", 1) for e in evs if e["event_type"] == "dir_create")
    rows = len(evs)
    return {
        "benchmark": "tar_x",
        "files": n_files,
        "files_accounted": files,
        "dirs_accounted": dirs,
        "rows": rows,
        "bulk_summaries": st["bulk_summaries"],
        "tool_summaries": st["tool_summaries"],
        "authored_rows": sum(1 for e in evs if e.get("authored", True)),
        "rescans": st["rescans"],
        "dropped": st["dropped"],
        "tar_s": round(tar_s, 2),
        "drain_s": round(drain_s, 2),
        "rss_before_mb": round(rss_before / 2**20, 1),
        "rss_peak_mb": round(peak[0] / 2**20, 1),
    }


def run_perf(*, files: int = 5000, latency_events: int = 50, tar_files: int = 100_000, work: Path | None = None) -> list[dict[str, Any]]:
    base = Path(work or tempfile.mkdtemp(prefix="fg-recorder-perf-"))
    rows = []
    if files:
        rows.append(bench_throughput(files, base))
    if latency_events:
        rows.append(bench_latency(latency_events, base))
    if tar_files:
        rows.append(bench_tar(tar_files, base))
    subprocess.run(["rm", "-rf", str(base)], check=False)
    return rows


def format_rows(rows: list[dict[str, Any]]) -> str:
    out = []
    for r in rows:
        out.append(r["benchmark"])
        for k, v in r.items():
            if k != "benchmark":
                out.append(f"  {k:<22} {v}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m filegram.recorder.perf")
    ap.add_argument("--files", type=int, default=5000, help="files created then edited (throughput)")
    ap.add_argument("--latency-events", type=int, default=50)
    ap.add_argument("--tar-files", type=int, default=100_000, help="files in the unpacked archive (0 skips)")
    args = ap.parse_args(argv)
    rows = run_perf(files=args.files, latency_events=args.latency_events, tar_files=args.tar_files)
    print(format_rows(rows))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
