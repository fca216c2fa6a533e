"""Hostile input to the importer and the config loader: one clear error each, never a crash,
nothing half stored, nothing written outside the data folder."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from filegram.config import ConfigError, parse_config
from filegram.schema import ACTION_TYPES, METADATA_TYPES, TraceError
from filegram.store import Store
from filegram.trajectory import import_paths

FUZZ = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

scalars = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=30)
json_values = st.recursive(
    scalars,
    lambda c: st.lists(c, max_size=5) | st.dictionaries(st.text(max_size=10), c, max_size=5),
    max_leaves=25,
)
field_names = st.sampled_from(
    ["event_id", "event_type", "timestamp", "session_id", "profile_id", "file_path", "view_count", "view_range",
     "operation", "media_ref", "media_ref_old", "media_ref_diff", "old_path", "new_path", "files_opened_after",
     "dir_path", "depth", "search_type", "files_matched", "content_length", "source_path", "dest_path"]
) | st.text(max_size=12)


@st.composite
def events(draw):
    base = {
        "event_id": draw(st.text(min_size=1, max_size=40)),
        "event_type": draw(st.sampled_from(ACTION_TYPES + tuple(METADATA_TYPES) + ("bogus",))),
        "timestamp": draw(st.floats(0, 2e12) | st.integers(0, 2**40)),
        "session_id": draw(st.sampled_from(["s1", "s2"]) | st.text(max_size=10)),
    }
    base.update(draw(st.dictionaries(field_names, json_values, max_size=8)))
    if draw(st.booleans()):
        for key in list(base)[: draw(st.integers(0, 2))]:
            del base[key]
    return base


def _tree(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


@FUZZ
@given(st.lists(events(), max_size=12), st.booleans())
def test_importer_never_crashes_and_never_half_stores(evs, as_jsonl):
    with tempfile.TemporaryDirectory() as d:
        base = Path(d)
        traj = base / "traj"
        traj.mkdir()
        try:
            if as_jsonl:
                src = traj / "events.jsonl"
                src.write_text("\n".join(json.dumps(e) for e in evs) + "\n")
            else:
                src = traj / "events.json"
                src.write_text(json.dumps(evs))
        except (ValueError, UnicodeEncodeError):
            return  # not representable as JSON text at all
        store = Store(base / "home" / "db.sqlite")
        before_files = _tree(base)
        try:
            results = import_paths(store, [traj])
        except TraceError as exc:
            msg = str(exc)
            assert "\n" not in msg and msg.startswith(str(traj))
            assert store.action_count() == 0 and store.sessions() == []
        else:
            assert store.action_count() == sum(r.actions_added for r in results)
        assert _tree(base) - before_files <= {"home/db.sqlite-wal", "home/db.sqlite-shm"}
        store.close()


@FUZZ
@given(st.binary(max_size=300))
def test_importer_survives_arbitrary_bytes(data):
    with tempfile.TemporaryDirectory() as d:
        traj = Path(d) / "t"
        traj.mkdir()
        (traj / "events.json").write_bytes(data)
        store = Store(Path(d) / "db.sqlite")
        try:
            import_paths(store, [traj])
        except TraceError as exc:
            assert "\n" not in str(exc)
        assert store.action_count() == 0 or data.strip().startswith(b"[")
        store.close()


def test_deep_nesting_and_huge_fields_are_refused_cleanly(tmp_path):
    store = Store(tmp_path / "db.sqlite")
    traj = tmp_path / "deep"
    traj.mkdir()
    (traj / "events.json").write_text("[" * 100_000 + "]" * 100_000)
    try:
        import_paths(store, [traj])
    except TraceError as exc:
        assert "nests too deeply" in str(exc) or "must hold" in str(exc) or "event 0" in str(exc)
    ev = {"event_id": "e", "event_type": "file_read", "timestamp": 1, "session_id": "s", "file_path": "x" * (2 << 20)}
    (traj / "events.json").write_text(json.dumps([ev]))
    try:
        import_paths(store, [traj])
        raise AssertionError("a 2 MiB path must be refused")
    except TraceError as exc:
        assert "longer than" in str(exc)
    assert store.action_count() == 0


def test_non_utf8_names_and_lone_surrogates(tmp_path):
    store = Store(tmp_path / "db.sqlite")
    name = os.fsdecode(b"p1_T-01\xff")
    traj = tmp_path / name
    traj.mkdir()
    ev = {"event_id": "e1", "event_type": "file_read", "timestamp": 1.0, "session_id": "s", "file_path": "ok.md"}
    (traj / "events.json").write_text(json.dumps([ev]))
    (res,) = import_paths(store, [traj])
    assert res.actions_added == 1
    assert store.sessions()[0]["label"].startswith("p1_T-01")
    bad = tmp_path / "surrogate"
    bad.mkdir()
    (bad / "events.json").write_text('[{"event_id": "e2", "event_type": "file_read", "timestamp": 1, "session_id": "s2", "file_path": "a\\udcff.md"}]')
    try:
        import_paths(store, [bad])
        raise AssertionError("a lone surrogate is not text")
    except TraceError as exc:
        assert "event 0" in str(exc) and "Unicode" in str(exc)
    assert store.action_count() == 1


config_values = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20) | st.lists(st.text(max_size=5), max_size=3) | st.lists(st.integers(), max_size=3)


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return repr(v)


@FUZZ
@given(
    st.dictionaries(
        st.sampled_from(["recorder", "memory", "llm", "daemon", "screen", "privacy", "bogus"]),
        st.dictionaries(st.sampled_from(["roots", "idle_gap_minutes", "model", "api_port", "enabled", "redact", "weird"]), config_values.filter(lambda v: v is not None), max_size=4),
        max_size=4,
    )
)
def test_config_loader_gives_one_line_or_a_valid_config(doc):
    text = "\n".join(f"[{sec}]\n" + "\n".join(f"{k} = {_toml_value(v)}" for k, v in vals.items()) for sec, vals in doc.items())
    try:
        cfg = parse_config(text)
    except ConfigError as exc:
        assert "\n" not in str(exc)
    else:
        assert cfg["recorder"]["idle_gap_minutes"] >= 0


@FUZZ
@given(st.text(max_size=200))
def test_config_loader_on_arbitrary_text(text):
    try:
        parse_config(text)
    except ConfigError as exc:
        assert "\n" not in str(exc).strip()
