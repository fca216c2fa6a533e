"""The fidelity suite: real programs run in a temporary root while a Recorder watches, and
the recorded actions are compared with the list a person would write down.

Each scenario is a list of steps; a step is a shell command (or a Python callable) and
the actions it must produce. Steps are separated by recorder.flush() (or a pause, where a
relation across steps is the point, like files_opened_after). Per action type the suite
prints precision and recall; deterministic scenarios must match exactly.

Run: python -m filegram.recorder.fidelity [--only fidelity|workflows|references]: this
suite's table, then the recorded-workflow suite's (real tools, who authored what) and the
labelled reference set's (see workflows, references).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from filegram.schema import ACTION_TYPES

from .actionkeys import KEYS, key_of  # noqa: F401  (KEYS: part of this module's surface)

DERIVED = ("context_switch", "cross_file_reference")

Expected = tuple[Any, ...]  # (event_type, *key values)


@dataclass
class Step:
    run: str | Callable[[Path], None]
    expect: list[Expected]
    sync: str = "flush"  # "flush" | "pause" | "none"
    needs: str | None = None  # a program that must exist, else the scenario is skipped


@dataclass
class Scenario:
    name: str
    files: dict[str, str]
    steps: list[Step]
    derived: bool = False  # compare context_switch / cross_file_reference too
    deterministic: bool = True


@dataclass
class Outcome:
    name: str
    expected: list[Expected]
    recorded: list[Expected]
    skipped: str | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    note: str | None = None

    @property
    def exact(self) -> bool:
        return Counter(self.expected) == Counter(self.recorded)


# -- helpers used by scenarios ------------------------------------------------------------


def py(code: str) -> str:
    """A real Python process (isolated: it must not list the folder looking for modules)."""
    return f"{sys.executable} -I -c {_q(code)}"


def _q(s: str) -> str:
    return "'" + s.replace("'", "'\"'\"'") + "'"


def atomic_save(rel: str, text: str) -> Callable[[Path], None]:
    """VS Code / gedit style: write a temp file next to the target, rename it over."""

    def run(root: Path) -> None:
        target = root / rel
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, target)

    return run


def jetbrains_save(rel: str, text: str) -> Callable[[Path], None]:
    """JetBrains safe write: name___jb_tmp___, original -> name___jb_old___, rename, delete."""

    def run(root: Path) -> None:
        target = root / rel
        tmp = target.with_name(target.name + "___jb_tmp___")
        old = target.with_name(target.name + "___jb_old___")
        tmp.write_text(text, encoding="utf-8")
        os.rename(target, old)
        os.rename(tmp, target)
        os.remove(old)

    return run


def gedit_save(rel: str, text: str) -> Callable[[Path], None]:
    def run(root: Path) -> None:
        target = root / rel
        tmp = target.with_name(".goutputstream-AB12CD")
        tmp.write_text(text, encoding="utf-8")
        os.rename(tmp, target)

    return run


def office_session(rel: str, text: str) -> Callable[[Path], None]:
    """LibreOffice: a lock file while the document is open, then an in-place save."""

    def run(root: Path) -> None:
        target = root / rel
        lock = target.with_name(f".~lock.{target.name}#")
        lock.write_text("user,host,0\n", encoding="utf-8")
        target.read_bytes()
        time.sleep(0.5)
        with open(target, "w", encoding="utf-8") as f:
            f.write(text)
        lock.unlink()

    return run


def emacs_session(rel: str, text: str) -> Callable[[Path], None]:
    """emacs: a lock symlink .#name and an autosave #name#, then a save by rename."""

    def run(root: Path) -> None:
        target = root / rel
        lock = target.with_name(f".#{target.name}")
        auto = target.with_name(f"#{target.name}#")
        os.symlink("user@host.1234:1700000000", lock)
        auto.write_text(text, encoding="utf-8")
        backup = target.with_name(target.name + "~")
        os.rename(target, backup)
        target.write_text(text, encoding="utf-8")
        auto.unlink()
        lock.unlink()
        backup.unlink()

    return run


