"""A worker that falls behind (a loaded machine, a full disk's retries) reads a backlog of
events in one go: what they become must depend on when they happened (their own
timestamps), not on when the worker got to them. Found under load: a file written 3 s after
an unpack ended was counted into the unpack's summary (tests/reliability/test_full_disk.py)."""

from __future__ import annotations

import time
from pathlib import Path

from filegram.recorder.interpret import Interpreter
from filegram.recorder.paths import RootSet
from filegram.recorder.procs import ProcInfo
from filegram.recorder.state import FileState
from filegram.recorder.watch import Raw

from filegram.privacy import PathFilter
from filegram.store import Store, now_ms


def test_a_file_written_after_an_unpack_went_quiet_is_its_own_action(root: Path, store: Store) -> None:
    interp = Interpreter(RootSet([root], PathFilter()), FileState(store), bulk_per_second=200)
    t0 = now_ms() - 20_000  # a backlog: everything below happened a while ago
    for i in range(300):  # an unpack: 300 files within 0.6 s
        f = root / f"part{i:03d}.csv"
        f.write_text(f"{i}\n")
        interp.feed(Raw("created", str(f), t=t0 + i * 2))
        interp.feed(Raw("closed_write", str(f), t=t0 + i * 2 + 1))
    marker = root / "marker.txt"
    marker.write_text("written 3 s after the unpack ended\n")
    t_marker = t0 + 600 + 3000  # longer than the 2 s of quiet that end an unpack
    interp.feed(Raw("created", str(marker), t=t_marker))
    interp.feed(Raw("closed_write", str(marker), t=t_marker + 1))
    # only now does the worker get to settle (one tick after the whole backlog was read)
    actions = interp.tick(now_ms(), force=True)
    writes = [(a["file_path"], a.get("bulk_count")) for a in actions if a["event_type"] == "file_write"]
    assert writes == [(".", 300), ("marker.txt", None)], writes


def _storm(interp: Interpreter, folder: Path, t0: float, n: int) -> float:
    folder.mkdir()
    for i in range(n):  # a script filling a folder: 400 files within 0.8 s
        f = folder / f"item{i}.txt"
        f.write_text("x")
        interp.feed(Raw("created", str(f), t=t0 + i * 2))
        interp.feed(Raw("closed_write", str(f), t=t0 + i * 2 + 1))
    return t0 + n * 2


def test_a_tool_seen_only_by_name_does_not_take_a_burst_that_began_before_it(root: Path, store: Store) -> None:
    """Found under the full suite's load: a git gone before its command line could be read
    (an "anonymous" run, which covers every root) took the 8,000 files a script had just
    written in another folder, and they vanished from the trace as git's housekeeping."""
    interp = Interpreter(RootSet([root], PathFilter()), FileState(store), bulk_per_second=200)
    t0 = now_ms() - 20_000
    t_end = _storm(interp, root / "dataset", t0, 400)
    git_start = t_end + 5  # git ran right after the script, in its own folder
    interp.feed(Raw("proc_start", str(root), t=git_start, data=ProcInfo(-1, 0, "git", [], "", git_start)))
    interp.feed(Raw("proc_end", "", t=git_start + 3000, data=-1))
    actions = interp.tick(now_ms(), force=True)
    writes = [(a["file_path"], a.get("bulk_count"), a.get("program")) for a in actions if a["event_type"] == "file_write"]
    assert writes == [("dataset", 400, None)], writes


def test_a_burst_after_a_tool_seen_only_by_name_started_is_still_the_tools(root: Path, store: Store) -> None:
    interp = Interpreter(RootSet([root], PathFilter()), FileState(store), bulk_per_second=200)
    (root / "repo" / ".git").mkdir(parents=True)
    t0 = now_ms() - 20_000
    interp.feed(Raw("proc_start", str(root), t=t0, data=ProcInfo(-1, 0, "git", [], "", t0)))
    _storm(interp, root / "repo" / "checkout", t0 + 20, 400)
    interp.feed(Raw("proc_end", "", t=t0 + 3000, data=-1))
    actions = interp.tick(now_ms(), force=True)
    writes = [(a["file_path"], a.get("bulk_count"), a.get("program"), a["authored"]) for a in actions if a["event_type"] == "file_write"]
    assert writes == [("repo/checkout", 400, "git", False)], writes


