"""Folder patterns the person uses: "reports/2026-Q3", "reports/2026-Q4" are two uses of
"reports/<year>-Q<quarter>". A suggestion may name a folder that does not exist yet only
by following such a pattern, used at least twice (anything else must exist on disk).
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from dataclasses import dataclass

MIN_USES = 2

# one path segment -> (template with {year}/{quarter}/{month}, display form); separators and
# letter case are kept from the person's own folders
_SEGMENTS = [
    re.compile(r"^(?P<year>(?:19|20)\d{2})(?P<sep>[-_ ]?)(?P<q>[qQ])(?P<quarter>[1-4])$"),
    re.compile(r"^(?P<q>[qQ])(?P<quarter>[1-4])$"),
    re.compile(r"^(?P<year>(?:19|20)\d{2})(?P<sep>[-_])(?P<month>0[1-9]|1[0-2])$"),
    re.compile(r"^(?P<year>(?:19|20)\d{2})$"),
]


def _template(segment: str) -> tuple[str, str] | None:
    for rx in _SEGMENTS:
        m = rx.match(segment)
        if not m:
            continue
        g = m.groupdict()
        tpl, show = "", ""
        if g.get("year"):
            tpl, show = "{year}", "<year>"
        if g.get("quarter"):
            tpl += f"{g.get('sep') or ''}{g['q']}{{quarter}}"
            show += f"{g.get('sep') or ''}{g['q']}<quarter>"
        if g.get("month"):
            tpl += f"{g['sep']}{{month}}"
            show += f"{g['sep']}<month>"
        return tpl, show
    return None


def generalise(folder: str) -> tuple[str, str] | None:
    """(template, display) of a folder with its dated segments generalised, or None."""
    parts = folder.split("/")
    out_t, out_s, changed = [], [], False
    for seg in parts:
        t = _template(seg)
        if t:
            out_t.append(t[0])
            out_s.append(t[1])
            changed = True
        else:
            out_t.append(seg.replace("{", "{{").replace("}", "}}"))
            out_s.append(seg)
    return ("/".join(out_t), "/".join(out_s)) if changed else None


@dataclass(frozen=True)
class FolderPattern:
    template: str  # "reports/{year}-Q{quarter}"
    display: str  # "reports/<year>-Q<quarter>"
    uses: int  # distinct folders of the person's that follow it
    examples: tuple[str, ...]

    def today(self, today: dt.date) -> str:
        return self.template.format(year=today.year, quarter=(today.month - 1) // 3 + 1, month=f"{today.month:02d}")

    def parent(self) -> str:
        """The fixed part before the first dated segment ("reports")."""
        fixed = []
        for seg in self.display.split("/"):
            if "<" in seg:
                break
            fixed.append(seg)
        return "/".join(fixed)


def folder_patterns(folders: list[str]) -> list[FolderPattern]:
    """Patterns followed by at least MIN_USES distinct folders, most used first."""
    seen: dict[tuple[str, str], set[str]] = defaultdict(set)
    for f in folders:
        # a folder and each of its ancestors (reports/2026-Q3/drafts uses reports/<year>-Q<quarter>)
        parts = f.split("/")
        for i in range(1, len(parts) + 1):
            sub = "/".join(parts[:i])
            g = generalise(sub)
            if g and _template(parts[i - 1]):
                seen[g].add(sub)
    out = [FolderPattern(t, s, len(ex), tuple(sorted(ex))) for (t, s), ex in seen.items() if len(ex) >= MIN_USES]
    out.sort(key=lambda p: (-p.uses, p.display))
    return out
