"""`filegram search` over frames, files and memory, without a display."""

from __future__ import annotations

import json
import time
from pathlib import Path

from filegram.recorder.screen import store as ss
from screen_helpers import run_cli

from filegram.config import Home
from filegram.store import Store

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def add(store: Store, title: str, text: str | None = None, ts: float | None = None) -> int:
    return ss.add_frame(store, ts=ts or time.time() * 1000, session_id=None, monitor=1, window_title=title,
                        app="editor", width=10, height=10, image=b"RIFF....WEBP", fmt="webp", ocr_text=text)


def test_frames_are_found_in_any_script_and_by_short_words(tmp_path):
    store = Store(tmp_path / "db.sqlite")
    ss.ensure_tables(store)
    zh = add(store, "投资分析工作概览 - Editor", "本报告总结了三位分析师的工作")
    en = add(store, "Quarterly report - Editor", "revenue grew in Q3 for the EU team")
    assert [f["id"] for f in ss.search_frames(store, "分析师")] == [zh]
    assert [f["id"] for f in ss.search_frames(store, "quarterly revenue")] == [en]  # title + text
    assert [f["id"] for f in ss.search_frames(store, "Q3 EU")] == [en]  # shorter than a trigram
    assert ss.search_frames(store, "quarterly 分析师") == []  # every word must match
    assert ss.search_frames(store, '"; DROP TABLE frames; --') == []
    assert "分析师" in ss.search_frames(store, "分析师")[0]["snippet"]


def test_search_command_covers_files_and_memory(fg_home):
    home = Home(fg_home)
    imp = run_cli("import", str(FIXTURES / "p1_T-01"), str(FIXTURES / "p3_T-12"), home=fg_home)
    assert imp.returncode == 0, imp.stderr
    from filegram.memory import Memory

    store = home.open_store()
    assert Memory(store, home.load_config()).consolidate() == 2
    ss.ensure_tables(store)
    fid = add(store, "scratch_notes.txt - Vim", "temp notes: check the numbers")
    store.close()
    out = run_cli("search", "notes", "--json", home=fg_home)
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout)
    assert res["query"] == "notes"
    assert [f["id"] for f in res["frames"]] == [fid]
    # p1 wrote scratch_notes.txt and deleted it again: a file that is gone is not offered
    assert res["files"] == []
    assert "scratch_notes.txt" not in [m["path"] for m in res["memory"]]
    assert all("[notes" in m["text"].lower() for m in res["memory"])
    out = run_cli("search", "report", "--json", home=fg_home)
    res = json.loads(out.stdout)
    assert res["files"] and all("[report" in f["match"].lower() for f in res["files"]), res["files"]
    assert res["memory"] and all("[report" in m["text"].lower() for m in res["memory"]), res["memory"]
    plain = run_cli("search", "report", home=fg_home)
    assert "files (" in plain.stdout and "memory (" in plain.stdout and "[report" in plain.stdout.lower()
    bad = run_cli("search", "x", "--limit", "0", home=fg_home)
    assert bad.returncode == 2 and "--limit" in bad.stderr


def test_search_on_a_fresh_home_finds_nothing_and_writes_nothing(fg_home):
    out = run_cli("search", "anything", home=fg_home)
    assert out.returncode == 0 and "nothing found" in out.stdout
    assert not Home(fg_home).db_path.exists()


def test_session_text_for_memory(tmp_path):
    from filegram.recorder.screen import screen_text_for_session

    store = Store(tmp_path / "db.sqlite")
    ss.ensure_tables(store)
    sid = store.open_session()
    for title, text in [("a.md - Vim", "alpha"), ("a.md - Vim", "alpha"), ("b.md - Vim", None)]:
        ss.add_frame(store, ts=time.time() * 1000, session_id=sid, monitor=1, window_title=title, app="vim",
                     width=1, height=1, image=b"x", fmt="webp", ocr_text=text)
    assert screen_text_for_session(store, sid) == "a.md - Vim\nalpha\nb.md - Vim"
    assert screen_text_for_session(store, "other") == ""


def test_forget_removes_frames_with_their_text_and_bytes(tmp_path):
    from filegram.forget import forget

    store = Store(tmp_path / "db.sqlite")
    ss.ensure_tables(store)
    now = time.time() * 1000
    old = add(store, "plan.md - Vim", "kiwi orchard", ts=now - 3_600_000)
    new = add(store, "todo.md - Vim", "kiwi harvest", ts=now)
    before = ss.day_usage(store, ss.day_of(now))["bytes"]
    forget(store, since_ms=now - 60_000, rebuild_memory=False)
    assert [f["id"] for f in ss.search_frames(store, "kiwi")] == [old]
    assert ss.get_frame(store, new) is None
    if ss.day_of(now) == ss.day_of(now - 3_600_000):
        assert ss.day_usage(store, ss.day_of(now))["bytes"] < before
    forget(store, everything=True, rebuild_memory=False)
    assert ss.search_frames(store, "kiwi") == [] and ss.totals(store)["frames"] == 0
    assert store.conn.execute("SELECT COUNT(*) FROM screen_fts").fetchone()[0] == 0
