"""A desktop file-system-recorder-like behaviour model, independent of our simulator.

People seen the way a watchdog / fs_usage style recorder sees them, tool noise included, so
the robustness bench scores what the pipeline makes of a recorder's view, not an agent's.
Stdlib only; the output depends on the seed alone.

    python -m filegram.bench.othermodels.recorder_like --seed 7 --out DIR
"""

from __future__ import annotations

import argparse
import copy
import datetime as dt
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
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

__all__ = ["DEFAULT_SEED", "DESCRIPTION", "NAME", "generate", "main"]

NAME = "recorder-like"
DESCRIPTION = (
    "A desktop file-system-recorder-like model: 12 users with long-lived workspaces, 30 "
    "sessions each, tool bursts that are not the person and three drift sessions per user."
)
DEFAULT_SEED = 7

# Each user has a long-lived workspace (/home/<name>/Documents/...), 30 sessions of real work
# on one task each, personal habits on six dimensions (A..F, tiers L/M/R), personal variation
# (verbosity, activity, pace, naming style, editor, recorder quirks), inconsistency, tool
# bursts that are not the person (unzip, git/cloud sync, export/build, office lock files) and
# three drift sessions (one dimension shifted by one tier).

DIMS = "ABCDEF"
NEIGH = {"L": ["M"], "R": ["M"], "M": ["L", "R"]}

# id: (type, active dims, domain)
TASKS = {
    "T-01": ("understand", "AB", "invest"),
    "T-02": ("understand", "ABE", "legal"),
    "T-03": ("create", "BC", "kb"),
    "T-04": ("create", "BCF", "meeting"),
    "T-05": ("organize", "AC", "messy"),
    "T-06": ("synthesize", "ABF", "research"),
    "T-07": ("synthesize", "AB", "diary"),
    "T-08": ("create", "BCF", "quarter"),
    "T-09": ("iterate", "DB", "report"),
    "T-10": ("maintain", "DCE", "kb"),
    "T-11": ("iterate", "DA", "report"),
    "T-12": ("iterate", "DC", "report"),
    "T-13": ("iterate", "DAE", "report"),
    "T-14": ("organize", "CD", "versions"),
    "T-15": ("synthesize", "ADB", "report"),
    "T-16": ("understand", "AEBF", "triage"),
    "T-17": ("understand", "AC", "health"),
    "T-18": ("maintain", "DEC", "kb"),
    "T-19": ("iterate", "DB", "report"),
    "T-20": ("create", "BCE", "quarter"),
    "T-21": ("organize", "CAD", "messy"),
    "T-22": ("understand", "AFB", "film"),
    "T-23": ("organize", "CFA", "travel"),
    "T-24": ("synthesize", "ABF", "earnings"),
    "T-25": ("understand", "AFB", "evidence"),
    "T-26": ("organize", "CAF", "assets"),
    "T-27": ("create", "BFC", "portfolio"),
    "T-28": ("synthesize", "ABF", "pet"),
    "T-29": ("organize", "CDA", "registry"),
    "T-30": ("iterate", "DFA", "memos"),
    "T-31": ("create", "BFC", "videos"),
    "T-32": ("maintain", "DAF", "archive"),
}
PERSONAL_DOMAINS = {"kb", "diary", "film", "travel", "assets", "portfolio", "pet", "memos", "videos"}

