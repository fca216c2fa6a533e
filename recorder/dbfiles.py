"""SQLite's own files beside a database: never the person's.

A program that keeps a SQLite database (the `sqlite3` shell the person types SQL into,
Python's sqlite3, a notes or photo app) writes, next to the database X, a rollback journal
`X-journal` for each transaction, or in WAL mode a write-ahead log `X-wal` and its index
`X-shm`, which live as long as a connection is open and are removed when the last one
closes. They are the database engine's housekeeping, as a swap file is an editor's: the
person changed X, not three files. Before, a WAL session (open longer than the settle window)
stored X, X-wal and X-shm as a script's burst of three new files and the removal of X-wal as
the person's delete.

A name alone is not enough (`travel-journal` is a person's file), so the file X must be
there beside it: one stat, only for names with these suffixes. After it writes a journal or
a WAL, SQLite opens the folder to fsync it (no listing is read): the interpreter notes the
journal's folder so that open is not taken for the person's `ls` (pending.DB_FOLDER_SYNC_MS).
"""

from __future__ import annotations

import os

SUFFIXES = ("-journal", "-wal", "-shm")


def database_companion(path: str) -> bool:
    """Is path SQLite's journal, write-ahead log or shared-memory index of a database file
    beside it (X-journal, X-wal, X-shm next to X)?"""
    for suffix in SUFFIXES:
        if path.endswith(suffix):
            base = path[: -len(suffix)]
            return bool(os.path.basename(base)) and os.path.isfile(base)
    return False
