"""Screen recorder benchmarks: CPU per captured and per skipped frame, disk per active hour
projected to a month, OCR time per frame. `python -m filegram.recorder.screen.perf`.

Runs on its own Xvfb (1920x1080, a full-screen editor window showing source code) so the
figures do not depend on the desktop the benchmark happens to run on. CPU is this
process's CPU time (process_time) per tick; the X server's share of a grab is shown
separately. The month projection uses the default settings: one tick every
interval_seconds while active, 8 active hours a day, 22 working days.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ACTIVE_HOURS_PER_DAY = 8
WORK_DAYS_PER_MONTH = 22
SCREEN_SIZE = (1920, 1080)

_EDITOR = r"""
import sys, tkinter as tk
src = open(sys.argv[1], encoding="utf-8").read()
root = tk.Tk(className="benchedit")
root.title("screen.py - ~/src/filegram - Editor")
root.geometry(f"{sys.argv[2]}x{sys.argv[3]}+0+0")
t = tk.Text(root, font=("DejaVu Sans Mono", 11), wrap="none", bg="white", fg="#202020")
t.insert("1.0", src)
t.pack(expand=True, fill="both")
def ready():
    root.update(); root.winfo_pointerxy(); print("ok", flush=True)
n = [0]
def on_input(_f, _m):
    line = sys.stdin.readline()
    if not line or line.strip() == "quit":
        root.destroy(); return
    n[0] += 1
    t.insert("20.0", f"    edited_line_{n[0]} = compute(value_{n[0]}, threshold={n[0] * 7})  # typed\n")
    ready()
