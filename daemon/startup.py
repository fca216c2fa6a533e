"""What `filegram start` prepares before a Daemon exists: the folders to record, checked, and
the daemon's log files."""

from __future__ import annotations

import contextlib
import logging
import logging.handlers
import os
import sys
from pathlib import Path

from filegram.config import Home, check_root
from filegram.errors import FileGramError

_CONFIGURED_FLAG = "_filegram_daemon_logging"


class PrivateRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """A rotating log that is 0600 from its first byte, whatever the umask (logs name your
    files and folders)."""

    def _open(self):  # type: ignore[no-untyped-def]
        fd = os.open(self.baseFilename, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with contextlib.suppress(OSError):
            os.fchmod(fd, 0o600)
        return os.fdopen(fd, "a", encoding=self.encoding, errors=self.errors)


def open_private_log(path: Path) -> int:
    """A log file (daemon.out) opened for appending, 0600: a descriptor for a child's output."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    with contextlib.suppress(OSError):
        os.fchmod(fd, 0o600)
    return fd


def setup_logging(home: Home, *, to_stderr: bool) -> None:
    """A rotating log in the home (1 MB x 3) and, in the foreground, stderr too."""
    logger = logging.getLogger("filegram")
    if getattr(logger, _CONFIGURED_FLAG, False):
        return
    home.ensure()  # the logs folder is 0700 like the home
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    fh = PrivateRotatingFileHandler(
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
        p = check_root(r)
        if p == home.root or home.is_inside(p):
            raise FileGramError(f"root {p} is inside the FileGram home; choose your own folders")
        out.append(p)
    return out
