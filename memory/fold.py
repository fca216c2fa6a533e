"""Stage 2 updates: fold one session's engram into the channels, or take it out again.

An update is O(session): the engram's features go into exact running sums (overall, per
task type, per dimension the session exercised), its chunks with their vectors into the
semantic channel, and its vector into one cluster of the leader clustering. Tiers are not
folded into running votes: the user's posterior is read from the sessions' stored signals
(memory/readout.py), because what one session means depends on the user's other sessions
(how they read, how often they show a habit).

Everything runs inside one write transaction per batch (`ChannelFolder.batch`): group sums
and clusters are kept in memory for the batch, chunks of the whole batch are embedded in
one call, and rows are written once at its end with executemany. The state written is the
same as folding the sessions one by one.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from filegram.store import Store, now_ms

from . import channels as ch
from .clusters import active_dims, leader_of, norm_vector, vector_norm
from .engram import Engram
from .features import FEATURE_DIM

Embed = Callable[[Sequence[str]], np.ndarray]
EMBED_BATCH = 256  # texts per embedding call (a model server limits a request's inputs)

_SESSION_INSERT = (
    "INSERT INTO mem_sessions(session_id, order_key, task_id, task_type, started_ms, actions, engram, "
    "fingerprint, tiers, signals, vector, cluster, ingested_ms) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)"
)


def order_key(started_ms: float | None, session_id: str) -> str:
    """The canonical session order (start time, then id) that clustering is defined over."""
    return f"{float(started_ms or 0.0):020.3f}|{session_id}"


def feature_groups(eng: Mapping[str, Any]) -> list[tuple[str, dict[str, float]]]:
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


# Layouts seen (a handful: fresh and stored key orders, task types, dimension sets), so the
# per-session work is a few dict lookups and itemgetter calls rather than loops over names.
_FP_PICKERS: dict[tuple[tuple[str, ...], tuple[str, ...]], ch.Picker | None] = {}
_PLANS: dict[tuple[str | None, tuple[str, ...], tuple[str, ...]], list[tuple[tuple[str, ...], ch.Picker | None]]] = {}
_MAX_LAYOUTS = 256


def _fingerprint_row(feats: ch.Row, fingerprint: Mapping[str, float]) -> ch.Row:
    """The fingerprint's row: the features include the fingerprint with the same values
    (both rounded from the same numbers), so it is taken from their row when they agree."""
    key = (feats.names, tuple(fingerprint))
    if key in _FP_PICKERS:
        pick = _FP_PICKERS[key]
    else:
        if len(_FP_PICKERS) > _MAX_LAYOUTS:
            _FP_PICKERS.clear()
        pos = {n: i for i, n in enumerate(feats.names)}
        idx = [pos.get(n, -1) for n in fingerprint]
        pick = _FP_PICKERS[key] = None if -1 in idx else ch.Picker(feats.names, idx)
    if pick is not None:
        row = pick(feats)
        if row.xs == tuple(fingerprint.values()):  # element by element ==, as one by one
            return row
    return ch.Row.of(fingerprint)


def _group_plan(task_type: str | None, dims: tuple[str, ...],
                fp_names: tuple[str, ...]) -> list[tuple[tuple[str, ...], ch.Picker | None]]:
    """feature_groups of an engram as (groups, picker of the fingerprint features they keep;
    None: all features). A dimension's two groups share one picked row."""
    key = (task_type, dims, fp_names)
    plan = _PLANS.get(key)
    if plan is None:
        if len(_PLANS) > _MAX_LAYOUTS:
            _PLANS.clear()
        typed = (f"type:{task_type}",) if task_type else ()
        plan = [(("all", *typed), None)]
        for dim in dims:
            idx = [i for i, n in enumerate(fp_names) if FEATURE_DIM.get(n) == dim]
            grps = (f"active:{dim}", f"type:{task_type}|active:{dim}") if task_type else (f"active:{dim}",)
            plan.append((grps, ch.Picker(fp_names, idx)))
        _PLANS[key] = plan
    return plan


@dataclass
class _Batch:
    """What a batch has folded but not written yet."""

    rows: dict[str, list[ch.Row]] = field(default_factory=dict)  # grp -> features to fold in
    # [id, n, centroid_sum, first_session, norm of the sum], loaded on first use
    clusters: list[list[Any]] | None = None
    dirty_clusters: set[int] = field(default_factory=set)
    sessions: list[tuple[Any, ...]] = field(default_factory=list)
    session_ids: set[str] = field(default_factory=set)
    absent: set[str] = field(default_factory=set)  # looked up in this transaction: not in memory
    chunks: list[tuple[str, int, str, str | None, str]] = field(default_factory=list)
    max_key: str | None = None
    max_key_known: bool = False
    recluster: bool = False


