"""An interrupted agent run resumes where it stopped: finished trajectories are kept as they
are and their model calls are not made again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from fg_helpers import wait_until
from filegram.simulator.fake_model import FakeModel
from filegram.simulator.resume import finished
from scale_helpers import conversation_of, fg, tree

PAIRS = ("p1_T-01", "p2_T-01", "p3_T-01")


def test_an_interrupted_agent_run_resumes_without_redoing_finished_pairs(tmp_path: Path) -> None:
    """The command line, interrupted by a real SIGINT (the Ray engine's interrupt is in
    test_ray_engine.py, on the module's runtime)."""
    engine = "local"
    out, home = tmp_path / "out", tmp_path / "home"
    with FakeModel(latency=0.2) as model:
        args = ["simulate", "--profiles", "p1,p2,p3", "--tasks", "T-01", "--agent", "openai/fake",
                "--api-base", model.api_base, "--engine", engine, "--workers", "1", "--llm-rpm", "0",
                "--no-progress", "--out", str(out)]
        env = dict(os.environ, FILEGRAM_HOME=str(home), PYTHONUTF8="1")
        proc = subprocess.Popen([sys.executable, "-m", "filegram", *args], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            def done_pairs() -> list[str]:
                return [p for p in PAIRS if finished(out / p, seed=0, live=False, agent="openai/fake")]

            wait_until(done_pairs, timeout=300, what="a first finished trajectory")
            proc.send_signal(signal.SIGINT)
            _out, err = proc.communicate(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
        assert proc.returncode == 130, err
        kept = done_pairs()
        assert 1 <= len(kept) < len(PAIRS)
        before = {p: tree(out / p) for p in kept}
        mtimes = {p: (out / p / "summary.json").stat().st_mtime_ns for p in kept}
        first_run = len(model.requests)
        finished_conversations = {conversation_of(p) for p in kept}

        again = fg(*args, home=home)
        second = model.requests[first_run:]
    assert f"{len(PAIRS)} trajectories" in again.stdout
    assert all(finished(out / p, seed=0, live=False, agent="openai/fake") for p in PAIRS)
    for p in kept:  # untouched: same bytes, same file
        assert tree(out / p) == before[p] and (out / p / "summary.json").stat().st_mtime_ns == mtimes[p]
    redone = {r.conversation for r in second}
    assert finished_conversations <= {r.conversation for r in model.requests[:first_run]}
    assert not redone & finished_conversations  # no model call for a finished pair
    assert len({r.conversation for r in second if r.turn == 4}) == len(PAIRS) - len(kept)


def test_a_folder_of_other_knobs_is_not_taken_as_finished(tmp_path: Path) -> None:
    """Resume keeps a pair only when its trajectory was made with the same --scale and
    --expression: a rerun with other knobs must not keep the old folders."""
    from filegram.simulator import simulate

    folder = simulate(tmp_path, profiles="p2", tasks="T-03", seed=5, scale=0.5, expression=0.8)[0]
    assert finished(folder, seed=5, live=False, agent=None, scale=0.5, expression=0.8)
    assert not finished(folder, seed=5, live=False, agent=None)
    assert not finished(folder, seed=5, live=False, agent=None, scale=0.5, expression=1.0)
    assert not finished(folder, seed=6, live=False, agent=None, scale=0.5, expression=0.8)
