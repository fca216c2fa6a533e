"""The offline reader: one cue extraction for every text, options in the bench's own words."""

from __future__ import annotations

import random

import pytest
from filegram.bench import reader
from filegram.bench.wording import OPTION_WORDS, Wording

from filegram.vocab import DIM_IDS, TIER_DESCRIPTIONS, TIERS, dimension_label


def test_behaviour_words_decide_and_tier_letters_do_not():
    b = reader.beliefs("C (Organization): flat (root only) (confidence 0.90)\n"
                       "A (Consumption): targeted search-first (grep/glob, line ranges)")
    assert b.best("C") == "R" and b.best("A") == "M"
    assert b.best("D") is None  # nothing said about iteration
    # a bare tier letter, a confidence or a score is not evidence, whoever writes it
    bare = reader.beliefs("C (Organization): L (confidence 0.99)\nT-12: C (Organization) shifted from L to M (score 9)")
    assert all(bare.best(d) is None for d in DIM_IDS)


def test_every_wording_reads_back_as_its_own_tier_and_no_other_dimension():
    for d in DIM_IDS:
        for t in TIERS:
            for text in (*OPTION_WORDS[d][t], TIER_DESCRIPTIONS[d][t]):
                b = reader.beliefs(f"{dimension_label(d)}: {text}")
                assert b.best(d) == t, (d, t, text, reader.cue_votes(f"{dimension_label(d)}: {text}")[d])
                assert all(b.weight[x] == 0 for x in DIM_IDS if x != d), (d, t, text)


def test_options_are_never_table_2_or_memory_wording():
    from filegram.memory import DIMENSIONS

    ours = {w.lower() for d in OPTION_WORDS.values() for ws in d.values() for w in ws}
    theirs = {TIER_DESCRIPTIONS[d][t].lower() for d in DIM_IDS for t in TIERS}
    theirs |= {DIMENSIONS[d].tiers[t].lower() for d in DIM_IDS for t in TIERS}
    assert not ours & theirs
    assert all(len(OPTION_WORDS[d][t]) >= 3 for d in DIM_IDS for t in TIERS)
    assert not any(" to " in w for w in ours)  # " to " separates the sides of a change option


def test_narrative_cues_vote():
    text = "\n".join([
        "- +1s searched (grep) for 'rent': 3 matches",
        "- +2s searched (glob) for '*.md': 5 matches",
        "- +3s read a.md lines 10-20 (300 chars)",
        "- +4s made folder notes/2025/q1",
        "- +5s created notes/2025/q1/plan.md (9000 chars, 240 lines: \"# Plan, never deletes, flat\")",
        "- +6s deleted tmp_draft.md (temporary file)",
    ])
    b = reader.beliefs(text)
    assert (b.best("A"), b.best("B"), b.best("C"), b.best("E")) == ("M", "L", "L", "L")


def test_options_parse_back_into_claims():
    w = Wording(random.Random(1))
    q = "Which description best fits their C (Organization)?"
    (c,) = reader.parse_option(w.text("C", "M"), q)
    assert (c.dim, c.tier) == ("C", "M")
    two = reader.parse_option(f"U1 - {w.claim('A', 'L')}; U2 - {w.claim('A', 'R')}")
    assert [(x.subject, x.dim, x.tier) for x in two] == [("U1", "A", "L"), ("U2", "A", "R")]
    (s,) = reader.parse_option(w.change("D", "L", "M"))
    assert (s.dim, s.change) == ("D", ("L", "M"))
    # the official release's wording (table 2) is understood too
    (o,) = reader.parse_option(TIER_DESCRIPTIONS["A"]["R"], "Which fits their A (Consumption)?")
    assert (o.dim, o.tier) == ("A", "R")
    (t,) = reader.parse_option("Trajectory 4")
    assert t.session == "Trajectory 4"


@pytest.mark.parametrize("seed", range(4))
def test_wordings_are_drawn_by_seed_and_consistent_within_a_question(seed):
    w = Wording(random.Random(seed))
    first = w.claim("B", "M")
    assert w.claim("B", "M") == first and first.split(": ", 1)[1] in OPTION_WORDS["B"]["M"]
    drawn = {Wording(random.Random(s)).text("E", "R") for s in range(30)}
    assert len(drawn) == len(OPTION_WORDS["E"]["R"])


def test_sessions_side_by_side_and_unusual_statements():
    rows = {1: "L", 2: "L", 3: "R", 4: "L"}
    evidence = "\n".join(f"### Trajectory {i}\nC (Organization): {TIER_DESCRIPTIONS['C'][t]}" for i, t in rows.items())
    choices = [f"Trajectory {i}" for i in range(1, 5)]
    assert reader.answer_choice("q1", "Which session was done by someone else?", choices, evidence) == 2
    # a statement that a session is unusual weighs half a dimension of clear disagreement: it
    # decides between sessions that look alike, not against a clear difference
    alike = "\n".join(f"### Trajectory {i}\nC (Organization): {TIER_DESCRIPTIONS['C']['L']}" for i in range(1, 5))
    said = alike + "\nTrajectory 2: flagged as drift (genuine)"
    assert reader.answer_choice("q1", "Which session was done by someone else?", choices, said) == 1
    assert reader.answer_choice("q1", "Which?", choices, evidence + "\nTrajectory 2: flagged as drift") == 2


def test_shift_read_from_the_named_session_against_the_rest():
    w = Wording(random.Random(0))
    q = "In session T-12 this user worked unlike their usual self. Which change characterises that session?"
    choices = [w.change("D", "L", "M"), w.change("C", "R", "M"), w.change("C", "M", "R")]
    ev = "\n".join(["### user profile", f"C (Organization): {TIER_DESCRIPTIONS['C']['R']}",
                    f"D (Iteration): {TIER_DESCRIPTIONS['D']['L']}",
                    "### T-12", f"C (Organization): {TIER_DESCRIPTIONS['C']['M']}",
                    f"D (Iteration): {TIER_DESCRIPTIONS['D']['L']}"])
    assert reader.answer_choice("s", q, choices, ev) == 1
