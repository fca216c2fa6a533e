"""Production (B) and cross-modal output (F): what a person writes, how much, and where.

Scratch notes first, then charts and data extracts (visual-heavy people), the main document at
the length and structure of the person's production tier, and extra documents for the
comprehensive; the output folder's depth follows the organisation tier (C).
"""

from __future__ import annotations

import posixpath

from .planner import Planner
from .reading import revisit

_OUT_DIRS = {
    "en": {"top": {"understand": "notes", "create": "docs", "organize": "archive", "synthesize": "reports",
                   "iterate": "revisions", "maintain": "kb"},
           "levels": ["2025", "q1", "final", "v1"]},
    "zh": {"top": {"understand": "笔记", "create": "文档", "organize": "归档", "synthesize": "报告",
                   "iterate": "修订", "maintain": "知识库"},
           "levels": ["2025", "第一季度", "定稿", "v1"]},
}
_SCRATCH = {"en": ["scratch.md", "notes_tmp.txt", "draft_v0.md", "temp_outline.md", "todo_scratch.txt"],
            "zh": ["草稿.md", "临时笔记.txt", "draft_v0.md", "临时提纲.md", "scratch.txt"]}


def out_dir(planner: Planner) -> str:
    """Where the output goes. Nested organisers make 3-4 levels, adaptive ones 1-2, flat ones
    none. A session that does not act out C makes no folder: the output lands at the root, or
    now and then in a folder the workspace already has."""
    if not planner.acts("C"):
        existing = sorted(d for d in planner.dirs if "/" not in d)
        if existing and planner.rng.random() < 0.25:
            return planner.rng.choice(existing)
        return ""
    depth = {"L": 3 + (planner.rng.random() < planner.level("C", 0.3, 0.0, 0.0)),
             "M": 1 + (planner.rng.random() < planner.level("C", 0.9, 0.4, 0.0)),
             "R": 0}[planner.acted["C"]]
    if depth == 0:
        return ""
    conf = _OUT_DIRS[planner.lang]
    parts = [conf["top"][planner.task.type]] + conf["levels"][: depth - 1]
    return "/".join(parts)


def produce(planner: Planner) -> None:
    task = planner.task
    b_active = planner.acts("B")
    lines_target = planner.level("B", planner.rng.randint(210, 320), planner.rng.randint(80, 150), planner.rng.randint(18, 58))
    if not b_active and task.type in ("organize", "iterate", "maintain"):
        lines_target *= 0.5
    lines_target = planner.scaled(lines_target, 3)
    extra_docs = planner.count(planner.mix("B", planner.rng.uniform(1.8, 3.2), 0.15, 0.0))
    n_images = planner.count(planner.mix("F", planner.rng.uniform(1.2, 3.2), 0.1, 0.0))
    n_struct = planner.count(planner.mix("F", planner.rng.uniform(0.8, 2.0), 0.2, 0.0))
    n_tables = planner.count(planner.mix("F", 0.8, planner.rng.uniform(1.2, 3.0), 0.04))
    n_scratch = planner.count(planner.mix("E", planner.rng.uniform(1.2, 3.2), planner.rng.uniform(1, 2.4), planner.rng.uniform(0.8, 2.2))) \
        if planner.acts("E") else planner.count(0.25)
    revisits = planner.count(len(planner.read_paths) * planner.level("A", 0.42, 0.05, 0.03))
    outdir = out_dir(planner)
    planner.mkdir(outdir)
    # scratch notes first: people jot before they write
    for _ in range(n_scratch):
        cands = [n for n in _SCRATCH[planner.lang] if posixpath.join(outdir, n) not in planner.files]
        path = planner.free(posixpath.join(outdir if planner.rng.random() < 0.5 else "", planner.rng.choice(cands)))
        planner.add("write", len(planner.writer.scratch()) * 30, path=path, content=planner.writer.scratch().encode())
        planner.scratch.append(path)
    images: list[str] = []
    if n_images:
        figdir = posixpath.join(outdir, "figures" if planner.lang == "en" else "图表") \
            if planner.rng.random() < planner.mix("C", 0.95, 0.75, 0.0) else outdir
        planner.mkdir(figdir)
        from .media import make_chart_png

        for k in range(n_images):
            stem = "contact_sheet" if planner.task.theme in ("travel", "media", "pets") else "chart"
            p = planner.free(posixpath.join(figdir, planner.name(f"{stem}_{k + 1}", "png")))
            vals = [planner.rng.uniform(1, 10) for _ in range(planner.rng.randint(3, 8))]
            planner.add("write", 20_000, path=p, content=make_chart_png(vals, planner.rng))
            images.append(posixpath.relpath(p, outdir or "."))
    for k in range(n_struct):
        ext = planner.rng.choice(["csv", "csv", "json"])
        p = planner.free(posixpath.join(outdir, planner.name(f"data_extract_{k + 1}" if k else "data_extract", ext)))
        text = planner.writer.csv_extract(planner.scaled(planner.rng.randint(6, 20), 2))
        if ext == "json":
            import json

            rows = [dict(zip(["item", "metric", "value"], r.split(","), strict=False)) for r in text.splitlines()[1:]]
            text = json.dumps(rows, ensure_ascii=False, indent=1) + "\n"
        planner.add("write", 15_000, path=p, content=text.encode())
    style = planner.acted.get("B", "R")  # a session that does not act out B writes a short note
    title = planner.task.display_title(planner.lang)
    main = planner.free(posixpath.join(outdir, planner.name(planner.task.output_stem)))
    third = max(revisits // 2, 0)
    revisit(planner, third)
    body = planner.writer.document(title, style, int(lines_target), tables=n_tables, images=images,
                                table_rows=planner.scaled(planner.rng.randint(4, 10), 2))
    planner.add("write", min(len(body) * 40, 600_000), path=main, content=body.encode())
    planner.outputs.append(main)
    revisit(planner, revisits - third)
    for k in range(extra_docs):
        stem = ["appendix", "sources", "detailed_notes", "methodology"][k % 4]
        sub = outdir
        if planner.w["C"]["L"] > 0.5 and planner.rng.random() < 0.5:
            sub = posixpath.join(outdir, stem)
            planner.mkdir(sub)
        p = planner.free(posixpath.join(sub, planner.name(stem)))
        doc = planner.writer.document(stem.replace("_", " ").title(), style, planner.scaled(planner.rng.randint(70, 200), 3),
                                   tables=planner.count(n_tables / 2), table_rows=planner.scaled(6, 2))
        planner.add("write", min(len(doc) * 40, 400_000), path=p, content=doc.encode())
        planner.outputs.append(p)


def new_note(planner: Planner, round_no: int) -> None:
    """A round of incoming material: a new note written into the knowledge base."""
    folder = posixpath.dirname(planner.outputs[0]) if planner.outputs else ""
    stem = f"update_round_{round_no}"
    path = planner.free(posixpath.join(folder, planner.name(stem)))
    body = planner.writer.document(stem.replace("_", " ").title(), planner.acted.get("B", "R"),
                                planner.scaled(planner.rng.randint(20, 60), 3))
    planner.add("write", len(body) * 30, path=path, content=body.encode())
