"""Behaviour policies: how one persona works through one task, as a stochastic plan.

Each dimension's tier becomes a continuous trait (L=0, M=1, R=2) moved by a personal offset, by
per-trajectory noise and, rarely, by an out-of-character slip; the trait is turned into weights
over the three tier behaviours (triangular kernels), and every policy parameter is the weighted
mix of its L/M/R values. Dimensions the task does not activate act out a task-driven default
with only a faint trace of the persona. Pauses are human-like: log-normal thinking time plus
time proportional to what was read or written. See docs/simulator.md for the tables.
"""

from __future__ import annotations

import hashlib
import math
import posixpath
import random

from filegram.vocab import TIER_POSITION, category_folder

from .perturb import perturbation_for
from .plan import Plan, Step
from .profiles import DIMENSIONS, PROFILES, Profile
from .tasks import TASKS, Task
from .tracer import is_binary, text_of
from .workspace import build_workspace
from .writing import Writer, facts_from, revise_block, revise_small, rewrite

PERSONAL_SD = 0.15  # the same tier sits a little differently in different people
TRAJECTORY_SD = 0.28  # day-to-day variation
SLIP_PROB = 0.07  # out-of-character trajectory on one dimension
SLIP_SIZE = 0.7
STRAY_PROB = 0.15  # a single out-of-habit action while reading
INACTIVE_PERSONA_SHARE = 0.3  # how much of the persona leaks into inactive dimensions
# What a task asks for on a dimension it does not activate (L, M, R weights): read some,
# write a medium note, put it one folder down or at the root, no cleanup, text only.
NEUTRAL = {"A": (0.4, 0.2, 0.4), "B": (0.2, 0.6, 0.2), "C": (0.1, 0.4, 0.5), "D": (0.1, 0.5, 0.4),
           "E": (0.0, 0.2, 0.8), "F": (0.05, 0.15, 0.8)}
BASE_EPOCH_MS = 1_740_000_000_000.0  # Feb 2025


def _seed(*parts: object) -> int:
    return int(hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:16], 16)


def tier_weights(trait: float) -> dict[str, float]:
    w = {k: max(0.0, 1.0 - abs(trait - c)) for k, c in TIER_POSITION.items()}
    s = sum(w.values()) or 1.0
    return {k: v / s for k, v in w.items()}


def _style_name(stem: str, style: str) -> str:
    words = stem.split("_")
    if style == "kebab":
        return "-".join(words)
    if style == "title":
        return " ".join(w.capitalize() for w in words)
    if style == "camel":
        return words[0] + "".join(w.capitalize() for w in words[1:])
    return stem


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
_AREA = {"en": ["work", "personal", "reference"], "zh": ["工作", "个人", "参考"]}


