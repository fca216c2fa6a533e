"""What never reaches the database: denied paths (not even their names) and secrets in text.

The deny list is checked by every producer (recorder, importer, screen) before anything is
queued, and redaction runs on every text that is stored (snapshots, diffs, OCR text).
"""

from __future__ import annotations

import fnmatch
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import PurePosixPath

from . import redact as _redact

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


def nfc(text: str) -> str:
    """One Unicode form for a path or a pattern: macOS and some sync clients write accents
    decomposed (NFD: "U" + combining diaeresis), other programs and people composed (NFC:
    "Ü"). Paths are compared and stored composed."""
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def matches_any(path: str, patterns: Iterable[str]) -> bool:
    """True if any glob matches a component of path (no '/'), or a run of components.
    Accents match however they are encoded (a macOS path's decomposed "Ü" against a
    pattern typed composed): a denied name must not slip through in another Unicode form."""
    parts = _components(nfc(path))
    for pat in map(nfc, patterns):
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


# -- redaction: the core's one layer (filegram.redact), under the names producers import --

redact = _redact.redact
redact_bytes = _redact.redact_bytes
redact_path = _redact.redact_path
redact_query = _redact.redact_query
