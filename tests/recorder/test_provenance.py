"""Provenance: which program did an action and whether the person authored it. Real
processes under the real recorder: a tool added in the config, a resident indexer, a
build run through a shell, an editor next to a shell redirect; and the fields survive
export and import."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fg_helpers import FLUSH_S
from filegram.recorder import Recorder
from filegram.recorder.programs import ProgramTable
from rec_helpers import make_config, run_cli, sh

from filegram.config import ConfigError, parse_config
from filegram.store import Store

DERIVED = ("context_switch", "cross_file_reference")


def primary(store: Store) -> list[dict]:
    return [e for e in store.actions() if e["event_type"] not in DERIVED]


def script(path: Path, body: str) -> Path:
    """An executable Python script: the kernel names its process after the file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!{sys.executable}\n{body}", encoding="utf-8")
    path.chmod(0o755)
    return path


def test_a_tool_added_in_the_config_becomes_one_summary(root: Path, store: Store, tmp_path: Path) -> None:
    tool = script(tmp_path / "bin" / "mysync", (
        "import os, sys, time\n"
        "for i in range(5):\n"
        "    open(os.path.join(sys.argv[1], f'synced{i}.txt'), 'w').write(f'{i}\\n')\n"
        "time.sleep(0.3)\n"))
    (root / "mine.md").write_text("mine\n")
    with Recorder(store, [root], make_config(tool_programs=["mysync:tool"])) as rec:
        subprocess.run([str(tool), str(root)], check=True)
        rec.flush(FLUSH_S)
        sh("cat mine.md > /dev/null", root)
        rec.flush(FLUSH_S)
    evs = primary(store)
    assert [(e["event_type"], e["file_path"], e.get("bulk_count"), e["program"], e["authored"]) for e in evs] == [
        ("file_write", ".", 5, "mysync", False),
        ("file_read", "mine.md", None, "cat", True),
    ]


def test_without_the_config_row_the_same_program_is_the_persons(root: Path, store: Store, tmp_path: Path) -> None:
    tool = script(tmp_path / "bin" / "mysync", (
        "import os, sys\nopen(os.path.join(sys.argv[1], 'made.txt'), 'w').write('x\\n')\n"))
    with Recorder(store, [root], make_config()) as rec:
        subprocess.run([str(tool), str(root)], check=True)
        rec.flush(FLUSH_S)
    assert [(e["event_type"], e["file_path"], e["program"], e["authored"]) for e in primary(store)] == [
        ("file_write", "made.txt", None, True)]


def test_a_resident_indexer_is_followed_by_its_reads(root: Path, store: Store, tmp_path: Path) -> None:
    """baloo-like daemon: runs all the time, reads what changed. Its reads are one summary;
    the person's read while it sleeps is the person's."""
    for i in range(6):
        (root / f"doc{i}.md").write_text(f"document {i}\n")
    go = tmp_path / "go"
    # The default table knows baloo_file; this one is declared in the config under a name of
    # its own, so the recorders of tests running beside it on the machine do not follow it.
    assert ProgramTable().classify(["baloo_file"], "baloo_file").rule.kind == "indexer"
    name = f"fgidx{os.getpid()}"  # a comm holds 15 characters
    indexer = script(tmp_path / "bin" / name, (
        "import os, sys, time\n"
        f"go = {str(go)!r}\n"
        "while not os.path.exists(go):\n"
        "    time.sleep(0.05)\n"
        "for name in sorted(os.listdir(sys.argv[1])):\n"
        "    open(os.path.join(sys.argv[1], name), 'rb').read()\n"
        "time.sleep(60)\n"))
    proc = subprocess.Popen([str(indexer), str(root)])
    try:
        with Recorder(store, [root], make_config(tool_programs=[f"{name}:indexer"])) as rec:
            time.sleep(0.5)  # the indexer is known and idle
            sh("cat doc0.md > /dev/null", root)
            rec.flush(FLUSH_S)
            time.sleep(0.6)
            go.write_text("")
            time.sleep(1.0)  # it reads everything
            rec.flush(FLUSH_S)
    finally:
        proc.kill()
        proc.wait()
    evs = primary(store)
    assert [(e["event_type"], e["program"], e["authored"]) for e in evs if e["event_type"] == "file_read"] == [
        ("file_read", "cat", True)]
    (summary,) = [e for e in evs if e["event_type"] == "file_browse"]
    assert (summary["program"], summary["authored"], summary["bulk_count"]) == (name, False, 7)


def test_a_build_through_a_shell_is_the_builds(root: Path, store: Store) -> None:
    """make runs its recipes through sh: the files its children write are make's."""
    (root / "Makefile").write_text("all:\n\tmkdir -p out\n\tcp src.txt out/a.txt\n\tcp src.txt out/b.txt\n\techo done > out/log.txt\n")
    (root / "src.txt").write_text("source\n")
    with Recorder(store, [root], make_config()) as rec:
        sh("make -s > /dev/null", root)
        rec.flush(FLUSH_S)
    evs = primary(store)
    assert evs and all(e["program"] == "make" and e["authored"] is False for e in evs), evs
    assert sum(e["bulk_count"] for e in evs if e["event_type"] == "file_write") == 3


