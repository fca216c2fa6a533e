"""`--engine ray`: the same trajectories and scores as the local engine for the same seed (with
the robustness knobs too), agent and live mode as Ray tasks, agent calls paced and retried
across workers. All on one Ray runtime for the module (conftest.ray_here); the command line's
own runtime and a cluster joined by address are in test_ray_cli.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from filegram.simulator import simulate
from filegram.simulator.fake_model import FakeModel
from filegram.simulator.llmgate import Limits
from scale_helpers import max_in_window, tree

from filegram.schema import validate_event

# Ray's worker processes belong to the module's runtime and come and go with its pool.
pytestmark = pytest.mark.allow_leaks("the module's Ray runtime starts and keeps its own worker processes")

GRID: dict[str, Any] = {"profiles": "p1,p4,p9", "tasks": "T-02,T-12,T-18", "seed": 7}


def test_fast_grid_on_ray_is_byte_for_byte_the_local_one(tmp_path: Path, ray_here: Any) -> None:
    simulate(tmp_path / "local", **GRID)
    simulate(tmp_path / "workers", **GRID, workers=2)
    assert len(simulate(tmp_path / "ray", **GRID, engine="ray", workers=2)) == 9
    local = tree(tmp_path / "local")
    assert len([k for k in local if k.endswith("events.json")]) == 9
    assert any(k.endswith("perturbation.json") for k in local)  # T-12/T-18 are perturbation candidates
    assert local == tree(tmp_path / "ray") == tree(tmp_path / "workers")
    simulate(tmp_path / "seed8", **{**GRID, "seed": 8}, engine="ray")
    assert tree(tmp_path / "seed8") != local  # the comparison can fail


def test_the_robustness_knobs_reach_ray_workers(tmp_path: Path, ray_here: Any) -> None:
    knobs: dict[str, Any] = {"profiles": "p2,p5", "tasks": "T-03,T-12", "seed": 4, "scale": 0.4, "expression": 0.5}
    simulate(tmp_path / "local", **knobs)
    simulate(tmp_path / "ray", **knobs, engine="ray", workers=2)
    local = tree(tmp_path / "local")
    assert local == tree(tmp_path / "ray")
    assert b'"scale": 0.4' in local["p2_T-03/summary.json"] and b'"expression": 0.5' in local["p2_T-03/summary.json"]
    simulate(tmp_path / "plain", **{**knobs, "scale": 1.0, "expression": 1.0}, engine="ray")
    assert tree(tmp_path / "plain") != local  # the knobs change what is written


def test_bench_run_on_ray_scores_number_for_number_like_local(tmp_path: Path, ray_here: Any) -> None:
    import json

    from filegram.bench.pipeline import BenchConfig, run_bench
    from filegram.bench.truth import SUBTASK_KEYS

    from filegram.config import Config

    def bench(out: Path, **engine: Any) -> dict[str, Any]:
        cfg = BenchConfig(out=out, quick=True, profiles=["p1", "p2", "p5"], seed=2, progress=False, ablations=False,
                          sizes={s: 6 for s in SUBTASK_KEYS}, **engine)
        run_bench(cfg, Config())
        return json.loads((out / "results.json").read_text())

    local = bench(tmp_path / "local", workers=1)
    ray = bench(tmp_path / "ray", workers=2, engine="ray")
    assert local["subtasks"] and local == ray
    assert len(local["subtasks"]) >= 8 and all(len(v) >= 5 for v in local["subtasks"].values())
    assert tree(tmp_path / "local" / "trajectories") == tree(tmp_path / "ray" / "trajectories")
    lines = lambda p: sorted((p / "predictions.jsonl").read_text().splitlines())  # noqa: E731
    assert lines(tmp_path / "local") == lines(tmp_path / "ray")


def test_agent_and_live_mode_run_as_ray_tasks(tmp_path: Path, ray_here: Any) -> None:
    import json

    with FakeModel(latency=0.05) as model:
        simulate(tmp_path / "agent", profiles="p3,p6", tasks="T-01", agent="openai/fake", engine="ray", workers=2,
                 agent_options={"api_base": model.api_base, "max_turns": 30})
        conversations = {r.conversation for r in model.requests}
    assert len(conversations) == 2
    for pair in ("p3_T-01", "p6_T-01"):
        folder = tmp_path / "agent" / pair
        summary = json.loads((folder / "summary.json").read_text())
        assert summary["mode"] == "agent" and summary["model"] == "openai/fake"
        events = json.loads((folder / "events.json").read_text())
        for e in events:
            validate_event(e)
        assert {e["event_type"] for e in events} >= {"file_browse", "file_write", "file_edit"}
        assert {e["model_name"] for e in events} == {"fake"}
    simulate(tmp_path / "live", profiles="p2", tasks="T-03", live=True, engine="ray")
    live = json.loads((tmp_path / "live" / "p2_T-03" / "summary.json").read_text())
    events = json.loads((tmp_path / "live" / "p2_T-03" / "events.json").read_text())
    assert live["mode"] == "live" and live["total_events"] == len(events) > 3
    assert any(e["event_type"] == "file_write" for e in events)


# 300 requests a minute (5 a second) with a burst of 4: two workers against a model that
# answers in 50 ms could send 40 a second unpaced, so the windows below can fail.
RPM, BURST = 300, 4


@pytest.mark.parametrize("engine", ["local", "ray"])
def test_agent_calls_are_paced_per_provider_across_workers_and_retried(tmp_path: Path, engine: str,
                                                                       request: pytest.FixtureRequest) -> None:
    if engine == "ray":
        request.getfixturevalue("ray_here")
    with FakeModel(latency=0.05, fail_first=3) as model:
        simulate(tmp_path / "out", profiles="p1,p2,p3", tasks="T-01", agent="openai/fake", engine=engine, workers=2,
                 agent_options={"api_base": model.api_base, "max_turns": 30}, limits=Limits(RPM, BURST, 4))
        requests = list(model.requests)
    assert [r.status for r in requests[:3]] == [429, 429, 429]  # rate limited, retried with backoff
    ok = [r for r in requests if r.status == 200]
    assert len(ok) == 3 * 5 and len({r.conversation for r in ok}) == 3  # every pair finished its script
    # never more than burst + rate * t requests in t seconds, whichever worker sent them
    # (+1 for the scheduling jitter between a reservation and the request it pays for)
    times = [r.at for r in requests]
    for window in (0.5, 1.0, 2.0):
        assert max_in_window(times, window) <= BURST + RPM / 60 * window + 1, window
    assert all((tmp_path / "out" / f"p{i}_T-01" / "summary.json").is_file() for i in (1, 2, 3))


class Interrupted(Exception):
    """Raised from the progress callback after the first trajectory: the run stops there,
    as at a Ctrl-C between two results (the command line's SIGINT is in test_resume.py)."""


def test_an_interrupted_ray_run_resumes_without_redoing_finished_pairs(tmp_path: Path, ray_here: Any) -> None:
    from filegram.simulator.resume import finished
    from scale_helpers import conversation_of

    pairs = ("p1_T-01", "p2_T-01", "p3_T-01")
    out = tmp_path / "out"

    def stop_after_first(done: int, total: int, name: str) -> None:
        raise Interrupted(name)

    with FakeModel(latency=0.1) as model:
        run: dict[str, Any] = {"profiles": "p1,p2,p3", "tasks": "T-01", "agent": "openai/fake", "engine": "ray",
                               "workers": 2, "agent_options": {"api_base": model.api_base, "max_turns": 30},
                               "limits": Limits(0, 4, 2)}
        with pytest.raises(Interrupted) as first:
            simulate(out, **run, progress=stop_after_first)
        kept = [p for p in pairs if finished(out / p, seed=0, live=False, agent="openai/fake")]
        assert kept == [first.value.args[0]]  # exactly the trajectory written before the interrupt
        assert [p for p in pairs if (out / p).exists()] == kept  # nothing half written
        before = tree(out / kept[0])
        mtime = (out / kept[0] / "summary.json").stat().st_mtime_ns
        first_run = len(model.requests)
        assert len(simulate(out, **run)) == len(pairs)
        second = model.requests[first_run:]
    assert all(finished(out / p, seed=0, live=False, agent="openai/fake") for p in pairs)
    assert tree(out / kept[0]) == before and (out / kept[0] / "summary.json").stat().st_mtime_ns == mtime
    assert conversation_of(kept[0]) not in {r.conversation for r in second}  # no model call for it
    assert len({r.conversation for r in second if r.turn == 4}) == len(pairs) - 1
