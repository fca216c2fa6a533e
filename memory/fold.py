"""Stage 2 updates: fold one session's engram into the channels, or take it out again.

An update is O(session): the engram's features go into exact running sums (overall, per
task type, per dimension the session exercised), its tier votes into the vote table, its
chunks with their vectors into the semantic channel, and its vector into one cluster of the
leader clustering. Tiers are not folded into running votes: the user's posterior is read from
the sessions' stored signals (memory/readout.py), because what one session means depends on
the user's other sessions (how they read, how often they show a habit). Everything here runs inside the caller's transaction; group sums can be
folded in memory for a batch and written once (`ChannelFolder.batch`).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from filegram.store import Store, now_ms

from . import channels as ch
from .clusters import active_dims, assign_cluster, norm_vector
from .engram import Engram
from .features import FEATURE_DIM

Embed = Callable[[Sequence[str]], np.ndarray]


def order_key(started_ms: float | None, session_id: str) -> str:
    """The canonical session order (start time, then id) that clustering is defined over."""
    return f"{float(started_ms or 0.0):020.3f}|{session_id}"


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


class ChannelFolder:
    """Adds engrams to (and removes them from) the channel tables of one store."""

    def __init__(self, store: Store, embed: Embed, cluster_threshold: float):
        self.store = store
        self.embed = embed
        self.cluster_threshold = cluster_threshold
        self._pending: dict[str, list[Any]] | None = None

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """One transaction whose group statistics are folded in memory and written once."""
        with self.store.transaction():
            self._pending = {}
            try:
                yield
                self._flush_groups()
            finally:
                self._pending = None

    def apply(self, eng: Engram, sess: dict[str, Any], *, cluster: bool = True) -> None:
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
            "fingerprint, tiers, signals, vector, cluster, ingested_ms) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (sid, key, eng.task_id, eng.task_type, sess.get("started_ms"), eng.actions,
             json.dumps(eng.as_dict(), sort_keys=True, ensure_ascii=False),
             json.dumps(eng.fingerprint, sort_keys=True), json.dumps(eng.tiers, sort_keys=True),
             json.dumps(eng.signals, sort_keys=True), json.dumps(vec), None, now_ms()),
        )
        # procedural: running sums over every feature, for all sessions, per task type and
        # per "sessions that exercised dimension X" (the norms drift is judged against)
        for grp, feats in feature_groups(eng.as_dict()):
            self.fold_features(grp, feats, +1)
        # semantic: chunks with vectors, and full-text index
        if eng.chunks:
            vecs = self.embed([c["text"] for c in eng.chunks])
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
            self.recluster()

    def fold_features(self, grp: str, feats: dict[str, float], sign: int) -> None:
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

    def _flush_groups(self) -> None:
        if self._pending:
            for grp, (n, stats) in sorted(self._pending.items()):
                ch.save_group(self.store, grp, n, stats)
            self._pending.clear()

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
        self.fold_features(f"cluster:{cid}", fp, +1)

    def recluster(self) -> None:
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

    def remove(self, session_id: str) -> bool:
        """Take one session out of every channel except the recomputed ones (groups,
        clusters: `refold_groups` and `recluster` after a batch of removals)."""
        conn = self.store.conn
        row = conn.execute("SELECT engram FROM mem_sessions WHERE session_id = ?", (session_id,)).fetchone()
        if not row:
            return False
        for cid in [r[0] for r in conn.execute("SELECT id FROM mem_chunks WHERE session_id = ?", (session_id,))]:
            conn.execute("DELETE FROM mem_fts WHERE chunk_id = ?", (cid,))
        conn.execute("DELETE FROM mem_chunks WHERE session_id = ?", (session_id,))
        conn.execute("DELETE FROM mem_judgements WHERE session_id = ?", (session_id,))
        conn.execute("DELETE FROM mem_narratives WHERE session_id = ?", (session_id,))
        conn.execute("DELETE FROM mem_sessions WHERE session_id = ?", (session_id,))
        return True

    def refold_groups(self) -> None:
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
