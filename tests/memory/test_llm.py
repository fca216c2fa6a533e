"""The LLM path end to end: litellm talks to a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path

import memory_fixtures
import pytest
from filegram.memory import DIMENSIONS, Memory
from memory_fake_llm import FakeLLM

from filegram.config import Config
from filegram.privacy import PathFilter
from filegram.store import Store
from filegram.trajectory import import_paths

# pytest fixtures shared by the memory tests (no conftest.py: see memory_fixtures)
session_builder = memory_fixtures.session_builder
persona_store = memory_fixtures.persona_store

SECRET = "sk-proj-Q7bV2xLm9TfR4kWz8NcY1pHs6GdJ3aE0uK5i"


def _config(api_base: str, timeout: float = 5.0) -> Config:
    cfg = Config()
    cfg.data["llm"].update(model="openai/fake-model", api_base=api_base, timeout_seconds=timeout, max_retries=0)
    return cfg


def _write_trajectory(folder: Path, session_builder) -> None:
    """A trajectory with a secret in its content and a read of a denied path."""
    root = "/home/u/ws"
    b = session_builder("traj-1")
    b.read(f"{root}/notes/plan.md").read(f"{root}/notes/plan.md", view_count=2).read(f"{root}/notes/todo.md")
    b.read(f"{root}/.ssh/id_rsa")
    b.write(f"{root}/itinerary.md", f"# Kyoto itinerary\n\nshrine at dawn\nAPI_KEY={SECRET}\n" + "- walk\n" * 40)
    (folder / "media" / "blobs").mkdir(parents=True)
    for h, data in b.blobs.items():
        (folder / "media" / "blobs" / f"{h}.blob").write_bytes(data)
    (folder / "events.json").write_text(json.dumps(b.events))
    (folder / "summary.json").write_text(json.dumps({"workspace_root": root, "task_id": "T-01"}))


@pytest.fixture
def memory_with_trace(tmp_path, session_builder):
    folder = tmp_path / "p9_T-01"
    _write_trajectory(folder, session_builder)
    store = Store(tmp_path / "m.db")
    import_paths(store, [folder], path_filter=PathFilter())
    yield store
    store.close()


QUESTION = "Which description fits this user's Consumption (A)?"
CHOICES = [DIMENSIONS["A"].tiers[t] for t in "LMR"]


def test_prompt_holds_the_evidence_and_nothing_excluded(memory_with_trace):
    with FakeLLM("Answer: A\nDeep reading with revisits.") as llm:
        mem = Memory(memory_with_trace, _config(llm.api_base))
        mem.consolidate()  # may ask the tier judge about uncertain dimensions first
        judged = len(llm.requests)
        assert all("Judge one dimension" in r["body"]["messages"][0]["content"] for r in llm.requests)
        ans = mem.ask(QUESTION, CHOICES)
        assert ans.used_llm and ans.choice == 0 and not ans.warnings
        assert len(llm.requests) == judged + 1
        sent = llm.requests[-1]["body"]
        assert sent["model"] == "fake-model"
        text = "\n".join(m["content"] for m in sent["messages"])
        assert "## Procedural summary" in text and "A (Consumption)" in text
        assert all(c in text for c in CHOICES)
        assert "Kyoto" in text  # semantic sample of what was written
        assert SECRET not in text and "[REDACTED" in text
        assert "id_rsa" not in text and ".ssh" not in text
        # --show-prompt prints exactly these messages
        assert mem.prompt(QUESTION, CHOICES) == "\n\n".join(f"[{m['role']}]\n{m['content']}" for m in sent["messages"])


@pytest.mark.parametrize("mode,warning", [("error", "LLM failed"), ("garbage", "names no option"), ("slow", "LLM failed")])
def test_failures_fall_back_to_the_deterministic_answer(memory_with_trace, mode, warning):
    with FakeLLM() as llm:
        llm.mode = mode
        mem = Memory(memory_with_trace, _config(llm.api_base, timeout=1.0))
        mem.consolidate()
        offline = Memory(memory_with_trace, Config()).ask(QUESTION, CHOICES)
        ans = mem.ask(QUESTION, CHOICES)
        assert not ans.used_llm
        assert ans.choice == offline.choice is not None
        assert any(warning in w for w in ans.warnings), ans.warnings
        assert llm.requests  # it did try


def test_open_question_goes_to_the_model(memory_with_trace):
    with FakeLLM("This user reads deeply and revisits files.") as llm:
        mem = Memory(memory_with_trace, _config(llm.api_base))
        mem.consolidate()
        ans = mem.ask("How does this user read?")
        assert ans.used_llm and ans.choice is None and "revisits" in ans.text


def test_connection_refused_falls_back(memory_with_trace):
    with FakeLLM() as llm:
        base = llm.api_base
    mem = Memory(memory_with_trace, _config(base, timeout=1.0))
    mem.consolidate()
    ans = mem.ask(QUESTION, CHOICES)
    assert not ans.used_llm and ans.warnings and ans.choice is not None


def test_no_model_means_no_request(memory_with_trace):
    with FakeLLM() as llm:
        mem = Memory(memory_with_trace, Config())
        mem.consolidate()
        ans = mem.ask(QUESTION, CHOICES)
        assert not ans.used_llm and not ans.warnings
        assert llm.requests == []


def test_episode_narratives_only_when_asked_for(memory_with_trace):
    with FakeLLM("The user read plans, then wrote an itinerary.") as llm:
        cfg = _config(llm.api_base)
        cfg.data["memory"]["llm_judge"] = False
        mem = Memory(memory_with_trace, cfg)
        mem.consolidate()
        assert llm.requests == []  # off by default: ingest makes no call
        mem.rebuild()
        cfg.data["memory"]["llm_episode_narratives"] = True
        mem.rebuild()
        assert len(llm.requests) == 1
        sent = llm.requests[0]["body"]["messages"][0]["content"]
        assert "episodes of one work session" in sent and SECRET not in sent
        prompt = mem.prompt("What did the user do?")
        assert "The user read plans, then wrote an itinerary." in prompt


def test_llm_judges_only_the_uncertain_flags(tmp_path, persona_store):
    st, _ = persona_store(tmp_path / "p3.db", {"A": "M", "B": "R", "C": "R", "D": "R", "E": "M", "F": "R"},
                          perturb={"T-12": {"C": "M"}})
    offline = Memory(st, Config())
    offline.consolidate()
    before = offline.profile()["anomalies"]
    uncertain = [a for a in before if a["verdict"] == "uncertain"]
    assert uncertain, "fixture should produce at least one uncertain flag"
    st.close()
    st = Store(tmp_path / "p3.db")
    with FakeLLM("Genuine: this session reads differently from the user's habit.") as llm:
        mem = Memory(st, _config(llm.api_base))
        assert mem.judge_uncertain() == len(uncertain)
        assert len(llm.requests) == len(uncertain)
        sent = llm.requests[0]["body"]["messages"][0]["content"]
        assert "usually" in sent and "task-dependent, genuine or uncertain" in sent
        after = {(a["session"], a["dimension"]): a for a in mem.profile()["anomalies"]}
        for a in before:
            b = after[(a["session"], a["dimension"])]
            if a["verdict"] == "uncertain":
                assert b["verdict"] == "genuine" and b["judge"] == "llm"
            else:
                assert b["verdict"] == a["verdict"] and b["judge"] == "rules"
        assert mem.judge_uncertain() == 0  # judged once, stored
    st.close()


def test_tier_judge_is_asked_only_where_the_rules_are_unsure(tmp_path, session_builder):
    # Three sessions: enough to see what they showed, too little for the rules to be sure.
    st = Store(tmp_path / "few.db")
    for i in range(3):  # one folder in three chances: the rules cannot say M or R
        b = session_builder(f"s{i}", start_ms=1.7e12 + i * 1e7)
        if i == 0:
            b.add("dir_create", dir_path="notes", depth=1, sibling_count=0)
        b.write("notes/r.md" if i == 0 else "r.md", "# r\n" + "line\n" * 30)
        b.store_into(st)
    offline = Memory(st, Config())
    offline.consolidate()
    before = offline.profile()["dimensions"]
    unsure = sorted(d for d, p in before.items() if p["sessions"] and (p["tier"] == "unknown" or p["confidence"] < 0.8))
    assert "C" in unsure and before["C"]["judge"] == "rules"
    st.close()
    st = Store(tmp_path / "few.db")
    with FakeLLM("M - folders one level deep in both sessions.") as llm:
        mem = Memory(st, _config(llm.api_base))
        assert mem.judge_tiers() == len(unsure)
        assert len(llm.requests) == len(unsure)
        sent = [r["body"]["messages"][0]["content"] for r in llm.requests]
        assert any("Organization" in s and "adaptive (1-2 levels)" in s and "abstain" in s for s in sent)
        after = mem.profile()["dimensions"]
        assert after["C"]["tier"] == "M" and after["C"]["judge"] == "llm"
        assert any("language model judged M" in e for e in after["C"]["evidence"])
        for d, p in after.items():
            if d not in unsure:
                assert p["judge"] == "rules" and p == before[d]
        assert mem.judge_tiers() == 0  # judged once, kept while the evidence is unchanged
    with FakeLLM("abstain: two sessions say little.") as llm:
        mem = Memory(st, _config(llm.api_base))
        mem.store.conn.execute("DELETE FROM mem_tier_judgements")
        mem.judge_tiers()
        assert mem.profile()["dimensions"]["C"]["tier"] == "unknown"
    st.close()


def test_profile_show_prompt_prints_the_judge_prompt_without_a_model(tmp_path, session_builder, capsys):
    from filegram.cli import main

    home = tmp_path / "home"
    st = Store(home / "filegram.db")
    for i in range(3):
        b = session_builder(f"s{i}", start_ms=1.7e12 + i * 1e7)
        if i == 0:
            b.add("dir_create", dir_path="notes", depth=1, sibling_count=0)
        b.write("notes/r.md" if i == 0 else "r.md", "# r\n" + "line\n" * 30)
        b.store_into(st)
    st.close()
    assert main(["--home", str(home), "profile", "--show-prompt"]) == 0
    out = capsys.readouterr().out
    assert "judge prompt for C" in out and "Reply with one of L, M, R, or abstain" in out
    assert "no model is configured" in out


def test_a_question_about_what_happened_hands_the_model_the_routed_evidence(memory_with_trace):
    with FakeLLM("You wrote itinerary.md.") as llm:
        mem = Memory(memory_with_trace, _config(llm.api_base))
        mem.consolidate()
        before = len(llm.requests)
        ans = mem.ask("What did I write about Kyoto?")
        assert ans.used_llm and ans.route == "trace" and ans.facts["files"] == ["itinerary.md"]
        (req,) = llm.requests[before:]
        sent = "\n".join(m["content"] for m in req["body"]["messages"])
        assert sent == "\n".join(m["content"] for m in json_messages(mem.prompt("What did I write about Kyoto?")))
        assert "From the recorded trace" in sent and "itinerary.md" in sent and "Procedural summary" not in sent
        assert SECRET not in sent and "id_rsa" not in sent
        # a question nothing recorded can answer is not sent anywhere
        before = len(llm.requests)
        ans = mem.ask("What did I have for lunch?")
        assert ans.route == "none" and "can't tell" in ans.text and len(llm.requests) == before


def json_messages(prompt: str) -> list[dict[str, str]]:
    """The messages of a --show-prompt text ("[role]\\ncontent" blocks)."""
    out = []
    for block in prompt.split("\n\n["):
        role, _, content = block.lstrip("[").partition("]\n")
        out.append({"role": role, "content": content})
    return out
