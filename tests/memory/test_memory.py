"""Memory over a real SQLite store: ingest, profile, drift attribution, rebuild, forget."""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

import memory_fixtures
import pytest
from filegram.memory import Memory
from filegram.memory.dimensions import TASKS
from filegram.memory.synth import store_session
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from filegram.errors import FileGramError
from filegram.store import Store

# pytest fixtures shared by the memory tests (no conftest.py: see memory_fixtures)
persona_store = memory_fixtures.persona_store
session_builder = memory_fixtures.session_builder
store = memory_fixtures.store

P3 = {"A": "M", "B": "R", "C": "R", "D": "R", "E": "M", "F": "R"}
P17 = {"A": "L", "B": "L", "C": "L", "D": "L", "E": "M", "F": "L"}


def test_ingest_is_idempotent_and_skips_open_sessions(store, session_builder):
    b = session_builder("open1")
    b.read("a.md").write("b.md", "x\n" * 30)
    b.store_into(store, close=False)
    mem = Memory(store)
    assert mem.ingest_session("open1") is False
    assert mem.consolidate() == 0
    store.close_session("open1")
    assert mem.consolidate() == 1
    assert mem.ingest_session("open1") is False
    assert mem.consolidate() == 0
    with pytest.raises(FileGramError):
        mem.ingest_session("no-such-session")


def test_profile_recovers_a_users_tiers_and_its_json_shape(tmp_path, persona_store):
    st_, _ = persona_store(tmp_path / "p17.db", P17)
    mem = Memory(st_)
    assert mem.consolidate() == 32
    prof = mem.profile()
    json.dumps(prof)  # serialisable as `filegram profile --json`
    assert set(prof["dimensions"]) == set("ABCDEF")
    for dim, tier in P17.items():
        d = prof["dimensions"][dim]
        assert d["tier"] == tier, (dim, d)
        assert 0 < d["confidence"] <= 1 and d["evidence"]
    for a in prof["anomalies"]:
        assert {"session", "dimension", "from", "to", "verdict"} <= set(a)
    assert mem.last_update_ms() is not None
    st_.close()


def test_profile_never_reads_profile_id(tmp_path, persona_store):
    a, _ = persona_store(tmp_path / "a.db", P3, seed=1)
    b, _ = persona_store(tmp_path / "b.db", P3, seed=1)
    b.conn.execute("UPDATE sessions SET profile_id = 'p17'")
    pa, pb = Memory(a), Memory(b)
    pa.consolidate(), pb.consolidate()
    assert pa.snapshot() == pb.snapshot()


def test_unexercised_dimension_is_unknown(store, session_builder):
    for i in range(3):
        b = session_builder(f"s{i}", start_ms=1.7e12 + i * 1e7)
        b.read("a.md").read("b.md").read("c.md").read("a.md", view_count=2)
        b.store_into(store, task_id="T-17" if i else None)  # understand: A, C
    prof = Memory(store).profile() if Memory(store).consolidate() else None
    assert prof["dimensions"]["A"]["tier"] == "L"
    for dim in "BCDEF":
        assert prof["dimensions"][dim]["tier"] == "unknown"


