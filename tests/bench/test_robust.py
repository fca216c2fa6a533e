"""`filegram bench robust` and users folders: real simulations, real imports into real stores,
memory's real profile, and scores that can be recomputed by hand from the per-user records."""

from __future__ import annotations

import json

import pytest
from bench_helpers import TABLE9, USERS, make_users_folder, run_cli
from filegram.bench.robust_metrics import UserOutcome, calibration, condition_metrics, drift_metrics


def test_calibration_and_drift_scores_by_hand():
    ece, rows = calibration([(0.95, True), (0.92, False), (0.55, True), (0.55, True)])
    # bin 0.9-1.0: confidence 0.935, accuracy 0.5; bin 0.5-0.6: 0.55 vs 1.0
    assert ece == pytest.approx(0.5 * abs(0.5 - 0.935) + 0.5 * abs(1.0 - 0.55))
    assert [r["n"] for r in rows] == [0, 0, 0, 0, 0, 2, 0, 0, 0, 2]
    o = UserOutcome("x", "u", 48, {"A": "L", "B": "M"}, {"A": ("L", 0.9), "B": ("unknown", 0.0)},
                    perturbed={"s1": {"C": ("R", "M")}, "s2": {"D": ("L", "M")}},
                    flags=[{"label": "s1", "dimension": "C", "from": "R", "to": "M", "verdict": "genuine"},
                           {"label": "s1", "dimension": "E", "from": "R", "to": "M", "verdict": "genuine"},
                           {"label": "s9", "dimension": "A", "from": "L", "to": "M", "verdict": "uncertain"}],
                    # s2 showed another tier on D though nothing flagged it; s9's A is no shift
                    shown={"s1": ["C", "E"], "s2": ["D"], "s9": ["A"]})
    d = drift_metrics([o])
    assert (d["drift_recall"], d["attribution"]) == (0.5, 1.0)
    assert d["drift_visible"] == 1.0
    assert drift_metrics([UserOutcome("x", "u", 48, {}, {}, perturbed=o.perturbed, shown={"s2": ["A"]})])["drift_visible"] == 0.0
    assert d["false_flags_per_user"] == pytest.approx(2 * 24 / 48)  # s1:E and s9:A, per 24 of 48 sessions
    assert (d["attribution_one_tier"], d["flagged_one_tier"]) == (1.0, 1)
    # a two-tier shift flagged with the middle tier (memory.drift.shifted_to) is misattributed,
    # and apart from the one-tier figure
    two = UserOutcome("x", "v", 48, {}, {}, perturbed={"s3": {"F": ("R", "L")}, "s4": {"B": ("M", "L")}},
                      flags=[{"label": "s3", "dimension": "F", "from": "R", "to": "M", "verdict": "uncertain"},
                             {"label": "s4", "dimension": "B", "from": "M", "to": "L", "verdict": "uncertain"}])
    d2 = drift_metrics([two])
    assert (d2["attribution"], d2["attribution_one_tier"], d2["flagged_one_tier"]) == (0.5, 1.0, 1)
    m = condition_metrics([o])
    assert (m["tier_accuracy"], m["unknown_rate"], m["high_confidence_accuracy"]) == (0.5, 0.5, 1.0)
    assert m["targets"]["unknown"] is False and m["targets"]["acc @ conf>=0.8"] is True


def test_import_strips_what_a_recording_does_not_have(sim_dir, tmp_path):
    from filegram.bench.robust import import_sessions

    from filegram.store import Store

    src = sim_dir / "p5_T-16"
    assert (src / "perturbation.json").exists()  # a perturbed trajectory: its record must not get in
    with Store(tmp_path / "db.sqlite") as store:
        (sid,) = import_sessions(store, [(src, "p5_S01", None)])
        (sid_t,) = import_sessions(store, [(sim_dir / "p5_T-01", "T-01", "T-01")])
        s, t = store.session(sid), store.session(sid_t)
        assert (s["label"], s["task_id"], s["profile_id"]) == ("p5_S01", None, None)
        assert "perturbation" not in (s.get("metadata") or {}) and "summary" not in (s.get("metadata") or {})
        assert (t["task_id"], t["profile_id"]) == ("T-01", None)
        assert all(a.get("profile_id") is None for a in store.actions(sid))
        assert store.action_count(sid) == len(json.loads((src / "events.json").read_text()))


