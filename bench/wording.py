"""How the bench words its options: paraphrases of each tier's meaning, several per tier,
chosen per question by the bank's seed.

Options used to quote table 2 exactly as memory prints it (filegram.vocab), so a method that
echoed those strings matched an option by string equality, whatever it had understood. These
wordings say the same behaviour in other words (none is table 2's or memory's text; a test
checks), so a reader has to understand both the evidence and the option. The offline reader
(reader.py) maps an option back to its claim through `option_index`, which also knows table 2's
wording and the simulator's attribute descriptions, because the official release words its
options that way.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from filegram.vocab import DIM_IDS, TIER_DESCRIPTIONS, TIERS, dimension_label

# dim -> tier -> wordings (no " to ", which separates the two sides of a change option)
OPTION_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "A": {
        "L": ("opens each file in turn and reads it through, rereading as needed",
              "reads whole documents one after another and comes back for details",
              "goes through the material in order, cover-to-cover, with rereads"),
        "M": ("searches for keywords first and reads only the matching passages",
              "uses grep or glob first, then reads just the relevant lines",
              "looks things up by search and opens only the parts that match"),
        "R": ("lists folders and skims the first lines of many files",
              "browses widely, glancing at lots of files without going back",
              "scans directory listings and skims openings, rarely rereading"),
    },
    "B": {
        "L": ("writes long, detailed documents (200+ lines) spread over several files with deep headings",
              "produces extensive multi-file write-ups with numbered sections and subsections",
              "comprehensive output: several long files, deeply structured"),
        "M": ("writes one medium-length document of roughly 80-150 lines with a few sections",
              "produces a single moderately long file with some sections and lists",
              "one file of moderate length, neither a note nor a report set"),
        "R": ("writes a short note of bullet points, under 60 lines",
              "keeps output minimal: one brief bulleted file",
              "jots terse bullet lists in a single short file"),
    },
    "C": {
        "L": ("builds a deep hierarchy of folders, three or more levels, and moves files into subfolders",
              "files everything into a nested taxonomy of subfolders",
              "organises work into deeply nested directories"),
        "M": ("uses one or two levels of folders when needed",
              "groups files into a shallow folder or two",
              "keeps a light structure: a folder level or two"),
        "R": ("keeps everything flat at the root, no folders",
              "leaves files where they are, all at the top level",
              "puts every file at the root without creating folders"),
    },
    "D": {
        "L": ("makes many small edits over several passes and keeps backup copies",
              "revises incrementally, a few lines at a time, saving a backup first",
              "edits in small steps, pass after pass, keeping a copy of the original"),
        "M": ("makes a few medium edits of about 10-30 lines each",
              "revises section by section in moderate chunks",
              "edits in a handful of mid-sized changes"),
        "R": ("rewrites whole files in one go, overwriting without backups",
              "regenerates the document from scratch instead of editing it",
              "replaces files wholesale in a bulk rewrite, keeping no copy"),
    },
    "E": {
        "L": ("cleans up as they go, deleting scratch and intermediate files",
              "removes temporary drafts and obsolete files once done",
              "throws away temp files and leftovers, selectively"),
        "M": ("tidies up now and then, deleting some leftovers",
              "cleans up occasionally, not systematically",
              "sometimes removes a draft, sometimes leaves it"),
        "R": ("keeps everything, never deleting anything",
              "preserves all files, drafts and scratch notes included",
              "hoards: nothing gets deleted"),
    },
    "F": {
        "L": ("adds charts, images and CSV data files beside the text, in a figures folder",
              "visual-heavy: makes plots and data extracts alongside documents",
              "produces figures and structured data files, not just text"),
        "M": ("summarises data in markdown tables inside documents",
              "prefers tables within the text",
              "puts numbers into tables within documents"),
        "R": ("writes plain prose, no tables or figures",
              "writes prose and lists only, nothing visual",
              "text-only output"),
    },
}


class Wording:
    """The wordings of one question: one paraphrase per (dimension, tier), drawn once, so all
    options of a question describe the same tier the same way."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.chosen: dict[tuple[str, str], str] = {}

    def text(self, dim: str, tier: str) -> str:
        key = (dim, tier)
        if key not in self.chosen:
            self.chosen[key] = self.rng.choice(OPTION_WORDS[dim][tier])
        return self.chosen[key]

    def claim(self, dim: str, tier: str) -> str:
        """A dimension-and-tier claim: "C (Organization): keeps everything flat at the root, ..."."""
        return f"{dimension_label(dim)}: {self.text(dim, tier)}"

    def change(self, dim: str, a: str, b: str) -> str:
        """A shift: "C (Organization): from <tier a in words> to <tier b in words>"."""
        return f"{dimension_label(dim)}: from {self.text(dim, a)} to {self.text(dim, b)}"


def option_index(attributes: Mapping[str, tuple[str, Mapping[str, str]]] | None = None) -> dict[str, tuple[str, str]]:
    """Every wording an option may use, lower-cased -> (dimension, tier): ours, table 2's (the
    official release's options) and attribute descriptions that name one tier unambiguously."""
    out: dict[str, tuple[str, str]] = {}
    seen: dict[str, set[tuple[str, str]]] = {}
    for dim, attrs in ((a[0], a[1]) for a in (attributes or {}).values()):
        for tier, text in attrs.items():
            seen.setdefault(text.lower(), set()).add((dim, tier))
    for text, claims in seen.items():
        if len(claims) == 1:
            out[text] = next(iter(claims))
    for d in DIM_IDS:
        for t in TIERS:
            out[TIER_DESCRIPTIONS[d][t].lower()] = (d, t)
            for w in OPTION_WORDS[d][t]:
                out[w.lower()] = (d, t)
    return out
