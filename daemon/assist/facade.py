"""The Assistant: one facade over a store and its memory for the CLI, the MCP server and the
dashboard, so all three answer the same question the same way.

The daemon passes its own lock-holding accessors (its memory consolidates in the
background); the CLI and the MCP server use the store directly and own a Memory.
"""

from __future__ import annotations

import contextlib
import dataclasses
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from filegram.config import Config
from filegram.errors import FileGramError
from filegram.ondisk import PathCheck
from filegram.pathsearch import rank_paths
from filegram.store import Store
from filegram.vocab import describe_action

from .card import style_card, utc_time
from .habits import Habits, learn_habits
from .suggest import absolute_path, folder_gone, suggest_name

if TYPE_CHECKING:
    from filegram.memory import Memory

MemoryHeld = Callable[[], AbstractContextManager["Memory"]]
StoreHeld = Callable[[], AbstractContextManager[Store]]

MAX_QUESTION_CHARS = 4000


def check_question(question: str, choices: list[str] | None) -> str:
    """The question, stripped; a FileGramError for an empty or oversized one or bad choices."""
    question = (question or "").strip()
    if not question or len(question) > MAX_QUESTION_CHARS:
        raise FileGramError(f"question must be 1 to {MAX_QUESTION_CHARS} characters")
    if choices is not None:
        if not (2 <= len(choices) <= 26 and all(isinstance(c, str) and c.strip() for c in choices)):
            raise FileGramError("choices must be a list of 2 to 26 non-empty strings")
        if any(len(c) > MAX_QUESTION_CHARS for c in choices):
            raise FileGramError(f"each choice must be at most {MAX_QUESTION_CHARS} characters")
    return question


class Assistant:
    """The assistant-facing operations over one store and its memory.

    `memory_held` is a context-manager factory that yields the Memory; `store_held` yields
    the store. Without them the Assistant holds its own lock and builds its own Memory
    (brought up to date on first use when `consolidate` is set).
    """

    def __init__(self, store: Store, config: Config, *, memory_held: MemoryHeld | None = None,
                 store_held: StoreHeld | None = None, consolidate: bool = False):
        self.store = store
        self.config = config
        self._lock = threading.RLock()
        self._memory: Memory | None = None
        self._consolidate = consolidate
        self._consolidated = False
        self.memory_held: MemoryHeld = memory_held or self._own_memory
        self.store_held: StoreHeld = store_held or self._own_store

    @contextlib.contextmanager
    def _own_memory(self) -> Iterator[Memory]:
        with self._lock:
            if self._memory is None:
                from filegram.memory import Memory

                self._memory = Memory(self.store, self.config)
            if self._consolidate and not self._consolidated:
                self._memory.consolidate(live=True)
                self._consolidated = True
            yield self._memory

    @contextlib.contextmanager
    def _own_store(self) -> Iterator[Store]:
        with self._lock:
            yield self.store

    def profile(self) -> dict[str, Any]:
        """The profile with the open session folded in first (live memory: its
        "provisional" says how much of it is still open)."""
        with self.memory_held() as mem:
            mem.fold_live()
            return mem.profile()

    def ask(self, question: str, choices: list[str] | None = None) -> dict[str, Any]:
        question = check_question(question, choices)
        with self.memory_held() as mem:
            mem.fold_live()
            ans = mem.ask(question, choices)
        out = dataclasses.asdict(ans) if dataclasses.is_dataclass(ans) else dict(ans)
        out.pop("scores", None)
        return out

    def recent_activity(self, limit: int = 20, session: str | None = None,
                        types: list[str] | None = None) -> list[dict[str, Any]]:
        from filegram.schema import ACTION_TYPES, primary_path

        limit = max(1, min(int(limit), 500))
        bad = [t for t in types or [] if t not in ACTION_TYPES]
        if bad:
            raise FileGramError(f"unknown action type(s): {', '.join(bad)}")
        with self.store_held() as st:
            acts = list(st.actions(session_id=session, types=types or None, limit=limit, newest_first=True))
        return [{"time": utc_time(a.get("timestamp")), "timestamp": a.get("timestamp"),
                 "type": a["event_type"], "path": primary_path(a), "session": a.get("session_id"),
                 "detail": describe_action(a)} for a in acts]

    def search(self, query: str, k: int = 5) -> dict[str, Any]:
        query = (query or "").strip()
        if not query:
            raise FileGramError("search needs a query")
        k = max(1, min(int(k), 50))
        with self.memory_held() as mem:
            hits = mem.search_text(query, k * 4)
        with self.store_held() as st:
            check = PathCheck(st, self.config["recorder"]["roots"])
            hits = [h for h in hits if not check.gone(h.get("path"))][:k]
            ranked = [(p, m) for p, m in rank_paths(st.paths(), query, 10 * k) if not check.gone(p)][:k]
        return {
            "memory": [{"session": h.get("session"), "kind": h.get("kind"), "path": h.get("path"),
                        "text": (h.get("text") or "")[:600], "score": h.get("score")} for h in hits],
            "paths": [p for p, _ in ranked],
            "matches": [m for _, m in ranked],
        }

    def habits(self) -> Habits:
        with self.store_held() as st:
            return learn_habits(st)

    def suggest(self, text: str, kind: str | None = None) -> dict[str, Any]:
        prof = self.profile()
        with self.store_held() as st:
            out = suggest_name(st, prof, text, kind, roots=self.config["recorder"]["roots"])
        out["absolute_path"] = absolute_path(out["path"], self.config["recorder"]["roots"])
        return out

    def card(self) -> str:
        """The card, with only folders that still exist among the busiest."""
        habits = self.habits()
        with self.store_held() as st:
            check = PathCheck(st, self.config["recorder"]["roots"])
            habits.top_folders = [(f, n) for f, n in habits.top_folders if not f or not folder_gone(f, check)]
        return style_card(self.profile(), habits)
