"""The fast paths of encoding and folding compute what their plain definitions say: one
structure regex instead of a line walk, byte-split tokens instead of the token regex, one
vectorised embedding instead of a token loop, batched writes instead of one session at a
time. Speed itself is measured by `python -m filegram.memory.perf`, never asserted."""

from __future__ import annotations

import json
import zlib
from collections import Counter

import memory_fixtures
import numpy as np
from filegram.memory import Memory
from filegram.memory.content import _text_stats_fast, _text_stats_lines, is_table_row, table_rows
from filegram.memory.dimensions import TASKS
from filegram.memory.embed import HashingEmbedder
from filegram.memory.engram import _summed_counts
from filegram.memory.perf import bench_users, users_dir
from filegram.memory.synth import store_session
from filegram.memory.tokens import token_counts, tokens
from hypothesis import given, settings
from hypothesis import strategies as st

from filegram.store import Store
from filegram.trajectory import export_sessions

store = memory_fixtures.store
session_builder = memory_fixtures.session_builder

_LINES = st.sampled_from([
    "", " ", "\t", "# Title", "## Part two", "   ### three spaces", "    # four spaces", "####### seven",
    "#nospace", "- item", "  * star item", "+ plus", "1. first", "2) second", "10. tenth", "• dot", "· mid",
    "\t- tab item", "-no space", "# heading | with | pipes", "- ## bulleted heading", "\t\t- ### nested one",
    "* # star heading", "- #tag", "-## no space",
    "| a | b |", "|---|---|", "  | x | y |", "\t| tab | row |", "| one cell", "|:--|--:|", "text | with | pipes",
    "Plain prose. Two sentences!", "A question? Yes... maybe", "中文句子。还有一句！", "no end",
    "mixed 中文 and English.", "tab\tinside. ok",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINES, max_size=30), st.booleans())
def test_structure_pass_counts_like_the_line_walk(lines, trailing_newline):
    text = "\n".join(lines) + ("\n" if trailing_newline else "")
    fast, walk = _text_stats_fast(text, 0), _text_stats_lines(text, 0)
    assert fast == walk
    assert table_rows(text) == sum(1 for ln in text.splitlines() if is_table_row(ln))


_TEXT = st.text(alphabet=st.sampled_from(list("abcXYZ019_'- .\n~中文İſK\u00e9")), max_size=80)


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_token_counts_are_the_tokens(text):
    assert token_counts(text) == Counter(t.encode() for t in tokens(text, stems=False))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["- item", "--flag", "'quoted'", "_x_", "-", "'", "__", "a-b", "it's", " ", "\n",
                                 "\t- ", "-_'x", "word"]), max_size=30))
def test_token_counts_strip_leading_marks_like_the_tokens(parts):
    """ASCII runs that start with _'- (list items, flags, quotes) lose those marks."""
    text = "".join(parts)
    assert token_counts(text) == Counter(t.encode() for t in tokens(text, stems=False))


@settings(max_examples=300, deadline=None)
@given(st.lists(_TEXT, max_size=4))
def test_summed_counts_are_the_pieces_counts_added(pieces):
    """ASCII pieces are counted joined; any pieces' counts are their own counts added."""
    want: Counter[bytes] = Counter()
    for piece in pieces:
        want.update(token_counts(piece))
    assert Counter(_summed_counts(pieces)) == want


