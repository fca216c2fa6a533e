"""`cp -r notes notes-backup` when cp was gone before its command line could be read (an
ordinary user's /proc scan on a busy machine) and another test's grep ran at the same
moment, also known only by its name. CI stored it as a dir_create, two file_writes by cp
and a search nobody ran: the files in the new folder waited for a move's late half, the
reads of notes/ settled first and the nameless grep took them. A folder copied whole into
a new folder is one file_copy of the folder, however the copy was made (cp -r, a file
manager), and a search known only by its name never takes a copy's reads."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from filegram.recorder.interpret import Interpreter
from filegram.recorder.paths import RootSet
from filegram.recorder.procs import ProcInfo
from filegram.recorder.state import FileState
from filegram.recorder.watch import Raw

from filegram.privacy import PathFilter
from filegram.store import Store, now_ms

NOTES = {"meeting.md": "# meeting\nbudget is due on friday\n", "ideas.txt": "ship it in small steps\n"}


def _with_notes(root: Path, store: Store) -> Interpreter:
    (root / "notes").mkdir()
    for name, text in NOTES.items():
        (root / "notes" / name).write_text(text)
    (root / "plan.md").write_text("# plan\n")
    interp = Interpreter(RootSet([root], PathFilter()), FileState(store))
    interp.baseline(1 << 20)
    return interp


def _feed_copy(interp: Interpreter, root: Path, t: float, *, grep: bool) -> None:
    """What the kernel reported: the new folder, cp's listing of notes/, and the files the
    walk of the new folder found (its watch came after cp wrote them)."""
    if grep:
        interp.feed(Raw("proc_start", "", t=t - 5, data=ProcInfo(-1, 0, "grep", [], "", t - 5)))
    interp.feed(Raw("proc_start", "", t=t, data=ProcInfo(-1, 0, "cp", [], "", t)))
    interp.feed(Raw("created", str(root / "notes-backup"), t=t + 1, is_dir=True))
    interp.feed(Raw("dir_opened", str(root / "notes"), t=t + 1.5, is_dir=True))
    for i, name in enumerate(NOTES):
        interp.feed(Raw("created", str(root / "notes-backup" / name), t=t + 2 + i))
        interp.feed(Raw("closed_nowrite", str(root / "notes" / name), t=t + 2.5 + i))
    interp.feed(Raw("proc_end", "", t=t + 8, data=-1))
    if grep:
        interp.feed(Raw("proc_end", "", t=t + 9, data=-1))


def _ticks(interp: Interpreter, t: float) -> list[dict]:
    actions: list[dict] = []
    for dt in range(100, 4000, 100):  # the worker's ticks, every 100 ms
        actions += interp.tick(t + dt)
    return actions + interp.tick(t + 10_000, force=True)


@pytest.mark.parametrize("grep", [False, True], ids=["alone", "beside a nameless grep"])
def test_a_folder_copied_whole_into_a_new_folder_is_one_copy(root: Path, store: Store, grep: bool) -> None:
    interp = _with_notes(root, store)
    shutil.copytree(root / "notes", root / "notes-backup")
    t = now_ms()
    _feed_copy(interp, root, t, grep=grep)
    actions = _ticks(interp, t)
    kept = [(a["event_type"], a.get("source_path"), a.get("dest_path") or a.get("file_path") or a.get("dir_path")
             or a.get("directory_path"), a.get("is_backup"), a.get("authored")) for a in actions]
    assert kept == [("file_copy", "notes", "notes-backup", True, True)], actions
    assert actions[0]["bulk_count"] == 2


def test_a_new_folder_holding_more_than_the_copies_keeps_its_own_actions(root: Path, store: Store) -> None:
    """Only a whole folder copied is a folder copy: a new folder where one file is copied in
    and another written is a dir_create, a file_copy and a file_write."""
    interp = _with_notes(root, store)
    (root / "draft").mkdir()
    shutil.copyfile(root / "notes" / "meeting.md", root / "draft" / "meeting.md")
    (root / "draft" / "new.md").write_text("# something new\n")
    t = now_ms()
    interp.feed(Raw("created", str(root / "draft"), t=t, is_dir=True))
    interp.feed(Raw("created", str(root / "draft" / "meeting.md"), t=t + 2))
    interp.feed(Raw("closed_nowrite", str(root / "notes" / "meeting.md"), t=t + 2.5))
    interp.feed(Raw("created", str(root / "draft" / "new.md"), t=t + 4))
    interp.feed(Raw("closed_write", str(root / "draft" / "new.md"), t=t + 5))
    actions = _ticks(interp, t)
    kinds = sorted((a["event_type"], a.get("dest_path") or a.get("file_path") or a.get("dir_path")) for a in actions)
    assert kinds == [("dir_create", "draft"), ("file_copy", "draft/meeting.md"), ("file_write", "draft/new.md")], actions


def test_a_nameless_grep_that_read_files_is_still_a_search(root: Path, store: Store) -> None:
    """The copy's reads are the copy's; a grep's reads with no copy beside them stay its own."""
    interp = _with_notes(root, store)
    t = now_ms()
    interp.feed(Raw("proc_start", "", t=t, data=ProcInfo(-1, 0, "grep", [], "", t)))
    for i, name in enumerate(NOTES):
        interp.feed(Raw("closed_nowrite", str(root / "notes" / name), t=t + 2 + i))
    interp.feed(Raw("proc_end", "", t=t + 8, data=-1))
    actions = _ticks(interp, t)
    assert [a["event_type"] for a in actions] == ["file_search"], actions


def test_a_read_that_a_command_line_named_is_not_a_nameless_greps(root: Path, store: Store) -> None:
    """`cat notes/meeting.md` while a grep known only by its name runs somewhere on the
    machine: the read is the person's, through cat, and no search is stored."""
    interp = _with_notes(root, store)
    t = now_ms()
    interp.feed(Raw("proc_start", "", t=t, data=ProcInfo(-1, 0, "grep", [], "", t)))
    cat = ProcInfo(4242, 1, "cat", ["cat", "notes/meeting.md"], str(root), t + 1)
    interp.feed(Raw("proc_start", "", t=t + 1, data=cat))
    interp.feed(Raw("closed_nowrite", str(root / "notes" / "meeting.md"), t=t + 2))
    interp.feed(Raw("proc_end", "", t=t + 3, data=4242))
    interp.feed(Raw("proc_end", "", t=t + 8, data=-1))
    actions = _ticks(interp, t)
    assert [(a["event_type"], a.get("file_path"), a.get("program")) for a in actions] == [
        ("file_read", "notes/meeting.md", "cat")], actions


def test_a_nameless_reader_writes_nothing(root: Path, store: Store) -> None:
    """`echo x > other.txt` in the person's shell while a cat known only by its name runs
    somewhere on the machine (CI: another test's cat took the person's new file). A reader
    writes nothing itself: the new file is the person's."""
    interp = _with_notes(root, store)
    t = now_ms()
    (root / "other.txt").write_text("from the shell\n")
    interp.feed(Raw("proc_start", "", t=t, data=ProcInfo(-1, 0, "cat", [], "", t)))
    interp.feed(Raw("created", str(root / "other.txt"), t=t + 2))
    interp.feed(Raw("closed_write", str(root / "other.txt"), t=t + 3))
    interp.feed(Raw("proc_end", "", t=t + 8, data=-1))
    actions = _ticks(interp, t)
    assert [(a["event_type"], a.get("file_path"), a.get("program"), a.get("authored")) for a in actions] == [
        ("file_write", "other.txt", None, True)], actions
