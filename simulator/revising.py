"""Iteration (D): how a person revises what they wrote or were given.

Incremental revisers keep a backup and make many small edits over several passes, balanced
ones a few 10-30 line edits, bulk revisers rewrite the whole file (filegram.md table 2).
"""

from __future__ import annotations

import posixpath

from .planner import Planner
from .tracer import is_binary, text_of
from .writing import revise_block, revise_small, rewrite


def edit_targets(planner: Planner) -> list[str]:
    task = planner.task
    if task.type in ("iterate", "maintain") or task.id in ("T-14",):
        texts = [p for p in sorted(planner.files) if posixpath.splitext(p)[1] in (".md", ".txt", ".csv")
                 and p not in planner.scratch and not is_binary(planner.files[p])]
        k = {"T-09": 1, "T-13": 2, "T-19": 1}.get(task.id, planner.rng.randint(2, 4))
        prefer = [p for p in texts if p.endswith(".md")] + [p for p in texts if not p.endswith(".md")]
        return prefer[:k] or planner.outputs[:1]
    return planner.outputs[:1]


def iterate(planner: Planner, rounds: int = 1) -> None:
    active = planner.acts("D")
    targets = edit_targets(planner)
    for _ in range(rounds):
        for path in targets:
            if path not in planner.files:
                continue
            if not active:
                if planner.rng.random() < 0.35:
                    edit(planner, path, revise_small if planner.rng.random() < 0.5 else revise_block)
                continue
            if planner.rng.random() < planner.mix("D", 0.75, 0.15, 0.0):
                stem, ext = posixpath.splitext(path)
                bak = planner.rng.choice([f"{path}.bak", f"{stem}_backup{ext}", f"{stem}_v1{ext}"])
                if bak not in planner.files:
                    planner.add("cp", path=path, dest=bak)
            n_small = planner.count(planner.mix("D", planner.rng.uniform(3.5, 8), planner.rng.uniform(0, 1.2), 0))
            n_medium = planner.count(planner.mix("D", 0.4, planner.rng.uniform(1.8, 4), 0.25))
            n_over = planner.count(planner.mix("D", 0, 0.08, planner.rng.uniform(1, 2.2)))
            passes = ["s"] * n_small + ["m"] * n_medium
            planner.rng.shuffle(passes)
            for i, kind in enumerate(passes):
                if i and planner.rng.random() < planner.mix("D", 0.35, 0.15, 0.05):
                    planner.read(path)
                edit(planner, path, revise_small if kind == "s" else revise_block)
            for _ in range(n_over):
                text = text_of(planner.files[path]) or ""
                shrink = 0.6 if planner.task.id == "T-09" else 1.0
                new = rewrite(text, planner.rng, planner.writer, shrink=shrink)
                planner.add("write", min(len(new) * 30, 400_000), path=path, content=new.encode())


def edit(planner: Planner, path: str, how: object) -> None:
    text = text_of(planner.files[path]) or ""
    new = how(text, planner.rng, planner.writer)  # type: ignore[operator]
    if new != text:
        planner.add("edit", planner.rng.uniform(8_000, 60_000), path=path, content=new.encode())
