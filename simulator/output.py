"""Write one FileGram trajectory folder: events.json, media/, summary.json, perturbation.json."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from .plan import Plan
from .tracer import MediaStore


def write_trajectory(
    out: Path,
    plan: Plan,
    events: list[dict[str, Any]],
    media: MediaStore,
    *,
    workspace_root: str,
    mode: str,
    extra: dict[str, Any] | None = None,
) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    if (out / "media").is_dir():  # a re-run replaces the folder's media, it does not pile up
        import shutil

        shutil.rmtree(out / "media")
    events = sorted(events, key=lambda e: e["timestamp"])  # derived actions sit a hair after their cause
    for h, (kind, _path, data) in media.items.items():
        folder, ext = ("blobs", "blob") if kind == "blob" else ("diffs", "diff")
        target = out / "media" / folder / f"{h}.{ext}"
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            target.write_bytes(data)
    (out / "media").mkdir(exist_ok=True)
    (out / "media" / "manifest.json").write_text(
        json.dumps(media.manifest(), ensure_ascii=False, indent=1), encoding="utf-8")
    (out / "events.json").write_text(json.dumps(events, ensure_ascii=False), encoding="utf-8")
    counts = Counter(e["event_type"] for e in events)
    summary: dict[str, Any] = {
        "profile_id": plan.profile_id,
        "task_id": plan.task_id,
        "workspace_root": workspace_root,
        "perturbed": plan.perturbed,
        "seed": plan.seed,
        "mode": mode,
        "language": plan.language,
        "scale": plan.scale,
        "expression": plan.expression,
        "counts": dict(sorted(counts.items())),
        "total_events": len(events),
        "start_ms": events[0]["timestamp"] if events else plan.start_ms,
        "end_ms": events[-1]["timestamp"] if events else plan.start_ms,
    }
    if extra:
        summary.update(extra)
    (out / "summary.json").write_text(json.dumps(summary, ensure_ascii=False, indent=1), encoding="utf-8")
    pert = out / "perturbation.json"
    if plan.perturbation:
        pert.write_text(json.dumps({"shifted_dims": plan.perturbation}, indent=1), encoding="utf-8")
    elif pert.exists():
        pert.unlink()
    return out
