"""The deterministic offline answerer: reads an evidence text, scores each option.

Every method, FileGramOS included, hands this reader a plain text and nothing else, and the
reader treats every text the same way: one cue extraction, line by line, with no rule for
any method's lines and no weight for anyone's statements.

- Action lines (a narrative "read ... view #2", "searched (grep) ...", "created x.md (N chars,
  M lines", "made folder a/b/c", "edited x: +a -d lines", "copied ... (backup copy)",
  "deleted ... (temporary file)") are counted: each is one vote for the tier its numbers or
  kind point to.
- Any other line is read for behaviour words (`LEXICON`): "skims the first lines" is a vote
  for breadth-first reading, "never deletes" for preservative curation, "markdown tables" for
  balanced cross-modal output. A line that names a dimension ("C (Organization): ...",
  "Organization: ...") is read with that dimension's words only; ambiguous words such as
  "balanced" count only there.
- Quoted content ("content sample: ...", and the excerpt of a created file) counts by its
  form: a markdown table row, an image link.
- A line that names a session and calls it unusual (anomalous, flagged, outlier, drift)
  counts for that session being the odd one, half as much as one dimension on which it
  clearly disagrees with the others: it decides between sessions that look alike.

It never parses tier letters, confidences or scores out of a method's text, and never
computes per-session statistics, norms or z-scores over a log: that is the job of a memory.
A memory's profile is read as the words it uses, like any other text.

Options are parsed back into claims (subject, dimension, tier or change) through the bench's
own option wordings (`wording.option_index`), falling back to the behaviour words of the
option. An option's score is the reader's belief in its claims; ties are broken by a hash of
the question id, so an empty evidence text answers at chance.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .truth import DIM_NAMES, DIMS, TIERS, tier_text
from .wording import option_index

_NAMES = "|".join(re.escape(n) for n in DIM_NAMES.values())
_DIM_RE = r"([A-F])\s*\((?:" + _NAMES + r")\)"
SCOPE = re.compile(r"^\s*(?:-\s*)?(?:\[[^\]]+\]\s*)?(?:([A-F])\s*\((" + _NAMES + r")\)|(" + _NAMES + r"))\s*:", re.I)
_NAME_TO_DIM = {n.lower(): d for d, n in DIM_NAMES.items()}
ANOMALY_WORDS = re.compile(r"\b(anomal\w*|flagged|outlier|impostor|drift\w*|unusual)\b", re.I)
HEADER = re.compile(r"^###\s+(.+?)\s*$")
TAG = re.compile(r"\[(U\d+)\]")
SMOOTH = 0.5
UNUSUAL_WEIGHT = 0.5  # half of one dimension of clear disagreement (about 1.1)

ACTION = re.compile(r"^\s*(?:-\s*)?(?:\[[^\]]+\]\s*)?(?:\+\d+s\s+)?(?:user\s+)?"
                    r"(read|listed folder|searched|created|overwrote|edited|renamed|moved|made folder|deleted|"
                    r"copied|switched from|used)\b")
_CREATED = re.compile(r"\bcreated (\S+) \((\d+) chars(?:, (\d+) lines)?")
_OVERWROTE = re.compile(r"\boverwrote (\S+)")
_EDITED = re.compile(r"\bedited \S+: \+(\d+) -(\d+) lines")
_FOLDER = re.compile(r"\bmade folder (\S+)")
_MOVED = re.compile(r"\bmoved \S+ to (\S+)")
_VISUAL = re.compile(r"\.(png|jpe?g|svg|gif|csv|xlsx|json|tsv)\b", re.I)
CONTENT = re.compile(r"^\s*content sample:", re.I)

# Behaviour words per dimension, most specific first (a negation before the word it negates);
# each match is one vote and is masked so a shorter pattern cannot count it again. "balanced"
# needs a dimension named on the line.
LEXICON: dict[str, list[tuple[str, str]]] = {
    "A": [
        (r"rarely\s+(?:re-?read\w*|revisit\w*)", "R"), (r"without going back", "R"), (r"breadth-first", "R"),
        (r"\bbrows\w*", "R"), (r"\bskim\w*", "R"), (r"\blistings?\b", "R"), (r"\blists? folders\b", "R"),
        (r"\bscans?\b", "R"), (r"\bglanc\w*", "R"), (r"first lines", "R"),
        (r"search-first", "M"), (r"\bsearch(?:es|ed|ing)?\b", "M"), (r"\bgrep\w*", "M"), (r"\bglob\w*", "M"),
        (r"\bkeywords?\b", "M"), (r"line ranges", "M"), (r"matching passages|parts that match|relevant lines", "M"),
        (r"\blooks? (?:things )?up\b", "M"), (r"\btargeted\b", "M"),
        (r"\bsequential\w*", "L"), (r"\bin order\b", "L"), (r"\bin turn\b", "L"), (r"one after another", "L"),
        (r"whole (?:files|documents)", "L"), (r"\breads? (?:it )?through\b", "L"), (r"cover-to-cover", "L"),
        (r"\bre-?read\w*", "L"), (r"\brevisit\w*", "L"), (r"\bcomes? back\b", "L"), (r"deep reading", "L"),
    ],
    "B": [
        (r"several (?:long )?files", "L"), (r"multi-file", "L"), (r"(?:>=\s*|over |more than )?200\+?\s*lines", "L"),
        (r">=\s*3 files", "L"), (r"deep(?:ly)? (?:headings?|structured)", "L"), (r"numbered sections", "L"),
        (r"\bsubsections?\b", "L"), (r"\bcomprehensive\b", "L"), (r"\bdetailed\b", "L"), (r"\bextensive\b", "L"),
        (r"medium-length", "M"), (r"moderate(?:ly)? (?:long|length)", "M"), (r"80-150 lines", "M"),
        (r"one file of", "M"), (r"a few sections|some sections", "M"), (r"\bbalanced\b", "M"),
        (r"\blong\b", "L"),
        (r"(?:<=\s*|under )60 lines", "R"), (r"short note", "R"), (r"\bminimal\b", "R"), (r"\bbrief\b", "R"),
        (r"\bbullet\w*", "R"), (r"\bterse\b", "R"), (r"\bshort\b", "R"),
    ],
    "C": [
        (r"without creating folders", "R"), (r"no folders", "R"), (r"root only", "R"), (r"at the root", "R"),
        (r"\bflat\b", "R"), (r"where they are", "R"), (r"top level", "R"),
        (r"\badaptive\b", "M"), (r"1-2 levels", "M"), (r"one or two levels", "M"), (r"a folder or two", "M"),
        (r"folder level or two", "M"), (r"\bshallow\b", "M"), (r"light structure", "M"), (r"\bgroups? files\b", "M"),
        (r"deep(?:ly)? nested", "L"), (r"\bnested\b", "L"), (r"3\+ levels", "L"), (r"three or more levels", "L"),
        (r"\bsubfolders?\b", "L"), (r"\btaxonom\w*", "L"), (r"\bhierarch\w*", "L"),
    ],
    "D": [
        (r"\bno backups?\b", "R"), (r"without backups?", "R"), (r"keeping no copy|no cop(?:y|ies)\b", "R"),
        (r"bulk rewrite", "R"), (r"\brewrit\w*", "R"), (r"\boverwrit\w*", "R"), (r"from scratch", "R"),
        (r"\bregenerat\w*", "R"), (r"\bwholesale\b", "R"), (r"in one go", "R"),
        (r"10-30 line", "M"), (r"a few medium|medium edits", "M"), (r"mid-sized", "M"), (r"moderate chunks", "M"),
        (r"section by section", "M"), (r"\bbalanced\b", "M"),
        (r"\bincremental\w*", "L"), (r"small edits|small steps", "L"), (r"backup copies", "L"), (r"\bbackups?\b", "L"),
        (r"several passes|pass after pass", "L"), (r"a few lines at a time", "L"), (r"cop(?:y|ies) of the original", "L"),
    ],
    "E": [
        (r"never delet\w*", "R"), (r"nothing gets deleted", "R"), (r"\bno delet\w*", "R"), (r"keeps? everything", "R"),
        (r"\bkeeps? all\b", "R"), (r"\bpreserv\w*", "R"), (r"\bhoard\w*", "R"), (r"(?:scratch notes|drafts) included", "R"),
        (r"\bclean\w* up as\b", "L"),
        (r"\bpragmatic\b", "M"), (r"\boccasional\w*", "M"), (r"now and then", "M"), (r"\bsometimes\b", "M"),
        (r"not systematically", "M"), (r"some leftovers", "M"),
        (r"\bselective\w*", "L"), (r"\bdelet\w* (?:scratch|temp\w*|intermediate|drafts?)", "L"),
        (r"\bremoves? temp\w*", "L"), (r"\btemp(?:orary)? (?:files|drafts)", "L"), (r"throws? away", "L"),
        (r"\bobsolete\b", "L"), (r"\bleftovers\b", "L"), (r"\bcleans? up\b", "L"),
    ],
    "F": [
        (r"not just text", "L"),
        (r"text[- ]only", "R"), (r"plain text", "R"), (r"no (?:tables|figures|charts|visuals)(?: or (?:tables|figures|charts))?", "R"),
        (r"nothing visual", "R"), (r"\bprose\b", "R"),
        (r"markdown tables?", "M"), (r"\btables?\b", "M"), (r"\btabular\b", "M"), (r"\bbalanced\b", "M"),
        (r"visual-heavy", "L"), (r"\bcharts?\b", "L"), (r"\bimages?\b", "L"), (r"\bfigures?\b", "L"), (r"\bcsv\b", "L"),
        (r"\bplots?\b", "L"), (r"\bdiagrams?\b", "L"), (r"data (?:files|extracts)", "L"), (r"structured data", "L"),
    ],
}
_LEX = {d: [(re.compile(p, re.I), t, p == r"\bbalanced\b") for p, t in entries] for d, entries in LEXICON.items()}


def _tier_of_lines(n: int) -> str:
    return "L" if n >= 180 else ("M" if n > 65 else "R")


def _depth(path: str) -> int:
    return len([p for p in path.strip("/").split("/") if p and p != "."])


def scope_of(line: str) -> str | None:
    """The dimension a line is about when it names one at its start."""
    m = SCOPE.match(line)
    if not m:
        return None
    return m.group(1).upper() if m.group(1) else _NAME_TO_DIM[m.group(3).lower()]


def word_votes(text: str, dims: tuple[str, ...] | None = None, *, scoped: bool = False) -> dict[str, dict[str, float]]:
    """Votes from behaviour words in a piece of text (one line, or an option)."""
    out: dict[str, dict[str, float]] = {}
    for d in dims or DIMS:
        rest = text
        votes: dict[str, float] = {}
        for rx, tier, needs_scope in _LEX[d]:
            if needs_scope and not scoped:
                continue
            for m in list(rx.finditer(rest)):
                votes[tier] = votes.get(tier, 0.0) + 1.0
                rest = rest[:m.start()] + " " * (m.end() - m.start()) + rest[m.end():]
        if votes:
            out[d] = votes
    return out


def _action_votes(line: str, v: dict[str, dict[str, float]]) -> None:
    low = line.lower()
    if re.search(r"\bread\b", low) and "view #" in low:
        v["A"]["L"] += 1.0
    if "searched (" in low:
        v["A"]["M"] += 1.0
    if "listed folder" in low:
        v["A"]["R"] += 1.0
    m = _CREATED.search(line)
    if m:
        path = m.group(1)
        if m.group(3):
            v["B"][_tier_of_lines(int(m.group(3)))] += 1.0
        d = _depth(path) - 1
        v["C"]["L" if d >= 3 else ("M" if d >= 1 else "R")] += 0.5
        if _VISUAL.search(path):
            v["F"]["L"] += 1.0
        elif line.count("|") >= 4:
            v["F"]["M"] += 1.0
        else:
            v["F"]["R"] += 0.3
    if _OVERWROTE.search(line):
        v["D"]["R"] += 1.0
    m = _EDITED.search(line)
    if m:
        n = int(m.group(1)) + int(m.group(2))
        v["D"]["L" if n < 10 else ("M" if n <= 30 else "R")] += 1.0
    if "(backup copy)" in low:
        v["D"]["L"] += 1.0
    m = _FOLDER.search(line) or _MOVED.search(line)
    if m:
        d = _depth(m.group(1)) if _FOLDER.search(line) else _depth(m.group(1)) - 1
        v["C"]["L" if d >= 3 else ("M" if d >= 1 else "R")] += 1.0
    if re.search(r"\bdeleted ", low):
        v["E"]["L" if "temporary" in low else "M"] += 1.0


def cue_votes(text: str) -> dict[str, dict[str, float]]:
    """Votes per dimension and tier from any text (see the module docstring)."""
    v: dict[str, dict[str, float]] = {d: defaultdict(float) for d in DIMS}
    for line in text.splitlines():
        if not line.strip() or HEADER.match(line):
            continue
        if ACTION.match(line):
            _action_votes(line, v)
            continue
        if CONTENT.match(line):
            if line.count("|") >= 4:
                v["F"]["M"] += 1.0
            if "![" in line:
                v["F"]["L"] += 1.0
            continue
        scope = scope_of(line)
        words = word_votes(line, (scope,) if scope else None, scoped=scope is not None)
        for d, votes in words.items():
            for t, n in votes.items():
                v[d][t] += n
    return {d: dict(x) for d, x in v.items()}


@dataclass
class Beliefs:
    """P(tier) per dimension for one subject, and how much evidence stands behind it."""

    p: dict[str, dict[str, float]] = field(default_factory=dict)
    weight: dict[str, float] = field(default_factory=dict)

    def prob(self, dim: str, tier: str) -> float:
        return self.p.get(dim, {}).get(tier, 1.0 / 3.0)

    def best(self, dim: str) -> str | None:
        if self.weight.get(dim, 0.0) <= 0.0:
            return None
        probs = self.p[dim]
        return max(TIERS, key=lambda t: (probs[t], -TIERS.index(t)))


def beliefs(text: str) -> Beliefs:
    votes = cue_votes(text)
    b = Beliefs()
    for dim in DIMS:
        vd = votes.get(dim, {})
        total = sum(vd.values())
        b.weight[dim] = total
        b.p[dim] = {t: (vd.get(t, 0.0) + SMOOTH) / (total + 3 * SMOOTH) for t in TIERS}
    return b


def sections(text: str) -> dict[str, str]:
    """Evidence split by '### label' headers and by '[U1]' line tags ('' = everything)."""
    out: dict[str, list[str]] = defaultdict(list)
    current = ""
    for line in text.splitlines():
        h = HEADER.match(line)
        if h:
            current = h.group(1).split(" (")[0].split(":")[0].strip()
            continue
        out[""].append(line)
        if current:
            out[current].append(line)
        for tag in TAG.findall(line):
            out[tag].append(line)
    return {k: "\n".join(v) for k, v in out.items()}


# -- options -------------------------------------------------------------------------------


@dataclass
class Claim:
    subject: str  # "" = the user / the evidence as a whole
    dim: str
    tier: str | None = None
    change: tuple[str, str] | None = None
    session: str | None = None  # "Trajectory 3": the option names a session


_INDEX: dict[str, tuple[str, str]] = {}


def _index() -> dict[str, tuple[str, str]]:
    if not _INDEX:
        try:
            from filegram.simulator.profiles import ATTRIBUTE_SCHEMA as attrs
        except ImportError:  # pragma: no cover - the simulator ships with the bench
            attrs = {}
        _INDEX.update(option_index(attrs))
    return _INDEX


def tier_of_words(text: str, dim: str | None) -> tuple[str, str] | None:
    """(dimension, tier) a piece of option text states: a known wording, else its behaviour
    words when they point at one tier of one dimension."""
    hit = _index().get(text.strip().rstrip(".").lower())
    if hit and (dim is None or hit[0] == dim):
        return hit
    votes = word_votes(text, (dim,) if dim else None, scoped=dim is not None)
    if len(votes) != 1:
        return None
    (d, tv), = votes.items()
    best = max(tv.values())
    top = [t for t, n in tv.items() if n == best]
    return (d, top[0]) if len(top) == 1 else None


_SUBJECT = re.compile(r"^\s*(U\d+)\s*-\s*")
_CLAIM = re.compile(r"^\s*" + _DIM_RE + r"\s*:\s*(.+?)\s*$", re.I)
_SESSION = re.compile(r"^\s*(Trajectory \d+)\s*$")
_LETTERS = re.compile(r"^from (L|M|R)\b.*?\bto (L|M|R)\b")


def _change(rest: str, dim: str) -> tuple[str, str] | None:
    if not rest.lower().startswith("from "):
        return None
    m = _LETTERS.match(rest)  # an official-style option that spells the tier letters
    if m:
        return m.group(1), m.group(2)
    body = rest[5:]
    for m in re.finditer(r" to ", body):
        a, b = tier_of_words(body[:m.start()], dim), tier_of_words(body[m.end():], dim)
        if a and b and a[0] == b[0] == dim:
            return a[1], b[1]
    return None


def parse_option(text: str, question: str = "") -> list[Claim]:
    m = _SESSION.match(text)
    if m:
        return [Claim("", "", session=m.group(1))]
    claims = []
    qdim = re.search(_DIM_RE, question)
    for seg in re.split(r";\s+", text):
        subject = ""
        sm = _SUBJECT.match(seg)
        if sm:
            subject = sm.group(1)
            seg = seg[sm.end():]
        cm = _CLAIM.match(seg)
        if cm:
            dim, rest = cm.group(1).upper(), cm.group(2)
            ch = _change(rest, dim)
            if ch:
                claims.append(Claim(subject, dim, change=ch))
                continue
            hit = tier_of_words(rest, dim)
            if hit:
                claims.append(Claim(subject, dim, tier=hit[1]))
            continue
        hit = tier_of_words(seg, qdim.group(1) if qdim else None)
        if hit:
            claims.append(Claim(subject, hit[0], tier=hit[1]))
    return claims


# -- answering -----------------------------------------------------------------------------


def tie_break(question_id: str, candidates: list[int]) -> int:
    h = int(hashlib.sha256(question_id.encode()).hexdigest()[:8], 16)
    return candidates[h % len(candidates)]


def _session_outlier_scores(secs: Mapping[str, str], labels: list[str]) -> dict[str, float]:
    """How far each section's beliefs sit from the others' (a reader comparing sessions side
    by side), plus one dimension's worth for each statement calling it unusual."""
    scores: dict[str, float] = {}
    whole = secs.get("", "")
    for lab in labels:
        for line in whole.splitlines():
            if re.search(rf"\b{re.escape(lab)}\b", line) and ANOMALY_WORDS.search(line) and "not " not in line.lower():
                scores[lab] = scores.get(lab, 0.0) + UNUSUAL_WEIGHT
    bs = {lab: beliefs(secs.get(lab, "")) for lab in labels}
    for lab in labels:
        others = [o for o in labels if o != lab]
        dist = 0.0
        for dim in DIMS:
            if bs[lab].weight.get(dim, 0) <= 0:
                continue
            rest = [bs[o] for o in others if bs[o].weight.get(dim, 0) > 0]
            if not rest:
                continue
            for t in TIERS:
                mean = sum(r.prob(dim, t) for r in rest) / len(rest)
                dist += abs(bs[lab].prob(dim, t) - mean)
        scores[lab] = scores.get(lab, 0.0) + dist
    return scores


