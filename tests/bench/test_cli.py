"""`filegram bench run`, `bench real`, `mark` and `bench perf` as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

from bench_helpers import run_cli
from filegram.bench.truth import PUBLISHED


def _tiny_run(out: Path, home: Path, *extra: str):
    return run_cli("bench", "run", "--profiles", "p1,p3,p5,p8,p12", "--size", "5", "--workers", "1",
                   "--no-progress", "--out", str(out), *extra, home=home, timeout=240)


def test_bench_run_writes_every_report(tmp_path, fg_home):
    out = tmp_path / "out"
    proc = _tiny_run(out, fg_home, "--methods", "no_context", "full_context,filegramos", "--memory-answerer")
    assert proc.returncode == 0, proc.stderr
    assert "answerer: offline deterministic reader" in proc.stdout
    res = json.loads((out / "results.json").read_text())
    assert set(res) == {"answerer", "subtasks"}
    assert res["answerer"].startswith("offline deterministic reader")
    assert set(res["subtasks"]) == {"AttrRec", "BehavFP", "ProfRec", "BehavInf", "TraceDis", "AnomDet", "ShiftAna", "FileGrd"}
    for row in res["subtasks"].values():
        assert set(row) == {"no_context", "full_context", "filegramos", "filegramos-proc", "filegramos-sem",
                            "filegramos-epi", "filegramos-own"}
        assert all(0.0 <= v <= 100.0 for v in row.values())
    report = (out / "report.md").read_text()
    assert "offline deterministic reader" in report
    assert "**filegramos-own**: FileGramOS answering with its own answerer (memory.ask), NOT the shared answerer" in report
    assert f"{PUBLISHED['FileGramOS']['TraceDis']:.1f}" in report  # published numbers side by side
    assert "Visual Grounding (VisGrd)" in report and "screen" in report
    csv_lines = (out / "results.csv").read_text().splitlines()
    assert csv_lines[0].startswith("method,source,AttrRec")
    assert any(line.startswith("filegramos,ours,") for line in csv_lines)
    assert any(line.startswith("FileGramOS,published,50.6") for line in csv_lines)
    assert (out / "chart.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    questions = (out / "questions.jsonl").read_text().splitlines()
    assert len(questions) == 8 * 5
    assert list(json.loads(questions[0])) == ["question_id", "track", "sub_track", "channel", "profile_id",
                                              "input_trajectories", "question", "choices", "correct", "metadata"]
    assert (out / "trajectories" / "p1_T-01" / "events.json").is_file()


def test_bench_run_rejects_bad_options(tmp_path, fg_home):
    proc = run_cli("bench", "run", "--methods", "magic", "--out", str(tmp_path / "o"), "--no-progress", home=fg_home)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == ["filegram: error: unknown method(s): magic (known: no_context, "
                                                "full_context, naive_rag, eager_summ, mem0_flat, filegramos)"]
    proc = run_cli("bench", "run", "--data", str(tmp_path), "--out", str(tmp_path / "o"), "--no-progress", home=fg_home)
    assert proc.returncode == 2 and "no signal/ folder" in proc.stderr


def _record_sessions(home: Path, sim_dir: Path, profile: str, n: int) -> list[str]:
    """Sessions as the recorder would leave them (source recorder, closed), with the actions
    of one simulated person."""
    from filegram.bench.trajectories import load_folder

    from filegram.config import Home

    store = Home.resolve(home).open_store()
    ids = []
    try:
        folders = sorted(p for p in sim_dir.iterdir() if p.name.startswith(f"{profile}_"))[:n]
        for folder in folders:
            t = load_folder(folder)
            sid = store.open_session(source="recorder", started_ms=t.events[0]["timestamp"])
            store.add_actions([{**e, "session_id": sid, "profile_id": None} for e in t.events])
            for h, b in t.blobs.items():
                store.put_blob(b, hash_=h)
            store.close_session(sid)
            ids.append(sid)
    finally:
        store.close()
    return ids


def _add_frames(home: Path, session_id: str) -> None:
    """Frames as the screen recorder leaves them (window, app, OCR text) for one session."""
    from filegram.recorder.screen.store import add_frame, ensure_tables

    from filegram.config import Home

    store = Home.resolve(home).open_store()
    try:
        ensure_tables(store)
        t0 = store.session(session_id)["started_ms"]
        for i, (title, app, text) in enumerate([
            ("notes - Files", "nautilus", "notes  drafts  budget.md"),
            ("budget.md - gedit", "gedit", "# Budget\n- rent 900\n- food 300"),
            ("Terminal", "gnome-terminal", "$ grep -rn rent notes/"),
        ]):
            add_frame(store, ts=t0 + 1000 * i, session_id=session_id, monitor=0, window_title=title, app=app,
                      width=64, height=48, image=b"RIFF\x00\x00\x00\x00WEBP", fmt="webp", ocr_text=text)
    finally:
        store.close()


def test_mark_and_bench_real(tmp_path, fg_home, sim_dir):
    ids = _record_sessions(fg_home, sim_dir, "p3", 8)
    _add_frames(fg_home, ids[1])
    # an unusual session: someone else's way of working, recorded in the same store
    odd = _record_sessions(fg_home, sim_dir, "p17", 1)[0]
    proc = run_cli("mark", odd[:12], "--unusual", "--note", "deadline week", "--dim", "C:R:L", home=fg_home)
    assert proc.returncode == 0, proc.stderr
    assert odd in proc.stdout
    bad = run_cli("mark", "no-such-session", home=fg_home)
    assert bad.returncode == 2 and "no session" in bad.stderr
    bad = run_cli("mark", ids[0], "--dim", "C:X", home=fg_home)
    assert bad.returncode == 2 and "--dim must look like C:L:R" in bad.stderr

    truth = tmp_path / "me.toml"
    truth.write_text('[tiers]\nA = "M"\nB = "R"\nC = "R"\nD = "R"\n', encoding="utf-8")
    out = tmp_path / "real"
    proc = run_cli("bench", "real", "--truth", str(truth), "--methods", "no_context,filegramos",
                   "--out", str(out), "--no-progress", home=fg_home, timeout=240)
    assert proc.returncode == 0, proc.stderr
    res = json.loads((out / "results.json").read_text())
    assert {"AttrRec", "BehavFP", "ProfRec", "AnomDet", "ShiftAna"} <= set(res["subtasks"])
    questions = [json.loads(x) for x in (out / "questions.jsonl").read_text().splitlines()]
    assert not any(q["metadata"].get("dims") and set(q["metadata"]["dims"]) & {"E", "F"} for q in questions)
    anom = [q for q in questions if q["sub_track"] == "AnomDet"]
    assert anom and all(q["input_trajectories"][q["correct"]] == odd for q in anom)
    report = (out / "report.md").read_text()
    assert "Trace Disentanglement (TraceDis): needs two people" in report
    vis = [q for q in questions if q["sub_track"] == "VisGrd"]
    assert vis and all(q["input_trajectories"] == [ids[1]] and q["choices"] == [] for q in vis)
    assert "VisGrd" in res["subtasks"]

    truth.write_text('[tiers]\nA = "Q"\n', encoding="utf-8")
    bad = run_cli("bench", "real", "--truth", str(truth), "--out", str(out), "--no-progress", home=fg_home)
    assert bad.returncode == 2
    assert bad.stderr.strip().splitlines() == [f'filegram: error: {truth}: tier of A must be "L", "M" or "R"']


def test_bench_perf_aggregates_suites_and_survives_failures(tmp_path):
    from filegram.bench import perf_suite

    pkg = tmp_path / "fakeperf"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "good.py").write_text("def run_perf():\n    return [{'benchmark': 'x', 'metric': 'speed', 'value': 3.5, 'unit': 'op/s', 'target': '>1'}]\n")
    (pkg / "bad.py").write_text("def run_perf():\n    raise RuntimeError('disk on fire')\n")
    (pkg / "wide.py").write_text("def run_perf():\n    return [{'benchmark': 'throughput', 'files': 10, 'ops_per_s': 99, 'note': 'n'}]\n")
    import sys

    sys.path.insert(0, str(tmp_path))
    saved = dict(perf_suite.SUITES)
    try:
        perf_suite.SUITES.clear()
        perf_suite.SUITES.update({"good": ("fakeperf.good", "g"), "bad": ("fakeperf.bad", "b"),
                                  "wide": ("fakeperf.wide", "w"),
                                  "gone": ("fakeperf.gone", "not there")})
        rows = perf_suite.run_suite()
    finally:
        perf_suite.SUITES.clear()
        perf_suite.SUITES.update(saved)
        sys.path.remove(str(tmp_path))
    assert {"suite": "good", "benchmark": "x", "metric": "speed", "value": 3.5, "unit": "op/s", "target": ">1"} in rows
    assert any(r["suite"] == "bad" and "failed: RuntimeError: disk on fire" in r["metric"] for r in rows)
    assert any(r["suite"] == "gone" and "does not exist yet" in r["metric"] for r in rows)
    wide = [(r["metric"], r["value"], r["target"]) for r in rows if r["suite"] == "wide" and r["benchmark"] == "throughput"]
    assert wide == [("files", 10, ""), ("ops per s", 99, "note: n")]


def test_bench_real_without_recordings_says_so(tmp_path, fg_home):
    truth = tmp_path / "me.toml"
    truth.write_text('[tiers]\nA = "M"\n', encoding="utf-8")
    proc = run_cli("bench", "real", "--truth", str(truth), "--out", str(tmp_path / "o"), "--no-progress", home=fg_home)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "filegram: error: bench real needs at least two closed recorded sessions (run `filegram record` first)"]
    proc = run_cli("bench", "real", "--truth", str(tmp_path / "missing.toml"), "--no-progress", home=fg_home)
    assert proc.returncode == 2 and "no such file" in proc.stderr


def test_bench_run_on_a_users_folder(tmp_path, fg_home, sim_dir):
    from bench_helpers import make_users_folder

    users = make_users_folder(sim_dir, tmp_path / "people", per_user=12)
    truth = json.loads((users / "truth.json").read_text())
    out = tmp_path / "out"
    proc = run_cli("bench", "run", "--users", str(users), "--size", "6", "--methods", "no_context,full_context,filegramos",
                   "--no-ablations", "--workers", "1", "--no-progress", "--out", str(out), home=fg_home, timeout=300)
    assert proc.returncode == 0, proc.stderr
    res = json.loads((out / "results.json").read_text())
    assert set(res["subtasks"]) == {"AttrRec", "ProfRec", "AnomDet", "ShiftAna"}
    questions = [json.loads(x) for x in (out / "questions.jsonl").read_text().splitlines()]
    assert {q["sub_track"] for q in questions} == {"AttrRec", "ProfRec", "AnomDet", "ShiftAna"}
    perturbed = {s: d for u in truth.values() for s, d in u["perturbed"].items()}
    for q in questions:
        assert q["profile_id"] in truth
        assert all(k.split("_S")[0] in truth for k in q["input_trajectories"])  # keys are the folder names
        if q["sub_track"] == "ShiftAna":
            target = q["metadata"]["target_key"]
            (dim, (a, b)), = perturbed[target].items()
            assert q["metadata"]["option_claims"][q["correct"]] == {"dim": dim, "from": a, "to": b}
        if q["sub_track"] == "AttrRec":
            claim = q["metadata"]["option_claims"][q["correct"]]
            assert truth[q["profile_id"]]["tiers"][claim["dim"]] == claim["tier"]
    report = (out / "report.md").read_text()
    assert f"users folder {users}" in report
    assert "Behavioral Fingerprint (BehavFP): needs each session's task" in report
    proc = run_cli("bench", "run", "--users", str(tmp_path / "nowhere"), "--no-progress", "--out", str(out), home=fg_home)
    assert proc.returncode == 2 and proc.stderr.strip() == f"filegram: error: {tmp_path / 'nowhere'}: no such users folder"


def test_memory_gets_task_ids_only_when_asked(corpus):
    from filegram.bench.context import Context
    from filegram.bench.filegramos import FileGramOS

    trajs, _ = corpus
    picked = [t for t in trajs if t.profile_id == "p1"][:3]
    ctx = Context("history", [(t.task_id, t.anonymous(t.task_id)) for t in picked])
    for flag, expected in ((False, [None, None, None]), (True, [t.task_id for t in picked])):
        m = FileGramOS(task_ids=flag, variants=("filegramos",))
        m.ingest(ctx)
        try:
            got = [s["task_id"] for s in sorted(m.store.sessions(), key=lambda s: s["started_ms"])]
            assert got == expected
            assert all(s["profile_id"] is None for s in m.store.sessions())
        finally:
            m.close()