root.tk.createfilehandler(sys.stdin, tk.READABLE, on_input)
root.after(50, ready)
root.mainloop()
"""


def _start_xvfb() -> tuple[subprocess.Popen, str]:
    exe = shutil.which("Xvfb")
    if exe is None:
        raise SystemExit("screen.perf: Xvfb is not installed (Debian package xvfb)")
    r, w = os.pipe()
    proc = subprocess.Popen(
        [exe, "-displayfd", str(w), "-screen", "0", f"{SCREEN_SIZE[0]}x{SCREEN_SIZE[1]}x24", "-nolisten", "tcp"],
        pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    os.close(w)
    num = b""
    while not num.endswith(b"\n"):
        chunk = os.read(r, 16)
        if not chunk:
            break
        num += chunk
    os.close(r)
    return proc, f":{int(num)}"


def _poke(display: str) -> None:
    from Xlib import X
    from Xlib import display as xdisplay
    from Xlib.ext import xtest

    d = xdisplay.Display(display)
    xtest.fake_input(d, X.MotionNotify, x=5, y=5)
    xtest.fake_input(d, X.MotionNotify, x=900, y=500)
    d.sync()
    d.close()


def _cpu_of(pid: int) -> float:
    import psutil

    t = psutil.Process(pid).cpu_times()
    return t.user + t.system


def run_perf(frames: int = 12, skipped: int = 20, ocr_frames: int = 3) -> list[dict[str, Any]]:
    """Measure on a private Xvfb and return table rows (metric, value, unit, note)."""
    from filegram.config import Config
    from filegram.store import Store

    from . import image, ocr
    from .capture import ScreenRecorder
    from .settings import settings_summary

    xvfb, display = _start_xvfb()
    old_display = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = display
    tmp = Path(tempfile.mkdtemp(prefix="filegram-screen-perf-"))
    editor = subprocess.Popen(
        [sys.executable, "-c", _EDITOR, str(Path(__file__).with_name("capture.py")), str(SCREEN_SIZE[0]), str(SCREEN_SIZE[1])],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=dict(os.environ, DISPLAY=display),
    )
    rows: list[dict[str, Any]] = []
    try:
        assert editor.stdout is not None and editor.stdin is not None
        editor.stdout.readline()

        def edit() -> None:
            editor.stdin.write("edit\n")
            editor.stdin.flush()
            editor.stdout.readline()

        cfg = Config()
        cfg["screen"]["enabled"] = True
        cfg["screen"]["ocr"] = False
        scfg = cfg["screen"]
        store = Store(tmp / "bench.db")
        rec = ScreenRecorder(store, cfg)
        _poke(display)
        rec.tick()  # warm up: first grab, thumbnails, encoder

        # captured frames (no OCR): the editor changes before every tick
        cpu, srv, sizes = [], [], []
        for _ in range(frames):
            edit()
            s0 = _cpu_of(xvfb.pid)
            res = rec.tick()
            srv.append((_cpu_of(xvfb.pid) - s0) * 1000.0)
            if res["result"] == "captured":
                cpu.append(res["cpu_ms"])
                sizes.extend(m.get("bytes", 0) for m in res["monitors"] if m.get("frame_id"))
        # skipped frames: nothing changes
        skip_cpu = []
        for _ in range(skipped):
            res = rec.tick()
            if res["result"] == "skipped-unchanged":
                skip_cpu.append(res["cpu_ms"])
        # an excluded window: the decision costs only the window list
        rec.exclusions.patterns = (*rec.exclusions.patterns, "screen.py")
        excl = [rec.tick()["cpu_ms"] for _ in range(10)]
        rec.exclusions.patterns = rec.exclusions.patterns[:-1]
        # ahead of the budget's pace: no grab either
        saved_budget = rec.cfg["daily_budget_mb"]
        rec.cfg["daily_budget_mb"] = 0.001
        paced_cpu = [rec.tick()["cpu_ms"] for _ in range(10)]
        rec.cfg["daily_budget_mb"] = saved_budget

        mean = lambda xs: sum(xs) / len(xs) if xs else float("nan")  # noqa: E731
        per_frame = mean(sizes)
        rows.append({"metric": "CPU per captured frame (no OCR)", "value": round(mean(cpu), 1), "unit": "ms",
                     "note": f"{SCREEN_SIZE[0]}x{SCREEN_SIZE[1]} grab, diff, downscale, WebP, insert; n={len(cpu)}; X server +{mean(srv):.1f} ms"})
        rows.append({"metric": "CPU per skipped (unchanged) frame", "value": round(mean(skip_cpu), 1), "unit": "ms",
                     "note": f"grab + {SCREEN_SIZE[0] // 4}x{SCREEN_SIZE[1] // 4} grey diff; n={len(skip_cpu)}"})
        rows.append({"metric": "CPU per excluded-window tick", "value": round(mean(excl), 2), "unit": "ms",
                     "note": "window list only: no pixel is read"})
        rows.append({"metric": "CPU per tick ahead of the budget's pace", "value": round(mean(paced_cpu), 2), "unit": "ms",
                     "note": "window list and one counter read: no grab"})
        rows.append({"metric": "stored frame size", "value": round(per_frame / 1024, 1), "unit": "KB",
                     "note": f"{scfg['max_width']} px wide, WebP q{scfg['quality']}, code editor full screen"})

        interval = float(scfg["interval_seconds"])
        force = float(scfg["force_after_seconds"])
        budget_mb = float(scfg["daily_budget_mb"])
        hours = ACTIVE_HOURS_PER_DAY * WORK_DAYS_PER_MONTH
        worst_h = 3600 / interval * per_frame / 1e6
        static_h = 3600 / force * per_frame / 1e6
        capped_month = min(worst_h * ACTIVE_HOURS_PER_DAY, budget_mb * 1.048576) * WORK_DAYS_PER_MONTH / 1000
        rows.append({"metric": "disk per active hour, screen changing every tick", "value": round(worst_h, 1), "unit": "MB",
                     "note": f"{3600 / interval:.0f} frames/h; month ({hours} h): {worst_h * hours / 1000:.2f} GB before the budget"})
        rows.append({"metric": "disk per active hour, static screen", "value": round(static_h, 2), "unit": "MB",
                     "note": f"forced frames only ({3600 / force:.0f}/h); month: {static_h * hours / 1000:.3f} GB"})
        rows.append({"metric": "disk per month at default settings (worst case)", "value": round(capped_month, 2), "unit": "GB",
                     "note": f"capped by daily_budget_mb={budget_mb:g} x {WORK_DAYS_PER_MONTH} days; screenpipe publishes 5-30 GB"})
        pace_h = float(scfg["budget_active_hours"])
        ticks_h = 3600 / interval
        paced = min(ticks_h, budget_mb * 1.048576e6 / pace_h / per_frame) if pace_h > 0 else ticks_h
        rows.append({"metric": "frames stored per active hour, screen changing (paced)", "value": round(paced), "unit": "/h",
                     "note": f"budget spread over {pace_h:g} active hours: one frame every {3600 / paced:.0f} s"})
        ocr_cpu_ms = None

        if ocr.available() and ocr_frames > 0:
            t0 = time.perf_counter()
            ocr.load_engine()
            load_s = time.perf_counter() - t0
            with image.open_grabber() as sct:
                img = image.to_image(sct.grab(sct.monitors[1]))
            wall, cpu_o, chars = [], [], 0
            for _ in range(ocr_frames):
                w0, c0 = time.perf_counter(), time.process_time()
                text = ocr.read_text(img)
                wall.append((time.perf_counter() - w0) * 1000.0)
                cpu_o.append((time.process_time() - c0) * 1000.0)
                chars = len(text)
            rows.append({"metric": "OCR time per frame (wall)", "value": round(mean(wall)), "unit": "ms",
                         "note": f"rapidocr + onnxruntime (1 thread) on {SCREEN_SIZE[0]}x{SCREEN_SIZE[1]} code; CPU {mean(cpu_o):.0f} ms; {chars} chars; model load {load_s:.1f} s once"})
            ocr_cpu_ms = mean(cpu_o)
        else:
            rows.append({"metric": "OCR time per frame", "value": None, "unit": "ms",
                         "note": "OCR extra not installed (pip install 'filegram[ocr]')"})
        cap_share = (paced * mean(cpu) + (ticks_h - paced) * mean(paced_cpu)) / 3_600_000.0 * 100
        ocr_per_h = min(paced, 3600 / float(scfg["ocr_interval_seconds"]))
        ocr_share = (ocr_per_h * ocr_cpu_ms / 3_600_000.0 * 100) if ocr_cpu_ms else 0.0
        rows.append({"metric": "CPU share of one core, screen changing", "value": round(cap_share + ocr_share, 1), "unit": "%",
                     "note": f"capture {cap_share:.1f}% + OCR {ocr_share:.1f}% ({ocr_per_h:.0f} OCR/h); screenpipe publishes 5-15%"})
        rows.append({"metric": "settings", "value": None, "unit": "", "note": settings_summary(scfg)})
        rec.close()
        store.close()
    finally:
        try:
            if editor.stdin:
                editor.stdin.write("quit\n")
                editor.stdin.flush()
            editor.wait(timeout=5)
        except Exception:  # noqa: BLE001
            editor.kill()
        xvfb.terminate()
        xvfb.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)
        if old_display is None:
            os.environ.pop("DISPLAY", None)
        else:
            os.environ["DISPLAY"] = old_display
    return rows


def format_table(rows: list[dict[str, Any]]) -> str:
    w = max(len(r["metric"]) for r in rows)
    lines = [f"{'metric':<{w}}  {'value':>9}  unit  note", "-" * (w + 40)]
    for r in rows:
        v = "" if r["value"] is None else str(r["value"])
        lines.append(f"{r['metric']:<{w}}  {v:>9}  {r['unit']:<4}  {r['note']}")
    return "\n".join(lines)


def main() -> int:
    print(format_table(run_perf()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
