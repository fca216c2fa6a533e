"""Forgetting a folder forgets the searches run over it. A search's scope is stored
(`search_scope`, the folders or files it was run over, as the recorder infers them), so
`filegram forget --path DIR` (and `**/DIR`) reaches `grep -r QUERY DIR/`, `rg QUERY DIR`
and `find DIR -name X` even when they matched nothing there and their query does not name
the folder: before, their query text survived the forget in the trace, memory's tables
and their full-text index, and `export --all`. Real programs under the real recorder, the
real CLI, the bytes of the database, its WAL, the backups and the export."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from fg_helpers import FLUSH_S, leaks, run_cli
from filegram.recorder import Recorder
from rec_helpers import make_config, sh

from filegram.scrub import take_backup
from filegram.store import Store

# Distinctive, ordinary words (not secrets: redaction must not be what hides them); no
# file holds them, so no search opens or matches a file that would name its folder.
GREP_Q = "okapigrep5511"
RG_Q = "okapirg5512"
FIND_Q = "okapifind5513"
NESTED_Q = "okapinested5514"
PUBLIC_Q = "okapipublic5515"
ROOT_Q = "okapiroot5516"


def _searches(db: Path) -> dict[str | None, list[str] | None]:
    store = Store(db, readonly=True)
    try:
        return {e.get("query"): e.get("search_scope") for e in store.actions() if e["event_type"] == "file_search"}
    finally:
        store.close()


def test_forgetting_a_folder_forgets_the_searches_run_over_it(tmp_path: Path, root: Path) -> None:
    if not shutil.which("rg"):
        pytest.skip("ripgrep is not installed")
    home = tmp_path / "fg"
    db = home / "filegram.db"
    for folder in ("private", "work/private", "public"):
        (root / folder).mkdir(parents=True)
        (root / folder / "notes.md").write_text(f"notes of {folder}\n")
    store = Store(db)
    try:
        with Recorder(store, [root], make_config()) as rec:
            # nice 19: the process scan reads each command line first also without the connector
            for cmd in (f"grep -r {GREP_Q} private/", f"rg {RG_Q} private", f"find private -name '{FIND_Q}*'",
                        f"grep -rn {NESTED_Q} work/private", f"grep -r {PUBLIC_Q} public", f"grep -r {ROOT_Q} ."):
                sh(f"nice -n 19 {cmd} > /dev/null; true", root)
                rec.flush(FLUSH_S)
    finally:
        store.close()
    assert _searches(db) == {GREP_Q: ["private"], RG_Q: ["private"], f"{FIND_Q}*": ["private"],
                             NESTED_Q: ["work/private"], PUBLIC_Q: ["public"], ROOT_Q: ["."]}
    # memory's tables and full-text index, a backup and an export hold the queries too
    run_cli("memory", "rebuild", home=home, check=True)
    store = Store(db)
    take_backup(store, home / "backups", 3)
    store.close()
    export = tmp_path / "export"
    run_cli("export", "--all", str(export), home=home, check=True)
    places = [home, export]
    planted = [GREP_Q, RG_Q, FIND_Q, NESTED_Q, PUBLIC_Q, ROOT_Q]
    assert set(leaks(places, planted)) == set(planted), "planting failed: the scan would prove nothing"

    proc = run_cli("forget", "--path", "private", home=home)
    assert proc.returncode == 0, proc.stderr
    assert set(leaks(places, planted)) == {NESTED_Q, PUBLIC_Q, ROOT_Q}  # work/private is not private/
    assert _searches(db) == {NESTED_Q: ["work/private"], PUBLIC_Q: ["public"], ROOT_Q: ["."]}

    proc = run_cli("forget", "--path", "**/private", home=home)
    assert proc.returncode == 0, proc.stderr
    assert set(leaks(places, planted)) == {PUBLIC_Q, ROOT_Q}  # a search over the whole root stays
    assert _searches(db) == {PUBLIC_Q: ["public"], ROOT_Q: ["."]}
    wal = db.with_name(db.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0
