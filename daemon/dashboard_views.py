"""The dashboard's pages: plain server-rendered HTML with inline SVG charts drawn here.

No build step, no CDN, no script needed: every page works offline and without
JavaScript, and every value is escaped. Elements carry stable ids and data- attributes
(data-dim, data-tier, data-session, data-anomaly) so tests and scripts can read them.
"""

from __future__ import annotations

import datetime as dt
import html
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote

from .assist import ADVICE, DIM_NAMES, DIM_ORDER, DIM_VERBS

esc = html.escape
TIER_POS = {"L": 0.0, "M": 1.0, "R": 2.0}
NAV = (("/ui/", "Profile"), ("/ui/timeline", "Timeline"), ("/ui/activity", "Activity"),
       ("/ui/screen", "Screen"), ("/ui/ask", "Ask"), ("/ui/card", "Style card"),
       ("/ui/privacy", "Privacy"))

CSS = """
:root{--fg:#1a202c;--mut:#5a6475;--acc:#2b6cb0;--bad:#c53030;--warn:#dd6b20;--bg:#f7f8fa;--card:#fff;--line:#dde1e7}
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
header{background:#1f2a3a;color:#fff;padding:.6em 1.2em;display:flex;gap:1.2em;align-items:center;flex-wrap:wrap}
header b{font-size:1.1em;margin-right:1em}header a{color:#cfd8e3;text-decoration:none;padding:.2em .4em;border-radius:4px}
header a.on,header a:hover{background:#34445c;color:#fff}header .st{margin-left:auto;font-size:.85em;color:#cfd8e3}
main{max-width:72em;margin:1.2em auto;padding:0 1em}h1{font-size:1.4em;margin:.2em 0 .6em}h2{font-size:1.1em;margin:1.2em 0 .5em}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(21em,1fr));gap:1em}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:.9em 1em}
.tier{font-size:1.6em;font-weight:700;color:var(--acc)}.tier.unknown{color:#999;font-size:1.1em}
.mut{color:var(--mut);font-size:.9em}.bar{height:.5em;background:#e2e8f0;border-radius:3px;overflow:hidden;margin:.3em 0}
.bar i{display:block;height:100%;background:var(--acc)}
ul.ev{margin:.4em 0 0;padding-left:1.1em;font-size:.85em;color:var(--mut)}
table{border-collapse:collapse;width:100%;background:var(--card);font-size:.9em}
th,td{text-align:left;padding:.35em .6em;border-bottom:1px solid var(--line);vertical-align:top}
th{background:#eef1f5}tr.anomaly td{background:#fff5f5}tr.perturbed td:first-child{border-left:4px solid var(--warn)}
.tag{display:inline-block;padding:0 .45em;border-radius:9px;font-size:.8em;background:#e2e8f0;margin:0 .2em .2em 0}
.tag.bad{background:#fed7d7;color:#822727}.tag.warn{background:#feebc8;color:#7b341e}.tag.ok{background:#c6f6d5;color:#22543d}
form.inline{display:inline}input[type=text],textarea,select{font:inherit;padding:.35em .5em;border:1px solid #b8c0cc;border-radius:5px}
input[type=text]{width:28em;max-width:100%}input.short{width:11em}button{font:inherit;padding:.35em .9em;border-radius:5px;border:1px solid var(--acc);background:var(--acc);color:#fff;cursor:pointer}
button.danger{background:var(--bad);border-color:var(--bad)}.answer{white-space:pre-wrap;background:var(--card);border-left:4px solid var(--acc);padding:.7em 1em}
pre{background:#fff;border:1px solid var(--line);padding:.8em;overflow:auto;white-space:pre-wrap}
.frames{display:grid;grid-template-columns:repeat(auto-fill,minmax(14em,1fr));gap:.8em}.frames img{width:100%;border:1px solid var(--line)}
.msg{padding:.6em 1em;border-radius:6px;background:#ebf8ff;border:1px solid #90cdf4;margin:.6em 0}.msg.err{background:#fff5f5;border-color:#feb2b2}
svg text{font:11px system-ui,sans-serif;fill:#333}
"""


def _when(ms: Any) -> str:
    if not isinstance(ms, int | float) or not ms:
        return "-"
    return dt.datetime.fromtimestamp(ms / 1000.0).strftime("%Y-%m-%d %H:%M")


