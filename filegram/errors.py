"""The one error family the CLI turns into a single clear line and a non-zero exit."""

from __future__ import annotations

import importlib
from types import ModuleType


class FileGramError(Exception):
    """A problem the user can act on; str(error) is one line."""


class MissingExtraError(FileGramError, ImportError):
    """An optional part needs a package of an extra that is not installed."""


def import_extra(module: str, extra: str, *, what: str | None = None) -> ModuleType:
    """Import a module that comes with an extra, or say in one line which extra to install."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is None or not module.startswith(exc.name):
            raise
        raise MissingExtraError(
            f"{what or module} needs the '{extra}' extra: pip install 'filegram[{extra}]'"
        ) from None
