"""Tables of the robustness benchmark: rich on the terminal, markdown and JSON under --out."""

from __future__ import annotations

import datetime as _dt
import json
import subprocess
from pathlib import Path
from typing import Any

from filegram.vocab import DIM_IDS

from .robust_metrics import TARGETS, THRESHOLDS


def _p(x: float | None, digits: int = 2) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def commit_of(path: Path | None = None) -> str:
    """The checkout's short commit (with "+" when it has uncommitted changes), or "unknown"."""
    here = path or Path(__file__).resolve().parent
    try:
        sha = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=here, capture_output=True, text=True,
                             timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=here,
                               capture_output=True, text=True, timeout=10).stdout.strip()
        return sha + ("+" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def verdict(c: dict[str, Any]) -> str:
    missed = [name for name, ok in c["targets"].items() if ok is False]
    return "pass" if not missed else "fail: " + ", ".join(missed)


HEADER = ["condition", "users", "tier acc", *DIM_IDS, "unknown", "ECE", "acc@>=0.8 (n)", "drift recall",
          "drift visible", "false flags /24", "attribution", "targets"]


def row(c: dict[str, Any]) -> list[str]:
    dims = [_p(c["per_dimension"].get(d)) for d in DIM_IDS]
    return [c["title"], str(c["users"]), _p(c["tier_accuracy"]), *dims, _p(c["unknown_rate"]), _p(c["ece"]),
            f"{_p(c['high_confidence_accuracy'])} ({c['high_confidence_n']})",
            f"{_p(c['drift_recall'])} ({c['flagged_perturbed']}/{c['perturbed_sessions']})", _p(c.get("drift_visible")),
            _p(c["false_flags_per_user"]), _p(c["attribution"]), verdict(c)]


def targets_line() -> str:
    return "Targets: " + "; ".join(f"{name} {op} {bound:g}" for name, (_k, op, bound) in TARGETS.items()) + \
        " (false flags per user per 24 sessions)."


def markdown(res: dict[str, Any]) -> str:
    lines = ["# FileGram robustness benchmark", "",
             f"{res['date']}, commit {res['commit']}, seed {res['seed']}"
             f"{', quick subset' if res['quick'] else ''}, {res['seconds']:.0f} s with {res['workers']} worker(s).", "",
             "| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    for c in res["conditions"]:
        lines.append("| " + " | ".join(row(c)) + " |")
    lines += ["", targets_line(), "", "## Accuracy against coverage", "",
              "Share of all (user, dimension) pairs called with at least this confidence, and their accuracy.", "",
              "| condition | " + " | ".join(f">= {t:.1f}" for t in THRESHOLDS) + " |",
              "|---|" + "---|" * len(THRESHOLDS)]
    for c in res["conditions"]:
        cells = [f"{_p(x['coverage'])} / {_p(x['accuracy'])}" for x in c["coverage"]]
        lines.append(f"| {c['title']} | " + " | ".join(cells) + " |")
    lines += ["", "## Reliability (calls that name a tier)", "",
              "| condition | " + " | ".join(b["bin"] for b in res["conditions"][0]["reliability"]) + " |",
              "|---|" + "---|" * len(res["conditions"][0]["reliability"])]
    for c in res["conditions"]:
        cells = [f"{b['n']}: {_p(b['accuracy'])}" if b["n"] else "0" for b in c["reliability"]]
        lines.append(f"| {c['title']} | " + " | ".join(cells) + " |")
    lines += ["", "Cells: calls in the confidence bin, and their accuracy.", "", "## Drift verdicts", ""]
    for c in res["conditions"]:
        v = ", ".join(f"{k} {n}" for k, n in sorted(c["verdicts"].items())) or "no flags"
        one = (f"; attribution where every shift moved one tier {_p(c['attribution_one_tier'])} "
               f"(of {c['flagged_one_tier']} flagged)" if c.get("flagged_one_tier") else "")
        lines.append(f"- {c['title']}: {c['flags']} flags ({v}){one}")
    return "\n".join(lines) + "\n"


def write_results(res: dict[str, Any], out: Path) -> dict[str, Path]:
    out.mkdir(parents=True, exist_ok=True)
    paths = {"results.json": out / "results.json", "report.md": out / "report.md"}
    paths["results.json"].write_text(json.dumps(res, ensure_ascii=False, indent=1), encoding="utf-8")
    paths["report.md"].write_text(markdown(res), encoding="utf-8")
    return paths


def stamp(res: dict[str, Any]) -> dict[str, Any]:
    res = dict(res)
    res["date"] = _dt.date.today().isoformat()
    res["commit"] = commit_of()
    return res


def print_tables(res: dict[str, Any]) -> None:
    """The main table with short condition keys (legend below), then accuracy against coverage."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not console.is_terminal:  # a log or a pipe: wide enough for the whole table
        console = Console(width=140)
    table = Table(title=f"FileGram robustness benchmark ({res['date']}, commit {res['commit']})")
    for h in ("cond", "users", "acc", *DIM_IDS, "unk", "ECE", "acc>=.8 (n)", "recall", "visible", "FF/24", "attr", "targets"):
        table.add_column(h, no_wrap=h != "cond")
    for c in res["conditions"]:
        cells = row(c)
        missed = sum(1 for ok in c["targets"].values() if ok is False)
        cells[0] = c["key"]
        cells[-5] = _p(c["drift_recall"])
        cells[-1] = "[green]pass[/green]" if not missed else f"[red]fail {missed}/{len(TARGETS)}[/red]"
        table.add_row(*cells)
    console.print(table)
    for c in res["conditions"]:
        console.print(f"  {c['key']}: {c['title']}; {verdict(c)}")
    cov = Table(title="accuracy against coverage (coverage / accuracy)")
    cov.add_column("cond")
    for t in THRESHOLDS:
        cov.add_column(f">= {t:.1f}", no_wrap=True)
    for c in res["conditions"]:
        cov.add_row(c["key"], *[f"{_p(x['coverage'])} / {_p(x['accuracy'])}" for x in c["coverage"]])
    console.print(cov)
    console.print(targets_line())
