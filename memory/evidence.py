"""Stage 3: route a question to dimensions and assemble evidence under a token budget.

The order is fixed (as published): procedural summary, the named session if any, semantic
samples, episodic clusters, anomalies, episodes. Routed dimensions get their full evidence,
the others one line, so the answer can still contrast them. Everything is redacted again
before it can leave the machine.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from filegram.privacy import redact

from .dimensions import DIM_IDS, DIMENSIONS, dimension_label
from .embed import HashingEmbedder
from .view import MemoryView

if TYPE_CHECKING:
    from filegram.store import Store

_LETTER = re.compile(r"(?:\bdimension\s+|\(|\b)([A-F])(?:\)|\s*[:/])", re.I)
_OVERALL = re.compile(r"\b(profile|overall|summari[sz]e|working style|work style|habits|all dimensions|describe (this|the) user)\b")
_hash = HashingEmbedder()
_DIM_TEXT = {d: f"{dim.name} " + " ".join(dim.tiers.values()) + " " + " ".join(dim.keywords) for d, dim in DIMENSIONS.items()}
_DIM_VECS = _hash.embed([_DIM_TEXT[d] for d in DIM_IDS])


def word_hit(text: str, kw: str) -> bool:
    """A keyword as a word of the (lower-case) text; CJK keywords as a substring."""
    if re.search(r"[\u3400-\u9fff]", kw):
        return kw in text
    return re.search(r"(?<![a-z])" + re.escape(kw) + r"(?![a-z])", text) is not None


def route(question: str) -> list[str]:
    """Dimensions a question is about: explicit names and letters, then keywords, then the
    nearest dimension descriptions by embedding; all six when nothing points anywhere."""
    q = question.lower()
    if _OVERALL.search(q):
        return list(DIM_IDS)
    hits: dict[str, float] = {}
    for d, dim in DIMENSIONS.items():
        if word_hit(q, dim.name.lower()) or re.search(rf"\({d}\)|\bdimension {d.lower()}\b", q):
            hits[d] = hits.get(d, 0) + 3.0
        for kw in dim.keywords:
            if word_hit(q, kw):
                hits[d] = hits.get(d, 0) + 1.0
    if hits:
        top = max(hits.values())
        return [d for d in DIM_IDS if hits.get(d, 0) >= max(top / 2, 1.0)]
    sims = _DIM_VECS @ _hash.embed([question])[0]
    best = float(sims.max())
    if best >= 0.15:
        return [d for d, s in zip(DIM_IDS, sims, strict=True) if s >= best * 0.8]
    return list(DIM_IDS)


def estimate_tokens(text: str) -> int:
    cjk = len(re.findall(r"[\u3400-\u9fff]", text))
    return cjk + (len(text) - cjk + 3) // 4


@dataclass
class Evidence:
    text: str
    sections: list[tuple[str, str]] = field(default_factory=list)
    dims: list[str] = field(default_factory=list)
    session: str | None = None
    truncated: bool = False


def find_session(mem: MemoryView, question: str, session: str | None) -> str | None:
    """A session named by id or label in the question (or given explicitly)."""
    rows = mem.store.conn.execute("SELECT m.session_id, s.label FROM mem_sessions m LEFT JOIN sessions s ON s.id = m.session_id").fetchall()
    if session:
        for sid, label in rows:
            if session in (sid, label):
                return sid
        return None
    for sid, label in rows:
        if len(sid) >= 8 and sid in question:
            return sid
        # cheap substring test first; the word-boundary regex only for real candidates
        if label and len(label) >= 3 and label in question and re.search(rf"(?<![\w-]){re.escape(label)}(?![\w-])", question):
            return sid
    return None


def _chunk_matrix(mem: MemoryView) -> tuple[list[tuple[Any, ...]], np.ndarray]:
    """All chunks and their vectors as one matrix, cached until memory changes."""
    return mem.cached("chunks", lambda: _load_chunks(mem))


def _load_chunks(mem: MemoryView) -> tuple[list[tuple[Any, ...]], np.ndarray]:
    rows = mem.store.conn.execute("SELECT id, session_id, kind, path, text, vector FROM mem_chunks ORDER BY id").fetchall()
    if rows:
        mat = np.frombuffer(b"".join(bytes(r[5]) for r in rows), dtype=np.float32).reshape(len(rows), -1)
    else:
        mat = np.zeros((0, 0), dtype=np.float32)
    return [r[:5] for r in rows], mat


def hybrid_search(mem: MemoryView, query: str, k: int = 5) -> list[dict[str, Any]]:
    conn = mem.store.conn
    rows, mat = _chunk_matrix(mem)
    if not rows:
        return []
    ranks: dict[int, float] = {}
    terms = [t for t in re.findall(r"\w+", query.lower()) if len(t) > 2][:16]
    if terms:
        fts_q = " OR ".join(f'"{t}"' for t in terms)
        try:
            for r, (cid,) in enumerate(conn.execute(
                "SELECT chunk_id FROM mem_fts WHERE mem_fts MATCH ? ORDER BY bm25(mem_fts) LIMIT 50", (fts_q,)
            )):
                ranks[int(cid)] = ranks.get(int(cid), 0.0) + 1.0 / (60 + r)
        except Exception:  # noqa: BLE001 - a query FTS cannot parse just adds nothing
            pass
    try:
        qv = mem.embedder.embed([query])[0]
        if mat.shape[1] == qv.shape[0]:
            sims = mat @ qv
            for r, i in enumerate(np.argsort(-sims, kind="stable")[:50]):
                cid = rows[int(i)][0]
                ranks[cid] = ranks.get(cid, 0.0) + 1.0 / (60 + r)
    except Exception:  # noqa: BLE001 - an unreachable embedding service leaves FTS alone
        pass
    by_id = {r[0]: r for r in rows}
    best = sorted(ranks, key=lambda c: (-ranks[c], c))[:k]
    return [{"session": by_id[c][1], "kind": by_id[c][2], "path": by_id[c][3], "text": by_id[c][4], "score": round(ranks[c], 5)} for c in best]


def text_search(store: Store, query: str, k: int = 5) -> list[dict[str, Any]]:
    """Chunks holding every word of the query (FTS5, a word may be the start of a longer
    one), ranked by bm25, with the match in [brackets] (snippet()). Unlike hybrid_search,
    nothing comes back that does not contain the query: what `filegram search` shows."""
    words = [w for w in re.findall(r"\w+", query.lower())][:16]
    if not words:
        return []
    match = " AND ".join('"' + w.replace('"', '""') + '"*' for w in words)
    try:
        rows = store.conn.execute(
            "SELECT c.session_id, c.kind, c.path, snippet(mem_fts, 0, '[', ']', '...', 16), bm25(mem_fts) "
            "FROM mem_fts JOIN mem_chunks c ON c.id = mem_fts.chunk_id WHERE mem_fts MATCH ? "
            "ORDER BY bm25(mem_fts), c.id LIMIT ?", (match, int(k))).fetchall()
    except Exception:  # noqa: BLE001 - a query FTS cannot parse finds nothing
        return []
    return [{"session": s, "kind": kind, "path": path, "text": snip, "score": round(-float(score), 5)}
            for s, kind, path, snip, score in rows if "[" in snip]


def assemble(mem: MemoryView, question: str, choices: list[str] | None = None, *, session: str | None = None, budget: int | None = None) -> Evidence:
    budget = int(budget or mem.config["memory"]["evidence_token_budget"])
    dims = route(question + " " + " ".join(choices or []))
    prof = mem.profile_view()
    sid = find_session(mem, question, session)
    sections: list[tuple[str, str]] = []

    lines = []
    for d in DIM_IDS:
        p = prof["dimensions"][d]
        head = f"{dimension_label(d)}: {p['tier']}"
        if p["tier"] != "unknown":
            head += f" ({p['description']}), confidence {p['confidence']:.2f}"
        lines.append(head)
        if d in dims:
            lines.extend("  - " + e for e in p["evidence"])
    shares = prof.get("session_shares", {})
    if shares:
        lines.append("Share of sessions with: " + ", ".join(f"{k[4:]} {v:.0%}" for k, v in shares.items()))
    sections.append(("Procedural summary", "\n".join(lines)))

    if sid:
        tiers = mem.session_tiers(sid)
        shifts = mem.session_shift(sid)
        label = next((v.label for v in mem.session_views() if v.session_id == sid), None) or sid
        sl = [f"Session {label}:"]
        sl += [f"  {dimension_label(d)}: {t['tier']} ({t['evidence']})" for d, t in sorted(tiers.items())]
        sl.append("  Largest deviations from the user's norm:")
        sl += [f"  - {s['dimension']}: {s['from']} -> {s['to']} (score {s['score']:.2f}, {s['verdict']})" for s in shifts[:3]]
        sections.append(("Session", "\n".join(sl)))

    sem = []
    eng_rows = mem.store.conn.execute("SELECT engram FROM mem_sessions ORDER BY order_key DESC LIMIT 50").fetchall()
    types: dict[str, int] = {}
    langs: dict[str, int] = {}
    for (e,) in eng_rows:
        summ = json.loads(e).get("summary", {})
        for t in summ.get("output_types", []):
            types[t] = types.get(t, 0) + 1
        for lg in summ.get("languages", []):
            langs[lg] = langs.get(lg, 0) + 1
    if types:
        sem.append("Output file types: " + ", ".join(f"{t} ({n})" for t, n in sorted(types.items(), key=lambda kv: (-kv[1], kv[0]))[:8]))
    if langs:
        sem.append("Languages written: " + ", ".join(f"{t} ({n})" for t, n in sorted(langs.items())))
    query = question + " " + " ".join(DIMENSIONS[d].name for d in dims)
    for c in hybrid_search(mem, query, 5):
        snippet = c["text"][:300].replace("\n", " / ")
        sem.append(f"[{c['kind']} {c['path']}] {snippet}")
    if sem:
        sections.append(("Semantic samples", "\n".join(sem)))

    clusters = prof.get("clusters", [])
    if clusters:
        cl = [f"{len(clusters)} behavioural cluster(s) over {prof['sessions']} session(s):"]
        views = mem.session_views()
        for c in sorted(clusters, key=lambda c: (-c["sessions"], c["id"]))[:8]:
            members = [v for v in views if v.cluster == c["id"]]
            sig = []
            for d in DIM_IDS:
                tally: dict[str, int] = {}
                for v in members:
                    if d in v.tiers:
                        tally[v.tiers[d]["tier"]] = tally.get(v.tiers[d]["tier"], 0) + 1
                if tally:
                    t, n = max(tally.items(), key=lambda kv: (kv[1], kv[0]))
                    sig.append(f"{d} mostly {t} ({n}/{sum(tally.values())})")
            tasks = sorted({v.task_id for v in members if v.task_id})[:6]
            cl.append(f"  cluster {c['id']}: {c['sessions']} session(s)" + (f"; {', '.join(sig)}" if sig else "")
                      + (f"; tasks {', '.join(tasks)}" if tasks else ""))
        sections.append(("Episodic clusters", "\n".join(cl)))

    if prof["anomalies"]:
        al = []
        for a in prof["anomalies"][:8]:
            al.append(f"{a['label'] or a['session'][:8]} (task {a['task'] or '?'}): {a['dimension']}: {a['from']} -> {a['to']}, "
                      f"{a['verdict']} (distance {a['distance']:.2f} > {a['threshold']:.2f})")
        sections.append(("Anomalies", "\n".join(al)))

    eps = []
    rows = mem.store.conn.execute(
        "SELECT session_id, engram FROM mem_sessions " + ("WHERE session_id = ? " if sid else "") + "ORDER BY order_key DESC LIMIT 5",
        (sid,) if sid else (),
    ).fetchall()
    for s, e in rows:
        narr = mem.store.conn.execute("SELECT text FROM mem_narratives WHERE session_id = ?", (s,)).fetchone()
        if narr:
            eps.append(f"{s[:8]}: {narr[0]}")
            continue
        for ep in json.loads(e).get("episodes", [])[:5]:
            eps.append(f"{s[:8]} #{ep['index']}: {ep['description']}")
    if eps:
        sections.append(("Episodes", "\n".join(eps[:10] if sid else eps[:5 * 5][:10])))

    out, used, truncated = [], 0, False
    for name, body in sections:
        block = redact(f"## {name}\n{body}\n")
        cost = estimate_tokens(block)
        if used + cost > budget:
            room = budget - used
            if room > 40:
                keep = block[: max(room * 3, 0)]
                out.append(keep.rsplit("\n", 1)[0] + "\n[...]\n")
            truncated = True
            break
        out.append(block)
        used += cost
    return Evidence(text="".join(out), sections=sections, dims=dims, session=sid, truncated=truncated)
