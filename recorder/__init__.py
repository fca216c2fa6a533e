"""FileGram's recorder: real file-system activity becomes the 12 FileGram atomic actions.

Public surface: `Recorder` (start / flush / stop / stats / session_id), `record()` for the
foreground command, `unavailable_types()` for the platform report and `demo_workflow()`
(a short scripted workflow with real programs, for `make demo`). The screen recorder is
the subpackage `filegram.recorder.screen`, with its own surface. See docs/recorder.md for
the modules and their jobs.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Recorder", "RecorderError", "record", "unavailable_types", "demo_workflow"]


def __getattr__(name: str) -> Any:  # lazy: `filegram --help` must not import watchdog
    if name in ("Recorder", "RecorderError", "record"):
        from . import recorder

        return getattr(recorder, name)
    if name == "unavailable_types":
        from .platforms import unavailable_types

        return unavailable_types
    if name == "demo_workflow":
        from .demo import demo_workflow

        return demo_workflow
    raise AttributeError(name)
