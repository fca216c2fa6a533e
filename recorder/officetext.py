"""The plain text of an office document (.docx, .odt, .pptx, .odp; .rtf through
recorder/rtftext.py), so that a person who writes in Word or LibreOffice leaves text the way
a person writing markdown does.

Without it such a file is only bytes: a new report is never counted as writing, and every
save is an opaque overwrite whose size says nothing about what changed. With its text the
recorder snapshots, redacts and diffs it like any text file (recorder/content.py).

One line per paragraph (Word's `w:p`, ODF's `text:p` / `text:h`, a slide's `a:p`): runs
are joined first, so a word Word split across runs (spell check, revision marks) is whole
again, for the diff and for the redaction of a secret inside it. Tabs and explicit line
breaks are kept; deleted tracked changes, field codes and tab-stop definitions are not text.
A table is one markdown row per table row (`| cell | cell |`, a `|---|` line under the
first), a cell's paragraphs joined by spaces: a person who puts tables in a Word report
uses tables as much as one who types them in markdown, and memory sees tables that way
(a table nested in a cell is part of that cell's text).

The file comes from anyone, so reading it is bounded and never raises: a zip whose central
directory is too large or lists too many members, a part that inflates beyond its cap, a
DOCTYPE (entity expansion), a run over the time budget, an encrypted or malformed file all
give None (no text; the file is then hashed only, as before). The zip is read through the
caller's open file (no second open, so no inotify event the recorder would have to
recognise as its own), and zipfile and expat are imported only when a document comes.
"""

from __future__ import annotations

import os
import re
import struct
import time
from dataclasses import dataclass
from typing import IO, Any

from filegram.schema import OFFICE_TYPES

_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_A = "http://schemas.openxmlformats.org/drawingml/2006/main"
_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
_SLIDE = re.compile(r"ppt/slides/slide(\d+)\.xml")
_EOCD = b"PK\x05\x06"
_EOCD_SIZE = 22
CHUNK = 1 << 16


@dataclass(frozen=True)
class Limits:
    """Hard caps: beyond any of them the document is read as having no text."""

    file_bytes: int = 64 << 20  # the file on disk (only its directory and text parts are read)
    members: int = 10_000  # entries in the zip's central directory
    directory_bytes: int = 4 << 20  # size of the central directory
    part_bytes: int = 32 << 20  # one XML part, declared and actually inflated
    total_bytes: int = 64 << 20  # all parts read, inflated
    slides: int = 2_000
    seconds: float = 2.0
    chars: int = 1 << 20  # the text itself (the caller passes its snapshot limit)
    rtf_bytes: int = 16 << 20  # an RTF file is read whole (pictures in it are hex)


LIMITS = Limits()


class _Refused(Exception):
    """The document broke a limit or a rule: no text."""


def office_kind(path: str) -> str | None:
    """The office type of a path by its extension ('docx' ...), None for anything else."""
    name = os.path.basename(path)
    if "." not in name.lstrip("."):
        return None
    ext = name.rsplit(".", 1)[-1].lower()
    return ext if ext in OFFICE_TYPES else None


def extract_text(f: IO[bytes], kind: str, limits: Limits = LIMITS) -> str | None:
    """The document's text, one paragraph per line ("\\n" after each); None when it has
    none we may read (malformed, encrypted, over a limit). Never raises."""
    try:
        return _extract(f, kind, limits)
    except Exception:  # noqa: BLE001 - anyone's file: any failure is "no text", never a crash
        return None


def _extract(f: IO[bytes], kind: str, limits: Limits) -> str | None:
    if kind == "rtf":
        from .rtftext import rtf_text

        return rtf_text(f, max_file_bytes=limits.rtf_bytes, max_chars=limits.chars, seconds=limits.seconds)
    import zipfile

    deadline = time.monotonic() + limits.seconds
    _check_directory(f, limits)
    f.seek(0)
    with zipfile.ZipFile(f) as z:
        if kind == "docx":
            parts = ["word/document.xml"]
            spec = _OOXML_WORD
        elif kind == "pptx":
            slides = sorted((int(m.group(1)), n) for n in z.namelist() if (m := _SLIDE.fullmatch(n)))
            if len(slides) > limits.slides:
                raise _Refused("too many slides")
            parts = [n for _, n in slides]
            spec = _OOXML_SLIDE
        else:
            parts = ["content.xml"]
            spec = _ODF
        out = _Paragraphs(spec, limits.chars)
        budget = [limits.total_bytes]
        for name in parts:
            _parse(z, name, out, limits, budget, deadline)
        return out.text()


