"""The recorder's view of the config: one section with the defaults filled in, and where
FileGram's own data folder is (never recorded).

Both the file recorder and the screen recorder read their settings through `section`, so
a config written by an older version (a key missing) still gets today's default.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from filegram.config import DEFAULTS, Config, Home

HomeLike = Home | str | os.PathLike[str]


def section(config: Config, name: str) -> dict[str, Any]:
    """A copy of config[name] over the defaults (changing it changes only the copy)."""
    merged = dict(DEFAULTS.get(name, {}))
    try:
        merged.update(config[name] or {})
    except (KeyError, TypeError):
        pass
    return merged


def home_root(home: HomeLike | None) -> Path | None:
    """FileGram's data folder, resolved: a Home or a plain folder path."""
    if home is None:
        return None
    if isinstance(home, str | os.PathLike):
        return Path(home).expanduser().resolve()
    return Path(home.root).resolve()
