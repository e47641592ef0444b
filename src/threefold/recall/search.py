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
from dataclasses import dataclass, replace
from functools import lru_cache, partial

import numpy as np

from threefold.domain import SearchHit
from threefold.embed import Embedder, EmbeddingError
from threefold.recall.timeframe import Timeframe, timeframe_of
from threefold.store.base import Candidates, Item, ItemFilter, Probe, Store

log = logging.getLogger("threefold.recall.search")

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
    candidates: int = 30
    """Each full-text and vector list's least depth; a search for more hits reads each to
    half their number, so that a kind's two lists can fill them. On LoCoMo at a budget of
    2,000 tokens (60 hits), lists of 30 put 0.783 of the evidence in the context against
    0.766 with 50, and made every vector walk and ranking cheaper."""
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


_ISSUE_KEY = re.compile(r"(?<![\w-])([a-z][a-z0-9]*)-(\d+)(?![\w-])")
"""An issue key such as EL-5: searched as one phrase, since its parts alone ("el", "5")
are too short or too common to find it."""


def query_terms(text: str) -> list[str]:
    """The meaningful words of `text`, first seen first, at most _QUERY_TERMS of them.
    An issue key is one term, the phrase of its parts."""
    text = text[:_QUERY_CHARS].lower()
    keys = [f"{project} {number}" for project, number in _ISSUE_KEY.findall(text)]
    words = re.findall(r"\w+", _ISSUE_KEY.sub(" ", text))
    kept = [w for w in words if w not in _STOPWORDS and len(w) > 1]
    return list(dict.fromkeys(keys + kept))[:_QUERY_TERMS]


@dataclass
class _Scored:
    """A candidate as ranking sees it: no item is built until it makes the cut."""

    kind: str
    id: int
    score: float
    signals: dict[str, float]