def _target_of(question: str, metadata: Mapping[str, Any] | None) -> str | None:
    m = re.search(r"\bsession (\S+?)\s+this user", question)
    return m.group(1) if m else None


def score_options(question_id: str, question: str, choices: list[str], evidence: str) -> list[float]:
    secs = sections(evidence)
    whole = secs.get("", "")
    cache: dict[str, Beliefs] = {}

    def bel(subject: str) -> Beliefs:
        if subject not in cache:
            cache[subject] = beliefs(secs.get(subject, "") if subject else whole)
        return cache[subject]

    parsed = [parse_option(c, question) for c in choices]
    sess_labels = [c[0].session for c in parsed if c and c[0].session]
    outlier = _session_outlier_scores(secs, sess_labels) if sess_labels else {}
    target = _target_of(question, None)
    scores = []
    for claims in parsed:
        s = 0.0
        for cl in claims:
            if cl.session:
                s += outlier.get(cl.session, 0.0)
            elif cl.change:
                a, b = cl.change
                tb = bel(target) if target and target in secs else bel("")
                rest_text = "\n".join(v for k, v in secs.items() if k not in ("", target)) if target else whole
                rb = beliefs(rest_text)
                s += tb.prob(cl.dim, b) + rb.prob(cl.dim, a) - tb.prob(cl.dim, a)
            elif cl.tier:
                s += bel(cl.subject).prob(cl.dim, cl.tier)
        scores.append(s)
    return scores


