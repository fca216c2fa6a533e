"""The sync key: 32 random bytes in `<home>/sync.key` (0600), made on first use, copied by the
user to their other devices as one line of text (`filegram sync key show` / `key import`).

The key never goes into the shared folder. What does go there is its id (an HMAC of a fixed
label under the key): a reader can then tell "sealed with another key" (a clear error) from
"damaged or half-copied" (skipped, retried) without trying to decrypt.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
from pathlib import Path

from ..atomic import write_private
from ..config import Home
from .errors import SyncError

KEY_FILE = "sync.key"
KEY_BYTES = 32
KEY_PREFIX = "fgsync1-"
KEY_ID_BYTES = 8


def key_path(home: Home) -> Path:
    return home.root / KEY_FILE


def key_text(key: bytes) -> str:
    """The key as the one line a user copies: fgsync1-<url-safe base64, no padding>."""
    return KEY_PREFIX + base64.urlsafe_b64encode(key).decode("ascii").rstrip("=")


def parse_key(text: str) -> bytes:
    """The key from its text, or a one-line error saying what is wrong with what was pasted."""
    t = "".join(text.split())
    if not t.startswith(KEY_PREFIX):
        raise SyncError(f"not a FileGram sync key: it starts with '{KEY_PREFIX}' (copy the last line of "
                        "`filegram sync key show` on a device that syncs)")
    body = t[len(KEY_PREFIX):]
    try:
        key = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError):
        raise SyncError("the sync key is damaged: it holds characters a key never has") from None
    if len(key) != KEY_BYTES:
        raise SyncError(f"the sync key is damaged: it holds {len(key)} bytes, a key has {KEY_BYTES} "
                        "(was it copied whole?)")
    return key


def key_id(key: bytes) -> bytes:
    return hmac.new(key, b"filegram sync key id", hashlib.sha256).digest()[:KEY_ID_BYTES]


def load_key(home: Home) -> bytes | None:
    path = key_path(home)
    if not path.exists():
        return None
    try:
        return parse_key(path.read_text(encoding="ascii"))
    except (OSError, UnicodeDecodeError) as exc:
        raise SyncError(f"cannot read the sync key {path}: {exc}") from exc
    except SyncError as exc:
        raise SyncError(f"{path}: {exc}") from None


def save_key(home: Home, key: bytes) -> None:
    home.ensure()
    write_private(key_path(home), key_text(key) + "\n")


def create_key(home: Home) -> bytes:
    key = secrets.token_bytes(KEY_BYTES)
    save_key(home, key)
    return key