def test_bench_robust_on_a_users_folder(sim_dir, tmp_path, fg_home):
    users = make_users_folder(sim_dir, tmp_path / "my-users")
    out = tmp_path / "out"
    proc = run_cli("bench", "robust", "--no-simulator", "--no-users-dev", "--no-models", "--users", str(users), "--workers", "1",
                   "--no-progress", "--out", str(out), home=fg_home, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "FileGram robustness benchmark" in proc.stdout and "e:my-users" in proc.stdout
    res = json.loads((out / "results.json").read_text())
    (cond,) = res["conditions"]
    assert (cond["key"], cond["users"], cond["sessions"]) == ("e:my-users", 3, 96)
    # every figure follows from the per-user records
    pairs = [(u["truth"][d], u["calls"][d]) for u in cond["per_user"] for d in u["truth"]]
    assert len(pairs) == 18
    assert cond["tier_accuracy"] == pytest.approx(sum(t == c["tier"] for t, c in pairs) / 18)
    assert cond["unknown_rate"] == pytest.approx(sum(c["tier"] == "unknown" for _, c in pairs) / 18)
    perturbed = sum(len(u["perturbed"]) for u in cond["per_user"])
    assert perturbed == cond["perturbed_sessions"] == 15  # 5 per simulated person
    flagged = sum(1 for u in cond["per_user"] for s in u["perturbed"] if any(f["label"] == s for f in u["flags"]))
    assert cond["flagged_perturbed"] == flagged
    labels = {f"{u}_S{i:02d}" for u in USERS for i in range(32)}
    assert all(f["label"] in labels for u in cond["per_user"] for f in u["flags"])
    assert set(cond["targets"]) == {"tier accuracy", "unknown", "acc @ conf>=0.8", "drift recall", "false flags",
                                    "attribution"}
    report = (out / "report.md").read_text()
    assert "| (e) my-users, no task ids | 3 |" in report and "## Reliability" in report
    assert "commit" in report and res["date"] in report


def test_bench_robust_simulated_conditions(tmp_path, fg_home):
    out = tmp_path / "out"
    proc = run_cli("bench", "robust", "--profiles", "p3", "--no-users-dev", "--no-models", "--workers", "2", "--no-progress",
                   "--out", str(out), home=fg_home, timeout=600)
    assert proc.returncode == 0, proc.stderr
    res = json.loads((out / "results.json").read_text())
    conds = {c["key"]: c for c in res["conditions"]}
    assert list(conds) == ["a", "b", "c0.3", "c3", "d"]
    for c in conds.values():
        (u,) = c["per_user"]
        assert (u["user"], u["sessions"], len(u["perturbed"])) == ("p3", 32, 5)
        assert u["truth"] == dict(zip("ABCDEF", TABLE9["p3"], strict=True))
    assert all(s.startswith("T-") for s in conds["a"]["per_user"][0]["perturbed"])  # labelled by task
    assert all(s.startswith("p3_S") for s in conds["b"]["per_user"][0]["perturbed"])  # no task id anywhere
    assert (conds["c0.3"]["scale"], conds["c3"]["scale"]) == (0.3, 3.0)
    r = float(conds["d"]["per_user"][0]["note"].split()[-1])
    assert 0.3 <= r <= 1.0


def test_bad_users_folders_are_one_clear_line(tmp_path, fg_home, sim_dir):
    empty = tmp_path / "empty"
    empty.mkdir()
    proc = run_cli("bench", "robust", "--no-simulator", "--no-users-dev", "--no-models", "--users", str(empty), "--no-progress",
                   "--out", str(tmp_path / "o"), home=fg_home)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [f"filegram: error: {empty}: a users folder needs truth.json "
                                                '({user: {"tiers": {...}, "perturbed": {...}}})']
    users = make_users_folder(sim_dir, tmp_path / "u", {"u1": "p1"}, per_user=3)
    truth = json.loads((users / "truth.json").read_text())
    truth["u1"]["perturbed"] = {"u1_S77": {"C": ["L", "M"]}}
    (users / "truth.json").write_text(json.dumps(truth))
    proc = run_cli("bench", "robust", "--no-simulator", "--no-users-dev", "--no-models", "--users", str(users),
                   "--no-progress", "--out", str(tmp_path / "o"), home=fg_home)
    assert proc.returncode == 2 and "perturbed session 'u1_S77' is not a trajectory folder" in proc.stderr
    assert not (tmp_path / "o").exists()


def test_users_of_another_behaviour_model(tmp_path, fg_home):
    # condition f: users generated afresh by a behaviour model written without memory's or
    # the simulator's code; their tiers must come out mostly right (a generalisation guard)
    out = tmp_path / "out"
    proc = run_cli("bench", "robust", "--no-simulator", "--no-users-dev", "--models", "engine-like", "--workers", "2",
                   "--no-progress", "--out", str(out), home=fg_home, timeout=600)
    assert proc.returncode == 0, proc.stderr
    (cond,) = json.loads((out / "results.json").read_text())["conditions"]
    assert (cond["key"], cond["users"]) == ("f:engine-like", 16)
    assert cond["title"] == "(f) other model: engine-like, no task ids"
    assert cond["users_folder"] == "filegram.bench.othermodels.engine_like (seed 1701)"
    assert cond["perturbed_sessions"] == 48
    assert cond["tier_accuracy"] >= 0.7 and cond["unknown_rate"] <= 0.1
    assert cond["high_confidence_accuracy"] >= 0.85
    proc = run_cli("bench", "robust", "--no-simulator", "--no-users-dev", "--models", "nope", "--no-progress",
                   "--out", str(tmp_path / "o2"), home=fg_home)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == ["filegram: error: unknown behaviour model(s): nope "
                                                "(known: engine-like, recorder-like, mixed-tools, knowledge-workers)"]


def test_users_folders_of_one_name_are_scored_apart(tmp_path):
    # h72/users and h73/users: under one name their users were scored as one population
    from filegram.bench.robust import folder_names

    a, b, c = tmp_path / "h72" / "users", tmp_path / "h73" / "users", tmp_path / "mine"
    assert folder_names([a, b, c]) == ["h72/users", "h73/users", "mine"]
    assert folder_names([c, c]) == ["mine#1", "mine#2"]
    assert folder_names([a]) == ["users"]
