"""The one answerer all methods share: the offline reader by default, or one LLM.

With [llm].model configured every method's evidence goes to that model with the same prompt,
and open answers are judged by the same model on a 1-5 scale (scaled to 0-1). Without it,
the deterministic reader answers and open answers are scored by per-attribute agreement.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from . import reader
from .questions import Question

if TYPE_CHECKING:
    from filegram.config import Config

MAX_EVIDENCE_CHARS = 60000


class OfflineAnswerer:
    name = "offline deterministic reader (filegram.bench.reader)"
    judge_name = "per-attribute agreement"

    def choose(self, q: Question, evidence: str) -> int:
        return reader.answer_choice(q.question_id, q.question, q.choices, evidence)

    def open(self, q: Question, evidence: str) -> str:
        return reader.answer_open(q.question_id, q.question, evidence)

    def judge(self, q: Question, answer: str) -> float:
        return agreement(q, answer)


def agreement(q: Question, answer: str) -> float:
    """1 when the tier an open answer states is the user's tier for that attribute."""
    dim = (q.metadata.get("dims") or [""])[0]
    stated = reader.tier_in_text(answer, dim, q.metadata.get("attribute_tiers"))
    return 1.0 if stated is not None and stated == q.metadata.get("tier") else 0.0


def _options_block(choices: list[str]) -> str:
    return "\n".join(f"{i + 1}. {c}" for i, c in enumerate(choices))


class LLMAnswerer:
    """One litellm model for every method (answers and judging)."""

    def __init__(self, config: Config):
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        llm = config["llm"]
        self.model = llm["model"]
        self.api_base = llm.get("api_base") or None
        key_env = llm.get("api_key_env") or ""
        self.api_key = os.environ.get(key_env) if key_env else None
        self.timeout = float(llm.get("timeout_seconds", 30.0))
        self.retries = int(llm.get("max_retries", 1))
        self.name = f"LLM {self.model}"
        self.judge_name = f"LLM judge {self.model} (Likert 1-5, scaled)"

    def _complete(self, prompt: str) -> str:
        import litellm

        from filegram.errors import FileGramError

        last: Exception | None = None
        for _ in range(self.retries + 1):
            try:
                resp = litellm.completion(
                    model=self.model, messages=[{"role": "user", "content": prompt}],
                    api_base=self.api_base, api_key=self.api_key, timeout=self.timeout, temperature=0,
                )
                return str(resp.choices[0].message.content or "")
            except Exception as exc:  # noqa: BLE001 - litellm raises many kinds
                last = exc
        raise FileGramError(f"LLM {self.model} failed: {str(last).splitlines()[0][:200] if last else '?'}")

    def choose(self, q: Question, evidence: str) -> int:
        prompt = (
            "You answer questions about how a person works with files, using only the evidence.\n\n"
            f"Evidence:\n{evidence[:MAX_EVIDENCE_CHARS] or '(none)'}\n\nQuestion: {q.question}\n"
            f"Options:\n{_options_block(q.choices)}\n\nReply with the number of the best option only."
        )
        text = self._complete(prompt)
        m = re.search(r"\d+", text)
        if m and 1 <= int(m.group()) <= len(q.choices):
            return int(m.group()) - 1
        return reader.tie_break(q.question_id, list(range(len(q.choices))))

    def open(self, q: Question, evidence: str) -> str:
        prompt = (
            "You describe how a person works with files, using only the evidence.\n\n"
            f"Evidence:\n{evidence[:MAX_EVIDENCE_CHARS] or '(none)'}\n\n{q.question}\nAnswer in one phrase."
        )
        return self._complete(prompt).strip()

    def judge(self, q: Question, answer: str) -> float:
        prompt = (
            "Rate how well the answer matches the reference description of a person's habit, "
            "from 1 (contradicts or says nothing) to 5 (same meaning).\n"
            f"Question: {q.question}\nReference: {q.correct}\nAnswer: {answer}\nReply with one digit."
        )
        m = re.search(r"[1-5]", self._complete(prompt))
        return (int(m.group()) - 1) / 4.0 if m else 0.0


def make_answerer(config: Config | None, *, offline: bool = False) -> OfflineAnswerer | LLMAnswerer:
    if not offline and config is not None and config.llm_configured:
        config.require_llm_extra()  # one line naming the `llm` extra, before any question
        return LLMAnswerer(config)
    return OfflineAnswerer()
