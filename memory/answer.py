"""Answers with or without an LLM.

Without a model, a deterministic answerer maps each multiple-choice option to the
dimension and tier (or the shift) it describes, by matching the canonical descriptions
of table 2, and picks the option the memory supports best; open questions get a
templated answer. With a model, the evidence goes to litellm, and any failure falls back
to the deterministic answer with a warning.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from typing import Any

from filegram.privacy import redact
from filegram.vocab import TIER_POSITION

from .dimensions import DIM_IDS, DIMENSIONS, TIERS, dimension_label
from .evidence import assemble, find_session, route, word_hit
from .llm import LLMError, complete, configured
from .questions import PROFILE, TRACE, Question, parse
from .recall import CANT_TELL, Recall, answer_from_trace
from .view import MemoryView

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_WORDS = re.compile(r"[a-z]+|\d+|[\u3400-\u9fff]", re.I)
_SHIFT_Q = re.compile(r"shift|drift|chang|perturb|deviat|anomal|differ|unusual|moved|became|变化|漂移", re.I)
_ARROW = re.compile(r"\s*(?:->|→|=>|⇒|\bto\b|\binto\b|\btowards?\b)\s*", re.I)
_STOP = {"the", "a", "an", "of", "and", "or", "with", "in", "on", "to", "only", "this", "user", "users", "s",
         "is", "are", "their", "files", "file", "from", "by"}


@dataclass
class Answer:
    text: str
    choice: int | None
    evidence: str
    used_llm: bool
    warnings: list[str] = field(default_factory=list)
    scores: list[float] | None = None
    route: str = PROFILE  # profile (habits), trace (what happened) or none (can't tell)
    facts: dict[str, Any] = field(default_factory=dict)  # a trace answer's files, counts, dates


def _toks(text: str) -> set[str]:
    return {t.lower() for t in _WORDS.findall(text) if t.lower() not in _STOP}


_DESC_TOKS = {(d, t): _toks(dim.tiers[t]) for d, dim in DIMENSIONS.items() for t in TIERS}


def tier_matches(text: str, dims: list[str] | None = None) -> dict[tuple[str, str], float]:
    """How strongly a piece of text describes each (dimension, tier)."""
    low = text.lower()
    toks = _toks(text)
    out: dict[tuple[str, str], float] = {}
    for d in dims or DIM_IDS:
        dim = DIMENSIONS[d]
        dim_ctx = 0.3 if (word_hit(low, dim.name.lower()) or re.search(rf"(^|\W){d}(\W|$)", text)) else 0.0
        dim_ctx += 0.1 * min(sum(1 for k in dim.keywords if word_hit(low, k)), 3)
        for t in TIERS:
            desc = dim.tiers[t].lower()
            s = 0.0
            if desc in low:
                s += 2.0
            dt = _DESC_TOKS[(d, t)]
            if dt:
                s += len(toks & dt) / len(dt)
            s += 0.35 * sum(1 for w in dim.tier_words[t] if word_hit(low, w))
            if re.fullmatch(rf"\s*{t}\s*", text):
                s += 1.0
            if s > 0:
                out[(d, t)] = s + dim_ctx
    return out


def _best(matches: dict[tuple[str, str], float]) -> tuple[str, str, float] | None:
    if not matches:
        return None
    (d, t), s = max(matches.items(), key=lambda kv: (kv[1], -DIM_IDS.index(kv[0][0]), -TIERS.index(kv[0][1])))
    return d, t, s


def _user_support(prof: dict[str, Any], d: str, t: str) -> float:
    """How likely the user is tier t on d (the posterior; a third when memory cannot tell)."""
    p = prof["dimensions"][d]
    post = p.get("posterior") or {}
    if not p.get("sessions") or not post:
        return 1.0 / 3
    return float(post.get(t, 0.0))


def _parse_shift(choice: str, dims: list[str]) -> tuple[dict[str, float], str | None, str | None]:
    """(dimension weights, from tier, to tier) of an option describing a change."""
    m_letter = re.search(r"\b([A-F])\s*[:(]?\s*\(?([LMR])\)?\s*(?:->|→|=>|to)\s*\(?([LMR])\)?", choice)
    if m_letter:
        return {m_letter.group(1): 1.0}, m_letter.group(2), m_letter.group(3)
    # "C (Organization): from R (flat (root only)) to M (adaptive (1-2 levels))"
    m_from = re.search(r"^\s*([A-F])\b.*?\bfrom\s+([LMR])\b.*\bto\s+([LMR])\b", choice)
    if m_from:
        return {m_from.group(1): 1.0}, m_from.group(2), m_from.group(3)
    dimw: dict[str, float] = {}
    low = choice.lower()
    for d, dim in DIMENSIONS.items():
        w = 0.0
        if word_hit(low, dim.name.lower()) or re.search(rf"\(\s*{d}\s*\)|\b{d}\s*:", choice):
            w += 2.0
        w += 0.3 * sum(1 for k in dim.keywords if word_hit(low, k))
        if w:
            dimw[d] = w
    parts = _ARROW.split(re.sub(r"^.*?\bfrom\b", "", choice, flags=re.I), maxsplit=1)
    frm = to = None
    cand_dims = sorted(dimw, key=lambda d: -dimw[d])[:1] or dims
    if len(parts) == 2:
        a = _best(tier_matches(parts[0], cand_dims))
        b = _best(tier_matches(parts[1], cand_dims))
        frm, to = (a[1] if a else None), (b[1] if b else None)
        for x in (a, b):
            if x:
                dimw[x[0]] = dimw.get(x[0], 0.0) + 0.5
    else:
        b = _best(tier_matches(choice, cand_dims))
        if b:
            to = b[1]
            dimw[b[0]] = dimw.get(b[0], 0.0) + 0.5
    return dimw, frm, to


def _score_shift(choices: list[str], shifts: list[dict[str, Any]], dims: list[str]) -> list[float]:
    scores = []
    for c in choices:
        dimw, frm, to = _parse_shift(c, dims)
        s = 0.0
        if dimw:
            top_w = max(dimw.values())
            for sh in shifts:
                w = dimw.get(sh["dimension"], 0.0) / top_w
                if w <= 0:
                    continue
                v = sh["score"] * w
                if to is not None:
                    v *= 1.5 if to == sh["to"] else 0.5
                if frm is not None:
                    v *= 1.25 if frm == sh["from"] else 0.75
                s = max(s, v)
        scores.append(round(s, 6))
    return scores


def _session_likelihood(tiers: dict[str, dict[str, Any]], d: str, t: str) -> float:
    """How well tier t on d explains what the named session showed (flat when it gave no
    opportunity on d): a sure signature is three times likelier under its own tier."""
    st = tiers.get(d)
    if not st or st.get("tier") not in TIERS:
        return 1.0
    conf = min(max(float(st.get("confidence", 0.5)), 0.0), 1.0)
    return 1.0 + 2.0 * conf if t == st["tier"] else 1.0


def _support(prof: dict[str, Any], session: dict[str, dict[str, Any]] | None, d: str, t: str) -> float:
    """The user's posterior on d, updated by the named session's own evidence when the
    question is about one session (a single session rarely moves the user's profile off
    "unknown", yet it shows its own behaviour)."""
    if not session or d not in session:
        return _user_support(prof, d, t)
    prior = {x: max(_user_support(prof, d, x), 1e-3) for x in TIERS}
    post = {x: prior[x] * _session_likelihood(session, d, x) for x in TIERS}
    return post[t] / sum(post.values())


_CLAUSES = re.compile(r"[;\n]|\s+\band\b\s+(?=[A-Z(])")
_LABELLED = re.compile(r"^\s*(\S{1,40}?)\s+[-\u2013\u2014:]\s+(.*)$", re.S)


def _clauses(choice: str) -> list[str]:
    return [x for x in _CLAUSES.split(choice) if x.strip()] or [choice]


def _session_labels(mem: MemoryView) -> dict[str, str]:
    rows = mem.store.conn.execute(
        "SELECT m.session_id, s.label FROM mem_sessions m LEFT JOIN sessions s ON s.id = m.session_id").fetchall()
    return {label: sid for sid, label in rows if label}


def _score_labelled(mem: MemoryView, choices: list[str], dims: list[str], labels: dict[str, str]) -> list[float] | None:
    """Options that describe several sessions by label ("U1 - writes long reports; U2 -
    ..."): each statement is weighed against the session it names, not the user."""
    scores, named = [], False
    for c in choices:
        vals, current = [], None
        for cl in _clauses(c):
            m = _LABELLED.match(cl)
            if m and m.group(1) in labels:
                current, cl = labels[m.group(1)], m.group(2)
            if current is None:
                continue
            b = _best(tier_matches(cl, dims) or tier_matches(cl))
            if b and b[2] >= 0.3:
                d, t, strength = b
                lik = {x: _session_likelihood(mem.session_tiers(current), d, x) for x in TIERS}
                vals.append(lik[t] / sum(lik.values()) * min(strength, 2.0))
                named = True
        scores.append(round(sum(vals) / len(vals), 6) if vals else 0.0)
    return scores if named else None


def _odd_one_out(mem: MemoryView, sids: list[str]) -> list[float]:
    """For "which of these sessions is not like the others": how far each session's sure
    tiers lie from what the other sessions show on the same dimension."""
    tiers = [mem.session_tiers(sid) for sid in sids]
    scores = []
    for i, own in enumerate(tiers):
        gap = 0.0
        for d, st in own.items():
            if st.get("tier") not in TIER_POSITION:
                continue
            others = [(TIER_POSITION[o[d]["tier"]], float(o[d].get("confidence", 0.5)))
                      for j, o in enumerate(tiers) if j != i and o.get(d, {}).get("tier") in TIER_POSITION]
            weight = sum(w for _, w in others)
            if not weight:
                continue
            centre = sum(p * w for p, w in others) / weight
            gap += float(st.get("confidence", 0.5)) * abs(TIER_POSITION[st["tier"]] - centre)
        scores.append(round(gap, 6))
    return scores


def _score_attributes(choices: list[str], prof: dict[str, Any], dims: list[str],
                      session: dict[str, dict[str, Any]] | None = None) -> list[float]:
    scores = []
    for c in choices:
        clauses = _clauses(c)
        vals = []
        for cl in clauses:
            m = tier_matches(cl, dims) or tier_matches(cl)
            b = _best(m)
            if b and b[2] >= 0.3:
                d, t, strength = b
                conf = max(prof["dimensions"][d]["confidence"], 0.05)
                vals.append(_support(prof, session, d, t) * min(strength, 2.0) * (0.5 + conf))
        scores.append(round(sum(vals) / len(vals), 6) if vals else 0.0)
    return scores


def _lexical(choices: list[str], evidence: str) -> list[float]:
    ev = _toks(evidence)
    return [round(len(_toks(c) & ev) / max(len(_toks(c)), 1), 6) for c in choices]


def deterministic(mem: MemoryView, question: str, choices: list[str] | None, evidence_text: str, *, session: str | None = None) -> Answer:
    prof = mem.profile_view()
    dims = route(question + " " + " ".join(choices or []))
    sid = find_session(mem, question, session)
    is_shift = bool(_SHIFT_Q.search(question))
    if choices:
        scores: list[float] = []
        labels = _session_labels(mem)
        if len(choices) >= 3 and all(c.strip() in labels for c in choices):
            scores = _odd_one_out(mem, [labels[c.strip()] for c in choices])
        if not scores or max(scores) <= 0:
            scores = _score_labelled(mem, choices, dims, labels) or []
        if (not scores or max(scores) <= 0) and is_shift:
            shifts = mem.session_shift(sid) if sid else [
                {"dimension": a["dimension"], "from": a["from"], "to": a["to"], "score": a["distance"]}
                for a in prof["anomalies"]
            ]
            scores = _score_shift(choices, shifts, dims)
        if not scores or max(scores) <= 0:
            scores = _score_attributes(choices, prof, dims, mem.session_tiers(sid) if sid else None)
        if max(scores) <= 0:
            scores = _lexical(choices, evidence_text)
        best = max(range(len(choices)), key=lambda i: (scores[i], -i))
        why = _why(prof, dims, sid, is_shift, mem)
        return Answer(f"{LETTERS[best]}. {choices[best]}\n{why}", best, evidence_text, False, [], scores)
    return Answer(_open_answer(prof, dims, sid, is_shift, mem, question), None, evidence_text, False, [])


def _why(prof: dict[str, Any], dims: list[str], sid: str | None, is_shift: bool, mem: MemoryView) -> str:
    if is_shift and sid:
        sh = mem.session_shift(sid)[:1]
        if sh:
            s = sh[0]
            return f"Because: in that session {dimension_label(s['dimension'])} moved {s['from']} -> {s['to']} ({s['verdict']})."
    parts = []
    for d in dims[:3]:
        p = prof["dimensions"][d]
        parts.append(f"{dimension_label(d)} is {p['tier']} (confidence {p['confidence']:.2f})")
    return "Because: " + "; ".join(parts) + "."


def _open_answer(prof: dict[str, Any], dims: list[str], sid: str | None, is_shift: bool, mem: MemoryView, question: str) -> str:
    lines = []
    if is_shift:
        if sid:
            for s in mem.session_shift(sid)[:2]:
                lines.append(f"{dimension_label(s['dimension'])}: {s['from']} -> {s['to']} ({s['verdict']}: {s['reason']}).")
        elif prof["anomalies"]:
            for a in prof["anomalies"][:5]:
                lines.append(f"Session {a['label'] or a['session'][:8]}: {dimension_label(a['dimension'])} {a['from']} -> {a['to']} ({a['verdict']}).")
        else:
            lines.append("No session deviates from this user's norm beyond the drift threshold.")
        return "\n".join(lines)
    for d in dims:
        p = prof["dimensions"][d]
        if p["tier"] == "unknown":
            lines.append(f"{dimension_label(d)}: unknown (no session exercised it yet).")
            continue
        ev = p["evidence"][1] if len(p["evidence"]) > 1 else p["evidence"][0]
        lines.append(f"{dimension_label(d)}: {p['tier']}, {p['description']} (confidence {p['confidence']:.2f}; {ev}).")
    return "\n".join(lines)


SYSTEM = (
    "You answer questions about one user's working habits on their computer, using only the evidence "
    "from their file-activity memory below. Tiers: each dimension A-F is L, M or R as described. "
    "Be concise. If options are given, start your reply with 'Answer: <letter>'."
)


SYSTEM_TRACE = (
    "You answer questions about what one person did with their files, using only the actions "
    "recorded below (times are local). Name the files and times your answer rests on. If the "
    "actions do not answer the question, say so. Be concise."
)


def build_messages(question: str, choices: list[str] | None, evidence: str, *, about: str = PROFILE) -> list[dict[str, str]]:
    user = f"Evidence:\n{evidence}\nQuestion: {question}\n"
    if choices:
        user += "Options:\n" + "\n".join(f"{LETTERS[i]}. {c}" for i, c in enumerate(choices)) + "\n"
        user += "Reply with 'Answer: <letter>' on the first line, then one sentence of reasoning.\n"
    system = SYSTEM_TRACE if about == TRACE else SYSTEM
    return [{"role": "system", "content": system}, {"role": "user", "content": redact(user)}]


def build_prompt(question: str, choices: list[str] | None, evidence: str, *, about: str = PROFILE) -> str:
    return "\n\n".join(f"[{m['role']}]\n{m['content']}" for m in build_messages(question, choices, evidence, about=about))


def classify(question: str, choices: list[str] | None, session: str | None, now: datetime | None = None,
             tz: tzinfo | None = None) -> Question:
    """The route of a question: multiple-choice and session questions are about habits."""
    if choices or session:
        return Question(question, PROFILE, "habit")
    return parse(question, now, tz)


def trace_evidence(q: Question, rec: Recall) -> str:
    """What a model is handed for a question about what happened: the deterministic
    answer's facts and the actions (with times) it rests on, redacted."""
    return redact(f"## From the recorded trace ({q.period.name})\nSummary: {rec.text}\n{rec.evidence}\n")


def routed_prompt(mem: MemoryView, question: str, choices: list[str] | None = None, *, session: str | None = None,
                  now: datetime | None = None, tz: tzinfo | None = None) -> str:
    """Exactly what a model would be sent for this question (--show-prompt)."""
    q = classify(question, choices, session, now, tz)
    if q.route == TRACE:
        rec = answer_from_trace(mem.store, q, tz)
        return build_prompt(question, None, trace_evidence(q, rec), about=TRACE)
    if q.route != PROFILE:
        return f"(nothing: {CANT_TELL.lower()}; {q.reason})"
    ev = assemble(mem, question, choices, session=session)
    return build_prompt(question, choices, ev.text)


def parse_choice(text: str, choices: list[str]) -> int | None:
    n = len(choices)
    m = re.search(r"answer\s*(?:is)?\s*[:：]?\s*\**\(?([A-Z])\)?(?![a-z])", text, re.I)
    if m and m.group(1).upper() in LETTERS[:n]:
        return LETTERS.index(m.group(1).upper())
    m = re.match(r"\s*\**\(?([A-Z])[).:\s*]", text)
    if m and m.group(1) in LETTERS[:n]:
        return LETTERS.index(m.group(1))
    m = re.search(r"option\s+(\d+)", text, re.I)
    if m and 1 <= int(m.group(1)) <= n:
        return int(m.group(1)) - 1
    hits = [i for i, c in enumerate(choices) if c and c.lower() in text.lower()]
    return hits[0] if len(hits) == 1 else None


def ask(mem: MemoryView, question: str, choices: list[str] | None = None, *, session: str | None = None,
        now: datetime | None = None, tz: tzinfo | None = None) -> Answer:
    """Route the question (questions.py), then answer it from the profile or the trace;
    with a model, the model is handed exactly the routed evidence."""
    if not question or not question.strip():
        from filegram.errors import FileGramError

        raise FileGramError("the question is empty")
    choices = [c for c in (choices or [])] or None
    if session and find_session(mem, question, session) is None:
        from filegram.errors import FileGramError

        raise FileGramError(f"no session '{session}' in memory (closed and consolidated?)")
    q = classify(question, choices, session, now, tz)
    if q.route == TRACE:
        return _ask_trace(mem, question, q, tz)
    if q.route != PROFILE:
        return Answer(f"{CANT_TELL}: {q.reason}.", None, "", False, [], None, q.route, {"route": q.route, "intent": q.intent})
    ev = assemble(mem, question, choices, session=session)
    fallback = deterministic(mem, question, choices, ev.text, session=session)
    if not configured(mem.config):
        return fallback
    try:
        reply = complete(mem.config, build_messages(question, choices, ev.text))
    except LLMError as exc:
        fallback.warnings.append(f"LLM failed ({exc}); deterministic answer given")
        return fallback
    if choices:
        idx = parse_choice(reply, choices)
        if idx is None:
            fallback.warnings.append("LLM answer names no option; deterministic answer given")
            return fallback
        return Answer(reply, idx, ev.text, True, [], fallback.scores)
    return Answer(reply, None, ev.text, True, [])


def _ask_trace(mem: MemoryView, question: str, q: Question, tz: tzinfo | None) -> Answer:
    rec = answer_from_trace(mem.store, q, tz)
    evidence = trace_evidence(q, rec)
    fallback = Answer(rec.text + ("\n" + rec.evidence if rec.evidence else ""), None, evidence, False, [], None,
                      rec.facts.get("route", TRACE), rec.facts)
    if not configured(mem.config) or fallback.route != TRACE:
        return fallback
    try:
        reply = complete(mem.config, build_messages(question, None, evidence, about=TRACE))
    except LLMError as exc:
        fallback.warnings.append(f"LLM failed ({exc}); deterministic answer given")
        return fallback
    return Answer(reply, None, evidence, True, [], None, TRACE, rec.facts)


def uncertain_verdicts(mem: MemoryView) -> Iterator[tuple[dict[str, Any], str, str]]:
    """Ask the model about each anomaly the rules left 'uncertain': (anomaly, verdict,
    reason) for every usable reply, one at a time (the caller stores each as it comes)."""
    if not configured(mem.config):
        return
    for a in mem.profile_view()["anomalies"]:
        if a["verdict"] != "uncertain" or a.get("judge") == "llm":
            continue
        prompt = (
            f"A user's session (task {a['task'] or 'unknown'}) deviates from their usual behaviour on "
            f"{dimension_label(a['dimension'])}: usually {a['from']}, here {a['to']}. What the session did: "
            + "; ".join(f"{f['feature']} (the user does this in {float(f['z']):.0%} of other sessions)" for f in a["top_features"])
            + ". Is this task-dependent variation, a genuine change of habit, or uncertain? "
            "Reply with one word (task-dependent, genuine or uncertain) and one sentence."
        )
        try:
            reply = complete(mem.config, [{"role": "user", "content": redact(prompt)}], max_tokens=120)
        except LLMError:
            continue
        m = re.search(r"task[- ]dependent|genuine|uncertain", reply, re.I)
        if not m:
            continue
        yield a, m.group(0).lower().replace(" ", "-"), reply[:300]
