"""Profiles, tasks, perturbations and workspaces as published."""

from __future__ import annotations

from collections import Counter

import filegram.simulator as sim
import pytest
from filegram.simulator.workspace import build_workspace

from filegram.errors import FileGramError


def test_profiles_have_19_attributes_and_table9_tiers() -> None:
    assert list(sim.PROFILES) == [f"p{i}" for i in range(1, 21)]
    p1, p18 = sim.PROFILES["p1"], sim.PROFILES["p18"]
    assert "".join(p1.tiers[d] for d in "ABCDEF") == "LLLLLM"
    assert "".join(p18.tiers[d] for d in "ABCDEF") == "RRRRLM"
    assert (p1.name, p1.language, sim.PROFILES["p3"].language) == ("Chen Wei", "zh", "en")
    for p in sim.PROFILES.values():
        assert len(p.attributes) == 19
    for d in "ABCDEF":
        counts = Counter(p.tiers[d] for p in sim.PROFILES.values())
        assert min(counts[t] for t in "LMR") >= 5, d


def test_tasks_have_types_dims_and_inputs() -> None:
    assert list(sim.TASKS) == [f"T-{i:02d}" for i in range(1, 33)]
    assert sim.TASKS["T-16"].dims == ("A", "E", "B", "F")
    assert sim.TASKS["T-03"].empty_workspace and sim.TASKS["T-20"].empty_workspace
    assert Counter(t.type for t in sim.TASKS.values()) == {
        "understand": 6, "create": 6, "organize": 6, "synthesize": 5, "iterate": 6, "maintain": 3}
    assert max(t.input_count for t in sim.TASKS.values()) <= 30


def test_tasks_and_dimensions_speak_the_core_vocabulary() -> None:
    from filegram import vocab

    assert list(sim.TASKS) == list(vocab.TASKS)
    for tid, task in sim.TASKS.items():
        assert (task.type, task.dims) == (vocab.TASKS[tid].type, vocab.TASKS[tid].dims), tid
        assert task.type in vocab.TASK_TYPES
    assert sim.DIMENSIONS == vocab.DIM_IDS


def test_perturbations_as_published() -> None:
    total = 0
    for pid, profile in sim.PROFILES.items():
        pert = sim.perturbation_for(pid)
        assert len(pert) == 5 and set(pert) <= set(sim.CANDIDATE_TASKS)
        for tid, dims in pert.items():
            assert len(dims) == 1
            (dim, shift), = dims.items()
            assert dim in sim.TASKS[tid].dims
            assert shift["original"] == profile.tiers[dim]
            assert abs("LMR".index(shift["perturbed"]) - "LMR".index(shift["original"])) == 1
            total += 1
        assert pert == sim.perturbation_for(pid)
    assert total == 100
    with pytest.raises(FileGramError):
        sim.perturbation_for("p99")


def test_workspace_is_deterministic_and_meaningful() -> None:
    a = build_workspace("T-02", 3, "en")
    build_workspace.cache_clear()
    b = build_workspace("T-02", 3, "en")
    assert a.files == b.files  # byte for byte, office files and PDFs included
    exts = Counter(p.rsplit(".", 1)[1] for p in a.files)
    assert exts == {"eml": 6, "pdf": 5, "docx": 5, "txt": 3, "png": 2, "xlsx": 1, "ics": 1, "wav": 1}
    assert a.files != build_workspace("T-02", 4, "en").files
    zh = build_workspace("T-02", 3, "zh")
    text = "".join(d.decode() for p, d in zh.files.items() if p.endswith(".eml"))
    assert "租赁纠纷" in text or "证人陈述" in text
    # the same entities recur, so a search finds several files
    ent = a.world.entities[0]
    hits = [p for p, d in a.files.items() if p.endswith((".eml", ".txt")) and ent.encode() in d]
    assert len(hits) >= 2
    assert next(d for p, d in a.files.items() if p.endswith(".pdf")).startswith(b"%PDF")
    assert next(d for p, d in a.files.items() if p.endswith(".wav"))[:4] == b"RIFF"
