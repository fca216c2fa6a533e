"""Memory's tokens of a text, counted once and shared by the embedder and the key terms.

A token is a run of letters, digits and `_'-` that starts with a letter or digit, lower-cased;
CJK text gives every character and every pair of neighbouring ones. The hashing embedder
sums a text's tokens into slots, and for a token longer than 5 characters its stem as well
("organ~", so "organised" and "organisation" meet); a document's key terms are its most
frequent tokens that are words. Counts are cached per text (the chunks a session's encoding
counted are embedded moments later) and shared: callers must not change them.
"""

from __future__ import annotations

import functools
import re
from collections import Counter, _count_elements  # type: ignore[attr-defined]
from collections.abc import Mapping

_TOKEN = re.compile(r"[a-z0-9][a-z0-9_'-]*|[\u3400-\u9fff]", re.I)
# Two CJK characters with no other token between them: neighbours in tokens(text).
_CJK_PAIR = re.compile(r"([\u3400-\u9fff])(?=[^a-z0-9\u3400-\u9fff]*([\u3400-\u9fff]))", re.I)
_TOKEN_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789_'-"
# ASCII text: every byte that is no token character becomes a space, capitals become small.
_TOKEN_BYTES = bytes(
    ord(ch) if ch in _TOKEN_CHARS else ord(ch.lower()) if "A" <= ch <= "Z" else 32
    for ch in map(chr, range(256))
)
# The token characters a token cannot start with (_'-), at the start of a run (after a space).
_LEADING_RUN = re.compile(rb" [-_']+")
STEM = 5
COUNT_CACHE = 1024  # texts whose counts are kept (a batch's chunks fit)

STOPWORDS = frozenset(
    """the and for with that this from are was were will have has had not but you your our
    their they them his her its into onto than then there these those what when where which
    who why how all any can could should would may might must shall also each other more most
    such only own same very just about above after again against before being below between
    both during further here once over under until while some been does did doing off out
    per via etc use used using one two three new file files line lines none null true false
    http https www com""".split()
)
_STOP_BYTES = frozenset(w.encode() for w in STOPWORDS)


def tokens(text: str, *, stems: bool = True) -> list[str]:
    """The tokens of a text in order (with stems: each after its token)."""
    raw = [t.lower() for t in _TOKEN.findall(text)]
    out: list[str] = []
    prev_cjk = None
    for t in raw:
        if len(t) == 1 and "\u3400" <= t <= "\u9fff":
            if prev_cjk:
                out.append(prev_cjk + t)
            prev_cjk = t
            out.append(t)
        else:
            prev_cjk = None
            out.append(t)
            if stems and len(t) > STEM:
                out.append(t[:STEM] + "~")
    return out


def stem_of(tok: bytes) -> bytes | None:
    """The stem a token adds to an embedding, if it is long enough to have one."""
    s = tok.decode()
    return (s[:STEM] + "~").encode() if len(s) > STEM else None


@functools.lru_cache(maxsize=COUNT_CACHE)
def token_counts(text: str) -> Counter[bytes]:
    """How often each token (UTF-8, stems not included) occurs in a text (cached: callers
    must not change the counts)."""
    return count_tokens(text)


def count_tokens(text: str) -> Counter[bytes]:
    """token_counts without the cache, for a text counted once. ASCII text is split by
    byte translation instead of a regex, the common case."""
    if not text.isascii():
        counts = Counter(map(str.lower, _TOKEN.findall(text)))
        counts.update(map("".join, _CJK_PAIR.findall(text)))
        return Counter({t.encode(): n for t, n in counts.items()})
    raw = text.encode("ascii").translate(_TOKEN_BYTES)
    # A run that starts with _'- loses those characters. Most texts have no such run, and
    # finding one byte is several times faster than finding a pair: the pair is looked for
    # only when its second byte occurs at all. Runs are separated by spaces alone after the
    # translation, so one substitution strips every run (a markdown list has one per item)
    # instead of a step per run.
    if raw[:1] in (b"_", b"'", b"-") or (b"_" in raw and b" _" in raw) or (b"'" in raw and b" '" in raw) \
            or (b"-" in raw and b" -" in raw):
        raw = _LEADING_RUN.sub(b" ", b" " + raw)
    # Counter(tokens) is Counter.update in Python (a Mapping check through the ABC, a super()
    # call) around this one C loop: a few microseconds a text, ~15% of counting a chunk.
    counts: Counter[bytes] = Counter()
    _count_elements(counts, raw.split())
    return counts


def _is_word(tok: bytes) -> bool:
    """A word worth naming: 3+ characters from a letter on (no stop word), or a pair of
    CJK characters."""
    first = tok[0]
    if first < 0x80:
        return 0x61 <= first <= 0x7A and len(tok) >= 3 and tok not in _STOP_BYTES
    s = tok.decode()
    return len(s) == 2 and all("\u3400" <= ch <= "\u9fff" for ch in s)


def top_words(counts: Mapping[bytes, int], n: int) -> list[str]:
    """The n most frequent words among token counts, ties broken alphabetically."""
    if n <= 0 or not counts:
        return []
    if len(counts) > 4 * n:  # the words are among the most frequent tokens (all ties kept)
        cut = sorted(counts.values(), reverse=True)[4 * n - 1]
        words = _words_in(counts, [tok for tok, c in counts.items() if c >= cut], n)
        if len(words) == n:
            return words
    return _words_in(counts, list(counts), n)


# token -> _is_word(token): the same vocabulary comes back in every document, and a dict
# lookup is several times cheaper than the call. Bounded: cleared when full.
_WORDS: dict[bytes, bool] = {}
WORD_CACHE = 65536


def _words_in(counts: Mapping[bytes, int], toks: list[bytes], n: int) -> list[str]:
    """The first n words of `toks` (tokens of `counts`) by count, ties alphabetically: two
    stable sorts of the tokens alone (comparing bytes, then looking counts up in C) order
    them as sorting (token, count) pairs would."""
    toks.sort()
    toks.sort(key=counts.__getitem__, reverse=True)
    out: list[str] = []
    known = _WORDS
    for tok in toks:
        word = known.get(tok)
        if word is None:
            if len(known) >= WORD_CACHE:
                known.clear()
            word = known[tok] = _is_word(tok)
        if word:
            out.append(tok.decode())
            if len(out) == n:
                break
    return out


def key_terms(text: str, n: int = 8) -> list[str]:
    """Most frequent words (and CJK pairs) of a text, ties broken alphabetically."""
    return top_words(token_counts(text), n) if n > 0 else []
