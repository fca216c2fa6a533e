"""The live executor: perform a plan as real file operations, for the real recorder to observe.

Reads really open and read files, listings really list, searches run real `grep` and `find`
processes, edits save like an editor (temp file in the same folder, then rename over the
original), `mkdir -p` creates each level, backups are copies and deletes are unlinks. Pauses
are the plan's think times scaled down (`pause_scale`), so a session takes seconds, not hours.
"""

from __future__ import annotations

import glob as _glob
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from filegram.errors import FileGramError

from .output import write_trajectory
from .plan import Plan, Step
from .tracer import MediaStore
from .workspace import build_workspace

if TYPE_CHECKING:
    from filegram.config import Config
    from filegram.store import Store

DEFAULT_PAUSE_SCALE = 0.0005  # 4 s of thinking becomes 2 ms
MAX_PAUSE_S = 0.2
# A recorder cannot tell two actions apart when they come closer than a human's: it folds a
# read into a rewrite that follows within 300 ms, merges saves within its settle window
# (400 ms) and summarises more than 200 events a second in a folder as one bulk operation.
# Recorded runs therefore keep human-scale minimum gaps (plain runs keep none).
RECORDED_MIN_GAP_S = 0.12
RECORDED_AROUND_SCAN_GAP_S = 0.4  # before and after listings and searches (traversal, search grace)
# Two touches of one file a second apart: the settle window plus room for a busy machine, on
# which the recorder may read (and so time) the first save a few hundred ms late (a stress
# run with two CPU hogs merged two saves 0.6 s apart into one edit).
RECORDED_SAME_PATH_GAP_S = 1.0
_SCANS = frozenset({"ls", "grep", "glob", "find"})


def prepare_sandbox(plan: Plan, sandbox: str | Path) -> Path:
    """Write the plan's input files into `sandbox` (created; must be empty) and return it."""
    root = Path(sandbox)
    root.mkdir(parents=True, exist_ok=True)
    if any(root.iterdir()):
        raise FileGramError(f"sandbox {root} is not empty")
    build_workspace(plan.task_id, plan.seed, plan.language).materialise(root)
    return root


def perform(step: Step, root: Path) -> None:
    """Do one step on disk under root."""
    target = root / step.path if step.path else root
    op = step.op
    if op == "ls":
        with os.scandir(target) as it:
            [e.name for e in it]
    elif op == "read":
        with open(target, "rb") as fh:
            if step.view_range:
                last = step.view_range[1]
                for i, _line in enumerate(fh, 1):
                    if i >= last:
                        break
            else:
                fh.read()
    elif op == "grep":
        subprocess.run(["grep", "-rilF", "--", step.query, "."], cwd=target, capture_output=True, check=False)
    elif op == "find":
        subprocess.run(["find", ".", "-name", step.query], cwd=target, capture_output=True, check=False)
    elif op == "glob":
        _glob.glob(os.path.join(_glob.escape(str(target)), "**", step.query), recursive=True)
    elif op == "write":
        with open(target, "wb") as fh:
            fh.write(step.content or b"")
    elif op == "edit":
        # Save like an editor: write a temp file beside the original, then rename over it.
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        with os.fdopen(fd, "wb") as fh:
            fh.write(step.content or b"")
        os.replace(tmp, target)
    elif op == "mkdir":
        target.mkdir(parents=True, exist_ok=True)
    elif op == "mv":
        os.rename(target, root / step.dest)
    elif op == "cp":
        shutil.copy2(target, root / step.dest)
    elif op == "rm":
        os.remove(target)
    else:
        raise FileGramError(f"unknown plan operation '{op}'")


class _Pacer:
    """When the next step may start: a plan's own pause (scaled), the minimum gap between
    steps, more around listings and searches, and `same_path_gap_s` between two touches of
    one file. One rule for performing a plan and for estimating how long it will take."""

    def __init__(self, pause_scale: float, min_gap_s: float, same_path_gap_s: float) -> None:
        self.pause_scale, self.min_gap_s, self.same_path_gap_s = pause_scale, min_gap_s, same_path_gap_s
        self.touched: dict[str, float] = {}
        self.prev_scan = False

    def wait_before(self, step: Step, now: float) -> float:
        wait = min(step.pause_ms / 1000 * self.pause_scale, MAX_PAUSE_S) if self.pause_scale > 0 else 0.0
        scan = step.op in _SCANS
        gap = self.min_gap_s
        if self.min_gap_s and (scan or self.prev_scan):
            gap = max(gap, RECORDED_AROUND_SCAN_GAP_S)
        self.prev_scan = scan
        wait = max(wait, gap)
        last = max((self.touched.get(p, 0.0) for p in _paths(step)), default=0.0)
        return max(wait, last + self.same_path_gap_s - now)

    def done(self, step: Step, now: float) -> None:
        for p in _paths(step):
            self.touched[p] = now


def _paths(step: Step) -> list[str]:
    return [p for p in (step.path, step.dest) if p]


