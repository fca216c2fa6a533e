"""What the dashboard needs from its host: reads, the profile, pause and resume, a store to
forget from and a way to make a new exclusion effective. Two hosts: the running daemon, and
a plain store with no daemon around it (tests, a read-mostly view)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

from filegram.config import Config, Home
from filegram.errors import FileGramError
from filegram.store import Store

from ..assist.facade import Assistant
from ..screen_link import ScreenFrames
from .host import DaemonHost

PAUSED_STATE_KEY = "daemon.paused"
FORGET_LOCK = threading.Lock()  # one forget at a time, from the dashboard or the API


def run_forget(backend: LocalBackend, **what: Any) -> dict[str, Any]:
    """Forget through a host: its recorder paused (so no cache of it outlives what is
    forgotten and no open session is deleted under it), memory held, then recording again.
    The dashboard's form and POST /api/forget (the CLI, when a daemon runs) both come here."""
    from filegram.forget import forget

    with FORGET_LOCK, backend.writer() as store:
        result = forget(store, backend.config, home=backend.home, **what)
    backend.after_forget()
    return result


class LocalBackend:
    """The dashboard over a store with no daemon around it: pause and resume only flip the
    daemon's stored flag."""

    can_pause = True

    def __init__(self, home: Home, store: Store, config: Config):
        self.home = home
        self.store = store
        self.config = config
        self.assistant = Assistant(store, config)
        self._paused = bool(store.get_state(PAUSED_STATE_KEY, False))

    def status(self) -> str:
        return "paused" if self._paused else "recording"

    def paused(self) -> bool:
        return self._paused

    def pause(self) -> None:
        self._paused = True
        self.store.set_state(PAUSED_STATE_KEY, True)

    def resume(self) -> None:
        self._paused = False
        self.store.set_state(PAUSED_STATE_KEY, False)

    def sessions(self) -> list[dict[str, Any]]:
        with self.assistant.store_held() as st:
            return st.sessions()

    def session_tiers(self, session_ids: list[str]) -> dict[str, dict[str, Any]]:
        out = {}
        with self.assistant.memory_held() as mem:
            for sid in session_ids:
                with contextlib.suppress(FileGramError):
                    out[sid] = mem.session_tiers(sid)
        return out

    @contextlib.contextmanager
    def screen_frames(self) -> Iterator[ScreenFrames]:
        """The stored screen frames, read under the host's store lock."""
        with self.assistant.store_held() as st:
            yield ScreenFrames(st, self.config)

    @contextlib.contextmanager
    def writer(self) -> Iterator[Store]:
        """The store to forget from, with memory held so nothing consolidates meanwhile."""
        with self.assistant.memory_held():
            yield self.store

    def after_forget(self) -> None:
        pass

    def apply_exclusions(self) -> bool:
        """Make a new exclusion effective; False when it waits for the next recorder start."""
        return False


class DaemonBackend(LocalBackend):
    """The dashboard inside the running daemon: its query store and lock for reads, its
    one Memory (held while busy) for the profile, its own pause and resume."""

    def __init__(self, daemon: DaemonHost):
        self.daemon = daemon
        self.home = daemon.home
        self.config = daemon.config
        self.store = daemon.query_store
        self.assistant = Assistant(daemon.query_store, daemon.config,
                                   memory_held=daemon.memory_held, store_held=daemon.query_held)

    def status(self) -> str:
        try:
            return str(self.daemon.health().get("status_line") or "")
        except Exception:  # the status line must never break a page
            return "paused" if self.daemon.paused else "running"

    def paused(self) -> bool:
        return bool(self.daemon.paused)

    def pause(self) -> None:
        self.daemon.pause()

    def resume(self) -> None:
        self.daemon.resume()

    @contextlib.contextmanager
    def writer(self) -> Iterator[Store]:
        """Stop the recorder (it flushes its queue and closes its session, which forget may
        delete), forget with memory held, then record again in a new session."""
        sup = self.daemon.supervisor
        restart = sup is not None and not self.daemon.paused
        if sup is not None and restart:
            sup.pause()
        try:
            with self.daemon.memory_held():
                yield self.daemon.memory_store
        finally:
            if sup is not None and restart:
                sup.start()

    def apply_exclusions(self) -> bool:
        """Restart the recorder so a new exclusion applies now (it reads the config's
        exclude list when it starts; add_exclusion updated that list in place)."""
        sup = self.daemon.supervisor
        if sup is None or self.daemon.paused:
            return not self.daemon.paused
        sup.pause()
        sup.start()
        return True
