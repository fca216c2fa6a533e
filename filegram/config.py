"""One TOML file configures everything; every setting has a default that works.

The first run writes the defaults with comments, so the file documents itself. Loading
merges the user's values over the defaults and checks each one against its type and its
rule (ranges, whole numbers, choices: the RULES table, the one place), so a typo gives one
clear line naming the key ("config.toml: daemon.api_port must be between 0 and 65535, got
99999") instead of a crash later. `filegram config set` goes through the same check.
"""

from __future__ import annotations

import copy
import importlib.util
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import platformdirs

from .atomic import write_private
from .errors import FileGramError

if TYPE_CHECKING:
    from .store import Store

APP_NAME = "filegram"
HOME_ENV = "FILEGRAM_HOME"
CONFIG_NAME = "config.toml"
DB_NAME = "filegram.db"

# The commented defaults written on first run. Keep in step with DEFAULTS below (a test
# parses this text and compares it with DEFAULTS).
DEFAULT_CONFIG_TEXT = """\
# FileGram configuration. Every setting has a working default; delete a line to get it back.

[recorder]
# Folders to watch (absolute paths). `filegram record --root DIR` and the daemon use these.
roots = []
# A session closes after this many idle minutes, and when recording stops.
idle_gap_minutes = 20.0
# Text snapshots larger than this are hashed, not stored (0: hashes only, no text kept).
snapshot_max_bytes = 1048576
# Extra glob patterns to ignore (matched against paths relative to a root and to names).
ignore = []
# Extra glob patterns of which nothing at all is stored, not even the path.
exclude = []
# How many events a bulk tool operation (tar x, git checkout, rm -rf) may produce per
# second in one folder before it is summarised instead of stored one by one (0: never).
bulk_events_per_second = 200
# Write batches: at most this many actions or this many seconds between commits.
batch_max_actions = 500
batch_max_seconds = 1.0
# Bounded queue between the file-system observer and the store.
queue_max_events = 100000
# Milliseconds a raw event waits for its follow-ups (an editor's temp file, rename and
# delete) before it becomes an action: one save is one action, never create+move+delete.
settle_ms = 400
# Seconds after a search during which opened files are listed in its files_opened_after.
search_followup_seconds = 60.0
# Milliseconds between process-table scans for search tools when the kernel's process
# connector is not available (it needs root or CAP_NET_ADMIN).
process_poll_ms = 20
# Text files up to this total size are snapshotted when recording starts, so the first
# edit of a file already has a "before" to diff against (0: no snapshots at start).
baseline_max_bytes = 67108864
# Programs whose file activity is not the person's own, added to the built-in table
# (tar, unzip, git, pip, npm, make, pytest, indexers ...; see docs/recorder.md):
# "NAME [SUBCOMMAND ...][:KIND]", NAME a glob on the program name, KIND one of archive,
# vcs, package, build, indexer, tool (the default), or shell / reader / editor for
# programs whose actions are the person's. A tool's work is one summary action
# ("authored": false), never per-file actions. Example: ["rsync", "borg extract:archive"].
tool_programs = []

[memory]
# Embedder for the semantic channel: "hashing" (no download), "minilm" (bundled sentence
# model, optional extra) or "litellm" (uses [llm] embedding_model).
embedder = "hashing"
# Token budget for the evidence assembled at query time.
evidence_token_budget = 4000
# Drift: flag a session whose distance exceeds mean + this many standard deviations.
drift_std_threshold = 1.5
# Episodic clusters: a session joins the most similar cluster at or above this cosine.
cluster_threshold = 0.6
# Semantic chunks: characters per chunk and chunks kept per session.
chunk_chars = 800
max_chunks_per_session = 8
# Ask the LLM (when [llm] model is set) to judge drift flags the rules leave "uncertain".
llm_judge = true
# Ask the LLM for a short narrative of each new session's episodes (one call per session;
# off by default: the deterministic descriptions need no model).
llm_episode_narratives = false
# Live memory: the daemon folds the open session in provisionally at most every this many
# minutes (profile, ask, the dashboard and `memory consolidate` fold it on demand).
live_fold_minutes = 3.0

[llm]
# Leave model empty to stay fully offline (deterministic answerer, no network calls).
# Any litellm model name works, e.g. "openai/gpt-4o-mini" or "ollama/llama3".
model = ""
# Base URL of an OpenAI-compatible server (a local one works), empty for the provider's.
api_base = ""
# Name of the environment variable that holds the API key (never the key itself).
api_key_env = ""
embedding_model = ""
timeout_seconds = 30.0
max_retries = 1

[daemon]
# Local API on 127.0.0.1 only; 0 picks a free port (written to daemon.json in the home).
api_port = 0
# Minutes between memory consolidation runs (more than 0; there is no "off").
consolidate_minutes = 5.0
# Days to keep content snapshots of old sessions (0 keeps them forever).
snapshot_retention_days = 90
# Hours between SQLite integrity checks and backups; backups kept (0: check only, no backup).
backup_hours = 24.0
backups_kept = 3
# Warn when the roots saw activity but nothing was stored for this many minutes.
stale_warning_minutes = 10.0
# Show a tray icon when a display is available (the daemon runs headless without one).
tray = true

[screen]
# Screen capture is off until you turn it on (here, or with the tray's toggle, which wins).
enabled = false
# Seconds between capture attempts while you are active.
interval_seconds = 5.0
# No capture after this many seconds without keyboard or mouse input (0: always capture).
idle_after_seconds = 120.0
# Share of a downscaled grey thumbnail that must change for a new frame (a blinking caret
# or a clock changes far less than 0.001).
change_threshold = 0.001
# Force a frame after this many seconds of unchanged screen.
force_after_seconds = 60.0
# Stored frames are downscaled to at most this width (OCR reads the full-size capture).
max_width = 1280
# WebP quality of stored frames (JPEG where Pillow lacks WebP).
quality = 50
# Frames of one day take at most this much; past it the day's oldest frames go first.
daily_budget_mb = 30.0
# The day's budget is paced over this many hours of presence, so a busy morning cannot
# use up the afternoon's room (0: no pacing, only pruning).
budget_active_hours = 8.0
# Frames older than this many days are deleted (0 keeps them until the budget prunes).
retention_days = 30.0
# Windows whose title or application matches any of these (case-insensitive) are never stored.
exclude_titles = ["password", "secret", "private", "incognito", "keepass", "1password", "bitwarden", "lastpass", "keychain"]
# Read text from frames (needs the optional extra: pip install 'filegram[ocr]').
ocr = true
# OCR costs seconds of CPU per full screen: read at most one frame per this many seconds
# (in the background; frames in between are found by their window title; 0: every frame).
ocr_interval_seconds = 120.0
# A window showing a file under a watched root records a file_read marked "source": "screen".
file_actions = true

[privacy]
# Remove API keys, tokens, private keys and similar patterns from stored text.
redact = true

[sync]
# A folder your devices already share (Syncthing, a cloud drive, a network share). When set,
# the daemon syncs sessions through it, encrypted (`filegram sync`); empty: no sync.
dir = ""
# The name this device's sessions carry on the others (empty: the host name).
device = ""
# Minutes between the daemon's syncs.
interval_minutes = 15.0
"""

