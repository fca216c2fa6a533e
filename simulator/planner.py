"""The planner's model of one person on one task: traits, the workspace as it changes, and
the primitive steps (read, write, mkdir, ...) every behaviour is made of.

Each dimension's tier becomes a continuous trait (L=0, M=1, R=2) moved by a personal offset, by
per-trajectory noise and, rarely, by an out-of-character slip; the trait is turned into weights
over the three tier behaviours (triangular kernels), and every policy parameter is the weighted
mix of its L/M/R values (`Planner.mix`). Dimensions the task does not activate act out a
task-driven default with only a faint trace of the persona. Pauses are human-like: log-normal
thinking time plus time proportional to what was read or written.
"""

from __future__ import annotations

import hashlib
import math
import posixpath
import random

from filegram.vocab import TIER_POSITION

from .perturb import perturbation_for
from .plan import Step
from .profiles import DIMENSIONS, Profile
from .tasks import Task
from .tracer import text_of
from .workspace import build_workspace
from .writing import Writer, facts_from

PERSONAL_SD = 0.15  # the same tier sits a little differently in different people
TRAJECTORY_SD = 0.28  # day-to-day variation
SLIP_PROB = 0.07  # out-of-character trajectory on one dimension
SLIP_SIZE = 0.7
INACTIVE_PERSONA_SHARE = 0.3  # how much of the persona leaks into inactive dimensions
# What a task asks for on a dimension it does not activate (L, M, R weights): read some,
# write a medium note, put it one folder down or at the root, no cleanup, text only.
NEUTRAL = {"A": (0.4, 0.2, 0.4), "B": (0.2, 0.6, 0.2), "C": (0.1, 0.4, 0.5), "D": (0.1, 0.5, 0.4),
           "E": (0.0, 0.2, 0.8), "F": (0.05, 0.15, 0.8)}
BASE_EPOCH_MS = 1_740_000_000_000.0  # Feb 2025


def stable_seed(*parts: object) -> int:
    """A seed that is the same in every process (Python's hash is salted)."""
    return int(hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:16], 16)


def tier_weights(trait: float) -> dict[str, float]:
    """Weights of the three tier behaviours for a trait: triangular kernels on the tier axis."""
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


class Planner:
    """Builds one plan while keeping a model of the workspace, so edits start from real content.
    The behaviours (reading, producing, tidying, revising) act through it."""

    def __init__(self, profile: Profile, task: Task, seed: int):
        self.profile, self.task, self.seed = profile, task, seed
        self.lang = profile.language
        self.rng = random.Random(stable_seed("plan", profile.id, task.id, seed))
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
        personal = random.Random(stable_seed("personal", profile.id))
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
        self.writer = Writer(self.ws.world, random.Random(stable_seed("text", profile.id, task.id, seed)), self.facts)

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

    def match(self, step: Step) -> list[str]:
        import fnmatch

        if step.op == "grep":
            out = [p for p, d in self.files.items() if (t := text_of(d)) is not None and step.query.lower() in t.lower()]
        else:
            out = [p for p in self.files if fnmatch.fnmatch(posixpath.basename(p), step.query)]
        return sorted(out)