@settings(max_examples=200, deadline=None)
@given(st.lists(_TEXT, min_size=1, max_size=5))
def test_hashing_vector_is_the_sum_of_its_token_slots(texts):
    """The vectorised embedder against its definition: +-1 per token (stems included) in
    slot crc32 % 256, sign from bit 16, then L2-normalised."""
    want = np.zeros((len(texts), 256), dtype=np.float32)
    for i, text in enumerate(texts):
        for tok in tokens(text):
            h = zlib.crc32(tok.encode("utf-8"))
            want[i, h % 256] += 1.0 if (h >> 16) & 1 else -1.0
    norms = np.linalg.norm(want, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    assert HashingEmbedder().embed(texts).tobytes() == (want / norms).astype(np.float32).tobytes()


def _fill(st_: Store, n: int) -> list[str]:
    tasks = sorted(TASKS)
    return [store_session(st_, dict(zip("ABCDEF", "LMRMLR", strict=True)), tasks[i % 32], seed=i,
                          start_ms=1.7e12 + i * 3.6e6, label=f"s{i}") for i in range(n)]


def test_one_batch_equals_one_session_at_a_time(tmp_path):
    a, b = Store(tmp_path / "a.db"), Store(tmp_path / "b.db")
    _fill(a, 12)
    ids = _fill(b, 12)
    Memory(a).consolidate()
    mb = Memory(b)
    for sid in reversed(ids):  # every session but the first arrives before sessions it precedes
        assert mb.ingest_session(sid)
    assert Memory(a).snapshot() == mb.snapshot()
    a.close()
    b.close()


def test_chunk_text_and_columns_are_stored_once(store, session_builder):
    b = session_builder("s1")
    b.write("notes.md", "# Notes\n\nThe quarterly supplier review is due on Friday.\n")
    b.store_into(store)
    mem = Memory(store)
    mem.consolidate()
    engram = json.loads(store.conn.execute("SELECT engram FROM mem_sessions").fetchone()[0])
    assert not {"chunks", "fingerprint", "tiers", "signals"} & set(engram)
    (text,) = store.conn.execute("SELECT text FROM mem_chunks").fetchone()
    assert "quarterly supplier review" in text
    assert "supplier" in engram["documents"][0]["key_terms"]
    whole = mem.snapshot()["sessions"][0]["engram"]
    assert whole["fingerprint"]["files_created"] == 1.0 and set(whole["tiers"]) and set(whole["signals"]) == set("ABCDEF")
    assert mem.search("supplier review", k=1)[0]["path"] == "notes.md"


def test_users_throughput_row_counts_every_users_events(tmp_path, monkeypatch):
    users = tmp_path / "users"
    for u in range(2):
        st_ = Store(tmp_path / f"src{u}.db")
        _fill(st_, 3)
        export_sessions(st_, users / f"u{u}")
        st_.close()
    monkeypatch.delenv("FILEGRAM_PERF_USERS", raising=False)
    assert users_dir(users) == users
    monkeypatch.setenv("FILEGRAM_PERF_USERS", str(users))
    assert users_dir() == users
    work = tmp_path / "work"
    work.mkdir()
    row = bench_users(work, users, repeats=1)
    events = 0
    for u in range(2):
        st_ = Store(tmp_path / f"src{u}.db")
        events += st_.action_count()
        st_.close()
    assert row["unit"] == "events/s" and row["value"] > 0
    assert f"2 users, one store each, {events} events" in row["benchmark"]


def test_batch_reads_are_the_one_by_one_reads(tmp_path):
    """A batch's actions and blobs read at once are what a session's own reads give, and
    encode_many encodes as encode does session by session."""
    from filegram.memory.features import blob_hashes

    st_ = Store(tmp_path / "a.db")
    ids = _fill(st_, 5)
    got = st_.actions_of_sessions([*ids, "no-such-session", ids[0]])
    assert list(got) == ids
    for sid in ids:
        assert got[sid] == list(st_.actions(sid))
    hashes = [h for sid in ids for h in blob_hashes(got[sid])]
    assert hashes
    blobs = st_.get_blobs([*hashes, "0" * 16])
    assert blobs == {h: st_.get_blob(h) for h in hashes}
    mem = Memory(st_)
    sessions = [st_.session(sid) for sid in ids]
    assert [e.as_dict() for e in mem.encode_many(sessions)] == [mem.encode(s["id"]).as_dict() for s in sessions]
    st_.close()


def test_consolidate_leaves_the_garbage_collector_as_it_found_it(tmp_path):
    """The collector is paused per batch and switched on again, even when a batch fails;
    one that was off stays off."""
    import gc

    import pytest
    from filegram.memory.core import gc_paused

    st_ = Store(tmp_path / "a.db")
    _fill(st_, 3)
    assert gc.isenabled()
    assert Memory(st_).consolidate() == 3
    assert gc.isenabled()
    with pytest.raises(RuntimeError), gc_paused():
        assert not gc.isenabled()
        raise RuntimeError("a failing batch")
    assert gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
    st_.close()