DEFAULTS: dict[str, dict[str, Any]] = tomllib.loads(DEFAULT_CONFIG_TEXT)


class ConfigError(FileGramError, ValueError):
    """A config file that cannot be used; the message is one line."""


# The kinds a `recorder.tool_programs` entry may name (recorder/programs.py has the table).
TOOL_PROGRAM_KINDS = ("archive", "vcs", "package", "build", "indexer", "tool", "shell", "reader", "editor")


def _check_tool_program(entry: str) -> str | None:
    """Why a recorder.tool_programs entry is wrong, or None."""
    spec, colon, kind = entry.partition(":")
    if not spec.split():
        return "has no program name"
    if colon and kind.strip() not in TOOL_PROGRAM_KINDS:
        return f"has unknown kind '{kind.strip()[:40]}' (known: {', '.join(TOOL_PROGRAM_KINDS)})"
    if any(ch in spec for ch in "/\\"):
        return "must name a program, not a path"
    return None


# Checks beyond the type, per setting: return why a value is wrong, or None.
def _check_value(section: str, key: str, value: object) -> str | None:
    if (section, key) == ("recorder", "tool_programs"):
        for entry in value:  # type: ignore[attr-defined]
            why = _check_tool_program(entry)
            if why:
                return f"entry '{entry[:60]}' {why}"
    return None


