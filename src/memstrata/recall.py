"""Recall: hybrid search over facts, turns and summaries, so nothing is truly lost.

Candidates come from full text (BM25) and from vectors; filters narrow both before
ranking; the lists are fused by reciprocal rank, then nudged by recency and mentions.
A query that names a day or month ("on 7 July, 2023") gets a second pair of lists from
that time alone, fused on top. How much each signal counts is a named preset: data, not
branches.
"""

import logging
import math
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache, partial

import numpy as np

from memstrata.embed import Embedder
from memstrata.store.base import Item, ItemFilter, Store
from memstrata.timeframe import Timeframe, timeframe_of
from memstrata.types import SearchHit

log = logging.getLogger("memstrata.recall")

KINDS = ("fact", "turn", "summary", "record")
_QUERY_CHARS = 4000
_QUERY_TERMS = 24
_QUERY_VECTORS = 256
"""Recent query vectors kept: a server embeds a query before it queues for the store,
and the context build then finds the vector here."""
_STOPWORDS = frozenset(
    re.findall(
        r"\w+",
        """a an and are as at be but by did do does for from had has have he her his how i if
        in is it its me my no not of on or our she so than that the their them then there these
        they this to was we were what when where which who whom why will with would you your""",
    )
)


@dataclass(frozen=True)
class Preset:
    """How one kind of search weighs its signals."""

    name: str
    kinds: tuple[str, ...] = KINDS
    fts_weight: float = 1.0
    vector_weight: float = 1.0
    recency_weight: float = 0.002
    half_life_days: float = 90.0
    mention_weight: float = 0.001
    rrf_k: int = 60
    candidates: int = 50
    kind_weights: tuple[tuple[str, float], ...] = (("fact", 1.0), ("turn", 1.0), ("summary", 0.3))
    """Summaries retell turns; the verbatim, dated turn is the better evidence."""
    min_similarity: float = 0.3
    """Vector candidates below this cosine are noise: every query has nearest neighbours."""
    timeframe_weight: float = 1.0
    """How much items from the days a query names ("on 7 July, 2023") count, on top: a
    second ranking within those days, fused like the first."""


PRESETS: dict[str, Preset] = {
    preset.name: preset
    for preset in (
        Preset("default"),
        Preset("facts_only", kinds=("fact",)),
        Preset("recent_first", recency_weight=0.05, half_life_days=7.0),
        Preset("keywords", vector_weight=0.0),
    )
}


def fts_query(text: str) -> str | None:
    """An FTS5 expression that matches any meaningful word of `text`, or None.

    Every word is quoted, so operators, quotes, NEAR(, * and parentheses in user input
    are plain text here and never a syntax error.
    """
    words = re.findall(r"\w+", text[:_QUERY_CHARS].lower())
    terms = [w for w in dict.fromkeys(words) if w not in _STOPWORDS and len(w) > 1]
    return " OR ".join(f'"{w}"' for w in terms[:_QUERY_TERMS]) or None