def make_tar(path: Path) -> None:
    src = Path(tempfile.mkdtemp())
    (src / "pkg" / "docs").mkdir(parents=True)
    (src / "pkg" / "README.md").write_text("# pkg\n", encoding="utf-8")
    (src / "pkg" / "docs" / "guide.md").write_text("guide\n", encoding="utf-8")
    with tarfile.open(path, "w") as tf:
        tf.add(src / "pkg", arcname="pkg")
    shutil.rmtree(src)


# -- the scenarios --------------------------------------------------------------------------

NOTES = {
    "notes/alpha.md": "# Alpha\nalpha project notes\nbudget: 10k\n",
    "notes/beta.txt": "beta status\nall good here\n",
    "report.md": "# Report\nintro\nalpha results\n",
}


def scenarios(tar_path: Path) -> list[Scenario]:
    return [
        Scenario("shell reads and listings", NOTES, [
            Step("cat report.md > /dev/null", [("file_read", "report.md")]),
            Step("head -n 1 notes/alpha.md > /dev/null", [("file_read", "notes/alpha.md")]),
            Step("less -F notes/beta.txt > /dev/null", [("file_read", "notes/beta.txt")], needs="less"),
            Step("ls notes > /dev/null", [("file_browse", "notes")]),
            Step("ls > /dev/null", [("file_browse", ".")]),
        ]),
        Scenario("shell searches", NOTES, [
            Step("grep -r alpha . > /dev/null", [("file_search", "grep", "alpha")]),
            Step("grep -ril BUDGET notes > /dev/null", [("file_search", "grep", "BUDGET")]),
            Step("find . -name '*.md' > /dev/null", [("file_search", "find", "*.md")]),
            Step("git grep --no-index -q alpha > /dev/null", [("file_search", "grep", "alpha")], needs="git"),
        ]),
        Scenario("organise with shell tools", NOTES, [
            Step("mkdir -p proj/2024/q1", [("dir_create", "proj"), ("dir_create", "proj/2024"), ("dir_create", "proj/2024/q1")]),
            Step("cp report.md report.md.bak", [("file_copy", "report.md", "report.md.bak", True)]),
            Step("cp report.md report.md.bak", [("file_copy", "report.md", "report.md.bak", True)]),
            Step("cp report.md proj/summary.md", [("file_copy", "report.md", "proj/summary.md", False)]),
            Step("mv notes/beta.txt notes/beta-status.txt", [("file_rename", "notes/beta.txt", "notes/beta-status.txt")]),
            Step("mv report.md proj/2024/report.md", [("file_move", "report.md", "proj/2024/report.md")]),
            Step("rm report.md.bak", [("file_delete", "report.md.bak")]),
            # unpacking is the archiver's work: one summary per action type, not authored
            Step(f"tar xf {tar_path}", [("dir_create", "pkg"), ("file_write", "pkg", "create")]),
            Step("mv proj/2024 proj/y2024", [("file_rename", "proj/2024", "proj/y2024")]),
            Step("mv pkg proj/", [("file_move", "pkg", "proj/pkg")]),
            Step("cat proj/pkg/docs/guide.md > /dev/null", [("file_read", "proj/pkg/docs/guide.md")]),
        ]),
        Scenario("shell edits", NOTES, [
            Step("sed -i 's/alpha project/omega project/' notes/alpha.md", [("file_edit", "notes/alpha.md")]),
            Step("echo 'one more line' >> notes/beta.txt", [("file_edit", "notes/beta.txt")]),
            Step("printf 'fresh\\n' > fresh.txt", [("file_write", "fresh.txt", "create")]),
            Step("printf 'entirely new\\n' > fresh.txt", [("file_write", "fresh.txt", "overwrite")]),
        ]),
        Scenario("python file I/O", NOTES, [
            Step(py("open('p.txt','w').write('a\\nb\\n')"), [("file_write", "p.txt", "create")]),
            Step(py("open('p.txt').read()"), [("file_read", "p.txt")]),
            Step(py("import os; list(os.scandir('notes'))"), [("file_browse", "notes")]),
            Step(py("import os; os.makedirs('py/a/b')"), [("dir_create", "py"), ("dir_create", "py/a"), ("dir_create", "py/a/b")]),
            Step(py("import shutil; shutil.copy('p.txt', 'py/p.txt')"), [("file_copy", "p.txt", "py/p.txt", False)]),
            Step(py("import os; os.rename('p.txt', 'P.txt')"), [("file_rename", "p.txt", "P.txt")]),
            Step(py("import os; os.remove('P.txt')"), [("file_delete", "P.txt")]),
        ]),
        Scenario("editors save once", NOTES, [
            Step("vim -es -n -c '%s/alpha/ALPHA/' -c 'wq' report.md", [("file_edit", "report.md")], needs="vim"),
            Step("vim -es -c '%s/intro/Intro/' -c 'wq' report.md", [("file_edit", "report.md")], needs="vim"),
            Step("vim -es -c 'set backupcopy=no' -c '%s/Intro/INTRO/' -c 'wq' report.md", [("file_edit", "report.md")], needs="vim"),
            Step(atomic_save("notes/alpha.md", "# Alpha\nalpha project notes\nbudget: 12k\n"), [("file_edit", "notes/alpha.md")]),
            Step(jetbrains_save("notes/beta.txt", "beta status\nall good\nchecked\n"), [("file_edit", "notes/beta.txt")]),
            Step(gedit_save("notes/alpha.md", "# Alpha\nalpha project notes\nbudget: 15k\n"), [("file_edit", "notes/alpha.md")]),
            Step(office_session("report.md", "# Report\nINTRO\nALPHA results\nsigned\n"), [("file_read", "report.md"), ("file_edit", "report.md")]),
            Step(emacs_session("notes/beta.txt", "beta status\nall good\nchecked twice\n"), [("file_edit", "notes/beta.txt")]),
        ]),
        Scenario("derived actions", NOTES, [
            Step("cat notes/alpha.md > /dev/null", [("file_read", "notes/alpha.md")], sync="pause"),
            Step("cat notes/beta.txt > /dev/null", [
                ("file_read", "notes/beta.txt"),
                ("context_switch", "notes/alpha.md", "notes/beta.txt"),
                ("cross_file_reference", "notes/alpha.md", "notes/beta.txt", "sequential_access"),
            ], sync="pause"),
            Step(atomic_save("report.md", "# Report\nintro\nalpha results\nall good here\n"), [
                ("file_edit", "report.md"),
                ("context_switch", "notes/beta.txt", "report.md"),
                ("cross_file_reference", "notes/beta.txt", "report.md", "read_then_edit"),
            ], sync="pause"),
            Step("grep -rl budget notes > /dev/null", [("file_search", "grep", "budget")], sync="pause"),
            Step("cat notes/alpha.md > /dev/null", [
                ("file_read", "notes/alpha.md"),
                ("context_switch", "report.md", "notes/alpha.md"),
                ("cross_file_reference", "notes/beta.txt", "notes/alpha.md", "sequential_access"),
                ("cross_file_reference", "notes", "notes/alpha.md", "search_then_read"),
            ]),
        ], derived=True),
    ]


