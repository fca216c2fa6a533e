"""`Memory`: the FileGramOS facade over the store (ingest, consolidate, profile, ask).

Updates are O(session): one session's engram is encoded from its own actions and folded
into exact running sums, tier votes, one cluster and its chunks. Read-side views (drift
flags, the profile) are computed from those sums on demand and cached per state version.
"""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from filegram.config import Config
from filegram.errors import FileGramError
from filegram.store import Store, now_ms

from . import channels as ch
from .dimensions import DIM_IDS, DIMENSIONS, TIERS, task_info
from .drift import (
    SessionView,
    active_dims,
    assign_cluster,
    attribute,
    detect,
    judge,
    norm_vector,
    zscores,
)
from .embed import Embedder, make_embedder
from .engram import Engram, encode_session
from .features import FEATURE_DIM, FINGERPRINT_FEATURES, is_boolean_feature
from .tiers import aggregate_votes

BATCH = 100
VERSION_KEY = "memory:version"
UPDATED_KEY = "memory:last_update_ms"
ALGORITHM_KEY = "memory:algorithm"
# Bump when encoding, classification or channel layout change meaning: memory built by an
# older FileGram is then rebuilt from the trace at the next consolidate.
ALGORITHM = 1


def order_key(started_ms: float | None, session_id: str) -> str:
    return f"{float(started_ms or 0.0):020.3f}|{session_id}"


