"""Synthetic sessions for memory's tests and benchmarks (not the simulator).

A small generator that acts out table 2's tier definitions as FileGram events, with text
snapshots, so memory can be exercised end to end without the simulator package. It is
deliberately simple; the simulator is the realistic source.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Mapping
from typing import Any

from filegram.store import Store, content_hash

from .dimensions import task_info


class _Session:
    def __init__(self, session_id: str, start_ms: float, rng: random.Random):
        self.sid, self.t, self.rng = session_id, start_ms, rng
        self.events: list[dict[str, Any]] = []
        self.blobs: dict[str, bytes] = {}
        self.read_counts: dict[str, int] = {}

    def add(self, etype: str, **fields: Any) -> dict[str, Any]:
        self.t += self.rng.uniform(2_000, 20_000)
        ev = {"event_id": str(uuid.UUID(int=self.rng.getrandbits(128))), "event_type": etype, "timestamp": round(self.t, 3),
              "session_id": self.sid, "profile_id": None, "message_id": None, "model_provider": None, "model_name": None}
        ev.update(fields)
        self.events.append(ev)
        return ev

    def blob(self, text: str) -> dict[str, str]:
        data = text.encode("utf-8")
        h = content_hash(data)
        self.blobs[h] = data
        return {"type": "blob", "hash": h, "path": f"media/blobs/{h}.blob"}

    def read(self, path: str, view_range: list[int] | None = None) -> None:
        n = self.read_counts.get(path, 0) + 1
        self.read_counts[path] = n
        self.add("file_read", file_path=path, file_type=path.rsplit(".", 1)[-1], directory_depth=path.count("/"),
                 view_count=n, view_range=view_range, content_length=self.rng.randint(800, 6000),
                 revisit_interval_ms=(self.rng.uniform(10_000, 90_000) if n > 1 else None))

    def write(self, path: str, text: str, op: str = "create") -> None:
        self.add("file_write", file_path=path, file_type=path.rsplit(".", 1)[-1] if "." in path else "",
                 directory_depth=path.count("/"), operation=op, content_length=len(text),
                 before_hash=None, after_hash=None, media_ref=self.blob(text))


WORDS = ("budget revenue client schedule risk audit policy timeline summary vendor contract market "
         "growth review finding action owner deadline quality inventory supplier forecast meeting").split()


def _doc(rng: random.Random, lines: int, heading_depth: int, bullets: bool, table: bool) -> str:
    out = ["# " + " ".join(rng.sample(WORDS, 3)).title()]
    while len(out) < lines:
        r = rng.random()
        if heading_depth >= 2 and r < 0.08:
            out.append("#" * rng.randint(2, heading_depth) + " " + " ".join(rng.sample(WORDS, 2)).title())
        elif bullets and r < 0.7:
            out.append("- " + " ".join(rng.sample(WORDS, 4)))
        elif table and r < 0.2:
            out.append("| " + " | ".join(rng.sample(WORDS, 3)) + " |")
        else:
            out.append(" ".join(rng.choices(WORDS, k=rng.randint(6, 14))).capitalize() + ".")
    return "\n".join(out[:lines]) + "\n"


def make_session(tiers: Mapping[str, str], task_id: str | None, *, seed: int = 0, session_id: str | None = None,
                 start_ms: float = 1.7e12) -> tuple[list[dict[str, Any]], dict[str, bytes]]:
    """Events and blobs of one session acting out `tiers` on the task's active dimensions."""
    rng = random.Random(seed)
    sid = session_id or str(uuid.UUID(int=rng.getrandbits(128)))
    s = _Session(sid, start_ms, rng)
    task = task_info(task_id)
    active = set(task.dims) if task else set("ABCDEF")
    inputs = [f"input/{w}_{i}.md" for i, w in enumerate(rng.sample(WORDS, 6))]

    # A: consumption
    a = tiers.get("A", "M") if "A" in active else "M"
    s.add("file_browse", directory_path=".", files_listed=8, depth=0)
    if a == "L":
        for p in inputs:
            s.read(p)
        for p in rng.sample(inputs, 3):
            s.read(p)
        for p, q in zip(inputs, inputs[1:], strict=False):
            s.add("cross_file_reference", source_file=p, target_file=q, reference_type="sequential_access", interval_ms=5000.0)
    elif a == "M":
        for _ in range(rng.randint(3, 5)):
            hits = rng.sample(inputs, 2)
            s.add("file_search", search_type=rng.choice(["grep", "glob"]), query=rng.choice(WORDS), files_matched=3,
                  files_opened_after=hits)
            for p in hits:
                start = rng.randint(20, 60)
                s.read(p, [start, start + 30])
    else:
        for d in ("input", "input/archive", "input/misc", "."):
            s.add("file_browse", directory_path=d, files_listed=rng.randint(4, 12), depth=d.count("/"))
        for p in rng.sample(inputs, 4):
            s.read(p, [1, 20])

    # C decides where things go
    c = tiers.get("C", "M") if "C" in active else "R"
    if c == "L":
        base = "work/reports/final"
        for k, d in enumerate(["work", "work/reports", "work/reports/final"]):
            s.add("dir_create", dir_path=d, depth=k + 1, sibling_count=0)
    elif c == "M":
        base = "notes"
        s.add("dir_create", dir_path="notes", depth=1, sibling_count=1)
    else:
        base = ""
    pre = f"{base}/" if base else ""

    # B: production
    b = tiers.get("B", "M") if "B" in active else "note"  # no deliverable asked for: a short note
    f = tiers.get("F", "R") if "F" in active else "R"
    n_files, lines, hd, bullets = {"L": (3, 90, 3, False), "M": (1, 110, 2, False), "R": (1, 40, 1, True),
                                   "note": (1, 22, 1, True)}[b]
    outs = []
    for k in range(n_files):
        path = f"{pre}{rng.choice(WORDS)}_report_{k}.md"
        s.write(path, _doc(rng, lines + rng.randint(-8, 8), hd, bullets, table=(f == "M")))
        outs.append(path)
    if f == "L":
        s.add("dir_create", dir_path=f"{pre}figures", depth=pre.count("/") + 1, sibling_count=0)
        s.write(f"{pre}figures/chart.png", "PNGDATA" * 20)
        s.write(f"{pre}data.csv", "a,b\n1,2\n3,4\n")
    if c == "L" and len(outs) > 0:
        s.add("file_move", old_path=outs[0], new_path=f"work/reports/{outs[0].rsplit('/', 1)[-1]}", destination_directory_depth=2)

    # D: iteration
    if "D" in active:
        d = tiers.get("D", "M")
        target = outs[-1]
        if d == "L":
            s.add("file_copy", source_path=target, dest_path=target.replace(".md", "_backup.md"), is_backup=True)
            for _ in range(rng.randint(4, 6)):
                a_, d_ = rng.randint(1, 4), rng.randint(0, 3)
                s.add("file_edit", file_path=target, file_type="md", edit_tool="edit", lines_added=a_, lines_deleted=d_,
                      lines_modified=0, diff_summary=f"+{a_} -{d_}")
        elif d == "M":
            for _ in range(rng.randint(2, 3)):
                a_, d_ = rng.randint(8, 15), rng.randint(4, 10)
                s.add("file_edit", file_path=target, file_type="md", edit_tool="edit", lines_added=a_, lines_deleted=d_,
                      lines_modified=0, diff_summary=f"+{a_} -{d_}")
        else:
            s.write(target, _doc(rng, lines, hd, bullets, False), op="overwrite")

    # E: curation
    if "E" in active:
        # scratch notes while working; L removes them all, M some, R keeps them
        e = tiers.get("E", "M")
        for k in range(2):
            s.write(f"{pre}tmp_scratch_{k}.md", "scratch\n")
        for k in range({"L": 2, "M": 1, "R": 0}[e]):
            s.add("file_delete", file_path=f"{pre}tmp_scratch_{k}.md", file_age_ms=30000.0, was_temporary=True)
        if e == "L":
            s.add("file_delete", file_path=inputs[0], file_age_ms=9e6, was_temporary=False)
    # switching between sources and outputs (the corpus's most frequent actions after reads)
    for k in range(rng.randint(11, 17)):
        src, dst = inputs[k % len(inputs)], outs[k % len(outs)]
        if k % 2:
            s.add("context_switch", from_file=src, to_file=dst, trigger="edit", switch_count=k + 1)
        else:
            s.add("cross_file_reference", source_file=src, target_file=dst, reference_type="read_then_edit",
                  interval_ms=rng.uniform(1000, 60000))
    return s.events, s.blobs


def store_session(store: Store, tiers: Mapping[str, str], task_id: str | None, *, seed: int, start_ms: float,
                  label: str | None = None, session_id: str | None = None) -> str:
    """Generate one session and put it (events and blobs) into a store, closed."""
    events, blobs = make_session(tiers, task_id, seed=seed, start_ms=start_ms, session_id=session_id)
    sid = events[0]["session_id"]
    store.open_session(sid, source="import", started_ms=start_ms, label=label, task_id=task_id)
    with store.transaction():
        for data in blobs.values():
            store.put_blob(data)
        store.add_actions(events)
    store.close_session(sid)
    return sid
