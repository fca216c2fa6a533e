"""The 20 FileGram personas: identity, A-F tiers (the paper's Table 9) and 19 attributes.

The 16 behavioural attributes are written out from the tiers so that a persona prompt (agent
mode) and a human reader see the same person the offline policies act out. Naming style is
per person, not per tier: a naming habit must not give a tier away.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from filegram.vocab import DIM_IDS, DIMENSION_NAMES, TIERS

# The simulator's name for the six dimension ids (filegram.vocab.DIM_IDS).
DIMENSIONS: tuple[str, ...] = DIM_IDS

__all__ = ["ATTRIBUTE_SCHEMA", "DIMENSIONS", "DIMENSION_NAMES", "NAMING_STYLES", "PROFILES", "TIERS", "Profile"]

# attribute -> (dimension, {tier: description})
ATTRIBUTE_SCHEMA: dict[str, tuple[str, dict[str, str]]] = {
    "reading_strategy": ("A", {
        "L": "sequential deep reading: opens every file in order and reads it to the end",
        "M": "search-first: greps or globs for what matters and reads only those passages",
        "R": "breadth-first: lists folders and skims the first lines of many files"}),
    "thoroughness": ("A", {
        "L": "exhaustive, rereads sources to check details",
        "M": "selective, reads what the task needs",
        "R": "minimal, moves on after a quick look"}),
    "tone": ("B", {"L": "formal, academic", "M": "professional", "R": "casual"}),
    "output_detail": ("B", {
        "L": "comprehensive: long documents (200+ lines) split over several files",
        "M": "balanced: one document of 80-150 lines",
        "R": "minimal: one short note (under 60 lines)"}),
    "output_structure": ("B", {
        "L": "deep heading hierarchy with numbered sections",
        "M": "a few sections with short paragraphs and lists",
        "R": "flat bullet points"}),
    "verbosity": ("B", {"L": "verbose", "M": "moderate", "R": "terse"}),
    "directory_style": ("C", {
        "L": "deeply nested folders (3+ levels)",
        "M": "one or two levels of folders",
        "R": "everything at the root"}),
    "organization_style": ("C", {
        "L": "files are moved into a taxonomy of subfolders",
        "M": "groups files when there are many of a kind",
        "R": "leaves files where they are"}),
    "naming": ("C", {
        "L": "descriptive names that encode topic and date",
        "M": "short descriptive names",
        "R": "whatever name comes first"}),
    "naming_convention": ("C", {"L": "consistent convention", "M": "mostly consistent", "R": "mixed"}),
    "version_strategy": ("D", {
        "L": "keeps a backup copy before changing a file",
        "M": "relies on memory, sometimes keeps a copy",
        "R": "overwrites in place, no backups"}),
    "edit_strategy": ("D", {
        "L": "many small incremental edits over several passes",
        "M": "a few medium edits of 10-30 lines",
        "R": "rewrites the whole file in one go"}),
    "error_handling": ("D", {
        "L": "fixes each problem where it is found",
        "M": "collects problems and fixes them in a batch",
        "R": "regenerates the document"}),
    "working_style": ("E", {
        "L": "cleans up as they go: deletes scratch and intermediate files",
        "M": "tidies up occasionally",
        "R": "keeps everything, drafts included"}),
    "documentation": ("F", {
        "L": "charts, images and data files next to the text",
        "M": "markdown tables inside documents",
        "R": "plain text only"}),
    "cross_modal_behavior": ("F", {
        "L": "visual-heavy: makes figures folders, charts and CSV extracts",
        "M": "balanced: summarises data in tables",
        "R": "text-only"}),
}

NAMING_STYLES: tuple[str, ...] = ("snake", "kebab", "title", "camel")


@dataclass(frozen=True)
class Profile:
    id: str
    name: str
    role: str
    language: str  # "zh" | "en"
    tiers: dict[str, str]
    attributes: dict[str, str] = field(default_factory=dict)

    @property
    def naming_style(self) -> str:
        """A personal file-naming habit, chosen from the id so it says nothing about tiers."""
        h = int(hashlib.sha256(self.id.encode()).hexdigest()[:8], 16)
        return NAMING_STYLES[h % len(NAMING_STYLES)]

    def describe(self) -> str:
        """The persona as instructions (agent mode and documentation)."""
        lines = [f"You are {self.name}, a {self.role}. You write in "
                 f"{'Chinese' if self.language == 'zh' else 'English'}."]
        for attr, value in self.attributes.items():
            if attr in ("name", "role", "language"):
                continue
            lines.append(f"- {attr.replace('_', ' ')}: {value}")
        return "\n".join(lines)


_TABLE9 = """
p1  Chen Wei            Research Analyst         zh LLLLLM
p2  Liu Jing            Policy Analyst           zh LLRRLM
p3  Sam Taylor          Operations Manager       en MRRRMR
p4  Nakamura Yuki       Financial Consultant     zh MLMLRL
p5  Maria Santos        Marketing Coordinator    zh RMMMRM
p6  Alex Kim            Event Planner            en RMLRMR
p7  Zhang Meilin        Curriculum Designer      zh LMMMML
p8  Jordan Rivera       Technical Writer         en RRMLRR
p9  Li Hao              UX Researcher            zh MMLMLL
p10 Emily Okafor        Quality Auditor          en LRRRRM
p11 Priya Sharma        Supply Chain Analyst     en MLLLLR
p12 Wang Fang           Journalism Editor        zh RLRLMM
p13 Zhao Ming           Landscape Architect      zh LMLMLL
p14 Daniel Osei         Compliance Officer       en MRLLMR
p15 Sophie Laurent      Project Manager          en RLMMRM
p16 Marcus Chen         Data Analyst             en MMRMLR
p17 Chen Wenjing        Museum Curator           zh LLLLML
p18 Aisha Johnson       Executive Assistant      en RRRRLM
p19 Lin Xiaoyu          Social Media Manager     zh MMRMMR
p20 Tom O'Brien         Building Inspector       en LRMRRL
"""


def _parse_table() -> dict[str, Profile]:
    out: dict[str, Profile] = {}
    for line in _TABLE9.strip().splitlines():
        pid = line[:4].strip()
        name = line[4:24].strip()
        role = line[24:49].strip()
        lang, tiers_s = line[49:].split()
        tiers = dict(zip(DIMENSIONS, tiers_s, strict=True))
        attrs: dict[str, str] = {"name": name, "role": role, "language": lang}
        for attr, (dim, by_tier) in ATTRIBUTE_SCHEMA.items():
            attrs[attr] = by_tier[tiers[dim]]
        out[pid] = Profile(pid, name, role, lang, tiers, attrs)
    return out


PROFILES: dict[str, Profile] = _parse_table()