def test_a_shell_redirect_next_to_an_open_editor_is_not_the_editors(root: Path, store: Store) -> None:
    pexpect = pytest.importorskip("pexpect")
    import shutil

    if not shutil.which("vim"):
        pytest.skip("vim is not installed")
    (root / "notes.md").write_text("notes\n")
    with Recorder(store, [root], make_config()) as rec:
        child = pexpect.spawn("vim", ["notes.md"], cwd=str(root), env=dict(os.environ, TERM="xterm", HOME=str(root.parent)))
        try:
            time.sleep(1.0)
            sh("echo 'from the shell' > other.txt", root)
            rec.flush(FLUSH_S)
        finally:
            child.send(":q!\r")
            child.expect(pexpect.EOF, timeout=10)
            child.close()
        rec.flush(FLUSH_S)
    by_path = {e.get("file_path"): e for e in primary(store)}
    assert (by_path["other.txt"]["program"], by_path["other.txt"]["authored"]) == (None, True)
    assert (by_path["notes.md"]["event_type"], by_path["notes.md"]["program"]) == ("file_read", "vim")
    assert not [e for e in primary(store) if e["event_type"] == "file_browse"]


def test_provenance_survives_export_and_import(root: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    store = Store(home / "filegram.db")
    try:
        with Recorder(store, [root], make_config()) as rec:
            sh("mkdir -p pkg/docs && echo a > pkg/a.md && echo b > pkg/docs/b.md && tar cf ../p.tar pkg && rm -r pkg", root)
            rec.flush(FLUSH_S)
            sh("tar xf ../p.tar", root)
            rec.flush(FLUSH_S)
            sh("cat pkg/a.md > /dev/null", root)
            rec.flush(FLUSH_S)
    finally:
        store.close()
    out = tmp_path / "export"
    assert run_cli("export", "--format", "filegram", str(out), home=home).returncode == 0
    (traj,) = [p for p in out.iterdir() if p.is_dir()]
    exported = json.loads((traj / "events.json").read_text())
    assert {(e["event_type"], e["program"], e["authored"]) for e in exported} >= {
        ("file_write", "tar", False), ("dir_create", "tar", False), ("file_read", "cat", True)}
    home2 = tmp_path / "home2"
    assert run_cli("import", str(traj), home=home2).returncode == 0
    again = Store(home2 / "filegram.db")
    try:
        got = {(e["event_type"], e.get("program"), e.get("authored"), e.get("bulk_count")) for e in again.actions()}
    finally:
        again.close()
    assert ("file_write", "tar", False, 2) in got and ("file_read", "cat", True, None) in got


def test_a_wrong_type_of_provenance_field_is_refused_on_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"event_id": "e1", "event_type": "file_read", "timestamp": 1, "session_id": "s",
                               "file_path": "a.md", "authored": "yes"}) + "\n")
    proc = run_cli("import", str(bad), home=tmp_path / "home")
    assert proc.returncode == 2 and "'authored' must be true or false" in proc.stderr


def test_tool_programs_entries_are_checked() -> None:
    assert parse_config('[recorder]\ntool_programs = ["rsync", "borg extract:archive", "micro:editor"]\n')
    for bad, why in (('["x:sometimes"]', "unknown kind"), ('["/usr/bin/x"]', "not a path"), ('[" "]', "no program")):
        with pytest.raises(ConfigError, match=why):
            parse_config(f"[recorder]\ntool_programs = {bad}\n")
    table = ProgramTable.with_extra(["borg extract:archive", "micro:editor"])
    assert table.classify(["borg", "extract", "repo::x"]).rule.authored is False
    assert table.classify(["borg", "list", "repo"]) is None
    assert table.classify(["micro", "notes.md"]).rule.kind == "editor"


def test_the_command_names_only_the_sub_command() -> None:
    t = ProgramTable()
    assert t.classify(["git", "-C", "code", "checkout", "secret-branch"]).command == "git checkout"
    assert t.classify(["/usr/bin/python3", "-m", "pip", "install", "private-pkg"]).command == "python -m pip install"
    assert t.classify(["tar", "-xzf", "my-taxes-2024.tgz"]).command == "tar x"
    assert t.classify(["cp", "report", "report-old"]).command == "cp"
    assert t.classify(["make", "payroll"]).command == "make"


