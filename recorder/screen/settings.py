"""The screen recorder's settings: the [screen] section, and the on/off switch the tray and
`filegram screen on|off` flip (kept in the store, so the choice survives a restart)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from filegram.config import Config
from filegram.store import Store

from ..settings import section

ENABLED_STATE_KEY = "screen.enabled"
MB = 1024 * 1024


def screen_settings(config: Config) -> dict[str, Any]:
    """A copy of [screen] over the defaults."""
    return section(config, "screen")


def is_enabled(store: Store, config: Config) -> bool:
    """The tray toggle (kept in the store) wins over the config's [screen] enabled."""
    value = store.get_state(ENABLED_STATE_KEY)
    return bool(value) if value is not None else bool(screen_settings(config)["enabled"])


def set_enabled(store: Store, on: bool) -> None:
    store.set_state(ENABLED_STATE_KEY, bool(on))


def daily_budget_bytes(cfg: Mapping[str, Any]) -> int:
    """[screen] daily_budget_mb in bytes: what one local day's frames may take."""
    return int(float(cfg["daily_budget_mb"]) * MB)


def settings_summary(cfg: Mapping[str, Any]) -> str:
    return (
        f"every {cfg['interval_seconds']} s, forced after {cfg['force_after_seconds']} s, "
        f"{cfg['max_width']} px wide, WebP q{cfg['quality']}, {cfg['daily_budget_mb']} MB/day"
    )
