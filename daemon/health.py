"""Health means data: the state shown to the user comes from rows written, not a live process.

screenpipe's tray said "recording" for days while nothing was written. Here the state is
"warning" as soon as the roots saw activity that did not turn into stored rows for
[daemon].stale_warning_minutes, or the recorder keeps dying, or the database failed its
integrity check. The verdict is a pure function so the tray, the API and `filegram status`
can never disagree.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

RECORDING = "recording"
PAUSED = "paused"
WARNING = "warning"
STARTING = "starting"


@dataclass
class HealthInputs:
    paused: bool
    recorder_running: bool
    recorder_started_ms: float | None
    unstored_since_ms: float | None  # activity a flush probe could not store (supervisor)
    stale_minutes: float
    recorder_restarts_recent: int = 0
    recorder_last_error: str | None = None
    recorder_gave_up: bool = False
    recorder_resource_error: str | None = None  # short of descriptors, memory or space; retrying
    integrity: str | None = None  # "ok" or the failed check's first line
    job_errors: dict[str, str] = field(default_factory=dict)
    now_ms: float = field(default_factory=lambda: time.time() * 1000.0)


def assess(h: HealthInputs) -> tuple[str, list[str]]:
    """Return (state, warnings). Warnings are short sentences a user can act on."""
    warnings: list[str] = []
    if h.integrity not in (None, "ok"):
        warnings.append(f"database integrity check failed: {h.integrity}")
    for job, err in sorted(h.job_errors.items()):
        warnings.append(f"{job} failed: {err}")
    if h.paused:
        return (WARNING if warnings else PAUSED), warnings
    if not h.recorder_running:
        if h.recorder_gave_up:
            warnings.append(f"recorder stopped after repeated failures: {h.recorder_last_error}")
        elif h.recorder_last_error:
            warnings.append(f"recorder is not running ({h.recorder_last_error}); restarting")
        elif h.recorder_started_ms is None:
            return (WARNING if warnings else STARTING), warnings
        else:
            warnings.append("recorder is not running; restarting")
    elif h.recorder_restarts_recent >= 2:
        warnings.append(
            f"recorder restarted {h.recorder_restarts_recent} times recently: {h.recorder_last_error}"
        )
    if h.recorder_resource_error:
        warnings.append(f"the recorder cannot read files: {h.recorder_resource_error}")
    stale = stale_activity(h)
    if stale is not None:
        warnings.append(
            f"files changed {stale:.0f} min ago in the watched folders but nothing was stored since"
        )
    return (WARNING if warnings else RECORDING), warnings


def stale_activity(h: HealthInputs) -> float | None:
    """Minutes that observed activity has waited without reaching the database, or None.

    The supervisor probes with a flush once activity is [daemon].stale_warning_minutes
    old; only activity that a flush could not store counts, so events that rightly
    produce no action (noise, a second close of a file) never raise a false alarm.
    """
    if not h.recorder_running or h.unstored_since_ms is None:
        return None
    return max(0.0, (h.now_ms - h.unstored_since_ms) / 60000.0)


def status_line(state: str, last_stored_ms: float | None, last_memory_ms: float | None,
                now_ms: float | None = None, provisional_actions: int = 0) -> str:
    """One line for the tray menu and tooltip: the state and the age of the data (and how
    much of memory is the still-open session, folded in provisionally)."""
    now = now_ms if now_ms is not None else time.time() * 1000.0
    live = f" (open session provisional: {provisional_actions} actions)" if provisional_actions else ""
    return (
        f"{state} - last stored {ago(last_stored_ms, now)}, "
        f"memory updated {ago(last_memory_ms, now)}{live}"
    )


def ago(ms: float | None, now_ms: float | None = None) -> str:
    if not ms:
        return "never"
    now = now_ms if now_ms is not None else time.time() * 1000.0
    s = max(0.0, (now - ms) / 1000.0)
    if s < 60:
        return f"{s:.0f} s ago"
    if s < 3600:
        return f"{s / 60:.0f} min ago"
    if s < 86400 * 2:
        return f"{s / 3600:.1f} h ago"
    return f"{s / 86400:.0f} days ago"


def to_json(value: Any) -> Any:
    """Round floats for readable JSON."""
    if isinstance(value, float):
        return round(value, 3)
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    return value
