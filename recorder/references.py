"""A labelled set for cross_file_reference: scripted sessions with real programs whose true
links are known, and the precision and recall of what the recorder derived, per
reference_type.

True links are the ones the rules of derive are meant to find: lines copied from one
file into another, words of a source taken up in an edit, the results of a search being
opened, files of one folder read one after the other, related files read one after the
other. Traps are the noise the old recorder turned into links: a search's scope linked to
itself, reads in unrelated folders, an edit after an unrelated read, unpacked files.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from filegram.schema import REFERENCE_TYPES

Link = tuple[str, str, str]  # (source_file, target_file, reference_type)


def append(rel: str, text: str) -> Callable[[Path], None]:
    """The person adds text to a file (an editor's in-place save)."""

    def run(root: Path) -> None:
        with open(root / rel, "a", encoding="utf-8") as f:
            f.write(text)

    return run


def write(rel: str, text: str) -> Callable[[Path], None]:
    def run(root: Path) -> None:
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")

    return run


@dataclass
class Session:
    name: str
    files: dict[str, str]
    steps: list[str | Callable[[Path], None]]
    links: list[Link]  # the true links
    gap: float = 0.7  # seconds between steps


RESEARCH = (
    "# Sources\nPhotosynthesis converts light into chemical energy.\nChlorophyll absorbs red and blue wavelengths.\n"
    "Stomata regulate transpiration and carbon dioxide uptake.\nRubisco fixes carbon in the Calvin cycle.\n"
)
API_SPEC = "# API\nendpoint /invoices returns invoice totals\nendpoint /customers lists customers\npagination cursor token\n"
API_CODE = ("def fetch_invoices(cursor_token):\n    return get('/invoices', pagination=cursor_token)\n\n"
            "def list_customers():\n    return get('/customers')\n")


def sessions() -> list[Session]:
    return [
        Session("copy lines into a report", {
            "notes/findings.md": "# Findings\nRevenue grew eleven percent in the northern region.\nChurn fell after the pricing change.\n",
            "recipes/soup.md": "# Soup\nonions, carrots, stock\nsimmer for forty minutes\n",
            "report.md": "# Report\n",
        }, [
            "cat notes/findings.md > /dev/null",
            "cat recipes/soup.md > /dev/null",
            append("report.md", "## Results\nRevenue grew eleven percent in the northern region.\nChurn fell after the pricing change.\n"),
        ], [("notes/findings.md", "report.md", "read_then_edit")]),
        Session("take up a source's words", {"research/sources.md": RESEARCH, "essay.md": "# Essay\n"}, [
            "cat research/sources.md > /dev/null",
            append("essay.md", "Leaves use chlorophyll to capture wavelengths of light; photosynthesis then fixes carbon "
                               "through rubisco while stomata manage transpiration.\n"),
        ], [("research/sources.md", "essay.md", "read_then_edit")]),
        Session("edit after an unrelated read", {"shopping.txt": "milk\neggs\nbread\n", "essay.md": "# Essay\n"}, [
            "cat shopping.txt > /dev/null",
            append("essay.md", "The committee reviewed the governance framework and its accountability measures.\n"),
        ], []),
        Session("search then open its results", {
            "plan.md": "budget review\n", "notes/meeting.md": "budget agreed\n", "notes/other.md": "nothing here\n",
            "code/README.md": "run it\n",
        }, [
            "grep -rl budget . > /dev/null",
            "cat notes/meeting.md > /dev/null",
            "cat code/README.md > /dev/null",
            "cat plan.md > /dev/null",
        ], [(".", "notes/meeting.md", "search_then_read"), (".", "plan.md", "search_then_read")]),
        Session("search a file, then read it", {"plan.md": "| a | b |\n|---|---|\n"}, [
            "grep -c '^|' plan.md > /dev/null",
            "cat plan.md > /dev/null",
        ], []),
        Session("find in one folder, read in another", {"docs/a.md": "alpha\n", "docs/b.md": "beta\n", "notes/x.txt": "gamma\n"}, [
            "find docs -name '*.md' > /dev/null",
            "cat notes/x.txt > /dev/null",
        ], []),
        Session("read a folder's files in turn", {
            "docs/intro.md": "# Intro\nwelcome\n", "docs/setup.md": "# Setup\ninstall it\n", "docs/faq.md": "# FAQ\nquestions\n",
        }, [
            "cat docs/intro.md > /dev/null", "cat docs/setup.md > /dev/null", "cat docs/faq.md > /dev/null",
        ], [("docs/intro.md", "docs/setup.md", "sequential_access"), ("docs/setup.md", "docs/faq.md", "sequential_access")]),
        Session("related files in two folders", {"spec/api.md": API_SPEC, "code/client.py": API_CODE}, [
            "cat spec/api.md > /dev/null", "cat code/client.py > /dev/null",
        ], [("spec/api.md", "code/client.py", "sequential_access")]),
        Session("unrelated files in two folders", {"taxes/2024.txt": "deductions receipts\n", "recipes/soup.md": "onions carrots\n"}, [
            "cat taxes/2024.txt > /dev/null", "cat recipes/soup.md > /dev/null",
        ], []),
        Session("unpack, read, write a report", {"README.md": "# Project\nsee the dataset\n"}, [
            "tar xzf ../dataset.tar.gz",
            "cat README.md > /dev/null",
            write("summary.md", "# Summary\nthe dataset has twelve parts\n"),
        ], []),
        Session("paraphrase sharing two words", {"notes/sales.md": "Quarterly revenue rose in Lisbon.\n", "memo.md": "# Memo\n"}, [
            "cat notes/sales.md > /dev/null",
            append("memo.md", "Lisbon numbers improved, so revenue looks good.\n"),
        ], [("notes/sales.md", "memo.md", "read_then_edit")]),  # a true link with thin evidence
        Session("two sources, one used", {
            "farm/kiwi.md": "Kiwi harvest begins in March across the southern orchards.\n",
            "ops/servers.md": "Server migration scheduled for the weekend window.\n",
            "plan.md": "# Plan\n",
        }, [
            "cat farm/kiwi.md > /dev/null",
            "cat ops/servers.md > /dev/null",
            append("plan.md", "Book pickers: the orchards start their kiwi harvest in March.\n"),
        ], [("farm/kiwi.md", "plan.md", "read_then_edit")]),
        Session("edit the file just read", {"essay.md": "# Essay\nThe first paragraph argues for wind power.\n"}, [
            "cat essay.md > /dev/null",
            append("essay.md", "The second paragraph argues for wind power too.\n"),
        ], []),
        Session("copy one line", {"quotes.md": "Simplicity is prerequisite for reliability.\nMeasure twice cut once.\n",
                                  "talk.md": "# Talk\n"}, [
            "cat quotes.md > /dev/null",
            append("talk.md", "Opening: Simplicity is prerequisite for reliability.\n"),
            append("talk.md", "Simplicity is prerequisite for reliability.\n"),
        ], [("quotes.md", "talk.md", "read_then_edit")] * 2),  # both edits take up its line
        Session("words in common by chance", {"weather.md": "Rain expected tomorrow afternoon.\n", "budget.md": "# Budget\n"}, [
            "cat weather.md > /dev/null",
            append("budget.md", "Budget meeting tomorrow afternoon with finance.\n"),
        ], []),
        Session("copy from two sources", {
            "a/alpha.md": "# Alpha\nThe alpha launch slipped by two weeks.\n",
            "b/beta.md": "# Beta\nBeta testers asked for offline mode.\n",
            "status.md": "# Status\n",
        }, [
            "cat a/alpha.md > /dev/null",
            "cat b/beta.md > /dev/null",
            append("status.md", "The alpha launch slipped by two weeks.\nBeta testers asked for offline mode.\n"),
        ], [("a/alpha.md", "status.md", "read_then_edit"), ("b/beta.md", "status.md", "read_then_edit")]),
    ]


@dataclass
class SessionResult:
    name: str
    true: list[Link]
    found: list[Link]
    events: list[dict] = field(default_factory=list)


def run_session(s: Session, work: Path) -> SessionResult:
    from filegram.config import Config
    from filegram.store import Store

    from .recorder import Recorder

    root = work / "root"
    root.mkdir(parents=True)
    for rel, text in s.files.items():
        write(rel, text)(root)
    if any("dataset.tar.gz" in st for st in s.steps if isinstance(st, str)):
        from .workflows import make_archives

        make_archives(root, work)
    store = Store(work / "fg.db")
    rec = Recorder(store, [root], Config())
    env = dict(os.environ, LC_ALL="C")
    try:
        rec.start()
        for st in s.steps:
            if callable(st):
                st(root)
            else:
                subprocess.run(st, shell=True, cwd=root, env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
            rec.flush(10.0)
            time.sleep(s.gap)
        rec.stop()
        events = list(store.actions())
    finally:
        if rec.stats()["running"]:
            rec.stop()
        store.close()
    found = [(e["source_file"], e["target_file"], e["reference_type"]) for e in events if e["event_type"] == "cross_file_reference"]
    return SessionResult(s.name, list(s.links), found, events)


def run_reference_set(workdir: Path | None = None) -> list[SessionResult]:
    base = Path(workdir or tempfile.mkdtemp(prefix="fg-references-"))
    return [run_session(s, base / f"r{i}") for i, s in enumerate(sessions())]


def time_only_links(events: list[dict]) -> list[Link]:
    """What the previous recorder's time-only rules derive from the same actions (read
    then read or edit within 10 minutes, any read within 60 s after a search): the
    baseline the evidence rules are measured against."""
    out: list[Link] = []
    prev: tuple[str, float] | None = None
    search: tuple[str, float] | None = None
    scope = "."
    for e in sorted(events, key=lambda e: e["timestamp"]):
        if e.get("authored") is False or e["event_type"] not in ("file_read", "file_edit", "file_write", "file_search"):
            continue
        t = e["timestamp"]
        if e["event_type"] == "file_search":
            search = (scope, t)
            continue
        path = e["file_path"]
        if e["event_type"] == "file_read" and search is not None and t - search[1] <= 60_000:
            out.append((search[0], path, "search_then_read"))
        if prev is not None and prev[0] != path and t - prev[1] <= 600_000:
            out.append((prev[0], path, "sequential_access" if e["event_type"] == "file_read" else "read_then_edit"))
        if e["event_type"] == "file_read":
            prev = (path, t)
    return out


def scores(results: list[SessionResult], *, baseline: bool = False) -> list[dict]:
    if baseline:
        results = [SessionResult(r.name, r.true, time_only_links(r.events), r.events) for r in results]
    rows = []
    for rtype in (*REFERENCE_TYPES, "all"):
        true: Counter[tuple[str, Link]] = Counter()
        found: Counter[tuple[str, Link]] = Counter()
        for r in results:
            true.update((r.name, link) for link in r.true if rtype in ("all", link[2]))
            found.update((r.name, link) for link in r.found if rtype in ("all", link[2]))
        hit = sum((true & found).values())
        nt, nf = sum(true.values()), sum(found.values())
        rows.append({"type": rtype, "true": nt, "found": nf, "correct": hit,
                     "precision": hit / nf if nf else 1.0, "recall": hit / nt if nt else 1.0})
    return rows


def format_reference_table(results: list[SessionResult]) -> str:
    lines = [f"{'reference_type':<20}{'true':>6}{'found':>7}{'correct':>9}{'precision':>11}{'recall':>8}"
             f"{'time-only precision':>21}{'recall':>8}"]
    for r, b in zip(scores(results), scores(results, baseline=True), strict=True):
        lines.append(f"{r['type']:<20}{r['true']:>6}{r['found']:>7}{r['correct']:>9}{r['precision']:>11.2f}{r['recall']:>8.2f}"
                     f"{b['precision']:>21.2f}{b['recall']:>8.2f}")
    wrong = [(r.name, link) for r in results for link in Counter(r.found) - Counter(r.true)]
    missed = [(r.name, link) for r in results for link in Counter(r.true) - Counter(r.found)]
    for name, link in wrong:
        lines.append(f"  wrong:  {name}: {link}")
    for name, link in missed:
        lines.append(f"  missed: {name}: {link}")
    return "\n".join(lines)


def main() -> int:
    results = run_reference_set()
    print(format_reference_table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
