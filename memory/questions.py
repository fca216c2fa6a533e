"""Stage 3 routing by question: habits go to the profile, what happened to the trace.

"How do I organise my files?" and "Am I a deep reader?" ask about tiers; "What did I work
on today?", "Which files did I edit most?", "When did I last read plan.md?" ask about events
the trace holds exactly; "What did I have for lunch?" asks about something FileGram never
recorded, and the honest answer is that it cannot tell. The parse is deterministic (regular
expressions over the question), so the same question always takes the same route.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta, tzinfo

from .dimensions import DIMENSIONS
from .evidence import word_hit

PROFILE, TRACE, UNKNOWN = "profile", "trace", "none"

# verbs of a question -> the trace's actions (in order of precedence)
VERBS: list[tuple[str, str]] = [
    (r"work(?:ed|ing)? on|do|doing|did|done|change[ds]?|touch(?:ed)?", "work"),
    (r"edit(?:ed|s|ing)?|modif(?:y|ied)|revis(?:e|ed)|update[ds]?|rewr(?:ite|ote)", "edit"),
    (r"creat(?:e|ed)|writ(?:e|ten)|wrote|start(?:ed)?", "create"),
    (r"read|open(?:ed)?|look(?:ed)? at|view(?:ed)?", "read"),
    (r"delet(?:e|ed)|remov(?:e|ed)|rm", "delete"),
    (r"renam(?:e|ed)", "rename"),
    (r"mov(?:e|ed)", "move"),
    (r"back(?:ed)? up|backups?", "backup"),
    (r"cop(?:y|ied)", "copy"),
    (r"search(?:ed)?(?: for)?|grep(?:ped)?|look(?:ed)? for|f[oi]u?nd", "search"),
    (r"brows(?:e|ed)|list(?:ed)?", "browse"),
    (r"ma[dk]e (?:a )?(?:folder|director(?:y|ies))|mkdir", "mkdir"),
]
_VERB_RE = [(re.compile(rf"\b(?:{p})\b"), v) for p, v in VERBS]

_WHY = re.compile(r"^\s*why\b|\bwhy (did|do|was|were)\b")
_FUTURE = re.compile(r"\b(will i|shall i|should i|tomorrow|next (week|month|year)|going to)\b")
_OTHERS = re.compile(r"\b(who|my (colleague|boss|team|friend|wife|husband|partner)s?|someone|somebody|anyone|they|he|she)\b")
_OFF_TRACE = re.compile(r"\b(lunch|dinner|breakfast|eat|ate|weather|website|websites|web page|browser tab|email|e-mail|"
                        r"mail|phone|call|called|meeting with|spend|spent|money|paid|pay|price|feel|felt|mood|sleep|slept)\b")
_HABIT = re.compile(r"\b(how do i|am i|do i (usually|tend|often|always|ever|keep|prefer|clean|organi[sz]e|write|read)|"
                    r"usually|tend to|habit|habits|style|kind of (reader|writer)|profile|overall|summari[sz]e|"
                    r"describe (me|my|this user|the user)|this user|the user|tier|dimension|drift|shift)\b")
_TRACE_CUES = re.compile(r"\b(what did i|what have i|what (was|were) i|which (files?|folders?|documents?)|"
                         r"how often (did|do|have) i|how many|when did i|when was the last|did i|have i)\b")
_PERIOD_CUES = re.compile(r"\b(today|yesterday|this week|last week|this month|\d{4}-\d{2}-\d{2}|on (monday|tuesday|"
                          r"wednesday|thursday|friday|saturday|sunday))\b")
_PATHISH = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w-]+\.[a-z0-9]{1,8}|(?:[\w.-]+/)+[\w.-]+)(?![\w/])", re.I)
_QUOTED = re.compile(r"[\"'“‘]([^\"'”’]{2,80})[\"'”’]")
_ABOUT = re.compile(r"\babout\s+(.+?)\s*\??$")
_SEARCH_FOR = re.compile(r"\b(?:search(?:ed)?(?: for)?|grep(?:ped)?(?: for)?|look(?:ed)? for)\s+(.+?)\s*\??$")
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


@dataclass
class Period:
    """A span of local time [start, end) the question names ("today", "this week", ...)."""

    name: str
    start_ms: float | None = None
    end_ms: float | None = None


@dataclass
class Question:
    text: str
    route: str  # PROFILE, TRACE or UNKNOWN
    intent: str = ""  # activity, top, count, when, wrote_about, did, folders (trace) or why/... (none)
    verb: str = "work"
    period: Period = field(default_factory=lambda: Period("all time"))
    target: str | None = None  # a file, folder or search term the question names
    first: bool = False  # "when did I first ..." (else the last time)
    unit: str = "times"  # what "how many" counts: times, files, sessions
    reason: str = ""  # why a question cannot be answered


def _ms(dt: datetime) -> float:
    return dt.timestamp() * 1000.0


def parse_period(q: str, now: datetime) -> Period:
    """The period a question names, in the user's local time (`now` carries the zone)."""
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    week = day - timedelta(days=day.weekday())
    m = re.search(r"\b(\d{4})-(\d{2})-(\d{2})\b", q)
    if m:
        d = day.replace(year=int(m.group(1)), month=int(m.group(2)), day=int(m.group(3)))
        return Period(d.date().isoformat(), _ms(d), _ms(d + timedelta(days=1)))
    m = re.search(r"\b(?:in )?the (?:last|past) (\d+) days\b", q)
    if m:
        return Period(f"the last {m.group(1)} days", _ms(day - timedelta(days=int(m.group(1)) - 1)), _ms(now) + 1)
    if re.search(r"\btoday\b|\bthis morning\b|\bthis afternoon\b", q):
        return Period("today", _ms(day), _ms(day + timedelta(days=1)))
    if re.search(r"\byesterday\b", q):
        return Period("yesterday", _ms(day - timedelta(days=1)), _ms(day))
    if re.search(r"\bthis week\b", q):
        return Period("this week", _ms(week), _ms(week + timedelta(days=7)))
    if re.search(r"\blast week\b", q):
        return Period("last week", _ms(week - timedelta(days=7)), _ms(week))
    if re.search(r"\bthis month\b", q):
        first = day.replace(day=1)
        return Period("this month", _ms(first), _ms(now) + 1)
    for i, name in enumerate(WEEKDAYS):
        if re.search(rf"\b(on |last )?{name}\b", q):
            back = (day.weekday() - i) % 7 or (7 if re.search(rf"\blast {name}\b", q) else 0)
            d = day - timedelta(days=back)
            return Period(f"{name.capitalize()} {d.date().isoformat()}", _ms(d), _ms(d + timedelta(days=1)))
    return Period("all time")