def page(title: str, body: str, *, active: str, status: str = "") -> str:
    nav = "".join(f'<a href="{href}"{" class=on" if href == active else ""}>{esc(label)}</a>'
                  for href, label in NAV)
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width,initial-scale=1">'
        f"<title>{esc(title)} - FileGram</title><link rel=stylesheet href=/ui/style.css></head><body>"
        f"<header><b>FileGram</b>{nav}<span class=st id=status>{esc(status)}</span></header>"
        f"<main><h1>{esc(title)}</h1>{body}</main></body></html>"
    )


def csrf_field(csrf: str) -> str:
    return f'<input type=hidden name=csrf value="{esc(csrf)}">'


# -- profile ---------------------------------------------------------------------------


def profile_chart(profile: dict[str, Any]) -> str:
    """Six rows: the tier position on an L-M-R axis (dot size = confidence) and a
    confidence bar."""
    dims = profile.get("dimensions") or {}
    w, row, left = 700, 34, 150
    h = row * len(DIM_ORDER) + 34
    axis_w = 300
    parts = [f'<svg id=profile-chart viewBox="0 0 {w} {h}" width="{w}" role=img '
             'aria-label="tier and confidence of each dimension" xmlns="http://www.w3.org/2000/svg">']
    for k, t in enumerate(("L", "M", "R")):
        x = left + 20 + k * (axis_w - 40) / 2
        parts.append(f'<line x1="{x}" y1="18" x2="{x}" y2="{h - 6}" stroke="#dde1e7"/>'
                     f'<text x="{x}" y="12" text-anchor="middle">{t}</text>')
    parts.append(f'<text x="{left + axis_w + 30}" y="12">confidence</text>')
    for i, d in enumerate(DIM_ORDER):
        info = dims.get(d) or {}
        tier = info.get("tier", "unknown")
        conf = float(info.get("confidence") or 0.0)
        y = 30 + i * row
        parts.append(f'<text x="4" y="{y + 4}">{d} {esc(str(info.get("name") or DIM_NAMES[d]))}</text>')
        if tier in TIER_POS:
            mp = info.get("mean_position")
            pos = float(mp) if isinstance(mp, int | float) else TIER_POS[tier]
            x = left + 20 + pos * (axis_w - 40) / 2
            r = 5 + 9 * conf
            parts.append(f'<circle data-dim="{d}" data-tier="{tier}" cx="{x:.1f}" cy="{y}" r="{r:.1f}" '
                         f'fill="#2b6cb0" fill-opacity="{0.3 + 0.7 * conf:.2f}"/>'
                         f'<text x="{x:.1f}" y="{y + 4}" text-anchor="middle" fill="#fff">{tier}</text>')
        else:
            parts.append(f'<text x="{left + axis_w / 2}" y="{y + 4}" text-anchor="middle" fill="#999">unknown</text>')
        bx = left + axis_w + 30
        parts.append(f'<rect x="{bx}" y="{y - 6}" width="150" height="12" fill="#e2e8f0"/>'
                     f'<rect x="{bx}" y="{y - 6}" width="{150 * conf:.1f}" height="12" fill="#2b6cb0"/>'
                     f'<text x="{bx + 156}" y="{y + 4}">{conf:.2f}</text>')
    parts.append("</svg>")
    return "".join(parts)


def sparkline(points: list[tuple[int, float]], n: int, dim: str) -> str:
    """Per-session positions of one dimension (L top, R bottom) with a running mean."""
    w, h = 300, 60
    if not points:
        return f'<svg class=spark data-dim="{dim}" viewBox="0 0 {w} {h}" width="{w}" height="{h}"><text x="4" y="34" fill="#999">no sessions yet</text></svg>'

    def xy(i: int, p: float) -> tuple[float, float]:
        return 12 + (w - 24) * (i / max(n - 1, 1)), 8 + (h - 16) * (p / 2.0)

    dots = "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.2" fill="#90a4c0"/>'
                   for x, y in (xy(i, p) for i, p in points))
    run, acc = [], 0.0
    for k, (i, p) in enumerate(points, start=1):
        acc += p
        run.append(xy(i, acc / k))
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in run)
    grid = "".join(f'<line x1="10" x2="{w - 10}" y1="{8 + (h - 16) * q / 2}" y2="{8 + (h - 16) * q / 2}" stroke="#eee"/>'
                   f'<text x="0" y="{12 + (h - 16) * q / 2}" font-size="9">{t}</text>'
                   for q, t in ((0, "L"), (1, "M"), (2, "R")))
    return (f'<svg class=spark data-dim="{dim}" viewBox="0 0 {w} {h}" width="{w}" height="{h}" '
            f'xmlns="http://www.w3.org/2000/svg">{grid}{dots}<polyline points="{line}" fill="none" '
            'stroke="#2b6cb0" stroke-width="1.6"/></svg>')


