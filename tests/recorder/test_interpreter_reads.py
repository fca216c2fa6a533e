"""The person ran a script; they did not read it, nor the modules it loads. An interpreter
opening its script (also one run through its shebang line), the modules it imports and
Python's look at the script's folder are the program's (`program` the interpreter,
`program_kind: "script"`, `"authored": false`), with and without the kernel's process
connector; and a command the person typed over a list of names (`touch a b c`) is theirs,
not a script's burst. Real programs under the real recorder (real inotify, the real
process helper)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from fg_helpers import FLUSH_S, wait_until
from filegram.recorder import Recorder
from filegram.recorder.scripts import TYPED_MAX_FILES, WRITTEN, ScriptBursts
from rec_helpers import make_config, sh

from filegram.store import Store

DERIVED = ("context_switch", "cross_file_reference")
PYTHON = os.path.basename(sys.executable)  # what the shebang line below names


def primary(store: Store) -> list[dict]:
    return [e for e in store.actions() if e["event_type"] not in DERIVED]


def keys(evs: list[dict]) -> list[tuple]:
    return [(e["event_type"], e.get("file_path") or e.get("directory_path"), e["program"], e.get("program_kind"),
             e["authored"]) for e in evs]


def _wait_for_file(go: Path) -> str:
    """Python lines that wait (polling, with a deadline) until the test says go: the script
    lives until the recorder has seen it, however busy the machine. os and time are
    built into the interpreter: importing them reads no file of the root."""
    return (f"import os, time\nd = time.monotonic() + 120\n"
            f"while not os.path.exists({str(go)!r}) and time.monotonic() < d:\n    time.sleep(0.01)\n")


def _seen(rec: Recorder, script: Path) -> bool:
    """Has the recorder been told of an interpreter running this script?"""
    assert rec.interp is not None
    return any(u.script == str(script) for u in list(rec.interp.tools.unlisted.values()))


def _stored(store: Store, etype: str, rel: str) -> list[dict]:
    return [e for e in store.actions() if e["event_type"] == etype and e.get("file_path") == rel]


def test_a_script_run_through_its_shebang_line_reads_as_its_interpreter(root: Path, store: Store,
                                                                          tmp_path: Path) -> None:
    """`./build.py` (`#!/path/to/python`) and `./backup.sh` (`#!/bin/sh`): the process has
    the script's name as its kernel name, and the interpreter's read of its script was
    stored as the person reading it. The person's own `cat build.py` stays theirs."""
    go = tmp_path / "go"
    (root / "build.py").write_text(f"#!{sys.executable}\n" + _wait_for_file(go))
    i_max = 12_000
    (root / "backup.sh").write_text(f"#!/bin/sh\ni=0\nwhile [ ! -e '{go}' ] && [ $i -lt {i_max} ]; do\n"
                                    "  sleep 0.01; i=$((i+1))\ndone\n")
    for name in ("build.py", "backup.sh"):
        os.chmod(root / name, 0o755)
    with Recorder(store, [root], make_config()) as rec:
        procs = [subprocess.Popen([f"./{name}"], cwd=root) for name in ("build.py", "backup.sh")]
        try:
            wait_until(lambda: _seen(rec, root / "build.py") and _seen(rec, root / "backup.sh"), FLUSH_S,
                       what="the recorder told of both interpreters")
        finally:
            go.touch()
            for p in procs:
                p.wait(timeout=FLUSH_S)
        # settled in their own time (no flush): the person's read comes later, as it would
        wait_until(lambda: _stored(store, "file_read", "build.py") and _stored(store, "file_read", "backup.sh"),
                   FLUSH_S, what="the scripts' reads stored")
        # cat waits on stdin after the file: the process scan reads it also without the connector
        sh("sleep 0.6 | cat build.py - > /dev/null", root)
        rec.flush(FLUSH_S)
    evs = primary(store)
    assert sorted(keys(evs[:-1])) == [
        ("file_read", "backup.sh", "sh", "script", False),
        ("file_read", "build.py", PYTHON, "script", False),
    ], evs
    assert keys(evs[-1:]) == [("file_read", "build.py", "cat", None, True)], evs
    assert evs[-1]["view_count"] == 1, evs  # the program's reads are no views of the person's


HELPERS = "def title(s):\n    return s.title()\n"


