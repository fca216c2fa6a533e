"""The deterministic offline answerer: reads an evidence text, scores each option.

Every method, FileGramOS included, hands this reader a plain text and nothing else, so the
comparison is about the evidence, not about the answerer. The reader does what a literal,
careful reader does and no more:

- it takes explicit statements at their word: "C (Organization): L" (a tier, optionally
  "confidence 0.8"), "T-12: C (Organization) shifted from L to M", "Trajectory 3:
  anomalous";
- in event narratives it counts cues line by line (a search, a folder listing, a re-read,
  a created file of N lines, a folder three levels deep, an edit of +a -d lines, a deleted
  temporary file, a chart or a table) and turns each count into a vote for a tier;
- it never computes per-session statistics, norms or z-scores over a log: that is the job
  of a memory, and the point of the benchmark is to see which memory supplies it.

Options are parsed back into claims (subject, dimension, tier or change). An option's score
is the reader's belief in its claims; ties are broken by a hash of the question id, so an
empty evidence text answers at chance.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .truth import DIM_NAMES, DIMS, TIERS, tier_text

_DIM_RE = r"([A-F])\s*\((?:" + "|".join(re.escape(n) for n in DIM_NAMES.values()) + r")\)"
EXPLICIT_TIER = re.compile(_DIM_RE + r"\s*(?:tier)?\s*[:=]\s*(L|M|R)\b(?:[^\n]*?confidence\s*([0-9.]+))?", re.I)
EXPLICIT_SHIFT = re.compile(_DIM_RE + r"[^\n]*?(?:shifted\s+)?from\s+(L|M|R)\b[^\n]*?\bto\s+(L|M|R)\b", re.I)
ANOMALY_WORDS = re.compile(r"\b(anomal\w*|flagged|outlier|impostor|drift\w*)\b", re.I)
HEADER = re.compile(r"^###\s+(.+?)\s*$")
TAG = re.compile(r"\[(U\d+)\]")
SMOOTH = 0.5
EXPLICIT_WEIGHT = 12.0

_CREATED = re.compile(r"\bcreated (\S+) \((\d+) chars(?:, (\d+) lines)?")
_OVERWROTE = re.compile(r"\boverwrote (\S+)")
_EDITED = re.compile(r"\bedited \S+: \+(\d+) -(\d+) lines")
_FOLDER = re.compile(r"\bmade folder (\S+)")
_MOVED = re.compile(r"\bmoved \S+ to (\S+)")
_VISUAL = re.compile(r"\.(png|jpe?g|svg|gif|csv|xlsx|json|tsv)\b", re.I)


def _tier_of_lines(n: int) -> str:
    return "L" if n >= 180 else ("M" if n > 65 else "R")


def _depth(path: str) -> int:
    return len([p for p in path.strip("/").split("/") if p and p != "."])


def cue_votes(text: str) -> dict[str, dict[str, float]]:
    """Votes per dimension and tier from narrative lines (see module docstring)."""
    v: dict[str, dict[str, float]] = {d: defaultdict(float) for d in DIMS}
    for line in text.splitlines():
        low = line.lower()
        if " read " in f" {low}" or low.startswith("read "):
            if "view #" in low:
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
            elif "|" in line and line.count("|") >= 4:
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
        if "deleted " in low:
            v["E"]["L" if "temporary" in low else "M"] += 1.0
    return {d: dict(x) for d, x in v.items()}


@dataclass
class Beliefs:
    """P(tier) per dimension for one subject, and how much evidence stands behind it."""

    p: dict[str, dict[str, float]] = field(default_factory=dict)
    weight: dict[str, float] = field(default_factory=dict)
    explicit: dict[str, str] = field(default_factory=dict)

    def prob(self, dim: str, tier: str) -> float:
        return self.p.get(dim, {}).get(tier, 1.0 / 3.0)

    def best(self, dim: str) -> str | None:
        if self.weight.get(dim, 0.0) <= 0.0:
            return None
        probs = self.p[dim]
        return max(TIERS, key=lambda t: (probs[t], -TIERS.index(t)))


def beliefs(text: str) -> Beliefs:
    votes = cue_votes(text)
    for m in EXPLICIT_TIER.finditer(text):
        dim, tier = m.group(1).upper(), m.group(2).upper()
        conf = float(m.group(3)) if m.group(3) else 1.0
        votes[dim][tier] = votes[dim].get(tier, 0.0) + EXPLICIT_WEIGHT * max(min(conf, 1.0), 0.05)
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


_DESC_TO_CLAIM: dict[str, tuple[str, str]] = {}


def _desc_index() -> dict[str, tuple[str, str]]:
    if not _DESC_TO_CLAIM:
        for d in DIMS:
            for t in TIERS:
                _DESC_TO_CLAIM[tier_text(d, t).lower()] = (d, t)
    return _DESC_TO_CLAIM


_SUBJECT = re.compile(r"^\s*(U\d+)\s*-\s*")
_CLAIM = re.compile(r"^\s*" + _DIM_RE + r"\s*:\s*(.+?)\s*$", re.I)
_CHANGE = re.compile(r"^from (L|M|R)\b.*?\bto (L|M|R)\b")
_SESSION = re.compile(r"^\s*(Trajectory \d+)\s*$")


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
            ch = _CHANGE.match(rest)
            if ch:
                claims.append(Claim(subject, dim, change=(ch.group(1), ch.group(2))))
                continue
            hit = _desc_index().get(rest.strip().lower())
            if hit and hit[0] == dim:
                claims.append(Claim(subject, dim, tier=hit[1]))
            continue
        hit = _desc_index().get(seg.strip().lower())
        if hit and (not qdim or qdim.group(1) == hit[0]):
            claims.append(Claim(subject, hit[0], tier=hit[1]))
    return claims


# -- answering -----------------------------------------------------------------------------


def tie_break(question_id: str, candidates: list[int]) -> int:
    h = int(hashlib.sha256(question_id.encode()).hexdigest()[:8], 16)
    return candidates[h % len(candidates)]


def _session_outlier_scores(secs: Mapping[str, str], labels: list[str]) -> dict[str, float]:
    """Explicit anomaly statements first; otherwise how far each section's tiers sit from
    the others' (a reader comparing sessions side by side)."""
    scores: dict[str, float] = {}
    whole = secs.get("", "")
    for lab in labels:
        for line in whole.splitlines():
            if re.search(rf"\b{re.escape(lab)}\b", line) and ANOMALY_WORDS.search(line) and "not anomalous" not in line.lower():
                scores[lab] = scores.get(lab, 0.0) + 100.0
    for lab in labels:
        for m in re.finditer(rf"^{re.escape(lab)}: deviation[^\n]*?(-?[0-9]+(?:\.[0-9]+)?)", whole, re.M):
            scores[lab] = scores.get(lab, 0.0) + float(m.group(1))
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
    shift_stmts: list[tuple[str, str, str, str]] = []
    if any(cl.change for cs in parsed for cl in cs):
        for line in whole.splitlines():
            for m in EXPLICIT_SHIFT.finditer(line):
                shift_stmts.append((line, m.group(1).upper(), m.group(2).upper(), m.group(3).upper()))
    scores = []
    for claims in parsed:
        s = 0.0
        for cl in claims:
            if cl.session:
                s += outlier.get(cl.session, 0.0)
            elif cl.change:
                a, b = cl.change
                rank = 0
                for line, d, x, y in shift_stmts:
                    if target and target not in line:
                        continue
                    rank += 1  # statements in the order given: the first is the strongest
                    if d == cl.dim and (x, y) == (a, b):
                        s += 100.0 / rank
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
