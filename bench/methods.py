"""Methods under one interface: ingest a context, then give evidence for a question.

No method answers by itself: each turns what it kept into an evidence text, and the shared
answerer (the offline reader, or one LLM for all) picks the option. So a method differs only
in what it remembers and retrieves, which is what the benchmark compares.

- no_context: nothing (the answerer's prior: chance).
- full_context: the narrative of every input session, cut to a token budget.
- naive_rag: the narrative in 512-token chunks (64 overlap), hashing embedder, top-5.
- eager_summ: one short extractive summary per session, kept instead of the session.
- mem0_flat: Mem0-style flat fact store: one fact per action, duplicates merged, the
  top-20 facts most similar to the question retrieved (no sessions, no statistics).
- filegramos: filegram.memory over an in-memory store; its profile, per-session tiers,
  drift flags and shift attribution rendered as statements, plus top-5 content chunks.
- filegramos-proc / -sem / -epi: the same memory with one channel's evidence removed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .context import Context
from .questions import Question
from .truth import DIM_NAMES, dim_label

CHARS_PER_TOKEN = 4


class Method:
    name = "method"
    description = ""
    variants: tuple[str, ...] = ()

    def names(self) -> tuple[str, ...]:
        return self.variants or (self.name,)

    def ingest(self, ctx: Context) -> None:
        self.ctx = ctx

    def evidence(self, q: Question) -> dict[str, str]:
        """Evidence text per method name (one entry unless the method has variants)."""
        raise NotImplementedError

    def direct_answers(self, q: Question) -> dict[str, int | str]:
        """Answers a variant gives by itself, bypassing the shared answerer (for comparison
        only; none by default)."""
        return {}

    def close(self) -> None:
        pass


class NoContext(Method):
    name = "no_context"
    description = "no evidence at all: the answerer's prior (chance offline)"

    def evidence(self, q: Question) -> dict[str, str]:
        return {self.name: ""}


class FullContext(Method):
    name = "full_context"

    def __init__(self, budget_tokens: int = 16000):
        self.budget = budget_tokens
        self.description = (f"the narrative of all input sessions (one line per action), cut to "
                            f"{budget_tokens} tokens, each session keeping an equal share")

    def ingest(self, ctx: Context) -> None:
        blocks = ctx.narrative()
        share = self.budget * CHARS_PER_TOKEN // max(len(blocks), 1)
        out = []
        for lines in blocks:
            text = "\n".join(lines)
            out.append(text[:share])
        self.text = "\n".join(out)

    def evidence(self, q: Question) -> dict[str, str]:
        return {self.name: self.text}


def _embedder() -> Any:
    from filegram.memory.embed import HashingEmbedder

    return HashingEmbedder()


def _top_k(query: str, texts: Sequence[str], vecs: Any, k: int, emb: Any) -> list[int]:
    import numpy as np

    if not texts:
        return []
    qv = emb.embed([query])[0]
    sims = vecs @ qv
    order = np.argsort(-sims, kind="stable")[:k]
    return sorted(int(i) for i in order)


class NaiveRAG(Method):
    name = "naive_rag"
    description = "narrative chunks of 512 tokens (64 overlap) with their session header, hashing embedder, top-5"

    def __init__(self, chunk_tokens: int = 512, overlap_tokens: int = 64, k: int = 5):
        self.size = chunk_tokens * CHARS_PER_TOKEN
        self.overlap = overlap_tokens * CHARS_PER_TOKEN
        self.k = k
        self.emb = _embedder()

    def ingest(self, ctx: Context) -> None:
        chunks = []
        for lines in ctx.narrative():
            header, body = lines[0], "\n".join(lines[1:])
            start = 0
            while True:
                piece = body[start:start + self.size]
                chunks.append(f"{header}\n{piece}")
                if start + self.size >= len(body):
                    break
                start += self.size - self.overlap
        self.chunks = chunks
        self.vecs = self.emb.embed(chunks)

    def evidence(self, q: Question) -> dict[str, str]:
        query = q.question + " " + " ".join(q.choices)
        idx = _top_k(query, self.chunks, self.vecs, self.k, self.emb)
        return {self.name: "\n".join(self.chunks[i] for i in idx)}


class EagerSumm(Method):
    name = "eager_summ"
    description = ("one extractive summary per session at ingest (its size, first three actions, "
                   "three largest outputs, last two actions); the sessions themselves are dropped")

    def ingest(self, ctx: Context) -> None:
        out = []
        for lines in ctx.narrative():
            header, body = lines[0], lines[1:]
            writes = [ln for ln in body if "created " in ln or "overwrote " in ln]
            writes.sort(key=lambda ln: -int(m.group(1)) if (m := re.search(r"\((\d+) chars", ln)) else 0)
            picked = []
            for ln in body[:3] + writes[:3] + body[-2:]:
                if ln not in picked:
                    picked.append(ln)
            out.append("\n".join([header, f"{len(body)} actions in all. Highlights:", *picked]))
        self.text = "\n".join(out)

    def evidence(self, q: Question) -> dict[str, str]:
        return {self.name: self.text}


_TIME = re.compile(r"^- (\[[^\]]+\] )?\+\d+s ")


class Mem0Flat(Method):
    name = "mem0_flat"
    description = ("flat fact store in the style of Mem0: one fact per action (timing dropped), "
                   "duplicates merged, top-20 facts by similarity to the question, grouped by session")

    def __init__(self, k: int = 20):
        self.k = k
        self.emb = _embedder()

    def ingest(self, ctx: Context) -> None:
        facts: list[tuple[str, str]] = []
        seen = set()
        for lines in ctx.narrative():
            label = lines[0][4:].split(" (")[0]
            for ln in lines[1:]:
                tag = _TIME.match(ln)
                fact = "user " + _TIME.sub("", ln)
                sess = tag.group(1).strip()[1:-1] if tag and tag.group(1) else label
                key = (sess, re.sub(r"\d+", "#", fact))
                if key in seen:
                    continue
                seen.add(key)
                facts.append((sess, fact))
        self.facts = facts
        self.vecs = self.emb.embed([f for _, f in facts]) if facts else None

    def evidence(self, q: Question) -> dict[str, str]:
        query = q.question + " " + " ".join(q.choices)
        idx = _top_k(query, [f for _, f in self.facts], self.vecs, self.k, self.emb)
        groups: dict[str, list[str]] = {}
        for i in idx:
            sess, fact = self.facts[i]
            groups.setdefault(sess, []).append(fact)
        out = []
        for sess, fs in groups.items():
            if sess.startswith("U"):
                out.extend(f"[{sess}] {f}" for f in fs)
            else:
                out.append(f"### {sess}")
                out.extend(fs)
        return {self.name: "\n".join(out)}


# -- FileGramOS ----------------------------------------------------------------------------


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

    def __init__(self, config: Any = None, variants: Sequence[str] | None = None):
        from filegram.config import Config

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


METHOD_ORDER = ("no_context", "full_context", "naive_rag", "eager_summ", "mem0_flat", "filegramos")


def make_methods(names: Sequence[str] | None = None, *, config: Any = None, ablations: bool = True,
                 budget_tokens: int = 16000, memory_answerer: bool = False) -> list[Method]:
    """The methods to run, in report order. Names: the METHOD_ORDER keys."""
    from filegram.errors import FileGramError

    wanted = list(names or METHOD_ORDER)
    bad = [n for n in wanted if n not in METHOD_ORDER]
    if bad:
        raise FileGramError(f"unknown method(s): {', '.join(bad)} (known: {', '.join(METHOD_ORDER)})")
    out: list[Method] = []
    for n in METHOD_ORDER:
        if n not in wanted:
            continue
        if n == "no_context":
            out.append(NoContext())
        elif n == "full_context":
            out.append(FullContext(budget_tokens))
        elif n == "naive_rag":
            out.append(NaiveRAG())
        elif n == "eager_summ":
            out.append(EagerSumm())
        elif n == "mem0_flat":
            out.append(Mem0Flat())
        elif n == "filegramos":
            variants = list(FileGramOS.variants if ablations else ("filegramos",))
            if memory_answerer:
                variants.append("filegramos-own")
            out.append(FileGramOS(config, variants))
    return out
