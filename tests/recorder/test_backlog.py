"""A worker that falls behind (a loaded machine, a full disk's retries) reads a backlog of
events in one go: what they become must depend on when they happened (their own
timestamps), not on when the worker got to them. Found under load: a file written 3 s after
an unpack ended was counted into the unpack's summary (tests/reliability/test_full_disk.py)."""

from __future__ import annotations

from pathlib import Path

from filegram.recorder.interpret import Interpreter
from filegram.recorder.paths import RootSet
from filegram.recorder.state import FileState
from filegram.recorder.watch import Raw

from filegram.privacy import PathFilter
from filegram.store import Store, now_ms


def test_a_file_written_after_an_unpack_went_quiet_is_its_own_action(root: Path, store: Store) -> None:
    interp = Interpreter(RootSet([root], PathFilter()), FileState(store), bulk_per_second=200)
    t0 = now_ms() - 20_000  # a backlog: everything below happened a while ago
    for i in range(300):  # an unpack: 300 files within 0.6 s
        f = root / f"part{i:03d}.csv"
        f.write_text(f"{i}\n")
        interp.feed(Raw("created", str(f), t=t0 + i * 2))
        interp.feed(Raw("closed_write", str(f), t=t0 + i * 2 + 1))
    marker = root / "marker.txt"
    marker.write_text("written 3 s after the unpack ended\n")
    t_marker = t0 + 600 + 3000  # longer than the 2 s of quiet that end an unpack
    interp.feed(Raw("created", str(marker), t=t_marker))
    interp.feed(Raw("closed_write", str(marker), t=t_marker + 1))
    # only now does the worker get to settle (one tick after the whole backlog was read)
    actions = interp.tick(now_ms(), force=True)
    writes = [(a["file_path"], a.get("bulk_count")) for a in actions if a["event_type"] == "file_write"]
    assert writes == [(".", 300), ("marker.txt", None)], writes
