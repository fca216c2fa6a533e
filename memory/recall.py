"""Answers about what happened, from the trace (actions, sessions) and episodes.

Only what the person authored counts: files a tool unpacked, checked out or built are not
"what I worked on" (provenance, docs/recorder.md). Renames and moves are followed forward,
so a file is named as it is called now, and a file whose last action deleted it is marked
"(deleted)". Every answer carries its evidence: the actions with their times, which is also
exactly what a configured model is handed.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from typing import Any

from filegram.schema import primary_path
from filegram.store import Store

from .questions import Question

CANT_TELL = "I can't tell that from what I recorded"
WORK_TYPES = ("file_write", "file_edit", "file_rename", "file_move", "file_copy", "dir_create")
TYPES = {
    "work": WORK_TYPES,
    "edit": ("file_edit", "file_write"),
    "create": ("file_write", "dir_create"),
    "read": ("file_read",),
    "delete": ("file_delete",),
    "rename": ("file_rename",),
    "move": ("file_move",),
    "copy": ("file_copy",),
    "backup": ("file_copy",),
    "search": ("file_search",),
    "browse": ("file_browse",),
    "mkdir": ("dir_create",),
}
VERB_PAST = {"work": "worked on", "edit": "edited", "create": "created", "read": "read", "delete": "deleted",
             "rename": "renamed", "move": "moved", "copy": "copied", "backup": "backed up", "search": "searched",
             "browse": "listed", "mkdir": "made"}
MAX_EVIDENCE = 40


@dataclass
class Recall:
    """An answer from the trace: text for the person, facts for programs and tests."""

    text: str
    evidence: str
    facts: dict[str, Any] = field(default_factory=dict)


def authored(store: Store, q: Question) -> list[dict[str, Any]]:
    """The person's own actions of the question's period, in time order."""
    return [a for a in store.actions(since_ms=q.period.start_ms, until_ms=q.period.end_ms)
            if a.get("authored") is not False]


def _matches(a: dict[str, Any], verb: str) -> bool:
    t = a["event_type"]
    if t not in TYPES[verb]:
        return False
    if verb == "edit" and t == "file_write":
        return a.get("operation") == "overwrite"
    if verb == "create" and t == "file_write":
        return a.get("operation") != "overwrite"
    if verb == "backup":
        return bool(a.get("is_backup"))
    return True


def _renames(actions: Iterable[dict[str, Any]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for a in actions:
        if a["event_type"] in ("file_rename", "file_move") and a.get("old_path") and a.get("new_path"):
            out[a["old_path"]] = a["new_path"]
    return out


def current_name(path: str, renames: dict[str, str]) -> str:
    seen = {path}
    while path in renames and renames[path] not in seen:
        path = renames[path]
        seen.add(path)
    return path


def _deleted(all_actions: list[dict[str, Any]]) -> set[str]:
    """Paths whose last action removed them."""
    last: dict[str, str] = {}
    for a in all_actions:
        p = primary_path(a)
        if p:
            last[p] = a["event_type"]
        if a["event_type"] in ("file_rename", "file_move") and a.get("old_path"):
            last[a["old_path"]] = "moved away"
    return {p for p, t in last.items() if t == "file_delete"}


def _when(ms: float, tz: tzinfo | None) -> str:
    return datetime.fromtimestamp(ms / 1000.0, tz).strftime("%Y-%m-%d %H:%M")


def _detail(a: dict[str, Any]) -> str:
    t = a["event_type"]
    if t == "file_edit":
        return f"(+{a.get('lines_added') or 0} -{a.get('lines_deleted') or 0})"
    if t == "file_write":
        return f"({a.get('operation') or 'write'}, {a.get('content_length') or 0} chars)"
    if t in ("file_rename", "file_move"):
        return f"(from {a.get('old_path')})"
    if t == "file_copy":
        return f"(from {a.get('source_path')}{', backup' if a.get('is_backup') else ''})"
    if t == "file_search":
        return f"({a.get('search_type')} {a.get('query')!r}, {a.get('files_matched')} matched)"
    if t == "dir_create":
        return ""
    return ""


def evidence_lines(actions: list[dict[str, Any]], tz: tzinfo | None) -> list[str]:
    lines = [f"{_when(a['timestamp'], tz)}  {a['event_type']:<13} {primary_path(a) or a.get('query') or ''} {_detail(a)}".rstrip()
             for a in actions[-MAX_EVIDENCE:]]
    if len(actions) > MAX_EVIDENCE:
        lines.insert(0, f"[{len(actions) - MAX_EVIDENCE} earlier action(s) left out]")
    return lines


def _hits_target(a: dict[str, Any], target: str | None, renames: dict[str, str]) -> bool:
    if not target:
        return True
    t = target.lower()
    if a["event_type"] == "file_search":
        return t in str(a.get("query") or "").lower()
    for p in {primary_path(a) or "", a.get("old_path") or "", a.get("source_path") or ""}:
        for name in (p, current_name(p, renames)):
            low = name.lower()
            if low and (low == t or low.endswith("/" + t) or (("/" in t or "." in t) and low.endswith(t))
                        or low.startswith(t.rstrip("/") + "/")):
                return True
    return False


def _files(actions: list[dict[str, Any]], renames: dict[str, str]) -> list[str]:
    seen: dict[str, None] = {}
    for a in actions:
        p = primary_path(a)
        if p and a["event_type"] != "dir_create":
            seen[current_name(p, renames)] = None
    return list(seen)


def _label(path: str, deleted: set[str]) -> str:
    return f"{path} (deleted)" if path in deleted else path


def _episodes(store: Store, session_ids: list[str]) -> list[str]:
    """The episodes memory keeps of these sessions (descriptions, or a model's narrative)."""
    if not session_ids or not store.has_table("mem_sessions"):
        return []
    out = []
    for sid in session_ids[:8]:
        row = store.conn.execute("SELECT engram FROM mem_sessions WHERE session_id = ?", (sid,)).fetchone()
        if row:
            out += [f"{sid[:8]} #{ep['index']}: {ep['description']}" for ep in json.loads(row[0]).get("episodes", [])[:4]]
    return out


def answer_from_trace(store: Store, q: Question, tz: tzinfo | None = None) -> Recall:
    everything = [a for a in store.actions() if a.get("authored") is not False]
    renames = _renames(everything)
    deleted = _deleted(everything)
    acts = [a for a in authored(store, q) if _matches(a, q.verb) and _hits_target(a, q.target, renames)]
    period = q.period.name
    when = "" if period == "all time" else f" {period}" if not period[0].isupper() else f" on {period}"
    facts: dict[str, Any] = {"route": "trace", "intent": q.intent, "verb": q.verb, "period": period,
                             "target": q.target}
    past = VERB_PAST[q.verb]
    if q.intent == "wrote_about":
        return _wrote_about(store, q, everything, renames, deleted, tz, facts)
    if q.intent in ("activity", "did") and not acts:
        text = (f"No, I have no record that you {VERB_PAST[q.verb]} {q.target}{when}." if q.intent == "did"
                else f"I recorded nothing you {past}{when}.")
        return Recall(text, "", {**facts, "files": [], "count": 0})
    if q.intent == "activity":
        files = _files(acts, renames)
        sessions = list(dict.fromkeys(a["session_id"] for a in acts))
        reads = _files([a for a in authored(store, q) if a["event_type"] == "file_read"], renames)
        text = (f"You {past} {len(files)} file(s){when} in {len(sessions)} session(s): "
                + ", ".join(_label(f, deleted) for f in files[:12]) + ("" if len(files) <= 12 else ", ...") + ".")
        if reads and q.verb == "work":
            text += f" You also read {len(reads)} file(s): " + ", ".join(reads[:8]) + ("" if len(reads) <= 8 else ", ...") + "."
        ev = evidence_lines(acts, tz) + [""] + _episodes(store, sessions)
        return Recall(text, "\n".join(ev).strip(), {**facts, "files": files, "reads": reads, "sessions": len(sessions),
                                                     "count": len(acts), "deleted": sorted(set(files) & deleted)})
    if q.intent == "did":
        last = acts[-1]
        return Recall(f"Yes: you {past} {current_name(primary_path(last) or '', renames)} on {_when(last['timestamp'], tz)}"
                      + (f" ({len(acts)} time(s){when})." if len(acts) > 1 else "."),
                      "\n".join(evidence_lines(acts, tz)), {**facts, "count": len(acts), "when": _when(last["timestamp"], tz)})
    if q.intent in ("top", "folders"):
        names = [current_name(primary_path(a) or "", renames) for a in acts if primary_path(a)]
        if q.intent == "folders":
            names = [n.rsplit("/", 1)[0] if "/" in n else "." for n in names]
        ranked = Counter(names).most_common()
        ranked.sort(key=lambda kv: (-kv[1], kv[0]))
        if not ranked:
            return Recall(f"You {past} no files{when}.", "", {**facts, "ranked": [], "files": [], "count": 0})
        kind = "folder" if q.intent == "folders" else "file"
        text = f"The {kind}s you {past} most{when}: " + ", ".join(
            f"{_label(n, deleted)} ({c} time(s))" for n, c in ranked[:5]) + "."
        return Recall(text, "\n".join(evidence_lines(acts, tz)),
                      {**facts, "ranked": [[n, c] for n, c in ranked], "files": [n for n, _ in ranked]})
    if q.intent == "count":
        target = f" {q.target}" if q.target else ""
        if q.unit == "sessions":
            sessions = sorted({a["session_id"] for a in authored(store, q)})
            n, unit = len(sessions), "session(s)"
        elif q.unit == "files":
            n, unit = len(_files(acts, renames)), "file(s)"
        else:
            n, unit = len(acts), "time(s)"
        days = sorted({_when(a["timestamp"], tz)[:10] for a in acts})
        text = (f"You {past}{target} {n} {unit}{when}" if q.unit != "sessions" else f"You had {n} session(s){when}") + (
            f", on {len(days)} day(s) ({', '.join(days[:7])}{', ...' if len(days) > 7 else ''})." if days else ".")
        return Recall(text, "\n".join(evidence_lines(acts, tz)), {**facts, "count": n, "days": days,
                                                                   "files": _files(acts, renames)})
    if q.intent == "when":
        if not acts:
            return Recall(f"I have no record that you {past} {q.target or 'anything'}{when}.", "",
                          {**facts, "when": None, "count": 0})
        pick = acts[0] if q.first else acts[-1]
        which = "first" if q.first else "last"
        name = current_name(primary_path(pick) or "", renames) if pick["event_type"] != "file_search" else repr(pick.get("query"))
        text = f"You {which} {past} {name} on {_when(pick['timestamp'], tz)}" + (
            f" ({len(acts)} time(s) in all{when})." if len(acts) > 1 else ".")
        return Recall(text, "\n".join(evidence_lines(acts, tz)),
                      {**facts, "when": _when(pick["timestamp"], tz), "count": len(acts), "files": [name]})
    return Recall(CANT_TELL + ".", "", {**facts, "route": "none"})


_WORD = re.compile(r"\w+")


def _wrote_about(store: Store, q: Question, everything: list[dict[str, Any]], renames: dict[str, str],
                 deleted: set[str], tz: tzinfo | None, facts: dict[str, Any]) -> Recall:
    """Files the person wrote whose content (or name) contains the topic: the written
    blobs of the trace and memory's chunks of them, whole words, case-insensitive."""
    topic = (q.target or "").strip()
    if not topic:
        return Recall(CANT_TELL + ": about what?", "", {**facts, "route": "none"})
    rx = re.compile(r"(?<!\w)" + r"\W+".join(re.escape(w) for w in _WORD.findall(topic)) + r"(?!\w)", re.I)
    span = {a["event_id"] for a in authored(store, q)}
    hits: dict[str, tuple[float, str]] = {}
    for a in everything:
        if a["event_id"] not in span or a["event_type"] not in ("file_write", "file_edit"):
            continue
        path = a.get("file_path") or ""
        ref = a.get("media_ref") or a.get("media_ref_new") or {}
        text = ""
        if isinstance(ref, dict) and ref.get("hash"):
            blob = store.get_blob(ref["hash"])
            text = blob.decode("utf-8", "replace") if blob else ""
        m = rx.search(text)
        if m:
            end = text.find("\n", m.end())
            line = text[text.rfind("\n", 0, m.start()) + 1: end if end >= 0 else len(text)]
            hits[current_name(path, renames)] = (a["timestamp"], line.strip()[:160])
        elif rx.search(path):
            hits[current_name(path, renames)] = (a["timestamp"], path)
    if store.has_table("mem_chunks"):
        for path, text in store.conn.execute("SELECT path, text FROM mem_chunks WHERE path IS NOT NULL"):
            name = current_name(path, renames)
            if name in hits or not rx.search(text or ""):
                continue
            ts = max((a["timestamp"] for a in everything if a["event_id"] in span and a.get("file_path") == path
                      and a["event_type"] in ("file_write", "file_edit")), default=None)
            if ts is not None:
                m = rx.search(text)
                assert m is not None
                hits[name] = (ts, text[max(0, m.start() - 60): m.end() + 60].replace("\n", " / "))
    if not hits:
        return Recall(f"I found nothing you wrote about {topic}.", "", {**facts, "files": [], "count": 0})
    ranked = sorted(hits.items(), key=lambda kv: -kv[1][0])
    text = f"You wrote about {topic} in {len(ranked)} file(s): " + ", ".join(
        f"{_label(p, deleted)} ({_when(ts, tz)})" for p, (ts, _) in ranked[:8]) + "."
    ev = [f"{_when(ts, tz)}  {p}: {snippet}" for p, (ts, snippet) in ranked[:MAX_EVIDENCE]]
    return Recall(text, "\n".join(ev), {**facts, "files": [p for p, _ in ranked], "count": len(ranked)})
