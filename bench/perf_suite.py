"""`filegram bench perf`: one table from the perf modules the other packages provide.

Each module offers `run_perf() -> list[dict]` rows (benchmark, metric, value, unit, target).
They are imported lazily; a missing one becomes a note in the table, and one that fails
becomes a row saying so, so one broken suite never hides the others. Numbers are printed,
never asserted (speed depends on the machine).
"""

from __future__ import annotations

import importlib
import json
import time
from collections.abc import Sequence
from typing import Any

# name -> (module, what it measures)
SUITES: dict[str, tuple[str, str]] = {
    "store": ("filegram.bench.perf_store", "store ingest vs ActivityWatch's datastore"),
    "recorder": ("filegram.recorder.perf", "recorder throughput and latency"),
    "screen": ("filegram.recorder.screen.perf", "screen capture and OCR cost"),
    "memory": ("filegram.memory.perf", "memory ingest, incremental update, query latency"),
    "simulator": ("filegram.simulator.perf", "simulator trajectories per second"),
    "daemon": ("filegram.daemon.perf", "daemon idle CPU and RSS"),
}


# Measured from outside when the package has no perf module of its own.
FALLBACKS: dict[str, str] = {"daemon": "filegram.bench.daemon_idle"}


def run_suite(only: Sequence[str] | None = None) -> list[dict[str, Any]]:
    from filegram.errors import FileGramError

    names = list(only or SUITES)
    bad = [n for n in names if n not in SUITES]
    if bad:
        raise FileGramError(f"unknown perf suite(s): {', '.join(bad)} (known: {', '.join(SUITES)})")
    rows: list[dict[str, Any]] = []
    for name in names:
        module, what = SUITES[name]
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name and module.startswith(exc.name) and name in FALLBACKS:
                mod = importlib.import_module(FALLBACKS[name])
                rows.append(_note(name, what, f"{module} does not exist yet: measured by {FALLBACKS[name]}"))
            elif exc.name and module.startswith(exc.name):
                rows.append(_note(name, what, f"skipped: {module} does not exist yet"))
                continue
            else:
                rows.append(_note(name, what, f"skipped: {module} needs {exc.name} (not installed)"))
                continue
        fn = getattr(mod, "run_perf", None)
        if fn is None:
            rows.append(_note(name, what, f"skipped: {module} has no run_perf()"))
            continue
        t0 = time.perf_counter()
        try:
            got = list(fn())
        except Exception as exc:  # noqa: BLE001 - one failing suite must not hide the others
            rows.append(_note(name, what, f"failed: {type(exc).__name__}: {str(exc).splitlines()[0][:120] if str(exc) else ''}"))
            continue
        for r in got:
            rows.extend(_rows_of(name, what, r))
        rows.append({"suite": name, "benchmark": "(suite)", "metric": "wall time of the suite",
                     "value": round(time.perf_counter() - t0, 1), "unit": "s", "target": ""})
    return rows


def _rows_of(suite: str, what: str, r: dict[str, Any]) -> list[dict[str, Any]]:
    """A row in the common shape, or, for a wide row ({"benchmark": ..., "files": ..., "ops_per_s":
    ...}), one row per measured quantity."""
    bench = r.get("benchmark") or what
    note = f"note: {r['note']}" if r.get("note") else ""
    if "value" in r:
        return [{"suite": suite, "benchmark": bench, "metric": r.get("metric", ""), "value": r["value"],
                 "unit": r.get("unit", ""), "target": r.get("target") or note}]
    out = []
    for k, v in r.items():
        if k in ("benchmark", "note", "target", "unit"):
            continue
        out.append({"suite": suite, "benchmark": bench, "metric": k.replace("_", " "), "value": v,
                    "unit": "", "target": ""})
    if out and (r.get("target") or note):
        out[-1]["target"] = r.get("target") or note
    return out


def _note(suite: str, what: str, text: str) -> dict[str, Any]:
    return {"suite": suite, "benchmark": what, "metric": text, "value": "", "unit": "", "target": ""}


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:,.3g}" if abs(v) < 1000 else f"{v:,.0f}"
    if isinstance(v, int):
        return f"{v:,}"
    return str(v)


def print_table(rows: list[dict[str, Any]], *, as_json: bool = False) -> None:
    if as_json:
        print(json.dumps(rows, indent=2, ensure_ascii=False, default=str))
        return
    from rich.console import Console
    from rich.table import Table

    t = Table(title="FileGram performance", show_lines=False)
    for col in ("suite", "benchmark", "metric", "value", "unit", "target"):
        t.add_column(col, justify="right" if col == "value" else "left", overflow="fold")
    for r in rows:
        t.add_row(*(_fmt(r.get(c, "")) for c in ("suite", "benchmark", "metric", "value", "unit", "target")))
    import sys

    Console(width=None if sys.stdout.isatty() else 180).print(t)
