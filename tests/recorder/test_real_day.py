"""Issue 17's 17-minute day, scripted (shorter in wall time, the same kinds of work): cat,
less and head, grep -rn, find with -not -path, git grep, grep -c, six saves in
interactive vim, sed -i, a Python rewrite, a 281-line report with tables, mkdir -p, moves,
a cp backup, a rename, rm, git add and commit, tar x of 34 files, rm -r.

Afterwards the trace holds what the person did, not what their tools did: nothing from
tar, git or vim's housekeeping is authored, the report's 281 lines are, the unpacked
files are one summary, counts are exact and references have evidence.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from filegram.recorder import Recorder
from filegram.recorder.workflows import vim_session
from rec_helpers import make_config

from filegram.store import Store

PLAN = "# Plan\n\n| task | owner | state |\n|---|---|---|\n| draft budget | me | draft |\n| review | team | open |\n\nTODO: send the draft\n"
FILES = {
    "plan.md": PLAN,
    "notes/meeting.md": "# Meeting\nbudget agreed for the quarterly report\n",
    "notes/ideas.md": "# Ideas\nsearch tools\n",
    "notes/old.md": "# Old notes\n",
    "notes/todo.md": "# Todo\n",
    "code/app.py": "def main():\n    # TODO: budget check\n    return 1\n",
    "code/README.md": "# app\n",
}
UNPACKED = {f"dataset/part{i:02d}.csv": f"id,value\n{i},{i * 3}\n" for i in range(1, 31)} | {
    "dataset/README.md": "# dataset\n", "dataset/LICENSE": "licence\n", "dataset/docs/schema.md": "# schema\n",
    "dataset/docs/notes.md": "# notes\n"}


LIVE: dict[str, object] = {}  # the profile taken while the day's session is open


def filegram_cli(store: Store, *args: str) -> str:
    """`filegram ARGS` as the user runs it, over the day's database."""
    env = dict(os.environ, FILEGRAM_HOME=str(Path(store.path).parent), PYTHONUTF8="1")
    p = subprocess.run([sys.executable, "-m", "filegram", *args], capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    return p.stdout


def report_text() -> str:
    """281 lines: headings, paragraphs and tables, as a person writes a report."""
    lines = ["# Quarterly report", ""]
    section = 0
    while len(lines) < 281:
        section += 1
        lines += [f"## Section {section}", "", f"Findings of section {section} on the budget and the schedule.", "",
                  "| item | planned | actual |", "|---|---|---|"]
        lines += [f"| line {section}.{k} | {k * 10} | {k * 11} |" for k in range(1, 6)]
        lines += [""]
    return "\n".join(lines[:281]) + "\n"


def run(cmd: str, cwd: Path, env: dict[str, str]) -> None:
    subprocess.run(cmd, shell=True, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    s = Store(tmp_path_factory.mktemp("day-db") / "filegram.db")
    yield s
    s.close()


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory, store: Store) -> tuple[Path, list[dict], dict[str, list[dict]]]:
    tmp_path = tmp_path_factory.mktemp("day")
    for prog in ("vim", "git", "tar"):
        if not shutil.which(prog):
            pytest.skip(f"{prog} is not installed")
    pytest.importorskip("pexpect")
    docs = tmp_path / "Documents"
    for rel, text in FILES.items():
        (docs / rel).parent.mkdir(parents=True, exist_ok=True)
        (docs / rel).write_text(text, encoding="utf-8")
    src = tmp_path / "src"
    for rel, text in UNPACKED.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text, encoding="utf-8")
    with tarfile.open(tmp_path / "dataset.tar", "w") as tf:
        tf.add(src / "dataset", arcname="dataset")
    (tmp_path / "report.txt").write_text(report_text(), encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    env = dict(os.environ, LC_ALL="C", HOME=str(home), GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="A",
               GIT_AUTHOR_EMAIL="a@example.org", GIT_COMMITTER_NAME="A", GIT_COMMITTER_EMAIL="a@example.org")
    run("git init -q -b main . && git add . && git commit -qm start", docs, env)
    steps: dict[str, list[dict]] = {}
    seen: set[str] = set()
    with Recorder(store, [docs], make_config()) as rec:

        def step(name: str, action: str | object) -> None:
            if callable(action):
                action(docs)
            else:
                run(action, docs, env)
            rec.flush(15.0)
            new = [e for e in store.actions() if e["event_id"] not in seen]
            seen.update(e["event_id"] for e in new)
            steps[name] = new
            time.sleep(0.4)

        step("cat", "cat notes/meeting.md > /dev/null")
        step("less", "less -F notes/ideas.md > /dev/null")
        step("head", "head -n 3 plan.md > /dev/null")
        step("grep -rn", "grep -rn budget . > /dev/null")
        step("find", "find . -name '*.md' -not -path './code/*' > /dev/null")
        step("git grep", "git grep -n TODO > /dev/null")
        step("grep -c", "grep -c '^|' plan.md > /dev/null")
        step("vim", vim_session("notes/todo.md", [f"item {i}" for i in range(1, 7)], between=0.9))
        step("sed -i", "sed -i 's/| draft |/| final |/' plan.md")
        step("python rewrite", f"{sys.executable} -c \"p='code/app.py'; t=open(p).read(); open(p,'w').write(t.replace('return 1', 'return 2'))\"")
        step("mkdir -p", "mkdir -p reports/2026")
        step("report", f"cat > reports/2026/report.md < {tmp_path / 'report.txt'}")
        step("rename", "mv notes/ideas.md notes/ideas-2026.md")
        step("move", "mkdir archive && mv notes/old.md archive/")
        step("cp backup", "cp plan.md plan.md.bak")
        step("rm", "rm plan.md.bak")
        step("git add", "git add reports plan.md notes archive")
        step("git commit", "git commit -qm report")
        step("tar x", f"tar xf {tmp_path / 'dataset.tar'}")
        step("rm -r", "rm -r dataset")
        # right after the work, the session still open (no idle gap): what `profile` says
        LIVE["open_actions"] = sum(store.action_count(s["id"]) for s in store.sessions(closed=False))
        LIVE["profile"] = filegram_cli(store, "profile", "--json")
        LIVE["text"] = filegram_cli(store, "profile")
    return docs, list(store.actions()), steps


def test_nothing_tar_git_or_vim_housekeeping_did_is_authored(day) -> None:
    _, events, steps = day
    for e in events:
        # git grep is the person's search; git mv / git rm the person's own organising
        if e.get("program") in ("tar", "git") and e["event_type"] != "file_search" and e.get("command") not in ("git mv", "git rm"):
            assert e["authored"] is False, e
    for name in ("git add", "git commit", "tar x"):
        assert all(e["authored"] is False for e in steps[name]), (name, steps[name])
    phantom = [(name, e.get("directory_path"), e.get("program")) for name, evs in steps.items() for e in evs
               if e["event_type"] == "file_browse" and e["authored"]]
    assert not phantom, phantom
    vim = steps["vim"]
    assert [(e["event_type"], e["program"], e["authored"]) for e in vim if e["event_type"] not in ("context_switch", "cross_file_reference")] == \
        [("file_read", "vim", True)] + [("file_edit", "vim", True)] * 6
    assert all(e["lines_added"] == 1 for e in vim if e["event_type"] == "file_edit")


def test_the_reports_281_lines_are_authored(day, store: Store) -> None:
    _, _, steps = day
    (write,) = [e for e in steps["report"] if e["event_type"] == "file_write"]
    assert (write["file_path"], write["operation"], write["authored"]) == ("reports/2026/report.md", "create", True)
    # cat lives a millisecond: on a loaded machine it can be gone before its name is read
    # (then null, as for the other utilities below, never another program's)
    assert write["program"] in ("cat", None), write
    text = store.get_blob(write["media_ref"]["hash"]).decode()
    assert text.count("\n") == 281 and text.count("|---|---|---|") >= 20


def test_the_unpacked_files_are_one_summary(day) -> None:
    _, events, steps = day
    writes = [e for e in events if e["event_type"] in ("file_write", "file_edit") and (e.get("file_path") or "").startswith("dataset")]
    assert [(e["file_path"], e["bulk_count"], e["program"], e["authored"]) for e in writes] == [("dataset", 34, "tar", False)]
    (dirs,) = [e for e in steps["tar x"] if e["event_type"] == "dir_create"]
    assert (dirs["dir_path"], dirs["bulk_count"], dirs["authored"]) == ("dataset", 2, False)
    assert not [e for e in events if e["event_type"] in ("file_read", "file_browse", "context_switch", "cross_file_reference")
                and "dataset" in " ".join(str(e.get(k) or "") for k in ("file_path", "directory_path", "to_file", "target_file"))]
    (removal,) = steps["rm -r"]
    assert (removal["event_type"], removal["file_path"], removal["bulk_count"], removal["was_temporary"], removal["program"],
            removal["authored"]) == ("file_delete", "dataset", 34, False, "rm", True)


def test_the_persons_own_work_is_recorded_as_theirs(day) -> None:
    _, _, steps = day
    named = []

    def check(name: str, want: list[tuple[str, str | None]]) -> None:
        got = [e for e in steps[name] if e["event_type"] not in ("context_switch", "cross_file_reference")]
        shown = [{k: e.get(k) for k in ("event_type", "timestamp", "file_path", "dir_path", "old_path", "new_path",
                                        "operation", "program", "bulk_count")} for e in got]
        assert [(e["event_type"], e["authored"]) for e in got] == [(t, True) for t, _ in want], (name, shown)
        for e, (_, program) in zip(got, want, strict=True):
            # a utility that lives a millisecond can be gone before its name is read
            # (then null, never another program's)
            assert e["program"] in (program, None), (name, e)
            named.append(e["program"] is not None)

    check("cat", [("file_read", "cat")])
    check("less", [("file_read", "less")])
    check("head", [("file_read", "head")])
    check("sed -i", [("file_edit", "sed")])
    check("python rewrite", [("file_edit", None)])
    check("mkdir -p", [("dir_create", "mkdir"), ("dir_create", "mkdir")])
    check("rename", [("file_rename", "mv")])
    check("move", [("dir_create", "mkdir"), ("file_move", "mv")])
    check("cp backup", [("file_copy", "cp")])
    check("rm", [("file_delete", "rm")])
    assert sum(named) >= 8, named  # nearly all named
    (copy,) = steps["cp backup"]
    assert copy["is_backup"] is True


def test_search_counts_are_exact(day) -> None:
    _, _, steps = day

    def search(name: str) -> tuple:
        (s,) = [e for e in steps[name] if e["event_type"] == "file_search"]
        return s["search_type"], s["query"], s["files_matched"]

    # budget: plan.md, notes/meeting.md, code/app.py
    assert search("grep -rn") == ("grep", "budget", 3)
    # *.md outside code/: plan.md and the four notes
    assert search("find") == ("find", "*.md", 5)
    assert search("git grep") == ("grep", "TODO", 2)
    assert search("grep -c") == ("grep", "^|", 1)


def test_references_have_evidence(day) -> None:
    _, events, _ = day
    refs = [e for e in events if e["event_type"] == "cross_file_reference"]
    assert all(r["source_file"] != r["target_file"] for r in refs)
    assert not [r for r in refs if "dataset" in r["target_file"] or "dataset" in r["source_file"]]
    # the search results opened afterwards are its matches only
    for r in refs:
        if r["reference_type"] == "search_then_read":
            assert r["target_file"] in ("plan.md", "notes/meeting.md", "code/app.py"), r



def test_profile_right_after_the_work_reflects_it(day) -> None:
    """No idle gap: `filegram profile` folds the open session in provisionally and says so,
    and does not call the person comprehensive because they unpacked an archive."""
    import json

    assert LIVE["open_actions"] > 0
    prof = json.loads(str(LIVE["profile"]))
    assert prof["sessions"] == 1
    assert (prof["provisional"]["sessions"], prof["provisional"]["actions"]) == (1, LIVE["open_actions"])
    assert "1 of them still open (provisional" in str(LIVE["text"])
    b = prof["dimensions"]["B"]
    assert b["tier"] != "L", b
    # the person wrote one document (the 281-line report); the 34 unpacked files are not theirs
    assert any("1 new document(s), 281 line(s)" in e for e in b["evidence"]), b["evidence"]
    # what they read, edited and organised shows already
    for dim in "ACD":
        assert prof["dimensions"][dim]["opportunities"] > 0, (dim, prof["dimensions"][dim])
