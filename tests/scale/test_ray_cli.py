"""`--engine ray` from the command line: a clear line without Ray, the options reaching the
engine, and a cluster someone started, joined by address (`ray start --head`). The engine's
results on a runtime of its own are in test_ray_engine.py; the command line starting its own
local runtime is exercised by test_resume.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from fg_helpers import wait_until
from scale_helpers import fg, tree


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
    # bench run's --engine and --address reach the engine: a closed port is one line, at once
    closed = _free_port()
    bench = fg("bench", "run", "--quick", "--engine", "ray", "--address", f"127.0.0.1:{closed}", "--no-progress",
               "--out", str(tmp_path / "b"), home=tmp_path / "h", check=False)
    assert bench.returncode == 2
    assert bench.stderr.strip().splitlines()[-1].startswith(f"filegram: error: cannot reach the Ray cluster at 127.0.0.1:{closed}")


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

    gcs, client = _free_port(), _free_port()
    ray_cli = Path(sys.executable).with_name("ray")
    log = (tmp_path / "head.log").open("w")
    head = subprocess.Popen([str(ray_cli), "start", "--head", "--block", "--num-cpus", "2", "--port", str(gcs),
                             "--ray-client-server-port", str(client), "--include-dashboard", "false",
                             "--disable-usage-stats"], stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                            # the head's Ray Client server gives a client's own server 30 s to start by
                            # default; on 2 cores shared with the rest of the suite that can take longer.
                            # gRPC's fork handlers off: the proxy spawns that server while its gRPC threads
                            # poll, and with them on the spawn died at birth in about one run in three
                            # (ev_epoll1_linux "Check failed: next_worker->state == KICKED" in the head's
                            # ray_client_server.err), which cost the whole channel timeout before a retry
                            env=dict(os.environ, RAY_CLIENT_SERVER_CHECK_CHANNEL_TIMEOUT_S="180",
                                     GRPC_ENABLE_FORK_SUPPORT="false"))
    try:
        wait_until(lambda: "Ray runtime started" in (tmp_path / "head.log").read_text() or head.poll() is not None,
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