def profile_page(profile: dict[str, Any], history: dict[str, list[tuple[int, float]]], n_hist: int,
                 status: str) -> str:
    dims = profile.get("dimensions") or {}
    cards = []
    for d in DIM_ORDER:
        info = dims.get(d) or {}
        tier = str(info.get("tier", "unknown"))
        conf = float(info.get("confidence") or 0.0)
        ev = info.get("evidence") or []
        ev_html = "".join(f"<li>{esc(str(e))}</li>" for e in (ev if isinstance(ev, list) else [ev])[:6])
        advice = ADVICE.get(d, {}).get(tier, "")
        cards.append(
            f'<div class=card id="dim-{d}" data-dim="{d}" data-tier="{esc(tier)}" data-confidence="{conf:.4f}">'
            f'<div class=mut>{d} {esc(str(info.get("name") or DIM_NAMES[d]))} &middot; {DIM_VERBS[d]}</div>'
            f'<div class="tier{" unknown" if tier not in TIER_POS else ""}">{esc(tier)}</div>'
            f'<div>{esc(str(info.get("description") or ""))}</div>'
            f'<div class=bar title="confidence"><i style="width:{conf * 100:.0f}%"></i></div>'
            f'<div class=mut>confidence {conf:.2f} &middot; {info.get("sessions", 0)} session(s)</div>'
            + (f'<div class=mut>For assistants: {esc(advice)}</div>' if advice else "")
            + f"<ul class=ev>{ev_html}</ul>"
            f"<div class=mut>over time (last {n_hist} sessions):</div>{sparkline(history.get(d, []), n_hist, d)}</div>"
        )
    anomalies = profile.get("anomalies") or []
    body = (
        f'<p class=mut>{profile.get("sessions", 0)} session(s) in memory; updated {_when(profile.get("updated_ms"))}. '
        'Each dimension has a tier (L / M / R), a confidence and the evidence behind it.</p>'
        f"{profile_chart(profile)}<h2>Dimensions</h2><div class=grid>{''.join(cards)}</div>"
        f"<h2>Changes noticed ({len(anomalies)})</h2>{anomaly_table(anomalies)}"
    )
    return page("How you work", body, active="/ui/", status=status)


def anomaly_table(anomalies: list[dict[str, Any]]) -> str:
    if not anomalies:
        return "<p class=mut>No session stands out from your usual way of working.</p>"
    rows = "".join(
        f'<tr data-session="{esc(str(a.get("session")))}" data-dim="{esc(str(a.get("dimension")))}">'
        f'<td><a href="/ui/activity?session={quote(str(a.get("session")))}">{esc(str(a.get("label") or str(a.get("session"))[:8]))}</a></td>'
        f'<td>{esc(str(a.get("dimension")))} {esc(DIM_NAMES.get(str(a.get("dimension")), ""))}</td>'
        f'<td>{esc(str(a.get("from")))} &rarr; {esc(str(a.get("to")))}</td>'
        f'<td><span class="tag {"bad" if a.get("verdict") == "genuine" else "warn"}">{esc(str(a.get("verdict")))}</span></td>'
        f'<td class=mut>{esc(str(a.get("reason") or ""))}</td></tr>'
        for a in anomalies if isinstance(a, dict)
    )
    return ("<table id=anomalies><tr><th>session</th><th>dimension</th><th>direction</th><th>verdict</th>"
            f"<th>why</th></tr>{rows}</table>")


# -- timeline --------------------------------------------------------------------------


