"""Resuming an interrupted run: a pair whose folder already holds a whole trajectory of the
same seed, mode and knobs (scale, expression) is not run again (agent and live modes, where a pair costs minutes and
model calls; fast mode is always rewritten, it takes milliseconds).

A trajectory is whole when summary.json (written last) parses, names the same seed, mode,
model and knobs, events.json holds as many events as it says, and a perturbed pair has its
perturbation.json.
"""

from __future__ import annotations

import json
from pathlib import Path


def expected_mode(live: bool, agent: str | None) -> str:
    return "live" if live else ("agent" if agent else "fast")


def finished(folder: Path, *, seed: int, live: bool, agent: str | None, scale: float = 1.0,
             expression: float = 1.0) -> bool:
    try:
        summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
        events = json.loads((folder / "events.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(summary, dict) or not isinstance(events, list):
        return False
    if summary.get("seed") != seed or summary.get("mode") != expected_mode(live, agent):
        return False
    if agent and "model" in summary and summary["model"] != agent:
        return False
    if float(summary.get("scale", 1.0)) != scale or float(summary.get("expression", 1.0)) != expression:
        return False
    if summary.get("total_events") != len(events):
        return False
    return not (summary.get("perturbed") and not (folder / "perturbation.json").is_file())
