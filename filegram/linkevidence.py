"""What two files' contents have in common: the evidence a cross_file_reference needs.

A reference between two files is only recorded when something links them: lines copied
from one into the other, or distinctive words they share. A fingerprint keeps just that
much of a text, small and fixed in size (hashes of its lines, a capped set of its words),
so the recorder never holds whole files for it. The rules live in the core because they
define what the trace's cross_file_reference means: the recorder (recorder/derive.py)
applies them to real activity and the simulator's fast path to its in-memory workspace,
so both write the same links for the same work.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass

# How far back a read can be the source of a link.
COPY_WINDOW_MS = 30 * 60 * 1000.0  # copied lines link a read this far back
EDIT_WINDOW_MS = 5 * 60 * 1000.0  # shared words link a read this far back
SEQUENTIAL_WINDOW_MS = 2 * 60 * 1000.0  # one read after another
MAX_EDIT_SOURCES = 3  # an edit links to at most this many of the files read before it

MAX_TERMS = 3000
MAX_LINES = 5000
MIN_LINE_WORDS = 3  # a copied line must say something ("---", "```", "}" do not)
MIN_TERM_LEN = 4
RELATED_MIN_TERMS = 3  # shared distinctive words that make two texts related ...
RELATED_MIN_SHARE = 0.15  # ... and the share of the smaller text's words they are

_WORD = re.compile(r"[^\W\d_][\w-]*", re.UNICODE)
# Words too common to link anything (English function words, Markdown and code keywords).
_STOP = frozenset(
    """
    about above after again against also among an and another any are around because been before being below
    between both but can cannot could did does doing done down during each either else even ever every few for
    from further had has have having here hers herself him himself his how however into its itself just least
    less like many may might more most much must near need neither never next none nor not now off often once
    only onto other others otherwise our ours ourselves out over own per perhaps please quite rather really
    same see seem seems several shall she should since some still such than that the their theirs them
    themselves then there these they this those though through thus till too toward under until upon used
    using very was were what whatever when where whether which while who whom whose why will with within
    without would yet you your yours yourself yourselves
    true false null none self this return import from class def function const let var public private static
    void else elif while for print pass break continue async await yield lambda with
    line lines file files text note notes item items todo done data value values list table section page
    http https www com org html
    """.split()
)


@dataclass(frozen=True)
class Fingerprint:
    lines: frozenset[int]  # CRC-32 of each normalised line worth copying
    terms: frozenset[str]  # distinctive lowercase words

    @property
    def empty(self) -> bool:
        return not self.lines and not self.terms


EMPTY = Fingerprint(frozenset(), frozenset())


def fingerprint(text: bytes | str | None) -> Fingerprint:
    if not text:
        return EMPTY
    s = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    lines: set[int] = set()
    terms: set[str] = set()
    for raw in s.splitlines():
        words = _WORD.findall(raw)
        if len(words) >= MIN_LINE_WORDS and len(lines) < MAX_LINES:
            lines.add(zlib.crc32(" ".join(raw.split()).lower().encode("utf-8")))
        if len(terms) < MAX_TERMS:
            for w in words:
                w = w.lower().strip("-")
                if len(w) >= MIN_TERM_LEN and w not in _STOP:
                    terms.add(w)
    return Fingerprint(frozenset(lines), frozenset(terms))


def added_text(unified_diff: str) -> str:
    """The lines a unified diff adds (what an edit wrote)."""
    return "\n".join(ln[1:] for ln in unified_diff.splitlines() if ln.startswith("+") and not ln.startswith("+++"))


@dataclass(frozen=True)
class Link:
    copied_lines: int
    shared_terms: int

    @property
    def copied(self) -> bool:
        return self.copied_lines > 0


def compare(source: Fingerprint, written: Fingerprint) -> Link:
    """What the written text (an edit's added lines, a new file) takes from the source."""
    copied = len(source.lines & written.lines)
    shared = len(source.terms & written.terms)
    return Link(copied, shared)


def related(source: Fingerprint, other: Fingerprint) -> bool:
    """Copied lines, or enough distinctive words in common (absolute and as a share of
    the smaller text's words)."""
    link = compare(source, other)
    if link.copied:
        return True
    smaller = min(len(source.terms), len(other.terms))
    return link.shared_terms >= RELATED_MIN_TERMS and smaller > 0 and link.shared_terms / smaller >= RELATED_MIN_SHARE