def timeline_svg(sessions: list[dict[str, Any]], flagged: dict[str, list[dict[str, Any]]]) -> str:
    w, h = 960, 120
    if not sessions:
        return "<p class=mut>No sessions recorded yet.</p>"
    t0 = min(float(s.get("started_ms") or 0) for s in sessions)
    t1 = max(float(s.get("ended_ms") or s.get("started_ms") or 0) for s in sessions)
    span = max(t1 - t0, 1.0)

    def x(t: float) -> float:
        return 20 + (w - 40) * (t - t0) / span

    parts = [f'<svg id=timeline viewBox="0 0 {w} {h}" width="100%" xmlns="http://www.w3.org/2000/svg">',
             f'<line x1="20" x2="{w - 20}" y1="60" y2="60" stroke="#bbb"/>',
             f'<text x="20" y="112">{esc(_when(t0))}</text>',
             f'<text x="{w - 20}" y="112" text-anchor="end">{esc(_when(t1))}</text>']
    for s in sessions:
        a = float(s.get("started_ms") or t0)
        b = float(s.get("ended_ms") or a)
        x0, x1 = x(a), max(x(b), x(a) + 3)
        sid = str(s["id"])
        marks = flagged.get(sid) or []
        pert = _perturbation(s)
        color = "#c53030" if marks else "#2b6cb0"
        title = esc(f"{s.get('label') or sid[:8]} {_when(a)}")
        parts.append(f'<rect class=sess data-session="{esc(sid)}" x="{x0:.1f}" y="50" width="{x1 - x0:.1f}" '
                     f'height="20" fill="{color}" fill-opacity="0.75"><title>{title}</title></rect>')
        if marks:
            lab = ", ".join(f"{esc(str(m.get('dimension')))} {esc(str(m.get('from')))}&#8594;{esc(str(m.get('to')))}"
                            for m in marks)
            parts.append(f'<text x="{x0:.1f}" y="42" fill="#c53030" data-anomaly="{esc(sid)}">{lab}</text>')
        if pert:
            parts.append(f'<circle cx="{(x0 + x1) / 2:.1f}" cy="82" r="4" fill="#dd6b20" data-perturbed="{esc(sid)}">'
                         f'<title>perturbed: {esc(pert)}</title></circle>')
    parts.append("</svg>")
    return "".join(parts)


def _perturbation(s: dict[str, Any]) -> str:
    """Ground truth a simulated session brings (its perturbation.json): 'C L->M'."""
    meta = s.get("metadata") or {}
    p = meta.get("perturbation") if isinstance(meta, dict) else None
    shifted = (p or {}).get("shifted_dims") if isinstance(p, dict) else None
    if not isinstance(shifted, dict) or not shifted:
        return ""
    return ", ".join(f"{d} {v.get('original')}->{v.get('perturbed')}" for d, v in shifted.items() if isinstance(v, dict))


def timeline_page(sessions: list[dict[str, Any]], anomalies: list[dict[str, Any]], status: str) -> str:
    flagged: dict[str, list[dict[str, Any]]] = {}
    for a in anomalies:
        if isinstance(a, dict):
            flagged.setdefault(str(a.get("session")), []).append(a)
    rows = []
    for s in sessions[::-1]:
        sid = str(s["id"])
        marks = flagged.get(sid) or []
        pert = _perturbation(s)
        cls = " ".join(c for c in ("anomaly" if marks else "", "perturbed" if pert else "") if c)
        mark_html = "".join(
            f'<span class="tag {"bad" if m.get("verdict") == "genuine" else "warn"}" data-dim="{esc(str(m.get("dimension")))}">'
            f'{esc(str(m.get("dimension")))} {esc(DIM_NAMES.get(str(m.get("dimension")), ""))}: '
            f'{esc(str(m.get("from")))} &rarr; {esc(str(m.get("to")))} ({esc(str(m.get("verdict")))})</span>'
            for m in marks
        )
        pert_html = f"<span class='tag warn'>{esc(pert)}</span>" if pert else ""
        rows.append(
            f'<tr class="{cls}" data-session="{esc(sid)}" data-anomaly="{"1" if marks else "0"}" '
            f'data-perturbed="{esc(pert)}"><td><a href="/ui/activity?session={quote(sid)}">'
            f'{esc(str(s.get("label") or sid[:8]))}</a></td><td>{esc(_when(s.get("started_ms")))}</td>'
            f'<td>{esc(str(s.get("source") or ""))}</td><td>{s.get("action_count", "")}</td>'
            f'<td>{mark_html or "<span class=mut>as usual</span>"}</td>'
            f"<td>{pert_html}</td></tr>"
        )
    body = (
        "<p class=mut>Each bar is a session. Red: memory flagged it as unlike your usual work "
        "(the dimension and direction it moved). Orange dot: the session's own metadata says it was "
        "perturbed (simulated users only).</p>"
        f"{timeline_svg(sessions, flagged)}"
        "<table id=sessions><tr><th>session</th><th>started</th><th>source</th><th>actions</th>"
        f"<th>drift noticed by memory</th><th>perturbation (ground truth)</th></tr>{''.join(rows)}</table>"
    )
    return page("Timeline", body, active="/ui/timeline", status=status)