def test_a_git_seen_only_by_name_does_not_take_what_happens_outside_a_repository(root: Path, store: Store) -> None:
    """Found under load: a git run by another program on the machine (an editor polling its
    repository; here another test) was read too late to know its folder, and took three
    searches the person ran in a folder that is no repository."""
    interp = Interpreter(RootSet([root], PathFilter()), FileState(store), bulk_per_second=200)
    docs = root / "docs"
    docs.mkdir()
    for name in ("plan.md", "notes.md"):
        (docs / name).write_text("budget\n")
    t0 = now_ms() - 20_000
    interp.feed(Raw("proc_start", str(root), t=t0, data=ProcInfo(-1, 0, "git", [], "", t0)))
    interp.feed(Raw("dir_opened", str(docs), t=t0 + 10))
    for i, name in enumerate(("plan.md", "notes.md")):
        interp.feed(Raw("closed_nowrite", str(docs / name), t=t0 + 20 + i))
    interp.feed(Raw("proc_end", "", t=t0 + 500, data=-1))
    actions = interp.tick(now_ms(), force=True)
    assert actions, "the person's look at docs/ was lost"
    assert all(a.get("authored", True) and a.get("program") != "git" for a in actions), actions


def test_a_burst_written_before_a_tool_but_read_after_it_started_is_not_the_tools(root: Path, store: Store) -> None:
    """Events carry the time they were read. In CI the recorder read a script's 8,000
    creations a second late, after a `git init` seen only by name had started, and git took
    them all: the files' change times (ctime) say they were written before git began."""
    interp = Interpreter(RootSet([root], PathFilter()), FileState(store), bulk_per_second=200)
    folder = root / "dataset"
    folder.mkdir()
    files = []
    for i in range(400):  # written now, by a script...
        f = folder / f"item{i}.txt"
        f.write_text("x")
        files.append(f)
    git_start = now_ms() + 50  # ...then git started (its files elsewhere)...
    interp.feed(Raw("proc_start", str(root), t=git_start, data=ProcInfo(-1, 0, "git", [], "", git_start)))
    t_read = git_start + 1000  # ...and only then were the script's events read
    for i, f in enumerate(files):
        interp.feed(Raw("created", str(f), t=t_read + i))
        interp.feed(Raw("closed_write", str(f), t=t_read + i + 0.5))
    interp.feed(Raw("proc_end", "", t=git_start + 3000, data=-1))
    actions = interp.tick(now_ms() + 10_000, force=True)
    writes = [(a["file_path"], a.get("bulk_count"), a.get("program")) for a in actions if a["event_type"] == "file_write"]
    assert writes == [("dataset", 400, None)], writes


