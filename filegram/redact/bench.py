"""`python -m filegram.redact.bench`: recall on the planted corpus, false positives on the
ordinary one, throughput, for FileGram's redaction and (when installed) detect-secrets.

    python -m filegram.redact.bench                 # FileGram's redaction
    python -m filegram.redact.bench --engine all    # and detect-secrets, side by side
    python -m filegram.redact.bench --misses        # which planted secrets survived, which
                                                    # ordinary lines were redacted

A planted secret counts as leaked when any 8-character stretch of it (all of it, when
shorter) is still in the redacted text. Every redaction in the ordinary corpus is a false
positive.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from . import find_secrets, redact
from .corpus import Planted, ordinary_texts, planted_corpus

WINDOW = 8


def leaked(secret: str, text: str) -> bool:
    for line in secret.splitlines() or [secret]:
        line = line.strip()
        if not line or line.startswith("-----"):
            continue
        if len(line) <= WINDOW:
            if line in text:
                return True
            continue
        if any(line[i : i + WINDOW] in text for i in range(len(line) - WINDOW + 1)):
            return True
    return False


@dataclass
class Result:
    engine: str
    planted: int = 0
    caught: int = 0
    ordinary_kb: float = 0.0
    false_positives: int = 0
    mb_per_s: float = 0.0
    misses: list[str] = field(default_factory=list)
    fp_examples: list[str] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.caught / self.planted if self.planted else 0.0

    @property
    def fp_per_100kb(self) -> float:
        return self.false_positives / (self.ordinary_kb / 100) if self.ordinary_kb else 0.0


Redactor = Callable[[str], str]
Finder = Callable[[str], list[tuple[int, int]]]


def evaluate(name: str, redactor: Redactor, finder: Finder, corpus: list[Planted], ordinary: dict[str, str]) -> Result:
    res = Result(name)
    for case in corpus:
        out = redactor(case.text)
        for s in case.secrets:
            res.planted += 1
            if leaked(s, out):
                res.misses.append(f"[{case.format}] {case.text[:90]!r}")
            else:
                res.caught += 1
    total = 0
    for fname, text in ordinary.items():
        total += len(text.encode("utf-8"))
        for start, end in finder(text):
            res.false_positives += 1
            line_start = text.rfind("\n", 0, start) + 1
            line_end = text.find("\n", end)
            res.fp_examples.append(f"{fname}: {text[line_start: line_end if line_end > 0 else None][:120]!r}")
    res.ordinary_kb = total / 1000
    blob = "\n".join(ordinary.values()) + "\n".join(c.text for c in corpus)
    t0 = time.perf_counter()
    rounds = 0
    while True:
        redactor(blob)
        rounds += 1
        elapsed = time.perf_counter() - t0
        if elapsed > 1.0:
            break
    res.mb_per_s = rounds * len(blob.encode("utf-8")) / 1e6 / elapsed
    return res


def filegram_engine() -> tuple[Redactor, Finder]:
    return redact, lambda text: [(s.start, s.end) for s in find_secrets(text)]


def detect_secrets_engine() -> tuple[Redactor, Finder] | None:
    """detect-secrets 1.x with its default plugins and filters, scanning each text as a file
    (its keyword detector picks its regexes by the file's extension; plain .txt here)."""
    try:
        from detect_secrets import SecretsCollection
        from detect_secrets.settings import default_settings
    except ImportError:
        return None
    import os
    import tempfile

    def spans(text: str) -> list[tuple[int, int]]:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "text.txt")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
            found = SecretsCollection()
            with default_settings():
                found.scan_file(path)
            lines = text.split("\n")
            starts = [0]
            for line in lines:
                starts.append(starts[-1] + len(line) + 1)
            out = []
            for _, secret in found:
                value = secret.secret_value or ""
                line = lines[secret.line_number - 1] if 0 < secret.line_number <= len(lines) else ""
                i = line.find(value) if value else -1
                if i >= 0:
                    out.append((starts[secret.line_number - 1] + i, starts[secret.line_number - 1] + i + len(value)))
            return out

    def redactor(text: str) -> str:
        for start, end in sorted(set(spans(text)), reverse=True):
            text = text[:start] + "[REDACTED]" + text[end:]
        return text

    return redactor, spans


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m filegram.redact.bench", description=__doc__.split("\n")[0])
    ap.add_argument("--engine", choices=["filegram", "detect-secrets", "all"], default="filegram")
    ap.add_argument("--misses", action="store_true", help="list the planted secrets that survived and the false positives")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    corpus, ordinary = planted_corpus(), ordinary_texts()
    engines: list[tuple[str, tuple[Redactor, Finder] | None]] = []
    if args.engine in ("filegram", "all"):
        engines.append(("filegram", filegram_engine()))
    if args.engine in ("detect-secrets", "all"):
        engines.append(("detect-secrets", detect_secrets_engine()))
    results = []
    for name, engine in engines:
        if engine is None:
            print(f"{name}: not installed (pip install detect-secrets)", file=sys.stderr)
            continue
        results.append(evaluate(name, *engine, corpus, ordinary))
    if args.json:
        print(json.dumps([asdict(r) | {"recall": r.recall, "fp_per_100kb": r.fp_per_100kb} for r in results], indent=1))
        return 0
    print(f"planted corpus: {len(corpus)} texts; ordinary corpus: {sum(len(t.encode()) for t in ordinary.values()) / 1000:.0f} KB")
    print(f"{'engine':<16}{'recall':>16}{'false positives':>22}{'per 100 KB':>12}{'MB/s':>8}")
    for r in results:
        print(f"{r.engine:<16}{f'{r.caught}/{r.planted} = {r.recall:.3f}':>16}{r.false_positives:>22}{r.fp_per_100kb:>12.2f}{r.mb_per_s:>8.2f}")
        if args.misses:
            for m in r.misses:
                print(f"  missed {m}")
            for fp in r.fp_examples:
                print(f"  false positive {fp}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
