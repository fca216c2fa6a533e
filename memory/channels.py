"""Stage 2 storage: the three channels as tables in the FileGram store.

Exactness is the design rule, so that `filegram memory rebuild` gives byte-for-byte the
state the incremental path built. Running statistics keep count, sum and sum of squares of
each feature quantised to micro-units as Python integers (stored as JSON), plus min and max:
integer sums do not depend on the order sessions arrive in and never lose precision, which
is what Welford's update buys in floating point, without its order dependence. Mean and
variance are derived from them on read. The one order-dependent structure, the leader
clustering of the episodic channel, is defined over the canonical session order (start
time, then id) and is replayed from the stored vectors when a session arrives out of order.
"""

from __future__ import annotations

import json
import math
import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import orjson

from filegram.store import Store, register_migrations

QUANT = 1_000_000
_QUANT_F = float(QUANT)

MIGRATIONS = [
    """
    CREATE TABLE IF NOT EXISTS mem_sessions (
        session_id TEXT PRIMARY KEY,
        order_key TEXT NOT NULL,
        task_id TEXT,
        task_type TEXT,
        started_ms REAL,
        actions INTEGER NOT NULL,
        engram TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        tiers TEXT NOT NULL,
        vector TEXT NOT NULL,
        cluster INTEGER,
        ingested_ms REAL NOT NULL
    );
    CREATE INDEX IF NOT EXISTS idx_mem_sessions_order ON mem_sessions(order_key);
    CREATE TABLE IF NOT EXISTS mem_groups (
        grp TEXT PRIMARY KEY,
        n INTEGER NOT NULL,
        stats TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS mem_votes (
        dim TEXT PRIMARY KEY,
        n INTEGER NOT NULL,
        votes TEXT NOT NULL,
        position_sum INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS mem_clusters (
        id INTEGER PRIMARY KEY,
        n INTEGER NOT NULL,
        centroid_sum TEXT NOT NULL,
        first_session TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS mem_chunks (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL,
        ordinal INTEGER NOT NULL,
        kind TEXT NOT NULL,
        path TEXT,
        text TEXT NOT NULL,
        vector BLOB NOT NULL,
        UNIQUE(session_id, ordinal)
    );
    CREATE VIRTUAL TABLE IF NOT EXISTS mem_fts USING fts5(text, chunk_id UNINDEXED, tokenize='unicode61');
    CREATE TABLE IF NOT EXISTS mem_judgements (
        session_id TEXT NOT NULL,
        dim TEXT NOT NULL,
        key TEXT NOT NULL,
        verdict TEXT NOT NULL,
        reason TEXT,
        PRIMARY KEY (session_id, dim)
    ) WITHOUT ROWID;
    """,
    # 2: LLM narratives of a session's episodes (only with a model and the setting on)
    """
    CREATE TABLE IF NOT EXISTS mem_narratives (
        session_id TEXT PRIMARY KEY,
        text TEXT NOT NULL
    ) WITHOUT ROWID;
    """,
]
MIGRATIONS.append(
    # 3: each session's per-dimension signals, read by the tier posterior and the drift test
    "ALTER TABLE mem_sessions ADD COLUMN signals TEXT NOT NULL DEFAULT '{}'"
)
MIGRATIONS.append(
    # 4: tiers are no longer running votes (they are read from the signals); an LLM judge's
    # verdict on a dimension the rules leave uncertain is kept per dimension and evidence key
    """
    DROP TABLE IF EXISTS mem_votes;
    CREATE TABLE IF NOT EXISTS mem_tier_judgements (
        dim TEXT PRIMARY KEY,
        key TEXT NOT NULL,
        tier TEXT NOT NULL,
        reason TEXT
    ) WITHOUT ROWID;
    """
)

MIGRATIONS.append(
    # 5: live memory. The open session is folded in provisionally; mem_live names it (with the
    # action count it was folded at) and mem_live_undo keeps the groups and clusters as they
    # were before, so dropping it restores exactly the state of the closed sessions.
    """
    CREATE TABLE IF NOT EXISTS mem_live (
        session_id TEXT PRIMARY KEY,
        actions INTEGER NOT NULL,
        folded_ms REAL NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS mem_live_undo (
        id INTEGER PRIMARY KEY CHECK (id = 0),
        groups TEXT NOT NULL,
        clusters TEXT NOT NULL
    );
    """
)
register_migrations("memory", MIGRATIONS)

MEMORY_TABLES = ("mem_sessions", "mem_groups", "mem_clusters", "mem_chunks", "mem_fts", "mem_judgements",
                 "mem_narratives", "mem_tier_judgements", "mem_live", "mem_live_undo")


def q(x: float) -> int:
    return int(round(float(x) * QUANT))


# -- running statistics ------------------------------------------------------------------


