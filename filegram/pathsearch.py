"""Rank file paths against a query with SQLite FTS5 (trigram: any part of a name matches),
every word required, the match highlighted. `filegram search` and the assistant's search
use it so a result always contains what was asked for."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable

OPEN, CLOSE = "[", "]"


def query_words(query: str) -> list[str]:
    return [w.lower() for w in re.findall(r"\w+", query)][:16]


def rank_paths(paths: Iterable[str], query: str, limit: int) -> list[tuple[str, str]]:
    """(path, path with the matches in [brackets]) of the paths holding every word of the
    query, best first (bm25 over trigrams; words under three letters must occur too)."""
    words = query_words(query)
    if not words:
        return []
    long_words = [w for w in words if len(w) >= 3]
    short = [w for w in words if len(w) < 3]
    cands = [p for p in dict.fromkeys(paths) if all(w in p.lower() for w in words)]
    if not cands:
        return []
    if not long_words:
        return [(p, highlight(p, words)) for p in sorted(cands)[:limit]]
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("CREATE VIRTUAL TABLE p USING fts5(path, tokenize='trigram')")
        conn.executemany("INSERT INTO p(path) VALUES (?)", [(c,) for c in cands])
        match = " AND ".join('"' + w.replace('"', '""') + '"' for w in long_words)
        rows = conn.execute(f"SELECT path, highlight(p, 0, '{OPEN}', '{CLOSE}') FROM p WHERE p MATCH ? "
                            "ORDER BY bm25(p), path LIMIT ?", (match, int(limit))).fetchall()
    finally:
        conn.close()
    return [(p, highlight(h, short) if short else h) for p, h in rows]


def highlight(text: str, words: Iterable[str]) -> str:
    """The text with each occurrence of the words in [brackets] (case-insensitive)."""
    ws = sorted({w for w in words if w}, key=len, reverse=True)
    if not ws:
        return text
    rx = re.compile("|".join(re.escape(w) for w in ws), re.I)
    return rx.sub(lambda m: f"{OPEN}{m.group(0)}{CLOSE}", text)
