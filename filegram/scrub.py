"""What forgetting reaches outside the database: backups, logs and `export --all` outputs.

A forgotten password in last night's backup is not forgotten. So after the database is
clean (rows deleted, indexes merged, VACUUM, WAL truncated), forget:

- deletes every backup in `<home>/backups` and, when backups are on, writes one new backup
  of the clean database (the user keeps a good backup, and it holds nothing forgotten);
- deletes the damaged files `filegram doctor --repair` kept aside (`filegram.db.damaged-*`):
  each is a whole copy of the history, and its readable rows were copied in when repairing;
- rewrites the log files in `<home>/logs` in place: with --all they are emptied; otherwise
  lines that name a forgotten path (or its file name) go, and with a time range every line
  stamped inside it (a traceback's lines go with the line they belong to);
- rewrites every `export --all` output this home wrote and that is still where it was
  written (a marker file with the export's id says so): its files are written again from
  the clean database. An export that was moved, copied or changed by hand is out of reach.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import time
import uuid
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from .store import Store

EXPORTS_STATE_KEY = "forget.known_exports"
EXPORT_MARKER = ".filegram-export"
BACKUP_GLOB = "filegram-*.db"
_LOG_STAMP = re.compile(r"^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})")


# -- backups ------------------------------------------------------------------------------


def backup_path(backup_dir: Path, started: float | None = None) -> Path:
    """A new backup's name: filegram-<UTC stamp>[-n].db."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(started if started is not None else time.time()))
    dest = backup_dir / f"filegram-{stamp}.db"
    n = 1
    while dest.exists():
        n += 1
        dest = backup_dir / f"filegram-{stamp}-{n}.db"
    return dest


def take_backup(store: Store, backup_dir: Path, keep: int, *, started: float | None = None) -> Path:
    """Back the database up into backup_dir and keep the newest `keep` backups."""
    backup_dir.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError):
        backup_dir.chmod(0o700)
    dest = store.backup(backup_path(backup_dir, started))
    backups = sorted(backup_dir.glob(BACKUP_GLOB), key=lambda p: p.stat().st_mtime)
    for old in backups[:-keep] if keep > 0 else []:
        _unlink_db(old)
    return dest


def _unlink_db(path: Path) -> None:
    for p in (path, *(path.with_name(path.name + s) for s in ("-wal", "-shm", "-journal"))):
        with contextlib.suppress(FileNotFoundError):
            p.unlink()


def rewrite_backups(store: Store, backup_dir: Path, keep: int) -> dict[str, Any]:
    """Delete every backup; write one new backup of the (clean) database when keep > 0."""
    old = sorted(backup_dir.glob(BACKUP_GLOB)) if backup_dir.is_dir() else []
    for p in old:
        _unlink_db(p)
    new = take_backup(store, backup_dir, keep) if keep > 0 and (old or backup_dir.is_dir()) else None
    return {"deleted": len(old), "written": str(new) if new else None}


def delete_damaged_copies(db_path: Path) -> int:
    """Delete the damaged files `filegram doctor --repair` moved aside (`<db>.damaged-<time>`
    with their -wal and -shm): each is a whole copy of the history as it was, and what could
    be read of it was copied into the repaired database then. Returns the copies deleted."""
    copies = [p for p in db_path.parent.glob(f"{db_path.name}.damaged-*")
              if p.is_file() and not p.name.endswith(("-wal", "-shm", "-journal"))]
    for p in db_path.parent.glob(f"{db_path.name}.damaged-*"):
        if p.is_file() or p.is_symlink():
            with contextlib.suppress(FileNotFoundError):
                p.unlink()
    return len(copies)


# -- logs ---------------------------------------------------------------------------------


def _stamp_ms(line: str) -> float | None:
    m = _LOG_STAMP.match(line)
    if not m:
        return None
    try:
        return datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S").timestamp() * 1000.0
    except ValueError:
        return None


def scrub_log_lines(lines: Iterable[str], *, needles: Iterable[str] = (), since_ms: float | None = None,
                    until_ms: float | None = None) -> tuple[list[str], int]:
    """Lines left after dropping those that name a needle or are stamped in the range."""
    needles = [n for n in needles if n]
    timed = since_ms is not None or until_ms is not None
    kept: list[str] = []
    dropped = 0
    in_range = False
    for line in lines:
        ms = _stamp_ms(line)
        if ms is not None:
            in_range = timed and (since_ms is None or ms >= since_ms) and (until_ms is None or ms < until_ms + 1000)
        if in_range or any(n in line for n in needles):
            dropped += 1
            continue
        kept.append(line)
    return kept, dropped