class Memory:
    """FileGramOS over one store. Memory never reads profile_id: it names the persona."""

    def __init__(self, store: Store, config: Config | None = None):
        self.store = store
        self.config = config if config is not None else Config()
        ch.migrate(store)
        self._embedder: Embedder | None = None
        self._cache: dict[str, Any] = {}
        self._pending: dict[str, list[Any]] | None = None
        mem = self.config["memory"]
        self.cluster_threshold = float(mem.get("cluster_threshold", 0.6))
        self.chunk_chars = int(mem.get("chunk_chars", 800))
        self.max_chunks = int(mem.get("max_chunks_per_session", 8))
        self.drift_std = float(mem.get("drift_std_threshold", 1.5))

    # -- plumbing ----------------------------------------------------------------------

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = make_embedder(self.config)
        return self._embedder

    def _bump(self) -> None:
        v = int(self.store.get_state(VERSION_KEY, 0)) + 1
        self.store._set_state_raw(VERSION_KEY, v)
        self.store._set_state_raw(ALGORITHM_KEY, ALGORITHM)
        self.store._set_state_raw(UPDATED_KEY, now_ms())

    def version(self) -> int:
        return int(self.store.get_state(VERSION_KEY, 0))

    def last_update_ms(self) -> float | None:
        """Wall time of the last change to memory (None before the first ingest)."""
        return self.store.get_state(UPDATED_KEY)

    def ingested_ids(self) -> set[str]:
        return {r[0] for r in self.store.conn.execute("SELECT session_id FROM mem_sessions")}

    # -- ingest ------------------------------------------------------------------------

    def encode(self, session_id: str) -> Engram:
        sess = self.store.session(session_id)
        if sess is None:
            raise FileGramError(f"no session {session_id}")
        return encode_session(
            self.store.actions(session_id),
            self.store.get_blob,
            session_id=session_id,
            task_id=sess.get("task_id"),
            started_ms=sess.get("started_ms"),
            chunk_chars=self.chunk_chars,
            max_chunks=self.max_chunks,
        )

    def ingest_session(self, session_id: str) -> bool:
        """Fold one closed session into memory. Idempotent; open sessions are skipped
        (returns False), as are sessions already ingested."""
        sess = self.store.session(session_id)
        if sess is None:
            raise FileGramError(f"no session {session_id}")
        if not sess["closed"]:
            return False
        if self.store.conn.execute("SELECT 1 FROM mem_sessions WHERE session_id = ?", (session_id,)).fetchone():
            return False
        engram = self.encode(session_id)
        with self._batch():
            self._apply(engram, sess)
            self._bump()
        return True

    def consolidate(self) -> int:
        """Ingest every closed session not yet in memory (in start order, batched in
        transactions) and forget memory of sessions deleted from the store."""
        if self._stale():
            return self.rebuild()
        sessions = self.store.sessions(closed=True)
        present = {s["id"] for s in sessions}
        gone = self.ingested_ids() - present
        if gone:
            self.forget_sessions(gone)
        done = self.ingested_ids()
        todo = [s for s in sessions if s["id"] not in done]
        todo.sort(key=lambda s: order_key(s["started_ms"], s["id"]))
        max_key = self.store.conn.execute("SELECT MAX(order_key) FROM mem_sessions").fetchone()[0]
        # Sessions older than some already in memory: cluster once at the end, not per session.
        late = bool(todo) and max_key is not None and order_key(todo[0]["started_ms"], todo[0]["id"]) < max_key
        for i in range(0, len(todo), BATCH):
            batch = todo[i : i + BATCH]
            engrams = [self.encode(s["id"]) for s in batch]
            with self._batch():
                for eng, sess in zip(engrams, batch, strict=True):
                    self._apply(eng, sess, cluster=not late)
                if late:  # per batch, so every committed batch leaves consistent clusters
                    self._recluster()
                self._bump()
        if todo and self.config["memory"].get("llm_episode_narratives", False):
            self.narrate_episodes([s["id"] for s in todo])
        if todo and self.config["memory"].get("llm_judge", True):
            self.judge_uncertain()
        return len(todo)

    def narrate_episodes(self, session_ids: Iterable[str]) -> int:
        """One LLM call per session turns its episode descriptions into a short narrative
        (no-op without a model; a failure keeps the deterministic descriptions)."""
        from .llm import LLMError, complete, configured

        if not configured(self.config):
            return 0
        from filegram.privacy import redact

        done = 0
        for sid in session_ids:
            row = self.store.conn.execute("SELECT engram FROM mem_sessions WHERE session_id = ?", (sid,)).fetchone()
            if not row:
                continue
            eps = json.loads(row[0]).get("episodes", [])
            if not eps:
                continue
            listing = "\n".join(f"{i + 1}. {ep['description']}" for i, ep in enumerate(eps))
            prompt = ("These are the episodes of one work session on a computer, from file activity:\n"
                      f"{listing}\nNarrate them in at most three short sentences, past tense, no speculation.")
            try:
                text = complete(self.config, [{"role": "user", "content": redact(prompt)}], max_tokens=160)
            except LLMError:
                continue
            with self.store.transaction():
                self.store.conn.execute("INSERT OR REPLACE INTO mem_narratives(session_id, text) VALUES (?, ?)",
                                        (sid, text[:1000]))
            done += 1
        return done

    def _stale(self) -> bool:
        """Memory built by another version of the algorithm (or of unknown version)."""
        stored = self.store.get_state(ALGORITHM_KEY)
        if stored == ALGORITHM:
            return False
        return self.store.conn.execute("SELECT 1 FROM mem_sessions LIMIT 1").fetchone() is not None

    def judge_uncertain(self) -> int:
        """Let the configured LLM judge the drift flags the rules left 'uncertain' (no-op
        without a model; failures leave the rule verdict)."""
        from .answer import judge_uncertain
        from .llm import configured

        if not configured(self.config):
            return 0
        return judge_uncertain(self)

    def _apply(self, eng: Engram, sess: dict[str, Any], *, cluster: bool = True) -> None:
        """Add one engram to every channel (inside the caller's transaction)."""
        conn = self.store.conn
        sid = eng.session_id
        if conn.execute("SELECT 1 FROM mem_sessions WHERE session_id = ?", (sid,)).fetchone():
            return  # another process (the daemon, a CLI) ingested it since we looked
        key = order_key(sess.get("started_ms"), sid)
        vec = norm_vector(eng.fingerprint)
        max_key = conn.execute("SELECT MAX(order_key) FROM mem_sessions").fetchone()[0]
        in_order = max_key is None or key > max_key
        conn.execute(
            "INSERT INTO mem_sessions(session_id, order_key, task_id, task_type, started_ms, actions, engram, "
            "fingerprint, tiers, vector, cluster, ingested_ms) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (sid, key, eng.task_id, eng.task_type, sess.get("started_ms"), eng.actions,
             json.dumps(eng.as_dict(), sort_keys=True, ensure_ascii=False),
             json.dumps(eng.fingerprint, sort_keys=True), json.dumps(eng.tiers, sort_keys=True),
             json.dumps(vec), None, now_ms()),
        )
        # procedural: running sums over every feature, for all sessions, per task type and
        # per "sessions that exercised dimension X" (the norms drift is judged against)
        for grp, feats in feature_groups(eng.as_dict()):
            self._fold_features(grp, feats, +1)
        self._fold_votes(eng.tiers, +1)
        # semantic: chunks with vectors, and full-text index
        if eng.chunks:
            vecs = self.embedder.embed([c["text"] for c in eng.chunks])
            for k, (c, v) in enumerate(zip(eng.chunks, vecs, strict=True)):
                cur = conn.execute(
                    "INSERT INTO mem_chunks(session_id, ordinal, kind, path, text, vector) VALUES (?,?,?,?,?,?)",
                    (sid, k, c["kind"], c.get("path"), c["text"], np.asarray(v, dtype=np.float32).tobytes()),
                )
                conn.execute("INSERT INTO mem_fts(text, chunk_id) VALUES (?, ?)", (c["text"], cur.lastrowid))
        # episodic: leader clustering in canonical order
        if not cluster:
            return
        if in_order:
            self._cluster_one(sid, vec, eng.fingerprint, eng.features)
        else:
            self._recluster()

    def _fold_features(self, grp: str, feats: dict[str, float], sign: int) -> None:
        if self._pending is None:
            n, stats = ch.load_group(self.store, grp)
            ch.stats_add(stats, feats, sign)
            ch.save_group(self.store, grp, n + sign, stats)
            return
        entry = self._pending.get(grp)
        if entry is None:
            entry = self._pending[grp] = list(ch.load_group(self.store, grp))
        ch.stats_add(entry[1], feats, sign)
        entry[0] += sign

    @contextlib.contextmanager
    def _batch(self) -> Iterator[None]:
        """One transaction whose group statistics are folded in memory and written once."""
        with self.store.transaction():
            self._pending = {}
            try:
                yield
                self._flush_groups()
            finally:
                self._pending = None

    def _flush_groups(self) -> None:
        if self._pending:
            for grp, (n, stats) in sorted(self._pending.items()):
                ch.save_group(self.store, grp, n, stats)
            self._pending.clear()

    def _fold_votes(self, tiers: dict[str, dict[str, Any]], sign: int) -> None:
        conn = self.store.conn
        for dim, t in tiers.items():
            row = conn.execute("SELECT n, votes, position_sum FROM mem_votes WHERE dim = ?", (dim,)).fetchone()
            n, votes, psum = (row[0], json.loads(row[1]), row[2]) if row else (0, {x: 0 for x in TIERS}, 0)
            votes[t["tier"]] = votes.get(t["tier"], 0) + sign * ch.q(t["confidence"])
            n += sign
            psum += sign * ch.q(t["position"])
            if n <= 0:
                conn.execute("DELETE FROM mem_votes WHERE dim = ?", (dim,))
            else:
                conn.execute(
                    "INSERT INTO mem_votes(dim, n, votes, position_sum) VALUES (?,?,?,?) ON CONFLICT(dim) DO "
                    "UPDATE SET n = excluded.n, votes = excluded.votes, position_sum = excluded.position_sum",
                    (dim, n, json.dumps(votes, sort_keys=True), psum),
                )

    def _cluster_one(self, sid: str, vec: list[float], fp: dict[str, float], feats: dict[str, float]) -> None:
        conn = self.store.conn
        clusters = [(cid, n, json.loads(c)) for cid, n, c in conn.execute("SELECT id, n, centroid_sum FROM mem_clusters ORDER BY id")]
        cid = assign_cluster(vec, clusters, self.cluster_threshold)
        if cid is None:
            cid = (clusters[-1][0] + 1) if clusters else 0
            conn.execute("INSERT INTO mem_clusters(id, n, centroid_sum, first_session) VALUES (?,?,?,?)",
                         (cid, 1, json.dumps(vec), sid))
        else:
            n, csum = next((n, c) for i, n, c in clusters if i == cid)
            csum = [round(a + b, 6) for a, b in zip(csum, vec, strict=True)]
            conn.execute("UPDATE mem_clusters SET n = ?, centroid_sum = ? WHERE id = ?", (n + 1, json.dumps(csum), cid))
        conn.execute("UPDATE mem_sessions SET cluster = ? WHERE session_id = ?", (cid, sid))
        self._fold_features(f"cluster:{cid}", fp, +1)

    def _recluster(self) -> None:
        """Replay the leader clustering over the canonical order (late or forgotten sessions)."""
        conn = self.store.conn
        if self._pending is not None:
            self._flush_groups()
        conn.execute("DELETE FROM mem_clusters")
        conn.execute("DELETE FROM mem_groups WHERE grp LIKE 'cluster:%'")
        conn.execute("UPDATE mem_sessions SET cluster = NULL")
        rows = conn.execute("SELECT session_id, vector, fingerprint FROM mem_sessions ORDER BY order_key").fetchall()
        for sid, vec, fp in rows:
            fpd = json.loads(fp)
            self._cluster_one(sid, json.loads(vec), fpd, fpd)

    # -- forgetting and rebuilding -------------------------------------------------------

    def forget_sessions(self, session_ids: Iterable[str]) -> int:
        """Remove sessions from memory (e.g. after `filegram forget`): their sums and votes
        are subtracted exactly, min/max and clusters are recomputed from what remains."""
        ids = [s for s in session_ids]
        conn = self.store.conn
        removed = 0
        with self.store.transaction():
            for sid in ids:
                row = conn.execute("SELECT engram FROM mem_sessions WHERE session_id = ?", (sid,)).fetchone()
                if not row:
                    continue
                eng = Engram.from_dict(json.loads(row[0]))
                self._fold_votes(eng.tiers, -1)
                for cid in [r[0] for r in conn.execute("SELECT id FROM mem_chunks WHERE session_id = ?", (sid,))]:
                    conn.execute("DELETE FROM mem_fts WHERE chunk_id = ?", (cid,))
                conn.execute("DELETE FROM mem_chunks WHERE session_id = ?", (sid,))
                conn.execute("DELETE FROM mem_judgements WHERE session_id = ?", (sid,))
                conn.execute("DELETE FROM mem_narratives WHERE session_id = ?", (sid,))
                conn.execute("DELETE FROM mem_sessions WHERE session_id = ?", (sid,))
                removed += 1
            if removed:
                ch.compact_fts(self.store)
                self._refold_groups()
                self._recluster()
                self._bump()
        return removed

    def _refold_groups(self) -> None:
        """Recompute the feature groups from the stored engrams (min and max cannot be
        subtracted)."""
        conn = self.store.conn
        conn.execute("DELETE FROM mem_groups WHERE grp NOT LIKE 'cluster:%'")
        groups: dict[str, tuple[int, dict[str, list]]] = {}
        for _sid, eng in ch.iter_engrams(self.store):
            for grp, feats in feature_groups(eng):
                n, st = groups.get(grp, (0, {}))
                ch.stats_add(st, feats, +1)
                groups[grp] = (n + 1, st)
        for grp, (n, st) in groups.items():
            ch.save_group(self.store, grp, n, st)

    def rebuild(self) -> int:
        """Recompute all memory from the trace (must equal the incremental state)."""
        _ = self.embedder  # a bad setting fails here, before anything is wiped
        with self.store.transaction():
            ch.wipe(self.store)
            self._bump()
        self._cache.clear()
        return self.consolidate()

    def snapshot(self) -> dict[str, Any]:
        return ch.snapshot(self.store)

    # -- read side -----------------------------------------------------------------------

    def _views(self) -> list[SessionView]:
        labels = {s["id"]: s.get("label") for s in self.store.sessions()}
        out = []
        for sid, task_id, task_type, cluster, fp, tiers in self.store.conn.execute(
            "SELECT session_id, task_id, task_type, cluster, fingerprint, tiers FROM mem_sessions ORDER BY order_key"
        ):
            out.append(SessionView(sid, labels.get(sid), task_id, task_type, cluster, json.loads(fp), json.loads(tiers)))
        return out

    def _votes(self) -> dict[str, tuple[int, dict[str, int], int]]:
        return {d: (n, json.loads(v), p) for d, n, v, p in self.store.conn.execute("SELECT dim, n, votes, position_sum FROM mem_votes")}

    def _read_state(self) -> dict[str, Any]:
        v = self.version()
        if self._cache.get("version") == v:
            return self._cache["state"]
        views = self._views()
        groups = ch.all_groups(self.store)
        votes = self._votes()
        anomalies, dist, thr = detect(views, groups, votes, self.drift_std)
        self._apply_llm_judgements(anomalies)
        state = {"views": views, "groups": groups, "votes": votes, "anomalies": anomalies, "distances": dist, "threshold": thr}
        self._cache["version"], self._cache["state"] = v, state
        return state

    def _apply_llm_judgements(self, anomalies: list[dict[str, Any]]) -> None:
        """Stored LLM verdicts for uncertain flags replace the rule's 'uncertain'."""
        for a in anomalies:
            row = self.store.conn.execute(
                "SELECT verdict, reason, key FROM mem_judgements WHERE session_id = ? AND dim = ?",
                (a["session"], a["dimension"]),
            ).fetchone()
            if row and row[2] == f"{a['from']}>{a['to']}":
                a["verdict"], a["reason"], a["judge"] = row[0], row[1], "llm"
            else:
                a["judge"] = "rules"

    def profile(self) -> dict[str, Any]:
        """The user's profile: six dimensions with tier, confidence and evidence, plus drift
        anomalies (shape of `filegram profile --json`, documented in docs/memory.md)."""
        return copy.deepcopy(self.profile_view())

    def profile_view(self) -> dict[str, Any]:
        """The cached profile itself (read-only: shared until memory changes)."""
        v = self.version()
        cached = self._cache.get("profile")
        if cached and cached[0] == v:
            return cached[1]
        prof = self._build_profile()
        self._cache["profile"] = (v, prof)
        return prof

    def _build_profile(self) -> dict[str, Any]:
        st = self._read_state()
        votes = st["votes"]
        agg = aggregate_votes({d: {t: x / ch.QUANT for t, x in v[1].items()} for d, v in votes.items()},
                              {d: v[0] for d, v in votes.items()})
        n_all, all_stats = st["groups"].get("all", (0, {}))
        dims: dict[str, Any] = {}
        for dim in DIM_IDS:
            a = agg[dim]
            d = DIMENSIONS[dim]
            feats = {name: _rounded(ch.summarise(all_stats[name])) for dd, name in FINGERPRINT_FEATURES
                     if dd == dim and name in all_stats}
            evidence = []
            if a["tier"] == "unknown":
                evidence.append(f"no session exercised {d.name.lower()} yet")
            else:
                vt = a["votes"]
                evidence.append(
                    f"{a['sessions']} session(s) voted: " + ", ".join(f"{t} {vt[t]:.1f}" for t in TIERS)
                )
                evidence.extend(_feature_lines(feats))
                evidence.extend(self._example_sessions(st["views"], dim, a["tier"]))
            mean_pos = votes[dim][2] / ch.QUANT / max(votes[dim][0], 1) if dim in votes else None
            dims[dim] = {
                "name": d.name,
                "tier": a["tier"],
                "confidence": a["confidence"],
                "description": d.tiers.get(a["tier"], "not enough evidence"),
                "sessions": a["sessions"],
                "votes": a["votes"],
                "mean_position": round(mean_pos, 4) if mean_pos is not None else None,
                "features": feats,
                "evidence": evidence,
            }
        shares = {name: round(ch.summarise(e)["mean"], 4) for name, e in sorted(all_stats.items()) if is_boolean_feature(name)}
        clusters = [
            {"id": cid, "sessions": n, "first_session": first}
            for cid, n, first in self.store.conn.execute("SELECT id, n, first_session FROM mem_clusters ORDER BY id")
        ]
        return {
            "dimensions": dims,
            "anomalies": [
                {k: a[k] for k in ("session", "label", "task", "dimension", "from", "to", "verdict", "reason",
                                   "judge", "distance", "threshold", "norm", "top_features", "candidates")}
                for a in st["anomalies"]
            ],
            "sessions": n_all,
            "session_shares": shares,
            "clusters": clusters,
            "drift_threshold": None if st["threshold"] == float("inf") else round(st["threshold"], 4),
            "updated_ms": self.last_update_ms(),
        }

    def _example_sessions(self, views: list[SessionView], dim: str, tier: str, k: int = 2) -> list[str]:
        out = []
        for v in views:
            t = v.tiers.get(dim)
            if t and t["tier"] == tier:
                out.append(f"e.g. {v.label or v.session_id[:8]}: {t['evidence']}")
                if len(out) >= k:
                    break
        return out

    def session_tiers(self, session_id: str) -> dict[str, dict[str, Any]]:
        row = self.store.conn.execute("SELECT tiers FROM mem_sessions WHERE session_id = ?", (session_id,)).fetchone()
        if not row:
            raise FileGramError(f"session {session_id} is not in memory (closed and consolidated?)")
        return json.loads(row[0])

    def session_shift(self, session_id: str) -> list[dict[str, Any]]:
        """Ranked candidate shifts of any session (flagged or not): dimension, from, to,
        score and the rule verdict. Shift Analysis asks exactly this of a perturbed session."""
        st = self._read_state()
        view = next((v for v in st["views"] if v.session_id == session_id), None)
        if view is None:
            raise FileGramError(f"session {session_id} is not in memory (closed and consolidated?)")
        _, z = zscores(view, st["groups"])
        shifts = attribute(view, z, st["votes"])
        for s in shifts:
            s["verdict"], s["reason"] = judge(s, task_info(view.task_id) is not None)
        return shifts

    def search(self, query: str, k: int = 5) -> list[dict[str, Any]]:
        """Semantic channel: hybrid of FTS5 (bm25) and embedding cosine, fused by rank."""
        from .evidence import hybrid_search

        return hybrid_search(self, query, k)

    def ask(self, question: str, choices: list[str] | None = None, *, session: str | None = None) -> Any:
        from .answer import ask

        return ask(self, question, choices, session=session)

    def prompt(self, question: str, choices: list[str] | None = None, *, session: str | None = None) -> str:
        """Exactly the text an LLM would receive (redacted), for --show-prompt."""
        from .answer import build_prompt
        from .evidence import assemble

        ev = assemble(self, question, choices, session=session)
        return build_prompt(question, choices, ev.text)


def feature_groups(eng: dict[str, Any]) -> list[tuple[str, dict[str, float]]]:
    """The statistics groups one engram belongs to, with the features each one keeps."""
    out: list[tuple[str, dict[str, float]]] = [("all", eng["features"])]
    tt = eng.get("task_type")
    if tt:
        out.append((f"type:{tt}", eng["features"]))
    for dim in active_dims(eng.get("task_id"), eng["tiers"]):
        fp = {n: v for n, v in eng["fingerprint"].items() if FEATURE_DIM.get(n) == dim}
        out.append((f"active:{dim}", fp))
        if tt:
            out.append((f"type:{tt}|active:{dim}", fp))
    return out


def _rounded(d: dict[str, float]) -> dict[str, float]:
    return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in d.items()}


def _feature_lines(feats: dict[str, dict[str, float]]) -> list[str]:
    return [f"{name}: mean {s['mean']:.3g} (sd {s['std']:.3g}, min {s['min']:.3g}, max {s['max']:.3g})" for name, s in feats.items()]

