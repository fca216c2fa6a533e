"""The recorded-workflow suite: real tools (tar, unzip, git, vim and nano through a pty,
find / grep / rg / fd, rm -r, cp -r, mv, mkdir -p, a venv with pip; the tool zoo: make,
cmake, cargo, npm, rsync, sed -i, perl -pi, gzip, xz, 7z, sqlite3, curl) under the real
recorder; per action type precision and recall, and no tool action counted as authored.
Programs that are missing skip their workflow with a reason (.ci/run installs them)."""

from __future__ import annotations

from pathlib import Path

import pytest
from filegram.recorder import workflows

TARGET = 0.95


# Even woken by the process connector, the scan reads a starting grep's command line only
# after the scheduler gives it the CPU: on a busy machine (CI, parallel tests) a grep that
# ends within a millisecond can be gone by then (1 of the suite's 17 searches in one clean
# clone run of 2026-12-02, none in six runs after it, five of them beside two busy loops). Its search is still recorded;
# a 1 ms find the scan never saw leaves only the listing of the folder it walked (once, in a
# helper's full run under load average 2-8). Either is a lost search.
LOST_QUERIES_AT_MOST = 1


@pytest.fixture(scope="module")
def raw_results(tmp_path_factory: pytest.TempPathFactory) -> list[workflows.WorkflowResult]:
    return workflows.run_suite(tmp_path_factory.mktemp("workflows"))


@pytest.fixture(scope="module")
def results(raw_results: list[workflows.WorkflowResult]) -> list[workflows.WorkflowResult]:
    """The results with a search stored without its query counted as the search (at most
    LOST_QUERIES_AT_MOST of them: test_few_searches_lose_their_query)."""
    return workflows.forgive_lost_queries(raw_results)[0]


def test_few_searches_lose_their_query(raw_results: list[workflows.WorkflowResult]) -> None:
    lost = workflows.forgive_lost_queries(raw_results)[1]
    assert lost <= LOST_QUERIES_AT_MOST, workflows.report(raw_results)


def test_precision_and_recall_per_action_type(results: list[workflows.WorkflowResult]) -> None:
    rows = workflows.precision_recall(results)
    print()
    print(workflows.format_table(rows, workflows.tool_actions_authored(results)))
    ran = [r for r in results if not r.skipped]
    assert ran, "every workflow was skipped"
    low = [r for r in rows if r["precision"] < TARGET or r["recall"] < TARGET]
    assert not low, low


def test_no_tool_action_is_counted_as_authored(results: list[workflows.WorkflowResult]) -> None:
    assert workflows.tool_actions_authored(results) == 0


@pytest.mark.parametrize("name", [w.name for w in workflows.workflows(Path("/nonexistent"))])
def test_workflow_records_what_was_done(results: list[workflows.WorkflowResult], name: str) -> None:
    r = next(r for r in results if r.name == name)
    if r.skipped:
        pytest.skip(r.skipped)
    assert r.ok, workflows.report([r])


def test_unpacked_files_are_one_summary_whatever_the_count(results: list[workflows.WorkflowResult]) -> None:
    """tar x of 34 files: one file_write and one dir_create summary, by tar, not authored,
    and nothing per file (the old recorder summarised only above 200 events a second)."""
    r = next(r for r in results if r.name == "tar x and tar c")
    unpack = r.steps[0].events
    assert [(e["event_type"], e["file_path" if "file_path" in e else "dir_path"], e["bulk_count"]) for e in unpack] == [
        ("dir_create", "dataset", 3), ("file_write", "dataset", len(workflows.UNPACKED))]
    assert all(e["program"] == "tar" and e["command"] == "tar x" and e["authored"] is False for e in unpack)
    removal = r.steps[3].events
    assert [(e["event_type"], e["file_path"], e["bulk_count"], e["was_temporary"], e["program"], e["authored"])
            for e in removal] == [("file_delete", "dataset", len(workflows.UNPACKED), False, "rm", True)]


def test_every_action_says_which_program_did_it(results: list[workflows.WorkflowResult]) -> None:
    programs = {}
    for r in results:
        for s in r.steps:
            for e in s.events:
                assert "program" in e and "authored" in e, e
                programs.setdefault(e["event_type"], set()).add(e["program"])
    assert {"tar", "unzip", "zip", "gzip", "git", "pip", "venv"} <= set().union(*programs.values())
    if shutil_which("vim"):
        assert "vim" in programs["file_edit"]
    # the tool zoo: each installed one is named on its actions (npm was null: a node script)
    zoo = {"make": "file_write", "cargo": "file_write", "npm": "file_write", "rsync": "file_copy",
           "sqlite3": "file_write", "curl": "file_write", "perl": "file_edit"}
    for program, etype in zoo.items():
        if shutil_which(program):
            assert program in programs[etype], (program, programs[etype])


def shutil_which(name: str) -> str | None:
    import shutil

    return shutil.which(name)


def test_a_build_summarised_in_parts_is_the_one_summary_expected() -> None:
    """On a loaded machine `cargo build` pauses longer than a burst's quiet time while it
    compiles and is summarised twice (seen in a clean clone's full run): summaries in the
    expected folder count as the expected one; another folder's do not."""
    expected = [("dir_create", "hello", False), ("file_write", "hello", "create", False)]

    def summary(etype: str, path: str) -> dict:
        ev = {"event_type": etype, "bulk": True, "authored": False}
        ev.update({"dir_path": path} if etype == "dir_create" else {"file_path": path, "operation": "create"})
        return ev

    split = [summary("dir_create", "hello/targetqs52uB"), summary("file_write", "hello/Cargo.lock"),
             summary("dir_create", "hello/target"), summary("file_write", "hello/target")]
    assert workflows._joined_summaries(expected, split) == expected
    other = [summary("file_write", "hello2/x")]
    assert workflows._joined_summaries(expected, other) == [("file_write", "hello2/x", "create", False)]
