"""The screen recorder: a few cheap, private captures a minute, linked to the file trace.

Modules, one job each:
  capture   ScreenRecorder: one capture attempt per tick, in the privacy order
  window    which windows are on screen, which is active, is the user there (X11, Win32)
  privacy   exclusion rules for windows, redaction for screen text
  image     grabbing, change detection, compression
  budget    the daily disk budget, paced over the hours the user is there
  trace     a look at a watched file becomes a file_read / file_browse action
  actions   which watched file or folder a window title names
  store     the frames, their text index and day counters in the FileGram store
  ocr       text from frames (optional extra), in a background thread
  settings  the [screen] section and the on/off switch kept in the store
  cli       `filegram search` and `filegram screen ...`
  perf      benchmarks (`python -m filegram.recorder.screen.perf`)

Public surface (resolved lazily: `filegram --help` must not import Pillow, numpy or mss):
`ScreenRecorder` (alias `ScreenCapture`), `RESULTS`, `is_enabled`, `set_enabled`,
`frames_for_session`, `screen_text_for_session`, `search_frames`, `redact_screen_text`.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "ScreenRecorder": "capture",
    "ScreenCapture": "capture",
    "RESULTS": "capture",
    "is_enabled": "settings",
    "set_enabled": "settings",
    "frames_for_session": "store",
    "screen_text_for_session": "store",
    "search_frames": "store",
    "redact_screen_text": "privacy",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
