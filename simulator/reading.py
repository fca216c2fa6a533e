"""Consumption (A): how a person takes in the workspace before and while working.

Deep readers open every file in order and come back to them, search-first readers grep and read
the passages that matched, browsers list folders and skim first lines (filegram.md table 2).
"""

from __future__ import annotations

import posixpath

from .planner import Planner
from .tracer import text_of

STRAY_PROB = 0.15  # a single out-of-habit action while reading


def consume(planner: Planner) -> None:
    if not planner.files:
        return
    task = planner.task
    organising = task.type == "organize"
    planner.add("ls", path="")
    inputs = sorted(planner.files)
    dirs = sorted(planner.dirs, key=lambda d: (d.count("/"), d))
    k = planner.scale  # a more active reader lists, searches and reads more (capped by what exists)
    browse_frac = min(1.0, planner.level("A", 0.12, 0.15, 0.95) * k) + (0.35 if organising else 0.0)
    extra_browse = planner.count((planner.level("A", 0.2, 0.5, 2.6) + planner.rng.gauss(0, 0.3)) * k)
    n_search = planner.count((planner.level("A", 0.25, 3.6, 0.4) + planner.rng.gauss(0, 0.4) + 0.3 * (len(inputs) > 15)) * k)
    read_frac = min(1.0, planner.level("A", 0.92, 0.3, 0.75) * k) * (0.6 if organising else 1.0)
    skim_p = planner.mix("A", 0.04, 0.15, 0.85)
    per_hit = max(1, round(3 * k))
    # search-first: a few queries, each followed by reading some of what matched
    terms = search_terms(planner)
    done: set[str] = set()
    for _ in range(n_search):
        kind, q = terms.pop(0) if terms else ("grep", planner.rng.choice(planner.ws.world.entities))
        step = planner.add(kind, path="", query=q)
        matched = planner.match(step)
        fresh = [p for p in matched if p not in done] or matched[:1]
        for p in fresh[: planner.rng.randint(1, per_hit)]:
            planner.read(p, planner.ranged(p, q if kind == "grep" else None) if planner.rng.random() < planner.mix("A", 0.1, 0.8, 0.3) else None)
            done.add(p)
    # walk the folders, reading in order (deep readers) or skimming (browsers)
    for d in [""] + dirs:
        if d and planner.rng.random() < browse_frac:
            planner.add("ls", path=d)
        here = [p for p in inputs if posixpath.dirname(p) == d and p not in done]
        for p in here:
            if planner.rng.random() >= read_frac:
                continue
            if planner.rng.random() < skim_p and text_of(planner.files[p]) is not None:
                planner.read(p, (1, planner.scaled(planner.rng.randint(6, 22), 2)))
            else:
                planner.read(p)
            done.add(p)
        if extra_browse and planner.rng.random() < 0.4:
            planner.add("ls", path=planner.rng.choice([""] + dirs))
            extra_browse -= 1
    for _ in range(extra_browse):
        planner.add("ls", path=planner.rng.choice([""] + dirs))
    if planner.rng.random() < STRAY_PROB:
        stray(planner, dirs)


def stray(planner: Planner, dirs: list[str]) -> None:
    """One action out of the person's habit: a glance at a folder, a quick search, a reread."""
    kind = planner.rng.choice(["ls", "grep", "reread"])
    if kind == "ls":
        planner.add("ls", path=planner.rng.choice([""] + dirs))
    elif kind == "grep":
        step = planner.add("grep", path="", query=planner.rng.choice(planner.ws.world.entities))
        hits = planner.match(step)
        if hits:
            planner.read(planner.rng.choice(hits))
    elif planner.read_paths:
        p = planner.rng.choice(planner.read_paths)
        if p in planner.files:
            planner.read(p)


def search_terms(planner: Planner) -> list[tuple[str, str]]:
    w = planner.ws.world
    terms: list[tuple[str, str]] = [("grep", e) for e in w.entities[:4]] + [("grep", t) for t in w.topics[:3]]
    exts = sorted({posixpath.splitext(p)[1] for p in planner.files})
    terms += [("glob", f"*{e}") for e in exts[:3]] + [("find", f"*{exts[0]}")] if exts else []
    planner.rng.shuffle(terms)
    return terms


def revisit(planner: Planner, k: int) -> None:
    for p in planner.rng.sample(planner.read_paths, k=min(k, len(planner.read_paths))):
        if p in planner.files:
            planner.read(p, planner.ranged(p) if planner.w["A"]["M"] > 0.5 else None)