@dataclass
class Config:
    """Loaded settings: `cfg["recorder"]["roots"]` or `cfg.get("recorder", "roots")`."""

    data: dict[str, dict[str, Any]] = field(default_factory=lambda: copy.deepcopy(DEFAULTS))
    path: Path | None = None

    def __getitem__(self, section: str) -> dict[str, Any]:
        return self.data[section]

    def get(self, section: str, key: str) -> Any:
        return self.data[section][key]

    @property
    def llm_configured(self) -> bool:
        return bool(self.data["llm"]["model"])

    def require_llm_extra(self, *, embedding: bool = False) -> None:
        """A configured model needs the `llm` extra (litellm is not in the base install): one
        line naming it, rather than a silent fallback the user never asked for."""
        model = self.data["llm"]["embedding_model" if embedding else "model"]
        if model and importlib.util.find_spec("litellm") is None:
            raise FileGramError(missing_llm_message(model, "llm.embedding_model" if embedding else "llm.model"))


def check_root(root: str | Path) -> Path:
    """A folder to record, as an absolute path; one accurate line when it is not one (the
    same in `record`, `start` and `autostart`)."""
    p = Path(root).expanduser()
    if not p.exists():
        raise FileGramError(f"root folder does not exist: {p}")
    if p.is_file():
        raise FileGramError(f"root is a file, not a folder: {p}")
    if not p.is_dir():
        raise FileGramError(f"root is not a folder: {p}")
    return p.resolve()


def missing_llm_message(model: str, setting: str = "llm.model") -> str:
    """The one line for a model asked for without the `llm` extra installed."""
    offline = f" (or run offline: filegram config set {setting} '')" if setting.startswith("llm.") else ""
    return (f"{setting} is set to '{model}' but the model support is not installed: "
            f"pip install 'filegram[llm]'{offline}")


def _type_ok(default: Any, value: Any) -> bool:
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, int | float):
        return isinstance(value, int | float) and not isinstance(value, bool)
    if isinstance(default, str):
        return isinstance(value, str)
    if isinstance(default, list):
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    return type(value) is type(default)


def _kind(default: Any) -> str:
    if isinstance(default, bool):
        return "true or false"
    if isinstance(default, int | float):
        return "a number"
    if isinstance(default, str):
        return "a string"
    if isinstance(default, list):
        return "a list of strings"
    return type(default).__name__


@dataclass(frozen=True)
class Rule:
    """What one setting accepts beyond its type: a range, whole numbers, a list of choices,
    a pattern. `zero` documents what 0 means where 0 is allowed as a special value."""

    lo: float | None = None  # inclusive minimum
    hi: float | None = None  # inclusive maximum
    above: float | None = None  # exclusive minimum (must be > above)
    integer: bool = False
    choices: tuple[str, ...] = ()
    pattern: str | None = None  # a regular expression the whole string must match
    pattern_help: str = ""
    zero: str = ""  # what 0 means, where it is allowed and special (documented)

    def problem(self, value: Any) -> str | None:
        """Why value is refused (the end of a sentence "KEY must ..."), or None."""
        if self.choices:
            return None if value in self.choices else f"be one of {', '.join(repr(c) for c in self.choices)}, got {value!r}"
        if self.pattern is not None:
            return None if re.fullmatch(self.pattern, value) else f"be {self.pattern_help}"
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        if self.integer and not float(value).is_integer():
            return f"be a whole number, got {value}"
        if value != value or value in (float("inf"), float("-inf")):
            return f"be a finite number, got {value}"
        if self.lo is not None and self.hi is not None and not self.lo <= value <= self.hi:
            return f"be between {self.lo:g} and {self.hi:g}, got {value:g}"
        if self.lo is not None and value < self.lo:
            return f"be at least {self.lo:g}, got {value:g}"
        if self.hi is not None and value > self.hi:
            return f"be at most {self.hi:g}, got {value:g}"
        if self.above is not None and value <= self.above:
            return f"be greater than {self.above:g}, got {value:g}"
        return None


