"""The person, not their tools: what a program does on the person's behalf (an editor's
backup, a search's bookkeeping, a shell expanding a glob) is never taken for the person's
reading, writing or searching, and what the person reads by name stays their reading.
Real programs under the real recorder (real inotify, the real process helper)."""

from __future__ import annotations

from pathlib import Path

from fg_helpers import FLUSH_S
from filegram.recorder import Recorder
from rec_helpers import make_config, sh

from filegram.store import Store

DERIVED = ("context_switch", "cross_file_reference")


def primary(store: Store) -> list[dict]:
    return [e for e in store.actions() if e["event_type"] not in DERIVED]


def test_reading_every_file_of_a_folder_by_name_is_reading_not_a_search(root: Path, store: Store) -> None:
    """`cat notes/*.md`: the shell lists notes/ to expand the glob, then cat reads every file
    in it. cat's command line names each file: six reads by the person, not a search whose
    process was missed (which also left bogus search_then_read references behind)."""
    (root / "notes").mkdir()
    for i in range(6):
        (root / "notes" / f"n{i}.md").write_text(f"note {i}\n")
    with Recorder(store, [root], make_config()) as rec:
        # cat waits on stdin after the files, so that the process scan reads its command
        # line also without the process connector (an ordinary user)
        sh("sleep 0.6 | cat notes/*.md - > /dev/null", root)
        rec.flush(FLUSH_S)
    evs = primary(store)
    assert [(e["event_type"], e.get("file_path"), e["program"], e["authored"]) for e in evs] == [
        ("file_read", f"notes/n{i}.md", "cat", True) for i in range(6)], evs
    refs = [e for e in store.actions() if e["event_type"] == "cross_file_reference"]
    assert not [e for e in refs if e["reference_type"] == "search_then_read"], refs
