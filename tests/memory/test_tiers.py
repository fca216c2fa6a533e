"""Tier classification follows table 2's definitions, per session and per user."""

from __future__ import annotations

import memory_fixtures
import pytest
from filegram.memory import (
    DIMENSIONS,
    encode_session,
    match_profiles,
    session_tiers,
    tiers_from_fingerprint,
)
from filegram.memory.tiers import aggregate_votes

# pytest fixtures shared by the memory tests (no conftest.py: see memory_fixtures)
session_builder = memory_fixtures.session_builder


def _tiers(b, task_id=None):
    return encode_session(b.events, b.get_blob, task_id=task_id).tiers


def _doc(lines: int, heading_depth: int = 1, bullets: bool = False) -> str:
    out = ["# Title"]
    for i in range(lines - 1):
        if heading_depth >= 3 and i % 20 == 0:
            out.append("### Part")
        elif bullets:
            out.append(f"- point {i}")
        else:
            out.append(f"Sentence number {i} about the budget review.")
    return "\n".join(out[:lines]) + "\n"


@pytest.mark.parametrize("style,expected", [("deep", "L"), ("search", "M"), ("browse", "R")])
def test_consumption(session_builder, style, expected):
    b = session_builder()
    files = [f"in/f{i}.md" for i in range(5)]
    if style == "deep":
        for f in files:
            b.read(f)
        for f in files[:3]:
            b.read(f, view_count=2)
    elif style == "search":
        for f in files[:4]:
            b.add("file_search", search_type="grep", query="risk", files_matched=2, files_opened_after=[f])
            b.read(f, view_range=[40, 60])
    else:
        for d in ("in", "in/a", "in/b", "."):
            b.add("file_browse", directory_path=d, files_listed=9, depth=d.count("/"))
        for f in files[:3]:
            b.read(f, view_range=[1, 15])
    assert _tiers(b)["A"]["tier"] == expected


@pytest.mark.parametrize("files,lines,hd,bullets,expected", [
    (3, 120, 3, False, "L"),   # comprehensive: >= 3 files, well over 200 lines, deep headings
    (1, 260, 3, False, "L"),
    (1, 110, 2, False, "M"),   # balanced: one file of 80-150 lines
    (1, 40, 1, True, "R"),     # minimal: <= 60 lines of bullets
])
def test_production(session_builder, files, lines, hd, bullets, expected):
    b = session_builder()
    for i in range(files):
        b.write(f"out_{i}.md", _doc(lines, hd, bullets))
    assert _tiers(b)["B"]["tier"] == expected


@pytest.mark.parametrize("dirs,target,expected", [
    (["a", "a/b", "a/b/c"], "a/b/c/report.md", "L"),
    (["notes"], "notes/report.md", "M"),
    ([], "report.md", "R"),
])
def test_organization(session_builder, dirs, target, expected):
    b = session_builder()
    for d in dirs:
        b.add("dir_create", dir_path=d, depth=d.count("/") + 1, sibling_count=0)
    b.write(target, _doc(50))
    assert _tiers(b)["C"]["tier"] == expected


@pytest.mark.parametrize("kind,expected", [("small", "L"), ("medium", "M"), ("rewrite", "R")])
def test_iteration(session_builder, kind, expected):
    b = session_builder()
    b.write("r.md", _doc(100))
    if kind == "small":
        b.add("file_copy", source_path="r.md", dest_path="r_backup.md", is_backup=True)
        for _ in range(5):
            b.edit("r.md", 2, 1)
    elif kind == "medium":
        for _ in range(3):
            b.edit("r.md", 12, 8)
    else:
        b.write("r.md", _doc(90), op="overwrite")
        b.write("r.md", _doc(95), op="overwrite")
    assert _tiers(b)["D"]["tier"] == expected


@pytest.mark.parametrize("deletes,temp,expected", [(3, 2, "L"), (1, 0, "M"), (0, 0, "R")])
def test_curation(session_builder, deletes, temp, expected):
    b = session_builder()
    b.write("a.md", _doc(30)).write("b.md", _doc(30))
    for i in range(deletes):
        b.add("file_delete", file_path=f"tmp_{i}.md" if i < temp else f"old_{i}.md", file_age_ms=1.0, was_temporary=i < temp)
    assert _tiers(b)["E"]["tier"] == expected


@pytest.mark.parametrize("kind,expected", [("visual", "L"), ("tables", "M"), ("text", "R")])
def test_cross_modal(session_builder, kind, expected):
    b = session_builder()
    if kind == "visual":
        b.add("dir_create", dir_path="figures", depth=1, sibling_count=0)
        b.write("figures/trend.png", "png").write("data.csv", "a,b\n1,2\n")
        b.write("report.md", _doc(60))
    elif kind == "tables":
        b.write("report.md", _doc(60) + "| a | b |\n|---|---|\n" + "| 1 | 2 |\n" * 8)
    else:
        b.write("report.md", _doc(60))
    assert _tiers(b)["F"]["tier"] == expected


def test_only_dimensions_the_task_exercises_vote(session_builder):
    b = session_builder()
    b.read("a.md").read("b.md").read("a.md", view_count=2).read("b.md", view_count=2)
    b.write("out.md", _doc(120))
    b.add("dir_create", dir_path="x", depth=1, sibling_count=0)
    t = _tiers(b, task_id="T-01")  # understand: A, B
    assert set(t) == {"A", "B"}
    assert set(_tiers(b)) >= {"A", "B", "C"}  # task unknown: whatever has evidence


def test_no_evidence_no_vote(session_builder):
    b = session_builder()
    b.read("a.md")
    assert _tiers(b) == {}


def test_unexercised_dimension_is_unknown_not_guessed():
    agg = aggregate_votes({"A": {"L": 2.0, "M": 0.5}}, {"A": 3})
    assert agg["A"]["tier"] == "L" and 0 < agg["A"]["confidence"] < 1
    for dim in "BCDEF":
        assert agg[dim]["tier"] == "unknown" and agg[dim]["confidence"] == 0.0


def test_fingerprint_only_classification_and_profile_matching():
    fp = {"search_ratio": 0.4, "browse_ratio": 0.05, "revisit_ratio": 0.0, "files_created": 1, "total_output_chars": 1500,
          "avg_output_length": 1500, "dirs_created": 0, "max_dir_depth": 0, "files_moved": 0}
    est = tiers_from_fingerprint(fp)
    assert est["A"]["tier"] == "M" and est["B"]["tier"] == "R" and est["C"]["tier"] == "R"
    scores = match_profiles(est, {"p3": {"A": "M", "B": "R", "C": "R"}, "p1": {"A": "L", "B": "L", "C": "L"}})
    assert scores["p3"] > scores["p1"]


def test_descriptions_are_table_2():
    assert DIMENSIONS["C"].tiers == {"L": "deeply nested (3+ levels, moves into subfolders)",
                                     "M": "adaptive (1-2 levels)", "R": "flat (root only)"}
    assert [d.name for d in DIMENSIONS.values()] == ["Consumption", "Production", "Organization", "Iteration",
                                                     "Curation", "Cross-modal"]
    assert session_tiers({}, None) == {}