def _check_directory(f: IO[bytes], limits: Limits) -> None:
    """Refuse a zip before zipfile builds its directory: too big a file, too many members or
    too large a directory (zipfile would make an object per entry), or Zip64 (an office
    document never needs it)."""
    size = f.seek(0, os.SEEK_END)
    if size > limits.file_bytes or size < _EOCD_SIZE:
        raise _Refused("size")
    tail = min(size, _EOCD_SIZE + 0xFFFF)
    f.seek(size - tail)
    data = f.read(tail)
    at = data.rfind(_EOCD)
    if at < 0 or len(data) - at < _EOCD_SIZE:
        raise _Refused("not a zip")
    _sig, _disk, _cd_disk, _n_here, n_total, cd_size, cd_offset, _comment = struct.unpack("<4s4H2LH", data[at:at + _EOCD_SIZE])
    if n_total == 0xFFFF or cd_size == 0xFFFFFFFF or cd_offset == 0xFFFFFFFF:
        raise _Refused("zip64")
    if n_total > limits.members or cd_size > limits.directory_bytes:
        raise _Refused("directory")


def _parse(z: Any, name: str, out: _Paragraphs, limits: Limits, budget: list[int], deadline: float) -> None:
    from xml.parsers import expat

    info = z.getinfo(name)  # KeyError: not this kind of document
    if info.file_size > limits.part_bytes or info.compress_size > limits.part_bytes or info.file_size > budget[0]:
        raise _Refused("part too large")
    p = expat.ParserCreate(namespace_separator=" ")
    p.buffer_text = True  # one call per run of text, not per line or entity
    p.StartDoctypeDeclHandler = _refuse  # no DTD: no entity expansion, no external entities
    p.EntityDeclHandler = _refuse
    p.StartElementHandler = out.start
    p.EndElementHandler = out.end
    p.CharacterDataHandler = out.data
    read = 0
    with z.open(name) as src:  # RuntimeError when encrypted: no text
        while True:
            chunk = src.read(CHUNK)
            read += len(chunk)
            if read > limits.part_bytes or read > budget[0]:
                raise _Refused("inflates too far")
            if time.monotonic() > deadline:
                raise _Refused("too slow")
            p.Parse(chunk, not chunk)
            if not chunk:
                break
    budget[0] -= read


def _refuse(*_args: Any) -> None:
    raise _Refused("DTD")


@dataclass(frozen=True)
class _Spec:
    """Which elements make paragraphs and text in one format."""

    paragraphs: frozenset[str]
    text: frozenset[str] | None  # character data counts only inside these (None: anywhere in a paragraph)
    tabs: frozenset[str]
    breaks: frozenset[str]
    spaces: str | None = None  # ODF's <text:s text:c="n"/>
    run: str | None = None  # tabs count only inside a run (Word's <w:tabs> are tab stops)
    skip: frozenset[str] = frozenset()  # subtrees that are no text (ODF annotations)
    table: str | None = None  # a table, its rows and its cells
    row: str | None = None
    cells: frozenset[str] = frozenset()


_OOXML_WORD = _Spec(
    paragraphs=frozenset({f"{_W} p"}), text=frozenset({f"{_W} t"}),
    tabs=frozenset({f"{_W} tab"}), breaks=frozenset({f"{_W} br", f"{_W} cr"}), run=f"{_W} r",
    table=f"{_W} tbl", row=f"{_W} tr", cells=frozenset({f"{_W} tc"}),
)
_OOXML_SLIDE = _Spec(
    paragraphs=frozenset({f"{_A} p"}), text=frozenset({f"{_A} t"}), tabs=frozenset(), breaks=frozenset({f"{_A} br"}),
    table=f"{_A} tbl", row=f"{_A} tr", cells=frozenset({f"{_A} tc"}),
)
_ODF = _Spec(
    paragraphs=frozenset({f"{_TEXT} p", f"{_TEXT} h"}), text=None,
    tabs=frozenset({f"{_TEXT} tab"}), breaks=frozenset({f"{_TEXT} line-break"}), spaces=f"{_TEXT} s",
    skip=frozenset({f"{_OFFICE} annotation"}),
    table=f"{_TABLE} table", row=f"{_TABLE} table-row",
    cells=frozenset({f"{_TABLE} table-cell", f"{_TABLE} covered-table-cell"}),
)
_CELL_TEXT = str.maketrans({"\t": " ", "\n": " ", "|": "\\|"})
_ODF_WHITESPACE = str.maketrans("\t\r\n", "   ")  # ODF reads them as spaces; <text:tab/> is a tab


