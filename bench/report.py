"""Reports of a run: report.md, results.csv, results.json and chart.png under --out.

results.json has exactly the issue's shape, {"answerer": ..., "subtasks": {sub: {method:
accuracy}}}, accuracy in percent (0-100, like the published table). Everything else (the
channel table, counts, targets, method descriptions) goes to report.md and results.csv.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .scoring import Table
from .truth import CHANNELS, OPEN_SUBTASKS, PUBLISHED, PUBLISHED_ROW, SUBTASK_KEYS, SUBTASK_TITLE

BASELINES = ("no_context", "full_context", "naive_rag", "eager_summ", "mem0_flat")


@dataclass
class ReportInfo:
    answerer: str
    judge: str
    title: str = "FileGramBench"
    data: str = ""
    seed: int = 0
    seconds: float = 0.0
    descriptions: dict[str, str] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    extra_sections: list[str] = field(default_factory=list)


def pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}"


def results_json(table: Table, answerer: str) -> dict[str, Any]:
    return {
        "answerer": answerer,
        "subtasks": {
            sub: {m: round(100 * v, 1) for m, v in table.subtasks[sub].items()}
            for sub in SUBTASK_KEYS if sub in table.subtasks
        },
    }


def targets(table: Table) -> list[tuple[str, bool, str]]:
    """The issue's targets, each (statement, met, the numbers behind it)."""
    out = []
    fg = "filegramos"
    mc = [s for s in table.subtasks if s not in OPEN_SUBTASKS]
    for sub in mc:
        row = table.subtasks[sub]
        if fg not in row:
            continue
        base = {m: v for m, v in row.items() if m in BASELINES}  # filegramos-own is not compared
        best_m = max(base, key=base.get) if base else None
        ahead = all(row[fg] > v for v in base.values())
        out.append((f"{sub}: FileGramOS ahead of every baseline", ahead,
                    f"FileGramOS {pct(row[fg])} vs best baseline {best_m} {pct(base.get(best_m))}" if best_m else ""))
        pub = PUBLISHED["FileGramOS"].get(sub)
        if pub is not None:
            out.append((f"{sub}: ahead of published FileGramOS", 100 * row[fg] > pub,
                        f"{pct(row[fg])} vs published {pub:.1f}"))
    if "ShiftAna" in table.subtasks and fg in table.subtasks["ShiftAna"]:
        v = table.subtasks["ShiftAna"][fg]
        out.append(("ShiftAna: FileGramOS at least 70%", v >= 0.70, f"{pct(v)} (published best 38.9)"))
    return out


def _md_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out.extend("| " + " | ".join(r) + " |" for r in rows)
    return out


def render_markdown(table: Table, info: ReportInfo) -> str:
    subs = [s for s in SUBTASK_KEYS if s in table.subtasks]
    L: list[str] = [f"# {info.title} results", ""]
    L.append(f"- Answerer: **{info.answerer}** (the same for every method)")
    L.append(f"- Open questions judged by: {info.judge}")
    if info.data:
        L.append(f"- Data: {info.data}")
    L.append(f"- Seed: {info.seed}; questions: {sum(table.counts.values())}; run time: {info.seconds:.0f} s")
    L.extend(f"- {n}" for n in info.notes)
    L += ["", "## Accuracy (%) per sub-task, ours", ""]
    header = ["method", *[f"{s} (n={table.counts[s]})" for s in subs], "MC avg", "overall"]
    rows = []
    for m in table.methods:
        rows.append([m, *[pct(table.subtasks[s].get(m)) for s in subs], pct(table.mc_average.get(m)), pct(table.overall.get(m))])
    L += _md_table(header, rows)
    L += ["", "## Side by side with the published table (ours / published)", ""]
    pub_subs = [s for s in SUBTASK_KEYS]
    rows = []
    for m in table.methods:
        row_name = PUBLISHED_ROW.get(m)
        pub = PUBLISHED.get(row_name, {}) if row_name else {}
        cells = []
        for s in pub_subs:
            ours = pct(table.subtasks[s].get(m)) if s in table.subtasks else "-"
            p = pub.get(s)
            cells.append(f"{ours} / {'-' if p is None else f'{p:.1f}'}")
        rows.append([f"{m}" + (f" ({row_name})" if row_name else ""), *cells])
    for name in ("VisRAG", "EverMemOS"):
        rows.append([f"({name}, not run)", *[f"- / {'-' if PUBLISHED[name][s] is None else PUBLISHED[name][s]:}" for s in pub_subs]])
    L += _md_table(["method", *pub_subs], rows)
    if table.channels:
        L += ["", "## Accuracy (%) per channel", ""]
        L += _md_table(["method", *[c for c in CHANNELS if c in table.channels]],
                       [[m, *[pct(table.channels[c].get(m)) for c in CHANNELS if c in table.channels]] for m in table.methods])
    abl = [m for m in table.methods if m.startswith("filegramos-") and m != "filegramos-own"]
    if abl and "filegramos" in table.methods:
        L += ["", "## Channel ablation (pp change against full FileGramOS)", ""]
        rows = []
        for m in abl:
            cells = []
            for s in subs:
                a, b = table.subtasks[s].get(m), table.subtasks[s].get("filegramos")
                cells.append("-" if a is None or b is None else f"{100 * (a - b):+.1f}")
            o1, o2 = table.overall.get(m), table.overall.get("filegramos")
            rows.append([m, *cells, "-" if o1 is None or o2 is None else f"{100 * (o1 - o2):+.1f}"])
        L += _md_table(["variant", *subs, "overall"], rows)
    tg = targets(table)
    if tg:
        L += ["", "## Targets", ""]
        L += _md_table(["target", "met", "numbers"], [[t, "yes" if ok else "**no**", n] for t, ok, n in tg])
    if info.skipped:
        L += ["", "## Skipped sub-tasks", ""]
        L.extend(f"- {SUBTASK_TITLE.get(s, s)} ({s}): {r}" for s, r in info.skipped.items())
    if info.descriptions:
        L += ["", "## How each method is built", ""]
        L.extend(f"- **{m}**: {d}" for m, d in info.descriptions.items())
    for sec in info.extra_sections:
        L += ["", sec]
    return "\n".join(L) + "\n"