class VectorIndex:
    """Stored vectors of one kind per tenant, held in memory and topped up as rows arrive."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._lock = threading.Lock()
        self._cache: dict[tuple[str, str], _Matrix] = {}

    def nearest(
        self, kind: str, tenant: str, query: np.ndarray, allowed: Sequence[int], limit: int
    ) -> list[tuple[int, float]]:
        """The `limit` allowed item ids most similar to `query`, with cosine similarity."""
        if not allowed:
            return []
        matrix = self._current(kind, tenant)
        if matrix.vectors.shape[0] == 0 or matrix.vectors.shape[1] != query.shape[0]:
            return []
        rows = np.flatnonzero(np.isin(matrix.ids, np.asarray(allowed, dtype=np.int64)))
        if rows.size == 0:
            return []
        sims = matrix.vectors[rows] @ query
        top = np.argsort(-sims)[:limit]
        return [(int(matrix.ids[rows[i]]), float(sims[i])) for i in top]

    def forget(self) -> None:
        with self._lock:
            self._cache.clear()

    def _current(self, kind: str, tenant: str) -> "_Matrix":
        with self._lock:
            matrix = self._cache.setdefault((kind, tenant), _Matrix())
            fresh = self._store.vectors(kind, tenant, None, after_id=matrix.last_row)
            if fresh:
                matrix.add(fresh)
            return matrix


class _Matrix:
    def __init__(self) -> None:
        self.ids = np.zeros(0, dtype=np.int64)
        self.vectors = np.zeros((0, 0), dtype=np.float32)
        self.last_row = 0

    def add(self, rows: Sequence[tuple[int, int, str, bytes]]) -> None:
        new = np.stack([np.frombuffer(blob, dtype=np.float32) for _, _, _, blob in rows])
        new_ids = np.asarray([item for _, item, _, _ in rows], dtype=np.int64)
        if self.vectors.shape[0] and self.vectors.shape[1] == new.shape[1]:
            # A re-embedded item (its text was updated) replaces its old row.
            keep = ~np.isin(self.ids, new_ids)
            new = np.vstack([self.vectors[keep], new])
            new_ids = np.concatenate([self.ids[keep], new_ids])
        self.ids, self.vectors = new_ids, new
        self.last_row = rows[-1][0]


class Recall:
    def __init__(self, store: Store, embedder: Embedder | None) -> None:
        self.store = store
        self.embedder = embedder
        self.index = VectorIndex(store)
        self._query_vector = lru_cache(maxsize=_QUERY_VECTORS)(partial(_embed_one, embedder))

    def prepare(self, query: str) -> None:
        """Embed `query` now, so a search for it soon after needs no model call."""
        self._embed_query(query)

    def search(self, query: str, where: ItemFilter, preset: Preset, limit: int) -> list[SearchHit]:
        hits = self._ranked(query, where, preset)
        if len(hits) < limit and limit > 2 * preset.candidates:
            # Two lists of `candidates` could not fill the limit, so deeper ones are read.
            # Their order would change the top (an item both rank 55th would beat one that
            # full text ranks first), so they only add what follows it.
            hits += _after(hits, self._ranked(query, where, replace(preset, candidates=limit)))
        return hits[:limit]

    def _ranked(self, query: str, where: ItemFilter, preset: Preset) -> list[SearchHit]:
        ranked: dict[tuple[str, int], dict[str, float]] = {}
        match = fts_query(query)
        query_vector = self._embed_query(query) if preset.vector_weight else None
        self._rank(ranked, "", where, preset, match, query_vector, preset.min_similarity)
        frame = timeframe_of(query) if preset.timeframe_weight else None
        if frame is not None and (within := _narrowed(where, frame)) is not None:
            # The asker named the time, so every item of it is a candidate, however far.
            self._rank(ranked, "frame_", within, preset, match, query_vector, -1.0)
        return self._fuse(ranked, where.tenant, preset)

    def _rank(
        self,
        ranked: dict[tuple[str, int], dict[str, float]],
        prefix: str,
        where: ItemFilter,
        preset: Preset,
        match: str | None,
        query_vector: np.ndarray | None,
        min_similarity: float,
    ) -> None:
        """Record each candidate's full-text and vector rank under `prefix`."""
        for kind in preset.kinds:
            if match:
                hits = self.store.fts_ids(kind, match, where, preset.candidates)
                for rank, (item_id, _) in enumerate(hits, start=1):
                    ranked.setdefault((kind, item_id), {})[f"{prefix}fts_rank"] = rank
            if query_vector is not None:
                allowed = self.store.item_ids(kind, where)
                nearest = self.index.nearest(
                    kind, where.tenant, query_vector, allowed, preset.candidates
                )
                close = [(i, sim) for i, sim in nearest if sim >= min_similarity]
                for rank, (item_id, similarity) in enumerate(close, start=1):
                    signals = ranked.setdefault((kind, item_id), {})
                    signals[f"{prefix}vector_rank"] = rank
                    signals["similarity"] = similarity

    def _embed_query(self, query: str) -> np.ndarray | None:
        if self.embedder is None or not query.strip():
            return None
        try:
            return self._query_vector(query[:_QUERY_CHARS])
        except Exception as exc:  # one bad query embedding must not break search
            log.warning("query embedding failed, this search is full-text only: %s", exc)
            return None

    def _fuse(
        self, ranked: dict[tuple[str, int], dict[str, float]], tenant: str, preset: Preset
    ) -> list[SearchHit]:
        items = self._load(ranked, tenant)
        newest = max((i.at.timestamp() for i in items.values() if i.at), default=0.0)
        hits = []
        for key, signals in ranked.items():
            item = items.get(key)
            if item is None:
                continue
            score = _rrf(signals, preset) * dict(preset.kind_weights).get(item.kind, 1.0)
            if item.at is not None:
                age_days = (newest - item.at.timestamp()) / 86400
                signals["recency"] = math.exp(-math.log(2) * age_days / preset.half_life_days)
                score += preset.recency_weight * signals["recency"]
            score += preset.mention_weight * math.log1p(item.mention_count - 1)
            hits.append(_hit(item, score, signals))
        return sorted(hits, key=lambda h: h.score, reverse=True)

    def _load(
        self, ranked: dict[tuple[str, int], dict[str, float]], tenant: str
    ) -> dict[tuple[str, int], Item]:
        loaded = {}
        for kind in KINDS:
            ids = [item_id for k, item_id in ranked if k == kind]
            if ids:
                loaded.update({(kind, i.id): i for i in self.store.items(kind, tenant, ids)})
        return loaded


def _embed_one(embedder: Embedder, text: str) -> np.ndarray:
    vector = embedder.embed([text])[0]
    vector.setflags(write=False)  # shared by every search for the same words
    return vector


def _after(top: list[SearchHit], deeper: list[SearchHit]) -> list[SearchHit]:
    """The hits of `deeper` that `top` lacks, scored no higher than `top`'s last."""
    seen = {(h.kind, h.id) for h in top}
    floor = top[-1].score if top else math.inf
    return [
        h.model_copy(update={"score": min(h.score, floor)})
        for h in deeper if (h.kind, h.id) not in seen
    ]  # fmt: skip


def _rrf(signals: dict[str, float], preset: Preset) -> float:
    score = 0.0
    for prefix, weight in (("", 1.0), ("frame_", preset.timeframe_weight)):
        for signal, signal_weight in (("fts_rank", preset.fts_weight),
                                      ("vector_rank", preset.vector_weight)):  # fmt: skip
            rank = signals.get(prefix + signal)
            if rank is not None:
                score += weight * signal_weight / (preset.rrf_k + rank)
    return score


def _narrowed(where: ItemFilter, frame: Timeframe) -> ItemFilter | None:
    """`where` limited to `frame`, or None when the two do not overlap."""
    since = max(frame.since, where.since) if where.since else frame.since
    until = min(frame.until, where.until) if where.until else frame.until
    return where.model_copy(update={"since": since, "until": until}) if since < until else None


def _hit(item: Item, score: float, signals: dict[str, float]) -> SearchHit:
    return SearchHit(
        kind=item.kind, id=item.id, stream=item.stream, text=item.text, score=score,
        at=item.at, source=item.source, visibility=item.visibility, signals=signals,
        speaker=item.speaker,
    )  # fmt: skip
