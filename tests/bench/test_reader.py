"""The offline reader: explicit statements, narrative cues, and options parsed back to claims."""

from __future__ import annotations

from filegram.bench import reader
from filegram.bench.truth import claim_text, tier_text


def test_explicit_tier_statements_decide():
    b = reader.beliefs("C (Organization): R (confidence 0.90)\nA (Consumption): M, confidence 0.6")
    assert b.best("C") == "R" and b.best("A") == "M"
    assert b.best("D") is None  # nothing said about iteration


def test_narrative_cues_vote():
    text = "\n".join([
        "- +1s searched (grep) for 'rent': 3 matches",
        "- +2s searched (glob) for '*.md': 5 matches",
        "- +3s read a.md lines 10-20 (300 chars)",
        "- +4s made folder notes/2025/q1",
        "- +5s created notes/2025/q1/plan.md (9000 chars, 240 lines: \"# Plan\")",
        "- +6s deleted tmp_draft.md (temporary file)",
    ])
    b = reader.beliefs(text)
    assert (b.best("A"), b.best("B"), b.best("C"), b.best("E")) == ("M", "L", "L", "L")


def test_options_parse_back_into_claims():
    q = "Which description best fits their C (Organization)?"
    (c,) = reader.parse_option(tier_text("C", "M"), q)
    assert (c.dim, c.tier) == ("C", "M")
    two = reader.parse_option(f"U1 - {claim_text('A', 'L')}; U2 - {claim_text('A', 'R')}")
    assert [(x.subject, x.dim, x.tier) for x in two] == [("U1", "A", "L"), ("U2", "A", "R")]
    (s,) = reader.parse_option(f"D (Iteration): from L ({tier_text('D', 'L')}) to M ({tier_text('D', 'M')})")
    assert (s.dim, s.change) == ("D", ("L", "M"))
    (t,) = reader.parse_option("Trajectory 4")
    assert t.session == "Trajectory 4"


def test_sections_and_odd_one_out():
    evidence = "\n".join([
        "### Trajectory 1", "C (Organization): L", "### Trajectory 2", "C (Organization): L",
        "### Trajectory 3", "C (Organization): R", "### Trajectory 4", "C (Organization): L",
    ])
    choices = [f"Trajectory {i}" for i in range(1, 5)]
    assert reader.answer_choice("q1", "Which session was done by someone else?", choices, evidence) == 2
    said = evidence + "\nTrajectory 2: most anomalous session"
    assert reader.answer_choice("q1", "Which session was done by someone else?", choices, said) == 1


def test_shift_statement_for_the_named_session():
    q = "In session T-12 this user worked unlike their usual self. Which change characterises that session?"
    choices = [f"D (Iteration): from L ({tier_text('D', 'L')}) to M ({tier_text('D', 'M')})",
               f"C (Organization): from L ({tier_text('C', 'L')}) to R ({tier_text('C', 'R')})"]
    ev = "T-12: candidate 1: C (Organization) shifted from L to R (score 2.0)\nT-12: candidate 2: D (Iteration) shifted from L to M"
    assert reader.answer_choice("s", q, choices, ev) == 1
