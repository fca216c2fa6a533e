"""More real tools under the real recorder (the tool zoo): who did what when the person runs
npm, rsync, sqlite3, curl and wget, or opens a file a tool made for writing and writes
nothing. Each test failed on the recorder before the change it names (real files, real
inotify, the real process helper; nothing reaches the network: downloads come from a server
on the loopback interface started here)."""

from __future__ import annotations

import http.server
import os
import shutil
import socketserver
import tarfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fg_helpers import FLUSH_S
from filegram.recorder import Recorder
from filegram.recorder.output import Output
from filegram.recorder.paths import RootSet
from filegram.recorder.pending import Pending
from filegram.recorder.procs import ProcInfo
from filegram.recorder.programs import ProgramTable
from filegram.recorder.state import FileState
from filegram.recorder.tools import ToolRuns
from rec_helpers import make_config, sh

from filegram.privacy import PathFilter
from filegram.store import Store

DERIVED = ("context_switch", "cross_file_reference")


def primary(store: Store) -> list[dict]:
    return [e for e in store.actions() if e["event_type"] not in DERIVED]


def _need(*programs: str) -> None:
    missing = [p for p in programs if not shutil.which(p)]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed")


def _offline_npm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """npm without the network: offline, no update check, a cache and a home of its own."""
    for k, v in (("npm_config_offline", "true"), ("npm_config_update_notifier", "false"),
                 ("npm_config_audit", "false"), ("npm_config_fund", "false"),
                 ("npm_config_cache", str(tmp_path / "npm-cache")), ("HOME", str(tmp_path / "home"))):
        monkeypatch.setenv(k, v)
    (tmp_path / "home").mkdir()


# -- npm: a node script -----------------------------------------------------------------------


def test_a_tool_run_through_its_interpreter_is_the_tool() -> None:
    """npm is `#!/usr/bin/env node`: the helper sees `/usr/bin/env node /usr/bin/npm install`,
    then `node /usr/bin/npm install`, then, once npm has set its title, `npm install` as one
    string (its kernel name too). All of them are npm; before, none was, and everything npm
    wrote was the person's writing."""
    t = ProgramTable()
    for argv, comm in ((["/usr/bin/env", "node", "/usr/bin/npm", "install"], "npm"),
                       (["node", "/usr/bin/npm", "install", "--offline"], "node"),
                       (["npm install"], "npm install"),
                       (["node", "/usr/lib/node_modules/npm/bin/npm-cli.js", "install"], "node")):
        c = t.classify(argv, comm)
        assert c is not None and (c.program, c.command, c.rule.authored) == ("npm", "npm install", False), argv
    assert t.classify([], "npm install").program == "npm"  # type: ignore[union-attr]
    assert t.classify(["ruby", "/usr/bin/gem", "install", "x"], "ruby").command == "gem install"  # type: ignore[union-attr]
    # an interpreter running the person's own script is still no row
    assert t.classify(["node", "build.js"], "node") is None
    assert t.classify(["node", "-e", "1"], "node") is None
    assert t.classify(["/usr/bin/env", "python3", "tidy.py"], "python3") is None


