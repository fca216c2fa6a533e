"""Real programs in a temporary root: the recorded actions must be the expected ones."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from filegram.recorder import fidelity


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> list[fidelity.Outcome]:
    return fidelity.run_suite(tmp_path_factory.mktemp("fidelity"))


def test_prints_precision_and_recall_per_action_type(outcomes: list[fidelity.Outcome]) -> None:
    rows = fidelity.precision_recall(outcomes)
    print()
    print(fidelity.format_table(rows))
    assert [r["type"] for r in rows] == list(fidelity.ACTION_TYPES)
    # every one of the 12 action types is exercised by the suite
    assert all(r["expected"] > 0 for r in rows)


@pytest.mark.parametrize("name", [s.name for s in fidelity.scenarios(Path("/nonexistent.tar"))])
def test_scenario_records_exactly_the_expected_actions(outcomes: list[fidelity.Outcome], name: str) -> None:
    o = next(o for o in outcomes if o.name == name)
    if o.skipped:
        pytest.skip(o.skipped)
    missing = list((Counter(o.expected) - Counter(o.recorded)).elements())
    extra = list((Counter(o.recorded) - Counter(o.expected)).elements())
    shown = [{k: v for k, v in e.items() if k in ("event_type", "timestamp", "file_path", "dir_path", "directory_path",
                                                  "program", "command", "bulk_count", "authored")} for e in o.events]
    assert not missing and not extra, f"missing {missing}, extra {extra}; recorded {shown}"


def test_an_editor_save_leaves_no_trace_of_its_temporary_files(outcomes: list[fidelity.Outcome]) -> None:
    o = next(o for o in outcomes if o.name == "editors save once")
    if o.skipped:
        pytest.skip(o.skipped)
    for ev in o.events:
        for key in ("file_path", "old_path", "new_path", "source_path", "dest_path"):
            value = ev.get(key) or ""
            assert not any(s in value for s in (".swp", "4913", "___jb_", ".goutputstream", ".~lock", "#", "~", ".tmp")), ev
    edits = [e for e in o.events if e["event_type"] == "file_edit"]
    assert all(e["before_hash"] != e["after_hash"] for e in edits)
    assert {e["edit_tool"] for e in edits} >= {"rename", "write"}


def test_search_details(outcomes: list[fidelity.Outcome]) -> None:
    o = next(o for o in outcomes if o.name == "shell searches")
    searches = [e for e in o.events if e["event_type"] == "file_search"]
    by_query = {e["query"]: e for e in searches}
    # alpha appears in notes/alpha.md and report.md; -il BUDGET matches notes/alpha.md
    assert by_query["alpha"]["files_matched"] == 2
    assert by_query["BUDGET"]["files_matched"] == 1
    assert by_query["*.md"]["files_matched"] == 2
    # grep -r read every file, yet none of those reads is reported as the user reading
    assert not [e for e in o.events if e["event_type"] == "file_read"]


def test_files_opened_after_a_search(outcomes: list[fidelity.Outcome]) -> None:
    o = next(o for o in outcomes if o.name == "derived actions")
    search = next(e for e in o.events if e["event_type"] == "file_search")
    assert search["files_opened_after"] == ["notes/alpha.md"]
