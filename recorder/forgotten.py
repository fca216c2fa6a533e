"""What the person asked to forget, as the recorder must remember it: which files on disk
it may not take in again.

`filegram forget` deletes a file's history and its row in the recorder's file state, but
the file is often still there under a root. The recorder's next start would meet it as a
file it never saw: snapshot its text as the baseline's "before", keep its name in
`recorder_files`, even announce it as created offline. So forget leaves a record here
(`recorder_forgotten`, written by the recorder's forget hook in tables.py, in forget's own
transaction), and the baseline, the offline reconciliation and the rescan after an
overflow leave such a file out, stat only and in memory, as long as it has not changed
since the forget (its ctime, which no program can set back, is not later). A change after
the forget (an edit, a rename) is new activity and is recorded as usual; the record of the
file then goes.

The record holds no name: a file is kept as a hash of its absolute path (SHA-256 under a
fixed tag), which tells whether a given path was forgotten to someone who already knows the
path, and nothing to anyone else. `forget --all` empties the table and keeps one setting
(state key `recorder.forgotten_all_ms`, the time of the forget): every file under a root
unchanged since then.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable

from filegram.store import Store

from .state import FORGOTTEN_SQL

EVERYTHING_KEY = "recorder.forgotten_all_ms"  # a state key: when `forget --all` ran
_TAG = b"filegram forgotten file\0"


def key_of(path: str) -> str:
    """The record of one file: a hash of its absolute path."""
    return hashlib.sha256(_TAG + os.fsencode(path)).hexdigest()[:32]


def record(store: Store, paths: Iterable[str], at_ms: float, *, everything: bool = False) -> int:
    """Remember forgotten files (inside forget's transaction); everything: every file on
    disk now. Returns the rows written."""
    conn = store.conn
    conn.execute(FORGOTTEN_SQL)  # a file whose recorder has not run since the upgrade
    if everything:
        conn.execute("DELETE FROM recorder_forgotten")
        store.write_state(EVERYTHING_KEY, at_ms)
        return 0
    rows = [(key_of(p), at_ms) for p in set(paths)]
    conn.executemany(
        "INSERT INTO recorder_forgotten(key, at_ms) VALUES (?, ?) "
        "ON CONFLICT(key) DO UPDATE SET at_ms = MAX(at_ms, excluded.at_ms)", rows)
    return len(rows)


class Forgotten:
    """The forgotten files, as loaded when the recorder starts."""

    def __init__(self, store: Store):
        self.store = store
        self.keys: dict[str, float] = {}
        at = store.get_state(EVERYTHING_KEY)
        self.everything_at: float | None = float(at) if isinstance(at, (int, float)) else None
        self.changed: set[str] = set()  # records of files changed since: to drop
        if store.has_table("recorder_forgotten"):
            self.keys = dict(store.conn.execute("SELECT key, at_ms FROM recorder_forgotten"))

    def __bool__(self) -> bool:
        return bool(self.keys) or self.everything_at is not None

    def kept_out(self, path: str, st: os.stat_result) -> bool:
        """Whether a file on disk was forgotten and has not changed since."""
        if not self:
            return False
        at = self.everything_at
        key = None
        if self.keys:
            key = key_of(path)
            mine = self.keys.get(key)
            if mine is not None:
                at = mine if at is None else max(at, mine)
        if at is None:
            return False
        if max(st.st_ctime_ns, st.st_mtime_ns) / 1e6 <= at:
            return True
        if key is not None and key in self.keys:
            self.changed.add(key)
        return False

    def write_pending(self) -> None:
        """Drop the records of files that changed after their forget (inside a transaction)."""
        if self.changed:
            self.store.delete_where_in("recorder_forgotten", "key", sorted(self.changed))
            for k in self.changed:
                self.keys.pop(k, None)
            self.changed.clear()
