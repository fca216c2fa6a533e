"""The deterministic answerer and question routing."""

from __future__ import annotations

import memory_fixtures
import pytest
from filegram.memory import DIMENSIONS, Memory
from filegram.memory.evidence import assemble, route

from filegram.errors import FileGramError

# pytest fixtures shared by the memory tests (no conftest.py: see memory_fixtures)
persona_store = memory_fixtures.persona_store

P17 = {"A": "L", "B": "L", "C": "L", "D": "L", "E": "M", "F": "L"}


@pytest.fixture(scope="module")
def p17_memory(tmp_path_factory, persona_store):
    st, ids = persona_store(tmp_path_factory.mktemp("p17") / "m.db", P17, perturb={"T-31": {"F": "M"}})
    mem = Memory(st)
    mem.consolidate()
    yield mem, ids
    st.close()


@pytest.mark.parametrize("dim", list("ABCDEF"))
def test_attribute_questions_pick_the_users_tier(p17_memory, dim):
    mem, _ = p17_memory
    d = DIMENSIONS[dim]
    choices = [d.tiers[t] for t in "RLM"]  # order must not matter
    ans = mem.ask(f"Which description fits this user's {d.name} ({dim})?", choices)
    assert choices[ans.choice] == d.tiers[P17[dim]], ans.text
    assert not ans.used_llm and ans.text.startswith("ABC"[ans.choice])


def test_shift_question_about_a_named_session(p17_memory):
    mem, ids = p17_memory
    label = "u_T-31"
    choices = ["F: M -> L", "F: L -> M", "B: L -> M", "C: L -> M"]
    ans = mem.ask(f"Which change characterises the trajectory {label}?", choices)
    assert choices[ans.choice] == "F: L -> M", ans.scores
    worded = ["Cross-modal shifted from text only to visual-heavy",
              "Cross-modal shifted from visual-heavy (charts, images, CSV, figures dir) to balanced (markdown tables)",
              "Production became minimal"]
    assert mem.ask(f"How did behaviour shift in {label}?", worded).choice == 1


def test_open_answers_come_from_templates(p17_memory):
    mem, _ = p17_memory
    text = mem.ask("How does this user organise folders?").text
    assert "C (Organization): L, deeply nested" in text
    assert "Consumption" not in text


def test_routing():
    assert route("How deep are this user's folder hierarchies?") == ["C"]
    assert route("Does the user delete temporary files?") == ["E"]
    assert "A" in route("How does she search for information?")
    assert route("zzz qqq") == list("ABCDEF")


def test_evidence_order_and_budget(p17_memory):
    mem, _ = p17_memory
    ev = assemble(mem, "How does this user organise folders?")
    names = [n for n, _ in ev.sections]
    order = ["Procedural summary", "Semantic samples", "Episodic clusters", "Anomalies", "Episodes"]
    assert [n for n in names if n in order] == [n for n in order if n in names]
    assert names[0] == "Procedural summary"
    small = assemble(mem, "How does this user organise folders?", budget=120)
    assert small.truncated and len(small.text) < len(ev.text)


def test_empty_question_is_a_clear_error(p17_memory):
    mem, _ = p17_memory
    with pytest.raises(FileGramError):
        mem.ask("   ")


def test_profile_reconstruction_covers_all_dimensions(p17_memory):
    mem, _ = p17_memory
    text = mem.ask("Write this user's profile over all dimensions.").text
    for dim, d in DIMENSIONS.items():
        assert f"{dim} ({d.name}): {P17[dim]}" in text


def test_unknown_session_is_a_clear_error(p17_memory):
    mem, _ = p17_memory
    with pytest.raises(FileGramError, match="no session 'nope'"):
        mem.ask("What changed?", session="nope")
    assert mem.ask("What changed in this session?", session="u_T-31").text


def test_bench_worded_options(p17_memory):
    """Options as the bench writes them (claim and shift texts built from DIMENSIONS)."""
    mem, _ = p17_memory

    def claim(d, t):
        return f"{d} ({DIMENSIONS[d].name}): {DIMENSIONS[d].tiers[t]}"

    def shift(d, a, b):
        return f"{d} ({DIMENSIONS[d].name}): from {a} ({DIMENSIONS[d].tiers[a]}) to {b} ({DIMENSIONS[d].tiers[b]})"

    opts = [shift("F", "M", "L"), shift("F", "L", "M"), shift("C", "L", "M"), shift("B", "L", "M")]
    ans = mem.ask("In session u_T-31 this user worked unlike their usual self. Which change characterises that session?", opts)
    assert ans.choice == 1, ans.scores
    opts = [f"{claim('C', 'R')}; {claim('D', 'L')}", f"{claim('C', 'L')}; {claim('D', 'L')}",
            f"{claim('C', 'L')}; {claim('D', 'R')}", f"{claim('C', 'M')}; {claim('D', 'M')}"]
    ans = mem.ask("This user is about to start task quarterly summary, which they have not done before. "
                  "How will they most likely work?", opts)
    assert ans.choice == 1, ans.scores
