"""Trajectory folders in the FileGram format, importable by `filegram import`, and the CLI."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

from filegram.simulator import plan_trajectory, run_fast

from filegram.schema import validate_event


def test_trajectory_folder_follows_the_format(tmp_path: Path) -> None:
    out = run_fast(plan_trajectory("p1", "T-10", 0), tmp_path / "p1_T-10")
    events = json.loads((out / "events.json").read_text(encoding="utf-8"))
    assert isinstance(events, list) and events
    for ev in events:
        validate_event(ev)
        assert ev["profile_id"] == "p1" and ev["message_id"] is None and ev["model_name"] is None
        for key in ("file_path", "old_path", "new_path", "dir_path", "source_path", "dest_path"):
            assert not str(ev.get(key, "")).startswith("/"), ev  # relative to the workspace root
    ts = [e["timestamp"] for e in events]
    assert ts == sorted(ts)
    manifest = json.loads((out / "media" / "manifest.json").read_text())
    for h, info in manifest.items():
        folder, ext = ("blobs", "blob") if info["type"] == "blob" else ("diffs", "diff")
        data = (out / "media" / folder / f"{h}.{ext}").read_bytes()
        assert hashlib.sha256(data).hexdigest()[:16] == h and info["size_bytes"] == len(data)
    edits = [e for e in events if e["event_type"] == "file_edit"]
    assert edits and all(e["diff_summary"] == f"+{e['lines_added']} -{e['lines_deleted']}" for e in edits)
    for e in edits:
        assert e["media_ref_diff"]["hash"] in manifest and e["media_ref_old"]["hash"] in manifest
    summary = json.loads((out / "summary.json").read_text())
    assert {"profile_id", "task_id", "workspace_root", "perturbed", "seed", "counts"} <= set(summary)
    assert sum(summary["counts"].values()) == len(events)
    # mkdir -p records each level with its depth
    dirs = [e for e in events if e["event_type"] == "dir_create"]
    assert all(e["depth"] == e["dir_path"].count("/") + 1 for e in dirs)


def test_filegram_import_reads_simulated_trajectories(tmp_path: Path) -> None:
    from filegram.store import Store
    from filegram.trajectory import import_paths

    outs = [run_fast(plan_trajectory(p, "T-16", 0), tmp_path / f"{p}_T-16") for p in ("p2", "p18")]
    with Store(tmp_path / "db.sqlite") as store:
        import_paths(store, outs)
        sessions = {s["label"]: s for s in store.sessions()}
        assert set(sessions) == {"p2_T-16", "p18_T-16"}
        s = sessions["p2_T-16"]
        assert (s["profile_id"], s["task_id"]) == ("p2", "T-16")
        n = len(json.loads((outs[0] / "events.json").read_text()))
        assert store.action_count(s["id"]) == n


def test_cli_simulate_and_bad_input(tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "filegram", "--home", str(tmp_path / "home"), "simulate",
           "--profiles", "p3,p17", "--tasks", "T-03,T-27", "--seed", "2", "--out", str(tmp_path / "o")]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "4 trajectories" in done.stdout
    assert sorted(p.name for p in (tmp_path / "o").iterdir()) == ["p17_T-03", "p17_T-27", "p3_T-03", "p3_T-27"]
    bad = subprocess.run(cmd[:-6] + ["--profiles", "p42", "--out", str(tmp_path / "x")],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.startswith("filegram: error: unknown profile 'p42'")


def test_same_trajectories_whatever_the_hash_seed(tmp_path: Path) -> None:
    import os

    outs = []
    for hs in ("1", "999"):
        out = tmp_path / f"h{hs}"
        env = {**os.environ, "PYTHONHASHSEED": hs}
        subprocess.run([sys.executable, "-m", "filegram", "--home", str(tmp_path / "home"), "simulate",
                        "--profiles", "p6", "--tasks", "T-05,T-21", "--no-progress", "--out", str(out)],
                       check=True, capture_output=True, env=env, timeout=120)
        outs.append(out)
    for name in ("p6_T-05", "p6_T-21"):
        assert (outs[0] / name / "events.json").read_bytes() == (outs[1] / name / "events.json").read_bytes()
