"""watchdog's inotify observer, extended where watchdog leaves it closed.

Three additions, all needed for a faithful trace on Linux: directory opens (IN_OPEN on a
folder: how `ls`, file managers and os.scandir become file_browse), queue overflow
(IN_Q_OVERFLOW: the recorder rescans the root instead of losing events silently), and a
sub-folder that cannot get a watch because the inotify watch limit is reached (watchdog
skips it; the recorder polls it instead).

They subclass watchdog internals (InotifyWatchGroup, InotifyEmitter, the move-event
grouper), which are no public API and were rewritten between major versions. Before the
classes are built, `check_internals()` verifies that every name and field used here is
there, so a different watchdog is noticed at start, not by a thread dying later; the
watcher then uses watchdog's public observer and says what it cannot see. This is the
shape of watchdog's own `_get_observer_cls`, which falls back with a warning when a
platform backend cannot load. Written against watchdog 7.1.0 and kept working on 7.1.1,
which rewrote the group's watch bookkeeping as a tree of folders: the extension touches no
bookkeeping of its own, it hooks the one call that asks the kernel for a watch.
"""

from __future__ import annotations

import dataclasses
import errno
import os
from collections.abc import Callable
from importlib import metadata
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from watchdog.observers.api import BaseObserver

TESTED_WITH = "7.1.0 and 7.1.1"


class InternalsChanged(Exception):
    """The installed watchdog is not built the way the extension expects."""


def watchdog_version() -> str:
    try:
        return metadata.version("watchdog")
    except metadata.PackageNotFoundError:
        return "unknown"


def check_internals() -> None:
    """Raise InternalsChanged (saying what is missing) unless every watchdog internal
    used below exists."""
    try:
        from watchdog.observers import inotify, inotify_c
        from watchdog.observers.inotify_move_event_grouper import PathedInotifyEvent
    except ImportError as exc:
        raise InternalsChanged(str(exc)) from exc
    needed: list[tuple[Any, str]] = [
        (inotify, "InotifyWatchGroup"),
        (inotify, "InotifyEmitter"),
        (inotify, "InotifyObserver"),
        (inotify_c, "InotifyFD"),
        (inotify_c, "InotifyConstants"),
        (inotify_c, "InotifyEvent"),
    ]
    for owner, name in needed:
        if not hasattr(owner, name):
            raise InternalsChanged(f"{owner.__name__}.{name} is missing")
    group, emitter = inotify.InotifyWatchGroup, inotify.InotifyEmitter
    methods = [
        (group, "_add_callback"), (group, "on_queue_overflow"), (group, "_callback"),
        (emitter, "on_thread_start"), (emitter, "build_and_queue_event"),
        (emitter, "get_event_mask_from_filter"), (emitter, "_decode_path"), (emitter, "queue_event"),
        (inotify_c.InotifyFD, "add_callback"), (inotify_c.InotifyFD, "start"),
        (inotify_c.InotifyEvent, "is_open"), (inotify_c.InotifyEvent, "is_directory"),
        (inotify_c.InotifyConstants, "IN_OPEN"),
    ]
    for owner, name in methods:
        if not hasattr(owner, name):
            raise InternalsChanged(f"{owner.__name__}.{name} is missing")
    if not dataclasses.is_dataclass(group):
        raise InternalsChanged("InotifyWatchGroup is no longer a dataclass")
    fields = {f.name for f in dataclasses.fields(group)}
    for name in ("_inotify_fd", "path", "event_mask", "is_recursive", "follow_symlink", "_id"):
        if name not in fields:
            raise InternalsChanged(f"InotifyWatchGroup.{name} is missing")
    if getattr(PathedInotifyEvent, "_fields", None) != ("ev", "path"):
        raise InternalsChanged("PathedInotifyEvent is no longer (ev, path)")


def extended_observer_class(on_unwatchable: Callable[[str], None]) -> type[BaseObserver]:
    """An InotifyObserver whose emitter also reports directory opens and overflows, and
    hands a sub-folder it cannot watch (watch limit) to on_unwatchable(folder).
    Raises InternalsChanged when the installed watchdog differs (see check_internals)."""
    check_internals()
    from watchdog.events import FileSystemEvent
    from watchdog.observers.api import BaseObserver
    from watchdog.observers.inotify import InotifyEmitter, InotifyObserver, InotifyWatchGroup
    from watchdog.observers.inotify_c import InotifyConstants, InotifyFD
    from watchdog.observers.inotify_move_event_grouper import PathedInotifyEvent

    class DirOpenedEvent(FileSystemEvent):
        event_type = "dir_opened"
        is_directory = True

    class OverflowEvent(FileSystemEvent):
        event_type = "overflow"
        is_directory = True

    class FD(InotifyFD):
        def add_callback(self, path: bytes, mask: Any, callback: Any, id_: Any) -> Any:
            # watchdog skips a sub-folder it cannot watch (7.1.0 silently, 7.1.1 with a log
            # line); with the watch limit reached that would lose every event there, so such
            # folders are polled. callback is the watch group (its root is group.path).
            try:
                return super().add_callback(path, mask, callback, id_)
            except OSError as exc:
                if exc.errno == errno.ENOSPC and path != getattr(callback, "path", path):
                    on_unwatchable(os.fsdecode(path))
                raise

    class WatchGroup(InotifyWatchGroup):
        overflow_cb: Callable[[], None] | None = None

        def _add_callback(self, path: bytes) -> None:
            try:
                super()._add_callback(path)
            except OSError as exc:
                # 7.1.1 lets a sub-folder's ENOSPC out while the group starts: the sub-folder
                # is polled (above), the rest of the root is still watched
                if path == self.path or exc.errno not in (errno.ENOSPC, errno.EMFILE):
                    raise

        def on_queue_overflow(self) -> None:
            super().on_queue_overflow()
            cb = getattr(self, "overflow_cb", None)
            if cb is not None:
                cb()

    class Emitter(InotifyEmitter):
        def on_thread_start(self) -> None:
            path = os.fsencode(self.watch.path)
            mask = self.get_event_mask_from_filter() | InotifyConstants.IN_OPEN
            group = WatchGroup(
                self._inotify_fd,
                path,
                is_recursive=self.watch.is_recursive,
                event_mask=mask,
                follow_symlink=self.watch.follow_symlink,
            )
            group.overflow_cb = lambda: self.queue_event(OverflowEvent(self.watch.path))
            self._inotify = group

        def build_and_queue_event(self, event: Any, *, full_events: bool = False) -> None:
            if isinstance(event, PathedInotifyEvent) and event.ev.is_directory and event.ev.is_open:
                self.queue_event(DirOpenedEvent(self._decode_path(event.path)))
                return
            super().build_and_queue_event(event, full_events=full_events)

    class Observer(InotifyObserver):
        def __init__(self) -> None:
            self._inotify_fd = FD()
            self._inotify_fd.start()
            BaseObserver.__init__(self, Emitter, timeout=1.0, inotify_fd=self._inotify_fd)

    return Observer


def public_observer_class() -> type[BaseObserver]:
    """watchdog's own choice for this platform (its public API)."""
    from watchdog.observers import Observer

    return Observer