# -- activity, ask, card, screen, privacy ------------------------------------------------


def activity_page(actions: list[dict[str, Any]], session: str | None, status: str) -> str:
    rows = "".join(
        f'<tr data-type="{esc(a["type"])}"><td>{esc(a["time"])}</td><td>{esc(a["type"])}</td>'
        f'<td>{esc(a["detail"])}</td><td class=mut>{esc(str(a.get("session") or "")[:8])}</td></tr>'
        for a in actions
    )
    head = f"<p class=mut>Session {esc(session)} (<a href=/ui/activity>all</a>)</p>" if session else ""
    body = (f"{head}<table id=actions><tr><th>time</th><th>action</th><th>what</th><th>session</th></tr>"
            f"{rows or '<tr><td colspan=4 class=mut>nothing recorded yet</td></tr>'}</table>")
    return page("Recent actions", body, active="/ui/activity", status=status)


def ask_page(csrf: str, status: str, *, question: str = "", answer: dict[str, Any] | None = None,
             error: str = "", name_for: str = "", kind: str = "", suggestion: dict[str, Any] | None = None,
             hits: dict[str, Any] | None = None, query: str = "") -> str:
    out = [f'<form method=post action=/ui/ask id=ask-form>{csrf_field(csrf)}'
           f'<input type=text name=question id=question placeholder="How do I usually organise my folders?" '
           f'value="{esc(question)}"> <button type=submit>Ask</button></form>']
    if error:
        out.append(f"<div class='msg err'>{esc(error)}</div>")
    if answer is not None:
        out.append(f'<h2>Answer</h2><div class=answer id=answer>{esc(str(answer.get("text") or ""))}</div>')
        if answer.get("warnings"):
            out.append("".join(f"<div class='msg err'>{esc(str(w))}</div>" for w in answer["warnings"]))
        out.append(f'<details><summary class=mut>evidence{" (LLM)" if answer.get("used_llm") else ""}</summary>'
                   f'<pre>{esc(str(answer.get("evidence") or ""))}</pre></details>')
    out.append('<h2>Search your work</h2><form method=get action=/ui/ask id=search-form>'
               f'<input type=text name=q value="{esc(query)}" placeholder="quarterly summary"> <button>Search</button></form>')
    if hits is not None:
        items = "".join(f'<li><b>{esc(str(h.get("path") or ""))}</b> <span class=mut>{esc((h.get("text") or "")[:220])}</span></li>'
                        for h in hits.get("memory") or [])
        paths = "".join(f"<li>{esc(p)}</li>" for p in hits.get("paths") or [])
        out.append(f"<ul id=search-hits>{items or '<li class=mut>no passages</li>'}</ul>"
                   f"<div class=mut>paths:</div><ul id=search-paths>{paths or '<li class=mut>none</li>'}</ul>")
    out.append('<h2>Name a new file</h2><form method=get action=/ui/ask id=suggest-form>'
               f'<input type=text name=name_for value="{esc(name_for)}" placeholder="patent email from May"> '
               f'<input type=text name=kind value="{esc(kind)}" placeholder="kind (report)" class=short> '
               '<button>Suggest</button></form>')
    if suggestion is not None:
        out.append(f'<p>Suggested: <code id=suggestion>{esc(suggestion["path"])}</code></p><ul class=ev>'
                   + "".join(f"<li>{esc(r)}</li>" for r in suggestion.get("reasons") or []) + "</ul>")
    return page("Ask your memory", "".join(out), active="/ui/ask", status=status)


def card_page(card: str, status: str) -> str:
    body = ("<p class=mut>Drop this into an agent's instructions file (AGENTS.md, CLAUDE.md, ...). "
            "<a href=/ui/card.md download=working-style.md>Download</a> or run <code>filegram card --out FILE</code>.</p>"
            f"<pre id=card>{esc(card)}</pre>")
    return page("Working style card", body, active="/ui/card", status=status)