def test_reads_elsewhere_while_a_folder_fills_are_no_copy_unless_the_names_match(root: Path, store: Store) -> None:
    """CI: `git add` read its repository while a script filled another folder, and the
    8,000 new files were stored as a copy of the repository. A copy writes the names it
    reads; files of other names are what they are: new files."""
    interp = Interpreter(RootSet([root], PathFilter()), FileState(store), bulk_per_second=200)
    repo, src = root / "repo", root / "src"
    for folder, names in ((repo, [f"m{i}.py" for i in range(300)]), (src, [f"a{i}.txt" for i in range(300)])):
        folder.mkdir()
        for n in names:
            (folder / n).write_text("x\n")
    interp.baseline(1 << 20)
    t0 = now_ms() - 20_000
    (root / "dataset").mkdir()
    (root / "copy").mkdir()
    for i in range(300):  # a script writes dataset/ while git reads repo/ ...
        f = root / "dataset" / f"item{i}.txt"
        f.write_text("x")
        interp.feed(Raw("created", str(f), t=t0 + i * 2))
        interp.feed(Raw("closed_nowrite", str(repo / f"m{i}.py"), t=t0 + i * 2 + 0.5))
        interp.feed(Raw("closed_write", str(f), t=t0 + i * 2 + 1))
    t1 = t0 + 10_000
    for i in range(300):  # ... and later cp -r src copy: the same names read and written
        f = root / "copy" / f"a{i}.txt"
        f.write_text("x\n")
        interp.feed(Raw("closed_nowrite", str(src / f"a{i}.txt"), t=t1 + i * 2))
        interp.feed(Raw("created", str(f), t=t1 + i * 2 + 0.5))
        interp.feed(Raw("closed_write", str(f), t=t1 + i * 2 + 1))
    actions = interp.tick(now_ms(), force=True)
    summary = sorted((a["event_type"], a.get("file_path") or a.get("dest_path"), a.get("bulk_count"))
                     for a in actions if a["event_type"] in ("file_write", "file_copy"))
    assert summary == [("file_copy", "copy", 300), ("file_write", "dataset", 300)], summary


def test_a_rewrite_read_before_its_tool_was_known_is_the_tools_overwrite(root: Path, store: Store) -> None:
    """Found under load, without the process connector: `git checkout` unlinks a file and
    writes it again; both events were read before git's command line was, so the rewrite
    waited as a pending change of a file the delete had already taken out of the model, and
    git's summary said it had *created* code/app.py (no delete, no overwrite)."""
    repo = root / "code"
    (repo / ".git").mkdir(parents=True)
    app = repo / "app.py"
    app.write_text("def main():\n    return 2\n")
    interp = Interpreter(RootSet([root], PathFilter()), FileState(store), bulk_per_second=200)
    interp.baseline(1 << 20)
    time.sleep(0.2)  # known well before git ran
    t0 = now_ms() - 5  # git's start; its unlink and write follow
    app.unlink()
    interp.feed(Raw("deleted", str(app), t=t0 + 2))
    app.write_text("def main():\n    return 1\n")
    interp.feed(Raw("created", str(app), t=t0 + 3))
    interp.feed(Raw("closed_write", str(app), t=t0 + 4))
    # only now is git's command line read (its start time is the kernel's)
    info = ProcInfo(4_000_001, 1, "git", ["git", "checkout", "-q", "HEAD~1"], str(repo), t0)
    interp.feed(Raw("proc_start", str(repo), t=t0 + 40, data=info))
    interp.feed(Raw("proc_end", "", t=t0 + 50, data=4_000_001))
    actions = interp.tick(t0 + 5_000, force=True)
    got = [(a["event_type"], a.get("file_path"), a.get("operation"), a.get("bulk_count"), a.get("program")) for a in actions]
    assert got == [("file_write", "code/app.py", "overwrite", 1, "git")], got


def test_a_tools_reads_read_after_it_ended_are_one_summary_not_the_persons(root: Path, store: Store) -> None:
    """Found in CI (idle machine, the event storm): `git commit -a` hashed 800 files while a
    script's 8,000 files were still being read from the kernel; git's reads came out after
    git had gone, and were stored as 1,220 file_reads by the person."""
    repo = root / "repo"
    repo.mkdir()
    for i in range(400):
        (repo / f"m{i}.py").write_text(f"value = {i}\n")
    (root / "notes.md").write_text("# notes\n")
    interp = Interpreter(RootSet([root], PathFilter()), FileState(store), bulk_per_second=200)
    interp.baseline(1 << 20)
    t0 = now_ms() - 10_000
    for i in range(400):  # 400 reads within 0.4 s, no program known alive then
        interp.feed(Raw("closed_nowrite", str(repo / f"m{i}.py"), t=t0 + i))
    interp.feed(Raw("closed_nowrite", str(root / "notes.md"), t=t0 + 5_000))  # the person, later
    actions = interp.tick(now_ms(), force=True)
    got = [(a["event_type"], a.get("directory_path") or a.get("file_path"), a.get("bulk_count"), a["authored"]) for a in actions]
    assert got == [("file_browse", "repo", 400, False), ("file_read", "notes.md", None, True)], got


