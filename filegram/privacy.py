"""What never reaches the database: denied paths (not even their names) and secrets in text.

The deny list is checked by every producer (recorder, importer, screen) before anything is
queued, and redaction runs on every text that is stored (snapshots, diffs, OCR text).
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Sequence
from pathlib import PurePosixPath

# Matched against every path component sequence: a pattern without "/" matches any single
# component (file or folder name), one with "/" matches a run of components.
DEFAULT_DENY: tuple[str, ...] = (
    ".ssh",
    ".gnupg",
    ".gpg",
    "*.gpg",
    "*.asc",
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "id_rsa*",
    "id_dsa*",
    "id_ecdsa*",
    "id_ed25519*",
    ".env",
    ".env.*",
    "*.env",
    ".netrc",
    ".pgpass",
    ".npmrc",
    ".pypirc",
    ".git-credentials",
    "credentials",
    "credentials.json",
    "keyrings",
    ".password-store",
    "*.kdbx",
    "*.kdb",
    "*.keychain",
    "*.keychain-db",
    "*.agilekeychain",
    "*.opvault",
    "*.1pif",
    ".mozilla",
    ".thunderbird",
    "google-chrome",
    "chromium",
    "BraveSoftware",
    "Chrome",
    "Firefox",
    ".aws",
    ".kube",
    ".docker",
)

# Noise that is not the user's work: stored as nothing, but not secret either.
DEFAULT_IGNORE: tuple[str, ...] = (
    ".git",
    ".hg",
    ".svn",
    ".bzr",
    "__pycache__",
    "*.pyc",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".cache",
    ".venv",
    "venv",
    ".tox",
    "node_modules",
    ".DS_Store",
    "Thumbs.db",
    ".Trash*",
    ".idea",
    ".vscode",
)


def _components(path: str) -> list[str]:
    return [p for p in PurePosixPath(path.replace("\\", "/")).parts if p not in ("/", "")]


def matches_any(path: str, patterns: Iterable[str]) -> bool:
    """True if any glob matches a component of path (no '/'), or a run of components."""
    parts = _components(path)
    for pat in patterns:
        if "/" in pat.strip("/"):
            pat_parts = _components(pat)
            n = len(pat_parts)
            for i in range(len(parts) - n + 1):
                if all(fnmatch.fnmatchcase(parts[i + j], pat_parts[j]) for j in range(n)):
                    return True
        else:
            pat = pat.strip("/")
            if any(fnmatch.fnmatchcase(part, pat) for part in parts):
                return True
    return False


class PathFilter:
    """Decides, for a path, whether it is denied (secret), ignored (noise) or kept."""

    def __init__(self, deny: Sequence[str] = (), ignore: Sequence[str] = ()):
        self.deny = tuple(DEFAULT_DENY) + tuple(deny)
        self.ignore = tuple(DEFAULT_IGNORE) + tuple(ignore)

    @classmethod
    def from_config(cls, cfg: object) -> PathFilter:
        rec = cfg["recorder"]  # type: ignore[index]
        return cls(deny=rec["exclude"], ignore=rec["ignore"])

    def denied(self, path: str) -> bool:
        return matches_any(path, self.deny)

    def ignored(self, path: str) -> bool:
        return matches_any(path, self.ignore)

    def allowed(self, path: str) -> bool:
        return not self.denied(path) and not self.ignored(path)


# -- redaction ---------------------------------------------------------------------------

_REDACTIONS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "PRIVATE_KEY",
        re.compile(
            r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
            re.S,
        ),
    ),
    ("AWS_KEY", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("GITHUB_TOKEN", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})\b")),
    ("API_KEY", re.compile(r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_\-]{20,}\b")),
    ("SLACK_TOKEN", re.compile(r"\bxox[baprs]-[A-Za-z0-9-]{10,}\b")),
    ("GOOGLE_KEY", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}\b")),
    ("JWT", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b")),
    (
        "SECRET",
        re.compile(
            r"(?i)\b([A-Z0-9_]*(?:PASSWORD|PASSWD|SECRET|TOKEN|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY)[A-Z0-9_]*)"
            r"(\s*[:=]\s*)(['\"]?)([^\s'\"]{4,})\3"
        ),
    ),
    ("CARD", re.compile(r"\b(?:\d[ -]?){13,16}\b")),
)


def redact(text: str) -> str:
    """Replace secrets with [REDACTED:KIND]; the rest of the text is kept as it was."""
    for kind, pattern in _REDACTIONS:
        if kind == "SECRET":
            text = pattern.sub(lambda m: f"{m.group(1)}{m.group(2)}[REDACTED:SECRET]", text)
        elif kind == "CARD":
            text = pattern.sub(lambda m: _card(m.group(0)), text)
        else:
            text = pattern.sub(f"[REDACTED:{kind}]", text)
    return text


def _card(candidate: str) -> str:
    digits = [int(c) for c in candidate if c.isdigit()]
    if not 13 <= len(digits) <= 16:
        return candidate
    total = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return "[REDACTED:CARD]" if total % 10 == 0 else candidate


def redact_bytes(content: bytes) -> bytes:
    """Redact UTF-8 text content; binary content is returned unchanged (it is never stored
    as text)."""
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        return content
    red = redact(text)
    return content if red == text else red.encode("utf-8")
