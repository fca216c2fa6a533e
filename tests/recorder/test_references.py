"""Cross-file references need evidence: the labelled set of scripted sessions (true links
known) scored per reference_type, and the traps the old recorder fell into."""

from __future__ import annotations

import pytest
from filegram.recorder import references

PRECISION_TARGET = 0.9  # a reference must be right
RECALL_TARGET = 0.8  # thin evidence (two shared words) is left out on purpose


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> list[references.SessionResult]:
    return references.run_reference_set(tmp_path_factory.mktemp("references"))


def test_precision_and_recall_per_reference_type(results: list[references.SessionResult]) -> None:
    print()
    print(references.format_reference_table(results))
    for row in references.scores(results):
        assert row["precision"] >= PRECISION_TARGET and row["recall"] >= RECALL_TARGET, row


def test_never_a_file_to_itself(results: list[references.SessionResult]) -> None:
    for r in results:
        for src, dst, _ in r.found:
            assert src != dst, r.name


def test_no_reference_from_or_to_a_tools_work(results: list[references.SessionResult]) -> None:
    r = next(r for r in results if r.name == "unpack, read, write a report")
    assert not r.found
    assert not [e for e in r.events if e["event_type"] in ("context_switch", "cross_file_reference")
                and "dataset" in (e.get("source_file", "") + e.get("target_file", "") + e.get("to_file", "") + (e.get("from_file") or ""))]


def test_a_search_links_only_to_the_files_it_found(results: list[references.SessionResult]) -> None:
    r = next(r for r in results if r.name == "search then open its results")
    search = next(e for e in r.events if e["event_type"] == "file_search")
    assert search["files_matched"] == 2
    assert search["files_opened_after"] == ["notes/meeting.md", "plan.md"]  # not code/README.md, read in between
