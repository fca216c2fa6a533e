"""`filegram export --all`: everything the user owns, in open formats, readable without FileGram.

Sessions go out as FileGram trajectories; every other table (memory channels, screen frames,
marks) as JSON Lines with binary columns written as files next to it, so a new table added by
any package is exported without this module knowing about it. The table registry
(filegram.tables) says which tables are only indexes (not exported) and which packages add
files of their own (memory's profile.json).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from .config import Config
from .scrub import EXPORT_NAMES, record_export
from .store import Store
from .tables import export_files, table_rules
from .trajectory import export_sessions

README = """FileGram export
===============
trajectories/   every session as a FileGram trajectory folder (events.json, summary.json,
                perturbation.json, media/blobs, media/diffs, media/manifest.json)
tables/         every other table as JSON Lines (one row per line); binary columns are files in
                tables/<table>/ and the row holds their file name
profile.json    the learned profile (tiers, confidence, evidence, anomalies), when memory exists
state.json      small settings and state (schema versions, toggles)
config.toml     your configuration
.filegram-export  marks this folder as written by FileGram: `filegram forget` rewrites it
                without what was forgotten while it stays here (a moved copy is out of reach)
"""


def _image_ext(data: bytes) -> str:
    if data[:3] == b"\xff\xd8\xff":
        return ".jpg"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return ".png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return ".webp"
    return ".bin"


def exported_tables(store: Store) -> list[str]:
    """The ordinary tables to write as JSON Lines: not the trace (written as trajectories and
    state.json), not full-text indexes and their shadow tables, not what a rule keeps out.
    A table no package registered is exported too: the user owns it all the same."""
    rules = table_rules()
    out = []
    for name, kind in store.tables().items():
        rule = rules.get(name)
        if kind != "table" or (rule is not None and (rule.forget == "core" or not rule.exported)):
            continue
        out.append(name)
    return sorted(out)


def export_everything(store: Store, out: str | Path, *, config_path: Path | None = None, config: Config | None = None,
                      record: bool = True) -> dict[str, Any]:
    """Write everything; with `record`, the home remembers the folder (filegram.scrub) so
    that a later forget rewrites it without what was forgotten."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "README.txt").write_text(README, encoding="utf-8")
    trajectories = export_sessions(store, out / "trajectories")
    summary: dict[str, Any] = {"trajectories": len(trajectories), "tables": {}}
    tables_dir = out / "tables"
    tables_dir.mkdir(exist_ok=True)
    for table in exported_tables(store):
        cur = store.conn.execute(f'SELECT rowid AS _rowid, * FROM "{table}"') if _has_rowid(store, table) else store.conn.execute(f'SELECT * FROM "{table}"')
        cols = [d[0] for d in cur.description]
        n = 0
        with (tables_dir / f"{table}.jsonl").open("w", encoding="utf-8") as fh:
            for i, row in enumerate(cur):
                rec: dict[str, Any] = {}
                for col, value in zip(cols, row, strict=True):
                    if isinstance(value, bytes):
                        folder = tables_dir / table
                        folder.mkdir(exist_ok=True)
                        name = f"{row[0] if cols[0] == '_rowid' else i}_{col}{_image_ext(value)}"
                        (folder / name).write_bytes(value)
                        rec[col] = {"file": f"{table}/{name}"}
                    else:
                        rec[col] = value
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
                n += 1
        summary["tables"][table] = n
    state = {k: json.loads(v) for k, v in store.conn.execute("SELECT key, value FROM state")}
    (out / "state.json").write_text(json.dumps(state, indent=2, ensure_ascii=False), encoding="utf-8")
    if config_path is not None and config_path.exists():
        shutil.copyfile(config_path, out / "config.toml")
    summary["files"] = []
    for name, make in export_files().items():
        (out / name).write_text(json.dumps(make(store, config or Config()), indent=2, ensure_ascii=False), encoding="utf-8")
        summary["files"].append(name)
    summary["profile"] = "profile.json" in summary["files"]
    if record:
        summary["export_id"] = record_export(store, out)  # so forget can rewrite it later
    return summary


def written_names() -> list[str]:
    """What export_everything writes at the top of its folder (forget rewrites these)."""
    return [*EXPORT_NAMES, *export_files()]


def _has_rowid(store: Store, table: str) -> bool:
    sql = store.conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0] or ""
    return "WITHOUT ROWID" not in sql.upper()
