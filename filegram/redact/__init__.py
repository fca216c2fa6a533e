"""The one redaction layer: every text FileGram keeps passes through here first.

File snapshots and diffs (recorder and import), search queries, window titles and OCR text,
file names and paths, imported events and their metadata: each producer calls one of the
functions below before anything is queued, so a secret never reaches the database, its
WAL, a backup or an export. A secret becomes `[REDACTED:KIND]`; the rest of the text is
kept as it was, and redacting twice changes nothing (an exported and re-imported snapshot
keeps its content address).

The detectors are in `rules.py` (with `ids.py` for identity, health and bank numbers and
`codes.py` for one-time and backup codes); `corpus.py` holds the planted-secret and ordinary corpora
and `python -m filegram.redact.bench` measures recall, false positives and speed on them
(docs/privacy.md has the figures and why this is not detect-secrets).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .rules import DETECTORS, PLACEHOLDER_PREFIX, Scan, Span, may_hold_secret

__all__ = [
    "PLACEHOLDER_PREFIX",
    "Span",
    "find_secrets",
    "redact",
    "redact_bytes",
    "redact_event",
    "redact_path",
    "redact_query",
    "redact_json",
]


QUICK_CHECK_CHARS = 4096  # shorter texts are first checked for any trigger at all


def find_secrets(text: str) -> list[Span]:
    """Where the secrets of a text are, merged and in order."""
    scan = Scan(text)
    for detect in DETECTORS:
        detect(scan)
    spans = sorted(scan.spans, key=lambda s: (s.start, -s.end))
    merged: list[Span] = []
    for s in spans:
        if s.end <= s.start:
            continue
        if merged and s.start < merged[-1].end:
            last = merged[-1]
            if s.end > last.end:
                merged[-1] = Span(last.start, s.end, last.kind)
            continue
        merged.append(s)
    return merged


def redact(text: str) -> str:
    """The text with every secret replaced by [REDACTED:KIND]."""
    if not text or (len(text) <= QUICK_CHECK_CHARS and not may_hold_secret(text)):
        return text
    spans = find_secrets(text)
    if not spans:
        return text
    out: list[str] = []
    pos = 0
    for s in spans:
        out.append(text[pos : s.start])
        out.append(f"{PLACEHOLDER_PREFIX}:{s.kind}]")
        pos = s.end
    out.append(text[pos:])
    return "".join(out)


def redact_bytes(content: bytes) -> bytes:
    """Redact UTF-8 text content; binary content is returned unchanged (it is never stored
    as text)."""
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        return content
    red = redact(text)
    return content if red == text else red.encode("utf-8")


def redact_path(path: str) -> str:
    """A path whose names hold a secret (`notes/password is hunter2.txt`, a token as a file
    name) with that part replaced; names are redacted one by one, so a folder separator is
    never read as part of a `user / password` pair."""
    if not path or not may_hold_secret(path):
        return path
    parts = path.split("/")
    out = [_redact_name(p) if len(p) >= 3 else p for p in parts]
    return path if out == parts else "/".join(out)


def _redact_name(name: str) -> str:
    """One file or folder name; the extension is kept apart so `hunter2.txt` reads as a
    value, not as a dotted identifier."""
    stem, dot, ext = name.rpartition(".")
    if dot and stem and 1 <= len(ext) <= 6 and ext.isalnum():
        red = redact(stem)
        if red != stem:
            return f"{red}.{ext}"
    return redact(name)


def redact_query(query: str, matched_texts: Iterable[bytes | str] = ()) -> str:
    """A search query, redacted like any text; and hidden whole when the files it matched
    show it is a secret (a `grep hunter2` where hunter2 is a password in a matched file)."""
    red = redact(query)
    if red != query or not query.strip():
        return red
    needle = query.strip().strip("\"'")
    if len(needle) < 3:
        return red
    for raw in matched_texts:
        text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
        start = text.find(needle)
        if start < 0:
            continue
        for span in find_secrets(text):
            while start >= 0 and start < span.end:
                if start + len(needle) > span.start:
                    return f"{PLACEHOLDER_PREFIX}:QUERY]"
                start = text.find(needle, start + 1)
            if start < 0:
                break
    return red


# Event fields that hold free text (paths go through redact_path, hashes and enums stay).
TEXT_FIELDS = ("query", "diff_summary")
PATH_FIELD_NAMES = frozenset({
    "file_path", "directory_path", "old_path", "new_path", "dir_path", "source_path", "dest_path",
    "from_file", "to_file", "source_file", "target_file",
})
PATH_LIST_NAMES = frozenset({"files_opened_after", "files_matched", "search_scope"})
KEEP_FIELDS = frozenset({
    "event_id", "event_type", "session_id", "profile_id", "message_id", "model_provider",
    "model_name", "file_type", "operation", "search_type", "edit_tool", "before_hash",
    "after_hash", "naming_pattern_change", "reference_type", "trigger",
})


def redact_event(ev: dict[str, Any]) -> dict[str, Any]:
    """An event (imported, or built by a producer) with secrets out of its paths, query, diff
    summary and any other free text it carries; media references are left to the caller,
    whose content address changes with the content."""
    for name, value in list(ev.items()):
        if name in KEEP_FIELDS or value is None:
            continue
        if name in PATH_FIELD_NAMES and isinstance(value, str):
            ev[name] = redact_path(value)
        elif name in PATH_LIST_NAMES and isinstance(value, list):
            ev[name] = [redact_path(v) if isinstance(v, str) else v for v in value]
        elif name.startswith("media_ref"):
            continue
        elif isinstance(value, str):
            ev[name] = redact(value)
        elif isinstance(value, list | dict):
            ev[name] = redact_json(value)
    return ev


def redact_json(value: Any) -> Any:
    """Every string in a JSON value redacted (keys too); numbers and structure kept."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [redact_json(v) for v in value]
    if isinstance(value, Mapping):
        return {redact(k) if isinstance(k, str) else k: redact_json(v) for k, v in value.items()}
    return value
