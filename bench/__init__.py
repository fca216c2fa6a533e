"""FileGramBench: the question bank, the methods under one answerer, scores and reports.

The heavy parts (memory, matplotlib, pyarrow, litellm) are imported only when used, so
importing this package is cheap.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "BankSpec",
    "BenchConfig",
    "Method",
    "Question",
    "Trajectory",
    "Truth",
    "aggregate",
    "generate_bank",
    "load_folders",
    "load_official",
    "load_truth",
    "make_methods",
    "read_jsonl",
    "run_bench",
    "run_methods",
    "run_real",
    "write_jsonl",
    "write_reports",
]

_WHERE = {
    "BankSpec": "generators", "generate_bank": "generators",
    "BenchConfig": "pipeline", "run_bench": "pipeline",
    "Method": "methods", "make_methods": "methods",
    "Question": "questions", "read_jsonl": "questions", "write_jsonl": "questions",
    "Trajectory": "trajectories", "load_folders": "trajectories",
    "Truth": "truth", "load_truth": "truth",
    "aggregate": "scoring",
    "load_official": "official",
    "run_methods": "runner",
    "run_real": "real",
    "write_reports": "report",
}


def __getattr__(name: str) -> Any:
    mod = _WHERE.get(name)
    if mod is None:
        raise AttributeError(f"module 'filegram.bench' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"{__name__}.{mod}"), name)
