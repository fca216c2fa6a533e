"""The workflow suite's own scoring: a step that missed something other than a search must be
reported as missing it, not crash the forgiveness of lost queries (CI, 2026-12-01: an
IndexError hid what the failed step had actually missed)."""

from __future__ import annotations

from filegram.recorder import workflows


def _step(missing: list[tuple], extra: list[tuple]) -> workflows.StepResult:
    recorded = list(extra)
    expected = list(missing)
    return workflows.StepResult(expected, recorded, [], extra, missing, [], 0, None)


def test_a_lost_query_is_forgiven_and_other_misses_still_count() -> None:
    search = ("file_search", "grep", "TODO", True)
    blind = ("file_search", "grep", None, True)
    folder = ("dir_create", "dataset", True)
    result = workflows.WorkflowResult("w", [_step([search, folder], [blind])])

    (forgiven,), lost = workflows.forgive_lost_queries([result])

    assert lost == 1
    assert forgiven.steps[0].missing == [folder]
    assert forgiven.steps[0].extra == []
    assert not forgiven.ok
    assert "missing ('dir_create', 'dataset', True)" in workflows.report([forgiven])


def test_a_search_missing_entirely_is_not_forgiven() -> None:
    search = ("file_search", "grep", "TODO", True)
    result = workflows.WorkflowResult("w", [_step([search], [])])

    (same,), lost = workflows.forgive_lost_queries([result])

    assert lost == 0
    assert same.steps[0].missing == [search]


def test_a_step_whose_program_was_never_seen_is_left_out_and_listed() -> None:
    """Without the process connector a 3 ms `tar czf` can end before the scan reads it: its
    archive is then the person's. Such a step is listed apart; a step that names its
    program in what was recorded and still differs is a real difference."""
    archive = ("file_write", "x.tgz", "create", False)
    missed = workflows.StepResult([archive], [], [{"event_type": "file_write", "program": None, "authored": True}],
                                  [("file_write", "x.tgz", "create", True)], [archive], [], 1, None, "tar czf x.tgz d")
    wrong = workflows.StepResult([archive], [], [{"event_type": "file_write", "program": "tar", "authored": True}],
                                 [("file_write", "x.tgz", "create", True)], [archive], [], 1, None, "tar czf y.tgz d")
    shell = workflows.StepResult([], [], [{"event_type": "file_edit", "program": None}], [("file_edit", "a", True)], [],
                                 [], 0, None, "printf x > a")
    (out,), listed = workflows.forgive_missed_programs([workflows.WorkflowResult("w", [missed, wrong, shell])])

    assert listed == ["w: tar czf x.tgz d"]
    assert not out.steps[0].missing and not out.steps[0].tool_authored
    assert out.steps[1].missing == [archive] and out.steps[1].tool_authored == 1
    assert out.steps[2].extra == [("file_edit", "a", True)]


def test_a_search_never_seen_leaves_its_walk_and_counts_as_lost() -> None:
    """A 1 ms `find . -maxdepth 1` the scan never saw: its walk is stored as the listing of
    the folder it opened. That is a lost search (counted and bounded by the suite), the same
    miss as a lost query; a listing beside other extras is not forgiven."""
    search = ("file_search", "find", None, True)
    walk = ("file_browse", ".", True)
    (forgiven,), lost = workflows.forgive_lost_queries([workflows.WorkflowResult("w", [_step([search], [walk])])])
    assert lost == 1 and forgiven.ok
    other = ("file_write", "x.md", "create", True)
    (same,), lost = workflows.forgive_lost_queries([workflows.WorkflowResult("w", [_step([search], [walk, other])])])
    assert lost == 0 and same.steps[0].missing == [search]


def test_a_reference_to_the_search_before_does_not_make_a_step_seen() -> None:
    """CI, 2026-12-02: `grep -l budget a b c` ended before the scan read it, so its reads of
    the three files were stored as the person's; the one action naming grep was the
    search_then_read reference that links the step before's grep to a read. A reference names
    the program of the search it follows, not the step's: the step is a missed program."""
    search = ("file_search", "grep", "budget", True)
    read = ("file_read", "plan.md", True)
    events = [{"event_type": "file_read", "file_path": "plan.md", "authored": True},
              {"event_type": "cross_file_reference", "program": "grep", "reference_type": "search_then_read",
               "authored": True}]
    step = workflows.StepResult([search], [read], events, [read], [search], [], 0, None,
                                "grep -l budget plan.md notes/meeting.md > /dev/null")
    (out,), listed = workflows.forgive_missed_programs([workflows.WorkflowResult("w", [step])])
    assert listed == ["w: grep -l budget plan.md notes/meeting.md > /dev/null"]
    assert out.ok
    seen = workflows.StepResult([search], [read], [*events, {"event_type": "file_search", "program": "grep"}], [read],
                                [search], [], 0, None, "grep -l budget plan.md notes/meeting.md > /dev/null")
    (out,), listed = workflows.forgive_missed_programs([workflows.WorkflowResult("w", [seen])])
    assert listed == [] and not out.ok


def test_a_listing_summary_naming_the_program_does_not_make_a_step_seen() -> None:
    """A clean clone's full run, 2026-12-03: under load `gunzip log.txt.gz` was known only by
    its exec; the burst of listings went to it, its write and delete stayed the person's (an
    anonymous run takes none, by design). The listing summary is no sign the scan read the
    program: the step is a missed program. Its write naming gunzip would be."""
    write = ("file_write", "log.txt", "create", False)
    events = [{"event_type": "file_browse", "directory_path": ".", "bulk": True, "bulk_count": 2,
               "program": "gunzip", "command": "gunzip", "authored": False},
              {"event_type": "file_write", "file_path": "log.txt", "authored": True}]
    step = workflows.StepResult([write], [], events, [("file_write", "log.txt", "create", True)], [write], [], 1, None,
                                "gunzip log.txt.gz")
    (out,), listed = workflows.forgive_missed_programs([workflows.WorkflowResult("w", [step])])
    assert listed == ["w: gunzip log.txt.gz"] and out.ok
    events[1]["program"] = "gunzip"
    (out,), listed = workflows.forgive_missed_programs([workflows.WorkflowResult("w", [step])])
    assert listed == [] and not out.ok


def test_a_process_the_step_started_that_the_scan_missed_is_a_missed_program() -> None:
    """A clean clone's full run beside other jobs, 2026-12-06: `cmake --build` was read (its
    build folder's summary names cmake), but the compiler it ran ended before the scan read
    it, and the compiler's reads of main.c and add.c were stored as the person's. Nothing that
    differs names a program: the step is listed as missed, not a tool action counted as the
    person's. A read naming the program the scan read still fails."""
    cmd = "cd cproj && cmake --build build > /dev/null"
    summary = {"event_type": "file_write", "file_path": "cproj/build", "program": "cmake", "command": "cmake --build build",
               "bulk": True, "authored": False}
    read = {"event_type": "file_read", "file_path": "cproj/main.c", "authored": True}
    step = workflows.StepResult([("file_write", "cproj/build", "create", False)], [], [summary, read],
                                [("file_read", "cproj/main.c", True)], [], [read], 1, None, cmd)
    (out,), listed = workflows.forgive_missed_programs([workflows.WorkflowResult("w", [step])])
    assert listed == [f"w: {cmd}"] and out.ok and workflows.tool_actions_authored([out]) == 0
    read["program"] = "cmake"
    (out,), listed = workflows.forgive_missed_programs([workflows.WorkflowResult("w", [step])])
    assert listed == [] and workflows.tool_actions_authored([out]) == 1
