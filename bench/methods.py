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
- filegramos: filegram.memory over an in-memory store (no task ids unless asked); its
  profile, per-session tiers and drift flags in its own words, plus top-5 content chunks.
- filegramos-proc / -sem / -epi: the same memory with one channel's evidence removed.

The interface is context.Method; the baselines live in baselines.py, FileGramOS in
filegramos.py; this module names them and builds the ones a run asks for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .baselines import CHARS_PER_TOKEN, EagerSumm, FullContext, Mem0Flat, NaiveRAG, NoContext
from .context import Method
from .filegramos import FileGramOS

if TYPE_CHECKING:
    from filegram.config import Config

__all__ = [
    "CHARS_PER_TOKEN",
    "METHOD_ORDER",
    "EagerSumm",
    "FileGramOS",
    "FullContext",
    "Mem0Flat",
    "Method",
    "NaiveRAG",
    "NoContext",
    "make_methods",
]


METHOD_ORDER = ("no_context", "full_context", "naive_rag", "eager_summ", "mem0_flat", "filegramos")


def make_methods(names: Sequence[str] | None = None, *, config: Config | None = None, ablations: bool = True,
                 budget_tokens: int = 16000, memory_answerer: bool = False, task_ids: bool = False) -> list[Method]:
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
            out.append(FileGramOS(config, variants, task_ids=task_ids))
    return out