def test_reading_is_detectable_where_a_recorder_logs_no_searches(store, session_builder):
    # A searcher whose recorder logs reads only (no search, no listing): their sessions of
    # passages show their reading style, so a session's shift question does not call reading
    # "not detectable" (it did while the profile already read the same windows as M).
    ids = []
    for i in range(6):
        b = session_builder(f"s{i}", start_ms=1.7e12 + i * 3.6e6)
        for k in range(6):
            b.read(f"in/f{k % 3}.md", k // 3 + 1, [40 * k + 20, 40 * k + 50], 20_000)
        ids.append(b.store_into(store))
    mem = Memory(store)
    mem.consolidate()
    assert mem.profile()["dimensions"]["A"]["tier"] == "M"
    assert "A" not in {s["dimension"] for s in mem.session_shift(ids[0]) if s["to"] == "not detectable"}


def test_drift_is_flagged_and_attributed(tmp_path, persona_store):
    # p3 is flat (C=R); in its T-12 session it organised into a folder (C: R -> M).
    st_, ids = persona_store(tmp_path / "p3.db", P3, perturb={"T-12": {"C": "M"}})
    mem = Memory(st_)
    mem.consolidate()
    prof = mem.profile()
    flagged = {a["session"]: a for a in prof["anomalies"]}
    assert ids["T-12"] in flagged
    a = flagged[ids["T-12"]]
    assert (a["dimension"], a["from"], a["to"]) == ("C", "R", "M")
    # one folder in 16 chances: more likely a change than not, but not certain
    assert a["verdict"] == "uncertain" and 0.5 <= a["posterior"] < 0.8
    top = mem.session_shift(ids["T-12"])[0]
    assert (top["dimension"], top["from"], top["to"]) == ("C", "R", "M")
    # silence is not evidence: a session that gave no chance on a dimension says so
    assert any(s["to"] == "not detectable" for s in mem.session_shift(ids["T-12"]))
    st_.close()


def test_drift_grows_firm_with_a_long_history(tmp_path):
    # Three months of the same flat user: one session with a folder is now a genuine change.
    st_ = Store(tmp_path / "long.db")
    odd = None
    for rnd in range(3):
        for i, tid in enumerate(sorted(TASKS)):
            tiers = dict(P3, C="M") if (rnd, tid) == (2, "T-12") else P3
            sid = store_session(st_, tiers, tid, seed=rnd * 100 + i, start_ms=1.7e12 + (rnd * 32 + i) * 3.6e6,
                                label=f"r{rnd}_{tid}")
            odd = sid if (rnd, tid) == (2, "T-12") else odd
    mem = Memory(st_)
    mem.consolidate()
    flagged = {a["session"]: a for a in mem.profile()["anomalies"]}
    assert flagged[odd]["verdict"] == "genuine" and flagged[odd]["posterior"] >= 0.8
    assert len(flagged) == 1
    st_.close()


def _search_first_user(session_builder, store, odd: dict[int, str]) -> dict[str, str]:
    """20 sessions of a search-first reader (grep, then a passage of each hit); `odd` maps a
    session number to another way of reading it: "listings" (folders listed again and again,
    still reading passages) or "deep" (whole files in order, some twice, no search)."""
    ids = {}
    for i in range(20):
        b = session_builder(f"s{i:02d}", start_ms=1.7e12 + i * 3.6e6)
        files = [f"in/f{k}.md" for k in range(6)]
        style = odd.get(i, "search")
        if style == "listings":
            for d in ("in", "in/a", "in/b", "in", "in/c", "."):
                b.add("file_browse", directory_path=d, files_listed=9, depth=d.count("/"))
        for k, f in enumerate(files):
            if style == "deep":
                b.read(f, view_range=[1, 60], content_length=2400, view_count=2 if k < 2 else 1)
            else:
                if style == "search":
                    b.add("file_search", search_type="grep", query="risk", files_matched=3, files_opened_after=[f])
                b.read(f, view_range=[40 + k, 60 + k], content_length=2400)
        b.write("notes.md", "# Notes\n- risk one\n- risk two\n")
        ids[style if i in odd else f"s{i}"] = b.store_into(store)
    return ids


def test_a_session_that_also_shows_the_usual_habit_is_not_drift(session_builder, store):
    # A search-first reader lists folders a lot in one session but still reads targeted
    # passages: their habit shows, so it is not a change of reading style. Another session
    # reads whole files in order with revisits and no search at all: that one is.
    ids = _search_first_user(session_builder, store, {7: "listings", 13: "deep"})
    mem = Memory(store)
    mem.consolidate()
    prof = mem.profile()
    assert prof["dimensions"]["A"]["tier"] == "M"
    flagged = {a["session"]: a for a in prof["anomalies"] if a["dimension"] == "A"}
    assert ids["listings"] not in flagged
    assert (flagged[ids["deep"]]["from"], flagged[ids["deep"]]["to"]) == ("M", "L")
    # the listings session is still a candidate, with the odds its usual passages leave it
    cand = [c for c in mem.session_shift(ids["listings"]) if c["dimension"] == "A"]
    assert cand and cand[0]["to"] == "R" and cand[0]["posterior"] < 0.5


def test_a_jump_to_the_far_tier_is_attributed_as_a_one_tier_shift(session_builder, store):
    # A minimal writer (short notes every session) writes a 300-line report over three files
    # once: the session shows the comprehensive tier's signature, and the flag says the habit
    # moved one tier (R -> M), as FileGram's shifts do; what the session showed stays visible.
    odd = None
    for i in range(20):
        b = session_builder(f"s{i:02d}", start_ms=1.7e12 + i * 3.6e6)
        b.read("in/brief.md", view_range=[1, 30], content_length=1200)
        if i == 11:
            for k in range(3):
                b.write(f"report_{k}.md", "# Report\n" + "".join(f"Line {n} of the findings.\n" for n in range(100)))
        else:
            b.write("note.md", "# Note\n- one\n- two\n- three\n")
        sid = b.store_into(store)
        odd = sid if i == 11 else odd
    mem = Memory(store)
    mem.consolidate()
    prof = mem.profile()
    assert prof["dimensions"]["B"]["tier"] == "R"
    flag = next(a for a in prof["anomalies"] if a["session"] == odd)
    assert (flag["dimension"], flag["from"], flag["to"]) == ("B", "R", "M")
    shift = next(c for c in mem.session_shift(odd) if c["dimension"] == "B")
    assert (shift["to"], shift["shown"]) == ("M", "L")


def test_task_driven_variation_is_not_drift(tmp_path, persona_store):
    # Organising tasks make folders for everyone; a flat user's norm per task is compared,
    # so the unperturbed user has no flag on C.
    st_, ids = persona_store(tmp_path / "p3.db", P3)
    mem = Memory(st_)
    mem.consolidate()
    assert not [a for a in mem.profile()["anomalies"] if a["dimension"] == "C" and a["verdict"] == "genuine"]
    st_.close()


def _snap_after_rebuild(path: Path) -> dict:
    s = Store(path)
    m = Memory(s)
    m.rebuild()
    out = m.snapshot()
    s.close()
    return out


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order_seed=st.integers(0, 10_000), n=st.integers(3, 12), forget=st.integers(0, 2))
def test_incremental_state_equals_rebuild(order_seed, n, forget):
    rng = random.Random(order_seed)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "m.db"
        store = Store(path)
        mem = Memory(store)
        tasks = sorted(TASKS)
        # sessions arrive in a random order (late imports start earlier than ones already ingested)
        starts = list(range(n))
        rng.shuffle(starts)
        ids = []
        for k, i in enumerate(starts):
            tiers = {dim: rng.choice("LMR") for dim in "ABCDEF"}
            ids.append(store_session(store, tiers, tasks[(i * 7) % 32] if i % 4 else None, seed=order_seed + i,
                                     start_ms=1.7e12 + i * 3.6e6, label=f"s{i}"))
            if rng.random() < 0.5:
                mem.ingest_session(ids[-1])
            if k % 3 == 2:
                mem.consolidate()
        mem.consolidate()
        for sid in rng.sample(ids, min(forget, len(ids))):
            store.delete_session(sid)
        mem.consolidate()  # notices the deletions and forgets them
        incremental = mem.snapshot()
        store.close()
        assert incremental["sessions"] and len(incremental["sessions"]) == n - min(forget, n)
        assert incremental == _snap_after_rebuild(path)


