"""The question bank: every sub-task, valid and answerable, truth from the ground truth."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from bench_helpers import PROFILES, TABLE9
from filegram.bench.generators import BankSpec, generate_bank, option_is_true
from filegram.bench.questions import COLUMNS, read_jsonl, write_jsonl
from filegram.bench.truth import CHANNELS, DIMS, PUBLISHED_COUNTS

SIZES = {"AttrRec": 60, "BehavFP": 60, "ProfRec": 40, "BehavInf": 60, "TraceDis": 80, "AnomDet": 60,
         "ShiftAna": 40, "FileGrd": 60}
OPTION_COUNTS = {"AttrRec": {3}, "BehavFP": {4}, "BehavInf": {4}, "TraceDis": {2, 3, 4},
                 "AnomDet": {5, 6}, "ShiftAna": {3, 4, 5, 6}, "FileGrd": {3}}


@pytest.fixture(scope="module")
def bank(corpus):
    trajs, truth = corpus
    return generate_bank(trajs, truth, BankSpec(seed=3, sizes=SIZES))


def test_ground_truth_matches_the_reference_table(corpus):
    _, truth = corpus
    for pid, tiers in TABLE9.items():
        assert "".join(truth.tiers(pid)[d] for d in DIMS) == tiers, pid


def test_every_subtask_is_generated_and_visual_grounding_says_why_not(bank):
    questions, skipped = bank
    counts = Counter(q.sub_track for q in questions)
    assert set(counts) == set(SIZES)
    for sub, n in SIZES.items():
        assert counts[sub] == n, sub
    assert list(skipped) == ["VisGrd"]
    assert "screen" in skipped["VisGrd"]


def test_questions_are_well_formed(bank, corpus):
    questions, _ = bank
    trajs, _ = corpus
    keys = {t.key for t in trajs}
    assert len({q.question_id for q in questions}) == len(questions)
    for q in questions:
        assert q.channel in CHANNELS
        assert q.track == {"AttrRec": "T1", "BehavFP": "T1", "ProfRec": "T1", "BehavInf": "T2", "TraceDis": "T2",
                           "AnomDet": "T3", "ShiftAna": "T3", "FileGrd": "T4"}[q.sub_track]
        assert q.input_trajectories and set(q.input_trajectories) <= keys
        assert len(q.labels) == len(q.input_trajectories)
        if q.sub_track == "ProfRec":
            assert q.choices == [] and isinstance(q.correct, str) and q.correct
            assert q.metadata["attribute_tiers"][q.metadata["tier"]] == q.correct
            continue
        assert len(q.choices) in OPTION_COUNTS[q.sub_track], (q.sub_track, len(q.choices))
        assert len(set(q.choices)) == len(q.choices), q.choices
        assert 0 <= q.correct < len(q.choices)


def test_the_correct_answer_follows_from_the_ground_truth_and_no_distractor_is_true(bank, corpus):
    questions, _ = bank
    trajs, truth = corpus
    by_key = {t.key: t for t in trajs}
    for q in questions:
        if q.sub_track == "ProfRec":
            continue
        verdicts = [option_is_true(q, i, truth, by_key) for i in range(len(q.choices))]
        assert verdicts[q.correct], (q.question_id, q.question, q.choices)
        assert verdicts.count(True) == 1, (q.question_id, q.choices, verdicts)


def test_anonymous_questions_never_show_the_persona(bank, corpus):
    from filegram.bench.context import build_context

    questions, _ = bank
    trajs, truth = corpus
    by_key = {t.key: t for t in trajs}
    titles = {k: v.title for k, v in truth.tasks.items()}
    for q in questions:
        if q.context_kind not in ("anonymous", "lineup", "interleaved"):
            continue
        ctx = build_context(q, by_key, titles)
        for _label, t in ctx.sessions:
            assert all(e.get("profile_id") is None for e in t.events)
            assert t.profile_id is None
            text = "\n".join("\n".join(b) for b in ctx.narrative())
            assert not any(f"{p}_T-" in text for p in PROFILES)
        assert not any(p in " ".join(q.choices) for p in PROFILES)


def test_shift_and_impostor_questions_use_the_records(bank, corpus):
    questions, _ = bank
    trajs, _ = corpus
    by_key = {t.key: t for t in trajs}
    for q in questions:
        if q.sub_track == "ShiftAna":
            target = by_key[q.metadata["target_key"]]
            assert target.perturbed and target.task_id in q.question
        if q.sub_track == "AnomDet":
            owners = Counter(by_key[k].profile_id for k in q.input_trajectories)
            assert sorted(owners.values()) == [1, len(q.input_trajectories) - 1]
            assert by_key[q.input_trajectories[q.correct]].profile_id != q.profile_id


def test_seeded_and_stored_as_jsonl_with_the_released_columns(corpus, tmp_path):
    trajs, truth = corpus
    a, _ = generate_bank(trajs, truth, BankSpec(seed=1, sizes=SIZES))
    b, _ = generate_bank(trajs, truth, BankSpec(seed=1, sizes=SIZES))
    c, _ = generate_bank(trajs, truth, BankSpec(seed=2, sizes=SIZES))
    pa, pb = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_jsonl(a, pa)
    write_jsonl(b, pb)
    assert pa.read_bytes() == pb.read_bytes()
    assert [q.to_json() for q in a] != [q.to_json() for q in c]
    first = json.loads(pa.read_text(encoding="utf-8").splitlines()[0])
    assert tuple(first) == COLUMNS
    assert [q.to_json() for q in read_jsonl(pa)] == [q.to_json() for q in a]


def test_default_sizes_are_the_published_counts():
    spec = BankSpec()
    assert {s: spec.size(s) for s in PUBLISHED_COUNTS} == PUBLISHED_COUNTS
    assert sum(PUBLISHED_COUNTS.values()) == 4653


def test_a_broken_question_file_is_one_clear_error(tmp_path):
    from filegram.errors import FileGramError

    path = tmp_path / "q.jsonl"
    path.write_text('{"question_id": "a"}\nnot json\n', encoding="utf-8")
    with pytest.raises(FileGramError, match=r"q.jsonl:1: not a question record: question record lacks column"):
        read_jsonl(path)
    path.write_text("[1, 2]\n", encoding="utf-8")
    with pytest.raises(FileGramError, match=r"q.jsonl:1: not a question record: not a JSON object"):
        read_jsonl(path)


def test_options_use_the_benchs_own_wording_never_memorys(bank):
    from filegram.memory import DIMENSIONS

    from filegram.vocab import TIER_DESCRIPTIONS

    questions, _ = bank
    theirs = [TIER_DESCRIPTIONS[d][t] for d in "ABCDEF" for t in "LMR"]
    theirs += [DIMENSIONS[d].tiers[t] for d in "ABCDEF" for t in "LMR"]
    worded = [q for q in questions if q.sub_track in ("AttrRec", "BehavFP", "BehavInf", "TraceDis", "ShiftAna", "FileGrd")]
    assert worded
    for q in worded:
        for choice in q.choices:
            assert not any(t in choice for t in theirs), (q.question_id, choice)
    # several wordings per tier are in use across the bank
    attr = {c for q in questions if q.sub_track == "AttrRec" for c in q.choices}
    assert len(attr) > 18
