"""The red teams' corpora stay caught (the first two; a third is kept unseen, see
docs/privacy.md): documents with secrets written by people who never saw the redactor, and
our own corpora for the third and fourth teams' classes (round3_own, round4_own, written before
the detectors for them; tests/redteam/*.md say how each was made and marked). Each secret is an exact substring
that must not survive redaction; look-alikes must stay untouched. Each corpus was used to close
gaps by format class, so these are regression guards, not measures of what an unseen corpus
would show (docs/privacy.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from filegram.redact import redact

CORPORA = Path(__file__).resolve().parents[1] / "redteam"  # not in fixtures/: that folder is imported as trajectories
_PLACEHOLDER = re.compile(r"\[REDACTED:\w+\]")

# corpus -> (secrets allowed to stay, look-alikes allowed to be touched), with the reason
ALLOWED = {
    "round1": (1, 0),  # a Twilio Account SID (AC...), an identifier: docs/privacy.md
    "round2": (6, 0),  # six left by decision or for want of a label: docs/privacy.md
    "round3_own": (0, 0),  # written for the third red team's classes without seeing its corpus (round3_own.md)
    # written for the fourth red team's open classes (round4_own.md); three left: a second code
    # in a chat without a word for it, a code after "4 numeri... no 6:", a "numéro de contrat"
    "round4_own": (3, 0),
}


def _score(name: str) -> tuple[list[str], list[str], list[str]]:
    missed, partial, touched = [], [], []
    for line in (CORPORA / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        out = redact(item["text"])
        if not item["secrets"]:
            if "[REDACTED" in out:
                touched.append(item["id"])
            continue
        bare = _PLACEHOLDER.sub(" ", out)
        rest = item["text"]
        for s in item["secrets"]:
            rest = rest.replace(s, " ")
        for s in item["secrets"]:
            if s in out:
                missed.append(f"{item['id']}: {s[:40]!r}")
            elif len(s) >= 10 and any(s[i:i + 6] in bare and s[i:i + 6] not in rest for i in range(len(s) - 5)):
                partial.append(f"{item['id']}: {s[:40]!r}")
    return missed, partial, touched


@pytest.mark.parametrize("name", sorted(ALLOWED))
def test_a_red_teams_corpus_stays_caught(name: str) -> None:
    missed, partial, touched = _score(name)
    allowed_missed, allowed_touched = ALLOWED[name]
    assert len(missed) <= allowed_missed, missed
    assert not partial, partial
    assert len(touched) <= allowed_touched, touched
