"""File content as the recorder keeps it: a hash always, a text snapshot when small.

Binary files (a NUL in the first 8 KB, or not UTF-8) are hashed, never kept as text; large
files are hashed by streaming, never read into memory whole. Office documents (.docx, .odt,
.pptx, .odp, .rtf) are the exception: their text is extracted (recorder/officetext.py)
through the same open file and kept as their snapshot (`extracted`), while their hash stays
that of the bytes on disk, so a copy is still told by its hash and a Word save becomes a
line diff. Snapshots pass through the privacy redaction before they are kept anywhere, so
secrets in a file never reach the database even as the "before" side of a diff.

A file that cannot be opened because the machine ran out of something (descriptors,
memory, space: EMFILE, ENFILE, ENOMEM, ENOSPC, ENOBUFS) has not vanished: that is a
`ResourceExhausted` error, which the recorder reports in its health and retries, never
a file that was deleted before it could be read.
"""

from __future__ import annotations

import errno
import hashlib
import os
from dataclasses import dataclass

from filegram.privacy import redact_bytes

from .officetext import LIMITS, office_kind

BINARY_PROBE = 8192
CHUNK = 1 << 20
RESOURCE_ERRNOS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOSPC, errno.ENOBUFS})


class ResourceExhausted(OSError):
    """The machine is short of descriptors, memory or space: retry later, report it."""


def check_resource(exc: OSError, path: str) -> None:
    """Raise ResourceExhausted for a resource error; return for anything else (the file
    is gone, not readable, not a file: the caller's usual None)."""
    if exc.errno in RESOURCE_ERRNOS:
        name = errno.errorcode.get(exc.errno or 0, "?")
        raise ResourceExhausted(exc.errno, f"{exc.strerror} ({name})", path) from exc


@dataclass
class Content:
    hash: str  # 16 hex of SHA-256 of the bytes on disk
    size: int
    text: bytes | None  # redacted UTF-8 snapshot, None for binary or too large
    is_text: bool
    chars: int  # characters of text (bytes when binary or too large)
    lines: int
    extracted: bool = False  # text extracted from an office document, not the bytes themselves


def read_content(path: str, max_bytes: int, *, redact: bool = True) -> Content | None:
    """Hash a file and keep its text when it is text and at most max_bytes (an office
    document's extracted text, when that is at most max_bytes).

    Returns None when the file cannot be read (gone, or a folder); raises
    ResourceExhausted when the machine is short of descriptors, memory or space."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        check_resource(exc, path)
        return None
    try:
        st = os.fstat(fd)
        import stat as _stat

        if not _stat.S_ISREG(st.st_mode):
            return None
        h = hashlib.sha256()
        head = b""
        kept: list[bytes] = []
        size = 0
        kind = office_kind(path)
        keep = st.st_size <= max_bytes and kind is None  # an office file is read by its parts
        while True:
            chunk = os.read(fd, CHUNK)
            if not chunk:
                break
            h.update(chunk)
            if len(head) < BINARY_PROBE:
                head += chunk[: BINARY_PROBE - len(head)]
            size += len(chunk)
            if keep:
                if size > max_bytes:
                    keep = False
                    kept.clear()
                else:
                    kept.append(chunk)
        # an empty file (a "new document" made by a file manager) is an empty text, as for a text file
        extracted = (_office_text(fd, kind, max_bytes) if size else "") if kind is not None else None
    except OSError as exc:
        check_resource(exc, path)
        return None
    finally:
        os.close(fd)
    digest = h.hexdigest()[:16]
    if extracted is not None:
        plain = extracted.encode("utf-8")
        snap = redact_bytes(plain) if redact else plain
        return Content(digest, size, snap, True, len(extracted), extracted.count("\n"), extracted=True)
    if kind is not None:
        return Content(digest, size, None, False, size, 0)  # no text we may read: binary, as before
    binary = b"\x00" in head
    text: bytes | None = None
    chars = size
    lines = 0
    is_text = False
    if not binary and keep:
        raw = b"".join(kept)
        try:
            decoded = raw.decode("utf-8")
            is_text = True
            chars = len(decoded)
            lines = decoded.count("\n") + (1 if decoded and not decoded.endswith("\n") else 0)
            text = redact_bytes(raw) if redact else raw
        except UnicodeDecodeError:
            is_text = False
    elif not binary:
        is_text = True  # large text: hashed only
    return Content(digest, size, text, is_text, chars, lines)


def _office_text(fd: int, kind: str, max_bytes: int) -> str | None:
    """An office document's text through the file already open (no second open), at most
    max_bytes of it as UTF-8; None when there is none to keep."""
    from dataclasses import replace

    from .officetext import extract_text

    with open(fd, "rb", closefd=False) as f:
        text = extract_text(f, kind, replace(LIMITS, chars=max_bytes))
    if text is None or len(text.encode("utf-8")) > max_bytes:
        return None
    return text


