"""How import reads the files of a trajectory folder it does not trust.

A folder from elsewhere can hold a symlink to /etc/passwd named like a blob, an events file
that is a FIFO (reading it would hang) or a link to /dev/zero (reading it would never end),
or a file far larger than any real trace. So every file is opened through `open_inside`:
its real path must stay inside the trajectory folder, it must be a regular file, and its
size is checked on the opened descriptor (fstat) before one byte is read; reads stop at the
limit even if the file grows meanwhile. Events are parsed as a stream (`iter_json_array`,
`iter_jsonl`), one event at a time, so memory stays bounded whatever the file's size.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from .schema import TraceError

MAX_EVENTS_FILE_BYTES = 2 << 30  # an events.json or .jsonl (streamed)
MAX_JSON_FILE_BYTES = 64 << 20  # summary.json, perturbation.json, manifest.json (read whole)
MAX_MEDIA_FILE_BYTES = 64 << 20  # one blob or diff (read whole)
MAX_EVENT_CHARS = 16 << 20  # one event of an events file
READ_CHUNK = 1 << 20

_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a folder"),
)


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _mib(n: int) -> str:
    return f"{n / (1 << 20):.0f} MiB"


def check_inside(path: Path, folder: Path) -> str:
    """The real path of `path`, which must lie inside `folder` (symlinks resolved)."""
    real = os.path.realpath(path)
    base = os.path.realpath(folder)
    if real != base and not real.startswith(base.rstrip(os.sep) + os.sep):
        raise TraceError(f"leads outside the trajectory folder (a symlink to {real}); not read", source=str(path))
    return real


@contextlib.contextmanager
def open_inside(path: Path, folder: Path, limit: int) -> Iterator[BinaryIO]:
    """A regular file inside `folder`, opened for reading, at most `limit` bytes long."""
    real = check_inside(path, folder)
    try:
        before = os.stat(real)
    except OSError as exc:
        raise TraceError(f"cannot read: {exc.strerror}", source=str(path)) from exc
    if not stat.S_ISREG(before.st_mode):
        raise TraceError(f"is {_kind(before.st_mode)}, not a regular file; not read", source=str(path))
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(real, flags)
    except OSError as exc:
        raise TraceError(f"cannot read: {exc.strerror}", source=str(path)) from exc
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or (st.st_dev, st.st_ino) != (before.st_dev, before.st_ino):
            raise TraceError(f"is {_kind(st.st_mode)}, not a regular file; not read", source=str(path))
        if st.st_size > limit:
            raise TraceError(f"is larger than {_mib(limit)} ({_mib(st.st_size)}); not read", source=str(path))
        fh = os.fdopen(fd, "rb", buffering=0)
    except BaseException:
        os.close(fd)
        raise
    with fh:
        yield _Bounded(fh, limit, str(path))  # type: ignore[misc]


class _Bounded:
    """Reads that stop with an error once more than `limit` bytes came (a growing file)."""

    def __init__(self, fh: BinaryIO, limit: int, source: str):
        self.fh, self.limit, self.source, self.done = fh, limit, source, 0

    def read(self, n: int = -1) -> bytes:
        want = self.limit + 1 - self.done if n < 0 else min(n, self.limit + 1 - self.done)
        try:
            data = self.fh.read(max(want, 0)) if n >= 0 else _read_all(self.fh, want)
        except OSError as exc:
            raise TraceError(f"cannot read: {exc.strerror}", source=self.source) from exc
        self.done += len(data)
        if self.done > self.limit:
            raise TraceError(f"is larger than {_mib(self.limit)} (it grew while being read); not read", source=self.source)
        return data

    def readline(self, limit: int) -> bytes:
        parts: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = self._peekline(limit + 1 - size)
            if not chunk:
                break
            parts.append(chunk)
            size += len(chunk)
            if chunk.endswith(b"\n"):
                break
        return b"".join(parts)

    def _peekline(self, n: int) -> bytes:
        buf = getattr(self, "_buf", b"")
        while b"\n" not in buf and len(buf) < n:
            more = self.read(READ_CHUNK)
            if not more:
                break
            buf += more
        cut = buf.find(b"\n")
        cut = min(len(buf), n) if cut < 0 else min(cut + 1, n)
        self._buf = buf[cut:]
        return buf[:cut]


def _read_all(fh: BinaryIO, want: int) -> bytes:
    parts = []
    got = 0
    while got < want:
        chunk = fh.read(min(READ_CHUNK, want - got))
        if not chunk:
            break
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def read_inside(path: Path, folder: Path, limit: int) -> bytes:
    with open_inside(path, folder, limit) as fh:
        return fh.read()


def load_json_inside(path: Path, folder: Path) -> Any:
    """A small JSON file (summary, perturbation, manifest) read whole."""
    raw = read_inside(path, folder, MAX_JSON_FILE_BYTES)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TraceError(f"not UTF-8 text (byte {exc.start})", source=str(path)) from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise TraceError(f"not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}", source=str(path)) from exc
    except RecursionError as exc:
        raise TraceError("JSON nests too deeply", source=str(path)) from exc


# -- streaming events -------------------------------------------------------------------

_WS = " \t\r\n"


class _TextStream:
    """UTF-8 text of a file, decoded chunk by chunk, with line and column bookkeeping for
    error messages that point into the whole file."""

    def __init__(self, fh: Any, source: str):
        self.fh = fh
        self.source = source
        self.decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self.buf = ""
        self.pos = 0
        self.eof = False
        self.bytes_read = 0
        self.line = 1  # line of buf[0]
        self.col0 = 0  # column (0-based) of buf[0]

    def fill(self) -> bool:
        """Read more; False at the end of the file."""
        if self.eof:
            return False
        chunk = self.fh.read(READ_CHUNK)
        try:
            text = self.decoder.decode(chunk, final=not chunk)
        except UnicodeDecodeError as exc:
            raise TraceError(f"not UTF-8 text (byte {self.bytes_read + exc.start})", source=self.source) from None
        self.bytes_read += len(chunk)
        if not chunk:
            self.eof = True
        if self.pos > 0:  # drop what was parsed, keeping line numbers right
            done = self.buf[: self.pos]
            nl = done.count("\n")
            if nl:
                self.line += nl
                self.col0 = len(done) - done.rfind("\n") - 1
            else:
                self.col0 += len(done)
            self.buf = self.buf[self.pos :]
            self.pos = 0
        self.buf += text
        return bool(chunk) or bool(text)

    def skip_ws(self) -> str:
        """The next non-space character ('' at the end), not consumed."""
        while True:
            buf, pos = self.buf, self.pos
            while pos < len(buf) and buf[pos] in _WS:
                pos += 1
            self.pos = pos
            if pos < len(buf):
                return buf[pos]
            if not self.fill():
                return ""

    def where(self, pos: int) -> tuple[int, int]:
        before = self.buf[:pos]
        nl = before.count("\n")
        if nl:
            return self.line + nl, pos - before.rfind("\n")
        return self.line, self.col0 + pos + 1

    def error(self, msg: str, pos: int | None = None) -> TraceError:
        line, col = self.where(self.pos if pos is None else pos)
        return TraceError(f"not valid JSON at line {line} column {col}: {msg}", source=self.source)


def iter_json_array(fh: Any, source: str) -> Iterator[Any]:
    """The elements of a JSON array, parsed one at a time."""
    s = _TextStream(fh, source)
    dec = json.JSONDecoder()
    first = s.skip_ws()
    if first != "[":
        if first == "":
            raise s.error("Expecting value")
        # not an array: parse it whole (small, or an error) to say what it is
        while s.fill():
            if len(s.buf) > MAX_EVENT_CHARS:
                break
        try:
            json.loads(s.buf)
        except json.JSONDecodeError as exc:
            raise s.error(exc.msg, exc.pos) from None
        raise TraceError("must hold a JSON array of events", source=source)
    s.pos += 1
    expect_value = True
    index = 0
    while True:
        c = s.skip_ws()
        if c == "":
            raise s.error("Expecting value" if expect_value else "Expecting ',' delimiter")
        if c == "]" and (index == 0 or not expect_value):
            s.pos += 1
            if s.skip_ws() != "":
                raise s.error("Extra data")
            return
        if not expect_value:
            if c != ",":
                raise s.error("Expecting ',' delimiter")
            s.pos += 1
            expect_value = True
            continue
        while True:
            try:
                value, end = dec.raw_decode(s.buf, s.pos)
            except json.JSONDecodeError as exc:
                if not s.eof and len(s.buf) - s.pos <= MAX_EVENT_CHARS:
                    s.fill()
                    continue
                if len(s.buf) - s.pos > MAX_EVENT_CHARS:
                    raise TraceError(f"event {index} is longer than {_mib(MAX_EVENT_CHARS)}", source=source) from None
                raise s.error(exc.msg, exc.pos) from None
            except RecursionError:
                raise TraceError("JSON nests too deeply", source=source, index=index) from None
            if end == len(s.buf) and not s.eof:  # a number may go on in the next chunk
                s.fill()
                continue
            break
        s.pos = end
        yield value
        index += 1
        expect_value = False


def iter_jsonl(fh: Any, source: str) -> Iterator[tuple[int, Any]]:
    """(line number, value) of each non-empty line of a JSON Lines file."""
    lineno = 0
    count = 0
    while True:
        raw = fh.readline(MAX_EVENT_CHARS)
        if not raw:
            return
        lineno += 1
        if len(raw) > MAX_EVENT_CHARS:
            raise TraceError(f"line {lineno} is longer than {_mib(MAX_EVENT_CHARS)}", source=source, index=count)
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise TraceError(f"line {lineno} is not UTF-8 text (byte {exc.start})", source=source, index=count) from None
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise TraceError(f"line {lineno} is not valid JSON: {exc.msg}", source=source, index=count) from None
        except RecursionError:
            raise TraceError(f"line {lineno} nests too deeply", source=source, index=count) from None
        yield lineno, value
        count += 1
