from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from filegram.schema import (
    ACTION_SPECS,
    ACTION_TYPES,
    METADATA_TYPES,
    Action,
    TraceError,
    depth_of,
    dir_depth_of,
    file_type_of,
    validate_event,
)


def test_twelve_action_types_and_ten_metadata_types():
    assert len(ACTION_TYPES) == 12
    assert len(METADATA_TYPES) == 10
    assert set(ACTION_TYPES).isdisjoint(METADATA_TYPES)


def test_field_names_are_the_filegram_names():
    names = {t: [s.name for s in specs] for t, specs in ACTION_SPECS.items()}
    assert names["file_read"] == [
        "file_path", "file_type", "directory_depth", "view_count", "view_range", "content_length", "revisit_interval_ms",
    ]
    assert names["file_edit"][3:6] == ["lines_added", "lines_deleted", "lines_modified"]
    # FileGram's four, then FileGram's own extension: what the search was run over (optional;
    # forget --path reaches a search through it)
    assert names["file_search"] == ["search_type", "query", "files_matched", "files_opened_after", "search_scope"]
    assert names["cross_file_reference"] == ["source_file", "target_file", "reference_type", "interval_ms"]


@pytest.mark.parametrize("etype", ACTION_TYPES)
def test_make_round_trips_through_event_dict(etype):
    required = {s.name: ("x/y.md" if s.kind == "str" else 1) for s in ACTION_SPECS[etype] if s.required}
    if etype == "file_write":
        required["operation"] = "create"
    if etype == "context_switch":
        required["to_file"] = "x/y.md"  # both its files may be null, not both absent
    a = Action.make(etype, "s1", 1770000000000.5, **required)
    ev = a.to_event()
    assert json.loads(json.dumps(ev)) == ev
    b = Action.from_event(ev)
    assert b == a
    assert validate_event(ev) == ev


def test_make_rejects_unknown_fields():
    with pytest.raises(TraceError, match="no field"):
        Action.make("file_read", "s", 1.0, file_path="a", pages=3)


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        ({"event_type": "file_teleport"}, "unknown event_type 'file_teleport'"),
        ({"view_count": "two"}, "field 'view_count' must be an integer, got str"),
        ({"view_range": [1]}, "field 'view_range' must be a [first, last] pair"),
        ({"timestamp": "yesterday"}, "field 'timestamp' must be a number, got str"),
        ({"file_path": None}, "field 'file_path' of file_read must not be null"),
        ({"event_type": "tool_call"}, "simulation metadata"),
        ({"session_id": ""}, "field 'session_id' must not be empty"),
        ({"event_type": "context_switch", "file_path": None, "to_file": None},
         "context_switch: needs 'from_file' or 'to_file'"),
    ],
)
def test_validation_messages_are_precise(patch, message):
    ev = Action.make("file_read", "s", 5.0, file_path="a.md", view_count=1).to_event()
    ev.update(patch)
    with pytest.raises(TraceError) as info:
        validate_event(ev, source="events.json", index=7)
    text = str(info.value)
    assert message in text
    assert text.startswith("events.json: event 7: ")
    assert "\n" not in text


def test_missing_required_field_is_named():
    ev = Action.make("file_move", "s", 5.0, old_path="a", new_path="b").to_event()
    del ev["new_path"]
    with pytest.raises(TraceError, match="file_move is missing required field 'new_path'"):
        validate_event(ev)


def test_write_operation_must_be_create_or_overwrite():
    ev = Action.make("file_write", "s", 5.0, file_path="a", operation="append").to_event()
    with pytest.raises(TraceError, match="'create' or 'overwrite'"):
        validate_event(ev)


def test_integral_floats_become_ints_and_extra_fields_are_kept():
    ev = Action.make("file_read", "s", 5.0, file_path="a.md", view_count=1).to_event()
    ev["view_count"] = 2.0
    ev["engine_note"] = {"x": [1, 2]}
    out = validate_event(ev)
    assert out["view_count"] == 2 and isinstance(out["view_count"], int)
    assert out["engine_note"] == {"x": [1, 2]}


def test_path_helpers():
    assert file_type_of("a/b/Report.MD") == "md"
    assert file_type_of("Makefile") == ""
    assert file_type_of(".bashrc") == ""
    assert depth_of("a.md") == 0
    assert depth_of("a/b/c.md") == 2
    assert dir_depth_of("a/b/c") == 3
    assert dir_depth_of(".") == 0


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["event_id", "event_type", "timestamp", "session_id", "file_path", "view_count", "view_range", "media_ref", "operation"]), json_values))
def test_validation_never_crashes_on_arbitrary_json(event):
    try:
        validate_event(event)
    except TraceError as exc:
        assert "\n" not in str(exc)
