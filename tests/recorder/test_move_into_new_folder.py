"""`mkdir archive && mv notes/old.md archive/`: the move can beat the inotify watch on the
new folder, so the kernel reports only that notes/old.md left and the scan of archive/
finds archive/old.md. Seen in tests/recorder/test_real_day.py (stored as a create and a
delete). Whichever half is read first, it is one file_move; a copy is not a move."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from filegram.recorder.interpret import Interpreter
from filegram.recorder.paths import RootSet
from filegram.recorder.state import FileState
from filegram.recorder.watch import Raw

from filegram.privacy import PathFilter
from filegram.store import Store, now_ms


def _known(root: Path, store: Store) -> Interpreter:
    (root / "notes").mkdir()
    (root / "notes" / "old.md").write_text("# old notes\nkept for the record\n")
    interp = Interpreter(RootSet([root], PathFilter()), FileState(store))
    interp.baseline(1 << 20)
    return interp


def _summary(actions: list[dict]) -> list[tuple]:
    out = []
    for a in actions:
        t = a["event_type"]
        if t == "file_move":
            out.append((t, a["old_path"], a["new_path"]))
        elif t in ("file_write", "file_delete"):
            out.append((t, a["file_path"]))
        elif t == "dir_create":
            out.append((t, a["dir_path"]))
    return out


@pytest.mark.parametrize("order", ["left first", "found first"])
def test_a_move_into_a_folder_made_a_moment_before_is_a_move(root: Path, store: Store, order: str) -> None:
    interp = _known(root, store)
    (root / "archive").mkdir()
    os.rename(root / "notes" / "old.md", root / "archive" / "old.md")
    t = now_ms()
    left = Raw("deleted", str(root / "notes" / "old.md"), t=t + 1)
    found = Raw("created", str(root / "archive" / "old.md"), t=t + 2)
    interp.feed(Raw("created", str(root / "archive"), t=t, is_dir=True))
    for raw in ([left, found] if order == "left first" else [found, left]):
        interp.feed(raw)
    actions = interp.tick(now_ms() + 10_000, force=True)
    assert _summary(actions) == [("dir_create", "archive"), ("file_move", "notes/old.md", "archive/old.md")], actions


def test_a_copy_then_a_delete_stays_a_copy_and_a_delete(root: Path, store: Store) -> None:
    interp = _known(root, store)
    (root / "archive").mkdir()
    shutil.copyfile(root / "notes" / "old.md", root / "archive" / "old.md")  # new mtime: not the same file
    os.utime(root / "archive" / "old.md", ns=(0, 10**18))
    (root / "notes" / "old.md").unlink()
    t = now_ms()
    interp.feed(Raw("created", str(root / "archive"), t=t, is_dir=True))
    interp.feed(Raw("deleted", str(root / "notes" / "old.md"), t=t + 1))
    interp.feed(Raw("created", str(root / "archive" / "old.md"), t=t + 2))
    interp.feed(Raw("closed_write", str(root / "archive" / "old.md"), t=t + 3))
    actions = interp.tick(now_ms() + 10_000, force=True)
    kinds = [k[0] for k in _summary(actions)]
    assert "file_move" not in kinds and "file_delete" in kinds, actions


@pytest.mark.parametrize("order", ["walk first", "move first"])
def test_the_walk_of_the_new_folder_and_the_move_both_seen_are_one_move(root: Path, store: Store, order: str) -> None:
    """E-1, two hogs: the watch on archive/ was added in time for the move's own event, and
    the walk watchdog makes of a new folder (a plain create, not marked synthetic) also
    found archive/old.md: stored as a file_write and a file_move."""
    interp = _known(root, store)
    (root / "archive").mkdir()
    os.rename(root / "notes" / "old.md", root / "archive" / "old.md")
    t = now_ms()
    walk = Raw("created", str(root / "archive" / "old.md"), t=t + 1)
    move = Raw("moved", str(root / "notes" / "old.md"), str(root / "archive" / "old.md"), t=t + 2)
    interp.feed(Raw("created", str(root / "archive"), t=t, is_dir=True))
    for raw in ([walk, move] if order == "walk first" else [move, walk]):
        interp.feed(raw)
    actions = interp.tick(now_ms() + 10_000, force=True)
    assert _summary(actions) == [("dir_create", "archive"), ("file_move", "notes/old.md", "archive/old.md")], actions


def test_the_leaving_half_reported_half_a_second_late_still_meets_the_new_file(root: Path, store: Store) -> None:
    """E-1 and a parallel run: watchdog holds an unmatched IN_MOVED_FROM 0.5 s before it
    reports a delete, while its walk of the new folder reports the file at once; with a
    400 ms settle window the new file had already been stored as created."""
    interp = _known(root, store)
    (root / "archive").mkdir()
    os.rename(root / "notes" / "old.md", root / "archive" / "old.md")
    t = now_ms()
    interp.feed(Raw("created", str(root / "archive"), t=t, is_dir=True))
    interp.feed(Raw("created", str(root / "archive" / "old.md"), t=t + 0.1))
    early = interp.tick(t + 500)  # the worker settles while watchdog still holds the other half
    interp.feed(Raw("deleted", str(root / "notes" / "old.md"), t=t + 501))
    actions = early + interp.tick(t + 10_000, force=True)
    assert _summary(actions) == [("dir_create", "archive"), ("file_move", "notes/old.md", "archive/old.md")], actions