# ----------------------------------------------------------------------------- word banks
G = {
    "P": ["Dana", "Marcus", "Priya", "Tom", "Elena", "Kofi", "Sara", "Jonas", "Mei", "Ravi", "Lucia",
          "Ben", "Hannah", "Omar", "Ingrid", "Felix", "Aiko", "Nadia"],
    "O": ["Northwind", "Halvorsen & Co", "Brightline", "Cedar Partners", "Aldana Group", "Kestrel Ltd",
          "Mosaic Health", "Tarn Logistics", "Bluefield", "Orrin Capital"],
    "adj": ["stable", "weaker than expected", "better than last time", "inconsistent", "on track",
            "behind schedule", "mostly complete", "unclear", "solid", "a bit risky", "surprisingly good",
            "hard to verify", "roughly in line", "worth watching"],
    "sec": ["Background", "Key points", "Open questions", "Next steps", "Summary", "Timeline", "Risks",
            "Decisions", "Notes", "Sources", "Details", "Recommendations", "Context", "Observations",
            "Follow-ups", "Issues", "What changed", "Assumptions"],
}
DOM = {
    "invest": {"t": ["portfolio allocation", "bond duration", "the energy position", "the client risk profile",
                     "the rebalancing schedule", "the currency hedge", "the tech overweight", "dividend yield",
                     "the cash buffer", "the fee structure", "the emerging markets sleeve", "tracking error"],
               "proj": ["{O} review", "{O} portfolio", "client overview {O}"],
               "mat": ["{O} materials", "analyst handover", "client pack {O}"],
               "files": [("{O} portfolio review Q{q}", "pdf"), ("sector notes - {X}", "md"), ("holdings {y}", "xlsx"),
                         ("market outlook {m}", "txt"), ("call notes {d}", "md"), ("memo to {P}", "eml"),
                         ("risk register", "csv"), ("fund factsheet {n}", "pdf"), ("analyst meeting {d}", "ics"),
                         ("handover notes {P}", "docx"), ("performance {y}", "csv"), ("client email {n}", "eml")],
               "out": ["work overview", "analyst summary", "overview {O}", "handover summary"],
               "X": ["energy", "utilities", "banks", "tech", "healthcare", "retail"]},
    "legal": {"t": ["the lease agreement", "the termination letter", "witness availability", "the March meeting",
                    "the settlement offer", "discovery deadlines", "the payment records", "the landlord's email",
                    "the inspection report", "the damages estimate", "the signed addendum", "the notice period"],
              "proj": ["{P} v {O}", "{O} dispute", "case {n}"],
              "mat": ["case files {O}", "{O} bundle", "disclosure {O}"],
              "files": [("complaint", "pdf"), ("deposition {P}", "txt"), ("email {n} {P}", "eml"),
                        ("exhibit {L}", "jpg"), ("contract {O}", "pdf"), ("court order {d}", "pdf"),
                        ("witness statement {P}", "docx"), ("notes from call {d}", "md"), ("voicemail {d}", "mp3"),
                        ("invoice {n}", "pdf"), ("correspondence {n}", "eml"), ("chronology draft", "txt")],
              "out": ["case timeline", "review notes", "chronology {O}", "case summary"]},
    "kb": {"t": ["sourdough starter", "python decorators", "deep work notes", "the running plan", "home network setup",
                 "spanish verbs", "tax deadlines", "houseplant care", "photography basics", "budget categories",
                 "meal prep", "keyboard shortcuts", "book list", "bike maintenance"],
           "proj": ["knowledge base", "notes", "wiki", "second brain"],
           "mat": ["old notes", "notes export"],
           "files": [("{X}", "md"), ("{X} notes", "md"), ("links", "txt"), ("{X} ideas", "md")],
           "out": ["{X}", "{X} notes", "index", "{X} cheatsheet", "reading list"],
           "X": ["cooking", "python", "running", "finance", "garden", "photography", "languages", "books", "home"]},
    "meeting": {"t": ["venue booking", "budget sign-off", "the hiring plan", "the Q2 roadmap", "the vendor contract",
                      "the onboarding checklist", "the team offsite", "a customer escalation", "the release date",
                      "the training schedule"],
                "proj": ["team meetings", "{O} project", "steering group"],
                "mat": ["meeting prep"],
                "files": [("agenda {d}", "md"), ("attendees", "csv"), ("meeting {d}", "ics"), ("slides {d}", "pdf")],
                "out": ["minutes {d}", "action items", "follow-ups {d}", "meeting notes {d}"]},
    "messy": {"t": ["old invoices", "screenshots", "scanned letters", "random notes", "photos", "cv versions",
                    "downloads", "receipts", "tax forms", "manuals"],
              "proj": ["cleanup {y}", "sorted"],
              "mat": ["Desktop dump", "Unsorted", "old laptop", "Downloads backup", "misc"],
              "files": [("IMG_{n4}", "jpg"), ("Screenshot {d} at {n2}.{n1}{m1}.22", "png"), ("invoice {n}", "pdf"),
                        ("notes", "txt"), ("Untitled", "docx"), ("budget (1)", "xlsx"), ("resume_final_v2", "docx"),
                        ("scan{n}", "pdf"), ("receipt {m}", "jpg"), ("todo", "md"), ("letter to {P}", "docx"),
                        ("manual {O}", "pdf"), ("export {n}", "csv"), ("photo {n}", "jpg"), ("notes {m}", "md"),
                        ("contract (signed)", "pdf"), ("IMG_{n4} copy", "jpg"), ("draft {X}", "txt")],
              "out": ["what is where", "cleanup log"],
              "X": ["speech", "email", "essay", "plan"]},
    "research": {"t": ["remote work adoption", "survey response rates", "urban heat islands", "commute times",
                       "housing affordability", "the pilot results", "sample bias", "policy options",
                       "cost estimates", "gaps in the literature", "the regional data", "the control group"],
                 "proj": ["{X} study", "{X} report", "research {X}"],
                 "mat": ["{X} sources", "readings {X}"],
                 "files": [("{P} {y} - {X}", "pdf"), ("article - {X} trends", "md"), ("survey results", "csv"),
                           ("interview {P}", "txt"), ("dataset notes", "md"), ("policy brief {O}", "pdf"),
                           ("figures {O}", "png"), ("summary {P}", "docx"), ("regional data {y}", "csv"),
                           ("news clipping {n}", "txt")],
                 "out": ["research report", "{X} report", "synthesis {X}", "findings"],
                 "X": ["housing", "commuting", "remote work", "heat", "transit", "childcare"]},
    "diary": {"t": ["the morning routine", "sleep", "the move", "work stress", "the reading habit", "weekend hikes",
                    "family visits", "learning piano", "cooking", "old friendships", "running", "money worries"],
              "proj": ["about me", "personal profile", "journal"],
              "mat": ["diary", "journal {y}"],
              "files": [("diary {d}", "md"), ("journal {m}", "txt"), ("notes {n}", "md"), ("letter to self", "txt"),
                        ("goals {y}", "md")],
              "out": ["personal profile", "about me", "profile {y}"]},
    "quarter": {"t": ["pipeline growth", "support tickets", "hiring", "the migration project", "customer churn",
                      "team velocity", "budget variance", "vendor costs", "training hours", "the incident count"],
                "proj": ["Q{q} {y}", "weekly reports", "quarterly review"],
                "mat": ["Q{q} inputs"],
                "files": [("weekly update {n}", "md"), ("tasks Q{q}", "csv"), ("okr {y}", "md"), ("metrics {m}", "xlsx")],
                "out": ["Q{q} summary", "quarter in review", "week {n} report", "weekly template", "status {d}"]},
    "report": {"t": ["supplier performance", "delivery delays", "inventory accuracy", "the audit findings",
                     "cost savings", "process changes", "staff training", "warehouse capacity", "the pilot rollout",
                     "risk controls", "customer complaints", "the new SLA"],
               "proj": ["{O} report", "ops review", "audit {y}"],
               "mat": ["{O} reports", "review pack"],
               "files": [("{X} report", "md"), ("feedback from {P}", "eml"), ("comments {P}", "md"),
                         ("report {O}", "md"), ("report {O} field team", "pdf"), ("field data", "csv"),
                         ("notes {P}", "txt"), ("guidelines", "pdf")],
               "out": ["{X} report", "reconciled findings", "summary for {P}", "report for board", "condensed report"],
               "X": ["supplier", "operations", "audit", "logistics", "quality"]},
    "versions": {"t": ["the proposal", "budget lines", "the changelog", "section 3", "the appendix"],
                 "proj": ["{X} versions", "{X}"],
                 "mat": ["{X} drafts"],
                 "files": [("{X}_v1", "docx"), ("{X} v2", "docx"), ("{X} final", "docx"), ("{X} final FINAL", "docx"),
                           ("{X} ({P} edits)", "docx"), ("{X} v3", "md"), ("{X}", "md"), ("{X} old", "md"),
                           ("{X} 2024-11-0{n1}", "md")],
                 "out": ["changelog", "versions"],
                 "X": ["proposal", "grant application", "handbook", "business plan"]},
    "triage": {"t": ["invoice approval", "the contract renewal", "the board deck", "travel booking",
                     "an IT access request", "a client complaint", "the budget query", "a press inquiry",
                     "expense reports", "the policy update"],
               "proj": ["inbox {d}", "triage"],
               "mat": ["inbox export {d}", "to process"],
               "files": [("{X}", "eml"), ("RE {X}", "eml"), ("request {n}", "pdf"), ("notes", "txt"),
                         ("FW {X}", "eml"), ("attachment {n}", "png"), ("schedule", "ics")],
               "out": ["priorities {d}", "triage {d}", "today"],
               "X": ["invoice 4471", "contract renewal", "board deck", "flights", "access request", "complaint",
                     "budget", "press", "expenses", "policy"]},
    "health": {"t": ["disk usage", "duplicate files", "old downloads", "empty folders", "naming", "backups",
                     "large videos", "stale drafts", "shared folders", "the archive"],
               "proj": ["housekeeping"], "mat": ["housekeeping"], "files": [],
               "out": ["file check {d}", "cleanup plan"]},
    "film": {"t": ["Kurosawa films", "the noir shelf", "director notes", "runtimes", "ratings", "the 70s collection",
                   "subtitles", "Blu-ray editions", "the rewatch list", "soundtracks"],
             "proj": ["films", "film catalogue"],
             "mat": ["film stuff", "movies"],
             "files": [("{F} poster", "jpg"), ("watchlist", "csv"), ("reviews", "md"), ("{F} trailer", "mp4"),
                       ("letterboxd export", "csv"), ("{F}", "txt")],
             "out": ["catalogue", "film list", "collection"]},
    "travel": {"t": ["Lisbon", "the Porto day trip", "Sintra", "beach days", "food", "the train ride",
                     "sunsets", "family photos", "street scenes", "the hotel"],
               "proj": ["Portugal {y}", "trips", "photos {y}"],
               "mat": ["iPhone import {d}", "camera roll", "Portugal trip"],
               "files": [("IMG_{n4}", "jpg"), ("IMG_{n4}", "jpg"), ("DSC{n4}", "jpg"), ("IMG_{n4}", "mp4"),
                         ("itinerary", "pdf"), ("trip notes", "txt")],
               "out": ["album", "trip diary", "photo index"]},
    "earnings": {"t": ["revenue guidance", "gross margin", "subscriber growth", "capex plans", "FX headwinds",
                       "the buyback", "segment results", "operating costs", "free cash flow", "management tone"],
                 "proj": ["{O} Q{q}", "earnings {O}"],
                 "mat": ["{O} Q{q} call"],
                 "files": [("{O} Q{q} earnings call", "mp3"), ("{O} Q{q} transcript", "txt"), ("{O} Q{q} slides", "pdf"),
                           ("{O} 10-Q", "pdf"), ("consensus", "xlsx"), ("analyst notes", "md")],
                 "out": ["{O} Q{q} notes", "earnings analysis", "call takeaways"]},
    "evidence": {"t": ["the parking lot photos", "the emergency call", "bodycam footage", "the witness statement",
                       "timestamps", "the damage estimate", "medical records", "the police report",
                       "the second vehicle", "lighting conditions"],
                 "proj": ["{O} claim", "evidence review"],
                 "mat": ["evidence {O}", "disclosure media"],
                 "files": [("photo {n}", "jpg"), ("statement {P}", "mp3"), ("bodycam {n}", "mp4"), ("police report", "pdf"),
                           ("statement {P}", "txt"), ("medical report", "pdf"), ("scene {n}", "jpg"), ("estimate", "pdf")],
                 "out": ["evidence log", "evidence review", "findings"]},
    "assets": {"t": ["tax records", "insurance policies", "scanned passports", "old photos", "the music library",
                     "warranties", "bank statements", "car documents", "medical records", "certificates"],
               "proj": ["archive", "personal archive"],
               "mat": ["old drive", "to archive", "scans"],
               "files": [("tax return {y}", "pdf"), ("passport scan", "jpg"), ("policy {O}", "pdf"), ("IMG_{n4}", "jpg"),
                         ("song {n}", "mp3"), ("warranty {O}", "pdf"), ("statement {m}", "pdf"), ("car insurance", "pdf"),
                         ("certificate", "pdf"), ("video {n}", "mp4"), ("budget {y}", "xlsx")],
               "out": ["archive index", "what is where", "inventory"]},
    "portfolio": {"t": ["the ceramics project", "life drawing", "the design brief", "the artist statement",
                        "the photo series", "a typography study", "sketchbook pages", "the final critique",
                        "the group show", "process notes"],
                  "proj": ["portfolio", "portfolio {y}"],
                  "mat": ["coursework", "project photos"],
                  "files": [("project {n} photo", "jpg"), ("essay {X}", "docx"), ("cv", "md"), ("sketch {n}", "png"),
                            ("critique notes", "txt")],
                  "out": ["portfolio", "artist statement", "project {n}", "about"],
                  "X": ["colour", "form", "memory", "place"]},
    "pet": {"t": ["the vaccination schedule", "diet changes", "the vet visit", "flea treatment", "weight",
                  "the exercise routine", "the insurance claim", "dental cleaning", "allergy symptoms", "grooming"],
            "proj": ["{A}", "{A} care"],
            "mat": ["{A} docs", "vet stuff"],
            "files": [("vet record {d}", "pdf"), ("vaccination card", "jpg"), ("feeding notes", "txt"),
                      ("{A} {n}", "jpg"), ("insurance policy", "pdf"), ("vet email {n}", "eml"), ("weights", "csv")],
            "out": ["{A} care guide", "care notes", "pet handbook"]},
    "registry": {"t": ["registration numbers", "registered addresses", "director names", "incorporation dates",
                       "share capital", "filing status", "VAT numbers", "annual returns", "company types",
                       "dissolved entities"],
                 "proj": ["company register", "entities"],
                 "mat": ["registration pdfs", "company docs"],
                 "files": [("{C} registration certificate", "pdf"), ("{C} articles", "pdf"), ("{C} annual return {y}", "pdf")],
                 "out": ["register", "company index"]},
    "memos": {"t": ["the client call", "the newsletter idea", "a grocery list", "the project deadline",
                    "a book recommendation", "a meeting recap", "the tax reminder", "a podcast idea",
                    "the call with mum", "weekend plans"],
              "proj": ["voice memos", "memos"],
              "mat": ["Voice Memos export", "memos {m}"],
              "files": [("memo {d} {n2}h", "mp3"), ("memo {d} {n2}h", "txt"), ("New Recording {n}", "mp3")],
              "out": ["memo index", "memos summary"]},
    "videos": {"t": ["red kites", "the estuary at dawn", "otters", "the deer rut", "a starling murmuration",
                     "tide pools", "woodpeckers", "the heron nest", "foxes at night", "the wildflower meadow"],
               "proj": ["nature videos", "wildlife clips"],
               "mat": ["camera card {d}", "GoPro import"],
               "files": [("{V} {n}", "mp4"), ("GX01{n4}", "mp4"), ("{V} still", "jpg"), ("shot list", "txt")],
               "out": ["collection", "clip notes", "best of {y}"]},
    "archive": {"t": ["file naming", "missing transcripts", "duplicate scans", "the index sheet", "audio quality",
                      "broken links", "date formats", "captions", "metadata fields", "the checksum list"],
                "proj": ["family archive", "oral history archive"],
                "mat": ["archive"],
                "files": [("interview {n}", "mp3"), ("interview {n} transcript", "txt"), ("scan {n}", "jpg"),
                          ("index", "md"), ("catalogue", "csv"), ("photo {n}", "jpg")],
                "out": ["consistency notes", "archive check {d}"]},
}
FILMS = ["Ran", "Stalker", "Vertigo", "Chinatown", "Paris Texas", "Alien", "Heat", "Amelie", "Rashomon", "Persona"]
ANIMALS = ["Biscuit", "Luna", "Pepper", "Miso", "Otis", "Juniper"]
VIDS = ["otter", "kite", "heron", "fox", "deer", "starlings", "tidepool", "woodpecker"]
COMPANIES = ["Arden Foods", "Brookline Tools", "Calder Systems", "Dunmore Ltd", "Eastgate Trading", "Fenwick Labs",
             "Greyhaven", "Holt & Sons", "Ivel Media", "Juno Retail", "Kilnworth", "Larch Energy", "Merrow Bio",
             "Norland Freight", "Oakridge", "Pellow Design", "Quayside", "Rowan Health", "Selby Metals",
             "Thornbury", "Upland Farms", "Vance Textiles", "Wexford Data", "Yardley Homes", "Zephyr Air"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

SENT = [
    "We should revisit {t} before {D}.", "{T} changed noticeably after the update on {D}.",
    "{P} raised a concern about {t}.", "The main open question is how {t} affects {t2}.",
    "According to {O}, {t} is within the expected range ({n}%).",
    "{T} and {t2} are closely linked, so I grouped them together.",
    "No decision yet on {t}; waiting for input from {P}.", "Compared with last time, {t} looks {adj}.",
    "There are {n} items still open on {t}.", "{T} comes up in {n2} separate documents.",
    "{P} will follow up on {t} by {D}.", "I could not find a source for the figure on {t}.",
    "{T} seems {adj}, although the evidence is thin.", "Most of the change in {t2} is driven by {t}.",
    "Overall {t} is {adj}, with {n2} exceptions.", "The notes from {D} describe {t} in more detail.",
    "{P} and {P2} disagree on {t}.", "I would treat {t} as the priority for now.",
    "{T} was last reviewed on {D}.", "The numbers for {t} do not match between the two sources.",
]
FRAG = ["{T}: {adj}", "check {t} w/ {P}", "{n} open on {t}", "{T} - done", "{T} ({D})", "ask {P} re {t}",
        "{T} -> {adj}", "{t}, {t2}", "follow up {t}", "{T}: see {O} doc", "{T} by {D}", "todo: {t}"]
EXT = [", which matters for {t2}", " (see the notes from {D})", ", at least according to {O}",
       ", although {P} is not convinced", ", and this should be checked again next week",
       ", mainly because of {t2}", ", as discussed with {P}", " - worth flagging to {P2}"]


def h16(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()[:16]


def ext_of(p: str) -> str:
    b = os.path.basename(p)
    return b.rsplit(".", 1)[1].lower() if "." in b[1:] else ""


TEXT_EXT = {"md", "txt", "eml", "csv", "ics", "html", "css", "json", "tsv"}
BIN_SIZE = {"pdf": (60_000, 2_500_000), "jpg": (900_000, 6_000_000), "png": (40_000, 900_000),
            "mp3": (800_000, 30_000_000), "mp4": (15_000_000, 400_000_000), "docx": (14_000, 120_000),
            "xlsx": (9_000, 90_000)}


class Tx:
    """Sentence/document generator for one domain and one person's verbosity."""

    def __init__(self, rng, dom, verb):
        self.r, self.d, self.v = rng, DOM[dom], verb

    def pick(self, k):
        bank = self.d.get(k) or G.get(k)
        return self.r.choice(bank)

    def date(self):
        return f"{self.r.randint(1, 28)} {self.r.choice(MONTHS)}"

    def fill(self, tpl):
        r = self.r
        t = self.pick("t")
        t2 = self.pick("t")
        while t2 == t and len(self.d["t"]) > 1:
            t2 = self.pick("t")
        rep = {"{t}": t, "{T}": t[0].upper() + t[1:], "{t2}": t2, "{P}": r.choice(G["P"]), "{P2}": r.choice(G["P"]),
               "{O}": r.choice(G["O"]), "{D}": self.date(), "{n}": str(r.randint(2, 95)), "{n2}": str(r.randint(2, 7)),
               "{adj}": r.choice(G["adj"])}
        for k, v in rep.items():
            tpl = tpl.replace(k, v)
        return tpl

    def sentence(self):
        s = self.fill(self.r.choice(SENT))
        if self.r.random() < min(0.7, 0.18 * self.v):
            s = s[:-1] + self.fill(self.r.choice(EXT)) + "."
        return s

    def para(self, k=2):
        n = max(1, min(7, round(k * self.v ** 0.6 * self.r.uniform(0.7, 1.3))))
        return " ".join(self.sentence() for _ in range(n))

    def bullet(self):
        if self.v < 0.9 and self.r.random() < 0.6 - 0.3 * self.v:
            return "- " + self.fill(self.r.choice(FRAG))
        return "- " + self.sentence()

    def heading(self):
        if self.r.random() < 0.55:
            return self.r.choice(G["sec"])
        t = self.pick("t")
        return t[0].upper() + t[1:]

    def table(self, rows):
        cols = self.r.choice([["Item", "Owner", "Status"], ["Topic", "Source", "Note"], ["Date", "Event", "Who"],
                              ["Metric", "Value", "Change"], ["Name", "Type", "Location", "Comment"]])
        out = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
        for _ in range(rows):
            cells = []
            for c in cols:
                if c in ("Value", "Change"):
                    cells.append(f"{self.r.randint(-30, 300)}{'%' if c == 'Change' else ''}")
                elif c in ("Owner", "Who"):
                    cells.append(self.r.choice(G["P"]))
                elif c == "Date":
                    cells.append(self.date())
                elif c in ("Status",):
                    cells.append(self.r.choice(["open", "done", "blocked", "in progress"]))
                else:
                    cells.append(self.pick("t"))
            out.append("| " + " | ".join(cells) + " |")
        return out

    def csv(self, rows):
        cols = self.r.choice([["date", "item", "value", "note"], ["name", "category", "amount"],
                              ["id", "title", "year", "rating"], ["week", "metric", "value", "target"]])
        out = [",".join(cols)]
        for i in range(rows):
            row = []
            for c in cols:
                if c in ("value", "amount", "target", "rating", "year"):
                    row.append(str(self.r.randint(1, 2025) if c == "year" else round(self.r.uniform(0, 500), 1)))
                elif c in ("date",):
                    row.append(f"2025-{self.r.randint(1, 9):02d}-{self.r.randint(1, 28):02d}")
                elif c in ("id", "week"):
                    row.append(str(i + 1))
                else:
                    row.append('"' + self.pick("t") + '"')
            out.append(",".join(row))
        return out

    def doc(self, title, n, b, f="R", figs=(), tables=0):
        """Markdown text of about n lines. b: L (deep headings) / M / R (bullets) / N (neutral).
        f: M -> markdown tables, L -> image references, R -> text only."""
        r = self.r
        L = []
        figs = list(figs)
        tabs = tables if f == "M" else 0
        if b == "R":
            if r.random() < 0.6:
                L += [f"# {title}", ""]
            while len(L) < n:
                if len(L) > 4 and r.random() < 0.1:
                    L += ["", self.heading() + ":"]
                L.append(self.bullet())
                if tabs and r.random() < 0.15:
                    L += [""] + self.table(r.randint(3, 6)) + [""]
                    tabs -= 1
                if figs and r.random() < 0.2:
                    L.append(f"- chart: {figs.pop(0)}")
            for fg in figs:
                L.append(f"- see {fg}")
            return L[:max(n, 3)]
        L += [f"# {title}", ""]
        if b == "L":
            L += [f"_Last updated {self.date()}_", "", self.para(2), ""]
        else:
            L += [self.para(1.5), ""]
        while len(L) < n:
            L += [f"## {self.heading()}", ""]
            subs = r.randint(2, 4) if b == "L" else 0
            if subs:
                L += [self.para(1.5), ""]
                for _ in range(subs):
                    L += [f"### {self.heading()}", ""]
                    if r.random() < 0.5:
                        L += [self.para(2), ""]
                    L += [self.bullet() for _ in range(r.randint(2, 6))] + [""]
                    if r.random() < 0.15:
                        L += [f"#### {self.heading()}", "", self.para(1), ""]
                    if len(L) >= n:
                        break
            else:
                if r.random() < 0.6:
                    L += [self.para(2), ""]
                L += [self.bullet() for _ in range(r.randint(2, 6 if b == "M" else 4))] + [""]
            if tabs and r.random() < 0.5:
                L += self.table(r.randint(4, 12)) + [""]
                tabs -= 1
            if figs and r.random() < 0.6:
                fg = figs.pop(0)
                L += [f"![{os.path.splitext(os.path.basename(fg))[0]}]({fg})", ""]
        if tabs:
            L += [f"## {r.choice(['Overview', 'At a glance', 'Status table'])}", ""] + self.table(r.randint(4, 10)) + [""]
        for fg in figs:
            L += [f"![{os.path.splitext(os.path.basename(fg))[0]}]({fg})", ""]
        return L


def lines_of(text):
    return text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")


def text_of(lines):
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------ edit operations
def small_edit(lines, tx, r):
    L = list(lines)
    idx = [i for i, x in enumerate(L) if x.strip() and not x.startswith("#")] or [len(L) - 1]
    i = r.choice(idx)
    op = r.random()
    if op < 0.45:  # tweak one line: a number, a judgement, a name, or a note to self
        line = L[i]
        nums = re.findall(r"\b\d+\b", line)
        adjs = [a for a in G["adj"] if a in line]
        names = [p for p in G["P"] if p in line]
        if nums and r.random() < 0.5:
            line = line.replace(r.choice(nums), str(r.randint(2, 95)), 1)
        elif adjs:
            line = line.replace(adjs[0], r.choice(G["adj"]), 1)
        elif names and r.random() < 0.5:
            line = line.replace(names[0], r.choice(G["P"]), 1)
        else:
            line = line.rstrip(".") + r.choice([" (tbc)", " - confirmed", " - check again", " (updated)", ".", " - see email"])
        L[i] = line
    elif op < 0.8:  # add 1-3 lines
        new = [tx.bullet() for _ in range(r.randint(1, 3))]
        L[i + 1:i + 1] = new
    elif op < 0.92 and len(idx) > 3:
        del L[i:i + r.randint(1, 2)]
    else:
        L[i] = tx.sentence() if not L[i].startswith("-") else tx.bullet()
        if r.random() < 0.5:
            L.insert(i + 1, tx.bullet())
    return L


def medium_edit(lines, tx, r):
    L = list(lines)
    op = r.random()
    if op < 0.45 and len(L) > 20:  # rewrite a block
        i = r.randrange(2, len(L) - 8)
        k = r.randint(5, 12)
        new = []
        while len(new) < r.randint(6, 14):
            new.append(tx.bullet() if r.random() < 0.6 else tx.para(1.5))
        L[i:i + k] = new
    elif op < 0.85:  # add a section
        new = ["", f"## {tx.heading()}", "", tx.para(2), ""] + [tx.bullet() for _ in range(r.randint(4, 12))]
        pos = r.choice([len(L), max(2, len(L) // 2)])
        L[pos:pos] = new
    else:  # cut a section
        if len(L) > 30:
            i = r.randrange(3, len(L) - 15)
            del L[i:i + r.randint(10, 18)]
        else:
            L += [tx.bullet() for _ in range(10)]
    return L


def rewrite(lines, tx, r, target=None, b="M", f="R"):
    """A person's whole-file rewrite: new text with some of the old lines kept."""
    n = target or max(10, int(len(lines) * r.uniform(0.7, 1.3)))
    title = next((x[2:] for x in lines if x.startswith("# ")), None) or tx.heading()
    new = tx.doc(title, n, b, f, tables=r.randint(0, 2))
    keep = [x for x in lines if x.strip() and r.random() < 0.3]
    for x in keep[: n // 3]:
        new.insert(r.randrange(2, len(new)) if len(new) > 2 else len(new), x)
    return new


# ---------------------------------------------------------------------- user / workspace
class User:
    pass


NAMES = ["mira", "jdelacroix", "tomh", "annika", "rsingh", "lpetrov", "carmen.v", "dwu", "hfischer", "noor",
         "bkeller", "kaito", "osanchez", "ewatts"]
EDITORS = ["TextEdit", "Code Helper (Renderer)", "Obsidian Helper", "Typora", "Sublime Text", "BBEdit",
           "Microsoft Word", "iA Writer", "MarkText"]


def styled(u, words):
    s = u.naming
    if s == "space":
        return words[0].upper() + words[1:] if words else words
    if s == "lower":
        return words.lower()
    if s == "snake":
        return re.sub(r"[^a-z0-9]+", "_", words.lower()).strip("_")
    if s == "kebab":
        return re.sub(r"[^a-z0-9]+", "-", words.lower()).strip("-")
    return " ".join(w[:1].upper() + w[1:] for w in words.split(" "))  # title


def naming_change(old, new):
    a, b = os.path.splitext(os.path.basename(old))[0], os.path.splitext(os.path.basename(new))[0]

    def kind(x):
        if "_" in x and "-" not in x and " " not in x:
            return "snake"
        if "-" in x and "_" not in x and " " not in x:
            return "kebab"
        return "mixed"

    ka, kb = kind(a), kind(b)
    if a.lower() == b.lower():
        return "case_change"
    if ka == "snake" and kb == "kebab":
        return "snake_to_kebab"
    if ka == "kebab" and kb == "snake":
        return "kebab_to_snake"
    if ka == "mixed" and kb != "mixed":
        return "mixed_to_other"
    return "other"


class WS:
    def __init__(self, root):
        self.root = root
        self.files = {}  # path -> {text, size, ctime, tag, proj}
        self.dirs = {root}

    def depth(self, d):
        if d == self.root:
            return 0
        return len(os.path.relpath(d, self.root).split("/"))

    def fdepth(self, p):
        return self.depth(os.path.dirname(p))

    def children(self, d):
        n = sum(1 for x in self.dirs if os.path.dirname(x) == d and x != d)
        return n + sum(1 for x in self.files if os.path.dirname(x) == d)

    def free(self, p):
        if p not in self.files:
            return p
        b, e = os.path.splitext(p)
        i = 2
        while f"{b} {i}{e}" in self.files:
            i += 1
        return f"{b} {i}{e}"


SCRATCH_RE = re.compile(r"(?<![a-z])(untitled|scratch|temp|tmp|copy of|copy|draft ?\d|old|backup|bak|orig|new text document|document\d)(?![a-z])|^~\$|\(\d\)", re.I)


# --------------------------------------------------------------------------- session
class Sess:
    def __init__(self, u, sid, t0, r):
        self.u, self.ws, self.sid, self.t, self.r = u, u.ws, sid, t0, r
        self.events, self.media = [], {}
        self.vc, self.last = Counter(), {}
        self.revisits = []
        self.scratch = []
        self.pending_tool = []
        self.outputs = []

    # time
    def adv(self, lo, hi, brk=True):
        d = self.r.uniform(lo, hi) * self.u.pace
        if brk and self.r.random() < self.u.break_p:
            d += self.r.uniform(240, 2400)
        self.t += d * 1000.0

    def tick_ms(self, lo, hi):
        self.t += self.r.uniform(lo, hi)

    # envelope
    def emit(self, et, **f):
        e = {"event_id": str(uuid.UUID(int=self.r.getrandbits(128), version=4)), "event_type": et,
             "timestamp": round(self.t + self.r.random(), 3), "session_id": self.sid, "profile_id": self.u.uid,
             "message_id": None, "model_provider": None, "model_name": None}
        e.update(f)
        self.events.append(e)
        return e

    def blobref(self, text):
        b = text.encode("utf-8")
        h = h16(b)
        self.media[h] = ("blob", b)
        return {"type": "blob", "hash": h, "path": f"media/blobs/{h}.blob"}

    def diffref(self, dtext):
        b = dtext.encode("utf-8")
        h = h16(b)
        self.media[h] = ("diff", b)
        return {"type": "diff", "hash": h, "path": f"media/diffs/{h}.diff"}

    # workspace operations
    def read(self, p):
        f = self.ws.files[p]
        self.vc[p] += 1
        n = self.vc[p]
        rev = None if n == 1 else round(self.t - self.last[p], 3)
        self.last[p] = self.t
        vr = None
        if f["text"] is not None and self.u.vr_whole:
            vr = [1, max(1, len(lines_of(f["text"])))]
        self.emit("file_read", file_path=p, file_type=ext_of(p), directory_depth=self.ws.fdepth(p), view_count=n,
                  view_range=vr, content_length=len(f["text"]) if f["text"] is not None else f["size"],
                  revisit_interval_ms=rev)
        if ext_of(p) == "docx" and self.r.random() < 0.25:  # Word's owner/lock file
            lock = os.path.join(os.path.dirname(p), "~$" + os.path.basename(p)[2:])
            if lock not in self.ws.files:
                self.tick_ms(40, 400)
                self.create(lock, size=162, tag="lock")
                self.pending_tool.append(("delete", lock))

    def bin_hash(self, p, size):
        return h16(f"{p}|{size}|{self.t}".encode())

    def create(self, p, text=None, size=None, tag=None, proj=None):
        assert os.path.dirname(p) in self.ws.dirs, p
        if text is not None:
            ref = self.blobref(text)
            after, cl = ref["hash"], len(text)
        else:
            size = size or self.r.randint(*BIN_SIZE.get(ext_of(p), (1000, 90_000)))
            ref, after, cl = None, self.bin_hash(p, size), size
        self.ws.files[p] = {"text": text, "size": cl if text is None else len(text.encode()), "ctime": self.t,
                            "tag": tag, "proj": proj}
        self.emit("file_write", file_path=p, file_type=ext_of(p), directory_depth=self.ws.fdepth(p), operation="create",
                  content_length=cl, before_hash=None, after_hash=after, media_ref=ref)
        return p

    def put(self, p, text=None, tag=None, proj=None):
        """Save a file by a name: a create, or an overwrite when that name is already there."""
        if p in self.ws.files:
            self.overwrite(p, text, None if text is not None else self.r.randint(*BIN_SIZE.get(ext_of(p), (1000, 90_000))))
            return p
        return self.create(p, text, tag=tag, proj=proj)

    def overwrite(self, p, text=None, size=None):
        f = self.ws.files[p]
        before = h16(f["text"].encode()) if f["text"] is not None else self.bin_hash(p, f["size"])
        if text is not None:
            ref = self.blobref(text)
            after, cl = ref["hash"], len(text)
            f["text"], f["size"] = text, len(text.encode())
        else:
            size = size or f["size"]
            ref, after, cl = None, self.bin_hash(p, size + 1), size
            f["size"] = size
        self.emit("file_write", file_path=p, file_type=ext_of(p), directory_depth=self.ws.fdepth(p),
                  operation="overwrite", content_length=cl, before_hash=before, after_hash=after, media_ref=ref)

    def edit(self, p, new_text, tool=None):
        f = self.ws.files[p]
        old = f["text"]
        if old == new_text:
            return False
        a, b = lines_of(old), lines_of(new_text)
        name = os.path.basename(p)
        dl = list(difflib.unified_diff(a, b, fromfile="a/" + name, tofile="b/" + name, lineterm=""))
        added = sum(1 for x in dl if x.startswith("+") and not x.startswith("+++"))
        deleted = sum(1 for x in dl if x.startswith("-") and not x.startswith("---"))
        mod = sum(min(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in
                  difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if tag == "replace")
        ro, rn = self.blobref(old), self.blobref(new_text)
        rd = self.diffref("\n".join(dl) + "\n")
        f["text"], f["size"] = new_text, len(new_text.encode())
        self.emit("file_edit", file_path=p, file_type=ext_of(p), edit_tool=tool or self.u.editor,
                  lines_added=added, lines_deleted=deleted, lines_modified=mod, diff_summary=f"+{added} -{deleted}",
                  before_hash=ro["hash"], after_hash=rn["hash"], media_ref_old=ro, media_ref_new=rn, media_ref_diff=rd)
        return True

    def save(self, p, new_lines, style):
        """An editor save of an existing file: a diff-able edit, or a full rewrite for people who rewrite."""
        txt = text_of(new_lines)
        if style == "R":
            if txt != self.ws.files[p]["text"]:
                self.overwrite(p, txt)
        else:
            self.edit(p, txt)

    def mkdir(self, d, tool=False):
        todo = []
        x = d
        while x not in self.ws.dirs:
            todo.append(x)
            x = os.path.dirname(x)
        for x in reversed(todo):
            f = {"dir_path": x, "depth": self.ws.depth(x)}
            if not self.u.missing_opt:
                f["sibling_count"] = self.ws.children(os.path.dirname(x))
            if not tool:
                self.adv(3, 20, brk=False)
            self.ws.dirs.add(x)
            self.emit("dir_create", **f)
            if tool:
                self.tick_ms(1, 6)
            else:
                self.adv(1.5, 8, brk=False)
        return d

    def move(self, p, dest_dir):
        self.mkdir(dest_dir)
        np = self.ws.free(os.path.join(dest_dir, os.path.basename(p)))
        self.ws.files[np] = self.ws.files.pop(p)
        self.emit("file_move", old_path=p, new_path=np, destination_directory_depth=self.ws.depth(dest_dir))
        self._repath(p, np)
        return np

    def rename(self, p, newbase):
        np = self.ws.free(os.path.join(os.path.dirname(p), newbase))
        if np == p:
            return p
        self.ws.files[np] = self.ws.files.pop(p)
        self.emit("file_rename", old_path=p, new_path=np, naming_pattern_change=naming_change(p, np))
        self._repath(p, np)
        return np

    def _repath(self, p, np):
        for lst in (self.scratch, self.outputs, self.revisits):
            for i, x in enumerate(lst):
                if x == p:
                    lst[i] = np
        if p in self.vc:
            self.vc[np] = self.vc.pop(p)
            self.last[np] = self.last.pop(p)

    def delete(self, p):
        f = self.ws.files.pop(p)
        ev = {"file_path": p, "file_age_ms": round(max(0.0, self.t - f["ctime"]), 3)}
        if not self.u.missing_opt:
            ev["was_temporary"] = bool(SCRATCH_RE.search(os.path.basename(p))) or f["tag"] in ("scratch", "lock")
        self.emit("file_delete", **ev)
        for lst in (self.scratch, self.outputs, self.revisits):
            while p in lst:
                lst.remove(p)

    def copy(self, src, dst, backup):
        dst = self.ws.free(dst)
        f = dict(self.ws.files[src])
        f["ctime"], f["tag"] = self.t, ("backup" if backup else f["tag"])
        self.ws.files[dst] = f
        ev = {"source_path": src, "dest_path": dst}
        if not self.u.missing_opt:
            ev["is_backup"] = backup
        self.emit("file_copy", **ev)
        return dst

    def flush_tool(self):
        for kind, p in self.pending_tool:
            if p in self.ws.files and kind == "delete":
                self.adv(2, 30, brk=False)
                self.delete(p)
        self.pending_tool = []


# --------------------------------------------------------------------- content of inputs
def fill_name(tpl, r, tx, fixed=None):
    now = getattr(tx, "now", None)
    if now:
        day = dt.datetime.fromtimestamp(now / 1000 - r.uniform(0, 75) * 86400, tz=dt.UTC)
        dstr = day.strftime("%Y-%m-%d")
    else:
        dstr = f"2025-{r.randint(1, 9):02d}-{r.randint(1, 28):02d}"
    rep = {"{O}": r.choice(G["O"]), "{P}": r.choice(G["P"]), "{q}": str(r.randint(1, 4)), "{y}": str(r.choice([2023, 2024, 2025])),
           "{m}": r.choice(MONTHS), "{d}": dstr,
           "{n}": str(r.randint(1, 40)), "{n1}": str(r.randint(1, 9)), "{n2}": str(r.randint(8, 21)), "{m1}": str(r.randint(1, 9)),
           "{n4}": str(r.randint(1000, 9999)), "{L}": r.choice("ABCDEFGH"), "{F}": r.choice(FILMS),
           "{A}": r.choice(ANIMALS), "{V}": r.choice(VIDS), "{C}": r.choice(COMPANIES),
           "{X}": r.choice(tx.d.get("X", tx.d["t"]))}
    rep.update(fixed or {})
    for k, v in rep.items():
        tpl = tpl.replace(k, v)
    return tpl


def input_text(ext, r, tx, name):
    if ext == "eml":
        body = [f"From: {r.choice(G['P'])} <{r.choice(G['P']).lower()}@{r.choice(['mail.com', 'corp.net', 'outlook.com'])}>",
                "To: me", f"Subject: {name}", f"Date: {tx.date()} 2025", ""]
        body += [tx.para(2) for _ in range(r.randint(1, 4))] + ["", "Thanks,", r.choice(G["P"])]
        return text_of(body)
    if ext == "csv":
        return text_of(tx.csv(r.randint(8, 60)))
    if ext == "ics":
        return text_of(["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", f"SUMMARY:{name}",
                        f"DTSTART:2025{r.randint(1, 9):02d}{r.randint(1, 28):02d}T{r.randint(8, 17):02d}0000",
                        f"DESCRIPTION:{tx.sentence()}", "END:VEVENT", "END:VCALENDAR"])
    if ext == "txt" and ("transcript" in name or "memo" in name or "interview" in name or "deposition" in name):
        out = []
        for i in range(r.randint(15, 70)):
            out.append(f"[{i // 6:02d}:{(i * 7) % 60:02d}] {r.choice(G['P'])}: {tx.sentence()}")
        return text_of(out)
    b = r.choice(["M", "R", "N"])
    return text_of(tx.doc(name, r.randint(12, 110), b, r.choice(["R", "R", "M"]), tables=1))


# ------------------------------------------------------------------------ the simulation
class Gen:
    def __init__(self, seed):
        self.seed = seed

    # ---------------------------------------------------------------- users
    def make_users(self):
        r = random.Random(f"alt2-users-{self.seed}")
        n = 12
        while True:
            cols = {}
            for d in DIMS:
                t = list("LLLLMMMMRRRR")
                r.shuffle(t)
                cols[d] = t
            combos = {"".join(cols[d][i] for d in DIMS) for i in range(n)}
            if len(combos) == n:
                break
        names = r.sample(NAMES, n)
        missing = set(r.sample(range(n), n // 2))
        users = []
        for i in range(n):
            u = User()
            u.uid = f"r{i:02d}"
            u.tiers = {d: cols[d][i] for d in DIMS}
            u.name = names[i]
            u.verb = math.exp(r.uniform(math.log(0.3), math.log(3.0)))
            u.activity = r.uniform(0.6, 1.4)
            u.incons = r.uniform(0.10, 0.30)
            u.pace = math.exp(r.uniform(math.log(0.5), math.log(2.0)))
            u.break_p = r.uniform(0.02, 0.09)
            u.naming = r.choice(["space", "lower", "snake", "kebab", "title"])
            u.editor = r.choice(EDITORS)
            u.sync = r.choice(["git", "Dropbox", "OneDrive", "Google Drive"])
            u.missing_opt = i in missing
            u.vr_whole = r.random() < 0.5
            u.start_hour = r.uniform(7.5, 11.0)
            u.evening = r.uniform(0.05, 0.35)
            u.r = random.Random(f"alt2-{self.seed}-{u.uid}")
            users.append(u)
        return users

    def task_mix(self, u):
        r = u.r
        while True:
            w = {t: r.gammavariate(0.6, 1.0) + 0.02 for t in TASKS}
            seq = r.choices(list(TASKS), weights=[w[t] for t in TASKS], k=30)
            cover = {d: sum(1 for t in seq if d in TASKS[t][1]) for d in DIMS}
            if min(cover.values()) >= 7 and len(set(seq)) >= 9:
                return seq

    # ---------------------------------------------------------------- workspace seed
    def seed_workspace(self, u):
        root = f"/home/{u.name}/Documents"
        u.ws = WS(root)
        r = u.r
        c = u.tiers["C"]
        base_t = dt.datetime(2025, 1, 6, tzinfo=dt.UTC).timestamp() * 1000 - 86400e3 * 200
        if c == "L":
            dirs = ["Work/Clients/Active", "Work/Internal/Reports/2024", "Work/Admin/Templates",
                    "Personal/Notes/Reference", "Personal/Finance/Tax/2024", "Personal/Media/Photos",
                    "Personal/Home/Pets", "Archive/2024/Projects"]
        elif c == "M":
            dirs = ["Work", "Personal", "Archive", "Work/Reports"]
        else:
            dirs = []
        for d in dirs + ["Shared"]:
            p = root
            for part in d.split("/"):
                p = os.path.join(p, part)
                u.ws.dirs.add(p)
        # a synced team folder (tool-managed)
        team = os.path.join(root, "Shared", r.choice(["team-wiki", "ops-handbook", "Project docs"]))
        u.ws.dirs.add(team)
        u.team = team
        tx = Tx(r, "report", 1.0)
        for _ in range(r.randint(5, 9)):
            nm = r.choice(["onboarding", "process", "faq", "contacts", "roadmap", "glossary", "policies", "howto",
                           "release notes", "meeting rules", "tools", "security"])
            p = u.ws.free(os.path.join(team, f"{nm}.md"))
            u.ws.files[p] = {"text": text_of(tx.doc(nm.title(), r.randint(15, 60), "M")), "size": 0,
                             "ctime": base_t, "tag": "team", "proj": None}
        # loose older files
        loose_dir = root if c == "R" else os.path.join(root, "Personal" if c == "M" else "Personal/Notes")
        for nm in ["todo.txt", "passwords hint.txt", "ideas.md", "cv 2024.docx", "letter.docx"][: r.randint(2, 5)]:
            p = os.path.join(loose_dir, nm)
            e = ext_of(p)
            u.ws.files[p] = {"text": text_of(tx.doc(nm, r.randint(5, 25), "R")) if e in TEXT_EXT else None,
                             "size": r.randint(*BIN_SIZE.get(e, (1000, 5000))), "ctime": base_t, "tag": None, "proj": None}
        u.projects = {}

    # ---------------------------------------------------------------- sessions
    def run_user(self, u, out):
        self.seed_workspace(u)
        seq = self.task_mix(u)
        r = u.r
        # perturbation plan: 3 sessions, distinct dims where possible
        cand = list(range(2, 30))
        r.shuffle(cand)
        pert, used_dims = {}, Counter()
        for i in cand:
            if len(pert) == 3:
                break
            dims = sorted(TASKS[seq[i]][1], key=lambda d: (used_dims[d], r.random()))
            d = dims[0]
            if used_dims[d] >= 1 and any(used_dims[x] == 0 for x in DIMS):
                if r.random() < 0.7:
                    continue
            fr = u.tiers[d]
            to = r.choice(NEIGH[fr])
            pert[i] = (d, fr, to)
            used_dims[d] += 1
        # session times
        day0 = dt.datetime(2025, 1, 6, tzinfo=dt.UTC) + dt.timedelta(days=r.randint(0, 30))
        t_day = day0
        truth_p = {}
        u.eff_log = []
        counts = []
        for i, task in enumerate(seq):
            sid = f"{u.uid}_S{i:02d}"
            if i:
                t_day += dt.timedelta(days=max(0.0, r.expovariate(1 / 2.6)))
            hour = u.start_hour + r.uniform(-1, 5) if r.random() > u.evening else r.uniform(18.5, 22.5)
            t0 = (t_day.replace(hour=0, minute=0, second=0, microsecond=0).timestamp() + hour * 3600 + r.uniform(0, 59)) * 1000
            eff = self.effective(u, task, pert.get(i), r)
            u.eff_log.append(eff)
            best = None
            for attempt in range(8):
                snap = copy.deepcopy((u.ws, u.projects))
                s = Sess(u, sid, t0, random.Random(f"alt2-{self.seed}-{sid}-{attempt}"))
                scale = max(0.35, 1.0 - 0.12 * attempt)
                self.session(s, task, eff, scale)
                n = len(s.events)
                if 4 <= n <= 80:
                    best = s
                    break
                u.ws, u.projects = snap
                if n < 4:  # pad with a few reads of real files
                    pass
            if best is None:  # last resort: keep the smallest legal trajectory
                s = Sess(u, sid, t0, random.Random(f"alt2-{self.seed}-{sid}-x"))
                self.session(s, task, eff, 0.3)
                best = s
            s = best
            if len(s.events) < 4:
                pool = [p for p in s.ws.files if s.ws.files[p]["tag"] != "lock"]
                while len(s.events) < 4 and pool:
                    s.adv(10, 90)
                    s.read(r.choice(pool))
            if len(s.events) > 80:
                s.events = s.events[:80]  # never reached in practice; kept as a guard
            t_day = dt.datetime.fromtimestamp(s.t / 1000, tz=dt.UTC)
            self.write_session(s, out / u.uid / sid, pert.get(i))
            if i in pert:
                d, fr, to = pert[i]
                truth_p[sid] = {d: [fr, to]}
            counts.append(len(s.events))
        return {"tiers": dict(u.tiers), "perturbed": truth_p}, counts, seq

    def effective(self, u, task, pert, r):
        """Tier the person acts out on each of the task's dimensions this session (None = skips it)."""
        eff = {}
        for d in TASKS[task][1]:
            base = u.tiers[d]
            if pert and pert[0] == d:
                eff[d] = pert[2]
                continue
            if not pert and r.random() < u.incons:  # drift sessions keep the other dimensions at home
                if d in "CEF" and r.random() < 0.35:
                    eff[d] = None
                else:
                    eff[d] = r.choice(NEIGH[base])
            else:
                eff[d] = base
        return eff

    # ---------------------------------------------------------------- session writer
    def write_session(self, s, folder, pert):
        if folder.exists():
            shutil.rmtree(folder)
        (folder / "media" / "blobs").mkdir(parents=True)
        (folder / "media" / "diffs").mkdir(parents=True)
        s.events.sort(key=lambda e: e["timestamp"])
        with open(folder / "events.json", "w", encoding="utf-8") as fh:
            json.dump(s.events, fh, ensure_ascii=False, indent=1)
        used = set()
        for e in s.events:
            for k in ("media_ref", "media_ref_old", "media_ref_new", "media_ref_diff"):
                if isinstance(e.get(k), dict):
                    used.add(e[k]["hash"])
        entries = {}
        for h, (kind, b) in s.media.items():
            if h not in used:
                continue
            sub, ext = ("blobs", "blob") if kind == "blob" else ("diffs", "diff")
            (folder / "media" / sub / f"{h}.{ext}").write_bytes(b)
            entries[h] = {"type": kind, "size_bytes": len(b)}
        with open(folder / "media" / "manifest.json", "w") as fh:
            json.dump({"version": 1, "entries": entries}, fh)
        with open(folder / "summary.json", "w") as fh:
            json.dump({"session_id": s.sid, "completed": True, "total_events": len(s.events)}, fh)
        if pert:
            d, fr, to = pert
            with open(folder / "perturbation.json", "w") as fh:
                json.dump({"shifted_dims": {d: {"original": fr, "perturbed": to}}}, fh)

    # =================================================================== behaviour
    def session(self, s, task, eff, scale):
        ttype, dims, dom = TASKS[task]
        u, r = s.u, s.r
        s.task, s.eff, s.scale = task, eff, scale
        s.tx = Tx(r, dom, u.verb)
        s.tx.now = s.t
        s.dstyle = eff.get("D", u.tiers["D"]) if "D" in dims else u.tiers["D"]
        if s.dstyle is None:
            s.dstyle = "M"
        s.act = u.activity * scale
        proj = self.project(s, task, dom)
        s.proj = proj
        if r.random() < 0.12:  # a glance at something unrelated (a to-do list, an old note)
            pool = sorted(p for p, f in s.ws.files.items() if f["tag"] in (None, "output") and f["text"] is not None)
            if pool:
                s.read(r.choice(pool))
                s.adv(10, 90)
        getattr(self, "flow_" + ttype)(s, task, dims, dom, proj)
        # tool noise that is not the person
        if r.random() < 0.10:
            self.sync_burst(s)
        if s.outputs and r.random() < 0.12:
            self.export_burst(s)
        s.flush_tool()

    # ---------------------------------------------------------------- projects & inputs
    def project(self, s, task, dom):
        u, r = s.u, s.r
        prev = u.projects.get(task)
        if prev and r.random() < 0.55:
            prev["new"] = False
            return prev
        tx = s.tx
        fixed = {"{O}": r.choice(G["O"]), "{q}": str(r.randint(1, 4)), "{y}": str(r.choice([2024, 2025])),
                 "{A}": r.choice(ANIMALS)}
        if dom not in ("messy", "triage", "kb"):
            fixed["{X}"] = r.choice(DOM[dom].get("X", DOM[dom]["t"]))
        name = fill_name(r.choice(DOM[dom]["proj"]), r, tx, fixed)
        mat = fill_name(r.choice(DOM[dom]["mat"]), r, tx, fixed)
        p = {"task": task, "name": name, "mat_name": mat, "dir": None, "inputs": [], "new": True, "dom": dom,
             "fixed": fixed}
        u.projects[task] = p
        return p

    def area(self, s, dom):
        """An existing folder where this person would put work of this kind."""
        u, ws = s.u, s.ws
        c = u.tiers["C"]
        personal = dom in PERSONAL_DOMAINS
        if c == "L":
            pref = {"travel": "Media", "videos": "Media", "portfolio": "Media", "assets": "Home", "pet": "Home",
                    "kb": "Notes", "diary": "Notes", "film": "Notes", "memos": "Notes", "invest": "Clients",
                    "legal": "Clients", "registry": "Admin", "triage": "Admin", "health": "Admin"}.get(dom)
            opts = [d for d in ws.dirs if ("/Personal/" in d + "/" if personal else "/Work/" in d + "/") and ws.depth(d) == 2]
            if pref and any(d.endswith("/" + pref) for d in opts) and s.r.random() < 0.8:
                opts = [d for d in opts if d.endswith("/" + pref)]
        elif c == "M":
            opts = [d for d in ws.dirs if ws.depth(d) == 1 and ("Personal" in d if personal else "Work" in d)]
        else:
            opts = [ws.root]
        opts = sorted(opts) or [ws.root]
        return s.r.choice(opts)

    def outdir(self, s, dom, ctier=None, make=False):
        """Where the session's outputs go; with make=True the person builds a home for the project
        in the style ctier (L deep + subfolders, M one or two levels, R root)."""
        proj, ws, r = s.proj, s.ws, s.r
        if proj["dir"] and proj["dir"] in ws.dirs and not make:
            return proj["dir"]
        if make and ctier is not None:
            pname = styled(s.u, proj["name"])
            if ctier == "L":
                base = self.area(s, dom) if s.u.tiers["C"] == "L" else os.path.join(ws.root, r.choice(["Work", "Projects", "Personal"]))
                year = r.choice(["2025", f"{r.choice(MONTHS)} 2025", "current"])
                d = os.path.join(base, year, pname) if ws.depth(base) < 2 or r.random() < 0.3 else os.path.join(base, pname)
                if ws.depth(d) < 3:
                    d = os.path.join(d, r.choice(["work", "main", "docs"]))
                s.mkdir(d)
                for sub in r.sample(["sources", "drafts", "final", "notes", "data", "admin"], r.randint(1, 3)):
                    s.adv(4, 25, brk=False)
                    s.mkdir(os.path.join(d, sub))
                proj["dir"] = d
                proj["subs"] = [os.path.join(d, x) for x in ("sources", "drafts", "final", "notes", "data", "admin")
                                if os.path.join(d, x) in ws.dirs]
            elif ctier == "M":
                d = os.path.join(ws.root, pname)
                if r.random() < 0.3 and any(ws.depth(x) == 1 for x in ws.dirs):
                    d = os.path.join(r.choice(sorted(x for x in ws.dirs if ws.depth(x) == 1)), pname)
                s.mkdir(d)
                if r.random() < 0.5 and ws.depth(d) == 1:
                    s.adv(5, 30, brk=False)
                    s.mkdir(os.path.join(d, r.choice(["notes", "output", "sources"])))
                proj["dir"] = d
                proj["subs"] = [x for x in ws.dirs if os.path.dirname(x) == d]
            else:
                proj["dir"] = ws.root
                proj["subs"] = []
            return proj["dir"]
        # not a C task: use an existing place, rarely make one folder
        c = s.u.tiers["C"]
        if c != "R" and r.random() < (0.25 if c == "L" else 0.1):
            d = os.path.join(self.area(s, dom), styled(s.u, proj["name"]))
            s.mkdir(d)
        else:
            d = self.area(s, dom)
        proj["dir"] = d
        proj.setdefault("subs", [])
        return d

    def deliver_inputs(self, s, dom, n, exts=None, names=None, force_folder=None):
        """New material for the task. Arrives before the recording (silent), or by unzipping an
        archive (a tool burst of creates) during the session."""
        u, r, ws, tx = s.u, s.r, s.ws, s.tx
        proj = s.proj
        if not proj["new"] and proj["inputs"]:
            live = [p for p in proj["inputs"] if p in ws.files]
            if live:
                return live
        n = max(2, int(round(n)))
        files = []
        tpls = list(DOM[dom]["files"])
        r.shuffle(tpls)
        varying = [t for t in tpls if re.search(r"\{(n|n4|d|P|F|V|C|L|m)\}", t[0])] or tpls
        for i in range(n):
            if names:
                nm, e = names[i % len(names)]
            else:
                nm, e = tpls[i] if i < len(tpls) else r.choice(varying)
            # first pass through the pack: this project's entities; repeats: peers / other periods
            nm = fill_name(nm, r, tx, proj.get("fixed") if (names or i < len(tpls)) else None)
            files.append((nm, e))
        mode = "unzip" if r.random() < 0.3 else "silent"
        folder = force_folder or os.path.join(ws.root, proj["mat_name"])
        if mode == "silent" and force_folder is None and u.tiers["C"] == "R" and r.random() < 0.4:
            folder = ws.root
        paths = []
        if mode == "unzip":
            folder = folder if folder != ws.root else os.path.join(ws.root, proj["mat_name"])
            if folder in ws.dirs:
                folder = folder + " 2"
            s.adv(5, 40, brk=False)
            s.mkdir(folder, tool=True)
            subs = [folder]
            if r.random() < 0.4 and n > 5:
                for sub in r.sample(["emails", "scans", "media", "docs", "attachments", "2024", "misc"], r.randint(1, 3)):
                    s.mkdir(os.path.join(folder, sub), tool=True)
                    subs.append(os.path.join(folder, sub))
            macosx = r.random() < 0.3
            if macosx:
                s.mkdir(os.path.join(ws.root, "__MACOSX"), tool=True)
                s.mkdir(os.path.join(ws.root, "__MACOSX", os.path.basename(folder)), tool=True)
            for nm, e in files:
                d = r.choice(subs)
                p = ws.free(os.path.join(d, f"{nm}.{e}"))
                txt = input_text(e, r, tx, nm) if e in TEXT_EXT else None
                s.tick_ms(1, 5)
                s.create(p, text=txt, tag="input", proj=proj["name"])
                if macosx and r.random() < 0.5:
                    s.tick_ms(1, 4)
                    mp = os.path.join(ws.root, "__MACOSX", os.path.basename(folder), "._" + os.path.basename(p))
                    s.create(mp, size=r.randint(120, 4096), tag="tool")
                paths.append(p)
            s.adv(3, 20, brk=False)
        else:
            for dd in [folder]:
                x = dd
                while x not in ws.dirs:
                    ws.dirs.add(x)
                    x = os.path.dirname(x)
            for nm, e in files:
                p = ws.free(os.path.join(folder, f"{nm}.{e}"))
                txt = input_text(e, r, tx, nm) if e in TEXT_EXT else None
                ws.files[p] = {"text": txt, "size": len(txt.encode()) if txt else r.randint(*BIN_SIZE.get(e, (1000, 9000))),
                               "ctime": s.t - r.uniform(1, 40) * 86400e3, "tag": "input", "proj": proj["name"]}
                paths.append(p)
        proj["inputs"] = paths
        return paths

    # ---------------------------------------------------------------- A: consumption
    def read_phase(self, s, tier, inputs, relevant=None):
        r = s.r
        docs = [p for p in inputs if p in s.ws.files]
        if not docs:
            return
        relevant = [p for p in (relevant or []) if p in s.ws.files] or r.sample(docs, max(1, min(len(docs), int(len(docs) * r.uniform(0.25, 0.45)) or 1)))
        textish = [p for p in docs if ext_of(p) in TEXT_EXT | {"pdf", "docx", "xlsx"}]
        if tier == "L":
            frac = r.uniform(0.75, 1.0)
            chosen = [p for p in sorted(textish or docs) if r.random() < frac or p in relevant]
            for p in chosen:
                s.read(p)
                f = s.ws.files[p]
                sz = len(f["text"]) if f["text"] else min(f["size"] / 40, 12000)
                s.adv(min(600, max(40, sz / 15)), min(900, max(90, sz / 6)))
                if r.random() < 0.18 and s.last:
                    q = r.choice(chosen[: chosen.index(p) + 1])
                    s.read(q)
                    s.adv(20, 120)
            rv = [p for p in chosen if r.random() < r.uniform(0.3, 0.6)]
            s.revisits += rv + [p for p in rv if r.random() < 0.3]
        elif tier == "M":
            chosen = list(relevant)
            if r.random() < 0.3:
                chosen.append(r.choice(docs))
            r.shuffle(chosen)
            s.adv(20, 90, brk=False)
            for p in chosen:
                s.read(p)
                s.adv(3, 25, brk=False)
            s.adv(60, 400)
            if r.random() < 0.35:
                s.revisits.append(r.choice(chosen))
        else:  # R: skim everything, briefly, hardly ever come back
            chosen = [p for p in docs if r.random() < r.uniform(0.8, 1.0)]
            r.shuffle(chosen) if r.random() < 0.5 else chosen.sort()
            extra = [p for p in s.ws.files if p not in docs and s.ws.files[p]["tag"] not in ("lock", "tool")]
            for p in r.sample(extra, min(len(extra), r.randint(0, 3))):
                chosen.insert(r.randrange(len(chosen) + 1), p)
            for p in chosen:
                s.read(p)
                s.adv(2, 30, brk=False)
            if r.random() < 0.15:
                s.revisits.append(r.choice(chosen))
        return chosen

    def light_reads(self, s, paths, k=None):
        r = s.r
        paths = [p for p in paths if p in s.ws.files]
        if not paths:
            return
        k = k or r.randint(1, min(3, len(paths)))
        for p in r.sample(paths, min(k, len(paths))):
            s.read(p)
            s.adv(15, 120)

    def maybe_revisit(self, s, p=0.5):
        if s.revisits and s.r.random() < p:
            q = s.revisits.pop(0)
            if q in s.ws.files:
                s.adv(10, 90)
                s.read(q)
                s.adv(20, 150)

    # ---------------------------------------------------------------- B/F: production
    def draft(self, s, path, lines, tag="output"):
        """Write a document the way a person does: first save, then more saves while writing.
        If the file is already there (a project taken up again) it is usually opened and extended."""
        r, st = s.r, s.dstyle
        f = s.ws.files.get(path)
        if f is not None:
            if f["text"] is not None and f["tag"] in ("output", None) and r.random() < 0.8:
                s.adv(10, 60)
                s.read(path)
                old = lines_of(f["text"])
                add = [x for x in lines if not x.startswith("# ")]
                nsaves = {"L": r.randint(2, 5), "M": r.randint(1, 3)}.get(st, 1)
                if st == "R":
                    old = rewrite(old, s.tx, r, None, "M")
                cut = [len(old) + int(len(add) * (j + 1) / nsaves) for j in range(nsaves)]
                full = old + add
                for c in cut:
                    s.adv(40 + 5 * len(add) / nsaves, 120 + 15 * len(add) / nsaves)
                    self.maybe_revisit(s, 0.4)
                    s.save(path, full[:c], st)
                if path not in s.outputs:
                    s.outputs.append(path)
                return path
            path = s.ws.free(path)
        n = len(lines)
        if st == "L":
            first, saves = r.uniform(0.3, 0.6), r.randint(2, 6)
        elif st == "M":
            first, saves = r.uniform(0.45, 0.8), r.randint(1, 3)
        else:
            first, saves = r.uniform(0.75, 1.0), r.randint(0, 2)
        saves = max(0, int(round(saves * min(1.0, s.scale + 0.2))))
        k = max(3, int(n * first))
        if n <= 12:
            k, saves = n, min(saves, 1)
        s.adv(30, 60 + 8 * k / max(0.4, s.u.verb))
        s.create(path, text_of(lines[:k]), tag=tag, proj=s.proj["name"])
        s.outputs.append(path)
        for j in range(saves):
            nxt = k + max(1, (n - k) // max(1, saves - j)) if k < n else n
            s.adv(20 + 6 * (nxt - k), 60 + 20 * (nxt - k))
            self.maybe_revisit(s)
            new = lines[:nxt]
            if r.random() < (0.4 if st == "L" else 0.2):
                new = small_edit(new, s.tx, r)
                lines = new + lines[nxt:]
                nxt = len(new)
            s.save(path, new, st)
            k = nxt
        if k < len(lines):
            s.adv(30, 200)
            s.save(path, lines, st)
        return path

    def b_lines(self, s, tier):
        v = s.u.verb ** 0.3
        r = s.r
        if tier == "L":
            return int(r.uniform(150, 300) * v)
        if tier == "M":
            return int(r.uniform(75, 150) * v)
        if tier == "R":
            return int(r.uniform(12, 55) * v)
        return int(r.uniform(20, 60) * v)  # neutral

    def produce(self, s, btier, ftier, outdir, dom, kind="report"):
        """Outputs of a session: B decides how much and how many files, F decides visual material."""
        r, tx, u = s.r, s.tx, s.u
        today = dt.datetime.fromtimestamp(s.t / 1000, tz=dt.UTC).strftime("%Y-%m-%d")
        title = fill_name(r.choice(DOM[dom]["out"]), r, tx, dict(s.proj.get("fixed") or {}, **{"{d}": today}))
        base = styled(u, title)
        if outdir == s.ws.root and s.proj["name"]:
            if r.random() < 0.5:
                base = styled(u, f"{s.proj['name']} {title}")
        figs, data_files = [], []
        c_now = s.eff.get("C", u.tiers["C"]) if "C" in TASKS[s.task][1] else u.tiers["C"]
        if ftier == "L":
            fdir = outdir
            if c_now not in ("R", None):
                fdir = os.path.join(outdir, r.choice(["figures", "charts", "img", "images", "data"]))
            nfig = r.randint(1, 4)
            for i in range(nfig):
                nm = r.choice(["chart", "timeline", "breakdown", "trend", "overview", "map", "comparison", "photo grid"])
                figs.append(os.path.join(fdir, styled(u, f"{nm} {i + 1}") + r.choice([".png", ".png", ".jpg", ".svg"])))
            for i in range(r.randint(1, 2)):
                data_files.append(os.path.join(fdir if r.random() < 0.5 else outdir,
                                               styled(u, r.choice(["data", "table", "numbers", "sources", "summary"]) + f" {i + 1}")
                                               + r.choice([".csv", ".csv", ".xlsx", ".tsv", ".json"])))
        ext = ".md"
        if ftier in ("R",) and r.random() < 0.4:
            ext = ".txt"
        if btier == "L":
            n_main = self.b_lines(s, "L")
            main = tx.doc(title, n_main, "L", ftier or "R", [os.path.relpath(f, outdir) for f in figs],
                          tables=r.randint(1, 3))
            s.adv(60, 400)
            self.draft(s, (os.path.join(outdir, base + ext)), main)
            nsup = r.randint(2, 4)
            subdir = outdir
            for sn in r.sample(["appendix", "sources", "glossary", "open questions", "timeline", "background",
                                "detailed notes", "method"], nsup):
                if s.proj.get("subs") and r.random() < 0.5:
                    subdir = r.choice([x for x in s.proj["subs"] if x in s.ws.dirs] or [outdir])
                lines = tx.doc(f"{title} - {sn}", int(r.uniform(30, 90) * u.verb ** 0.3), "L" if r.random() < 0.5 else "M",
                               ftier or "R", tables=1)
                self.maybe_revisit(s, 0.7)
                self.draft(s, (os.path.join(subdir, styled(u, f"{title} {sn}") + ext)), lines)
        elif btier in ("M", "N"):
            n = self.b_lines(s, btier)
            lines = tx.doc(title, n, "M" if btier == "M" else r.choice(["M", "R"]), ftier or "R",
                           [os.path.relpath(f, outdir) for f in figs], tables=r.randint(1, 3))
            s.adv(60, 300)
            self.draft(s, (os.path.join(outdir, base + ext)), lines)
            if btier == "M" and r.random() < 0.2:
                self.draft(s, (os.path.join(outdir, styled(u, f"{title} notes") + ext)),
                           tx.doc(title + " notes", r.randint(12, 30), "R"))
        else:
            n = self.b_lines(s, "R")
            lines = tx.doc(title, n, "R", ftier or "R", [os.path.relpath(f, outdir) for f in figs], tables=1)
            s.adv(30, 200)
            self.draft(s, (os.path.join(outdir, base + ext)), lines)
        # visual material made by the person (exported from a spreadsheet, screenshots, charts)
        if ftier == "L":
            for p in data_files:
                s.mkdir(os.path.dirname(p))
                s.adv(40, 300)
                e = ext_of(p)
                if e in ("csv", "tsv"):
                    rows = tx.csv(r.randint(6, 40))
                    txt = text_of([x.replace(",", "\t") for x in rows] if e == "tsv" else rows)
                    s.put(p, txt, tag="output", proj=s.proj["name"])
                elif e == "json":
                    rows = tx.csv(r.randint(4, 15))
                    hdr = rows[0].split(",")
                    obj = [dict(zip(hdr, x.split(","), strict=False)) for x in rows[1:]]
                    s.put(p, json.dumps(obj, indent=2) + "\n", tag="output", proj=s.proj["name"])
                else:
                    s.put(p, tag="output", proj=s.proj["name"])
            for p in figs:
                s.mkdir(os.path.dirname(p))
                s.adv(20, 240)
                if p.endswith(".svg"):
                    svg = f'<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400"><title>{os.path.basename(p)}</title>' + "".join(
                        f'<rect x="{40 + i * 60}" y="{400 - h}" width="40" height="{h}"/>' for i, h in
                        enumerate(r.randint(20, 360) for _ in range(r.randint(4, 9)))) + "</svg>\n"
                    s.put(p, svg, tag="output", proj=s.proj["name"])
                else:
                    s.put(p, tag="output", proj=s.proj["name"])
        elif ftier == "M" and r.random() < 0.15:
            p = s.ws.free(os.path.join(outdir, styled(u, "table") + ".csv"))
            s.adv(40, 200)
            s.create(p, text_of(tx.csv(r.randint(5, 20))), tag="output", proj=s.proj["name"])

    # ---------------------------------------------------------------- D: iteration
    def iterate(self, s, tier, targets, goal=None, btier=None):
        """Revise existing documents. L: backups + many small edits over several passes;
        M: a few 10-30 line edits; R: whole-file overwrite(s), no backups."""
        r, tx = s.r, s.tx
        targets = [p for p in targets if p in s.ws.files and s.ws.files[p]["text"] is not None]
        if not targets:
            return
        act = s.act
        if tier == "L":
            for p in targets[: max(1, int(round(r.uniform(1, 3))))]:
                if r.random() < 0.75:
                    b, e = os.path.splitext(os.path.basename(p))
                    bn = r.choice([f"{b} backup{e}", f"{b}_bak{e}", f"{b} (copy){e}", f"{b} {dt.date.fromtimestamp(s.t / 1000):%Y-%m-%d}{e}",
                                   f"{b}.orig{e}", f"{b} v{r.randint(1, 3)}{e}"])
                    s.adv(5, 30, brk=False)
                    s.copy(p, os.path.join(os.path.dirname(p), bn), True)
            passes = r.randint(2, 3)
            n_edits = max(4, int(r.uniform(6, 16) * act))
            per = max(1, n_edits // passes)
            for _ in range(passes):
                for p in targets:
                    if p not in s.ws.files:
                        continue
                    if s.vc[p] == 0 or r.random() < 0.2:
                        s.read(p)
                        s.adv(30, 200)
                    for _ in range(max(1, per // len(targets))):
                        L = lines_of(s.ws.files[p]["text"])
                        if goal == "shrink" and len(L) > (self.b_lines(s, btier or "M") if btier else 40):
                            i = r.randrange(2, max(3, len(L) - 3))
                            L2 = L[:i] + L[i + r.randint(1, 6):]
                        elif goal == "grow" and btier == "L":
                            L2 = L + [tx.bullet() for _ in range(r.randint(3, 8))]
                        else:
                            L2 = small_edit(L, tx, r) if r.random() < 0.9 else medium_edit(L, tx, r)
                        s.adv(20, 180)
                        s.edit(p, text_of(L2))
                s.adv(120, 900)
        elif tier == "M":
            if r.random() < 0.1:
                p = targets[0]
                b, e = os.path.splitext(os.path.basename(p))
                s.copy(p, os.path.join(os.path.dirname(p), f"{b} copy{e}"), True)
            n_edits = max(2, int(r.uniform(3, 6) * act))
            for i in range(n_edits):
                p = targets[i % len(targets)]
                if p not in s.ws.files:
                    continue
                if s.vc[p] == 0:
                    s.read(p)
                    s.adv(40, 300)
                L = lines_of(s.ws.files[p]["text"])
                if goal == "shrink" and btier and len(L) > self.b_lines(s, btier):
                    i0 = r.randrange(2, max(3, len(L) - 20))
                    L2 = L[:i0] + [tx.para(1)] + L[i0 + r.randint(10, 24):]
                else:
                    L2 = medium_edit(L, tx, r) if r.random() < 0.8 else small_edit(L, tx, r)
                s.adv(120, 700)
                s.edit(p, text_of(L2))
        else:  # R
            for p in targets[: r.randint(1, len(targets))]:
                if s.vc[p] == 0:
                    s.read(p)
                    s.adv(60, 400)
                L = lines_of(s.ws.files[p]["text"])
                tgt = self.b_lines(s, btier) if btier else None
                s.adv(300, 1800)
                s.overwrite(p, text_of(rewrite(L, tx, r, tgt, btier or "M")))
                if r.random() < 0.3:
                    s.adv(200, 900)
                    L3 = text_of(small_edit(lines_of(s.ws.files[p]["text"]), tx, r))
                    if r.random() < 0.25:  # the odd quick fix that the editor saves as a diff
                        s.edit(p, L3)
                    else:
                        s.overwrite(p, L3)

    # ---------------------------------------------------------------- E: curation
    def make_scratch(self, s, where, k=None):
        r, tx = s.r, s.tx
        k = k if k is not None else r.randint(1, 3)
        for _ in range(k):
            kind = r.random()
            if kind < 0.3:
                p = s.ws.free(os.path.join(where, f"Untitled {r.randint(2, 9)}.txt" if r.random() < 0.6 else "Untitled.md"))
                s.adv(20, 200)
                s.create(p, text_of([tx.bullet() for _ in range(r.randint(2, 9))]), tag="scratch", proj=s.proj["name"])
            elif kind < 0.5:
                p = s.ws.free(os.path.join(where, r.choice(["draft2.docx", "draft 3.docx", "draft.docx", "Document1.docx"])))
                s.adv(20, 200)
                s.create(p, tag="scratch", proj=s.proj["name"])
            elif kind < 0.7 and s.outputs:
                src = r.choice([x for x in s.outputs if x in s.ws.files] or [None])
                if src is None:
                    continue
                b, e = os.path.splitext(os.path.basename(src))
                s.adv(10, 60)
                p = s.copy(src, os.path.join(os.path.dirname(src), r.choice([f"copy of {b}{e}", f"{b} copy{e}", f"{b} (1){e}"])), False)
                s.ws.files[p]["tag"] = "scratch"
            elif kind < 0.85:
                p = s.ws.free(os.path.join(where, r.choice(["scratch.txt", "temp notes.txt", "notes old.md", "New Text Document.txt",
                                                            "tmp.md", "quick notes.txt", "paste.txt"])))
                s.adv(20, 200)
                s.create(p, text_of([tx.fill(r.choice(FRAG)) for _ in range(r.randint(2, 12))]), tag="scratch", proj=s.proj["name"])
            else:
                src = r.choice([x for x in s.outputs if x in s.ws.files] or [None])
                if src is None:
                    continue
                b, e = os.path.splitext(os.path.basename(src))
                p = s.ws.free(os.path.join(os.path.dirname(src), f"{b} old{e}"))
                s.adv(10, 60)
                p = s.copy(src, p, False)
                s.ws.files[p]["tag"] = "scratch"
            s.scratch.append(p)

    def curate(self, s, tier):
        r, ws = s.r, s.ws
        if tier is None or tier == "R":
            return
        older = [p for p, f in ws.files.items() if f["tag"] in ("scratch", "backup", "old")
                 or (f["tag"] != "team" and SCRATCH_RE.search(os.path.basename(p)) and f["tag"] not in ("lock", "tool"))]
        older = [p for p in older if p not in s.scratch]
        if tier == "L":
            dels = [p for p in s.scratch if r.random() < 0.9]
            near = [p for p in older if ws.files[p]["proj"] == s.proj["name"]] or older
            dels += r.sample(near, min(len(near), r.randint(1, 3)))
        else:
            dels = []
            if r.random() < 0.55:
                pool = s.scratch or older
                if pool:
                    dels = r.sample(pool, min(len(pool), 1 if r.random() < 0.7 else 2))
        for p in dels[:6]:
            if p in ws.files:
                s.adv(5, 60, brk=False)
                s.delete(p)

    # ---------------------------------------------------------------- C: organising files
    def organise(self, s, tier, files, dom):
        """Sort a set of files. L: a category tree 3+ levels deep, most files moved;
        M: a few folders one level under the project, some moves; R: stay flat (renames,
        or files pulled up to the top)."""
        r, ws, u = s.r, s.ws, s.u
        files = [p for p in dict.fromkeys(files) if p in ws.files]
        if not files:
            return
        cats = {}
        for p in files:
            e = ext_of(p)
            cat = {"jpg": "photos", "png": "images", "mp3": "audio", "mp4": "video", "pdf": "documents",
                   "docx": "documents", "xlsx": "spreadsheets", "csv": "data", "eml": "correspondence",
                   "md": "notes", "txt": "notes", "ics": "calendar"}.get(e, "other")
            cats.setdefault(cat, []).append(p)
        frac_move = s.act
        if tier == "L":
            top = self.outdir(s, dom, "L", make=True) if not s.proj["dir"] or s.proj["dir"] == ws.root else s.proj["dir"]
            for cat, ps in cats.items():
                year = r.choice(["2023", "2024", "2025"])
                if len(ps) > 3 and r.random() < 0.7:
                    groups = {}
                    for p in ps:
                        groups.setdefault(r.choice([year, str(int(year) - 1)]), []).append(p)
                else:
                    groups = {"": ps}
                if ws.depth(top) >= 4:
                    groups = {"": ps}
                for g, gp in groups.items():
                    dest = os.path.join(top, styled(u, cat), g) if g else os.path.join(top, styled(u, cat))
                    if ws.depth(dest) < 3:
                        dest = os.path.join(dest, r.choice(["originals", "misc", "main"]))
                    for p in gp:
                        if r.random() < min(0.95, 0.75 * frac_move + 0.2):
                            s.adv(3, 25, brk=False)
                            s.move(p, dest)
        elif tier == "M":
            top = s.proj["dir"] if s.proj["dir"] and s.proj["dir"] != ws.root and ws.depth(s.proj["dir"]) <= 1 else None
            if top is None:
                top = os.path.join(ws.root, styled(u, s.proj["name"]))
            big = sorted(cats.items(), key=lambda kv: -len(kv[1]))[: r.randint(2, 4)]
            for cat, ps in big:
                dest = os.path.join(top, styled(u, cat)) if ws.depth(top) < 2 else top
                for p in ps:
                    if r.random() < min(0.9, 0.6 * frac_move + 0.1):
                        s.adv(4, 30, brk=False)
                        s.move(p, dest)
        elif tier == "R":
            for p in files:
                if r.random() < 0.35 * frac_move:
                    b, e = os.path.splitext(os.path.basename(p))
                    nb = styled(u, f"{s.proj['name']} {b}") + e if r.random() < 0.5 else styled(u, b) + e
                    if nb != os.path.basename(p):
                        s.adv(5, 40, brk=False)
                        p = s.rename(p, nb)
                if p in ws.files and os.path.dirname(p) != ws.root and r.random() < 0.3 * frac_move:
                    s.adv(3, 20, brk=False)
                    s.move(p, ws.root)
        else:  # skipped: a couple of renames at most
            for p in r.sample(files, min(len(files), r.randint(0, 2))):
                b, e = os.path.splitext(os.path.basename(p))
                s.adv(5, 40, brk=False)
                s.rename(p, styled(u, b) + e)

    # =================================================================== task flows
    def flow_understand(self, s, task, dims, dom, proj):
        r, eff = s.r, s.eff
        if task == "T-17":
            return self.flow_health(s, dims, dom)
        n = {"T-16": r.uniform(8, 20), "T-22": r.uniform(8, 18), "T-25": r.uniform(8, 18)}.get(task, r.uniform(7, 16))
        inputs = self.deliver_inputs(s, dom, n * s.act)
        outdir = self.outdir(s, dom)
        if "A" in dims:
            self.read_phase(s, eff["A"], inputs)
        else:
            self.light_reads(s, inputs)
        if "E" in dims:
            self.make_scratch(s, outdir, r.randint(1, 2))
        self.produce(s, eff.get("B", "N") if "B" in dims else "N", eff.get("F") if "F" in dims else "R", outdir, dom)
        if "E" in dims:
            if r.random() < 0.5:
                self.make_scratch(s, outdir, 1)
            self.maybe_revisit(s, 0.8)
            self.curate(s, eff["E"])
        while s.revisits and r.random() < 0.6:
            self.maybe_revisit(s, 1.0)
        self.leak_E(s)

    def flow_health(self, s, dims, dom):
        r, ws, eff = s.r, s.ws, s.eff
        pool = [p for p, f in ws.files.items() if f["tag"] not in ("lock", "tool")]
        if len(pool) < 6:
            pool += self.deliver_inputs(s, "messy", r.uniform(8, 16))
        s.proj["inputs"] = pool
        sample = r.sample(pool, min(len(pool), max(5, int(len(pool) * r.uniform(0.3, 0.6) * s.act))))
        self.read_phase(s, eff["A"], sample, relevant=r.sample(sample, max(2, len(sample) // 3)))
        outdir = self.outdir(s, dom)
        self.produce(s, "N", "R", outdir, dom)
        # put misplaced files where they belong
        loose = [p for p in pool if p in ws.files and ws.files[p]["tag"] in ("input", None, "scratch")]
        loose = r.sample(loose, min(len(loose), max(3, int(r.uniform(4, 12) * s.act))))
        self.organise(s, eff["C"], loose, dom)

    def flow_synthesize(self, s, task, dims, dom, proj):
        r, eff = s.r, s.eff
        if task == "T-15":
            names = [("report " + r.choice(G["O"]), "md"), ("report " + r.choice(G["O"]) + " field team", "pdf"),
                     ("field data", "csv"), ("notes " + r.choice(G["P"]), "txt"), ("report " + r.choice(G["O"]) + " draft", "md")]
            inputs = self.deliver_inputs(s, dom, r.randint(3, 6), names=names)
        else:
            inputs = self.deliver_inputs(s, dom, r.uniform(6, 16) * s.act)
        outdir = self.outdir(s, dom)
        self.read_phase(s, eff["A"], inputs)
        btier = eff.get("B", "N")
        self.produce(s, btier, eff.get("F") if "F" in dims else "R", outdir, dom)
        if "D" in dims:  # reconcile: revise the output after rereading
            self.maybe_revisit(s, 0.9)
            outs = [p for p in s.outputs if p in s.ws.files and s.ws.files[p]["text"] is not None][:2]
            self.iterate(s, eff["D"], outs)
        while s.revisits and r.random() < 0.6:
            self.maybe_revisit(s, 1.0)

    def flow_create(self, s, task, dims, dom, proj):
        r, eff = s.r, s.eff
        ct = eff["C"]
        inputs = []
        if task in ("T-27", "T-31", "T-08", "T-04") and (r.random() < 0.7 or task in ("T-27", "T-31")):
            k = {"T-27": r.uniform(5, 12), "T-31": r.uniform(6, 16)}.get(task, r.uniform(1, 4))
            inputs = self.deliver_inputs(s, dom, k * s.act)
        if ct is None:
            outdir = self.outdir(s, dom)
        elif proj["dir"] and not proj["new"] and proj["dir"] in s.ws.dirs and r.random() < 0.6:
            outdir = proj["dir"]
            if ct == "L" and r.random() < 0.7:  # deepen the existing tree
                sub = os.path.join(outdir, r.choice(["2025", "archive", "drafts", "final"]), r.choice(["wip", "v2", "misc"]))
                s.mkdir(sub)
                proj.setdefault("subs", []).append(sub)
        else:
            outdir = self.outdir(s, dom, ct, make=True)
        self.light_reads(s, inputs, r.randint(1, 4) if inputs else 0)
        if "E" in dims and r.random() < 0.6:
            self.make_scratch(s, outdir, 1)
        subs = [x for x in proj.get("subs", []) if x in s.ws.dirs]
        btier = eff["B"]
        if task == "T-03" and btier == "L":
            for _ in range(r.randint(2, 3)):
                d = r.choice(subs) if subs and ct == "L" else outdir
                self.produce(s, "L" if r.random() < 0.5 else "M", "R", d, dom)
        else:
            d = outdir
            if ct in ("L",) and subs and r.random() < 0.6:
                d = r.choice(subs)
            self.produce(s, btier, eff.get("F") if "F" in dims else "R", d, dom)
        if "E" in dims:
            self.make_scratch(s, outdir, r.randint(0, 2))
        if inputs and ct is not None:
            self.organise(s, ct, inputs, dom)
        elif ct == "L" and subs and s.outputs:  # file drafts into the tree
            for p in s.outputs[: r.randint(1, 3)]:
                if p in s.ws.files and os.path.dirname(p) == outdir:
                    s.adv(5, 40, brk=False)
                    s.move(p, r.choice(subs))
        if "E" in dims:
            self.curate(s, eff["E"])

    def flow_organize(self, s, task, dims, dom, proj):
        r, eff, ws = s.r, s.eff, s.ws
        n = {"T-29": r.uniform(14, 30), "T-14": r.uniform(6, 12), "T-23": r.uniform(12, 30)}.get(task, r.uniform(10, 24))
        inputs = self.deliver_inputs(s, dom, n * s.act)
        if task == "T-21":  # duplicates of some files
            for p in r.sample(inputs, max(1, len(inputs) // 4)):
                b, e = os.path.splitext(os.path.basename(p))
                q = ws.free(os.path.join(os.path.dirname(p), r.choice([f"{b} (1){e}", f"copy of {b}{e}", f"{b} copy{e}"])))
                ws.files[q] = dict(ws.files[p])
                inputs.append(q)
        if "A" in dims:
            self.read_phase(s, eff["A"], inputs)
        else:
            self.light_reads(s, inputs, r.randint(1, 4))
        ct = eff["C"]
        if task == "T-21":  # duplicates go away (deleted or set aside) whatever the person's tier
            dups = [p for p in inputs if p in ws.files and re.search(r"\(1\)|copy", os.path.basename(p))]
            for p in dups:
                s.adv(5, 40, brk=False)
                if s.u.tiers["E"] == "R":
                    s.move(p, os.path.join(os.path.dirname(p), "duplicates") if ct not in ("R", None) else ws.root)
                else:
                    s.delete(p)
        self.organise(s, ct, inputs, dom)
        if "D" in dims:
            idx_dir = s.proj["dir"] or self.outdir(s, dom)
            if idx_dir not in ws.dirs:
                idx_dir = ws.root
            if task == "T-14":
                docs = [p for p in s.proj["inputs"] if p in ws.files and ws.files[p]["text"] is not None]
                if not docs:
                    docs = [self.draft(s, (os.path.join(idx_dir, styled(s.u, "changelog") + ".md")),
                                       s.tx.doc("Changelog", r.randint(10, 30), "R"))]
                self.iterate(s, eff["D"], docs[:2])
            else:
                name = styled(s.u, r.choice(DOM[dom]["out"]))
                ext = ".csv" if task == "T-29" and r.random() < 0.5 else ".md"
                idx = os.path.join(idx_dir, name + ext)
                start = s.tx.csv(r.randint(2, 5)) if ext == ".csv" else s.tx.doc(name, r.randint(8, 20), "R")
                idx = self.draft(s, idx, start)
                self.iterate(s, eff["D"], [idx], goal="grow")
        if "F" in dims:
            ft = eff["F"]
            outdir = s.proj["dir"] if s.proj["dir"] in ws.dirs else self.outdir(s, dom)
            if ft == "L":
                self.produce(s, "R", "L", outdir, dom)
                if task in ("T-23", "T-26") and r.random() < 0.6:
                    d = outdir if s.u.tiers["C"] == "R" else os.path.join(outdir, r.choice(["thumbnails", "contact sheets", "album"]))
                    s.mkdir(d)
                    for i in range(r.randint(1, 4)):
                        s.adv(5, 60, brk=False)
                        s.put(os.path.join(d, styled(s.u, f"sheet {i + 1}") + ".jpg"), tag="output", proj=s.proj["name"])
            elif ft == "M":
                self.produce(s, "N", "M", outdir, dom)
            elif ft == "R" or (ft is None and r.random() < 0.5):
                self.produce(s, "N", "R", outdir, dom)
        self.leak_E(s)

    def own_docs(self, s, k, dom, min_lines=25):
        """Documents to work on: the person's earlier outputs if any, else pre-existing files."""
        r, ws = s.r, s.ws
        mine = [p for p, f in ws.files.items() if f["tag"] == "output" and f["text"] is not None
                and ext_of(p) in ("md", "txt") and len(lines_of(f["text"])) >= min_lines]
        if s.proj["inputs"] and not s.proj["new"]:
            prev = [p for p in s.proj["inputs"] if p in ws.files and ws.files[p]["text"] is not None]
            if prev:
                return prev[:k]
        if mine and r.random() < 0.6:
            pick = r.sample(mine, min(k, len(mine)))
            s.proj["inputs"] = pick
            return pick
        outs = list(DOM[dom]["out"]) + ["notes {P}", "draft {m}", "{X} overview"]
        r.shuffle(outs)
        names = list(dict.fromkeys(fill_name(outs[j % len(outs)], r, s.tx, s.proj.get("fixed")) for j in range(k)))
        names = [(x, "md") for x in names]
        paths = self.deliver_inputs(s, dom, k, names=names, force_folder=None)
        for p in paths:
            if ws.files[p]["text"] is not None and len(lines_of(ws.files[p]["text"])) < min_lines:
                ws.files[p]["text"] = text_of(s.tx.doc(os.path.basename(p)[:-3], r.randint(min_lines, 140), "M", "M", tables=1))
        return paths

    def flow_iterate(self, s, task, dims, dom, proj):
        r, eff, ws = s.r, s.eff, s.ws
        dt_ = eff["D"]
        if task in ("T-09", "T-19"):
            docs = self.own_docs(s, 1, dom, 60)
            self.light_reads(s, docs, 1)
            bt = eff["B"]
            if task == "T-19":  # a version of the document for another audience
                base = os.path.splitext(os.path.basename(docs[0]))[0]
                who = r.choice(["board", "clients", "new staff", "team", "parents", "public"])
                outdir = os.path.dirname(docs[0])
                lines = s.tx.doc(f"{base} ({who})", self.b_lines(s, bt), bt, "R", tables=1)
                p = self.draft(s, (os.path.join(outdir, styled(s.u, f"{base} for {who}") + ".md")), lines)
                self.iterate(s, dt_, [p], goal=None, btier=bt)
            else:
                self.iterate(s, dt_, docs, goal="shrink", btier=bt)
        elif task == "T-30":
            inputs = self.deliver_inputs(s, dom, r.uniform(6, 14) * s.act)
            self.read_phase(s, eff["A"], inputs)
            txts = [p for p in inputs if ext_of(p) == "txt" and p in ws.files][:3]
            if txts:
                self.iterate(s, dt_, txts)
            ft = eff["F"]
            outdir = self.outdir(s, dom)
            if ft is not None:
                self.produce(s, "N", ft, outdir, dom)
        else:
            k = {"T-11": r.randint(3, 6), "T-12": r.randint(3, 7), "T-13": r.randint(1, 2)}[task]
            docs = self.own_docs(s, k, dom, 30)
            extra = []
            if task == "T-13":
                extra = self.deliver_inputs(s, dom, r.randint(2, 4),
                                            names=[(f"feedback from {r.choice(G['P'])}", "eml"), (f"comments {r.choice(G['P'])}", "md"),
                                                   ("review notes", "txt"), ("tracked changes", "docx")],
                                            force_folder=os.path.dirname(docs[0]))
                s.proj["inputs"] = docs
            if "A" in dims:
                self.read_phase(s, eff["A"], docs + extra, relevant=extra + docs[:1])
            else:
                self.light_reads(s, docs, min(2, len(docs)))
            if "E" in dims:
                self.make_scratch(s, os.path.dirname(docs[0]), r.randint(1, 2))
            targets = docs if task != "T-11" else [p for p in docs if r.random() < 0.7] or docs[:1]
            self.iterate(s, dt_, targets)
            if task == "T-12":
                self.organise(s, eff["C"], docs + [p for p in s.ws.files if p.startswith(os.path.dirname(docs[0]) + "/") and r.random() < 0.3], dom)
            if "E" in dims:
                self.curate(s, eff["E"])
        self.leak_E(s)

    def flow_maintain(self, s, task, dims, dom, proj):
        r, eff, ws = s.r, s.eff, s.ws
        if task == "T-32":
            inputs = self.deliver_inputs(s, dom, r.uniform(8, 18) * s.act)
            self.read_phase(s, eff["A"], inputs)
            idx = [p for p in inputs if p in ws.files and ext_of(p) in ("md", "csv", "txt")][:3]
            if idx:
                self.iterate(s, eff["D"], idx)
            ft = eff["F"]
            if ft is not None:
                self.produce(s, "N", ft, self.outdir(s, dom), dom)
            return
        docs = self.own_docs(s, r.randint(2, 5), dom, 20)
        rounds = 3 if task == "T-18" else 1
        ct = eff.get("C")
        kb_dir = os.path.dirname(docs[0])
        if ct is not None and ct != "R":
            newdir = self.outdir(s, dom, ct, make=True) if (ct == "L" or r.random() < 0.7) else kb_dir
        elif ct == "R":
            newdir = ws.root
        else:
            newdir = kb_dir
        self.make_scratch(s, kb_dir, r.randint(0, 2))
        for rd in range(rounds):
            self.light_reads(s, docs, r.randint(1, min(3, len(docs))))
            self.iterate(s, eff["D"], r.sample(docs, min(len(docs), r.randint(1, 3))))
            if r.random() < 0.6:
                title = fill_name(r.choice(DOM[dom]["out"]), r, s.tx, s.proj.get("fixed"))
                p = os.path.join(newdir, styled(s.u, title) + ".md")
                self.draft(s, p, s.tx.doc(title, r.randint(15, 50), "M"))
            if ct == "L" and r.random() < 0.6:  # file older notes deeper
                for p in r.sample(docs, min(len(docs), r.randint(1, 3))):
                    if p in ws.files:
                        dest = os.path.join(newdir, r.choice(["topics", "reference", "archive"]), r.choice(["a-m", "2025", "general"]))
                        s.adv(5, 30, brk=False)
                        q = s.move(p, dest)
                        docs[docs.index(p)] = q
            elif ct == "M" and r.random() < 0.4 and newdir != kb_dir:
                for p in r.sample(docs, min(len(docs), r.randint(1, 2))):
                    if p in ws.files and ws.depth(newdir) <= 2:
                        q = s.move(p, newdir)
                        docs[docs.index(p)] = q
            if rd < rounds - 1:
                s.adv(600, 3600, brk=False)
            docs = [p for p in docs if p in ws.files] or docs
        self.curate(s, eff["E"])
        s.proj["inputs"] = [p for p in docs if p in ws.files]

    def leak_E(self, s):
        """Outside curation tasks, tidy people sometimes bin a scratch file anyway."""
        r = s.r
        e = s.u.tiers["E"]
        if "E" in TASKS[s.task][1] or e == "R":
            return
        if r.random() < (0.15 if e == "L" else 0.05):
            self.make_scratch(s, s.proj["dir"] if s.proj["dir"] in s.ws.dirs else s.ws.root, 1)
            if s.scratch and r.random() < (0.7 if e == "L" else 0.3):
                s.adv(60, 600)
                s.delete(s.scratch[-1])

    # =================================================================== tool bursts
    def sync_burst(self, s):
        """git pull / cloud sync rewriting several files of the shared folder within a second."""
        r, ws, u = s.r, s.ws, s.u
        team = u.team
        pool = [p for p in ws.files if p.startswith(team + "/") and ws.files[p]["text"] is not None]
        if not pool:
            return
        s.adv(10, 120, brk=False)
        k = r.randint(2, min(9, len(pool)))
        for p in r.sample(pool, k):
            L = lines_of(ws.files[p]["text"])
            L2 = medium_edit(L, Tx(r, "report", 1.0), r) if r.random() < 0.6 else small_edit(L, Tx(r, "report", 1.0), r)
            if u.sync == "git":
                s.edit(p, text_of(L2), tool="git")
            else:
                s.overwrite(p, text_of(L2))
            s.tick_ms(5, 90)
        if r.random() < 0.5:
            d = team if r.random() < 0.6 else os.path.join(team, r.choice(["guides", "decisions", "assets"]))
            s.mkdir(d, tool=True)
            for _ in range(r.randint(1, 3)):
                nm = r.choice(["incident review", "q3 plan", "style guide", "vendors", "retro notes"])
                s.tick_ms(5, 60)
                s.create(ws.free(os.path.join(d, nm + ".md")), text_of(Tx(r, "report", 1.0).doc(nm, r.randint(10, 40), "M")),
                         tag="team")
        if r.random() < 0.2 and len(pool) > 3:
            s.tick_ms(5, 60)
            victim = r.choice([p for p in pool if p in ws.files])
            s.delete(victim)

    def export_burst(self, s):
        """An export/build step: several files written at once next to the document."""
        r, ws = s.r, s.ws
        src = r.choice([p for p in s.outputs if p in ws.files] or [None])
        if src is None:
            return
        s.adv(20, 200, brk=False)
        base = os.path.splitext(os.path.basename(src))[0]
        d = os.path.join(os.path.dirname(src), r.choice(["export", "build", "_site", "out"]))
        s.mkdir(d, tool=True)
        html = "<html><head><meta charset='utf-8'><title>" + base + "</title><link rel='stylesheet' href='style.css'></head><body>\n" + \
               "\n".join("<p>" + x.replace("<", "&lt;") + "</p>" for x in lines_of(ws.files[src]["text"] or "")[:200] if x.strip()) + "\n</body></html>\n"
        s.tick_ms(10, 60)
        s.put(os.path.join(d, base + ".html"), html, tag="tool")
        s.tick_ms(10, 60)
        s.put(os.path.join(d, "style.css"), "body{font-family:sans-serif;max-width:46em;margin:auto}\n", tag="tool")
        s.tick_ms(30, 200)
        s.put(os.path.join(d, base + ".pdf"), tag="tool")
        if r.random() < 0.5:
            s.mkdir(os.path.join(d, "assets"), tool=True)
            for i in range(r.randint(1, 3)):
                s.tick_ms(5, 40)
                s.put(os.path.join(d, "assets", f"img{i}.png"), tag="tool")


def generate(out: Path, *, seed: int = DEFAULT_SEED, debug: Path | None = None) -> Path:
    """Write the users folder (truth.json and one folder per user) into `out`, replacing it.

    `debug`: a JSON file (keep it outside `out`) with each user's tasks and acted tiers.
    """
    return _generate(Path(out), seed, debug, None)


def _generate(out: Path, seed: int, debug: Path | None, echo: Callable[[str], object] | None) -> Path:
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    g = Gen(seed)
    truth, all_counts, dbg = {}, {}, {}
    for u in g.make_users():
        t, counts, seq = g.run_user(u, out)
        dbg[u.uid] = {"tasks": seq, "eff": u.eff_log, "verb": u.verb, "activity": u.activity, "incons": u.incons}
        truth[u.uid] = t
        all_counts[u.uid] = counts
        if echo:
            tiers = "".join(u.tiers[d] for d in DIMS)
            echo(f"{u.uid} {tiers} events {sum(counts)} min {min(counts)} max {max(counts)}")
    with open(out / "truth.json", "w", encoding="utf-8") as fh:
        json.dump(truth, fh, indent=1)
    if debug:
        with open(debug, "w", encoding="utf-8") as fh:
            json.dump(dbg, fh, indent=1)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=DESCRIPTION)
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--out", required=True, help="the users folder to write (replaced if it exists)")
    ap.add_argument("--debug", default=None, help="optional JSON file (outside the dataset) with tasks and acted tiers")
    a = ap.parse_args(argv)
    _generate(Path(a.out), a.seed, Path(a.debug) if a.debug else None, print)
    return 0


if __name__ == "__main__":
    sys.exit(main())
