"""The plain text of an RTF document (WordPad, TextEdit, Word's "Rich Text"), one line per
paragraph, for the same reason as recorder/officetext.py: RTF is ASCII, so it used to be
snapshotted as its markup, whose lines (wrapped wherever the writer chose, font tables,
colour tables, hex pictures) say nothing about the paragraphs the person wrote or changed.

Only the body's text is kept: destinations that are no text (font, colour and style tables,
document info, pictures, objects, headers, footers, footnotes, field instructions, anything
marked `\\*`) are skipped; `\\par`, `\\line`, `\\row` and `\\cell` end lines, `\\tab` is a tab,
`\\'hh` is a byte in the document's code page (`\\ansicpg`, cp1252 by default), `\\uN` a Unicode
character whose `\\ucN` fallback characters are skipped. Bounded like the zip formats: the
file's size, the time, the text's length; anything malformed gives None, never an error.
"""

from __future__ import annotations

import codecs
import re
import time
from typing import IO

_TOKEN = re.compile(
    rb"\\([a-zA-Z]{1,32})(-?\d{1,10})? ?|\\'([0-9a-fA-F]{2})|\\(.)|([{}])|[\r\n]+|([^\\{}\r\n]+)", re.S,
)
_SKIP = frozenset({
    b"fonttbl", b"colortbl", b"stylesheet", b"info", b"pict", b"object", b"header", b"headerl", b"headerr",
    b"headerf", b"footer", b"footerl", b"footerr", b"footerf", b"footnote", b"fldinst", b"themedata",
    b"colorschememapping", b"datastore", b"latentstyles", b"listtable", b"listoverridetable", b"rsidtbl",
    b"generator", b"xmlnstbl", b"filetbl", b"revtbl", b"pgdsctbl", b"mmathPr", b"nonshppict", b"shppict",
    b"bkmkstart", b"bkmkend", b"annotation", b"atnid", b"atnauthor", b"xe", b"tc", b"txe",
})
_LINE_ENDS = frozenset({b"par", b"line", b"row", b"cell", b"page", b"sect"})
_CHARS = {b"tab": "\t", b"emdash": "\u2014", b"endash": "\u2013", b"lquote": "\u2018", b"rquote": "\u2019",
          b"ldblquote": "\u201c", b"rdblquote": "\u201d", b"bullet": "\u2022", b"emspace": " ", b"enspace": " "}
_SYMBOLS = {b"~": "\u00a0", b"-": "", b"_": "\u2011", b"\\": "\\", b"{": "{", b"}": "}"}
_CHECK_EVERY = 4096  # tokens between looks at the clock
MAX_DEPTH = 1000  # groups open at once (Word nests a few dozen): "{" * 16 MiB is no document


class _Refused(Exception):
    """Over a limit: no text."""


def rtf_text(f: IO[bytes], *, max_file_bytes: int, max_chars: int, seconds: float) -> str | None:
    """The document's text, one paragraph per line ("\\n" after each), or None (not RTF,
    too large, too slow)."""
    deadline = time.monotonic() + seconds
    f.seek(0)
    data = f.read(max_file_bytes + 1)
    if len(data) > max_file_bytes or not data.lstrip().startswith(b"{\\rtf"):
        return None
    try:
        text = _parse(data, max_chars, deadline)
    except (_Refused, LookupError, ValueError):
        return None
    # \uN pairs written for characters beyond the BMP (emoji) become one character; a lone half, "?"
    text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return "".join(line + "\n" for line in lines)


def _parse(data: bytes, max_chars: int, deadline: float) -> str:
    out: list[str] = []
    chars = 0
    decode = codecs.getdecoder("cp1252")
    skip = False
    uc = 1
    stack: list[tuple[bool, int]] = []
    pending_skip = 0  # fallback characters still to skip after a \uN
    new_group = False  # the last token opened a group (a destination's name may follow)
    n = 0
    pos = 0
    while pos < len(data):
        m = _TOKEN.match(data, pos)
        if m is None:
            raise _Refused("unreadable")
        pos = m.end()
        n += 1
        if n % _CHECK_EVERY == 0 and time.monotonic() > deadline:
            raise _Refused("too slow")
        word, arg, hexbyte, symbol, brace, plain = m.groups()
        opened, new_group = new_group, False
        piece = ""
        if brace == b"{":
            if len(stack) >= MAX_DEPTH:
                raise _Refused("nested too deep")
            stack.append((skip, uc))
            new_group = True
            continue
        if brace == b"}":
            skip, uc = stack.pop() if stack else (skip, uc)
            pending_skip = 0
            continue
        if word is not None:
            if word == b"bin" and arg:  # raw bytes follow: never text
                pos += max(int(arg), 0)
                continue
            if skip:
                continue
            if word in _SKIP:
                skip = True
                continue
            if word == b"ansicpg" and arg:
                decode = codecs.getdecoder(f"cp{int(arg)}")
            elif word == b"uc" and arg is not None:
                uc = max(int(arg), 0)
            elif word == b"u" and arg is not None:
                piece = chr(int(arg) % 65536)
                pending_skip = uc
                chars = _add(out, piece, chars, max_chars)
                continue
            elif word in _LINE_ENDS:
                piece = "\n"
            else:
                piece = _CHARS.get(word, "")
        elif symbol is not None:
            if symbol == b"*" and opened:
                skip = True  # an optional destination this reader does not know
                continue
            if skip:
                continue
            piece = "\n" if symbol in (b"\n", b"\r") else _SYMBOLS.get(symbol, "")  # "\" + newline is \par
        elif hexbyte is not None:
            if skip:
                continue
            if pending_skip:
                pending_skip -= 1
                continue
            piece = decode(bytes([int(hexbyte, 16)]))[0]
        elif plain is not None:
            if skip:
                continue
            if pending_skip:
                dropped = min(pending_skip, len(plain))
                plain = plain[dropped:]
                pending_skip -= dropped
            piece = decode(plain)[0]
        else:
            continue  # a line break in the file: no text
        if piece:
            chars = _add(out, piece, chars, max_chars)
    return "".join(out)


def _add(out: list[str], piece: str, chars: int, max_chars: int) -> int:
    chars += len(piece)
    if chars > max_chars:
        raise _Refused("text too long")
    out.append(piece)
    return chars
