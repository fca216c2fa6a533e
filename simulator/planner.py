"""The planner's model of one person on one task: the tiers the session acts out, the workspace
as it changes, and the primitive steps (read, write, mkdir, ...) every behaviour is made of.

On each dimension the task activates, the session acts out one whole tier: the persona's own
(or the perturbed one), and in about one (session, dimension) pair in ten (`SLIP_PROB`) an
adjacent tier instead. Tiers are not blended: a "text only" person does not write a table
because a Gaussian nudged them towards "balanced". What varies within a tier is magnitude
(`Planner.level`: how long, how many, how much), by a small personal offset and a small
day-to-day one. Dimensions the task does not activate show no signature of their own
(`INACTIVE`): a short note, files left where they are, text only, no cleanup beyond the
persona's habit; reading (A) and revising (D) keep a task-driven neutral mix with a trace of
the persona. Two knobs serve the robustness benchmark: `scale` multiplies verbosity and
activity (lengths written, lines changed per edit, how much is read) without changing what
kind of thing a person does, and `expression` is the probability that a session acts out
an active dimension at all. Pauses are human-like: log-normal thinking time plus time
proportional to what was read or written.
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

PERSONAL_SD = 0.08  # the same tier sits a little differently in different people (magnitudes)
TRAJECTORY_SD = 0.12  # day-to-day variation of magnitudes within the tier
WITHIN_TIER_MAX = 0.45  # magnitudes never cross half-way to the next tier's
SLIP_PROB = 0.10  # a session acts out an adjacent tier on one active dimension
INACTIVE_PERSONA_SHARE = 0.3  # how much of the persona shows on an inactive A, D or E
# What a person does on a dimension the task does not activate (L, M, R weights). A and D keep
# a task-driven neutral (read some; the odd touch-up); the others show no signature of their
# own: a short note (B), nothing moved or nested (C), no cleanup (E, plus the persona's habit),
# text only (F).
NEUTRAL = {"A": (0.4, 0.2, 0.4), "B": (0.0, 0.0, 1.0), "C": (0.0, 0.0, 1.0), "D": (0.1, 0.5, 0.4),
           "E": (0.0, 0.0, 1.0), "F": (0.0, 0.0, 1.0)}
PERSONA_LEAKS = ("A", "D", "E")  # inactive dimensions where the persona's habit still shows a little
BASE_EPOCH_MS = 1_740_000_000_000.0  # Feb 2025


def stable_seed(*parts: object) -> int:
    """A seed that is the same in every process (Python's hash is salted)."""
    return int(hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:16], 16)


def tier_weights(trait: float) -> dict[str, float]:
    """Weights of the three tier behaviours for a trait: triangular kernels on the tier axis."""
    w = {k: max(0.0, 1.0 - abs(trait - c)) for k, c in TIER_POSITION.items()}
    s = sum(w.values()) or 1.0
    return {k: v / s for k, v in w.items()}


def adjacent_tier(tier: str, rng: random.Random) -> str:
    """A one-tier slip: L and R slip to M, M to L or R."""
    return "M" if tier != "M" else rng.choice(["L", "R"])


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

    def __init__(self, profile: Profile, task: Task, seed: int, *, scale: float = 1.0, expression: float = 1.0):
        self.profile, self.task, self.seed = profile, task, seed
        self.scale, self.expression = float(scale), float(expression)
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
        self.acted: dict[str, str] = {}  # dimension -> the tier this session acts out (active ones)
        self.offsets: dict[str, float] = {}  # dimension -> within-tier magnitude offset
        self.traits: dict[str, float] = {}  # dimension -> position on the tier axis (tier + offset)
        self.w: dict[str, dict[str, float]] = {}
        personal = random.Random(stable_seed("personal", profile.id))
        for dim in DIMENSIONS:
            offset = personal.gauss(0, PERSONAL_SD) + self.rng.gauss(0, TRAJECTORY_SD)
            offset = min(max(offset, -WITHIN_TIER_MAX), WITHIN_TIER_MAX)
            tier = self.tiers[dim]
            if dim in task.dims and self._expressed(dim):
                side = random.Random(stable_seed("slip", profile.id, task.id, seed, dim))
                if not (self.pert and dim in self.pert) and side.random() < SLIP_PROB:
                    tier = adjacent_tier(tier, side)
                self.acted[dim] = tier
                w = {k: float(k == tier) for k in "LMR"}
            else:
                neutral = dict(zip("LMR", NEUTRAL[dim], strict=True))
                share = INACTIVE_PERSONA_SHARE if dim in PERSONA_LEAKS else 0.0
                w = {k: share * float(k == tier) + (1 - share) * neutral[k] for k in "LMR"}
            self.offsets[dim] = round(offset, 3)
            self.traits[dim] = round(TIER_POSITION[tier] + offset, 3)
            self.w[dim] = w
        self.writer = Writer(self.ws.world, random.Random(stable_seed("text", profile.id, task.id, seed)), self.facts,
                             scale=self.scale)

    def _expressed(self, dim: str) -> bool:
        """Whether this session acts out its tier on an active dimension (probability
        `expression`, seeded per profile, task, seed and dimension; a perturbed dimension is
        always acted out: the perturbation record says the session did)."""
        if self.expression >= 1.0 or (self.pert and dim in self.pert):
            return True
        return random.Random(stable_seed("express", self.profile.id, self.task.id, self.seed, dim)).random() < self.expression

    def acts(self, dim: str) -> bool:
        """True when this session acts out its tier on `dim` (active in the task and expressed)."""
        return dim in self.acted

    def mix(self, dim: str, L: float, M: float, R: float) -> float:  # noqa: N803
        """A parameter of the tier acted out (inactive dimensions: their neutral weights)."""
        w = self.w[dim]
        return w["L"] * L + w["M"] * M + w["R"] * R

    def level(self, dim: str, L: float, M: float, R: float) -> float:  # noqa: N803
        """A magnitude (how long, how many, how much) of the tier acted out, moved within the
        tier by the session's offset: towards the neighbouring tier's value, never past half
        way. On an inactive dimension it is `mix`."""
        if dim not in self.acted:
            return self.mix(dim, L, M, R)
        values = {"L": L, "M": M, "R": R}
        pos = TIER_POSITION[self.acted[dim]]
        off = self.offsets[dim]
        here = values[self.acted[dim]]
        step = 1 if off > 0 else -1
        nxt = next((k for k, c in TIER_POSITION.items() if c == pos + step), None)
        if nxt is None:  # beyond the end of the axis: away from the inner neighbour, half as far
            inner = next(k for k, c in TIER_POSITION.items() if c == pos - step)
            return max(here + abs(off) * 0.5 * (here - values[inner]), 0.0)
        return here + abs(off) * (values[nxt] - here)

    def scaled(self, x: float, floor: int = 1) -> int:
        """A length or count multiplied by the person's scale, at least `floor`."""
        return max(floor, round(x * self.scale))

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
        first = max(1, centre + 1 - self.scaled(self.rng.randint(2, 8)))
        return first, max(first, min(len(lines), centre + 1 + self.scaled(self.rng.randint(5, 20))))

    def match(self, step: Step) -> list[str]:
        import fnmatch

        if step.op == "grep":
            out = [p for p, d in self.files.items() if (t := text_of(d)) is not None and step.query.lower() in t.lower()]
        else:
            out = [p for p in self.files if fnmatch.fnmatch(posixpath.basename(p), step.query)]
        return sorted(out)
