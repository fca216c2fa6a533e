"""FileGramOS as a bench method: filegram.memory over an in-memory store per context.

Memory's evidence is what it says about the user, rendered as text in its own words: for a
history, the profile (each dimension's description and confidence, the sessions it flagged
as drift with the tier they moved to) and, when the question names a session, that
session's own tiers; for single sessions, line-ups and interleaved pairs, each session's
tiers; plus the top-5 content chunks. The shared reader reads these lines like any other
text: no tier letters, scores or confidences are parsed out of them.

By default memory gets no task ids (real recordings have none); `task_ids=True`
(`bench run --with-task-ids`) passes the ids of known tasks, for comparison. The ablations
(filegramos-proc / -sem / -epi) drop one channel's evidence from the same memory build.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from filegram.config import Config
from filegram.vocab import TASKS as KNOWN_TASKS

from .context import Context, Method
from .questions import Question
from .truth import DIM_NAMES, dim_label

CONTENT_DIMS = ("B", "F")  # dimensions read from what was written (the semantic channel)
# A line-up candidate worth stating: a shift memory finds at least this likely.
LINEUP_MIN_POSTERIOR = 0.2


def _describe(dim: str, tier: Any, description: Any = None) -> str:
    """A tier in memory's own words (its profile's description, else its vocabulary)."""
    if tier not in ("L", "M", "R"):
        return "unknown"
    if isinstance(description, str) and description.strip():
        return description.strip()
    from filegram.memory import DIMENSIONS

    return DIMENSIONS[dim].tiers[tier]


def tier_line(dim: str, info: dict[str, Any]) -> str:
    """'C (Organization): flat (root only) (confidence 0.82)': one dimension as memory states it."""
    words = _describe(dim, info.get("tier"), info.get("description"))
    conf = info.get("confidence")
    conf_s = f" (confidence {float(conf):.2f})" if isinstance(conf, int | float) and words != "unknown" else ""
    return f"{dim_label(dim)}: {words}{conf_s}"


class FileGramOS(Method):
    """filegram.memory on an in-memory store per context; ablations drop one channel."""

    name = "filegramos"
    variants = ("filegramos", "filegramos-proc", "filegramos-sem", "filegramos-epi")

    variant_descriptions = {
        "filegramos-proc": "FileGramOS without the procedural channel: no tier statements for A, C, D, E "
                           "(action counts); content tiers, chunks and drift flags stay",
        "filegramos-sem": "FileGramOS without the semantic channel: no content chunks and no tier "
                          "statements for B, F (read from written content)",
        "filegramos-epi": "FileGramOS without the episodic channel: no drift flags",
        "filegramos-own": "FileGramOS answering with its own answerer (memory.ask), NOT the shared answerer: "
                          "for comparison only, excluded from the targets",
    }

    def __init__(self, config: Config | None = None, variants: Sequence[str] | None = None, *,
                 task_ids: bool = False):
        self.config = config or Config()
        if variants is not None:
            self.variants = tuple(variants)
        self.task_ids = task_ids
        self.store = None
        given = "task ids of known tasks given" if task_ids else "no task ids"
        self.description = (f"filegram.memory (FileGramOS) over an in-memory store of the input sessions ({given}, "
                            "never profile ids); evidence = its profile in its own words for a history (each "
                            "dimension's description and confidence, flagged drift with the tier it moved to) and "
                            "the named session's tiers, each session's tiers otherwise, and top-5 content chunks")

    def ingest(self, ctx: Context) -> None:
        from filegram.memory import Memory

        from filegram.store import Store

        self.close()
        self.ctx = ctx
        store = Store(":memory:")
        self.store = store
        self.sid: dict[str, str] = {}
        with store.transaction():
            for label, t in ctx.sessions:
                started = float(t.events[0]["timestamp"]) if t.events else 0.0
                task = t.task_id if self.task_ids and t.task_id in KNOWN_TASKS else None
                sid = store.open_session(source="bench", label=label, task_id=task, started_ms=started)
                self.sid[label] = sid
                store.add_actions([{**e, "session_id": sid, "profile_id": None} for e in t.events])
                for h, b in t.blobs.items():
                    store.put_blob(b, hash_=h)
                store.close_session(sid)
        self.mem = Memory(store, self.config)
        self.mem.consolidate()
        self._profile: dict[str, Any] | None = None

    def close(self) -> None:
        if self.store is not None:
            self.store.close()
            self.store = None

    def tiers_seen(self) -> dict[str, dict[str, str]]:
        """Tiers the memory settled on, for the agreement diagnostic: the user's profile for a
        history, each session's own tiers otherwise (label -> dim -> tier)."""
        if self.ctx.kind == "history":
            return {"": {d: v["tier"] for d, v in self.profile()["dimensions"].items()}}
        return {label: {d: t.get("tier") for d, t in self.mem.session_tiers(sid).items()}
                for label, sid in self.sid.items()}

    def profile(self) -> dict[str, Any]:
        if self._profile is None:
            self._profile = self.mem.profile()
        return self._profile

    # evidence sections by channel -------------------------------------------------------

    def _session_lines(self, label: str) -> list[str]:
        tag = f"[{label}] " if label.startswith("U") else ""
        return [tag + tier_line(dim, t) for dim, t in self.mem.session_tiers(self.sid[label]).items()
                if t.get("tier") in ("L", "M", "R")]

    def _proc_lines(self, q: Question) -> list[str]:
        """Tier statements: the user's profile, or each session's own tiers."""
        out: list[str] = []
        if self.ctx.kind == "history":
            out.append("### user profile")
            out.extend(tier_line(dim, d) for dim, d in self.profile()["dimensions"].items())
            target = q.metadata.get("target")
            if target and target in self.sid:
                out.append(f"### {target}")
                out.extend(self._session_lines(target))
        else:
            for label, _ in self.ctx.sessions:
                if not label.startswith("U"):
                    out.append(f"### {label}")
                out.extend(self._session_lines(label))
        return out

    def _epi_lines(self, q: Question) -> list[str]:
        """The profile's drift flags on the sessions the question is about (a line-up's
        sessions, or the session it names): the session, and what it moved to in memory's
        words, under the session's own header. A question about the user as a whole gets
        none: an exception is not the habit."""
        out: list[str] = []
        labels = {sid: label for label, sid in self.sid.items()}
        target = q.metadata.get("target")
        if self.ctx.kind != "lineup" and not target:
            return out
        if self.ctx.kind == "lineup":
            return self._lineup_lines()
        for a in self.profile().get("anomalies") or []:
            label = labels.get(a.get("session")) or a.get("label")
            dim = a.get("dimension")
            if not label or dim not in DIM_NAMES or (self.ctx.kind != "lineup" and label != target):
                continue
            verdict = a.get("verdict") or "uncertain"
            out.append(f"### {label}")
            out.append(f"{label}: flagged as drift ({verdict})")
            if a.get("to") in ("L", "M", "R"):
                out.append(f"{dim_label(dim)}: {_describe(dim, a['to'])}")
        return out

    def _lineup_lines(self) -> list[str]:
        """In a line-up (five sessions of one person and one of someone else) memory's own
        candidate shifts of every session: what each session showed that the others rarely
        did, with how unusual memory finds it. A handful of sessions rarely reaches a flag,
        so the candidates are the evidence here."""
        out: list[str] = []
        for label, sid in self.sid.items():
            cands = [c for c in self.mem.session_shift(sid)
                     if c.get("to") in ("L", "M", "R") and float(c.get("posterior") or 0.0) >= LINEUP_MIN_POSTERIOR]
            if not cands:
                continue
            out.append(f"### {label}")
            for c in cands:
                out.append(f"{label}: unusual for this person on {dim_label(c['dimension'])}")
                out.append(f"{dim_label(c['dimension'])}: {_describe(c['dimension'], c['to'])}")
        return out

    def _sem_lines(self, q: Question) -> list[str]:
        try:
            hits = self.mem.search(q.question, k=5)
        except Exception:  # noqa: BLE001 - search is optional evidence
            return []
        out = []
        for h in hits:
            text = str(h.get("text") or h.get("chunk") or "")[:400]
            if text:
                out.append(f"content sample: {' '.join(text.split())}")
        return out

    def direct_answers(self, q: Question) -> dict[str, int | str]:
        if "filegramos-own" not in self.variants:
            return {}
        target = q.metadata.get("target")
        session = self.sid.get(target) if target else (
            next(iter(self.sid.values())) if self.ctx.kind in ("anonymous", "files", "screen") else None)
        ans = self.mem.ask(q.question, q.choices or None, session=session)
        if q.choices:
            return {"filegramos-own": ans.choice if ans.choice is not None else 0}
        return {"filegramos-own": ans.text}

    def evidence(self, q: Question) -> dict[str, str]:
        proc = self._proc_lines(q)
        sem = self._sem_lines(q)
        epi = self._epi_lines(q)
        content_dims = tuple(f"{d} ({DIM_NAMES[d]})" for d in CONTENT_DIMS)

        def is_content(line: str) -> bool:
            return any(cd in line for cd in content_dims)

        out = {}
        for v in self.names():
            if v == "filegramos-own":
                continue
            if v == "filegramos":
                lines = proc + epi + sem
            elif v == "filegramos-proc":
                lines = [ln for ln in proc if is_content(ln) or ln.startswith("###")] + epi + sem
            elif v == "filegramos-sem":
                lines = [ln for ln in proc if not is_content(ln)] + epi
            else:  # filegramos-epi
                lines = proc + sem
            out[v] = "\n".join(lines)
        return out
