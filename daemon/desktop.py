"""Hand a folder, file or URL to the desktop: the tray's "Open ..." items and `filegram open`."""

from __future__ import annotations

import os
import subprocess
import sys

from filegram.errors import FileGramError


def open_with_system(target: str) -> None:
    """Open a folder, file or URL with the desktop's handler, without waiting for it."""
    if sys.platform == "win32":  # pragma: no cover
        os.startfile(target)  # type: ignore[attr-defined]
        return
    cmd = ["open", target] if sys.platform == "darwin" else ["xdg-open", target]
    try:
        subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    except OSError as exc:
        raise FileGramError(f"cannot open {target}: {exc.strerror}") from exc
