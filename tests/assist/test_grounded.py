"""Assistant outputs grounded in what exists (issue 17), over real files recorded by the real
recorder: `suggest` names an existing folder or follows a folder pattern used at least
twice (and says which), learns naming only from names the person chose (not unpacked
`__init__.py`), `card` leaves out deleted folders, and `search` returns only results that
contain the query, highlighted, none of them gone."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from filegram.recorder import Recorder

from filegram.config import parse_config
from filegram.store import Store

QUARTER = f"{dt.date.today().year}-Q{(dt.date.today().month - 1) // 3 + 1}"
OLD = ["2024-Q3", "2024-Q4", "2025-Q1"]


def fg(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONUTF8": "1"}
    env.pop("FILEGRAM_HOME", None)
    p = subprocess.run([sys.executable, "-m", "filegram", "--home", str(home), *args], capture_output=True, text=True,
                       env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    return p


def sh(cmd: str, cwd: Path) -> None:
    subprocess.run(cmd, shell=True, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    if not shutil.which("tar"):
        pytest.skip("tar is not installed")
    base = tmp_path_factory.mktemp("grounded")
    docs, home = base / "Documents", base / "home"
    docs.mkdir()
    home.mkdir()
    (home / "config.toml").write_text(f'[recorder]\nroots = ["{docs}"]\n', encoding="utf-8")
    pkg = base / "src" / "vendor_pkg"
    for rel in ["__init__.py", "core/__init__.py", "core/data_io.py", "util/__init__.py", "util/file_helpers.py",
                "util/text_tools.py", "tests/__init__.py", "tests/test_core.py"]:
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / rel).write_text("# licence: MIT\n", encoding="utf-8")
    with tarfile.open(base / "pkg.tar", "w") as tf:
        tf.add(pkg, arcname="vendor_pkg")
    store = Store(home / "filegram.db")
    config = parse_config(f'[recorder]\nroots = ["{docs}"]\n')
    with Recorder(store, [docs], config) as rec:
        def step(cmd: str) -> None:
            sh(cmd, docs)
            rec.flush(15.0)

        for q in OLD:
            step(f"mkdir -p reports/{q} && printf '# Quarterly report {q}\\n\\nexpenses and revenue\\n' > reports/{q}/quarterly-report.md")
        step("printf '# Meeting notes\\n\\nbudget expenses agreed\\n' > meeting-notes.md")
        step("printf '# Ideas\\n\\nsearch tools\\n' > project-ideas.md")
        step("mkdir old-drafts && printf '# Draft\\n\\nexpenses draft\\n' > old-drafts/first-draft.md")
        step(f"tar xf {base / 'pkg.tar'}")
        step("rm -r old-drafts")
    store.close()
    fg(home, "memory", "consolidate")
    yield home, docs


def suggest(home: Path, text: str, kind: str = "report") -> dict:
    return json.loads(fg(home, "suggest", "--name-for", text, "--kind", kind, "--json").stdout)


def test_suggest_follows_a_pattern_used_three_times_and_says_so(home) -> None:
    h, docs = home
    out = suggest(h, "quarterly report")
    assert out["folder"] == f"reports/{QUARTER}", out
    assert not (docs / out["folder"]).exists()  # not there yet: only the pattern grounds it
    assert f"your pattern reports/<year>-Q<quarter>, used {len(OLD)} times" in out["reasons"], out["reasons"]
    assert out["folder_basis"]["kind"] == "pattern"
    # the name in the person's own convention, not the unpacked package's snake_case
    assert out["name"] == "quarterly-report.md"
    assert out["conventions"]["style"] == "kebab", out["conventions"]


def test_once_the_folder_exists_it_is_named_as_existing(home) -> None:
    h, docs = home
    (docs / "reports" / QUARTER).mkdir(parents=True)
    try:
        out = suggest(h, "quarterly report")
        assert out["folder"] == f"reports/{QUARTER}"
        assert f"existing folder reports/{QUARTER}" in out["reasons"], out["reasons"]
    finally:
        (docs / "reports" / QUARTER).rmdir()


def test_every_suggested_folder_exists_or_follows_a_pattern(home) -> None:
    h, docs = home
    for text, kind in [("meeting notes", "notes"), ("budget summary", "summary"), ("draft of a letter", "draft"),
                       ("python helpers", "script"), ("trip photos", "image"), ("expenses table", "data")]:
        out = suggest(h, text, kind)
        folder = out["folder"]
        assert folder == "." or (docs / folder).is_dir() or out["folder_basis"]["kind"] == "pattern", out
        assert "old-drafts" not in folder and "vendor_pkg" not in folder, out
        assert not [p for p in out["similar"] if p.startswith("old-drafts")], out


def test_card_leaves_out_deleted_and_unpacked_folders(home) -> None:
    h, _ = home
    card = fg(h, "card").stdout
    assert "old-drafts" not in card and "vendor_pkg" not in card, card
    assert "snake" not in card


def test_search_results_contain_the_query(home) -> None:
    h, _ = home
    res = json.loads(fg(h, "search", "expenses", "--json").stdout)
    assert res["memory"], res
    for m in res["memory"]:
        assert "[expenses]" in m["text"].lower(), m
        assert not (m["path"] or "").startswith("old-drafts"), m
    # the deleted draft held the word too: it is not offered
    assert all(not f["path"].startswith("old-drafts") for f in res["files"])
    # the unpacked package's files say "licence" but are gone from memory (not authored) and
    # nothing the person wrote contains it: nothing unrelated comes back
    res = json.loads(fg(h, "search", "licence", "--json").stdout)
    assert res["memory"] == [] and res["files"] == [], res
    res = json.loads(fg(h, "search", "report", "--json").stdout)
    assert {f["path"] for f in res["files"]} >= {f"reports/{q}/quarterly-report.md" for q in OLD}
    assert all("[report]" in f["match"] for f in res["files"]), res["files"]
    text = fg(h, "search", "report").stdout
    assert "[report]" in text


def test_search_without_a_match_says_nothing_found(home) -> None:
    h, _ = home
    assert "nothing found for 'zebra'" in fg(h, "search", "zebra").stdout