def test_a_folder_deleted_with_its_files_is_one_deletion_whoever_did_it(root: Path, store: Store) -> None:
    """Found under load, without the process connector: `rm -r notes-backup` was over
    before the scan could read it, and its two files came out as two deletes of the
    person's. A folder removed right after the files in it is one deletion of the folder
    (rm -r, a file manager, shutil.rmtree alike)."""
    folder = root / "notes-backup"
    (folder / "old").mkdir(parents=True)
    for rel in ("meeting.md", "ideas.txt", "old/draft.md"):
        (folder / rel).write_text(f"{rel}\n")
    (root / "keep.md").write_text("keep\n")
    interp = Interpreter(RootSet([root], PathFilter()), FileState(store), bulk_per_second=200)
    interp.baseline(1 << 20)
    t0 = now_ms()
    for i, rel in enumerate(("old/draft.md",)):
        (folder / rel).unlink()
        interp.feed(Raw("deleted", str(folder / rel), t=t0 + i))
    (folder / "old").rmdir()
    interp.feed(Raw("deleted", str(folder / "old"), t=t0 + 2, is_dir=True))
    for i, rel in enumerate(("meeting.md", "ideas.txt")):
        (folder / rel).unlink()
        interp.feed(Raw("deleted", str(folder / rel), t=t0 + 3 + i))
    folder.rmdir()
    interp.feed(Raw("deleted", str(folder), t=t0 + 6, is_dir=True))
    (root / "keep.md").unlink()  # a file deleted on its own stays one file's deletion
    interp.feed(Raw("deleted", str(root / "keep.md"), t=t0 + 900))
    actions = interp.tick(t0 + 10_000, force=True)
    got = [(a["event_type"], a["file_path"], a.get("bulk_count"), a["authored"]) for a in actions]
    assert got == [("file_delete", "notes-backup", 3, True), ("file_delete", "keep.md", None, True)], got


def test_a_tool_seen_only_by_name_does_not_take_a_persons_save(root: Path, store: Store) -> None:
    """Found looping the git workflow while another suite ran: a `cargo` elsewhere on the
    machine, gone before its command line was read, took the person's `printf > util.py`
    in this root as cargo's overwrite. A run known only by its name never takes a change
    made in place to a file that was there before it."""
    notes = root / "notes.md"
    notes.write_text("# Notes\nfirst\n")
    interp = Interpreter(RootSet([root], PathFilter()), FileState(store), bulk_per_second=200)
    interp.baseline(1 << 20)
    time.sleep(0.2)
    t0 = now_ms()
    interp.feed(Raw("proc_start", "", t=t0, data=ProcInfo(-1, 0, "cargo", [], "", t0)))
    notes.write_text("# Notes\nfirst\nsecond\n")
    interp.feed(Raw("modified", str(notes), t=t0 + 5))
    interp.feed(Raw("closed_write", str(notes), t=t0 + 6))
    interp.feed(Raw("proc_end", "", t=t0 + 50, data=-1))
    actions = interp.tick(t0 + 5_000, force=True)
    got = [(a["event_type"], a.get("file_path"), a.get("program"), a["authored"]) for a in actions]
    assert got == [("file_edit", "notes.md", None, True)], got


