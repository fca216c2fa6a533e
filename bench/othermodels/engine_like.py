"""An engine-like behaviour model, independent of our simulator.

Users who act out their tiers the way an agent engine would (one task per session, every
action logged), so the robustness bench does not only score our own simulator's habits.
Stdlib only; the output depends on the seed alone.

    python -m filegram.bench.othermodels.engine_like --seed 1701 --out DIR
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import math
import os
import random
import shutil
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path

__all__ = ["DEFAULT_SEED", "DEFAULT_USERS", "DESCRIPTION", "NAME", "generate", "main"]

NAME = "engine-like"
DESCRIPTION = (
    "An agent-engine-like model: one task per session, 24 sessions per user, every action "
    "type logged, three one-tier perturbed sessions per user."
)
DEFAULT_SEED = 1701
DEFAULT_USERS = 16

DIMS = "ABCDEF"
TIERS = "LMR"

# the 20 published profiles: our users must not copy any of them
PUBLISHED = {
    "LLLLLM", "LLRRLM", "MRRRMR", "MLMLRL", "RMMMRM", "RMLRMR", "LMMMML", "RRMLRR",
    "MMLMLL", "LRRRRM", "MLLLLR", "RLRLMM", "LMLMLL", "MRLLMR", "RLMMRM", "MMRMLR",
    "LLLLML", "RRRRLM", "MMRMMR", "LRMRRL",
}

# ---------------------------------------------------------------------------
# tasks (section 3 of the reference)
# ---------------------------------------------------------------------------
TASKS = {
    "T-01": ("understand", "AB", "finance"),
    "T-02": ("understand", "ABE", "legal"),
    "T-03": ("create", "BC", "knowledge"),
    "T-04": ("create", "BCF", "meeting"),
    "T-05": ("organize", "AC", "household"),
    "T-06": ("synthesize", "ABF", "research"),
    "T-07": ("synthesize", "AB", "diary"),
    "T-08": ("create", "BCF", "worklog"),
    "T-09": ("iterate", "DB", "report"),
    "T-10": ("maintain", "DCE", "knowledge"),
    "T-11": ("iterate", "DA", "report"),
    "T-12": ("iterate", "DC", "report"),
    "T-13": ("iterate", "DAE", "report"),
    "T-14": ("organize", "CD", "report"),
    "T-15": ("synthesize", "ADB", "research"),
    "T-16": ("understand", "AEBF", "ops"),
    "T-17": ("understand", "AC", "household"),
    "T-18": ("maintain", "DEC", "knowledge"),
    "T-19": ("iterate", "DB", "report"),
    "T-20": ("create", "BCE", "worklog"),
    "T-21": ("organize", "CAD", "household"),
    "T-22": ("understand", "AFB", "film"),
    "T-23": ("organize", "CFA", "travel"),
    "T-24": ("synthesize", "ABF", "finance"),
    "T-25": ("understand", "AFB", "legal"),
    "T-26": ("organize", "CAF", "household"),
    "T-27": ("create", "BFC", "portfolio"),
    "T-28": ("synthesize", "ABF", "pets"),
    "T-29": ("organize", "CDA", "registry"),
    "T-30": ("iterate", "DFA", "memo"),
    "T-31": ("create", "BFC", "nature"),
    "T-32": ("maintain", "DAF", "archive"),
}
PERT_CANDIDATES = ["T-12", "T-16", "T-18", "T-22", "T-24", "T-26", "T-29", "T-31"]

# input workspace layout: (subdir, ext, (min,max)); "MESSY" = special generator
INPUTS = {
    "T-01": [("", "md", (2, 3)), ("", "pdf", (1, 3)), ("mail", "eml", (2, 4)), ("", "xlsx", (1, 1)), ("", "csv", (0, 1))],
    "T-02": [("case", "pdf", (3, 5)), ("case", "docx", (1, 2)), ("", "eml", (2, 3)), ("", "txt", (1, 2)), ("", "ics", (0, 1))],
    "T-03": [],
    "T-04": [],
    "T-05": "MESSY",
    "T-06": [("sources", "pdf", (2, 4)), ("sources", "md", (2, 3)), ("", "csv", (1, 2)), ("", "png", (0, 2)), ("", "docx", (1, 1))],
    "T-07": [("diary", "txt", (4, 8)), ("", "md", (1, 3)), ("", "jpg", (0, 2))],
    "T-08": [("", "md", (1, 2)), ("", "xlsx", (0, 1)), ("", "ics", (0, 1)), ("", "txt", (0, 1))],
    "T-09": [("", "md", (1, 1)), ("", "txt", (0, 1))],
    "T-10": [("kb", "md", (4, 8)), ("inbox", "md", (2, 4))],
    "T-11": [("", "md", (3, 5)), ("", "csv", (1, 2))],
    "T-12": [("docs", "md", (4, 7)), ("", "md", (1, 1))],
    "T-13": [("", "md", (1, 2)), ("review", "txt", (1, 3)), ("", "docx", (0, 1))],
    "T-14": "VERSIONS",
    "T-15": [("reports", "pdf", (2, 3)), ("reports", "md", (1, 2)), ("", "csv", (1, 1))],
    "T-16": [("inbox", "eml", (4, 8)), ("", "md", (1, 2)), ("", "pdf", (1, 2)), ("", "png", (0, 2)), ("", "xlsx", (0, 1))],
    "T-17": "MESSY",
    "T-18": [("kb", "md", (5, 9)), ("updates", "md", (3, 3))],
    "T-19": [("", "md", (1, 1)), ("", "txt", (0, 1))],
    "T-20": [],
    "T-21": "MESSY",
    "T-22": [("films", "mp4", (2, 4)), ("posters", "jpg", (3, 6)), ("", "csv", (0, 1)), ("", "txt", (2, 4))],
    "T-23": [("", "jpg", (10, 20)), ("", "png", (0, 3)), ("", "txt", (0, 2))],
    "T-24": [("", "mp3", (1, 2)), ("", "pdf", (1, 3)), ("", "xlsx", (0, 1)), ("", "md", (0, 1))],
    "T-25": [("evidence", "jpg", (2, 5)), ("evidence", "mp3", (1, 2)), ("evidence", "mp4", (0, 2)), ("", "pdf", (2, 3)), ("", "txt", (1, 2))],
    "T-26": "MESSY",
    "T-27": [("", "jpg", (2, 5)), ("", "txt", (1, 2)), ("", "pdf", (0, 2))],
    "T-28": [("", "txt", (2, 4)), ("", "pdf", (1, 2)), ("", "jpg", (1, 4)), ("", "csv", (0, 1)), ("", "eml", (0, 2))],
    "T-29": [("scans", "pdf", (12, 28)), ("", "xlsx", (0, 1)), ("", "csv", (0, 1))],
    "T-30": [("memos", "mp3", (3, 7)), ("memos", "txt", (2, 5))],
    "T-31": [("clips", "mp4", (4, 9)), ("", "txt", (0, 2))],
    "T-32": [("archive", "pdf", (2, 4)), ("archive", "jpg", (2, 5)), ("archive", "mp3", (0, 2)), ("", "md", (1, 1)), ("", "csv", (1, 1))],
}

TEXT_EXT = {"md", "txt", "eml", "csv", "json", "ics", "svg", "yaml", "tsv"}
DOC_EXT = {"pdf", "docx", "xlsx"}
MEDIA_EXT = {"png", "jpg", "mp3", "mp4"}

# ---------------------------------------------------------------------------
# vocabularies
# ---------------------------------------------------------------------------
V = {
    "finance": dict(
        ents=["Halvorsen Capital", "Brightwater Fund", "Oakridge Holdings", "Meridian Retail", "Sunvale Energy", "Kestrel Logistics", "Northgate Bank", "Lumen Pharma"],
        nouns=["portfolio", "position", "allocation", "exposure", "margin", "guidance", "valuation", "dividend", "cash flow", "balance sheet", "hedge", "drawdown"],
        metrics=["revenue", "EBITDA", "free cash flow", "net margin", "EPS", "operating income", "capex"],
        bases=["portfolio overview", "q3 positions", "analyst notes", "client call", "market outlook", "risk memo", "sector comparison", "earnings summary", "watchlist", "fund factsheet", "earnings call", "investor deck"],
        cols=["Company", "Ticker", "Revenue", "Margin", "Rating", "Change"],
        queries=["guidance", "EBITDA", "downgrade", "exposure", "Q3", "dividend", "margin"],
        outs=["analyst overview", "work summary", "earnings notes", "call analysis", "investment brief"]),
    "legal": dict(
        ents=["the claimant", "the respondent", "Marlow & Pike LLP", "the county court", "Ms. Okonkwo", "Mr. Feld", "Harbor Insurance", "the landlord"],
        nouns=["deposition", "exhibit", "affidavit", "hearing", "motion", "settlement offer", "witness statement", "contract clause", "deadline", "invoice", "photo evidence", "recording"],
        metrics=["damages", "claimed amount", "filing fee", "settlement figure"],
        bases=["complaint", "witness statement", "lease agreement", "correspondence", "exhibit list", "hearing notice", "expert report", "timeline draft", "evidence log", "insurance letter"],
        cols=["Date", "Event", "Source", "Party", "Status"],
        queries=["hearing", "deadline", "exhibit", "signed", "breach", "notice"],
        outs=["case timeline", "case review", "evidence review", "matter summary"]),
    "knowledge": dict(
        ents=["Zettel index", "reading list", "Python notes", "home lab", "language study", "cooking log", "garden plan", "photography"],
        nouns=["concept", "note", "reference", "tag", "topic", "link", "summary", "idea", "source", "glossary entry", "how-to", "checklist"],
        metrics=["notes", "links", "open questions", "stale pages"],
        bases=["index", "python basics", "reading list", "ideas", "recipes", "git cheatsheet", "book notes", "home network", "inbox note", "weekly review"],
        cols=["Topic", "Note", "Tags", "Updated", "Status"],
        queries=["TODO", "tag:", "link", "draft", "revisit", "#idea"],
        outs=["knowledge base", "kb index", "notes hub", "topic map"]),
    "meeting": dict(
        ents=["the product team", "Ravi", "Lena", "facilities", "the vendor", "finance", "design", "the steering group"],
        nouns=["agenda item", "decision", "action item", "follow-up", "owner", "deadline", "budget line", "risk", "dependency", "milestone", "blocker", "proposal"],
        metrics=["open actions", "budget", "headcount", "days to launch"],
        bases=["agenda"], cols=["Action", "Owner", "Due", "Status"],
        queries=["action", "owner"], outs=["meeting minutes", "follow ups", "action tracker", "minutes"]),
    "household": dict(
        ents=["the landlord", "the bank", "the school", "the clinic", "the car dealer", "the utility company", "the insurer", "the tax office"],
        nouns=["receipt", "statement", "warranty", "invoice", "photo", "scan", "contract", "certificate", "manual", "letter", "form", "backup"],
        metrics=["files", "duplicates", "folders", "total size"],
        bases=["bank statement", "tax return", "warranty card", "car insurance", "school letter", "passport scan", "electric bill", "rental contract", "recipe", "budget", "notes", "resume", "vacation plan", "medical record"],
        cols=["File", "Type", "Year", "Location", "Action"],
        queries=["invoice", "2023", "*.pdf", "copy", "scan", "final"],
        outs=["folder index", "cleanup log", "health check", "archive index", "readme"]),
    "research": dict(
        ents=["the WHO report", "Müller et al.", "the OECD survey", "the city council study", "a 2022 meta-analysis", "the field interviews", "Statista data", "the pilot program"],
        nouns=["finding", "sample", "trend", "limitation", "method", "estimate", "source", "indicator", "cohort", "survey response", "hypothesis", "recommendation"],
        metrics=["adoption rate", "response rate", "median income", "emission level", "uptake"],
        bases=["source review", "survey results", "interview notes", "policy brief", "literature notes", "dataset description", "pilot evaluation", "market study", "conflicting report", "field report"],
        cols=["Source", "Year", "Sample", "Estimate", "Confidence"],
        queries=["estimate", "sample size", "2021", "conflict", "method", "limitation"],
        outs=["research report", "synthesis", "reconciliation", "findings"]),
    "diary": dict(
        ents=["my sister", "the running club", "work", "Grandma", "the new apartment", "the piano lessons", "Tomas", "the weekend trip"],
        nouns=["habit", "mood", "goal", "routine", "memory", "worry", "hobby", "plan", "value", "friendship", "lesson", "milestone"],
        metrics=["hours of sleep", "runs", "books read", "pages written"],
        bases=["diary", "journal", "notes", "gratitude list", "goals", "letters"],
        cols=["Theme", "Evidence", "Frequency", "Notes"],
        queries=["happy", "tired", "goal", "family"], outs=["personal profile", "about me", "self portrait"]),
    "worklog": dict(
        ents=["the onboarding project", "customer support", "the Q2 release", "vendor migration", "the analytics team", "the hiring loop", "the budget review", "the office move"],
        nouns=["deliverable", "milestone", "status", "risk", "win", "lesson", "metric", "blocker", "priority", "plan", "request", "update"],
        metrics=["tickets closed", "hours", "budget used", "NPS", "on-time rate"],
        bases=["project notes", "timesheet", "goals", "calendar export", "status updates", "okr draft"],
        cols=["Week", "Item", "Status", "Owner", "Metric"],
        queries=["done", "blocked", "Q2"], outs=["quarterly summary", "weekly report", "status template", "report index"]),
    "report": dict(
        ents=["the operations team", "the pilot site", "procurement", "the regional office", "the auditors", "the client", "IT support", "the board"],
        nouns=["section", "finding", "recommendation", "figure", "appendix", "summary", "process", "cost estimate", "timeline", "risk", "stakeholder", "assumption"],
        metrics=["cost", "cycle time", "defect rate", "satisfaction score", "throughput"],
        bases=["annual report", "project report", "style guide", "review comments", "feedback", "process doc", "onboarding guide", "policy", "faq", "handbook", "report"],
        cols=["Item", "Before", "After", "Owner", "Note"],
        queries=["TODO", "typo", "figure", "2023", "inconsistent", "##"],
        outs=["revised report", "executive brief", "changes", "report"]),
    "ops": dict(
        ents=["the CFO", "a key customer", "IT security", "the warehouse", "HR", "legal", "the vendor", "the sales lead"],
        nouns=["request", "deadline", "incident", "approval", "escalation", "invoice", "contract renewal", "priority", "outage", "complaint", "reminder", "meeting"],
        metrics=["hours left", "open items", "overdue items", "amount"],
        bases=["urgent", "reminder", "request", "invoice", "incident report", "calendar", "todo", "board memo", "contract"],
        cols=["Item", "Priority", "Due", "Owner", "Effort"],
        queries=["urgent", "today", "deadline", "ASAP", "overdue"], outs=["triage", "priority list", "today plan"]),
    "film": dict(
        ents=["Kurosawa", "Agnès Varda", "Wong Kar-wai", "Céline Sciamma", "Bong Joon-ho", "Kelly Reichardt", "Satyajit Ray", "Hitchcock"],
        nouns=["film", "director", "genre", "runtime", "rating", "poster", "release year", "cinematography", "score", "cast", "theme", "edition"],
        metrics=["runtime", "rating", "year", "watch count"],
        bases=["film list", "watch notes", "reviews", "collection", "wishlist"],
        cols=["Title", "Director", "Year", "Genre", "Rating"],
        queries=["director", "1960", "drama", "rating"], outs=["film catalogue", "collection guide", "catalogue"]),
    "travel": dict(
        ents=["Lisbon", "Kyoto", "the Dolomites", "Marrakesh", "Reykjavik", "the coast road", "Porto", "Hakone"],
        nouns=["photo", "album", "day", "location", "sunset", "museum", "hike", "market", "street", "beach", "train", "meal"],
        metrics=["photos", "days", "km walked", "locations"],
        bases=["trip notes", "itinerary", "captions"], cols=["Photo", "Date", "Place", "Caption"],
        queries=["IMG_", "2024", "*.jpg"], outs=["album", "trip album", "photo index"]),
    "portfolio": dict(
        ents=["the design studio course", "the robotics club", "the history essay", "the summer internship", "the art exhibition", "the science fair", "the volunteer project", "the thesis"],
        nouns=["project", "skill", "artwork", "reflection", "award", "course", "sketch", "prototype", "essay", "result", "mentor", "goal"],
        metrics=["projects", "awards", "hours", "grade"],
        bases=["cv notes", "project descriptions", "transcript", "reflection"], cols=["Project", "Year", "Skills", "Outcome"],
        queries=["project", "award"], outs=["portfolio", "student portfolio", "showcase"]),
    "pets": dict(
        ents=["Biscuit", "Luna", "the vet clinic", "Dr. Amari", "the groomer", "the pet sitter", "the insurer", "the breeder"],
        nouns=["vaccination", "diet", "walk", "weight", "allergy", "medication", "checkup", "feeding schedule", "toy", "training", "symptom", "appointment"],
        metrics=["weight", "meals per day", "walk minutes", "dose"],
        bases=["vet record", "feeding notes", "sitter instructions", "insurance policy", "training log", "vet email"],
        cols=["Date", "Event", "Detail", "Next due"],
        queries=["vaccine", "allergy", "dose", "weight"], outs=["pet care guide", "care handbook", "pet dossier"]),
    "registry": dict(
        ents=["Arbor Tech Ltd", "Nordlicht GmbH", "Pacific Rim Foods", "Casa Verde SL", "Bluepeak Ventures", "Ironwood Supplies", "Solace Health", "Tandem Freight"],
        nouns=["registration", "company number", "director", "registered address", "filing", "share capital", "incorporation date", "status", "jurisdiction", "certificate", "amendment", "annual return"],
        metrics=["share capital", "directors", "filings"],
        bases=["registration", "certificate", "annual return", "incorporation", "amendment"], cols=["Company", "Number", "Jurisdiction", "Incorporated", "Status"],
        queries=["incorporated", "company number", "director", "*.pdf"], outs=["company register", "registry database", "company index"]),
    "memo": dict(
        ents=["the client call", "the garden project", "the book idea", "the kitchen renovation", "the team offsite", "the podcast", "the grant proposal", "the move"],
        nouns=["memo", "idea", "reminder", "quote", "task", "question", "transcript", "timestamp", "decision", "note", "follow-up", "topic"],
        metrics=["memos", "minutes", "tasks"],
        bases=["voice memo", "recording", "transcript", "memo"], cols=["Memo", "Date", "Length", "Topic", "Action"],
        queries=["todo", "remember", "call"], outs=["memo index", "memo digest", "transcripts"]),
    "nature": dict(
        ents=["the kingfisher", "the red deer", "the tide pools", "the beech forest", "the alpine meadow", "the heron colony", "the night sky", "the river delta"],
        nouns=["clip", "shot", "species", "location", "season", "sequence", "narration", "highlight", "timestamp", "behaviour", "habitat", "weather"],
        metrics=["clips", "minutes", "species"],
        bases=["clip notes", "shot list"], cols=["Clip", "Species", "Location", "Length", "Rating"],
        queries=["deer", "*.mp4"], outs=["video collection", "curation notes", "collection"]),
    "archive": dict(
        ents=["the 1962 exhibition", "the founder's letters", "the harbour photos", "the oral history set", "the donor file", "the map collection", "the ceramics catalogue", "the textile loan"],
        nouns=["item", "record", "catalogue entry", "scan", "caption", "accession number", "date", "provenance", "recording", "mismatch", "checksum", "metadata"],
        metrics=["items", "mismatches", "missing captions"],
        bases=["catalogue", "accession", "scan", "letter", "inventory", "index"], cols=["Item", "Accession", "Media", "Caption ok", "Note"],
        queries=["accession", "missing", "caption", "1962"], outs=["consistency report", "archive audit", "catalogue check"]),
}

PERIODS = ["Q1", "Q2", "Q3", "last quarter", "March", "April", "the first half", "FY2024", "last week", "this month", "2023", "the pilot phase"]
TRENDS = ["rose", "fell", "stayed flat", "improved", "slipped", "recovered", "doubled", "declined sharply"]
ADJS = ["key", "main", "open", "critical", "minor", "recurring", "unexpected", "overdue", "new", "shared"]
VERBS = ["review", "confirm", "update", "check", "clarify", "document", "escalate", "compare", "archive", "summarise", "track", "verify"]
CONNECT = ["however", "in addition", "as a result", "by contrast", "notably", "for now", "in practice", "overall"]

EN_TEMPL = [
    "{Ent} reported {metric} of {num} for {period}, which {trend} compared with the previous period.",
    "The {adj} {noun} concerns {ent2}, and we still need to {verb} the {noun2}.",
    "{Noun} and {noun2} are linked: {ent} mentioned this in the {base}.",
    "We should {verb} the {noun} before {period} so that the {noun2} does not become a problem.",
    "According to the {base}, the {metric} {trend} by {pct}% during {period}.",
    "There are {n} {adj} items about {noun}; {n2} of them involve {ent}.",
    "{Connect}, the {noun} for {ent} remains the {adj} question.",
    "The {noun2} was discussed with {ent2}, who asked us to {verb} it by {period}.",
    "A second look at the {base} shows {n} references to {noun}.",
    "{Ent2} expects the {metric} to reach {num} once the {noun} is settled.",
]
ZH_TEMPL = [
    "{ent}在{period_zh}的{metric}为{num},与上期相比{trend_zh}。",
    "关于{noun}的问题仍需进一步{verb_zh},目前共有{n}项待处理。",
    "根据{base},{noun}和{noun2}之间存在明显关联。",
    "建议在{period_zh}之前完成{noun}的{verb_zh}工作。",
    "{ent2}提到{noun2}的情况,需要结合{base}再次核对。",
    "整体来看,{metric}变化约为{pct}%,{trend_zh}。",
    "本部分记录了{n}条与{noun}相关的要点。",
    "需要注意的是,{noun}可能影响后续安排。",
]
ZH_PERIODS = ["第一季度", "第二季度", "上个季度", "三月", "四月", "上半年", "2024财年", "上周", "本月", "2023年", "试点阶段"]
ZH_TREND = ["有所上升", "有所下降", "基本持平", "明显改善", "略有下滑"]
ZH_VERB = ["核实", "整理", "更新", "确认", "跟进", "汇总"]
ZH_HEAD = ["概述", "背景", "主要发现", "细节", "时间线", "问题与风险", "建议", "后续行动", "附录", "数据说明", "总结", "参考资料"]
EN_HEAD = ["Overview", "Background", "Key findings", "Details", "Timeline", "Issues and risks", "Recommendations", "Next steps",
           "Appendix", "Data notes", "Summary", "Sources", "Open questions", "Context", "Method", "Highlights", "Decisions",
           "Follow-ups", "Scope", "Assumptions", "Notes"]

FIRST_NAMES = ["mara", "jonas", "keiko", "dev", "ilse", "omar", "tessa", "ruben", "ana", "felix", "nadia", "lukas",
               "wen", "priyanka", "theo", "sol", "hana", "bo", "yusuf", "clara"]


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
def h16(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def cap(s):
    return s[:1].upper() + s[1:] if s else s


def style_name(base: str, style: str, rng, ext: str) -> str:
    words = base.replace("-", " ").replace("_", " ").split()
    if style == "snake":
        n = "_".join(w.lower() for w in words)
    elif style == "kebab":
        n = "-".join(w.lower() for w in words)
    elif style == "camel":
        n = "".join(cap(w) for w in words)
    elif style == "dated":
        n = f"{rng.choice(['2025-03', '2025-04', '250311', '2025-05-02', '0412'])}_{'_'.join(w.lower() for w in words)}"
    else:  # lowercase joined
        n = "".join(w.lower() for w in words)
    return f"{n}.{ext}" if ext else n


def name_style_of(name: str) -> str:
    stem = name.rsplit(".", 1)[0]
    if "_" in stem and "-" not in stem:
        return "snake"
    if "-" in stem and "_" not in stem:
        return "kebab"
    if any(c.isupper() for c in stem) and " " not in stem and "_" not in stem and "-" not in stem:
        return "camel"
    if stem.islower() and "_" not in stem and "-" not in stem:
        return "lower"
    return "mixed"


def pattern_change(old: str, new: str) -> str:
    a, b = name_style_of(old), name_style_of(new)
    if a == b:
        return "other"
    if (a, b) == ("snake", "kebab"):
        return "snake_to_kebab"
    if (a, b) == ("kebab", "snake"):
        return "kebab_to_snake"
    if "camel" in (a, b) or (a == "lower" or b == "lower"):
        return "case_change"
    return "mixed_to_other"


class Vocab:
    def __init__(self, rng, topic, lang, verb):
        self.rng, self.t, self.lang, self.verb = rng, V[topic], lang, verb

    def fill(self):
        r, t = self.rng, self.t
        return dict(
            ent=r.choice(t["ents"]), Ent=cap(r.choice(t["ents"])), ent2=r.choice(t["ents"]), Ent2=cap(r.choice(t["ents"])),
            noun=r.choice(t["nouns"]), Noun=cap(r.choice(t["nouns"])), noun2=r.choice(t["nouns"]),
            metric=r.choice(t["metrics"]), num=self.num(), pct=r.randint(2, 48), period=r.choice(PERIODS),
            trend=r.choice(TRENDS), period_zh=r.choice(ZH_PERIODS), adj=r.choice(ADJS), verb=r.choice(VERBS), base=r.choice(t["bases"]),
            n=r.randint(2, 14), n2=r.randint(1, 5), Connect=cap(r.choice(CONNECT)),
            trend_zh=r.choice(ZH_TREND), verb_zh=r.choice(ZH_VERB))

    def num(self):
        r = self.rng
        k = r.random()
        if k < 0.4:
            return f"{r.choice(['$', '€', ''])}{r.uniform(0.3, 90):.1f}m"
        if k < 0.7:
            return str(r.randint(3, 950))
        return f"{r.uniform(0.5, 60):.1f}%"

    def sentence(self):
        tpl = self.rng.choice(ZH_TEMPL if self.lang == "zh" else EN_TEMPL)
        s = tpl.format(**self.fill())
        # verbose writers tack on clauses
        extra = 0
        x = self.verb - 0.7
        while x > 0 and self.rng.random() < min(0.8, x):
            extra += 1
            x -= 0.6
        for _ in range(extra):
            f = self.fill()
            if self.lang == "zh":
                s = s[:-1] + f",同时{f['noun2']}也需要{f['verb_zh']}。"
            else:
                s = s[:-1] + f", {self.rng.choice(CONNECT)} the {f['noun2']} for {f['ent']} still needs a closer look."
        return s

    def paragraph(self, lo=1, hi=3):
        n = max(1, int(round(self.rng.uniform(lo, hi) * (0.6 + 0.4 * self.verb))))
        return (" " if self.lang != "zh" else "").join(self.sentence() for _ in range(n))

    def bullet(self):
        f = self.fill()
        if self.lang == "zh":
            what = self.rng.choice([f"待{f['verb_zh']}", f"{f['metric']} {f['num']}", f"负责人 {f['ent']}"])
            return f"{f['noun']}:{what}"
        opts = [f"{cap(f['noun'])}: {f['verb']} by {f['period']}",
                f"{cap(f['metric'])} {f['trend']} ({f['num']})",
                f"{cap(f['ent'])} -- {f['noun2']}",
                f"{cap(f['verb'])} {f['noun']} for {f['ent2']}"]
        b = self.rng.choice(opts)
        if self.verb > 1.4 and self.rng.random() < 0.5:
            b += "; " + self.sentence()[:-1].lower()
        return b

    def heading(self, used):
        pool = ZH_HEAD if self.lang == "zh" else EN_HEAD
        c = [h for h in pool if h not in used] or pool
        h = self.rng.choice(c)
        used.add(h)
        if self.rng.random() < 0.35 and self.lang != "zh":
            h = f"{h}: {self.rng.choice(self.t['nouns'])}"
        return h

    def cell(self, col, i):
        r = self.rng
        cl = col.lower()
        if cl in ("date", "updated", "incorporated", "next due", "due"):
            return f"2025-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"
        if cl in ("year",):
            return str(r.randint(1950, 2025))
        if cl in ("revenue", "estimate", "margin", "change", "amount", "metric", "before", "after", "sample", "length", "effort", "share capital"):
            return self.num()
        if cl in ("status", "caption ok", "action"):
            return r.choice(["open", "done", "pending", "ok", "check", "blocked", "yes", "no"])
        if cl in ("rating", "priority", "confidence"):
            return r.choice(["high", "medium", "low", "4/5", "3/5", "5/5", "A", "B"])
        if cl in ("number", "accession", "ticker"):
            return f"{r.choice(['C', 'AC', 'X', 'N'])}{r.randint(10, 99999):05d}"
        if cl in ("company", "party", "owner", "director", "source", "ent"):
            return r.choice(self.t["ents"])
        if cl in ("photo", "clip", "memo", "file"):
            return f"{r.choice(['IMG', 'clip', 'memo', 'doc'])}_{r.randint(1, 9999):04d}"
        return r.choice(self.t["nouns"] + self.t["bases"])

    def table(self, rows):
        cols = list(self.t["cols"])
        if len(cols) > 3 and self.rng.random() < 0.4:
            cols = cols[: self.rng.randint(3, len(cols))]
        out = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
        for i in range(rows):
            out.append("| " + " | ".join(self.cell(c, i) for c in cols) + " |")
        return out

    def csv(self, rows):
        cols = list(self.t["cols"]) + self.rng.sample(["notes", "id", "score", "category", "updated"], self.rng.randint(0, 2))
        out = [",".join(c.lower().replace(" ", "_") for c in cols)]
        for i in range(rows):
            out.append(",".join(f'"{self.cell(c, i)}"' if "," in self.cell(c, i) else self.cell(c, i) for c in cols))
        return "\n".join(out) + "\n"

    def json_records(self, rows):
        cols = [c.lower().replace(" ", "_") for c in self.t["cols"]]
        recs = [{c: self.cell(c, i) for c in cols} for i in range(rows)]
        return json.dumps(recs, indent=2, ensure_ascii=False) + "\n"


def md_document(vo, title, n_lines, depth, bullet_share, n_tables, images, numbered=False, toc=False, table_rows=(4, 9)):
    """A markdown document of roughly n_lines lines."""
    r = vo.rng
    lines = ["# " + title, ""]
    if toc:
        pool = ZH_HEAD if vo.lang == "zh" else EN_HEAD
        lines += ["目录:" if vo.lang == "zh" else "Contents:"] + [f"{i + 1}. {h}" for i, h in enumerate(r.sample(pool, 4))] + [""]
    lines += [vo.paragraph(1, 2), ""]
    used = set()
    sec = 0
    tables_left, imgs = n_tables, list(images)
    while len(lines) < n_lines:
        sec += 1
        h = vo.heading(used)
        if depth >= 2:
            lines += [f"## {sec}. {h}" if numbered else "## " + h, ""]
        else:
            lines += [f"**{h}**", ""] if r.random() < 0.5 else []
        nsub = r.randint(1, 3) if depth >= 3 else 1
        for si in range(nsub):
            if depth >= 3 and nsub > 1:
                lines += [f"### {sec}.{si + 1} {vo.heading(used)}" if numbered else "### " + vo.heading(used), ""]
            if depth >= 4 and r.random() < 0.45:
                lines += ["#### " + vo.heading(used), ""]
            blocks = r.randint(1, 3)
            for _ in range(blocks):
                if r.random() < bullet_share:
                    for _ in range(r.randint(2, 6)):
                        lines.append(("- " if r.random() < 0.8 else "  - ") + vo.bullet())
                    lines.append("")
                else:
                    lines += [vo.paragraph(), ""]
            if tables_left > 0 and r.random() < 0.5:
                lines += vo.table(r.randint(*table_rows)) + [""]
                tables_left -= 1
            if imgs and r.random() < 0.5:
                p = imgs.pop(0)
                lines += [f"![{vo.heading(set())}]({p})", ""]
            if len(lines) >= n_lines:
                break
    while tables_left > 0:
        lines += vo.table(r.randint(*table_rows)) + [""]
        tables_left -= 1
    for p in imgs:
        lines += [f"![figure]({p})", ""]
    return "\n".join(lines).rstrip() + "\n"


def bullets_document(vo, title, n_lines, heading=True):
    lines = (["# " + title, ""] if heading else [])
    while len(lines) < n_lines:
        lines.append("- " + vo.bullet())
        if vo.rng.random() < 0.12:
            lines += ["", f"**{vo.heading(set())}**" if vo.rng.random() < 0.5 else ""]
    return "\n".join(lines).rstrip() + "\n"


def svg_chart(rng, title):
    n = rng.randint(3, 8)
    bars = []
    for i in range(n):
        hgt = rng.randint(20, 180)
        bars.append(f'  <rect x="{40 + i * 45}" y="{200 - hgt}" width="30" height="{hgt}" fill="#{rng.randint(0, 0xFFFFFF):06x}"/>')
        bars.append(f'  <text x="{42 + i * 45}" y="215" font-size="10">c{i + 1}</text>')
    body = "\n".join(bars)
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="{60 + n * 45}" height="230">\n  <title>{title}</title>\n{body}\n</svg>\n'


def png_bytes(rng, size):
    # PNG signature + pseudo-random payload with NULs (binary; never stored as text)
    return b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + rng.randbytes(max(64, size - 16))


# ---------------------------------------------------------------------------
# users
# ---------------------------------------------------------------------------
def make_users(rng, n=16):
    while True:
        cols = {}
        for d in DIMS:
            lst = list("LLLLMMMMRRRR") + [rng.choice(TIERS) for _ in range(n - 12)]
            rng.shuffle(lst)
            cols[d] = lst
        combos = ["".join(cols[d][i] for d in DIMS) for i in range(n)]
        if len(set(combos)) == n and not (set(combos) & PUBLISHED):
            break
    users = []
    names = rng.sample(FIRST_NAMES, n)
    for i in range(n):
        uid = f"a{i:02d}"
        tiers = {d: cols[d][i] for d in DIMS}
        users.append(dict(
            uid=uid, tiers=tiers, home=names[i],
            verb=math.exp(rng.uniform(math.log(0.4), math.log(2.5))),
            activity=math.exp(rng.uniform(math.log(0.55), math.log(1.7))),
            noise=rng.uniform(0.10, 0.25),
            incidental=rng.uniform(0.25, 0.5),
            lang="zh" if rng.random() < 0.2 else "en",
            naming=rng.choice(["snake", "snake", "kebab", "camel", "dated", "lower"]),
            tempo=math.exp(rng.uniform(-0.5, 0.6)),
            p_switch=rng.uniform(0.55, 0.95),
            p_xref=rng.uniform(0.45, 0.9),
            start=1738573200000.0 + rng.uniform(0, 40) * 86400000.0,
        ))
    return users


def neighbour(rng, t):
    if t == "M":
        return rng.choice("LR")
    return "M"


# ---------------------------------------------------------------------------
# session model
# ---------------------------------------------------------------------------
class Session:
    def __init__(self, user, sid, task_id, eff, rng, k, t0):
        self.u, self.sid, self.tid, self.eff, self.rng, self.k = user, sid, task_id, eff, rng, k
        self.ttype, self.dims, topic = TASKS[task_id]
        self.topic = topic
        self.vo = Vocab(rng, topic, user["lang"], user["verb"])
        self.ws = f"/home/{user['home']}/projects/{sid}"
        self.t = t0
        self.events = []
        self.blobs = {}
        self.diffs = {}
        self.files = {}   # rel -> dict
        self.dirs = {""}
        self.read_n = {}
        self.last_read = {}
        self.focus = None
        self.focus_t = None
        self.focus_kind = None
        self.switches = 0
        self.created = []
        self.datestr = time.strftime("%Y-%m-%d", time.gmtime(t0 / 1000.0))

    # -- basics --------------------------------------------------------------
    def p(self, rel):
        return self.ws + ("/" + rel if rel else "")

    def adv(self, lo, hi):
        self.t += self.rng.uniform(lo, hi) * 1000.0 * self.u["tempo"]

    def ev(self, etype, **f):
        e = {"event_id": str(uuid.UUID(int=self.rng.getrandbits(128), version=4)), "event_type": etype,
             "timestamp": round(self.t, 3), "session_id": self.sid, "profile_id": self.u["uid"],
             "message_id": None, "model_provider": None, "model_name": None}
        e.update(f)
        self.events.append(e)
        return e

    @staticmethod
    def depth(rel):
        return rel.count("/")

    @staticmethod
    def ext(rel):
        return rel.rsplit(".", 1)[-1].lower() if "." in rel.rsplit("/", 1)[-1] else ""

    def name(self, base, ext, style=None):
        st = style or (self.u["naming"] if self.rng.random() > 0.12 else self.rng.choice(["snake", "kebab", "lower"]))
        if st == "dated":
            words = base.replace("-", " ").replace("_", " ").split()
            n = f"{self.datestr}_{'_'.join(w.lower() for w in words)}"
            return f"{n}.{ext}" if ext else n
        return style_name(base, st, self.rng, ext)

    def focus_on(self, rel, trigger, ref=None, kind="read"):
        """derived context_switch / cross_file_reference before a file-focused action"""
        prev_kind, self.focus_kind = self.focus_kind, kind
        if ref == "read_then_edit" and prev_kind != "read":
            ref = None
        if ref == "sequential_access" and prev_kind not in ("read", None):
            ref = None if self.rng.random() < 0.7 else ref
        if self.focus is not None and rel != self.focus:
            gap = self.t - (self.focus_t or self.t)
            if self.rng.random() < self.u["p_switch"]:
                self.switches += 1
                self.t += self.rng.uniform(50, 400)
                self.ev("context_switch", from_file=self.p(self.focus), to_file=self.p(rel), trigger=trigger,
                        switch_count=self.switches)
            if ref and self.rng.random() < self.u["p_xref"]:
                self.t += self.rng.uniform(20, 200)
                self.ev("cross_file_reference", source_file=self.p(self.focus), target_file=self.p(rel),
                        reference_type=ref, interval_ms=round(gap + self.rng.uniform(100, 900), 1))
        self.focus, self.focus_t = rel, self.t
        self.t += self.rng.uniform(100, 900)

    def store_blob(self, text):
        b = text.encode("utf-8")[: 1 << 20]
        h = h16(b)
        self.blobs[h] = b
        return h

    # -- filesystem ------------------------------------------------------------
    def add_input(self, rel, ext, lines, size, text=None, clutter=False, age_days=None):
        self.files[rel] = dict(ext=ext, lines=lines, size=size, text=text, input=True, clutter=clutter,
                               created=self.t - (age_days or self.rng.uniform(2, 400)) * 86400000.0, hash=None)
        parts = rel.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            self.dirs.add("/".join(parts[:i]))

    def text_of(self, rel):
        f = self.files[rel]
        if f["text"] is None:
            title = cap(rel.rsplit("/", 1)[-1].rsplit(".", 1)[0].replace("_", " ").replace("-", " "))
            f["text"] = md_document(self.vo, title, f["lines"], 3, 0.35, self.rng.randint(0, 1) if f["ext"] == "md" else 0, [])
            f["lines"] = f["text"].count("\n")
            f["size"] = len(f["text"])
        return f["text"]

    def browse(self, d):
        if self.events and self.events[-1]["event_type"] == "file_browse" and self.events[-1]["directory_path"] == self.p(d):
            return
        kids = [r for r in self.files if r.rsplit("/", 1)[0] == d or ("/" not in r and d == "")]
        sub = [x for x in self.dirs if x and (x.rsplit("/", 1)[0] if "/" in x else "") == d]
        self.adv(1, 6)
        self.ev("file_browse", directory_path=self.p(d), files_listed=len(kids) + len(sub), depth=(d.count("/") + 1) if d else 0)

    def read(self, rel, rng_=None, trigger="next_file", ref="sequential_access"):
        f = self.files[rel]
        self.adv(0.5, 2)
        self.focus_on(rel, trigger, ref)
        n = self.read_n.get(rel, 0) + 1
        self.read_n[rel] = n
        ext = f["ext"]
        if ext in MEDIA_EXT:
            vr = None
            cl = f["size"] if ext in ("png", "jpg") else self.rng.randint(1500, 18000)
            dur = self.rng.uniform(3, 20)
        else:
            lines = max(1, f["lines"])
            if rng_ is None:
                vr = [1, lines]
            else:
                a, b = rng_
                a = max(1, min(a, lines))
                b = max(a, min(b, lines))
                vr = [a, b]
            cl = int(f["size"] * (vr[1] - vr[0] + 1) / lines)
            dur = 1.5 + cl / 900.0
        self.t += dur * 1000 * self.u["tempo"]
        ri = None if n == 1 else round(self.t - self.last_read[rel], 1)
        self.ev("file_read", file_path=self.p(rel), file_type=ext, directory_depth=self.depth(rel), view_count=n,
                view_range=vr, content_length=cl, revisit_interval_ms=ri)
        self.last_read[rel] = self.t
        return n

    def search(self, stype, query, matched):
        self.adv(1, 5)
        self.focus_kind = "search"
        return self.ev("file_search", search_type=stype, query=query, files_matched=matched, files_opened_after=[])

    def mkdirs(self, rel):
        parts = rel.split("/")
        for i in range(1, len(parts) + 1):
            d = "/".join(parts[:i])
            if d in self.dirs:
                continue
            parent = "/".join(parts[: i - 1])
            sib = len([x for x in self.dirs if x and (x.rsplit("/", 1)[0] if "/" in x else "") == parent])
            self.adv(0.5, 3)
            self.ev("dir_create", dir_path=self.p(d), depth=i, sibling_count=sib)
            self.dirs.add(d)

    def write(self, rel, content, ref="read_then_edit", trigger="write_output"):
        """create or overwrite; content is str (text) or bytes (binary)."""
        ext = self.ext(rel)
        d = rel.rsplit("/", 1)[0] if "/" in rel else ""
        if d not in self.dirs:
            self.mkdirs(d)
        exists = rel in self.files
        before = self.files[rel]["hash"] if exists else None
        if exists and before is None and self.files[rel].get("text") is not None:
            before = h16(self.files[rel]["text"].encode("utf-8"))
        size = len(content) if isinstance(content, bytes) else len(content)
        self.adv(1, 4)
        self.focus_on(rel, trigger, ref, kind="write")
        self.adv(3, 8 + size / 400.0)
        if isinstance(content, bytes):
            ah = h16(content)
            mref = None
            text = None
            lines = 0
        else:
            ah = self.store_blob(content)
            mref = {"type": "blob", "hash": ah, "path": f"media/blobs/{ah}.blob"}
            text = content
            lines = content.count("\n")
        self.ev("file_write", file_path=self.p(rel), file_type=ext, directory_depth=self.depth(rel),
                operation="overwrite" if exists else "create", content_length=size, before_hash=before,
                after_hash=ah, media_ref=mref)
        if exists:
            self.files[rel].update(text=text, size=size, lines=lines, hash=ah)
        else:
            self.files[rel] = dict(ext=ext, lines=lines, size=size, text=text, input=False, clutter=False,
                                   created=self.t, hash=ah)
            self.created.append(rel)
        return rel

    def edit(self, rel, new_text, tool=None):
        old = self.text_of(rel)
        if new_text == old:
            return
        self.adv(1, 4)
        self.focus_on(rel, "edit_target", "read_then_edit", kind="edit")
        self.adv(2, 12)
        hb, ha = self.store_blob(old), self.store_blob(new_text)
        diff = "".join(difflib.unified_diff(old.splitlines(True), new_text.splitlines(True),
                                            "a/" + rel, "b/" + rel, n=2))
        db = diff.encode("utf-8")
        hd = h16(db)
        self.diffs[hd] = db
        add = sum(1 for ln in diff.splitlines() if ln.startswith("+") and not ln.startswith("+++"))
        dele = sum(1 for ln in diff.splitlines() if ln.startswith("-") and not ln.startswith("---"))
        self.ev("file_edit", file_path=self.p(rel), file_type=self.ext(rel),
                edit_tool=tool or self.rng.choice(["str_replace", "str_replace", "apply_patch", "insert"]),
                lines_added=add, lines_deleted=dele, lines_modified=min(add, dele), diff_summary=f"+{add} -{dele}",
                before_hash=hb, after_hash=ha,
                media_ref_old={"type": "blob", "hash": hb, "path": f"media/blobs/{hb}.blob"},
                media_ref_new={"type": "blob", "hash": ha, "path": f"media/blobs/{ha}.blob"},
                media_ref_diff={"type": "diff", "hash": hd, "path": f"media/diffs/{hd}.diff"})
        f = self.files[rel]
        f.update(text=new_text, lines=new_text.count("\n"), size=len(new_text), hash=ha)

    def copy(self, src, dst, backup):
        d = dst.rsplit("/", 1)[0] if "/" in dst else ""
        if d not in self.dirs:
            self.mkdirs(d)
        self.adv(1, 4)
        self.ev("file_copy", source_path=self.p(src), dest_path=self.p(dst), is_backup=backup)
        nf = dict(self.files[src])
        nf.update(input=False, created=self.t, clutter=False)
        self.files[dst] = nf

    def move(self, old, new):
        d = new.rsplit("/", 1)[0] if "/" in new else ""
        if d not in self.dirs:
            self.mkdirs(d)
        self.adv(0.8, 3)
        self.ev("file_move", old_path=self.p(old), new_path=self.p(new), destination_directory_depth=self.depth(new))
        self.files[new] = self.files.pop(old)
        self._rekey(old, new)

    def rename(self, old, new):
        self.adv(0.8, 3)
        self.ev("file_rename", old_path=self.p(old), new_path=self.p(new),
                naming_pattern_change=pattern_change(old.rsplit("/", 1)[-1], new.rsplit("/", 1)[-1]))
        self.files[new] = self.files.pop(old)
        self._rekey(old, new)

    def _rekey(self, old, new):
        for m in (self.read_n, self.last_read):
            if old in m:
                m[new] = m.pop(old)
        if self.focus == old:
            self.focus = new
        self.created = [new if c == old else c for c in self.created]

    def delete(self, rel, temp):
        f = self.files.pop(rel)
        self.adv(0.5, 3)
        self.ev("file_delete", file_path=self.p(rel), file_age_ms=round(self.t - f["created"], 1), was_temporary=temp)
        self.created = [c for c in self.created if c != rel]


# ---------------------------------------------------------------------------
# workspace inputs
# ---------------------------------------------------------------------------
EXT_LINES = {"md": (30, 220), "txt": (12, 150), "eml": (12, 60), "pdf": (80, 900), "docx": (50, 400), "csv": (20, 600),
             "xlsx": (40, 500), "ics": (10, 80), "json": (20, 200)}
EXT_SIZE = {"jpg": (600_000, 4_500_000), "png": (40_000, 900_000), "mp3": (900_000, 14_000_000), "mp4": (20_000_000, 400_000_000)}


def build_inputs(S):
    r, tv = S.rng, V[S.topic]
    spec = INPUTS[S.tid]
    used = set()

    def uniq(rel):
        base, dot, ext = rel.rpartition(".")
        i = 2
        while rel in used:
            rel = f"{base}_{i}.{ext}"
            i += 1
        used.add(rel)
        return rel

    def add(rel, ext, clutter=False):
        rel = uniq(rel)
        if ext in MEDIA_EXT:
            S.add_input(rel, ext, 0, r.randint(*EXT_SIZE[ext]), clutter=clutter)
        else:
            n = r.randint(*EXT_LINES.get(ext, (20, 100)))
            S.add_input(rel, ext, n, int(n * r.uniform(40, 85)), clutter=clutter)
        return rel

    if spec == "MESSY":
        n = max(8, int(r.randint(10, 22) * min(1.3, S.k)))
        subs = r.sample(["New Folder", "stuff", "Downloads", "old", "misc", "Desktop copy"], r.randint(1, 3))
        for _ in range(n):
            ext = r.choice(["pdf", "pdf", "docx", "jpg", "jpg", "png", "xlsx", "txt", "md", "csv", "mp3"])
            base = r.choice(tv["bases"])
            style = r.choice(["snake", "kebab", "camel", "lower", "dated"])
            nm = style_name(base, style, r, ext)
            if ext in ("jpg", "png") and r.random() < 0.6:
                nm = f"{r.choice(['IMG', 'DSC', 'Screenshot'])}_{r.randint(1, 9999):04d}.{ext}"
            if r.random() < 0.15:
                nm = nm.replace(".", " FINAL.", 1) if r.random() < 0.5 else nm.replace(".", "_v2.", 1)
            d = r.choice(subs) + "/" if r.random() < 0.3 else ""
            add(d + nm, ext)
        # clutter: duplicates and junk
        originals = list(S.files)
        for _ in range(r.randint(2, 5)):
            o = r.choice(originals)
            stem, ext = o.rsplit(".", 1)
            kind = r.random()
            if kind < 0.4:
                rel = f"{stem} (1).{ext}"
            elif kind < 0.7:
                rel = f"Copy of {stem.rsplit('/', 1)[-1]}.{ext}"
            else:
                lock = f"~${r.choice(tv['bases']).replace(' ', '')}.docx"
                rel = r.choice([lock, "temp_export.csv", "untitled.txt", "download.tmp", "Thumbs.db"])
                ext = rel.rsplit(".", 1)[-1]
            rel = add(rel, ext, clutter=True)
            S.files[rel]["dup_of"] = o
        return
    if spec == "VERSIONS":
        base = r.choice(["project report", "annual report", "handbook", "policy"])
        for v in range(1, r.randint(4, 7)):
            ext = r.choice(["md", "md", "docx"])
            nm = style_name(f"{base} v{v}", r.choice(["snake", "kebab", "lower"]), r, ext)
            add(nm, ext)
        for nm in r.sample([f"{base} final.docx", f"{base} FINAL2.docx", f"{base} old.md", f"{base} backup.md"], 2):
            add(nm.replace(" ", "_"), nm.rsplit(".", 1)[-1], clutter=True)
        add("notes.txt", "txt")
        return
    for sub, ext, (lo, hi) in spec:
        cnt = r.randint(lo, hi)
        if hi >= 6:
            cnt = max(lo, int(round(cnt * min(1.2, S.k))))
        for i in range(cnt):
            if ext in ("jpg", "png") and S.topic in ("travel", "legal", "archive", "film", "pets", "portfolio"):
                nm = f"{r.choice(['IMG', 'DSC', 'scan', 'photo'])}_{r.randint(1, 9999):04d}.{ext}"
            elif ext == "mp3":
                nm = f"{r.choice(['memo', 'recording', 'call', 'audio'])}_{i + 1:02d}.mp3"
            elif ext == "mp4":
                nm = f"{r.choice(['clip', 'video', 'film'])}_{r.randint(1, 60):02d}.mp4"
            elif ext == "txt" and sub == "diary":
                nm = f"2024-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}.txt"
            elif ext == "pdf" and sub == "scans":
                nm = style_name(f"{r.choice(tv['ents']).split()[0]} {r.choice(tv['bases'])}", "snake", r, "pdf")
            else:
                nm = style_name(r.choice(tv["bases"]), r.choice(["snake", "snake", "kebab", "lower"]), r, ext)
            add((sub + "/" if sub else "") + nm, ext)
    # E tasks: old/obsolete material lying around
    if "E" in S.dims and S.files:
        for _ in range(r.randint(1, 3)):
            nm = r.choice(["old_notes.md", "draft_old.md", "copy_of_summary.txt", "export_tmp.csv", "scratch_2023.txt", "unused_outline.md"])
            if nm not in S.files:
                add(nm, nm.rsplit(".", 1)[1], clutter=True)


# ---------------------------------------------------------------------------
# behaviour phases
# ---------------------------------------------------------------------------
def pick_media(S, files):
    """F governs whether media/data inputs get looked at."""
    f = S.eff["F"]
    out = []
    for x in files:
        e = S.files[x]["ext"]
        if e in MEDIA_EXT or e in ("csv", "xlsx"):
            p = {"L": 0.95, "M": 0.55, "R": 0.12}.get(f, 0.45)
            if S.rng.random() > p:
                continue
        out.append(x)
    return out


def consume(S):
    r, k = S.rng, S.k
    inputs = sorted([x for x in S.files if S.files[x]["input"]], key=lambda x: (x.count("/"), x))
    if not inputs:
        return []
    cand = pick_media(S, inputs) or inputs[:1]
    a = S.eff["A"]
    tv = V[S.topic]
    read = []
    if a is None:
        # no signal: touch one to three of the obvious files
        for x in r.sample(cand, min(len(cand), r.randint(1, 3))):
            lines = S.files[x]["lines"]
            S.read(x, None if r.random() < 0.5 or not lines else (1, r.randint(10, 80)))
            read.append(x)
        return read
    if a == "L":
        if r.random() < 0.45:
            S.browse("")
        if r.random() < 0.1:
            ev = S.search("grep", r.choice(tv["queries"]), r.randint(1, 4))
        n = max(2, int(round(len(cand) * min(1.0, r.uniform(0.7, 1.0) * k))))
        n = min(n, 12 + int(4 * k))
        order = cand[:n]
        for x in order:
            S.read(x)
            read.append(x)
        # second pass: revisit a good share, whole or long ranges
        rev = [x for x in order if S.files[x]["ext"] not in MEDIA_EXT]
        rr = r.sample(rev, int(round(len(rev) * r.uniform(0.3, 0.65)))) if rev else []
        for x in sorted(rr, key=order.index):
            lines = S.files[x]["lines"]
            S.read(x, None if r.random() < 0.6 else (max(1, lines // 3), lines), trigger="revisit")
        return read
    if a == "M":
        if r.random() < 0.3:
            S.browse("")
        nsearch = max(1, int(round(r.uniform(1.5, 3.5) * k)))
        for _ in range(nsearch):
            stype = r.choice(["grep", "grep", "grep", "glob", "find"])
            fresh = [x for x in cand if x not in S.read_n]
            pool = fresh if fresh and r.random() < 0.85 else cand
            if stype == "glob":
                ext0 = S.files[r.choice(pool)]["ext"]
                q = r.choice([f"*.{ext0}", f"**/*.{ext0}"])
                pool = [x for x in pool if S.files[x]["ext"] == ext0]
            else:
                q = r.choice(tv["queries"])
                if stype == "find":
                    q = f"-name '*{q.strip('*#:').lower()}*'" if r.random() < 0.5 else f"-newer {r.choice(pool).rsplit('/', 1)[-1]}"
                pool = [x for x in pool if S.files[x]["ext"] not in MEDIA_EXT] or pool
            matched = r.sample(pool, min(len(pool), r.randint(1, 4)))
            ev = S.search(stype, q, len(matched) + r.randint(0, 6))
            opened = matched[: r.randint(1, min(2, len(matched)))]
            for x in opened:
                lines = S.files[x]["lines"]
                if lines:
                    a0 = r.randint(1, max(1, lines - 20))
                    span = int(r.uniform(10, 60))
                    S.read(x, (a0, a0 + span), trigger="search_result", ref="search_then_read")
                    if r.random() < 0.15:
                        a1 = r.randint(1, max(1, lines - 20))
                        S.read(x, (a1, a1 + int(r.uniform(8, 40))), trigger="search_result")
                else:
                    S.read(x, trigger="search_result", ref="search_then_read")
                ev["files_opened_after"].append(S.p(x))
                read.append(x)
        return read
    # R: breadth first
    S.browse("")
    subs = sorted({x.rsplit("/", 1)[0] for x in cand if "/" in x})
    for d in subs[: max(1, int(3 * k))]:
        S.browse(d)
    if r.random() < 0.2:
        ev = S.search("glob", f"*.{S.files[cand[0]]['ext']}", len(cand))
    m = max(2, int(round(len(cand) * r.uniform(0.6, 1.0))))
    m = min(m, 14 + int(4 * k))
    skim = r.sample(cand, min(m, len(cand)))
    for x in skim:
        S.read(x, (1, r.randint(4, 28)) if S.files[x]["lines"] else None, trigger="next_file")
        read.append(x)
    if skim and r.random() < 0.08:
        x = r.choice(skim)
        S.read(x, (1, r.randint(10, 40)) if S.files[x]["lines"] else None, trigger="revisit")
    return read


SCRATCH = ["scratch.md", "working_notes.md", "outline_draft.txt", "extract_raw.csv", "wip.md", "quick_notes.txt",
           "buffer.txt", "raw_dump.json", "outline_v0.md", "table_staging.csv", "notes_pass1.md", "checklist_now.md",
           "_ideas.txt", "pieces.md", "draft_0.md", "pull_quotes.txt"]


def scratch_phase(S):
    """E: intermediate files (only some persons, only when the session gives occasion)."""
    e = S.eff["E"]
    r = S.rng
    if e is None:
        return []
    p, hi = {"L": (0.9, 3), "M": (0.65, 2), "R": (0.55, 2)}[e]
    if r.random() > p:
        return []
    out = []
    for nm in r.sample(SCRATCH, r.randint(1, hi)):
        ext = nm.rsplit(".", 1)[1]
        if ext == "csv":
            c = S.vo.csv(r.randint(5, 25))
        elif ext == "json":
            c = S.vo.json_records(r.randint(3, 10))
        else:
            c = bullets_document(S.vo, cap(nm.split(".")[0].replace("_", " ").strip()), r.randint(5, 25), heading=r.random() < 0.5)
        out.append(S.write(nm, c, trigger="note_taking"))
    return out


NEST = [["work", "2025", "analysis"], ["docs", "projects", "current"], ["output", "reports", "final"],
        ["archive", "2025", "q2", "deliverables"], ["notes", "topics", "active"], ["deliverables", "client", "v1"],
        ["library", "reference", "by-topic"], ["results", "2025-04", "summary"]]
FLAT1 = ["output", "reports", "notes", "out", "deliverables", "summary", "docs", "results"]


def org_setup(S):
    """C: where outputs go, and moving inputs into subfolders."""
    c, r = S.eff["C"], S.rng
    inputs = [x for x in S.files if S.files[x]["input"]]
    if c is None:
        existing = sorted(d for d in S.dirs if d)
        return (r.choice(existing) if existing and r.random() < 0.3 else ""), None
    if c == "L":
        path = list(r.choice(NEST))[:3]
        if r.random() < 0.25:
            path.append(S.name(r.choice(V[S.topic]["outs"]), ""))
        out = "/".join(path)
        S.mkdirs(out)
        # file inputs into nested subfolders
        if inputs and S.ttype != "organize" and r.random() < 0.85:
            mv = r.sample(inputs, min(len(inputs), max(1, int(r.uniform(1, 4) * S.k))))
            root_ = path[0] + "/" + r.choice(["sources", "input", "reference"])
            for x in mv:
                e = S.files[x]["ext"]
                area_dir = {"pdf": "documents", "docx": "documents", "md": "notes", "txt": "notes", "eml": "mail"}.get(e, "media" if e in MEDIA_EXT else "data")
                dest = f"{root_}/{area_dir}"
                S.move(x, dest + "/" + x.rsplit("/", 1)[-1])
        return out, None
    if c == "M":
        out = r.choice(FLAT1)
        if r.random() < 0.35:
            out += "/" + r.choice(["drafts", "final", "2025"])
        S.mkdirs(out)
        if inputs and S.ttype != "organize" and r.random() < 0.4:
            for x in r.sample(inputs, min(len(inputs), r.randint(1, 2))):
                if "/" not in x:
                    S.move(x, "sources/" + x)
        return out, None
    # R: root only; sometimes tidies names instead
    if inputs and r.random() < 0.25:
        x = r.choice([i for i in inputs if "/" not in i] or inputs)
        nm = x.rsplit("/", 1)[-1]
        new = style_name(nm.rsplit(".", 1)[0], S.u["naming"] if S.u["naming"] != "dated" else "snake", r, S.files[x]["ext"])
        if new != nm and (x.rsplit("/", 1)[0] + "/" + new if "/" in x else new) not in S.files:
            S.rename(x, (x.rsplit("/", 1)[0] + "/" + new) if "/" in x else new)
    return "", None


def organize_task(S):
    """Heavy C for organize tasks (T-05, T-14, T-21, T-23, T-26, T-29, and T-17 fixes)."""
    c, r, k = S.eff["C"], S.rng, S.k
    files = [x for x in S.files if S.files[x]["input"] and not S.files[x].get("clutter")]
    r.shuffle(files)
    tv = V[S.topic]
    if c is None:
        # generic: a couple of moves into one existing place or nothing
        if files and r.random() < 0.5:
            S.mkdirs("sorted")
            for x in files[: r.randint(1, 3)]:
                S.move(x, "sorted/" + x.rsplit("/", 1)[-1])
        return
    share = {"L": (0.75, 1.0), "M": (0.5, 0.9), "R": (0.3, 0.7)}[c]
    files = files[: max(1, int(len(files) * r.uniform(*share) * (min(1.2, max(0.85, k)) if c == "L" else min(1.2, k))))]
    if c == "L":
        area = {"images": r.choice(["media", "photos", "personal"]), "audio": "media", "video": "media",
                "docs": r.choice(["records", "documents", "work"]), "data": r.choice(["records", "data"])}
        years = r.sample(["2022", "2023", "2024", "2025"], r.randint(1, 2))
        scheme = r.choice(["area", "area", "archive"])
        if S.topic == "travel":
            scheme = "trip"
            trips = [f"{r.choice(years)}-{w.lower().replace(' ', '-').replace('the-', '')}" for w in r.sample(tv["ents"], 2)]
        if S.topic == "registry":
            scheme = "registry"
        for x in files:
            e = S.files[x]["ext"]
            kind = "images" if e in ("jpg", "png") else "audio" if e == "mp3" else "video" if e == "mp4" else "docs" if e in ("pdf", "docx", "md", "txt") else "data"
            if scheme == "trip":
                trip = r.choice(trips)
                dest = f"trips/{trip}/day-{r.randint(1, 3)}" if kind == "images" else f"trips/{trip}/notes"
            elif scheme == "registry":
                nm0 = x.rsplit("/", 1)[-1]
                if kind == "docs":
                    dest = f"companies/{r.choice(['uk', 'eu', 'apac'])}/{nm0[:1].lower()}"
                else:
                    dest = "companies/index/exports"
            elif scheme == "archive":
                dest = f"archive/{r.choice(years)}/{kind}"
            else:
                dest = f"{area[kind]}/{kind}/{r.choice(years)}"
            nm = x.rsplit("/", 1)[-1]
            if dest + "/" + nm in S.files:
                continue
            S.move(x, dest + "/" + nm)
    elif c == "M":
        cats = r.sample(["documents", "photos", "finance", "media", "work", "personal", "records"], r.randint(2, 4))
        for x in files:
            e = S.files[x]["ext"]
            cat = cats[0] if e in ("pdf", "docx", "md", "txt") else cats[1] if e in ("jpg", "png", "mp3", "mp4") else r.choice(cats)
            if r.random() < 0.2:
                cat += "/" + r.choice(["2024", "old", "scans"])
            nm = x.rsplit("/", 1)[-1]
            if cat + "/" + nm in S.files:
                continue
            S.move(x, cat + "/" + nm)
    else:
        # flat person: pull things up to the root and fix names in place
        for x in files:
            nm = x.rsplit("/", 1)[-1]
            if "/" in x and nm not in S.files and r.random() < 0.7:
                S.move(x, nm)
                x = nm
            if r.random() < 0.5:
                stem = nm.rsplit(".", 1)[0]
                new = style_name(stem.replace("(", "").replace(")", ""), S.u["naming"] if S.u["naming"] != "dated" else "snake", r, S.files[x]["ext"])
                newrel = (x.rsplit("/", 1)[0] + "/" + new) if "/" in x else new
                if new != nm and newrel not in S.files:
                    S.rename(x, newrel)


def produce(S, outdir, main_base, need):
    """B and F: the deliverables."""
    b, f, r, u = S.eff["B"], S.eff["F"], S.rng, S.u
    if b is None and not need:
        return []
    verb = u["verb"]
    lm = verb ** 0.35
    out = []
    pre = (outdir + "/") if outdir else ""
    # --- F artefacts first (data, charts)
    img_refs = []
    n_tables = 0
    ext_main = "md"
    if f == "L":
        figdir = pre + r.choice(["figures", "charts", "assets/figures", "img"]) if S.eff["C"] in ("L", "M") else pre
        if S.eff["C"] == "R" or (S.eff["C"] is None and r.random() < 0.5):
            figdir = pre
        data = S.vo.csv(r.randint(12, 60)) if r.random() < 0.75 else S.vo.json_records(r.randint(6, 20))
        dname = S.name(r.choice(["data", "table", "dataset", V[S.topic]["outs"][0] + " data"]), "csv" if data.startswith(("[",)) is False else "json")
        out.append(S.write(pre + dname, data))
        for i in range(r.randint(1, 3)):
            fig = S.name(f"{r.choice(['chart', 'figure', 'plot', 'overview chart', 'trend'])} {i + 1}", r.choice(["png", "png", "svg"]))
            rel = (figdir.rstrip("/") + "/" + fig) if figdir else fig
            content = svg_chart(r, fig) if fig.endswith("svg") else png_bytes(r, r.randint(18_000, 140_000))
            S.write(rel, content, trigger="write_output")
            out.append(rel)
            img_refs.append(rel[len(pre):] if pre and rel.startswith(pre) else rel)
        n_tables = r.randint(0, 2)
    elif f == "M":
        n_tables = r.randint(1, 3)
        if r.random() < 0.15:
            out.append(S.write(pre + S.name("data", "csv"), S.vo.csv(r.randint(8, 30))))
    elif f is None:
        n_tables = 1 if r.random() < 0.2 else 0
    # --- B deliverables
    title = cap(main_base)
    if b == "L":
        n_files = r.randint(3, 5)
        main_lines = int(r.uniform(150, 300) * lm)
        depth = r.choice([3, 4, 4])
        main = md_document(S.vo, title, main_lines, depth, r.uniform(0.2, 0.45), n_tables, img_refs, numbered=r.random() < 0.5, toc=r.random() < 0.4)
        out.append(S.write(pre + S.name(main_base, "md"), main))
        total = main.count("\n")
        secdir = r.choice(["sections/", "appendix/", "", ""])
        comps = r.sample(["appendix", "sources", "action items", "glossary", "details", "timeline", "open questions", "method notes", "readme"], n_files - 1)
        for i, cb in enumerate(comps):
            need_l = max(45, int((260 * lm - total) / max(1, n_files - 1 - i))) if total < 260 * lm else int(r.uniform(45, 120) * lm)
            doc = md_document(S.vo, cap(cb), need_l, r.choice([2, 3]), r.uniform(0.3, 0.6), 0, [])
            sub = pre + (secdir if S.eff["C"] == "L" else "")
            out.append(S.write(sub + S.name(cb, "md"), doc))
            total += doc.count("\n")
    elif b == "M":
        nl = int(r.uniform(80, 150) * lm)
        main = md_document(S.vo, title, nl, 2 if r.random() < 0.7 else 3, r.uniform(0.25, 0.5), n_tables, img_refs)
        out.append(S.write(pre + S.name(main_base, "md"), main))
        if r.random() < 0.2:
            out.append(S.write(pre + S.name(r.choice(["notes", "next steps", "todo"]), "md"), bullets_document(S.vo, "Next steps", int(r.uniform(8, 25) * lm))))
    elif b == "R":
        nl = int(r.uniform(12, 60) * lm)
        if f in ("R",) and r.random() < 0.35:
            ext_main = "txt"
        if n_tables and r.random() < 0.5:
            main = md_document(S.vo, title, nl, 1, 0.85, n_tables, img_refs, table_rows=(3, 6))
        else:
            main = bullets_document(S.vo, title, nl, heading=r.random() < 0.7)
            for p in img_refs:
                main += f"![]({p})\n"
        out.append(S.write(pre + S.name(main_base, ext_main), main))
    else:  # no B signal: whatever fits
        nl = int(r.uniform(20, 110))
        main = md_document(S.vo, title, nl, 2, r.uniform(0.2, 0.7), n_tables, img_refs)
        out.append(S.write(pre + S.name(main_base, "md"), main))
    return out


def small_change(S, lines):
    r = S.rng
    idx = [i for i, ln in enumerate(lines) if ln.strip() and not ln.startswith("|---")]
    if not idx:
        lines.append(S.vo.sentence())
        return
    i = r.choice(idx)
    k = r.random()
    if k < 0.5:
        ln = lines[i]
        if ln.startswith("#"):
            lines[i] = ln.rstrip() + (" (updated)" if r.random() < 0.5 else "")
            if lines[i] == ln:
                lines[i] = ln.replace("#", "##", 1) if not ln.startswith("####") else ln[1:]
        elif ln.startswith("- "):
            lines[i] = "- " + S.vo.bullet()
        else:
            lines[i] = S.vo.sentence()
    elif k < 0.8:
        for _ in range(r.randint(1, 3)):
            lines.insert(i + 1, ("- " + S.vo.bullet()) if lines[i].startswith("- ") else S.vo.sentence())
    else:
        del lines[i: i + r.randint(1, 2)]


def block_change(S, lines, lo, hi):
    r = S.rng
    n = len(lines)
    m = r.randint(lo, hi)
    s = r.randint(0, max(0, n - m))
    new = []
    m2 = r.randint(lo, hi)
    while len(new) < m2:
        if r.random() < 0.4:
            new.append("- " + S.vo.bullet())
        elif r.random() < 0.15:
            new.append("")
        else:
            new.append(S.vo.sentence())
    lines[s: s + m] = new


def iterate(S, targets, rounds=1, backup_dir=None):
    """D: revise existing text files."""
    d, r, k = S.eff["D"], S.rng, S.k
    targets = [t for t in targets if t in S.files and S.ext(t) in ("md", "txt", "csv")]
    if not targets:
        return
    for rd in range(rounds):
        if rounds > 1 and rd > 0:
            ups = [x for x in S.files if x.startswith("updates/")]
            if ups:
                S.read(r.choice(ups))
        tg = targets if rounds == 1 else r.sample(targets, max(1, min(len(targets), int(round(len(targets) * r.uniform(0.4, 0.8))))))
        if d is None:
            for t in tg[:2]:
                if t not in S.read_n:
                    S.read(t)
                lines = S.text_of(t).split("\n")
                block_change(S, lines, 2, 9) if r.random() < 0.5 else small_change(S, lines)
                S.edit(t, "\n".join(lines))
        elif d == "L":
            for t in tg:
                if rd == 0 and r.random() < 0.85:
                    stem, _, ext = t.rpartition(".")
                    nm = stem.rsplit("/", 1)[-1]
                    bdir = ""
                    if backup_dir is not None:
                        bdir = backup_dir
                    elif "/" in t:
                        bdir = t.rsplit("/", 1)[0]
                    dst = r.choice([f"{nm}.{ext}.bak", f"{nm}_backup.{ext}", f"{nm}_v1.{ext}", f"{nm}.orig.{ext}"])
                    dst = (bdir + "/" + dst) if bdir else dst
                    if dst not in S.files:
                        S.copy(t, dst, True)
                passes = r.randint(2, 3) if rounds == 1 else 1
                for ps in range(passes):
                    lines_total = S.files[t]["lines"] or 40
                    if ps > 0 or t not in S.read_n:
                        if r.random() < 0.7:
                            a0 = r.randint(1, max(1, lines_total - 30))
                            S.read(t, None if r.random() < 0.5 else (a0, a0 + r.randint(15, 40)), trigger="revisit")
                    for _ in range(max(1, int(r.randint(2, 4) * min(1.3, k)))):
                        lines = S.text_of(t).split("\n")
                        small_change(S, lines)
                        S.edit(t, "\n".join(lines))
        elif d == "M":
            for t in tg:
                if t not in S.read_n:
                    S.read(t)
                for _ in range(max(1, int(r.randint(1, 3) * min(1.3, k)))):
                    lines = S.text_of(t).split("\n")
                    block_change(S, lines, 5, 14)
                    S.edit(t, "\n".join(lines))
        else:  # R: bulk rewrite
            for t in tg:
                if t not in S.read_n or r.random() < 0.3:
                    S.read(t)
                old = S.text_of(t)
                if S.ext(t) != "csv" and old.count("\n") > 50 and r.random() < 0.25:
                    lines = old.split("\n")
                    block_change(S, lines, 18, 40)
                    S.edit(t, "\n".join(lines), tool="apply_patch")
                    continue
                if S.ext(t) == "csv":
                    new = S.vo.csv(max(5, old.count("\n") + r.randint(-5, 10)))
                else:
                    title = old.split("\n", 1)[0].lstrip("# ").strip() or "Document"
                    nl = max(10, int(old.count("\n") * r.uniform(0.6, 1.2)))
                    new = md_document(S.vo, title, nl, 2, r.uniform(0.2, 0.6), 1 if "|---" in old else 0, [])
                S.write(t, new, ref="read_then_edit", trigger="edit_target")


def cleanup(S, scratch, superseded):
    """E: deletions at the end."""
    e, r = S.eff["E"], S.rng
    if e is None:
        return
    clutter = [x for x in S.files if S.files[x].get("clutter")]
    backups = [x for x in S.created if x not in scratch and any(t in x for t in (".bak", "_backup", ".orig", "_v1."))]
    if e == "L":
        if r.random() < 0.3:
            S.browse("")
        for x in scratch + superseded:
            if x in S.files:
                S.delete(x, True)
        for x in clutter:
            if x in S.files and r.random() < 0.85:
                temp = any(s in x for s in ("tmp", "temp", "~$", "Thumbs", "untitled", "scratch"))
                S.delete(x, temp)
        for x in backups:
            if x in S.files and r.random() < 0.35:
                S.delete(x, True)
    elif e == "M":
        pool = [x for x in scratch + superseded if x in S.files]
        if pool and r.random() < 0.7:
            for x in r.sample(pool, max(1, len(pool) // 2)):
                S.delete(x, True)
        cl = [x for x in clutter if x in S.files]
        if cl and r.random() < 0.45:
            x = r.choice(cl)
            S.delete(x, any(s in x for s in ("tmp", "temp", "~$", "Thumbs", "untitled")))
    # R: keeps everything


# ---------------------------------------------------------------------------
# one session
# ---------------------------------------------------------------------------
def run_session(user, sid, tid, eff, seed, k, t0):
    rng = random.Random(seed)
    S = Session(user, sid, tid, eff, rng, k, t0)
    build_inputs(S)
    ttype = S.ttype
    r = rng
    tv = V[S.topic]
    main_base = r.choice(tv["outs"])
    if not S.files or r.random() < 0.35:
        S.browse("")
    # iterate/maintain tasks: targets are the input documents
    targets = []
    if ttype in ("iterate", "maintain"):
        txt = [x for x in S.files if S.files[x]["ext"] in ("md", "txt", "csv") and S.files[x]["input"] and not S.files[x].get("clutter")]
        if tid in ("T-09", "T-19", "T-13"):
            targets = [x for x in txt if x.endswith(".md")][:1] or txt[:1]
        elif tid in ("T-10", "T-18"):
            targets = [x for x in txt if x.startswith("kb/")]
        elif tid == "T-30":
            targets = [x for x in txt if x.startswith("memos/")]
        else:
            targets = [x for x in txt if x.endswith((".md", ".csv"))]
        targets = targets[: max(1, int(round(len(targets) * min(1.0, 0.45 * k + 0.2))))]
    consume(S)
    for t in targets:
        if t not in S.read_n and r.random() < 0.6:
            S.read(t)
    scratch = scratch_phase(S)
    superseded = []
    outdir, _ = org_setup(S)
    if ttype == "organize" or (tid == "T-17" and S.eff["C"] is not None):
        organize_task(S)
    backup_dir = None
    if S.eff["D"] == "L" and S.eff["C"] == "L" and r.random() < 0.5:
        backup_dir = r.choice(["backup", "archive/versions", "_versions"])
    if targets:
        iterate(S, targets, rounds=3 if tid == "T-18" else 1, backup_dir=backup_dir)
    # deliverables
    need = ttype in ("understand", "synthesize", "create") or tid in ("T-23", "T-26", "T-29", "T-32")
    if ttype == "organize" and S.eff["B"] is not None and tid not in ("T-23", "T-26", "T-29"):
        need = True
    if ttype in ("iterate", "maintain") and S.eff["B"] is None and tid not in ("T-32",):
        need = False
    outs = []
    if need or S.eff["B"] is not None:
        # E: a superseded draft before the final
        if S.eff["E"] is not None and r.random() < {"L": 0.5, "M": 0.35, "R": 0.45}[S.eff["E"]]:
            dname = S.name(main_base + " draft", "md")
            superseded.append(S.write(((outdir + "/") if outdir else "") + dname, bullets_document(S.vo, cap(main_base), r.randint(10, 40))))
        outs = produce(S, outdir, main_base, need)
    # D on own output (non-iterate tasks)
    if not targets and S.eff["D"] is not None and outs:
        own = [x for x in outs if S.ext(x) in ("md", "txt", "csv")]
        if own:
            iterate(S, own[:1] if r.random() < 0.7 else own[:2], backup_dir=backup_dir)
    cleanup(S, scratch, superseded)
    # a final look at the result or the folder
    review = [c for c in S.created if c in S.files and S.files[c]["text"] is not None and c not in S.read_n]
    r.shuffle(review)
    spots = sorted(S.dirs)
    r.shuffle(spots)
    unread = [x for x in S.files if S.files[x]["input"] and x not in S.read_n]
    r.shuffle(unread)
    tries = 0
    while len(S.events) < 5 and tries < 20:
        tries += 1
        x = r.random()
        if review and x < 0.5:
            S.read(review.pop(), trigger="review")
        elif spots and x < 0.8:
            S.browse(spots.pop())
        elif unread:
            S.read(unread.pop())
        elif tries > 3:
            q = r.choice(["*.md", "*", "**/*"])
            S.search(r.choice(["glob", "find"]), q, len(S.files))
    return S


def choose_tasks(rng):
    w = {t: rng.gammavariate(0.7, 1.0) + 0.02 for t in TASKS}
    while True:
        tasks = rng.choices(list(TASKS), weights=[w[t] for t in TASKS], k=24)
        cnt = {d: sum(1 for t in tasks if d in TASKS[t][1]) for d in DIMS}
        reps = max(tasks.count(t) for t in set(tasks))
        if min(cnt.values()) >= 4 and reps <= 4:
            return tasks
        # flatten weights a bit and retry
        w = {t: w[t] ** 0.8 + 0.05 for t in w}


def gen_user(user, seed, outroot, pert_used):
    urng = random.Random(f"{seed:d}/{user['uid']}")
    tasks = choose_tasks(urng)
    # perturbed sessions: prefer the candidate tasks
    wts = [3.0 if t in PERT_CANDIDATES else 1.0 for t in tasks]
    pert_idx = set()
    while len(pert_idx) < 3:
        pert_idx.add(urng.choices(range(24), weights=wts)[0])
    pert = {}
    truth_p = {}
    for i in sorted(pert_idx):
        dims = TASKS[tasks[i]][1]
        d = urng.choices(dims, weights=[1.0 / (1 + pert_used[x]) for x in dims])[0]
        pert_used[d] += 1
        t0 = user["tiers"][d]
        t1 = neighbour(urng, t0)
        pert[i] = (d, t0, t1)
        truth_p[f"{user['uid']}_S{i:02d}"] = {d: [t0, t1]}
    t = user["start"]
    last_end = 0.0
    total = 0
    counts = {}
    for i, tid in enumerate(tasks):
        sid = f"{user['uid']}_S{i:02d}"
        t += urng.uniform(0.3, 3.2) * 86400000.0
        day0 = t - (t % 86400000.0) + urng.uniform(7.5, 20) * 3600000.0
        day0 = max(day0, last_end + urng.uniform(0.5, 5) * 3600000.0)
        # effective tiers for this session
        eff = {}
        for d in DIMS:
            tier = user["tiers"][d]
            if i in pert and pert[i][0] == d:
                eff[d] = pert[i][2]
                continue
            active = d in TASKS[tid][1]
            if not active and urng.random() > user["incidental"]:
                eff[d] = None
                continue
            if urng.random() < user["noise"]:
                eff[d] = None if urng.random() < 0.3 else neighbour(urng, tier)
            else:
                eff[d] = tier
        base = {"understand": 1.0, "create": 0.9, "organize": 1.15, "synthesize": 1.1, "iterate": 1.0, "maintain": 1.1}[TASKS[tid][0]]
        k = user["activity"] * base * math.exp(urng.gauss(0, 0.3))
        sseed = urng.getrandbits(64)
        S = None
        for attempt in range(12):
            S = run_session(user, sid, tid, eff, sseed + attempt * 7919, k, day0)
            n = len(S.events)
            if n > 60:
                k *= 0.8
                continue
            break
        assert 5 <= len(S.events) <= 60, (sid, len(S.events))
        if os.environ.get("ALT1_DEBUG"):  # a per-session line on stderr, nothing in the output
            print(sid, tid, "".join(eff[d] or "-" for d in DIMS), len(S.events), file=sys.stderr)
        write_session(S, outroot / user["uid"] / sid, pert.get(i))
        last_end = S.events[-1]["timestamp"]
        t = max(t, last_end)
        total += len(S.events)
        for e in S.events:
            counts[e["event_type"]] = counts.get(e["event_type"], 0) + 1
    return {"tiers": dict(user["tiers"]), "perturbed": truth_p}, total, counts


def write_session(S, folder, pert):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "media" / "blobs").mkdir(parents=True, exist_ok=True)
    (folder / "media" / "diffs").mkdir(parents=True, exist_ok=True)
    entries = {}
    for h, b in sorted(S.blobs.items()):
        (folder / "media" / "blobs" / f"{h}.blob").write_bytes(b)
        entries[h] = {"type": "blob", "size_bytes": len(b)}
    for h, b in sorted(S.diffs.items()):
        (folder / "media" / "diffs" / f"{h}.diff").write_bytes(b)
        entries[h] = {"type": "diff", "size_bytes": len(b)}
    (folder / "media" / "manifest.json").write_text(json.dumps({"version": 1, "entries": entries}))
    (folder / "events.json").write_text(json.dumps(S.events, ensure_ascii=False, indent=1), encoding="utf-8")
    (folder / "summary.json").write_text(json.dumps({"session_id": S.sid, "completed": True, "total_events": len(S.events)}))
    if pert:
        d, t0, t1 = pert
        (folder / "perturbation.json").write_text(json.dumps({"applied": True, "shifted_dims": {d: {"original": t0, "perturbed": t1}}}))


def generate(out: Path, *, seed: int = DEFAULT_SEED, users: int = DEFAULT_USERS) -> Path:
    """Write the users folder (truth.json and one folder per user) into `out`, replacing it."""
    return _generate(Path(out), seed, users, None)


def _generate(out: Path, seed: int, n_users: int, echo: Callable[[str], object] | None) -> Path:
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    rng = random.Random(seed)
    users = make_users(rng, n_users)
    pert_used = dict.fromkeys(DIMS, 0)  # spreads the perturbed dimensions over the users
    truth = {}
    grand = 0
    counts = {}
    for u in users:
        tr, n, c = gen_user(u, seed, out, pert_used)
        truth[u["uid"]] = tr
        grand += n
        for kk, v in c.items():
            counts[kk] = counts.get(kk, 0) + v
        if echo:
            echo(f"{u['uid']} {''.join(u['tiers'][d] for d in DIMS)} events={n}")
    (out / "truth.json").write_text(json.dumps(truth, indent=1), encoding="utf-8")
    if echo:
        echo(f"total events: {grand}")
        echo(json.dumps(dict(sorted(counts.items(), key=lambda x: -x[1]))))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=DESCRIPTION)
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--out", required=True, help="the users folder to write (replaced if it exists)")
    ap.add_argument("--users", type=int, default=DEFAULT_USERS)
    a = ap.parse_args(argv)
    _generate(Path(a.out), a.seed, a.users, print)
    return 0


if __name__ == "__main__":
    sys.exit(main())
