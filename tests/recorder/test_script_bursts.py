"""The person ran a program, they did not write its files: a script the table does not list
writing many new files back to back is the program's work (`"authored": false`,
`program_kind: "script"`), while the person's own new files, their editor's "save all" and
their later acts on the script's files stay theirs. Real scripts under the real recorder
(real inotify, the real process helper)."""

from __future__ import annotations

import time
from pathlib import Path

from fg_helpers import FLUSH_S
from filegram.recorder import Recorder
from rec_helpers import make_config, sh

from filegram.store import Store

DERIVED = ("context_switch", "cross_file_reference")

GEN = """\
import os
os.makedirs("out", exist_ok=True)
for i in range(20):
    with open(f"out/item{i:02d}.md", "w") as f:
        f.write(f"# Item {i}\\n\\nWhat item {i} says, in a line of its own.\\n")
"""


def primary(store: Store) -> list[dict]:
    return [e for e in store.actions() if e["event_type"] not in DERIVED]


def test_a_script_writing_many_new_files_is_the_scripts_work(root: Path, store: Store) -> None:
    """`python3 gen.py` writes out/item00..19.md within a few milliseconds: 20 new files by
    a program, not 20 documents the person wrote (nor 19 context switches). The person's
    own acts on those files afterwards (an edit, a move, a delete) are theirs."""
    (root / "gen.py").write_text(GEN)
    with Recorder(store, [root], make_config()) as rec:
        # sleep 0.3 first: the process helper sees python3 start even without the
        # connector's exec notice (its periodic scan), so the script can be named
        sh("sleep 0.3; python3 gen.py; sleep 0.3", root)
        rec.flush(FLUSH_S)
        connector = rec.stats()["process_watch"].startswith("proc_connector")
        writes = [e for e in primary(store) if e["event_type"] == "file_write"]
        assert len(writes) == 20, writes
        assert all(e["authored"] is False and e["program_kind"] == "script" and e["operation"] == "create"
                   for e in writes), writes
        assert {e["file_path"] for e in writes} == {f"out/item{i:02d}.md" for i in range(20)}
        programs = {e["program"] for e in writes}
        assert programs == {"python3"} if connector else programs <= {"python3", None}, programs
        dirs = [e for e in primary(store) if e["event_type"] == "dir_create"]
        assert [(e["dir_path"], e["authored"], e["program_kind"]) for e in dirs] == [("out", False, "script")], dirs
        assert not [e for e in store.actions() if e["event_type"] in DERIVED], store.actions()

        # the person, afterwards, a second apart (the settle windows): their own acts
        time.sleep(1.0)
        sh("printf 'A line the person added.\\n' >> out/item03.md", root)
        time.sleep(1.0)
        sh("mv out/item05.md kept.md", root)
        time.sleep(1.0)
        sh("rm out/item07.md", root)
        rec.flush(FLUSH_S)
    # (python3 reading gen.py is a file_read, as before: the person ran their script)
    later = [e for e in primary(store) if e["event_type"] not in ("file_write", "dir_create", "file_read")]
    assert [(e["event_type"], e.get("file_path") or e.get("new_path"), e["authored"]) for e in later] == [
        ("file_edit", "out/item03.md", True), ("file_move", "kept.md", True), ("file_delete", "out/item07.md", True),
    ], later
    assert later[0]["lines_added"] == 1, later[0]  # diffed against the script's version


def test_new_files_a_second_apart_are_the_persons(root: Path, store: Store) -> None:
    """Three new files the person writes a second apart (a shell redirect each, no program
    of the table): authored, with the context switches between them."""
    with Recorder(store, [root], make_config()) as rec:
        for i in range(3):
            if i:
                time.sleep(1.0)  # a person's pace: what the rule tells apart from a script's
            sh(f"printf 'note {i}\\n' > note{i}.md", root)
        rec.flush(FLUSH_S)
    writes = [e for e in primary(store) if e["event_type"] == "file_write"]
    assert [(e["file_path"], e["authored"], e.get("program_kind")) for e in writes] == [
        (f"note{i}.md", True, None) for i in range(3)], writes
    assert len([e for e in store.actions() if e["event_type"] == "context_switch"]) == 2


SAVE_ALL = """\
import os, tempfile
for name in ("a.md", "b.md", "c.md"):
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=".")
    with os.fdopen(fd, "w") as f:
        f.write(open(name).read() + "saved\\n")
    os.replace(tmp, name)
"""


def test_an_editors_save_all_stays_the_persons_edits(root: Path, store: Store) -> None:
    """Saving three open documents at once (an editor's "save all", atomic saves through
    temporary files) changes existing files within milliseconds: edits, not new files, so
    no program's burst of new files; each stays the person's edit."""
    for name in ("a.md", "b.md", "c.md"):
        (root / name).write_text(f"{name} first line\n")
    (root / "saveall.py").write_text(SAVE_ALL)
    with Recorder(store, [root], make_config()) as rec:
        sh("python3 saveall.py", root)
        rec.flush(FLUSH_S)
    evs = [e for e in primary(store) if e["event_type"] != "file_read"]
    assert [(e["event_type"], e["file_path"], e["authored"]) for e in evs] == [
        ("file_edit", name, True) for name in ("a.md", "b.md", "c.md")], evs


def test_an_interpreter_reading_its_own_script_is_the_programs_read(root: Path, store: Store) -> None:
    """`python3 tidy.py` and `bash backup.sh` open their script to run it: the interpreter's
    read (`program` the interpreter, `program_kind: "script"`, `"authored": false`), not the
    person reading tidy.py (it was stored as theirs, with a context switch and a
    sequential_access reference between the two scripts). The person's own read of a
    script with cat stays theirs."""
    (root / "tidy.py").write_text("import time\ntime.sleep(0.4)\nprint('tidied')\n")
    (root / "backup.sh").write_text("sleep 0.4\necho backed up\n")
    with Recorder(store, [root], make_config()) as rec:
        # the scripts sleep: the process helper sees them also without the connector's
        # exec notice (its periodic scan)
        sh("python3 tidy.py > /dev/null; bash backup.sh > /dev/null", root)
        rec.flush(FLUSH_S)
        sh("sleep 0.6 | cat tidy.py - > /dev/null", root)
        rec.flush(FLUSH_S)
    evs = primary(store)
    assert [(e["event_type"], e["file_path"], e["program"], e.get("program_kind"), e["authored"]) for e in evs] == [
        ("file_read", "tidy.py", "python3", "script", False),
        ("file_read", "backup.sh", "bash", "script", False),
        ("file_read", "tidy.py", "cat", None, True),
    ], evs
    assert evs[2]["view_count"] == 1, evs  # the program's reads are no views of the person's
    assert not [e for e in store.actions() if e["event_type"] in DERIVED], store.actions()
