"""The dashboard's pages: server-rendered HTML from Jinja2 templates with autoescaping, so
every value a user's files put on a page (names, labels, text) is shown, never run.

No build step, no CDN, no script needed: every page works offline and without JavaScript.
Elements carry stable ids and data- attributes (data-dim, data-tier, data-session,
data-anomaly) so tests and scripts can read them. Here each page's values are prepared;
the markup is in templates/, the charts' geometry in charts.py. Jinja2 loads with the first
page, so a daemon nobody looks at does not carry it.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from filegram.vocab import DIM_IDS, DIMENSION_NAMES, DIMENSION_VERBS, TIER_POSITION

from ..assist.card import ADVICE
from . import charts

if TYPE_CHECKING:
    import jinja2

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STYLESHEET = HERE / "static" / "style.css"
NAV = (("/ui/", "Profile"), ("/ui/timeline", "Timeline"), ("/ui/activity", "Activity"),
       ("/ui/screen", "Screen"), ("/ui/ask", "Ask"), ("/ui/card", "Style card"),
       ("/ui/privacy", "Privacy"))


def local_time(ms: Any) -> str:
    """A stored time (ms since the epoch) in local time, or '-'."""
    if not isinstance(ms, int | float) or not ms:
        return "-"
    return dt.datetime.fromtimestamp(ms / 1000.0).strftime("%Y-%m-%d %H:%M")


@functools.cache
def environment() -> jinja2.Environment:
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.globals["NAV"] = NAV
    env.filters["when"] = local_time
    return env


def render(template: str, *, title: str, active: str, status: str = "", **values: Any) -> str:
    return environment().get_template(template).render(title=title, active=active, status=status, **values)


@functools.cache
def stylesheet() -> bytes:
    return STYLESHEET.read_bytes()


def _text(value: Any) -> str:
    return "" if value is None else str(value)


# -- profile ---------------------------------------------------------------------------


def _anomaly_rows(anomalies: Iterable[Any]) -> list[dict[str, str]]:
    rows = []
    for a in anomalies:
        if not isinstance(a, dict):
            continue
        dim = str(a.get("dimension"))
        rows.append({"session": str(a.get("session")), "label": str(a.get("label") or str(a.get("session"))[:8]),
                     "dimension": dim, "dimension_name": DIMENSION_NAMES.get(dim, ""),
                     "from": str(a.get("from")), "to": str(a.get("to")), "verdict": str(a.get("verdict")),
                     "tag": "bad" if a.get("verdict") == "genuine" else "warn",
                     "reason": _text(a.get("reason"))})
    return rows


def _dimension_card(d: str, info: Mapping[str, Any], spark: dict[str, Any]) -> dict[str, Any]:
    tier = str(info.get("tier", "unknown"))
    conf = float(info.get("confidence") or 0.0)
    ev = info.get("evidence") or []
    from filegram.memory.cli import (
        summary_sentence,  # the same plain sentence as `filegram profile`
    )

    feats = info.get("features")
    plain = summary_sentence(d, feats) if isinstance(feats, dict) and info.get("sessions") else ""
    return {
        "dim": d, "name": str(info.get("name") or DIMENSION_NAMES[d]), "verb": DIMENSION_VERBS[d], "plain": plain,
        "tier": tier, "known": tier in TIER_POSITION, "description": _text(info.get("description")),
        "confidence": f"{conf:.4f}", "conf": f"{conf:.2f}", "percent": f"{conf * 100:.0f}",
        "sessions": _text(info.get("sessions", 0)), "advice": ADVICE.get(d, {}).get(tier, ""),
        "evidence": [str(e) for e in (ev if isinstance(ev, list) else [ev])[:6]], "spark": spark,
    }


def profile_page(profile: Mapping[str, Any], history: Mapping[str, list[tuple[int, float]]], n_hist: int,
                 status: str) -> str:
    dims = profile.get("dimensions") or {}
    cards = [_dimension_card(d, dims.get(d) or {}, charts.sparkline(history.get(d, []), n_hist, d))
             for d in DIM_IDS]
    return render("profile.html", title="How you work", active="/ui/", status=status,
                  sessions=_text(profile.get("sessions", 0)), updated=local_time(profile.get("updated_ms")),
                  provisional=_provisional(profile.get("provisional")),
                  chart=charts.profile_chart(profile), cards=cards, n_hist=n_hist,
                  anomalies=_anomaly_rows(profile.get("anomalies") or []))


# -- timeline --------------------------------------------------------------------------


def perturbation_of(session: Mapping[str, Any]) -> str:
    """Ground truth a simulated session brings (its perturbation.json): 'C L->M'."""
    meta = session.get("metadata") or {}
    p = meta.get("perturbation") if isinstance(meta, dict) else None
    shifted = (p or {}).get("shifted_dims") if isinstance(p, dict) else None
    if not isinstance(shifted, dict) or not shifted:
        return ""
    return ", ".join(f"{d} {v.get('original')}->{v.get('perturbed')}" for d, v in shifted.items()
                     if isinstance(v, dict))


def timeline_page(sessions: list[dict[str, Any]], anomalies: list[dict[str, Any]], status: str) -> str:
    flagged: dict[str, list[dict[str, str]]] = {}
    for a in _anomaly_rows(anomalies):
        flagged.setdefault(a["session"], []).append(a)
    perturbations = {str(s["id"]): perturbation_of(s) for s in sessions}
    rows = []
    for s in sessions[::-1]:
        sid = str(s["id"])
        marks = flagged.get(sid) or []
        pert = perturbations[sid]
        rows.append({"session": sid, "label": str(s.get("label") or sid[:8]),
                     "classes": " ".join(c for c in ("anomaly" if marks else "", "perturbed" if pert else "") if c),
                     "started": local_time(s.get("started_ms")), "source": _text(s.get("source")),
                     "actions": _text(s.get("action_count", "")), "marks": marks, "perturbation": pert})
    return render("timeline.html", title="Timeline", active="/ui/timeline", status=status,
                  chart=charts.timeline(sessions, flagged, perturbations, local_time), rows=rows)


# -- activity, ask, card, screen, privacy ------------------------------------------------


def activity_page(actions: list[dict[str, Any]], session: str | None, status: str) -> str:
    rows = [{"type": str(a["type"]), "time": str(a["time"]), "detail": str(a["detail"]),
             "session": _text(a.get("session"))[:8]} for a in actions]
    return render("activity.html", title="Recent actions", active="/ui/activity", status=status,
                  session=session or "", rows=rows)


def ask_page(csrf: str, status: str, *, question: str = "", answer: dict[str, Any] | None = None,
             error: str = "", name_for: str = "", kind: str = "", suggestion: dict[str, Any] | None = None,
             hits: dict[str, Any] | None = None, query: str = "") -> str:
    shown_answer = None
    if answer is not None:
        shown_answer = {"text": _text(answer.get("text")), "evidence": _text(answer.get("evidence")),
                        "warnings": [str(w) for w in answer.get("warnings") or []],
                        "used_llm": bool(answer.get("used_llm"))}
    shown_hits = None
    if hits is not None:
        shown_hits = {"memory": [{"path": _text(h.get("path")), "text": (h.get("text") or "")[:220]}
                                 for h in hits.get("memory") or []],
                      "paths": [str(p) for p in hits.get("paths") or []]}
    shown_suggestion = None
    if suggestion is not None:
        shown_suggestion = {"path": str(suggestion["path"]),
                            "reasons": [str(r) for r in suggestion.get("reasons") or []]}
    return render("ask.html", title="Ask your memory", active="/ui/ask", status=status, csrf=csrf,
                  question=question, answer=shown_answer, error=error, name_for=name_for, kind=kind,
                  suggestion=shown_suggestion, hits=shown_hits, query=query)


def card_page(card: str, status: str) -> str:
    return render("card.html", title="Working style card", active="/ui/card", status=status, card=card)


def screen_page(state: dict[str, Any], frames: Iterable[dict[str, Any]], query: str,
                hits: list[dict[str, Any]] | None, status: str) -> str:
    shown = hits if hits is not None else list(frames)
    figures = [{"id": int(f["id"]), "time": local_time(f.get("ts")), "app": _text(f.get("app")),
                "title": _text(f.get("window_title")), "snippet": _text(f.get("snippet"))}
               for f in shown if f.get("id") is not None]
    return render("screen.html", title="Screen", active="/ui/screen", status=status,
                  available=bool(state.get("available")),
                  reason=state.get("reason") or "Screen capture is not available.",
                  enabled=bool(state.get("enabled")), frame_count=_text(state.get("frames", 0)),
                  query=query, figures=figures)


def privacy_page(csrf: str, status: str, *, paused: bool | None, exclusions: list[str], message: str = "",
                 error: str = "", can_pause: bool = True) -> str:
    return render("privacy.html", title="Privacy", active="/ui/privacy", status=status, csrf=csrf,
                  paused=bool(paused), exclusions=exclusions, message=message, error=error,
                  can_pause=can_pause)


def login_page() -> str:
    return render("login.html", title="Sign in", active="")


def error_page(status_code: int, message: str) -> str:
    return render("error.html", title=f"Error {status_code}", active="", message=message)


def static_profile_page(profile: Mapping[str, Any], health: Mapping[str, Any]) -> str:
    """The profile as one self-contained page the tray opens when there is no dashboard."""
    rows = []
    for dim, d in sorted((profile.get("dimensions") or {}).items()):
        d = d if isinstance(d, dict) else {"tier": d}
        ev = d.get("evidence") or []
        conf = d.get("confidence")
        rows.append({"dim": str(dim), "name": _text(d.get("name")), "tier": str(d.get("tier", "?")),
                     "confidence": f"{conf:.2f}" if isinstance(conf, int | float) else "",
                     "evidence": [str(e) for e in (ev if isinstance(ev, list) else [ev])[:6]]})
    return environment().get_template("static_profile.html").render(
        status=_text(health.get("status_line", "")), rows=rows,
        anomalies=_anomaly_rows(profile.get("anomalies") or []))


def _provisional(live: Mapping[str, Any] | None) -> str:
    """Live memory: how much of the profile is the still-open session."""
    if not live or not live.get("sessions"):
        return ""
    return (f"{live['sessions']} of them still open (provisional: {live['actions']} action(s) so far, "
            "replaced when the session closes)")