def test_forget_sessions_removes_them(tmp_path, persona_store):
    st_, ids = persona_store(tmp_path / "p.db", P3)
    mem = Memory(st_)
    mem.consolidate()
    before = mem.profile()["sessions"]
    assert mem.forget_sessions([ids["T-01"], ids["T-02"]]) == 2
    assert mem.profile()["sessions"] == before - 2
    assert not st_.conn.execute("SELECT 1 FROM mem_chunks WHERE session_id = ?", (ids["T-01"],)).fetchone()
    assert mem.forget_sessions([ids["T-01"]]) == 0
    st_.close()


def test_semantic_search_finds_written_content(store, session_builder):
    b = session_builder("s1")
    b.write("trip.md", "# Kyoto itinerary\n\nVisit the Fushimi Inari shrine at dawn, then the bamboo grove.\n")
    b.write("budget.md", "# Budget\n\nQuarterly revenue and supplier costs.\n")
    b.store_into(store)
    mem = Memory(store)
    mem.consolidate()
    hits = mem.search("shrine bamboo", k=1)
    assert hits and hits[0]["path"] == "trip.md"
    hits = mem.search("supplier revenue", k=1)
    assert hits[0]["path"] == "budget.md"


def test_session_with_new_session_is_o_session(tmp_path, persona_store):
    """An update touches only the new session's rows (plus fixed-size aggregates)."""
    st_, _ = persona_store(tmp_path / "p.db", P3)
    mem = Memory(st_)
    mem.consolidate()
    before = {r[0]: r[1] for r in st_.conn.execute("SELECT session_id, engram FROM mem_sessions")}
    sid = store_session(st_, P3, "T-05", seed=999, start_ms=1.9e12, label="late")
    assert mem.ingest_session(sid)
    after = {r[0]: r[1] for r in st_.conn.execute("SELECT session_id, engram FROM mem_sessions")}
    assert {k: v for k, v in after.items() if k != sid} == before
    st_.close()