# -- running --------------------------------------------------------------------------------


def run_scenario(sc: Scenario, workdir: Path) -> Outcome:
    from filegram.config import Config
    from filegram.store import Store

    from .recorder import Recorder

    missing = sorted({st.needs for st in sc.steps if st.needs and not shutil.which(st.needs)})
    steps = [st for st in sc.steps if not (st.needs and st.needs in missing)]
    if not steps:
        return Outcome(sc.name, [], [], skipped=f"{', '.join(missing)} not installed")
    root = workdir / "root"
    root.mkdir(parents=True)
    for rel, text in sc.files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    store = Store(workdir / "fg.db")
    rec = Recorder(store, [root], Config())
    rec.start()
    expected: list[Expected] = []
    env = dict(os.environ, LC_ALL="C", HOME=str(workdir), GIT_CONFIG_NOSYSTEM="1")
    try:
        for st in steps:
            expected.extend(st.expect)
            if callable(st.run):
                st.run(root)
            else:
                subprocess.run(st.run, shell=True, cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
            if st.sync == "flush":
                rec.flush()
            elif st.sync == "pause":
                time.sleep(0.8)
        rec.stop()
        events = list(store.actions())
    finally:
        if rec.stats()["running"]:
            rec.stop()
        store.close()
    recorded = [key_of(e) for e in events if sc.derived or e["event_type"] not in DERIVED]
    if not sc.derived:
        expected = [e for e in expected if e[0] not in DERIVED]
    note = f"steps needing {', '.join(missing)} left out" if missing else None
    return Outcome(sc.name, expected, recorded, events=events, note=note)


def run_suite(workdir: Path | None = None) -> list[Outcome]:
    base = Path(workdir or tempfile.mkdtemp(prefix="fg-fidelity-"))
    tar_path = base / "pkg.tar"
    make_tar(tar_path)
    outcomes = []
    for i, sc in enumerate(scenarios(tar_path)):
        outcomes.append(run_scenario(sc, base / f"s{i}"))
    return outcomes


def precision_recall(outcomes: list[Outcome]) -> list[dict[str, Any]]:
    rows = []
    for t in ACTION_TYPES:
        exp: Counter[Expected] = Counter()
        rec: Counter[Expected] = Counter()
        for o in outcomes:
            exp.update(e for e in o.expected if e[0] == t)
            rec.update(r for r in o.recorded if r[0] == t)
        hit = sum((exp & rec).values())
        ne, nr = sum(exp.values()), sum(rec.values())
        rows.append({
            "type": t,
            "expected": ne,
            "recorded": nr,
            "matched": hit,
            "precision": hit / nr if nr else (1.0 if not ne else 0.0),
            "recall": hit / ne if ne else (1.0 if not nr else 0.0),
        })
    return rows


def format_table(rows: list[dict[str, Any]]) -> str:
    lines = [f"{'action type':<22}{'expected':>9}{'recorded':>9}{'matched':>8}{'precision':>10}{'recall':>8}"]
    for r in rows:
        lines.append(f"{r['type']:<22}{r['expected']:>9}{r['recorded']:>9}{r['matched']:>8}{r['precision']:>10.2f}{r['recall']:>8.2f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m filegram.recorder.fidelity")
    ap.add_argument("--only", choices=("fidelity", "workflows", "references"), action="append")
    only = set(ap.parse_args(argv).only or ("fidelity", "workflows", "references"))
    ok = True
    if "fidelity" in only:
        ok = _fidelity_main() == 0
    if "workflows" in only:
        from . import workflows

        results = workflows.run_suite()
        print()
        print("Recorded workflows (real tools; authored = the person's own act)")
        print(workflows.report(results))
        print()
        print(workflows.format_table(workflows.precision_recall(results), workflows.tool_actions_authored(results)))
        ok = ok and all(r.ok for r in results)
    if "references" in only:
        from . import references

        print()
        print("Labelled reference set")
        print(references.format_reference_table(references.run_reference_set()))
    return 0 if ok else 1


def _fidelity_main() -> int:
    outcomes = run_suite()
    for o in outcomes:
        if o.skipped:
            print(f"- {o.name}: skipped ({o.skipped})")
            continue
        print(f"- {o.name}: {'exact' if o.exact else 'DIFFERS'}{f' ({o.note})' if o.note else ''}")
        if not o.exact:
            missing = Counter(o.expected) - Counter(o.recorded)
            extra = Counter(o.recorded) - Counter(o.expected)
            for m in missing.elements():
                print(f"    missing {m}")
            for x in extra.elements():
                print(f"    extra   {x}")
    print()
    print(format_table(precision_recall(outcomes)))
    return 0 if all(o.exact or o.skipped for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
