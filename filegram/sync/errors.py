"""What can go wrong in a sync, each a one-line message for the user."""

from __future__ import annotations

from ..errors import FileGramError


class SyncError(FileGramError):
    """A sync that cannot run (no folder, no key, another sync running)."""


class WrongKeyError(SyncError):
    """Another device's log is sealed with a key other than this device's."""


class DamagedFileError(Exception):
    """A file in the shared folder that does not open (truncated, half-copied, corrupted): it is
    skipped with a warning and read again on the next sync. Not a FileGramError: the sync goes on."""
