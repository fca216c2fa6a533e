"""Live memory: the open session is folded in provisionally, replaced when it closes, and a
session weighs what it shows (issue 17)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import memory_fixtures
from filegram.memory import Memory
from memory_fixtures import SessionBuilder

from filegram.config import parse_config
from filegram.store import Store

store = memory_fixtures.store


def _work(sid: str, start: float, n: int) -> SessionBuilder:
    """n actions of ordinary work: reads, a document, edits."""
    b = SessionBuilder(sid, start)
    b.write(f"{sid}/notes.md", "# Notes\n" + "".join(f"- point {i}\n" for i in range(40)))
    k = 1
    while k < n:
        b.read(f"{sid}/src{k % 5}.md", view_count=2 if k % 3 == 0 else 1) if k % 2 else b.edit(f"{sid}/notes.md", 3, 1)
        k += 1
    return b


def _open_session(store: Store, sid: str, start: float, n: int) -> SessionBuilder:
    b = _work(sid, start, n)
    b.store_into(store, close=False)
    return b


def test_the_open_session_is_folded_in_provisionally_and_replaced_when_it_closes(store: Store) -> None:
    mem = Memory(store)
    for i in range(3):
        _work(f"closed{i}", 1_700_000_000_000.0 + i * 3_600_000, 20).store_into(store)
    assert mem.consolidate() == 3
    closed_only = mem.snapshot()
    b = _open_session(store, "open", 1_700_100_000_000.0, 30)
    assert mem.consolidate() == 0 and mem.profile()["provisional"]["sessions"] == 0  # not live: untouched

    assert mem.consolidate(live=True) == 0
    prof = mem.profile()
    assert prof["sessions"] == 4
    assert {k: prof["provisional"][k] for k in ("sessions", "actions")} == {"sessions": 1, "actions": 30}
    assert mem.fold_live() is False  # nothing new: nothing refolded

    # more work in the open session: the provisional engram is replaced, not added
    more = SessionBuilder("open", b.t)
    for k in range(12):
        more.read(f"open/more{k}.md")
    with store.transaction():
        store.add_actions(more.events)
    assert mem.fold_live() is True
    prof = mem.profile()
    assert prof["sessions"] == 4 and prof["provisional"]["actions"] == 42
    assert store.conn.execute("SELECT COUNT(*) FROM mem_sessions").fetchone()[0] == 4

    # dropping the provisional session restores the closed sessions' state exactly
    with store.transaction():
        mem._drop_live()
    assert mem.snapshot() == closed_only

    # the session closes: it is ingested once, and the state equals a rebuild
    mem.fold_live()
    store.close_session("open")
    assert mem.consolidate(live=True) == 1
    prof = mem.profile()
    assert prof["sessions"] == 4 and prof["provisional"]["sessions"] == 0
    incremental = mem.snapshot()
    mem.rebuild()
    assert mem.snapshot() == incremental


def test_the_background_fold_waits_live_fold_minutes(store: Store) -> None:
    mem = Memory(store, parse_config("[memory]\nlive_fold_minutes = 60\n"))
    b = _open_session(store, "open", 1_700_000_000_000.0, 10)
    assert mem.consolidate(live=True, force=False) == 0
    assert mem.live_status()["actions"] == 10  # the first fold is never held back
    more = SessionBuilder("open", b.t).read("open/late.md")
    with store.transaction():
        store.add_actions(more.events)
    assert mem.fold_live(force=False) is False and mem.live_status()["actions"] == 10
    assert mem.fold_live(force=True) is True and mem.live_status()["actions"] == 11


def test_forgetting_an_open_session_takes_its_provisional_engram_with_it(store: Store) -> None:
    mem = Memory(store)
    _work("closed", 1_700_000_000_000.0, 20).store_into(store)
    _open_session(store, "open", 1_700_100_000_000.0, 15)
    mem.consolidate(live=True)
    assert mem.profile()["sessions"] == 2
    store.delete_session("open")
    mem.consolidate(live=True)
    prof = mem.profile()
    assert prof["sessions"] == 1 and prof["provisional"]["sessions"] == 0
    assert not store.conn.execute("SELECT 1 FROM mem_chunks WHERE session_id = 'open'").fetchone()


def _deep_reader(sid: str, start: float, n: int) -> SessionBuilder:
    """Sequential whole-file reading with revisits over many files (A: L)."""
    b = SessionBuilder(sid, start)
    for k in range(n):
        b.read(f"docs/chapter{k % 40}.md", view_count=2 if k % 2 else 1, view_range=[1, 80], content_length=4000)
    return b


def _skimmer(sid: str, start: float, n: int) -> SessionBuilder:
    """Listings and first lines only (A: R)."""
    b = SessionBuilder(sid, start)
    for k in range(n):
        if k % 2 == 0:
            b.add("file_browse", directory_path=f"d{k}", files_listed=12)
        else:
            b.read(f"d{k}/f{k}.md", view_range=[1, 3], content_length=6000)
    return b


def _searcher(sid: str, start: float, n: int) -> SessionBuilder:
    """A search, then passages of its results (A: M), in n actions."""
    b = SessionBuilder(sid, start).add("file_search", search_type="grep", query="x", files_matched=2)
    for k in range(n - 1):
        b.read(f"s/f{k}.md", view_range=[40, 50], content_length=4000)
    return b


def test_a_three_action_session_cannot_outvote_a_200_action_one(tmp_path: Path) -> None:
    def profile_a(reals: int, fake: SessionBuilder) -> tuple[dict, list]:
        st = Store(tmp_path / f"w{reals}-{fake.sid}.db")
        for r in range(reals):
            _deep_reader(f"real{r}", 1_700_000_000_000.0 + r * 1e6, 200).store_into(st)
        fake.store_into(st)
        mem = Memory(st)
        mem.consolidate()
        prof = mem.profile()
        st.close()
        return prof["dimensions"]["A"], [a for a in prof["anomalies"] if a["dimension"] == "A"]

    for fake, tier in ((_searcher("fake", 1_700_010_000_000.0, 3), "M"), (_skimmer("fake", 1_700_010_000_000.0, 3), "R")):
        # the case: one real session and a 3-action one; the small one does not win,
        # and the real session is never the one flagged as drifting
        a, flags = profile_a(1, fake)
        assert a["tier"] != tier and a["posterior"][tier] <= a["posterior"]["L"], a
        assert not [f for f in flags if f["session"].startswith("real")]
        a, flags = profile_a(2, fake)
        assert a["tier"] == "L" and a["shown"]["L"] == 2.0 and a["shown"][tier] < 1.0, a
        assert not [f for f in flags if f["session"].startswith("real")]


def test_profile_json_says_how_much_is_provisional(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    st = Store(home / "filegram.db")
    _work("done", 1_700_000_000_000.0, 20).store_into(st)
    _open_session(st, "now", 1_700_100_000_000.0, 207)
    st.close()
    env = dict(os.environ, FILEGRAM_HOME=str(home), PYTHONUTF8="1")

    def fg(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "filegram", *args], capture_output=True, text=True, env=env, timeout=120)

    p = fg("profile", "--json")
    assert p.returncode == 0, p.stderr
    prof = json.loads(p.stdout)
    assert prof["sessions"] == 2
    assert {k: prof["provisional"][k] for k in ("sessions", "actions")} == {"sessions": 1, "actions": 207}
    text = fg("profile")
    assert "Profile from 2 session(s), 1 of them still open (provisional: 207 action(s) so far" in text.stdout
    c = fg("memory", "consolidate")
    assert c.stdout.strip() == "0 session(s) ingested; 1 open session(s) folded in provisionally (207 action(s))"


def test_the_assistant_and_the_tray_say_how_much_is_provisional(store: Store) -> None:
    from filegram.daemon.assist.facade import Assistant
    from filegram.daemon.health import status_line
    from filegram.daemon.service import provisional_actions
    from filegram.daemon.web.views import profile_page

    from filegram.config import Config

    _work("done", 1_700_000_000_000.0, 20).store_into(store)
    _open_session(store, "now", 1_700_100_000_000.0, 33)
    prof = Assistant(store, Config(), consolidate=True).profile()
    assert (prof["sessions"], prof["provisional"]["sessions"], prof["provisional"]["actions"]) == (2, 1, 33)
    assert provisional_actions(store) == 33
    line = status_line("recording", 1.0, 2.0, 3.0, provisional_actions(store))
    assert line.endswith("(open session provisional: 33 actions)")
    page = profile_page(prof, {}, 0, {})
    assert "1 of them still open (provisional: 33 action(s) so far" in page


def test_status_says_how_much_is_provisional_on_its_own_line(tmp_path: Path) -> None:
    """`filegram status` used to print the raw key glued to its value
    ("memory provisionalsessions 1, actions 12")."""
    home = tmp_path / "home"
    home.mkdir()
    st = Store(home / "filegram.db")
    _work("done", 1_700_000_000_000.0, 20).store_into(st)
    _open_session(st, "now", 1_700_100_000_000.0, 12)
    Memory(st).fold_live()
    st.close()
    out = subprocess.run([sys.executable, "-m", "filegram", "--home", str(home), "status"], capture_output=True,
                         text=True, check=True, env={**os.environ, "COLUMNS": "100"}).stdout
    assert "1 open session(s) folded in provisionally (12 action(s))" in out, out
    assert "provisionalsessions" not in out and "memory provisional" not in out, out