class Row:
    """One session's features, quantised once however many groups it is folded into.
    The values are lists or tuples (a `Picker` takes tuples out of a row). Squares are
    taken when folding, a column at a time."""

    __slots__ = ("names", "xs", "qs")

    def __init__(self, names: tuple[str, ...], xs: Sequence[float]):
        self.names = names
        self.xs = xs  # floats (`of` converts)
        # int(round(x * QUANT)): round() of a float is an int already, and a float times the
        # float 1e6 is the float times the int (which Python converts to that double first)
        self.qs = [round(x * _QUANT_F) for x in xs]

    @classmethod
    def of(cls, features: Mapping[str, float]) -> Row:
        return cls(tuple(features), list(map(float, features.values())))

    def subset(self, idx: Sequence[int]) -> Row:
        """The row of some of the features (by position)."""
        return Picker(self.names, idx)(self)


class Picker:
    """Takes the features at fixed positions out of rows of one layout. Built once per
    layout (callers cache it) so that a subset is three itemgetter calls, not a loop."""

    __slots__ = ("names", "_take")

    def __init__(self, names: Sequence[str], idx: Sequence[int]):
        idx = tuple(idx)
        self.names = tuple(names[i] for i in idx)
        self._take: Callable[[Sequence[Any]], tuple[Any, ...]]
        if len(idx) == 1:  # itemgetter of one index returns the item, not a tuple
            i = idx[0]
            self._take = lambda v: (v[i],)
        elif idx:
            self._take = operator.itemgetter(*idx)
        else:
            self._take = lambda v: ()

    def __call__(self, row: Row) -> Row:
        take = self._take
        sub = Row.__new__(Row)
        sub.names = self.names
        sub.xs, sub.qs = take(row.xs), take(row.qs)
        return sub


def fold_rows(stats: dict[str, list], rows: Sequence[Row]) -> None:
    """Add sessions' features to a group's entries [n, sum, sumsq, min, max], a column at a
    time. The sums are exact integers, so the result is that of adding them one by one;
    min and max keep the earliest of equal values, as one by one."""
    by_names: dict[tuple[str, ...], list[Row]] = {}
    for r in rows:
        by_names.setdefault(r.names, []).append(r)
    for names, same in by_names.items():
        n = len(same)
        if n == 1:  # one session: its values are the column sums (a cluster's first)
            r = same[0]
            cols = zip(names, r.xs, r.xs, r.qs, map(operator.mul, r.qs, r.qs), strict=True)
        else:
            xcols = list(zip(*(r.xs for r in same), strict=True))
            qcols = list(zip(*(r.qs for r in same), strict=True))
            cols = zip(names, map(min, xcols), map(max, xcols), map(sum, qcols),
                       (sum(map(operator.mul, qc, qc)) for qc in qcols), strict=True)
        get = stats.get
        for name, lo, hi, s, ss in cols:
            e = get(name)
            if e is None:
                stats[name] = [n, s, ss, lo, hi]
            else:
                e[0] += n
                e[1] += s
                e[2] += ss
                if lo < e[3]:  # min(e[3], lo): the earlier of equal values stays
                    e[3] = lo
                if hi > e[4]:
                    e[4] = hi


def stats_add(stats: dict[str, list], features: Mapping[str, float], sign: int = 1) -> None:
    """Add (sign=+1) or remove (-1) one session's features; entries are [n, sum, sumsq, min, max]."""
    for name, value in features.items():
        v = q(value)
        e = stats.get(name)
        if e is None:
            e = stats[name] = [0, 0, 0, float(value), float(value)]
        e[0] += sign
        e[1] += sign * v
        e[2] += sign * v * v
        if sign > 0:
            e[3] = min(e[3], float(value))
            e[4] = max(e[4], float(value))


