"""File Grounding's view of a trajectory (only the files it produced) is the person's
output. Its creates are a millisecond apart, and since memory took three files written
under a second apart for a program's burst, memory saw no output at all in that view: the
bench's FileGrd fell from 76 to 48 without a test noticing."""

from __future__ import annotations

import hashlib

from filegram.bench.trajectories import Trajectory, files_only
from filegram.memory import encode_session


def _write(path: str, text: str, ts: float) -> tuple[dict, str, bytes]:
    data = text.encode()
    h = hashlib.sha256(data).hexdigest()[:16]
    ev = {"event_id": path, "event_type": "file_write", "timestamp": ts, "session_id": "s", "file_path": path,
          "file_type": path.rsplit(".", 1)[-1], "operation": "create", "content_length": len(data),
          "media_ref": {"type": "blob", "hash": h, "path": f"media/blobs/{h}.blob"}}
    return ev, h, data


def test_the_files_a_trajectory_produced_are_the_persons_output() -> None:
    report = "# Report\n" + "".join(f"Line {i} of the quarterly review.\n" for i in range(120))
    files = [("reports/2026/q1/summary.md", report), ("reports/2026/q1/figures/trend.png", "png"),
             ("reports/2026/q1/data.csv", "a,b\n1,2\n")]
    events, blobs = [], {}
    for i, (path, text) in enumerate(files):
        ev, h, data = _write(path, text, 60_000.0 * (i + 1))
        events.append(ev)
        blobs[h] = data
    view = files_only(Trajectory("p1_T-08", "p1", "T-08", events, blobs), "session 1")
    tiers = encode_session(view.events, view.blobs.get).tiers
    assert {d: tiers[d]["tier"] for d in "BCF" if d in tiers} == {"B": "M", "C": "L", "F": "L"}, tiers
