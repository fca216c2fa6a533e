"""Hand a folder, file or URL to the desktop: the tray's "Open ..." items and `filegram open`."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

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


OPENER_WAIT_S = 3.0


def open_and_report(target: str, wait_s: float = OPENER_WAIT_S) -> tuple[bool, str]:
    """Open `target` with the desktop's handler and say what happened: (True, how) when the
    opener accepted it (or is still starting a browser after `wait_s`), (False, why) when it
    is missing or failed, so `filegram open` never claims a window that did not appear."""
    if sys.platform == "win32":  # pragma: no cover
        try:
            os.startfile(target)  # type: ignore[attr-defined]
        except OSError as exc:
            return False, f"Windows could not open it: {exc.strerror}"
        return True, "Windows opened it"
    opener = "open" if sys.platform == "darwin" else "xdg-open"
    try:
        proc = subprocess.Popen([opener, target], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, start_new_session=True)
    except OSError as exc:
        return False, f"{opener} is not available ({exc.strerror})"
    try:
        _, err = proc.communicate(timeout=wait_s)
    except subprocess.TimeoutExpired:  # a browser started in the foreground of the opener
        threading.Thread(target=proc.communicate, name="opener-reaper", daemon=True).start()
        return True, f"{opener} is starting a browser"
    if proc.returncode != 0:
        last = (err or b"").decode("utf-8", "replace").strip().splitlines()
        why = f": {last[-1][:120]}" if last else ""
        return False, f"{opener} failed (exit code {proc.returncode}{why})"
    return True, f"{opener} accepted it"
