"""One profile across a person's devices, with no server and no account.

`filegram sync --dir SHARED` (and the daemon, with `[sync] dir` set) exchanges sessions through
any folder the devices already share. Each device appends only to its own log there (its own
folder of segment files), reads the others' logs, and applies what it has not applied yet;
event ids, content hashes and tombstone ids make every record idempotent, so there are no
conflicts by construction. Everything in the shared folder is sealed with one key the user
copies between devices (AES-GCM, the optional extra `filegram[sync]`).

- keys: the key file, its text form, its id
- seal: sealing and opening segment files (cryptography, imported lazily)
- layout: the shared folder's layout and atomic segment writes
- payload: the records of a segment, their encoding and filtering
- outbox / inbox: what this device sends, applying what others sent
- tombstones: forgets, recorded through the table registry and replayed elsewhere
- devices: device names and one device's sessions on their own (`profile --device`)
- engine: one sync run; lock: one at a time per home; tables: sync's tables and rules
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .engine import SyncReport

__all__ = ["SyncReport", "run_sync"]


def run_sync(*args: Any, **kwargs: Any) -> SyncReport:
    from .engine import run_sync as run

    return run(*args, **kwargs)
