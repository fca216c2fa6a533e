"""A fixed week of one person's work (a trajectory set with known times), and questions about
it with the answers a person would expect: the offline test set for `ask`'s routing.

The week (UTC; "now" is Friday 2026-11-27 18:00):
  last Mon 16 09:00  wrote travel/plan.md (a trip to Lisbon), edited it once
  Mon 23 09:00  wrote reports/q4-budget.md, read notes/meeting.md, edited the report twice,
                made reports/archive
  Tue 24 10:00  read the report, edited it three times, wrote notes/ideas.md, grep 'budget'
  Wed 25 14:00  wrote code/app.py, edited it twice, deleted notes/old.md, renamed
                notes/ideas.md -> notes/ideas-2026.md; tar unpacked 34 files into dataset/
                (a tool's work: not authored)
  Thu 26 16:00  backed up the report (cp), moved notes/todo.md -> archive/todo.md, read
                code/app.py three times
  Fri 27 09:30  edited notes/ideas-2026.md twice, wrote reports/summary.md, read the report,
                find '*.md'
  Fri 27 13:00  edited reports/summary.md, deleted the backup
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from memory_fixtures import SessionBuilder

from filegram.store import Store

NOW = datetime(2026, 11, 27, 18, 0, tzinfo=UTC)


def _at(day: int, hour: int, minute: int = 0, month: int = 11) -> float:
    return datetime(2026, month, day, hour, minute, tzinfo=UTC).timestamp() * 1000.0


BUDGET = "# Q4 budget\n\nThe quarterly budget: revenue, costs and the schedule.\n\n| item | planned |\n|---|---|\n| travel | 400 |\n"
SUMMARY = "# Summary\n\nA summary of the budget and the schedule for the board.\n"
IDEAS = "# Ideas\n\nsearch tools, indexing, a faster backup\n"
APP = "def main():\n    return 1\n"
PLAN = "# Trip\n\nA trip to Lisbon in spring: flights, hotel.\n"


def build_week(store: Store) -> None:
    s0 = SessionBuilder("s0", _at(16, 9))
    s0.write("travel/plan.md", PLAN).edit("travel/plan.md", 2, 0)
    s0.store_into(store)

    s1 = SessionBuilder("s1", _at(23, 9))
    s1.write("reports/q4-budget.md", BUDGET).read("notes/meeting.md")
    s1.edit("reports/q4-budget.md", 4, 1).edit("reports/q4-budget.md", 2, 0)
    s1.add("dir_create", dir_path="reports/archive", depth=1, sibling_count=0)
    s1.store_into(store)

    s2 = SessionBuilder("s2", _at(24, 10))
    s2.read("reports/q4-budget.md")
    for _ in range(3):
        s2.edit("reports/q4-budget.md", 1, 1)
    s2.write("notes/ideas.md", IDEAS)
    s2.add("file_search", search_type="grep", query="budget", files_matched=2)
    s2.store_into(store)

    s3 = SessionBuilder("s3", _at(25, 14))
    s3.write("code/app.py", APP).edit("code/app.py", 3, 0).edit("code/app.py", 1, 1)
    s3.add("file_delete", file_path="notes/old.md", file_age_ms=9e8, was_temporary=False)
    s3.add("file_rename", old_path="notes/ideas.md", new_path="notes/ideas-2026.md", naming_pattern_change="other")
    s3.add("file_write", file_path="dataset", file_type="", operation="create", content_length=0,
           program="tar", authored=False, bulk=True, bulk_count=34)
    s3.store_into(store)

    s4 = SessionBuilder("s4", _at(26, 16))
    s4.add("file_copy", source_path="reports/q4-budget.md", dest_path="reports/q4-budget.md.bak", is_backup=True)
    s4.add("file_move", old_path="notes/todo.md", new_path="archive/todo.md", destination_directory_depth=1)
    for k in range(3):
        s4.read("code/app.py", view_count=k + 1)
    s4.store_into(store)

    s5 = SessionBuilder("s5", _at(27, 9, 30))
    s5.edit("notes/ideas-2026.md", 2, 0).edit("notes/ideas-2026.md", 1, 0)
    s5.write("reports/summary.md", SUMMARY).read("reports/q4-budget.md")
    s5.add("file_search", search_type="find", query="*.md", files_matched=6)
    s5.store_into(store)

    s6 = SessionBuilder("s6", _at(27, 13))
    s6.edit("reports/summary.md", 1, 0)
    s6.add("file_delete", file_path="reports/q4-budget.md.bak", file_age_ms=7e7, was_temporary=False)
    s6.store_into(store)


# (question, expected): route is "trace", "profile" or "none" (can't tell); for trace answers,
# the facts that must hold: files (exactly, in any order), files_include, top (first ranked),
# count, when (the minute), days.
CASES: list[tuple[str, dict[str, Any]]] = [
    # what happened: periods
    ("What did I work on today?", {"route": "trace", "files": {"notes/ideas-2026.md", "reports/summary.md"}}),
    ("What did I work on yesterday?", {"route": "trace", "files": {"reports/q4-budget.md.bak", "archive/todo.md"}}),
    ("What did I work on this week?", {"route": "trace", "files": {
        "reports/q4-budget.md", "notes/ideas-2026.md", "code/app.py", "reports/q4-budget.md.bak", "archive/todo.md",
        "reports/summary.md"}}),
    ("What did I work on last week?", {"route": "trace", "files": {"travel/plan.md"}}),
    ("What did I do on Wednesday?", {"route": "trace", "files": {"code/app.py", "notes/ideas-2026.md"}}),
    ("What did I do on Monday?", {"route": "trace", "files": {"reports/q4-budget.md"}}),
    ("What did I work on on 2026-11-24?", {"route": "trace", "files": {"reports/q4-budget.md", "notes/ideas-2026.md"}}),
    ("What did I edit today?", {"route": "trace", "files": {"notes/ideas-2026.md", "reports/summary.md"}}),
    ("What did I read yesterday?", {"route": "trace", "files": {"code/app.py"}}),
    ("What did I read on Monday?", {"route": "trace", "files": {"notes/meeting.md"}}),
    ("What did I work on in the last 2 days?", {"route": "trace", "files_include": {"archive/todo.md", "reports/summary.md"}}),
    # which files, most
    ("Which files did I edit most?", {"route": "trace", "top": "reports/q4-budget.md", "top_count": 5}),
    ("Which files did I edit most this week?", {"route": "trace", "top": "reports/q4-budget.md"}),
    ("Which file did I edit most today?", {"route": "trace", "top": "notes/ideas-2026.md", "top_count": 2}),
    ("Which files did I read most?", {"route": "trace", "top": "code/app.py", "top_count": 3}),
    ("Which files did I edit most yesterday?", {"route": "trace", "files": set()}),
    ("Which folders did I work in today?", {"route": "trace", "top": "notes", "files": {"notes", "reports"}}),
    # how often / how many
    ("How often did I edit reports/q4-budget.md?", {"route": "trace", "count": 5, "days": ["2026-11-23", "2026-11-24"]}),
    ("How many times did I edit code/app.py?", {"route": "trace", "count": 2}),
    ("How many files did I delete this week?", {"route": "trace", "count": 2}),
    ("How many files did I create today?", {"route": "trace", "count": 1}),
    ("How many files did I write this week?", {"route": "trace", "count": 4}),
    ("How many sessions did I have this week?", {"route": "trace", "count": 6}),
    ("How many times did I search this week?", {"route": "trace", "count": 2}),
    ("How often did I back up files?", {"route": "trace", "count": 1}),
    ("How often did I read code/app.py?", {"route": "trace", "count": 3}),
    # when
    ("When did I last edit code/app.py?", {"route": "trace", "when": "2026-11-25 14:00"}),
    ("When did I last read reports/q4-budget.md?", {"route": "trace", "when": "2026-11-27 09:30"}),
    ("When did I last search for budget?", {"route": "trace", "when": "2026-11-24 10:01"}),
    ("When did I create code/app.py?", {"route": "trace", "when": "2026-11-25 14:00"}),
    ("When did I rename notes/ideas.md?", {"route": "trace", "when": "2026-11-25 14:00"}),
    ("When did I last move a file?", {"route": "trace", "when": "2026-11-26 16:00"}),
    ("When did I last work on notes/ideas-2026.md?", {"route": "trace", "when": "2026-11-27 09:30"}),
    ("Did I delete notes/old.md?", {"route": "trace", "count": 1, "when": "2026-11-25 14:00"}),
    ("Did I delete reports/summary.md?", {"route": "trace", "count": 0}),
    # what did I write about X
    ("What did I write about budget?", {"route": "trace", "files": {"reports/q4-budget.md", "reports/summary.md"}}),
    ("What did I write about Lisbon?", {"route": "trace", "files": {"travel/plan.md"}}),
    ("What did I write about licence?", {"route": "trace", "files": set()}),
    ("What did I write about indexing this week?", {"route": "trace", "files": {"notes/ideas-2026.md"}}),
    # habits: the profile
    ("How do I organise my files?", {"route": "profile"}),
    ("Am I a deep reader?", {"route": "profile"}),
    ("Do I keep backups when I edit?", {"route": "profile"}),
    ("How long are the documents I write?", {"route": "profile"}),
    ("Do I clean up temporary files?", {"route": "profile"}),
    ("Summarise my working style", {"route": "profile"}),
    # can't tell
    ("What did I have for lunch?", {"route": "none"}),
    ("Who sent me the budget email?", {"route": "none"}),
    ("What will I work on next week?", {"route": "none"}),
    ("Why did I delete notes/old.md?", {"route": "none"}),
    ("Which websites did I visit today?", {"route": "none"}),
    ("What did my colleague edit yesterday?", {"route": "none"}),
    ("How much did I spend on travel?", {"route": "none"}),
    ("What is the capital of Portugal?", {"route": "none"}),
]


def check(answer: Any, want: dict[str, Any]) -> list[str]:
    """What is wrong with an answer (empty: right)."""
    facts = answer.facts or {}
    bad = []
    if answer.route != want["route"]:
        return [f"route {answer.route} != {want['route']}"]
    if want["route"] == "none" and "can't tell" not in answer.text:
        bad.append("does not say it can't tell")
    if "files" in want and set(facts.get("files") or []) != want["files"]:
        bad.append(f"files {sorted(facts.get('files') or [])} != {sorted(want['files'])}")
    if "files_include" in want and not want["files_include"] <= set(facts.get("files") or []):
        bad.append(f"files {sorted(facts.get('files') or [])} lack {sorted(want['files_include'])}")
    ranked = facts.get("ranked") or []
    if "top" in want and (not ranked or ranked[0][0] != want["top"]):
        bad.append(f"top {ranked[:2]} != {want['top']}")
    if "top_count" in want and (not ranked or ranked[0][1] != want["top_count"]):
        bad.append(f"top count {ranked[:1]} != {want['top_count']}")
    if "count" in want and facts.get("count") != want["count"]:
        bad.append(f"count {facts.get('count')} != {want['count']}")
    if "when" in want and facts.get("when") != want["when"]:
        bad.append(f"when {facts.get('when')} != {want['when']}")
    if "days" in want and facts.get("days") != want["days"]:
        bad.append(f"days {facts.get('days')} != {want['days']}")
    for f in list(want.get("files", set())) + [want.get("top") or ""]:
        if f and f.split("/")[-1] not in answer.text:
            bad.append(f"the answer does not name {f}")
    return bad
