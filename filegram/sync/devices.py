"""Which device a session was recorded on, and one device's sessions on their own.

A session recorded here has no device in the store (NULL: this device); sessions received
through sync carry the name of the device that recorded them. The name of this device is
`[sync] device`, else the host name.
"""

from __future__ import annotations

import socket
from collections import Counter
from typing import TYPE_CHECKING, Any

from ..errors import FileGramError
from ..schema import media_hashes

if TYPE_CHECKING:
    from ..config import Config
    from ..store import Store


def local_device_name(config: Config) -> str:
    name = str(config["sync"]["device"]).strip()
    return name or socket.gethostname() or "this device"


def device_of(session: dict[str, Any], local_name: str) -> str:
    return session.get("device") or local_name


def session_devices(store: Store, local_name: str) -> Counter[str]:
    """Sessions per device name."""
    return Counter(device_of(s, local_name) for s in store.sessions())


def referenced_hashes(ev: dict[str, Any]) -> set[str]:
    """The content addresses an action refers to (its media and its before/after snapshots)."""
    out = set(media_hashes(ev))
    for key in ("before_hash", "after_hash"):
        if isinstance(ev.get(key), str):
            out.add(ev[key])
    return out


def device_store(store: Store, device: str, local_name: str) -> Store:
    """A throwaway in-memory store holding only `device`'s sessions, their actions and the
    blobs those refer to: memory built over it is that device's profile."""
    from ..store import Store as StoreClass

    sessions = [s for s in store.sessions() if device_of(s, local_name) == device]
    if not sessions:
        known = ", ".join(sorted(session_devices(store, local_name))) or "none"
        raise FileGramError(f"no sessions from device '{device}' (devices: {known})")
    view = StoreClass(":memory:")
    wanted: set[str] = set()
    with view.transaction():
        for s in sessions:
            view.open_session(s["id"], source=s["source"], started_ms=s["started_ms"], label=s["label"],
                              profile_id=s["profile_id"], task_id=s["task_id"], root=s["root"],
                              metadata=s["metadata"])
            view.update_session(s["id"], ended_ms=s["ended_ms"], closed=int(s["closed"]), device=s.get("device"))
            events = list(store.actions(s["id"]))
            for ev in events:
                wanted |= referenced_hashes(ev)
            view.add_actions(events, validate=False)
        for h in sorted(wanted):
            row = store.conn.execute(
                "SELECT hash, kind, size, original_path, created_ms, content FROM blobs WHERE hash = ?", (h,)
            ).fetchone()
            if row is not None:
                view.conn.execute(
                    "INSERT OR IGNORE INTO blobs(hash, kind, size, original_path, created_ms, content) "
                    "VALUES (?, ?, ?, ?, ?, ?)", row)
    return view
