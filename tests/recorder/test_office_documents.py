"""A person who writes in Word or LibreOffice: their documents' text is recorded like a text
file's. Real .docx/.odt files (built by hand: zip + XML), saved under a running recorder with
real inotify; what is checked is what a user would notice in their trace."""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path
from typing import Any

from fg_helpers import FLUSH_S, wait_until
from filegram.recorder import Recorder
from office_files import (
    billion_laughs_docx,
    docx_bytes,
    docx_xml,
    odt_bytes,
    pptx_bytes,
    rtf_bytes,
    zip_bomb_docx,
)
from rec_helpers import make_config, sh

from filegram.store import Store

REPORT = [
    "Quarterly report",
    "Sales rose in every region, led by the north where two new stores opened.",
    "Costs stayed flat; the warehouse move is planned for the spring.",
    "Next steps: hire two engineers and renew the supplier contract.",
]

REVISED = [REPORT[0], REPORT[1], "Costs fell by 4%; the warehouse move is done.", REPORT[3]]


def _h16(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def _of(store: Store, etype: str, path: str) -> list[dict[str, Any]]:
    return [e for e in store.actions() if e["event_type"] == etype and e.get("file_path") == path]


def _blob(store: Store, ref: dict[str, str] | None) -> str | None:
    if not ref:
        return None
    data = store.get_blob(ref["hash"])
    return data.decode("utf-8") if data is not None else None


def _save_atomically(path: Path, data: bytes) -> None:
    """How LibreOffice saves: a temporary file in the same folder, renamed over the document."""
    tmp = path.parent / "lu12345abc.tmp"
    tmp.write_bytes(data)
    os.replace(tmp, path)


def test_a_word_document_is_recorded_with_its_text_and_a_save_is_a_line_diff(root: Path, store: Store) -> None:
    doc = root / "report.docx"
    first = docx_bytes(REPORT)
    with Recorder(store, [root], make_config()) as rec:
        doc.write_bytes(first)
        wait_until(lambda: _of(store, "file_write", "report.docx"), FLUSH_S, what="the new report stored")
        time.sleep(1.0)  # a person saves again seconds later (the settle window folds closer saves)
        second = docx_bytes(REVISED)
        doc.write_bytes(second)
        wait_until(lambda: _of(store, "file_edit", "report.docx"), FLUSH_S, what="the second save stored")
        time.sleep(1.0)
        sh("cat report.docx > /dev/null", root)
        wait_until(lambda: _of(store, "file_read", "report.docx"), FLUSH_S, what="the read stored")
        rec.flush(FLUSH_S)
    [write] = _of(store, "file_write", "report.docx")
    text = "".join(p + "\n" for p in REPORT)
    assert write["operation"] == "create"
    assert _blob(store, write["media_ref"]) == text  # the paragraphs, one per line, runs joined
    assert write["content_length"] == len(text)  # characters of the text, not bytes of the zip
    assert write["after_hash"] == _h16(first)  # the hash is of the file on disk
    assert write["text_extracted"] is True
    [edit] = _of(store, "file_edit", "report.docx")
    assert (edit["lines_added"], edit["lines_deleted"], edit["lines_modified"]) == (1, 1, 1)
    assert edit["diff_summary"] == "+1 -1"
    assert (edit["before_hash"], edit["after_hash"]) == (_h16(first), _h16(second))
    diff = _blob(store, edit["media_ref_diff"]) or ""
    assert "-Costs stayed flat" in diff and "+Costs fell by 4%" in diff
    assert edit["text_extracted"] is True
    [read] = _of(store, "file_read", "report.docx")
    assert read["view_range"] == [1, 4] and read["content_length"] == len("".join(p + "\n" for p in REVISED))
    assert not [e for e in store.actions() if e["event_type"] == "file_write" and e["operation"] == "overwrite"]


def test_a_libreoffice_document_saved_through_a_temporary_file_is_one_edit(root: Path, store: Store) -> None:
    doc = root / "minutes.odt"
    with Recorder(store, [root], make_config()) as rec:
        doc.write_bytes(odt_bytes(["Present:  Ana, Bo", "Decided: ship on Friday"], heading="Minutes"))
        wait_until(lambda: _of(store, "file_write", "minutes.odt"), FLUSH_S, what="the minutes stored")
        time.sleep(1.0)
        _save_atomically(doc, odt_bytes(["Present:  Ana, Bo, Cy", "Decided: ship on Friday", "Open: pricing"],
                                        heading="Minutes"))
        wait_until(lambda: _of(store, "file_edit", "minutes.odt"), FLUSH_S, what="the save stored")
        rec.flush(FLUSH_S)
    [write] = _of(store, "file_write", "minutes.odt")
    assert _blob(store, write["media_ref"]) == "Minutes\nPresent:  Ana, Bo\nDecided: ship on Friday\n"
    [edit] = _of(store, "file_edit", "minutes.odt")
    assert edit["edit_tool"] == "rename"
    assert (edit["lines_added"], edit["lines_deleted"]) == (2, 1)  # one line changed, one added
    assert _blob(store, edit["media_ref_new"]) == "Minutes\nPresent:  Ana, Bo, Cy\nDecided: ship on Friday\nOpen: pricing\n"
    assert not [e for e in store.actions() if "lu12345abc" in str(e)]  # the temporary file is no action


def test_a_presentation_keeps_its_slides_text_in_order(root: Path, store: Store) -> None:
    with Recorder(store, [root], make_config()) as rec:
        (root / "pitch.pptx").write_bytes(pptx_bytes([["Why now"], ["Market", "Team"]] + [[f"Slide {i}"] for i in range(3, 11)]))
        wait_until(lambda: _of(store, "file_write", "pitch.pptx"), FLUSH_S, what="the deck stored")
        rec.flush(FLUSH_S)
    [write] = _of(store, "file_write", "pitch.pptx")
    text = _blob(store, write["media_ref"]) or ""
    assert text.splitlines()[:4] == ["Why now", "Market", "Team", "Slide 3"] and text.endswith("Slide 10\n")


def test_broken_and_hostile_documents_are_recorded_without_text_and_without_a_crash(root: Path, store: Store) -> None:
    files = {
        "bomb.docx": zip_bomb_docx(),  # 200 MB of XML in under 1 MB
        "laughs.docx": billion_laughs_docx(),  # entity expansion
        "truncated.docx": docx_bytes(REPORT)[:300],
        "renamed.docx": b"just some text called .docx\n",
        "encrypted.docx": b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(4000),  # what Word writes for a password-protected file
    }
    with Recorder(store, [root], make_config()) as rec:
        for name, data in files.items():
            (root / name).write_bytes(data)
            time.sleep(0.4)
        (root / "after.md").write_text("the recorder still works\n")
        wait_until(lambda: _of(store, "file_write", "after.md"), FLUSH_S, what="the file after them stored")
        rec.flush(FLUSH_S)
        stats = rec.stats()
    assert stats["errors"] == 0 and stats["running"]
    for name, data in files.items():
        [write] = _of(store, "file_write", name)
        assert write["media_ref"] is None and "text_extracted" not in write, name
        assert write["content_length"] == len(data) and write["after_hash"] == _h16(data), name


def _paragraphs(n: int, topic: str) -> list[str]:
    return [f"{topic}: point {i} of the review, with the figures the team asked for and what they mean."
            for i in range(n)]


def test_a_word_writers_profile_knows_how_much_they_write(root: Path, store: Store) -> None:
    """Three days of writing reports in Word, one session each: production (B) is judged from
    their text, where before every report was bytes and B stayed unknown."""
    from filegram.memory import Memory

    for day, topic in enumerate(("budget", "hiring", "suppliers")):
        with Recorder(store, [root], make_config()) as rec:
            name = f"{topic}-report.docx"
            (root / name).write_bytes(docx_bytes(_paragraphs(90, topic)))
            wait_until(lambda name=name: _of(store, "file_write", name), FLUSH_S, what=f"day {day}'s report stored")
            rec.flush(FLUSH_S)
    mem = Memory(store)
    assert mem.consolidate() == 3
    b = mem.profile()["dimensions"]["B"]
    assert b["sessions"] == 3, b["evidence"]
    assert b["tier"] == "M", b["evidence"]  # 90 paragraphs a report: between table 2's anchors
    assert any("new document" in line for line in b["evidence"]), b["evidence"]


def test_a_document_there_before_recording_is_diffed_at_its_first_save(root: Path, store: Store) -> None:
    """The usual case: the report existed before the recorder started (the baseline keeps
    its text), and the first save while recording is already an edit with its lines."""
    doc = root / "plan.docx"
    doc.write_bytes(docx_bytes(REPORT))
    with Recorder(store, [root], make_config()) as rec:
        doc.write_bytes(docx_bytes([*REVISED, "Owner: Dana"]))
        wait_until(lambda: _of(store, "file_edit", "plan.docx"), FLUSH_S, what="the first save stored")
        rec.flush(FLUSH_S)
    [edit] = _of(store, "file_edit", "plan.docx")
    assert (edit["lines_added"], edit["lines_deleted"]) == (2, 1)
    assert _blob(store, edit["media_ref_old"]) == "".join(p + "\n" for p in REPORT)


def test_a_save_that_changes_only_formatting_is_an_edit_of_no_lines(root: Path, store: Store) -> None:
    doc = root / "letter.docx"
    doc.write_bytes(docx_bytes(REPORT))
    with Recorder(store, [root], make_config()) as rec:
        # the same words, each paragraph now in one run (as after removing a bold word)
        doc.write_bytes(docx_bytes([], document_xml=docx_xml(REPORT, split_runs=False)))
        wait_until(lambda: _of(store, "file_edit", "letter.docx"), FLUSH_S, what="the save stored")
        rec.flush(FLUSH_S)
    [edit] = _of(store, "file_edit", "letter.docx")
    assert edit["diff_summary"] == "+0 -0" and edit["media_ref_diff"] is None
    assert edit["before_hash"] != edit["after_hash"]  # the bytes did change


def test_an_rtf_document_is_its_paragraphs_not_its_markup(root: Path, store: Store) -> None:
    doc = root / "menu.rtf"
    with Recorder(store, [root], make_config()) as rec:
        doc.write_bytes(rtf_bytes(["Caf\u00e9 menu", "Soup of the day", "Apple tart"]))
        wait_until(lambda: _of(store, "file_write", "menu.rtf"), FLUSH_S, what="the menu stored")
        time.sleep(1.0)
        doc.write_bytes(rtf_bytes(["Caf\u00e9 menu", "Soup of the day: leek", "Apple tart"]))
        wait_until(lambda: _of(store, "file_edit", "menu.rtf"), FLUSH_S, what="the save stored")
        rec.flush(FLUSH_S)
    [write] = _of(store, "file_write", "menu.rtf")
    assert _blob(store, write["media_ref"]) == "Caf\u00e9 menu\nSoup of the day\nApple tart\n"  # no font table
    [edit] = _of(store, "file_edit", "menu.rtf")
    assert edit["diff_summary"] == "+1 -1" and edit["text_extracted"] is True
