"""File-system observation: watchdog observers that turn OS events into raw events.

On Linux the inotify observer is extended (see inotify) to report directory opens, queue
overflows and folders the watch limit leaves unwatched; when the installed watchdog is
not the one that extension was written for, watchdog's public observer is used and the
recorder says what it cannot see (folder listings). When the inotify watch limit is
exhausted the root (or a sub-folder) is watched by polling instead, and the recorder says
so. Every path is checked against the privacy filters here, before it is queued: a denied
path never reaches the queue, the log or the store.
"""

from __future__ import annotations

import errno
import logging
import os
import queue
import sys
import threading
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers.api import BaseObserver
from watchdog.observers.polling import PollingObserver

from filegram.store import now_ms

from .inotify import (
    TESTED_WITH,
    InternalsChanged,
    extended_observer_class,
    public_observer_class,
    watchdog_version,
)
from .paths import RootSet

log = logging.getLogger(__name__)

POLL_INTERVAL_S = 2.0


@dataclass(slots=True)
class Raw:
    """One observed fact, in arrival order. t is epoch milliseconds."""

    kind: str
    path: str
    dest: str | None = None
    t: float = 0.0
    is_dir: bool = False
    synthetic: bool = False
    data: Any = None  # proc_start: a ProcInfo; proc_end, proc_activity: the pid; flush, stop: an Event


_KIND = {
    "created": "created",
    "modified": "modified",
    "closed": "closed_write",
    "closed_no_write": "closed_nowrite",
    "deleted": "deleted",
    "moved": "moved",
    "dir_opened": "dir_opened",
    "overflow": "overflow",
}


class EventHandler(FileSystemEventHandler):
    """watchdog events -> Raw facts for the paths the recorder may see."""

    def __init__(self, sink: Callable[[Raw], None], roots: RootSet):
        self.sink = sink
        self.roots = roots

    def dispatch(self, event: FileSystemEvent) -> None:  # fast path: no per-type methods
        kind = _KIND.get(event.event_type)
        if kind is None:
            # attribute changes matter only on a root itself: flush() marks the event
            # stream by re-setting the root's times (see Recorder._sync_markers)
            if event.event_type == "attrib" and event.is_directory:
                src = os.fsdecode(event.src_path)
                if any(src == r.path for r in self.roots.roots):
                    self.sink(Raw("root_attrib", src, t=now_ms(), is_dir=True))
            return
        src = os.fsdecode(event.src_path)
        t = now_ms()
        if kind == "overflow":
            self.sink(Raw("overflow", src, t=t))
            return
        if event.is_directory and kind in ("modified", "closed_write", "closed_nowrite"):
            return
        roots = self.roots
        if kind == "moved":
            dest = os.fsdecode(event.dest_path)
            src_ok = roots.visible(src)
            dest_ok = roots.visible(dest)
            if src_ok and dest_ok:
                self.sink(Raw("moved", src, dest, t, event.is_directory, event.is_synthetic))
            elif dest_ok:  # moved in from outside (or from a hidden place): new to us
                self.sink(Raw("created", dest, None, t, event.is_directory, event.is_synthetic))
            elif src_ok:
                self.sink(Raw("deleted", src, None, t, event.is_directory, event.is_synthetic))
            return
        if not roots.visible(src):
            return
        self.sink(Raw(kind, src, None, t, event.is_directory, event.is_synthetic))


class FolderPoller:
    """Polls single folders (not their sub-folders) that inotify could not watch, all in
    one thread: a folder's entries are compared every interval, and what appeared,
    vanished or changed becomes raw events (a move shows as a delete and a create)."""

    def __init__(self, roots: RootSet, sink: Callable[[Raw], None], interval_s: float):
        self.roots = roots
        self.sink = sink
        self.interval_s = interval_s
        self._folders: dict[str, dict[str, tuple[bool, int, int]]] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __len__(self) -> int:
        return len(self._folders)

    def add(self, folder: str, *, known: bool) -> None:
        """known: its current entries existed before (no events for them)."""
        with self._lock:
            if folder in self._folders:
                return
            self._folders[folder] = self._entries(folder) if known else {}
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="filegram-folder-poll", daemon=True)
            self._thread.start()

    def _entries(self, folder: str) -> dict[str, tuple[bool, int, int]]:
        out: dict[str, tuple[bool, int, int]] = {}
        try:
            with os.scandir(folder) as it:
                for e in it:
                    try:
                        st = e.stat(follow_symlinks=False)
                        out[e.name] = (e.is_dir(follow_symlinks=False), st.st_size, st.st_mtime_ns)
                    except OSError:
                        continue
        except OSError:
            pass
        return out

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            with self._lock:
                folders = list(self._folders.items())
            for folder, before in folders:
                now = self._entries(folder)
                t = now_ms()
                for name, (is_dir, size, mtime) in now.items():
                    path = os.path.join(folder, name)
                    if not self.roots.visible(path):
                        continue
                    old = before.get(name)
                    if old is None:
                        self.sink(Raw("created", path, None, t, is_dir))
                        if is_dir:
                            self.add(path, known=False)
                        else:
                            self.sink(Raw("closed_write", path, None, t, False))
                    elif not is_dir and (old[1], old[2]) != (size, mtime):
                        self.sink(Raw("closed_write", path, None, t, False))
                for name, (is_dir, _, _) in before.items():
                    if name not in now:
                        path = os.path.join(folder, name)
                        if self.roots.visible(path):
                            self.sink(Raw("deleted", path, None, t, is_dir))
                        if is_dir:
                            with self._lock:
                                self._folders.pop(path, None)
                with self._lock:
                    if folder in self._folders:
                        self._folders[folder] = now

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)


