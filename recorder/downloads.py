"""Browser downloads: a file the person received, not one they wrote.

A browser saves a download under a partial name and renames it onto its final name when
the last byte has come: Chromium, Chrome, Edge, Brave, Vivaldi and Opera write
`X.crdownload` (first `Unconfirmed 123.crdownload`, renamed to `X.crdownload` once the
name is known), Opera also `X.opdownload`, Firefox `X.part` (after an empty placeholder
`X`), Safari a bundle folder `X.download` holding the file. The partial file itself is
never recorded (its creation, its growth, a cancelled download's removal); the rename onto
a new file X is one `file_write` create of X with `"authored": false`, `"program_kind":
"download"` and `program` a running browser of the family that writes that partial name,
else null.

`.part` is not only Firefox's: a few programs save through `NAME.part` (KDE's file copies,
`curl -o x.part`, some editors' atomic saves). So a partial renamed over a file that
already existed is a save, as before (an editor's atomic save: the person's edit); and a
new file that arrives through `.part` is a download only when Firefox left its empty
placeholder or a browser that writes `.part` runs; otherwise it is the person's new file.
"""

from __future__ import annotations

import os

# partial suffix -> the browser families that write it (programs.BROWSERS)
PARTIAL_SUFFIXES: dict[str, tuple[str, ...]] = {
    ".crdownload": ("chromium", "opera"),
    ".opdownload": ("opera",),
    ".part": ("firefox",),
    ".download": ("safari",),
}
AMBIGUOUS = frozenset({".part"})  # also written by other programs than browsers


def _split(name: str) -> tuple[str, str] | None:
    for suffix in PARTIAL_SUFFIXES:
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)], suffix
    return None


def partial(path: str) -> str | None:
    """The partial-download suffix of a path (its own name, or a Safari bundle above it),
    or None."""
    hit = _split(os.path.basename(path))
    if hit is not None:
        return hit[1]
    parent = os.path.basename(os.path.dirname(path))
    return ".download" if parent.endswith(".download") and len(parent) > len(".download") else None


def final_path(src: str) -> tuple[str, str] | None:
    """(where the finished download goes, the partial suffix) for a partial file: X.crdownload
    -> X; a Safari bundle's file X.download/X -> X beside the bundle."""
    hit = _split(os.path.basename(src))
    if hit is not None:
        return os.path.join(os.path.dirname(src), hit[0]), hit[1]
    bundle = os.path.dirname(src)
    inner = _split(os.path.basename(bundle))
    if inner is not None and inner[1] == ".download":
        return os.path.join(os.path.dirname(bundle), inner[0]), ".download"
    return None


def placeholder_of(path: str) -> bool:
    """An empty new file X beside a partial download X.part (Firefox's placeholder)."""
    return any(os.path.lexists(path + suffix) for suffix in PARTIAL_SUFFIXES if suffix != ".download")