def test_a_search_seen_only_by_name_yields_what_a_known_tool_did(root: Path, store: Store) -> None:
    """Found the same way: a grep elsewhere on the machine, known only by its name, took
    `git status`'s look at the repository, and a search the person never ran was stored."""
    repo = root / "code"
    (repo / ".git").mkdir(parents=True)
    for name in ("app.py", "util.py"):
        (repo / name).write_text("x = 1\n")
    interp = Interpreter(RootSet([root], PathFilter()), FileState(store), bulk_per_second=200)
    interp.baseline(1 << 20)
    t0 = now_ms()
    interp.feed(Raw("proc_start", "", t=t0 + 1, data=ProcInfo(-1, 0, "grep", [], "", t0 + 1)))
    interp.feed(Raw("dir_opened", str(repo), t=t0 + 3))
    for i, name in enumerate(("app.py", "util.py")):
        interp.feed(Raw("closed_nowrite", str(repo / name), t=t0 + 4 + i))
    interp.feed(Raw("proc_end", "", t=t0 + 20, data=-1))
    # git's command line is read only now (its start time is the kernel's)
    git = ProcInfo(4_000_002, 1, "git", ["git", "status"], str(repo), t0)
    interp.feed(Raw("proc_start", str(repo), t=t0 + 25, data=git))
    interp.feed(Raw("proc_end", "", t=t0 + 30, data=4_000_002))
    actions = interp.tick(t0 + 5_000, force=True)
    got = [(a["event_type"], a.get("program"), a["authored"]) for a in actions]
    assert got == [("file_browse", "git", False)], got


def test_the_recorders_own_rerun_gone_before_it_was_read_is_no_search(root: Path, store: Store) -> None:
    """Found in CI: `fdfind meet notes` was stored twice, the second time with no query over
    every root. The recorder re-runs a search to count what it matched; the process watcher
    saw that re-run's exec too, but it had exited before its command line (or its pid) could
    be read, and it was taken for a search the person ran, known only by its name."""
    notes = root / "notes"
    notes.mkdir()
    for name in ("meeting.md", "todo.md"):
        (notes / name).write_text("meet at noon\n" if name == "meeting.md" else "buy milk\n")
    interp = Interpreter(RootSet([root], PathFilter()), FileState(store), bulk_per_second=200)
    interp.baseline(1 << 20)
    t0 = now_ms()
    person = ProcInfo(4_000_010, 1, "grep", ["grep", "-rl", "meet", "notes"], str(root), t0)
    interp.feed(Raw("proc_start", str(root), t=t0, data=person))
    interp.feed(Raw("dir_opened", str(notes), t=t0 + 1))
    for i, name in enumerate(("meeting.md", "todo.md")):
        interp.feed(Raw("closed_nowrite", str(notes / name), t=t0 + 2 + i))
    interp.feed(Raw("proc_end", "", t=t0 + 10, data=4_000_010))
    first = interp.tick(now_ms() + 5_000, force=True)  # the search ends: the recorder re-runs it here
    assert interp.searches.reruns == 1
    t1 = interp.searches.own_runs[-1].t_start + 1
    # the watcher reports the re-run only now, by its name alone (pid -1, as procs does); its
    # walk opened the folder three times
    interp.feed(Raw("proc_start", "", t=t1, data=ProcInfo(-1, 0, "grep", [], "", t1)))
    for i in range(3):
        interp.feed(Raw("dir_opened", str(notes), t=t1 + 1 + i))
    for i, name in enumerate(("meeting.md", "todo.md")):
        interp.feed(Raw("closed_nowrite", str(notes / name), t=t1 + 4 + i))
    interp.feed(Raw("proc_end", "", t=t1 + 10, data=-1))
    later = interp.tick(now_ms() + 10_000, force=True)
    searches = [(a.get("query"), a.get("files_matched")) for a in first + later if a["event_type"] == "file_search"]
    assert searches == [("meet", 1)], searches
    assert [a["event_type"] for a in later] == [], later


def _while_some_grep_ran(interp: Interpreter, t: float, opens: list[tuple[str, Path]]) -> list[dict]:
    """Feed opens (kind, path) a millisecond apart while a grep known only by its name runs
    (pid -1, as procs reports one gone before it was read); the actions once settled."""
    interp.feed(Raw("proc_start", "", t=t, data=ProcInfo(-1, 0, "grep", [], "", t)))
    for i, (kind, path) in enumerate(opens):
        interp.feed(Raw(kind, str(path), t=t + 1 + i))
    interp.feed(Raw("proc_end", "", t=t + 10, data=-1))
    return interp.tick(t + 5_000, force=True)