def test_boolean_features_are_shares_of_sessions(store, session_builder):
    for i in range(3):
        b = session_builder(f"s{i}", start_ms=1.7e12 + i * 1e7)
        b.write("r.md", "# R\n\ntext\n")
        if i == 0:
            b.add("file_copy", source_path="r.md", dest_path="r_backup.md", is_backup=True)
        b.store_into(store)
    mem = Memory(store)
    mem.consolidate()
    shares = mem.profile()["session_shares"]
    assert shares["has_backup"] == pytest.approx(1 / 3, abs=1e-4)
    assert shares["has_headings"] == 1.0 and shares["has_table"] == 0.0


def test_memory_of_an_older_algorithm_is_rebuilt(tmp_path, persona_store):
    st_, _ = persona_store(tmp_path / "p.db", P3)
    mem = Memory(st_)
    mem.consolidate()
    good = mem.snapshot()
    st_.conn.execute("UPDATE mem_sessions SET tiers = '{}'")  # what an older encoder left behind
    st_.set_state("memory:algorithm", 0)
    assert mem.consolidate() == 32
    assert mem.snapshot() == good
    assert mem.consolidate() == 0
    st_.close()


def test_forgotten_content_leaves_nothing_searchable(store, session_builder):
    b = session_builder("secret-trip")
    b.write("trip.md", "# Zanzibar honeymoon\n\nflights booked\n")
    b.store_into(store)
    mem = Memory(store)
    mem.consolidate()
    assert mem.search("Zanzibar")
    mem.forget_sessions(["secret-trip"])
    assert not store.conn.execute("SELECT 1 FROM mem_fts WHERE mem_fts MATCH 'zanzibar'").fetchone()
    raw = b"".join(bytes(r[0]) for r in store.conn.execute("SELECT block FROM mem_fts_data"))
    assert b"zanzibar" not in raw.lower()


def test_a_word_document_whose_text_was_extracted_is_searchable(store, session_builder):
    # The recorder keeps a .docx's extracted text as its snapshot: what the person wrote in
    # Word is found like a markdown note. Known only by its zip bytes, a document says nothing.
    b = session_builder("s1")
    b.write("minutes.docx", "Board minutes\nThe harbour ferry contract was renewed for three years.\n")
    b.write("scan.docx", "PK\x03\x04\x00\x00 word/document.xml harbour ferry")  # only the zip's bytes
    b.store_into(store)
    mem = Memory(store)
    mem.consolidate()
    hits = mem.search("harbour ferry contract", k=5)
    assert hits and hits[0]["path"] == "minutes.docx"
    assert {h["path"] for h in hits} == {"minutes.docx"}
    assert [h["path"] for h in mem.search_text("harbour", k=5)] == ["minutes.docx"]
