"""The optional LLM tier judge: a second opinion where the rules are unsure.

As the paper does, the model sees the tier definitions, the user's aggregated fingerprint for
the dimension and the evidence the rules counted (how many sessions gave a chance, what they
showed, the posterior, examples), and picks a tier or abstains. It is asked only about
dimensions the rules leave "unknown" or below FIRM confidence, its verdict is kept with the
evidence it saw (memory/readout.py applies it while that evidence is unchanged), and every
prompt is redacted and can be printed before anything is sent (`filegram profile --show-prompt`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from filegram.privacy import redact
from filegram.vocab import DIMENSION_NAMES, TIER_DESCRIPTIONS, TIERS, UNKNOWN

from .llm import LLMError, complete, configured
from .view import MemoryView

FIRM = 0.8
_REPLY = re.compile(r"\b(abstain|unknown|[LMR])\b")


def needs_judgement(dim_profile: dict[str, Any]) -> bool:
    """A dimension the rules are unsure of but that has some evidence to judge."""
    return dim_profile.get("sessions", 0) > 0 and (
        dim_profile["tier"] == UNKNOWN or float(dim_profile.get("confidence") or 0.0) < FIRM)


def tier_prompt(dim: str, p: dict[str, Any]) -> str:
    tiers = "\n".join(f"  {t}: {TIER_DESCRIPTIONS[dim][t]}" for t in TIERS)
    feats = "\n".join(f"  {name}: mean {s['mean']:.3g}, sd {s['std']:.3g}, min {s['min']:.3g}, max {s['max']:.3g} "
                      f"over {s['n']} session(s)" for name, s in (p.get("features") or {}).items())
    evidence = "\n".join(f"  - {line}" for line in p.get("evidence") or [])
    return (
        f"Judge one dimension of how a person works with files: {dim} ({DIMENSION_NAMES[dim]}).\n"
        f"Tiers:\n{tiers}\n"
        f"The person's fingerprint on this dimension:\n{feats or '  (none)'}\n"
        f"What their sessions showed when they had the chance:\n{evidence}\n"
        f"The counting rules give L {p['posterior']['L']:.2f}, M {p['posterior']['M']:.2f}, "
        f"R {p['posterior']['R']:.2f} and are unsure.\n"
        "Reply with one of L, M, R, or abstain if the evidence does not tell, then one sentence why."
    )


def prompts(mem: MemoryView) -> Iterator[tuple[str, str]]:
    """(dimension, redacted prompt) for every dimension the rules are unsure of."""
    prof = mem.profile_view()
    for dim, p in prof["dimensions"].items():
        if p.get("judge") != "llm" and needs_judgement(p):
            yield dim, redact(tier_prompt(dim, p))


def tier_verdicts(mem: MemoryView) -> Iterator[tuple[str, str, str]]:
    """(dimension, tier or "unknown" for an abstention, reason) for every usable reply."""
    if not configured(mem.config):
        return
    for dim, prompt in prompts(mem):
        try:
            reply = complete(mem.config, [{"role": "user", "content": prompt}], max_tokens=120)
        except LLMError:
            continue
        m = _REPLY.search(reply)
        if not m:
            continue
        word = m.group(1)
        yield dim, (word if word in TIERS else UNKNOWN), reply[:300]