class Recall:
    def __init__(self, store: Store, embedder: Embedder | None) -> None:
        self.store = store
        self.index = store.vector_index()
        store.on_erase(self.index.drop)
        self.use(embedder)

    def use(self, embedder: Embedder | None) -> None:
        """Embed with `embedder` from now on; the query vectors of the one before go."""
        self.embedder = embedder
        self._query_vector = lru_cache(maxsize=_QUERY_VECTORS)(partial(_embed_one, embedder))

    def prepare(self, query: str) -> None:
        """Embed `query` now, so a search for it soon after needs no model call."""
        self._embed_query(query)

    def search(self, query: str, where: ItemFilter, preset: Preset, limit: int) -> list[SearchHit]:
        found = self._found(query, where, preset, limit, fill=True)
        return [_hit(item, scored.score, scored.signals) for item, scored in found]

    def search_items(self, query: str, where: ItemFilter, preset: Preset, limit: int) -> list[Item]:
        """Up to `limit` items, in search()'s order, without their scores, from the first
        lists only: a context takes what fits its budget, and reads no deeper ones to make
        up the number (at a million items a fifth of contexts would have searched twice)."""
        return [item for item, _ in self._found(query, where, preset, limit, fill=False)]

    def _found(
        self, query: str, where: ItemFilter, preset: Preset, limit: int, *, fill: bool
    ) -> list[tuple[Item, _Scored]]:
        depth = max(preset.candidates, -(-limit // 2))
        ranked, found = self._ranked(query, where, replace(preset, candidates=depth))
        short = fill and len(ranked) < limit and depth < limit
        if short and _cut_off(found, depth, preset.min_similarity):
            # The lists stopped at their depth short of the limit, so deeper ones are read.
            # Their order would change the top (an item both rank 55th would beat one that
            # full text ranks first), so they only add what follows it.
            deeper, found_deeper = self._ranked(query, where, replace(preset, candidates=limit))
            ranked += _after(ranked, deeper)
            found += found_deeper
        return _with_items(ranked[:limit], found)

    def _ranked(
        self, query: str, where: ItemFilter, preset: Preset
    ) -> tuple[list[_Scored], list[Candidates]]:
        terms = query_terms(query)
        query_vector = self._embed_query(query) if preset.vector_weight else None
        probes = [(Probe(where=where, min_similarity=preset.min_similarity), "")]
        frame = timeframe_of(query) if preset.timeframe_weight else None
        if frame is not None and (within := _narrowed(where, frame)) is not None:
            # The asker named the time, so every item of it is a candidate, however far.
            probes.append((Probe(where=within, min_similarity=-1.0), "frame_"))
        if not terms and query_vector is None:
            return [], []
        found = self.store.candidates(
            where.tenant,
            preset.kinds,
            terms,
            query_vector,
            [probe for probe, _ in probes],
            preset.candidates,
        )
        ranked: dict[tuple[str, int], dict[str, float]] = {}
        for position, (probe, prefix) in enumerate(probes):
            _rank(ranked, found, position, prefix, preset.kinds, probe.min_similarity)
        return self._fuse(ranked, found, preset), [found]

    def _embed_query(self, query: str) -> np.ndarray | None:
        if self.embedder is None or not query.strip():
            return None
        try:
            return self._query_vector(query[:_QUERY_CHARS])
        except Exception as exc:  # one bad query embedding must not break search
            log.warning("query embedding failed, this search is full-text only: %s", exc)
            return None

    def _fuse(
        self, ranked: dict[tuple[str, int], dict[str, float]], found: Candidates, preset: Preset
    ) -> list[_Scored]:
        rows = found.rows
        # Ages are counted from the newest candidate ranked: `rows` may hold more items.
        times = (rows[key][0] for key in ranked if key in rows)
        newest = max((at for at in times if at is not None), default=0.0)
        weights = dict(preset.kind_weights)
        rank_weights = _rank_weights(preset)
        decay, half_life = -math.log(2), preset.half_life_days
        scored = []
        for key, signals in ranked.items():
            row = rows.get(key)
            if row is None:
                continue  # gone since it was indexed
            at, mentions = row
            score = _rrf(signals, rank_weights, preset.rrf_k) * weights.get(key[0], 1.0)
            if at is not None:
                age_days = (newest - at) / 86400
                recency = signals["recency"] = math.exp(decay * age_days / half_life)
                score += preset.recency_weight * recency
            if mentions != 1:  # log1p(0) adds nothing
                score += preset.mention_weight * math.log1p(mentions - 1)
            scored.append(_Scored(key[0], key[1], score, signals))
        return sorted(scored, key=lambda s: s.score, reverse=True)


def _rank(
    ranked: dict[tuple[str, int], dict[str, float]],
    found: Candidates,
    position: int,
    prefix: str,
    kinds: tuple[str, ...],
    min_similarity: float,
) -> None:
    """Record each candidate's full-text and vector rank in one probe under `prefix`."""
    for kind in kinds:
        for rank, (item_id, _) in enumerate(found.text.get((position, kind), ()), start=1):
            ranked.setdefault((kind, item_id), {})[f"{prefix}fts_rank"] = rank
        nearest = found.nearest.get((position, kind), ())
        close = [(i, sim) for i, sim in nearest if sim >= min_similarity]
        for rank, (item_id, similarity) in enumerate(close, start=1):
            signals = ranked.setdefault((kind, item_id), {})
            signals[f"{prefix}vector_rank"] = rank
            signals["similarity"] = similarity


def _with_items(scored: list[_Scored], found: list[Candidates]) -> list[tuple[Item, _Scored]]:
    """The candidates that made the cut, in their order, each with its item from the search
    that found it."""
    items: dict[tuple[str, int], Item] = {}
    for candidates in found:
        wanted = [(s.kind, s.id) for s in scored if (s.kind, s.id) not in items]
        items.update(candidates.items(key for key in wanted if key in candidates.rows))
    return [(items[(s.kind, s.id)], s) for s in scored if (s.kind, s.id) in items]


def _embed_one(embedder: Embedder | None, text: str) -> np.ndarray:
    if embedder is None:  # callers check first; this keeps the cache's type honest
        raise EmbeddingError("this memory has no embedder")
    vector = embedder.embed([text])[0]
    vector.setflags(write=False)  # shared by every search for the same words
    return vector


def _after(top: list[_Scored], deeper: list[_Scored]) -> list[_Scored]:
    """The candidates of `deeper` that `top` lacks, scored no higher than `top`'s last."""
    seen = {(s.kind, s.id) for s in top}
    floor = top[-1].score if top else math.inf
    return [replace(s, score=min(s.score, floor)) for s in deeper if (s.kind, s.id) not in seen]


def _cut_off(found: list[Candidates], depth: int, min_similarity: float) -> bool:
    """Whether any list of `found` holds `depth` hits (nearest ones no less similar than
    `min_similarity`): there may be more past it."""
    for candidates in found:
        close = [
            [h for h in hits if h[1] >= min_similarity] for hits in candidates.nearest.values()
        ]
        if any(len(hits) >= depth for hits in (*candidates.text.values(), *close)):
            return True
    return False


def _rank_weights(preset: Preset) -> tuple[tuple[str, float], ...]:
    """Each rank signal with its weight in the fused score, in the order they are added."""
    return tuple(
        (prefix + signal, weight * signal_weight)
        for prefix, weight in (("", 1.0), ("frame_", preset.timeframe_weight))
        for signal, signal_weight in (
            ("fts_rank", preset.fts_weight),
            ("vector_rank", preset.vector_weight),
        )
    )


def _rrf(signals: dict[str, float], rank_weights: tuple[tuple[str, float], ...], k: int) -> float:
    score = 0.0
    for signal, weight in rank_weights:
        rank = signals.get(signal)
        if rank is not None:
            score += weight / (k + rank)
    return score


def _narrowed(where: ItemFilter, frame: Timeframe) -> ItemFilter | None:
    """`where` limited to `frame`, or None when the two do not overlap."""
    since = max(frame.since, where.since) if where.since else frame.since
    until = min(frame.until, where.until) if where.until else frame.until
    return where.model_copy(update={"since": since, "until": until}) if since < until else None


def _hit(item: Item, score: float, signals: dict[str, float]) -> SearchHit:
    # Built without validation: every field comes from an item the store validated.
    return SearchHit.model_construct(
        kind=item.kind,
        id=item.id,
        stream=item.stream,
        text=item.text,
        score=score,
        at=item.at,
        source=item.source,
        visibility=item.visibility,
        signals=signals,
        speaker=item.speaker,
    )
