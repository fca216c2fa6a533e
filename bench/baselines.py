"""The baselines: what a method without FileGramOS' memory gives as evidence (no context,
the full narrative, chunked retrieval, eager summaries, a flat fact store; methods.py says
what each one keeps). Every one of them reads the sessions as their narrative, one line per
action (trajectories.narrate).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .context import Context, Method
from .questions import Question

CHARS_PER_TOKEN = 4


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