def test_the_modules_a_script_imports_are_its_reads(root: Path, store: Store, tmp_path: Path) -> None:
    """`python3 tools/report.py` imports helpers.py next to it (and json, so that Python's
    import system lists tools/): the script's, the helpers' and the listing's reads are the
    interpreter's. Before, the read of every file of tools/ with a listing of it was taken
    for a search the person ran (a file_search with no query). The person's `cat
    tools/helpers.py` while the script still runs, and after it, stays theirs."""
    go = tmp_path / "go"
    (root / "tools").mkdir()
    (root / "tools" / "helpers.py").write_text(HELPERS)
    (root / "tools" / "report.py").write_text("import json\nimport helpers\n" + _wait_for_file(go))
    with Recorder(store, [root], make_config()) as rec:
        proc = subprocess.Popen([sys.executable, "tools/report.py"], cwd=root)
        try:
            wait_until(lambda: _seen(rec, root / "tools" / "report.py"), FLUSH_S, what="the recorder told of the script")
            wait_until(lambda: _stored(store, "file_read", "tools/helpers.py"), FLUSH_S, what="the import's read stored")
            sh("sleep 0.6 | cat tools/helpers.py - > /dev/null", root)
            rec.flush(FLUSH_S)
        finally:
            go.touch()
            proc.wait(timeout=FLUSH_S)
        rec.flush(FLUSH_S)
        wait_until(lambda: not _seen(rec, root / "tools" / "report.py") or all(
            u.t_end is not None for u in rec.interp.tools.unlisted.values()), FLUSH_S,  # type: ignore[union-attr]
            what="the script's end noticed")
        sh("sleep 0.6 | cat tools/helpers.py - > /dev/null", root)
        rec.flush(FLUSH_S)
    evs = primary(store)
    assert sorted(keys(evs[:2])) == [
        ("file_read", "tools/helpers.py", PYTHON, "script", False),
        ("file_read", "tools/report.py", PYTHON, "script", False),
    ], evs
    assert keys(evs[2:]) == [("file_read", "tools/helpers.py", "cat", None, True)] * 2, evs
    assert [e["view_count"] for e in evs[2:]] == [1, 2], evs


def test_a_short_script_is_seen_without_the_process_connector(root: Path, store: Store,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """As an ordinary user (no process connector), a script that ends in a few tens of
    milliseconds lived shorter than the periodic scan: its reads of itself and of its
    module were the person's (and together a search the person never ran). The helper now
    wakes on the exec of a Python interpreter and finds it while it starts."""
    monkeypatch.setenv("FILEGRAM_NO_PROC_CONNECTOR", "1")
    (root / "helpers.py").write_text(HELPERS)
    (root / "quick.py").write_text("import json\nimport helpers\nprint(helpers.title('done'))\n")
    with Recorder(store, [root], make_config()) as rec:
        assert not rec.stats()["process_watch"].startswith("proc_connector")
        sh(f"{sys.executable} quick.py", root)
        rec.flush(FLUSH_S)
    assert sorted(keys(primary(store))) == [
        ("file_read", "helpers.py", PYTHON, "script", False),
        ("file_read", "quick.py", PYTHON, "script", False),
    ], primary(store)


def test_touch_of_a_few_names_is_the_persons_command(root: Path, store: Store,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """`touch a.md b.md c.md` makes three new files within a millisecond, and without the
    process connector touch is gone before the scan reads it: it was taken for a script's
    burst (`"authored": false`). Three empty files and no interpreter running: the
    person's command."""
    monkeypatch.setenv("FILEGRAM_NO_PROC_CONNECTOR", "1")
    with Recorder(store, [root], make_config()) as rec:
        sh("touch a.md b.md c.md", root)
        rec.flush(FLUSH_S)
    writes = [e for e in primary(store) if e["event_type"] == "file_write"]
    # (the periodic scan may, rarely, have caught touch itself: then it is named)
    assert sorted((e["file_path"], e.get("program_kind"), e["authored"]) for e in writes) == [
        (f"{n}.md", None, True) for n in "abc"], writes
    assert {e["program"] for e in writes} <= {None, "touch"}, writes


def _new_file(i: int, content_hash: str) -> dict:
    """A settled new file's action as the settler hands it to ScriptBursts (written i ms in)."""
    return {"event_type": "file_write", "operation": "create", "file_path": f"f{i:02d}.md", "timestamp": 1000.0 + i,
            "after_hash": content_hash, "authored": True, "program": None, WRITTEN: 1000.0 + i}


@pytest.mark.parametrize(("n", "same", "person"), [
    (3, True, True), (TYPED_MAX_FILES, True, True),  # touch a b c
    (TYPED_MAX_FILES + 1, True, False),  # touch f{1..20}: more than a person types
    (3, False, False),  # a script writes each file its own content
])
def test_only_a_few_files_of_one_content_are_a_typed_command(n: int, same: bool, person: bool) -> None:
    """The rule behind the test above, decided without timing: a burst of at most
    TYPED_MAX_FILES new files with one content while no interpreter was seen is the person's
    command; more files, or files of different contents, are a script's."""
    bursts = ScriptBursts(lambda lo, hi: False, lambda lo, hi: None)
    out = bursts.take([_new_file(i, "h" if same else f"h{i}") for i in range(n)], 2000.0, force=True)
    assert len(out) == n
    assert {(e["authored"], e.get("program_kind")) for e in out} == ({(True, None)} if person else {(False, "script")})
