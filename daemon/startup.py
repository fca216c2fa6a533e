"""What `filegram start` prepares before a Daemon exists: the folders to record, checked, and
the daemon's log files."""

from __future__ import annotations

import logging
import logging.handlers
import sys
from pathlib import Path

from filegram.config import Home
from filegram.errors import FileGramError

_CONFIGURED_FLAG = "_filegram_daemon_logging"


def setup_logging(home: Home, *, to_stderr: bool) -> None:
    """A rotating log in the home (1 MB x 3) and, in the foreground, stderr too."""
    logger = logging.getLogger("filegram")
    if getattr(logger, _CONFIGURED_FLAG, False):
        return
    home.log_dir.mkdir(parents=True, exist_ok=True)
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    fh = logging.handlers.RotatingFileHandler(
        home.log_dir / "daemon.log", maxBytes=1_000_000, backupCount=3, encoding="utf-8"
    )
    fh.setFormatter(fmt)
    logger.addHandler(fh)
    if to_stderr:
        sh = logging.StreamHandler(sys.stderr)
        sh.setFormatter(fmt)
        logger.addHandler(sh)
    logger.setLevel(logging.INFO)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)  # one INFO line per job run
    for h in logger.handlers:
        logging.getLogger("apscheduler").addHandler(h)
    setattr(logger, _CONFIGURED_FLAG, True)


def resolve_roots(roots: list[str] | list[Path] | list[str | Path], home: Home) -> list[Path]:
    """The folders to record as absolute paths; a FileGramError for none, a missing one or
    one inside the FileGram home."""
    if not roots:
        raise FileGramError(
            "no folders to record: pass --root DIR or set [recorder] roots in "
            f"{home.config_path}"
        )
    out = []
    for r in roots:
        p = Path(r).expanduser()
        if not p.is_dir():
            raise FileGramError(f"root folder does not exist: {p}")
        p = p.resolve()
        if p == home.root or home.is_inside(p):
            raise FileGramError(f"root {p} is inside the FileGram home; choose your own folders")
        out.append(p)
    return out
