"""Every setting is checked in one place (filegram/config.py: RULES) with one line naming the
key: ranges, whole numbers, choices; `config set` and `start` use the same check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fg_helpers import run_cli

from filegram.config import DEFAULTS, RULES, ConfigError, parse_config

BAD = [
    ("daemon", "api_port", "99999", "daemon.api_port must be between 0 and 65535, got 99999"),
    ("daemon", "api_port", "-1", "daemon.api_port must be between 0 and 65535, got -1"),
    ("daemon", "api_port", "8080.5", "daemon.api_port must be a whole number, got 8080.5"),
    ("daemon", "consolidate_minutes", "0", "daemon.consolidate_minutes must be greater than 0, got 0"),
    ("daemon", "backup_hours", "0", "daemon.backup_hours must be greater than 0, got 0"),
    ("daemon", "stale_warning_minutes", "0", "daemon.stale_warning_minutes must be greater than 0, got 0"),
    ("recorder", "idle_gap_minutes", "0", "recorder.idle_gap_minutes must be greater than 0, got 0"),
    ("recorder", "batch_max_actions", "0", "recorder.batch_max_actions must be at least 1, got 0"),
    ("recorder", "settle_ms", "1e9", "recorder.settle_ms must be between 0 and 60000, got 1e+09"),
    ("memory", "embedder", '"bert"', "memory.embedder must be one of 'hashing', 'minilm', 'litellm', got 'bert'"),
    ("memory", "cluster_threshold", "1.5", "memory.cluster_threshold must be between 0 and 1, got 1.5"),
    ("screen", "quality", "0", "screen.quality must be between 1 and 100, got 0"),
    ("screen", "max_width", "10", "screen.max_width must be between 64 and 16384, got 10"),
    ("llm", "api_base", '"ftp://x"', "llm.api_base must be empty or an http(s):// URL"),
    ("llm", "api_key_env", '"sk-live-123"', "llm.api_key_env must be empty or the NAME of an environment variable"),
    ("llm", "max_retries", "11", "llm.max_retries must be between 0 and 10, got 11"),
    ("recorder", "exclude", '[""]', "recorder.exclude must not hold an empty string"),
]


@pytest.mark.parametrize(("section", "key", "value", "message"), BAD)
def test_a_bad_value_is_one_line_naming_the_key(section: str, key: str, value: str, message: str) -> None:
    with pytest.raises(ConfigError) as err:
        parse_config(f"[{section}]\n{key} = {value}\n")
    assert message in str(err.value) and "\n" not in str(err.value)


def test_every_number_has_a_rule_and_the_defaults_pass() -> None:
    """A new numeric setting must say what it accepts (0 included), in the one table."""
    numbers = {f"{s}.{k}" for s, keys in DEFAULTS.items() for k, v in keys.items()
               if isinstance(v, int | float) and not isinstance(v, bool)}
    assert numbers - set(RULES) == set()
    assert set(RULES) - {f"{s}.{k}" for s, keys in DEFAULTS.items() for k in keys} == set()
    assert parse_config("").data == DEFAULTS


def test_zero_is_allowed_only_where_documented() -> None:
    """0 means something for a few settings (any free port, keep forever, ...), and the
    commented defaults say so; everywhere else 0 is refused, never a job silently off."""
    from filegram.config import DEFAULT_CONFIG_TEXT

    for full, rule in RULES.items():
        section, key = full.split(".")
        if rule.choices or rule.pattern is not None:
            continue
        text = f"[{section}]\n{key} = 0\n"
        if rule.zero:
            assert parse_config(text)[section][key] == 0, full
            block = DEFAULT_CONFIG_TEXT.split(f"\n{key} =")[0].rsplit("\n\n", 1)[-1]
            assert "0" in block, f"{full}: the default config's comment must say what 0 means"
        elif (rule.lo is None or rule.lo > 0) or rule.above is not None:
            with pytest.raises(ConfigError):
                parse_config(text)


def test_config_set_and_start_use_the_same_check(fg_home: Path, tmp_path: Path) -> None:
    p = run_cli("config", "set", "daemon.api_port", "99999", home=fg_home)
    assert p.returncode == 2
    assert p.stderr.strip().splitlines() == [
        f"filegram: error: {fg_home / 'config.toml'}: daemon.api_port must be between 0 and 65535, got 99999"]
    root = tmp_path / "work"
    root.mkdir()
    (fg_home / "config.toml").write_text(f"[recorder]\nroots = [{json.dumps(str(root))}]\n"
                                        "[daemon]\napi_port = 99999\ntray = false\n")
    p = run_cli("start", "--foreground", home=fg_home, timeout=60)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "daemon.api_port must be between 0 and 65535" in lines[0]
    assert "Traceback" not in p.stderr
