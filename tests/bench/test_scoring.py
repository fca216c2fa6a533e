"""Scoring: a perfect oracle scores 100%, a random answerer scores chance, and the offline
reader answers at chance when a method gives it nothing."""

from __future__ import annotations

import random

import pytest
from filegram.bench.answerers import OfflineAnswerer, agreement
from filegram.bench.generators import BankSpec, generate_bank
from filegram.bench.scoring import Prediction, aggregate, chance, score_choice

SIZES = {"AttrRec": 150, "BehavFP": 150, "ProfRec": 60, "BehavInf": 150, "TraceDis": 200, "AnomDet": 150,
         "ShiftAna": 120, "FileGrd": 150}


@pytest.fixture(scope="module")
def questions(corpus):
    trajs, truth = corpus
    return generate_bank(trajs, truth, BankSpec(seed=5, sizes=SIZES))[0]


def _judged(q, answer):
    return Prediction(q.question_id, "m", answer, agreement(q, answer) if q.is_open else score_choice(q, answer))


def test_oracle_scores_100_everywhere(questions):
    preds = [_judged(q, q.correct if not q.is_open else f"{q.correct} (tier {q.metadata['tier']})") for q in questions]
    t = aggregate(questions, preds, ["m"])
    assert set(t.subtasks) == set(SIZES)
    assert all(row["m"] == 1.0 for row in t.subtasks.values())
    assert all(row["m"] == 1.0 for row in t.channels.values())
    assert t.overall["m"] == 1.0


def test_random_answerer_scores_chance(questions):
    rng = random.Random(0)
    mc = [q for q in questions if not q.is_open]
    preds = [_judged(q, rng.randrange(len(q.choices))) for q in mc]
    t = aggregate(mc, preds, ["m"])
    for sub, row in t.subtasks.items():
        qs = [q for q in mc if q.sub_track == sub]
        expected = sum(chance(q) for q in qs) / len(qs)
        assert abs(row["m"] - expected) < 0.12, (sub, row["m"], expected)


def test_offline_reader_with_no_evidence_is_at_chance(questions):
    ans = OfflineAnswerer()
    mc = [q for q in questions if not q.is_open]
    preds = [_judged(q, ans.choose(q, "")) for q in mc]
    t = aggregate(mc, preds, ["m"])
    overall_chance = sum(chance(q) for q in mc) / len(mc)
    assert abs(t.overall["m"] - overall_chance) < 0.06
    picks = [p.prediction for p in preds if len(next(q for q in mc if q.question_id == p.question_id).choices) == 3]
    assert len(set(picks)) == 3  # ties are broken by the question, not always option 0
    opens = [q for q in questions if q.is_open]
    assert all(ans.open(q, "") == "unknown" and ans.judge(q, "unknown") == 0.0 for q in opens)


def test_open_answers_are_judged_by_the_attribute_they_state(questions):
    q = next(q for q in questions if q.sub_track == "ProfRec")
    right, descs = q.metadata["tier"], q.metadata["attribute_tiers"]
    wrong = next(t for t in "LMR" if t != right)
    assert agreement(q, descs[right]) == 1.0
    assert agreement(q, f"they are {descs[wrong]}") == 0.0
    assert agreement(q, f"whatever (tier {right})") == 1.0


def test_reader_with_the_true_tiers_answers_every_trajectory_question(questions, corpus):
    from filegram.bench.ceiling import reader_ceiling

    trajs, truth = corpus
    ceiling = reader_ceiling(questions, trajs, truth)
    assert ceiling == {"BehavFP": 1.0, "TraceDis": 1.0, "AnomDet": 1.0}
