"""Where trajectories are computed: the local engine (this process, or worker processes) or
Ray (`--engine ray`: a local Ray runtime, or an existing cluster with `--address`).

On Ray every profile-task pair is one task. A task writes its trajectory into a temporary
folder on whichever node runs it and returns the folder's files; the driver writes them
under --out, so a cluster needs no shared file system and the output is byte for byte what
the local engine writes for the same seed. Agent mode's LLM calls share one request budget
per provider through a Ray actor (llmgate.TokenBucket), whichever node they run on.

Ray is the optional extra `filegram[scale]`, imported only here and only when asked for.
"""

from __future__ import annotations

import contextlib
import os
import shutil
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
    ray = require_ray()
    if ray.is_initialized():
        yield ray
        return
    opts: dict[str, Any] = {"include_dashboard": False, "logging_level": "ERROR", "log_to_driver": False}
    try:
        if address:
            ray.init(address=address, **opts)
        else:
            ray.init(num_cpus=max(1, int(workers)), object_store_memory=OBJECT_STORE_BYTES, **opts)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        where = f"the Ray cluster at {address}" if address else "a local Ray runtime"
        raise FileGramError(f"cannot start or join {where}: {str(exc).splitlines()[0][:200]}") from exc
    try:
        yield ray
    finally:
        ray.shutdown()


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


def pair_on_worker(run_pair: Callable[..., str], pid: str, tid: str, seed: int, live: bool, agent: str | None,
                   agent_options: dict[str, Any] | None, gate: llmgate.Gate | None,
                   retries: int) -> tuple[str, dict[str, bytes]]:
    """One pair, in a Ray worker: computed in a temporary folder, returned as files."""
    if agent:
        llmgate.install(gate, retries)
    with tempfile.TemporaryDirectory(prefix="filegram-task-") as tmp:
        out = Path(run_pair(pid, tid, seed, os.path.join(tmp, "out"), live, agent, agent_options,
                            os.path.join(tmp, "sandbox")))
        return out.name, pack(out)


def run_on_ray(run_pair: Callable[..., str], jobs: Sequence[tuple[str, str]], out: Path, *, seed: int, live: bool,
               agent: str | None, agent_options: dict[str, Any] | None, limits: llmgate.Limits,
               workers: int, address: str | None) -> Iterator[Path]:
    """Run every (profile, task) pair as a Ray task; yield each folder as it is written."""
    with ray_runtime(address, workers) as ray:
        gate: llmgate.Gate | None = None
        if agent:
            bucket = ray.remote(num_cpus=0)(llmgate.TokenBucket).remote(limits.per_minute, limits.burst)
            gate = llmgate.RemoteGate(bucket)
        task = ray.remote(num_cpus=1, max_retries=2)(pair_on_worker)
        pending = [task.remote(run_pair, p, t, seed, live, agent, agent_options, gate, limits.retries) for p, t in jobs]
        try:
            while pending:
                ready, pending = ray.wait(pending, num_returns=1)
                try:
                    name, files = ray.get(ready[0])
                except ray.exceptions.RayError as exc:
                    raise task_error(exc) from None
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
