"""`ask` routes by question (issue 17): habits go to the profile, what happened is answered
from the trace with files and times as evidence, and anything else is "I can't tell". The
fixed week of ask_week.py, offline (no model)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC

import pytest
from ask_week import CASES, NOW, build_week, check
from filegram.memory import Memory

from filegram.store import Store


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    st = Store(tmp_path_factory.mktemp("week") / "filegram.db")
    build_week(st)
    m = Memory(st)
    m.consolidate()
    yield m
    st.close()


def test_the_set_has_at_least_40_questions_of_every_kind() -> None:
    routes = [w["route"] for _, w in CASES]
    assert len(CASES) >= 40 and routes.count("trace") >= 25 and routes.count("none") >= 6 and routes.count("profile") >= 5


@pytest.mark.parametrize(("question", "want"), CASES, ids=[q for q, _ in CASES])
def test_question(mem: Memory, question: str, want: dict) -> None:
    ans = mem.ask(question, now=NOW, tz=UTC)
    assert not check(ans, want), (check(ans, want), ans.text, ans.facts)
    assert ans.used_llm is False
    if want["route"] == "trace" and ans.facts.get("count", 1):
        # the evidence is the actions with their times
        assert "2026-11-" in ans.evidence
    if want["route"] == "profile":
        assert "Procedural summary" in ans.evidence


def test_unpacked_files_are_not_what_i_worked_on(mem: Memory) -> None:
    ans = mem.ask("What did I work on on Wednesday?", now=NOW, tz=UTC)
    assert "dataset" not in ans.text and "dataset" not in ans.evidence


def test_show_prompt_is_the_routed_evidence(mem: Memory) -> None:
    prompt = mem.prompt("Which files did I edit most?", now=NOW, tz=UTC)
    assert "From the recorded trace" in prompt and "reports/q4-budget.md" in prompt and "Procedural summary" not in prompt
    assert "file_edit" in prompt and "2026-11-24 10:00" in prompt
    assert mem.prompt("What did I have for lunch?", now=NOW, tz=UTC).startswith("(nothing")
    assert "Procedural summary" in mem.prompt("How do I organise my files?", now=NOW, tz=UTC)


def test_score(mem: Memory, capsys: pytest.CaptureFixture[str]) -> None:
    right = sum(not check(mem.ask(q, now=NOW, tz=UTC), w) for q, w in CASES)
    with capsys.disabled():
        print(f"\nask routing: {right}/{len(CASES)} right")
    assert right == len(CASES)


def test_a_deleted_file_is_marked(mem: Memory) -> None:
    ans = mem.ask("What did I work on yesterday?", now=NOW, tz=UTC)
    assert "reports/q4-budget.md.bak (deleted)" in ans.text


