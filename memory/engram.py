"""Stage 1: one closed session becomes an Engram (features, tiers, content, episodes).

`encode_session` is a pure function of the session's event dicts and a blob getter, so the
store, the bench's baselines and the simulator's tests all encode a trajectory the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from filegram.schema import OFFICE_TYPES

from .content import TEXT_TYPES, analyse, diff_lines
from .dimensions import task_info
from .episodes import episodes
from .features import (
    BlobGetter,
    by_type,
    clean_events,
    earlier_texts,
    edit_diff_texts,
    event_file_type,
    fingerprint_of,
    raw_features_of,
    rounded,
    size_edits_from_diffs,
    written_texts,
)
from .signals import session_signals
from .tiers import session_tiers
from .tokens import count_tokens, token_counts, top_words

CHUNK_CHARS = 800
MAX_CHUNKS_PER_SESSION = 8
KEEP_HEAD_CHARS = 3000
# Engram fields stored outside the engram's JSON (memory/channels.py puts them back on read).
STORED_APART = frozenset({"chunks", "fingerprint", "tiers", "signals"})


@dataclass
class Engram:
    session_id: str
    task_id: str | None
    task_type: str | None
    started_ms: float
    actions: int
    fingerprint: dict[str, float]
    features: dict[str, float]
    tiers: dict[str, dict[str, Any]]
    signals: dict[str, dict[str, Any]] = field(default_factory=dict)
    documents: list[dict[str, Any]] = field(default_factory=list)
    edits: list[dict[str, Any]] = field(default_factory=list)
    chunks: list[dict[str, Any]] = field(default_factory=list)
    episodes: list[dict[str, Any]] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        # Fields are JSON-ready already: a shallow dict avoids asdict's deep copy.
        return {k: getattr(self, k) for k in self.__dataclass_fields__}

    def stored(self) -> dict[str, Any]:
        """as_dict without what memory keeps elsewhere: chunk text (the semantic channel) and
        the fingerprint, tiers and signals (columns of their own)."""
        return {k: v for k, v in self.as_dict().items() if k not in STORED_APART}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Engram:
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})


def _chunks_of(text: str, size: int, limit: int | None = None) -> list[str]:
    """Split at paragraph boundaries into pieces of at most `size` characters (the first
    `limit` of them)."""
    pieces, cur = [], ""
    for para in text.split("\n\n"):
        if limit is not None and len(pieces) >= limit:
            return pieces[:limit]
        para = para.strip()
        if not para:
            continue
        while len(para) > size:
            if cur:
                pieces.append(cur)
                cur = ""
            pieces.append(para[:size])
            para = para[size:]
        if len(cur) + len(para) + 2 > size and cur:
            pieces.append(cur)
            cur = para
        else:
            cur = f"{cur}\n\n{para}" if cur else para
    if cur:
        pieces.append(cur)
    return pieces[:limit]


def _summed_counts(pieces: list[str]) -> Mapping[bytes, int]:
    """The token counts of pieces of text added up (read only: one piece's are the shared,
    cached counts themselves). Only the counts matter, not the order of the tokens.

    Each piece is counted through the cache, because the pieces are the chunks the fold
    embeds moments later: counting them joined, in one pass, left the embedder to count
    each of them again, which cost more than this merge (5% of consolidate's instructions
    on users-dev)."""
    if len(pieces) == 1:
        return token_counts(pieces[0])
    terms: dict[bytes, int] = {}
    for piece in pieces:
        counts = token_counts(piece)
        if terms:
            get = terms.get
            for tok, n in counts.items():
                terms[tok] = get(tok, 0) + n
        else:
            terms.update(counts)
    return terms


def encode_session(
    events: Iterable[Mapping[str, Any]],
    get_blob: BlobGetter | None = None,
    *,
    session_id: str | None = None,
    task_id: str | None = None,
    started_ms: float | None = None,
    chunk_chars: int = CHUNK_CHARS,
    max_chunks: int = MAX_CHUNKS_PER_SESSION,
    owner_key: str | None = None,
) -> Engram:
    """Encode one session. profile_id in the events is ignored: it names the persona."""
    evs = clean_events(events)
    texts = written_texts(evs, get_blob)
    diffs = edit_diff_texts(evs, get_blob)
    size_edits_from_diffs(evs, diffs)

    def red(text: str) -> str:
        """The part of a text that memory keeps (key terms, chunks, diff samples). Stored
        snapshots were redacted by their producer (filegram.privacy) when stored; memory
        redacts again where text leaves the machine (the LLM prompt) and when shown."""
        if len(text) <= KEEP_HEAD_CHARS:
            return text
        cut = text.rfind("\n", 0, KEEP_HEAD_CHARS)
        return text[: cut if cut > 0 else KEEP_HEAD_CHARS]

    by = by_type(evs)
    fp = fingerprint_of(evs, texts, by)
    feats = raw_features_of(evs, texts, fp, by)
    signals = session_signals(evs, texts, diffs, earlier_texts(evs, get_blob), owner_key)
    task = task_info(task_id)
    sid = session_id or (str(evs[0].get("session_id")) if evs else "")

    # A document's key terms come from what memory keeps of it for search (its first two
    # chunks), counted with the embedder's tokens: each piece of text is tokenised once.
    documents: list[dict[str, Any]] = []
    last_pieces: dict[str, list[str]] = {}  # path -> the first chunks of its last written text
    last_terms: dict[str, dict[str, int]] = {}  # path -> its key terms with their counts
    for i, e in enumerate(evs):
        # documents, edits, chunks and episodes are the person's own (not what tar unpacked)
        if e["event_type"] != "file_write" or e.get("authored") is False:
            continue
        path = str(e.get("file_path") or "")
        doc: dict[str, Any] = {
            "path": path,
            "type": event_file_type(e),
            "operation": e.get("operation"),
            "chars": int(e.get("content_length") or 0),
        }
        if i in texts:
            st = analyse(texts[i])
            pieces = _chunks_of(red(texts[i]), chunk_chars, limit=2)
            terms = _summed_counts(pieces)
            top = top_words(terms, 8)
            doc.update(lines=st.lines, headings=st.headings, heading_depth=st.max_heading_depth,
                       list_lines=st.list_lines, table_rows=st.table_rows, language=st.language,
                       key_terms=top)
            last_pieces[path] = pieces
            last_terms[path] = {w: terms[w.encode()] for w in top}
        documents.append(doc)

    edits: list[dict[str, Any]] = []
    diff_chunks: list[dict[str, Any]] = []
    own = [e for e in evs if e.get("authored") is not False]
    for i, diff in diffs.items():
        if evs[i].get("authored") is False:
            continue
        path = str(evs[i].get("file_path") or "")
        added, removed = diff_lines(red(diff))
        edits.append({
            "path": path,
            "added": len(added),
            "removed": len(removed),
            "sample_added": [a[:120] for a in added[:3]],
            "sample_removed": [r[:120] for r in removed[:3]],
            # counted once, uncached: kept out of the cache of the texts about to be embedded
            "key_terms": top_words(count_tokens("\n".join(added)), 5),
        })
        body = "\n".join(["+ " + a for a in added[:20]] + ["- " + r for r in removed[:10]])
        if body.strip():
            diff_chunks.append({"kind": "diff", "path": path, "text": f"edit of {path}:\n{body}"[:chunk_chars]})

    chunks: list[dict[str, Any]] = []
    for path, pieces in sorted(last_pieces.items()):
        # what a person wrote is searchable: text files, and office documents whose text the
        # recorder extracted (a document is in last_pieces only when its snapshot is text)
        kind = event_file_type({"file_path": path})
        if kind not in TEXT_TYPES and kind not in OFFICE_TYPES:
            continue
        for piece in pieces:
            chunks.append({"kind": "content", "path": path, "text": piece})
    chunks = (chunks + diff_chunks)[:max_chunks]

    eps = [ep.as_dict() for ep in episodes(own)]
    # Key terms of the session: its documents' key terms, by how often they occur in them.
    all_terms: dict[str, int] = {}
    for terms in last_terms.values():
        for w, n in terms.items():
            all_terms[w] = all_terms.get(w, 0) + n
    langs = sorted({d.get("language") for d in documents if d.get("language") not in (None, "unknown")})
    summary = {
        "output_types": sorted({d["type"] for d in documents if d["type"]}),
        "languages": langs,
        "key_terms": [w for w, _ in sorted(all_terms.items(), key=lambda kv: (-kv[1], kv[0]))[:10]],
        "episodes": [ep["description"] for ep in eps],
    }
    ts0 = float(evs[0].get("timestamp") or 0.0) if evs else 0.0
    return Engram(
        session_id=sid,
        task_id=task.id if task else (task_id or None),
        task_type=task.type if task else None,
        started_ms=float(started_ms) if started_ms is not None else ts0,
        actions=len(evs),
        fingerprint=rounded(fp),
        features=feats,
        tiers=session_tiers(signals, task.id if task else None),
        signals=signals,
        documents=documents,
        edits=edits,
        chunks=chunks,
        episodes=eps,
        summary=summary,
    )