# Every setting's rule beyond its type, in one table (`filegram config set` checks the same).
# A number without a rule here may not be negative; a test checks that every number has one.
RULES: dict[str, Rule] = {
    "recorder.idle_gap_minutes": Rule(above=0),
    "recorder.snapshot_max_bytes": Rule(lo=0, integer=True, zero="no text snapshots, hashes only"),
    "recorder.bulk_events_per_second": Rule(lo=0, integer=True, zero="no bulk summaries"),
    "recorder.batch_max_actions": Rule(lo=1, integer=True),
    "recorder.batch_max_seconds": Rule(above=0),
    "recorder.queue_max_events": Rule(lo=1, integer=True),
    "recorder.settle_ms": Rule(lo=0, hi=60_000),
    "recorder.search_followup_seconds": Rule(lo=0, hi=86_400),
    "recorder.process_poll_ms": Rule(above=0, hi=60_000),
    "recorder.baseline_max_bytes": Rule(lo=0, integer=True, zero="no snapshots when recording starts"),
    "memory.embedder": Rule(choices=("hashing", "minilm", "litellm")),
    "memory.evidence_token_budget": Rule(lo=100, integer=True),
    "memory.drift_std_threshold": Rule(above=0),
    "memory.cluster_threshold": Rule(lo=0, hi=1),
    "memory.chunk_chars": Rule(lo=50, integer=True),
    "memory.max_chunks_per_session": Rule(lo=1, integer=True),
    "memory.live_fold_minutes": Rule(lo=0, zero="fold the open session at every consolidation"),
    "llm.api_base": Rule(pattern=r"(https?://\S+)?", pattern_help="empty or an http(s):// URL"),
    "llm.api_key_env": Rule(pattern=r"([A-Za-z_][A-Za-z0-9_]*)?",
                            pattern_help="empty or the NAME of an environment variable (never the key itself)"),
    "llm.timeout_seconds": Rule(above=0),
    "llm.max_retries": Rule(lo=0, hi=10, integer=True),
    "daemon.api_port": Rule(lo=0, hi=65535, integer=True, zero="any free port"),
    "daemon.consolidate_minutes": Rule(above=0),
    "daemon.snapshot_retention_days": Rule(lo=0, zero="keep snapshots forever"),
    "daemon.backup_hours": Rule(above=0),
    "daemon.backups_kept": Rule(lo=0, integer=True, zero="check integrity, keep no backup"),
    "daemon.stale_warning_minutes": Rule(above=0),
    "screen.interval_seconds": Rule(above=0),
    "screen.idle_after_seconds": Rule(lo=0, zero="capture even when idle"),
    "screen.change_threshold": Rule(lo=0, hi=1),
    "screen.force_after_seconds": Rule(above=0),
    "screen.max_width": Rule(lo=64, hi=16_384, integer=True),
    "screen.quality": Rule(lo=1, hi=100, integer=True),
    "screen.daily_budget_mb": Rule(above=0),
    "screen.budget_active_hours": Rule(lo=0, hi=24, zero="no pacing, only pruning"),
    "screen.retention_days": Rule(lo=0, zero="keep frames until the budget prunes them"),
    "screen.ocr_interval_seconds": Rule(lo=0, zero="read every frame"),
    "sync.interval_minutes": Rule(above=0),
}
NON_NEGATIVE = Rule(lo=0)


def check_setting(section: str, key: str, value: Any, name: str = CONFIG_NAME) -> Any:
    """Check one value against its type and its rule; return it (whole numbers as int) or
    raise ConfigError with one line naming the key."""
    default = DEFAULTS[section][key]
    full = f"{section}.{key}"
    if not _type_ok(default, value):
        raise ConfigError(f"{name}: {full} must be {_kind(default)}")
    why = _check_value(section, key, value)
    if why:
        raise ConfigError(f"{name}: {full}: {why}")
    if isinstance(value, list) and any(not v.strip() for v in value):
        raise ConfigError(f"{name}: {full} must not hold an empty string")
    rule = RULES.get(full)
    if rule is None and isinstance(default, int | float) and not isinstance(default, bool):
        rule = NON_NEGATIVE
    problem = rule.problem(value) if rule is not None else None
    if problem is not None:
        raise ConfigError(f"{name}: {full} must {problem}")
    if rule is not None and rule.integer and isinstance(value, float):
        return int(value)
    return value