class ChannelFolder:
    """Adds engrams to (and removes them from) the channel tables of one store."""

    def __init__(self, store: Store, embed: Embed, cluster_threshold: float):
        self.store = store
        self.embed = embed
        self.cluster_threshold = cluster_threshold
        self._batch: _Batch | None = None

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """One transaction whose rows, group statistics and clusters are written once at
        its end (a batch inside a batch joins it), committed without an fsync
        (Store.derived_writes: about a millisecond of wall time per batch)."""
        if self._batch is not None:
            yield
            return
        # memory is derived from the actions: its commits need not wait for the disk
        with self.store.derived_writes(), self.store.transaction():
            self._batch = _Batch()
            try:
                yield
                self._flush()
            finally:
                self._batch = None

    # -- adding ---------------------------------------------------------------------------

    def apply_many(self, items: Sequence[tuple[Engram, dict[str, Any]]], *, cluster: bool = True) -> None:
        """`apply` to several engrams, asking once which of them memory has already (one
        query for the batch instead of one per session)."""
        with self.batch():
            b = self._batch
            assert b is not None
            ids = [eng.session_id for eng, _ in items]
            present: set[str] = set()
            for i in range(0, len(ids), 500):  # within SQLite's limit on parameters
                part = ids[i : i + 500]
                present.update(r[0] for r in self.store.conn.execute(
                    f"SELECT session_id FROM mem_sessions WHERE session_id IN ({','.join('?' * len(part))})", part))
            b.absent.update(sid for sid in ids if sid not in present)
            for eng, sess in items:
                self.apply(eng, sess, cluster=cluster)

    def apply(self, eng: Engram, sess: dict[str, Any], *, cluster: bool = True) -> None:
        """Add one engram to every channel (inside `batch`)."""
        b = self._batch
        if b is None:
            with self.batch():
                self.apply(eng, sess, cluster=cluster)
            return
        sid = eng.session_id
        if sid in b.session_ids or (sid not in b.absent and self.store.conn.execute(
                "SELECT 1 FROM mem_sessions WHERE session_id = ?", (sid,)).fetchone()):
            return  # another process (the daemon, a CLI) ingested it since we looked
        key = order_key(sess.get("started_ms"), sid)
        if not b.max_key_known:
            b.max_key = self.store.conn.execute("SELECT MAX(order_key) FROM mem_sessions").fetchone()[0]
            b.max_key_known = True
        in_order = b.max_key is None or key > b.max_key
        if in_order:
            b.max_key = key
        vec = norm_vector(eng.fingerprint)
        # procedural: running sums over every feature, for all sessions, per task type and
        # per "sessions that exercised dimension X" (the norms drift is judged against)
        feats = ch.Row.of(eng.features)
        fp = _fingerprint_row(feats, eng.fingerprint)
        rows = b.rows
        for grps, pick in _group_plan(eng.task_type, tuple(active_dims(eng.task_id, eng.tiers)), fp.names):
            row = feats if pick is None else pick(fp)
            for grp in grps:
                if grp in rows:
                    rows[grp].append(row)
                else:
                    rows[grp] = [row]
        # episodic: leader clustering in canonical order (a late session replays it)
        cid = None
        if cluster and not b.recluster:
            if in_order:
                cid = self._cluster_one(sid, vec, fp)
            else:
                b.recluster = True
        b.session_ids.add(sid)
        b.sessions.append((
            sid, key, eng.task_id, eng.task_type, sess.get("started_ms"), eng.actions, ch.dumps(eng.stored()),
            ch.dumps(eng.fingerprint), ch.dumps(eng.tiers), ch.dumps(eng.signals), ch.dumps(vec), cid, now_ms(),
        ))
        # semantic: chunks, embedded and indexed with the batch
        for k, c in enumerate(eng.chunks):
            b.chunks.append((sid, k, c["kind"], c.get("path"), c["text"]))

    def _fold(self, grp: str, row: ch.Row) -> None:
        assert self._batch is not None
        self._batch.rows.setdefault(grp, []).append(row)

    def _clusters(self) -> list[list[Any]]:
        assert self._batch is not None
        if self._batch.clusters is None:
            self._batch.clusters = []
            for cid, n, c, first in self.store.conn.execute(
                    "SELECT id, n, centroid_sum, first_session FROM mem_clusters ORDER BY id"):
                csum = json.loads(c)
                self._batch.clusters.append([cid, n, csum, first, vector_norm(csum)])
        return self._batch.clusters

    def _cluster_one(self, sid: str, vec: list[float], fp: ch.Row) -> int:
        """Put one session into the leader clustering (in memory until the batch ends)."""
        assert self._batch is not None
        clusters = self._clusters()
        norm = vector_norm(vec)
        cid = leader_of(vec, norm, [(c[0], c[2], c[4]) for c in clusters], self.cluster_threshold)
        if cid is None:
            cid = (clusters[-1][0] + 1) if clusters else 0
            clusters.append([cid, 1, vec, sid, norm])
        else:
            c = next(c for c in clusters if c[0] == cid)
            c[1] += 1
            c[2] = [round(a + b, 6) for a, b in zip(c[2], vec, strict=True)]
            c[4] = vector_norm(c[2])
        self._batch.dirty_clusters.add(cid)
        self._fold(f"cluster:{cid}", fp)
        return cid

    # -- writing --------------------------------------------------------------------------

    def _flush(self) -> None:
        """Write what the batch folded: sessions, chunks, then clusters and groups."""
        b = self._batch
        assert b is not None
        self._flush_rows()
        if b.recluster:
            b.recluster = False
            self.recluster()
        if b.clusters is not None and b.dirty_clusters:
            self.store.conn.executemany(
                "INSERT OR REPLACE INTO mem_clusters(id, n, centroid_sum, first_session) VALUES (?,?,?,?)",
                [(c[0], c[1], ch.dumps(c[2]), c[3]) for c in b.clusters if c[0] in b.dirty_clusters])
            b.dirty_clusters.clear()
        grps = sorted(b.rows)
        stored = ch.load_groups(self.store, grps)
        folded = []
        for grp in grps:
            rows = b.rows[grp]
            n, stats = stored.get(grp, (0, {}))
            ch.fold_rows(stats, rows)
            folded.append((grp, n + len(rows), stats))
        ch.save_groups(self.store, folded)
        b.rows.clear()

    def _flush_rows(self) -> None:
        """Insert the batch's sessions and chunks (chunks embedded in one call)."""
        b = self._batch
        assert b is not None
        conn = self.store.conn
        if b.sessions:
            conn.executemany(_SESSION_INSERT, b.sessions)
            b.sessions.clear()
        if b.chunks:
            texts = [c[4] for c in b.chunks]
            vecs = np.ascontiguousarray(np.concatenate(
                [self.embed(texts[i : i + EMBED_BATCH]) for i in range(0, len(texts), EMBED_BATCH)]), dtype=np.float32)
            if len(vecs) != len(b.chunks):
                raise ValueError(f"the embedder returned {len(vecs)} vectors for {len(b.chunks)} texts")
            first = (conn.execute("SELECT MAX(id) FROM mem_chunks").fetchone()[0] or 0) + 1
            ids = range(first, first + len(b.chunks))
            # each row's float32 bytes, sliced from the matrix's (one tobytes, not one per row)
            blob, width = vecs.tobytes(), vecs.itemsize * (vecs.size // max(len(vecs), 1))
            conn.executemany(
                "INSERT INTO mem_chunks(id, session_id, ordinal, kind, path, text, vector) VALUES (?,?,?,?,?,?,?)",
                [(i, *c, blob[k * width : (k + 1) * width]) for k, (i, c) in enumerate(zip(ids, b.chunks, strict=True))])
            conn.executemany("INSERT INTO mem_fts(text, chunk_id) VALUES (?, ?)",
                             [(c[4], i) for i, c in zip(ids, b.chunks, strict=True)])
            b.chunks.clear()

    # -- replaying and taking out ---------------------------------------------------------

    def recluster(self) -> None:
        """Replay the leader clustering over the canonical order (late or forgotten sessions)."""
        with self.batch():
            b = self._batch
            assert b is not None
            self._flush_rows()
            conn = self.store.conn
            conn.execute("DELETE FROM mem_clusters")
            for grp in [g for g in b.rows if g.startswith("cluster:")]:
                del b.rows[grp]
            conn.execute("DELETE FROM mem_groups WHERE grp LIKE 'cluster:%'")
            b.clusters, b.dirty_clusters = [], set()
            assigned = []
            for sid, vec, fp in conn.execute("SELECT session_id, vector, fingerprint FROM mem_sessions ORDER BY order_key").fetchall():
                assigned.append((self._cluster_one(sid, json.loads(vec), ch.Row.of(json.loads(fp))), sid))
            conn.execute("UPDATE mem_sessions SET cluster = NULL")
            conn.executemany("UPDATE mem_sessions SET cluster = ? WHERE session_id = ?", assigned)

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
        with self.batch():
            b = self._batch
            assert b is not None
            self._flush_rows()
            conn = self.store.conn
            conn.execute("DELETE FROM mem_groups WHERE grp NOT LIKE 'cluster:%'")
            for grp in [g for g in b.rows if not g.startswith("cluster:")]:
                del b.rows[grp]
            for _sid, eng in ch.iter_engrams(self.store):
                for grp, feats in feature_groups(eng):
                    self._fold(grp, ch.Row.of(feats))
