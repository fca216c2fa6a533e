"""Episodes: 2-5 segments of a session, cut where the work changes phase or pauses.

A session reads as a short story (looked around, wrote the report, tidied up). The cuts are
deterministic: a time gap or a change of dominant phase (explore / produce / organise) after
smoothing; too many segments are merged smallest-first, too few are split at the longest gap.
Each episode gets a one-line description built from counts; an LLM narrative is optional.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import sub
from typing import Any

from filegram.schema import primary_path

from .features import phase_of

GAP_MS = 5 * 60 * 1000
MIN_EPISODES, MAX_EPISODES = 2, 5

_VERBS = {
    "file_read": "read",
    "file_browse": "browsed",
    "file_search": "searched",
    "file_write": "wrote",
    "file_edit": "edited",
    "file_rename": "renamed",
    "file_move": "moved",
    "dir_create": "created",
    "file_delete": "deleted",
    "file_copy": "copied",
}


@dataclass
class Episode:
    index: int
    start_ms: float
    end_ms: float
    actions: int
    phase: str
    counts: dict[str, int]
    files: list[str]
    description: str

    def as_dict(self) -> dict[str, Any]:
        # counts and files belong to this episode alone: no deep copy needed
        return {"index": self.index, "start_ms": self.start_ms, "end_ms": self.end_ms, "actions": self.actions,
                "phase": self.phase, "counts": self.counts, "files": self.files, "description": self.description}


_PHASES = ("explore", "organise", "produce")  # alphabetical: ties go to the first


def _smooth(phases: list[str], window: int = 2) -> list[str]:
    """Majority phase in a small window, so one stray read inside writing is no cut."""
    if not phases or phases.count(phases[0]) == len(phases):  # one phase throughout: nothing to smooth
        return list(phases)
    out = []
    for i, own in enumerate(phases):
        win = phases[max(0, i - window) : i + window + 1]
        n_own = win.count(own)
        if n_own == len(win):
            out.append(own)
            continue
        counts = [win.count(p) for p in _PHASES]
        best = max(counts)
        out.append(own if n_own == best else _PHASES[counts.index(best)])
    return out


def segment(evs: list[dict[str, Any]], phases: list[str] | None = None) -> list[tuple[int, int]]:
    """Index ranges [start, end) of the episodes of time-ordered atomic actions (`phases`:
    their phases, when the caller has them)."""
    n = len(evs)
    if n == 0:
        return []
    if n == 1:
        return [(0, 1)]
    ts = [float(e.get("timestamp") or 0.0) for e in evs]
    phases = _smooth(phases if phases is not None else [phase_of(e["event_type"]) for e in evs])
    gaps = sorted(map(sub, ts[1:], ts))
    median_gap = gaps[len(gaps) // 2]
    gap_cut = max(GAP_MS, 10 * median_gap)
    cuts = [0]
    for i in range(1, n):
        if ts[i] - ts[i - 1] > gap_cut or phases[i] != phases[i - 1]:
            cuts.append(i)
    segs = list(zip(cuts, cuts[1:] + [n], strict=True))
    # Merge the smallest segment into its smaller neighbour until at most MAX_EPISODES.
    while len(segs) > MAX_EPISODES:
        k = min(range(len(segs)), key=lambda j: (segs[j][1] - segs[j][0], j))
        if k == 0:
            j = 1
        elif k == len(segs) - 1:
            j = k - 1
        else:
            left, right = segs[k - 1], segs[k + 1]
            j = k - 1 if (left[1] - left[0]) <= (right[1] - right[0]) else k + 1
        a, b = sorted((k, j))
        segs[a : b + 1] = [(segs[a][0], segs[b][1])]
    # Split the longest segment at its largest gap until at least MIN_EPISODES.
    while len(segs) < MIN_EPISODES:
        k = max(range(len(segs)), key=lambda j: (segs[j][1] - segs[j][0], -j))
        s, e = segs[k]
        if e - s < 2:
            break
        split = max(range(s + 1, e), key=lambda i: (ts[i] - ts[i - 1], -abs(i - (s + e) // 2)))
        segs[k : k + 1] = [(s, split), (split, e)]
    return segs


def _short(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def _phrase(etype: str, verb: str, c: int) -> str:
    if etype == "file_search":
        return "searched once" if c == 1 else f"searched {c} times"
    if etype == "file_browse":
        return "browsed a folder" if c == 1 else f"browsed {c} folders"
    if etype == "dir_create":
        return "created a folder" if c == 1 else f"created {c} folders"
    return f"{verb} {c} file" if c == 1 else f"{verb} {c} files"


def describe(evs: list[dict[str, Any]], phases: list[str] | None = None) -> tuple[str, dict[str, int], list[str]]:
    """One line for a run of actions, with its action counts and the files it touched.
    Counts and files come from one pass over the actions (episodes are a few actions each:
    the cost is per pass, not per action)."""
    counts: dict[str, int] = {}
    files: list[str] = []
    seen: set[str] = set()
    for e in evs:
        etype = e["event_type"]
        counts[etype] = counts.get(etype, 0) + 1
        p = primary_path(e)
        if p and p not in seen:
            seen.add(p)
            files.append(p)
    if phases is None:
        phases = [phase_of(e["event_type"]) for e in evs]
    parts = [_phrase(etype, verb, counts[etype]) for etype, verb in _VERBS.items() if etype in counts]
    tally = {ph: phases.count(ph) for ph in dict.fromkeys(phases)}  # in order of first occurrence
    phase = max(tally, key=tally.__getitem__)  # the first of the most frequent, as most_common
    where = ", ".join(_short(f) for f in files[:3])
    text = f"{phase}: " + ", ".join(parts) if parts else f"{phase}: switched between files"
    if where:
        text += f" ({where}{', ...' if len(files) > 3 else ''})"
    return text, dict(sorted(counts.items())), files[:10]


def episodes(evs: list[dict[str, Any]]) -> list[Episode]:
    out = []
    phases = [phase_of(e["event_type"]) for e in evs]
    for k, (s, e) in enumerate(segment(evs, phases)):
        part = evs[s:e]
        text, counts, files = describe(part, phases[s:e])
        phase = text.split(":", 1)[0]
        out.append(
            Episode(
                index=k,
                start_ms=float(part[0].get("timestamp") or 0.0),
                end_ms=float(part[-1].get("timestamp") or 0.0),
                actions=len(part),
                phase=phase,
                counts=counts,
                files=files,
                description=text,
            )
        )
    return out