class _Paragraphs:
    """Expat handlers that collect one line per outermost paragraph (a paragraph nested in
    a text box or a note is part of the line around it)."""

    def __init__(self, spec: _Spec, max_chars: int):
        self.spec = spec
        # most elements (properties, styles, drawings) are none of these: one set lookup each
        self.relevant = frozenset(spec.paragraphs | (spec.text or frozenset()) | spec.tabs | spec.breaks | spec.skip
                                  | spec.cells | {t for t in (spec.run, spec.spaces, spec.table, spec.row) if t is not None})
        self.max_chars = max_chars
        self.lines: list[str] = []
        self.chars = 0
        self.buf: list[str] = []
        self.depth = 0  # paragraphs open
        self.in_text = 0
        self.in_run = 0
        self.skipping = 0
        self.tables = 0  # tables open (a table in a cell is part of that cell's text)
        self.rows = 0  # rows written of the outermost table
        self.row: list[str] = []  # the cells of the outermost table's current row
        self.cell: list[str] | None = None  # the paragraphs of its current cell

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        if tag not in self.relevant:
            return
        s = self.spec
        if self.skipping or tag in s.skip:
            self.skipping += 1
            return
        if tag == s.table and not self.depth:
            self.tables += 1
            if self.tables == 1:
                self.rows = 0
            return
        if self.tables == 1 and not self.depth:
            if tag == s.row:
                self.row = []
                return
            if tag in s.cells:
                self.cell = []
                return
        if tag in s.paragraphs:
            self.depth += 1
        elif not self.depth:
            return
        elif s.text is not None and tag in s.text:
            self.in_text += 1
        elif tag == s.run:
            self.in_run += 1
        elif tag in s.tabs and (s.run is None or self.in_run):
            self._add("\t")
        elif tag in s.breaks:
            self._add("\n")
        elif tag == s.spaces:
            n = attrs.get(f"{_TEXT} c", "1")
            self._add(" " * min(int(n) if n.isdigit() else 1, 1000))

    def end(self, tag: str) -> None:
        if tag not in self.relevant:
            return
        s = self.spec
        if self.skipping:
            self.skipping -= 1
            return
        if tag == s.table and self.tables and not self.depth:
            self.tables -= 1
            return
        if self.tables == 1 and not self.depth:
            if tag in s.cells and self.cell is not None:
                self.row.append(" ".join(p for p in self.cell if p).translate(_CELL_TEXT))
                self.cell = None
                return
            if tag == s.row:
                if self.row:
                    self._line("| " + " | ".join(self.row) + " |")
                    if not self.rows:
                        self._line("|" + "---|" * len(self.row))
                    self.rows += 1
                self.row = []
                return
        if tag in s.paragraphs and self.depth:
            self.depth -= 1
            if not self.depth:
                text = "".join(self.buf)
                self.buf = []
                if self.cell is not None:
                    self.cell.append(text.strip())
                else:
                    self.lines.append(text)
                self.chars += 1
        elif s.text is not None and tag in s.text and self.in_text:
            self.in_text -= 1
        elif tag == s.run and self.in_run:
            self.in_run -= 1

    def data(self, text: str) -> None:
        if self.skipping or not self.depth:
            return
        if self.spec.text is None:
            self._add(text.translate(_ODF_WHITESPACE))
        elif self.in_text:
            self._add(text)

    def _add(self, text: str) -> None:
        self.chars += len(text)
        if self.chars > self.max_chars:
            raise _Refused("text too long")
        self.buf.append(text)

    def _line(self, text: str) -> None:
        self.chars += len(text) + 1
        if self.chars > self.max_chars:
            raise _Refused("text too long")
        self.lines.append(text)

    def text(self) -> str:
        return "".join(line + "\n" for line in self.lines)