def perform_plan(plan: Plan, root: str | Path, *, pause_scale: float = DEFAULT_PAUSE_SCALE,
                 min_gap_s: float = 0.0, same_path_gap_s: float = 0.0,
                 on_step: Callable[[int, Step], None] | None = None) -> None:
    """Perform every step; `min_gap_s` between steps and `same_path_gap_s` between two
    touches of one file keep a watching recorder able to separate them."""
    root = Path(root)
    pacer = _Pacer(pause_scale, min_gap_s, same_path_gap_s)
    for i, step in enumerate(plan.steps):
        wait = pacer.wait_before(step, time.monotonic())
        if wait > 0:
            time.sleep(wait)
        perform(step, root)
        pacer.done(step, time.monotonic())
        if on_step:
            on_step(i, step)


def planned_seconds(plan: Plan, *, pause_scale: float = DEFAULT_PAUSE_SCALE, config: Config | None = None) -> float:
    """How long a recorded live run of `plan` waits at least (the steps themselves take
    microseconds): lets a caller running several plans at once start the longest first."""
    gap, same = recorded_gaps(config)
    pacer = _Pacer(pause_scale, gap, same)
    now = same  # as a fresh clock: no file touched yet
    for step in plan.steps:
        now += max(pacer.wait_before(step, now), 0.0)
        pacer.done(step, now)
    return now - same


def run_live(plan: Plan, sandbox: str | Path, out: str | Path | None = None, *,
             pause_scale: float = DEFAULT_PAUSE_SCALE, human_gaps: bool = True, config: Config | None = None) -> Path:
    """Perform `plan` in `sandbox` for real.

    Without `out`: only file operations (the caller watches `sandbox` with its own Recorder);
    the input files are written first if the sandbox is empty. With `out`: the inputs are
    written, the real recorder watches while the plan runs, and its session is written as a
    trajectory folder to `out`. Returns `out` or the sandbox. `human_gaps` (default) keeps
    the minimum gaps a watching recorder needs to separate actions (0.12 s a step, 0.4 s around
    listings and searches, 0.6 s between two touches of one file);
    turn it off only when nobody records.
    """
    root = Path(sandbox)
    root.mkdir(parents=True, exist_ok=True)
    if not any(root.iterdir()):
        prepare_sandbox(plan, root)
    if out is None:
        gaps = recorded_gaps(config) if human_gaps else (0.0, 0.0)
        perform_plan(plan, root, pause_scale=pause_scale, min_gap_s=gaps[0], same_path_gap_s=gaps[1])
        return root
    return _record(plan, root, Path(out), pause_scale=pause_scale, config=config)


def recorded_gaps(config: Config | None) -> tuple[float, float]:
    """(seconds between steps, seconds between two touches of one file) that a recorder with
    this config's settle window needs to tell the actions apart."""
    settle = 400.0
    try:
        settle = float(config["recorder"].get("settle_ms", 400)) if config is not None else 400.0
    except (KeyError, TypeError, AttributeError):
        pass
    return RECORDED_MIN_GAP_S, max(RECORDED_SAME_PATH_GAP_S, settle / 1000 + 0.6)


def load_recorder() -> Any:
    try:
        from filegram.recorder import Recorder
    except ImportError as exc:
        raise FileGramError(f"live mode needs the recorder (filegram.recorder.Recorder): {exc}") from None
    return Recorder


def _record(plan: Plan, root: Path, out: Path, *, pause_scale: float, config: Config | None) -> Path:
    from filegram.config import Config
    from filegram.store import Store

    recorder_cls = load_recorder()
    cfg = config or Config()
    with tempfile.TemporaryDirectory(prefix="filegram-live-") as tmp:
        store = Store(Path(tmp) / "live.db")
        try:
            rec = recorder_cls(store, [root], cfg, home=None, profile_id=plan.profile_id, task_id=plan.task_id)
            rec.start()
            try:
                time.sleep(RECORDED_AROUND_SCAN_GAP_S)
                gap, same = recorded_gaps(cfg)
                perform_plan(plan, root, pause_scale=pause_scale, min_gap_s=gap, same_path_gap_s=same)
                rec.flush(timeout=10.0)
            finally:
                rec.stop()
            sid = rec.session_id
            return export_session(store, sid, plan, out, workspace_root=str(root))
        finally:
            store.close()


def export_session(store: Store, session_id: str | None, plan: Plan, out: Path, *, workspace_root: str) -> Path:
    """Write one recorded session as a trajectory folder (events, media from the store's blobs)."""
    from filegram.schema import media_hashes

    if session_id is None:
        sessions = store.sessions()
        session_id = sessions[-1]["id"] if sessions else None
    events = list(store.actions(session_id=session_id)) if session_id else []
    media = MediaStore()
    for ev in events:
        ev["profile_id"] = plan.profile_id
        for h in media_hashes(ev):
            data = store.get_blob(h)
            if data is None:
                continue
            info = store.blob_info(h) or {}
            kind = info.get("kind", "blob")
            if h not in media.items:
                media.items[h] = (kind, info.get("original_path") or "", data)
            media.refs[h] = media.refs.get(h, 0) + 1
    return write_trajectory(out, plan, events, media, workspace_root=workspace_root, mode="live",
                            extra={"session_id": session_id})