def answer_choice(question_id: str, question: str, choices: list[str], evidence: str) -> int:
    scores = score_options(question_id, question, choices, evidence)
    best = max(scores)
    tied = [i for i, s in enumerate(scores) if abs(s - best) < 1e-9]
    return tied[0] if len(tied) == 1 else tie_break(question_id, tied)


def answer_open(question_id: str, question: str, evidence: str) -> str:
    """An open answer about one dimension: the tier the evidence supports, in words."""
    m = re.search(_DIM_RE, question)
    if not m:
        return "unknown"
    dim = m.group(1).upper()
    b = beliefs(evidence)
    tier = b.best(dim)
    if tier is None:
        return "unknown"
    return f"{tier_text(dim, tier)} (tier {tier})"


def tier_in_text(text: str, dim: str, descriptions: Mapping[str, str] | None = None) -> str | None:
    """Which tier an open answer states: '(tier X)', or the description it quotes."""
    m = re.search(r"\btier\s*[:=]?\s*(L|M|R)\b", text)
    if m:
        return m.group(1)
    low = text.lower()
    for table in (descriptions or {}, {t: tier_text(dim, t) for t in TIERS}):
        hits = [t for t, d in table.items() if d and d.lower() in low]
        if len(hits) == 1:
            return hits[0]
    return None
