"""Where trajectories are computed: the local engine (this process, or worker processes) or
Ray (`--engine ray`: a local Ray runtime, or an existing cluster with `--address`).

On Ray every profile-task pair (in fast mode, every task's pairs) is one Ray task. A task
writes its trajectories into a temporary folder on whichever node runs it and returns the files; the driver writes them
under --out, so a cluster needs no shared file system and the output is byte for byte what
the local engine writes for the same seed. Agent mode's LLM calls share one request budget
per provider through a Ray actor (llmgate.TokenBucket), whichever node they run on.

Ray is the optional extra `filegram[scale]`, imported only here and only when asked for.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from filegram.errors import FileGramError

from . import llmgate

ENGINES = ("local", "ray")
EXTRA = "scale"
# The local runtime's shared-memory object store: trajectories are small, and the default
# (30% of RAM) is a lot to take on a laptop.
OBJECT_STORE_BYTES = 256 * 1024 * 1024
LAST_FILES = ("perturbation.json", "summary.json")  # written last: a folder with summary.json is whole


def require_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise FileGramError(f"--engine ray needs the 'ray' package: pip install 'filegram[{EXTRA}]'") from None
    return ray


def check_engine(engine: str, address: str | None) -> None:
    if engine not in ENGINES:
        raise FileGramError(f"unknown engine '{engine}' (known: {', '.join(ENGINES)})")
    if address and engine != "ray":
        raise FileGramError("--address joins a Ray cluster: use it with --engine ray")


@contextlib.contextmanager
def ray_runtime(address: str | None = None, workers: int = 1) -> Iterator[Any]:
    """Ray, initialised for the duration: joins `address` (e.g. 'ray://head:10001' or 'auto'),
    else starts a local runtime with `workers` CPUs. A runtime already running (bench's, a
    caller's) is used as it is and left running."""
    if address:
        check_reachable(address)
        use_cluster_token()  # before Ray is imported: it reads the setting once
    ray = require_ray()
    if ray.is_initialized():
        yield ray
        return
    opts: dict[str, Any] = {"include_dashboard": False, "logging_level": "ERROR", "log_to_driver": False}
    try:
        if address:
            _join(ray, address, opts)
        else:
            # "local": a runtime of our own, even where a cluster was started on this machine
            ray.init(address="local", num_cpus=max(1, int(workers)), object_store_memory=OBJECT_STORE_BYTES, **opts)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        where = f"the Ray cluster at {address}" if address else "a local Ray runtime"
        raise FileGramError(f"cannot start or join {where}: {' '.join(str(exc).split())[:300]}") from exc
    try:
        yield ray
    finally:
        ray.shutdown()


def _join(ray: Any, address: str, opts: dict[str, Any], attempts: int = 3) -> None:
    """ray.init on a cluster. Through Ray Client (ray://) the head starts a server for each
    client; when that server dies at birth (seen on a loaded two-core machine: it exited at
    once, its log empty) the client gets "Initialization failure from server", and the next
    attempt usually gets a fresh one. Other failures are final at once."""
    import time

    for attempt in range(1, attempts + 1):
        try:
            ray.init(address=address, **opts)
            return
        except (ConnectionError, RuntimeError) as exc:
            if not address.startswith("ray://") or "Initialization failure" not in str(exc) or attempt == attempts:
                raise
            with contextlib.suppress(Exception):
                ray.shutdown()
            time.sleep(2.0 * attempt)


def check_reachable(address: str, timeout_s: float = 5.0) -> None:
    """Fail in seconds, with one line, when nothing listens at a cluster address (Ray itself
    keeps retrying an unreachable head for minutes). 'auto' is left to Ray."""
    if address == "auto":
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise FileGramError(f"--address {address}: give HOST:PORT, ray://HOST:PORT or auto")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout_s).close()
    except OSError as exc:
        raise FileGramError(f"cannot reach the Ray cluster at {address}: {exc.strerror or exc}") from None


def use_cluster_token() -> None:
    """Ray 2.5x's `ray start` turns token authentication on, but a driver joining with
    ray.init(address) only sends the token when RAY_AUTH_MODE says so: send it whenever one is
    at hand (the head's ~/.ray/auth_token, copied to this machine, or RAY_AUTH_TOKEN[_PATH]).
    A cluster without authentication ignores it."""
    if "RAY_AUTH_MODE" in os.environ:
        return
    if os.environ.get("RAY_AUTH_TOKEN") or os.environ.get("RAY_AUTH_TOKEN_PATH") or \
            (Path.home() / ".ray" / "auth_token").is_file():
        os.environ["RAY_AUTH_MODE"] = "token"


