"""Authenticated encryption of what leaves the device: AES-256-GCM from `cryptography`
(the optional extra `filegram[sync]`, imported only when a sync runs).

A segment file is a 32-byte header in the clear (magic, key id, generation base, nonce) and
the sealed payload. The header, the writing device's id and the segment's number are bound
to the ciphertext as associated data, so a file cannot be moved to another device's folder
or position, and its header cannot be altered, without failing to open.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from typing import Any

from .errors import DamagedFileError, SyncError, WrongKeyError
from .keys import KEY_ID_BYTES, key_id

MAGIC = b"FGS1"
NONCE_BYTES = 12
HEADER = struct.Struct(f">4s{KEY_ID_BYTES}sQ{NONCE_BYTES}s")
EXTRA = "sync"


def aesgcm(key: bytes) -> Any:
    """cryptography's AESGCM for `key`, or a one-line error naming the extra to install."""
    try:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    except ImportError:
        raise SyncError(f"sync needs the 'cryptography' package: pip install 'filegram[{EXTRA}]'") from None
    return AESGCM(key)


def invalid_tag() -> type[Exception]:
    from cryptography.exceptions import InvalidTag

    return InvalidTag


@dataclass(frozen=True)
class Header:
    key_id: bytes
    base: int  # the first segment number of the log generation this file belongs to
    nonce: bytes

    def pack(self) -> bytes:
        return HEADER.pack(MAGIC, self.key_id, self.base, self.nonce)


def read_header(data: bytes) -> Header | None:
    """The header of a segment file, or None when the file is too short or not a segment."""
    if len(data) < HEADER.size:
        return None
    magic, kid, base, nonce = HEADER.unpack_from(data)
    if magic != MAGIC:
        return None
    return Header(kid, base, nonce)


def _aad(header: bytes, device_id: str, number: int) -> bytes:
    return b"%s|%s|%d" % (header, device_id.encode("ascii"), number)


def seal_segment(key: bytes, payload: bytes, *, device_id: str, number: int, base: int) -> bytes:
    header = Header(key_id(key), base, os.urandom(NONCE_BYTES)).pack()
    return header + aesgcm(key).encrypt(header[-NONCE_BYTES:], payload, _aad(header, device_id, number))


def open_segment(key: bytes, data: bytes, *, device_id: str, number: int, where: str) -> tuple[Header, bytes]:
    """(header, payload) of a sealed segment. WrongKeyError when it was sealed with another
    key; DamagedFileError when it is short, not a segment, or fails authentication."""
    header = read_header(data)
    if header is None:
        raise DamagedFileError(f"{where}: incomplete or not a FileGram sync file")
    if header.key_id != key_id(key):
        raise WrongKeyError(
            f"{where} was sealed with another sync key than this device's: run `filegram sync key import KEY` "
            "with the last line of `filegram sync key show` from a device that syncs"
        )
    raw = data[: HEADER.size]
    try:
        payload = aesgcm(key).decrypt(header.nonce, data[HEADER.size :], _aad(raw, device_id, number))
    except invalid_tag():
        raise DamagedFileError(f"{where}: incomplete or damaged (a sync client still copying it?)") from None
    return header, payload


def seal_small(key: bytes, data: bytes, context: bytes) -> bytes:
    """A small value kept in the local database sealed (a tombstone's scope names what the user
    forgot): nonce + ciphertext, bound to `context`."""
    nonce = os.urandom(NONCE_BYTES)
    return nonce + aesgcm(key).encrypt(nonce, data, context)


def open_small(key: bytes, sealed: bytes, context: bytes) -> bytes | None:
    """The value sealed by seal_small, or None when it does not open under `key`."""
    try:
        return aesgcm(key).decrypt(sealed[:NONCE_BYTES], sealed[NONCE_BYTES:], context)
    except invalid_tag():
        return None