class Planner:
    """Builds one plan while keeping a model of the workspace, so edits start from real content."""

    def __init__(self, profile: Profile, task: Task, seed: int):
        self.profile, self.task, self.seed = profile, task, seed
        self.lang = profile.language
        self.rng = random.Random(_seed("plan", profile.id, task.id, seed))
        self.ws = build_workspace(task.id, seed, self.lang)
        self.files: dict[str, bytes] = dict(self.ws.files)
        self.dirs: set[str] = set(self.ws.dirs)
        self.steps: list[Step] = []
        self.facts: list[str] = []
        self.read_paths: list[str] = []
        self.outputs: list[str] = []
        self.scratch: list[str] = []
        self.pert = perturbation_for(profile.id).get(task.id)
        self.tiers = dict(profile.tiers)
        if self.pert:
            for dim, shift in self.pert.items():
                self.tiers[dim] = shift["perturbed"]
        self.traits: dict[str, float] = {}
        self.w: dict[str, dict[str, float]] = {}
        personal = random.Random(_seed("personal", profile.id))
        for dim in DIMENSIONS:
            t = TIER_POSITION[self.tiers[dim]] + personal.gauss(0, PERSONAL_SD) + self.rng.gauss(0, TRAJECTORY_SD)
            if self.rng.random() < SLIP_PROB:
                t += self.rng.choice([-SLIP_SIZE, SLIP_SIZE])
            t = min(max(t, -0.3), 2.3)
            self.traits[dim] = round(t, 3)
            w = tier_weights(t)
            if dim not in task.dims:
                neutral = dict(zip("LMR", NEUTRAL[dim], strict=True))
                w = {k: INACTIVE_PERSONA_SHARE * v + (1 - INACTIVE_PERSONA_SHARE) * neutral[k] for k, v in w.items()}
            self.w[dim] = w
        self.writer = Writer(self.ws.world, random.Random(_seed("text", profile.id, task.id, seed)), self.facts)

    # --- small helpers -----------------------------------------------------------------
    def mix(self, dim: str, L: float, M: float, R: float) -> float:  # noqa: N803
        w = self.w[dim]
        return w["L"] * L + w["M"] * M + w["R"] * R

    def count(self, x: float) -> int:
        """Probabilistic rounding: 1.3 becomes 1 or 2, 0.2 is usually 0."""
        x = max(x, 0.0)
        return int(x) + (self.rng.random() < x - int(x))

    def tier_draw(self, dim: str) -> str:
        r, acc = self.rng.random(), 0.0
        for k, v in self.w[dim].items():
            acc += v
            if r <= acc:
                return k
        return "R"

    def think(self, mean_s: float = 4.0) -> float:
        return round(1000 * mean_s * math.exp(self.rng.gauss(0, 0.6)) / math.exp(0.18), 1)

    def add(self, op: str, extra_ms: float = 0.0, **kw: object) -> Step:
        step = Step(op=op, pause_ms=round(self.think(2.5 if op in ("ls", "mkdir", "mv", "cp", "rm") else 4.0)
                                          + extra_ms, 1), **kw)  # type: ignore[arg-type]
        self._apply(step)
        self.steps.append(step)
        return step

    def _apply(self, s: Step) -> None:
        if s.op in ("write", "edit"):
            self.files[s.path] = s.content or b""
        elif s.op == "mkdir":
            parts = s.path.split("/")
            for i in range(1, len(parts) + 1):
                self.dirs.add("/".join(parts[:i]))
        elif s.op == "mv":
            self.files[s.dest] = self.files.pop(s.path)
        elif s.op == "cp":
            self.files[s.dest] = self.files[s.path]
        elif s.op == "rm":
            self.files.pop(s.path, None)

    def name(self, stem: str, ext: str = "md") -> str:
        return f"{_style_name(stem, self.profile.naming_style)}.{ext}"

    def free(self, path: str) -> str:
        stem, ext = posixpath.splitext(path)
        k = 2
        while path in self.files or path in self.dirs:
            path = f"{stem}_{k}{ext}"
            k += 1
        return path

    def mkdir(self, d: str) -> None:
        if d and d not in self.dirs:
            self.add("mkdir", path=d)

    # --- reading -----------------------------------------------------------------------
    def read(self, path: str, view_range: tuple[int, int] | None = None) -> None:
        data = self.files[path]
        text = text_of(data)
        if text is not None:
            lines = text.splitlines()
            first, last = view_range or (1, max(len(lines), 1))
            chunk = "\n".join(lines[first - 1:last])
            self.facts.extend(f for f in facts_from(chunk) if f not in self.facts[-200:])
            pause = min(len(chunk) * 25, 90_000)
        else:
            pause = self.rng.uniform(4000, 20000)
        self.add("read", pause, path=path, view_range=view_range)
        if path not in self.read_paths:
            self.read_paths.append(path)

    def ranged(self, path: str, query: str | None = None) -> tuple[int, int] | None:
        text = text_of(self.files[path])
        if text is None:
            return None
        lines = text.splitlines()
        hit = next((i for i, line in enumerate(lines) if query and query.lower() in line.lower()), None)
        centre = hit if hit is not None else self.rng.randint(0, max(len(lines) - 1, 0))
        first = max(1, centre + 1 - self.rng.randint(2, 8))
        return first, max(first, min(len(lines), centre + 1 + self.rng.randint(5, 20)))

    def consume(self) -> None:
        if not self.files:
            return
        task = self.task
        organising = task.type == "organize"
        self.add("ls", path="")
        inputs = sorted(self.files)
        dirs = sorted(self.dirs, key=lambda d: (d.count("/"), d))
        browse_frac = self.mix("A", 0.12, 0.15, 0.95) + (0.35 if organising else 0.0)
        extra_browse = self.count(self.mix("A", 0.2, 0.5, 2.6) + self.rng.gauss(0, 0.5))
        n_search = self.count(self.mix("A", 0.25, 3.6, 0.4) + self.rng.gauss(0, 0.6) + 0.3 * (len(inputs) > 15))
        read_frac = self.mix("A", 0.92, 0.3, 0.75) * (0.6 if organising else 1.0)
        skim_p = self.mix("A", 0.04, 0.15, 0.85)
        # search-first: a few queries, each followed by reading some of what matched
        terms = self.search_terms()
        done: set[str] = set()
        for _ in range(n_search):
            kind, q = terms.pop(0) if terms else ("grep", self.rng.choice(self.ws.world.entities))
            step = self.add(kind, path="", query=q)
            matched = self.match(step)
            fresh = [p for p in matched if p not in done] or matched[:1]
            for p in fresh[: self.rng.randint(1, 3)]:
                self.read(p, self.ranged(p, q if kind == "grep" else None) if self.rng.random() < self.mix("A", 0.1, 0.8, 0.3) else None)
                done.add(p)
        # walk the folders, reading in order (deep readers) or skimming (browsers)
        for d in [""] + dirs:
            if d and self.rng.random() < browse_frac:
                self.add("ls", path=d)
            here = [p for p in inputs if posixpath.dirname(p) == d and p not in done]
            for p in here:
                if self.rng.random() >= read_frac:
                    continue
                if self.rng.random() < skim_p and text_of(self.files[p]) is not None:
                    self.read(p, (1, self.rng.randint(6, 22)))
                else:
                    self.read(p)
                done.add(p)
            if extra_browse and self.rng.random() < 0.4:
                self.add("ls", path=self.rng.choice([""] + dirs))
                extra_browse -= 1
        for _ in range(extra_browse):
            self.add("ls", path=self.rng.choice([""] + dirs))
        if self.rng.random() < STRAY_PROB:
            self.stray(dirs)

    def stray(self, dirs: list[str]) -> None:
        """One action out of the person's habit: a glance at a folder, a quick search, a reread."""
        kind = self.rng.choice(["ls", "grep", "reread"])
        if kind == "ls":
            self.add("ls", path=self.rng.choice([""] + dirs))
        elif kind == "grep":
            step = self.add("grep", path="", query=self.rng.choice(self.ws.world.entities))
            hits = self.match(step)
            if hits:
                self.read(self.rng.choice(hits))
        elif self.read_paths:
            p = self.rng.choice(self.read_paths)
            if p in self.files:
                self.read(p)

    def search_terms(self) -> list[tuple[str, str]]:
        w = self.ws.world
        terms: list[tuple[str, str]] = [("grep", e) for e in w.entities[:4]] + [("grep", t) for t in w.topics[:3]]
        exts = sorted({posixpath.splitext(p)[1] for p in self.files})
        terms += [("glob", f"*{e}") for e in exts[:3]] + [("find", f"*{exts[0]}")] if exts else []
        self.rng.shuffle(terms)
        return terms

    def match(self, step: Step) -> list[str]:
        import fnmatch

        if step.op == "grep":
            out = [p for p, d in self.files.items() if (t := text_of(d)) is not None and step.query.lower() in t.lower()]
        else:
            out = [p for p in self.files if fnmatch.fnmatch(posixpath.basename(p), step.query)]
        return sorted(out)

    def revisit(self, k: int) -> None:
        for p in self.rng.sample(self.read_paths, k=min(k, len(self.read_paths))):
            if p in self.files:
                self.read(p, self.ranged(p) if self.w["A"]["M"] > 0.5 else None)

    # --- producing ---------------------------------------------------------------------
    def out_dir(self) -> str:
        depth = round(self.mix("C", 3.3, 1.4, 0.05) + self.rng.gauss(0, 0.35))
        if self.task.type == "organize":
            depth = max(depth, 0)
        depth = max(0, min(depth, 5))
        if depth == 0:
            return ""
        conf = _OUT_DIRS[self.lang]
        parts = [conf["top"][self.task.type]] + conf["levels"][: depth - 1]
        return "/".join(parts)

    def produce(self) -> None:
        task = self.task
        b_active = "B" in task.dims
        lines_target = self.mix("B", self.rng.randint(210, 320), self.rng.randint(80, 150), self.rng.randint(18, 58))
        if not b_active and task.type in ("organize", "iterate", "maintain"):
            lines_target *= 0.5
        extra_docs = self.count(self.mix("B", self.rng.uniform(1.8, 3.2), 0.15, 0.0))
        n_images = self.count(self.mix("F", self.rng.uniform(1.2, 3.2), 0.1, 0.0))
        n_struct = self.count(self.mix("F", self.rng.uniform(0.8, 2.0), 0.2, 0.02))
        n_tables = self.count(self.mix("F", 0.8, self.rng.uniform(1.2, 3.0), 0.04))
        n_scratch = self.count(self.mix("E", self.rng.uniform(1.2, 3.2), self.rng.uniform(1, 2.4), self.rng.uniform(0.8, 2.2))) \
            if "E" in task.dims else self.count(0.25)
        revisits = self.count(len(self.read_paths) * self.mix("A", 0.42, 0.05, 0.03))
        outdir = self.out_dir()
        self.mkdir(outdir)
        # scratch notes first: people jot before they write
        for _ in range(n_scratch):
            cands = [n for n in _SCRATCH[self.lang] if posixpath.join(outdir, n) not in self.files]
            path = self.free(posixpath.join(outdir if self.rng.random() < 0.5 else "", self.rng.choice(cands)))
            self.add("write", len(self.writer.scratch()) * 30, path=path, content=self.writer.scratch().encode())
            self.scratch.append(path)
        images: list[str] = []
        if n_images:
            figdir = posixpath.join(outdir, "figures" if self.lang == "en" else "图表") \
                if self.rng.random() < self.mix("C", 0.95, 0.75, 0.1) else outdir
            self.mkdir(figdir)
            from .media import make_chart_png

            for k in range(n_images):
                stem = "contact_sheet" if self.task.theme in ("travel", "media", "pets") else "chart"
                p = self.free(posixpath.join(figdir, self.name(f"{stem}_{k + 1}", "png")))
                vals = [self.rng.uniform(1, 10) for _ in range(self.rng.randint(3, 8))]
                self.add("write", 20_000, path=p, content=make_chart_png(vals, self.rng))
                images.append(posixpath.relpath(p, outdir or "."))
        for k in range(n_struct):
            ext = self.rng.choice(["csv", "csv", "json"])
            p = self.free(posixpath.join(outdir, self.name(f"data_extract_{k + 1}" if k else "data_extract", ext)))
            text = self.writer.csv_extract(self.rng.randint(6, 20))
            if ext == "json":
                import json

                rows = [dict(zip(["item", "metric", "value"], r.split(","), strict=False)) for r in text.splitlines()[1:]]
                text = json.dumps(rows, ensure_ascii=False, indent=1) + "\n"
            self.add("write", 15_000, path=p, content=text.encode())
        style = self.tier_draw("B") if b_active else "M"
        title = self.task.display_title(self.lang)
        main = self.free(posixpath.join(outdir, self.name(self.task.output_stem)))
        third = max(revisits // 2, 0)
        self.revisit(third)
        body = self.writer.document(title, style, int(lines_target), tables=n_tables, images=images,
                                    table_rows=self.rng.randint(4, 10))
        self.add("write", min(len(body) * 40, 600_000), path=main, content=body.encode())
        self.outputs.append(main)
        self.revisit(revisits - third)
        for k in range(extra_docs):
            stem = ["appendix", "sources", "detailed_notes", "methodology"][k % 4]
            sub = outdir
            if self.w["C"]["L"] > 0.5 and self.rng.random() < 0.5:
                sub = posixpath.join(outdir, stem)
                self.mkdir(sub)
            p = self.free(posixpath.join(sub, self.name(stem)))
            doc = self.writer.document(stem.replace("_", " ").title(), style, self.rng.randint(70, 200),
                                       tables=self.count(n_tables / 2))
            self.add("write", min(len(doc) * 40, 400_000), path=p, content=doc.encode())
            self.outputs.append(p)

    # --- organising --------------------------------------------------------------------
    def organise(self) -> None:
        task = self.task
        if task.id == "T-21" or task.layout == "messy":
            self.dedupe()
        inputs = [p for p in sorted(self.files) if p not in self.outputs and p not in self.scratch]
        if task.type == "organize":
            move_frac = self.mix("C", 0.9, 0.6, 0.06)
        elif "C" in task.dims and inputs:
            move_frac = self.mix("C", 0.3, 0.12, 0.0)
        else:
            return
        lang = self.lang
        for p in inputs:
            if self.rng.random() >= move_frac:
                continue
            ext = posixpath.splitext(p)[1].lstrip(".")
            cat = category_folder(ext, lang) or "misc"
            tier = self.tier_draw("C")
            if tier == "L":
                topic = self.ws.world.topics[sum(map(ord, p)) % len(self.ws.world.topics)]
                slug = topic if lang == "zh" else topic.replace(" ", "_")
                dest_dir = "/".join([_AREA[lang][sum(map(ord, cat)) % 2], cat, slug])
            elif tier == "M":
                dest_dir = cat if self.rng.random() < 0.75 else f"{cat}/2025"
            else:
                dest_dir = ""
            dest = posixpath.join(dest_dir, posixpath.basename(p))
            if dest == p or dest in self.files:
                continue
            self.mkdir(dest_dir)
            self.add("mv", path=p, dest=dest)
        if self.w["C"]["R"] > 0.5 and task.type == "organize":
            for p in self.rng.sample(inputs, k=min(len(inputs), self.count(self.rng.uniform(0.5, 3)))):
                if p in self.files and "_" in posixpath.basename(p):
                    new = posixpath.join(posixpath.dirname(p), posixpath.basename(p).replace("_", "-"))
                    if new not in self.files:
                        self.add("mv", path=p, dest=new)

    def dedupe(self) -> None:
        seen: dict[bytes, str] = {}
        for p in sorted(self.files, key=lambda x: (len(x), x)):
            d = self.files[p]
            if d in seen:
                if self.rng.random() < 0.85:
                    if self.rng.random() < 0.5:
                        self.read(p, (1, 10) if text_of(d) is not None else None)
                    self.add("rm", path=p)
            else:
                seen[d] = p

    # --- iterating ---------------------------------------------------------------------
    def edit_targets(self) -> list[str]:
        task = self.task
        if task.type in ("iterate", "maintain") or task.id in ("T-14",):
            texts = [p for p in sorted(self.files) if posixpath.splitext(p)[1] in (".md", ".txt", ".csv")
                     and p not in self.scratch and not is_binary(self.files[p])]
            k = {"T-09": 1, "T-13": 2, "T-19": 1}.get(task.id, self.rng.randint(2, 4))
            prefer = [p for p in texts if p.endswith(".md")] + [p for p in texts if not p.endswith(".md")]
            return prefer[:k] or self.outputs[:1]
        return self.outputs[:1]

    def iterate(self, rounds: int = 1) -> None:
        active = "D" in self.task.dims
        targets = self.edit_targets()
        for _ in range(rounds):
            for path in targets:
                if path not in self.files:
                    continue
                if not active:
                    if self.rng.random() < 0.35:
                        self.edit(path, revise_small if self.rng.random() < 0.5 else revise_block)
                    continue
                if self.rng.random() < self.mix("D", 0.75, 0.15, 0.02):
                    stem, ext = posixpath.splitext(path)
                    bak = self.rng.choice([f"{path}.bak", f"{stem}_backup{ext}", f"{stem}_v1{ext}"])
                    if bak not in self.files:
                        self.add("cp", path=path, dest=bak)
                n_small = self.count(self.mix("D", self.rng.uniform(3.5, 8), self.rng.uniform(0, 1.2), 0))
                n_medium = self.count(self.mix("D", 0.4, self.rng.uniform(1.8, 4), 0.25))
                n_over = self.count(self.mix("D", 0, 0.08, self.rng.uniform(1, 2.2)))
                passes = ["s"] * n_small + ["m"] * n_medium
                self.rng.shuffle(passes)
                for i, kind in enumerate(passes):
                    if i and self.rng.random() < self.mix("D", 0.35, 0.15, 0.05):
                        self.read(path)
                    self.edit(path, revise_small if kind == "s" else revise_block)
                for _ in range(n_over):
                    text = text_of(self.files[path]) or ""
                    shrink = 0.6 if self.task.id == "T-09" else 1.0
                    new = rewrite(text, self.rng, self.writer, shrink=shrink)
                    self.add("write", min(len(new) * 30, 400_000), path=path, content=new.encode())

    def new_note(self, round_no: int) -> None:
        """A round of incoming material: a new note written into the knowledge base."""
        folder = posixpath.dirname(self.outputs[0]) if self.outputs else ""
        stem = f"update_round_{round_no}"
        path = self.free(posixpath.join(folder, self.name(stem)))
        body = self.writer.document(stem.replace("_", " ").title(), self.tier_draw("B"),
                                    self.rng.randint(20, 60))
        self.add("write", len(body) * 30, path=path, content=body.encode())

    def edit(self, path: str, how: object) -> None:
        text = text_of(self.files[path]) or ""
        new = how(text, self.rng, self.writer)  # type: ignore[operator]
        if new != text:
            self.add("edit", self.rng.uniform(8_000, 60_000), path=path, content=new.encode())

    # --- curating ----------------------------------------------------------------------
    def curate(self) -> None:
        active = "E" in self.task.dims
        for p in list(self.scratch):
            if p in self.files and self.rng.random() < (self.mix("E", 0.95, 0.5, 0.03) if active else 0.3):
                self.add("rm", path=p)
        if active:
            obsolete = [p for p in sorted(self.files) if p in self.ws.files and p not in self.outputs]
            k = self.count(self.mix("E", self.rng.uniform(1, 3.5), self.rng.uniform(0, 1.2), 0.0))
            for p in self.rng.sample(obsolete, k=min(k, len(obsolete))):
                self.add("rm", path=p)

    # --- the whole task ----------------------------------------------------------------
    def build(self) -> Plan:
        t = self.task
        self.consume()
        if t.type == "organize":
            self.organise()
            self.produce()
        elif t.type in ("iterate", "maintain"):
            if "B" in t.dims or t.type == "maintain" or self.rng.random() < 0.5:
                self.produce()
            self.organise()
            if t.id == "T-18":  # three rounds: new material arrives, the base is updated each time
                for k in range(1, 4):
                    self.new_note(k)
                    self.iterate(1)
            else:
                self.iterate(1)
        else:
            self.produce()
            self.organise()
            self.iterate()
        self.curate()
        if self.rng.random() < self.mix("A", 0.2, 0.2, 0.6):
            self.add("ls", path="")
        start = BASE_EPOCH_MS + (int(t.id[2:]) * 86_400_000) + _seed(self.profile.id, self.seed) % 3_600_000
        return Plan(self.profile.id, t.id, self.seed, self.lang, self.tiers, self.pert, float(start),
                    self.steps, self.traits)


def plan_trajectory(profile: str | Profile, task: str | Task, seed: int = 0) -> Plan:
    """One persona's plan for one task; the same arguments always give the same plan."""
    from filegram.errors import FileGramError

    try:
        p = PROFILES[profile] if isinstance(profile, str) else profile
        t = TASKS[task] if isinstance(task, str) else task
    except KeyError as exc:
        raise FileGramError(f"unknown profile or task {exc.args[0]!r}") from None
    return Planner(p, t, int(seed)).build()