def task_error(exc: BaseException) -> FileGramError:
    """A failed Ray task as one line (the worker's own FileGramError when it raised one)."""
    cause = getattr(exc, "cause", None)
    if isinstance(cause, FileGramError):
        return FileGramError(str(cause))
    text = str(cause or exc).strip().splitlines()
    return FileGramError(f"a Ray task failed: {text[-1][:200] if text else type(exc).__name__}")


# -- one pair on a worker ----------------------------------------------------------------


def pack(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def unpack(files: dict[str, bytes], dest: Path) -> Path:
    """Write a packed trajectory to `dest` (replacing what was there), summary.json last."""
    if dest.exists():
        shutil.rmtree(dest)
    order = sorted(files, key=lambda rel: (rel in LAST_FILES, LAST_FILES.index(rel) if rel in LAST_FILES else 0, rel))
    for rel in order:
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(files[rel])
    (dest / "media").mkdir(parents=True, exist_ok=True)
    return dest


def pairs_on_worker(run_pair: Callable[..., str], pairs: Sequence[tuple[str, str]], seed: int, live: bool,
                    agent: str | None, agent_options: dict[str, Any] | None, gate: llmgate.Gate | None,
                    retries: int, scale: float = 1.0, expression: float = 1.0) -> list[tuple[str, dict[str, bytes]]]:
    """Pairs, in a Ray worker: each computed in a temporary folder and returned as files."""
    if agent:
        llmgate.install(gate, retries)
    done = []
    for pid, tid in pairs:
        with tempfile.TemporaryDirectory(prefix="filegram-task-") as tmp:
            out = Path(run_pair(pid, tid, seed, os.path.join(tmp, "out"), live, agent, agent_options,
                                os.path.join(tmp, "sandbox"), scale, expression))
            done.append((out.name, pack(out)))
    return done


def task_batches(jobs: Sequence[tuple[str, str]], *, per_task: bool) -> list[list[tuple[str, str]]]:
    """Ray tasks: in fast mode all pairs of one task together (a worker builds the task's input
    workspace once, as the local engine's ordering intends; a pair takes milliseconds, a
    workspace much longer), in live and agent mode one pair each (a pair takes minutes)."""
    if not per_task:
        return [[j] for j in jobs]
    by_task: dict[str, list[tuple[str, str]]] = {}
    for pid, tid in jobs:
        by_task.setdefault(tid, []).append((pid, tid))
    return list(by_task.values())


def run_on_ray(run_pair: Callable[..., str], jobs: Sequence[tuple[str, str]], out: Path, *, seed: int, live: bool,
               agent: str | None, agent_options: dict[str, Any] | None, limits: llmgate.Limits,
               workers: int, address: str | None, scale: float = 1.0, expression: float = 1.0) -> Iterator[Path]:
    """Run the (profile, task) pairs as Ray tasks; yield each folder as it is written."""
    with ray_runtime(address, workers) as ray:
        gate: llmgate.Gate | None = llmgate.TokenBucket(0) if limits.per_minute <= 0 else None
        if agent and gate is None:
            bucket = ray.remote(num_cpus=0)(llmgate.TokenBucket).remote(limits.per_minute, limits.burst)
            gate = llmgate.RemoteGate(bucket)
        task = ray.remote(num_cpus=1, max_retries=2)(pairs_on_worker)
        pending = [task.remote(run_pair, batch, seed, live, agent, agent_options, gate, limits.retries,
                               scale, expression)
                   for batch in task_batches(jobs, per_task=not (live or agent))]
        try:
            while pending:
                ready, pending = ray.wait(pending, num_returns=1)
                try:
                    done = ray.get(ready[0])
                except ray.exceptions.RayError as exc:
                    raise task_error(exc) from None
                for name, files in done:
                    yield unpack(files, out / name)
        finally:
            for ref in pending:
                with contextlib.suppress(Exception):
                    ray.cancel(ref, force=True)


# -- the local engine's shared budget ------------------------------------------------------


@contextlib.contextmanager
def local_gate(limits: llmgate.Limits, processes: bool) -> Iterator[tuple[Callable[..., None] | None, tuple[Any, ...]]]:
    """The request budget for the local engine: in this process, or (worker processes) one
    bucket served by a multiprocessing manager. Yields a pool initializer and its arguments."""
    if not processes:
        llmgate.install_limits(limits)
        yield None, ()
        return
    from multiprocessing.managers import BaseManager

    class BucketManager(BaseManager):
        pass

    BucketManager.register("TokenBucket", llmgate.TokenBucket)
    with BucketManager() as manager:
        bucket = manager.TokenBucket(limits.per_minute, limits.burst)  # type: ignore[attr-defined]
        yield llmgate.install, (bucket, limits.retries)