def parse_config(text: str, name: str = CONFIG_NAME) -> Config:
    """Merge TOML text over the defaults, checking every value."""
    try:
        user = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{name}: not valid TOML: {exc}") from exc
    data = copy.deepcopy(DEFAULTS)
    for section, values in user.items():
        if section not in data:
            raise ConfigError(f"{name}: unknown section [{section}] (known: {', '.join(data)})")
        if not isinstance(values, dict):
            raise ConfigError(f"{name}: '{section}' must be a table")
        for key, value in values.items():
            if key not in data[section]:
                raise ConfigError(f"{name}: unknown setting {section}.{key}")
            data[section][key] = check_setting(section, key, value, name)
    return Config(data=data)


def split_key(key: str) -> tuple[str, str]:
    """'recorder.roots' -> ('recorder', 'roots'), checked against the known settings."""
    section, _, name = key.strip().partition(".")
    if not name or section not in DEFAULTS:
        raise ConfigError(f"unknown setting '{key}': use section.name, e.g. recorder.roots (sections: {', '.join(DEFAULTS)})")
    if name not in DEFAULTS[section]:
        raise ConfigError(f"unknown setting {section}.{name} (known in [{section}]: {', '.join(DEFAULTS[section])})")
    return section, name


def update_config_file(path: Path, changes: Mapping[str, Any]) -> Config:
    """Set settings ({'recorder.exclude': [...]}) in the config file, keeping its comments and
    layout (tomlkit), and only if the result still loads: a bad value is one line and the file
    stays as it was."""
    import tomlkit

    text = path.read_text(encoding="utf-8") if path.exists() else DEFAULT_CONFIG_TEXT
    try:
        doc = tomlkit.parse(text)
    except tomlkit.exceptions.ParseError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from exc
    for key, value in changes.items():
        section, name = split_key(key)
        if section not in doc:
            doc[section] = tomlkit.table()
        doc[section][name] = value  # type: ignore[index]
    new_text = tomlkit.dumps(doc)
    cfg = parse_config(new_text, str(path))  # never write a config that would not load
    path.parent.mkdir(parents=True, exist_ok=True)
    write_private(path, new_text)
    cfg.path = path
    return cfg


def default_home() -> Path:
    env = os.environ.get(HOME_ENV)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


@dataclass
class Home:
    """The folder that holds config, database, logs and runtime files (0700)."""

    root: Path

    @classmethod
    def resolve(cls, home: str | Path | None = None) -> Home:
        return cls(Path(home).expanduser().resolve() if home else default_home().resolve())

    @property
    def config_path(self) -> Path:
        return self.root / CONFIG_NAME

    @property
    def db_path(self) -> Path:
        return self.root / DB_NAME

    @property
    def log_dir(self) -> Path:
        return self.root / "logs"

    @property
    def run_dir(self) -> Path:
        return self.root / "run"

    @property
    def backup_dir(self) -> Path:
        return self.root / "backups"

    def ensure(self) -> Home:
        for d in (self.root, self.log_dir, self.run_dir):
            d.mkdir(parents=True, exist_ok=True)
            try:
                d.chmod(0o700)
            except OSError:
                pass
        return self

    def load_config(self, *, write_defaults: bool = True) -> Config:
        """Read the config, writing the commented defaults on first run."""
        path = self.config_path
        if not path.exists():
            if write_defaults:
                self.ensure()
                write_private(path, DEFAULT_CONFIG_TEXT)
            cfg = Config(path=path)
            return cfg
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise ConfigError(f"{path}: not UTF-8 text") from exc
        except OSError as exc:
            raise ConfigError(f"{path}: cannot read: {exc.strerror}") from exc
        cfg = parse_config(text, str(path))
        cfg.path = path
        return cfg

    def open_store(self, *, readonly: bool = False) -> Store:
        from .store import Store

        if not readonly:
            self.ensure()
        return Store(self.db_path, readonly=readonly, create=not readonly)

    def is_inside(self, path: str | Path) -> bool:
        """True for FileGram's own files: the recorder must never record itself."""
        try:
            Path(path).resolve().relative_to(self.root)
            return True
        except ValueError:
            return False