@pytest.mark.parametrize("delay", [0.03, 0.5])
def test_a_tool_seen_late_still_makes_one_summary(root: Path, store: Store, tmp_path: Path, delay: float) -> None:
    """Under load the helper's report of `tar` can come after its first thousand events
    (the rate-based summariser has taken the folder by then): the episode joins tar's
    run, and every file is counted once."""
    import tarfile
    import threading

    src = tmp_path / "src" / "big"
    for i in range(10):
        (src / f"d{i}").mkdir(parents=True)
        for j in range(150):
            (src / f"d{i}" / f"f{j:03d}.txt").write_text(f"{i} {j}\n")
    with tarfile.open(tmp_path / "big.tar", "w") as tf:
        tf.add(src, arcname="big")
    rec = Recorder(store, [root], make_config(bulk_events_per_second=100))
    on_start = rec._on_proc_start

    def late(info) -> None:  # the report arrives after the process started (mid-way, or after)
        if info.comm == "tar":
            threading.Timer(delay, on_start, args=(info,)).start()
        else:
            on_start(info)

    rec._on_proc_start = late
    with rec:
        sh(f"tar xf {tmp_path / 'big.tar'}", root)
        time.sleep(1.0)
        rec.flush(20)
    evs = primary(store)
    assert sorted((e["event_type"], e.get("operation"), e["bulk_count"], e["program"], e["authored"]) for e in evs) == [
        ("dir_create", None, 11, "tar", False), ("file_write", "create", 1500, "tar", False)]


def _wait_stopped(pid: int) -> None:
    """Until every thread of the process is stopped: kill() returns before they are."""
    deadline = time.monotonic() + FLUSH_S
    while time.monotonic() < deadline:
        states = []
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                states.append((task / "stat").read_text().rsplit(")", 1)[1].split()[0])
            except OSError:
                continue
        if states and all(s in ("T", "t") for s in states):
            return
        time.sleep(0.005)
    raise AssertionError(f"process {pid} did not stop")


@pytest.mark.parametrize("connector", [True, False], ids=["connector-if-allowed", "scan"])
def test_a_tool_the_helper_sees_late_is_not_the_persons(root: Path, store: Store, monkeypatch: pytest.MonkeyPatch,
                                                         connector: bool) -> None:
    """The process helper, starved of CPU on a busy machine, reports `tar x` a second after
    its first files: those files must wait for the report, not settle as the person's
    writing (a clean clone's `make test`: `7z x` stored half an archive as the person's).
    The helper is stopped for real (SIGSTOP) while tar extracts part of its archive from a
    pipe it keeps open; with the process connector (root) and with the /proc scan."""
    import io
    import signal
    import tarfile

    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tf:
        folder = tarfile.TarInfo("pages")
        folder.type, folder.mode = tarfile.DIRTYPE, 0o755
        tf.addfile(folder)
        for i in range(6):
            data = f"page {i}\n".encode() * 200
            info = tarfile.TarInfo(f"pages/p{i}.txt")
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    archive = buf.getvalue()
    if not connector:
        monkeypatch.setenv("FILEGRAM_NO_PROC_CONNECTOR", "1")
    half = 512 * (1 + 4) * 3 + 512  # the folder's header and three members: their blocks
    with Recorder(store, [root], make_config()) as rec:
        helper = rec.procs._child if rec.procs is not None else None
        if helper is None:
            pytest.skip("the process watcher runs without a helper process here")
        os.kill(helper.pid, signal.SIGSTOP)
        _wait_stopped(helper.pid)
        # one 512-byte block per read: tar extracts what it was given, then waits for more
        tar = subprocess.Popen(["tar", "-x", "-b", "1", "-f", "-"], cwd=root, stdin=subprocess.PIPE)
        try:
            assert tar.stdin is not None
            tar.stdin.write(archive[:half])
            tar.stdin.flush()
            deadline = time.monotonic() + FLUSH_S
            while not (root / "pages" / "p2.txt").exists() and time.monotonic() < deadline:
                time.sleep(0.05)
            assert (root / "pages" / "p2.txt").exists()
            time.sleep(1.5)  # several settle windows go by with the helper silent
        except BaseException:
            tar.kill()
            raise
        finally:
            os.kill(helper.pid, signal.SIGCONT)
        # tar must outlive the helper's pause (a program gone before the helper looks is
        # known by its name only): finish it once the helper has reported what runs
        assert rec.procs is not None and rec.procs.sync(FLUSH_S)
        tar.stdin.write(archive[half:])
        tar.stdin.close()
        assert tar.wait(timeout=FLUSH_S) == 0
        rec.flush(FLUSH_S)
    evs = primary(store)
    assert [e for e in evs if e["authored"]] == []
    assert sorted((e["event_type"], e["bulk_count"], e["program"]) for e in evs) == [
        ("dir_create", 1, "tar"), ("file_write", 6, "tar")]


def test_the_privileged_process_scanner_asks_for_a_better_cpu_share() -> None:
    """With the process connector (root or CAP_NET_ADMIN) the scanner runs at nice -10: on a
    busy machine a 3 ms `tar x` must still be read before it exits (a stress run with two
    CPU hogs lost one, and its 3 files were stored as the person's)."""
    import psutil
    from filegram.recorder.procs import ProcessWatcher

    watcher = ProcessWatcher(lambda info: None, lambda pid, t: None)
    watcher.start()
    try:
        if not watcher.mode.startswith("proc_connector"):
            pytest.skip(f"no process connector here ({watcher.mode}): the scanner keeps its priority")
        child = watcher._child
        assert child is not None
        nice = psutil.Process(child.pid).nice()
        if os.geteuid() != 0:
            assert nice == 0
        else:
            assert nice == -10
    finally:
        watcher.stop()