def max_user_watches() -> int | None:
    try:
        with open("/proc/sys/fs/inotify/max_user_watches") as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


class Watcher:
    """Observers for all roots, feeding a bounded queue."""

    def __init__(self, roots: RootSet, out: queue.Queue[Raw], *, force_polling: bool = False):
        self.roots = roots
        self.out = out
        self.force_polling = force_polling
        self.observer: BaseObserver | None = None
        self.poller: BaseObserver | None = None
        self.polled_roots: list[str] = []
        self.folder_poller: FolderPoller | None = None
        self._started = False
        self.watched_roots: list[str] = []
        self.messages: list[str] = []
        self.sees_folder_opens = True  # False on watchdog's public observer
        self.dropped = 0
        self._lock = threading.Lock()
        self.last_dir_created_ms = 0.0  # when a folder was last made (see Recorder.flush)

    def _sink(self, raw: Raw) -> None:
        if raw.is_dir and raw.kind == "created":
            self.last_dir_created_ms = raw.t
        # Back-pressure first: blocking the observer thread lets the kernel queue absorb a
        # burst; only if the store is stuck for long do we count a drop and rescan later.
        try:
            self.out.put_nowait(raw)
            return
        except queue.Full:
            pass
        try:
            self.out.put(raw, timeout=10.0)
        except queue.Full:
            with self._lock:
                self.dropped += 1
            try:
                self.out.put(Raw("overflow", raw.path, t=raw.t), timeout=30.0)
            except queue.Full:
                pass

    def start(self) -> None:
        # watchdog warns about re-added watches with the full list of watched folders: that
        # list can name private folders, and the warning is harmless, so it is silenced.
        warnings.filterwarnings("ignore", message="Callback with id", category=RuntimeWarning)
        logging.getLogger("watchdog").setLevel(logging.ERROR)
        handler = EventHandler(self._sink, self.roots)
        if self.force_polling:
            self.observer = PollingObserver()  # polls every second
            self.observer.start()
            for r in self.roots.roots:
                self.watched_roots.append(r.path)
                self.observer.schedule(handler, r.path, recursive=True)
        elif sys.platform.startswith("linux"):
            try:
                self._watch(extended_observer_class(self._poll_folder), handler)
            except (InternalsChanged, AttributeError, TypeError) as exc:
                # AttributeError / TypeError: an internal that exists but changed shape,
                # noticed when the first watch group is built (synchronously, in schedule)
                self._stop_observer()
                self._use_public_observer(exc)
                self._watch(public_observer_class(), handler)
        else:
            self._watch(public_observer_class(), handler)
        self._started = True

    def _watch(self, observer_class: Callable[[], BaseObserver], handler: EventHandler) -> None:
        self.observer = observer_class()
        self.observer.start()
        self.watched_roots = []
        for r in self.roots.roots:
            try:
                self.observer.schedule(handler, r.path, recursive=True)
                self.watched_roots.append(r.path)
            except OSError as exc:
                if exc.errno not in (errno.ENOSPC, errno.EMFILE):
                    raise
                self._fall_back_to_polling(handler, r.path, exc)

    def _use_public_observer(self, why: Exception) -> None:
        """Say once, in the log and in the recorder's messages, what is lost."""
        self.sees_folder_opens = False
        msg = (
            f"watchdog {watchdog_version()} differs from the {TESTED_WITH} the recorder's inotify "
            f"extension was written for ({type(why).__name__}: {why}); using watchdog's public "
            "observer instead, so folder listings (file_browse) are not seen and an inotify "
            "overflow is not rescanned"
        )
        log.warning(msg)
        self.messages.append(msg)

    def _poll_folder(self, folder: str) -> None:
        """A folder below a watched root could not get an inotify watch (limit reached)."""
        if not self.roots.visible(folder):
            return
        if self.folder_poller is None:
            self.folder_poller = FolderPoller(self.roots, self._sink, POLL_INTERVAL_S)
            self.messages.append(self._limit_message("some folders", "watch"))
            log.warning(self.messages[-1])
        self.folder_poller.add(folder, known=not self._started)

    @staticmethod
    def _limit_message(where: str, what: str) -> str:
        limit = max_user_watches()
        return (
            f"inotify {what} limit reached (fs.inotify.max_user_watches={limit}): {where} "
            f"polled every {POLL_INTERVAL_S:g} s instead, so plain reads, listings and searches "
            "there are not seen; raise the limit with "
            "`sudo sysctl fs.inotify.max_user_watches=524288` and restart recording"
        )

    def _fall_back_to_polling(self, handler: EventHandler, root: str, exc: OSError) -> None:
        with self._lock:
            if root in self.polled_roots:
                return
        what = "watch" if exc.errno == errno.ENOSPC else "instance"
        msg = self._limit_message(f"{root} is", what)
        log.warning(msg)
        self.messages.append(msg)
        if self.poller is None:
            self.poller = PollingObserver(timeout=POLL_INTERVAL_S)
            self.poller.start()
        self.poller.schedule(handler, root, recursive=True)
        with self._lock:
            self.polled_roots.append(root)

    @property
    def polled_folders(self) -> int:
        return len(self.folder_poller) if self.folder_poller is not None else 0

    def _stop_observer(self) -> None:
        obs, self.observer = self.observer, None
        if obs is not None:
            _stop(obs)

    def stop(self) -> None:
        if self.folder_poller is not None:
            self.folder_poller.stop()
        for obs in (self.observer, self.poller):
            if obs is not None:
                _stop(obs)


def _stop(observer: BaseObserver) -> None:
    try:
        observer.stop()
        observer.join(timeout=5)
    except Exception:  # stopping must not hide the data already stored
        log.exception("error stopping observer")