def write_csv(table: Table, path: Path) -> None:
    subs = list(SUBTASK_KEYS)
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["method", "source", *subs, "mc_avg", *CHANNELS, "overall"])
        for m in table.methods:
            w.writerow([m, "ours", *[_num(table.subtasks.get(s, {}).get(m)) for s in subs],
                        _num(table.mc_average.get(m)), *[_num(table.channels.get(c, {}).get(m)) for c in CHANNELS],
                        _num(table.overall.get(m))])
        for name, row in PUBLISHED.items():
            w.writerow([name, "published", *[("" if row[s] is None else row[s]) for s in subs], "",
                        "", "", "", row["Avg"]])


def _num(x: float | None) -> str:
    return "" if x is None else f"{100 * x:.1f}"


def write_chart(table: Table, path: Path, title: str = "FileGramBench") -> bool:
    """Grouped bars per sub-task (ours), the published FileGramOS as black ticks."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    subs = [s for s in SUBTASK_KEYS if s in table.subtasks]
    methods = table.methods
    fig, ax = plt.subplots(figsize=(max(8, 1.4 * len(subs) + 2), 4.8), dpi=110)
    width = 0.8 / max(len(methods), 1)
    cmap = plt.get_cmap("tab10")
    for i, m in enumerate(methods):
        xs = [j + (i - (len(methods) - 1) / 2) * width for j in range(len(subs))]
        ys = [100 * table.subtasks[s].get(m, 0.0) for s in subs]
        ax.bar(xs, ys, width, label=m, color=cmap(i % 10))
    pub = [PUBLISHED["FileGramOS"].get(s) for s in subs]
    ax.scatter([j for j, p in enumerate(pub) if p is not None], [p for p in pub if p is not None],
               marker="_", s=600, color="black", label="published FileGramOS", zorder=5)
    ax.set_xticks(range(len(subs)))
    ax.set_xticklabels(subs)
    ax.set_ylabel("accuracy (%)")
    ax.set_ylim(0, 105)
    ax.set_title(title)
    ax.legend(fontsize=7, ncol=3, loc="upper left", bbox_to_anchor=(0, -0.08))
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return True


def write_reports(out: Path, table: Table, info: ReportInfo, *, chart: bool = True) -> dict[str, Path]:
    out.mkdir(parents=True, exist_ok=True)
    paths = {"report": out / "report.md", "csv": out / "results.csv", "json": out / "results.json"}
    paths["report"].write_text(render_markdown(table, info), encoding="utf-8")
    write_csv(table, paths["csv"])
    paths["json"].write_text(json.dumps(results_json(table, info.answerer), indent=2) + "\n", encoding="utf-8")
    if chart and write_chart(table, out / "chart.png", info.title):
        paths["chart"] = out / "chart.png"
    return paths


def terminal_table(table: Table) -> str:
    subs = [s for s in SUBTASK_KEYS if s in table.subtasks]
    w = max([len(m) for m in table.methods] + [6])
    lines = [f"{'method':<{w}} " + " ".join(f"{s:>8}" for s in subs) + f" {'overall':>8}"]
    for m in table.methods:
        lines.append(f"{m:<{w}} " + " ".join(f"{pct(table.subtasks[s].get(m)):>8}" for s in subs)
                     + f" {pct(table.overall.get(m)):>8}")
    return "\n".join(lines)


def tier_agreement_section(checks: Sequence[tuple[str, str, str, str]]) -> str:
    """Where FileGramOS' tiers agree with the ground truth, per dimension: explains the
    sub-task numbers (every tier question rests on these calls)."""
    from collections import Counter

    if not checks:
        return ""
    rows = []
    for dim in "ABCDEF":
        cells = [dim]
        for level in ("user", "session"):
            xs = [(t, g) for lv, d, t, g in checks if lv == level and d == dim]
            if not xs:
                cells += ["-", "-"]
                continue
            ok = sum(1 for t, g in xs if t == g)
            wrong = Counter(f"{t}->{g}" for t, g in xs if t != g).most_common(2)
            cells += [f"{100 * ok / len(xs):.0f}% of {len(xs)}", ", ".join(f"{k} x{v}" for k, v in wrong) or "-"]
        rows.append(cells)
    lines = ["## FileGramOS tiers against the ground truth", "",
             "User level: the profile from all of a user's sessions (AttrRec contexts). Session level: "
             "one anonymous session, on its task's dimensions (BehavFP contexts). 'L->R x3' = truth L, "
             "memory said R, three times.", ""]
    lines += _md_table(["dim", "user agreement", "user confusions", "session agreement", "session confusions"], rows)
    return "\n".join(lines)
