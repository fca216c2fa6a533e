"""`--engine ray`: the same trajectories and scores as the local engine for the same seed, live
and agent mode as Ray tasks, and a clear line when Ray is not installed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from filegram.simulator.fake_model import FakeModel
from scale_helpers import fg, tree

from filegram.schema import validate_event

GRID = ("--profiles", "p1,p4,p9", "--tasks", "T-02,T-12,T-18", "--seed", "7", "--no-progress")


def test_fast_grid_on_ray_is_byte_for_byte_the_local_one(tmp_path: Path, ray_installed: None) -> None:
    home = tmp_path / "home"
    fg("simulate", *GRID, "--out", str(tmp_path / "local"), home=home)
    fg("simulate", *GRID, "--workers", "2", "--out", str(tmp_path / "workers"), home=home)
    out = fg("simulate", *GRID, "--engine", "ray", "--workers", "2", "--out", str(tmp_path / "ray"), home=home)
    assert "9 trajectories" in out.stdout
    local, ray = tree(tmp_path / "local"), tree(tmp_path / "ray")
    assert len([k for k in local if k.endswith("events.json")]) == 9
    assert any(k.endswith("perturbation.json") for k in local)  # T-12/T-18 are perturbation candidates
    assert local == ray == tree(tmp_path / "workers")
    other_seed = fg("simulate", *GRID[:-3], "--seed", "8", "--no-progress", "--engine", "ray",
                    "--out", str(tmp_path / "seed8"), home=home)
    assert other_seed.returncode == 0 and tree(tmp_path / "seed8") != local  # the comparison can fail


def test_bench_run_on_ray_scores_number_for_number_like_local(tmp_path: Path, ray_installed: None) -> None:
    home = tmp_path / "home"
    args = ("bench", "run", "--quick", "--profiles", "p1,p2,p5", "--size", "6", "--no-progress", "--seed", "2")
    fg(*args, "--workers", "1", "--out", str(tmp_path / "local"), home=home)
    fg(*args, "--workers", "2", "--engine", "ray", "--out", str(tmp_path / "ray"), home=home)
    local = json.loads((tmp_path / "local" / "results.json").read_text())
    ray = json.loads((tmp_path / "ray" / "results.json").read_text())
    assert local["subtasks"] and local == ray
    assert sum(len(v) for v in local["subtasks"].values()) >= 9 * 6
    assert tree(tmp_path / "local" / "trajectories") == tree(tmp_path / "ray" / "trajectories")
    lines = lambda p: sorted((p / "predictions.jsonl").read_text().splitlines())  # noqa: E731
    assert lines(tmp_path / "local") == lines(tmp_path / "ray")


def test_agent_and_live_mode_run_as_ray_tasks(tmp_path: Path, ray_installed: None) -> None:
    home = tmp_path / "home"
    with FakeModel(latency=0.05) as model:
        fg("simulate", "--profiles", "p3,p6", "--tasks", "T-01", "--agent", "openai/fake", "--api-base", model.api_base,
           "--engine", "ray", "--workers", "2", "--no-progress", "--out", str(tmp_path / "agent"), home=home)
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
    fg("simulate", "--profiles", "p2", "--tasks", "T-03", "--live", "--engine", "ray", "--no-progress",
       "--out", str(tmp_path / "live"), home=home)
    live = json.loads((tmp_path / "live" / "p2_T-03" / "summary.json").read_text())
    events = json.loads((tmp_path / "live" / "p2_T-03" / "events.json").read_text())
    assert live["mode"] == "live" and live["total_events"] == len(events) > 3
    assert any(e["event_type"] == "file_write" for e in events)


def test_without_ray_the_error_names_the_extra(tmp_path: Path) -> None:
    code = ("import sys\n"
            "class Block:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'ray' or name.startswith('ray.'):\n"
            "            raise ImportError('blocked: ' + name)\n"
            "sys.meta_path.insert(0, Block())\n"
            "from filegram.cli import main\n"
            f"sys.exit(main(['--home', {str(tmp_path / 'h')!r}, 'simulate', '--profiles', 'p1', '--tasks', 'T-01',"
            f" '--engine', 'ray', '--out', {str(tmp_path / 'out')!r}]))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "filegram: error: --engine ray needs the 'ray' package: pip install 'filegram[scale]'"
    wrong = fg("simulate", "--tasks", "T-01", "--address", "auto", "--out", str(tmp_path / "o"),
               home=tmp_path / "h", check=False)
    assert wrong.returncode == 2 and "--address joins a Ray cluster: use it with --engine ray" in wrong.stderr


@pytest.mark.parametrize("engine", ["local", "ray"])
def test_agent_calls_are_paced_per_provider_across_workers_and_retried(tmp_path: Path, engine: str) -> None:
    if engine == "ray":
        pytest.importorskip("ray", reason="the Ray engine needs ray (pip install 'filegram[scale]')")
    from scale_helpers import max_in_window

    with FakeModel(latency=0.05, fail_first=3) as model:
        fg("simulate", "--profiles", "p1,p2,p3", "--tasks", "T-01", "--agent", "openai/fake", "--api-base",
           model.api_base, "--engine", engine, "--workers", "2", "--llm-rpm", "60", "--llm-retries", "4",
           "--no-progress", "--out", str(tmp_path / "out"), home=tmp_path / "home")
        requests = list(model.requests)
    assert [r.status for r in requests[:3]] == [429, 429, 429]  # rate limited, retried with backoff
    ok = [r for r in requests if r.status == 200]
    assert len(ok) == 3 * 5 and len({r.conversation for r in ok}) == 3  # every pair finished its script
    # 60 a minute with a burst of 4: never more than 4 + t requests in t seconds, whichever worker sent them
    # (+1 for the scheduling jitter between a reservation and the request it pays for)
    times = [r.at for r in requests]
    for window in (1.0, 3.0, 6.0):
        assert max_in_window(times, window) <= 4 + window + 1, window
    assert all((tmp_path / "out" / f"p{i}_T-01" / "summary.json").is_file() for i in (1, 2, 3))


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_joining_an_existing_cluster_by_address(tmp_path: Path, ray_installed: None) -> None:
    """`--address` joins a cluster someone started (`ray start --head`), by GCS address and
    through Ray Client (ray://), with the same output as the local engine."""
    import os
    import signal

    from scale_helpers import wait_for

    gcs, client = _free_port(), _free_port()
    ray_cli = Path(sys.executable).with_name("ray")
    log = (tmp_path / "head.log").open("w")
    head = subprocess.Popen([str(ray_cli), "start", "--head", "--block", "--num-cpus", "2", "--port", str(gcs),
                             "--ray-client-server-port", str(client), "--include-dashboard", "false",
                             "--disable-usage-stats"], stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_for(lambda: "Ray runtime started" in (tmp_path / "head.log").read_text() or head.poll() is not None,
                 timeout=120, what="the Ray head")
        assert head.poll() is None, (tmp_path / "head.log").read_text()[-2000:]
        home = tmp_path / "home"
        grid = ("--profiles", "p2,p7", "--tasks", "T-04,T-16", "--seed", "3", "--no-progress")
        fg("simulate", *grid, "--out", str(tmp_path / "local"), home=home)
        for name, address in (("gcs", f"127.0.0.1:{gcs}"), ("client", f"ray://127.0.0.1:{client}")):
            fg("simulate", *grid, "--engine", "ray", "--address", address, "--out", str(tmp_path / name), home=home)
            assert tree(tmp_path / name) == tree(tmp_path / "local"), name
    finally:
        head.send_signal(signal.SIGTERM)
        try:
            head.wait(timeout=90)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
            head.wait()
        log.close()
        current = Path("/tmp/ray/ray_current_cluster")  # the head's note of itself, left behind by a signal
        if current.is_file() and current.read_text().strip().endswith(f":{gcs}"):
            current.unlink()
    nothing = fg("simulate", "--tasks", "T-01", "--engine", "ray", "--address", f"127.0.0.1:{gcs}",
                 "--out", str(tmp_path / "o"), home=tmp_path / "home", check=False)
    assert nothing.returncode == 2
    assert nothing.stderr.strip().splitlines()[-1].startswith(f"filegram: error: cannot reach the Ray cluster at 127.0.0.1:{gcs}")
