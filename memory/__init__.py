"""FileGramOS: the memory of how a user works, in three channels over the FileGram store.

Stage 1 encodes each closed session into an Engram (the 17-feature fingerprint, a wider
raw feature set, content descriptors, episodes); stage 2 folds engrams into procedural,
semantic and episodic channels incrementally; stage 3 answers questions from evidence,
with or without an LLM. See docs/memory.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .dimensions import DIM_IDS, DIMENSIONS, TASKS, TIERS, Dimension, task_info
from .features import FINGERPRINT_FEATURES, FINGERPRINT_NAMES, fingerprint, raw_features
from .tiers import match_profiles, session_tiers, user_tiers

if TYPE_CHECKING:
    from .answer import Answer
    from .core import Memory
    from .engram import Engram

__all__ = [
    "Memory",
    "Answer",
    "Engram",
    "encode_session",
    "fingerprint",
    "raw_features",
    "session_tiers",
    "user_tiers",
    "match_profiles",
    "DIMENSIONS",
    "DIM_IDS",
    "TIERS",
    "TASKS",
    "Dimension",
    "task_info",
    "FINGERPRINT_FEATURES",
    "FINGERPRINT_NAMES",
]


def __getattr__(name: str) -> Any:
    # Memory pulls in numpy and the store; keep `import filegram.memory` light.
    if name == "Memory":
        from .core import Memory

        return Memory
    if name == "Answer":
        from .answer import Answer

        return Answer
    if name in ("Engram", "encode_session"):
        from . import engram

        return getattr(engram, name)
    raise AttributeError(name)
