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
