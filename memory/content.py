"""Semantic descriptors of produced text: structure, length, language and key terms.

Counting headings, list lines and table rows needs no model, and these counts are what
the Production (B) and Cross-modal (F) dimensions are defined by, so they are computed
here deterministically from the stored snapshots and diffs.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from .tokens import key_terms

# Plain-text formats people write in besides Markdown and LaTeX: screenplays (Fountain, Final
# Draft's XML), AsciiDoc, Textile, wiki markup, R Markdown and Quarto, Typst, and technical
# writers' XML topics (DITA's, DocBook's), counted by their lines as HTML is: a tag line of
# their markup stands where Markdown has a blank line or a heading's hashes.
WRITING_FORMATS = frozenset({"fountain", "fdx", "adoc", "asciidoc", "textile", "wiki", "rmd", "qmd", "typ",
                             "dita", "dbk"})
# Subtitles and captions (SubRip, WebVTT, Advanced SubStation): the dialogue translators and
# captioners write and revise, read in their cues' text (signals._person_text). Text to read
# and revise, but no measure of how much a person writes: a file's cues are the video's
# (translated whole, an episode is 300 cues for anyone; counted as writing, minimal writers
# among subtitle translators read comprehensive at p 0.72-0.95).
SUBTITLE_FORMATS = frozenset({"srt", "vtt", "ass", "ssa"})
TEXT_TYPES = frozenset(
    {"md", "markdown", "txt", "rst", "org", "tex", "html", "htm", "csv", "tsv", "json", "yaml",
     "yml", "xml", "py", "js", "ts", "sh", "toml", "ini", "cfg", "log", "eml", "ics", ""}
) | WRITING_FORMATS | SUBTITLE_FORMATS
STRUCTURED_TYPES = frozenset({"csv", "json", "xlsx", "yaml", "xml", "tsv"})
IMAGE_TYPES = frozenset({"png", "jpg", "jpeg", "svg", "gif"})

# An outliner (Logseq) keeps every block behind a bullet, its headings too (`- ## Decisions`,
# indented under their parent block): there the bullet is the file format, not a list the
# person chose, and a bulleted heading is a heading (alt297: product managers' 200-line PRDs
# read as minimal bullet lists at p 0.95).
_HEADING_START = r"(?:[ ]{0,3}|[ \t]*[-*+][ \t]+)"
_HEADING = re.compile(rf"^{_HEADING_START}(#{{1,6}})[ \t]+\S")
# A text with no bullet before a "#" has no bulleted heading: the structure pass looks for
# headings as CommonMark's alone there (a regex with no alternative to try on each list line).
_BULLET_HASH = re.compile(r"[-*+][ \t]+#")
_LIST = re.compile(r"^[ \t]*(?:[-*+]|\d+[.)]|[•·])[ \t]+\S")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
# Heading, table-candidate and list lines in one pass: the three kinds are told apart by
# the first character that is not a space (an outline's bulleted heading is tried as a
# heading first), so at most one branch matches a line, and the
# literal "\n" in front lets the regex engine skip quickly from line to line. The lookahead
# holds every character a branch can start with: a prose line (most lines) is rejected by
# one class test instead of three branch attempts.
_STRUCTURE, _OUTLINE_STRUCTURE = (
    re.compile(rf"\n(?=[ \t#|*+\-•·\d])(?:{start}(#{{1,6}})[ \t]+\S|[ \t]*(\|.*)|[ \t]*(?:[-*+]|\d+[.)]|[•·])[ \t]+\S)")
    for start in (r"[ ]{0,3}", _HEADING_START)
)
# First characters after which a line may be blank, a table row or a heading (str.lstrip's
# whitespace, "|" and "#"): a line starting with any other character is prose as it is.
# (No character above U+3000 is whitespace.)
_NOT_PLAIN_START = frozenset("|#" + "".join(ch for ch in map(chr, range(0x3001)) if ch.isspace()))
_ASCII_LETTERS = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
KEY_TERM_CHARS = 6000  # text_stats' key terms come from the beginning of a text
_LETTER = re.compile(r"[^\W\d_]")
# Texts whose analysis is kept: the features, signals and documents of a session describe
# the same snapshots one after another; a bound, because the keys are whole texts.
TEXT_CACHE = 128
_OTHER_ENDS = "!?。！？"  # sentence ends besides "."
# Line breaks str.splitlines() knows besides "\n" (whole-text regexes only know "\n").
_ODD_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def is_table_row(line: str) -> bool:
    """A markdown table row: starts with '|' and holds at least two cells; the '|---|'
    separator line is not a row."""
    s = line.strip()
    return s.startswith("|") and s.count("|") >= 2 and not _TABLE_SEP.match(s)


# Tables and figures in the other markups people write in: a LaTeX tabular's rows (a line
# with a cell separator inside the environment; `align` and other math use `&` too, so only
# inside a table environment), an HTML table's rows, and a figure a document embeds
# (`\includegraphics`, markdown's `![...](...)`, HTML's `<img>`).
_LATEX_TABLE_BEGIN = re.compile(r"\\begin\{(tabular[x*]?|longtable|tabulary)\}")
_LATEX_TABLE_END = re.compile(r"\\end\{(tabular[x*]?|longtable|tabulary)\}")
_HTML_ROW = re.compile(r"(?i)<tr[\s>]")
_EMBED = re.compile(r"(?i)\\includegraphics\b|!\[[^\]\n]*\]\([^)\n]+\)|<img\s")


def markup_table_rows(text: str) -> int:
    """Rows of LaTeX and HTML tables in a text (markdown's are `table_rows`)."""
    rows = len(_HTML_ROW.findall(text)) if "<" in text else 0
    if "\\begin{" not in text:
        return rows
    inside = False
    for line in text.splitlines():
        if inside:
            if _LATEX_TABLE_END.search(line):
                inside = False
            elif "&" in line:
                rows += 1
        elif _LATEX_TABLE_BEGIN.search(line):
            inside = not _LATEX_TABLE_END.search(line)
    return rows


# A table copied or extracted as text: cells separated by tabs (Word's and Excel's tables as
# another recorder's text extraction writes them, a table pasted from a spreadsheet). Three
# or more cells on two or more lines in a row: a tab or two inside prose is indentation. A
# markdown row with tabs in it is counted as markdown. A text that is nothing but such rows is
# a data file under a text name (a translator's tab-separated `glossary.txt`, a TSV export),
# as a CSV is, not a document showing a table: a table in a document has the document around
# it (alt169: six translators' F calls wrong on their glossaries, text-only people read as table
# writers).
_TAB_CELLS = 3


def tab_table_rows(text: str) -> int:
    """Rows of tab-separated tables in a text (none where the text is only rows)."""
    if "\t" not in text:
        return 0
    rows = run = other = 0
    for line in text.splitlines():
        cells = line.strip().split("\t")
        if "|" not in line and len(cells) >= _TAB_CELLS and sum(1 for c in cells if c.strip()) >= _TAB_CELLS:
            run += 1
            continue
        other += bool(line.strip())
        rows += run if run >= 2 else 0
        run = 0
    return rows + (run if run >= 2 else 0) if other else 0


def tab_separated_data(text: str) -> bool:
    """Is the text nothing but tab-separated rows (_TAB_CELLS or more cells on each of two or
    more lines): a data file under a text name, as tab_table_rows reads it? Such a text is an
    export's records, not writing (B): a voter-file system exports tab-delimited `.txt`
    (alt585), an imaging program its tile index."""
    if "\t" not in text:
        return False
    rows = 0
    for line in text.splitlines():
        if not line.strip():
            continue
        cells = line.strip().split("\t")
        if "|" in line or len(cells) < _TAB_CELLS or sum(1 for c in cells if c.strip()) < _TAB_CELLS:
            return False
        rows += 1
    return rows >= 2


def figure_embeds(text: str) -> int:
    """Figures a text embeds: the document shows a picture or chart."""
    return len(_EMBED.findall(text)) if ("\\" in text or "![" in text or "<" in text) else 0


@functools.lru_cache(maxsize=TEXT_CACHE)
def table_rows(text: str) -> int:
    """Table rows among the lines of a text (from its shared analysis where that counts
    the same lines: no code fence, no line break but "\n")."""
    if "```" not in text and not any(c in text for c in _ODD_BREAKS):
        return analyse(text).table_rows
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


@functools.lru_cache(maxsize=TEXT_CACHE)
def _text_stats_cached(text: str, n_terms: int) -> TextStats:
    return _text_stats(text, n_terms)


def text_stats(text: str, n_terms: int = 8) -> TextStats:
    """Structure counts of a text (cached: the same snapshot is described several times)."""
    st = _text_stats_cached(text, n_terms)
    return TextStats(**{**st.__dict__, "key_terms": list(st.key_terms)})


def analyse(text: str) -> TextStats:
    """The structure counts of a text without key terms, shared (not copied): features,
    signals and documents all describe the same snapshot, and it is analysed once."""
    return _text_stats_cached(text, 0)


def _text_stats(text: str, n_terms: int) -> TextStats:
    if "```" in text:
        return _text_stats_lines(text, n_terms)
    return _text_stats_fast(text, n_terms)


def _text_stats_fast(text: str, n_terms: int) -> TextStats:
    """The line walk's counts for a text without code fences, from one whole-text regex
    (headings, tables and lists count lines ended by "\n", as this path always has)."""
    lines = text.splitlines()
    st = TextStats(chars=len(text), lines=len(lines))
    headings = depth = tables = lists = 0
    outline = "#" in text and _BULLET_HASH.search(text) is not None
    for hashes, pipe in (_OUTLINE_STRUCTURE if outline else _STRUCTURE).findall("\n" + text):
        if hashes:
            headings += 1
            if len(hashes) > depth:
                depth = len(hashes)
        elif pipe:
            tables += is_table_row(pipe)
        else:
            lists += 1
    st.headings, st.max_heading_depth, st.table_rows, st.list_lines = headings, depth, tables, lists
    if "#" in text or "|" in text:
        plain = _NOT_PLAIN_START
        marks = "#-*+" if outline else "#"  # what a heading line may start with
        prose = [ln for ln in lines
                 if (ln and ln[0] not in plain and not (outline and ln[0] in marks and _HEADING.match(ln)))
                 or ((s := ln.lstrip()) and s[0] != "|" and not (s[0] in marks and _HEADING.match(ln)))]
        st.nonblank_lines = sum(map(bool, map(str.strip, lines)))
    else:
        prose = list(filter(str.strip, lines))
        st.nonblank_lines = len(prose)  # the same test
    _finish(st, text, prose, n_terms)
    return st


def _finish(st: TextStats, text: str, prose: list[str], n_terms: int) -> None:
    """Sentences of the prose lines, language of the beginning, key terms."""
    joined = " ".join(prose)
    for end in _OTHER_ENDS:  # one terminator for str.split; runs give empty pieces, not sentences
        if end in joined:
            joined = joined.replace(end, ".")
    lengths = list(map(len, map(str.strip, joined.split("."))))
    st.sentences = len(lengths) - lengths.count(0)
    st.mean_sentence_chars = round(sum(lengths) / st.sentences, 2) if st.sentences else 0.0
    head = text[:2000]  # the language of a document shows in its beginning
    if head.isascii():  # [^\W\d_] is [A-Za-z] there, and nothing is CJK
        letters = len(head) - len(head.encode("ascii").translate(None, _ASCII_LETTERS))
        cjk = 0
    else:
        letters = len(_LETTER.findall(head))
        cjk = len(_CJK.findall(head))
    st.cjk_share = round(cjk / letters, 4) if cjk and letters else 0.0  # round(0.0, 4) is 0.0
    st.language = "unknown" if letters < 20 else ("zh" if st.cjk_share >= 0.2 else "en")
    st.key_terms = key_terms(text[:KEY_TERM_CHARS], n_terms) if n_terms > 0 else []


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
    prose = [ln for ln in lines if ln.strip() and not _HEADING.match(ln) and not ln.lstrip().startswith("|")]
    _finish(st, text, prose, n_terms)
    return st


def diff_lines(diff: str) -> tuple[list[str], list[str]]:
    """Added and removed lines of a unified diff (headers skipped)."""
    added, removed = [], []
    for line in diff.splitlines():
        first = line[:1]  # one test for most lines; "@@" and context lines are neither
        if first == "+":
            if not line.startswith("+++"):
                added.append(line[1:])
        elif first == "-" and not line.startswith("---"):
            removed.append(line[1:])
    return added, removed


def decode_text(data: bytes | None) -> str | None:
    """Text of a snapshot, or None for binary content (NUL in the first 8 KB)."""
    if data is None or b"\x00" in data[:8192]:
        return None
    return data.decode("utf-8", errors="replace")