def test_a_listing_with_no_read_below_it_is_no_grep_known_only_by_name(root: Path, store: Store) -> None:
    """Found in a clean clone's `make test`: another worker's grep, known only by its name
    (gone before its command line was read: it covers every root), took the person's
    `ls reports`, and a search nobody ran was stored instead of the listing. A content
    search reads the files below a folder it opens; a run that did is still a search."""
    reports = root / "reports"
    reports.mkdir()
    (reports / "ideas.txt").write_text("budget ideas\n")
    (reports / "plan.md").write_text("plan\n")
    interp = Interpreter(RootSet([root], PathFilter()), FileState(store), bulk_per_second=200)
    interp.baseline(1 << 20)
    t0 = now_ms()
    listing = _while_some_grep_ran(interp, t0, [("dir_opened", reports)])  # the person's ls
    got = [(a["event_type"], a.get("directory_path"), a.get("program")) for a in listing]
    assert got == [("file_browse", "reports", None)], got
    # a grep known only by its name that read the folder's files is still the search it was
    walk = [("dir_opened", reports), ("closed_nowrite", reports / "ideas.txt"), ("closed_nowrite", reports / "plan.md")]
    search = _while_some_grep_ran(interp, t0 + 10_000, walk)
    got = [(a["event_type"], a.get("program"), a.get("query")) for a in search]
    assert got == [("file_search", "grep", None)], got


def test_one_file_read_while_some_grep_ran_is_the_persons_read(root: Path, store: Store) -> None:
    """The same with a read: one file opened while a grep known only by its name ran (an
    `sqlite3` the scan missed, under the ordinary-user suite beside other greps) was stored
    as a search nobody ran. Two files read in one go are still a search (`grep q a b`)."""
    for name in ("notes.db", "a.md", "b.md"):
        (root / name).write_text("budget\n")
    interp = Interpreter(RootSet([root], PathFilter()), FileState(store), bulk_per_second=200)
    interp.baseline(1 << 20)
    t0 = now_ms()
    one = _while_some_grep_ran(interp, t0, [("closed_nowrite", root / "notes.db")])
    got = [(a["event_type"], a.get("file_path"), a.get("program")) for a in one]
    assert got == [("file_read", "notes.db", None)], got
    two = _while_some_grep_ran(interp, t0 + 10_000, [("closed_nowrite", root / n) for n in ("a.md", "b.md")])
    got = [(a["event_type"], a.get("program")) for a in two]
    assert got == [("file_search", "grep")], got


def test_a_grep_whose_command_line_was_read_comes_before_one_known_by_name(root: Path, store: Store) -> None:
    """Beside another folder's grep loop, known only by its name and started first, the
    person's `grep -l budget a.md b.md` lost one of its reads to it: two searches were
    stored, one without a query."""
    for name in ("a.md", "b.md"):
        (root / name).write_text("budget\n")
    interp = Interpreter(RootSet([root], PathFilter()), FileState(store), bulk_per_second=200)
    interp.baseline(1 << 20)
    t0 = now_ms()
    interp.feed(Raw("proc_start", "", t=t0, data=ProcInfo(-1, 0, "grep", [], "", t0)))
    person = ProcInfo(4_000_020, 1, "grep", ["grep", "-l", "budget", "a.md", "b.md"], str(root), t0 + 1)
    interp.feed(Raw("proc_start", str(root), t=t0 + 1, data=person))
    for i, name in enumerate(("a.md", "b.md")):
        interp.feed(Raw("closed_nowrite", str(root / name), t=t0 + 2 + i))
    interp.feed(Raw("proc_end", "", t=t0 + 8, data=-1))
    interp.feed(Raw("proc_end", "", t=t0 + 9, data=4_000_020))
    actions = interp.tick(t0 + 5_000, force=True)
    got = [(a["event_type"], a.get("query")) for a in actions]
    assert got == [("file_search", "budget")], got
