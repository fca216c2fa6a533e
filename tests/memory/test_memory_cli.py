"""`filegram profile`, `filegram ask` and `filegram memory rebuild` as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import memory_fixtures
import pytest
from filegram.memory import DIMENSIONS

from filegram.store import Store

# pytest fixtures shared by the memory tests (no conftest.py: see memory_fixtures)
persona_store = memory_fixtures.persona_store


def fg(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, FILEGRAM_HOME=str(home), PYTHONUTF8="1")
    return subprocess.run([sys.executable, "-m", "filegram", *args], capture_output=True, text=True, env=env, timeout=120)


@pytest.fixture
def home(tmp_path, persona_store):
    h = tmp_path / "home"
    h.mkdir()
    st, _ = persona_store(h / "filegram.db", {"A": "R", "B": "R", "C": "R", "D": "R", "E": "L", "F": "M"},
                          perturb={"T-12": {"C": "M"}})
    st.close()
    return h


def test_profile_json_shape(home):
    p = fg(home, "profile", "--json")
    assert p.returncode == 0, p.stderr
    prof = json.loads(p.stdout)
    assert set(prof["dimensions"]) == set("ABCDEF")
    for d in prof["dimensions"].values():
        assert d["tier"] in ("L", "M", "R", "unknown")
        assert isinstance(d["confidence"], float) and isinstance(d["evidence"], list)
    assert prof["dimensions"]["C"]["tier"] == "R"
    assert any((a["dimension"], a["from"], a["to"]) == ("C", "R", "M") and a["label"] == "u_T-12"
               for a in prof["anomalies"])
    for a in prof["anomalies"]:
        assert {"session", "dimension", "from", "to", "verdict"} <= set(a)
    text = fg(home, "profile")
    assert text.returncode == 0 and "C Organization  R  " in text.stdout and "u_T-12: C looked M instead of R" in text.stdout


def test_ask_with_choices_and_show_prompt(home):
    choices = [DIMENSIONS["C"].tiers[t] for t in "LMR"]
    p = fg(home, "ask", "Which description fits this user's Organization (C)?", "--choices", *choices, "--show-prompt")
    assert p.returncode == 0, p.stderr
    assert "--- prompt (no model configured" in p.stdout and "## Procedural summary" in p.stdout
    assert p.stdout.strip().splitlines()[-2] == "C. flat (root only)"
    j = json.loads(fg(home, "ask", "Which description fits this user's Organization (C)?", "--choices", *choices, "--json").stdout)
    assert j["choice"] == 2 and j["used_llm"] is False


def test_memory_rebuild_keeps_the_state(home):
    assert fg(home, "memory", "consolidate").returncode == 0
    from filegram.memory import Memory

    st = Store(home / "filegram.db")
    before = Memory(st).snapshot()
    st.close()
    p = fg(home, "memory", "rebuild")
    assert p.returncode == 0 and "rebuilt from 32 session(s)" in p.stdout
    st = Store(home / "filegram.db")
    assert Memory(st).snapshot() == before
    st.close()


def test_bad_input_is_one_line(home):
    p = fg(home, "ask", "  ")
    assert p.returncode == 2 and p.stderr.strip() == "filegram: error: the question is empty"
    (home / "config.toml").write_text('[memory]\nembedder = "word2vec"\n')
    p = fg(home, "memory", "rebuild")
    assert p.returncode == 2 and "memory.embedder must be" in p.stderr
    st = Store(home / "filegram.db")
    assert st.action_count() > 0  # nothing lost
    st.close()