def _verb(q: str) -> str:
    """The question's main verb (the first one after "I")."""
    tail = q.split(" i ", 1)[1] if " i " in q else q
    for text in (tail, q):  # "how many edits did I make": the noun names it
        best: tuple[int, str] | None = None
        for rx, v in _VERB_RE:
            m = rx.search(text)
            if m and (best is None or m.start() < best[0]):
                best = (m.start(), v)
        if best and not (text is q and best[1] == "work"):
            return best[1]
    return "work"


def _target(question: str, q: str, verb: str) -> str | None:
    m = _QUOTED.search(question)
    if m:
        return m.group(1).strip()
    m = _PATHISH.search(question)
    if m:
        return m.group(1).rstrip("?.,")
    if verb == "search":
        m = _SEARCH_FOR.search(q)
        if m:
            words = [w for w in re.findall(r"[\w*.-]+", m.group(1)) if w not in _PERIOD_WORDS]
            return " ".join(words) or None
    return None


_PERIOD_WORDS = {"today", "yesterday", "this", "last", "week", "month", "on", "in", "the", "past", "days", "ago",
                 *WEEKDAYS}


def is_habit_question(q: str) -> bool:
    """About how the person works (their tiers), not about one event."""
    if _HABIT.search(q):
        return True
    return any(word_hit(q, dim.name.lower()) or any(word_hit(q, k) for k in dim.keywords)
               for dim in DIMENSIONS.values())


def parse(question: str, now: datetime | None = None, tz: tzinfo | None = None) -> Question:
    """Route one question: PROFILE (habits), TRACE (what happened) or UNKNOWN (can't tell)."""
    now = now or datetime.now(tz).astimezone(tz)
    q = " ".join(question.lower().replace("’", "'").split())
    if _WHY.search(q):
        return Question(question, UNKNOWN, "why", reason="the trace holds what you did, not why")
    if _FUTURE.search(q):
        return Question(question, UNKNOWN, "future", reason="the trace holds what happened, not what will")
    if _OTHERS.search(q) and not re.search(r"\bwho am i\b", q):
        return Question(question, UNKNOWN, "others", reason="FileGram records only your own file activity")
    if _OFF_TRACE.search(q):
        return Question(question, UNKNOWN, "off-trace", reason="FileGram records file activity only")
    cue = _TRACE_CUES.search(q)
    if not cue and not _PERIOD_CUES.search(q):
        if is_habit_question(q):
            return Question(question, PROFILE, "habit")
        return Question(question, UNKNOWN, "unrecognised", reason="this is not a question about your files or habits")
    verb = _verb(q)
    out = Question(question, TRACE, verb=verb, period=parse_period(q, now))
    m = _ABOUT.search(q)
    if re.search(r"\b(write|wrote|written|notes?) about\b", q) and m:
        out.intent, out.verb = "wrote_about", "create"
        out.target = _QUOTED.search(question).group(1) if _QUOTED.search(question) else \
            " ".join(w for w in re.findall(r"[\w.-]+", m.group(1)) if w not in _PERIOD_WORDS)
        return out
    out.target = _target(question, q, verb)
    if re.search(r"\bwhich (folders?|director(?:y|ies))\b", q):
        out.intent = "folders"
    elif re.search(r"\bwhich (files?|documents?)\b", q) or re.search(r"\b(most|least)\b", q):
        out.intent = "top"
    elif re.search(r"\bhow (often|many times)\b", q):
        out.intent = "count"
    elif re.search(r"\bhow many\b", q):
        out.intent = "count"
        out.unit = "sessions" if re.search(r"\bsessions?\b", q) else "files" if re.search(
            r"\b(files?|documents?|folders?)\b", q) else "times"
    elif re.search(r"\bwhen (did i|was the last)\b", q):
        out.intent = "when"
        out.first = bool(re.search(r"\bfirst\b", q)) or (verb == "create" and not re.search(r"\blast\b", q))
    elif re.match(r"^(did|have) i\b", q):
        out.intent = "did"
    else:
        out.intent = "activity"
    if verb in ("search", "browse") and out.intent == "top":
        out.intent = "count"
    return out
