"""Official release layout (--data) and the one-LLM-for-all answerer, end to end."""

from __future__ import annotations

import json
import shutil
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from bench_helpers import run_cli


def _release(sim_dir: Path, root: Path) -> Path:
    pa = pytest.importorskip("pyarrow", reason="pyarrow (the 'official' extra) is not installed")
    import pyarrow.parquet as pq

    for name in ("p1_T-01", "p1_T-05", "p3_T-01", "p3_T-05", "p5_T-03"):
        shutil.copytree(sim_dir / name, root / "signal" / name)
    rows = [
        {"question_id": "ar-1", "track": "T1", "sub_track": "Attribute Recognition", "channel": "procedural",
         "profile_id": "p1", "input_trajectories": ["p1_T-01", "p1_T-05"],
         "question": "Which description best fits this user's A (Consumption)?",
         "choices": ["breadth-first browsing (listings, skim first lines, rarely revisit)",
                     "sequential deep reading, whole files in order, revisits",
                     "targeted search-first (grep/glob, line ranges)"],
         "correct": "B", "metadata": "{}"},
        {"question_id": "fp-1", "track": "T1", "sub_track": "behavioral_fingerprint", "channel": "procedural",
         "profile_id": "p3", "input_trajectories": json.dumps(["p3_T-05"]),
         "question": "Which profile produced this session?",
         "choices": json.dumps(["A (Consumption): targeted search-first (grep/glob, line ranges)",
                                "A (Consumption): sequential deep reading, whole files in order, revisits"]),
         "correct": "0", "metadata": json.dumps({"note": "release metadata is kept"})},
        {"question_id": "odd-1", "track": "T9", "sub_track": "Something Else", "channel": "x", "profile_id": "p1",
         "input_trajectories": ["p1_T-01"], "question": "?", "choices": ["a", "b"], "correct": "A", "metadata": "{}"},
        {"question_id": "gone-1", "track": "T1", "sub_track": "AttrRec", "channel": "procedural", "profile_id": "p9",
         "input_trajectories": ["p9_T-01"], "question": "?", "choices": ["a", "b", "c"], "correct": 1, "metadata": "{}"},
    ]
    (root / "data").mkdir(parents=True)
    cols = list(rows[0])
    table = pa.table({c: [json.dumps(r[c]) if isinstance(r[c], list) else str(r[c]) for r in rows] for c in cols})
    pq.write_table(table, root / "data" / "test-00000.parquet")
    return root


def test_official_release_layout(tmp_path, fg_home, sim_dir):
    root = _release(sim_dir, tmp_path / "release")
    out = tmp_path / "out"
    proc = run_cli("bench", "run", "--data", str(root), "--methods", "no_context,filegramos", "--no-ablations",
                   "--workers", "1", "--no-progress", "--out", str(out), home=fg_home, timeout=180)
    assert proc.returncode == 0, proc.stderr
    res = json.loads((out / "results.json").read_text())
    assert set(res["subtasks"]) == {"AttrRec", "BehavFP"}
    assert set(res["subtasks"]["AttrRec"]) == {"no_context", "filegramos"}
    qs = [json.loads(x) for x in (out / "questions.jsonl").read_text().splitlines()]
    assert [(q["question_id"], q["correct"]) for q in qs] == [("ar-1", 1), ("fp-1", 0)]
    assert qs[1]["metadata"]["note"] == "release metadata is kept"
    report = (out / "report.md").read_text()
    assert "1 unreadable, 1 missing trajectories question rows skipped" in report
    assert "official release" in report

    (root / "data" / "broken.parquet").write_bytes(b"not parquet at all")
    proc = run_cli("bench", "run", "--data", str(root), "--methods", "no_context", "--no-progress",
                   "--out", str(out), home=fg_home)
    assert proc.returncode == 2
    assert "broken.parquet: not a readable parquet file" in proc.stderr


class _FakeLLM(BaseHTTPRequestHandler):
    prompts: list[str] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        prompt = body["messages"][-1]["content"]
        _FakeLLM.prompts.append(prompt)
        if "Reply with one digit" in prompt:
            text = "5"
        elif "Reply with the number" in prompt:
            text = "1"
        else:
            text = "reads files in order (tier L)"
        data = json.dumps({"id": "x", "object": "chat.completion", "created": 0, "model": "fake",
                           "choices": [{"index": 0, "finish_reason": "stop",
                                        "message": {"role": "assistant", "content": text}}],
                           "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


def test_one_llm_answers_for_every_method(tmp_path, fg_home, monkeypatch):
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeLLM)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        fg_home.mkdir(parents=True, exist_ok=True)
        (fg_home / "config.toml").write_text(
            f'[llm]\nmodel = "openai/fake"\napi_base = "http://127.0.0.1:{server.server_port}"\napi_key_env = "FAKE_KEY"\n',
            encoding="utf-8")
        monkeypatch.setenv("FAKE_KEY", "sk-test")
        out = tmp_path / "out"
        proc = run_cli("bench", "run", "--profiles", "p1,p3", "--size", "3", "--subtasks", "AttrRec,ProfRec",
                       "--methods", "no_context,full_context", "--workers", "1", "--no-progress", "--out", str(out),
                       home=fg_home, timeout=180)
        assert proc.returncode == 0, proc.stderr
    finally:
        server.shutdown()
    res = json.loads((out / "results.json").read_text())
    assert res["answerer"] == "LLM openai/fake"
    assert res["subtasks"]["ProfRec"] == {"no_context": 100.0, "full_context": 100.0}  # judge said 5 of 5
    report = (out / "report.md").read_text()
    assert "LLM judge openai/fake" in report
    mc = [p for p in _FakeLLM.prompts if "Reply with the number" in p]
    assert len(mc) == 2 * 3  # both methods, three AttrRec questions, one call each
    assert any("(none)" in p for p in mc) and any("read " in p for p in mc)
