"""Helpers for the sync tests: homes, real recorders, the real `filegram` command, and reading
a shared folder the way an attacker with the files (but not the key) would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from filegram.config import Home
from filegram.store import Store


def fg(home: Path, *args: str, check: bool = True, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    """The real `filegram` command on `home`."""
    env = dict(os.environ, FILEGRAM_HOME=str(home), PYTHONUTF8="1")
    proc = subprocess.run([sys.executable, "-m", "filegram", *args], capture_output=True, text=True, env=env,
                          timeout=timeout)
    if check and proc.returncode != 0:
        raise AssertionError(f"filegram {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc


def set_config(home: Path, text: str) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(text, encoding="utf-8")


def sync(home: Path, shared: Path, *extra: str) -> dict[str, Any]:
    return json.loads(fg(home, "sync", "--dir", str(shared), "--json", *extra).stdout)


def share_key(src: Path, *dests: Path) -> str:
    key = fg(src, "sync", "key", "show").stdout.strip().splitlines()[-1]
    for d in dests:
        fg(d, "sync", "key", "import", key)
    return key


def open_store(home: Path) -> Store:
    return Home(home).open_store()


def sessions(home: Path) -> dict[str, dict[str, Any]]:
    with open_store(home) as st:
        return {s["id"]: s for s in st.sessions()}


def actions(home: Path) -> dict[str, dict[str, Any]]:
    with open_store(home) as st:
        return {e["event_id"]: e for e in st.actions()}


def blob_hashes(home: Path) -> set[str]:
    with open_store(home) as st:
        return {h for (h,) in st.conn.execute("SELECT hash FROM blobs")}


def shared_bytes(shared: Path) -> Iterator[tuple[Path, bytes]]:
    for p in sorted(shared.rglob("*")):
        if p.is_file():
            yield p, p.read_bytes()


def segments_of(shared: Path) -> list[Path]:
    return sorted(shared.glob("filegram-sync/devices/*/*.fgs"))


def decrypted_records(home: Path, segment: Path) -> list[dict[str, Any]]:
    """What a segment holds, opened with `home`'s key (for the purge checks)."""
    from filegram.sync.keys import load_key
    from filegram.sync.payload import decode
    from filegram.sync.seal import open_segment

    key = load_key(Home(home))
    assert key is not None
    _h, payload = open_segment(key, segment.read_bytes(), device_id=segment.parent.name,
                               number=int(segment.stem), where=str(segment))
    return decode(payload, str(segment))


@contextmanager
def recording(home: Path, root: Path, config_text: str = "") -> Iterator[Any]:
    """The real recorder on `root` into `home`'s store; stopped (its session closed) on exit."""
    from filegram.recorder import Recorder

    from filegram.config import parse_config

    root.mkdir(parents=True, exist_ok=True)
    h = Home(home)
    h.ensure()
    store = h.open_store()
    rec = Recorder(store, [root], parse_config(config_text), home=h).start()
    try:
        yield rec
    finally:
        rec.stop()
        store.close()


