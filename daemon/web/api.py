"""The daemon's API as a plain object: what each /api/ endpoint does, with no HTTP in it
(aw-server's api.py / rest.py split: daemon/web/rest.py maps requests onto these methods).
Bad input raises the typed errors of daemon/web/errors.py or a FileGramError."""

from __future__ import annotations

import dataclasses
import os
import threading
from typing import Any

from ..assist.facade import check_question
from .errors import BadRequest
from .host import DaemonHost

STOP_DELAY_SECONDS = 0.1


class DaemonApi:
    def __init__(self, daemon: DaemonHost):
        self.daemon = daemon

    def health(self) -> dict[str, Any]:
        return self.daemon.health()

    def profile(self) -> dict[str, Any]:
        with self.daemon.memory_held() as mem:
            mem.fold_live()  # live memory: the open session, provisionally
            return mem.profile()

    def ask(self, question: str, choices: list[str] | None = None) -> dict[str, Any]:
        """Memory's answer: {text, choice, evidence, used_llm, warnings, scores}."""
        question = check_question(question, choices)
        with self.daemon.memory_held() as mem:
            mem.fold_live()
            answer = mem.ask(question, choices)
        return dataclasses.asdict(answer) if dataclasses.is_dataclass(answer) else dict(answer)

    def sessions(self, limit: int = 50, closed: bool | None = None, source: str | None = None) -> dict[str, Any]:
        """The newest `limit` sessions, newest first."""
        with self.daemon.query_held() as store:
            sessions = store.sessions(closed=closed, source=source)
        sessions = sessions[-limit:][::-1]
        return {"sessions": sessions, "count": len(sessions)}

    def actions(self, limit: int = 50, session: str | None = None, types: list[str] | None = None) -> dict[str, Any]:
        """The newest `limit` actions (of a session, of some types), newest first."""
        from filegram.schema import ACTION_TYPES

        bad = [t for t in types or [] if t not in ACTION_TYPES]
        if bad:
            raise BadRequest(f"unknown action type(s): {', '.join(bad)}")
        with self.daemon.query_held() as store:
            actions = list(store.actions(session_id=session, types=types or None, limit=limit,
                                         newest_first=True))
        return {"actions": actions, "count": len(actions)}

    def pause(self) -> dict[str, Any]:
        return self.daemon.pause()

    def resume(self) -> dict[str, Any]:
        return self.daemon.resume()

    def consolidate(self) -> dict[str, Any]:
        return self.daemon.consolidate()

    def forget(self, what: dict[str, Any]) -> dict[str, Any]:
        """Forget with the recorder paused (the CLI's `forget` comes here while a daemon
        runs); the result is `filegram forget`'s counts."""
        from .backends import DaemonBackend, run_forget

        return run_forget(DaemonBackend(self.daemon), **what)

    def sync(self, shared: str | None) -> dict[str, Any]:
        """One sync now (the CLI's `filegram sync` comes here while a daemon runs, so forgets
        from other devices are replayed with the recorder paused)."""
        return self.daemon.sync(shared)

    def stop(self) -> dict[str, Any]:
        """Answer first, then stop (the stop joins the thread that serves this answer)."""
        threading.Timer(STOP_DELAY_SECONDS, self.daemon.request_stop).start()
        return {"stopping": True, "pid": os.getpid()}
