"""Tiers follow table 2's meanings: a category per session that had the chance to show a
behaviour, a posterior per user in which silence where there was no chance counts for nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import memory_fixtures
import pytest
from filegram.memory import (
    DIMENSIONS,
    encode_session,
    match_profiles,
    session_tiers,
    user_tiers,
)

# pytest fixtures shared by the memory tests (no conftest.py: see memory_fixtures)
session_builder = memory_fixtures.session_builder


def _tiers(b, task_id=None):
    return encode_session(b.events, b.get_blob, task_id=task_id).tiers


def _doc(lines: int, heading_depth: int = 1, bullets: bool = False, topic: str = "the budget review") -> str:
    out = ["# Title"]
    for i in range(lines - 1):
        if heading_depth >= 3 and i % 20 == 0:
            out.append("#" * heading_depth + " Part")
        elif bullets:
            out.append(f"- point {i}")
        else:
            out.append(f"Sentence number {i} about {topic}.")
    return "\n".join(out[:lines]) + "\n"


@pytest.mark.parametrize("style,expected", [("deep", "L"), ("search", "M"), ("browse", "R")])
def test_consumption(session_builder, style, expected):
    b = session_builder()
    files = [f"in/f{i}.md" for i in range(5)]
    if style == "deep":
        for f in files:
            b.read(f)
        for f in files[:3]:
            b.read(f, view_count=2)
    elif style == "search":
        for f in files[:4]:
            b.add("file_search", search_type="grep", query="risk", files_matched=2, files_opened_after=[f])
            b.read(f, view_range=[40, 60])
    else:
        for d in ("in", "in/a", "in/b", "."):
            b.add("file_browse", directory_path=d, files_listed=9, depth=d.count("/"))
        for f in files[:3]:
            b.read(f, view_range=[1, 15])
    assert _tiers(b)["A"]["tier"] == expected


def test_many_files_each_read_once_are_breadth(session_builder):
    # A browser who lists two folders and opens eight files once each, skimming the longer
    # ones and reading the short ones to their end: nothing revisited or searched. Two
    # listings and half the reads skims were not enough to call it; the breadth is table
    # 2's R. Opening four files that way is no style.
    def session(b, n):
        for d in ("in", "in/a"):
            b.add("file_browse", directory_path=d, files_listed=9, depth=d.count("/"))
        for i in range(n):
            b.read(f"in/f{i}.md", view_range=[1, 10], content_length=400 if i % 2 else 2000)
        return b
    assert _tiers(session(session_builder(), 8))["A"]["tier"] == "R"
    assert _tiers(session(session_builder(), 4)).get("A", {}).get("tier") != "R"


def test_rereading_a_file_is_a_revisit_even_without_a_view_count(session_builder):
    # A producer that leaves view_count at 1 (or out): reading the same files again in the
    # session is still the deep reader's revisit.
    b = session_builder()
    files = [f"in/f{i}.md" for i in range(5)]
    for f in files + files[:3]:
        b.read(f)
    assert _signals(b)["A"]["revisits"] == 3
    assert _tiers(b)["A"]["tier"] == "L"


def test_windows_scrolled_through_are_one_read(session_builder):
    # A recorder that sees the screen logs a read as the windows shown, one after another:
    # a skimmer who lists folders and looks at the first two screens of each file has read
    # heads, not passages, and has revisited nothing.
    b = session_builder()
    for d in ("a", "b", "c", "d"):
        b.add("file_browse", directory_path=d, files_listed=8, depth=1)
    for k, d in enumerate(("a", "b", "c")):
        b.read(f"{d}/notes{k}.md", 1, [1, 45], 1800)
        b.read(f"{d}/notes{k}.md", 2, [46, 90], 1800)
    sig = _signals(b)["A"]
    assert sig["reads"] == 3 and sig["revisits"] == 0 and [r[:2] for r in sig["ranges"]] == [[1, 90]] * 3
    # going back to an earlier place in the file is a revisit still
    b.read("a/notes0.md", 3, [20, 64], 1800)
    assert _signals(b)["A"]["revisits"] == 1


def test_a_read_logged_twice_is_one_read(session_builder):
    # A viewer that previews and then opens, or a recorder that sees both the open and the
    # first paint, logs the same window of the same file twice within a second: the skimmer
    # below revisited nothing and is no deep reader. Reading it again a minute later is a
    # revisit.
    b = session_builder()
    b.add("file_browse", directory_path="in", files_listed=9, depth=0)
    b.add("file_browse", directory_path="in/a", files_listed=9, depth=1)
    for i in range(4):
        b.read(f"in/f{i}.md", 1, [1, 20], 4000)
        b.add("file_read", gap_ms=230, file_path=f"in/f{i}.md", file_type="md", directory_depth=1,
              view_count=2, view_range=[1, 20], content_length=4000)
    assert _signals(b)["A"]["revisits"] == 0
    assert _tiers(b)["A"]["tier"] == "R"
    b.read("in/f0.md", 3, [1, 20], 4000)
    assert _signals(b)["A"]["revisits"] == 1


def test_a_recorder_without_searches_or_listings_shows_style_in_the_read_windows(session_builder):
    # The reference macOS recorder logs reads, never a search or a listing. A searcher then
    # shows only as reads of passages, a browser only as reads of files' first lines; these
    # counted half and never made a style alone. In two thirds of a session's reads they are
    # its style. With a recorder that does log searches, the same windows are not enough.
    def searcher(b, i):
        for k in range(6):
            b.read(f"in/f{k % 3}.md", k // 3 + 1, [40 * k + 20, 40 * k + 50], 20_000)
        b.read("in/f0.md", 3, [1, 12], 20_000)

    def browser(b, i):
        for k in range(8):
            b.read(f"in/f{k}.md", 1, [1, 12], 20_000)
        for k in range(3):  # short notes read to their end (they calibrate a line's length)
            b.read(f"in/note{k}.md", 1, [1, 40], 1_600)
    assert _user(session_builder, searcher, 6)["A"].tier == "M"
    assert _user(session_builder, browser, 6)["A"].tier == "R"

    def searcher_with_a_grep(b, i):
        searcher(b, i)
        if i == 0:
            b.add("file_search", search_type="grep", query="risk", files_matched=1, files_opened_after=["in/f0.md"])
    assert _user(session_builder, searcher_with_a_grep, 6)["A"].tier != "M"


def test_reading_hundreds_of_lines_of_long_code_files_is_not_skimming(session_builder):
    # A developer's recorder logs reads only. Their short-lined config files, read whole, set
    # their characters per line at ~25; their modules have twice as long lines, so 250 lines
    # read from the top looked like half a file's head, and a deep reader who returns to
    # them like a skimmer. Skimming reads a file's first lines; a few dozen still are.
    def notes(b):
        for k in range(3):  # short-lined files read to their end (they calibrate a line's length)
            b.read(f"conf/c{k}.cfg", 1, [1, 40], 1_000)

    def deep(b, i):
        notes(b)
        for k in range(5):
            b.read(f"src/mod{k}.py", 1, [1, 250], 14_000)
        b.read("src/mod0.py", 2, [1, 250], 14_000)

    def skimmer(b, i):
        notes(b)
        for k in range(6):
            b.read(f"src/mod{k}.py", 1, [1, 30], 14_000)
    assert _user(session_builder, deep, 6)["A"].tier != "R"
    assert _user(session_builder, skimmer, 6)["A"].tier == "R"


def test_a_recorder_that_logs_only_which_files_were_opened_still_shows_browsing(session_builder):
    # No search, no listing, no read window: a browser shows only as many files opened once
    # each, which counted half of a browsing signature and left such people unknown.
    def browser(b, i):
        for k in range(10):
            b.read(f"shared/doc{k}.md", 1, None)

    def deep(b, i):
        for k in range(3):
            b.read(f"shared/doc{k}.md", 1, None)
        for k in range(3):
            b.read(f"shared/doc{k}.md", 2, None)
    assert _user(session_builder, browser, 6)["A"].tier == "R"
    assert _user(session_builder, deep, 6)["A"].tier == "L"


def test_returning_to_passages_found_by_search_is_targeted_reading(session_builder):
    # A searcher working through two long reports: each search takes them to a passage, and
    # they come back to the same files many times. Those returns are the search-first
    # reader's line ranges, not the deep reader's revisits of whole files (they counted for
    # L and outweighed the searches).
    b = session_builder()
    for k in range(5):
        b.add("file_search", search_type="grep", query=f"clause {k}", files_matched=2,
              files_opened_after=["in/a.pdf", "in/b.pdf"])
        b.read("in/a.pdf", 2 * k + 1, [100 * k + 40, 100 * k + 70], 90_000)
        b.read("in/b.pdf", 2 * k + 1, [120 * k + 10, 120 * k + 50], 90_000)
        b.read("in/a.pdf", 2 * k + 2, [100 * k + 70, 100 * k + 95], 90_000)
    assert _signals(b)["A"]["revisits"] >= 10
    assert _tiers(b)["A"]["tier"] == "M"


def test_a_sync_client_fetching_a_file_before_it_opens_is_not_a_whole_read_and_a_revisit(session_builder):
    # OneDrive's Files On-Demand reads a cloud-only file whole as the person opens it; the
    # person's own read of its first lines follows half a second later as the second view.
    # A skimmer stays a skimmer; reading it again minutes later is a revisit.
    b = session_builder()
    for k in range(4):
        b.read(f"Reference/doc{k}.txt", 1, [1, 120], 12_000)
        b.add("file_read", 600, file_path=f"Reference/doc{k}.txt", file_type="txt", directory_depth=1,
              view_count=2, view_range=[1, 15], content_length=12_000)
    sig = _signals(b)["A"]
    assert sig["reads"] == 4 and sig["revisits"] == 0, sig
    assert [r[:2] for r in sig["ranges"]] == [[1, 15]] * 4
    b.add("file_read", 300_000, file_path="Reference/doc0.txt", file_type="txt", directory_depth=1,
          view_count=3, view_range=[1, 15], content_length=12_000)
    assert _signals(b)["A"]["revisits"] == 1


def test_reads_whose_extent_was_not_recorded_are_not_whole_reads(session_builder):
    # A recorder that sees files opened, not which lines were read: opening seven files, one
    # of them twice, shows no reading style (an open is not a whole read); opening most of
    # them again is the deep reader's revisit.
    def opens(b, again):
        files = [f"in/f{i}.md" for i in range(7)]
        for f in files + files[:again]:
            b.read(f, view_range=None)
    b = session_builder()
    opens(b, again=1)
    assert "A" not in _tiers(b)
    b = session_builder()
    opens(b, again=4)
    assert _tiers(b)["A"]["tier"] == "L"


def test_reopening_ones_own_draft_is_not_deep_reading(session_builder):
    # A person who skims four inputs once and then keeps reopening the report they are
    # writing revisits their own work, not the material: no deep reader's revisits.
    b = session_builder()
    for i in range(4):
        b.read(f"in/f{i}.md", view_range=[1, 12], content_length=2000)
    b.write("report.md", _doc(60))
    for _ in range(4):
        b.read("report.md", view_count=2)
        b.edit("report.md", 3, 1)
    assert _signals(b)["A"]["reads"] == 4 and _signals(b)["A"]["revisits"] == 0
    assert _tiers(b).get("A", {}).get("tier") != "L"


@pytest.mark.parametrize("files,lines,hd,bullets,expected", [
    (3, 120, 3, False, "L"),   # comprehensive: >= 3 files, well over 200 lines, deep headings
    (1, 260, 3, False, "L"),
    (1, 110, 2, False, "M"),   # balanced: one file of 80-150 lines
    (1, 40, 1, True, "R"),     # minimal: <= 60 lines of bullets
    (1, 120, 1, True, "R"),    # a long bullet list is still minimal: the share does not scale
    (1, 120, 3, True, "M"),    # ... unless it is a document: bullets under sections (LIST_DOCUMENT_HEADINGS)
    (1, 40, 3, True, "R"),     # a short bulleted page with sections is still minimal
    (1, 120, 3, False, "M"),   # the same length in prose, with a few headings, is balanced
    (1, 120, 4, False, "L"),   # ... with headings four levels deep, comprehensive (DEEP_HEADINGS)
    (1, 40, 4, False, "R"),    # a short note stays minimal however deep its headings
    (4, 30, 2, False, "L"),    # several documents of a terse writer: the file count does not scale
    (2, 40, 2, False, "M"),
])
def test_production(session_builder, files, lines, hd, bullets, expected):
    b = session_builder()
    for i in range(files):
        b.write(f"out_{i}.md", _doc(lines, hd, bullets))
    assert _tiers(b)["B"]["tier"] == expected


def test_a_documents_export_beside_it_is_not_a_second_document(session_builder):
    # Org mode's `C-c C-e h h` writes `displacement.html` beside `displacement.org`; Quarto
    # renders `report.qmd` to `report.docx`. Before, a minimal writer's 40-line note and its
    # export read as two documents of 90 lines (B = M).
    b = session_builder()
    b.write("papers/displacement.org", _doc(40))
    b.write("papers/displacement.html", "<html><body>\n" + _doc(48) + "</body></html>\n", gap_ms=2_000)
    sig = _signals(b)["B"]
    assert (sig["docs"], sig["lines"]) == (1, 40), sig
    # two documents of different names in one folder are two documents
    c = session_builder("two")
    c.write("site/about.md", _doc(40))
    c.write("site/contact.html", "<html><body>\n" + _doc(48) + "</body></html>\n", gap_ms=2_000)
    assert _signals(c)["B"]["docs"] == 2


def test_a_speech_recognisers_transcript_and_its_cleaned_copy_are_not_the_persons_writing(session_builder):
    # A podcast producer's transcription app writes `E070 auto transcript.txt`, 120 timed lines
    # (`[00:01:25] SPEAKER_00: ...`); the producer copies it and cleans the copy (the speakers'
    # names in, the fillers out), then writes 20 lines of bullet show notes. Before, both
    # transcripts were 120-line documents of theirs: minimal producers read as comprehensive at
    # p 0.98 (alt389). A person's own notes with a few times in them stay theirs.
    def producer(b, i):
        b.write("E070 auto transcript.txt", "\n".join(
            f"[00:{k // 60:02d}:{k % 60:02d}] SPEAKER_0{k % 2}: so we were talking about the archive you know" for k in range(120)))
        b.add("file_copy", source_path="E070 auto transcript.txt", dest_path="E070 transcript.txt")
        b.write("E070 transcript.txt", "\n".join(
            f"{'Ingrid' if k % 2 else 'Priyanka'}: so we were talking about the archive" for k in range(118)), op="overwrite")
        b.write("E070 show notes.md", _doc(20, bullets=True))
    sig = _signals(_user_session(session_builder, producer))["B"]
    assert sig["docs"] == 1 and sig["lines"] == 20, sig
    assert _user(session_builder, producer, 8)["B"].tier == "R"
    b = session_builder()
    b.write("standup.md", "# Standup\n09:00 Ana\n09:05 Ben\n09:10 Chen\n" + _doc(40))
    assert _signals(b)["B"]["docs"] == 1


def test_a_programs_log_is_not_the_persons_writing(session_builder):
    # A QA tester's capture script runs `adb logcat` into `logcat_<device>_<run>.txt` per device,
    # 200 lines each opening with the date and the second (`08-27 09:22:53.913 28753 ...`);
    # the tester writes a 12-line bullet bug report. Before, the logs were 200-line documents
    # of theirs: minimal writers read as comprehensive at p 0.99-1.00 (alt501). So are other
    # loggers' lines (ISO `2026-08-27 09:22:53,120 INFO`, syslog's `Aug 27 09:22:53 host`).
    # A person's timeline with a few stamped lines stays theirs.
    stamps = ("08-27 09:{m:02d}:{s:02d}.913 28753 28793 {lvl} chromium: request {k} 200 in 58ms",
              "2026-08-27 09:{m:02d}:{s:02d},120 {lvl} worker.{k} job finished",
              "Aug 27 09:{m:02d}:{s:02d} qa-host app[{k}]: {lvl} heartbeat")

    def tester(b, i):
        for d, form in enumerate(stamps):
            b.write(f"logs/dev{d}/logcat_dev{d}_{1773595360 + i}.txt", "\n".join(
                form.format(m=k // 60, s=k % 60, lvl="DIWE"[k % 4], k=k) for k in range(200)))
        b.write(f"QA-{4600 + i}_bug.md", _doc(12, bullets=True))
    sig = _signals(_user_session(session_builder, tester))["B"]
    assert sig["docs"] == 1 and sig["lines"] == 12, sig
    assert _user(session_builder, tester, 8)["B"].tier == "R"
    b = session_builder()
    b.write("incident_timeline.md", "# Outage\n2026-08-27 09:22:53 alert fired\n2026-08-27 09:31:10 rollback\n"
            + _doc(60))
    assert _signals(b)["B"]["docs"] == 1


def test_a_new_document_with_a_date_in_its_name_is_production_not_a_backup(session_builder):
    # A coordinator names each memo by its date (deviation_memo_20260902.md): three such
    # documents of 120 lines are comprehensive output. A second file of the same name with
    # another date or version (plan_v2.md beside plan_v1.md) is a version, not a new one.
    b = session_builder()
    for name in ("deviation_memo_20260902.md", "subject_tracker_2026-09-02.md", "open_items_site12.md"):
        b.write(f"Site12/{name}", _doc(120))
    sig = _signals(b)["B"]
    assert sig["docs"] == 3 and _tiers(b)["B"]["tier"] == "L", sig
    b = session_builder()
    b.read("plan_v1.md")
    b.write("plan_v2.md", _doc(120))
    assert _signals(b)["B"]["docs"] == 0


def test_data_and_saved_mail_are_not_writing_code_is(session_builder):
    # A short note beside a 300-row CSV export, a script and a saved e-mail: the note and the
    # script are what the person wrote, the rest is data (F's) and received mail.
    b = session_builder()
    b.write("note.md", _doc(20, bullets=True))
    b.write("export.csv", "".join(f"{i},{i * 2},north\n" for i in range(300)))
    b.write("clean.py", "".join(f"x{i} = {i}\n" for i in range(120)))
    b.write("reply from Anna.eml", "From: anna@example.org\n" + "Thanks for the draft.\n" * 90)
    assert _tiers(b).get("B", {}).get("tier") != "L"
    assert (_signals(b)["B"]["docs"], _signals(b)["B"]["lines"]) == (2, 140)


def test_an_analysts_code_and_notebooks_are_their_writing(session_builder):
    # An analyst's deliverable is a module, a notebook and a README: three files of 100-150
    # lines is comprehensive output (it read as one README, balanced). A notebook counts the
    # lines of its cells, not of the JSON that holds them.
    cells = [{"cell_type": "code", "source": [f"step_{k}_{j} = run({j})\n" for j in range(25)], "outputs": [],
              "metadata": {}, "execution_count": None} for k in range(4)]
    notebook = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4}, indent=1)
    assert len(notebook.splitlines()) > 130  # JSON lines, of 100 source lines

    def analyst(b, i):
        b.write("src/pipeline.py", "".join(f"def step_{k}(x):\n    return x + {k}\n\n" for k in range(50)))
        b.write("analysis.ipynb", notebook)
        b.write("README.md", _doc(110, heading_depth=3))
    sig = _signals(_user_session(session_builder, analyst))["B"]
    assert (sig["docs"], sig["lines"]) == (3, 150 + 100 + 110)
    assert _user(session_builder, analyst, 6)["B"].tier == "L"


@pytest.mark.parametrize("name", ["03_iv.do", "adjust.sas", "main.tf", "site.css"])
def test_the_statistics_packages_and_configuration_languages_are_code(session_builder, name):
    # An economist's Stata do-file, a trial programmer's SAS program, Terraform and style
    # sheets are written and revised like any program. Unknown to memory, each save of one
    # was "blind" (alt132: people who rewrite their do-files whole were read as careful
    # revisers, by the backup copy before each blind save).
    program = "".join(f"step {k} of the model\n" for k in range(40))
    b = session_builder()
    b.write(name, program)
    assert _signals(b)["B"]["lines"] == 40
    b = session_builder()
    b.write(name, program, op="overwrite")
    b.write(name, "".join(f"another step {k}\n" for k in range(40)), op="overwrite")
    assert _tiers(b)["D"]["tier"] == "R"


@pytest.mark.parametrize("dirs,target,expected", [
    (["a", "a/b", "a/b/c"], "a/b/c/report.md", "L"),
    (["notes"], "notes/report.md", "M"),
    ([], "report.md", "R"),
])
def test_organization(session_builder, dirs, target, expected):
    b = session_builder()
    for d in dirs:
        b.add("dir_create", dir_path=d, depth=d.count("/") + 1, sibling_count=0)
    b.write(target, _doc(50))
    assert _tiers(b)["C"]["tier"] == expected


@pytest.mark.parametrize("kind,expected", [("small", "L"), ("medium", "M"), ("rewrite", "R")])
def test_iteration(session_builder, kind, expected):
    b = session_builder()
    b.write("r.md", _doc(100))
    if kind == "small":
        b.add("file_copy", source_path="r.md", dest_path="r_backup.md", is_backup=True)
        for _ in range(5):
            b.edit("r.md", 2, 1)
    elif kind == "medium":
        for _ in range(3):
            b.edit("r.md", 12, 8)
    else:
        b.write("r.md", _doc(90, topic="a new plan"), op="overwrite")
        b.write("r.md", _doc(95, topic="the plan as agreed"), op="overwrite")
    assert _tiers(b)["D"]["tier"] == expected


def _doc_revised(b, path: str, lines: int, edits: list[tuple[int, int]], backup: str | None = None) -> None:
    """A document written, copied to `backup` first if given, then edited (lines added, deleted)."""
    b.write(path, _doc(lines))
    if backup:
        b.add("file_copy", source_path=path, dest_path=backup, is_backup=True)
    for added, deleted in edits:
        b.edit(path, added, deleted)


def test_a_line_changed_and_eight_added_is_a_small_edit(session_builder):
    # Table 2's balanced edit is 10-30 lines; counted as lines added and deleted, one line
    # changed and eight added (+9 -1) is ten, the smallest an incremental reviser's
    # eight-line pass makes: passes of those after a backup copy are incremental revising.
    def passes(b, i):
        _doc_revised(b, f"log-{i}.md", 60, [(9, 1)] * 4, backup=f"log-{i}_v1.md")
    assert _user(session_builder, passes, 6)["D"].tier == "L"

    def blocks(b, i):  # a balanced reviser's 12-line passages replaced stay balanced
        _doc_revised(b, f"log-{i}.md", 60, [(12, 12)] * 2)
    assert _user(session_builder, blocks, 6)["D"].tier == "M"


def test_touch_ups_after_a_backup_are_several_small_passes(session_builder):
    # An incremental statistician copies the analysis plan first, then fixes it in four one-
    # and two-line passes and rewrites one 15-line section. Judged on that one larger edit, as
    # a touch-up is anyone's typo, the session read as balanced revising, and the person as
    # balanced at p 0.92-0.96 (alt772).
    def passes(b, i):
        _doc_revised(b, f"sap-{i}.md", 120, [(1, 1)] * 4 + [(9, 6)], backup=f"sap-{i}_backup.md")
    assert _user(session_builder, passes, 6)["D"].tier == "L"

    def blocks(b, i):  # two touch-ups beside a balanced reviser's passages are still balanced
        _doc_revised(b, f"sap-{i}.md", 120, [(1, 1)] * 2 + [(9, 6)] * 2, backup=f"sap-{i}_backup.md")
    assert _user(session_builder, blocks, 6)["D"].tier == "M"


def test_an_editor_saving_while_one_types_splits_no_change(session_builder):
    # An editor that saves every few seconds logs a 45-line rewrite of a section as three
    # 15-line edits, seconds apart with nothing between them, then the whole file replaced:
    # a rewriter, not someone revising in 10-30 line steps. Edits with a read between them,
    # or a minute apart, are separate changes.
    def make(b, i):
        b.write("notes.md", _doc(25, bullets=True))
        b.write("report.md", _doc(100))
        b.edit("report.md", 15, 0)
        for _ in range(2):
            b.add("file_edit", 3_000, file_path="report.md", file_type="md", lines_added=8, lines_deleted=7,
                  diff_summary="+8 -7")
        b.write("report.md", _doc(95, topic="another approach"), op="overwrite")
    assert _user(session_builder, make, 8)["D"].tier == "R"
    b = session_builder()
    b.write("report.md", _doc(100))
    b.edit("report.md", 8, 7)
    b.add("file_read", 1_500, file_path="report.md", file_type="md", view_count=2, view_range=[1, 40], content_length=900)
    b.add("file_edit", 1_500, file_path="report.md", file_type="md", lines_added=8, lines_deleted=7, diff_summary="+8 -7")
    b.add("file_edit", 60_000, file_path="report.md", file_type="md", lines_added=8, lines_deleted=7, diff_summary="+8 -7")
    assert _signals(b)["D"]["sizes"] == [15, 15, 15]


def test_touch_ups_and_autosaves_say_nothing_about_edit_size(session_builder):
    # A balanced reviser whose editor saves while they type: one 20-line change per session,
    # then one- and two-line saves. The saves are not "incremental small edits".
    def make(b, i):
        b.write("r.md", _doc(100))
        b.edit("r.md", 12, 8)
        for k in range(4):
            b.edit("r.md", 1, k % 2)
    assert _user(session_builder, make, 8)["D"].tier == "M"
    # touch-ups alone are no evidence of how one revises (a backup copy first still is)
    b = session_builder()
    b.write("r.md", _doc(100))
    for _ in range(4):
        b.edit("r.md", 1, 1)
    assert "D" not in _tiers(b)
    b.add("file_copy", source_path="r.md", dest_path="r_backup.md", is_backup=True)
    assert _tiers(b)["D"]["tier"] == "L"


@pytest.mark.parametrize("scratch,removed,expected", [(3, 3, "L"), (2, 1, "M"), (2, 0, "R")])
def test_curation(session_builder, scratch, removed, expected):
    b = session_builder()
    b.write("a.md", _doc(30))
    for i in range(scratch):
        b.write(f"tmp_{i}.md", "scratch\n")
    for i in range(removed):
        b.add("file_delete", file_path=f"tmp_{i}.md", file_age_ms=1.0, was_temporary=True)
    assert _tiers(b)["E"]["tier"] == expected


def test_removing_the_only_leftover_does_not_tell_selective_from_pragmatic(session_builder):
    # Someone who removes their scratch file every time, and all three when there are three:
    # most sessions left only one to remove, which cannot show "removes them all, 2+". Read
    # as occasional cleanup they made this person confidently pragmatic; the call is now
    # selective or unsure. A person who removes one of two leftovers is still firmly pragmatic.
    def person(make_scratch, remove):
        def make(b, i):
            b.write("a.md", _doc(30))
            n = make_scratch(i)
            for k in range(n):
                b.write(f"tmp_{k}.md", "scratch\n")
            for k in range(remove(n)):
                b.add("file_delete", file_path=f"tmp_{k}.md", file_age_ms=1.0, was_temporary=True)
        return _user(session_builder, make, 12)["E"]
    selective = person(lambda i: 3 if i % 4 == 0 else 1, lambda n: n)
    assert selective.tier == "L" or selective.confidence < 0.8, selective
    # (removing something in every working session is more than occasional cleanup, so the
    # half they keep no longer makes them firmly pragmatic: tiers._work_removals)
    pragmatic = person(lambda i: 2, lambda n: 1)
    assert pragmatic.tier == "M" and pragmatic.posterior["M"] > 1.5 * pragmatic.posterior["L"], pragmatic


def test_files_made_and_thrown_away_are_cleanup_whatever_their_names(session_builder):
    # Another producer names its scratch work plainly and marks no delete as temporary: what
    # the person did (made it, then deleted it) says intermediate, not the name.
    def make(b, i):
        b.write("report.md", _doc(40))
        for k in range(3):
            b.write(f"working-notes-{k}.md", _doc(10))
        for k in range(3):
            b.add("file_delete", file_path=f"working-notes-{k}.md", file_age_ms=5e4, was_temporary=False)
    est = _user(session_builder, make, 6)["E"]
    assert est.tier == "L" and est.sessions == 6
    # a file deleted before it was made again is not one made and thrown away
    b = session_builder()
    b.add("file_delete", file_path="summary.md", file_age_ms=9e6, was_temporary=False)
    b.write("summary.md", _doc(40))
    assert "E" not in _tiers(b)


def test_cleaning_up_in_a_few_of_many_working_sessions_is_occasional_cleanup(session_builder):
    # Notes kept carry no name that marks them as leftovers, so the sessions that kept theirs
    # show no chance on E and only the ones that removed some do, each removing its one file
    # (which cannot tell L from M by itself). How often the person's working sessions clean
    # up does: in 3 of 16 it is occasional cleanup, in 12 of 16 selective.
    def person(cleaning_sessions):
        def make(b, i):
            b.write("report.md", _doc(40))
            if i in cleaning_sessions:
                b.write(f"working-notes-{i}.md", _doc(10))
                b.add("file_delete", file_path=f"working-notes-{i}.md", file_age_ms=5e4, was_temporary=False)
        return _user(session_builder, make, 16)["E"]
    occasional = person({2, 8, 13})
    assert occasional.tier == "M", occasional
    selective = person(set(range(16)) - {3, 7, 11, 15})
    assert selective.tier == "L" and selective.confidence >= 0.9, selective


def test_many_working_sessions_that_never_removed_anything_are_preservative(session_builder):
    # No session left a leftover in sight (the notes this person keeps carry no scratch
    # name), so no session gave a chance on E, and E was unknown however long the record.
    # Pragmatic people clean up in about a quarter of their working sessions: twelve without
    # a removal lean to the preservative "never deletes", not firmly (whether those sessions
    # had anything to remove is inferred). Four are too few to say.
    def keeper(b, i):
        b.write("report.md", _doc(40))
        b.write(f"notes-{i}.md", _doc(10))
    est = _user(session_builder, keeper, 12)["E"]
    assert est.tier == "R" and 0.5 <= est.confidence < 0.8 and est.posterior["M"] > est.posterior["L"], est
    from filegram.memory.readout import describe
    assert "12 working session(s), 0 of them removed anything" in describe(est)[0]
    assert _user(session_builder, keeper, 4)["E"].tier == "unknown"


def test_removing_something_now_and_then_is_occasional_cleanup_though_scratch_stays(session_builder):
    # alt412's pragmatic editors: most of their working sessions leave nothing a name marks as
    # scratch, a few keep a scratch file, and one in four removes an old draft. The kept
    # scratch files outvoted the removals (unknown, R close behind); someone who never deletes
    # removes nothing in twenty working sessions, and a removal in a quarter of them is the
    # pragmatic habit (tiers._work_removals).
    def person(removes):
        def make(b, i):
            b.write(f"report-{i}.md", _doc(40))
            if i % 4 == 1:
                b.write(f"scratch-{i}.tmp", "x\n")
            if removes and i % 4 == 3:
                b.add("file_delete", file_path=f"report-{i - 2}.md", file_age_ms=8.64e7, was_temporary=False)
        return _user(session_builder, make, 20)["E"]
    pragmatic = person(True)
    assert pragmatic.tier == "M", pragmatic
    from filegram.memory.readout import describe
    assert "and 20 working session(s), 5 of them removed anything" in describe(pragmatic)
    keeper = person(False)
    assert keeper.tier == "R", keeper


def test_a_keeper_who_removes_a_leftover_now_and_then_is_still_preservative(session_builder):
    # Preservative people removed something in about a fifth of the sessions that left
    # something in sight, on users-dev and the held-out models alike (a file saved by mistake,
    # what a program deletes unrecognised); read at the 5% of any slip, four such removals in
    # twenty-four sessions made them pragmatic. Half of them removed is occasional cleanup.
    def person(removing):
        def make(b, i):
            b.write(f"report-{i}.md", _doc(40))
            b.write(f"scratch-{i}.tmp", "x\n")
            if i in removing:
                b.add("file_delete", file_path=f"scratch-{i}.tmp", file_age_ms=5e4, was_temporary=True)
        return _user(session_builder, make, 24)["E"]
    keeper = person({1, 7, 13, 19})
    assert keeper.tier == "R", keeper
    pragmatic = person(set(range(1, 24, 2)))
    assert pragmatic.tier == "M", pragmatic


def test_the_profile_says_what_a_call_without_chances_of_its_own_rests_on(session_builder, tmp_path):
    # `filegram profile` said "No session gave a chance to show it yet." under a tier it had called.
    from filegram.memory import Memory
    from filegram.memory.cli import render_profile

    from filegram.store import Store

    store = Store(tmp_path / "memory.db")
    for i in range(12):
        b = session_builder(f"s{i:02d}", start_ms=1_700_000_000_000.0 + i * 86_400_000)
        b.write("report.md", _doc(40))
        b.write(f"notes-{i}.md", _doc(10))
        b.store_into(store, label=f"s{i:02d}")
    mem = Memory(store)
    mem.consolidate()
    prof = mem.profile()
    store.close()
    assert prof["dimensions"]["E"]["tier"] == "R"
    text = render_profile(prof, width=200)
    curation = text.split("E Curation", 1)[1].split("\nF ", 1)[0]
    assert "Read from your working sessions" in curation and "No session gave a chance" not in curation
    verbose = render_profile(prof, verbose=True, width=200)
    assert "12 working session(s), 0 of them removed anything" in verbose


def test_a_move_logged_as_a_delete_and_a_create_is_a_move(session_builder):
    # A recorder that pairs no moves logs filing a scratch note into refs/ as the old path's
    # delete and the new path's create a few milliseconds later: a person who files their
    # scratch notes away has removed nothing, and has moved files into a subfolder.
    def make(b, i):
        b.write("paper.md", _doc(40))
        b.write("tmp_notes.md", "scratch\n")
        b.add("dir_create", dir_path="refs", depth=1, sibling_count=0)
        b.add("file_delete", 60_000, file_path="tmp_notes.md", file_age_ms=6e4, was_temporary=True)
        b.write("refs/tmp_notes.md", "scratch\n", gap_ms=5)
    est = _user(session_builder, make, 6)
    assert est["E"].counts["L"] == est["E"].counts["M"] == 0, est["E"]
    b = _user_session(session_builder, make)
    assert _signals(b)["C"]["moves"] == 1
    # deleted, and a new file of that name written a minute later, is a deletion
    b = session_builder()
    b.write("a.md", _doc(40))
    b.write("tmp_1.md", "scratch\n")
    b.write("tmp_2.md", "scratch\n")
    b.add("file_delete", file_path="tmp_1.md", file_age_ms=6e4, was_temporary=True)
    b.add("file_delete", file_path="tmp_2.md", file_age_ms=6e4, was_temporary=True)
    b.write("old/tmp_2.md", "new\n", gap_ms=60_000)
    assert _signals(b)["E"]["cleaned"] == 2


def test_a_save_that_leaves_the_file_as_it_was_is_no_rewrite(session_builder):
    # Found on a held-out model of app developers: the IDE saves every open file when it
    # loses focus, each logged as an overwrite whose content after is its content before.
    # People who revise in 10-30-line edits were called rewriters (R, p = 0.93-1.0).
    from filegram.store import content_hash

    def make(b, i):
        b.write(f"Feed{i}.kt", _doc(60))
        h = b.events[-1]["media_ref"]["hash"]
        for _k in range(3):
            b.add("file_write", 30_000, file_path="notes.txt", file_type="txt", operation="overwrite",
                  content_length=77, before_hash=content_hash(b"n"), after_hash=content_hash(b"n"))
            b.add("file_write", 500, file_path=f"Feed{i}.kt", file_type="kt", operation="overwrite",
                  content_length=100, before_hash=h, after_hash=h)
        b.edit(f"Feed{i}.kt", 14, 6)
        b.edit(f"Feed{i}.kt", 12, 9)
    b = _user_session(session_builder, make)
    assert _signals(b)["D"]["overwrites"] == 0, _signals(b)["D"]
    est = _user(session_builder, make, 6)
    assert est["D"].tier == "M", est["D"]


def test_a_finished_download_logged_as_a_delete_and_a_create_is_a_rename(session_builder):
    # Found on a held-out model's ReadDirectoryChangesW logger, which logs no hash for a big
    # binary file: a browser's `Unconfirmed 8754.crdownload` deleted and `hands.webp` of the
    # same size created 9 ms later in the same folder. A person who never deletes anything
    # was called a tidy one (L, p = 1.0) on their downloads alone.
    def make(b, i):
        b.write("script.md", _doc(30))
        b.add("file_write", 2_000, file_path="Unconfirmed 8754.crdownload", file_type="crdownload",
              operation="create", content_length=416_950, after_hash=None)
        b.add("file_delete", 2_500, file_path="Unconfirmed 8754.crdownload", file_age_ms=2500, was_temporary=False)
        b.add("file_write", 9, file_path="hands.webp", file_type="webp", operation="create",
              content_length=416_950, after_hash=None)
    b = _user_session(session_builder, make)
    sig = _signals(b)
    assert sig["E"]["deletes"] == 0 and sig["E"]["cleaned"] == 0, sig["E"]
    # the same size in another folder, or a size as common as a few bytes, is no proof
    b = session_builder()
    b.write("a.md", _doc(40))
    b.add("file_write", 1_000, file_path="notes/tmp.txt", file_type="txt", operation="create", content_length=12,
          after_hash=None)
    b.add("file_delete", 60_000, file_path="notes/tmp.txt", file_age_ms=6e4, was_temporary=True)
    b.add("file_write", 5, file_path="notes/todo.txt", file_type="txt", operation="create", content_length=12,
          after_hash=None)
    assert _signals(b)["E"]["deletes"] == 1


def test_a_renamed_file_edited_before_the_rename_is_still_a_rename(session_builder):
    # The same recorder logs renaming an edited draft to FINAL_<name> as the old path's
    # delete and the new name's create; the create has the content the last edit gave the
    # old path, not the first write's. Nothing was thrown away.
    from filegram.store import content_hash

    b = session_builder()
    b.write("queries.md", _doc(20))
    b.add("file_edit", file_path="queries.md", file_type="md", lines_added=4, lines_deleted=1,
          diff_summary="+4 -1", after_hash=content_hash(b"edited"))
    b.add("file_delete", 60_000, file_path="queries.md", file_age_ms=9e5)
    b.add("file_write", 120, file_path="FINAL_queries.md", file_type="md", operation="create",
          content_length=6, after_hash=content_hash(b"edited"))
    sig = _signals(b)
    assert sig["E"]["cleaned"] == 0 and sig["E"]["deletes"] == 0, sig["E"]


def test_an_application_rotating_its_timed_backups_is_not_the_persons_cleanup(session_builder):
    # A CAT tool copies the file being translated into Backup/ every ten minutes and removes
    # the oldest copy as it writes the new one. A person who never deletes anything shows no
    # cleanup; one who later removes an old copy themselves still does.
    def make(b, i, tidy=False):
        b.write(f"notes-{i}.md", _doc(30))
        for k in range(3):
            b.write(f"Backup/guide.sdlxliff.2026010{i}_1{k}00.bak", "<xliff/>\n", gap_ms=600_000)
            b.add("file_delete", 300, file_path=f"Backup/guide.sdlxliff.2026010{i}_0{k}00.bak", file_age_ms=9e8)
        if tidy:
            b.add("file_delete", 60_000, file_path=f"Backup/old-{i}.md.bak", file_age_ms=9e8)
            b.add("file_delete", 20_000, file_path=f"Backup/older-{i}.md.bak", file_age_ms=9e8)
    est = _user(session_builder, make, 6)
    assert est["E"].counts.get("L", 0) == est["E"].counts.get("M", 0) == 0, est["E"]
    tidy = _user(session_builder, lambda b, i: make(b, i, tidy=True), 6)
    assert tidy["E"].tier != "R" and tidy["E"].counts.get("R", 0) == 0, tidy["E"]


def test_a_backup_slot_deleted_and_filled_again_is_overwritten_not_cleaned(session_builder):
    # SolidWorks keeps its last backups in numbered slots and reuses one by deleting it and
    # copying the part there again in the same second: the slot was overwritten. Read as a
    # removal, people who never delete were called selective (alt176, p 0.85).
    def session(refill):
        b = session_builder()
        b.write("report.md", _doc(30))
        b.write("CAD/Part.SLDPRT", "part", snapshot=False)
        for slot in ("Backup of Part.SLDPRT", "Backup (2) of Part.SLDPRT"):
            b.add("file_copy", source_path="CAD/Part.SLDPRT", dest_path=f"SWBackup/{slot}", is_backup=True)
            b.write("CAD/Part.SLDPRT", "part", op="overwrite", gap_ms=1_200, snapshot=False)
        b.add("file_delete", 60_000, file_path="SWBackup/Backup of Part.SLDPRT", file_age_ms=9e5, was_temporary=False)
        if refill:
            b.add("file_copy", 100, source_path="CAD/Part.SLDPRT", dest_path="SWBackup/Backup of Part.SLDPRT", is_backup=True)
        if refill == "on save":  # the application's copy, as its save follows (authorship)
            b.write("CAD/Part.SLDPRT", "part", op="overwrite", gap_ms=1_200, snapshot=False)
        return _signals(b)["E"]
    assert session(refill="on save")["cleaned"] == 0
    assert session(refill="by hand")["cleaned"] == 0
    assert session(refill=None)["cleaned"] == 1  # a backup deleted and not made again was removed


def test_lines_a_program_appends_to_its_log_are_no_revision(session_builder):
    # A container appends to `data/logs/<service>.log` while the person works: on a model of
    # self-hosters, people who rewrite their configs whole were called incremental revisers
    # (alt179, p 0.97-0.99) on those appends. The same edits to a note of theirs are revising.
    def session(path):
        b = session_builder()
        b.read("compose.yml")
        for _ in range(3):
            b.add("file_edit", file_path=path, lines_added=5, lines_deleted=0, edit_tool="append")
        return _tiers(b)
    assert "D" not in session("homelab/nextcloud/data/logs/nextcloud.log")
    assert session("homelab/notes/runbook.md")["D"]["tier"] == "L"


def _remove_own_scratch(b, i):
    b.write(f"scratch-{i}.txt", "try the low shelf\n", gap_ms=30_000)
    b.write(f"tmp-{i}.txt", "bounce list\n", gap_ms=30_000)
    b.add("file_delete", 60_000, file_path=f"scratch-{i}.txt", file_age_ms=9e4)
    b.add("file_delete", 20_000, file_path=f"tmp-{i}.txt", file_age_ms=9e4)


def _assert_only_own_removals_count(session_builder, make):
    """`make(b, i, tidy)`: an application's removals alone show no cleanup; with the person's
    own scratch removed too (`tidy`), they read selective."""
    est = _user(session_builder, make, 6)
    assert est["E"].counts.get("L", 0) == est["E"].counts.get("M", 0) == 0, est["E"]
    tidy = _user(session_builder, lambda b, i: make(b, i, tidy=True), 6)
    assert tidy["E"].tier == "L", tidy["E"]


def test_a_dated_backup_series_rotated_by_its_application_is_not_the_persons_cleanup(session_builder):
    # A DAW writes `Backup/<set> [date time].als` every few minutes and removes the oldest
    # within milliseconds: the recorder marks neither (it calls the deletion temporary), and the
    # names carry no `.bak`. A person who never deletes anything shows no cleanup; one who
    # removes their own scratch does.
    def make(b, i, tidy=False):
        b.write(f"mix-notes-{i}.md", _doc(20))
        for k in range(3):
            b.write(f"Set Project/Backup/Set [2024-02-1{i} 14{k}334].als", "", gap_ms=400_000, snapshot=False)
            b.add("file_delete", 40, file_path=f"Set Project/Backup/Set [2023-12-2{i} 11{k}139].als", file_age_ms=4e9,
                  was_temporary=True)
        if tidy:
            _remove_own_scratch(b, i)
    _assert_only_own_removals_count(session_builder, make)


def _rotate_dated_folders(b, i, pause_ms):
    """A batch copied into today's dated folder, then yesterday's emptied `pause_ms` later."""
    b.add("dir_create", 60_000, dir_path=f"loads/2024-02-1{i}", depth=2, sibling_count=3)
    for k in range(30):
        b.add("file_copy", 12, source_path=f"feeds/vendor/2024021{i}_{k:05}.mrc", dest_path=f"loads/2024-02-1{i}/2024021{i}_{k:05}.mrc")
    for k in range(30):
        b.add("file_delete", pause_ms if k == 0 else 6, file_path=f"loads/2024-02-0{i}/2024020{i}_{k:05}.mrc",
              file_age_ms=8.6e7, was_temporary=False)


def test_a_loader_rotating_dated_folders_is_not_the_persons_cleanup(session_builder):
    # A library's nightly loader copies the day's records into `loads/<date>/` and empties
    # yesterday's folder in the same run, milliseconds later (alt679). Read as the person's,
    # cataloguers who never delete anything were called pragmatic or selective.
    def make(b, i, tidy=False):
        b.write(f"policy/notes-{i}.md", _doc(20))
        _rotate_dated_folders(b, i, pause_ms=8)
        if tidy:
            _remove_own_scratch(b, i)
    _assert_only_own_removals_count(session_builder, make)


def test_clearing_an_older_dated_folder_seconds_after_filling_a_new_one_is_the_persons(session_builder):
    # The same acts with a person's pause between them (they turn from one folder to the
    # other), or files moved between the folders under their own names, stay the person's.
    b = session_builder()
    b.write("policy/notes.md", _doc(20))
    _rotate_dated_folders(b, 1, pause_ms=6_000)
    assert _signals(b)["E"]["discarded"] == 30
    b = session_builder()
    b.write("policy/notes.md", _doc(20))
    for k in range(5):
        b.add("file_copy", 12, source_path=f"loads/2024-02-01/r{k}.mrc", dest_path=f"loads/2024-02-11/r{k}.mrc")
    for k in range(5):
        b.add("file_delete", 6, file_path=f"loads/2024-02-01/r{k}.mrc", file_age_ms=8.6e7)
    assert _signals(b)["E"]["discarded"] == 5


def test_a_backup_folder_pruned_across_projects_is_the_applications_cleanup(session_builder):
    # Logic writes the open project's backup into Backups/ a second after each save and
    # removes the oldest backup there, another project's, at once: no name ties the two. A
    # composer who never deletes anything shows no cleanup; one who removes their own scratch
    # files still does.
    def make(b, i, tidy=False):
        b.write(f"notes-{i}.md", _doc(20))
        for k in range(2):
            b.write("Scores/lullaby.logicx", "x" * 3000, op="overwrite", gap_ms=600_000, snapshot=False)
            b.write(f"Scores/Backups/lullaby 0{i}{k}.logicx", "x" * 3000, gap_ms=1_000, snapshot=False)
            b.add("file_delete", 50, file_path=f"Scores/Backups/quartet 0{i}{k}.logicx", file_age_ms=4e9,
                  was_temporary=True)
        if tidy:
            _remove_own_scratch(b, i)
    _assert_only_own_removals_count(session_builder, make)


def test_edits_a_merge_brings_in_are_not_revision_passes_an_autosaves_are(session_builder):
    # A git merge brings in a co-author's lines: the producer names it, and someone who writes
    # each note in one go shows no small-edit habit. A writing app that saves by itself
    # (Highland, a CAT tool) records the person's own changes as `*_autosave` edits: the only
    # record of how they revise, so they count.
    def make(b, i, own=False):
        b.write(f"notes-{i}.md", _doc(40))
        b.add("file_edit", 40_000, file_path="paper.tex", file_type="tex", edit_tool="git-merge",
              lines_added=3, lines_deleted=1, diff_summary="+3 -1")
        if own:
            for _k in range(4):
                b.add("file_edit", 90_000, file_path=f"scene-{i}.fountain", file_type="fountain",
                      edit_tool="highland_autosave", lines_added=2, lines_deleted=1, diff_summary="+2 -1")
    b = _user_session(session_builder, make)
    assert _signals(b)["D"]["edits"] == 0, _signals(b)["D"]
    b = _user_session(session_builder, lambda b, i: make(b, i, own=True))
    assert _signals(b)["D"]["edits"] == 4


def test_a_build_removing_what_it_made_is_no_cleanup_habit(session_builder):
    # A latexmk or bundler run writes its intermediates within milliseconds and a later run
    # (`latexmk -c`, a clean step) removes them the same way, marked temporary: the program's
    # housekeeping. A person who keeps their own scratch note shows no cleanup habit.
    def make(b, i):
        b.write("thesis/chapter.tex", _doc(40))
        b.write("scratch.md", "note to self\n")
        for k, ext in enumerate(("aux", "log", "toc", "out", "synctex.gz")):
            b.write(f"thesis/main.{ext}", "build\n", gap_ms=60_000 if k == 0 else 4)
        for k, ext in enumerate(("aux", "log", "toc", "out", "synctex.gz")):
            b.add("file_delete", 90_000 if k == 0 else 3, file_path=f"thesis/main.{ext}", file_age_ms=9e4,
                  was_temporary=True)
    est = _user(session_builder, make, 8)["E"]
    assert est.tier in ("R", "unknown") and est.counts["L"] == est.counts["M"] == 0, est
    # the same files deleted by the person one by one, after they wrote them themselves, are theirs
    b = session_builder()
    for ext in ("aux", "log", "toc"):
        b.write(f"thesis/main.{ext}", "build\n", gap_ms=20_000)
    for ext in ("aux", "log", "toc"):
        b.add("file_delete", 20_000, file_path=f"thesis/main.{ext}", file_age_ms=9e4, was_temporary=True)
    assert _signals(b)["E"]["cleaned"] == 3


def test_a_programs_burst_and_editor_lock_files_are_not_the_persons_work(session_builder):
    # A trace from a recorder that cannot tell processes apart: an archive unpacked (a dozen
    # long documents and their folders within a second), an export step, Word's lock file.
    # Only the person's short note and their own cleanup count.
    def make(b, i):
        b.write("notes.md", _doc(20, bullets=True))
        b.add("dir_create", dir_path="bundle", depth=1, sibling_count=0)
        b.add("dir_create", 150, dir_path="bundle/a/b/c", depth=4, sibling_count=0)
        for k in range(12):
            b.write(f"bundle/a/b/c/doc{k}.md", _doc(120, heading_depth=3), gap_ms=120)
        b.write("export/chart.png", "png", gap_ms=90_000)
        b.write("export/report.html", _doc(80), gap_ms=200)
        b.write("export/data.csv", "a,b\n1,2\n", gap_ms=200)
        b.write("~$notes.docx", "lock")
        b.add("file_delete", file_path="~$notes.docx", file_age_ms=2e4)
    est = _user(session_builder, make, 6)
    assert est["B"].tier == "R"  # one short note per session, not thirteen documents
    assert est["C"].tier == "R"  # the archive's folders are not the person's
    assert est["F"].tier == "R"  # the export's chart and table are not the person's
    assert est["E"].tier == "unknown"  # the editor removing its lock file is no cleanup habit
    # the same writes at a person's pace are the person's own
    b = session_builder()
    for k in range(3):
        b.write(f"chapter{k}.md", _doc(120, heading_depth=3), gap_ms=45_000)
    assert _tiers(b)["B"]["tier"] == "L"


def test_an_instruments_export_a_file_a_second_is_not_the_persons_data(session_builder):
    # A plate reader's software writes its measurements one file every 1-1.5 s; the person
    # writes their text-only lab notes. At a 1 s gap each export split into single files, and
    # their CSVs made a text-only person visual-heavy.
    def make(b, i):
        b.write("eln/entry.md", _doc(30))
        for k in range(6):
            b.write(f"exports/plate_{i}_{k:03d}.csv", "well,od\nA1,0.31\n", gap_ms=60_000 if k == 0 else 1_300)
    est = _user(session_builder, make, 6)
    assert est["F"].tier in ("R", "unknown") and est["F"].counts["L"] == 0, est["F"]


def test_a_tree_a_program_lays_out_in_one_burst_is_not_the_persons_organisation(session_builder):
    # Tax software makes a client's folder with its four standard subfolders within a second.
    # Someone who then writes their notes at the root organises nothing; folders a person
    # makes side by side at a person's pace, or one inside the other at once (`mkdir -p`),
    # stay theirs.
    layout = ["Clients/2026/SMITH_J", *(f"Clients/2026/SMITH_J/{d}" for d in ("Source Docs", "Returns",
                                                                             "Correspondence", "Workpapers"))]

    def client(b, i):
        for k, d in enumerate(layout):
            b.add("dir_create", 300 if k else 10_000, dir_path=d.replace("SMITH_J", f"CLIENT_{i}"),
                  depth=d.count("/") + 1, sibling_count=0)
        b.write(f"notes-{i}.md", _doc(30))
    assert _signals(_user_session(session_builder, client))["C"]["dirs"] == 0
    assert _user(session_builder, client, 6)["C"].tier != "L"
    b = session_builder()
    for d in ("Areas", "Areas/Tax", "Areas/Tax/2026"):  # a chain made at once
        b.add("dir_create", 5, dir_path=d, depth=d.count("/") + 1, sibling_count=0)
    for d in ("Areas/Tax/2026/Q1", "Areas/Tax/2026/Q2", "Areas/Tax/2026/Q3"):  # side by side, by hand
        b.add("dir_create", 4_000, dir_path=d, depth=d.count("/") + 1, sibling_count=0)
    b.write("Areas/Tax/2026/Q1/notes.md", _doc(30))
    assert _signals(b)["C"]["dirs"] == 6


def test_filing_into_a_programs_layout_is_counted_from_the_layout(session_builder):
    # The tax software laid out each client's folder with its standard subfolders; a moderate
    # organiser saves their workpapers into `Clients/2026/<client>/Workpapers/`, four levels
    # down but one into the program's tree (the clients of later sessions were laid out
    # before the recording began: the same folder names at the same level): that is no deep
    # nesting. A deep nester who builds `2026 Return/Prep/` inside it and files there is.
    subfolders = ("Source Docs", "Returns", "Correspondence", "Workpapers")

    def preparer(b, i, own=()):
        client = f"Clients/2026/CLIENT_{i}"
        if i == 0:
            for k, d in enumerate((client, *(f"{client}/{s}" for s in subfolders))):
                b.add("dir_create", 300 if k else 10_000, dir_path=d, depth=d.count("/") + 1, sibling_count=0)
        folder = f"{client}/Workpapers"
        for d in own:
            folder += f"/{d}"
            b.add("dir_create", 20_000, dir_path=folder, depth=folder.count("/") + 1, sibling_count=0)
        b.read(f"Scans/Inbox/scan-{i}.txt")
        b.write(f"{folder}/notes-{i}.md", _doc(40))
    moderate = _user(session_builder, preparer, 6)["C"]
    assert moderate.tier != "L" and moderate.posterior["L"] <= moderate.posterior["M"], moderate
    assert _user(session_builder, lambda b, i: preparer(b, i, ("2026 Return", "Prep")), 6)["C"].tier == "L"


def test_a_setup_scripts_standard_tree_is_not_the_persons_organisation(session_builder):
    # A company script lays out every new project's standard tree (a dozen branches, three
    # levels, in under a second); the person then writes at the project's root. Their own
    # `mkdir -p` of one deep chain, or of a few siblings, stays theirs.
    def make(b, i):
        b.add("dir_create", dir_path=f"p{i}", depth=1, sibling_count=0)
        for top in ("01_admin", "02_design", "03_calcs", "04_drawings"):
            for sub in ("in", "out", "archive"):
                b.add("dir_create", 30, dir_path=f"p{i}/{top}/{sub}", depth=3, sibling_count=2)
        b.write(f"p{i}/notes.md", _doc(30), gap_ms=60_000)
        b.write(f"p{i}/spec.md", _doc(30), gap_ms=60_000)
    est = _user(session_builder, make, 6)
    # (each project's folder is one level below the recorder's root: filing there, session
    # after session and never deeper, is no deep nesting, and no flatness either)
    assert est["C"].counts["L"] == 0 and est["C"].tier in ("M", "unknown"), est["C"]

    def own(b, i):
        b.add("dir_create", dir_path=f"p{i}/src/a/b", depth=3, sibling_count=0)
        b.add("dir_create", 5, dir_path=f"p{i}/x/raw", depth=2, sibling_count=0)
        b.add("dir_create", 5, dir_path=f"p{i}/x/clean", depth=2, sibling_count=1)
        b.write(f"p{i}/src/a/b/notes.md", _doc(30), gap_ms=60_000)
    assert _user(session_builder, own, 6)["C"].tier == "L"


def test_the_save_that_sets_off_a_live_reload_build_is_still_the_persons(session_builder):
    # A docs site rebuilds itself a second after every save: a dozen HTML pages a few
    # milliseconds apart. The build is the program's; the page saved before it is the
    # person's writing, not the first file of the build.
    def make(b, i):
        b.write(f"docs/guide-{i}.md", _doc(110, heading_depth=2), gap_ms=60_000)
        for k in range(12):
            b.write(f"site/page-{k}/index.html", "<html>page</html>\n", gap_ms=1_200 if k == 0 else 30)
    est = _user(session_builder, make, 6)
    assert est["B"].tier == "M" and est["B"].counts["M"] >= 5, est["B"]
    assert est["F"].counts["L"] == 0, est["F"]


def test_an_applications_autosave_of_its_own_file_is_not_the_persons_backup(session_builder):
    # A translation tool keeps `<its working file>.bak` while it runs and removes it on
    # closing; its working file never appears in the trace. A person who keeps everything
    # shows no cleanup; one who copies the file they edit to `.bak` and removes it cleans up.
    def make(b, i):
        b.write(f"guide-ch{i}-fr.md", _doc(30))
        b.write(f"guide-ch{i}-en.sdlxliff.bak", "<xliff/>\n", gap_ms=30_000)
        b.write(f"guide-ch{i}-en.sdlxliff.bak", "<xliff>1</xliff>\n", gap_ms=60_000)
        b.add("file_delete", 90_000, file_path=f"guide-ch{i}-en.sdlxliff.bak", file_age_ms=9e4, was_temporary=True)
    est = _user(session_builder, make, 6)
    assert est["E"].counts["L"] == est["E"].counts["M"] == 0, est["E"]

    def own(b, i):
        b.write(f"guide-ch{i}-fr.md", _doc(30))
        b.add("file_copy", 30_000, source_path=f"guide-ch{i}-fr.md", dest_path=f"guide-ch{i}-fr.md.bak", is_backup=True)
        b.add("file_delete", 90_000, file_path=f"guide-ch{i}-fr.md.bak", file_age_ms=9e4, was_temporary=True)
    assert _user(session_builder, own, 6)["E"].counts["R"] == 0


def test_lock_files_and_office_temporaries_are_the_programs_housekeeping(session_builder):
    # A CAD program locks each drawing it opens (`A-101.dwl`), an instrument its run folder
    # (`.acquisition.lock`), Word saves through `~WRL0001.tmp`; each removes its file on
    # closing. A person who keeps everything shows no cleanup; one who removes their own
    # scratch file after the same work still does.
    _assert_program_files_are_no_cleanup(
        session_builder, lambda i: (f"A-10{i % 9}.dwl", ".acquisition.lock", f"~WRL{1000 + i}.tmp"), 60_000)


def test_an_access_databases_lock_file_is_the_database_engines(session_builder):
    # A program built on Microsoft Access's engine (an estimating program's `job.mdb`) locks
    # the database with `job.ldb` (`.laccdb` from Access 2007) while it is open and removes
    # the lock on closing (alt281). Before, preservative estimators read as selective at p 0.96.
    _assert_program_files_are_no_cleanup(session_builder, lambda i: ("job.ldb", f"bid-{i}.laccdb"), 600_000)


def test_design_programs_lock_files_are_the_programs(session_builder):
    # InDesign locks an open page with `~<page>~<id>.idlk` (alt335's newspaper layouts),
    # Premiere Pro a project with `<project>.prlock` (alt261), Rhino a model with `<model>.rhl`
    # (alt298); each goes when the document closes. Before, every session that opened one read
    # as the person removing a temporary file: preservative designers were called selective at
    # p 0.65-0.93.
    _assert_program_files_are_no_cleanup(
        session_builder, lambda i: (f"~p{i:02d}_news~m28skm.idlk", "Town_Hall_Q3.prlock", f"COV_main_v0{i}.rhl"), 400_000)


def _assert_program_files_are_no_cleanup(session_builder, names, life_ms):
    """Someone who keeps everything, beside whose notes a program makes and removes the
    files `names(i)` (each living `life_ms`), shows no cleanup; someone who also removes
    their own scratch file after the same work still does."""
    def make(b, i, scratch=False):
        b.write(f"notes-{i}.md", _doc(30))
        for name in names(i):
            b.write(name, f"kept by a program {name}\n", gap_ms=20_000)
            b.add("file_delete", life_ms, file_path=name, file_age_ms=life_ms, was_temporary=True)
        if scratch:
            b.write(f"tmp_{i}.md", "scratch\n", gap_ms=20_000)
            b.add("file_delete", 30_000, file_path=f"tmp_{i}.md", file_age_ms=3e4, was_temporary=True)
    est = _user(session_builder, make, 6)
    assert est["E"].counts["L"] == est["E"].counts["M"] == 0, est["E"]
    tidy = _user(session_builder, lambda b, i: make(b, i, scratch=True), 6)
    assert tidy["E"].counts["R"] == 0 and tidy["E"].tier != "R", tidy["E"]


def test_temporaries_a_program_makes_and_removes_are_not_the_persons_cleanup(session_builder):
    # A sync client stages each saved file as a hidden `.syncthing.<name>.tmp` and removes it
    # a second later; a compiler fills `Temp/` with randomly named files and empties it. A
    # person who keeps everything shows no cleanup; one who removes a hidden file they did
    # not make in the session, or their own visibly named scratch file, still does.
    _assert_program_files_are_no_cleanup(
        session_builder, lambda i: (f".syncthing.notes-{i}.md.tmp", f"Temp/UnityTempFile-{i:02d}3ef2e825f81da28e0d1f4f5",
                                    f"Temp/{i:04d}5e67-e89b-12d3-a456-426614174000.json"), 3_000)

    def old_files(b, i, name):  # old temporary files, not made in the session, removed
        b.write(f"notes-{i}.md", _doc(30))
        for k in range(2):
            b.add("file_delete", 20_000, file_path=name.format(i=i, k=k), file_age_ms=9e7, was_temporary=True)
    # Hidden ones are out of the person's sight and go with a program (they came from
    # selective, pragmatic and preservative people alike on 96 models); visible ones are theirs.
    hidden = _user(session_builder, lambda b, i: old_files(b, i, ".draft-{i}-{k}.tmp"), 6)["E"]
    assert hidden.counts.get("L", 0) == hidden.counts.get("M", 0) == 0, hidden
    visible = _user(session_builder, lambda b, i: old_files(b, i, "draft-{i}-{k}.tmp"), 6)["E"]
    assert visible.counts["L"] == 6 and visible.tier == "L", visible


def test_a_file_systems_name_for_a_removed_open_file_is_nobodys_cleanup(session_builder):
    # An NFS client renames a file removed while a program holds it to `.nfs<hex>` and removes
    # it when the program lets go; FUSE (`.fuse_hidden<hex>`) and Samba do the same. Made and
    # removed minutes apart in the session, nobody opened them (alt426: structural biologists
    # on an NFS home who keep everything read as tidy).
    _assert_program_files_are_no_cleanup(
        session_builder, lambda i: (f"xtal/.nfs{i:08x}5f2bdc4100000148", f".fuse_hidden00000{i}a700000001"), 300_000)


def test_an_ides_make_clean_of_its_debug_folder_is_the_builds(session_builder):
    # STM32CubeIDE and Eclipse CDT build into `Debug/` and `Release/`, Visual Studio into
    # `x64/Debug/`; `make clean` empties them, marking the objects temporary (alt405: firmware
    # engineers who never delete their own files read as selective). The person's own scratch
    # log removed from the project stays theirs.
    def make(b, i, scratch=False):
        b.write(f"fw/docs/notes-{i}.md", _doc(30))
        for name in ("main.o", "main.d", "main.su", "fw.elf"):
            b.add("file_delete", 20_000 if name == "main.o" else 30, file_path=f"fw/Debug/Core/Src/{name}",
                  file_age_ms=9e7, was_temporary=True)
        b.add("file_delete", 30, file_path="fw/x64/Release/fw.exe", file_age_ms=9e7, was_temporary=True)
        if scratch:
            b.write(f"fw/scratch_{i}.log", "uart dump\n", gap_ms=20_000)
            b.add("file_delete", 60_000, file_path=f"fw/scratch_{i}.log", file_age_ms=6e4, was_temporary=True)
    keeper = _user(session_builder, make, 6)["E"]
    assert keeper.counts.get("L", 0) == keeper.counts.get("M", 0) == 0, keeper
    tidy = _user(session_builder, lambda b, i: make(b, i, scratch=True), 6)["E"]
    assert tidy.tier == "L", tidy


def test_a_translators_target_folder_holds_their_documents_not_a_builds(session_builder):
    # A translation project keeps the translations in `target/` beside `source/` (OmegaT's
    # layout). A translator revising `target/contract_DE.md` 10 lines at a time is revising,
    # though `target/` is also Maven's and Cargo's build folder (alt735: their edits read as a
    # build's and D as unknown). A build's compiled files there stay the build's.
    def make(b, i):
        b.read(f"Jobs/J{i}/source/contract_EN.docx", content_length=9_000)
        for _ in range(2):
            b.edit(f"Jobs/J{i}/target/contract_DE.md", 10, 10)
    sig = _signals(_user_session(session_builder, make))
    assert sig["D"]["opp"] and sig["D"]["edits"] == 2, sig["D"]
    assert _user(session_builder, make, 6)["D"].tier == "M"
    b = session_builder("build")
    b.write("app/target/classes/App.class", "\xca\xfe" * 900, snapshot=False)
    b.write("app/target/notes.md", _doc(20), gap_ms=60_000)
    b.add("file_edit", 20, file_path="app/target/classes/App.class", lines_added=10, lines_deleted=10)
    assert not _signals(b)["D"]["opp"]


def test_a_sync_clients_staging_folder_is_the_clients(session_builder):
    # Google Drive for desktop stages downloads in `.tmp.drivedownload` and uploads in
    # `.tmp.driveupload` at the top of My Drive and removes them (alt479: recruiters who keep
    # every resume read as pragmatic).
    _assert_program_files_are_no_cleanup(
        session_builder, lambda i: ("My Drive/.tmp.drivedownload", f"My Drive/.tmp.driveupload/{i}1983"), 120_000)


def test_a_file_made_and_removed_within_seconds_unopened_is_a_programs(session_builder):
    # A PDF markup program writes `plan.pdf.bak` as it saves and removes it four seconds later;
    # Vim renames the file it saves to `notes.md~`, writes the new one and removes the `~`
    # file at once. Nobody opened either: a person who keeps everything shows no cleanup. One
    # who removes their own scratch file a minute after making it still does (the same name
    # renamed aside by a person and removed minutes later stays theirs: the swap-save test).
    _assert_program_files_are_no_cleanup(session_builder, lambda i: (f"A-10{i}.pdf.bak",), 4_000)

    def vim(b, i):
        b.write(f"notes-{i}.md", _doc(30))
        for _ in range(2):
            b.add("file_rename", 60_000, old_path=f"notes-{i}.md", new_path=f"notes-{i}.md~",
                  naming_pattern_change="other")
            b.add("file_edit", 20, file_path=f"notes-{i}.md", file_type="md", lines_added=3, lines_deleted=1)
            b.add("file_delete", 20, file_path=f"notes-{i}.md~", file_age_ms=40, was_temporary=True)
    est = _user(session_builder, vim, 6)
    assert est["E"].counts["L"] == est["E"].counts["M"] == 0, est["E"]


def test_an_applications_numbered_autosave_slot_is_not_the_persons_leftover(session_builder):
    # A game engine autosaves the open scene into a numbered slot
    # (Temp/__Backupscenes/0.backup); a person names a backup after what it backs up. Someone
    # who removes their own scratch file every session removed all they left, every time.
    def make(b, i):
        b.write(f"notes-{i}.md", _doc(30))
        b.write(f"tmp_{i}.md", "scratch\n", gap_ms=20_000)
        b.add("file_delete", 30_000, file_path=f"tmp_{i}.md", file_age_ms=3e4, was_temporary=True)
        b.write("Proj/Temp/__Backupscenes/0.backup", "scene\n", gap_ms=60_000)
    sig = _signals(_user_session(session_builder, make))
    assert (sig["E"]["cleaned"], sig["E"]["leftovers"]) == (1, 1), sig["E"]
    b = session_builder()
    b.write("report_bak.md", _doc(30))  # the person's own backup stays a leftover
    assert _signals(b)["E"]["leftovers"] == 1


def test_an_export_writing_a_file_and_its_latest_twin_is_not_the_persons_data(session_builder):
    # A data capture system drops its nightly export as CARD_VS_20260902.csv and the same
    # bytes as CARD_VS_latest.csv a second later: two data files for a text-only person,
    # every session. A person who writes two CSVs of their own minutes apart still has them.
    def make(b, i):
        b.write(f"Exports/CARD_VS_2026090{i}.csv", "subject,visit\n1,2\n", gap_ms=10_000)
        b.write("Exports/CARD_VS_latest.csv", "subject,visit\n1,2\n", gap_ms=1_100)
        b.write(f"notes-{i}.md", _doc(30), gap_ms=60_000)
    sig = _signals(_user_session(session_builder, make))
    assert sig["F"]["data_files"] == 0, sig["F"]
    b = session_builder()
    b.write("summary.csv", "a,b\n1,2\n")
    b.write("summary_by_site.csv", "a,b\n1,2\n", gap_ms=120_000)
    assert _signals(b)["F"]["data_files"] == 2
    b = session_builder()  # `touch a.csv b.csv`: two empty files at once are no export's twins
    b.write("a.csv", "", gap_ms=1_000)
    b.write("b.csv", "", gap_ms=2)
    assert _signals(b)["F"]["data_files"] == 2


def test_files_a_program_writes_on_a_clock_are_not_the_persons(session_builder):
    # A data logger writes a CSV into its run folder every 5-6 s while a text-only person
    # writes their notes: the files are the logger's. The same dozen tables written by the
    # person, with the pauses of someone thinking between them, are theirs (whether data alone
    # shows a visual habit is cross_modal's question: it does not).
    jitter = [0, 420, -310, 180, 650, -90, 330, -480, 240, 560, -200, 100]
    human = [40, 95, 20, 180, 60, 33, 120, 75, 25, 150, 50, 70]

    def make(b, i, pauses_ms):
        b.write(f"notes-{i}.md", _doc(30))
        # the logger (or the person) makes the run's folders a few seconds before its first file
        b.add("dir_create", 20_000, dir_path="plate", depth=1, sibling_count=0)
        b.add("dir_create", 4_000, dir_path=f"plate/run_{i:04d}", depth=2, sibling_count=0)
        for k, pause in enumerate(pauses_ms):
            b.write(f"plate/run_{i:04d}/reading_{k:05d}.csv", "t,od600\n0,0.12\n", gap_ms=pause)
        b.write(f"summary-{i}.md", _doc(20), gap_ms=30_000)
    logger = _user(session_builder, lambda b, i: make(b, i, [5_500 + j for j in jitter]), 6)
    assert logger["C"].counts["L"] == logger["C"].counts["M"] == 0, logger["C"]  # the folders are the logger's
    assert _signals(_user_session(session_builder, lambda b, i: make(b, i, [5_500 + j for j in jitter])))["F"][
        "data_files"] == 0
    person = _user(session_builder, lambda b, i: make(b, i, [s * 1000 for s in human]), 6)
    assert person["C"].tier == "M", person["C"]
    assert _signals(_user_session(session_builder, lambda b, i: make(b, i, [s * 1000 for s in human])))["F"][
        "data_files"] == 12


def test_data_files_named_by_the_minute_they_were_written_are_a_programs_record(session_builder):
    # A market-data terminal writes `feeds/AAPL_20260114_1650.csv` every few minutes (the
    # name's clock is the machine's local time, here five hours from UTC) while a balanced
    # analyst writes a note with a table. Before, the feeds beside the table read as charts
    # and data, visual-heavy (F called L at p ~1). The person's own dated data file is theirs.
    import datetime as dt

    start = dt.datetime(2026, 1, 14, 21, 40, tzinfo=dt.UTC).timestamp() * 1000.0

    def make(b, i):
        b.write(f"notes-{i}.md", _doc(40) + "| ticker | pe |\n|---|---|\n" + "| AAPL | 31 |\n" * 6)
        for k, ticker in enumerate(("META", "BAC", "AAPL")):
            at = dt.datetime.fromtimestamp((b.t + 240_000) / 1000.0, tz=dt.UTC) - dt.timedelta(hours=5)
            b.write(f"feeds/{ticker}_{at:%Y%m%d_%H%M}.csv", "t,px\n1,2\n", gap_ms=240_000 + 13_000 * k)

    b = session_builder("one", start_ms=start)
    make(b, 0)
    f = _signals(b)["F"]
    assert (f["data_files"], f["table_rows"]) == (0, 7), f
    est = user_tiers([_signals(_built(session_builder, make, i, start)) for i in range(6)])
    assert est["F"].tier == "M", est["F"]
    b = session_builder("own", start_ms=start)
    b.write("sales_2026-01-14.csv", "a,b\n1,2\n").write("prices_20260114_1402.csv", "a,b\n1,2\n")
    assert _signals(b)["F"]["data_files"] == 2  # a date, or a time that is not when it was written


def test_text_that_arrives_faster_than_anyone_writes_was_unpacked_not_written(session_builder):
    # A teaching assistant unzips the course platform's submissions: the archive tool writes
    # each student's folder and files a few seconds apart (the recorder logs Spotlight's read
    # of each new file in between, so no pause is under the two seconds of a program's run),
    # then the TA writes a short bulleted feedback note. Before, the unzipped files read as
    # the person writing fifteen long documents in nested folders (B and C called L).
    def make(b, i, pause_ms=3_000):
        b.add("dir_create", 60_000, dir_path=f"submissions/ps{i}", depth=2, sibling_count=i)
        for s in range(5):
            b.add("dir_create", pause_ms, dir_path=f"submissions/ps{i}/student{s}", depth=3, sibling_count=s)
            for name in ("main.py", "notes.txt", "README.md"):
                path = f"submissions/ps{i}/student{s}/{name}"
                b.write(path, _doc(60), gap_ms=pause_ms)
                b.add("file_read", 400, file_path=path, file_type=name.rsplit(".", 1)[-1], directory_depth=3,
                      view_count=1, view_range=[1, 60], content_length=2_000)
        b.write(f"feedback_ps{i}.md", _doc(12, bullets=True), gap_ms=900_000)

    sig = _signals(_user_session(session_builder, make))
    assert (sig["B"]["docs"], sig["C"]["dirs"]) == (1, 0), (sig["B"], sig["C"])
    est = _user(session_builder, make, 6)
    assert est["B"].counts["L"] == 0 and est["C"].counts["L"] == est["C"].counts["M"] == 0, (est["B"], est["C"])
    # the same files a person writes, a minute and a half each, are theirs
    sig = _signals(_user_session(session_builder, lambda b, i: make(b, i, pause_ms=90_000)))
    assert (sig["B"]["docs"], sig["C"]["dirs"]) == (16, 6), (sig["B"], sig["C"])
    # figures written as fast into folders the person made: a file's size is no measure of
    # the typing behind it, and the folders stay the person's placing
    b = session_builder("figures")
    for k in range(6):
        b.add("dir_create", 2_500, dir_path=f"figures/fig{k}", depth=2, sibling_count=k)
        b.write(f"figures/fig{k}/plot.pdf", "x" * 90_000, gap_ms=2_500, snapshot=False)
    assert _signals(b)["C"]["dirs"] == 6


def test_a_document_started_from_a_copied_template_is_written_not_revised(session_builder):
    # A grant writer starts each proposal as a copy of the firm's template and saves their
    # text over it in Word, then touches it up. Before, the copy kept the 140 lines out of
    # what they wrote (B had no evidence: unknown) and the first save, replacing
    # the template, read as a rewrite in place (D called R for a balanced reviser).
    def make(b, i):
        body = _doc(140, heading_depth=3)
        b.add("file_copy", source_path="Templates/Proposal_Template.docx", dest_path=f"Funder{i}_Proposal_2025.docx",
              is_backup=False)
        b.write(f"Funder{i}_Proposal_2025.docx", body, op="overwrite", gap_ms=600_000)
        lines = body.splitlines()
        lines[40:52] = [f"Revised sentence {k} on the outcomes." for k in range(12)]
        b.write(f"Funder{i}_Proposal_2025.docx", "\n".join(lines) + "\n", op="overwrite", gap_ms=300_000)

    sig = _signals(_user_session(session_builder, make))
    assert (sig["B"]["docs"], sig["B"]["lines"]) == (1, 140), sig["B"]
    assert (sig["D"]["overwrites"], sig["D"]["edits"]) == (0, 1), sig["D"]
    est = _user(session_builder, make, 6)
    assert est["B"].tier == "M" and est["D"].counts["R"] == 0, (est["B"], est["D"])
    # last year's proposal copied to this year's name is a new version of the person's own
    # document: saving over it revises that work
    b = session_builder("version")
    b.add("file_copy", source_path="Kestrel_Proposal_2024.docx", dest_path="Kestrel_Proposal_2025.docx", is_backup=False)
    b.write("Kestrel_Proposal_2025.docx", _doc(140), op="overwrite", gap_ms=600_000)
    sig = _signals(b)
    assert sig["B"]["docs"] == 0 and sig["D"]["overwrites"] == 1, (sig["B"], sig["D"])


def test_filling_a_generated_stub_is_writing_it_not_revising_it(session_builder):
    # A blogger runs `hugo new`: the generator writes the post's front matter with `tags: []`,
    # and the person's first save fills it, 130 lines, replacing the placeholder line on the
    # way. Then they revise 3 lines twice. Before, the fill read as a 131-line revision and
    # the session as a rewrite (R).
    front = '---\ntitle: "A week of board games"\ndate: 2025-07-13\ndraft: true\ntags: []\n---\n'
    b = session_builder("post")
    b.write("content/posts/week/index.md", front)
    b.edit("content/posts/week/index.md", 130, 1)
    b.edit("content/posts/week/index.md", 3, 3)
    b.edit("content/posts/week/index.md", 2, 4)
    d = _signals(b)["D"]
    assert sorted(d["sizes"]) == [6, 6], d
    # growing one's own 40-line draft by 20 lines is still revising it
    b = session_builder("draft")
    b.write("notes.md", _doc(40))
    b.edit("notes.md", 20, 2)
    assert _signals(b)["D"]["sizes"] == [22]


def _built(session_builder, make, i, start):
    b = session_builder(f"s{i}", start_ms=start + i * 86_400_000.0)
    make(b, i)
    return b


def test_what_programs_do_in_hidden_folders_is_not_the_persons(session_builder):
    # A recorder that cannot tell processes apart: an editor's atomic-save temp file in
    # `.vscode/`, a sync client staging a copy in `.nextcloud.cache/` and removing it, an
    # export step's `.pandoc-tmp-1234/` folder, each seconds after the person's save. The
    # person keeps their own scratch notes: no cleanup habit, no folders of theirs.
    def make(b, i):
        b.write("report.md", _doc(40))
        b.write("tmp_notes.md", "scratch\n")
        b.write(".vscode/.tmp_notes.md.4341c7.tmp", "scratch\n", gap_ms=2_000)
        b.add("file_delete", 8, file_path=".vscode/.tmp_notes.md.4341c7.tmp", file_age_ms=8.0, was_temporary=True)
        b.add("file_copy", 3_000, source_path="report.md", dest_path=".nextcloud.cache/staging/report.md.e6f625cd",
              is_backup=False)
        b.add("file_delete", 300, file_path=".nextcloud.cache/staging/report.md.e6f625cd", file_age_ms=300.0,
              was_temporary=True)
        b.add("dir_create", 3_000, dir_path=".pandoc-tmp-1234", depth=1, sibling_count=0)
        b.write(".pandoc-tmp-1234/input.tex", "\\begin{document}\n", gap_ms=20)
        b.add("file_delete", 900, file_path=".pandoc-tmp-1234/input.tex", file_age_ms=900.0, was_temporary=True)
    est = _user(session_builder, make, 8)
    assert est["E"].tier == "R" and est["E"].counts["L"] == est["E"].counts["M"] == 0, est["E"]
    assert est["C"].tier in ("R", "unknown") and est["C"].counts["M"] == est["C"].counts["L"] == 0, est["C"]
    # a person's workspace inside a hidden folder (a vault under ~/.local/share) is theirs
    b = session_builder()
    for k in range(3):
        b.write(f".local/share/vault/tmp_{k}.md", "scratch\n")
    for k in range(3):
        b.add("file_delete", file_path=f".local/share/vault/tmp_{k}.md", file_age_ms=1.0, was_temporary=True)
    assert _signals(b)["E"]["cleaned"] == 3


def test_a_sync_clients_cache_is_not_the_workspace_of_a_short_session(session_builder):
    # Two saves of a visible file, each staged by a sync client through a file it makes and
    # removes in `.dropbox.cache/`: the cache logs more than half of the session, but the
    # person's work is the visible file. A person who keeps everything cleaned nothing.
    def make(b, i):
        b.add("file_read", file_path="README.md", view_count=1)
        for k in range(2):
            b.write(f".dropbox.cache/{i}{k}c5a2ef.tmp", "x\n", gap_ms=40_000)
            b.add("file_delete", 900, file_path=f".dropbox.cache/{i}{k}c5a2ef.tmp", file_age_ms=900.0,
                  was_temporary=True)
            b.write("README.md", _doc(20 + k), gap_ms=5_000)
        b.write(f"tmp_notes_{i}.md", "scratch\n")
    est = _user(session_builder, make, 6)
    assert est["E"].counts["L"] == est["E"].counts["M"] == 0 and est["E"].tier == "R", est["E"]


def test_what_python_and_npm_make_in_their_own_folders_is_not_the_persons(session_builder):
    # Running their script makes Python write byte code into `src/__pycache__/` (one or two
    # modules: no burst); an install fills `node_modules/`, and removes an old version there.
    # A flat person who keeps scratch files made no folder and cleaned nothing.
    def make(b, i):
        b.write("report.md", _doc(40))
        b.write("tmp_notes.md", "scratch\n")
        b.add("dir_create", 20_000, dir_path="src/__pycache__", depth=2, sibling_count=0)
        b.add("file_write", 8, file_path="src/__pycache__/utils.cpython-311.pyc", file_type="pyc", directory_depth=2,
              operation="create", content_length=900)
        b.add("dir_create", 20_000, dir_path="web/node_modules/left-pad", depth=3, sibling_count=0)
        b.add("file_delete", 5_000, file_path="web/node_modules/left-pad/index.old.js", file_age_ms=9e6,
              was_temporary=False)
    est = _user(session_builder, make, 8)
    assert est["C"].tier in ("R", "unknown") and est["C"].counts["M"] == est["C"].counts["L"] == 0, est["C"]
    assert est["E"].counts["L"] == est["E"].counts["M"] == 0, est["E"]


def test_what_a_program_keeps_and_prunes_in_its_cache_folder_is_not_the_persons(session_builder):
    # A video editor writes clip caches into `CacheClip/` and prunes old ones six at a time,
    # marked temporary. Someone who never deletes a file of theirs cleaned nothing; the same
    # deletions in a folder of theirs stay theirs.
    def make(b, i, folder="CacheClip"):
        b.write("script.md", _doc(30))
        b.write(f"{folder}/{i:04x}c50a-fc7a.dvcc", "", snapshot=False)
        for k in range(6):
            b.add("file_delete", 300, file_path=f"{folder}/{k:04x}aaa5-old{i}.dvcc", file_age_ms=9e7, was_temporary=True)
    est = _user(session_builder, make, 6)["E"]
    assert est.counts["L"] == est.counts["M"] == 0, est
    b = session_builder()
    make(b, 0, "Clips")
    assert _signals(b)["E"]["cleaned"] == 6


def test_writing_on_in_an_autosaving_editor_is_not_revising(session_builder):
    # An editor that saves as the person types logs a new document as a create and a run of
    # additions: that is writing it, not iterating on existing work. Changing lines of it,
    # or of an existing file, is.
    b = session_builder()
    b.write("plan.md", _doc(5))
    for _ in range(4):
        b.edit("plan.md", 30, 0)
    assert "D" not in _tiers(b)
    b.edit("plan.md", 12, 8)
    assert _signals(b)["D"]["edits"] == 1


def test_when_the_notes_may_not_measure_verbosity_length_calls_are_less_sure(session_builder):
    # Someone whose shortest writing is 70 lines: either a verbose person (then 18-line edits
    # are small for them) or one whose work never asks for short notes (then they are
    # table 2's 10-30 line edits). The trace cannot tell, so D is not called firmly either
    # way; with ordinary 25-line notes the same edits are firmly balanced.
    def person(note_lines):
        def make(b, i):
            b.write("notes.md", _doc(note_lines, bullets=True))
            for _ in range(3):
                b.edit("report.md", 12, 6)
        return _user(session_builder, make, 10)["D"]
    unsure = person(70)
    assert unsure.tier == "M" or unsure.confidence < 0.8
    firm = person(25)
    assert firm.tier == "M" and firm.confidence >= 0.8


def test_saving_a_word_file_is_not_rewriting_it(session_builder):
    # A file-system recorder sees every save of a .docx or .xlsx as the whole file replaced
    # (it cannot diff them), however little changed: those saves say nothing about D.
    def make(b, i):
        b.write("draft.md", _doc(60))
        for _ in range(2):
            b.write("report.docx", "PK binary", op="overwrite", snapshot=False)
            # another producer may keep the document's own bytes as its snapshot: no text
            b.write("report.docx", "PK\x03\x04\x00\x00 word/document.xml", op="overwrite")
        b.write("budget.xlsx", "PK binary", op="overwrite", snapshot=False)
    assert _user(session_builder, make, 8)["D"].tier == "unknown"
    # a text file rewritten in place still is
    b = session_builder()
    b.write("notes.md", _doc(90), op="overwrite")
    b.write("notes.md", _doc(95, topic="something else"), op="overwrite")
    assert _tiers(b)["D"]["tier"] == "R"


def _changed(text: str, lines: range) -> str:
    rows = text.splitlines()
    for k in lines:
        rows[k] = rows[k].replace("Sentence", "A reworded sentence")
    return "\n".join(rows) + "\n"


def test_saving_the_whole_file_after_a_small_change_is_a_small_edit(session_builder):
    # An editor that saves by writing the whole file (logged as an overwrite with its text)
    # after each of a careful reviser's passes: two lines changed each time, a backup first.
    # The overwrites read as bulk rewrites; their texts say what changed.
    def make(b, i):
        text = _doc(100)
        b.write("report.md", text)
        b.add("file_copy", source_path="report.md", dest_path="report.md.bak", is_backup=True)
        for k in range(4):
            text = _changed(text, range(10 * k + 2, 10 * k + 4))
            b.read("report.md", view_count=k + 2, view_range=[1, 100], content_length=4000)
            b.write("report.md", text, op="overwrite")
    sig = _signals(_user_session(session_builder, make))
    assert (sig["D"]["edits"], sig["D"]["overwrites"], sig["D"]["sizes"]) == (4, 0, [4, 4, 4, 4])
    assert _user(session_builder, make, 6)["D"].tier == "L"

    # whole sections replaced in one save are a rewrite still
    def rewriter(b, i):
        b.write("report.md", _doc(100))
        b.write("report.md", _doc(100, topic="a different plan"), op="overwrite")
    assert _user(session_builder, rewriter, 6)["D"].tier == "R"


def test_a_write_logged_twice_is_one_save(session_builder):
    # A watcher that sees both the write and the close logs the same save twice, a
    # millisecond apart, with the same content hash (and, from a recorder that keeps no
    # snapshots, no text to compare): one rewrite, not two. Another a minute later is a second.
    def save(b, h, gap):
        b.add("file_write", gap, file_path="r.md", file_type="md", directory_depth=0, operation="overwrite",
              content_length=4000, after_hash=h, media_ref=None)
    b = session_builder()
    save(b, "a1", 10_000)
    save(b, "a1", 1)
    assert _signals(b)["D"]["overwrites"] == 1
    save(b, "b2", 60_000)
    assert _signals(b)["D"]["overwrites"] == 2


def test_an_atomic_save_is_a_save_of_the_file(session_builder):
    # Another recorder logs an editor's atomic save as it happens on disk: the text written
    # under a temporary name, renamed over the file a moment later. The first save is a new
    # document (B), later ones changes to it (D); no file was renamed by the person.
    b = session_builder()
    text = _doc(100)
    for k, temp in enumerate(("plan.md.2006517143", "plan.md.sb-32b30ab7-RaL7fQ", ".goutputstream-X2Y1QZ")):
        if k:
            text = _changed(text, range(10 * k, 10 * k + 2))
            b.read("plan.md", view_count=k + 1, view_range=[1, 100], content_length=4000)
        b.write(temp, text)
        b.add("file_rename", 150, old_path=temp, new_path="plan.md", naming_pattern_change="other")
    sig = _signals(b)
    assert (sig["B"]["docs"], sig["B"]["lines"]) == (1, 100)
    assert (sig["D"]["edits"], sig["D"]["overwrites"], sig["D"]["sizes"]) == (2, 0, [4, 4])
    # a document renamed by the person a while after writing it is theirs to name
    b = session_builder()
    b.write("plan.md.txt", text)
    b.add("file_rename", 60_000, old_path="plan.md.txt", new_path="plan.md", naming_pattern_change="other")
    assert [e["event_type"] for e in b.events] == ["file_write", "file_rename"]
    assert _signals(b)["B"]["docs"] == 1 and not _signals(b)["D"]["opp"]
    assert encode_session(b.events, b.get_blob).features["n_rename"] == 1


def test_a_swap_save_is_a_save_and_its_old_copy_is_the_applications(session_builder):
    # Excel saves by swapping: the workbook written under a random name, the file renamed away
    # to another random name, the new one renamed into its place, the old copy deleted, all
    # within a second. A person who keeps everything shows no cleanup and writes no new
    # documents; the save is a save of the workbook. So where the recorder logs the old
    # copy's removal seconds after the save (alt502's, 3 s: keepers read as selective).
    def make(b, i, removal_ms=400):
        b.write(f"notes-{i}.md", _doc(30))
        for k in range(3):
            new, old = f"{0x861E39B2 + 97 * i + k:08X}", f"{0x0DAA3248 + 89 * i + k:08X}"
            b.write(new, "PK\x03\x04 workbook", gap_ms=60_000, snapshot=False)
            b.add("file_rename", 300, old_path="close.xlsx", new_path=old, naming_pattern_change="other")
            b.add("file_rename", 500, old_path=new, new_path="close.xlsx", naming_pattern_change="other")
            b.add("file_delete", removal_ms, file_path=old, file_age_ms=9e5, was_temporary=True)
    for removal_ms in (400, 3_200):
        est = _user(session_builder, lambda b, i, ms=removal_ms: make(b, i, ms), 6)
        assert est["E"].counts["L"] == est["E"].counts["M"] == 0, (removal_ms, est["E"])
    b = session_builder()
    make(b, 0)
    assert _signals(b)["B"]["docs"] == 1  # the notes; the workbook's saves are no new documents
    docs = encode_session(b.events, b.get_blob).documents
    assert [(d["path"], d["operation"]) for d in docs][1:] == [("close.xlsx", "overwrite")] * 3  # it was there
    # the same names renamed and deleted by a person minutes apart stay theirs
    b = session_builder()
    b.write("A1B2C3D4", "scratch\n")
    b.add("file_rename", 120_000, old_path="close.xlsx", new_path="0DAA3248", naming_pattern_change="other")
    b.add("file_rename", 120_000, old_path="A1B2C3D4", new_path="close.xlsx", naming_pattern_change="other")
    b.add("file_delete", 120_000, file_path="0DAA3248", file_age_ms=9e5, was_temporary=True)
    assert _signals(b)["E"]["deletes"] == 1 and encode_session(b.events, b.get_blob).features["n_rename"] == 2


def test_a_save_that_deletes_the_file_before_renaming_its_copy_into_place_is_the_applications(session_builder):
    # Word and MATLAB on Windows save by writing `~WRL0001.tmp`, deleting the file and renaming
    # the temporary file to its name. The deletion is the application's, not the person's
    # tidying; and where the recorder logs this person's Markdown edits, the script's saves
    # (whose earlier text it never saw) are no rewrites in place: they count at the rate of
    # the person's saves whose text is known (the second save of a session, a few lines).
    def make(b, i):
        b.edit("notes.md", 12, 6)
        script = "\n".join(f"x{j} = {j} * load_case({i});" for j in range(60)) + "\n"
        for k in range(1 + (i % 2)):
            if k:
                script = script.replace("x3 = 3", f"x3 = {30 + i}").replace("x9 = 9", f"x9 = {90 + i}")
            b.write("~WRL0001.tmp", script, gap_ms=60_000)
            b.add("file_delete", 200, file_path="model_setup.m", file_age_ms=9e7, was_temporary=False)
            b.add("file_rename", 300, old_path="~WRL0001.tmp", new_path="model_setup.m", naming_pattern_change="other")
    est = _user(session_builder, make, 8)
    assert est["E"].counts["L"] == est["E"].counts["M"] == 0 and est["E"].opportunities == 0, est["E"]
    assert est["D"].tier == "M", est["D"]
    b = session_builder()
    make(b, 1)
    d = _signals(b)["D"]
    assert (d["overwrites"], d["unseen"], d["unseen_whole"], d["seen_kept"], d["logged_edits"]) == (1, 1, 1, 1, 1), d
    # a file the person deletes minutes before a new one takes its name stays their deletion
    b = session_builder()
    b.write("~WRL0001.tmp", "draft\n")
    b.add("file_delete", 120_000, file_path="model_setup.m", file_age_ms=9e7, was_temporary=False)
    b.add("file_rename", 300_000, old_path="~WRL0001.tmp", new_path="model_setup.m", naming_pattern_change="other")
    assert _signals(b)["E"]["discarded"] == 1


def _fdx(paragraphs: list[str]) -> str:
    """A Final Draft script: each paragraph an element over three lines of XML."""
    body = "".join(f'    <Paragraph Type="Action">\n      <Text>{p}</Text>\n    </Paragraph>\n' for p in paragraphs)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<FinalDraft DocumentType="Script">\n  <Content>\n{body}  </Content>\n</FinalDraft>\n'


def test_screenplays_are_writing_counted_in_paragraphs_not_lines_of_markup(session_builder):
    # A screenwriter's Fountain and Final Draft files are their writing (B) and revising (D),
    # as Markdown is. A Final Draft script is XML, three lines of markup a paragraph: its
    # length and its changes are counted in the paragraphs the person wrote.
    from filegram.store import content_hash

    scene = [f"Beat {j}: MAYA crosses the pier." for j in range(90)]
    b = session_builder()
    b.write("Drafts/Cold Open.fdx", _fdx(scene))
    b.write("Drafts/Cold Open.fountain", "\n".join(scene) + "\n")
    sig = _signals(b)
    assert (sig["B"]["docs"], sig["B"]["lines"], sig["B"]["largest"]) == (2, 180, 90), sig["B"]
    b = session_builder()
    before = _fdx(scene)
    b.blobs[content_hash(before.encode())] = before.encode()  # written in an earlier session
    b.read("other.md", view_range=[1, 10])
    _save(b, "Drafts/Cold Open.fdx", before, _fdx(scene[:40] + [f"New beat {j}." for j in range(4)] + scene[40:]))
    d = _signals(b)["D"]
    assert (d["edits"], d["overwrites"], d["sizes"]) == (1, 0, [4]), d


def _dita(paragraphs: int) -> str:
    body = "".join(f"      <p>Step {j}: the gateway drains the pool.</p>\n" for j in range(paragraphs))
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<task id="t">\n  <title>Rotate</title>\n  <taskbody>\n'
            f"    <section>\n{body}    </section>\n  </taskbody>\n</task>\n")


def test_technical_writers_xml_topics_are_writing(session_builder):
    # A technical writer's DITA topics (and DocBook's) are their documents, as HTML pages are:
    # three new topics of 90 lines of markup are comprehensive output.
    b = session_builder()
    for name in ("rotate-a-certificate", "about-quotas", "proxy-settings"):
        b.write(f"topics/{name}.dita", _dita(82))
    sig = _signals(b)["B"]
    assert (sig["docs"], sig["lines"]) == (3, 270), sig
    assert _tiers(b)["B"]["tier"] == "L"
    b = session_builder()
    b.write("book/intro.dbk", _dita(20))
    assert _signals(b)["B"]["docs"] == 1


def _srt(cues: list[str]) -> str:
    return "".join(f"{i}\n00:01:{i % 60:02d},000 --> 00:01:{i % 60:02d},900\n{c}\n\n" for i, c in enumerate(cues, 1))


def _ass(cues: list[str]) -> str:
    head = "[Script Info]\nTitle: Ep 4\nScriptType: v4.00+\n\n[V4+ Styles]\nFormat: Name, Fontname\nStyle: Default,Arial\n\n"
    body = "".join(f"Dialogue: 0,0:01:{i % 60:02d}.00,0:01:{i % 60:02d}.90,Default,,0,0,0,,{c}\n" for i, c in enumerate(cues))
    return head + "[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n" + body


def test_subtitles_are_revised_in_their_cues_and_are_no_measure_of_writing(session_builder):
    # A subtitle translator's SubRip and Advanced SubStation files are their revising (D): a
    # SubRip cue is four lines of the file, so what the person changed is counted in the cues'
    # text. A fix of one cue's wording is a one-line edit, not a rewrite of a 360-line file.
    # How long a subtitle file is, the video decides: it is no document of the person's (B).
    from filegram.store import content_hash

    cues = [f"Nobody will protect the last train, part {j}!" for j in range(90)]
    b = session_builder()
    b.write("ep04/show_04_en.srt", _srt(cues))
    b.write("ep04/show_04_en.ass", _ass(cues))
    assert _signals(b)["B"]["docs"] == 0
    b = session_builder()
    before = _srt(cues)
    b.blobs[content_hash(before.encode())] = before.encode()  # translated in an earlier session
    b.read("ep04/qc_notes.md", view_range=[1, 10])
    _save(b, "ep04/show_04_en.srt", before, _srt(cues[:40] + ["Everyone, the stars tonight!"] + cues[41:]))
    d = _signals(b)["D"]
    assert (d["edits"], d["overwrites"], d["sizes"]) == (1, 0, [2]), d


def test_backups_kept_in_a_backups_folder_are_not_leftovers(session_builder):
    # A writing app keeps `Backups/<script>.backup` up to date while the person writes: a
    # backup filed in a folder for backups is kept on purpose. The selective writer removed
    # the one scratch file they made: all of their leftovers.
    b = session_builder()
    b.write("notes_tmp.md", "paste here\n")
    b.write("Drafts/Scene 12.fountain", _doc(40))
    b.write("Backups/Scene 12.backup", _doc(40))
    b.write("Backups/Scene 12.backup", _doc(45), op="overwrite")
    b.add("file_delete", file_path="notes_tmp.md", file_age_ms=9e5, was_temporary=True)
    e = _signals(b)["E"]
    assert (e["leftovers"], e["cleaned"]) == (1, 1), e
    b = session_builder()  # the same backup left beside the script is a leftover
    b.write("Drafts/Scene 12.fountain", _doc(40))
    b.write("Drafts/Scene 12.backup", _doc(40))
    assert _signals(b)["E"]["leftovers"] == 1


def test_an_edit_is_as_large_as_its_diff_summary_says(session_builder):
    # FileGram counts a replaced line as added and deleted (and modified too); another
    # producer counts it apart, as modified only: (2 added, 1 deleted, 7 modified, "+9 -8") is
    # a 17-line revision, not a 3-line touch-up. A balanced reviser's 10-30 line edits logged
    # that way are still balanced; counts that agree with the summary stay as they are.
    def make(b, i):
        b.write("ledger.md", _doc(120))
        for added, deleted, modified in ((2, 1, 7), (3, 2, 6), (1, 2, 8)):
            b.add("file_edit", file_path="ledger.md", file_type="md", edit_tool="editor", lines_added=added,
                  lines_deleted=deleted, lines_modified=modified,
                  diff_summary=f"+{added + modified} -{deleted + modified}")
    assert _user(session_builder, make, 6)["D"].tier == "M"
    b = session_builder()
    b.write("ledger.md", _doc(120))
    b.add("file_edit", file_path="ledger.md", file_type="md", edit_tool="editor", lines_added=10, lines_deleted=2,
          lines_modified=2, diff_summary="+10 -2")
    b.add("file_edit", file_path="ledger.md", file_type="md", edit_tool="editor", lines_added=None, lines_deleted=None,
          diff_summary="+4 -1")
    assert _signals(b)["D"]["sizes"] == [12, 5]


def test_an_office_document_whose_text_is_known_is_writing_and_revising(session_builder):
    # A recorder that extracts a .docx's text stores it as a snapshot and diffs its saves:
    # the report is a new document (B) and its saves are edits or rewrites (D), as for a
    # markdown file. Known only by its bytes, the same report says nothing about either.
    report = _doc(110).replace("# ", "")
    b = session_builder()
    b.write("report.docx", report)
    b.edit("report.docx", 3, 2)
    b.write("slides.pptx", report, op="overwrite")
    sig = _signals(b)
    assert (sig["B"]["docs"], sig["B"]["lines"]) == (1, 110) and _tiers(b)["B"]["tier"] == "M"
    assert (sig["D"]["edits"], sig["D"]["overwrites"]) == (1, 1)
    blind = session_builder()
    blind.write("report.docx", report, snapshot=False)
    blind.write("slides.pptx", report, op="overwrite", snapshot=False)
    # a producer that kept the files' bytes (a zip: NULs, no text) knows no more
    blind.write("memo.docx", "PK\x03\x04\x00\x00" + "x" * 40_000)
    blind.write("slides.pptx", "PK\x03\x04\x00\x00 ppt/slides", op="overwrite")
    sig = _signals(blind)
    assert not sig["B"]["opp"] and not sig["D"]["opp"]


def test_edit_sizes_are_also_read_as_they_are(session_builder):
    # A terse writer (8-line notes) revising a long report in 20-line passes: scaled by their
    # verbosity the passes look like rewrites, taken as they are they are table 2's 10-30
    # line edits. Whether edits follow the writer's verbosity or the document's scale is not
    # in the trace, so no firm "rewrites" call.
    def make(b, i):
        b.write("notes.md", _doc(8, bullets=True))
        for _ in range(3):
            b.edit("report.md", 12, 8)
    est = _user(session_builder, make, 10)["D"]
    assert not (est.tier == "R" and est.confidence >= 0.8), est


def test_output_that_is_only_bytes_is_no_evidence_of_text_only(session_builder):
    # Reports saved as Word or PDF files whose text was not kept may hold tables or charts
    # no one can see: they are no chance to show text only (R), while the same person's
    # markdown tables, where the text is known, are their habit.
    def make(b, i):
        b.write(f"report{i}.docx", "PK\x03\x04 bytes", snapshot=False)
        b.write(f"summary{i}.pdf", "%PDF-1.7 bytes", snapshot=False)
        if i % 4 == 0:
            b.write(f"figures{i}.md", "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n")
    est = _user(session_builder, make, 12)["F"]
    assert est.sessions == 3 and est.tier == "M", est
    b = session_builder()
    b.write("report.docx", "PK\x03\x04 bytes", snapshot=False)
    assert "F" not in _tiers(b)


def test_tables_in_a_word_document_whose_text_is_known_are_tables(session_builder):
    # The recorder extracts a Word table as markdown rows (recorder.officetext): a report
    # with a table is a table writer's output (F = M), not text only. Before, the document
    # counted as a chance to show F and its tables did not.
    report = "Quarterly review\n\nSales grew.\n\n| Region | Sales |\n|---|---|\n| North | 12 |\n| South | 9 |\n"
    b = session_builder()
    b.write("review.docx", report)
    assert _signals(b)["F"]["table_rows"] == 3 and _tiers(b)["F"]["tier"] == "M"


def test_windows_paths_read_like_posix_ones(session_builder):
    # A Windows recorder writes C:\\Users\\... : the names in it (a "copy of" backup, a
    # scratch file) and its folders must read as they do with forward slashes.
    b = session_builder()
    b.write(r"C:\Users\ana\Work\plan.md", _doc(30))
    b.add("file_copy", source_path=r"C:\Users\ana\Work\plan.md", dest_path=r"C:\Users\ana\Work\copy of plan.md")
    b.write(r"C:\Users\ana\Work\tmp_calc.md", "scratch\n")
    b.add("file_delete", file_path=r"C:\Users\ana\Work\tmp_calc.md", file_age_ms=1.0)
    e = _signals(b)["E"]
    assert (e["leftovers"], e["cleaned"]) == (2, 1)  # the backup copy was kept


def test_a_date_in_a_new_documents_name_is_no_backup(session_builder):
    # `minutes_2026-03-04.docx` written anew is a document named by its date, not a backup
    # left behind; the same name on a copy of a document dates the backup.
    b = session_builder()
    b.write("minutes_2026-03-04.md", _doc(30))
    b.write("plan_v2.md", _doc(30))
    assert not _signals(b)["E"]["opp"]
    b.add("file_copy", source_path="plan_v2.md", dest_path="plan_2026-03-04.md")
    assert _signals(b)["E"]["leftovers"] == 1


def test_a_backup_before_saving_a_word_file_shows_incremental_revising(session_builder):
    # A Word file the recorder keeps only as bytes: its saves say nothing of how much
    # changed, but a backup copy made before saving it is table 2's incremental reviser.
    b = session_builder()
    b.add("file_copy", source_path="budget.docx", dest_path="budget - Kopie.docx", is_backup=True)
    b.write("budget.docx", "PK\x03\x04 bytes", op="overwrite", snapshot=False)
    b.write("budget.docx", "PK\x03\x04 more bytes", op="overwrite", snapshot=False)
    assert _tiers(b)["D"]["tier"] == "L"
    plain = session_builder()  # saves alone, no backup: no evidence either way
    plain.write("budget.docx", "PK\x03\x04 bytes", op="overwrite", snapshot=False)
    assert "D" not in _tiers(plain)


def test_files_nobody_named_are_scratch(session_builder):
    # Applications name a new document "Untitled 3", "New Text Document" or "Document1"
    # until its author names it: deleting such files, even ones left by an earlier session,
    # is cleaning up; a real document with a similar word in its name is not scratch.
    b = session_builder()
    b.write("report.md", _doc(40))
    for name in ("Untitled 3.txt", "New Text Document.txt", "Document1.docx"):
        b.add("file_delete", file_path=name, file_age_ms=9e7)
    assert _signals(b)["E"]["cleaned"] == 3
    assert _tiers(b)["E"]["tier"] == "L"
    b = session_builder()
    b.write("untitled_project_plan.md", _doc(40))
    b.add("file_delete", file_path="documentation.md", file_age_ms=9e7)
    e = _signals(b)["E"]
    assert e["cleaned"] == 0 and e["discarded"] == 1, e  # no scratch: an older file of theirs deleted
    assert _tiers(b)["E"]["tier"] == "M"  # at most occasional cleanup (half weight)


def test_deleting_old_versions_and_duplicates_is_cleanup_but_weak_evidence(session_builder):
    # Removing `report (1).md` or `plan_v1.md` that were already there is what a tidy person
    # does, and also what a cleanup task asks of anyone: on its own, occasional cleanup at half
    # weight. Beside the person's own scratch removed, it makes several files cleaned (L).
    b = session_builder()
    b.write("a.md", _doc(30))
    b.add("file_delete", file_path="in/report (1).md", file_age_ms=9e6, was_temporary=False)
    assert _signals(b)["E"]["superseded"] == 1 and _tiers(b)["E"]["tier"] == "M"
    b.add("file_delete", file_path="in/notes.md", file_age_ms=9e6, was_temporary=False)
    assert _signals(b)["E"]["superseded"] == 1  # an ordinary name is no old version

    def keeper(b, i):  # keeps every scratch note; two cleanup tasks asked to remove duplicates
        b.write("report.md", _doc(40))
        b.write("scratch.md", "note\n")
        if i in (2, 6):
            for k in range(3):
                b.add("file_delete", file_path=f"inbox/scan_{k} (1).pdf", file_age_ms=9e6, was_temporary=False)
    assert _user(session_builder, keeper, 10)["E"].tier in ("R", "unknown")

    def tidy(b, i):  # removes the scratch note and the version the new one replaced
        b.write(f"report_v{i + 2}.md", _doc(40))
        b.write("scratch.md", "note\n")
        b.add("file_delete", file_path="scratch.md", file_age_ms=5e4, was_temporary=False)
        b.add("file_delete", file_path=f"report_v{i + 1}.md", file_age_ms=9e6, was_temporary=False)
    est = _user(session_builder, tidy, 8)["E"]
    assert est.tier == "L" and est.confidence >= 0.8, est


def test_charts_a_program_drew_for_the_person_are_their_output(session_builder):
    # An analyst runs their script: it writes three figures within a second (a program's
    # burst, not the person typing) and the report they write shows them; their notebook
    # keeps a chart in a cell's output. Both are charts in what they produced. The same burst
    # of images from an install, which nothing of theirs names, is not.
    def analyst(b, i):
        for k in range(3):
            b.add("file_write", 200, file_path=f"figures/fig_{k}.png", file_type="png", directory_depth=1,
                  operation="create", content_length=9000)
        b.write("report.md", _doc(40) + "![trend](figures/fig_1.png)\n")
        b.write("analysis.ipynb", json.dumps({"cells": [{"cell_type": "code", "outputs": [
            {"data": {"image/png": "iVBORw0KGgo=", "text/plain": "<Figure>"}, "output_type": "display_data"}]}]}))
    sig = _signals(_user_session(session_builder, analyst))["F"]
    assert sig["images"] == 4, sig  # the three figures (named `fig_`: CHART_WORDS) and the notebook's chart
    assert _user(session_builder, analyst, 6)["F"].tier == "L"

    def installer(b, i):
        for k in range(3):
            b.add("file_write", 200, file_path=f"venv/lib/site-packages/mpl/images/icon_{k}.png", file_type="png",
                  directory_depth=4, operation="create", content_length=900)
        b.write("report.md", _doc(40))
        b.write("analysis.ipynb", json.dumps({"cells": [{"cell_type": "code", "outputs": [
            {"data": {"text/plain": "42"}, "output_type": "execute_result"}]}]}))
    assert _signals(_user_session(session_builder, installer))["F"]["images"] == 0
    assert _user(session_builder, installer, 6)["F"].tier == "R"


def test_figures_a_plot_script_wrote_named_for_their_charts_are_the_persons(session_builder):
    # A bioinformatician runs their plotting script: six figures within two seconds (a
    # program's burst), which no document of theirs names yet. Named for the charts they show
    # (`volcano_s03.png`, `ma_plot_s01.png`), they are the person's visual output; before, six
    # sessions of them read as text only (alt386). An install's or an app's images in the same
    # burst (`icon-16.png`, `logo.png`) stay a program's.
    def analyst(b, i):
        b.write("report.md", _doc(40))
        for k, name in enumerate(("volcano_s03", "ma_plot_s01", "umap_clusters", "pca_s04", "heatmap_top50", "qc-coverage-hist")):
            b.add("file_write", 300, file_path=f"figures/{name}.png", file_type="png", directory_depth=1,
                  operation="create", content_length=400_000 + k)
    sig = _signals(_user_session(session_builder, analyst))["F"]
    assert sig["images"] == 6, sig
    assert _user(session_builder, analyst, 6)["F"].tier == "L"

    def installer(b, i):
        for k, name in enumerate(("icon-16", "icon-32", "logo", "background", "splash", "toolbar")):
            b.add("file_write", 300, file_path=f"app/assets/{name}.png", file_type="png", directory_depth=2,
                  operation="create", content_length=4_000 + k)
        b.write("report.md", _doc(40), gap_ms=60_000)
    assert _signals(_user_session(session_builder, installer))["F"]["images"] == 0
    est = _user(session_builder, installer, 8)["F"]
    assert est.tier == "R", est


def test_renders_a_visualiser_wrote_named_for_their_views_are_the_persons(session_builder):
    # An architect renders a batch of views of their model: five pictures within seconds (a
    # program's burst) named for the view they show (`Enscape_St_aerial02.jpg`,
    # `sketch_St_01.png`). They are the person's visual output, as a script's charts are;
    # before, visual-heavy architects read as text only at p 0.81-0.92 (alt409).
    def architect(b, i):
        b.write("design-statement.md", _doc(40))
        for k, name in enumerate(("sketch_St_01.png", "Enscape_St_aerial02.jpg", "Enscape_St_aerial03.jpg",
                                  "Enscape_St_perspective04.png", "St_render05.png")):
            b.add("file_write", 700 if k else 60_000, file_path=f"Renders/{name}", file_type=name.rsplit(".", 1)[1],
                  directory_depth=1, operation="create", content_length=900_000 + k)
    sig = _signals(_user_session(session_builder, architect))["F"]
    assert sig["images"] == 5, sig
    assert _user(session_builder, architect, 6)["F"].tier == "L"


@pytest.mark.parametrize("kind,expected", [("visual", "L"), ("tables", "M"), ("text", "R")])
def test_cross_modal(session_builder, kind, expected):
    b = session_builder()
    if kind == "visual":
        b.add("dir_create", dir_path="figures", depth=1, sibling_count=0)
        b.write("figures/trend.png", "png").write("data.csv", "a,b\n1,2\n")
        b.write("report.md", _doc(60))
    elif kind == "tables":
        b.write("report.md", _doc(60) + "| a | b |\n|---|---|\n" + "| 1 | 2 |\n" * 8)
    else:
        b.write("report.md", _doc(60))
    assert _tiers(b)["F"]["tier"] == expected


def test_one_data_file_beside_tables_is_a_table_writer(session_builder):
    # Someone who writes markdown tables and saves the numbers behind one of them as a CSV
    # now and then is balanced (M), not visual-heavy; so is one who keeps two (alt450's
    # accountants: a bank reconciliation's CSV and workbook beside the memo's table; until
    # round 54 two data files read L). A chart is L.
    def make(b, i):
        b.write("report.md", _doc(60) + "| a | b |\n|---|---|\n" + "| 1 | 2 |\n" * 8)
        if i % 2:
            b.write("numbers.csv", "a,b\n1,2\n")
    assert _user(session_builder, make, 8)["F"].tier == "M"
    b = session_builder()
    b.write("report.md", _doc(60) + "| a | b |\n|---|---|\n" + "| 1 | 2 |\n" * 8)
    b.write("numbers.csv", "a,b\n1,2\n").write("more.csv", "a,b\n3,4\n")
    assert _tiers(b)["F"]["tier"] == "M"
    b.add("file_write", 200, file_path="figures/trend.png", file_type="png", directory_depth=1,
          operation="create", content_length=20_000)
    assert _tiers(b)["F"]["tier"] == "L"


def test_a_table_typed_after_a_documents_first_save_is_its_table(session_builder):
    # An editor that saves as the person types logs a new outline as a create holding its
    # title, then overwrites as the scene table grows. The table is the session's output,
    # also when a later rewrite of the note dropped it.
    table = "| # | Scene | Location |\n|---|---|---|\n" + "".join(f"| {j} | Beat {j} | Pier |\n" for j in range(8))
    b = session_builder()
    b.write("Sequence outline.md", "# Sequence outline\n")
    b.write("Sequence outline.md", "# Sequence outline\n\n" + table, op="overwrite")
    b.write("Sequence outline.md", _doc(20), op="overwrite")
    f = _signals(b)["F"]
    assert (f["table_rows"], f["texts"]) == (9, 1), f  # the header and eight rows
    assert _tiers(b)["F"]["tier"] == "M"


def test_files_made_and_thrown_away_are_not_output(session_builder):
    # A text-only writer stages numbers in a CSV and dumps raw JSON while working, then
    # deletes both: the session's output is the markdown report (text only, minimal), and
    # the cleanup is curation.
    b = session_builder()
    b.write("table_staging.csv", "a,b\n1,2\n3,4\n")
    b.write("raw_dump.json", '{"a": [1, 2, 3]}')
    b.write("long_draft_notes.md", _doc(180))
    b.write("summary.md", _doc(30, bullets=True))
    for p in ("table_staging.csv", "raw_dump.json", "long_draft_notes.md"):
        b.add("file_delete", file_path=p, file_age_ms=6e4)
    t = _tiers(b)
    assert t["F"]["tier"] == "R" and t["B"]["tier"] == "R"
    assert t["E"]["tier"] == "L"


def test_only_dimensions_the_task_exercises_vote(session_builder):
    b = session_builder()
    b.read("a.md").read("b.md").read("a.md", view_count=2).read("b.md", view_count=2)
    b.write("out.md", _doc(120))
    b.add("dir_create", dir_path="x", depth=1, sibling_count=0)
    t = _tiers(b, task_id="T-01")  # understand: A, B
    assert set(t) == {"A", "B"}
    assert set(_tiers(b)) >= {"A", "B", "C"}  # task unknown: whatever has evidence


def test_no_evidence_no_vote(session_builder):
    b = session_builder()
    b.read("a.md")
    assert _tiers(b) == {}


def _signals(b):
    return encode_session(b.events, b.get_blob).signals


def _user_session(session_builder, make):
    b = session_builder("one")
    make(b, 0)
    return b


def _user(session_builder, make, n):
    out = []
    for i in range(n):
        b = session_builder(f"s{i}")
        make(b, i)
        out.append(_signals(b))
    return user_tiers(out)


def test_a_habit_shown_when_the_work_allows_is_not_outvoted_by_sessions_that_did_not_need_it(session_builder):
    # Folders in 8 of 24 sessions; the other 16 just wrote one file at the root. The old
    # majority vote called this person flat; folders are what they do when it is called for.
    # (In a quarter of the sessions or fewer a folder is what a flat person also makes when
    # the work hands them one: test_a_flat_persons_occasional_folder_is_chance.)
    def make(b, i):
        if i % 3 == 0:
            b.add("dir_create", dir_path="notes", depth=1, sibling_count=0)
            b.write("notes/r.md", _doc(30))
        else:
            b.write("r.md", _doc(30))
    est = _user(session_builder, make, 24)["C"]
    assert est.tier == "M" and est.posterior["M"] > 3 * est.posterior["R"]
    # ...while a person who never makes one in as many chances is flat
    est = _user(session_builder, lambda b, i: b.write("r.md", _doc(30)), 24)["C"]
    assert est.tier == "R" and est.confidence >= 0.8


def test_a_flat_persons_occasional_folder_is_chance(session_builder):
    # Files kept at the top level, a folder in 5 of 24 sessions (the work handed them one):
    # flat. An organiser makes folders in a third of their chances and more.
    def person(every):
        def make(b, i):
            if i % every == 0:
                b.add("dir_create", dir_path="notes", depth=1, sibling_count=0)
                b.write("notes/report.md", _doc(30))
            else:
                b.write("report.md", _doc(30))
        return _user(session_builder, make, 24)["C"].tier
    assert person(5) == "R"
    assert person(3) == "M"


def test_a_folder_a_program_named_with_a_token_is_not_the_persons(session_builder):
    # Found on a held-out model of GIS analysts: each geoprocessing run makes its own
    # `processing_<uuid>/` folder in the project. People who keep everything at the root were
    # called one-level organisers (C: M, p = 1.0) on folders no person names.
    import uuid

    def make(b, i):
        for k in range(2):
            run = f"processing_{uuid.UUID(int=i * 10 + k + 1)}"
            b.add("dir_create", dir_path=run, depth=1, sibling_count=0)
            b.add("file_write", 300, file_path=f"{run}/OUTPUT.gpkg", file_type="gpkg", operation="create",
                  content_length=50_000)
        b.write(f"report_{i}.md", _doc(30))
    assert _user(session_builder, make, 12)["C"].tier == "R"


def test_a_person_whose_work_never_asks_for_notes_is_not_five_times_verbose(session_builder):
    # Every session one 130-line report: the lower fifth of this person's writing is their
    # reports, not notes. With the verbosity factor free up to 5 both readings turned the
    # reports into short notes and called them minimal; within 3 (people differ by "factors
    # of several") the half-way reading still sees a balanced report.
    est = _user(session_builder, lambda b, i: b.write("r.md", _doc(130)), 12)["B"]
    assert est.tier != "R" and est.posterior["M"] > est.posterior["R"]


def test_a_writer_without_notes_is_read_at_table_2s_anchors(session_builder):
    # Every session a 90-130 line summary, never a short note: their shortest writing is a
    # summary like the others, so it measures what they write, not how verbose they are (it
    # read as a verbosity of 3 and the summaries as minimal notes).
    est = _user(session_builder, lambda b, i: b.write("summary.md", _doc(90 + 4 * i)), 12)["B"]
    assert est.tier == "M" and est.confidence >= 0.8


def test_four_line_jots_beside_documents_are_not_a_terse_persons_notes(session_builder):
    # A developer writes a 100-140 line design doc in most sessions and, in the others, a
    # 4-line TODO. The TODOs are jots, not notes: read as a verbosity of a third they made
    # every design doc three times its length, a comprehensive writer's.
    def make(b, i):
        if i % 3 == 0:
            b.write(f"todo{i}.md", "- fix the flaky test\n- bump deps\nthen release\nok\n")
        else:
            b.write(f"design{i}.md", _doc(100 + 4 * i))
    est = _user(session_builder, make, 12)["B"]
    assert est.tier == "M", est
    # a terse person whose documents are as short as their notes are long stays terse
    def terse(b, i):
        b.write(f"n{i}.md", _doc(6) if i % 3 == 0 else _doc(30 + i))
    assert _user(session_builder, terse, 12)["B"].tier == "M"
    # where jots are most of the writing (a shopping list in most sessions, a 120-140 line
    # recipe article in a third), the median is a jot too: the articles are still balanced
    # (before, they read as 400-line comprehensive writing)
    def jots_first(b, i):
        if i % 3 == 0:
            b.write(f"article{i}.md", _doc(120 + 2 * i))
        else:
            b.write(f"shopping{i}.txt", "- eggs\n- flour\n- leeks\n- stock\n")
    assert _user(session_builder, jots_first, 12)["B"].tier == "M"


def test_a_minimal_writer_asked_for_a_report_now_and_then_stays_minimal(session_builder):
    # Bullet notes in most sessions, and in two of ten a balanced report the work asked for.
    # A balanced writer writes balanced documents in most of their chances (HABIT_PRIOR);
    # before, the two reports made this person balanced (a habit shown a fifth of the time
    # was believed as readily as a slip).
    def make(b, i):
        if i in (3, 7):
            b.write(f"report{i}.md", _doc(100))
        else:
            b.write(f"notes{i}.md", _doc(30 + i, bullets=True))
    est = _user(session_builder, make, 10)["B"]
    assert est.tier == "R", est


def test_a_terse_persons_sectioned_bullet_notes_stay_minimal(session_builder):
    # 8-line jots and 40-line bullet notes under ### sections: at this person's verbosity the
    # notes are 120 lines long, but a list is a document only where it is of a balanced
    # length as written too (LIST_DOCUMENT_HEADINGS). Before, the notes read as balanced.
    def make(b, i):
        if i % 3 == 0:
            b.write(f"jot{i}.md", _doc(8))
        else:
            b.write(f"notes{i}.md", _doc(40, heading_depth=3, bullets=True))
    est = _user(session_builder, make, 12)["B"]
    assert est.tier == "R", est


def _outline(lines: int) -> str:
    """A Logseq page: every block a bullet, headings too (`- ## Part`), nested by tabs."""
    out = ["title:: Plan", ""]
    for i in range(lines - 2):
        if i % 30 == 0:
            out.append(f"- ## Part {i}")
        elif i % 15 == 0:
            out.append(f"\t- ### Part {i}")
        else:
            out.append(f"\t- point {i} about the rollout")
    return "\n".join(out) + "\n"


def test_an_outliners_bulleted_headings_are_headings(session_builder):
    # Logseq keeps every block behind a bullet, its headings too (alt297). A product
    # manager's 220-line PRD with `- ## ` sections read as a minimal bullet list at p 0.95;
    # it is a document, read by its length like any other. Short bulleted notes stay minimal.
    b = session_builder("prd")
    b.write("pages/prd-search.md", _outline(220))
    assert _signals(b)["B"]["heading_depth"] == 3
    assert _tiers(b)["B"]["tier"] == "L"
    b = session_builder("todo")
    b.write("pages/todo.md", _outline(30))
    assert _tiers(b)["B"]["tier"] == "R"


def _numbered_report(sections: int, subsections: int, bullets: int, title: str = "STOCK-OUT REVIEW") -> str:
    """A plain-text report: a title underlined with `===`, numbered sections and subsections
    (`1. Purpose`, `1.1 By drug`), each a handful of bullet points."""
    out = [title, "=" * len(title), ""]
    for s in range(1, sections + 1):
        out += [f"{s}. Section {s}", ""]
        for k in range(1, subsections + 1):
            if subsections > 1:
                out.append(f"{s}.{k} Detail {k}")
            out += [f"- item {s}.{k}.{j}: count checked against the system" for j in range(bullets)] + [""]
    return "\n".join(out) + "\n"


def test_a_plain_text_reports_numbered_sections_are_headings(session_builder):
    # Hospital pharmacists write their reports as .txt: a title underlined with `===`, sections
    # numbered `1.` and `1.1`, each a few bullet points (alt568). Markdown's `#` alone counted as
    # headings, so three such reports in a session (300 lines) read as bullet notes: a
    # comprehensive writer called minimal at p 0.92. The outline is the document's headings.
    b = session_builder("reports")
    for name in ("stock-out review", "interventions", "ward detail"):
        b.write(f"Pharmacy/{name}.txt", _numbered_report(5, 2, 9), gap_ms=600_000)
    sig = _signals(b)["B"]
    assert sig["heading_depth"] == 3 and sig["list_share"] >= 0.75, sig  # bullets throughout (tiers.BULLET_SHARE)
    assert _tiers(b)["B"]["tier"] == "L"
    # one level of numbered sections under the title is a balanced report's two levels
    b = session_builder("summary")
    b.write("Pharmacy/P&T summary.txt", _numbered_report(8, 1, 12, "P&T COMMITTEE SUMMARY"))
    assert _signals(b)["B"]["heading_depth"] == 2
    assert _tiers(b)["B"]["tier"] == "M"
    # a numbered list with blank lines between its items is a list, not an outline
    b = session_builder("list")
    b.write("todo.txt", "To do\n=====\n\n" + "\n\n".join(f"{i}. Call the ward about item {i}" for i in range(1, 60)) + "\n")
    assert _signals(b)["B"]["heading_depth"] == 0


def test_a_verbose_minimal_writer_keeps_their_verbosity(session_builder):
    # Bullet notes of 75-100 lines in most sessions and now and then a 170-line page of
    # prose: the bullet lists are this person's notes, three times a typical note's length,
    # so the prose is long only for a typical writer. Their writing is as even as the
    # summary writer's above; the bullets say it is notes.
    def make(b, i):
        if i % 4 == 3:
            b.write("page.md", _doc(170))
        else:
            b.write("notes.md", _doc(75 + 2 * i, bullets=True))
    est = _user(session_builder, make, 16)["B"]
    assert est.tier == "R"


def test_copying_a_tree_is_not_organising(session_builder):
    # A backup copy of a project into backup/2026-04/docs/...: the folders mirror the source
    # tree, made in one burst by a program or a drag; the person made no hierarchy.
    b = session_builder()
    b.write("report.md", _doc(30))
    for d in ("backup", "backup/2026-04", "backup/2026-04/docs"):
        b.add("dir_create", dir_path=d, depth=d.count("/") + 1, gap_ms=5)
    b.add("file_copy", source_path="docs/a.md", dest_path="backup/2026-04/docs/a.md", gap_ms=5)
    b.add("file_copy", source_path="report.md", dest_path="backup/2026-04/report.md", gap_ms=5)
    assert _signals(b)["C"]["dirs"] == 0 and _tiers(b)["C"]["tier"] == "R"
    # sorting files into a new folder is organising
    b.add("dir_create", dir_path="archive/2026", depth=2)
    b.add("file_move", old_path="report.md", new_path="archive/2026/report.md")
    assert _signals(b)["C"]["dirs"] == 1


def test_a_programs_timed_backups_and_their_folders_are_not_organising(session_builder):
    # Logseq keeps a version of each page it saves as `logseq/bak/pages/<page>/<time>.md`,
    # named by the second it wrote it, and makes the page's folder for it (alt297). Before, a
    # flat note-taker read as a deep nester at p 0.99-1.00 from those folders alone. A backup
    # the person files under a dated name is still theirs.
    import datetime as dt

    b = session_builder("logseq")
    b.write("pages/launch-plan.md", _doc(30))
    b.add("dir_create", dir_path="logseq/bak/pages/launch-plan", depth=4, gap_ms=400)
    stamp = dt.datetime.fromtimestamp((b.t + 2_500) / 1000, dt.UTC).strftime("%Y_%m_%dT%H_%M_%S_120Z")
    b.write(f"logseq/bak/pages/launch-plan/{stamp}.Desktop.md", _doc(30), gap_ms=2_500)
    c = _signals(b)["C"]
    assert c["dirs"] == 0 and c["levels_made"] == 0, c
    b = session_builder("own")
    b.write("plan.md", _doc(30))
    b.add("dir_create", dir_path="Backups/2026", depth=2, gap_ms=60_000)
    b.add("file_copy", source_path="plan.md", dest_path="Backups/2026/plan_2026-01-14.md", gap_ms=20_000)
    b.add("dir_create", dir_path="Archive/Q1", depth=2, gap_ms=60_000)
    b.write("Archive/Q1/summary 2023-11-14.md", _doc(30), gap_ms=20_000)
    assert _signals(b)["C"]["dirs"] == 1


def test_files_delivered_into_a_new_folder_within_seconds_are_no_filing(session_builder):
    # A build server drops each build into `Builds/3.5.<n>/` (the app, its symbols, the release
    # notes, seconds apart); a camera department drops `Reports/Day <n>/`. The documents among
    # them are the program's to place, not the person's filing. A flat tester writes every bug
    # report at the root (alt501, alt500: flat people read as moderate organisers at
    # p 0.65-0.97). A folder the person makes and saves a document into, or moves files into
    # at once, stays their filing.
    def tester(b, i):
        b.add("dir_create", dir_path=f"Builds/3.5.{380 + i}", depth=1, gap_ms=60_000)
        for k, name in enumerate((f"tidefall-3.5.{380 + i}.apk", "symbols.zip", "RELEASE_NOTES.txt")):
            b.write(f"Builds/3.5.{380 + i}/{name}", "build artefact\n", snapshot=False, gap_ms=2_000 + 500 * k)
        b.write(f"QA-{2000 + i}_bug.md", _doc(20), gap_ms=600_000)
    c = _signals(_user_session(session_builder, tester))["C"]
    assert c["dirs"] == 0 and c["levels_made"] == 0, c
    assert c["docs_below"] == 0 and c["docs_at_root"] == 1, c  # the release notes were the server's to place
    assert _user(session_builder, tester, 8)["C"].tier == "R"
    b = session_builder("own")
    b.add("dir_create", dir_path="reports/3.5", depth=2)
    b.write("reports/3.5/QA-2031_bug.md", _doc(20), gap_ms=40_000)
    b.write("reports/3.5/QA-2032_bug.md", _doc(20), gap_ms=60_000)
    b.add("dir_create", dir_path="triage", depth=1, gap_ms=60_000)
    for k in range(2):
        b.add("file_move", old_path=f"QA-19{k}.md", new_path=f"triage/QA-19{k}.md", gap_ms=1_500)
    assert _signals(b)["C"]["dirs"] == 2


def test_a_folder_named_for_its_day_is_no_filing_unless_files_are_moved_into_it(session_builder):
    # A collection database exports a day's object records into `Exports/<date>/` and its
    # thumbnails into `thumbs/` below, half a minute apart, too slowly for any speed rule
    # (alt473: flat curators read as moderate organisers from those folders alone). People of
    # every filing habit make folders named for the day. One the person moves their files
    # into, or a folder of their own naming, stays their filing.
    import datetime as dt

    def day(b, **delta):
        return (dt.datetime.fromtimestamp(b.t / 1000, dt.UTC) + dt.timedelta(**delta)).strftime("%Y-%m-%d")

    def export(b, i):
        b.add("dir_create", dir_path=f"Exports/{day(b)}", depth=2, gap_ms=60_000)
        b.write(f"Exports/{day(b)}/objects_export.csv", "id,title\n1,bowl\n", gap_ms=30_000)
        b.add("dir_create", dir_path=f"Exports/{day(b)}/thumbs", depth=3, gap_ms=30_000)
        b.write(f"Exports/{day(b)}/thumbs/1979_24_1.jpg", "\x00", snapshot=False, gap_ms=30_000)
        b.write(f"wall-text-{i}.md", _doc(30), gap_ms=120_000)
    c = _signals(_user_session(session_builder, export))["C"]
    assert c["dirs"] == 0 and c["levels_made"] == 0, c
    est = _user(session_builder, export, 6)["C"]
    assert est.counts.get("M", 0) == est.counts.get("L", 0) == 0, est
    b = session_builder("own")
    b.write("IMG_0412.jpg", "\x00", snapshot=False)
    b.add("dir_create", dir_path=f"Site visits/{day(b)} Harbor St", depth=2, gap_ms=60_000)
    b.add("file_move", old_path="IMG_0412.jpg", new_path=f"Site visits/{day(b)} Harbor St/IMG_0412.jpg",
          gap_ms=20_000)
    b.add("dir_create", dir_path=f"Notes/{day(b, days=-3)}", depth=2, gap_ms=60_000)  # another day's
    b.write(f"Notes/{day(b, days=-3)}/minutes.md", _doc(30), gap_ms=20_000)
    assert _signals(b)["C"]["dirs"] == 2


def test_a_folder_outside_the_workspace_is_no_level_of_the_persons_tree(session_builder):
    # Windows File History mirrors Documents on a backup drive, twelve levels down; the
    # importer keeps a path outside the workspace by its name alone (`external/<name>`,
    # filegram.schema.EXTERNAL_PREFIX), so the folder's place in the person's tree is
    # unknown (alt301: flat brokers read as nesting from it).
    from filegram.schema import EXTERNAL_PREFIX

    b = session_builder("filehistory")
    b.write("renewal letter.txt", _doc(20))
    b.add("dir_create", dir_path=f"{EXTERNAL_PREFIX}/Renewal 2026", depth=12, gap_ms=600_000)
    b.add("file_copy", source_path="renewal letter.txt",
          dest_path=f"{EXTERNAL_PREFIX}/renewal letter (2026_10_07 09_15_53 UTC).txt", is_backup=True, gap_ms=300)
    c = _signals(b)["C"]
    assert c["dirs"] == 0 and c["max_dir_depth"] == 0, c


def test_a_figures_folder_is_visual_output_not_organising(session_builder):
    # Charts saved into a folder of their own ("figures", "Abbildungen", "图表": any name) are
    # how a visual person delivers (table 2, F), not a hierarchy: a flat person who makes
    # charts every session was read as an organiser.
    def make(b, i):
        b.add("dir_create", dir_path=f"plots{i}", depth=1)
        b.write(f"plots{i}/chart.png", "\x89PNG")
        b.write("report.md", _doc(30))
    est = _user(session_builder, make, 12)
    assert est["C"].tier == "R" and est["F"].tier == "L"
    # a folder that also receives a document is organising
    b = session_builder()
    b.add("dir_create", dir_path="figures", depth=1)
    b.write("figures/chart.png", "\x89PNG")
    b.write("figures/readme.md", _doc(5))
    assert _signals(b)["C"]["dirs"] == 1


def test_thin_evidence_is_unknown(session_builder):
    est = _user(session_builder, lambda b, i: b.write("r.md", _doc(30)), 1)
    assert est["C"].tier == "unknown" and est["C"].confidence == 0.0
    # no chance at all (nothing deleted, no scratch left): unknown, not "never deletes"
    assert est["E"].tier == "unknown" and est["E"].sessions == 0


def test_confidence_grows_with_consistent_evidence(session_builder):
    def make(b, i):
        for k in range(3):
            b.write(f"tmp_{k}.md", "x\n")
            b.add("file_delete", file_path=f"tmp_{k}.md", file_age_ms=1.0, was_temporary=True)
    few, many = _user(session_builder, make, 3)["E"], _user(session_builder, make, 12)["E"]
    assert few.tier == many.tier == "L"
    assert many.confidence > few.confidence


def test_reading_style_is_judged_against_the_users_own_lines(session_builder):
    # Long lines (80 characters): a read of lines 1-60 of a 4,800-character file is the whole
    # file, not its head; with a fixed guess of characters per line it would look like skimming.
    def make(b, i):
        for k in range(4):
            b.read(f"in/f{k}.md", view_range=[1, 60], content_length=4800)
        b.read("in/f0.md", view_range=[1, 60], content_length=4800, view_count=2)
    assert _user(session_builder, make, 6)["A"].tier == "L"


def test_tool_actions_are_not_the_persons(session_builder):
    # an unpacked archive: 20 documents written by tar, not by the person
    b = session_builder()
    for k in range(20):
        b.write(f"pkg/doc_{k}.md", _doc(120))
    for e in b.events:
        e["authored"] = False
    assert _signals(b)["B"]["docs"] == 0 and "B" not in _tiers(b)


def test_task_labels_only_sharpen(session_builder):
    sigs = []
    for i in range(3):
        b = session_builder(f"s{i}")
        b.add("dir_create", dir_path="a", depth=1, sibling_count=0)
        b.write("a/r.md", _doc(30))
        sigs.append(_signals(b))
    # T-01 (understand: A, B) does not exercise C: those sessions count half on C
    off_task = user_tiers(sigs, ["T-01"] * 3)["C"]
    unlabelled = user_tiers(sigs)["C"]
    assert off_task.opportunities == unlabelled.opportunities / 2
    assert unlabelled.tier == "M" and off_task.confidence < unlabelled.confidence


def test_profile_matching():
    est = {"A": {"tier": "M", "confidence": 0.9}, "B": {"tier": "R", "confidence": 0.9}, "C": {"tier": "R", "confidence": 0.8}}
    scores = match_profiles(est, {"p3": {"A": "M", "B": "R", "C": "R"}, "p1": {"A": "L", "B": "L", "C": "L"}})
    assert scores["p3"] > scores["p1"]


def test_descriptions_are_table_2():
    assert DIMENSIONS["C"].tiers == {"L": "deeply nested (3+ levels, moves into subfolders)",
                                     "M": "adaptive (1-2 levels)", "R": "flat (root only)"}
    assert [d.name for d in DIMENSIONS.values()] == ["Consumption", "Production", "Organization", "Iteration",
                                                     "Curation", "Cross-modal"]
    assert session_tiers({}, None) == {}


def test_a_sync_clients_staging_copy_is_not_the_persons_cleanup(session_builder):
    # A sync client stages each saved file as a hidden copy named after it and deletes the
    # copy seconds later: someone who never deletes anything showed no curation. A hidden
    # file of their own (.env), or a scratch file they made and removed, still counts.
    b = session_builder()
    b.write("Brief/Copy deck v1.md", _doc(40))
    for k in range(3):
        b.edit("Brief/Copy deck v1.md", 3, 1)
        b.write(f"Brief/.Copy deck v1.md.sync-ab{k}f43.tmp", _doc(40), gap_ms=1_000)
        b.add("file_delete", 4_000, file_path=f"Brief/.Copy deck v1.md.sync-ab{k}f43.tmp", file_age_ms=4_000,
              was_temporary=True)
    sig = _signals(b)["E"]
    assert (sig["cleaned"], sig["deletes"]) == (0, 0)
    b.write("Brief/scratch ideas.md", _doc(5))
    b.add("file_delete", 60_000, file_path="Brief/scratch ideas.md", file_age_ms=60_000, was_temporary=True)
    b.write(".env", "KEY=1\n")
    b.add("file_delete", 60_000, file_path=".env", file_age_ms=60_000)
    assert _signals(b)["E"]["cleaned"] == 2


def test_a_sync_conflict_copy_is_a_duplicate(session_builder):
    # Dropbox's "(conflicted copy <date>)" and Syncthing's ".sync-conflict-" files are
    # duplicates a tidy person removes, like "notes (1).md".
    from filegram.naming import looks_like_backup
    assert looks_like_backup("Plans/deck v1 (conflicted copy 2026-02-25).md")
    assert looks_like_backup("Plans/deck v1 (Zoë's conflicted copy 2026-02-25).md")
    assert looks_like_backup("notes.sync-conflict-20260225-120000-ABCDEF.md")
    assert not looks_like_backup("Plans/conflict resolution notes.md")
    b = session_builder()
    b.add("file_delete", file_path="Plans/deck v1 (conflicted copy 2026-02-25).md", file_age_ms=9e8)
    assert _signals(b)["E"]["superseded"] == 1


def test_a_document_typed_on_in_editor_saves_is_as_long_as_what_was_typed(session_builder):
    # An editor that saves every half minute logs a six-line start, then the typing as small
    # edits: the report written is the 200 lines it ended with, not the stub.
    b = session_builder()
    b.write("minutes.md", _doc(6))
    for _ in range(32):
        b.edit("minutes.md", 6, 0)
    sig = _signals(b)["B"]
    assert (sig["docs"], sig["lines"]) == (1, 198)
    # a document written whole and then revised in edits is as long as it was written: the
    # edits are iteration (D), and 20 lines added to a 40-line note keep it a note
    b = session_builder()
    b.write("note.md", _doc(40))
    for _ in range(4):
        b.edit("note.md", 5, 0)
    assert _signals(b)["B"]["lines"] == 40


def test_going_back_to_one_of_two_files_is_not_deep_reading(session_builder):
    # Someone reading the config they are about to change and going back to it once has not
    # read "whole files in order, with revisits": a revisit counts in full from three files
    # read on.
    b = session_builder()
    b.read("etc/nginx.conf")
    b.read("runbook.md")
    b.read("etc/nginx.conf", view_count=2)
    assert _tiers(b).get("A", {}).get("tier") != "L"
    b = session_builder()
    for f in ("a.md", "b.md", "c.md"):
        b.read(f)
    b.read("a.md", view_count=2)
    assert _tiers(b)["A"]["tier"] == "L"


def test_removing_the_one_leftover_every_time_is_less_pragmatic_than_now_and_then(session_builder):
    # A tidy person cleans as they go, so each session leaves them one scratch file, which
    # they remove every time; someone else removes it in half their chances. Removing it
    # every time is table 2's selective habit more than the other's "occasional cleanup":
    # the rate is what tells them apart (one removal per session cannot show "removes 2+").
    def person(removes):
        def make(b, i):
            b.write("a.md", _doc(30))
            b.write("tmp_notes.md", "scratch\n")
            if removes(i):
                b.add("file_delete", file_path="tmp_notes.md", file_age_ms=1.0, was_temporary=True)
        return _user(session_builder, make, 10)["E"]
    every_time = person(lambda i: True)
    half = person(lambda i: i % 2 == 0)
    assert every_time.posterior["L"] > half.posterior["L"]
    assert every_time.posterior["M"] < half.posterior["M"]
    # read as "one file at a time", a single removal was occasional cleanup and made both of
    # them pragmatic; it says "removed", and the rate decides
    assert every_time.tier == "L", every_time
    assert person(lambda i: i % 3 == 0).tier == "M"


def test_a_draft_is_the_document_being_written(session_builder):
    # Found on a held-out model of comic writers: each session's script is written as
    # `04화_대본_draft.md` (script, draft), 80-150 lines. The name read as a scratch file's, the
    # script was no production at all, and balanced writers were called minimal (R, p = 0.8).
    # A scratch file stays none; a draft left beside its final version is still a leftover (E).
    def make(b, i):
        b.write(f"0{i}화_dialogue_dump.md", _doc(20))
        b.write(f"0{i}화_대본_draft.md", _doc(110))
    assert _signals(_user_session(session_builder, make))["B"]["largest"] == 110
    assert _user(session_builder, make, 6)["B"].tier == "M"
    b = session_builder()
    b.write("notes.md", _doc(20))
    b.write("tmp_draft.md", _doc(110))
    assert _signals(b)["B"]["largest"] == 20


def test_a_table_typed_into_a_stub_is_the_documents(session_builder):
    # An editor saving as the person types: the file starts as a heading, the budget table
    # arrives in the edits. The table is in what they wrote (F), as the length is (B).
    from filegram.store import content_hash

    b = session_builder()
    b.write("budget.md", "# Budget\n")
    rows = ["| item | cost |", "|---|---|"] + [f"| line {k} | {k * 10} |" for k in range(6)]
    for k in range(0, len(rows), 2):
        diff = "--- a/budget.md\n+++ b/budget.md\n@@ -1,0 +1,2 @@\n" + "".join(f"+{r}\n" for r in rows[k:k + 2])
        h = content_hash(diff.encode())
        b.blobs[h] = diff.encode()
        b.add("file_edit", file_path="budget.md", file_type="md", lines_added=2, lines_deleted=0, diff_summary="+2 -0",
              media_ref_diff={"type": "diff", "hash": h, "path": f"media/diffs/{h}.diff"})
    sig = _signals(b)
    assert sig["B"]["lines"] == 9 and sig["F"]["table_rows"] == 7


def test_edits_logged_without_line_counts_are_measured_on_their_diffs(session_builder):
    # A recorder that keeps each edit's diff but not its counts (they are optional): a
    # balanced reviser's 20-30 line edits are not zero-line touch-ups.
    from filegram.store import content_hash

    def make(b, i):
        for k in range(3):
            diff = (f"--- a/report.md\n+++ b/report.md\n@@ -{k * 40 + 1},10 +{k * 40 + 1},15 @@\n"
                    + "".join(f"-old line {j}\n" for j in range(10))
                    + "".join(f"+new line {i} {k} {j}\n" for j in range(15)))
            h = content_hash(diff.encode())
            b.blobs[h] = diff.encode()
            b.add("file_edit", 60_000, file_path="report.md", file_type="md", lines_added=None, lines_deleted=None,
                  media_ref_diff={"type": "diff", "hash": h, "path": f"media/diffs/{h}.diff"})
    est = _user(session_builder, make, 6)
    assert est["D"].tier == "M", est["D"]


def test_a_web_clipping_is_not_the_persons_writing(session_builder):
    # A web clipper saves the page with front matter naming where it came from: its 60 lines
    # are the article's, not what the person wrote (B) nor tables they made (F). Front matter
    # of their own (tags, a date) keeps a document theirs.
    clip = "---\nsource: https://example.org/water/123\nclipped: 2026-02-08\n---\n\n" + _doc(55) + \
        "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n"
    b = session_builder()
    b.write("vault/clips/water-contracts.md", clip)
    b.write("drafts/notes.md", "---\ntags: [water]\n---\n" + _doc(20, bullets=True))
    sig = _signals(b)
    assert (sig["B"]["docs"], sig["B"]["lines"]) == (1, 23)
    assert sig["F"]["table_rows"] == 0


def test_a_script_writing_its_csv_again_is_no_rewrite_and_a_notebook_save_is_an_edit(session_builder):
    # An analyst re-runs their script, which writes the summary CSV again, and saves their
    # notebook (Jupyter writes the whole file) after changing one cell: neither is table 2's
    # bulk rewrite. The notebook save is an edit of the lines that changed.
    cells = [{"cell_type": "code", "source": [f"x{k} = load({k})\n", f"plot(x{k})\n"], "outputs": []} for k in range(30)]
    before = json.dumps({"cells": cells, "nbformat": 4}, indent=1)
    cells[3]["source"][1] = "plot(x3, bins=40)\n"
    after = json.dumps({"cells": cells, "nbformat": 4}, indent=1)
    b = session_builder()
    b.write("analysis.ipynb", before)
    b.write("summary.csv", "a,b\n1,2\n")
    b.write("summary.csv", "a,b\n1,3\n", op="overwrite")
    b.write("analysis.ipynb", after, op="overwrite")
    sig = _signals(b)["D"]
    assert sig["overwrites"] == 0 and sig["edits"] == 1


def test_depth_counts_the_levels_a_person_made_not_the_tree_they_were_given(session_builder):
    # An accountant files into the firm's Close/2024/03-March tree and adds one folder there:
    # one level of their own (M), not table 2's deep nester. The same folder made in a tree
    # they built in an earlier session is their own deep structure; `mkdir -p a/b/c` logged
    # as its deepest folder alone is three levels made.
    def given(b, i):
        b.read(f"Close/2024/03-March/trial_balance_{i}.csv")
        b.add("dir_create", dir_path="Close/2024/03-March/Accruals", depth=4, sibling_count=2)
        b.add("file_move", old_path=f"Inbox/inv_{i}.pdf", new_path=f"Close/2024/03-March/Accruals/inv_{i}.pdf",
              destination_directory_depth=4)
    sig = _signals(_user_session(session_builder, given))["C"]
    assert (sig["max_dir_depth"], sig["levels_made"]) == (4, 1)
    # Whose the three levels above it are, the session does not say (a nester's own tree from
    # before the recording looks the same): such sessions count for L or M alike, against R.
    est = _user(session_builder, given, 6)["C"]
    assert est.tier != "L" and est.posterior["R"] < 0.05, est

    def mixed(b, i):  # with the folders of their own they make one or two levels deep: M
        if i % 2:
            given(b, i)
        else:
            b.add("dir_create", dir_path=f"Letters {i}", depth=1, sibling_count=i)
            b.write(f"Letters {i}/engagement.md", _doc(20))
    assert _user(session_builder, mixed, 8)["C"].tier == "M"

    def built(b, i):
        if i == 0:  # the first session lays out the tree
            b.add("dir_create", dir_path="Clients/Ames/2024", depth=3, sibling_count=0)
            b.write("Clients/Ames/2024/intake.md", _doc(20))
        else:  # later ones add a visit's folder to it
            b.read("Clients/Ames/2024/intake.md")
            b.add("dir_create", dir_path=f"Clients/Ames/2024/visit_{i}", depth=4, sibling_count=i)
            b.write(f"Clients/Ames/2024/visit_{i}/report.md", _doc(30))
    assert _user(session_builder, built, 6)["C"].tier == "L"

    b = session_builder()
    b.add("dir_create", dir_path="projects/alpha/drafts", depth=3, sibling_count=0)
    b.write("projects/alpha/drafts/plan.md", _doc(20))
    assert _signals(b)["C"]["levels_made"] == 3 and _tiers(b)["C"]["tier"] == "L"


def test_documents_filed_below_the_root_are_not_a_flat_persons(session_builder):
    # A researcher who never makes a folder but saves every note in notes/ and every draft in
    # paper/ does not keep things at the root only (table 2's R): their many sessions without
    # a folder made no longer read as flat (nor, by that alone, as L or M). One who saves at the root stays flat, and one who
    # files below now and then (a slip, a folder the task named) too.
    def filer(every: int):
        def make(b, i):
            b.read("notes/reading_list.md")
            where = ("notes/" if i % 2 else "paper/") if i % every == 0 else ""
            b.write(f"{where}note_{i}.md", _doc(20))
        return make
    est = _user(session_builder, filer(1), 12)["C"]
    assert est.tier != "R" and est.posterior["R"] < 0.05  # not flat; how deep, the folders they make tell
    assert _user(session_builder, filer(10 ** 6), 12)["C"].tier == "R"
    assert _user(session_builder, filer(6), 12)["C"].tier == "R"


def test_one_folder_that_holds_everything_is_the_persons_root(session_builder):
    # A statistical programmer keeps everything they make in their study's folder, one level
    # below the recorder's Documents/Studies: nothing at the workspace root, no folder ever
    # made. Before, every session "filed below the root" and the flat person read as an
    # organiser (C called L or M). Someone who files into several folders still does not
    # read as flat.
    def make(b, i, folders=("CRD-204/",)):
        b.read("CRD-204/protocol.md")
        b.write(f"{folders[i % len(folders)]}note_{i}.md", _doc(20))
    est = _user(session_builder, make, 12)["C"]
    assert est.tier in ("R", "unknown") and est.posterior["R"] > 0.5, est
    est = _user(session_builder, lambda b, i: make(b, i, ("CRD-204/notes/", "CRD-204/drafts/", "CRD-204/qc/")), 12)["C"]
    assert est.tier != "R" and est.posterior["R"] < 0.05, est


def test_removing_what_a_build_wrote_again_is_the_builds_housekeeping(session_builder):
    # latexmk rewrites main.aux and main.log after every save of the paper; `latexmk -c`
    # removes them at the end of the day. They existed before the session (overwrites, not
    # creates), but a program wrote them in it: their removal is no curation habit. A
    # scratch note the person made and threw away still is.
    b = session_builder()
    b.write("paper/main.tex", _doc(40), op="overwrite")
    for name in ("main.aux", "main.log"):
        b.add("file_write", 1_000, file_path=f"paper/{name}", file_type=name.rsplit(".", 1)[1], directory_depth=1,
              operation="overwrite", content_length=900, authored=False)
    b.add("file_read", 600_000, file_path="paper/main.tex", file_type="tex", view_count=2)  # the clean comes later
    for name in ("main.aux", "main.log"):
        b.add("file_delete", 100, file_path=f"paper/{name}", file_age_ms=9e8, was_temporary=True)
    e = _signals(b)["E"]
    assert (e["cleaned"], e["deletes"]) == (0, 0) and not e["opp"]
    b.write("paper/scratch_todo.md", "- fix refs\n")
    b.add("file_delete", file_path="paper/scratch_todo.md", file_age_ms=20_000.0)
    assert _signals(b)["E"]["cleaned"] == 1


def test_a_recorder_that_names_the_process_says_whose_action_it_was(session_builder):
    # fanotify, fs_usage and ETW name the process: `git pull` rewriting three documents and
    # `make clean` removing the built pages are programs', the person's `rm` of a scratch
    # note in a shell is theirs.
    def by(process: str) -> None:  # a field of the producer's own, beside the format's
        b.events[-1]["process"] = process

    b = session_builder()
    for i in range(3):
        b.add("file_write", 5_000 if i == 0 else 40, file_path=f"docs/design_{i}.md", file_type="md",
              directory_depth=1, operation="overwrite", content_length=4000)
        by("git")
    b.add("file_delete", 60_000, file_path="build/html/index.html", file_age_ms=9e8)
    by("/usr/bin/make")
    b.add("file_delete", 60_000, file_path="scratch_ideas.md", file_age_ms=9e8)
    by("bash")
    sig = _signals(b)
    assert sig["D"]["overwrites"] == 0
    assert sig["E"]["deletes"] == 1 and sig["E"]["cleaned"] == 1


def test_a_drafts_tables_are_the_persons_tables(session_builder):
    # An epidemiologist's weekly report is `measles_weekly_W02_draft.md`, with the week's
    # counts as a table: a draft is the document being written, so its table is theirs (F),
    # as its writing is (B). A scratch file's table is not.
    table = "| Week | Confirmed | Probable |\n|---|---:|---:|\n| 23 | 16 | 10 |\n| 24 | 25 | 9 |\n"
    b = session_builder()
    b.write("Reports/Measles/measles_weekly_W02_draft.md", _doc(20) + table)
    assert _signals(b)["F"]["table_rows"] >= 2
    b = session_builder()
    b.write("Reports/Measles/tmp_counts.md", _doc(20) + table)
    assert _signals(b)["F"]["table_rows"] == 0


def test_pictures_gathered_in_an_images_folder_are_visual_work(session_builder):
    # A curator copies the exhibition's object photographs into its `images/` folder beside
    # the label texts: nothing drawn, but the work is made of pictures (alt473's curators read
    # as text-only). The same photographs copied into a backup folder are only kept.
    def make(b, i, folder):
        b.write(f"Exhibitions/Light/labels-{i}.md", _doc(20))
        for k in range(3):
            b.add("file_copy", 20_000, source_path=f"Collection/1979_24_{i}{k}.jpg",
                  dest_path=f"Exhibitions/Light/{folder}/1979_24_{i}{k}.jpg")
    gathered = _user(session_builder, lambda b, i: make(b, i, "images"), 6)["F"]
    assert gathered.tier == "L", gathered
    kept = _user(session_builder, lambda b, i: make(b, i, "Backup"), 6)["F"]
    assert kept.counts.get("L", 0) == 0 and kept.tier != "L", kept


def test_a_photo_from_the_camera_is_visual_output_only_where_a_document_shows_it(session_builder):
    # A phone's camera roll syncs IMG_8424.jpg into the notes folder: what the person saw, not
    # a chart they made. The inspector who embeds it in the report uses it; a chart exported
    # under a name of one's own is visual output either way.
    b = session_builder()
    b.write("Photos/2024-05-18/IMG_8424.jpg", "\x00bytes", snapshot=False)
    b.write("notes 2024-05-18.md", _doc(10))
    assert _signals(b)["F"]["images"] == 0
    b.write("report.md", _doc(20) + "![roof](Photos/2024-05-18/IMG_8424.jpg)\n")
    assert _signals(b)["F"]["images"] == 1
    c = session_builder()
    c.write("figures/readings_chart.png", "\x00bytes", snapshot=False)
    assert _signals(c)["F"]["images"] == 1


def test_a_programs_sidecar_of_a_file_and_its_metadata_xml_are_not_data_output(session_builder):
    # Found on a held-out model of GIS analysts: opening a raster makes the GIS program write
    # `<raster>.aux.xml` beside it, and a metadata export is XML; text-only people were
    # called visual-heavy at p = 1.0 on those files. A CSV of one's own is data output still.
    b = session_builder()
    b.read("data/rivers.tif")
    b.write("data/rivers.tif.aux.xml", "<PAMDataset/>", snapshot=False)
    b.write("report/metadata_20240301.xml", "<metadata/>", snapshot=False)
    b.write("report/notes.md", _doc(20))
    b.read("photos/roof.jpg")  # a photo manager's sidecar of it (JSON: data, were it the person's)
    b.write("photos/roof.jpg.json", '{"title": "roof"}', snapshot=False)
    sig = _signals(b)
    assert sig["F"]["data_files"] == 0 and sig["F"]["images"] == 0, sig["F"]
    b.write("report/zonal_stats.csv", "zone,mean\n1,2\n", snapshot=False)
    assert _signals(b)["F"]["data_files"] == 1
    # a backup of one's own file keeps its rule (the person's), a companion never renamed
    from filegram.memory.features import clean_events

    c = session_builder()
    c.write("plan.md", _doc(10))
    c.write("plan.md.bak", _doc(10))
    evs = clean_events(c.events)
    assert all(e.get("authored", True) for e in evs), evs


def _notebook(cells: list[list[str]], outputs: int = 0) -> str:
    """A notebook as Jupyter saves it: JSON around the cells, each cell's output a chart."""
    chart = [{"output_type": "display_data", "data": {"image/png": "iVBORw0KGgo" + "A" * 60 + str(k)}}
             for k in range(outputs)]
    return json.dumps({"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": chart,
                                  "source": src} for src in cells], "metadata": {}, "nbformat": 4}, indent=1)


def test_a_new_notebook_autosaved_as_it_grows_is_writing_not_rewriting(session_builder):
    # JupyterLab saves the whole notebook every two minutes: a notebook begun in the session
    # grows by a cell per save, each an overwrite whose first ones change a large share of a
    # small file. That is the writing of it, not table 2's bulk rewrite; Jupyter's staging
    # copy (`.~name.ipynb`, removed 50 ms later) is neither a backup nor a cleanup.
    def make(b, i):
        cells: list[list[str]] = [[]]
        b.write(f"eda_{i}.ipynb", _notebook(cells))
        for k in range(6):
            cells = [*cells[:-1], [f"df{k} = load('part{k}.csv')\n", f"df{k}.describe()\n"], []]
            b.write(f"eda_{i}.ipynb", _notebook(cells), op="overwrite", gap_ms=120_000)
            if k in (2, 4):
                b.add("file_copy", source_path=f"eda_{i}.ipynb", dest_path=f".~eda_{i}.ipynb", is_backup=True)
                b.add("file_delete", 50, file_path=f".~eda_{i}.ipynb", file_age_ms=50, was_temporary=True)
    sig = _signals(_user_session(session_builder, make))
    assert (sig["D"]["overwrites"], sig["D"]["blind_saves"], sig["D"]["backups"]) == (0, 0, 0), sig["D"]
    assert sig["E"]["cleaned"] == 0, sig["E"]
    est = _user(session_builder, make, 6)
    assert est["D"].counts["R"] == 0 and est["E"].counts["L"] == est["E"].counts["M"] == 0, (est["D"], est["E"])

    # a notebook one had before, emptied and written anew, is still rewritten
    def rewrite(b, i):
        b.write(f"model_{i}.ipynb", _notebook([[f"fit_{k}(x)\n"] for k in range(20)]))
        b.write(f"model_{i}.ipynb", _notebook([[f"train_{k}(y, epochs=3)\n"] for k in range(20)]), op="overwrite")
    assert _signals(_user_session(session_builder, rewrite))["D"]["overwrites"] == 1


def test_a_notebook_save_is_measured_on_its_cells_not_its_outputs(session_builder):
    # Re-running a notebook replaces every chart among its outputs; the person changed one
    # line of one cell. The save of a backed-up notebook whose text is known is diffed (not
    # a "blind" save of a file no one can read) and is a one-line edit.
    cells = [[f"x{k} = load({k})\n", f"plot(x{k})\n"] for k in range(12)]
    changed = [list(c) for c in cells]
    changed[3][1] = "plot(x3, bins=40)\n"

    def make(b, i):
        b.read("analysis.ipynb", view_range=[1, 200], content_length=9000)
        b.add("file_copy", source_path="analysis.ipynb", dest_path="analysis_old.ipynb", is_backup=True)
        b.write("analysis.ipynb", _notebook(cells, outputs=1), op="overwrite")
        b.write("analysis.ipynb", _notebook(changed, outputs=2), op="overwrite")
    d = _signals(_user_session(session_builder, make))["D"]
    assert (d["overwrites"], d["blind_saves"], d["sizes"]) == (1, 0, [2]), d


def _save(b, path: str, before: str, after: str, gap_ms: float = 60_000):
    """A whole-file save as a recorder that sees only that a file changed logs it: an
    overwrite naming the content it replaced, its new text kept."""
    from filegram.store import content_hash

    h = content_hash(after.encode())
    b.blobs[h] = after.encode()
    return b.add("file_write", gap_ms, file_path=path, file_type=path.rsplit(".", 1)[-1], directory_depth=path.count("/"),
                 operation="overwrite", content_length=len(after), before_hash=content_hash(before.encode()),
                 after_hash=h, media_ref={"type": "blob", "hash": h, "path": f"media/blobs/{h}.blob"})


def _revised(text: str, k: int, n: int) -> str:
    """`text` with n of its lines replaced (pass k)."""
    lines = text.splitlines()
    for j in range(n):
        lines[(k * 3 + j) % len(lines)] = f"Revised line {j} of pass {k}."
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("older_every", [3, 1])
def test_saves_logged_as_whole_file_writes_are_measured_against_the_text_stored_before(session_builder, tmp_path,
                                                                                       older_every):
    # An inotify-like recorder logs no edits: every save of a note is an overwrite. A balanced
    # reviser changes a dozen lines of a note written in an earlier session (its text is in the
    # store), and saves a file older than the recording (its earlier text never stored) every
    # third session or in every one. Before, both read as rewrites in place: a rewriter at
    # p ~ 1; the saves whose text was never stored count at the rate of the person's known
    # saves that rewrote (none here).
    from filegram.memory import Memory

    from filegram.store import Store

    store = Store(tmp_path / "db.sqlite")
    texts = {f"notes/n{k}.md": _doc(40, topic=f"topic {k}") for k in range(3)}
    b = session_builder("s00")
    for path, text in texts.items():
        b.write(path, text)
    b.store_into(store, label="s00")
    for i in range(1, 10):
        b = session_builder(f"s{i:02d}", start_ms=1_700_000_000_000.0 + i * 86_400_000)
        path = f"notes/n{i % 3}.md"
        new = _revised(texts[path], i, 6)
        _save(b, path, texts[path], new)
        texts[path] = new
        if i % older_every == 0:  # a file from before the recording
            _save(b, f"old/brief{i}.md", f"an old brief {i}\n", _doc(30, topic=f"brief {i}"))
        b.store_into(store, label=f"s{i:02d}")
    mem = Memory(store)
    mem.consolidate()
    d = mem.profile()["dimensions"]["D"]
    assert d["tier"] == "M", d
    store.close()


def test_a_save_that_kept_every_line_and_added_some_is_no_rewrite(session_builder):
    # Mix notes grow by a section at a time: every line of the note (stored in an earlier
    # session) kept, 60 added to 40. Before, a change of more than a fifth of the lines was a
    # rewrite in place even with nothing removed.
    from filegram.store import content_hash

    b = session_builder("grow")
    base = _doc(40)
    b.blobs[content_hash(base.encode())] = base.encode()  # the store holds the earlier text
    b.read("other.md", view_range=[1, 10])
    _save(b, "notes.md", base, base + "".join(f"New point {j} for the chorus.\n" for j in range(60)))
    d = _signals(b)["D"]
    assert d["overwrites"] == 0 and d["edits"] == 1 and d["sizes"] == [60], d


def test_a_backup_an_application_makes_as_it_saves_is_neither_a_leftover_nor_a_revisers_backup(session_builder):
    # AutoCAD copies `drawing.dwg` to `drawing.bak` a second before each save. Someone who
    # never deletes anything shows no leftovers from it, and someone who rewrites their
    # drawings shows no incremental reviser's backups.
    b = session_builder("cad")
    b.write("A-301.dwg", "", snapshot=False)
    for _ in range(3):
        b.add("file_copy", 600_000, source_path="A-301.dwg", dest_path="A-301.bak", is_backup=True)
        b.add("file_write", 900, file_path="A-301.dwg", file_type="dwg", directory_depth=0, operation="overwrite",
              content_length=2_000_000)
    sig = _signals(b)
    assert sig["E"]["leftovers"] == 0 and not sig["E"]["opp"], sig["E"]
    assert sig["D"]["backups"] == 0, sig["D"]
    # a copy the person makes before starting on the file is still their backup
    b = session_builder("own")
    b.write("plan.dwg", "", snapshot=False)
    b.add("file_copy", 600_000, source_path="plan.dwg", dest_path="plan_backup.dwg", is_backup=True)
    b.add("file_write", 300_000, file_path="plan.dwg", file_type="dwg", directory_depth=0, operation="overwrite",
          content_length=2_000_000)
    sig = _signals(b)
    assert sig["D"]["backups"] == 1 and sig["E"]["leftovers"] == 1, (sig["D"], sig["E"])


def test_a_backup_an_application_copies_just_after_each_save_is_no_leftover(session_builder):
    # OmegaT autosaves `project_save.tmx` every few minutes and copies it, in the same second,
    # to `project_save.tmx.<time>.bak` (alt290). Before, a translator who removes all their
    # scratch files read as removing one leftover in ten, and so as pragmatic, at p 0.81-0.88.
    b = session_builder("omegat")
    for k in range(4):
        b.write("omegat/project_save.tmx", _doc(20 + k), "overwrite" if k else "create", gap_ms=180_000)
        b.add("file_copy", 400, source_path="omegat/project_save.tmx",
              dest_path=f"omegat/project_save.tmx.2025031010{k:02d}.bak", is_backup=True)
    b.write("terms_tmp.txt", "scratch\n", gap_ms=30_000)
    b.add("file_delete", 120_000, file_path="terms_tmp.txt", file_age_ms=1.2e5, was_temporary=True)
    sig = _signals(b)
    assert sig["E"]["leftovers"] == 1 and sig["E"]["cleaned"] == 1, sig["E"]
    assert sig["D"]["backups"] == 0, sig["D"]
    # a copy the person makes a while after saving is still theirs
    b = session_builder("own")
    b.write("glossary.tsv", "term\tterme\n")
    b.add("file_copy", 90_000, source_path="glossary.tsv", dest_path="glossary.tsv.bak", is_backup=True)
    assert _signals(b)["E"]["leftovers"] == 1

def test_a_leftover_filed_away_is_neither_removed_nor_left(session_builder):
    # An organiser files the old version they made into a `superseded/` folder: it no longer
    # lies around, and it was kept. Before, it counted as a leftover the person did not remove.
    b = session_builder("filed")
    b.write("minutes.md", _doc(30))
    b.add("file_copy", source_path="minutes.md", dest_path="minutes_v1.md", is_backup=True)
    b.add("file_edit", file_path="minutes.md", file_type="md", lines_added=2, lines_deleted=2)
    b.add("dir_create", dir_path="superseded", depth=1, sibling_count=0)
    b.add("file_move", old_path="minutes_v1.md", new_path="superseded/minutes_v1.md", destination_directory_depth=1)
    e = _signals(b)["E"]
    assert e["leftovers"] == 0 and e["cleaned"] == 0 and not e["opp"], e


def test_filing_into_a_deep_tree_already_there_does_not_tell_a_nester_from_a_moderate_organiser(session_builder):
    # A deep nester builds Projects/<artist>/<release>/<song>/ trees in some sessions and, in
    # most others, files bounces into such a tree that was there before the recording. Moving
    # a file four levels down into a tree one did not make in the session is what a moderate
    # organiser working in a firm's deep tree does too: before, those sessions outvoted the
    # nester's folders and called them moderate at p ~ 0.99.
    def make(b, i):
        if i % 3 == 0:
            base = f"Projects/Artist/Release{i}"
            for d in (base, f"{base}/Song", f"{base}/Song/Bounces"):
                b.add("dir_create", dir_path=d, depth=d.count("/") + 1, sibling_count=0)
            b.write(f"{base}/Song/Bounces/notes.md", _doc(10))
        else:
            b.read("Projects/Old Artist/EP/Song/Docs/lyrics.txt", view_range=[1, 20])
            b.write(f"mix v{i}.wav", "", snapshot=False)
            b.add("file_move", old_path=f"mix v{i}.wav", new_path=f"Projects/Old Artist/EP/Song/Bounces/mix v{i}.wav",
                  destination_directory_depth=4)
    est = _user(session_builder, make, 12)["C"]
    assert est.tier == "L", est
    # filing one or two levels down is still a moderate organiser's habit
    def shallow(b, i):
        b.write(f"mix v{i}.wav", "", snapshot=False)
        b.add("file_move", old_path=f"mix v{i}.wav", new_path=f"Bounces/mix v{i}.wav", destination_directory_depth=1)
    assert _user(session_builder, shallow, 12)["C"].tier == "M"


def test_adding_a_folder_deep_in_a_tree_already_there_does_not_tell_a_nester_from_a_moderate_organiser(
        session_builder):
    # A family historian keeps Families/<surname>/Documents/Transcriptions/<decade>/ trees from
    # before the recording and adds a decade's folder at level 5 in most sessions, building
    # whole new branches in a few. Before, each added folder read as one level of the
    # person's own (M) and outvoted the branches (C called M at p 0.97).
    def make(b, i):
        if i % 4 == 0:
            base = f"Research/Census/Surname{i}"
            for d in (f"Research/Census/Surname{i}", f"{base}/1900s", f"{base}/1900s/1901"):
                b.add("dir_create", dir_path=d, depth=d.count("/") + 1, sibling_count=0)
            b.write(f"{base}/1900s/1901/household.md", _doc(20))
        else:
            b.read("Families/Hartley/Documents/Transcriptions/1890s/letter.txt", view_range=[1, 30])
            d = f"Families/Hartley/Documents/Transcriptions/19{i}0s"
            b.add("dir_create", dir_path=d, depth=5, sibling_count=i)
            b.add("file_move", old_path=f"Imports/scan_{i}.txt", new_path=f"{d}/scan_{i}.txt", destination_directory_depth=5)
    assert _user(session_builder, make, 12)["C"].tier == "L"


_LATEX_TABLE = r"""\section{Results}
Soil carbon rose at every site.
\begin{table}[h]
\begin{tabular}{lrr}
\hline
Site & C (g/kg) & N (g/kg) \\
North & 21.4 & 1.9 \\
South & 18.2 & 1.6 \\
\end{tabular}
\end{table}
"""
_LATEX_MATH = r"""\section{Model}
\begin{align}
C_t &= C_0 e^{-kt} \\
k &= 0.02
\end{align}
"""
_LATEX_FIGURE = r"""\section{Depth}
\begin{figure}
\includegraphics[width=\linewidth]{fig23_sampling_depth.pdf}
\caption{Carbon by sampling depth.}
\end{figure}
"""


@pytest.mark.parametrize(("text", "expected"), [(_LATEX_TABLE, "M"), (_LATEX_FIGURE, "L"), (_LATEX_MATH, None),
                                                ("<table><tr><td>a</td><td>1</td></tr><tr><td>b</td><td>2</td></tr></table>\n", "M")],
                         ids=["latex-table", "latex-figure", "latex-math", "html-table"])
def test_tables_and_figures_in_latex_and_html_are_cross_modal_output(session_builder, text, expected):
    # A researcher's results chapter holds a tabular and a figure environment: the table
    # writer's and the figure maker's habits in LaTeX (before, only markdown tables and image
    # files counted, and every one of them read as text only). Math alignment is no table.
    b = session_builder("tex")
    b.write("results.tex" if "\\" in text else "results.html", text)
    f = _signals(b)["F"]
    assert session_tiers(_signals(b))["F"]["tier"] == (expected or "R"), f


def test_a_screenshot_the_os_names_is_no_chart_unless_a_document_shows_it(session_builder):
    # macOS writes `.Screenshot 2026-05-23 at 14.20.47.png` and renames it; a student who
    # writes text only takes screenshots of slides like anyone. Before, each one read as
    # visual-heavy output. One their notes embed is visual work again.
    b = session_builder("shot")
    b.write("notes/lecture-5.md", _doc(30))
    b.write("Desktop/.Screenshot 2026-05-23 at 14.20.47.png", "", snapshot=False)
    b.add("file_rename", 200, old_path="Desktop/.Screenshot 2026-05-23 at 14.20.47.png",
          new_path="Desktop/Screenshot 2026-05-23 at 14.20.47.png", naming_pattern_change="other")
    assert _signals(b)["F"]["images"] == 0
    b = session_builder("shown")
    b.write("Screenshot (12).png", "", snapshot=False)
    b.write("notes/lab.md", _doc(20) + "See Screenshot (12).png for the setup.\n")
    assert _signals(b)["F"]["images"] == 1


def test_a_file_managers_own_files_are_not_the_persons_work(session_builder):
    # Finder rewrites `.DS_Store` as folders are viewed (Explorer `Thumbs.db`, `desktop.ini`):
    # before, each save of it read as a rewrite in place of the person's.
    b = session_builder("finder")
    b.write("Desktop/lab2_report.md", _doc(30))
    b.add("file_edit", file_path="Desktop/lab2_report.md", file_type="md", lines_added=3, lines_deleted=3,
          diff_summary="+3 -3")
    for name in ("Desktop/.DS_Store", "Desktop/Thumbs.db", "Desktop/desktop.ini"):
        b.write(name, "\x00Bud1 view settings\n", op="overwrite")
    d = _signals(b)["D"]
    assert d["overwrites"] == 0, d


def test_deleting_ones_own_older_files_is_a_chance_to_show_cleanup(session_builder):
    # A designer removes the @3x variants of earlier exports in most sessions; nothing names
    # them scratch or a version. Before, those sessions gave E no chance at all and the person
    # read "unknown", like someone who never deletes.
    def make(b, i):
        b.write(f"handoff-{i}.md", _doc(12))
        for k in range(3):
            b.add("file_delete", 30_000, file_path=f"exports/screen{k}_{i}@3x.png", file_age_ms=5e8)
    est = _user(session_builder, make, 8)["E"]
    assert est.tier in ("L", "M") and est.counts.get("L", 0) > 0, est  # three at once: clearing out
    sig = _signals(session_builder("s"))  # a session that deletes nothing gives no chance
    assert not sig["E"]["opp"]


def test_an_audit_logs_process_name_marks_a_programs_deletes(session_builder):
    # Linux audit names the acting process `comm`: logrotate removing the oldest log is the
    # system's housekeeping, not the person's cleanup (before, only `process` was read).
    b = session_builder("audit")
    b.write("runbook.md", _doc(20))
    for gap, path in ((10_000, "logs/app.log.5.gz"), (10, "logs/app.log.1")):
        b.add("file_delete", gap, file_path=path, file_age_ms=5e8)
        b.events[-1].update(comm="logrotate", uid=0)  # fields of the audit log, kept by the importer
    e = _signals(b)["E"]
    assert e["deletes"] == 0 and not e["opp"], e


def test_an_office_apps_save_temporaries_and_a_cancelled_download_are_not_cleanup(session_builder):
    # WPS saves a document through `~wps<hex>.wps~tmp` and deletes it a second later; a browser
    # deletes the `.crdownload` of a download the person cancelled. Before, each such pair read
    # as the person removing a temporary file, and people who never delete anything read as
    # selective (L at p 1.0). A person who removes their own scratch still shows cleanup.
    def make(b, i, tidy=False):
        for k in range(3):
            b.write(f"報告書/~wps4f68{i}{k}.wps~tmp", "", snapshot=False, gap_ms=60_000)
            b.write(f"報告書/政策メモ_{i}.docx", _doc(40), op="create" if k == 0 else "overwrite", gap_ms=900)
            b.add("file_delete", 400, file_path=f"報告書/~wps4f68{i}{k}.wps~tmp", file_age_ms=1300, was_temporary=True)
        b.write(f"Unconfirmed 41365{i}.crdownload", "partial", gap_ms=30_000)
        b.add("file_delete", 4000, file_path=f"Unconfirmed 41365{i}.crdownload", file_age_ms=4000, was_temporary=True)
        if tidy:
            b.write(f"一時_メモ_{i}.txt", "確認事項\n", gap_ms=30_000)
            b.add("file_delete", 300_000, file_path=f"一時_メモ_{i}.txt", file_age_ms=3e5)
    keeper = _user(session_builder, make, 6)
    assert keeper["E"].counts.get("L", 0) == keeper["E"].counts.get("M", 0) == 0, keeper["E"]
    tidy = _user(session_builder, lambda b, i: make(b, i, tidy=True), 6)
    assert tidy["E"].tier == "L", tidy["E"]


@pytest.mark.parametrize(("name", "temporary"), [("一時_メモ.txt", True), ("下書き_報告.md", True), ("임시_노트.txt", True),
                                                 ("臨時ファイル.txt", True), ("報告書.docx", False), ("一覧表.xlsx", False)])
def test_names_that_say_temporary_in_japanese_and_korean_are_scratch(name, temporary):
    # 草稿 and 临时 (Chinese) were known; a Japanese or Korean writer's 一時 and 下書き were
    # documents, so their scratch never gave curation a chance.
    from filegram.naming import looks_temporary

    assert looks_temporary(name) is temporary


def test_photos_are_no_figures_unless_a_document_shows_them(session_builder):
    # A photographer's export of a shoot (`alpine-trail-run-001.jpg` ...) is their work, not a
    # chart or figure made to show something: before, every export session read as visual-heavy
    # output whatever the person's documents looked like. A photo their blog post embeds is
    # shown again; a PNG chart stays a chart.
    b = session_builder("export")
    b.write("notes/shoot.md", _doc(20))
    for k in range(1, 6):
        b.write(f"Exports/2026/alpine/web/alpine-trail-run-00{k}.jpg", "", snapshot=False, gap_ms=25_000)
    assert _signals(b)["F"]["images"] == 0
    b = session_builder("blog")
    b.write("Exports/alpine-trail-run-003.jpg", "", snapshot=False)
    b.write("blog/alpine.md", _doc(20) + "![Ridge](../Exports/alpine-trail-run-003.jpg)\n")
    b.write("blog/pace-chart.png", "", snapshot=False)
    assert _signals(b)["F"]["images"] == 2


def test_a_table_extracted_as_tab_separated_cells_is_a_table(session_builder):
    # Another recorder extracts a Word table as lines of tab-separated cells, not markdown rows:
    # before, an agent's offer summary with its comparables table read as text only. Two tabs in
    # a line of prose, or a single tabbed line, are no table.
    text = _doc(20) + "Address\tBeds\tBaths\tPrice\n551 Foxglove Circle\t4\t2.5\t$1,002,400\n301 Elm Street\t4\t1.5\t$1,251,200\n"
    b = session_builder("tsv")
    b.write("Clients/Offer Summary.docx", text)
    assert _signals(b)["F"]["table_rows"] == 3
    assert session_tiers(_signals(b))["F"]["tier"] == "M"
    b = session_builder("prose")
    b.write("Clients/Notes.docx", _doc(20) + "Called\tthe seller\tat noon.\n")
    assert _signals(b)["F"]["table_rows"] == 0


def test_a_workbook_kept_by_hand_shows_how_its_owner_revises(session_builder):
    # An agent's price sheet is saved whole by the spreadsheet, and another recorder keeps its
    # text as rows of cells. One who replaces every row each time rewrites; one who changes a
    # price or two edits. Before, workbooks counted as data a script regenerates, and a
    # rewriter whose only saves were workbooks read "unknown".
    from filegram.store import content_hash

    rows = "".join(f"{k} Elm Street\t4\t2\t${700 + k},000\n" for k in range(30))
    new_rows = "".join(f"{k} Oak Avenue\t3\t1\t${500 + k},500\n" for k in range(30))
    for after, rewrite in ((new_rows, 1), (rows.replace("$703,000", "$712,000"), 0)):
        b = session_builder("sheet")
        b.blobs[content_hash(rows.encode())] = rows.encode()  # the store holds the earlier text
        _save(b, "Pricing/Price Sheet 2026.xlsx", rows, after)
        d = _signals(b)["D"]
        assert d["opp"] and d["overwrites"] == rewrite and d["edits"] == 1 - rewrite, d


def test_a_programs_database_without_an_extension_is_no_rewrite(session_builder):
    # Unity rewrites `Library/ArtifactDB` (no extension, no text kept: a database) after every
    # import, while its recorder keeps the text of the person's scripts. Before, a file with no
    # extension counted as text, and every balanced reviser read as a rewriter at p ~ 1. A
    # README whose text was kept is still the person's text.
    b = session_builder("unity")
    b.write("Assets/Scripts/Parry.cs", _doc(30))
    b.add("file_edit", file_path="Assets/Scripts/Parry.cs", file_type="cs", lines_added=14, lines_deleted=12,
          diff_summary="+14 -12")
    b.write("Library/ArtifactDB", "", op="overwrite", snapshot=False, gap_ms=600)
    d = _signals(b)["D"]
    assert d["overwrites"] == 0, d
    b = session_builder("readme")
    b.write("README", _doc(30), op="overwrite")
    assert _signals(b)["D"]["overwrites"] == 1


def test_a_companion_file_following_its_file_is_the_programs(session_builder):
    # Unity keeps a `.meta` beside every asset and deletes, renames or moves it right after its
    # asset. Before, a person who removed one backup in a session removed "2 of 2" (a selective
    # cleaner's sign) and one who renamed a script renamed two files.
    b = session_builder("unity")
    b.write("Assets/Scripts/EnemyAI.cs", _doc(30))
    b.add("file_delete", 60_000, file_path="Assets/Scripts/EnemyAI.cs.bak", file_age_ms=8e8, was_temporary=True)
    b.add("file_delete", 120, file_path="Assets/Scripts/EnemyAI.cs.bak.meta", file_age_ms=8e8, was_temporary=True)
    b.add("file_rename", 30_000, old_path="Assets/Art/loot_1.png", new_path="Assets/Art/loot_final.png")
    b.add("file_rename", 90, old_path="Assets/Art/loot_1.png.meta", new_path="Assets/Art/loot_final.png.meta")
    e = _signals(b)["E"]
    assert (e["deletes"], e["cleaned"]) == (1, 1), e
    from filegram.memory.features import clean_events

    evs = clean_events(b.events)
    assert [x.get("authored") for x in evs if x["event_type"] == "file_rename"] == [None, False]


def test_jupyters_checkpoints_and_renumbered_cells_are_no_revising(session_builder):
    # Jupyter copies a notebook into `.ipynb_checkpoints/` when it is opened and autosaves it
    # after each run, when only the cells' execution counts changed. Before, the copy was the
    # person's backup and each autosave a small edit: a rewriter read as an incremental
    # reviser at p ~ 1.
    from filegram.store import content_hash

    diff = ('--- a/join.ipynb\n+++ b/join.ipynb\n@@ -9,7 +9,7 @@\n   {\n    "cell_type": "code",\n'
            '-   "execution_count": null,\n+   "execution_count": 1,\n    "metadata": {},\n')
    b = session_builder("nb")
    b.write("join.ipynb", '{"cells": []}\n', op="overwrite")
    b.add("file_copy", 500, source_path="join.ipynb", dest_path=".ipynb_checkpoints/join-checkpoint.ipynb", is_backup=True)
    for _ in range(3):
        h = content_hash(diff.encode())
        b.blobs[h] = diff.encode()
        b.add("file_edit", 120_000, file_path="join.ipynb", file_type="ipynb", lines_added=0, lines_deleted=0,
              lines_modified=1, diff_summary="+1 -1", media_ref_diff={"type": "diff", "hash": h, "path": f"media/diffs/{h}.diff"})
    d = _signals(b)["D"]
    assert d["backups"] == 0 and set(d["sizes"]) == {0}, d
    assert session_tiers(_signals(b))["D"]["tier"] == "R", d


def test_data_files_alone_show_no_visual_habit(session_builder):
    # A lab export drops a CSV of values into most sessions of every clinician; a text-only
    # writer's letters stay text. Before, each export was half a visual-heavy signature and
    # text-only people read L. A chart is still visual work, and a CSV beside markdown tables
    # a table writer's.
    def make(b, i):
        b.write(f"case_{i}_labs.csv", "analyte,value\nHbA1c,7.9\nLDL,3.1\n")
        b.write(f"case_{i}_letter.md", _doc(30), gap_ms=120_000)
    writer = _user(session_builder, make, 8)
    assert writer["F"].tier == "R", writer["F"]
    b = session_builder("chart")
    b.write("labs.csv", "analyte,value\nHbA1c,7.9\n")
    b.write("figures/hba1c.png", "", snapshot=False)
    assert session_tiers(_signals(b))["F"]["tier"] == "L"
    b = session_builder("table")
    b.write("labs.csv", "analyte,value\nHbA1c,7.9\n")
    b.write("summary.md", _doc(20) + "| analyte | value |\n|---|---|\n| HbA1c | 7.9 |\n")
    assert session_tiers(_signals(b))["F"]["tier"] == "M"


def test_the_share_of_leftovers_removed_tempers_a_selective_call(session_builder):
    # Someone who removes two of four scratch files in half their sessions and none in the
    # others removed a third of what they left: occasional cleanup as much as a habit. One who
    # removes all of them is selective, firmly. (Round 53 asked p < 0.8 of the first; since
    # round 54 the share weighs only L against M, at half weight, and the sessions' two
    # removals apiece outweigh it: p 0.94. On the 72 development models, calls of L at
    # p >= 0.8 with under 0.6 of the leftovers removed were right in 29 of 32 cases.)
    def make(b, i, made, removed):
        b.write(f"report-{i}.md", _doc(30))
        for k in range(made):
            b.write(f"scratch-{i}-{k}.txt", "try this\n", gap_ms=30_000)
        for k in range(removed):
            b.add("file_delete", 60_000, file_path=f"scratch-{i}-{k}.txt", file_age_ms=9e4)
    half = _user(session_builder, lambda b, i: make(b, i, 4 if i < 4 else 2, 2 if i < 4 else 0), 8)
    tidy = _user(session_builder, lambda b, i: make(b, i, 3, 3), 8)
    assert tidy["E"].tier == "L" and tidy["E"].confidence >= 0.8, tidy["E"]
    assert half["E"].posterior["M"] > 5 * tidy["E"].posterior["M"], (half["E"], tidy["E"])


def test_removing_nearly_every_leftover_is_selective_though_few_sessions_leave_one(session_builder):
    # alt417's selective writers: few of their working sessions leave scratch in sight, and
    # they remove nearly all of it (8 of 9 files), in four sessions of twenty. How often they
    # clean reads pragmatic; how thoroughly reads selective. Averaged in as one reading of
    # three, the share lost to the rate (M at p 0.51); as a factor on L against M it is heard.
    def make(b, i):
        b.write(f"report-{i}.md", _doc(40))
        made, removed = {2: (1, 1), 7: (1, 1), 12: (1, 1), 17: (5, 5), 9: (1, 0)}.get(i, (0, 0))
        for k in range(made):
            b.write(f"scratch-{i}-{k}.tmp", "x\n", gap_ms=30_000)
        for k in range(removed):
            b.add("file_delete", 60_000, file_path=f"scratch-{i}-{k}.tmp", file_age_ms=9e4)
    est = _user(session_builder, make, 20)["E"]
    assert est.tier == "L" and est.posterior["R"] < 0.02, est  # R allows a removal in 0.13 of chances


def _scan(b, paths, gap_ms=60_000, step_ms=3):
    """A program opening `paths` a few milliseconds apart (grep -r, make), after a listing."""
    b.add("file_browse", gap_ms, directory_path="src", files_listed=len(paths))
    for p in paths:
        b.add("file_read", step_ms, file_path=p, file_type=p.rsplit(".", 1)[-1], directory_depth=1,
              view_count=1, view_range=[1, 80], content_length=2_400)


def test_files_opened_milliseconds_apart_are_a_programs_reads(session_builder):
    # A firmware engineer greps the sources (the recorder logs grep opening every file, a few
    # milliseconds apart), then reads the two places it found. Before, grep's twelve reads of
    # whole files read as the person reading everything in order (A called L at p 1.0).
    sources = [f"src/mod{k}.c" for k in range(12)]

    def make(b, i):
        _scan(b, sources)
        for p in (sources[i % 12], sources[(i + 5) % 12]):
            b.add("file_read", 20_000, file_path=p, file_type="c", directory_depth=1,
                  view_count=2, view_range=[120, 160], content_length=1_200)

    a = _signals(_user_session(session_builder, make))["A"]
    assert (a["searches"], a["browses"], a["reads"], a["revisits"]) == (1, 0, 2, 0), a
    assert _user(session_builder, make, 6)["A"].tier == "M"

    # make reads the same sources as fast, and writes its objects as it goes: a build, no search
    b = session_builder("build")
    _scan(b, sources)
    for k in range(6):
        b.write(f"build/mod{k}.o", "\x7fELF" + "x" * 3_000, gap_ms=40, snapshot=False)
    b.add("file_read", 30_000, file_path="src/mod1.c", file_type="c", directory_depth=1, view_count=1,
          view_range=[1, 80], content_length=2_400)
    a = _signals(b)["A"]
    assert (a["searches"], a["reads"]) == (0, 1), a
    # ...while a person opening the same files a few seconds apart reads them
    b = session_builder("person")
    _scan(b, sources, step_ms=4_000)
    a = _signals(b)["A"]
    assert (a["searches"], a["reads"]) == (0, 12), a


def test_folders_listed_milliseconds_apart_are_a_programs_walk(session_builder):
    # A game developer opens the project: the editor reads its project file and lists seven
    # folders within a few milliseconds, then the person searches and reads two scripts.
    # Before, every such session read as breadth-first browsing (A called R at p 1.0 for
    # people who search first).
    folders = ["scenes", "scripts", "assets", "assets/sfx", "assets/art", "docs", "build"]

    def make(b, i):
        b.read("project.godot", content_length=239)
        for f in folders:
            b.add("file_browse", 2, directory_path=f, files_listed=6)
        b.add("file_search", 40_000, query=f"func spawn_{i}", search_type="grep", files_matched=2)
        for p in ("scripts/player.gd", "scripts/spawner.gd"):
            b.add("file_read", 20_000, file_path=p, file_type="gd", directory_depth=1,
                  view_count=1, view_range=[40, 70], content_length=3_000)

    a = _signals(_user_session(session_builder, make))["A"]
    assert (a["searches"], a["browses"], a["reads"]) == (1, 0, 2), a
    assert _user(session_builder, make, 6)["A"].tier == "M"
    # ...while a person opening the same folders a few seconds apart browses
    b = session_builder("person")
    for f in folders:
        b.add("file_browse", 4_000, directory_path=f, files_listed=6)
    assert _signals(b)["A"]["browses"] == 7


def test_a_new_empty_note_renamed_and_filled_is_a_new_document(session_builder):
    # A journalist's note app makes a new note as an empty `Untitled.md`; the person names it,
    # moves it into the case's folder and types it there, the app saving each time through
    # a temporary file renamed over the note. Before, every save was an overwrite of a file
    # that existed: no new document (B had only the daily notes: R) and the first save of
    # the note read as a rewrite in place (D).
    def make(b, i):
        b.write("Untitled.md", "", gap_ms=60_000)
        b.add("file_rename", 8_000, old_path="Untitled.md", new_path=f"Lead {i}.md")
        b.add("file_move", 3_000, old_path=f"Lead {i}.md", new_path=f"Cases/Harbor/Lead {i}.md")
        body = _doc(110, heading_depth=2)
        b.write(f"Cases/Harbor/Lead {i}.md", "\n".join(body.splitlines()[:60]) + "\n", op="overwrite", gap_ms=120_000)
        b.write(f"Cases/Harbor/Lead {i}.md", body, op="overwrite", gap_ms=240_000)

    sig = _signals(_user_session(session_builder, make))
    assert (sig["B"]["docs"], sig["B"]["lines"]) == (1, 110), sig["B"]
    assert sig["D"]["overwrites"] == 0 and not sig["D"]["sizes"], sig["D"]
    # a file written when made counts as written then; saving over it under its new name
    # is no second document
    b = session_builder("full")
    b.write("draft.md", _doc(40), gap_ms=60_000)
    b.add("file_rename", 8_000, old_path="draft.md", new_path="Lead.md")
    b.write("Lead.md", _doc(40).replace("budget", "harbor"), op="overwrite", gap_ms=120_000)
    assert (_signals(b)["B"]["docs"], _signals(b)["B"]["lines"]) == (1, 40)


def test_the_tables_of_a_note_started_empty_are_its_output(session_builder):
    # The same note app: the payments table the person types into their new note is
    # cross-modal output (F) as it is in a file written when made. Before, the note's saves
    # were overwrites of a file that existed, and balanced people read as text-only.
    table = "| Date | Payer | Amount |\n|---|---|---|\n" + "".join(f"| 2025-03-{d:02d} | Halberd | 6{d},500 |\n"
                                                              for d in range(1, 7))
    b = session_builder()
    b.write("Untitled.md", "", gap_ms=60_000)
    b.add("file_rename", 5_000, old_path="Untitled.md", new_path="Cases/Ledger analysis.md")
    b.write("Cases/Ledger analysis.md", "# Ledger\n\nFirst pass.\n", op="overwrite", gap_ms=90_000)
    b.write("Cases/Ledger analysis.md", "# Ledger\n\nFirst pass.\n\n" + table, op="overwrite", gap_ms=300_000)
    f = _signals(b)["F"]
    assert f["table_rows"] >= 6 and f["texts"] == 1, f


def test_a_programs_reaction_to_each_save_is_not_a_revision(session_builder):
    # A firmware engineer rewrites a source file whole in one save (a rewriter). clang-format
    # reformats it a third of a second later, and ctags rewrites the project's `tags` file
    # after every save. Before, the formatter's and ctags' edits read as the person's small
    # passes (D called L at p 1.0 for a rewriter).
    def make(b, i):
        for k in range(2):
            path = f"src/drv{i}_{k}.c"
            b.add("file_write", 300_000, file_path=path, file_type="c", directory_depth=1, operation="overwrite",
                  content_length=2_000)
            b.add("file_edit", 300, file_path=path, file_type="c", lines_added=3, lines_deleted=3,
                  diff_summary="+3 -3")
            b.add("file_edit", 700, file_path="tags", file_type="", lines_added=4, lines_deleted=4,
                  diff_summary="+4 -4")

    d = _signals(_user_session(session_builder, make))["D"]
    assert (d["overwrites"], d["edits"]) == (2, 0), d
    assert _user(session_builder, make, 6)["D"].tier == "R"
    # an edit a minute after the rewrite is the person's, and so is a one-off change of a
    # second file right after a save (saving all open files)
    b = session_builder("person")
    b.add("file_write", 60_000, file_path="src/a.c", file_type="c", directory_depth=1, operation="overwrite",
          content_length=2_000)
    b.add("file_edit", 60_000, file_path="src/a.c", file_type="c", lines_added=3, lines_deleted=3, diff_summary="+3 -3")
    b.add("file_edit", 500, file_path="src/b.c", file_type="c", lines_added=5, lines_deleted=5, diff_summary="+5 -5")
    d = _signals(b)["D"]
    assert (d["overwrites"], d["edits"]) == (1, 2), d
    # Word saves through a temporary file of its own: the document written a moment after it,
    # save after save, is the person's save, not something following a save
    b = session_builder("word")
    for k in range(3):
        b.add("file_write", 120_000, file_path=f"~WRL00{k}.tmp", file_type="tmp", directory_depth=0,
              operation="create", content_length=9_000)
        b.write("Report.md", _doc(30 + 40 * k, topic=f"grant round {k}"), op="overwrite", gap_ms=200)
    assert _signals(b)["D"]["overwrites"] == 3


def test_a_download_is_the_browsers_and_filing_it_is_the_persons(session_builder):
    # A survey analyst downloads an export: the browser writes `name.csv.crdownload` and
    # renames it to `name.csv` when done; the person then moves it into the project's folder.
    # Before, the browser's write of the CSV read as the person writing a data file and a
    # table (F) and a new file (C).
    b = session_builder("download")
    rows = "resp_id,wave,region\n" + "".join(f"{100 + k},1,North\n" for k in range(30))
    b.write("Downloads/wave3_export.csv.crdownload", rows, gap_ms=60_000)
    b.add("file_rename", 3_000, old_path="Downloads/wave3_export.csv.crdownload", new_path="Downloads/wave3_export.csv")
    b.add("dir_create", 30_000, dir_path="Brand Tracker/data", depth=2, sibling_count=1)
    b.add("file_move", 2_000, old_path="Downloads/wave3_export.csv", new_path="Brand Tracker/data/wave3.csv")
    sig = _signals(b)
    assert (sig["F"]["data_files"], sig["F"]["table_rows"], sig["C"]["creates"]) == (0, 0, 0), (sig["F"], sig["C"])
    assert (sig["C"]["dirs"], sig["C"]["moves"]) == (1, 1), sig["C"]


def test_a_journals_daily_note_is_no_filing_and_a_new_note_is_placed_where_it_is_saved(session_builder):
    # A journalist's note app makes the day's note in `Daily/` when it opens; their own notes
    # start as an empty `Untitled.md` that they name and type, at the vault's root (flat) or
    # moved into the case's folder (balanced). Before, every session "filed a document below
    # the root" (the daily note), and the case notes, never created by the person, were
    # placed nowhere: flat and balanced people both read flat, or unsure.
    def make(folder):
        def session(b, i):
            b.write(f"Daily/2026-01-{i + 10:02d}.md", "# Today\n\n## Tasks\n\n## Notes\n", gap_ms=1_000)
            b.write("Untitled.md", "", gap_ms=60_000)
            b.add("file_rename", 5_000, old_path="Untitled.md", new_path=f"Lead {i}.md")
            path = f"Lead {i}.md"
            if folder:
                b.add("file_move", 3_000, old_path=path, new_path=f"{folder}/Lead {i}.md")
                path = f"{folder}/Lead {i}.md"
            b.write(path, _doc(60), op="overwrite", gap_ms=300_000)
        return session

    c = _signals(_user_session(session_builder, make(None)))["C"]
    assert (c["docs_below"], c["docs_at_root"]) == (0, 1), c
    assert _user(session_builder, make(None), 8)["C"].tier == "R"
    c = _signals(_user_session(session_builder, make("Harbor")))["C"]
    assert (c["docs_below"], c["docs_at_root"]) == (1, 0), c


def test_an_ides_hidden_folder_is_its_own_while_the_person_reads_visible_files(session_builder):
    # RStudio keeps each open source file's state in `.Rproj.user/<id>/sources/session-x/`:
    # a lock file, pane settings and a copy of the file under a hex name. In a session where
    # the person only reads their data and scripts, that traffic is most of what is logged.
    # Before, the hidden folder then counted as the person's workspace and RStudio's copy as
    # a new one-line document of theirs (B read such sessions as minimal writing).
    b = session_builder("ide")
    base = ".Rproj.user/4F2A/sources/session-14016dfc"
    b.add("dir_create", 1_000, dir_path=base, depth=3, sibling_count=0)
    b.write(f"{base}/lock_file", "", gap_ms=10)
    b.write(".Rproj.user/4F2A/pcs/files-pane.pper", '{"sortOrder": []}', op="overwrite", gap_ms=300)
    b.read("data/customers.csv", view_range=[1, 40], content_length=1_500)
    b.read("R/clean.R", view_range=[1, 120], content_length=5_000)
    b.write(f"{base}/C3276857", '{"id": "C3276857", "path": "R/clean.R", "contents": "' + "x" * 4_000 + '"}',
            gap_ms=600)
    b.add("file_delete", 90_000, file_path=f"{base}/lock_file")
    assert _signals(b)["B"]["docs"] == 0
    # a notes vault kept in a hidden folder, with nothing read outside it, stays the person's
    v = session_builder("vault")
    v.read(".local/share/vault/ideas.md", view_range=[1, 30])
    v.write(".local/share/vault/plan.md", _doc(40))
    assert _signals(v)["B"]["docs"] == 1



def test_a_balanced_revisers_passage_replacements_are_no_bulk_rewrite(session_builder):
    # Table 2's balanced reviser changes 10-30 lines at a time: a 25-line passage replaced is
    # an edit of 25 lines added and 25 deleted. Before, edits were bulk over 35 lines added
    # and deleted, so every passage replaced read as bulk rewriting (D called R).
    def edited(b, i):
        for _ in range(2):
            b.edit(f"report{i}.md", 25, 25)

    assert _user(session_builder, edited, 6)["D"].tier == "M"
    # a rewrite of most of a file is still one, and so are edits of a hundred lines
    memo = _doc(60, topic="the quarterly memo")

    def rewritten(b, i):
        b.write(f"memo{i}.md", memo, gap_ms=60_000)
        _save(b, f"memo{i}.md", memo, _doc(60, topic=f"another memo {i}"), gap_ms=600_000)

    assert _user(session_builder, rewritten, 6)["D"].tier == "R"

    def bulk(b, i):
        for _ in range(2):
            b.edit(f"report{i}.md", 60, 50)

    assert _user(session_builder, bulk, 6)["D"].tier == "R"


def test_a_report_rewritten_by_reordering_its_sections_is_a_bulk_rewrite(session_builder):
    # A procurement officer rewrites a tender report in one go: the sections in a new order,
    # a word changed here and there, a note added, and saves it whole. Most lines are still in
    # the file, so counted as sets of lines (order ignored) the rewrite read as a 20-30 line
    # edit, and bulk rewriters as balanced revisers at p 0.93-1.00 (alt704).
    sections = [[f"## Section {k}"] + [f"Point {j} of section {k} on the tender." for j in range(11)] for k in range(8)]
    report = "# Tender report\n" + "".join("\n".join(sec) + "\n" for sec in sections)
    reordered = "# Tender report\n" + "".join("\n".join(sec) + "\n" for sec in
                                                  [sections[0], sections[5], sections[2], sections[7], sections[1],
                                                   sections[6], sections[3], sections[4]])
    reordered = reordered.replace("Point 3 of", "Item 3 of") + "- Legal comments incorporated.\n"

    def rewritten(b, i):
        b.write(f"tender{i}.md", report, gap_ms=60_000)
        _save(b, f"tender{i}.md", report, reordered, gap_ms=900_000)

    d = _signals(_user_session(session_builder, rewritten))["D"]
    assert d["overwrites"] == 1 and d["edits"] == 0, d
    assert _user(session_builder, rewritten, 6)["D"].tier == "R"
    # a passage replaced in place is still an edit of its size
    edited = report.replace("Point 4 of section 2", "Point four of section 2").replace("Point 5 of section 2", "Point five")

    def touched(b, i):
        b.write(f"tender{i}.md", report, gap_ms=60_000)
        _save(b, f"tender{i}.md", report, edited, gap_ms=900_000)

    d = _signals(_user_session(session_builder, touched))["D"]
    assert d["overwrites"] == 0 and d["sizes"] == [4], d


def test_a_databases_companion_files_are_the_database_engines(session_builder):
    # QGIS opens a GeoPackage: SQLite makes `landuse.gpkg-wal` and `-shm` beside it and removes
    # them when the layer is closed. Before, each session that opened one read as the person
    # removing two temporary files (E = L at p 0.95 for people who never delete anything).
    b = session_builder()
    b.read("notes/review.md", view_range=[1, 40])
    b.write("data/landuse.gpkg-wal", "", snapshot=False, gap_ms=1_000)
    b.write("data/landuse.gpkg-shm", "x" * 64, snapshot=False, gap_ms=50)
    b.write("notes/review.md", _doc(45), op="overwrite", gap_ms=60_000)
    b.add("file_delete", 30_000, file_path="data/landuse.gpkg-shm", file_age_ms=9e4)
    b.add("file_delete", 700, file_path="data/landuse.gpkg-wal", file_age_ms=9e4)
    e = _signals(b)["E"]
    assert (e["cleaned"], e["deletes"], e["leftovers"]) == (0, 0, 0), e
    # a journal of the person's own (`field-journal.md`) is no database's
    b.write("field-journal.md", "- day one\n", gap_ms=5_000)
    b.add("file_delete", 60_000, file_path="field-journal.md", file_age_ms=6e4)
    assert _signals(b)["E"]["cleaned"] == 1


def test_scratch_files_a_program_wrote_at_the_persons_command_are_theirs_to_clean(session_builder):
    # A GIS export writes the five parts of `scratch/tmp_clip.shp` within a second (a program's
    # burst); the person deletes them when the real layer is saved. Before, the program's
    # writes hid the leftovers, so a selective person's cleanup read as no chance to show it.
    parts = ("shp", "shx", "dbf", "prj", "cpg")

    def export(b):
        b.read("notes/plan.md", view_range=[1, 30])
        for k, ext in enumerate(parts):
            b.add("file_write", 60_000 if k == 0 else 120, file_path=f"scratch/tmp_clip.{ext}", file_type=ext,
                  operation="create", content_length=4_000 + k, directory_depth=1, authored=False)
        b.write("data/parcels.gpkg", "x" * 900, snapshot=False, gap_ms=20_000)

    b = session_builder("tidy")
    export(b)
    for ext in parts:
        b.add("file_delete", 800, file_path=f"scratch/tmp_clip.{ext}", file_age_ms=4e4)
    e = _signals(b)["E"]
    assert (e["cleaned"], e["leftovers"]) == (1, 1), e  # one layer, removed at once: one removal
    k = session_builder("kept")
    export(k)
    e = _signals(k)["E"]
    assert e["cleaned"] == 0 and e["leftovers"] == 1, e
    # a build's by-products (no word of the person's for "scratch") stay the build's
    c = session_builder("build")
    c.read("src/main.c", view_range=[1, 30])
    for k_ in range(4):
        c.add("file_write", 60_000 if k_ == 0 else 100, file_path=f"build/m{k_}.o", file_type="o",
              operation="create", content_length=3_000 + k_, directory_depth=1, authored=False)
    for k_ in range(4):
        c.add("file_delete", 30_000 if k_ == 0 else 5, file_path=f"build/m{k_}.o", file_age_ms=3e4)
    e = _signals(c)["E"]
    assert (e["cleaned"], e["leftovers"]) == (0, 0), e


def test_a_sync_clients_versions_folder_is_no_filing(session_builder):
    # Syncthing keeps the version a phone's edit replaced in `.stversions/<name>~<date>.txt`:
    # a move into a subfolder, logged like the person's. Before, a flat person read as filing
    # (C = M) in every session their phone synced a note.
    b = session_builder()
    b.add("file_move", 1_000, old_path="Kitchen/testlog-soup.txt",
          new_path="Kitchen/.stversions/testlog-soup~20260302-190451.txt")
    b.read("Kitchen/shopping.txt", view_range=[1, 12])
    b.read("Kitchen/testlog-soup.txt", view_range=[1, 30])
    c = _signals(b)["C"]
    assert c["moves_into_subfolders"] == 0 and c["moves"] == 0, c
    # a person's own filing into a visible folder still counts
    b.add("file_move", 5_000, old_path="Kitchen/soup-notes.md", new_path="Kitchen/Soups/soup-notes.md")
    assert _signals(b)["C"]["moves_into_subfolders"] == 1


def test_a_programs_temp_folder_is_neither_leftovers_nor_filing(session_builder):
    # A game engine makes `Temp/` when it opens the project, writes its lock file and a
    # token-named temporary there and removes them when it quits. Before, every session read
    # as the person making a folder (C) and removing two scratch files (E = L at p 0.96 for
    # people who never delete anything).
    b = session_builder()
    b.add("dir_create", 1_000, dir_path="Game/Temp", depth=1)
    b.write("Game/Temp/UnityLockfile", "x" * 40, snapshot=False, gap_ms=50)
    b.write("Game/Temp/c445dc9b.tmp", "x" * 90, snapshot=False, gap_ms=2_000)
    b.write("Game/Docs/notes.md", _doc(20), gap_ms=300_000)
    b.add("file_delete", 600_000, file_path="Game/Temp/UnityLockfile", file_age_ms=9e5)
    b.add("file_delete", 50, file_path="Game/Temp/c445dc9b.tmp", file_age_ms=9e5)
    sig = _signals(b)
    assert (sig["E"]["cleaned"], sig["E"]["leftovers"], sig["E"]["opp"]) == (0, 0, False), sig["E"]
    assert sig["C"]["dirs"] == 0, sig["C"]
    # a scratch folder the person keeps in their work, named as people name folders, stays theirs
    b.write("Game/notes/tmp/tmp_repro.cs", "// try the spawn order\n", gap_ms=30_000)
    b.add("file_delete", 60_000, file_path="Game/notes/tmp/tmp_repro.cs", file_age_ms=6e4)
    assert _signals(b)["E"]["cleaned"] == 1


def test_a_file_deleted_and_put_back_at_once_was_replaced_not_removed(session_builder):
    # A save that removes the old backup and puts a new one in its place within a second
    # (delete `A-200.bak`, write `A-200.bak`): the path holds a backup again, nothing was
    # thrown away. Before, each save read as the person cleaning a leftover.
    b = session_builder()
    b.read("notes/brief.md", view_range=[1, 30])
    b.add("file_delete", 60_000, file_path="plans/A-200.bak", file_age_ms=9e5)
    b.write("plans/A-200.bak", "x" * 5_000, snapshot=False, gap_ms=300)
    e = _signals(b)["E"]
    assert (e["cleaned"], e["deletes"]) == (0, 0), e
    # a removal that nothing replaces is still the person's
    b.add("file_delete", 60_000, file_path="plans/A-100.bak", file_age_ms=9e5)
    assert _signals(b)["E"]["cleaned"] == 1


def test_a_save_that_renames_the_file_to_its_backup_is_one_save(session_builder):
    # AutoCAD (and Emacs) save by removing the old backup, renaming the drawing to it and
    # writing the drawing anew, within a second. Before, each save read as a new document
    # (C) and the old backup's removal as the person's cleanup (E).
    b = session_builder()
    b.read("notes/brief.md", view_range=[1, 30])
    for k in range(3):
        b.add("file_delete", 600_000, file_path="Plans/A-200 Elevations.bak", file_age_ms=6e5)
        b.add("file_rename", 10, old_path="Plans/A-200 Elevations.dwg", new_path="Plans/A-200 Elevations.bak")
        b.add("file_write", 300, file_path="Plans/A-200 Elevations.dwg", file_type="dwg", operation="create",
              content_length=5_000_000 + k, directory_depth=1)
    sig = _signals(b)
    assert (sig["E"]["cleaned"], sig["E"]["deletes"]) == (0, 0), sig["E"]
    assert sig["C"]["creates"] == 0 and sig["C"]["docs_below"] == 0, sig["C"]
    # the person's own removal of an old backup, with nothing renamed in its place, stays theirs
    b.add("file_delete", 60_000, file_path="Plans/A-100 Sections.bak", file_age_ms=9e8)
    assert _signals(b)["E"]["cleaned"] == 1


def test_a_new_script_the_engine_imports_at_once_is_the_persons_writing(session_builder):
    # The person saves a new C# script; within 300 ms the game engine writes its `.meta` and
    # a burst of cache files. Before, the script went with the burst as the engine's, and C#
    # was not counted as anyone's writing: a developer's new scripts showed no production.
    b = session_builder()
    b.read("Assets/Scripts/Enemy.cs", view_range=[1, 80])
    b.write("Assets/Scripts/PlayerController.cs", "".join(f"    var x{k} = {k};\n" for k in range(120)), gap_ms=60_000)
    b.add("file_write", 300, file_path="Assets/Scripts/PlayerController.cs.meta", file_type="meta",
          operation="create", content_length=243, directory_depth=2)
    for k in range(5):
        b.add("file_write", 150, file_path=f"Library/Artifacts/{k:02x}/{k:016x}", file_type="",
              operation="create", content_length=90_000 + k, directory_depth=3)
    sig = _signals(b)
    assert sig["B"]["docs"] == 1 and sig["B"]["lines"] == 120, sig["B"]


def test_text_added_after_an_rtf_documents_closing_brace_is_writing_not_revising(session_builder):
    # Scrivener autosaves a new scene as the person types: each save adds lines after the
    # document's last line and rewrites that line, whose closing brace moves down. Before,
    # each autosave read as an 18-line revision (D = M at p 0.99 for people who rewrite whole).
    from filegram.store import content_hash

    def make(b, i):
        b.write(f"Files/Data/{i}/content.rtf", "{\\rtf1\\ansi\n\\f0 At the chapel, Hollis found the key.}", gap_ms=5_000)
        last = "\\f0 At the chapel, Hollis found the key."
        for k in range(4):
            new = [f"Scene {i} line {k}-{j}, and the rain moved on.\\" for j in range(18)]
            diff = (f"--- a/content.rtf\n+++ b/content.rtf\n@@ -2,1 +2,{len(new) + 1} @@\n-{last}}}\n+{last}\\\n"
                    + "".join(f"+{x}\n" for x in new))
            h = content_hash(diff.encode())
            b.blobs[h] = diff.encode()
            b.add("file_edit", 90_000, file_path=f"Files/Data/{i}/content.rtf", file_type="rtf", lines_added=19,
                  lines_deleted=1, media_ref_diff={"type": "diff", "hash": h, "path": f"media/diffs/{h}.diff"})
            last = new[-1][:-1]
        b.write("notes/outline.md", _doc(40), op="overwrite", gap_ms=60_000)

    sig = _signals(_user_session(session_builder, make))
    assert sig["D"]["edits"] == 0, sig["D"]
    # a line changed in the middle of one's new note is a revision, whatever it adds after
    b = session_builder("mid")
    b.write("notes.md", "".join(f"- point {j}\n" for j in range(8)))
    diff = ("--- a/notes.md\n+++ b/notes.md\n@@ -3,3 +3,5 @@\n-- point 2\n+- point 2 - check again\n"
            " - point 3\n- point 4\n+- point 8\n+- point 9\n")
    h = content_hash(diff.encode())
    b.blobs[h] = diff.encode()
    b.add("file_edit", 60_000, file_path="notes.md", file_type="md", lines_added=3, lines_deleted=1,
          media_ref_diff={"type": "diff", "hash": h, "path": f"media/diffs/{h}.diff"})
    assert _signals(b)["D"]["edits"] == 1


def test_a_recorder_that_logged_a_single_search_still_shows_style_in_the_read_windows(session_builder):
    # A macOS recorder that logs no searches or listings, and one session where a program's
    # burst of reads was taken for a search: a browser who skims the heads of many files is
    # still read from the windows. Before, that one search made every session's heads count
    # at a third of their weight and the person came out unknown.
    def make(b, i):
        if i == 3:
            for k in range(4):
                b.add("file_read", 60_000 if k == 0 else 40, file_path=f"Scenes/s{k}.rtf", file_type="rtf",
                      directory_depth=1, view_count=1, view_range=[1, 40], content_length=4_000)
        for k in range(3):
            b.read(f"Outline/o{i}-{k}.md", view_range=[1, 30], content_length=1_200)
        for k in range(7):
            b.read(f"Notes/n{i}-{k}.md", view_range=[1, 4], content_length=3_000)
        b.write(f"out-{i}.md", _doc(20), gap_ms=60_000)
    est = _user(session_builder, make, 12)
    assert est["A"].tier == "R", est["A"]


def test_a_pipelines_intermediate_file_removed_between_its_writes_is_the_pipelines(session_builder):
    # Snakemake removes a rule's temp() output as the next rule finishes: the deletion falls
    # within a second between two of the pipeline's writes. Before, each run read as the
    # person cleaning up (E = L at p 0.86 for people who never delete anything).
    def make(b, i, tidy=False):
        b.read("Snakefile", view_range=[1, 60])
        for s in range(3):
            b.write(f"results/trimmed/S{s}.fastq.gz", "x" * 9_000, snapshot=False, gap_ms=100_000)
            b.write(f"logs/align/S{s}.log", "ok\n", op="overwrite", gap_ms=200_000)
            b.add("file_delete", 600, file_path=f"results/trimmed/S{s}.fastq.gz", file_age_ms=3e5)
            b.write(f"results/counts/S{s}.tsv", "gene\tn\n", gap_ms=500)
        if tidy:
            b.write(f"scratch-{i}.txt", "check S2 again\n", gap_ms=60_000)
            b.add("file_delete", 60_000, file_path=f"scratch-{i}.txt", file_age_ms=6e4)
            b.add("file_delete", 30_000, file_path=f"logs/old-{i}.log", file_age_ms=9e8)
    _assert_only_own_removals_count(session_builder, make)


def test_the_folders_inside_a_document_package_are_no_filing(session_builder):
    # Pages saves a brochure as a package, `Brochure.pages/` with `Data/` and `Index.zip`
    # inside; Scrivener keeps each scene in `Novel.scriv/Files/Data/<UUID>/`. The program
    # lays those folders out for flat and nested people alike. Before, a flat person's first
    # save of a brochure read as making two levels of folders (C = L at p 0.97).
    b = session_builder()
    b.read("Listings/12 Elm St/notes.txt", view_range=[1, 20])
    b.add("dir_create", 60_000, dir_path="Listings/12 Elm St/Brochure.pages", depth=3)
    b.add("dir_create", 100, dir_path="Listings/12 Elm St/Brochure.pages/Data", depth=4)
    b.write("Listings/12 Elm St/Brochure.pages/Index.zip", "x" * 9_000, snapshot=False, gap_ms=100)
    b.write("Listings/12 Elm St/Brochure.pages/Data/preview.jpg", "x" * 9_000, snapshot=False, gap_ms=100)
    b.write("Novel.scriv/Files/Data/4BA6/content.rtf", "{\\rtf1 The rain moved on.}", gap_ms=60_000)
    # Descript keeps an episode's project as `E108.dscript/` with `media/` and `autosave/` (alt241)
    b.add("dir_create", 60_000, dir_path="E108/E108.dscript", depth=2)
    b.add("dir_create", 100, dir_path="E108/E108.dscript/media", depth=3)
    b.write("E108/E108.dscript/project.json", '{"tracks": []}', gap_ms=100)
    c = _signals(b)["C"]
    assert (c["dirs"], c["docs_below"]) == (0, 0), c
    _assert_own_folder_counts(b, "Listings/12 Elm St/Offers")


def _assert_own_folder_counts(b, folder):
    """A folder of the person's own, with a document saved into it, still counts (C)."""
    b.add("dir_create", 60_000, dir_path=folder, depth=folder.count("/") + 1)
    b.write(f"{folder}/notes-1.md", _doc(12))
    assert _signals(b)["C"]["dirs"] == 1


def test_a_move_into_the_trash_is_a_deletion(session_builder):
    # Finder's "Move to Trash" on an iCloud Drive folder is a move into `.Trash/`. Before, a
    # flat person's tidying read as filing into a subfolder (C) and deleted nothing (E).
    b = session_builder()
    b.write("Listings/scratch-comps.txt", "12 Elm 450k\n")
    b.add("file_move", 120_000, old_path="Listings/scratch-comps.txt",
          new_path="Library/Mobile Documents/com~apple~CloudDocs/.Trash/scratch-comps.txt")
    sig = _signals(b)
    assert sig["C"]["moves"] == 0, sig["C"]
    assert (sig["E"]["cleaned"], sig["E"]["deletes"]) == (1, 1), sig["E"]


def test_a_reference_managers_attachment_folders_are_its_own(session_builder):
    # Zotero adds an item: it makes `storage/<key>/`, copies the PDF in and writes its text
    # cache there. Before, each item added read as the person making a folder and filing a
    # PDF in it (C = M at p 0.99 for people who keep everything in one folder).
    b = session_builder()
    b.read("Reviews/JD-0821/manuscript.pdf")
    b.add("dir_create", 60_000, dir_path="Zotero/storage/DESTLBNV", depth=2)
    b.add("file_write", 1_500, file_path="Zotero/storage/DESTLBNV/Lariviere 2017.pdf", file_type="pdf",
          operation="create", content_length=1_898_971, directory_depth=2)
    b.add("file_write", 9_000, file_path="Zotero/storage/DESTLBNV/.zotero-ft-cache", file_type="",
          operation="create", content_length=15_547, directory_depth=2)
    c = _signals(b)["C"]
    assert (c["dirs"], c["creates"]) == (0, 0), c
    _assert_own_folder_counts(b, "Courses/COMP1511")  # a course folder in capitals and digits is the student's


def test_an_editors_tilde_backup_is_a_leftover_the_person_keeps_or_removes(session_builder):
    # vim (with `backup` on) and Emacs copy a file to `x.c~` before each save: the one backup
    # convention tidy people are known to clear (`rm *~`). Before, a pragmatic person who kept
    # most of them showed only the ones they removed (E = L at p 0.96).
    def save(b, name):
        b.add("file_copy", 60_000, source_path=f"src/{name}.c", dest_path=f"src/{name}.c~", authored=False)
        b.edit(f"src/{name}.c", 3, 2)

    b = session_builder("kept")
    b.read("src/uart.c", view_range=[1, 80])
    save(b, "uart")
    e = _signals(b)["E"]
    assert (e["opp"], e["leftovers"], e["cleaned"]) == (True, 1, 0), e
    b.add("file_delete", 30_000, file_path="src/uart.c~", file_age_ms=3e4)
    e = _signals(b)["E"]
    assert (e["leftovers"], e["cleaned"]) == (1, 1), e
    # a CAD program's `.bak` copy is its own recovery file, kept by every tier: no leftover
    c = session_builder("cad")
    c.add("file_copy", 60_000, source_path="Plans/A-200.dwg", dest_path="Plans/A-200.bak", authored=False)
    c.write("Plans/A-200.dwg", "x" * 5_000, op="overwrite", snapshot=False, gap_ms=300)
    assert _signals(c)["E"]["leftovers"] == 0


def test_a_programs_backup_rotation_is_not_the_persons_cleanup(session_builder):
    # OmegaT copies its project file to a dated `.bak` as it saves and removes the oldest, so
    # that four remain; Ableton Live does the same in `Backup/`. Before, every save read as the
    # person removing an old backup (E = L at p 0.71 for people who never delete anything).
    b = session_builder()
    b.read("source/manual.xliff", view_range=[1, 80])
    for k in range(3):
        b.add("file_copy", 300_000, source_path="omegat/project_save.tmx",
              dest_path=f"omegat/project_save.tmx.2024040110{k}0.bak", is_backup=True)
        b.add("file_delete", 7_000, file_path=f"omegat/project_save.tmx.2024033109{k}0.bak", file_age_ms=9e7)
        b.write("omegat/project_save.tmx", "<tmx/>" * 500, op="overwrite", gap_ms=900)
    e = _signals(b)["E"]
    assert (e["opp"], e["deletes"], e["leftovers"]) == (False, 0, 0), e
    # an old backup the person removes a minute after the last copy is theirs to remove
    b.add("file_delete", 60_000, file_path="omegat/project_save.tmx.202403310000.bak", file_age_ms=9e7)
    assert _signals(b)["E"]["deletes"] == 1
    # so is the file backed up itself, deleted seconds after its backup copy
    b.add("file_copy", 60_000, source_path="notes/draft.md", dest_path="notes/draft.md.bak", is_backup=True)
    b.add("file_delete", 3_000, file_path="notes/draft.md", file_age_ms=9e7)
    assert _signals(b)["E"]["deletes"] == 2


def test_what_a_program_keeps_in_the_homes_library_folder_is_its_own(session_builder):
    # Ableton Live writes a crash-recovery file into ~/Library/Preferences when it opens and
    # removes it when it quits. Before, people who never delete anything read as tidy (E = L).
    b = session_builder()
    b.write("Library/Preferences/Ableton/Live 12/Crash/2026-11-17_CrashRecoveryInfo.cfg", "pid=41\n")
    b.write("Music/Ableton/Projects/Blue Arcade Project/Mix Notes.md", _doc(12), gap_ms=600_000)
    b.add("file_delete", 600_000, file_path="Library/Preferences/Ableton/Live 12/Crash/2026-11-17_CrashRecoveryInfo.cfg",
          file_age_ms=1.2e6, was_temporary=True)
    e = _signals(b)["E"]
    assert (e["deletes"], e["cleaned"]) == (0, 0), e
    # iCloud Drive keeps the person's documents under ~/Library: a scratch file removed there is theirs
    c = session_builder("icloud")
    c.write("Library/Mobile Documents/com~apple~CloudDocs/Listings/scratch.txt", "12 Elm 450k\n")
    c.add("file_delete", 60_000, file_path="Library/Mobile Documents/com~apple~CloudDocs/Listings/scratch.txt",
          file_age_ms=6e4)
    assert _signals(c)["E"]["cleaned"] == 1


def test_a_file_brought_in_beside_the_sessions_documents_is_not_filed(session_builder):
    # A producer whose recorder's root is their home moves a screenshot from the Desktop into
    # the song's folder, where they write its mix notes. Before, each such move read as filing
    # into a subfolder three levels down (C = M, or L with a project folder, for flat people).
    song = "Music/Ableton/Projects/Low Tide Project"
    b = session_builder()
    b.write("Desktop/Screenshot 2026-10-27 at 07.23.48.png", "x" * 9_000, snapshot=False)
    b.add("file_move", 5_000, old_path="Desktop/Screenshot 2026-10-27 at 07.23.48.png",
          new_path=f"{song}/low_tide_arrangement_1.png")
    b.write(f"{song}/Mix Notes.md", _doc(30), gap_ms=60_000)
    c = _signals(b)["C"]
    assert (c["moves"], c["moves_into_subfolders"]) == (1, 0), c
    # filing it below the folder it came from, or below the work, still is filing
    b.add("file_move", 60_000, old_path=f"{song}/low_tide_arrangement_1.png",
          new_path=f"{song}/Screenshots/low_tide_arrangement_1.png")
    b.add("file_move", 60_000, old_path="Desktop/old-mix.wav", new_path=f"{song}/Bounces/old-mix.wav")
    assert _signals(b)["C"]["moves_into_subfolders"] == 2


def test_a_folder_holding_only_a_programs_backup_copies_is_no_filing(session_builder):
    # Live makes `Backup/` for the copies of the set it keeps on every save. Before, a flat
    # person's first save read as making a folder four levels down (C = L).
    song = "Music/Ableton/Projects/Neon Psalm Project"
    b = session_builder()
    b.read(f"{song}/Neon Psalm.als")
    b.add("dir_create", 600_000, dir_path=f"{song}/Backup", depth=5)
    b.add("file_copy", 1_500, source_path=f"{song}/Neon Psalm.als", dest_path=f"{song}/Backup/Neon Psalm [2026].als",
          is_backup=True, authored=False)
    b.write(f"{song}/Neon Psalm.als", "x" * 9_000, op="overwrite", snapshot=False, gap_ms=300)
    assert _signals(b)["C"]["dirs"] == 0
    _assert_own_folder_counts(b, f"{song}/Lyrics")


def test_a_project_folder_a_program_makes_for_a_new_document_is_no_filing(session_builder):
    # Live's "new set" makes `Low Tide Project/`, writes `Low Tide.als` into it and lays out
    # `Ableton Project Info/` within seconds, for flat and nested people alike. Before, every new
    # song of a flat person read as two levels of folders four deep (C = L).
    b = session_builder()
    b.add("dir_create", 60_000, dir_path="Music/Ableton/Projects/Low Tide Project", depth=4)
    b.write("Music/Ableton/Projects/Low Tide Project/Low Tide.als", "x" * 9_000, snapshot=False, gap_ms=2_100)
    b.add("dir_create", 1_200, dir_path="Music/Ableton/Projects/Low Tide Project/Ableton Project Info", depth=5)
    b.write("Music/Ableton/Projects/Low Tide Project/Ableton Project Info/Project8_1.cfg", "v=8\n", gap_ms=300)
    assert _signals(b)["C"]["dirs"] == 0
    # a note of its folder's name, made at once, is the person's filing (a note app's folder note)
    c = session_builder("note")
    c.add("dir_create", 60_000, dir_path="Novel/Settings/Weather", depth=3)
    c.write("Novel/Settings/Weather/Weather.md", _doc(12), gap_ms=400)
    assert _signals(c)["C"]["dirs"] == 1


def test_a_folder_a_program_fills_as_it_appears_is_the_programs(session_builder):
    # Case CATalyst makes `CATalyst/Jobs/<date><NAME>/` when a deposition starts and writes its
    # steno notes' backup and an autosave temporary there within seconds, for flat and nested
    # reporters alike (alt401). Before, each job read as a folder a flat person made (C = M).
    job = "CATalyst/Jobs/010526OKAFOR"
    b = session_builder()
    b.read("Documents/Jobs/Okafor_0105_Notice of Deposition.txt")
    b.add("dir_create", 600_000, dir_path=job, depth=2)
    b.write(f"{job}/010526OKAFOR.sgstn.bak", "x" * 9_000, snapshot=False, gap_ms=5_300)
    b.write(f"{job}/~tmp1352.tmp", "x" * 9_000, snapshot=False, gap_ms=176_000)
    b.add("file_delete", 1_100, file_path=f"{job}/~tmp1352.tmp", file_age_ms=1_100)
    assert _signals(b)["C"]["dirs"] == 0
    # a folder the person makes and saves into, or into which a program of theirs exports
    # later, stays their filing
    _assert_own_folder_counts(b, "Documents/Jobs/Okafor")
    c = session_builder("exported later")
    c.add("dir_create", 60_000, dir_path="Documents/Jobs/Okafor/Exports", depth=4)
    c.write("Documents/Jobs/Okafor/Exports/Santos FINAL.pdf", "x" * 9_000, snapshot=False, gap_ms=120_000)
    c.write("Documents/Jobs/Okafor/Exports/Santos FINAL.rtf", "x" * 9_000, snapshot=False, gap_ms=400)
    c.write("Documents/Jobs/Okafor/Exports/Santos condensed.pdf", "x" * 9_000, snapshot=False, gap_ms=400)
    assert _signals(c)["C"]["dirs"] == 1


def test_the_folders_a_program_makes_above_a_documents_folder_are_its_own(session_builder):
    # Xactimate's first export of a claim makes `Xactimate/Exports/<claim>/` in one call and
    # writes `<claim>.ESX` into it. Before, the two folders above the claim's read as two
    # levels the person made (C = M for flat adjusters).
    b = session_builder()
    for i, d in enumerate(("Xactimate", "Xactimate/Exports", "Xactimate/Exports/DP-24-791135")):
        b.add("dir_create", 60_000 if i == 0 else 5, dir_path=d, depth=i + 1)
    b.write("Xactimate/Exports/DP-24-791135/DP-24-791135.ESX", "x" * 4_000, snapshot=False, gap_ms=10)
    assert _signals(b)["C"]["dirs"] == 0
    # a folder the person made by hand before it (seconds earlier) stays their filing
    c = session_builder("by hand")
    c.add("dir_create", 60_000, dir_path="Claims", depth=1)
    c.add("dir_create", 4_000, dir_path="Claims/HO-24-281032", depth=2)
    c.write("Claims/HO-24-281032/HO-24-281032.ESX", "x" * 4_000, snapshot=False, gap_ms=10)
    assert _signals(c)["C"]["dirs"] == 1


def test_a_text_of_tab_separated_rows_only_is_data_not_a_table(session_builder):
    # OmegaT's `glossary.txt` is one tab-separated term per line. Before, text-only translators
    # read as table writers (F = M) by the glossaries they start.
    b = session_builder()
    b.write("glossary/glossary.txt", "".join(f"term{i}\t[fr] terme{i}\tclient pref\n" for i in range(5)))
    b.write("notes/brief.md", "# Brief\n\n- deadline Friday\n- rate per word\n", gap_ms=30_000)
    assert _signals(b)["F"]["table_rows"] == 0


def test_a_builds_outputs_cleaned_and_written_again_are_the_builds(session_builder):
    # Gradle's rebuild empties `build/intermediates/dex/debug/` and writes it again three seconds
    # later, fewer files this time. Before, the files it did not write again read as the person
    # removing leftovers (E = L at p 0.81 for people who never delete anything).
    b = session_builder()
    b.edit("app/src/main/java/HomeViewModel.kt", 6, 2)
    for k in range(7):
        b.add("file_delete", 40 if k else 60_000, file_path=f"app/build/intermediates/dex/debug/classes{k}.dex",
              file_age_ms=7e8, was_temporary=True)
    for k in range(5):
        b.add("file_write", 3_000 if k == 0 else 50, file_path=f"app/build/intermediates/dex/debug/classes{k}.dex",
              file_type="dex", operation="create", content_length=74, directory_depth=5, authored=False)
    e = _signals(b)["E"]
    assert (e["deletes"], e["cleaned"]) == (0, 0), e
    # Finder writing its `.DS_Store` in the folder a person just deleted a scratch file from replaces nothing
    c = session_builder("finder")
    c.add("file_delete", 60_000, file_path="psets/scratch.py", file_age_ms=9e5)
    c.add("file_write", 1_700, file_path="psets/.DS_Store", file_type="", operation="create", content_length=602,
          directory_depth=1, authored=False)
    assert _signals(c)["E"]["cleaned"] == 1


def test_files_a_program_removes_inside_its_document_package_are_no_cleanup(session_builder):
    # Final Cut Pro clears old proxy and render files inside its library (`Saltwater.fcpbundle/
    # .../Proxy Media/<id>/`) while the editor works, for people who never delete anything as
    # for tidy ones. Before, those removals read as the person clearing temporary files (E = L).
    lib = "Movies/Saltwater_Doc/Saltwater.fcpbundle/Rough_Cut/Transcoded Media/Proxy Media/4A65"
    b = session_builder()
    b.write("Movies/Saltwater_Doc/shot_log.md", _doc(30))
    for k in range(12):
        b.add("file_delete", 60_000 if k == 0 else 30, file_path=f"{lib}/ProxyClip-{k:04d}.mov",
              file_age_ms=3e8, was_temporary=True)
    e = _signals(b)["E"]
    assert (e["deletes"], e["cleaned"]) == (0, 0), e
    # the person's own scratch file removed beside the library still counts, and so does a
    # whole package they delete (an old draft kept as a Pages document)
    c = session_builder("own")
    c.write("Movies/Saltwater_Doc/scratch_notes.txt", _doc(5))
    c.add("file_delete", 60_000, file_path="Movies/Saltwater_Doc/scratch_notes.txt", file_age_ms=6e4)
    c.add("file_delete", 1_000, file_path="Movies/Saltwater_Doc/script_old.pages", file_age_ms=9e8)
    e = _signals(c)["E"]
    assert e["deletes"] == 2 and e["cleaned"] >= 1, e


def test_a_spreadsheets_save_that_sets_the_old_version_aside_is_no_cleanup(session_builder):
    # Excel saves a workbook by writing it under a random name, renaming the old one to a
    # `.tmp` name, renaming the new one into place and deleting the `.tmp`, six seconds in all
    # for a large workbook. Before, every save read as the person removing a temporary file
    # (E = L at p 0.86 for people who never delete anything).
    b = session_builder()
    b.read("Documents/RegionalMarginExtractRaw.csv", view_range=[1, 40])
    b.write("Documents/00A7E910", "x" * 9_000, snapshot=False, gap_ms=60_000)
    b.add("file_rename", 1_500, old_path="Documents/RegionalMarginData.xlsx", new_path="Documents/9F9872F0.tmp")
    b.add("file_rename", 6_300, old_path="Documents/00A7E910", new_path="Documents/RegionalMarginData.xlsx")
    b.add("file_delete", 100, file_path="Documents/9F9872F0.tmp", file_age_ms=6e5, was_temporary=True)
    assert _signals(b)["E"]["deletes"] == 0
    # a temporary file of the person's, removed with no save around it, is theirs to remove
    b.write("Documents/scratch.tmp", "12 Elm 450k\n", gap_ms=60_000)
    b.add("file_delete", 60_000, file_path="Documents/scratch.tmp", file_age_ms=6e4)
    assert _signals(b)["E"]["cleaned"] == 1


def test_a_renders_frames_are_no_visual_output_of_the_persons(session_builder):
    # Blender writes a shot's frames as `render/<shot>/0001.png` ..., one every few seconds for
    # a scene that takes that long to render. Before, a text-only 3D artist's renders read as
    # charts and figures (F = L at p 0.99).
    # The frames' times vary with the scene (alt172's gaps, in seconds), too unevenly for a clock.
    gaps = [1.98, 2.1, 2.47, 2.46, 1.86, 2.69, 2.41, 2.59, 2.51, 2.73, 2.41, 2.9, 2.15, 2.3, 2.73, 2.05, 3.06, 2.38,
            2.76, 2.91, 2.31, 1.55, 3.1, 2.92]
    b = session_builder()
    b.write("notes/shot-notes.md", _doc(12))
    b.add("dir_create", 60_000, dir_path="render/spin", depth=2)
    for k, gap in enumerate(gaps, 1):
        b.add("file_write", gap * 1000, file_path=f"render/spin/{k:04d}.png", file_type="png",
              directory_depth=2, operation="create", content_length=2_000_000 + 7_919 * k)
    assert _signals(b)["F"]["images"] == 0
    # a frame the person's document shows, and a chart they named, are theirs
    b.write("notes/review.md", _doc(12) + "![frame](../render/spin/0012.png)\n", gap_ms=60_000)
    b.write("notes/render-times.png", "x" * 9_000, snapshot=False, gap_ms=60_000)
    assert _signals(b)["F"]["images"] == 2


def _assert_no_filing_or_cleanup(session_builder, make):
    """A flat, never-deleting person's sessions read as such: no folder made, nothing cleaned,
    C flat and no cleanup vote over six sessions."""
    sig = _signals(_user_session(session_builder, make))
    assert sig["C"]["dirs"] == 0 and sig["C"]["levels_made"] == 0, sig["C"]
    assert sig["E"]["cleaned"] == 0, sig["E"]
    est = _user(session_builder, make, 6)
    assert est["C"].tier == "R", est["C"]
    assert est["E"].counts["L"] == est["E"].counts["M"] == 0, est["E"]


def _meeting(b, i, folder="Documents/Zoom"):
    """A meeting program's end: it makes the meeting's folder, writes its working files,
    converts them into the recordings and removes them a moment after."""
    meeting = f"{folder}/2025-03-{i + 10:02d} 19.33.11 P{i:02d} interview"
    b.add("dir_create", 5_000, dir_path=meeting, depth=meeting.count("/") + 1, sibling_count=i)
    b.write(f"{meeting}/double_click_to_convert_01.zoom", "", gap_ms=500, snapshot=False)
    b.write(f"{meeting}/audio{i}.m4a", "", gap_ms=110_000, snapshot=False)
    b.write(f"{meeting}/video{i}.mp4", "", gap_ms=3_000, snapshot=False)
    b.write(f"{meeting}/playback.m3u", "", gap_ms=300, snapshot=False)
    b.add("file_delete", 300, file_path=f"{meeting}/double_click_to_convert_01.zoom", file_age_ms=114_000,
          was_temporary=True)


def test_a_meeting_programs_recordings_folders_are_not_the_persons_filing_or_cleanup(session_builder):
    # A researcher who keeps every note at the root of their research folder records an
    # interview in each session: Zoom makes `Documents/Zoom/<date> <meeting>/`, converts its
    # `.zoom` working file into the recordings and removes it. Before, every session read as
    # a deep nester's (C called L at p 0.97-1.00) and the removals as a selective person's
    # cleanup (E called L at p 0.84).
    def make(b, i):
        _meeting(b, i)
        b.write(f"P{i:02d}_notes.md", _doc(40), gap_ms=600_000)

    _assert_no_filing_or_cleanup(session_builder, make)

    # A nester who makes the study's folders and writes their notes there still files deep,
    # and one who removes their own scratch file after looking at it still cleans up.
    def nest(b, i):
        _meeting(b, i)
        b.add("dir_create", 60_000, dir_path=f"Studies/clinic/P{i:02d}/notes", depth=4, sibling_count=0)
        b.write(f"Studies/clinic/P{i:02d}/notes/notes.md", _doc(40), gap_ms=600_000)
        b.write(f"Studies/clinic/P{i:02d}/notes/scratch.md", "- quote\n", gap_ms=60_000)
        b.read(f"Studies/clinic/P{i:02d}/notes/scratch.md")
        b.add("file_delete", 20_000, file_path=f"Studies/clinic/P{i:02d}/notes/scratch.md", file_age_ms=8e4,
              was_temporary=True)

    sig = _signals(_user_session(session_builder, nest))
    assert sig["C"]["levels_made"] >= 3 and sig["E"]["cleaned"] == 1, (sig["C"], sig["E"])
    assert _user(session_builder, nest, 6)["C"].tier == "L"
    # and a producer who exports their stems into dated folders of their own files them
    b = session_builder("stems")
    b.add("dir_create", 60_000, dir_path="Bounces/Stems/2025-03-07", depth=3, sibling_count=2)
    for stem in ("drums", "bass", "vox"):
        b.write(f"Bounces/Stems/2025-03-07/{stem}.wav", "", gap_ms=4_000, snapshot=False)
    assert _signals(b)["C"]["dirs"] == 1



def test_a_renders_numbered_frames_are_no_visual_output_of_the_persons(session_builder):
    # A 3D artist who writes plain-text shot notes renders a shot: Blender writes
    # `frame_0001.png` ... into the render folder, one every 5-13 seconds as each frame
    # takes. Before, each render read as visual-heavy output (F
    # called L at p 0.96-0.99); a person's own few numbered figures still count.
    def make(b, i):
        b.write(f"notes/shot{i:03d}.md", _doc(30), gap_ms=60_000)
        for n in range(1, 13):
            b.write(f"render/shot{i:03d}/frame_{n:04d}.png", "x" * 9_000, gap_ms=5_000 + n * 3_700 % 8_000,
                    snapshot=False)

    _frames_are_no_output_but_own_figures_are(session_builder, make, "fig_{n:03d}.png", 3)


def _frames_are_no_output_but_own_figures_are(session_builder, make, figure: str, figures: int) -> None:
    """Sessions made by `make` (frames beside a text-only note) read as text only; a person's
    own `figures` numbered figures, named by `figure`, are visual output of theirs."""
    sig = _signals(_user_session(session_builder, make))
    assert sig["F"]["images"] == 0, sig["F"]
    assert _user(session_builder, make, 6)["F"].tier == "R"
    b = session_builder("figures")
    b.write("report.md", _doc(40), gap_ms=60_000)
    for n in range(1, figures + 1):
        b.write(f"figures/{figure.format(n=n)}", "x" * 9_000, gap_ms=60_000, snapshot=False)
    assert _signals(b)["F"]["images"] == figures


def test_a_render_farms_frames_counted_without_padding_are_no_visual_output(session_builder):
    # A render farm delivers a batch of one view's frames to the studio server as
    # `render_overview_0.png` ... `render_overview_47.png`, a few hundred milliseconds apart,
    # whoever's exhibit it is. Before, "render" named them as the person's views (alt409's
    # rule) and text-only exhibition designers read as visual-heavy at p 0.90-0.99 (alt718).
    def make(b, i):
        b.write(f"Labels/label-text-{i}.md", _doc(30), gap_ms=60_000)
        b.add("dir_create", 60_000, dir_path=f"Renders/2025-03-{i + 1:02d}", depth=2)
        for k in range(48):
            b.add("file_write", 150, file_path=f"Renders/2025-03-{i + 1:02d}/render_overview_{k}.png",
                  file_type="png", directory_depth=2, operation="create", content_length=2_000_000 + k)

    # a person's own figures numbered by hand, without padding, stay theirs
    _frames_are_no_output_but_own_figures_are(session_builder, make, "fig{n}.png", 6)


def test_pictures_a_game_engine_imported_as_assets_are_no_visual_output(session_builder):
    # An indie game programmer draws sprites and saves them into the Unity project's Assets/,
    # where the engine imports each one and writes its `.meta` beside it a second later,
    # whatever the programmer's habits. Before, text-only programmers read as visual-heavy
    # at p 0.67-0.99 (alt725). A chart of theirs with no engine sidecar stays theirs.
    def make(b, i):
        b.write(f"Docs/notes-{i}.md", _doc(30), gap_ms=60_000)
        for name in ("boar_idle", "boar_run", "crow_attack"):
            b.write(f"Assets/{name}_{i}.png", "x" * 9_000, gap_ms=60_000, snapshot=False)
            b.add("file_write", 1_500, file_path=f"Assets/{name}_{i}.png.meta", file_type="meta",
                  directory_depth=1, operation="create", content_length=400)

    _frames_are_no_output_but_own_figures_are(session_builder, make, "fps-chart-{n}.png", 2)


def test_pictures_left_in_downloads_are_no_visual_output(session_builder):
    # Maths teachers export graphs from their graphing tool, which saves `graph_<n>.png` into
    # Downloads, whatever their habits; a text-only teacher leaves them there. Before, they read
    # as visual-heavy at p 0.67-1.00 (alt731). A graph the teacher then files into the lesson's
    # figures folder is theirs.
    def make(b, i):
        b.write(f"Lessons/quadratics-{i}.md", _doc(30), gap_ms=60_000)
        for k in range(2):
            b.write(f"Downloads/graph_{3 * i + k}.png", "x" * 9_000, gap_ms=60_000, snapshot=False)

    _frames_are_no_output_but_own_figures_are(session_builder, make, "fig{n}.png", 2)
    b = session_builder("filed")
    make(b, 1)
    b.add("file_move", 30_000, old_path="Downloads/graph_3.png", new_path="Lessons/figures/parabola.png",
          destination_directory_depth=2)
    assert _signals(b)["F"]["images"] == 1
    # a project's own folder named downloads is no Downloads folder of the system's
    b = session_builder("project")
    b.write("Lessons/quadratics.md", _doc(30), gap_ms=60_000)
    b.write("Lessons/downloads/parabola.png", "x" * 9_000, gap_ms=60_000, snapshot=False)
    assert _signals(b)["F"]["images"] == 1


def test_pictures_a_downloader_saved_and_the_person_kept_are_half_a_visual_habit(session_builder):
    # A magazine editor's picture agency saves a story's candidates into Downloads; the editor
    # moves the four chosen into the issue's pictures folder and lists them, with page and
    # caption, in a plain text note. Any editor picks pictures: kept and named, the downloads
    # read as pictures the person made, and a text-only editor as visual-heavy (alt773).
    def make(b, i):
        b.write(f"Magazine/2025-12/features/story-{i}.md", _doc(60), gap_ms=600_000)
        if i % 3:
            return
        got = [f"Downloads/alamy_{i}{k:02d}X7.jpg" for k in range(15)]
        for p in got:
            b.write(p, "\xff\xd8" + "x" * 9_000, gap_ms=40, snapshot=False)
        listed = "\n".join(f"{p.rsplit('/', 1)[1]} - p{20 + k} - caption {k}" for k, p in enumerate(got[:4]))
        b.write(f"Magazine/2025-12/features/story-{i}-pictures.txt", f"Pictures for story {i}\n\n{listed}\n",
                gap_ms=300_000)
        for p in got[:4]:
            b.add("file_move", 2_000, old_path=p, new_path=f"Magazine/2025-12/pictures/story-{i}/{p.rsplit('/', 1)[1]}")

    sig = _signals(_user_session(session_builder, make))
    assert (sig["F"]["images"], sig["F"]["gathered"]) == (4, 4), sig["F"]
    assert _user(session_builder, make, 12)["F"].tier == "R"
    # a chart the person made beside them is visual output of theirs, at full weight
    b = _user_session(session_builder, make)
    b.write("Magazine/2025-12/features/readership.png", "\x89PNG" + "x" * 9_000, gap_ms=60_000, snapshot=False)
    assert (_signals(b)["F"]["images"], _signals(b)["F"]["gathered"]) == (5, 4)


def test_what_the_browser_saved_and_the_sync_client_copied_is_no_writing(session_builder):
    # An interpreter downloads the event's agenda and speaker bios (text files, into Downloads),
    # files them into the assignment's folder, and writes one page of preparation notes; OneDrive
    # then keeps a copy it could not reconcile as `prep_notes-LAPTOP-HR4410.md`. Counted as the
    # person's writing, the session held four documents and twice the lines, and balanced
    # writers read as comprehensive (alt752).
    b = session_builder("prep")
    job = "OneDrive/Assignments/2024/MedTechForum_2024-02-17"
    for name, n in (("agenda", 30), ("speaker_bios", 45)):
        b.write(f"Downloads/{name}.txt", _doc(n), gap_ms=15_000)
        b.add("file_move", 60_000, old_path=f"Downloads/{name}.txt", new_path=f"{job}/{name}.txt")
    b.write(f"{job}/prep_notes.md", _doc(110), gap_ms=600_000)
    b.write(f"{job}/prep_notes-LAPTOP-HR4410.md", _doc(112), gap_ms=240_000)
    sig = _signals(b)
    assert (sig["B"]["docs"], sig["B"]["lines"]) == (1, 110), sig["B"]
    # a note of the person's named for their own laptop is theirs
    b.write(f"{job}/setup-laptop-checklist.md", _doc(20), gap_ms=60_000)
    assert _signals(b)["B"]["docs"] == 2


def test_filing_one_or_two_levels_down_session_after_session_is_no_deep_nesting(session_builder):
    # A screenwriter saves each new draft into the project's folder or its Drafts/ and makes
    # no folder. Filing below the root said "an organiser" but not how deep: before, C was
    # unknown at L 0.50 / M 0.50. Never three levels down in eight sessions is no deep nester.
    def shallow(b, i):
        b.write(f"Harbor/Drafts/scene-{i}.fountain" if i % 2 else f"Harbor/beat-sheet-{i}.md", _doc(40),
                gap_ms=60_000)

    sig = _signals(_user_session(session_builder, shallow))
    assert (sig["C"]["docs_below"], sig["C"]["doc_depth"]) == (1, 1), sig["C"]
    est = _user(session_builder, shallow, 8)["C"]
    assert est.tier == "M" and est.confidence >= 0.8, est

    # filing three levels down may be into a tree that was there before: it stays unsure
    def deep(b, i):
        b.write(f"Harbor/Drafts/Season 1/Ep{i}/scene-{i}.fountain", _doc(40), gap_ms=60_000)

    assert _user(session_builder, deep, 8)["C"].tier != "M"


def test_a_download_completing_is_the_browsers_not_a_document_the_person_placed(session_builder):
    # A browser writes `<name>.docx.part` and renames it to `<name>.docx` when the download
    # completes. Joined as an atomic save, it read as the person writing a new document in
    # Downloads: a flat researcher's "second folder" (C's one-folder home was missed, and
    # they were called an organiser at p 0.97).
    b = session_builder("download")
    b.write("Work/UXR/p1_notes.md", _doc(30), gap_ms=60_000)
    b.write("Downloads/Clinic synthesis.docx.part", "x" * 86_961, gap_ms=60_000, snapshot=False)
    b.add("file_rename", 900, old_path="Downloads/Clinic synthesis.docx.part",
          new_path="Downloads/Clinic synthesis.docx", naming_pattern_change="other")
    b.add("file_delete", 600_000, file_path="Downloads/Clinic synthesis.docx", file_age_ms=6e5, was_temporary=False)
    sig = _signals(b)
    assert (sig["C"]["docs_below"], len(sig["C"]["doc_folders"])) == (1, 1), sig["C"]
    assert sig["B"]["docs"] == 1, sig["B"]
    assert sig["E"]["deletes"] == 1, sig["E"]  # removing the download is the person's, though
    # an editor's save through a temporary renamed into place is still the person's
    b = session_builder("save")
    b.write("Work/UXR/p1_notes.md.2006517143", _doc(30), gap_ms=60_000)
    b.add("file_rename", 300, old_path="Work/UXR/p1_notes.md.2006517143", new_path="Work/UXR/p1_notes.md",
          naming_pattern_change="other")
    assert _signals(b)["B"]["docs"] == 1


def test_a_build_systems_output_tree_is_not_the_persons_filing_or_cleanup(session_builder):
    # An embedded engineer who keeps their notes at the root of the layer runs a build each
    # session. The recorder's queue overflowed, so the build's folders and logs under
    # `build/tmp/work/...` arrive seconds apart, too slowly for any speed rule, and its
    # `rm_work` step removes what it wrote. Before, every session read as a deep nester's
    # (C called L at p 0.96-1.00) and the build's removals as a tidy person's cleanup.
    def make(b, i):
        b.write(f"notes-{i:02d}.md", _doc(30), gap_ms=600_000)
        for n, pkg in enumerate(("busybox", "glibc", "dbus", "zstd")):
            work = f"build/tmp/work/cortexa7-poky-linux/{pkg}/1.{i}-r0/temp"
            b.add("dir_create", 2_500, dir_path=work, depth=7, sibling_count=n)
            b.write(f"{work}/log.do_compile.{4100 + 7 * n + i}", "NOTE: compiling\n" * 300, gap_ms=2_800,
                    snapshot=False)
            b.add("file_delete", 3_100, file_path=f"{work}/log.do_compile.{4100 + 7 * n + i}", file_age_ms=3_100)

    _assert_no_filing_or_cleanup(session_builder, make)

    # Reading the build's log to find an error is still the person's reading, and a person's
    # own folder named like a build's (`Builds/`, `build-notes/`) is still theirs.
    b = session_builder("own")
    b.read("build/tmp/work/cortexa7-poky-linux/dbus/1.0-r0/temp/log.do_compile.4100")
    b.add("dir_create", 60_000, dir_path="Builds/2025/march", depth=3, sibling_count=0)
    b.write("Builds/2025/march/review.md", _doc(30), gap_ms=60_000)
    sig = _signals(b)
    assert sig["C"]["dirs"] == 1, sig["C"]


def _cad_save(b, i, drawing="Drawings/A-501 Door Details"):
    """AutoCAD saving a drawing: an autosave `.sv$` while the person works, then a save by
    replacing (the old `.bak` dropped, the drawing renamed to it and the temporary renamed to
    the drawing, in one millisecond), and the autosave removed on close."""
    autosave = f"Autosave/{drawing.rsplit('/', 1)[-1]}_1_1_{5300 + i}.sv$"
    b.write(autosave, "", gap_ms=300_000, snapshot=False)
    b.write(f"Drawings/atmp{8100 + i}", "", gap_ms=200_000, snapshot=False)
    b.add("file_delete", 0, file_path=f"{drawing}.bak", was_temporary=True)
    b.add("file_rename", 0, old_path=f"{drawing}.dwg", new_path=f"{drawing}.bak")
    b.add("file_rename", 0, old_path=f"Drawings/atmp{8100 + i}", new_path=f"{drawing}.dwg")
    b.add("file_delete", 75_000, file_path=autosave, file_age_ms=575_000, was_temporary=True)


def test_a_save_by_replacing_and_an_autosave_removed_on_close_are_no_cleanup(session_builder):
    # An architect who never deletes anything saves a drawing each session. Before, the
    # `.bak` AutoCAD drops as it saves and the `.sv$` autosave it removes on close read as the
    # person removing a backup and a temporary file: a never-deleter read as pragmatic.
    def make(b, i):
        b.write(f"notes/RFI-{i:02d}.md", _doc(30), gap_ms=600_000)
        _cad_save(b, i)

    sig = _signals(_user_session(session_builder, make))
    assert sig["E"]["cleaned"] == 0 and not sig["E"].get("discarded"), sig["E"]
    est = _user(session_builder, make, 6)
    assert est["E"].counts["L"] == est["E"].counts["M"] == 0, est["E"]

    # A person who removes their own old backup, and later saves a new file under its name,
    # still removed it: minutes apart, that is two acts.
    b = session_builder("own")
    b.write("notes/RFI.md", _doc(30), gap_ms=600_000)
    b.add("file_delete", 60_000, file_path="notes/RFI-old.bak", was_temporary=True)
    b.write("notes/RFI-old.bak", _doc(30), gap_ms=120_000)
    assert _signals(b)["E"]["cleaned"] + _signals(b)["E"].get("discarded", 0) >= 1, _signals(b)["E"]


def test_a_documents_rendered_companion_folder_is_the_renderers(session_builder):
    # A data journalist who keeps everything at the root of their project knits an R
    # Markdown analysis each session: knitr makes `<name>_files/figure-html/` with the
    # charts and `<name>_cache/` beside the document. Before, every render read as the
    # person making folders two levels down (C called M for flat people) and the rendered
    # charts as their visual output.
    def make(b, i):
        b.write(f"rates_{i:02d}.Rmd", _doc(40), gap_ms=600_000)
        b.add("dir_create", 4_000, dir_path=f"rates_{i:02d}_files", depth=1, sibling_count=3)
        b.add("dir_create", 0, dir_path=f"rates_{i:02d}_files/figure-html", depth=2, sibling_count=0)
        b.add("dir_create", 0, dir_path=f"rates_{i:02d}_cache", depth=1, sibling_count=4)
        for n in range(1, 4):
            b.write(f"rates_{i:02d}_files/figure-html/chunk-{n}.png", "x" * 9_000, gap_ms=3_000, snapshot=False)
        b.write(f"rates_{i:02d}.html", "<html>" + "x" * 20_000, gap_ms=2_500)

    sig = _signals(_user_session(session_builder, make))
    assert sig["C"]["dirs"] == 0, sig["C"]
    assert sig["F"]["images"] == 0, sig["F"]
    est = _user(session_builder, make, 6)
    assert est["C"].tier == "R", est["C"]

    # A folder of the person's own named after their report (`report_figures/`) stays theirs,
    # and so do the charts they save into it.
    b = session_builder("own")
    b.write("report.md", _doc(40), gap_ms=600_000)
    b.add("dir_create", 60_000, dir_path="report_figures", depth=1, sibling_count=0)
    b.write("report_figures/trend.png", "x" * 9_000, gap_ms=60_000, snapshot=False)
    sig = _signals(b)
    assert sig["F"]["images"] == 1 and sig["F"]["figure_dirs"] == 1, sig["F"]


def test_a_screenshot_named_by_the_second_it_was_taken_is_no_visual_output(session_builder):
    # A developer who writes text only takes a screenshot of the app now and then: the
    # emulator saves `Screenshot_<date>_<time>.png`, named by the second it was taken. Before,
    # each read as a chart of the person's (F called L at p 0.93-1.00 for text-only people).
    import datetime as dt

    def shot(b, gap_ms=60_000):
        b.t += gap_ms
        name = dt.datetime.fromtimestamp(b.t / 1000, dt.UTC).strftime("Screenshot_%Y%m%d_%H%M%S.png")
        return b.write(f"screenshots/{name}", "x" * 40_000, gap_ms=0, snapshot=False), f"screenshots/{name}"

    def make(b, i):
        b.write(f"docs/notes-{i:02d}.md", _doc(30), gap_ms=600_000)
        shot(b)

    sig = _signals(_user_session(session_builder, make))
    assert sig["F"]["images"] == 0, sig["F"]
    assert _user(session_builder, make, 6)["F"].tier != "L"

    # Removing a capture later is still the person's cleanup, and a chart named for what it
    # shows is still their visual output.
    b = session_builder("own")
    b.write("docs/notes.md", _doc(30), gap_ms=600_000)
    _, path = shot(b)
    b.read(path)
    b.add("file_delete", 60_000, file_path=path, file_age_ms=61_000)
    b.write("figures/latency_by_device.png", "x" * 9_000, gap_ms=60_000, snapshot=False)
    sig = _signals(b)
    assert sig["F"]["images"] == 1, sig["F"]
    assert sig["E"]["cleaned"] == 1, sig["E"]


def test_one_folder_for_every_document_is_a_root_only_where_the_work_lies_there_too(session_builder):
    # A researcher whose recorder's root is their home keeps everything of their study in
    # `Studies/clinic/`: the notes they write and the transcripts they read. That folder is
    # their root, and writing there is writing at the root (flat).
    def flat(b, i):
        for n in range(3):
            b.read(f"Studies/clinic/transcript-{i}-{n}.txt")
        b.write(f"Studies/clinic/notes-{i:02d}.md", _doc(40), gap_ms=600_000)

    assert _user(session_builder, flat, 8)["C"].tier == "R"

    # A developer who files every note into the project's `docs/` while reading and editing the
    # sources all over the project files one level down: no root of theirs (before: C called
    # flat, p 0.59-0.72, for five moderate organisers of one model).
    def moderate(b, i):
        for n in range(3):
            b.read(f"app/src/main/feature{n}/Screen{i}.kt")
        b.edit(f"app/src/main/feature{i % 3}/Screen{i}.kt", 6, 2)
        b.write(f"docs/notes-{i:02d}.md", _doc(40), gap_ms=600_000)

    est = _user(session_builder, moderate, 8)["C"]
    assert est.tier in ("M", "unknown") and est.posterior["R"] < 0.5, est


def test_filing_three_levels_below_where_one_works_session_after_session_is_deep_nesting(session_builder):
    # A mathematician works on the paper at their project's root and files every note three
    # levels down, in `notes/<year>/<month>/`, adding the month's folder inside the tree when
    # it is new. One folder added at a time reads as an adaptive organiser's single level
    # (before: C called M at p 0.70-0.98 for such deep nesters); where they file says more.
    def deep(b, i):
        b.read("main.tex")
        b.read("notes/2025/index.md")
        b.edit("main.tex", 4, 1)
        if i % 3 == 0:
            b.add("dir_create", 30_000, dir_path=f"notes/2025/{i:02d}", depth=3, sibling_count=i)
        b.write(f"notes/2025/{i // 3 * 3:02d}/note-{i:02d}.md", _doc(30), gap_ms=300_000)

    est = _user(session_builder, deep, 9)["C"]
    assert est.tier == "L", est

    # A paralegal whose recorder's root is their home files at the root of each matter, three
    # levels down (`Documents/Matters/<matter>/`), where they read and work too: that depth
    # is the recorder's, not their nesting.
    def flat(b, i):
        matter = f"Documents/Matters/{1400 + i % 4} matter"
        b.read(f"{matter}/complaint.pdf")
        b.read(f"{matter}/exhibit-{i}.pdf")
        b.write(f"{matter}/summary-{i:02d}.md", _doc(30), gap_ms=300_000)

    assert _user(session_builder, flat, 9)["C"].tier != "L"


def test_a_nester_who_works_inside_their_tree_still_files_below_where_their_work_begins(session_builder):
    # A school psychologist keeps `<year>/<school>/<student>/`, adds a new student's folder
    # and files the reports there, reading the student's records inside the tree and, now and
    # then, the district's template at the top. Most of their reading lies inside the tree
    # they built; where their work begins is the top (alt474: such people read as moderate
    # organisers at p 0.84-1.00 when the median of their reading's depth was the floor).
    def nester(b, i):
        if i % 3 == 0:
            b.read("Templates/report_template.md")
        b.read(f"2025-26/Lincoln/S{i + 40}/referral.md")
        b.read(f"2025-26/Lincoln/S{i + 40}/teacher_input.md")
        student = f"2025-26/Lincoln/S{i // 3}"
        if i % 3 == 0:  # a new student's folder; their later reports go into it
            b.add("dir_create", 30_000, dir_path=student, depth=3, sibling_count=i + 20)
        b.write(f"{student}/report-{i % 3}.md", _doc(30), gap_ms=300_000)

    est = _user(session_builder, nester, 12)["C"]
    assert est.tier == "L", est


def test_a_session_whose_only_new_text_is_data_says_nothing_of_visual_habits(session_builder):
    # A billing clerk who writes markdown tables when they write; most of their sessions only
    # see the practice system's nightly exports (`Denials_20240318.csv`) arrive. Before, each
    # such session read as text-only output (the exports counted as texts beside the data),
    # and nine of them nearly outweighed three with tables (R 0.36).
    def make(b, i):
        b.write(f"exports/Denials_202403{i + 1:02d}.csv", "claim,code\n1001,CO-97\n1002,PR-1\n")
        if i % 4 == 0:
            b.write(f"notes/denials-{i:02d}.md", _doc(10) + "| code | n |\n|---|---|\n| CO-97 | 4 |\n| PR-1 | 2 |\n",
                    gap_ms=300_000)

    est = _user(session_builder, make, 12)["F"]
    assert est.tier == "M" and est.posterior["R"] < 0.1, est
    # a session that wrote prose besides the export still shows text only
    b = session_builder("letter")
    b.write("exports/Denials_20240301.csv", "claim,code\n1001,CO-97\n")
    b.write("appeal.md", _doc(30), gap_ms=300_000)
    assert session_tiers(_signals(b))["F"]["tier"] == "R"


def test_a_visual_heavy_persons_tables_are_their_own_habit(session_builder):
    # A design engineer puts FEA plots into a figures folder in a third of their reports and
    # markdown tables into all (alt227). Before, each table-only session was read as a
    # balanced writer's signature that a visual-heavy person shows by chance (5%), and the
    # person was called balanced at p 1.00. A balanced writer whose tables come with one
    # chart in twelve sessions stays balanced.
    table = "| load | stress |\n|---|---|\n| 10 kN | 41 MPa |\n| 20 kN | 83 MPa |\n"

    def make(charts_every):
        def session(b, i):
            b.write(f"reports/test-{i:02d}.md", _doc(30) + table)
            if i % charts_every == 0:
                b.write(f"reports/figures/stress-{i:02d}.png", "", snapshot=False, gap_ms=60_000)
                b.write(f"reports/figures/strain-{i:02d}.png", "", snapshot=False, gap_ms=60_000)
        return session

    visual = _user(session_builder, make(3), 12)["F"]
    assert visual.tier == "L", visual
    balanced = _user(session_builder, make(12), 12)["F"]
    assert balanced.tier == "M", balanced


def test_a_picture_copied_and_reworked_is_visual_output(session_builder):
    # A QA engineer copies the screenshot a failed test left in test-results/ next to their bug
    # report under a name of their own, then crops and marks it up (a save over the copy). Before,
    # only pictures created in the session were visual output, and the session read as text only.
    # A copy left as it is (a file manager's) is no visual work.
    def session(rework):
        b = session_builder("bug")  # the screenshot is from the morning's test run
        b.add("file_copy", 60_000, source_path="test-results/login-chromium/test-failed-1.png",
              dest_path="login-spinner.png", is_backup=False)
        if rework:
            b.write("login-spinner.png", "", op="overwrite", snapshot=False, gap_ms=120_000)
        b.write("QA-2610-login.md", _doc(20), gap_ms=60_000)
        return session_tiers(_signals(b))["F"]["tier"]

    assert session(rework=True) == "L"
    assert session(rework=False) == "R"


def test_a_web_page_saved_with_its_pictures_is_no_visual_work_of_the_persons(session_builder):
    # A chemist's lab notebook exports each page as a PDF and a web page saved whole:
    # `RM-1-094.html` with its pictures in `RM-1-094_files/`, the page naming them. The chemist
    # writes a note with a table of yields now and then. Before, the page naming its pictures
    # made them the person's figures: balanced chemists read visual-heavy (alt499). A page the
    # person wrote that shows a figure of theirs stays visual work.
    def chemist(b, i):
        page = f"ELN_exports/RM-1-{90 + i}"
        b.write(f"{page}.pdf", "%PDF-1.7 page", snapshot=False)
        b.write(f"{page}.html", "<html><body><h1>Entry</h1>\n" + "".join(
            f'<p>Step {k}: stirred overnight.</p>\n<img src="RM-1-{90 + i}_files/image00{k}.png">\n'
            for k in range(1, 4)) + "</body></html>\n", gap_ms=200_000)
        for k in range(1, 4):
            b.write(f"{page}_files/image00{k}.png", "PNG", snapshot=False, gap_ms=4_000 if k == 1 else 100)
        if i % 2 == 0:
            b.write(f"notes/yields-{i}.md", "# Yields\n| compound | yield |\n|---|---|\n"
                    + "".join(f"| 7{k} | {60 + k}% |\n" for k in range(6)) + _doc(20), gap_ms=600_000)
    est = _user(session_builder, chemist, 8)["F"]
    assert est.tier == "M", est
    b = session_builder()
    b.write("figures/yield_trend.png", "PNG", snapshot=False)
    b.write("summary.html", '<html><body><p>Yields rose.</p><img src="figures/yield_trend.png"></body></html>\n')
    assert session_tiers(_signals(b))["F"]["tier"] == "L"


def test_a_folder_added_where_earlier_sessions_worked_is_one_level(session_builder):
    # A historian's recorder watches their whole profile and logs a new folder alone, not the
    # folders above it. Their notes live in Desktop/Thesis/Notes; now and then they make one
    # folder beside it (Desktop/Thesis/Literature-3) for a download. Before, nothing in that
    # session showed that Desktop/Thesis was there, so the one folder read as three levels
    # built (a deep nester's, alt226). What an earlier session showed was there existed.
    def make(b, i):
        if i % 2 == 0:
            b.read(f"Desktop/Thesis/Notes/reading-{i}.md")
            b.write(f"Desktop/Thesis/Notes/summary-{i}.md", _doc(20))
        else:
            b.add("dir_create", dir_path=f"Desktop/Thesis/Literature-{i}", depth=3, sibling_count=i)
            b.add("file_move", old_path=f"Downloads/article-{i}.pdf",
                  new_path=f"Desktop/Thesis/Literature-{i}/article-{i}.pdf", destination_directory_depth=3)

    est = _user(session_builder, make, 10)["C"]
    assert est.tier == "M", est

    # The first session has no earlier one: `mkdir -p` logged as its deepest folder is three
    # levels made, and what later sessions show inside that tree does not undo it.
    def nester(b, i):
        if i == 0:
            b.add("dir_create", dir_path="projects/alpha/drafts", depth=3, sibling_count=0)
            b.write("projects/alpha/drafts/plan.md", _doc(20))
        else:
            b.read("projects/alpha/drafts/plan.md")
            b.write(f"projects/alpha/drafts/step-{i}.md", _doc(20))

    out = []
    for i in range(4):
        b = session_builder(f"n{i}")
        nester(b, i)
        out.append(_signals(b))
    from filegram.memory.tiers import known_tree
    assert known_tree(out)[0]["C"]["levels_made"] == 3


def test_a_sessions_folder_signals_are_the_same_in_every_process(session_builder, tmp_path):
    # What a session showed of its folders is stored with it; `memory rebuild` in another
    # process must store the same (string hashing differs per process: set order did too).
    b = session_builder("tree")
    for k in range(4):
        b.add("dir_create", 30_000, dir_path=f"Desktop/Work/Client {k}/2025", depth=4)
        b.add("file_move", 5_000, old_path=f"Downloads/brief-{k}.pdf", new_path=f"Desktop/Work/Client {k}/2025/brief.pdf")
    events = tmp_path / "events.json"
    events.write_text(json.dumps(b.events))
    code = ("import json, sys; from filegram.memory import encode_session;"
            "print(json.dumps(encode_session(json.load(open(sys.argv[1])), lambda h: None).signals['C'], sort_keys=True))")
    outs = {subprocess.run([sys.executable, "-c", code, str(events)], capture_output=True, text=True, check=True,
                           env=dict(os.environ, PYTHONHASHSEED=str(seed))).stdout for seed in (1, 2, 3, 4)}
    assert len(outs) == 1 and json.loads(outs.pop())["above"]


def test_pictures_a_program_writes_again_are_no_visual_output(session_builder):
    # `fastlane snapshot` empties its screenshots folder and writes the set again, with an HTML
    # page that shows them all, in sessions of people who write only text (alt243). Before,
    # each run read as a visual-heavy person's figures. A chart the person replaces (one
    # old picture deleted, a new one saved) is still their visual work.
    def run(b):
        shots = [f"fastlane/screenshots/en-US/iPhone-0{k}_Home.png" for k in range(6)]
        for p in shots:
            b.add("file_delete", 3, file_path=p)
        for p in [*shots, "fastlane/screenshots/en-US/iPhone-06_Settings.png"]:
            b.write(p, "", snapshot=False, gap_ms=2_000)
        page = "<html>" + "".join(f'<img src="en-US/{p.rsplit("/", 1)[1]}">' for p in shots) + "</html>\n"
        b.write("fastlane/screenshots/screenshots.html", page, gap_ms=500)

    def make(b, i):
        b.write(f"notes/release-{i}.md", _doc(20))
        if i % 2 == 0:
            run(b)

    est = _user(session_builder, make, 8)["F"]
    assert est.tier == "R", est

    b = session_builder("chart")
    b.add("file_delete", file_path="figures/latency.png")
    b.write("figures/latency.png", "", snapshot=False, gap_ms=30_000)
    b.write("figures/throughput.png", "", snapshot=False, gap_ms=30_000)
    b.write("report.md", _doc(20) + "![latency](figures/latency.png)\n", gap_ms=60_000)
    assert session_tiers(_signals(b))["F"]["tier"] == "L"


def test_the_homes_standard_folders_are_not_the_persons_levels(session_builder):
    # A recorder that watches the whole home sees a flat person's notes on the Desktop one
    # level down, and a moderate organiser's `Documents/<course>/<kind>/` three levels down
    # (alt242, alt244, alt246). Before, the flat person read as filing below the root (M) and
    # the moderate one as a deep nester. Desktop, Documents and a sync client's Documents are
    # the system's folders, where everyone's own tree begins.
    def flat(b, i):
        b.read(f"Downloads/minutes-{i}.pdf")
        b.write(f"Desktop/notices {i} Nov.txt", _doc(20))

    assert _user(session_builder, flat, 10)["C"].tier == "R"

    def moderate(b, i):
        course = f"Documents/CHEM10{i % 3}"
        b.read(f"Downloads/lab-{i}.pdf")
        if i % 3 == 0:
            b.add("dir_create", dir_path=f"{course}/labs", depth=3, sibling_count=i)
        b.write(f"{course}/labs/report-{i:02d}.md", _doc(30), gap_ms=300_000)

    assert _user(session_builder, moderate, 9)["C"].tier == "M"
    from filegram.memory.signals import home_areas
    assert [home_areas(p) for p in ("Desktop/a.txt", "OneDrive - Council/Documents/a/b.docx", "notes/a.md")] == [1, 2, 0]


def test_icloud_fetching_and_evicting_files_is_the_sync_clients(session_builder):
    # iCloud Drive keeps a file it has not downloaded as a placeholder `.name.icloud` beside
    # it. Opening one logs iCloud writing the file and removing the placeholder; evicting one
    # logs the file removed and the placeholder written (alt278, and four models before it).
    # Before, a fetched plan the person then saved over read as a document they wrote (minimal
    # writers called balanced at p 0.92-1.00) and every eviction as their cleanup.
    def make(b, i):
        plan = f"Projects/Plan {i}.md"
        b.write(plan, _doc(60), gap_ms=60_000)
        b.add("file_delete", 400, file_path=f"Projects/.Plan {i}.md.icloud")
        b.read(plan)
        b.write(plan, _doc(150), op="overwrite", gap_ms=300_000)
        b.write(f"Inbox/notes {i}.md", _doc(12, bullets=True), gap_ms=300_000)
        b.add("file_delete", 60_000, file_path=f"Archive/minutes {i}.md")
        b.write(f"Archive/.minutes {i}.md.icloud", "", gap_ms=300)

    sig = _signals(_user_session(session_builder, make))
    assert sig["B"]["docs"] == 1 and sig["E"]["deletes"] == 0, (sig["B"], sig["E"])
    est = _user(session_builder, make, 8)
    assert est["B"].tier == "R", est["B"]
    assert est["E"].counts["L"] == est["E"].counts["M"] == 0, est["E"]

    # A file the person removes, with no placeholder coming in its place, is their cleanup.
    b = session_builder("own")
    b.write("Inbox/scratch.md", _doc(5), gap_ms=60_000)
    b.add("file_delete", 120_000, file_path="Inbox/scratch.md")
    b.write("Inbox/.other.md.icloud", "", gap_ms=300)
    assert _signals(b)["E"]["deletes"] == 1, _signals(b)["E"]


def test_a_file_syncthing_receives_from_another_device_is_no_rewrite(session_builder):
    # Syncthing writes what arrives as `.syncthing.<name>.tmp`, moves the old file into
    # `.stversions/` and renames the new one into place (alt284's tablet drafts, and five models
    # before it). Before, each arrival read as the person rewriting the file whole: writers who
    # revise in small passes on the desktop were called whole-file rewriters at p 0.92-1.00.
    def arrive(b, name, text):
        b.write(f"Writing/.syncthing.{name}.tmp", text, gap_ms=60_000)
        b.add("file_move", 20, old_path=f"Writing/{name}", new_path=f"Writing/.stversions/{name[:-3]}~20260115-121929.md")
        b.add("file_rename", 30, old_path=f"Writing/.syncthing.{name}.tmp", new_path=f"Writing/{name}")

    def make(b, i):
        arrive(b, f"chapter-{i}.md", _doc(120, topic="the harbour"))
        b.read(f"Writing/chapter-{i - 1}.md")
        for _ in range(4):
            b.edit(f"Writing/chapter-{i - 1}.md", 2, 1)

    sig = _signals(_user_session(session_builder, make))
    assert sig["D"]["overwrites"] == 0 and sig["B"]["docs"] == 0, (sig["D"], sig["B"])
    assert _user(session_builder, make, 8)["D"].tier == "L"

    # The person's own editor saving through a temporary is still their save.
    b = session_builder("own")
    b.write("Writing/notes.md", _doc(40), gap_ms=60_000)
    b.write("Writing/notes.md.tmp", _doc(40, topic="the quay"), gap_ms=300_000)
    b.add("file_rename", 30, old_path="Writing/notes.md.tmp", new_path="Writing/notes.md")
    assert _signals(b)["D"]["overwrites"] == 1, _signals(b)["D"]


def test_clearing_out_several_old_files_is_a_selective_curators_habit(session_builder):
    # A quantity surveyor who removes the superseded revisions and conflicted copies of a job's
    # cost plan as they go, and rarely has scratch files of their own to remove (alt317).
    # Before, each such session read as occasional cleanup at half weight, and the selective
    # curator was called pragmatic at p 0.93.
    def make(b, i):
        b.read(f"Jobs/2417/Cost Plan rev{i + 2}.md")
        b.write(f"Jobs/2417/Cost Plan rev{i + 3}.md", _doc(40, topic="the cost plan"))
        if i % 4 == 3:
            return  # a session with nothing to clear
        for old in (f"Jobs/2417/Cost Plan v{i + 1}.md", f"Jobs/2417/Cost Plan (Ann's conflicted copy {i}).md"):
            b.add("file_delete", 60_000, file_path=old, file_age_ms=3e9)

    sig = _signals(_user_session(session_builder, make))
    assert sig["E"]["cleaned"] == 0 and sig["E"]["superseded"] + sig["E"]["discarded"] == 2, sig["E"]
    assert session_tiers(sig)["E"]["tier"] == "L"
    assert _user(session_builder, make, 12)["E"].tier == "L"

    # old versions removed while the session's own scratch file stays is mixed evidence:
    # occasional cleanup, as before
    b = _user_session(session_builder, make)
    b.write("Jobs/2417/tmp_rates.md", "scratch\n", gap_ms=30_000)
    assert session_tiers(_signals(b))["E"]["tier"] == "M"

    # one old file removed now and then is still occasional cleanup
    def now_and_then(b, i):
        b.write(f"Jobs/2417/Cost Plan rev{i + 3}.md", _doc(40, topic="the cost plan"))
        if i % 2:
            b.add("file_delete", 60_000, file_path=f"Jobs/2417/Cost Plan v{i + 1}.md", file_age_ms=3e9)
        b.write(f"Jobs/2417/scratch_{i}.tmp", "x\n", gap_ms=30_000)

    assert _user(session_builder, now_and_then, 12)["E"].tier in ("M", "unknown")


def test_a_table_added_to_a_document_one_keeps_is_output_with_a_table(session_builder):
    # A climate scientist adds a LaTeX table of trends to the paper draft they have been
    # revising for weeks, and writes short notes without tables in between (alt334). Before,
    # only new documents were read for tables: the sessions that revised the paper gave F no
    # chance, and the balanced scientist read as text-only at p 0.83-0.91.
    from filegram.store import content_hash

    def make(b, i):
        b.read("paper/draft.tex")
        if i % 2:
            b.write(f"notes/reply-{i}.md", _doc(12, topic="the co-author's questions"))
            return
        rows = [r"\begin{tabular}{lrr}", r"Model & Trend & $r$ \\"] + [f"M{i}{k} & 0.{k}5 & 0.{k}2 \\\\" for k in range(5)]
        diff = "--- a/paper/draft.tex\n+++ b/paper/draft.tex\n@@ -17,0 +18,8 @@\n" + "".join(
            f"+{r}\n" for r in [*rows, r"\end{tabular}"])
        h = content_hash(diff.encode())
        b.blobs[h] = diff.encode()
        b.add("file_edit", 60_000, file_path="paper/draft.tex", file_type="tex", lines_added=len(rows) + 1,
              lines_deleted=0, media_ref_diff={"type": "diff", "hash": h, "path": f"media/diffs/{h}.diff"})

    sig = _signals(_user_session(session_builder, make))
    assert sig["F"]["opp"] and sig["F"]["table_rows"] >= 2, sig["F"]
    assert _user(session_builder, make, 10)["F"].tier == "M"

    # an edit that adds prose gives F no chance
    b = session_builder("prose")
    diff = "--- a/paper/draft.tex\n+++ b/paper/draft.tex\n@@ -17,0 +18,2 @@\n+The trend is robust.\n+See below.\n"
    h = content_hash(diff.encode())
    b.blobs[h] = diff.encode()
    b.add("file_edit", file_path="paper/draft.tex", file_type="tex", lines_added=2, lines_deleted=0,
          media_ref_diff={"type": "diff", "hash": h, "path": f"media/diffs/{h}.diff"})
    assert not _signals(b)["F"]["opp"]


def test_files_packed_into_an_archive_named_after_their_folder_are_kept_not_removed(session_builder):
    # A lab's nightly archiver zips a month-old run folder into `Archive/<run>.zip` and then
    # deletes the folder's files (alt344); a person tidying may do the same by hand. The files
    # are kept, in the archive: before, every such session read as the person deleting files
    # from before, and preservative analysts were called pragmatic at p 0.85-0.92.
    def make(b, i, remove_unpacked=False):
        b.write(f"notes-{i}.md", _doc(30))
        run = f"S24{i:02d}_0715.sequence"
        if not remove_unpacked:
            b.write(f"Archive/S24{i:02d}_0715.zip", "zip bytes " * 400, gap_ms=30_000, snapshot=False)
        for k in range(4):
            b.add("file_delete", 40, file_path=f"Data/{run}/inj_{k:03d}.dx", file_age_ms=3e9)
    keeper = _user(session_builder, make, 8)["E"]
    assert keeper.counts["L"] == keeper.counts["M"] == 0, keeper
    # the same files deleted without an archive of them are the person's removals
    tidy = _user(session_builder, lambda b, i: make(b, i, remove_unpacked=True), 8)["E"]
    assert tidy.counts["L"] + tidy.counts["M"] > 0, tidy


def test_macos_apple_double_files_are_the_systems(session_builder):
    # On a share or a synced folder macOS writes `._<name>` (4 KB of resource fork) beside each
    # file it saves (alt345's copywriters on Dropbox, alt348's prepress NAS). Read as the
    # person's, each was a second document of ~90 lines: a minimal writer of 20-line bullet
    # lists was called comprehensive at p 0.97; and its removal was cleanup.
    def make(b, i):
        b.write(f"Copy/taglines-{i}.md", _doc(20, bullets=True))
        b.write(f"Copy/._taglines-{i}.md", "\0" * 4096, gap_ms=200, snapshot=False)
        b.add("file_delete", 300_000, file_path=f"Copy/._old-{i}.md", file_age_ms=5e8)
    sig = _signals(_user_session(session_builder, make))
    assert sig["B"]["docs"] == 1 and sig["B"]["lines"] == 20, sig["B"]
    assert not sig["E"]["opp"], sig["E"]


def test_folders_named_like_files_are_the_programs_containers(session_builder):
    # An HPLC's data system makes a `<sample>.D` folder for each injection inside the run's
    # `<run>.sequence` folder (alt344); macOS packages and Anki's `collection.media` are named
    # so too. Read as the person's, a flat analyst who saves every note at the root made a
    # folder three levels down in every session and was called nested or adaptive at p 1.0.
    def make(b, i):
        b.write(f"note-{i}.md", _doc(20))
        run = f"Data/S24{i:02d}_0910.sequence"
        for k in range(2):
            b.add("dir_create", 200_000, dir_path=f"{run}/{k:03d}-9010{i}.D", depth=3)
            b.write(f"{run}/{k:03d}-9010{i}.D/DAD1A.ch", "signal " * 300, gap_ms=40, snapshot=False)
    est = _user(session_builder, make, 8)["C"]
    assert est.counts["L"] == est.counts["M"] == 0, est
    # a folder the person names with words and a version stays theirs
    b = session_builder("words")
    b.add("dir_create", dir_path="Clients/Halden/2024.03", depth=3)
    b.write("Clients/Halden/2024.03/report.md", _doc(40))
    assert _signals(b)["C"]["dirs"] == 1


def test_a_compute_file_removed_as_its_program_writes_its_results_is_the_programs(session_builder):
    # HEC-RAS makes `<plan>.bco01` when a run starts and removes it the moment it writes the
    # run's `computeMsgs.txt` over the last run's, 20-40 s later (alt357). Before, each run read
    # as the person removing a scratch file, and preservative engineers were called selective.
    def make(b, i, tidy=False):
        b.write(f"notes-{i}.md", _doc(20))
        for k in (1, 2):
            b.write(f"Model/plan.bco0{k}", "compute " * 50, gap_ms=60_000, snapshot=False)
            b.write(f"Model/plan.p0{k}.computeMsgs.txt", f"run {i} {k} finished\n", op="overwrite", gap_ms=30_000)
            b.add("file_delete", 80, file_path=f"Model/plan.bco0{k}", file_age_ms=30_080)
        if tidy:  # their own scratch, removed as one act
            b.write(f"Model/scratch_levels_{i}.txt", "levels\n", gap_ms=20_000)
            b.add("file_delete", 120_000, file_path=f"Model/scratch_levels_{i}.txt", file_age_ms=1.2e5)
    keeper = _user(session_builder, make, 8)["E"]
    assert keeper.counts["L"] == keeper.counts["M"] == 0, keeper
    tidy = _user(session_builder, lambda b, i: make(b, i, tidy=True), 8)["E"]
    assert tidy.counts["R"] == 0 and tidy.tier != "R", tidy


def test_a_nightly_export_that_drops_its_oldest_file_seconds_later_is_the_exporters(session_builder):
    # A collections database exports `objects_<date>.xml` every night and removes the oldest
    # export a few seconds after writing the new one (alt355; a share's one-second timestamps
    # put 4 s between the two). Before, only a removal within two seconds was the exporter's
    # step, and preservative registrars read as selective at p 0.58-0.96.
    def make(b, i, tidy=False):
        b.write(f"condition-report-{i}.md", _doc(30))
        b.write(f"DB_Exports/objects_202502{i + 10:02d}.xml", "<objects/>" * 300, gap_ms=600_000, snapshot=False)
        b.add("file_delete", 4_000, file_path=f"DB_Exports/objects_202501{i + 10:02d}.xml", file_age_ms=2.6e9)
        if tidy:
            _remove_own_scratch(b, i)
    _assert_only_own_removals_count(session_builder, make)


def test_an_applications_named_autosave_is_the_applications(session_builder):
    # A newsroom editor autosaves `<story>.autosave` every minute beside the story and removes
    # it when the story is published (alt365); Simulink keeps `<model>.slx.autosave` until the
    # model is saved. Before, each story read as the person removing a scratch file, and
    # preservative journalists were called pragmatic at p 0.86.
    def make(b, i, tidy=False):
        story = f"Stories/2025-01-1{i}_match"
        for k in range(3):
            b.write(f"{story}/2025-01-1{i}_match.autosave", f"draft {k}\n", op="create" if k == 0 else "overwrite",
                    gap_ms=60_000)
        b.write(f"{story}/2025-01-1{i}_match.md", _doc(40), gap_ms=60_000)
        b.add("file_delete", 1_200, file_path=f"{story}/2025-01-1{i}_match.autosave", file_age_ms=1.8e5)
        if tidy:
            _remove_own_scratch(b, i)
    _assert_only_own_removals_count(session_builder, make)


def test_an_autosave_named_so_by_its_application_is_the_applications(session_builder):
    # SketchUp writes `~AutoSave_<model>.skp` beside the model every few minutes and removes it
    # when the model is closed (alt403); Premiere keeps the newest of its copies in
    # `Adobe Premiere Pro Auto-Save/`. The recorder calls the removal temporary. Before, a
    # pragmatic designer removed "scratch" in 14 of 15 sessions and was called selective at p 1.00.
    def make(b, i, tidy=False):
        b.write(f"Projects/house_{i}/notes-{i}.md", _doc(30))
        for k in range(3):
            b.write(f"Projects/house_{i}/~AutoSave_kitchen_model.skp", f"SKP{k}" * 400, op="create" if k == 0 else "overwrite",
                    gap_ms=300_000, snapshot=False)
        b.write(f"Projects/house_{i}/kitchen_model.skp", "SKP" * 500, gap_ms=120_000, snapshot=False)
        b.add("file_delete", 90_000, file_path=f"Projects/house_{i}/~AutoSave_kitchen_model.skp", file_age_ms=1.2e5,
              was_temporary=True)
        b.write(f"Adobe Premiere Pro Auto-Save/cut_{i}-2026-02-0{i + 1}_10-00-00.prproj", "<prproj/>" * 90, gap_ms=60_000,
                snapshot=False)
        b.add("file_delete", 200, file_path=f"Adobe Premiere Pro Auto-Save/cut_{i}-2026-01-0{i + 1}_10-00-00.prproj",
              file_age_ms=2e9)
        if tidy:
            _remove_own_scratch(b, i)
    _assert_only_own_removals_count(session_builder, make)


def test_a_programs_log_kept_beside_its_output_is_no_keepers_leftover(session_builder):
    # An instrument's run writes `acq.log` beside its results (alt344), a RIP writes
    # `<job>.log` into its Processed folder (alt348): the people of every tier keep them.
    # Before, each session that left one read as a person leaving a leftover lying, against
    # the selective. Removing a log one made is still a removal.
    def session(i, remove_log=False):
        b = session_builder(f"s{i}")
        b.write(f"report-{i}.md", _doc(30))
        b.write(f"runs/S{i}/acq.log", "injection 1 ok\n", gap_ms=60_000)
        if remove_log:
            b.add("file_delete", 90_000, file_path=f"runs/S{i}/acq.log", file_age_ms=9e4)
        return _signals(b)["E"]
    kept = session(0)
    assert not kept["opp"] and kept["leftovers"] == 0, kept
    removed = session(1, remove_log=True)
    assert removed["opp"] and removed["cleaned"] == 1, removed


def test_a_recorder_counting_from_a_folder_inside_the_sync_folder_is_not_counted_down_twice(session_builder):
    # An adjuster's recorder counts from `OneDrive - Carrier/Claims/` (its level 0) while the
    # import keeps paths from the home. Before, the OneDrive folder was taken off the recorded
    # depth again: every claim folder read as the root (C = R for organisers, alt429).
    claim = "OneDrive - Summit/Claims/SHA-23-341188 Abernathy"
    b = session_builder()
    b.add("dir_create", 60_000, dir_path=claim, depth=1)
    b.write(f"{claim}/Inspection_Report.txt", _doc(20), gap_ms=40_000)
    b.events[-1]["directory_depth"] = 1
    c = _signals(b)["C"]
    assert (c["max_dir_depth"], c["docs_below"], c["docs_at_root"]) == (1, 1, 0), c
    # a recorder that counts from the home has the home's folders in its depths: still taken off
    d = session_builder("home")
    d.write("Documents/report.md", _doc(20))
    d.write("OneDrive - Summit/Claims/notes.md", _doc(20))
    c = _signals(d)["C"]
    assert (c["docs_below"], c["docs_at_root"]) == (1, 1), c


def test_a_folder_a_program_writes_into_as_it_makes_it_is_the_programs(session_builder):
    # A backtest engine makes `results/<run-id>/` and writes the run's config into it 0.1 s
    # later, for flat quants and nesters alike (alt433). Before, every run read as two levels
    # of folders the person made (C = M for flat people).
    b = session_builder()
    b.edit("research/vol_term_structure.py", 4, 1)
    b.add("dir_create", 60_000, dir_path="research/results", depth=2)
    b.add("dir_create", 160, dir_path="research/results/s03_vol_term_c3240f", depth=3)
    b.write("research/results/s03_vol_term_c3240f/config.json", '{"window": 20}\n', gap_ms=110)
    b.write("research/results/s03_vol_term_c3240f/trades.parquet", "x" * 9_000, snapshot=False, gap_ms=12_000)
    assert _signals(b)["C"]["dirs"] == 0
    # the person's own folder, saved into seconds later, and files moved into a new folder at
    # once (Finder's "New Folder with Selection") stay their filing
    _assert_own_folder_counts(b, "research/strategies")
    c = session_builder("selection")
    c.write("notes/a.md", _doc(12))
    c.add("dir_create", 60_000, dir_path="notes/vol", depth=2)
    c.add("file_move", 200, old_path="notes/a.md", new_path="notes/vol/a.md")
    assert _signals(c)["C"]["dirs"] == 1
    # a folder made seconds before, by hand, above one a program filled at once stays theirs
    d = session_builder("by hand")
    d.add("dir_create", 60_000, dir_path="research/results", depth=2)
    d.add("dir_create", 4_000, dir_path="research/results/run1", depth=3)
    d.write("research/results/run1/config.json", '{"window": 20}\n', gap_ms=110)
    assert _signals(d)["C"]["dirs"] == 1


def test_a_folder_a_programs_file_opens_is_the_programs_whatever_comes_later(session_builder):
    # SolidWorks Simulation makes `<part>-Thermal 1-Results/` and writes its study file there
    # within seconds; its log and results follow minutes later, as the person's writes to the
    # recorder. Before, those later files made the folder the person's (C = L for flat engineers).
    folder = "PDM/Vault/Projects/HV20/Body/100-5191/revC/100-5191-Thermal 1-Results"
    b = session_builder()
    b.read("PDM/Vault/Projects/HV20/Body/100-5191/revC/100-5191.SLDPRT")
    b.add("dir_create", 60_000, dir_path=folder, depth=7)
    b.add("file_write", 2_800, file_path=f"{folder}/Thermal1.cwr", file_type="cwr", operation="create",
          content_length=90_000, directory_depth=7, authored=False)
    b.write(f"{folder}/Thermal1.log", "solver converged\n" * 3, gap_ms=86_000)
    assert _signals(b)["C"]["dirs"] == 0
    # where the person's own file arrives in those seconds too, the folder is theirs
    c = session_builder("theirs")
    c.add("dir_create", 60_000, dir_path="Projects/HV20/tests", depth=3)
    c.add("file_write", 2_000, file_path="Projects/HV20/tests/.report.md.swp", file_type="swp", operation="create",
          content_length=4_096, directory_depth=3, authored=False)
    c.write("Projects/HV20/tests/report.md", _doc(12), gap_ms=4_000)
    assert _signals(c)["C"]["dirs"] == 1


def test_a_notes_folder_is_the_root_though_the_work_lies_under_another_of_the_recorders_roots(session_builder):
    # An Android developer keeps every note in `Documents/notes/` and works on the app under
    # `AndroidStudioProjects/`; the recorder counts from each of those folders. Before, the code
    # read and edited over there made the notes folder "one folder of a wider workspace", and
    # a flat person's notes read as filing one level down (C = M or L).
    def make(b, i):
        for k in range(4):
            b.read(f"AndroidStudioProjects/Fernweh/app/src/main/java/feature/F{i}{k}.kt")
            b.events[-1]["directory_depth"] = 6
        b.edit("AndroidStudioProjects/Fernweh/app/src/main/java/feature/F0.kt", 3, 1)
        b.events[-1]["directory_depth"] = 6
        b.write(f"Documents/notes/release-notes-{i}.md", _doc(20))
        b.events[-1]["directory_depth"] = 1
    est = _user(session_builder, make, 8)
    assert est["C"].tier == "R", est["C"]


def test_filing_one_level_down_session_after_session_and_never_deeper_is_no_deep_nesting(session_builder):
    # A web developer saves each handoff note into the project's `docs/`, and never deeper.
    # Before, with nothing filed two or more levels down, deep nesting and one level of
    # folders stayed even and the call was unknown (alt436: five moderate organisers).
    def make(b, i):
        for k in range(3):
            b.read(f"src/components/Part{i}{k}.tsx")
        b.write(f"docs/handoff-{i}.md", _doc(30), gap_ms=60_000)
    est = _user(session_builder, make, 6)
    assert est["C"].tier == "M" and est["C"].posterior["L"] < 0.2, est["C"]
    # filing two or more levels down in some sessions leaves it to those sessions
    def deeper(b, i):
        make(b, i)
        if i % 2:
            b.write(f"docs/{i}/notes/handoff-{i}.md", _doc(30), gap_ms=60_000)
    assert _user(session_builder, deeper, 6)["C"].posterior["L"] >= 0.2


def test_finders_view_file_in_a_new_folder_says_nothing_of_who_made_it(session_builder):
    # Finder writes `.DS_Store` into a folder as soon as the person opens it; the person then
    # drags their files in. The folder is theirs, whatever the file manager wrote first.
    b = session_builder()
    b.write("Listings/comps-elm.txt", "12 Elm 450k\n")
    b.add("dir_create", 60_000, dir_path="Listings/Elm St", depth=2)
    b.add("file_write", 300, file_path="Listings/Elm St/.DS_Store", file_type="", operation="create",
          content_length=6_148, directory_depth=2, authored=False)
    b.add("file_move", 4_000, old_path="Listings/comps-elm.txt", new_path="Listings/Elm St/comps-elm.txt")
    assert _signals(b)["C"]["dirs"] == 1


def test_folders_that_hold_only_a_programs_token_named_folders_are_the_programs(session_builder):
    # A workflow engine (Nextflow) runs each task in `work/<2 hex>/<30 hex>/`, the task's own
    # folder named by its hash, the two above made for it. Flat bioinformaticians, who keep
    # their notes in the project's root, were called deep nesters at p 0.65-1.00 from
    # `work/3b/`, two levels no person names (alt523). A folder the person makes and files
    # into stays theirs, however a program named what it holds.
    def make(b, i):
        b.add("dir_create", dir_path="atac/work", depth=1)
        for k in range(3):
            shard = f"atac/work/{(i * 3 + k) % 256:02x}"
            task = f"{shard}/{(0x21af70bbbcf830336427cadcc943 + i * 3 + k):x}"
            b.add("dir_create", 300, dir_path=shard, depth=2)
            b.add("dir_create", 30_000, dir_path=task, depth=3)
            b.add("file_write", 15_000, file_path=f"{task}/S{k}.quant.sf", file_type="sf", operation="create",
                  content_length=80_000, directory_depth=3)
        b.write(f"atac/notes_{i}.md", _doc(30), gap_ms=60_000)
    c = _signals(_user_session(session_builder, make))["C"]
    assert c["dirs"] == 0 and c["levels_made"] == 0, c
    assert _user(session_builder, make, 8)["C"].tier == "R"

    def filer(b, i):
        make(b, i)
        b.add("dir_create", 60_000, dir_path=f"atac/results/run{i}", depth=2)
        b.write(f"atac/results/run{i}/summary.md", _doc(30))
    c = _signals(_user_session(session_builder, filer))["C"]
    assert c["dirs"] == 1, c


def test_a_folder_removed_whole_or_a_file_with_its_companions_is_one_removal(session_builder):
    # A GIS analyst removes one scratch layer: a shapefile is five files of one name. A
    # bioinformatician removes one task folder with `rm -r`. Counted file by file, one
    # occasional removal read as a selective person's several (alt394, alt390: pragmatic
    # people called selective at p 0.76-0.92).
    def layer(b, i):
        b.write(f"gis/report_{i}.md", _doc(40))
        for ext in ("shp", "shx", "dbf", "prj", "cpg"):
            b.write(f"gis/tmp_clip_{i}.{ext}", "x\n", snapshot=False, gap_ms=20_000)
        for k, ext in enumerate(("shp", "shx", "dbf", "prj", "cpg")):
            b.add("file_delete", 15_000 if k == 0 else 40, file_path=f"gis/tmp_clip_{i}.{ext}")
    e = _signals(_user_session(session_builder, layer))["E"]
    assert e["cleaned"] == 1 and e["leftovers"] == 1, e
    b = session_builder("two")
    for name in ("tmp_a.csv", "tmp_b.csv"):
        b.write(f"data/{name}", "a,b\n1,2\n")
    for name in ("tmp_a.csv", "tmp_b.csv"):
        b.add("file_delete", 20_000, file_path=f"data/{name}")
    assert _signals(b)["E"]["cleaned"] == 2  # two scratch files are two removals
    b = session_builder("tasks")
    for k in range(2):
        task = f"proj/work/a{k}/{(0x5444f94c6df040878c3c869a66c9 + k):x}"
        b.write(f"{task}/S{k}.bam", "bam\n", snapshot=False)
        b.write(f"{task}/S{k}.bai", "bai\n", snapshot=False, gap_ms=20_000)
    b.add("file_delete", 60_000, file_path=f"proj/work/a0/{0x5444f94c6df040878c3c869a66c9:x}/S0.bam")
    b.add("file_delete", 200, file_path=f"proj/work/a0/{0x5444f94c6df040878c3c869a66c9:x}/S0.bai")
    e = _signals(b)["E"]
    assert e["cleaned"] == 1 and e["deletes"] == 2, e


def test_a_solvers_results_removed_as_it_runs_again_are_not_the_persons_cleanup(session_builder):
    # ETABS writes a model's results as one family of files (`.OUT .Y01 .K_ .LLA .LOG`,
    # one extension per kind) and removes some of them when the model runs again. Engineers
    # who never delete anything were called selective at p 0.88-1.00 (alt521). An old run
    # the person removes, which nothing writes again, stays theirs.
    def run(b, stem, exts=("EDB", "OUT", "Y01", "K_", "LLA", "LOG")):
        for ext in exts:
            b.write(f"calcs/{stem}.{ext}", "results\n", snapshot=False, gap_ms=10_000)

    def make(b, i):
        run(b, f"Block{i}_R01")
        for ext in ("OUT", "Y01", "K_"):
            b.add("file_delete", 7_000, file_path=f"calcs/Block{i}_R01.{ext}")
        run(b, f"Block{i}_R01", ("OUT", "Y01", "K_"))
        b.write(f"calcs/note_{i}.md", _doc(40), gap_ms=60_000)
    e = _signals(_user_session(session_builder, make))["E"]
    assert e["cleaned"] == 0 and e["deletes"] == 0, e
    assert _user(session_builder, make, 8)["E"].tier != "L"
    b = session_builder("old run")
    run(b, "Block9_R03")
    for ext in ("EDB", "OUT", "Y01", "K_", "LLA", "LOG"):
        b.add("file_delete", 5_000, file_path=f"calcs/Block9_R01.{ext}")
    assert _signals(b)["E"]["deletes"] == 6  # a superseded run removed by the person


def test_a_photo_the_person_marked_up_is_their_visual_work(session_builder):
    # A claims adjuster saves site photos marked up with the damage (`<time>_annotated.jpg`)
    # beside their report. A JPEG is a photo, what the person saw, and was no visual output
    # of theirs: visual-heavy adjusters read balanced or text-only at p 0.79-0.97 (alt527).
    # The camera's own pictures stay what the person saw.
    def make(b, i, marked=True):
        for k in range(3):
            stamp = f"20260316_0912{10 + k}"
            name = f"{stamp}_annotated.jpg" if marked else f"{stamp}.jpg"
            b.write(f"claims/HO-{i}/{name}", "jpeg\n", snapshot=False, gap_ms=40_000)
        b.write(f"claims/HO-{i}/report.md", _doc(40), gap_ms=120_000)
    f = _signals(_user_session(session_builder, make))["F"]
    assert f["images"] == 3, f
    assert _user(session_builder, make, 8)["F"].tier == "L"
    b = session_builder("photos")
    make(b, 0, marked=False)
    assert _signals(b)["F"]["images"] == 0


STARS = ("vega", "deneb", "altair", "rigel")


def _reduce(b, i):
    """A night's reduction: each star's intermediate and reduced frame, a few seconds apart
    (at a person's pace, unevenly), then the run's log and its quality plot."""
    gaps = (3_100, 2_400, 4_100, 2_700, 3_600, 2_300, 5_200, 2_900)
    for k, star in enumerate(STARS):
        b.write(f"night{i}/reduced/{star}_ovscan.fits", "x" * 9_000, snapshot=False, gap_ms=gaps[2 * k])
        b.write(f"night{i}/reduced/{star}_red.fits", "x" * 9_000, snapshot=False, gap_ms=gaps[2 * k + 1])
    b.write(f"night{i}/reduced/pipeline.log", "reduced 4 frames\n", gap_ms=2_600)
    b.write(f"night{i}/reduced/qa/flat.png", "x" * 9_000, snapshot=False, gap_ms=3_300)


def test_the_intermediates_a_run_removes_as_it_ends_are_the_runs(session_builder):
    # A reduction pipeline writes a frame's overscan-corrected intermediate and the reduced
    # frame, a few seconds each, then removes the intermediates a moment after its last
    # write: no person sees a run end and starts deleting within a second of it. The
    # recorder calls the deletions temporary. Before, people who never delete anything read
    # as cleaning up after every night's reduction (alt542: E = L at p 0.92 for pragmatic
    # astronomers).
    def make(b, i, tidy=False):
        b.read(f"night{i}/obslog.txt", view_range=[1, 30])
        _reduce(b, i)
        for star in STARS:
            b.add("file_delete", 300, file_path=f"night{i}/reduced/{star}_ovscan.fits", file_age_ms=2e4,
                  was_temporary=True)
        b.write(f"night{i}/notes.md", _doc(20), gap_ms=300_000)
        if tidy:
            _remove_own_scratch(b, i)
    _assert_only_own_removals_count(session_builder, make)


def test_intermediates_removed_by_the_person_after_a_run_are_theirs(session_builder):
    # The same run, whose intermediates the person removes half a minute after it ended
    # (`rm *_ovscan.fits`): a selective habit of theirs.
    def make(b, i):
        b.read(f"night{i}/obslog.txt", view_range=[1, 30])
        _reduce(b, i)
        b.add("file_browse", 20_000, directory_path=f"night{i}/reduced", files_listed=9, depth=2)
        for k, star in enumerate(STARS):
            b.add("file_delete", 10_000 if k == 0 else 300, file_path=f"night{i}/reduced/{star}_ovscan.fits",
                  file_age_ms=5e4)
        b.write(f"night{i}/notes.md", _doc(20), gap_ms=300_000)
    est = _user(session_builder, make, 6)
    assert est["E"].tier == "L", est["E"]


def test_photos_from_the_mornings_upload_removed_right_after_a_save_are_the_persons(session_builder):
    # The phone's upload put the day's photos in at the start; the person saves the claim's
    # summary and at once removes the rejected ones. However quickly they act, files made an
    # hour earlier are no run's intermediates: the removal stays theirs.
    def make(b, i):
        for k in range(6):
            b.write(f"Pictures/Camera Roll/IMG_{i}{k:03d}.HEIC", "x" * 9_000, snapshot=False,
                    gap_ms=60_000 if k == 0 else 2_500)
        b.write(f"Claims/C-{i}/summary.md", _doc(30), gap_ms=3_600_000)
        for k in range(3):
            b.add("file_delete", 500, file_path=f"Pictures/Camera Roll/IMG_{i}{k:03d}.HEIC")
    est = _user(session_builder, make, 6)
    assert est["E"].tier == "L", est["E"]


def test_a_partitioned_log_store_is_the_programs_layout(session_builder):
    # Airflow writes each task's log to `logs/dag_id=<dag>/run_id=<run>/task_id=<task>/
    # attempt=1.log`, making the three folders on every run; Spark and Hive lay out their data
    # as `year=2026/month=04/`. Before, a data engineer who keeps their notes at the root read
    # as a deep nester at p 1.00 (alt556: all fourteen called L, nine of them wrongly).
    def make(b, i):
        b.read("dags/export.py", view_range=[1, 60])
        run = f"logs/dag_id=export_marts/run_id=scheduled__2026-04-{10 + i}T16:00:00+00:00"
        b.add("dir_create", 60_000, dir_path=run, depth=3)
        for k, task in enumerate(("extract", "load")):
            b.add("dir_create", 2_500, dir_path=f"{run}/task_id={task}", depth=4)
            b.write(f"{run}/task_id={task}/attempt=1.log", "INFO task started\n" * (5 + k), gap_ms=2_500)
        b.add("dir_create", 3_000, dir_path=f"warehouse/sales/year=2026/month=0{1 + i % 9}", depth=4)
        b.write(f"warehouse/sales/year=2026/month=0{1 + i % 9}/part-0000.parquet", "x" * 900, snapshot=False,
                gap_ms=2_500)
        b.write(f"notes-{i}.md", _doc(20), gap_ms=120_000)
    est = _user(session_builder, make, 6)
    assert est["C"].tier == "R", est["C"]


def _triage(b, i, remove_after_ms=None):
    """An analyst downloads an evidence archive; a triage script unpacks it in a blink (the
    program's files); `remove_after_ms` later the analyst removes the unpacked copy at once."""
    b.write(f"cases/c{i}/report.md", _doc(40), gap_ms=5_000)
    b.write(f"cases/c{i}/evidence/host{i}_triage.zip", "zip bytes " * 800, gap_ms=30_000, snapshot=False)
    unpacked = [f"cases/c{i}/extracted/host{i}_triage/{sub}/{name}"
                for sub, name in (("Registry", "SYSTEM"), ("Registry", "SOFTWARE"), ("EventLogs", "System.evtx"),
                                  ("Amcache", "Amcache.hve"), ("Prefetch", "CMD.EXE-4A81B364.pf"))]
    for k, p in enumerate(unpacked):
        b.write(p, "hive " * 2_000, gap_ms=400 if k == 0 else 20, snapshot=False)
    if remove_after_ms is not None:
        for k, p in enumerate(unpacked):
            b.add("file_delete", remove_after_ms if k == 0 else 1, file_path=p)
    b.write(f"cases/c{i}/timeline.md", _doc(20), gap_ms=60_000)


def test_removing_what_a_program_unpacked_minutes_before_is_the_persons_cleanup(session_builder):
    # A triage script unpacks each evidence archive into `extracted/<name>/` (a program's
    # files); a tidy analyst removes the unpacked copy once it is read, minutes later, with
    # `rm -rf` (alt577). Both counted as the program's before (its files, and what was inside
    # a folder named after an archive of the session), so selective analysts read as keepers.
    sig = _signals(_user_session(session_builder, lambda b, i: _triage(b, i, remove_after_ms=180_000)))["E"]
    assert sig["opp"] and sig["cleaned"] >= 1, sig
    tidy = _user(session_builder, lambda b, i: _triage(b, i, remove_after_ms=180_000), 8)["E"]
    assert tidy.tier == "L", tidy
    # a program's housekeeping comes with its run: the same files gone seconds after it wrote
    # them are not the person's removals (LEFT_BY_PROGRAM_SECONDS)
    sig = _signals(_user_session(session_builder, lambda b, i: _triage(b, i, remove_after_ms=5_000)))["E"]
    assert not sig["cleaned"], sig
    # and an analyst who keeps the unpacked copy removes nothing
    assert not _signals(_user_session(session_builder, _triage))["E"]["cleaned"]


def _tab_export(lines: int) -> str:
    rows = ["VANID\tLastName\tFirstName\tAddress\tPrecinct\tSupportID"]
    rows += [f"{100000 + i}\tSmith\tAna\t{i} Park Rd\t05-{i % 20:02d}\t{i % 5}" for i in range(lines - 1)]
    return "\n".join(rows) + "\n"


def _campaign_notes(b, i):
    # a voter-file export under a text name, then the person's short bullet notes
    b.write(f"Downloads/Export{i}.txt", _tab_export(220))
    b.write(f"notes/day{i}.md", _doc(25, bullets=True), gap_ms=300_000)


def test_a_text_of_nothing_but_tab_separated_records_is_data_not_writing(session_builder):
    # VAN's exports are tab-delimited TXT (alt585): 220 rows of records are no 220-line report
    # of the person's, as a CSV is none. Before, minimal writers read as balanced at p 0.88-0.95.
    sig = _signals(_user_session(session_builder, _campaign_notes))["B"]
    assert sig["docs"] == 1 and sig["lines"] == 25, sig
    assert _user(session_builder, _campaign_notes, 8)["B"].tier == "R"
    # a document with a tab-separated table inside its prose is still writing
    table = "\n".join(f"Precinct {i}\t{i * 10}\t{i * 3}" for i in range(5))
    b = session_builder("prose")
    b.write("notes/report.md", _doc(90) + table + "\n")
    assert _signals(b)["B"]["docs"] == 1


def _unzipped_export(b, i, folder: str | None = None):
    # an export downloaded as a zip and unpacked beside it by the archive tool, then the
    # person's note at the root of their notes
    b.write(f"Downloads/Export{i}.zip", "PK" * 4_000, snapshot=False)
    b.add("dir_create", 4_000, dir_path=folder or f"Downloads/Export{i}", depth=2)
    b.write(f"{folder or f'Downloads/Export{i}'}/Export{i}.txt", _tab_export(80), gap_ms=4_500)
    b.write(f"day{i}.md", _doc(30, bullets=True), gap_ms=600_000)


def test_an_archive_unpacked_into_a_folder_named_after_it_is_the_archive_tools(session_builder):
    # macOS's Archive Utility, Windows' Extract All and 7-Zip make the folder named after the
    # archive and fill it at the tool's pace (alt585): no folder of the person's filing.
    from filegram.memory.features import clean_events

    b = _user_session(session_builder, _unzipped_export)
    evs = [e for e in clean_events(b.events) if "Export0" in str(e.get("dir_path") or e.get("file_path"))]
    assert [e.get("authored") for e in evs] == [None, False, False], evs
    assert not _signals(b)["C"]["dirs"]
    assert _user(session_builder, _unzipped_export, 8)["C"].tier == "R"
    # a folder of the person's own, named otherwise, is their making
    b = _user_session(session_builder, lambda b, i: _unzipped_export(b, i, folder="Downloads/Turf"))
    assert _signals(b)["C"]["dirs"] == 1
    # what was unpacked is the person's to remove, seconds later too, whatever the recorder
    # calls it: no archive tool clears what it unpacked (alt606's CI logs)
    b = _user_session(session_builder, _unzipped_export)
    b.add("file_delete", 15_000, file_path="Downloads/Export0/Export0.txt", was_temporary=True)
    assert _signals(b)["E"]["cleaned"] == 1


def _statements(b, i, typed_ms: float | None = None):
    # statements arrive as PDFs; an OCR step writes each one's text beside it at once
    # (typed_ms: the person transcribes it instead, at a typist's pace)
    for k in range(3):
        b.write(f"Bank/Acct 8820/stmt_2023-0{k + 1}.pdf", "%PDF" * 2_000, gap_ms=5_000, snapshot=False)
    for k in range(3):
        b.write(f"Bank/Acct 8820/stmt_2023-0{k + 1}.txt", _doc(95, topic="a payment to Halden Freight"),
                gap_ms=typed_ms or 20_000)
    b.write(f"notes/findings{i}.md", _doc(30, bullets=True), gap_ms=900_000)


def test_a_pages_text_written_beside_it_at_once_is_the_ocr_tools(session_builder):
    # alt593: an OCR step writes `stmt.txt` beside each `stmt.pdf`, the whole text in seconds.
    # Counted as the person's writing, a flat bullet-note writer read as writing 300-line reports.
    sig = _signals(_user_session(session_builder, _statements))["B"]
    assert sig["docs"] == 1 and sig["lines"] == 30, sig
    assert _user(session_builder, _statements, 8)["B"].tier == "R"
    # the same page transcribed by hand, minutes per page, is the person's writing
    sig = _signals(_user_session(session_builder, lambda b, i: _statements(b, i, typed_ms=900_000)))["B"]
    assert sig["docs"] == 4, sig
    # a PDF the person made of their own document (`update.docx` saved as `update.pdf`) is no
    # page received: the text they save under its name is theirs (alt550)
    b = session_builder("own")
    b.write("Shipments/update_S50696.docx", "PK" * 3_000, snapshot=False)
    b.write("Shipments/update_S50696.pdf", "%PDF" * 2_000, gap_ms=20_000, snapshot=False)
    b.write("Shipments/update_S50696.txt", _doc(120, topic="the Orion Toys shipment"), gap_ms=45_000)
    assert _signals(b)["B"]["docs"] == 1


def _icloud_notes(b, i):
    # a flat person on macOS whose notes lie at the top of iCloud Drive, a recorder keeping
    # the paths from the home
    b.write(f"Library/Mobile Documents/com~apple~CloudDocs/orders {i}.md", _doc(40))
    b.write(f"Library/CloudStorage/GoogleDrive-ana@shop.example/Shared drives/Shop/stock {i}.md", _doc(30),
            gap_ms=120_000)


def test_macos_synced_drives_in_the_library_are_the_persons_root(session_builder):
    # iCloud Drive lives in `~/Library/Mobile Documents/com~apple~CloudDocs/`, the File
    # Provider drives in `~/Library/CloudStorage/<provider>/` (Google Drive's shared drives
    # one level further in): their top is where a flat person keeps everything, as Dropbox's
    # is, not three to five levels down (alt427, alt489, alt534: flat people read as organisers).
    _assert_drive_top_is_root(session_builder, _icloud_notes, "Library/Mobile Documents/com~apple~CloudDocs")


def _assert_drive_top_is_root(session_builder, make, top):
    """`make(b, i)` keeps a flat person's two notes at a synced drive's top: they are at the
    root and read flat; a folder of the person's own at `top` is one level down."""
    sig = _signals(_user_session(session_builder, make))["C"]
    assert sig["docs_at_root"] == 2 and not sig["docs_below"], sig
    assert _user(session_builder, make, 8)["C"].tier == "R"
    b = session_builder("folder")
    b.add("dir_create", dir_path=f"{top}/Orders")
    b.write(f"{top}/Orders/march.md", _doc(40))
    sig = _signals(b)["C"]
    assert (sig["dirs"], sig["max_dir_depth"], sig["doc_depth"]) == (1, 1, 1), sig


def _render(b, i, lead_ms: float = 5_500):
    # a flat compositor's notes at the root; the renderer makes its output path and writes a
    # frame every minute or so into it (`lead_ms`: how long before the first frame the last
    # folder came); a frame takes as long as it takes, no clockwork
    b.write(f"shot{i}_notes.md", _doc(30, bullets=True))
    for k, d in enumerate(("comp", "comp/render", "comp/render/v001", "comp/render/v001/spec")):
        b.add("dir_create", 4_000 if k else 600_000, dir_path=f"show/sq03/shot0{i}/{d}", depth=4 + k)
    for f in range(10):
        b.write(f"show/sq03/shot0{i}/comp/render/v001/spec/spec.{1001 + f}.exr", "EXR" * 9_000,
                gap_ms=lead_ms if f == 0 else 40_000 + (f * 23_000) % 60_000, snapshot=False)


def test_the_folders_a_renderer_makes_for_its_numbered_frames_are_its_own(session_builder):
    # alt612: a render writes `spec.1001.exr`, `spec.1002.exr`, ... a minute apart into the
    # `render/v001/spec/` chain it made seconds before; read as the person's, a flat
    # compositor was called a deep nester.
    sig = _signals(_user_session(session_builder, _render))["C"]
    assert not sig["dirs"], sig
    assert _user(session_builder, _render, 8)["C"].tier == "R"
    # a folder the person made a minute before starting the program into it stays theirs
    sig = _signals(_user_session(session_builder, lambda b, i: _render(b, i, lead_ms=60_000)))["C"]
    assert sig["dirs"] == 4 and sig["max_dir_depth"] == 7, sig
    # and files numbered by the person, a few at a time, set nothing off
    b = session_builder("own")
    b.add("dir_create", dir_path="Scripts/S2", depth=2)
    for k in range(4):
        b.write(f"Scripts/S2/Ep{k + 37}.fdx", _doc(120, topic="a heist"), gap_ms=1_500_000)
    assert _signals(b)["C"]["dirs"] == 1


def _publish(b, i):
    # a flat compositor edits their script at the root; the pipeline's publish makes
    # `publish/comp/v00N/`, copies the script in and writes the version's record beside it
    b.write(f"scratch/shot{i}.nk", "set cut_paste_input [stack 0]\n" * 40)
    b.add("dir_create", 300_000, dir_path="shows/nf/shot0/publish", depth=4)
    b.add("dir_create", 1_000, dir_path="shows/nf/shot0/publish/comp", depth=5)
    b.add("dir_create", 6_000, dir_path=f"shows/nf/shot0/publish/comp/v00{i}", depth=6)
    b.add("file_copy", 1_000, source_path=f"scratch/shot{i}.nk", dest_path=f"shows/nf/shot0/publish/comp/v00{i}/shot0_comp_v00{i}.nk")
    b.write(f"shows/nf/shot0/publish/comp/v00{i}/shot0_comp_v00{i}.json", json.dumps({"version": i, "artist": "hk"}),
            gap_ms=4_500)


def test_a_publishing_tools_version_folder_with_its_record_is_no_filing(session_builder):
    # alt623: a pipeline's publish copies the script into a new `publish/comp/v002/` and writes
    # a `.json` about the version beside it. Only copies in a folder was already no filing;
    # the record beside them is the tool's too, and flat compositors read as deep nesters.
    sig = _signals(_user_session(session_builder, _publish))["C"]
    assert not sig["dirs"], sig
    assert _user(session_builder, _publish, 8)["C"].tier == "R"
    # a document of the person's written into such a folder makes it theirs
    b = _user_session(session_builder, _publish)
    b.write("shows/nf/shot0/publish/comp/v000/review_notes.md", _doc(40), gap_ms=60_000)
    assert _signals(b)["C"]["dirs"] == 3


def _bench_plots(b, i, names=("throughput", "latency-cdf", "cpu-util")):
    # a kernel developer's benchmark script writes its results and plots them, all at once
    b.write(f"v1-000{i}-fix.patch", "diff --git a/x.c b/x.c\n" + "+ int x;\n" * 30)
    b.write(f"reset-page-{i}-bench.csv", "run,ops\n" + "".join(f"{k},{k * 7}\n" for k in range(40)), gap_ms=300_000)
    for n in names:
        b.write(f"reset-page-{i}-{n}.png", "PNG" * 20_000, gap_ms=40, snapshot=False)


def test_charts_a_script_drew_from_its_own_data_are_the_persons_output(session_builder):
    # alt621: a benchmark run writes `reset-page-bench.csv` and its plots within a second, a
    # program's pace; named for the same study as the data, the pictures are the charts the
    # person asked for, whatever words name them.
    sig = _signals(_user_session(session_builder, _bench_plots))["F"]
    assert sig["images"] == 3, sig
    assert _user(session_builder, _bench_plots, 8)["F"].tier == "L"
    # pictures a program writes beside data of another name are no charts of the person's
    b = _user_session(session_builder, lambda b, i: _bench_plots(b, i, names=()))
    for k in range(3):
        b.write(f"IMG_{k:04d}.png", "PNG" * 20_000, gap_ms=40, snapshot=False)
    assert _signals(b)["F"]["images"] == 0


def _scouting_sync(b, i):
    # a field tablet's sync client writes the day's scouting photos, each with a sidecar of
    # notes named like it, in one burst; the person writes a text-only report afterwards
    for k in range(6):
        b.write(f"Sync/Field/scouting_2025071{i}_{k}.jpg", "JPG" * 20_000, gap_ms=300, snapshot=False)
        b.write(f"Sync/Field/scouting_2025071{i}_{k}.json", json.dumps({"plot": k, "note": "leaf spot"}), gap_ms=300)
    b.write(f"trials/report_{i}.md", _doc(40), gap_ms=600_000)


def test_photos_a_camera_app_wrote_with_sidecars_are_no_charts(session_builder):
    # alt702: the photos and their same-named `.json` sidecars read as a script's charts drawn
    # from its data (_plotted_from_data), and text-only agronomists as visual-heavy at p 1.00
    sig = _signals(_user_session(session_builder, _scouting_sync))["F"]
    assert sig["images"] == 0, sig
    assert _user(session_builder, _scouting_sync, 8)["F"].tier == "R"


def _dashboard_export(b, i):
    # a BI tool exports each dashboard every morning as its data and as a picture of it, both
    # named for the dashboard and the day; the person writes a text-only readout afterwards
    for name in ("funnel_weekly", "retention_cohorts", "acq_daily"):
        b.write(f"Downloads/{name}_2024-09-1{i}.csv", "day,users\n" + "".join(f"{k},{k * 9}\n" for k in range(30)),
                gap_ms=40)
        b.write(f"Downloads/{name}_2024-09-1{i}.png", "PNG" * 20_000, gap_ms=40, snapshot=False)
    b.write(f"readouts/readout_{i}.md", _doc(40), gap_ms=600_000)


def test_a_picture_exported_beside_its_own_data_is_no_chart_drawn_from_it(session_builder):
    # alt708: one object exported twice, as data and as a picture of the same name, read as a
    # script's charts drawn from its data, and text-only analysts as visual-heavy at p 1.00
    sig = _signals(_user_session(session_builder, _dashboard_export))["F"]
    assert sig["images"] == 0, sig
    assert _user(session_builder, _dashboard_export, 8)["F"].tier == "R"


def test_code_is_no_chance_to_show_how_visual_ones_writing_is(session_builder):
    # A patch or a source file holds no chart or table: a session that wrote only code says
    # nothing about F (alt621: visual-heavy kernel developers read as text only on the
    # patches of the sessions between their benchmarks).
    b = session_builder("patch")
    b.write("v1-0001-fix.patch", "diff --git a/x.c b/x.c\n" + "+ int x;\n" * 30)
    b.write("src/x.c", "int x;\n" * 50, gap_ms=60_000)
    assert not _signals(b)["F"]["opp"]
    b.write("notes/plan.md", _doc(40), gap_ms=60_000)
    assert _signals(b)["F"]["opp"]


def test_a_shells_and_an_editors_history_files_are_no_revision(session_builder):
    # bash and vim rewrite `.bash_history` and `.viminfo` whole when they exit (alt616): no
    # rewrite of the person's work, in a session where they changed nothing else
    b = session_builder("history")
    b.write("home/bk/.bash_history", "make sim\n" * 200)
    b.write("home/bk/.viminfo", "# viminfo\n" * 90)
    b.write("home/bk/.bash_history", "grep UVM_ERROR sim.log\n" * 150, op="overwrite", gap_ms=900_000)
    b.write("home/bk/.viminfo", "# viminfo v2\n" * 95, op="overwrite", gap_ms=1_000)
    assert not _signals(b)["D"]["opp"]
    # the person's own file rewritten is
    b.write("home/bk/plan.md", _doc(60), gap_ms=60_000)
    b.write("home/bk/plan.md", _doc(60, topic="a new plan"), op="overwrite", gap_ms=600_000)
    assert _signals(b)["D"]["overwrites"] == 1


def test_the_homes_standard_folders_count_from_the_recorders_root_whatever_lies_above(session_builder):
    # A session on `/home/<u>/` and `/mnt/projects/` is stored from `/`: the recorder counts
    # `Documents/notes.md` one level down from the home; Documents/ is the system's folder,
    # not a level of the person's, with `home/<u>/` kept above it or not.
    b = session_builder("root")
    b.add("file_write", file_path="home/u/Documents/notes.md", file_type="md", directory_depth=1,
          operation="create", content_length=400)
    b.add("file_write", file_path="home/u/Documents/Claims/claim.md", file_type="md", directory_depth=2,
          operation="create", content_length=400)
    sig = _signals(b)["C"]
    assert (sig["docs_at_root"], sig["docs_below"], sig["doc_depth"]) == (1, 1, 1), sig


def test_a_recorder_that_logs_searches_but_no_listings_shows_the_browser_in_the_heads(session_builder):
    # A Windows recorder logs Windows Search but no Explorer listing: a browser's sessions are
    # the first lines of many files and a search now and then. Only the listings are hidden,
    # so the heads carry the browsing sign (before, both had to be missing and such browsers
    # came out unknown or searchers). A searcher on the same recorder stays a searcher.
    def notes(b):
        for k in range(3):  # short notes read to their end (they calibrate a line's length)
            b.read(f"in/note{k}.md", 1, [1, 40], 1_600)

    def browser(b, i):
        if i % 2 == 0:
            b.add("file_search", search_type="windows_search", query="dose", files_matched=3,
                  files_opened_after=["in/f0.md"])
        for k in range(8):
            b.read(f"in/f{k}.md", 1, [1, 12], 20_000)
        notes(b)

    def searcher(b, i):
        for k in range(2):
            b.add("file_search", search_type="windows_search", query=f"dose {k}", files_matched=3,
                  files_opened_after=[f"in/f{k}.md"])
            b.read(f"in/f{k}.md", 1, [40 * k + 20, 40 * k + 50], 20_000)
        b.read("in/f2.md", 1, [1, 12], 20_000)
        notes(b)
    assert _user(session_builder, browser, 6)["A"].tier == "R"
    assert _user(session_builder, searcher, 6)["A"].tier == "M"


def test_a_find_that_names_no_term_lists_a_folder(session_builder):
    # On a Linux recorder that logs shell history but no listings, a breadth-first hydrologist
    # looks through folders with `find <folder> -maxdepth 1 -name '*.csv'` and skims the heads
    # of what is there. That names nothing to look for: it is a listing, as `ls` is (alt728:
    # five browsers read as targeted readers at p 1.00). A find or grep for a term stays
    # a search.
    def reader(query):
        def make(b, i):
            for folder in ("gauges", "reports", "runs"):
                b.add("file_search", search_type="find", query=query.format(folder=folder), files_matched=20,
                      files_opened_after=[])
                for k in range(2):
                    b.read(f"tees/{folder}/f{i}_{k}.csv", 1, [1, 5], 20_000)
            for k in range(2):  # short notes read to their end (they calibrate a line's length)
                b.read(f"tees/notes/note{k}.md", 1, [1, 40], 1_600)
        return make
    browser = reader("find /mnt/hydro/tees/{folder} -maxdepth 1 -name '*.csv' -mtime -3")
    assert _signals(_user_session(session_builder, browser))["A"]["browses"] == 3
    assert _user(session_builder, browser, 6)["A"].tier == "R"
    searcher = reader("find /mnt/hydro/tees/{folder} -maxdepth 1 -name '*broken_scar*'")
    assert _signals(_user_session(session_builder, searcher))["A"]["searches"] == 3
    for query in ("ls {folder}/*flood*.csv", "ls {folder} | grep flood", "find {folder} -maxdepth 1 -path '*2024*'"):
        assert _signals(_user_session(session_builder, reader(query)))["A"]["searches"] == 3, query
    assert _signals(_user_session(session_builder, reader("ls {folder}/*.csv")))["A"]["browses"] == 3


def test_an_editors_save_through_a_temporary_name_leaves_nothing_to_clean(session_builder):
    # An editor saves by writing `notes.md~` and renaming it over `notes.md` in the same
    # millisecond: the temporary name is gone at once. Before, it stayed among the session's
    # leftovers, and a selective person who removed their one scratch file read as having
    # removed one of two (pragmatic).
    b = session_builder()
    b.read("notes/brief.md", view_range=[1, 40])
    b.write("notes/voice-guide.md", _doc(40), gap_ms=60_000)
    b.write("notes/voice-guide.md~", _doc(40), gap_ms=0)
    b.add("file_rename", 0, old_path="notes/voice-guide.md~", new_path="notes/voice-guide.md",
          naming_pattern_change="other")
    b.write("notes/paste-old.md", "- a\n- b\n", gap_ms=30_000)
    b.add("file_delete", 600_000, file_path="notes/paste-old.md", file_age_ms=6e5, was_temporary=True)
    e = _signals(b)["E"]
    assert (e["cleaned"], e["leftovers"]) == (1, 1), e


def test_a_programs_database_copied_aside_is_no_backup_of_the_persons_work(session_builder):
    # A CAT tool backs up its translation memory (`Main.sdltm.bak`) before the day's work;
    # the translator's segments are then saved line by line. The database's copy, never
    # touched again, said "incremental reviser" on its own. A backup of the document being
    # revised still does.
    def session(backup_of):
        b = session_builder()
        b.add("file_copy", source_path=backup_of, dest_path=backup_of + ".bak", is_backup=True)
        b.write("Projects/p1/de/part1.sdlxliff", "<xliff/>\n" * 40, gap_ms=3_600_000)
        for _ in range(12):
            b.edit("Projects/p1/de/part1.sdlxliff", 1, 1)
        return b
    assert _signals(session("TM/Main.sdltm"))["D"]["backups"] == 0
    assert (_tiers(session("TM/Main.sdltm")).get("D") or {}).get("tier") != "L"
    assert _signals(session("Projects/p1/de/part1.sdlxliff"))["D"]["backups"] == 1


def test_a_folder_named_after_the_person_on_a_shared_tree_is_their_root(session_builder):
    # Game designers keep every document in `Design/<login>_WIP/` on the studio's depot and
    # read specs all over it. That folder is theirs: a flat designer files at their root
    # there, however deep the depot puts it (before: C called moderate at p 0.61-0.95). The
    # import tells memory the login by a digest only (naming.owner_key); without it the same
    # sessions still read as filing one level down.
    from filegram.naming import owner_key

    def make(b, i):
        for k in range(3):
            b.read(f"Perforce/Ember/Design/Shared/spec{k}.md", view_range=[1, 60])
        b.write(f"Perforce/Ember/Design/mkowalski_WIP/notes-{i:02d}.md", _doc(40), gap_ms=600_000)

    def user(owner):
        out = []
        for i in range(8):
            b = session_builder(f"s{i}")
            make(b, i)
            out.append(encode_session(b.events, b.get_blob, owner_key=owner).signals)
        return user_tiers(out)["C"]
    assert user(owner_key("mkowalski")).tier == "R"
    assert user(owner_key("someone-else")).tier != "R"
    assert user(None).tier != "R"
    # the home itself is no such folder: `Users/<login>/Documents/` reads as the home's own
    b = session_builder()
    b.write("Users/mkowalski/Documents/Plans/plan.md", _doc(40))
    assert encode_session(b.events, b.get_blob, owner_key=owner_key("mkowalski")).signals["C"]["docs_below"] == 1
    # nor is a sync drive's account folder named after them: Google Drive's top is the root
    b = session_builder()
    b.write("Library/CloudStorage/GoogleDrive-mkowalski/My Drive/notes.md", _doc(40))
    b.write("Library/CloudStorage/GoogleDrive-mkowalski/My Drive/Clients/Acme/audit.md", _doc(40))
    c = encode_session(b.events, b.get_blob, owner_key=owner_key("mkowalski")).signals["C"]
    assert (c["docs_at_root"], c["docs_below"], c["doc_depth"]) == (1, 1, 2)


def test_a_folder_a_script_made_and_copied_into_at_once_is_no_filing(session_builder):
    # A climate modeller's run script makes `runs/<case>/` and copies the namelist into it
    # 20 ms later; the model then writes its output there. That folder is the script's, not
    # the person's filing (before: flat modellers read as moderate organisers at p 0.90). A
    # folder the person makes and copies a file into half a minute later stays theirs.
    def session(copy_after_ms):
        b = session_builder()
        b.read("namelist.input", view_range=[1, 80])
        b.add("dir_create", 60_000, dir_path="runs/po_valley_1991", depth=1)
        b.add("file_copy", copy_after_ms, source_path="namelist.input", dest_path="runs/po_valley_1991/namelist.input",
              is_backup=False)
        for month in range(1, 4):  # the model's output, a program's
            b.add("file_write", 90_000, file_path=f"runs/po_valley_1991/wrfout_d01_1991-0{month}-01", file_type="",
                  operation="create", content_length=9_000_000, directory_depth=2, authored=False)
        b.write("runs/po_valley_1991/run-notes.md", _doc(20), gap_ms=120_000)
        return _signals(b)["C"]
    assert session(20)["dirs"] == 0
    assert session(30_000)["dirs"] == 1


def test_a_backup_the_recorder_saw_as_a_new_file_is_a_backup_copy(session_builder):
    # An inotify recorder sees `cp notes.md notes.bak` as a file created and written, not a
    # copy. A compiler engineer backs up their notes that way, then changes a line at a time
    # in several vim sessions: table 2's incremental reviser (alt674: unknown or rewriter
    # before). A `.bak` holding bytes no file of the session had is no copy of one.
    def session(backup_text):
        b = session_builder()
        text = _doc(60)
        b.write("notes.md", text)
        b.write("notes.bak", backup_text, gap_ms=120_000)
        for _ in range(6):
            b.edit("notes.md", 1, 1)
        return b
    copied = session(_doc(60))
    assert _signals(copied)["D"]["backups"] == 1
    assert _tiers(copied)["D"]["tier"] == "L"
    other = session("an unrelated scratch note\n" * 3)
    assert _signals(other)["D"]["backups"] == 0
    assert "D" not in _tiers(other) or _tiers(other)["D"]["tier"] != "L"
    # a duplicate of a note never changed after it (`quick calc (3).txt`) keeps no version
    dup = session_builder()
    dup.write("quick calc.txt", "wages 61,200\nless 401k\n")
    dup.write("quick calc (3).txt", "wages 61,200\nless 401k\n", gap_ms=600_000)
    dup.write("report.md", _doc(60), gap_ms=60_000)
    for _ in range(3):
        dup.edit("report.md", 1, 1)
    assert _signals(dup)["D"]["backups"] == 0


def _sharepoint_notes(b, i):
    # a flat planner's documents at the top of a SharePoint library that OneDrive syncs into
    # the home as `<Organisation>/<Site> - Documents/`, a recorder keeping paths from the home
    b.write(f"Fabrikam/Events - Documents/run of show {i}.md", _doc(40))
    b.write(f"Fabrikam/Events - Documents/budget notes {i}.md", _doc(30), gap_ms=120_000)


def test_a_synced_sharepoint_library_is_where_the_persons_tree_begins(session_builder):
    # alt683: both levels are the sync client's; read as the person's, every event folder in
    # the library lay three levels deep and moderate organisers read as deep nesters.
    from filegram.memory.signals import home_areas
    assert home_areas("Fabrikam/Events - Documents/2025-03 Kickoff/plan.md") == 2
    assert home_areas("Clients/Acme - Contract/plan.md") == 0  # a person's own folder named so
    _assert_drive_top_is_root(session_builder, _sharepoint_notes, "Fabrikam/Events - Documents")


def _clock(b, gap_ms, form):
    """The clock `gap_ms` after the builder's last event, formatted as a program names by it."""
    import datetime as dt

    return dt.datetime.fromtimestamp((b.t + gap_ms) / 1000, dt.UTC).strftime(form)


def test_a_folder_named_by_the_minute_it_was_made_holds_one_runs_output(session_builder):
    # A quant's backtester writes each run into `results/<date>_<time>_<id>/`. A run that failed
    # leaves its log there alone, at a person's pace, and it read as a document filed two levels
    # down (alt750: flat researchers called deep nesters at p 0.91-0.99). Hydra puts an ML
    # engineer's training runs in `outputs/<date>/<time>/`, where the trainer makes `checkpoints/`
    # a minute later (alt755: read as a deep nester's folders), and wandb logs loss curves into
    # `wandb/run-<date>_<time>-<id>/` (read as the person's charts).
    b = session_builder("runs")
    b.write("strategy.md", _doc(30), gap_ms=60_000)
    run = f"results/{_clock(b, 60_000, '%Y%m%d_%H%M%S')}_e259"
    b.add("dir_create", 60_000, dir_path=run)
    b.write(f"{run}/log.txt", "backtest failed: no data for 2013\n" * 3, gap_ms=30_000)
    day, time = _clock(b, 60_000, "%Y-%m-%d"), _clock(b, 60_000, "%H-%M-%S")
    b.add("dir_create", 60_000, dir_path=f"outputs/{day}/{time}")
    b.add("dir_create", 40_000, dir_path=f"outputs/{day}/{time}/checkpoints")
    wandb = f"wandb/run-{_clock(b, 5_000, '%Y%m%d_%H%M%S')}-gzkjw67e"
    b.add("dir_create", 5_000, dir_path=wandb)
    for k in range(3):
        b.write(f"{wandb}/files/media/images/loss_curve_{500 * (k + 1)}_108b9edbd6bb50{k}9.png", "x" * 9_000,
                gap_ms=30_000, snapshot=False)
    sig = _signals(b)
    assert (sig["C"]["dirs"], sig["C"]["docs_below"], sig["F"]["images"]) == (0, 0, 0), (sig["C"], sig["F"])
    # the folder the person makes for their notes, and the chart they save for them, stay theirs
    b.add("dir_create", 60_000, dir_path="notes/desk reviews")
    b.write("notes/desk reviews/review.md", _doc(20), gap_ms=60_000)
    b.write("figures/loss.png", "x" * 9_000, gap_ms=60_000, snapshot=False)
    sig = _signals(b)
    assert (sig["C"]["dirs"], sig["C"]["docs_below"], sig["F"]["images"]) == (1, 1, 1), (sig["C"], sig["F"])


def test_what_a_program_caches_is_read_by_that_program(session_builder):
    # A quant's data loader reads the year files it caches in `~/.cache/marketdata/` on every
    # backtest: read again and again over a session, they were a person's revisits, and
    # targeted readers read as sequential ones (alt750).
    b = session_builder("cache")
    b.read("research/fx_carry/notes.md", view_range=[1, 40], content_length=2_000)
    b.read("research/fx_carry/configs/base.yaml", view_range=[1, 25], content_length=500)
    for k in range(6):
        b.read(f".cache/marketdata/fx_carry_{2014 + k % 3}.parquet", view_count=1 + k // 3)
    assert (_signals(b)["A"]["reads"], _signals(b)["A"]["revisits"]) == (2, 0), _signals(b)["A"]



def test_notes_saved_beside_the_work_of_a_project_are_at_its_root(session_builder):
    # A quant keeps each strategy in `research/<strategy>/` with its configs, code and results,
    # and a flat one saves their notes beside them. Counted from the recorder's root (the home),
    # every note was filed two levels down, and flat researchers read as organisers (alt750).
    def flat(b, i):
        s = ("fx_carry", "credit_rv", "xs_momentum")[i % 3]
        b.read(f"research/{s}/configs/base.yaml", view_range=[1, 25], content_length=500)
        b.read(f"research/{s}/src/{s}/signals.py", view_range=[1, 80], content_length=2_000)
        b.read(f"research/{s}/README.md", content_length=1_500)
        b.write(f"research/{s}/notes-{i}.md", _doc(30), gap_ms=60_000)

    sig = _signals(_user_session(session_builder, flat))
    assert (sig["C"]["docs_at_root"], sig["C"]["docs_below"]) == (1, 0), sig["C"]
    assert _user(session_builder, flat, 8)["C"].tier == "R"

    # the files of one folder read are a topic's as likely as a project's: a note saved among
    # them is filed in that folder
    def topic(b, i):
        for k in range(3):
            b.read(f"Reports/{2020 + k}-q{i % 4 + 1}.md", content_length=1_500)
        b.write(f"Reports/2024-q{i % 4 + 1}.md", _doc(30), gap_ms=60_000)

    sig = _signals(_user_session(session_builder, topic))
    assert (sig["C"]["docs_at_root"], sig["C"]["docs_below"]) == (0, 1), sig["C"]


def test_a_runs_checkpoint_rotation_is_no_cleanup_of_the_persons(session_builder):
    # A trainer keeps the last checkpoint of each run: it writes `epoch_<n>.ckpt` and removes the
    # one before a second or three later. The checkpoints are the run's (the run folder), but the
    # removals came a minute and more after the files were written and read as the person
    # clearing intermediate files: preservative ML engineers called selective (alt755).
    b = session_builder("train")
    b.write("configs/config.yaml", "lr: 0.001\nepochs: 3\n", op="overwrite", gap_ms=60_000)
    run = f"outputs/{_clock(b, 2_000, '%Y-%m-%d')}/{_clock(b, 2_000, '%H-%M-%S')}"
    b.add("dir_create", 2_000, dir_path=run)
    for n in range(3):
        b.write(f"{run}/checkpoints/epoch_{n}.ckpt", "w" * 5_000, gap_ms=90_000, snapshot=False)
        if n:
            b.add("file_delete", 2_600, file_path=f"{run}/checkpoints/epoch_{n - 1}.ckpt")
    e = _signals(b)["E"]
    assert (e["deletes"], e["cleaned"]) == (0, 0), e


def test_a_programs_unchanged_saves_still_show_its_run(session_builder):
    # A fermentation monitor rewrites each tank's export every hour and prunes the exports older
    # than two weeks in the same fifth of a second. Where the hour's data had not changed, the
    # rewrites left the files as they were and were dropped before authorship looked, and the
    # prunes alone read as the person removing old versions: preservative brewers called
    # selective (alt753).
    b = session_builder("prune")
    b.write("label_notes.md", _doc(20), gap_ms=60_000)
    for k in range(5):
        b.add("file_write", 20 if k else 60_000, file_path=f"Sensors/tank_{k}_2025-02-19.csv", file_type="csv",
              operation="overwrite", content_length=443, before_hash=f"7c3b963de5b2536{k}",
              after_hash=f"7c3b963de5b2536{k}")
    for k in range(5):
        b.add("file_delete", 20, file_path=f"Sensors/tank_{k}_2025-02-04.csv")
    e = _signals(b)["E"]
    assert (e["deletes"], e["superseded"]) == (0, 0), e


def test_a_move_is_as_deep_as_the_recorder_counts_its_destination(session_builder):
    # An interpreter's recorder counts depth from the assignment's folder in OneDrive. Moving the
    # event's slides from Downloads into it puts them at its root (destination_directory_depth 0),
    # but counted from the home the folder lay three levels down, and every move read as filing
    # into a subfolder (alt752: flat interpreters called moderate).
    b = session_builder("moves")
    root = "OneDrive/Assignments/2024/MedTechForum_2024-02-27"
    for k in range(4):
        b.write(f"Downloads/slides_{k}.pdf", "x" * 5_000, gap_ms=30_000, snapshot=False)
    for k in range(4):
        b.add("file_move", 20_000, old_path=f"Downloads/slides_{k}.pdf", new_path=f"{root}/slides_{k}.pdf",
              destination_directory_depth=0)
    c = _signals(b)["C"]
    assert (c["moves"], c["moves_into_subfolders"], c["max_move_depth"]) == (4, 0, 0), c
    # a folder below it, as the recorder counts, is one level down
    b.add("file_move", 20_000, old_path=f"{root}/slides_0.pdf", new_path=f"{root}/Slides/slides_0.pdf",
          destination_directory_depth=1)
    c = _signals(b)["C"]
    assert (c["moves_into_subfolders"], c["max_move_depth"]) == (1, 1), c