def scrub_logs(log_dir: Path, *, everything: bool, needles: Iterable[str] = (), since_ms: float | None = None,
               until_ms: float | None = None) -> int:
    """Rewrite every log file in place (a running daemon appends to the same file): lines
    dropped as scrub_log_lines says, or everything with --all. Returns lines dropped."""
    if not log_dir.is_dir():
        return 0
    dropped = 0
    needles = list(needles)
    for path in sorted(p for p in log_dir.iterdir() if p.is_file() and not p.is_symlink()):
        with open(path, "r+b") as fh:
            raw = fh.read()
            if everything:
                dropped += raw.count(b"\n") + (1 if raw and not raw.endswith(b"\n") else 0)
                fh.seek(0)
                fh.truncate()
                continue
            lines = raw.decode("utf-8", "surrogateescape").splitlines(keepends=True)
            kept, n = scrub_log_lines(lines, needles=needles, since_ms=since_ms, until_ms=until_ms)
            if n:
                fh.seek(0)
                fh.write("".join(kept).encode("utf-8", "surrogateescape"))
                fh.truncate()
                dropped += n
    return dropped


# -- exports ------------------------------------------------------------------------------


def record_export(store: Store, out: Path) -> str:
    """Remember an `export --all` output (its path and id, in the store's state) and mark
    the folder with the same id, so forget can find and rewrite it later."""
    export_id = uuid.uuid4().hex
    marker = {"id": export_id, "written_ms": time.time() * 1000.0}
    (out / EXPORT_MARKER).write_text(json.dumps(marker), encoding="utf-8")
    known = [e for e in store.get_state(EXPORTS_STATE_KEY, []) if e.get("path") != str(out.resolve())]
    known.append({"path": str(out.resolve()), "id": export_id})
    store.set_state(EXPORTS_STATE_KEY, known)
    return export_id


def _still_ours(entry: dict[str, Any]) -> bool:
    try:
        marker = json.loads((Path(entry["path"]) / EXPORT_MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return isinstance(marker, dict) and marker.get("id") == entry.get("id")


def rewrite_exports(store: Store, write: Callable[[Path], object], names: Iterable[str]) -> dict[str, Any]:
    """Write every known export again from the clean store with `write(out)`. What an
    earlier export wrote at the top of `out` (`names`) is removed first; other files stay."""
    names = list(names)
    rewritten: list[str] = []
    unreachable: list[str] = []
    for entry in store.get_state(EXPORTS_STATE_KEY, []):
        if not isinstance(entry, dict) or not _still_ours(entry):
            unreachable.append(str(entry.get("path")) if isinstance(entry, dict) else "")
            continue
        out = Path(entry["path"])
        for name in names:
            target = out / name
            if target.is_dir() and not target.is_symlink():
                shutil.rmtree(target)
            elif target.exists() or target.is_symlink():
                target.unlink()
        write(out)  # records the export again, under a new id
        rewritten.append(str(out))
    if unreachable:
        store.set_state(EXPORTS_STATE_KEY, [e for e in store.get_state(EXPORTS_STATE_KEY, [])
                                            if isinstance(e, dict) and str(e.get("path")) not in unreachable])
    return {"rewritten": rewritten, "unreachable": [u for u in unreachable if u]}


# What `export --all` writes at the top of its folder (export_all.py); plugin files too.
EXPORT_NAMES: list[str] = ["README.txt", "trajectories", "tables", "state.json", "config.toml", EXPORT_MARKER]


def needles_for(paths: Iterable[str], path_glob: str | None) -> list[str]:
    """What a log line naming a forgotten path contains: the path or its file name (names of
    four characters or more), and the glob's own literal last part."""
    out: set[str] = set()
    for p in paths:
        out.add(p)
        name = p.rstrip("/").rsplit("/", 1)[-1]
        if len(name) >= 4:
            out.add(name)
    if path_glob:
        name = path_glob.rstrip("/").rsplit("/", 1)[-1].replace("*", "").replace("?", "")
        if len(name) >= 4:
            out.add(name)
    return sorted(out)
