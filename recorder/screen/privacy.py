"""What of a screen may be kept: exclusion rules for windows, redaction for extracted text.

Exclusion is decided from the window list alone, before a pixel is read: an excluded
window leaves nothing behind, not even its title. Redaction covers what the core redactor
(filegram.privacy: keys, tokens, card numbers) leaves to the screen, because screens show
far more personal data than files do: e-mail addresses, phone numbers, IBANs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from filegram.privacy import redact

from .window import Window

_PERSONAL: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("EMAIL", re.compile(r"\b[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}\b")),
    ("IBAN", re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?\b")),
    # +country, or (area) groups, at least 9 digits in total: not years, sizes or times
    ("PHONE", re.compile(r"(?<![\w.])(?:\+\d{1,3}[ .\-]?)?(?:\(\d{2,4}\)[ .\-]?)?\d{2,4}(?:[ .\-]\d{2,4}){2,4}(?![\w.])")),
)


def _phone(candidate: str) -> bool:
    digits = sum(c.isdigit() for c in candidate)
    return 9 <= digits <= 15 and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", candidate.strip())


def redact_screen_text(text: str) -> str:
    """Secrets (core rules) and personal data replaced by [REDACTED:KIND]."""
    if not text:
        return text
    text = redact(text)
    for kind, pattern in _PERSONAL:
        if kind == "PHONE":
            text = pattern.sub(lambda m: "[REDACTED:PHONE]" if _phone(m.group(0)) else m.group(0), text)
        else:
            text = pattern.sub(f"[REDACTED:{kind}]", text)
    return text


class Exclusions:
    """Case-insensitive substrings matched against a window's title, app and WM_CLASS."""

    def __init__(self, patterns: Iterable[str]):
        self.patterns: tuple[str, ...] = tuple(p.lower() for p in patterns if p and p.strip())

    def excluded(self, win: Window | None) -> bool:
        if win is None:
            return False
        hay = " \x00 ".join([win.title, win.app, *win.wm_class]).lower()
        return any(p in hay for p in self.patterns)

    def excluded_on(self, windows: Sequence[Window], monitor: dict[str, int]) -> bool:
        return any(self.excluded(w) and w.intersects(monitor) for w in windows)

    def drop_lines(self, text: str) -> str:
        """OCR lines naming an excluded thing (a taskbar entry "KeePassXC - vault") go."""
        if not text or not self.patterns:
            return text
        return "\n".join(ln for ln in text.splitlines() if not any(p in ln.lower() for p in self.patterns))
