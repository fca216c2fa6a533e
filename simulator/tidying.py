"""Organisation (C) and curation (E): where a person puts files and what they throw away.

Nested organisers move inputs into an area/category/topic taxonomy, adaptive ones into one
category folder, flat ones leave them; messy workspaces are deduplicated first. Selective
curators delete their scratch notes and obsolete inputs, preservative ones keep everything.
"""

from __future__ import annotations

import posixpath

from filegram.vocab import category_folder

from .planner import Planner
from .tracer import text_of

_AREA = {"en": ["work", "personal", "reference"], "zh": ["工作", "个人", "参考"]}


def organise(planner: Planner) -> None:
    task = planner.task
    if task.id == "T-21" or task.layout == "messy":
        dedupe(planner)
    inputs = [p for p in sorted(planner.files) if p not in planner.outputs and p not in planner.scratch]
    if not planner.acts("C"):  # files stay where they are
        return
    if task.type == "organize":
        move_frac = min(1.0, planner.level("C", 0.9, 0.6, 0.06))
    elif inputs:
        move_frac = planner.level("C", 0.3, 0.12, 0.0)
    else:
        return
    lang = planner.lang
    for p in inputs:
        if planner.rng.random() >= move_frac:
            continue
        ext = posixpath.splitext(p)[1].lstrip(".")
        cat = category_folder(ext, lang) or "misc"
        tier = planner.acted["C"]
        if tier == "L":
            topic = planner.ws.world.topics[sum(map(ord, p)) % len(planner.ws.world.topics)]
            slug = topic if lang == "zh" else topic.replace(" ", "_")
            dest_dir = "/".join([_AREA[lang][sum(map(ord, cat)) % 2], cat, slug])
        elif tier == "M":
            dest_dir = cat if planner.rng.random() < 0.75 else f"{cat}/2025"
        else:
            dest_dir = ""
        dest = posixpath.join(dest_dir, posixpath.basename(p))
        if dest == p or dest in planner.files:
            continue
        planner.mkdir(dest_dir)
        planner.add("mv", path=p, dest=dest)
    if planner.acted["C"] == "R" and task.type == "organize":
        for p in planner.rng.sample(inputs, k=min(len(inputs), planner.count(planner.rng.uniform(0.5, 3)))):
            if p in planner.files and "_" in posixpath.basename(p):
                new = posixpath.join(posixpath.dirname(p), posixpath.basename(p).replace("_", "-"))
                if new not in planner.files:
                    planner.add("mv", path=p, dest=new)


def dedupe(planner: Planner) -> None:
    seen: dict[bytes, str] = {}
    for p in sorted(planner.files, key=lambda x: (len(x), x)):
        d = planner.files[p]
        if d in seen:
            if planner.rng.random() < 0.85:
                if planner.rng.random() < 0.5:
                    planner.read(p, (1, 10) if text_of(d) is not None else None)
                planner.add("rm", path=p)
        else:
            seen[d] = p


def curate(planner: Planner) -> None:
    """Scratch notes go at the rate of the person's curation habit: the tier acted out when the
    task activates E, otherwise their own habit diluted by the task's indifference (a person
    who never deletes does not start because the task is about something else). Obsolete
    inputs go only when the session acts out E."""
    active = planner.acts("E")
    for p in list(planner.scratch):
        if p in planner.files and planner.rng.random() < planner.mix("E", 0.95, 0.5, 0.0):
            planner.add("rm", path=p)
    if active:
        obsolete = [p for p in sorted(planner.files) if p in planner.ws.files and p not in planner.outputs]
        k = planner.count(planner.mix("E", planner.rng.uniform(1, 3.5), planner.rng.uniform(0, 1.2), 0.0))
        for p in planner.rng.sample(obsolete, k=min(k, len(obsolete))):
            planner.add("rm", path=p)