def screen_page(state: dict[str, Any], frames: Iterable[dict[str, Any]], query: str,
                hits: list[dict[str, Any]] | None, status: str) -> str:
    if not state.get("available"):
        return page("Screen", f"<p class=mut>{esc(state.get('reason') or 'Screen capture is not available.')}</p>",
                    active="/ui/screen", status=status)
    head = (f"<p class=mut>Screen capture is <b>{'on' if state.get('enabled') else 'off'}</b>; "
            f"{state.get('frames', 0)} frame(s) stored. Turn it on or off from the tray or [screen] enabled "
            "in the config.</p><form method=get action=/ui/screen><input type=text name=q "
            f'value="{esc(query)}" placeholder="text seen on screen"> <button>Search</button></form>')
    shown = hits if hits is not None else list(frames)

    def fig(f: dict[str, Any]) -> str:
        return (f'<figure data-frame="{f.get("id")}"><img loading=lazy alt="screen frame" src="/ui/frame/{int(f["id"])}">'
                f'<figcaption class=mut>{esc(_when(f.get("ts")))} {esc(str(f.get("app") or ""))} '
                f'{esc(str(f.get("window_title") or ""))} {esc(str(f.get("snippet") or ""))}</figcaption></figure>')

    grid = "".join(fig(f) for f in shown if f.get("id") is not None)
    return page("Screen", head + f"<div class=frames id=frames>{grid or '<p class=mut>no frames</p>'}</div>",
                active="/ui/screen", status=status)


def privacy_page(csrf: str, status: str, *, paused: bool | None, exclusions: list[str], message: str = "",
                 error: str = "", can_pause: bool = True) -> str:
    out = []
    if message:
        out.append(f"<div class=msg id=message>{esc(message)}</div>")
    if error:
        out.append(f"<div class='msg err' id=error>{esc(error)}</div>")
    if can_pause:
        state = "paused" if paused else "recording"
        action, label = ("resume", "Resume recording") if paused else ("pause", "Pause recording")
        out.append(f'<h2>Recording</h2><p>Recording is <b id=rec-state>{state}</b>. '
                   f'<form class=inline method=post action=/ui/privacy/{action}>{csrf_field(csrf)}'
                   f'<button id={action}>{label}</button></form></p>')
    ex = "".join(f"<li><code>{esc(p)}</code></li>" for p in exclusions) or "<li class=mut>none beyond the built-in secrets list</li>"
    out.append(
        "<h2>Exclusions</h2><p class=mut>Nothing at all is stored for paths matching these patterns "
        "(not even the name). A new pattern applies at once while the daemon records.</p>"
        f"<ul id=exclusions>{ex}</ul><form method=post action=/ui/privacy/exclude>{csrf_field(csrf)}"
        '<input type=text name=pattern placeholder="private/* or *.kdbx"> '
        "<label><input type=checkbox name=forget value=1 checked> also forget what is already stored</label> "
        "<button>Exclude</button></form>"
    )
    out.append(
        "<h2>Forget</h2><p class=mut>Removes matching actions, content snapshots, screen frames and "
        "everything memory derived from them, then rebuilds memory. This cannot be undone.</p>"
        f"<form method=post action=/ui/privacy/forget id=forget-form>{csrf_field(csrf)}"
        '<p><label>path or folder glob <input type=text name=path placeholder="clients/acme/*"></label></p>'
        '<p><label>since <input type=text name=since placeholder="2026-05-01" class=short></label> '
        '<label>until <input type=text name=until placeholder="2026-05-31" class=short></label></p>'
        "<p><label><input type=checkbox name=all value=1> everything</label></p>"
        '<button class=danger id=forget>Forget</button></form>'
    )
    return page("Privacy", "".join(out), active="/ui/privacy", status=status)


def login_page() -> str:
    body = ("<p>This dashboard shows your private activity, so it needs the key of your running "
            "daemon. Open it with <code>filegram open</code> (or from the tray).</p>")
    return page("Sign in", body, active="")


def error_page(status_code: int, message: str) -> str:
    return page(f"Error {status_code}", f"<div class='msg err'>{esc(message)}</div>", active="")
