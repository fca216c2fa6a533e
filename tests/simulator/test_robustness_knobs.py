"""The simulator's robustness knobs (--scale, --expression) and noise that respects what the
tiers mean: whole-tier slips, no signature on inactive dimensions."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest
from fg_helpers import run_cli
from filegram.simulator import PROFILES, TASKS, plan_trajectory, simulate
from filegram.simulator.fast import trace_plan
from filegram.simulator.fingerprint import fingerprint

# Four personas that between them hold every tier of A, B, C, D, E and F, over tasks that
# exercise every dimension.
PEOPLE = ("p1", "p3", "p5", "p12")
WORK = ("T-01", "T-04", "T-06", "T-10", "T-13", "T-15", "T-20", "T-27", "T-30")
KIND_FEATURES = ("files_created", "dirs_created", "max_dir_depth", "image_files_created",
                 "structured_files_created", "backups", "total_deletes")


def trace_features(plan) -> dict[str, float]:
    tracer = trace_plan(plan)
    features = fingerprint(tracer.events, {h: d for h, (_k, _p, d) in tracer.media.items.items()})
    features["searches"] = float(sum(1 for e in tracer.events if e["event_type"] == "file_search"))
    return features


def _means(scale: float) -> dict[str, float]:
    rows = [trace_features(plan_trajectory(p, t, 0, scale=scale)) for p in PEOPLE for t in WORK]
    return {k: statistics.mean(r[k] for r in rows) for k in rows[0]}


@pytest.fixture(scope="module")
def by_scale() -> dict[float, dict[str, float]]:
    return {k: _means(k) for k in (0.3, 1.0, 3.0)}


def test_scale_multiplies_verbosity_and_activity(by_scale) -> None:
    one, small, big = by_scale[1.0], by_scale[0.3], by_scale[3.0]
    for feature in ("total_output_chars", "avg_lines_changed"):
        assert 2.2 < big[feature] / one[feature] < 3.8, (feature, big[feature], one[feature])
        assert 0.2 < small[feature] / one[feature] < 0.45, (feature, small[feature], one[feature])
    # reads are capped by the files a workspace holds, so the big end grows less than 3x
    assert 0.2 < small["reads"] / one["reads"] < 0.5
    assert 1.3 < big["reads"] / one["reads"] < 3.2
    assert big["searches"] > 2 * one["searches"] > 0


def test_scale_leaves_what_kind_of_thing_people_do(by_scale) -> None:
    one = by_scale[1.0]
    for k in (0.3, 3.0):
        for feature in KIND_FEATURES:
            a, b = by_scale[k][feature], one[feature]
            assert abs(a - b) <= 0.25 * max(b, 0.4), (k, feature, a, b)


def test_expression_acts_out_active_dimensions_at_its_rate_reproducibly() -> None:
    shown = total = 0
    for pid in PROFILES:
        for tid, task in TASKS.items():
            plan = plan_trajectory(pid, tid, 0, expression=0.4)
            for dim in task.dims:
                if plan.perturbation and dim in plan.perturbation:
                    assert dim in plan.acted  # the recorded shift is always acted out
                    continue
                total += 1
                shown += dim in plan.acted
            assert set(plan.acted) <= set(task.dims)
    assert 0.34 < shown / total < 0.46, shown / total
    again = plan_trajectory("p7", "T-16", 0, expression=0.4)
    assert again.acted == plan_trajectory("p7", "T-16", 0, expression=0.4).acted
    assert [s.describe() for s in again.steps] == [s.describe() for s in plan_trajectory("p7", "T-16", 0, expression=0.4).steps]
    assert set(plan_trajectory("p7", "T-16", 0).acted) == set(TASKS["T-16"].dims)


def test_an_unexpressed_dimension_looks_inactive() -> None:
    """C not acted out in an organising task: nothing is moved or nested (only exact
    duplicates are removed, as everyone does)."""
    for seed in range(12):
        plan = plan_trajectory("p1", "T-23", seed, expression=0.3)  # p1 nests deeply (C = L)
        ops = {s.op for s in plan.steps}
        if "C" in plan.acted:
            assert "mkdir" in ops or "mv" in ops
        else:
            assert "mkdir" not in ops and "mv" not in ops, (seed, plan.acted)


def test_knobs_are_recorded_and_checked(tmp_path: Path, fg_home: Path) -> None:
    (path,) = simulate(tmp_path / "a", profiles="p3", tasks="T-08", scale=3, expression=0.5)
    summary = json.loads((path / "summary.json").read_text())
    assert (summary["scale"], summary["expression"]) == (3.0, 0.5)
    (path,) = simulate(tmp_path / "b", profiles="p3", tasks="T-08")
    summary = json.loads((path / "summary.json").read_text())
    assert (summary["scale"], summary["expression"]) == (1.0, 1.0)
    proc = run_cli("simulate", "--profiles", "p3", "--tasks", "T-08", "--scale", "0.3", "--expression", "0.7",
                   "--out", str(tmp_path / "c"), home=fg_home)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads((tmp_path / "c" / "p3_T-08" / "summary.json").read_text())
    assert (summary["scale"], summary["expression"]) == (0.3, 0.7)
    for opt, value, msg in (("--expression", "0", "--expression must be above 0 and at most 1"),
                            ("--expression", "1.5", "--expression must be above 0 and at most 1"),
                            ("--scale", "-2", "--scale must be a number above 0")):
        proc = run_cli("simulate", "--profiles", "p3", "--tasks", "T-08", opt, value, "--out", str(tmp_path / "d"),
                       home=fg_home)
        assert proc.returncode == 2 and proc.stderr.startswith(f"filegram: error: {msg}"), proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "d").exists()


# -- noise that respects the tiers ---------------------------------------------------------


def test_slips_are_whole_adjacent_tiers_in_about_one_pair_in_ten() -> None:
    slips = total = 0
    for pid in PROFILES:
        for tid, task in TASKS.items():
            plan = plan_trajectory(pid, tid, 0)
            for dim in task.dims:
                if plan.perturbation and dim in plan.perturbation:
                    continue
                total += 1
                if plan.acted[dim] != plan.tiers[dim]:
                    slips += 1
                    assert {plan.acted[dim], plan.tiers[dim]} in ({"L", "M"}, {"M", "R"})
    assert 0.06 < slips / total < 0.14, slips / total


def test_tiers_are_not_blended_into_their_neighbours(fingerprints) -> None:
    """What the tiers say, session by session: text-only people rarely write a table, people who
    never delete do not delete (dedup tasks aside), flat people make no folder, and a task that
    does not exercise a dimension shows no signature on it."""
    rows = fingerprints(0)
    plans = {(p, t): plan_trajectory(p, t, 0) for p, t, *_ in rows}

    def share(select, feature) -> float:
        vals = [f[feature] > 0 for p, t, _tiers, f in rows if select(plans[(p, t)], TASKS[t])]
        assert len(vals) >= 20
        return sum(vals) / len(vals)

    no_dedup = lambda task: task.id != "T-21" and task.layout != "messy"  # noqa: E731
    assert share(lambda plan, task: plan.acted.get("F") == "R", "markdown_table_rows") < 0.1
    assert share(lambda plan, task: "F" not in task.dims and plan.tiers["F"] == "R", "markdown_table_rows") < 0.1
    assert share(lambda plan, task: plan.acted.get("F") == "M", "markdown_table_rows") > 0.85
    assert share(lambda plan, task: plan.acted.get("E") == "R" and no_dedup(task), "total_deletes") == 0.0
    assert share(lambda plan, task: "E" not in task.dims and plan.tiers["E"] == "R" and no_dedup(task),
                 "total_deletes") == 0.0
    assert share(lambda plan, task: plan.acted.get("E") == "L", "total_deletes") == 1.0
    assert share(lambda plan, task: plan.acted.get("C") == "R", "dirs_created") == 0.0
    assert share(lambda plan, task: "C" not in task.dims, "dirs_created") == 0.0
    assert share(lambda plan, task: "C" not in task.dims, "files_moved") == 0.0
    inactive_b = [f["total_output_chars"] for p, t, _tiers, f in rows if "B" not in TASKS[t].dims]
    active_r = [f["total_output_chars"] for p, t, _tiers, f in rows if plans[(p, t)].acted.get("B") == "R"]
    active_m = [f["total_output_chars"] for p, t, _tiers, f in rows if plans[(p, t)].acted.get("B") == "M"]
    assert statistics.mean(inactive_b) <= statistics.mean(active_r) < statistics.mean(active_m)
