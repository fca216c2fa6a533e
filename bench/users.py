"""A users folder: any set of people's trajectories with their stated truth is a benchmark.

Layout (the one of the shared users-dev set)::

    DIR/truth.json        {user: {"tiers": {"A": "L", ...}, "perturbed": {session: {dim: [from, to]}}}}
    DIR/<user>/<session>/ FileGram trajectory folders (events.json, summary.json, media/ ...)

Only users named in truth.json are evaluated; their sessions are the trajectory folders in
their own folder, in name order. A user's tiers may leave dimensions out (nobody can vouch
for everything); "perturbed" may be empty. Everything is checked before any work starts, and
a bad folder is one clear line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from filegram.errors import FileGramError
from filegram.vocab import DIM_IDS, TIERS

TRUTH_FILE = "truth.json"


@dataclass
class UsersData:
    """Who the users are (truth.json) and where their sessions are."""

    root: Path
    tiers: dict[str, dict[str, str]]
    # user -> session folder name -> dimension -> (from, to)
    perturbed: dict[str, dict[str, dict[str, tuple[str, str]]]] = field(default_factory=dict)
    sessions: dict[str, list[Path]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.root.name

    def count(self) -> int:
        return sum(len(v) for v in self.sessions.values())


def _tier(value: object, where: str) -> str:
    if not isinstance(value, str) or value.strip().upper() not in TIERS:
        raise FileGramError(f"{where}: a tier must be \"L\", \"M\" or \"R\", got {value!r}")
    return value.strip().upper()


def _dim(value: object, where: str) -> str:
    if not isinstance(value, str) or value.strip().upper() not in DIM_IDS:
        raise FileGramError(f"{where}: unknown dimension {value!r} (use A-F)")
    return value.strip().upper()


def load_users(root: str | Path) -> UsersData:
    """Read and check a users folder (see the module docstring)."""
    root = Path(root)
    if not root.is_dir():
        raise FileGramError(f"{root}: no such users folder")
    path = root / TRUTH_FILE
    if not path.is_file():
        raise FileGramError(f"{root}: a users folder needs {TRUTH_FILE} ({{user: {{\"tiers\": {{...}}, \"perturbed\": {{...}}}}}})")
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FileGramError(f"{path}: cannot read JSON: {exc}") from exc
    if not isinstance(raw, dict) or not raw:
        raise FileGramError(f"{path}: must map each user to {{\"tiers\": ..., \"perturbed\": ...}}")
    data = UsersData(root, {})
    for user, entry in raw.items():
        where = f"{path}: {user}"
        if not isinstance(entry, dict) or not isinstance(entry.get("tiers"), dict) or not entry["tiers"]:
            raise FileGramError(f"{where}: needs \"tiers\", e.g. {{\"A\": \"M\", ...}}")
        data.tiers[user] = {_dim(d, where): _tier(t, f"{where}: {d}") for d, t in entry["tiers"].items()}
        folder = root / user
        if not folder.is_dir():
            raise FileGramError(f"{where}: no folder {folder}")
        sessions = sorted(p for p in folder.iterdir() if p.is_dir() and (p / "events.json").is_file())
        if not sessions:
            raise FileGramError(f"{where}: {folder} holds no trajectory folder (with events.json)")
        data.sessions[user] = sessions
        names = {p.name for p in sessions}
        pert = entry.get("perturbed") or {}
        if not isinstance(pert, dict):
            raise FileGramError(f"{where}: \"perturbed\" must map sessions to {{dim: [from, to]}}")
        shifts: dict[str, dict[str, tuple[str, str]]] = {}
        for session, dims in pert.items():
            if session not in names:
                raise FileGramError(f"{where}: perturbed session {session!r} is not a trajectory folder of {folder}")
            if not isinstance(dims, dict) or not dims:
                raise FileGramError(f"{where}: {session}: needs {{dim: [from, to]}}")
            shifts[session] = {}
            for d, change in dims.items():
                if not isinstance(change, list | tuple) or len(change) != 2:
                    raise FileGramError(f"{where}: {session}: {d} must be [from, to]")
                shifts[session][_dim(d, f"{where}: {session}")] = (_tier(change[0], f"{where}: {session}: {d}"),
                                                                     _tier(change[1], f"{where}: {session}: {d}"))
        data.perturbed[user] = shifts
    return data


def session_label(user: str, folder: Path) -> str:
    """A session's short name within its user: the folder name without a `<user>_` prefix."""
    name = folder.name
    return name[len(user) + 1:] if name.startswith(f"{user}_") and len(name) > len(user) + 1 else name


def find_default_users(start: Path | None = None) -> Path | None:
    """The shared development users (`shared/datasets/users-dev`) next to the checkout or in
    any folder above it, or the folder named by FILEGRAM_USERS_DEV; None when absent."""
    import os

    env = os.environ.get("FILEGRAM_USERS_DEV")
    if env:
        p = Path(env)
        return p if (p / TRUTH_FILE).is_file() else None
    here = (start or Path(__file__)).resolve()
    for parent in here.parents:
        cand = parent / "shared" / "datasets" / "users-dev"
        if (cand / TRUTH_FILE).is_file():
            return cand
    return None
