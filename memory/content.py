"""Semantic descriptors of produced text: structure, length, language and key terms.

Counting headings, list lines and table rows needs no model, and these counts are what
the Production (B) and Cross-modal (F) dimensions are defined by, so they are computed
here deterministically from the stored snapshots and diffs.
"""

from __future__ import annotations

import functools
import heapq
import re
from collections import Counter
from dataclasses import dataclass, field

TEXT_TYPES = frozenset(
    {"md", "markdown", "txt", "rst", "org", "tex", "html", "htm", "csv", "tsv", "json", "yaml",
     "yml", "xml", "py", "js", "ts", "sh", "toml", "ini", "cfg", "log", "eml", "ics", ""}
)
STRUCTURED_TYPES = frozenset({"csv", "json", "xlsx", "yaml", "xml", "tsv"})
IMAGE_TYPES = frozenset({"png", "jpg", "jpeg", "svg", "gif"})

_HEADING = re.compile(r"^[ ]{0,3}(#{1,6})[ \t]+\S")
_LIST = re.compile(r"^[ \t]*(?:[-*+]|\d+[.)]|[•·])[ \t]+\S")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_'-]{2,}")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_CJK_BIGRAM = re.compile(r"(?=([\u3400-\u9fff]{2}))")
KEY_TERM_CHARS = 6000  # key terms of a long document come from its beginning
_LETTER = re.compile(r"[^\W\d_]")
_SENT_END = re.compile(r"[.!?。！？]+")

STOPWORDS = frozenset(
    """the and for with that this from are was were will have has had not but you your our
    their they them his her its into onto than then there these those what when where which
    who why how all any can could should would may might must shall also each other more most
    such only own same very just about above after again against before being below between
    both during further here once over under until while some been does did doing off out
    per via etc use used using one two three new file files line lines none null true false
    http https www com""".split()
)


def is_table_row(line: str) -> bool:
    """A markdown table row: starts with '|' and holds at least two cells; the '|---|'
    separator line is not a row."""
    s = line.strip()
    return s.startswith("|") and s.count("|") >= 2 and not _TABLE_SEP.match(s)


def table_rows(text: str) -> int:
    return sum(1 for line in text.splitlines() if is_table_row(line))


@dataclass
class TextStats:
    chars: int = 0
    lines: int = 0
    nonblank_lines: int = 0
    headings: int = 0
    max_heading_depth: int = 0
    list_lines: int = 0
    table_rows: int = 0
    code_blocks: int = 0
    sentences: int = 0
    mean_sentence_chars: float = 0.0
    cjk_share: float = 0.0
    language: str = "unknown"
    key_terms: list[str] = field(default_factory=list)


@functools.lru_cache(maxsize=512)
def _text_stats_cached(text: str, n_terms: int) -> TextStats:
    return _text_stats(text, n_terms)


def text_stats(text: str, n_terms: int = 8) -> TextStats:
    """Structure counts of a text (cached: the same snapshot is described several times)."""
    st = _text_stats_cached(text, n_terms)
    return TextStats(**{**st.__dict__, "key_terms": list(st.key_terms)})


_HEADING_M = re.compile(r"^[ ]{0,3}(#{1,6})[ \t]+\S", re.M)
_LIST_M = re.compile(r"^[ \t]*(?:[-*+]|\d+[.)]|[•·])[ \t]+\S", re.M)
_PIPE_M = re.compile(r"^[ \t]*\|.*$", re.M)


def _text_stats(text: str, n_terms: int) -> TextStats:
    if "```" not in text:
        return _text_stats_fast(text, n_terms)
    return _text_stats_lines(text, n_terms)


def _text_stats_fast(text: str, n_terms: int) -> TextStats:
    """Same counts as the line walk, with whole-text regexes (no code fences to skip)."""
    lines = text.splitlines()
    st = TextStats(chars=len(text), lines=len(lines))
    st.nonblank_lines = sum(1 for ln in lines if ln.strip())
    depths = [len(m) for m in _HEADING_M.findall(text)]
    st.headings = len(depths)
    st.max_heading_depth = max(depths, default=0)
    rows = [ln for ln in _PIPE_M.findall(text) if is_table_row(ln)]
    st.table_rows = len(rows)
    st.list_lines = len(_LIST_M.findall(text))
    prose = "\n".join(ln for ln in lines if ln.strip() and not _HEADING.match(ln) and not ln.lstrip().startswith("|"))
    _finish(st, text, prose, n_terms)
    return st


def _finish(st: TextStats, text: str, prose: str, n_terms: int) -> None:
    sentences = [s for s in _SENT_END.split(prose.replace("\n", " ")) if s.strip()]
    st.sentences = len(sentences)
    st.mean_sentence_chars = round(sum(len(s.strip()) for s in sentences) / len(sentences), 2) if sentences else 0.0
    head = text[:2000]  # the language of a document shows in its beginning
    letters = len(_LETTER.findall(head))
    cjk = len(_CJK.findall(head))
    st.cjk_share = round(cjk / letters, 4) if letters else 0.0
    st.language = "unknown" if letters < 20 else ("zh" if st.cjk_share >= 0.2 else "en")
    st.key_terms = key_terms(text, n_terms)


def _text_stats_lines(text: str, n_terms: int) -> TextStats:
    lines = text.splitlines()
    st = TextStats(chars=len(text), lines=len(lines))
    in_code = False
    for line in lines:
        if line.strip().startswith("```"):
            in_code = not in_code
            if in_code:
                st.code_blocks += 1
            continue
        if not line.strip():
            continue
        st.nonblank_lines += 1
        if in_code:
            continue
        m = _HEADING.match(line)
        if m:
            st.headings += 1
            st.max_heading_depth = max(st.max_heading_depth, len(m.group(1)))
        elif is_table_row(line):
            st.table_rows += 1
        elif _LIST.match(line):
            st.list_lines += 1
    prose = "\n".join(ln for ln in lines if ln.strip() and not _HEADING.match(ln) and not ln.lstrip().startswith("|"))
    _finish(st, text, prose, n_terms)
    return st


def key_terms(text: str, n: int = 8) -> list[str]:
    """Most frequent content words (and CJK bigrams), ties broken alphabetically so the
    result is deterministic."""
    if n <= 0:
        return []
    text = text[:KEY_TERM_CHARS]
    words = [w for w in _WORD.findall(text.lower()) if w not in STOPWORDS]
    counts: Counter[str] = Counter(words + _CJK_BIGRAM.findall(text))
    return [w for w, _ in heapq.nsmallest(n, counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def diff_lines(diff: str) -> tuple[list[str], list[str]]:
    """Added and removed lines of a unified diff (headers skipped)."""
    added, removed = [], []
    for line in diff.splitlines():
        if line.startswith(("+++", "---", "@@")):
            continue
        if line.startswith("+"):
            added.append(line[1:])
        elif line.startswith("-"):
            removed.append(line[1:])
    return added, removed


def decode_text(data: bytes | None) -> str | None:
    """Text of a snapshot, or None for binary content (NUL in the first 8 KB)."""
    if data is None or b"\x00" in data[:8192]:
        return None
    return data.decode("utf-8", errors="replace")
