"""Each fingerprint feature against its formula (filegram.md section 4), on hand-built sessions."""

from __future__ import annotations

import memory_fixtures
import pytest
from filegram.memory import FINGERPRINT_NAMES, encode_session, fingerprint, raw_features

# pytest fixtures shared by the memory tests (no conftest.py: see memory_fixtures)
session_builder = memory_fixtures.session_builder


@pytest.fixture
def session(session_builder):
    b = session_builder()
    b.add("file_browse", directory_path=".", files_listed=5, depth=0)
    b.add("file_search", search_type="grep", query="budget", files_matched=2, files_opened_after=["a.md"])
    b.read("a.md").read("b.md").read("a.md", view_count=2).read("c/d.md", view_range=[10, 30])
    b.add("dir_create", dir_path="reports", depth=1, sibling_count=0)
    b.add("dir_create", dir_path="reports/2024/q1", depth=3, sibling_count=0)
    b.write("reports/2024/q1/summary.md", "# Summary\n\n## Numbers\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\n- one\n- two\n")
    b.write("data.csv", "a,b\n1,2\n")
    b.write("chart.png", "not really a png")
    b.write("summary.md", "rewritten\n", op="overwrite")
    b.edit("summary.md", 3, 1).edit("summary.md", 20, 5)
    b.add("file_move", old_path="data.csv", new_path="reports/data.csv", destination_directory_depth=1)
    b.add("file_delete", file_path="tmp_notes.md", file_age_ms=1000.0, was_temporary=True)
    b.add("file_copy", source_path="summary.md", dest_path="summary_backup.md", is_backup=True)
    b.add("context_switch", from_file="a.md", to_file="summary.md", trigger="edit", switch_count=1)
    return b


def test_fingerprint_has_exactly_the_17_published_features(session):
    fp = fingerprint(session.events, session.get_blob)
    assert tuple(fp) == FINGERPRINT_NAMES
    assert len(fp) == 17


def test_each_feature_follows_its_formula(session):
    fp = fingerprint(session.events, session.get_blob)
    access = 4 + 1 + 1  # reads + browses + searches
    assert fp["search_ratio"] == pytest.approx(1 / access)
    assert fp["browse_ratio"] == pytest.approx(1 / access)
    assert fp["revisit_ratio"] == pytest.approx(1 / 4)  # one read with view_count > 1
    creates = [len("# Summary\n\n## Numbers\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\n- one\n- two\n"),
               len("a,b\n1,2\n"), len("not really a png")]
    assert fp["files_created"] == 3  # the overwrite is not a create
    assert fp["total_output_chars"] == sum(creates)
    assert fp["avg_output_length"] == pytest.approx(sum(creates) / 3)
    assert fp["dirs_created"] == 2
    assert fp["max_dir_depth"] == 3
    assert fp["files_moved"] == 1
    assert fp["total_edits"] == 2
    assert fp["avg_lines_changed"] == pytest.approx((4 + 25) / 2)
    assert fp["small_edit_ratio"] == pytest.approx(0.5)
    assert fp["total_deletes"] == 1
    assert fp["delete_to_create_ratio"] == pytest.approx(1 / 3)
    assert fp["structured_files_created"] == 1
    assert fp["markdown_table_rows"] == 3  # header and two rows; the |---| separator is not a row
    assert fp["image_files_created"] == 1


def test_empty_session_gives_zeros_not_errors():
    fp = fingerprint([])
    assert set(fp.values()) == {0.0}


def test_table_rows_need_the_content(session):
    assert fingerprint(session.events)["markdown_table_rows"] == 0
    assert fingerprint(session.events, session.get_blob)["markdown_table_rows"] == 3


def test_metadata_events_and_profile_id_are_ignored(session):
    base = fingerprint(session.events, session.get_blob)
    noisy = [dict(e, profile_id="p7") for e in session.events]
    noisy.insert(2, {"event_type": "llm_response", "timestamp": 0, "session_id": "s1"})
    assert fingerprint(noisy, session.get_blob) == base
    eng_a = encode_session(session.events, session.get_blob)
    eng_b = encode_session(noisy, session.get_blob)
    assert eng_a.features == eng_b.features and eng_a.tiers == eng_b.tiers


def test_raw_features_cover_the_wider_set(session):
    f = raw_features(session.events, session.get_blob)
    assert f["reads_per_file"] == pytest.approx(4 / 3)
    assert f["edits_per_file"] == 2
    assert f["overwrites"] == 1 and f["backups"] == 1
    assert f["max_heading_depth"] == 2
    assert f["final_structure_depth"] == 3  # the deepest folder made, not the leaf alone
    assert f["temp_deletes"] == 1
    assert f["moves_into_subfolders"] == 1
    assert f["naming_plain_share"] == 1.0 and f["naming_snake_share"] == 0.0
    assert f["phase_explore_share"] + f["phase_produce_share"] + f["phase_organise_share"] == pytest.approx(1.0)
    for name in ("has_backup", "has_table", "has_image", "has_structured", "has_delete", "has_nested_dirs"):
        assert f[name] == 1.0, name
    assert f["has_search"] == 1.0


def test_engram_describes_content_and_edits(session_builder):
    from filegram.store import content_hash

    b = session_builder()
    b.write("notes.md", "# 季度总结\n\n本季度收入增长，客户满意度提高。\n\n## 风险\n\n- 供应商延迟\n")
    diff = "--- a/notes.md\n+++ b/notes.md\n@@ -1 +1,2 @@\n+新增一行关于预算的说明\n-旧的一行\n"
    h = content_hash(diff.encode())
    b.blobs[h] = diff.encode()
    b.add("file_edit", file_path="notes.md", file_type="md", lines_added=1, lines_deleted=1,
          media_ref_diff={"type": "diff", "hash": h, "path": f"media/diffs/{h}.diff"})
    eng = encode_session(b.events, b.get_blob, task_id="T-09")
    doc = eng.documents[0]
    assert doc["language"] == "zh" and doc["heading_depth"] == 2 and doc["list_lines"] == 1
    assert eng.edits[0]["added"] == 1 and "预算" in eng.edits[0]["sample_added"][0]
    assert any(c["kind"] == "diff" for c in eng.chunks)
    assert eng.task_type == "iterate"
    assert 2 <= len(eng.episodes) <= 5 or eng.actions < 2


def test_episodes_are_two_to_five_and_cover_the_session(session):
    eng = encode_session(session.events, session.get_blob)
    assert 2 <= len(eng.episodes) <= 5
    assert sum(ep["actions"] for ep in eng.episodes) == eng.actions
    assert all(ep["description"] for ep in eng.episodes)
