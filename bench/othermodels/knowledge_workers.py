"""A knowledge-workers behaviour model, independent of our simulator.

Fourteen knowledge workers of one small company, seen through a file-system recorder with
shell and editor hooks, whose verbosity and activity vary by person independently of their
tiers, so the robustness bench checks that tiers are read relative to the person. Written
from filegram.md alone (trajectory format, tier meanings, tasks), without reading memory/
or the simulator; its magnitudes are its own. Stdlib only; the output depends on the seed
alone (every random stream is seeded with a string built from the seed, uid and session).

    python -m filegram.bench.othermodels.knowledge_workers --seed 5 --out DIR

People (q00..q13): five engineers, two project/program managers, a bookkeeper, a finance
assistant, two researchers, two support people and an office manager; the persona -> uid
mapping and the tier vectors (balanced per dimension) are drawn from the seed, and the job
never gives the tiers away. Per person, independent of the tiers: verbosity (log-uniform
0.45-1.9, stratified) multiplies every document length, so a comprehensive writer in a terse
culture can write less than a minimal one in a verbose culture; activity (log-uniform
0.3-2.2, stratified) multiplies how many files are read, searched, edited and moved
(sessions of 3 to ~190 events); pace; a primary (~75%) and secondary naming style; an
editor (code, vim, obsidian, typora, notepad++, nano; the autosaving ones make bursts of
tiny edits); md or txt outputs; an expression probability in [0.5, 1] per dimension.

Sessions: 20-32 per user, each one of the 32 tasks drawn with job-specific weights (every
other task keeps a small weight); every dimension is active (filegram.md's task table) in
at least 3 sessions of every user. Given a chance (no deletes without something to delete,
no edits without a revision phase), a tier is expressed with the user's probability on the
task's active dimensions and 0.55x that on the others; muted, its markers are absent or
weakened. The absence tiers (C=R, E=R, F=R) are always expressed.

Tiers (filegram.md's meanings, this model's magnitudes):
  A  L: one listing, whole-file reads in listing order, 25-50% revisited, sources
        re-opened while writing. M: 1-5 searches (grep, glob, find, spotlight), then
        narrow line ranges of the hits. R: breadth-first listings of every folder, skims of
        the first 5-25 lines, almost no revisits.
  B  L: >= 3 files (main + appendix, glossary, sources...), headings down to ####, prose and
        nested lists, 200-320 lines. M: one file, # / ##, paragraphs and a list, 80-150.
        R: one file of bullets, 12-55. Times verbosity and the task's weight, clamped to
        4-430; .txt writers number their headings (1., 1.1, 1.1.1).
  C  L: mkdir -p of 3-4 level trees (each level a dir_create), drafts written at the root
        then moved in; organize tasks file into base/year/category[/sub]. M: 1-2 levels.
        R: flat, no dir_create; organize tasks rename in place and move nested files up.
  D  L: a backup copy, then 3-8 small edits in 2-3 passes with re-reads. M: 1-3 edits of
        10-30 lines. R: wholesale rewrites (logged as file_write overwrite), no backups.
  E  L: deletes scratch, intermediate files and most workspace junk. M: cleans up in about
        half the sessions that offer a chance. R: never deletes (may move junk to old/).
  F  L: charts (png/jpg/svg, a figures/ folder unless C=R), csv/json/xlsx data, image
        embeds. M: 1-3 markdown tables. R: text only.

Drift: 2-4 sessions per user (never lookup sessions) act out another tier on one of the
task's active dimensions, fully expressed (M -> L or R; L/R -> M, 20% the other extreme).

Noise: lookup-only sessions (3-15% per user: open, skim, search, no output); re-reads of
one's own output; editor autosave touch-ups (2-4 one-line saves seconds apart); personal
backup copies by anyone and non-backup copies; scratch files (scratch.md, tmp.txt, todo.txt)
in 15-60% of producing sessions; workspace junk (~$ lock files, "Copy of", "(1)", .tmp,
untitled) in messy tasks; mixed naming styles; searches by A=L and reads by A=R people at
low rates.

Recorder: binary reads have no view_range and the file size as content_length; a save
changing more than half of the lines is a file_write overwrite, otherwise a file_edit with
before/after blobs and a diff; edit_tool is the editor's process name; every mkdir -p level
is a dir_create; was_temporary = created in the session or a temp-looking name; a
context_switch on every change of focused file; cross_file_reference only the first time a
pair occurs within 5 minutes; the engine fields are null and paths are absolute under
/home/user/work/<session_id>/.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import math
import os
import random
import re
import shutil
import sys
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

__all__ = ["DEFAULT_SEED", "DEFAULT_USERS", "DESCRIPTION", "NAME", "generate", "main"]

NAME = "knowledge-workers"
DESCRIPTION = (
    "A knowledge-workers model: 14 people of a small company, 20-32 sessions each, whose "
    "verbosity and activity vary by person independently of tier; editor autosave touch-ups, "
    "backup copies and workspace junk as noise, lookup-only sessions, two to four drift "
    "sessions per user."
)
DEFAULT_SEED = 5
DEFAULT_USERS = 14

DIMS = "ABCDEF"
TIERS = "LMR"
WORK_ROOT = "/home/user/work"
BASE_MS = 1714550400000.0  # 2024-05-01T08:00Z-ish epoch ms

# ---------------------------------------------------------------------------
# tasks (filegram.md section 3) + this model's workspace/phase spec
# ---------------------------------------------------------------------------
T: dict[str, dict[str, Any]] = {}  # task id -> this model's spec of the task


def _t(tid: str, typ: str, dims: str, inputs: tuple[int, int] = (0, 0), mix: str = "office",
       out: str | None = None, w: float = 1.0, out_p: float = 1.0, junk: tuple[int, int] = (0, 0),
       nested: bool = False, organize: bool = False, iterate: str | None = None, rounds: int = 1) -> None:
    T[tid] = dict(id=tid, type=typ, dims=dims, inputs=inputs, mix=mix, out=out, w=w,
                  out_p=out_p, junk=junk, nested=nested, organize=organize,
                  iterate=iterate, rounds=rounds)


_t("T-01", "understand", "AB", (6, 14), "office", "overview summary", 0.8)
_t("T-02", "understand", "ABE", (8, 16), "legal", "case timeline", 0.9, junk=(1, 3))
_t("T-03", "create", "BC", (0, 0), "none", "knowledge base", 1.0)
_t("T-04", "create", "BCF", (0, 1), "meeting", "meeting minutes", 0.9)
_t("T-05", "organize", "AC", (15, 30), "messy", "folder index", 0.3, 0.5, (2, 5), True, True)
_t("T-06", "synthesize", "ABF", (6, 12), "research", "research report", 1.2)
_t("T-07", "synthesize", "AB", (10, 20), "diary", "personal profile", 0.9)
_t("T-08", "create", "BCF", (3, 8), "work", "quarterly summary", 1.0)
_t("T-09", "iterate", "DB", (2, 4), "report", "condensed report", 0.6, 0.6, iterate="inputs")
_t("T-10", "maintain", "DCE", (10, 20), "kb", "kb update note", 0.4, 0.6, (1, 4), True, iterate="inputs")
_t("T-11", "iterate", "DA", (5, 10), "errors", "correction log", 0.3, 0.35, iterate="inputs")
_t("T-12", "iterate", "DC", (6, 12), "docs", "style guide", 0.4, 0.35, iterate="inputs")
_t("T-13", "iterate", "DAE", (2, 5), "review", "response to reviewers", 0.4, 0.45, (1, 3), iterate="inputs")
_t("T-14", "organize", "CD", (6, 14), "versions", "changelog", 0.3, 0.5, (2, 5), False, True, iterate="own")
_t("T-15", "synthesize", "ADB", (3, 6), "reports", "reconciliation report", 1.0, iterate="own")
_t("T-16", "understand", "AEBF", (15, 25), "inbox", "priority triage", 0.5, junk=(2, 6))
_t("T-17", "understand", "AC", (12, 24), "fs", "health check report", 0.6, junk=(1, 4), nested=True)
_t("T-18", "maintain", "DEC", (8, 16), "kb", "kb change log", 0.4, 0.5, (1, 4), True, iterate="inputs", rounds=3)
_t("T-19", "iterate", "DB", (1, 3), "report", "adapted version", 0.8, 0.8, iterate="inputs")
_t("T-20", "create", "BCE", (0, 0), "none", "weekly report system", 1.0)
_t("T-21", "organize", "CAD", (14, 28), "dupes", "dedup list", 0.4, 0.6, (3, 7), True, True, iterate="own")
_t("T-22", "understand", "AFB", (10, 24), "film", "film catalogue", 0.8)
_t("T-23", "organize", "CFA", (15, 30), "photos", "album page", 0.5, 0.8, (0, 2), True, True)
_t("T-24", "synthesize", "ABF", (2, 5), "earnings", "earnings analysis", 1.0)
_t("T-25", "understand", "AFB", (6, 14), "evidence", "evidence review", 0.8)
_t("T-26", "organize", "CAF", (14, 28), "assets", "asset index", 0.4, 0.7, (1, 3), True, True)
_t("T-27", "create", "BFC", (4, 10), "portfolio", "portfolio", 1.0)
_t("T-28", "synthesize", "ABF", (6, 12), "pet", "pet care guide", 1.0)
_t("T-29", "organize", "CDA", (20, 30), "registry", "registry index", 0.6, 0.9, (0, 2), False, True, iterate="own")
_t("T-30", "iterate", "DFA", (6, 14), "memos", "memo notes", 0.6, 0.8, iterate="inputs")
_t("T-31", "create", "BFC", (8, 18), "videos", "video curation", 0.9)
_t("T-32", "maintain", "DAF", (10, 20), "archive", "consistency report", 0.4, 0.5, iterate="inputs")

TOPIC = {
    "T-01": ["portfolio", "equity position", "analyst note", "sector exposure", "holding", "valuation", "fund report", "risk rating"],
    "T-02": ["case file", "deposition", "exhibit", "hearing date", "claim", "witness statement", "filing", "counsel letter"],
    "T-03": ["knowledge note", "how to", "reference page", "topic index", "tag", "reading list", "glossary entry"],
    "T-04": ["meeting", "attendee", "decision", "follow up", "agenda item", "action owner", "next step"],
    "T-05": ["download", "scan", "old export", "photo", "receipt", "form", "misc note", "installer"],
    "T-06": ["source report", "dataset", "market figure", "study", "trend", "benchmark", "chart data"],
    "T-07": ["diary entry", "habit", "goal", "weekend note", "reflection", "preference", "routine"],
    "T-08": ["quarter", "achievement", "metric", "project", "objective", "result", "target"],
    "T-09": ["report section", "paragraph", "recommendation", "summary", "feedback point", "appendix"],
    "T-10": ["kb page", "article", "outdated entry", "new procedure", "link", "faq item"],
    "T-11": ["figure", "total", "date", "reference", "typo", "inconsistency", "cross check"],
    "T-12": ["heading style", "date format", "template", "section order", "front matter", "naming rule"],
    "T-13": ["review comment", "reviewer", "revision", "suggestion", "open question", "change request"],
    "T-14": ["version", "final draft", "archive copy", "changelog", "revision", "release"],
    "T-15": ["report", "discrepancy", "figure", "source of truth", "reconciliation note", "estimate"],
    "T-16": ["urgent request", "deadline", "email", "priority", "request", "triage note"],
    "T-17": ["folder", "duplicate", "empty file", "broken link", "large file", "naming issue"],
    "T-18": ["round", "kb page", "update batch", "change note", "obsolete entry"],
    "T-19": ["audience", "executive summary", "technical detail", "plain language version", "glossary"],
    "T-20": ["weekly report", "template", "status field", "team update", "checklist", "schedule"],
    "T-21": ["duplicate", "copy", "near duplicate", "original", "checksum", "cleanup list"],
    "T-22": ["film", "director", "release year", "genre", "rating", "runtime", "poster"],
    "T-23": ["photo", "trip", "location", "day", "album", "caption"],
    "T-24": ["earnings call", "revenue", "guidance", "margin", "quarter", "analyst question", "transcript"],
    "T-25": ["recording", "photo evidence", "exhibit", "timestamp", "statement", "chain of custody"],
    "T-26": ["document", "scan", "certificate", "photo", "backup", "account record"],
    "T-27": ["project sample", "artwork", "essay", "reflection", "skill", "course"],
    "T-28": ["feeding schedule", "vet visit", "vaccination", "medication", "exercise", "pet insurance"],
    "T-29": ["company", "registration number", "filing date", "registered office", "director", "certificate"],
    "T-30": ["voice memo", "transcript", "idea", "reminder", "recording date", "follow up"],
    "T-31": ["video clip", "species", "location", "duration", "highlight", "playlist"],
    "T-32": ["index entry", "media file", "checksum", "missing file", "caption", "metadata"],
}

# input mixes: (ext, weight)
MIX = {
    "none": [],
    "office": [("pdf", 3), ("md", 2), ("xlsx", 2), ("eml", 2), ("csv", 1), ("docx", 2), ("txt", 1)],
    "legal": [("pdf", 4), ("eml", 3), ("docx", 2), ("txt", 2), ("ics", 1)],
    "meeting": [("txt", 2), ("ics", 1), ("md", 1)],
    "messy": [("pdf", 3), ("jpg", 2), ("png", 1), ("docx", 2), ("xlsx", 1), ("txt", 2), ("md", 1), ("csv", 1), ("mp3", 1), ("eml", 1)],
    "research": [("pdf", 3), ("csv", 2), ("md", 2), ("png", 1), ("txt", 1), ("xlsx", 1)],
    "diary": [("txt", 4), ("md", 3), ("jpg", 1)],
    "work": [("md", 3), ("csv", 2), ("xlsx", 1), ("eml", 1)],
    "report": [("md", 4), ("txt", 1)],
    "kb": [("md", 6), ("txt", 1), ("png", 1)],
    "errors": [("md", 3), ("csv", 2), ("txt", 2)],
    "docs": [("md", 5), ("txt", 2)],
    "review": [("md", 3), ("txt", 2)],
    "versions": [("docx", 3), ("md", 3), ("pdf", 1), ("txt", 1)],
    "reports": [("md", 3), ("pdf", 2), ("csv", 1), ("txt", 1)],
    "inbox": [("eml", 5), ("pdf", 2), ("docx", 1), ("ics", 1), ("txt", 1), ("xlsx", 1)],
    "fs": [("md", 2), ("txt", 2), ("pdf", 2), ("jpg", 1), ("csv", 1), ("docx", 1), ("mp4", 1)],
    "dupes": [("pdf", 3), ("jpg", 2), ("docx", 2), ("txt", 2), ("md", 1), ("csv", 1)],
    "film": [("mp4", 3), ("jpg", 3), ("txt", 2), ("csv", 1)],
    "photos": [("jpg", 8), ("png", 1), ("txt", 1)],
    "earnings": [("mp3", 1), ("pdf", 2), ("txt", 1), ("csv", 1)],
    "evidence": [("mp3", 2), ("jpg", 3), ("pdf", 2), ("eml", 2), ("txt", 1)],
    "assets": [("pdf", 3), ("jpg", 3), ("docx", 2), ("xlsx", 1), ("mp4", 1), ("txt", 1), ("png", 1)],
    "portfolio": [("jpg", 3), ("png", 2), ("docx", 1), ("md", 2), ("pdf", 1)],
    "pet": [("pdf", 2), ("txt", 2), ("jpg", 2), ("md", 2), ("csv", 1)],
    "registry": [("pdf", 10), ("csv", 1), ("xlsx", 1)],
    "memos": [("mp3", 4), ("txt", 3), ("md", 1)],
    "videos": [("mp4", 5), ("jpg", 2), ("txt", 1)],
    "archive": [("jpg", 3), ("mp3", 2), ("mp4", 1), ("pdf", 2), ("csv", 1), ("md", 1)],
}

TEXT_EXT = {"md", "txt", "csv", "eml", "ics", "json", "svg", "py", "yaml", "tsv", "tmp"}
BIN_SIZE = {"pdf": (40e3, 2.5e6), "docx": (15e3, 250e3), "xlsx": (9e3, 300e3), "png": (40e3, 1.8e6),
            "jpg": (300e3, 5e6), "mp3": (8e5, 3e7), "mp4": (8e6, 4e8)}

ROLE_LEX = {
    "eng": ["service", "endpoint", "schema", "migration", "cache layer", "latency budget", "rollout plan", "job queue",
            "worker pool", "index", "api contract", "config flag", "deployment", "test suite", "regression", "dependency",
            "timeout", "payload", "shard", "replica", "error budget", "feature flag", "read path", "retry policy",
            "connection pool", "event stream", "data model"],
    "pm": ["milestone", "stakeholder", "scope", "timeline", "risk", "deliverable", "sprint", "owner", "blocker",
           "estimate", "budget", "launch date", "dependency", "sign off", "roadmap", "status update", "action item",
           "resource plan", "priority", "kickoff"],
    "books": ["invoice", "ledger", "reconciliation", "accrual", "vat return", "payable", "receivable", "receipt",
              "expense claim", "balance", "journal entry", "month end close", "vendor", "bank statement",
              "cost centre", "purchase order", "credit note", "trial balance", "petty cash", "payroll run"],
    "research": ["interview", "participant", "finding", "hypothesis", "sample", "survey", "theme", "insight", "method",
                 "source", "citation", "evidence", "cohort", "pattern", "quote", "segment", "study", "observation",
                 "coding scheme", "synthesis"],
    "support": ["ticket", "escalation", "sla", "customer", "macro", "queue", "backlog", "response time", "refund",
                "incident", "handoff", "help article", "priority tag", "on call rota", "satisfaction score",
                "bug report", "workaround", "first reply", "churn risk", "release note"],
    "ops": ["supplier", "office lease", "contract", "asset register", "booking", "inventory", "policy", "onboarding",
            "laptop", "insurance", "travel", "facility", "renewal", "vendor list", "budget line", "checklist",
            "archive", "licence", "storage", "schedule"],
}
VERBS = ["affects", "depends on", "blocks", "replaces", "summarises", "updates", "duplicates", "contradicts",
         "supports", "extends", "clarifies", "delays", "reduces", "covers", "references", "requires", "changes",
         "tracks", "feeds", "overlaps with"]
PPART = ["updated", "flagged", "moved", "merged", "checked", "rewritten", "approved", "postponed", "confirmed",
         "dropped", "split", "escalated"]
ADJ = ["current", "legacy", "pending", "critical", "minor", "new", "outdated", "shared", "internal", "quarterly",
       "weekly", "draft", "final", "open", "resolved", "manual", "automated", "missing", "duplicate", "expected"]
PEOPLE = ["Ana", "Ben", "Chloe", "Dev", "Emma", "Felix", "Grace", "Hugo", "Ines", "Jonas", "Kira", "Liam", "Mona",
          "Nils", "Omar", "Pia", "Rafa", "Sara", "Theo", "Uma"]
HEAD_FIXED = ["Overview", "Background", "Context", "Open questions", "Risks", "Next steps", "Findings", "Timeline",
              "Decisions", "Summary", "Scope", "Method", "Recommendations", "Notes", "Status", "Details"]

PERSONAS = [
    dict(role="Backend engineer", fam="eng", editor=["vim", "code"], ext="md"),
    dict(role="Platform engineer", fam="eng", editor=["code", "vim"], ext="md"),
    dict(role="Staff engineer (architecture)", fam="eng", editor=["code", "obsidian"], ext="md"),
    dict(role="Frontend engineer", fam="eng", editor=["code"], ext="md"),
    dict(role="QA engineer", fam="eng", editor=["code", "nano"], ext="md"),
    dict(role="Project manager", fam="pm", editor=["obsidian", "typora"], ext="md"),
    dict(role="Program manager", fam="pm", editor=["typora", "code"], ext="md"),
    dict(role="Bookkeeper", fam="books", editor=["notepad++", "code"], ext="txt"),
    dict(role="Finance assistant", fam="books", editor=["typora", "notepad++"], ext="md"),
    dict(role="User researcher", fam="research", editor=["obsidian"], ext="md"),
    dict(role="Market researcher", fam="research", editor=["typora", "code"], ext="md"),
    dict(role="Support lead", fam="support", editor=["code", "obsidian"], ext="md"),
    dict(role="Support specialist", fam="support", editor=["notepad++", "typora"], ext="txt"),
    dict(role="Office and operations manager", fam="ops", editor=["typora", "obsidian"], ext="md"),
]
AUTOSAVE_EDITORS = {"code", "obsidian", "typora"}

JOB_TASKS = {
    "eng": {"T-03": 3, "T-09": 4, "T-11": 5, "T-12": 4, "T-13": 5, "T-15": 3, "T-17": 4, "T-19": 3, "T-14": 3,
            "T-06": 2, "T-10": 3, "T-18": 3, "T-32": 2, "T-21": 2, "T-08": 1.5},
    "pm": {"T-04": 5, "T-08": 4, "T-20": 4, "T-16": 4, "T-13": 3, "T-19": 3, "T-01": 2, "T-14": 2, "T-02": 2,
           "T-15": 2, "T-10": 2, "T-27": 1},
    "books": {"T-29": 5, "T-21": 4, "T-05": 3, "T-11": 4, "T-15": 3, "T-24": 3, "T-01": 3, "T-14": 3, "T-26": 3,
              "T-08": 2, "T-32": 2},
    "research": {"T-06": 5, "T-07": 3, "T-28": 3, "T-24": 3, "T-22": 3, "T-25": 3, "T-03": 3, "T-15": 3, "T-31": 2,
                 "T-23": 2, "T-09": 2, "T-30": 2},
    "support": {"T-16": 5, "T-02": 3, "T-13": 3, "T-10": 4, "T-18": 4, "T-04": 3, "T-30": 3, "T-25": 2, "T-20": 3,
                "T-17": 2, "T-19": 2},
    "ops": {"T-05": 4, "T-20": 3, "T-26": 4, "T-23": 3, "T-27": 2, "T-29": 2, "T-04": 3, "T-16": 3, "T-21": 3,
            "T-31": 2, "T-22": 2},
}
AREA = {  # deep-folder vocab per job family (for C=L trees)
    "eng": [["docs", "design"], ["engineering", "specs"], ["docs", "rfcs"]],
    "pm": [["projects", "delivery"], ["pm", "reports"], ["projects", "status"]],
    "books": [["finance", "records"], ["accounts", "books"], ["finance", "working papers"]],
    "research": [["research", "studies"], ["research", "notes"], ["studies", "analysis"]],
    "support": [["support", "kb"], ["support", "reports"], ["cs", "knowledge"]],
    "ops": [["office", "admin"], ["operations", "records"], ["admin", "files"]],
}
FLAT_DIR = ["reports", "notes", "docs", "output", "work", "drafts"]
SCRATCH = ["scratch.md", "tmp.txt", "notes_tmp.md", "draft0.md", "todo.txt", "untitled.txt", "temp-outline.md",
           "scratchpad.txt", "wip.md"]
TEMP_RE = re.compile(r"(^~\$|^\.~lock|\.tmp$|\btmp\b|temp|scratch|untitled|\(\d\)|^copy of|\.bak$|_old\b|\bwip\b|draft0)",
                     re.I)


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
def sha16(data: str | bytes) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:16]


def clamp(x: float, lo: float, hi: float) -> float:
    return max(lo, min(hi, x))


def words_of(phrase: str) -> list[str]:
    return [w for w in re.split(r"[^A-Za-z0-9]+", phrase.lower()) if w]


def style_stem(words: list[str], style: str, date: datetime) -> str:
    words = words or ["file"]
    if style == "snake":
        return "_".join(words)
    if style == "kebab":
        return "-".join(words)
    if style == "space":
        return " ".join(w.capitalize() for w in words)
    if style == "camel":
        return words[0] + "".join(w.capitalize() for w in words[1:])
    if style == "date_snake":
        return date.strftime("%Y-%m-%d") + "_" + "_".join(words)
    if style == "date_space":
        return date.strftime("%Y%m%d") + " " + " ".join(words)
    if style == "upper":
        return "_".join(w.upper() if i == 0 else w for i, w in enumerate(words))
    return "_".join(words)


def classify_stem(stem: str) -> str:
    if " " in stem:
        return "space"
    if re.fullmatch(r"[a-z0-9]+(_[a-z0-9]+)+", stem):
        return "snake"
    if re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", stem):
        return "kebab"
    if re.fullmatch(r"[a-z]+([A-Z][a-z0-9]*)+", stem):
        return "camel"
    if re.fullmatch(r"[a-z0-9]+", stem):
        return "plain"
    return "mixed"


def split_name(name: str) -> tuple[str, str]:
    if "." in name[1:]:
        stem, ext = name.rsplit(".", 1)
        return stem, ext
    return name, ""


def pattern_change(old_name: str, new_name: str) -> str:
    so, _ = split_name(old_name)
    sn, _ = split_name(new_name)
    co, cn = classify_stem(so), classify_stem(sn)
    if co == "snake" and cn == "kebab":
        return "snake_to_kebab"
    if co == "kebab" and cn == "snake":
        return "kebab_to_snake"
    if so.lower() == sn.lower() and so != sn:
        return "case_change"
    if co == "mixed":
        return "mixed_to_other"
    return "other"


def parent(rel: str) -> str:
    return rel.rsplit("/", 1)[0] if "/" in rel else ""


def basename(rel: str) -> str:
    return rel.rsplit("/", 1)[-1]


def ddepth(dir_rel: str) -> int:
    return 0 if dir_rel == "" else dir_rel.count("/") + 1


def join(d: str, name: str) -> str:
    return name if d == "" else d + "/" + name


def ext_of(rel: str) -> str:
    n = basename(rel)
    return n.rsplit(".", 1)[1].lower() if "." in n[1:] else ""


def to_txt(text: str) -> str:
    """Plain-text writers: numbered headings keep the depth visible."""
    out = []
    cnt = [0, 0, 0, 0]
    for ln in text.split("\n"):
        m = re.match(r"^(#{1,4}) (.*)$", ln)
        if m:
            lvl = len(m.group(1))
            if lvl == 1:
                out.append(m.group(2).upper())
                continue
            i = lvl - 2
            cnt[i] += 1
            for j in range(i + 1, 4):
                cnt[j] = 0
            out.append(".".join(str(c) for c in cnt[: i + 1]) + " " + m.group(2))
            continue
        m = re.match(r"^!\[(.*)\]\((.*)\)$", ln)
        if m:
            out.append(f"Figure: {m.group(1)} -> {m.group(2)}")
            continue
        out.append(ln)
    return "\n".join(out)


# ---------------------------------------------------------------------------
# text generation
# ---------------------------------------------------------------------------
class Writer:
    def __init__(self, rng: random.Random, fam: str, tid: str, quirks: dict[str, Any]) -> None:
        self.r = rng
        self.nouns_role = ROLE_LEX[fam]
        self.nouns_topic = TOPIC[tid]
        self.q = quirks  # dict: bullet, checkbox, numbered, sent_len

    def noun(self):
        return self.r.choice(self.nouns_topic if self.r.random() < 0.55 else self.nouns_role)

    def date(self):
        return f"2024-{self.r.randint(1, 12):02d}-{self.r.randint(1, 28):02d}"

    def sentence(self):
        r = self.r
        n1, n2, n3 = self.noun(), self.noun(), self.noun()
        a = r.choice(ADJ)
        t = r.randrange(10)
        if t == 0:
            s = f"The {a} {n1} {r.choice(VERBS)} the {n2}."
        elif t == 1:
            s = f"{n1.capitalize()} {r.choice(VERBS)} {n2} for the {a} {n3}."
        elif t == 2:
            s = f"We noted that the {n1} {r.choice(VERBS)} the {n2} ({r.randint(2, 60)} items)."
        elif t == 3:
            s = f"The {n1} was {r.choice(PPART)} after the {n2} review on {self.date()}."
        elif t == 4:
            s = f"{n1.capitalize()} and {n2} are still {a}; the {n3} {r.choice(VERBS)} both."
        elif t == 5:
            s = f"About {r.randint(3, 95)}% of the {n1} {r.choice(VERBS)} the {a} {n2}."
        elif t == 6:
            s = f"Next step is to check the {n1} against the {a} {n2} with {r.choice(PEOPLE)}."
        elif t == 7:
            s = f"{r.choice(PEOPLE)} {r.choice(['thinks', 'reports', 'confirmed', 'asked whether'])} the {a} {n1} {r.choice(VERBS)} the {n2}."
        elif t == 8:
            s = f"Because the {n1} {r.choice(VERBS)} the {n2}, the {a} {n3} needs a second look before {self.date()}."
        else:
            s = f"In short, the {n1} {r.choice(VERBS)} the {n2} and nothing else changed."
        if self.q["sent_len"] > 1.2 and r.random() < 0.5:
            s = s[:-1] + f", which also {r.choice(VERBS)} the {r.choice(ADJ)} {self.noun()}."
        return s

    def short(self):
        r = self.r
        t = r.randrange(5)
        if t == 0:
            return f"{r.choice(ADJ)} {self.noun()}"
        if t == 1:
            return f"{self.noun()} {r.choice(VERBS)} {self.noun()}"
        if t == 2:
            return f"{self.noun()}: {r.choice(PPART)} ({r.choice(PEOPLE)})"
        if t == 3:
            return f"check {self.noun()} by {self.date()}"
        return f"{self.noun()} -> {r.choice(ADJ)}"

    def bullet(self, indent=0, short=True):
        b = self.q["bullet"]
        body = self.short() if short else self.sentence()
        if self.q["checkbox"] and self.r.random() < 0.35:
            body = "[ ] " + body
        return "  " * indent + f"{b} {body}"

    def heading(self):
        r = self.r
        if r.random() < 0.45:
            return r.choice(HEAD_FIXED)
        return f"{self.noun().capitalize()} {r.choice(['review', 'notes', 'status', 'overview', 'details', 'plan', 'issues', 'summary'])}"

    def paragraph(self, n):
        return [self.sentence() for _ in range(n)]

    def blist(self, n, nested=False, short=True):
        out = []
        num = self.q["numbered"] and self.r.random() < 0.4
        for i in range(n):
            line = self.bullet(0, short)
            if num:
                line = f"{i + 1}. " + line.split(" ", 1)[1]
            out.append(line)
            if nested and self.r.random() < 0.3:
                for _ in range(self.r.randint(1, 3)):
                    out.append(self.bullet(1, True))
        return out

    def table(self, rows):
        r = self.r
        kind = r.randrange(3)
        if kind == 0:
            head = ["Item", "Owner", "Status", "Due"]
            body = [[self.noun(), r.choice(PEOPLE), r.choice(["open", "done", "blocked", "in progress"]), self.date()]
                    for _ in range(rows)]
        elif kind == 1:
            head = [self.noun().capitalize(), "Count", "Amount", "Note"]
            body = [[self.noun(), str(r.randint(1, 400)), "%.2f" % (r.random() * 9000), r.choice(ADJ)]
                    for _ in range(rows)]
        else:
            head = ["Source", "Date", "Finding"]
            body = [[self.noun(), self.date(), self.short()] for _ in range(rows)]
        out = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] * len(head)) + "|"]
        out += ["| " + " | ".join(c) + " |" for c in body]
        return out

    def compose(self, title, target, bmode, n_tables=0, figs=(), links=()):
        """bmode: L / M / R structure.  target: line count incl. blanks."""
        r = self.r
        blocks = []
        if bmode == "L":
            blocks.append(["# " + title, ""])
            blocks.append(self.paragraph(r.randint(2, 4)) + [""])
            if r.random() < 0.4:
                blocks.append(["## Contents"] + [f"{self.q['bullet']} {self.heading()}" for _ in range(r.randint(4, 7))] + [""])
            while sum(len(b) for b in blocks) < target:
                blk = ["## " + self.heading(), ""] + self.paragraph(r.randint(2, 4)) + [""]
                for _ in range(r.randint(1, 3)):
                    blk += ["### " + self.heading(), ""]
                    if r.random() < 0.5:
                        blk += self.paragraph(r.randint(2, 5)) + [""]
                    else:
                        blk += self.blist(r.randint(3, 7), nested=True, short=r.random() < 0.5) + [""]
                    if r.random() < 0.25:
                        blk += ["#### " + self.heading(), ""] + self.blist(r.randint(2, 5)) + [""]
                blocks.append(blk)
        elif bmode == "M":
            blocks.append(["# " + title, ""])
            blocks.append(self.paragraph(r.randint(1, 3)) + [""])
            while sum(len(b) for b in blocks) < target:
                blk = ["## " + self.heading(), ""] + self.paragraph(r.randint(2, 4)) + [""]
                if r.random() < 0.4:
                    blk += self.blist(r.randint(3, 6), short=False) + [""]
                if r.random() < 0.15:
                    blk += ["### " + self.heading(), ""] + self.paragraph(r.randint(1, 3)) + [""]
                blocks.append(blk)
        else:  # R: bullets
            head = ["# " + title, ""] if r.random() < 0.6 else []
            blocks.append(head)
            while sum(len(b) for b in blocks) < target:
                blk = []
                if target > 25 and r.random() < 0.3:
                    blk += ["", "## " + self.heading()]
                blk += self.blist(r.randint(3, 8))
                blocks.append(blk)
        # trim overshoot on the last block
        total = sum(len(b) for b in blocks)
        if total > target + 4 and len(blocks) > 2:
            over = total - target
            last = blocks[-1]
            keep = max(2, len(last) - over)
            blocks[-1] = last[:keep]
        # insert tables / figures into the first 2/3 of the document
        inserts = []
        for _ in range(n_tables):
            inserts.append([""] + self.table(r.randint(3, 8)) + [""])
        for cap, path in figs:
            inserts.append(["", f"![{cap}]({path})", ""])
        for ins in inserts:
            pos = r.randint(1, max(1, (2 * len(blocks)) // 3))
            blocks.insert(pos, ins)
        if links:
            blocks.append(["", "See also:"] + [f"{self.q['bullet']} [{basename(ln)}]({ln})" for ln in links])
        lines = [ln for b in blocks for ln in b]
        while lines and lines[-1] == "":
            lines.pop()
        while lines and lines[0] == "":
            lines.pop(0)
        if not lines:
            lines = [self.bullet()]
        return "\n".join(lines) + "\n"

    # input documents written by other people
    def input_text(self, ext, n):
        r = self.r
        if ext == "csv" or ext == "tsv":
            sep = "," if ext == "csv" else "\t"
            head = ["id", "date", words_of(self.noun())[0], "amount", "status"]
            rows = [sep.join(head)]
            for i in range(n):
                rows.append(sep.join([str(i + 1), self.date(), "_".join(words_of(self.noun())),
                                      "%.2f" % (r.random() * 5000), r.choice(["ok", "check", "open", "paid"])]))
            return "\n".join(rows) + "\n"
        if ext == "eml":
            lines = [f"From: {r.choice(PEOPLE).lower()}@example.com", "To: team@example.com",
                     f"Subject: {self.heading()}", f"Date: {self.date()}", ""]
            lines += self.paragraph(max(3, n - 5))
            return "\n".join(lines) + "\n"
        if ext == "ics":
            lines = ["BEGIN:VCALENDAR"]
            for _ in range(max(1, n // 6)):
                lines += ["BEGIN:VEVENT", f"SUMMARY:{self.heading()}", f"DTSTART:20240{r.randint(1, 9)}{r.randint(1, 28):02d}T0900",
                          f"DESCRIPTION:{self.short()}", "END:VEVENT"]
            lines.append("END:VCALENDAR")
            return "\n".join(lines) + "\n"
        if ext == "json":
            return json.dumps([{"name": self.noun(), "value": r.randint(0, 999)} for _ in range(max(2, n // 3))], indent=1) + "\n"
        if ext == "md":
            return self.compose(self.heading(), n, r.choice("LMMR"), n_tables=1 if r.random() < 0.25 else 0)
        # txt
        lines = []
        while len(lines) < n:
            lines += self.paragraph(r.randint(2, 5)) + [""]
        return "\n".join(lines[:n]).rstrip("\n") + "\n"


# ---------------------------------------------------------------------------
# media store (per session)
# ---------------------------------------------------------------------------
class Media:
    def __init__(self) -> None:
        self.entries: dict[str, dict[str, Any]] = {}  # hash -> manifest entry
        self.files: dict[str, str] = {}  # blobs/<h>.blob or diffs/<h>.diff -> text

    def _put(self, kind, text, orig):
        h = sha16(text)
        sub = "blobs" if kind == "blob" else "diffs"
        ext = "blob" if kind == "blob" else "diff"
        path = f"{sub}/{h}.{ext}"
        if h not in self.entries:
            self.entries[h] = {"type": kind, "original_path": orig, "size_bytes": len(text.encode("utf-8")),
                               "references": 0}
            self.files[path] = text[: 1 << 20]
        self.entries[h]["references"] += 1
        return {"type": kind, "hash": h, "path": path}

    def blob(self, text, orig):
        return self._put("blob", text, orig)

    def diff(self, text, orig):
        return self._put("diff", text, orig)


# ---------------------------------------------------------------------------
# users
# ---------------------------------------------------------------------------
def make_users(seed: int, n_users: int) -> list[dict[str, Any]]:
    rng = random.Random(f"alt5-users-{seed}")
    personas = PERSONAS[:]
    rng.shuffle(personas)
    while len(personas) < n_users:
        personas.append(dict(rng.choice(PERSONAS)))
    personas = personas[:n_users]
    # balanced tier columns: counts rotate per dim
    base = n_users // 3
    extra = n_users - 3 * base
    for _ in range(500):
        cols = {}
        for i, d in enumerate(DIMS):
            cnt = [base] * 3
            for k in range(extra):
                cnt[(i + k) % 3] += 1
            col = [t for t, c in zip(TIERS, cnt, strict=True) for _ in range(c)]
            rng.shuffle(col)
            cols[d] = col
        vecs = ["".join(cols[d][u] for d in DIMS) for u in range(n_users)]
        if len(set(vecs)) == n_users:
            break
    users = []
    styles = ["snake", "kebab", "space", "camel", "date_snake", "date_space"]

    # stratified culture parameters: the full range is covered for every seed
    def strata(lo: float, hi: float) -> list[float]:
        xs = [math.exp(math.log(lo) + (i + rng.random()) / n_users * (math.log(hi) - math.log(lo))) for i in range(n_users)]
        rng.shuffle(xs)
        return xs
    verb = strata(0.45, 1.9)
    actv = strata(0.3, 2.2)
    for u in range(n_users):
        p = personas[u]
        uid = f"q{u:02d}"
        prim = rng.choice(styles)
        sec = rng.choice([s for s in styles if s != prim])
        users.append(dict(
            uid=uid, role=p["role"], fam=p["fam"],
            tiers={d: cols[d][u] for d in DIMS},
            verbosity=verb[u],
            activity=actv[u],
            pace=rng.uniform(0.6, 1.6),
            expr={d: round(rng.uniform(0.5, 1.0), 3) for d in DIMS},
            p_reread=rng.uniform(0.1, 0.5),
            editor=rng.choice(p["editor"]),
            p_lookup=rng.uniform(0.03, 0.15),
            p_scratch=rng.uniform(0.15, 0.6),
            p_backup_noise=rng.uniform(0.03, 0.09),
            naming=(prim, sec),
            out_ext=p["ext"] if rng.random() < 0.8 else ("txt" if p["ext"] == "md" else "md"),
            quirks=dict(bullet=rng.choice(["-", "-", "*"]), checkbox=p["fam"] in ("pm", "support") or rng.random() < 0.2,
                        numbered=rng.random() < 0.4, sent_len=rng.uniform(0.7, 1.6)),
            n_sessions=rng.randint(20, 32),
            search_pref=(["grep", "grep", "glob", "find"] if p["fam"] == "eng" else ["spotlight", "glob", "find", "grep"]),
        ))
        users[-1]["p_autosave"] = rng.uniform(0.1, 0.35) if users[-1]["editor"] in AUTOSAVE_EDITORS else rng.uniform(0, 0.08)
    return users


def plan_sessions(user: dict[str, Any], seed: int) -> list[dict[str, Any]]:
    rng = random.Random(f"alt5-plan-{seed}-{user['uid']}")
    job = JOB_TASKS[user["fam"]]
    weights = {}
    for tid in sorted(T):
        w = job.get(tid, 0.4)
        weights[tid] = w * math.exp(rng.gauss(0, 0.35))
    tids = sorted(weights)
    ws = [weights[t] for t in tids]
    n = user["n_sessions"]
    tasks = [rng.choices(tids, ws)[0] for _ in range(n)]
    # every dim active in >= 3 sessions
    for d in DIMS:
        guard = 0
        while sum(1 for t in tasks if d in T[t]["dims"]) < 3 and guard < 50:
            guard += 1
            cand = [t for t in tids if d in T[t]["dims"]]
            new = rng.choices(cand, [weights[t] for t in cand])[0]
            # replace a session whose task is the most frequent one
            counts = {t: tasks.count(t) for t in tasks}
            top = max(sorted(counts), key=lambda t: counts[t])
            idxs = [i for i, t in enumerate(tasks) if t == top]
            tasks[rng.choice(idxs)] = new
    sessions = []
    for i, tid in enumerate(tasks):
        lookup = (T[tid]["inputs"][1] > 0 and T[tid]["type"] in ("understand", "synthesize", "organize", "iterate", "maintain")
                  and rng.random() < user["p_lookup"])
        sessions.append(dict(idx=i, sid=f"{user['uid']}_S{i:02d}", task=tid, lookup=lookup, perturb=None))
    k = rng.randint(2, 4)
    cands = [s for s in sessions if not s["lookup"] and s["idx"] > 0]
    rng.shuffle(cands)
    for s in sorted(cands[:k], key=lambda s: s["idx"]):
        d = rng.choice(list(T[s["task"]]["dims"]))
        ut = user["tiers"][d]
        if ut == "M":
            shown = rng.choice("LR")
        else:
            shown = "M" if rng.random() < 0.8 else ("R" if ut == "L" else "L")
        s["perturb"] = (d, ut, shown)
    return sessions


# ---------------------------------------------------------------------------
# session simulator
# ---------------------------------------------------------------------------
class Session:
    def __init__(self, user: dict[str, Any], plan: dict[str, Any], seed: int, start_ms: float) -> None:
        self.u = user
        self.plan = plan
        self.sid = plan["sid"]
        self.task = T[plan["task"]]
        self.r = random.Random(f"alt5-sess-{seed}-{self.sid}")
        self.root = f"{WORK_ROOT}/{self.sid}"
        self.clock = start_ms
        self.date = datetime.fromtimestamp(start_ms / 1000.0, tz=UTC)
        self.events = []
        self.media = Media()
        self.files = {}  # rel -> dict(content, size, ctime, here, junk)
        self.dirs = [""]
        self.views = {}
        self.focus = None
        self.focus_kind = None
        self.focus_ts = None
        self.switches = 0
        self.pairs = []
        self.search_ev = None
        self.search_hits = []
        self.scratch = []
        self.intermediate = []
        self.outputs = []
        self.w = Writer(self.r, user["fam"], self.task["id"], user["quirks"])
        # modes
        self.forced = {}
        tiers = dict(user["tiers"])
        if plan["perturb"]:
            d, _, shown = plan["perturb"]
            tiers[d] = shown
            self.forced[d] = True
        self.tiers = tiers
        self.mode = {}
        for d in DIMS:
            t = tiers[d]
            if d in self.forced or (d in "CEF" and t == "R"):
                self.mode[d] = t
                continue
            p = user["expr"][d] * (1.0 if d in self.task["dims"] else 0.55)
            self.mode[d] = t if self.r.random() < p else "muted"

    # ---------------- primitives ----------------
    def A(self, rel):
        return self.root if rel == "" else f"{self.root}/{rel}"

    def gap(self, lo, hi):
        self.clock += self.r.uniform(lo, hi) * 1000.0 * self.u["pace"]

    def uid4(self):
        return str(uuid.UUID(int=self.r.getrandbits(128), version=4))

    def emit(self, etype, **fields):
        ev = {"event_id": self.uid4(), "event_type": etype, "timestamp": round(self.clock, 3),
              "session_id": self.sid, "profile_id": self.u["uid"], "message_id": None,
              "model_provider": None, "model_name": None}
        ev.update(fields)
        self.events.append(ev)
        return ev

    def children(self, d):
        n = sum(1 for f in self.files if parent(f) == d)
        n += sum(1 for x in self.dirs if x != "" and parent(x) == d)
        return n

    def name(self, phrase, ext, style=None):
        # drop old date-ish tokens when re-naming
        phrase = " ".join(w for w in words_of(phrase) if not (w.isdigit() and len(w) >= 4)) or "file"
        if style is None:
            prim, sec = self.u["naming"]
            style = prim if self.r.random() < 0.75 else sec
        w = words_of(phrase)
        return style_stem(w, style, self.date) + "." + ext

    def dirname(self, phrase):
        st = self.u["naming"][0]
        if st.startswith("date"):
            st = "snake" if st == "date_snake" else "space"
        return style_stem(words_of(phrase), st, self.date)

    def unique(self, rel):
        if rel not in self.files and rel not in self.dirs:
            return rel
        stem, ext = split_name(basename(rel))
        k = 2
        while True:
            cand = join(parent(rel), f"{stem}{k}.{ext}" if ext else f"{stem}{k}")
            if cand not in self.files and cand not in self.dirs:
                return cand
            k += 1

    def content(self, rel):
        f = self.files[rel]
        if f["content"] is None and ext_of(rel) in TEXT_EXT:
            f["content"] = self.w.input_text(ext_of(rel), f["nlines"])
            f["size"] = len(f["content"])
        return f["content"]

    def touch(self, rel, kind):
        now = self.clock
        if self.focus is not None and self.focus != rel and self.focus in self.files:
            self.switches += 1
            from_search = kind == "read" and rel in self.search_hits
            trig = "search_result" if from_search else ("open" if kind == "read" else "save")
            self.clock += self.r.uniform(2, 40)
            self.emit("context_switch", from_file=self.A(self.focus), to_file=self.A(rel), trigger=trig,
                      switch_count=self.switches)
            interval = now - self.focus_ts
            pair = (self.focus, rel)
            if interval <= 300000 and pair not in self.pairs:
                rtype = None
                if from_search:
                    rtype = "search_then_read"
                elif self.focus_kind == "read" and kind in ("edit", "write"):
                    rtype = "read_then_edit"
                elif kind == "read":
                    rtype = "sequential_access"
                if rtype:
                    self.pairs.append(pair)
                    self.clock += self.r.uniform(1, 20)
                    self.emit("cross_file_reference", source_file=self.A(self.focus), target_file=self.A(rel),
                              reference_type=rtype, interval_ms=round(interval, 3))
        self.focus, self.focus_kind, self.focus_ts = rel, kind, now

    def end_search(self):
        self.search_ev = None
        self.search_hits = []

    # ---------------- actions ----------------
    def mkdir_p(self, d):
        parts = d.split("/") if d else []
        cur = ""
        for p in parts:
            cur = join(cur, p)
            if cur not in self.dirs:
                self.gap(2, 9)
                sib = self.children(parent(cur))
                self.dirs.append(cur)
                self.emit("dir_create", dir_path=self.A(cur), depth=ddepth(cur), sibling_count=sib)

    def browse(self, d):
        self.gap(2, 8)
        self.end_search()
        self.emit("file_browse", directory_path=self.A(d), files_listed=self.children(d), depth=ddepth(d))

    def search(self, stype, query, hits):
        self.gap(4, 18)
        self.search_ev = self.emit("file_search", search_type=stype, query=query, files_matched=len(hits),
                                   files_opened_after=[])
        self.search_hits = list(hits)

    def read(self, rel, how="whole"):
        f = self.files[rel]
        ext = ext_of(rel)
        text = self.content(rel)
        cnt, last = self.views.get(rel, (0, None))
        cnt += 1
        if text is not None:
            lines = text.split("\n")
            if lines and lines[-1] == "":
                lines.pop()
            n = max(1, len(lines))
            if how == "whole" or n <= 12:
                a, b = 1, n
            elif how == "partial":
                span = self.r.randint(8, 50)
                a = self.r.randint(1, max(1, n - span))
                b = min(n, a + span)
            else:  # skim
                a, b = 1, min(n, self.r.randint(5, 25))
            vr = [a, b]
            clen = len("\n".join(lines[a - 1:b]))
            dur = (b - a + 1) * self.r.uniform(0.3, 1.2)
        else:
            vr = None
            clen = f["size"]
            dur = {"skim": 4, "partial": 15}.get(how, 35) * self.r.uniform(0.5, 1.5)
        self.gap(3, 12)
        self.clock += dur * 100.0 * self.u["pace"]  # part of reading time before the next action
        rev = None if last is None else round(self.clock - last, 3)
        self.emit("file_read", file_path=self.A(rel), file_type=ext, directory_depth=ddepth(parent(rel)),
                  view_count=cnt, view_range=vr, content_length=clen, revisit_interval_ms=rev)
        self.views[rel] = (cnt, self.clock)
        if self.search_ev is not None and rel in self.search_hits:
            p = self.A(rel)
            if p not in self.search_ev["files_opened_after"]:
                self.search_ev["files_opened_after"].append(p)
        self.touch(rel, "read")
        self.clock += dur * 900.0 * self.u["pace"]

    def write_new(self, rel, text=None, ext=None, size=None, compose_secs=None):
        ext = ext or ext_of(rel)
        if compose_secs is None:
            compose_secs = (len(text) / 40.0) if text else self.r.uniform(10, 60)
        self.gap(5, 20)
        self.clock += compose_secs * 1000.0 * self.u["pace"] * self.r.uniform(0.6, 1.3)
        if text is not None:
            mref = self.media.blob(text, rel)
            h = mref["hash"]
            clen = len(text)
        else:
            size = int(size or 50000)
            h = sha16(f"{self.sid}/{rel}/{size}/{self.r.random()}")
            mref = None
            clen = size
        self.end_search()
        self.emit("file_write", file_path=self.A(rel), file_type=ext, directory_depth=ddepth(parent(rel)),
                  operation="create", content_length=clen, before_hash=None, after_hash=h, media_ref=mref)
        self.files[rel] = dict(content=text, size=clen, ctime=self.clock, here=True, junk=False, nlines=0, hash=h)
        self.touch(rel, "write")
        return rel

    def save(self, rel, new, secs=None, force_edit=False):
        """Logger rule: >50% of lines changed -> file_write overwrite, else file_edit."""
        f = self.files[rel]
        old = self.content(rel) or ""
        if new == old:
            new = new + self.w.bullet() + "\n"
        ol, nl = old.splitlines(), new.splitlines()
        added = deleted = 0
        for ln in difflib.unified_diff(ol, nl, lineterm="", n=0):
            if ln.startswith("+++") or ln.startswith("---"):
                continue
            if ln.startswith("+"):
                added += 1
            elif ln.startswith("-"):
                deleted += 1
        frac = (added + deleted) / max(1, len(ol) + len(nl))
        if secs is None:
            secs = 8 + (added + deleted) * self.r.uniform(2, 6)
        self.gap(3, 12)
        self.clock += secs * 1000.0 * self.u["pace"]
        self.end_search()
        old_h = sha16(old)
        if frac > 0.5 and not force_edit:
            mref = self.media.blob(new, rel)
            self.emit("file_write", file_path=self.A(rel), file_type=ext_of(rel), directory_depth=ddepth(parent(rel)),
                      operation="overwrite", content_length=len(new), before_hash=old_h, after_hash=mref["hash"],
                      media_ref=mref)
            kind = "write"
        else:
            mo = self.media.blob(old, rel)
            mn = self.media.blob(new, rel)
            dtext = "\n".join(difflib.unified_diff(ol, nl, fromfile=f"a/{rel}", tofile=f"b/{rel}", lineterm="", n=2)) + "\n"
            md = self.media.diff(dtext, rel)
            self.emit("file_edit", file_path=self.A(rel), file_type=ext_of(rel), edit_tool=self.u["editor"],
                      lines_added=added, lines_deleted=deleted, lines_modified=min(added, deleted),
                      diff_summary=f"+{added} -{deleted}", before_hash=old_h, after_hash=mn["hash"],
                      media_ref_old=mo, media_ref_new=mn, media_ref_diff=md)
            kind = "edit"
        f["content"] = new
        f["size"] = len(new)
        self.touch(rel, kind)

    def move(self, rel, new_rel):
        new_rel = self.unique(new_rel)
        self.mkdir_p(parent(new_rel))
        self.gap(2, 9)
        self.emit("file_move", old_path=self.A(rel), new_path=self.A(new_rel),
                  destination_directory_depth=ddepth(parent(new_rel)))
        self._relocate(rel, new_rel)
        return new_rel

    def rename(self, rel, new_name):
        new_rel = self.unique(join(parent(rel), new_name))
        if new_rel == rel:
            return rel
        self.gap(3, 10)
        self.emit("file_rename", old_path=self.A(rel), new_path=self.A(new_rel),
                  naming_pattern_change=pattern_change(basename(rel), basename(new_rel)))
        self._relocate(rel, new_rel)
        return new_rel

    def _relocate(self, rel, new_rel):
        self.files[new_rel] = self.files.pop(rel)
        if rel in self.views:
            self.views.pop(rel)
        if self.focus == rel:
            self.focus = new_rel
        for lst in (self.scratch, self.intermediate, self.outputs):
            if rel in lst:
                lst[lst.index(rel)] = new_rel

    def copy(self, rel, dest, is_backup):
        dest = self.unique(dest)
        self.gap(2, 8)
        self.emit("file_copy", source_path=self.A(rel), dest_path=self.A(dest), is_backup=is_backup)
        f = dict(self.files[rel])
        f["ctime"] = self.clock
        f["here"] = True
        self.files[dest] = f
        return dest

    def delete(self, rel):
        f = self.files[rel]
        self.gap(1, 6)
        tmp = bool(f["here"]) or bool(TEMP_RE.search(basename(rel)))
        self.emit("file_delete", file_path=self.A(rel), file_age_ms=round(self.clock - f["ctime"], 3),
                  was_temporary=tmp)
        self.files.pop(rel)
        self.views.pop(rel, None)
        for lst in (self.scratch, self.intermediate, self.outputs):
            if rel in lst:
                lst.remove(rel)
        if self.focus == rel:
            self.focus = None

    # ---------------- workspace ----------------
    def setup_inputs(self):
        t = self.task
        r = self.r
        lo, hi = t["inputs"]
        if hi == 0:
            return
        n = r.randint(lo, hi)
        mix = MIX[t["mix"]]
        exts = [e for e, _ in mix]
        ws = [w for _, w in mix]
        sub = []
        if t["nested"]:
            pool = ["Downloads", "misc", "old stuff", "inbox", "scans/2023", "shared/from_team", "archive/2022", "tmp_export"]
            r.shuffle(pool)
            sub = pool[: r.randint(2, 4)]
            for d in sub:
                cur = ""
                for p in d.split("/"):
                    cur = join(cur, p)
                    if cur not in self.dirs:
                        self.dirs.append(cur)
        topic = TOPIC[t["id"]]
        styles = ["snake", "kebab", "space", "camel", "date_snake", "date_space", "upper"]
        need_text = t["iterate"] == "inputs"
        for i in range(n):
            ext = r.choices(exts, ws)[0]
            if need_text and i == 0:
                ext = "md"
            phrase = r.choice(topic) + ("" if r.random() < 0.4 else " " + str(r.randint(1, 30)))
            if r.random() < 0.3:
                phrase = r.choice(ADJ) + " " + phrase
            stem_style = r.choice(styles)
            fname = style_stem(words_of(phrase), stem_style, self.date - timedelta(days=r.randint(5, 400)))
            d = r.choice(sub) if (sub and r.random() < 0.6) else ""
            rel = self.unique(join(d, fname + "." + ext))
            self._add_input(rel, ext, junk=False)
        if self.task["id"] == "T-13":
            self._add_input(self.unique("review_comments.txt"), "txt", junk=False)
        if self.task["id"] == "T-18":
            for k in range(3):
                self._add_input(self.unique(f"update_round_{k + 1}.md"), "md", junk=False)
        jlo, jhi = t["junk"]
        nj = r.randint(jlo, jhi)
        if self.forced.get("E") and nj == 0:
            nj = 2
        if self.task["id"] == "T-21":
            nj = max(nj, 3)
        base_files = [f for f in self.files if not self.files[f]["junk"]]
        for _ in range(nj):
            src = r.choice(base_files) if base_files else "notes.txt"
            stem, ext = split_name(basename(src))
            ext = ext or "txt"
            kind = r.randrange(6)
            if kind == 0:
                nm = f"~${stem}.{ext}"
            elif kind == 1:
                nm = f"Copy of {stem}.{ext}"
            elif kind == 2:
                nm = f"{stem} (1).{ext}"
            elif kind == 3:
                nm, ext = f"{stem}.tmp", "tmp"
            elif kind == 4:
                nm, ext = "untitled.txt", "txt"
            else:
                nm = f"{stem}_old.{ext}"
            rel = join(parent(src), nm)
            if rel in self.files:
                continue
            self._add_input(rel, ext, junk=True)

    def _add_input(self, rel, ext, junk):
        r = self.r
        if ext in BIN_SIZE:
            lo, hi = BIN_SIZE[ext]
            size = int(math.exp(r.uniform(math.log(lo), math.log(hi))))
            nl = 0
        else:
            nl = r.randint(15, 250) if ext in ("md", "txt", "csv", "eml") else r.randint(8, 40)
            if self.task["iterate"] == "inputs" and ext == "md":
                nl = r.randint(60, 260)
            size = nl * 60
        self.files[rel] = dict(content=None, size=size, ctime=self.clock - r.uniform(1, 400) * 86400000.0,
                               here=False, junk=junk, nlines=nl, hash=None)

    def inputs(self, include_junk=True):
        return [f for f in sorted(self.files) if not self.files[f]["here"] and (include_junk or not self.files[f]["junk"])]

    def text_inputs(self):
        return [f for f in self.inputs(False) if ext_of(f) in ("md", "txt", "csv") and not self.files[f]["junk"]]

    # ---------------- A: consumption ----------------
    def consume(self, cands, intensity=1.0):
        if not cands:
            return []
        r = self.r
        mode = self.mode["A"]
        act = self.u["activity"]
        n = len(cands)
        read_now = []
        if mode == "L":
            if r.random() < 0.6:
                self.browse("")
            k = int(clamp(round(n * r.uniform(0.45, 0.9) * act * intensity), 1, n))
            chosen = sorted(cands)[:k] if r.random() < 0.7 else sorted(cands[:])[-k:]
            for f in chosen:
                self.read(f, "whole")
                read_now.append(f)
                if r.random() < 0.15 and len(read_now) > 1:
                    self.read(r.choice(read_now[:-1]), "whole")
            nrev = int(round(len(chosen) * r.uniform(0.3, 0.6)))
            for f in r.sample(chosen, min(nrev, len(chosen))):
                self.read(f, "whole")
            if r.random() < 0.1:
                q = words_of(self.w.noun())[0]
                hits = r.sample(cands, min(len(cands), r.randint(1, 3)))
                self.search(r.choice(self.u["search_pref"]), q, hits)
                self.read(hits[0], "whole")
        elif mode == "M":
            if r.random() < 0.2:
                self.browse("")
            ns = int(clamp(round(r.uniform(1, 3) * act * intensity), 1, 5))
            for _ in range(ns):
                stype = r.choice(self.u["search_pref"])
                if stype == "glob":
                    e = ext_of(r.choice(cands))
                    hits = [f for f in cands if ext_of(f) == e]
                    q = f"**/*.{e}" if any("/" in h for h in hits) else f"*.{e}"
                elif stype == "find":
                    w = words_of(basename(r.choice(cands)))[0]
                    hits = [f for f in cands if w in basename(f).lower()]
                    q = f"find . -iname '*{w}*'"
                else:
                    q = words_of(self.w.noun())[0]
                    if r.random() < 0.3:
                        q += "|" + words_of(self.w.noun())[0]
                    hits = r.sample(cands, min(n, r.randint(0, 6)))
                hits = sorted(hits)
                self.search(stype, q, hits)
                for f in hits[: r.randint(1, 3)]:
                    ext = ext_of(f)
                    self.read(f, "partial" if ext in TEXT_EXT else "whole")
                    read_now.append(f)
            if read_now and r.random() < 0.15:
                self.read(r.choice(read_now), "partial")
        elif mode == "R":
            self.browse("")
            subs = sorted({parent(f) for f in cands if parent(f)})
            for d in subs[: int(clamp(round(len(subs) * act), 1, 8))]:
                self.browse(d)
            k = int(clamp(round(n * r.uniform(0.6, 1.0) * act * intensity), 1, n))
            chosen = r.sample(cands, k)
            for i, f in enumerate(chosen):
                self.read(f, "skim")
                read_now.append(f)
                if i % 5 == 4 and r.random() < 0.5:
                    self.browse(parent(f))
            if r.random() < 0.2:
                self.browse("")
            if r.random() < 0.07:
                hits = r.sample(cands, min(n, r.randint(1, 4)))
                self.search("spotlight", words_of(self.w.noun())[0], sorted(hits))
                self.read(sorted(hits)[0], "skim")
            if r.random() < 0.05 and read_now:
                self.read(r.choice(read_now), "skim")
        else:  # muted
            if r.random() < 0.35:
                self.browse("")
            k = int(clamp(round(n * r.uniform(0.2, 0.45) * act * intensity), 1, n))
            for f in r.sample(cands, k):
                self.read(f, r.choice(["whole", "partial"]))
                read_now.append(f)
            if read_now and r.random() < 0.1:
                self.read(r.choice(read_now), "whole")
        return read_now

    def revisit_sources(self):
        """While writing: A=L re-opens sources whole; M re-greps; R rarely."""
        r = self.r
        srcs = [f for f in self.views if f in self.files and not self.files[f]["here"]]
        if not srcs:
            return
        m = self.mode["A"]
        if m == "L" and r.random() < 0.6:
            self.read(r.choice(sorted(srcs)), "whole")
        elif m == "M" and r.random() < 0.15:
            f = r.choice(sorted(srcs))
            self.search(r.choice(self.u["search_pref"]), words_of(self.w.noun())[0], [f])
            self.read(f, "partial")
        elif m == "muted" and r.random() < 0.15:
            self.read(r.choice(sorted(srcs)), "partial")

    # ---------------- C: where things go ----------------
    def out_dir(self, purpose="doc"):
        if hasattr(self, "_outdir"):
            return self._outdir
        r = self.r
        m = self.mode["C"]
        fam = self.u["fam"]
        topic = self.dirname(r.choice(TOPIC[self.task["id"]]))
        if m == "L":
            area = [self.dirname(x) for x in r.choice(AREA[fam])]
            d = "/".join(area + [topic])
            if r.random() < 0.35:
                d += "/" + self.date.strftime("%Y-%m")
        elif m == "M":
            d = self.dirname(r.choice(FLAT_DIR))
            if r.random() < 0.3:
                d += "/" + topic
        elif m == "R":
            d = ""
        else:
            existing = [x for x in self.dirs if x and any(parent(f) == x and self.files[f]["here"] for f in self.files)]
            d = r.choice(existing) if existing and r.random() < 0.5 else ""
        self._outdir = d
        return d

    def place(self, name, sub=None):
        d = self.out_dir()
        if sub and self.mode["C"] == "L":
            d = join(d, self.dirname(sub))
        self.mkdir_p(d)
        return self.unique(join(d, name))

    # ---------------- B/F: production ----------------
    def b_lines(self, bmode, weight):
        r = self.r
        v = self.u["verbosity"]
        if bmode == "L":
            base = r.uniform(200, 320)
        elif bmode == "M":
            base = r.uniform(80, 150)
        elif bmode == "R":
            base = r.uniform(12, 55)
        else:  # muted: half-way from own tier to M
            own = {"L": 260, "M": 115, "R": 33}[self.tiers["B"]]
            base = (own + 115) / 2 * r.uniform(0.8, 1.2)
        return int(clamp(base * v * weight, 4, 430))

    def produce(self, weight=None, kind=None):
        r = self.r
        t = self.task
        weight = t["w"] if weight is None else weight
        kind = kind or t["out"]
        bmode = self.mode["B"]
        bstruct = self.tiers["B"] if bmode == "muted" else bmode
        fmode = self.mode["F"]
        ftier = self.tiers["F"]
        b_active = "B" in t["dims"] or self.forced.get("B")
        f_active = "F" in t["dims"] or self.forced.get("F")
        ext = self.u["out_ext"]
        # scratch (E opportunity)
        ps = self.u["p_scratch"] * (1.6 if "E" in t["dims"] else 1.0)
        if self.forced.get("E"):
            ps = 1.0
        if r.random() < ps:
            nm = r.choice(SCRATCH)
            rel = self.unique(nm)
            self.write_new(rel, "\n".join(self.w.blist(r.randint(3, 10))) + "\n")
            self.scratch.append(rel)
            if r.random() < self.u["p_autosave"]:
                self.autosave(rel)
        # outline / intermediate draft (another E opportunity) for bigger outputs
        if weight >= 0.8 and r.random() < 0.3 + (0.4 if self.forced.get("E") else 0):
            rel = self.unique(self.name("outline", ext))
            self.write_new(rel, self.w.compose("Outline", r.randint(6, 18), "R"))
            self.intermediate.append(rel)
        # F plan
        figs, datafiles = [], []
        n_tables = 0
        if fmode == "L" and (f_active or r.random() < 0.3):
            nfig = r.randint(1, 4) if f_active else 1
            n_tables = 1 if r.random() < 0.35 else 0
            figs = [(f"{self.w.noun().capitalize()} chart", i) for i in range(nfig)]
            datafiles = ["csv"] if r.random() < 0.7 else []
            if self.u["fam"] == "books" and r.random() < 0.5:
                datafiles = ["xlsx"]
            if self.u["fam"] == "eng" and r.random() < 0.3:
                datafiles.append("json")
        elif fmode == "L":
            pass
        elif fmode == "M" and (f_active or r.random() < 0.35):
            n_tables = r.randint(1, 3) if f_active else 1
        elif fmode == "muted" and ftier == "L" and r.random() < 0.4:
            n_tables = 1
        # file count
        if bmode == "L":
            nfiles = r.randint(3, 5) if (b_active or weight >= 0.8) else r.randint(1, 2)
        elif bmode == "muted" and self.tiers["B"] == "L":
            nfiles = r.randint(1, 2)
        else:
            nfiles = 1
        total = self.b_lines(bmode, weight)
        # main file name and location
        title = kind.title() if r.random() < 0.5 else f"{self.w.noun().capitalize()} {kind}"
        main_name = self.name(kind, ext)
        draft_at_root = self.mode["C"] == "L" and r.random() < 0.4
        main_rel = self.unique(main_name) if draft_at_root else self.place(main_name)
        final_dir = self.out_dir() if draft_at_root else parent(main_rel)
        # figures (C decides where)
        fig_paths = []
        if figs:
            cm = self.mode["C"]
            if cm == "R":
                fdir = ""
            elif cm == "L":
                fdir = join(self.out_dir(), "figures")
            elif cm == "M":
                fdir = "figures" if r.random() < 0.5 else join(self.out_dir(), "figures")
            else:
                fdir = "figures" if r.random() < 0.5 else ""
            self.mkdir_p(fdir)
            if self.u["fam"] in ("eng", "research") and r.random() < 0.4:
                script = self.unique(join(self.out_dir() if cm != "R" else "", "make_charts.py"))
                self.mkdir_p(parent(script))
                code = "import csv\nimport matplotlib.pyplot as plt\n\n" + "\n".join(
                    f"# chart {i + 1}: {c}" for c, i in figs) + "\nrows = list(csv.reader(open('data.csv')))\nplt.savefig('chart.png')\n"
                self.write_new(script, code)
            for cap, i in figs:
                stem = ("fig_" if cm == "R" else "") + "_".join(words_of(cap))[:30] + f"_{i + 1}"
                fext = r.choice(["png", "png", "svg"]) if self.u["fam"] == "eng" else r.choice(["png", "png", "jpg"])
                frel = self.unique(join(fdir, stem + "." + fext))
                if fext == "svg":
                    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360">\n' +
                           "\n".join(f'  <rect x="{40 + 60 * k}" y="{300 - h}" width="40" height="{h}"/>'
                                     for k, h in enumerate(r.randint(20, 280) for _ in range(r.randint(4, 9)))) +
                           f'\n  <text x="10" y="20">{cap}</text>\n</svg>\n')
                    self.write_new(frel, svg)
                else:
                    self.write_new(frel, None, ext=fext, size=r.randint(18000, 160000), compose_secs=r.uniform(5, 40))
                fig_paths.append((cap, os.path.relpath(frel, final_dir or ".")))
            imgs = [f for f in self.inputs(False) if ext_of(f) in ("jpg", "png") and f in self.files]
            if imgs and r.random() < 0.6:  # reuse source pictures next to the charts
                for f in r.sample(imgs, min(len(imgs), r.randint(1, 4))):
                    self.copy(f, join(fdir, basename(f)), False)
            for dx in datafiles:
                drel = self.unique(join(fdir if cm != "R" else "", self.name(self.w.noun() + " data", dx)))
                if dx == "xlsx":
                    self.write_new(drel, None, ext="xlsx", size=r.randint(9000, 90000))
                else:
                    self.write_new(drel, self.w.input_text(dx, r.randint(8, 40)))
                self.outputs.append(drel)
        # supporting files
        supp = []
        if nfiles > 1:
            main_lines = int(total * r.uniform(0.6, 0.75))
            rest = total - main_lines
            names = ["appendix", "glossary", "sources", "faq", "details", "background notes", "decision log", "data notes"]
            r.shuffle(names)
            for j in range(nfiles - 1):
                nm = self.name(names[j], ext)
                sub = r.choice(["appendix", "supporting", "reference"]) if r.random() < 0.6 else None
                rel = self.place(nm, sub)
                lines = max(6, rest // (nfiles - 1))
                self.revisit_sources()
                stext = self.w.compose(names[j].title(), lines, bstruct)
                self.write_new(rel, to_txt(stext) if ext == "txt" else stext)
                supp.append(rel)
                self.outputs.append(rel)
                self.after_write(rel)
        else:
            main_lines = total
        # main doc
        self.revisit_sources()
        links = [os.path.relpath(s, final_dir or ".") for s in supp]
        text = self.w.compose(title, main_lines, bstruct, n_tables=n_tables, figs=fig_paths, links=links)
        if ext == "txt":
            text = to_txt(text)
        self.mkdir_p(parent(main_rel))
        self.write_new(main_rel, text)
        self.outputs.append(main_rel)
        self.after_write(main_rel)
        if draft_at_root:
            target = self.place(basename(main_rel))
            if target != main_rel:
                main_rel = self.move(main_rel, target)
        if t["id"] == "T-20" and r.random() < 0.5:  # start this week's report from the template
            self.copy(main_rel, join(parent(main_rel), self.name("week " + self.date.strftime("%V"), ext_of(main_rel) or "md")), False)
        return main_rel

    def after_write(self, rel):
        r = self.r
        if r.random() < self.u["p_autosave"]:
            self.autosave(rel)
        if r.random() < self.u["p_reread"]:
            self.gap(5, 30)
            self.read(rel, "whole" if r.random() < 0.6 else "partial")

    def autosave(self, rel):
        r = self.r
        for _ in range(r.randint(2, 4)):
            text = self.content(rel) or ""
            lines = text.split("\n")
            pos = r.randint(0, max(0, len(lines) - 1))
            if r.random() < 0.5 and lines:
                lines[pos] = (lines[pos] + " " + r.choice(ADJ)).strip()
            else:
                lines.insert(pos, self.w.bullet())
            self.clock += r.uniform(1.5, 14) * 1000.0
            self.save(rel, "\n".join(lines), secs=0.2, force_edit=True)

    # ---------------- D: iteration ----------------
    def edit_small(self, text):
        r = self.r
        lines = text.split("\n")
        op = r.randrange(4)
        pos = r.randint(0, max(0, len(lines) - 2))
        if len(lines) < 12:  # tiny file: a one-line touch
            lines.insert(pos + 1, self.w.bullet())
            return "\n".join(lines)
        if op == 0 and lines:
            for k in range(r.randint(1, 3)):
                if pos + k < len(lines):
                    lines[pos + k] = self.w.sentence() if not lines[pos + k].startswith("#") else lines[pos + k] + " (rev)"
        elif op == 1:
            for _ in range(r.randint(1, 4)):
                lines.insert(pos, self.w.sentence() if r.random() < 0.5 else self.w.bullet())
        elif op == 2 and len(lines) > 6:
            del lines[pos:pos + r.randint(1, 2)]
        else:
            if lines:
                lines[pos] = self.w.sentence()
            lines.insert(pos + 1, self.w.bullet())
        return "\n".join(lines)

    def edit_medium(self, text, condense=False):
        r = self.r
        lines = text.split("\n")
        n = len(lines)
        a = r.randint(0, max(0, n - 14))
        span = r.randint(5, 13) if n > 14 else max(1, n // 3)
        cap = max(2, int(0.3 * n))  # never more than ~30% of a short file
        span = min(span, cap)
        if condense:
            new = [self.w.sentence() for _ in range(max(1, span // 3))]
        else:
            new = [self.w.sentence() if r.random() < 0.6 else self.w.bullet() for _ in range(min(cap, r.randint(5, 15)))]
        lines[a:a + span] = new
        return "\n".join(lines)

    def rewrite(self, text, condense=False):
        n = max(5, len(text.split("\n")))
        tgt = int(n * (self.r.uniform(0.35, 0.6) if condense else self.r.uniform(0.85, 1.2)))
        bst = self.tiers["B"] if self.mode["B"] == "muted" else self.mode["B"]
        return self.w.compose(self.w.heading(), max(4, tgt), bst, n_tables=1 if self.mode["F"] == "M" and self.r.random() < 0.5 else 0)

    def backup_name(self, rel):
        stem, ext = split_name(basename(rel))
        r = self.r
        k = r.randrange(4)
        if k == 0:
            nm = f"{stem}.bak.{ext}" if ext else f"{stem}.bak"
        elif k == 1:
            nm = f"{stem}_backup_{self.date.strftime('%Y%m%d')}.{ext}"
        elif k == 2:
            nm = f"{stem}_v1.{ext}"
        else:
            nm = f"{stem} copy.{ext}"
        return join(parent(rel), nm)

    def iterate(self, targets, condense=False):
        r = self.r
        m = self.mode["D"]
        act = self.u["activity"]
        for rel in targets:
            if rel not in self.files or ext_of(rel) not in TEXT_EXT:
                continue
            if self.views.get(rel) is None and r.random() < 0.8:
                self.read(rel, "whole" if self.mode["A"] in ("L", "muted") else "partial")
            if m == "L":
                if r.random() < 0.8:
                    bk = self.copy(rel, self.backup_name(rel), True)
                    if r.random() < 0.4:
                        self.intermediate.append(bk)
                passes = r.randint(2, 3)
                k = int(clamp(round(r.uniform(3, 8) * act), 3, 14))
                per = max(1, k // passes)
                for p in range(passes):
                    for _ in range(per):
                        self.save(rel, self.edit_small(self.content(rel)))
                    if p < passes - 1:
                        self.read(rel, "whole" if r.random() < 0.6 else "partial")
            elif m == "M":
                for _ in range(int(clamp(round(r.uniform(1, 3) * math.sqrt(act)), 1, 4))):
                    self.save(rel, self.edit_medium(self.content(rel), condense))
            elif m == "R":
                self.save(rel, self.rewrite(self.content(rel), condense), secs=r.uniform(60, 400))
                if r.random() < 0.25:
                    self.save(rel, self.rewrite(self.content(rel), condense), secs=r.uniform(60, 300))
            else:  # muted
                own = self.tiers["D"]
                if own == "L":
                    for _ in range(r.randint(1, 2)):
                        self.save(rel, self.edit_small(self.content(rel)))
                else:
                    self.save(rel, self.edit_medium(self.content(rel), condense))
            if r.random() < self.u["p_autosave"] * 0.5:
                self.autosave(rel)

    def revise_own(self, p_base):
        t = self.task
        act = "D" in t["dims"] or self.forced.get("D")
        p = 1.0 if self.forced.get("D") else (p_base if act else p_base * 0.4)
        own = [o for o in self.outputs if ext_of(o) in ("md", "txt", "csv") and o in self.files]
        if self.forced.get("D"):  # make sure the shifted iteration style has room to show
            own += [f for f in self.text_inputs() if f in self.files and ext_of(f) in ("md", "txt")]
        own.sort(key=lambda o: -len(self.content(o) or ""))  # the main document first
        if own and self.r.random() < p:
            self.iterate(own[:1] if self.r.random() < 0.7 else own[:2])

    # ---------------- C: organizing existing files ----------------
    def category(self, rel):
        e = ext_of(rel)
        groups = {"pdf": "documents", "docx": "documents", "md": "notes", "txt": "notes", "csv": "data", "xlsx": "data",
                  "eml": "mail", "ics": "mail", "jpg": "images", "png": "images", "mp3": "audio", "mp4": "video",
                  "tmp": "misc"}
        g = groups.get(e, "misc")
        if self.task["id"] == "T-29":
            g = "companies " + basename(rel)[:1].lower()
        if self.task["id"] == "T-23":
            g = "trip " + str(1 + (sum(map(ord, basename(rel))) % 3))
        return g

    def organize(self, strength=1.0):
        r = self.r
        m = self.mode["C"]
        files = [f for f in self.inputs(False) if f in self.files]
        if not files:
            return
        # A drives how the person finds things before moving
        if self.mode["A"] == "M":
            exts = sorted({ext_of(f) for f in files})
            for e in exts[: r.randint(1, 3)]:
                hits = [f for f in files if ext_of(f) == e]
                self.search("glob", f"**/*.{e}", hits)
        elif self.mode["A"] == "R":
            self.browse("")
        years = ["2022", "2023", "2024"]
        moved = 0
        if m == "L" or m == "M" or (m == "muted" and self.tiers["C"] != "R"):
            deep = m == "L"
            half = m == "muted"
            base = self.dirname(r.choice(["archive", "sorted", "library", "records"]))
            frac = r.uniform(0.75, 1.0) if not half else r.uniform(0.3, 0.6)
            chosen = r.sample(files, int(clamp(round(len(files) * frac * strength), 1, len(files))))
            for f in sorted(chosen):
                cat = self.dirname(self.category(f))
                if deep:
                    d = f"{base}/{r.choice(years)}/{cat}"
                    if r.random() < 0.35:
                        d += "/" + self.dirname(r.choice(["q1", "q2", "q3", "q4", "misc"]))
                elif m == "M":
                    d = cat if r.random() < 0.7 else f"{base}/{cat}"
                else:
                    d = cat
                if self.mode["A"] == "L" and r.random() < 0.4:
                    self.read(f, "whole")
                if parent(f) != d:
                    f = self.move(f, join(d, basename(f)))
                    moved += 1
                if r.random() < 0.35 * strength:
                    self.rename(f, self.name(" ".join(words_of(split_name(basename(f))[0])[:4]) or "file", ext_of(f) or "txt"))
        else:  # flat
            for f in sorted(files):
                if parent(f) and r.random() < 0.85 * strength:
                    f = self.move(f, basename(f))
                    moved += 1
                if r.random() < 0.5 * strength:
                    pre = self.category(f).split()[0]
                    ws = words_of(split_name(basename(f))[0])[:4]
                    self.rename(f, self.name(" ".join([pre] + ws), ext_of(f) or "txt"))

    # ---------------- E: curation ----------------
    def cleanup(self, junk=True, scratch=True):
        r = self.r
        m = self.mode["E"]
        cands = []
        if junk:
            cands += [f for f in sorted(self.files) if self.files[f]["junk"]]
        if scratch:
            cands += [f for f in self.scratch + self.intermediate if f in self.files]
        if not cands:
            return
        if m == "L":
            for f in cands:
                if r.random() < 0.9:
                    self.delete(f)
        elif m == "M":
            if r.random() < 0.55 or self.forced.get("E"):
                for f in cands:
                    if r.random() < 0.5:
                        self.delete(f)
        elif m == "R":
            if junk and self.mode["C"] in ("L", "M") and r.random() < 0.3:
                for f in [c for c in cands if self.files[c]["junk"]][:4]:
                    self.move(f, join(self.dirname("old"), basename(f)))
        # muted: leave everything

    # ---------------- session flows ----------------
    def run(self):
        r = self.r
        t = self.task
        self.setup_inputs()
        self.clock += r.uniform(0, 3000)
        if self.plan["lookup"]:
            self.consume(self.inputs(True), intensity=0.6)
            self.pad()
            return
        typ = t["type"]
        if r.random() < self.u["p_backup_noise"] and self.inputs(False):
            f = r.choice(self.inputs(False))
            self.copy(f, self.backup_name(f), True)
        if typ in ("understand", "synthesize", "create"):
            self.consume(self.inputs(True))
            if typ == "create" and "C" in t["dims"] and self.mode["C"] in ("L", "M"):
                self.structure()
            if t["junk"][1] and ("E" in t["dims"] or r.random() < 0.5):
                self.cleanup(junk=True, scratch=False)
            if r.random() < t["out_p"]:
                self.produce()
            self.revise_own(0.75 if t["iterate"] == "own" else 0.45)
            self.cleanup(junk=False, scratch=True)
        elif typ == "organize":
            self.consume(self.inputs(True), intensity=0.7)
            self.organize()
            self.cleanup(junk=True, scratch=False)
            if r.random() < t["out_p"] or self.forced.get("B") or self.forced.get("F") or self.forced.get("D"):
                self.produce()
            self.revise_own(0.7 if t["iterate"] == "own" else 0.3)
            self.cleanup(junk=False, scratch=True)
        else:  # iterate / maintain
            texts = self.text_inputs()
            if t["rounds"] > 1:
                rounds = [f for f in texts if "update_round" in f]
                pages = [f for f in texts if f not in rounds]
                self.consume([f for f in self.inputs(True) if f not in rounds], intensity=0.5)
                for rd in sorted(rounds):
                    self.read(rd, "whole" if self.mode["A"] == "L" else ("skim" if self.mode["A"] == "R" else "partial"))
                    tg = r.sample(pages, min(len(pages), int(clamp(round(r.uniform(1, 2.5) * self.u["activity"]), 1, 4))))
                    self.iterate(tg)
                    if r.random() < 0.4:
                        self.produce(weight=0.25, kind="kb page")
                    self.cleanup(junk=bool(self.files) and r.random() < 0.5, scratch=False)
                if "C" in t["dims"]:
                    self.organize(strength=0.3)
            else:
                self.consume(self.inputs(True))
                main = [f for f in texts if ext_of(f) == "md"] or texts
                k = int(clamp(round(r.uniform(1, 3) * self.u["activity"]), 1, max(1, len(main))))
                if t["id"] in ("T-09", "T-19", "T-13"):
                    k = 1
                tg = main[:k] if t["id"] in ("T-09", "T-19", "T-13") else r.sample(main, min(k, len(main)))
                if t["id"] == "T-13":
                    cm = [f for f in self.inputs(False) if "review_comments" in f]
                    if cm:
                        self.read(cm[0], "whole" if self.mode["A"] != "R" else "skim")
                        self.intermediate.append(cm[0])
                self.iterate(tg, condense=t["id"] == "T-09")
                if t["id"] == "T-12" or ("C" in t["dims"] and r.random() < 0.6):
                    self.organize(strength=0.5 if t["id"] == "T-12" else 0.3)
                if r.random() < t["out_p"] or self.forced.get("B") or self.forced.get("F"):
                    self.produce()
            self.cleanup(junk=True, scratch=True)
        self.pad()

    def pad(self):
        """Nobody opens a workspace for a single action: top up to >= 3 atomic actions."""
        r = self.r
        for _ in range(6):
            atomic = sum(1 for e in self.events if e["event_type"] not in ("context_switch", "cross_file_reference"))
            if atomic >= 3:
                return
            ins = [f for f in self.inputs(True) if f in self.files]
            m = self.mode["A"]
            if m == "R" or not ins:
                self.browse(parent(r.choice(ins)) if ins else "")
            elif m == "M":
                f = r.choice(ins)
                self.search(r.choice(self.u["search_pref"]), words_of(basename(f))[0], [f])
            else:
                self.read(r.choice(ins), "whole" if m == "L" else "partial")

    def structure(self):
        """Create-task folder skeleton (KB, weekly system, minutes)."""
        r = self.r
        m = self.mode["C"]
        base = self.out_dir()
        if m == "L":
            for _ in range(r.randint(2, 4)):
                sub = self.dirname(r.choice(["inbox", "templates", "archive", "projects", "people", "topics", "reference",
                                             "weekly", "meetings"]))
                self.mkdir_p(join(base, sub) + ("/" + self.dirname(r.choice(["2024", "current", "drafts"])) if r.random() < 0.5 else ""))
        else:
            for _ in range(r.randint(0, 2)):
                self.mkdir_p(self.dirname(r.choice(["templates", "archive", "meetings", "weekly"])))

    # ---------------- output ----------------
    def finish(self, out_dir: Path, write_pert: bool) -> int:
        self.events.sort(key=lambda e: e["timestamp"])
        d = os.path.join(out_dir, self.u["uid"], self.sid)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "events.json"), "w", encoding="utf-8") as fh:
            json.dump(self.events, fh, indent=1)
        with open(os.path.join(d, "summary.json"), "w", encoding="utf-8") as fh:
            json.dump({"session_id": self.sid, "completed": True, "total_events": len(self.events)}, fh)
        if self.media.entries:
            md = os.path.join(d, "media")
            os.makedirs(os.path.join(md, "blobs"), exist_ok=True)
            os.makedirs(os.path.join(md, "diffs"), exist_ok=True)
            for p, txt in sorted(self.media.files.items()):
                with open(os.path.join(md, p), "w", encoding="utf-8") as fh:
                    fh.write(txt)
            with open(os.path.join(md, "manifest.json"), "w", encoding="utf-8") as fh:
                json.dump({"version": 1, "entries": self.media.entries}, fh, indent=1)
        if write_pert and self.plan["perturb"]:
            dd, ut, shown = self.plan["perturb"]
            with open(os.path.join(d, "perturbation.json"), "w", encoding="utf-8") as fh:
                json.dump({"shifted_dims": {dd: {"original": ut, "perturbed": shown}}}, fh)
        return len(self.events)


def generate(out: Path, *, seed: int = DEFAULT_SEED, users: int = DEFAULT_USERS,
             debug: Path | None = None, perturbation_json: bool = False) -> Path:
    """Write the users folder (truth.json and one folder per user) into `out`, replacing it.

    `debug`: a JSON file (keep it outside `out`) with each user's role, culture parameters
    and the task of every session. `perturbation_json`: also write each drift session's
    perturbation.json (it gives the answer away inside the session folder).
    """
    return _generate(Path(out), seed, users, debug, perturbation_json, None)


def _generate(out: Path, seed: int, n_users: int, debug: Path | None, perturbation_json: bool,
              echo: Callable[[str], object] | None) -> Path:
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    users = make_users(seed, n_users)
    truth: dict[str, Any] = {}
    meta: dict[str, Any] = {}
    total_ev = 0
    total_sess = 0
    for u in users:
        plans = plan_sessions(u, seed)
        trng = random.Random(f"alt5-time-{seed}-{u['uid']}")
        day = trng.randint(0, 20)
        pert = {}
        for p in plans:
            day += trng.choice([1, 1, 1, 2, 2, 3, 4])
            start = BASE_MS + day * 86400000.0 + trng.uniform(0.5, 9.5) * 3600000.0 + trng.random()
            s = Session(u, p, seed, start)
            s.run()
            total_ev += s.finish(out, perturbation_json)
            total_sess += 1
            if p["perturb"]:
                d, ut, shown = p["perturb"]
                pert[p["sid"]] = {d: [ut, shown]}
        truth[u["uid"]] = {"tiers": dict(u["tiers"]), "perturbed": pert}
        meta[u["uid"]] = {"role": u["role"], "verbosity": round(u["verbosity"], 3),
                          "activity": round(u["activity"], 3), "expr": u["expr"], "editor": u["editor"],
                          "naming": list(u["naming"]),
                          "sessions": {p["sid"]: {"task": p["task"], "lookup": p["lookup"]} for p in plans}}
    with open(out / "truth.json", "w", encoding="utf-8") as fh:
        json.dump(truth, fh, indent=1)
    if debug:
        with open(debug, "w", encoding="utf-8") as fh:
            json.dump(meta, fh, indent=1)
    if echo:
        echo(f"users={len(users)} sessions={total_sess} events={total_ev} -> {out}")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=DESCRIPTION)
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--out", required=True, help="the users folder to write (replaced if it exists)")
    ap.add_argument("--users", type=int, default=DEFAULT_USERS)
    ap.add_argument("--debug", default=None,
                    help="optional JSON file (outside the dataset) with roles, culture parameters and tasks")
    ap.add_argument("--perturbation-json", action="store_true",
                    help="also write perturbation.json into each drift session (gives the answer away)")
    a = ap.parse_args(argv)
    _generate(Path(a.out), a.seed, a.users, Path(a.debug) if a.debug else None, a.perturbation_json, print)
    return 0


if __name__ == "__main__":
    sys.exit(main())