def dumps(value: Any) -> str:
    """Compact JSON with sorted keys (orjson; json for what orjson refuses, e.g. integers
    beyond 64 bits). Readers parse it, so both spellings mean the same."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
    except (orjson.JSONEncodeError, TypeError):
        return json.dumps(value, sort_keys=True, ensure_ascii=False)


def summarise(entry: list) -> dict[str, float]:
    """mean, std (sample), min, max of one feature from its exact sums."""
    n, s, ss, mn, mx = entry
    if n <= 0:
        return {"n": 0, "mean": 0.0, "std": 0.0, "min": 0.0, "max": 0.0}
    mean = s / n / QUANT
    var = (ss * n - s * s) / (n * (n - 1)) / (QUANT * QUANT) if n > 1 else 0.0
    return {"n": n, "mean": mean, "std": math.sqrt(max(var, 0.0)), "min": mn, "max": mx}


def loo(entry: list, value: float) -> tuple[float, float, int]:
    """Mean and std of a feature without one of its sessions (exact, from the sums)."""
    n, s, ss = entry[0] - 1, entry[1] - q(value), entry[2] - q(value) ** 2
    if n <= 0:
        return 0.0, 0.0, 0
    mean = s / n / QUANT
    var = (ss * n - s * s) / (n * (n - 1)) / (QUANT * QUANT) if n > 1 else 0.0
    return mean, math.sqrt(max(var, 0.0)), n


def migrate(store: Store) -> None:
    store.migrate("memory")


def load_group(store: Store, grp: str) -> tuple[int, dict[str, list]]:
    row = store.conn.execute("SELECT n, stats FROM mem_groups WHERE grp = ?", (grp,)).fetchone()
    return (row[0], json.loads(row[1])) if row else (0, {})


def load_groups(store: Store, grps: Sequence[str]) -> dict[str, tuple[int, dict[str, list]]]:
    """Several groups in one query (those not stored yet are left out)."""
    out: dict[str, tuple[int, dict[str, list]]] = {}
    for i in range(0, len(grps), 500):  # within SQLite's limit on parameters
        part = grps[i : i + 500]
        for grp, n, stats in store.conn.execute(
                f"SELECT grp, n, stats FROM mem_groups WHERE grp IN ({','.join('?' * len(part))})", part):
            out[grp] = (n, json.loads(stats))
    return out


_GROUP_UPSERT = ("INSERT INTO mem_groups(grp, n, stats) VALUES (?, ?, ?) "
                 "ON CONFLICT(grp) DO UPDATE SET n = excluded.n, stats = excluded.stats")


def save_group(store: Store, grp: str, n: int, stats: dict[str, list]) -> None:
    if n <= 0:
        store.conn.execute("DELETE FROM mem_groups WHERE grp = ?", (grp,))
        return
    save_groups(store, [(grp, n, stats)])


def save_groups(store: Store, groups: Iterable[tuple[str, int, dict[str, list]]]) -> None:
    """Write groups with one executemany; n must be positive (`save_group` deletes the others).
    Stats keep the json module's spelling (orjson would write floats and separators differently)."""
    store.conn.executemany(_GROUP_UPSERT, [(grp, n, json.dumps(stats, sort_keys=True)) for grp, n, stats in groups])


def all_groups(store: Store) -> dict[str, tuple[int, dict[str, list]]]:
    return {g: (n, json.loads(s)) for g, n, s in store.conn.execute("SELECT grp, n, stats FROM mem_groups")}


def wipe(store: Store) -> None:
    for t in MEMORY_TABLES:
        store.conn.execute(f"DELETE FROM {t}")
    compact_fts(store)


def compact_fts(store: Store) -> None:
    """Merge the full-text index so deleted chunks leave no tokens behind in its segments
    (forgetting must not keep searchable words of forgotten files)."""
    store.conn.execute("INSERT INTO mem_fts(mem_fts) VALUES ('optimize')")


def snapshot(store: Store) -> dict[str, Any]:
    """The whole memory state, serialised without row ids or wall-clock times, so two
    states built along different paths can be compared for equality."""
    c = store.conn
    out: dict[str, Any] = {}
    out["sessions"] = [
        {"session_id": r[0], "order_key": r[1], "task_id": r[2], "task_type": r[3], "actions": r[4],
         "engram": _engram(r[5], r[8], r[9], r[10]), "vector": json.loads(r[6]), "cluster": r[7]}
        for r in c.execute("SELECT session_id, order_key, task_id, task_type, actions, engram, vector, cluster, "
                           "fingerprint, tiers, signals FROM mem_sessions ORDER BY session_id")
    ]
    out["groups"] = {g: [n, json.loads(s)] for g, n, s in c.execute("SELECT grp, n, stats FROM mem_groups ORDER BY grp")}
    out["tier_judgements"] = [list(r) for r in c.execute("SELECT dim, key, tier, reason FROM mem_tier_judgements ORDER BY dim")]
    out["clusters"] = [[r[0], r[1], json.loads(r[2]), r[3]]
                       for r in c.execute("SELECT id, n, centroid_sum, first_session FROM mem_clusters ORDER BY id")]
    out["chunks"] = [
        [r[0], r[1], r[2], r[3], r[4], bytes(r[5]).hex()]
        for r in c.execute("SELECT session_id, ordinal, kind, path, text, vector FROM mem_chunks ORDER BY session_id, ordinal")
    ]
    out["fts"] = sorted(
        [r[0], r[1]] for r in c.execute(
            "SELECT m.session_id || ':' || m.ordinal, f.text FROM mem_fts f JOIN mem_chunks m ON m.id = f.chunk_id")
    )
    return out


def iter_engrams(store: Store) -> Iterable[tuple[str, dict[str, Any]]]:
    """Every stored engram (with the fields kept in columns of their own), in canonical order."""
    for sid, eng, fp, tiers, signals in store.conn.execute(
            "SELECT session_id, engram, fingerprint, tiers, signals FROM mem_sessions ORDER BY order_key"):
        yield sid, _engram(eng, fp, tiers, signals)


def _engram(eng: str, fp: str, tiers: str, signals: str) -> dict[str, Any]:
    """A stored engram as a whole (memory built before they had columns of their own kept
    them inside the engram too)."""
    d = json.loads(eng)
    d.update(fingerprint=json.loads(fp), tiers=json.loads(tiers), signals=json.loads(signals))
    return d
