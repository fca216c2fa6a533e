"""The line diff behind every file_edit, shared by the recorder and the simulator's fast
path so that a recorded edit and a simulated one count lines the same way."""

from __future__ import annotations

import difflib
from dataclasses import dataclass


@dataclass(frozen=True)
class LineDiff:
    added: int
    deleted: int
    modified: int
    unified: str

    @property
    def summary(self) -> str:
        return f"+{self.added} -{self.deleted}"


def line_diff(before: bytes | str, after: bytes | str, old_name: str = "a", new_name: str = "b") -> LineDiff:
    """A real line diff: a replaced line counts once as modified and once each as added and
    deleted (FileGram's convention: lines_added/lines_deleted are what `diff` shows)."""
    a_text = before.decode("utf-8", "replace") if isinstance(before, bytes) else before
    b_text = after.decode("utf-8", "replace") if isinstance(after, bytes) else after
    a = a_text.splitlines(keepends=True)
    b = b_text.splitlines(keepends=True)
    added = deleted = modified = 0
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag == "replace":
            deleted += i2 - i1
            added += j2 - j1
            modified += min(i2 - i1, j2 - j1)
        elif tag == "delete":
            deleted += i2 - i1
        elif tag == "insert":
            added += j2 - j1
    unified = "".join(difflib.unified_diff(a, b, fromfile=f"a/{old_name}", tofile=f"b/{new_name}", n=3))
    return LineDiff(added, deleted, modified, unified)


def shares_lines(before: bytes, after: bytes) -> bool:
    """True when at least one non-blank line of the old text survives in the new one: an
    edit, as opposed to a rewrite of the whole file."""
    old = {ln.strip() for ln in before.decode("utf-8", "replace").splitlines() if ln.strip()}
    if not old:
        return True
    return any(ln.strip() in old for ln in after.decode("utf-8", "replace").splitlines())
