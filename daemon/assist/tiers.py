"""What an assistant reads from memory's profile: the tier of one dimension."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from filegram.vocab import TIERS, UNKNOWN


def tier_of(profile: Mapping[str, Any] | None, dim: str) -> str:
    """The dimension's tier in a profile (`Memory.profile()`): L, M, R, or unknown."""
    d = ((profile or {}).get("dimensions") or {}).get(dim) or {}
    t = d.get("tier") if isinstance(d, dict) else d
    return t if t in TIERS else UNKNOWN
