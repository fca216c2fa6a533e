"""FileGramOS as a bench method: filegram.memory over an in-memory store per context.

Its profile, per-session tiers, drift flags and shift attribution are rendered as statements,
plus the top-5 content chunks; the ablations (filegramos-proc / -sem / -epi) drop one
channel's evidence from the same memory build.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from filegram.config import Config

from .context import Context, Method
from .questions import Question
from .truth import DIM_NAMES, dim_label


def _tier_line(dim: str, t: dict[str, Any]) -> str | None:
    tier = t.get("tier")
    if tier not in ("L", "M", "R"):
        return None
    conf = t.get("confidence")
    conf_s = f" (confidence {float(conf):.2f})" if isinstance(conf, int | float) else ""
    why = t.get("evidence")
    why_s = f"; {why}" if isinstance(why, str) and why else ""
    return f"{dim_label(dim)}: {tier}{conf_s}{why_s}"


CONTENT_DIMS = ("B", "F")  # dimensions read from what was written (the semantic channel)


class FileGramOS(Method):
    """filegram.memory on an in-memory store per context; ablations drop one channel."""

    name = "filegramos"
    variants = ("filegramos", "filegramos-proc", "filegramos-sem", "filegramos-epi")
    description = ("filegram.memory (FileGramOS) over an in-memory store of the input sessions (task ids "
                   "given, never profile ids); evidence = its tiers (profile() for a history, session_tiers() "
                   "per session otherwise), ranked session_shift() candidates of a named session, each "
                   "line-up session's tier disagreement with the others, and top-5 content chunks (search())")

    variant_descriptions = {
        "filegramos-proc": "FileGramOS without the procedural channel: no tier statements for A, C, D, E "
                           "(action counts); content tiers, chunks, drift and shifts stay",
        "filegramos-sem": "FileGramOS without the semantic channel: no content chunks and no tier "
                          "statements for B, F (read from written content)",
        "filegramos-epi": "FileGramOS without the episodic channel: no drift flags, deviations or shift attribution",
        "filegramos-own": "FileGramOS answering with its own answerer (memory.ask), NOT the shared answerer: "
                          "for comparison only, excluded from the targets",
    }

    def __init__(self, config: Config | None = None, variants: Sequence[str] | None = None):
        self.config = config or Config()
        if variants is not None:
            self.variants = tuple(variants)
        self.store = None

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
                sid = store.open_session(source="bench", label=label, task_id=t.task_id, started_ms=started)
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

    def _proc_lines(self, q: Question) -> list[str]:
        """Tier statements: the user's profile, or each session's own tiers."""
        kind = self.ctx.kind
        out: list[str] = []
        if kind == "history":
            out.append("### user profile")
            for dim, d in self.profile()["dimensions"].items():
                line = _tier_line(dim, d)
                if line:
                    out.append(line)
            target = q.metadata.get("target")
            if target and target in self.sid:
                out.append(f"### {target}")
                for dim, t in self.mem.session_tiers(self.sid[target]).items():
                    line = _tier_line(dim, t)
                    if line:
                        out.append(line)
        else:
            for label, _ in self.ctx.sessions:
                out.append(f"### {label}")
                for dim, t in self.mem.session_tiers(self.sid[label]).items():
                    line = _tier_line(dim, t)
                    if line:
                        out.append(line if not label.startswith("U") else f"[{label}] {line}")
        return out

    def _epi_lines(self, q: Question) -> list[str]:
        out: list[str] = []
        kind = self.ctx.kind
        if kind == "lineup":
            # Tier disagreement of each session with the others (memory.session_shift): in
            # line-ups of different tasks it finds the odd session far more often than the
            # fingerprint-distance flags of profile()["anomalies"] (see docs/bench.md).
            dev: dict[str, tuple[float, dict[str, Any] | None]] = {}
            for label, sid in self.sid.items():
                shifts = [s for s in self.mem.session_shift(sid) if s.get("tier_changed")]
                dev[label] = (sum(float(s.get("score") or 0.0) for s in shifts), shifts[0] if shifts else None)
            for label, (score, top) in dev.items():
                what = f", top change {top['dimension']}: {top['from']} -> {top['to']}" if top else ""
                out.append(f"{label}: deviation from the other sessions {score:.2f}{what}")
            if dev and max(v[0] for v in dev.values()) > 0:
                worst = max(dev, key=lambda k: (dev[k][0], k))
                out.append(f"{worst}: most anomalous session")
        target = q.metadata.get("target")
        if target and target in self.sid:
            shifts = [s for s in self.mem.session_shift(self.sid[target]) if s.get("dimension") in DIM_NAMES]
            for rank, s in enumerate(shifts[:3], 1):
                out.append(f"{target}: candidate {rank}: {dim_label(s['dimension'])} shifted from "
                           f"{s.get('from')} to {s.get('to')} (score {float(s.get('score') or 0):.2f}, "
                           f"verdict {s.get('verdict')})")
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

        def drop_content(lines: list[str]) -> list[str]:
            return [ln for ln in lines if not any(cd in ln for cd in content_dims)]

        full = proc + epi + sem
        out = {}
        for v in self.names():
            if v == "filegramos-own":
                continue
            if v == "filegramos":
                out[v] = full
            elif v == "filegramos-proc":
                keep_content = [ln for ln in proc if any(cd in ln for cd in content_dims) or ln.startswith("###")]
                out[v] = keep_content + epi + sem
            elif v == "filegramos-sem":
                out[v] = drop_content(proc) + epi
            elif v == "filegramos-epi":
                out[v] = proc + sem
        return {k: "\n".join(v) for k, v in out.items()}
