"""The recorder: observers -> bounded queue -> interpreter -> sessions -> store, in batches.

One worker thread owns the interpreter and the store writes, so no lock is needed on the
file model, and every batch (actions, blobs and the recorder's file state) is one
transaction: a crash loses at most the last unwritten batch, never half of one.

flush() is exact on Linux: it opens each root folder itself, and once the worker has seen
those opens come back through inotify, every event that happened before the call has been
read; only then are the pending events settled and written.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import signal
import sys
import threading
import time
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from filegram.errors import FileGramError
from filegram.privacy import PathFilter
from filegram.schema import TraceError
from filegram.store import DiskFullError, Store, now_ms

from .derive import Deriver
from .interpret import Interpreter
from .paths import RootSet
from .platforms import unavailable_types
from .procs import ProcessWatcher, SearchSpec
from .state import FileState
from .watch import Raw, Watcher

log = logging.getLogger("filegram.recorder")

TICK_MS = 50.0


DISK_FULL_RETRY_S = 2.0


class RecorderError(FileGramError):
    """A recorder that cannot start (a root that is not a folder, a denied root)."""


def _section(config: Any, name: str) -> Mapping[str, Any]:
    from filegram.config import DEFAULTS

    try:
        sec = config[name]
    except (KeyError, TypeError):
        sec = {}
    merged = dict(DEFAULTS.get(name, {}))
    merged.update(sec or {})
    return merged


class Recorder:
    """Records real file-system activity under `roots` into `store` as FileGram actions."""

    def __init__(
        self,
        store: Store,
        roots: Sequence[Path | str],
        config: Any,
        *,
        home: Any = None,
        profile_id: str | None = None,
        task_id: str | None = None,
        force_polling: bool = False,
    ):
        self.store = store
        self.config = config
        self.rec = _section(config, "recorder")
        self.privacy = _section(config, "privacy")
        self.profile_id = profile_id
        self.task_id = task_id
        self.force_polling = force_polling
        if not roots:
            raise RecorderError("nothing to record: give at least one --root folder (or set recorder.roots)")
        self.root_paths: list[Path] = []
        for r in roots:
            p = Path(r).expanduser()
            if not p.is_dir():
                raise RecorderError(f"recording root {p} is not a folder")
            self.root_paths.append(p.resolve())
        if home is None:
            home_root = None
        elif isinstance(home, str | os.PathLike):
            home_root = Path(home).expanduser().resolve()
        else:  # a filegram.config.Home
            home_root = Path(home.root).resolve()
        self.home_root = home_root
        try:
            pf = PathFilter.from_config(config)
        except (KeyError, TypeError):
            pf = PathFilter(deny=self.rec.get("exclude", []), ignore=self.rec.get("ignore", []))
        self.roots = RootSet(self.root_paths, pf, home_root, own_files=[str(store.path)])
        for r in self.root_paths:
            if pf.denied(str(r)):
                raise RecorderError("a recording root lies in a denied (private) folder")
            if home_root is not None and (r == home_root.resolve() or home_root.resolve() in r.parents):
                raise RecorderError(f"{r} is inside FileGram's own data folder: choose another root")
        self.queue: queue.Queue[Raw] = queue.Queue(maxsize=max(int(self.rec["queue_max_events"]), 1000))
        self.state: FileState | None = None
        self.interp: Interpreter | None = None
        self.watcher: Watcher | None = None
        self.procs: ProcessWatcher | None = None
        self._worker: threading.Thread | None = None
        self._running = False
        self._session_id: str | None = None
        self._deriver: Deriver | None = None
        self._last_action_ts: float | None = None
        self._session_started = 0.0
        self._batch: list[dict[str, Any]] = []
        self._updates: dict[str, list[str]] = {}
        self._batch_started = 0.0
        self._stored = 0
        self._errors = 0
        self._disk_full = False
        self._max_pending = max(int(self.rec["queue_max_events"]), 1000)
        self._last_stored_ms: float | None = None
        self._last_activity_ms: float | None = None
        self._markers: dict[str, int] = {}
        self._marker_kind: dict[str, str] = {}
        self._marker_cv = threading.Condition()
        self._discard_dir_opens = False
        self._idle_gap_ms = float(self.rec["idle_gap_minutes"]) * 60_000.0
        self._batch_max = max(int(self.rec["batch_max_actions"]), 1)
        self._batch_ms = float(self.rec["batch_max_seconds"]) * 1000.0
        self._last_tick = 0.0
        self._latencies: list[float] = []
        self.measure_latency = False
        self.baseline_info: dict[str, int] = {}
        # FILEGRAM_RECORDER_TRACE=FILE writes every raw event (after the privacy filters)
        # to FILE: how to see why a sequence became the actions it did.
        trace = os.environ.get("FILEGRAM_RECORDER_TRACE")
        self._trace = open(trace, "a", encoding="utf-8") if trace else None  # noqa: SIM115

    # ------------------------------------------------------------------------------------
    # lifecycle

    @property
    def session_id(self) -> str | None:
        return self._session_id

    def start(self) -> Recorder:
        if self._running:
            return self
        self.state = FileState(self.store)
        self.interp = Interpreter(
            self.roots,
            self.state,
            settle_ms=float(self.rec["settle_ms"]),
            snapshot_max_bytes=int(self.rec["snapshot_max_bytes"]),
            redact=bool(self.privacy.get("redact", True)),
            bulk_per_second=int(self.rec["bulk_events_per_second"]),
        )
        self.baseline_info = self.interp.baseline(int(self.rec["baseline_max_bytes"]))
        with self.store.transaction():
            self.state.write_pending()
        self._close_crashed_sessions()
        self._open_session(now_ms())
        self.watcher = Watcher(self.roots, self.queue, force_polling=self.force_polling)
        self._running = True
        self._worker = threading.Thread(target=self._work, name="filegram-recorder", daemon=True)
        self._worker.start()
        self._discard_dir_opens = True
        self.watcher.start()
        self.procs = ProcessWatcher(self._on_proc_start, self._on_proc_end, poll_ms=float(self.rec["process_poll_ms"]))
        self.procs.start()
        # watchdog walks every folder when it adds its watches: those opens are not ours to
        # record. Wait until they have come through, then listen for real ones.
        self._sync_markers(5.0)
        self._discard_dir_opens = False
        log.info("recording %s", ", ".join(str(r) for r in self.root_paths))
        return self

    def flush(self, timeout: float = 5.0) -> bool:
        """Return once everything observed before the call is stored (True), or after
        timeout seconds (False)."""
        if not self._running:
            return True
        deadline = time.monotonic() + timeout
        self._sync_markers(timeout)
        done = threading.Event()
        try:
            self.queue.put(Raw("flush", "", data=done), timeout=max(deadline - time.monotonic(), 0.1))
        except queue.Full:
            return False
        return done.wait(max(deadline - time.monotonic(), 0.1))

    def close_idle_session(self, timeout: float = 5.0) -> bool:
        """Close the open session now if it has been idle longer than the gap (the worker
        does this on its own too; the daemon calls it before consolidating). True if a
        session was closed."""
        if not self._running:
            return False
        done = threading.Event()
        done.result = False  # type: ignore[attr-defined]
        try:
            self.queue.put(Raw("close_idle", "", data=done), timeout=timeout)
        except queue.Full:
            return False
        done.wait(timeout)
        return bool(getattr(done, "result", False))

    def stop(self) -> dict[str, Any]:
        if not self._running:
            return self.stats()
        self.flush(10.0)
        if self.procs is not None:
            self.procs.stop()
        if self.watcher is not None:
            self.watcher.stop()
        done = threading.Event()
        self.queue.put(Raw("stop", "", data=done))
        done.wait(30.0)
        if self._worker is not None:
            self._worker.join(timeout=30.0)
        self._running = False
        if self._session_id is not None:
            self.store.close_session(self._session_id)
        return self.stats()

    def __enter__(self) -> Recorder:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stats(self) -> dict[str, Any]:
        interp = self.interp
        w = self.watcher
        return {
            "running": self._running,
            "queued": self.queue.qsize() + (interp.pending_count if interp else 0) + len(self._batch),
            "stored": self._stored,
            "dropped": w.dropped if w else 0,
            "errors": self._errors,
            "last_stored_ms": self._last_stored_ms,
            "last_activity_ms": self._last_activity_ms,
            "session_id": self._session_id,
            "unavailable_types": unavailable_types(polled=bool(w and (w.polled_roots or w.polled_folders or self.force_polling))),
            "roots": [str(r) for r in self.root_paths],
            "polled_roots": list(w.polled_roots) if w else [],
            "polled_folders": w.polled_folders if w else 0,
            "process_watch": self.procs.mode if self.procs else "none",
            "rescans": interp.counters["rescans"] if interp else 0,
            "bulk_summaries": interp.counters["bulk_summaries"] if interp else 0,
            "raw_events": interp.counters["raw"] if interp else 0,
            "messages": list(w.messages) if w else [],
            "disk_full": self._disk_full,
        }

    # ------------------------------------------------------------------------------------
    # markers

    def _sync_markers(self, timeout: float) -> None:
        w = self.watcher
        if w is None:
            return
        marker_roots = [] if (self.force_polling or not sys.platform.startswith("linux")) else [
            r for r in w.watched_roots if r not in w.polled_roots
        ]
        if w.polled_roots or w.polled_folders:
            # polled places report up to one interval late: wait for one poll to pass
            from .watch import POLL_INTERVAL_S

            time.sleep(min(POLL_INTERVAL_S + 0.3, max(timeout - 0.5, 0.1)))
        if not marker_roots:
            time.sleep(0.3 if not self.force_polling else 1.3)  # one poll (1 s) and a bit
            return
        with self._marker_cv:
            for r in marker_roots:
                self._markers[r] = self._markers.get(r, 0) + 1
        for r in marker_roots:
            # Re-setting the root's own times yields IN_ATTRIB on the root: unlike a folder
            # open, no user program does that in passing, so the echo is unambiguous.
            self._marker_kind[r] = "root_attrib"  # before the echo can possibly arrive
            try:
                st = os.stat(r)
                os.utime(r, ns=(st.st_atime_ns, st.st_mtime_ns))
                continue
            except OSError:
                pass
            try:
                self._marker_kind[r] = "dir_opened"
                fd = os.open(r, os.O_RDONLY | os.O_DIRECTORY)
                os.close(fd)
            except OSError:
                with self._marker_cv:
                    self._markers[r] -= 1
        deadline = time.monotonic() + timeout
        with self._marker_cv:
            while any(self._markers.get(r, 0) > 0 for r in marker_roots):
                left = deadline - time.monotonic()
                if left <= 0:
                    for r in marker_roots:  # lost (overflow): do not wait for it again
                        self._markers[r] = 0
                    break
                self._marker_cv.wait(left)

    # ------------------------------------------------------------------------------------
    # processes

    def _on_proc_start(self, spec: SearchSpec) -> None:
        try:
            self.queue.put(Raw("proc_start", spec.cwd, t=spec.t_start, data=spec), timeout=1.0)
        except queue.Full:
            pass

    def _on_proc_end(self, pid: int, t: float) -> None:
        try:
            self.queue.put(Raw("proc_end", "", t=t, data=pid), timeout=1.0)
        except queue.Full:
            pass

    # ------------------------------------------------------------------------------------
    # worker

    def _work(self) -> None:
        """The worker loop. It must outlive any single failure: a dead worker would leave
        the tray saying "recording" while nothing is stored."""
        while True:
            try:
                if self._work_once():
                    return
            except Exception:
                self._errors += 1
                log.exception("recorder: worker error; continuing")
                time.sleep(0.1)

    def _work_once(self) -> bool:
        """Process what is queued, settle, write. True when asked to stop."""
        interp = self.interp
        assert interp is not None
        try:
            raw: Raw | None = self.queue.get(timeout=TICK_MS / 1000.0)
        except queue.Empty:
            raw = None
        n = 0
        while raw is not None:
            if raw.kind == "close_idle":
                before = self._session_id
                try:
                    self._maybe_close_idle(now_ms())
                finally:
                    raw.data.result = before is not None and self._session_id is None
                    raw.data.set()
            elif raw.kind in ("flush", "stop"):
                try:
                    self._settle_all()
                finally:
                    raw.data.set()
                if raw.kind == "stop":
                    return True
            else:
                self._handle(raw)
            n += 1
            if n >= 2000:
                break
            try:
                raw = self.queue.get_nowait()
            except queue.Empty:
                raw = None
        now = now_ms()
        if now - self._last_tick >= TICK_MS:
            self._last_tick = now
            try:
                self._route(interp.tick(now), now)
                self._release(now)
            except Exception:
                self._errors += 1
                log.exception("recorder: could not interpret events")
            self._maybe_close_idle(now)
        # Batch under load, write at once when caught up: low latency at human pace,
        # few transactions (each one an fsync) during a burst.
        if (self._batch or self._updates) and (
            len(self._batch) >= self._batch_max
            or now - self._batch_started >= self._batch_ms
            or self.queue.empty()
        ):
            self._write()
        return False

    def _handle(self, raw: Raw) -> None:
        if raw.kind in ("dir_opened", "root_attrib"):
            if self._markers and self._marker_kind.get(raw.path) == raw.kind:
                with self._marker_cv:
                    n = self._markers.get(raw.path, 0)
                    if n > 0:
                        self._markers[raw.path] = n - 1
                        self._marker_cv.notify_all()
                        return
            if raw.kind == "root_attrib" or self._discard_dir_opens:
                return
        if self._trace is not None:
            detail = raw.data.argv if raw.kind == "proc_start" else (raw.data if raw.kind == "proc_end" else "")
            self._trace.write(f"{raw.t:.1f} {now_ms():.1f} {raw.kind} {self.roots.rel(raw.path) or raw.path} {raw.dest or ''} {detail}\n")
            self._trace.flush()
        if raw.kind not in ("proc_start", "proc_end"):
            self._last_activity_ms = raw.t
        try:
            assert self.interp is not None
            self.interp.feed(raw)
        except Exception:
            self._errors += 1
            log.exception("recorder: could not interpret a %s event", raw.kind)

    def _settle_all(self) -> None:
        assert self.interp is not None
        now = now_ms()
        try:
            self._route(self.interp.tick(now, force=True), now)
            self._release(now)
        except Exception:
            self._errors += 1
            log.exception("recorder: could not interpret events")
        self._write()

    def _release(self, now: float, *, force: bool = False) -> None:
        if self._deriver is not None:
            self._deriver.release(now, force=force)
            for event_id, opened in self._deriver.take_updates().items():
                self._updates[event_id] = opened
            if self._updates and not self._batch:
                self._batch_started = now_ms()

    def _route(self, actions: list[dict[str, Any]], now: float) -> None:
        for a in actions:
            t = a["timestamp"]
            if self._session_id is None or (
                self._last_action_ts is not None and t - self._last_action_ts > self._idle_gap_ms
            ):
                self._rotate_session(t)
            elif self._last_action_ts is None and t - self._session_started > self._idle_gap_ms:
                # recording started long before anything happened: the session starts now
                self._session_started = t
                self.store.update_session(self._session_id, started_ms=t)
                if self._deriver is not None:
                    self._deriver.started = t
            assert self._deriver is not None
            self._add(self._deriver.feed([a]))
            self._last_action_ts = max(t, self._last_action_ts or t)

    def _add(self, events: list[dict[str, Any]]) -> None:
        if not events:
            return
        if not self._batch:
            self._batch_started = now_ms()
        sid = self._session_id
        for ev in events:
            full = {
                "event_id": ev.pop("event_id", None) or str(uuid.uuid4()),
                "event_type": ev.pop("event_type"),
                "timestamp": ev.pop("timestamp"),
                "session_id": sid,
                "profile_id": self.profile_id,
                "message_id": None,
                "model_provider": None,
                "model_name": None,
            }
            full.update(ev)
            self._batch.append(full)

    def _write(self) -> None:
        interp, state = self.interp, self.state
        assert interp is not None and state is not None
        if not self._batch and not interp.has_blobs and not state.pending_writes and not self._updates:
            return
        updates, self._updates = self._updates, {}
        batch, self._batch = self._batch, []
        blobs = interp.take_blobs()
        try:
            with self.store.transaction():
                seen: set[bytes] = set()
                for content, kind, rel in blobs:
                    key = kind.encode() + content[:64] + len(content).to_bytes(8, "little")
                    if key in seen:
                        continue
                    seen.add(key)
                    self.store.put_blob(content, kind=kind, original_path=rel)
                added = self.store.add_actions(batch)
                for event_id, opened in updates.items():
                    # a search is stored at once; reads that follow it are added here
                    self.store.conn.execute(
                        "UPDATE actions SET data = json_set(data, '$.files_opened_after', json(?)) "
                        "WHERE event_type = 'file_search' AND event_id = ?",  # the type index finds it
                        (json.dumps(opened, ensure_ascii=False), event_id),
                    )
                state.write_pending()
        except TraceError:
            self._errors += 1
            log.exception("recorder: an action did not validate; storing the others")
            added = 0
            for ev in batch:
                try:
                    added += self.store.add_actions([ev])
                except TraceError:
                    self._errors += 1
        except DiskFullError as exc:
            # Pause writing, keep what was observed (bounded), say so once, retry slowly.
            if not self._disk_full:
                self._disk_full = True
                log.warning("recorder: %s; will resume when space returns", exc)
            self._batch = (batch + self._batch)[-self._max_pending :]
            interp.put_back_blobs(blobs, self._max_pending)
            self._updates = {**updates, **self._updates}
            time.sleep(DISK_FULL_RETRY_S)
            return
        except Exception:
            self._errors += 1
            log.exception("recorder: could not write a batch; retrying with the next one")
            self._batch = batch + self._batch
            interp.put_back_blobs(blobs)
            self._updates = {**updates, **self._updates}
            time.sleep(0.2)
            return
        if self._disk_full:
            self._disk_full = False
            log.warning("recorder: space is back, recording resumed")
        self._stored += added
        if added:
            self._last_stored_ms = now_ms()
            if self.measure_latency:
                t = self._last_stored_ms
                self._latencies.extend(t - ev["timestamp"] for ev in batch)

    # ------------------------------------------------------------------------------------
    # sessions

    def _close_crashed_sessions(self) -> None:
        """A recorder killed mid-session (power loss, SIGKILL) leaves its session open;
        memory only encodes closed sessions, so close it at its last stored action."""
        root = str(self.root_paths[0])
        for s in self.store.sessions(closed=False, source="recorder"):
            if s.get("root") == root:
                self.store.close_session(s["id"])

    def _open_session(self, started: float) -> None:
        self._session_id = self.store.open_session(
            source="recorder",
            started_ms=started,
            profile_id=self.profile_id,
            task_id=self.task_id,
            root=str(self.root_paths[0]),
            metadata={
                "roots": [str(r) for r in self.root_paths],
                "platform": sys.platform,
                "unavailable_types": unavailable_types(polled=self.force_polling),
            },
        )
        self._session_started = started
        self._deriver = Deriver(started, float(self.rec["search_followup_seconds"]) * 1000.0)
        self._last_action_ts = None

    def _rotate_session(self, t: float) -> None:
        if self._session_id is not None and self._last_action_ts is not None:
            self._release(t, force=True)
            self._write()
            self.store.close_session(self._session_id)
            self._open_session(t)
        elif self._session_id is None:
            self._open_session(t)

    def _maybe_close_idle(self, now: float) -> None:
        if (
            self._session_id is not None
            and self._last_action_ts is not None
            and now - self._last_action_ts > self._idle_gap_ms
            and self.interp is not None
            and self.interp.pending_count == 0
        ):
            self._release(now, force=True)
            self._write()
            self.store.close_session(self._session_id)
            self._session_id = None
            self._deriver = None
            self._last_action_ts = None


def record(store: Store, roots: Sequence[Path | str], config: Any, seconds: float | None = None, *, home: Any = None, on_start: Any = None) -> dict[str, Any]:
    """Record in the foreground until `seconds` pass, Ctrl-C or SIGTERM; returns stats."""
    rec = Recorder(store, roots, config, home=home)
    stop = threading.Event()
    old = None
    if threading.current_thread() is threading.main_thread():
        old = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    rec.start()
    if on_start is not None:
        on_start(rec)
    try:
        end = None if seconds is None else time.monotonic() + seconds
        while not stop.is_set():
            left = None if end is None else end - time.monotonic()
            if left is not None and left <= 0:
                break
            stop.wait(1.0 if left is None else min(left, 1.0))
    except KeyboardInterrupt:
        pass
    finally:
        stats = rec.stop()
        if old is not None:
            signal.signal(signal.SIGTERM, old)
    return stats