def test_npm_init_and_pack_are_npms_work(root: Path, store: Store, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    _need("npm")
    _offline_npm(tmp_path, monkeypatch)
    (root / "site").mkdir()
    with Recorder(store, [root], make_config()) as rec:
        sh("npm init -y > /dev/null", root / "site")
        rec.flush(FLUSH_S)
        sh("npm pack -q > /dev/null", root / "site")
        rec.flush(FLUSH_S)
    evs = primary(store)
    assert [(e["event_type"], e.get("file_path"), e.get("operation"), e["program"], e["authored"]) for e in evs] == [
        ("file_write", "site/package.json", "create", "npm", False),
        ("file_write", "site/site-1.0.0.tgz", "create", "npm", False)], evs
    assert [e["command"] for e in evs] == ["npm init", "npm pack"]


# -- rsync and cp -a: the person's copies -----------------------------------------------------


def _photos(root: Path, n: int) -> None:
    """photos/ with n files and one in a subfolder: n + 1 files to copy."""
    (root / "photos" / "raw").mkdir(parents=True)
    for i in range(n):
        (root / "photos" / f"p{i:02d}.txt").write_text(f"photo {i}\n")
    (root / "photos" / "raw" / "r.txt").write_text("raw\n")


def test_rsync_of_a_folder_is_the_persons_copy(root: Path, store: Store) -> None:
    """`rsync -a photos/ backup/` is one act, a folder copy as `cp -r` is: one authored
    file_copy of the folder (before: rsync was a sync tool, one summary of new files not
    authored). rsync's own opens of the temporary files it writes are no reads."""
    _need("rsync")
    _photos(root, 5)
    (root / "backup").mkdir()
    with Recorder(store, [root], make_config()) as rec:
        sh("rsync -a photos/ backup/", root)
        rec.flush(FLUSH_S)
        sh("rsync -a photos fresh", root)
        rec.flush(FLUSH_S)
    evs = primary(store)
    assert [(e["event_type"], e.get("source_path"), e.get("dest_path"), e.get("bulk_count"), e["program"], e["authored"])
            for e in evs] == [("file_copy", "photos", "backup", 6, "rsync", True),
                              ("file_copy", "photos", "fresh/photos", 6, "rsync", True)], evs


@pytest.mark.parametrize("dest", ["fresh", "archive/"])
def test_a_folder_copied_into_a_folder_counts_each_file_once(root: Path, store: Store, dest: str) -> None:
    """`rsync -a photos fresh`: rsync makes fresh/photos/, the recorder's walk of the new folder
    already sees files rsync has renamed into place, then each file's temporary is renamed over
    it. The copy's count of files per entry took every one of them twice (11 or 12 for 6 files,
    most runs) while its total was right."""
    _need("rsync")
    _photos(root, 20)
    (root / "archive").mkdir()
    with Recorder(store, [root], make_config()) as rec:
        sh(f"rsync -a photos {dest}", root)
        rec.flush(FLUSH_S)
    evs = primary(store)
    assert [(e["event_type"], e.get("source_path"), e.get("dest_path"), e.get("bulk_count"), e["authored"])
            for e in evs] == [("file_copy", "photos", f"{dest.rstrip('/')}/photos", 21, True)], evs


def test_a_recursive_copy_of_one_file_is_a_copy(root: Path, store: Store) -> None:
    """`cp -a notes.md notes-copy.md`: a recursive flag on one file. The run claimed the new
    file for a folder copy that never came, and nothing at all was recorded."""
    (root / "notes.md").write_text("# notes\nkeep\n")
    with Recorder(store, [root], make_config()) as rec:
        sh("cp -a notes.md notes-copy.md", root)
        rec.flush(FLUSH_S)
    evs = primary(store)
    assert [(e["event_type"], e.get("source_path"), e.get("dest_path"), e["authored"]) for e in evs] == [
        ("file_copy", "notes.md", "notes-copy.md", True)], evs
    assert evs[0]["program"] in ("cp", None), evs  # cp lives a millisecond: the scan may miss it


# -- sqlite3: the database is the person's, its journal and WAL are SQLite's ------------------


def test_sqlite_journal_and_wal_files_are_never_recorded(root: Path, store: Store) -> None:
    """A sqlite3 session in WAL mode keeps notes.db-wal and notes.db-shm while it is open. They
    were three new files of a script's burst (authored: false, even the database) and the
    person's delete of notes.db-wal; now only the person's database writes are stored. A file
    of the person's named like a journal (`travel-journal`, no `travel` beside it) is theirs."""
    _need("sqlite3")
    with Recorder(store, [root], make_config()) as rec:
        sh("(echo 'pragma journal_mode=wal;'; echo 'create table t(a);'; echo 'insert into t values (1);';"
           " sleep 1; echo 'insert into t values (2);') | sqlite3 notes.db", root)
        rec.flush(FLUSH_S)
        sh("printf 'day one\\n' > travel-journal", root)
        rec.flush(FLUSH_S)
    evs = primary(store)
    assert not [e for e in evs if str(e.get("file_path", "")).startswith("notes.db-")], evs
    assert [(e["event_type"], e.get("file_path"), e["authored"]) for e in evs if e.get("file_path") == "notes.db"] == [
        ("file_write", "notes.db", True)] * len([e for e in evs if e.get("file_path") == "notes.db"])
    assert [e["program"] for e in evs if e.get("file_path") == "notes.db"][0] == "sqlite3", evs
    assert [(e["event_type"], e.get("file_path"), e["authored"]) for e in evs if e.get("file_path") != "notes.db"] == [
        ("file_write", "travel-journal", True)], evs



def test_sqlites_folder_sync_after_it_makes_a_journal_is_no_listing(root: Path, store: Store) -> None:
    """After SQLite creates a rollback journal or a WAL it opens the database's folder and
    fsyncs it (strace of sqlite3 3.40: open(journal), fdatasync(journal), open(folder),
    fdatasync(folder), close(folder), then the database's pages). The folder open was kept
    as the person listing the folder unless the database write followed within 20 ms; on a
    busy CI machine it came later, and a `file_browse` of the root was stored (CI, December
    2026). Here the same calls, in SQLite's order, with the pause a busy machine puts
    between them. An `ls` a while later is the person's listing."""
    (root / "notes.db").write_bytes(b"SQLite format 3\0" + bytes(4080))
    script = (
        "import os, time\n"
        "j = os.open('notes.db-journal', os.O_RDWR | os.O_CREAT, 0o644); os.write(j, b'x' * 512); os.fdatasync(j)\n"
        "d = os.open('.', os.O_RDONLY); os.fdatasync(d); os.close(d)\n"
        "time.sleep(0.3)\n"
        "f = os.open('notes.db', os.O_RDWR); os.pwrite(f, b'y' * 4096, 0); os.fdatasync(f); os.close(f)\n"
        "os.close(j); os.unlink('notes.db-journal')\n"
    )
    (root.parent / "txn.py").write_text(script)
    with Recorder(store, [root], make_config()) as rec:
        sh(f"python3 {root.parent / 'txn.py'}", root)
        rec.flush(FLUSH_S)
        time.sleep(1.5)
        sh("ls > /dev/null", root)
        rec.flush(FLUSH_S)
    evs = primary(store)
    assert [(e["event_type"], e.get("directory_path")) for e in evs if e["event_type"] == "file_browse"] == [
        ("file_browse", ".")], evs
    assert not [e for e in evs if str(e.get("file_path", "")).startswith("notes.db-")], evs

# -- curl and wget: received, not written ---------------------------------------------------


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture
def local_server(tmp_path: Path) -> Iterator[str]:
    """A file server on the loopback interface (port 0: any free port), stopped after the test."""
    served = tmp_path / "served"
    served.mkdir()
    (served / "report.txt").write_text("quarterly report\nsales rose\n")
    handler = lambda *a, **k: _QuietHandler(*a, directory=str(served), **k)  # noqa: E731
    server = socketserver.TCPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, name="zoo-http", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_curl_and_wget_downloads_are_received(root: Path, store: Store, local_server: str) -> None:
    """`curl -o report.txt URL`, `wget URL`: files the person received, as a browser's
    download is (program the downloader, program_kind "download", authored: false, with its
    snapshot). Before, they were the person's own new files. The person's edit of one then is
    theirs, a real diff against what came."""
    _need("curl", "wget")
    with Recorder(store, [root], make_config()) as rec:
        sh(f"curl -s -o report.txt {local_server}/report.txt", root)
        rec.flush(FLUSH_S)
        sh(f"wget -q -O copy.txt {local_server}/report.txt", root)
        rec.flush(FLUSH_S)
        time.sleep(0.5)  # the person, later
        sh("printf 'costs fell\\n' >> report.txt", root)
        rec.flush(FLUSH_S)
    evs = primary(store)
    assert [(e["event_type"], e.get("file_path"), e.get("operation"), e["program"], e.get("program_kind"), e["authored"])
            for e in evs] == [
        ("file_write", "report.txt", "create", "curl", "download", False),
        ("file_write", "copy.txt", "create", "wget", "download", False),
        ("file_edit", "report.txt", None, None, None, True)], evs
    assert evs[0]["media_ref"] is not None and evs[2]["lines_added"] == 1


# -- a file opened for writing with nothing written -------------------------------------------


def test_a_tool_made_file_opened_and_closed_unchanged_is_no_write(root: Path, store: Store, tmp_path: Path) -> None:
    """cargo opens target/debug/.cargo-lock for writing on every build and writes nothing; a
    file a tool made is known by size and time only (no hash), so such a close was the person's
    overwrite (program null). Here tar makes the file and `: >> f` opens it to append nothing."""
    src = tmp_path / "src"
    (src / "build").mkdir(parents=True)
    (src / "build" / ".lock").write_bytes(b"")
    (src / "build" / "data.bin").write_bytes(bytes(range(256)) * 4)
    with tarfile.open(tmp_path / "b.tar", "w") as tf:
        tf.add(src / "build", arcname="build")
    with Recorder(store, [root], make_config()) as rec:
        sh(f"tar xf {tmp_path / 'b.tar'}", root)
        rec.flush(FLUSH_S)
        n = len(list(store.actions()))
        time.sleep(0.5)
        sh(": >> build/.lock; : >> build/data.bin", root)
        rec.flush(FLUSH_S)
        assert list(store.actions())[n:] == []
        sh("printf 'x' >> build/data.bin", root)  # a real write still is one
        rec.flush(FLUSH_S)
    evs = [e for e in list(store.actions())[n:] if e["event_type"] not in DERIVED]
    assert [(e["event_type"], e.get("file_path"), e.get("operation"), e["authored"]) for e in evs] == [
        ("file_write", "build/data.bin", "overwrite", True)], evs


# -- a program never makes its own working folder ---------------------------------------------


def test_a_tool_never_made_the_folder_it_was_started_in(root: Path, tmp_path: Path) -> None:
    """`mkdir site && cd site && npm init -y`: without the process connector mkdir is often gone
    before the scan reads it, and site/ (made a few ms before npm started, within the slack for
    the kernel's start-time tick) lay in npm's scope: npm's folder, not the person's. A program
    starts in a folder that already exists."""
    store = Store(tmp_path / "unit.db")
    try:
        roots = RootSet([root], PathFilter())
        tools = ToolRuns(roots, FileState(store), Pending(), Output(roots))
        site = str(root / "site")
        os.mkdir(site)
        t0 = time.time() * 1000.0
        run = tools.started(ProcInfo(4242, 1, "npm", ["npm", "init", "-y"], site, t0, [1]))
        assert run is not None
        assert tools.covering(site, t0 - 5.0, "dir") is None
        assert tools.covering(os.path.join(site, "sub"), t0 + 5.0, "dir") is run
        assert tools.covering(os.path.join(site, "package.json"), t0 + 5.0, "create") is run
    finally:
        store.close()
