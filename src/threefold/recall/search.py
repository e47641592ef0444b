"""Recall: hybrid search over facts, turns and summaries, so nothing is truly lost.

Candidates come from full text (BM25) and from vectors; filters narrow both before
ranking; the lists are fused by reciprocal rank, then nudged by recency and mentions.
A query that names a day or month ("on 7 July, 2023") gets a second pair of lists from
that time alone, fused on top. How much each signal counts is a named preset: data, not
branches.
"""

from __future__ import annotations

import logging
import math
import re
import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from functools import lru_cache, partial
from typing import TYPE_CHECKING

from threefold.domain import SearchHit
from threefold.embed import Embedder
from threefold.recall.presets import Preset
from threefold.recall.rerank import (
    STOPWORDS,
    Pool,
    Scored,
    about_others,
    alike_newest_first,
    covered,
    cut,
    folded,
    place_score,
    specific,
)
from threefold.recall.timeframe import Timeframe, timeframe_of
from threefold.store.base import Candidates, Item, ItemFilter, Probe, Store, VectorSearch

if TYPE_CHECKING:  # numpy and the vector index load with the first vector search
    import numpy as np

log = logging.getLogger("threefold.recall.search")

_QUERY_CHARS = 4000
_QUERY_TERMS = 24
_QUERY_VECTORS = 256
"""Recent query vectors kept: a server embeds a query before it queues for the store,
and the context build then finds the vector here."""


_ISSUE_KEY = re.compile(r"(?<![\w-])([a-z][a-z0-9]*)-(\d+)(?![\w-])")
"""An issue key such as EL-5: searched as one phrase, since its parts alone ("el", "5")
are too short or too common to find it."""


_NAME_WORD = re.compile(r"[\w'-]+")
_PEOPLE_PROBED = 2
"""The most people of one question given lists of their own: each costs a probe."""
_EMBEDDED_AT_ONCE = 64
"""The most items without a stored vector (not embedded yet) that nearness embeds for one
question."""
_ITEM_VECTORS = 20_000
"""Item vectors nearness keeps (about 30 MB at 384 dimensions)."""
_MATRICES = 4
"""Sets of items (a stream's pinned facts) whose vectors nearness keeps stacked."""


def query_terms(text: str) -> list[str]:
    """The meaningful words of `text`, first seen first, at most _QUERY_TERMS of them.
    An issue key is one term, the phrase of its parts."""
    text = text[:_QUERY_CHARS].lower()
    keys = [f"{project} {number}" for project, number in _ISSUE_KEY.findall(text)]
    words = re.findall(r"\w+", _ISSUE_KEY.sub(" ", text))
    kept = [w for w in words if w not in STOPWORDS and len(w) > 1]
    return list(dict.fromkeys(keys + kept))[:_QUERY_TERMS]


class Recall:
    def __init__(self, store: Store, embedder: Embedder | None) -> None:
        self.store = store
        self.use(embedder)

    @property
    def index(self) -> VectorSearch:
        """The store's vector index. Whoever erases must drop from it (Memory does, from
        an erasure listener), even where it was never loaded: its files are on disk."""
        return self.store.vector_index()

    def use(self, embedder: Embedder | None) -> None:
        """Embed with `embedder` from now on; the query vectors of the one before go."""
        self.embedder = embedder
        self._query_vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        """Query text -> its vector, the most recently used last."""
        self._kept: dict[tuple[str, str, int], tuple[int, np.ndarray]] = {}
        """(tenant, kind, item id) -> (hash of its text, its vector), for nearness."""
        self._matrices: dict[tuple[str, str, int], tuple[list[int], np.ndarray]] = {}
        """The same, stacked, for the last few sets of items asked about."""
        self._vectors_lock = threading.Lock()

    def nearness(
        self, tenant: str, query: str, kind: str, texts: Mapping[int, str]
    ) -> dict[int, float] | None:
        """How near in meaning each item of `kind` (id -> its text) is to `query`: the
        cosine of their vectors, from the store, or embedded now for items that have none.
        None when there is no embedder, the query or an item cannot be embedded, or more
        than _EMBEDDED_AT_ONCE items lack a vector: the caller then ranks by words."""
        query_vector = self._embed_query(query)
        if query_vector is None or not texts:
            return None
        same = (tenant, kind, hash(tuple(texts.items())))  # a stream's facts, unchanged
        with self._vectors_lock:
            vectors = self._matrices.get(same)
        if vectors is None:
            vectors = self._item_vectors(tenant, kind, texts, query_vector.shape[0])
            if vectors is None:
                return None
            with self._vectors_lock:
                self._matrices[same] = vectors
                while len(self._matrices) > _MATRICES:
                    del self._matrices[next(iter(self._matrices))]
        ids, matrix = vectors
        cosines = matrix @ query_vector  # one product for them all
        return dict(zip(ids, cosines.tolist(), strict=True))

    def _item_vectors(
        self, tenant: str, kind: str, texts: Mapping[int, str], dim: int
    ) -> tuple[list[int], np.ndarray] | None:
        """The items' vectors as rows, in the order of the ids returned. Kept here: a
        stream's pinned facts come back question after question, and reading thousands
        of vectors from the store each time would cost more than the ranking."""
        import numpy as np

        with self._vectors_lock:
            found = {i: self._kept.get((tenant, kind, i)) for i in texts}
        kept = {i: v for i, (said, v) in _present(found) if said == hash(texts[i])}
        unread = [i for i in texts if i not in kept]
        if unread:
            for item_id, blob in self.store.item_vectors(kind, tenant, unread):
                if len(blob) == 4 * dim:  # a vector of another model is no use for this one
                    kept[item_id] = np.frombuffer(blob, dtype=np.float32)
            missing = [i for i in unread if i not in kept]
            if len(missing) > _EMBEDDED_AT_ONCE:
                return None  # some near and the rest unknown would mislead: not embedded yet
            if missing:
                fresh = self._embed_items([texts[i] for i in missing])
                if fresh is None:
                    return None
                kept.update(zip(missing, fresh, strict=True))
            self._keep(tenant, kind, {i: (hash(texts[i]), kept[i]) for i in unread})
        ids = list(texts)
        return ids, np.stack([kept[i] for i in ids])

    def _keep(self, tenant: str, kind: str, read: dict[int, tuple[int, np.ndarray]]) -> None:
        with self._vectors_lock:
            self._kept.update({(tenant, kind, i): held for i, held in read.items()})
            while len(self._kept) > _ITEM_VECTORS:  # the first kept go first
                del self._kept[next(iter(self._kept))]

    def _embed_items(self, texts: list[str]) -> np.ndarray | None:
        """Vectors of items that have none stored yet; None if embedding failed."""
        if self.embedder is None:
            return None
        try:
            return self.embedder.embed([t[:_QUERY_CHARS] for t in texts])
        except Exception as exc:
            log.warning("embedding an item for nearness failed, ranking by words: %s", exc)
            return None

    def forget_vectors(self) -> None:
        """Drop the item vectors nearness keeps: an erasure leaves none in memory."""
        with self._vectors_lock:
            self._kept.clear()
            self._matrices.clear()

    def prepare(self, query: str, tenant: str, preset: Preset) -> None:
        """Embed `query` now, and with it the query its named people's lists are ranked by
        (see _topic_query), so that a search for it soon after needs no model call: the
        second vector took a model call inside the search, a tenth of its CPU at 100,000
        turns."""
        if self.embedder is None or not preset.vector_weight:
            self._embed_query(query)
            return
        people = self._people_named(query, ItemFilter(tenant=tenant), preset, None)
        rest = self._topic_query(query, people, preset)
        self._embed_queries([query, rest] if rest else [query])

    def search(self, query: str, where: ItemFilter, preset: Preset, limit: int) -> list[SearchHit]:
        if not query.strip():
            return self.listing(where, preset, limit)
        found = self._found(query, where, preset, limit, fill=True)
        hits: list[SearchHit] = []
        for item, scored in found:
            hit = _hit(item, scored.score, scored.signals)
            if "derived" in scored.signals:
                hits[-1].derived.append(hit)  # cut() keeps one only after its raw item
            else:
                hits.append(hit)
        return hits

    def listing(self, where: ItemFilter, preset: Preset, limit: int) -> list[SearchHit]:
        """What the filters let through, newest first: a search that names nothing to look
        for lists (a browser's first page, "what happened lately")."""
        items = self.store.recent_items(where, days=_EVERY_DAY, limit=limit)
        kept = [item for item in items if item.kind in preset.kinds][:limit]
        return [_hit(item, 1.0 / rank, {"recency_rank": rank}) for rank, item in enumerate(kept, 1)]

    def search_items(
        self,
        query: str,
        where: ItemFilter,
        preset: Preset,
        limit: int,
        *,
        named: Sequence[str] | None = None,
        turns: int | None = None,
    ) -> list[Item]:
        """Up to `limit` items, in search()'s order, without their scores, from the first
        lists only: a context takes what fits its budget, and reads no deeper ones to make
        up the number (at a million items a fifth of contexts would have searched twice).
        `named`: the people the query names, when the caller has read them already (see
        name_words); otherwise the store is asked. `turns`: the number of turns of the one
        stream `where` searches, when the caller knows it (see _stream_turns)."""
        found = self._found(query, where, preset, limit, fill=False, named=named, turns=turns)
        return [item for item, _ in found]

    def _found(
        self,
        query: str,
        where: ItemFilter,
        preset: Preset,
        limit: int,
        *,
        fill: bool,
        named: Sequence[str] | None = None,
        turns: int | None = None,
    ) -> Pool:
        depth = max(preset.candidates, -(-limit // 2))
        people = self._people_named(query, where, preset, named)
        if turns is None:
            turns = self._stream_turns(where, preset)
        ranked, found = self._ranked(query, where, replace(preset, candidates=depth), people, turns)
        short = fill and len(ranked) < limit and depth < limit
        if short and _cut_off(found, depth, preset.min_similarity):
            # The lists stopped at their depth short of the limit, so deeper ones are read.
            # Their order would change the top (an item both rank 55th would beat one that
            # full text ranks first), so they only add what follows it.
            deeper, found_deeper = self._ranked(
                query, where, replace(preset, candidates=limit), people, turns
            )
            ranked += _after(ranked, deeper)
            found += found_deeper
        pool = _with_items(ranked[: max(limit, rerank_depth(preset, turns))], found)
        terms = query_terms(query)
        pool = covered(pool, terms, preset.coverage_weight, preset.rrf_k)
        if preset.rare_word_weight:
            rare = partial(self.store.rare_words, _stream_wide(where), most=preset.rare_word_items)
            pool = specific(pool, terms, rare, preset.rare_word_weight, preset.rrf_k)
        if people:
            known = partial(self.store.aliases_among, where.tenant)
            pool = about_others(pool, people, _names_in_item, known, preset.other_person_weight)
        pool = alike_newest_first(pool, terms, preset.older_alike_weight)
        if "turn" in preset.kinds:
            pool = folded(pool, partial(self._raw_turns, where))
        return cut(pool, limit, with_derived=fill)

    def _raw_turns(self, where: ItemFilter, ids: list[int]) -> dict[int, Item]:
        """The turns of `ids` that pass `where`, by id."""
        passing = self.store.passing("turn", where, ids) if ids else set()
        return {t.id: t for t in self.store.items("turn", where.tenant, sorted(passing))}

    def _stream_turns(self, where: ItemFilter, preset: Preset) -> int:
        """How many turns the one stream `where` searches holds; 0 (lists at their usual
        depth) when it searches several, or the preset never reads deeper."""
        if not preset.deeper_from_turns or where.streams is None or len(where.streams) != 1:
            return 0
        return self.store.stream_state(where.tenant, where.streams[0]).turn_count

    def _ranked(
        self,
        query: str,
        where: ItemFilter,
        preset: Preset,
        people: Sequence[str],
        turns: int = 0,
    ) -> tuple[list[Scored], list[Candidates]]:
        terms = query_terms(query)
        query_vector = topic = None
        if preset.vector_weight:
            # The question and its words without the names are embedded in one call.
            rest = self._topic_query(query, people, preset)
            query_vector, topic = self._embed_queries([query, rest] if rest else [query, ""])
        # Look-alikes grow with the stream and overflow lists of a fixed depth: a large
        # stream's vector lists are read deeper (full text finds by words, not nearness).
        deep = vector_depth(preset, turns)
        probes = [(Probe(where=where, min_similarity=preset.min_similarity, vector_depth=deep), "")]
        frame = timeframe_of(query) if preset.timeframe_weight else None
        if frame is not None and (within := _narrowed(where, frame)) is not None:
            # The asker named the time, so every item of it is a candidate, however far.
            probes.append((Probe(where=within, min_similarity=-1.0), "frame_"))
        topic = topic if query_vector is not None else None
        for person in people:
            # The asker named someone: the items that name them are ranked apart, so that
            # look-alikes about everyone else (the same topic, another person) do not
            # crowd them out of the lists. Every one of them names the person, or was said
            # by them, so within them the name tells nothing: their vectors are ranked by
            # the question without it.
            about = where.model_copy(update={"about": (*where.about, person)})
            # In a large stream a person's lines on one topic, said again and again with
            # other endings, fill their list above the one that answers in other words:
            # there they are listed once (see vectors.one_per_echo).
            floor = preset.min_similarity if topic is None else preset.topic_min_similarity
            probe = Probe(
                where=about,
                min_similarity=floor,
                vector=topic,
                vector_depth=deep,
                echoes_once=large_stream(preset, turns),
            )
            probes.append((probe, "person_"))
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

    def _people_named(
        self, query: str, where: ItemFilter, preset: Preset, named: Sequence[str] | None
    ) -> list[str]:
        """The people `query` names (by the names the store knows), at most
        _PEOPLE_PROBED of them; none when the preset does not weigh them."""
        if not preset.person_weight:
            return []
        if named is None:
            named = self.store.aliases_among(where.tenant, name_words(query))
        return [n for n in named if n not in where.about][:_PEOPLE_PROBED]

    def _topic_query(self, query: str, people: Sequence[str], preset: Preset) -> str:
        """`query` without the names of `people`, whose vector ranks their items; "" (the
        query's own vector serves) when the preset does not ask for it, or when nothing
        but the names is asked."""
        if not preset.person_topic or not people:
            return ""
        rest = without_names(query, people)
        return rest if query_terms(rest) else ""

    def _embed_query(self, query: str) -> np.ndarray | None:
        return self._embed_queries([query])[0]

    def _embed_queries(self, queries: Sequence[str]) -> list[np.ndarray | None]:
        """Each query's vector (None for a blank one, or if embedding failed), kept for
        the next searches; those not kept are embedded in one call."""
        if self.embedder is None:
            return [None] * len(queries)
        texts = [q[:_QUERY_CHARS] if q.strip() else "" for q in queries]
        with self._vectors_lock:
            found = {t: self._query_vectors.get(t) for t in texts if t}
        missing = list(dict.fromkeys(t for t, v in found.items() if v is None))
        if missing:
            try:
                fresh = self.embedder.embed(missing)
            except Exception as exc:  # one bad query embedding must not break search
                log.warning("query embedding failed, this search is full-text only: %s", exc)
                return [None] * len(queries)
            for text, vector in zip(missing, fresh, strict=True):
                vector.setflags(write=False)  # shared by every search for the same words
                found[text] = vector
        with self._vectors_lock:
            for text, vector in found.items():
                self._query_vectors[text] = vector  # type: ignore[assignment]
                self._query_vectors.move_to_end(text)
            while len(self._query_vectors) > _QUERY_VECTORS:
                self._query_vectors.popitem(last=False)
        return [found.get(t) if t else None for t in texts]

    def _fuse(
        self, ranked: dict[tuple[str, int], dict[str, float]], found: Candidates, preset: Preset
    ) -> list[Scored]:
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
            scored.append(Scored(key[0], key[1], score, signals))
        return sorted(scored, key=lambda s: s.score, reverse=True)


def _stream_wide(where: ItemFilter) -> ItemFilter:
    """`where` as far as the streams it searches: how rare a word is, is counted over all
    their turns, whatever the search narrows to (a time, a person, a kind of fact)."""
    return ItemFilter(tenant=where.tenant, streams=where.streams, visibilities=where.visibilities)


def vector_depth(preset: Preset, turns: int) -> int:
    """How deep the vector lists of a stream of `turns` turns are read (see
    Preset.deeper_from_turns): `preset.candidates`, or more for a larger stream."""
    if not preset.deeper_from_turns or turns <= preset.deeper_from_turns:
        return preset.candidates
    deeper = round(preset.candidates * math.sqrt(turns / preset.deeper_from_turns))
    return max(preset.candidates, min(deeper, preset.most_vector_depth))


def large_stream(preset: Preset, turns: int) -> bool:
    """Whether a stream of `turns` turns is past Preset.deeper_from_turns, where a named
    person's vector list lists the echoes of one line once. In smaller streams it lists
    them all: on LoCoMo (dev, pairs of turns) listing them once everywhere lost evidence
    at 1,000 tokens (0.712 -> 0.707), and needles at 10,000 messages were unchanged."""
    return bool(preset.deeper_from_turns) and turns > preset.deeper_from_turns


def rerank_depth(preset: Preset, turns: int) -> int:
    """How many of the best candidates of a stream of `turns` turns are ranked again (see
    Preset.rerank_depth): as many more as its vector lists are read deeper. A list read
    deeper lets in a one-off fact at its 60th or 90th place, where its single rank fuses
    below the first 60, beneath look-alikes that several lists rank; only the second
    stage's counts of the question's words and of words said once tell it apart."""
    return preset.rerank_depth + vector_depth(preset, turns) - preset.candidates


def _rank(
    ranked: dict[tuple[str, int], dict[str, float]],
    found: Candidates,
    position: int,
    prefix: str,
    kinds: tuple[str, ...],
    min_similarity: float,
) -> None:
    """Record each candidate's full-text and vector rank in one probe under `prefix`."""
    text_rank, vector_rank = f"{prefix}fts_rank", f"{prefix}vector_rank"
    for kind in kinds:
        for rank, (item_id, _) in enumerate(found.text.get((position, kind), ()), start=1):
            signals = ranked.setdefault((kind, item_id), {})
            # Two people named: an item's better rank of the two counts.
            signals[text_rank] = min(rank, signals.get(text_rank, rank))
        nearest = found.nearest.get((position, kind), ())
        close = [(i, sim) for i, sim in nearest if sim >= min_similarity]
        for rank, (item_id, similarity) in enumerate(close, start=1):
            signals = ranked.setdefault((kind, item_id), {})
            signals[vector_rank] = min(rank, signals.get(vector_rank, rank))
            signals["similarity"] = similarity


def _with_items(scored: list[Scored], found: list[Candidates]) -> list[tuple[Item, Scored]]:
    """The candidates that made the cut, in their order, each with its item from the search
    that found it."""
    items: dict[tuple[str, int], Item] = {}
    for candidates in found:
        wanted = [(s.kind, s.id) for s in scored if (s.kind, s.id) not in items]
        items.update(candidates.items(key for key in wanted if key in candidates.rows))
    return [(items[(s.kind, s.id)], s) for s in scored if (s.kind, s.id) in items]


def _present(
    found: dict[int, tuple[int, np.ndarray] | None],
) -> Iterator[tuple[int, tuple[int, np.ndarray]]]:
    return ((i, held) for i, held in found.items() if held is not None)


def _after(top: list[Scored], deeper: list[Scored]) -> list[Scored]:
    """The candidates of `deeper` that `top` lacks, scored no higher than `top`'s last."""
    seen = {(s.kind, s.id) for s in top}
    floor = top[-1].score if top else math.inf
    return [s.rescored(min(s.score, floor)) for s in deeper if (s.kind, s.id) not in seen]


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
        for prefix, weight in (
            ("", 1.0),
            ("frame_", preset.timeframe_weight),
            ("person_", preset.person_weight),
        )
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
            score += weight * place_score(rank, k)
    return score


def _narrowed(where: ItemFilter, frame: Timeframe) -> ItemFilter | None:
    """`where` limited to `frame`, or None when the two do not overlap."""
    since = max(frame.since, where.since) if where.since else frame.since
    until = min(frame.until, where.until) if where.until else frame.until
    return where.model_copy(update={"since": since, "until": until}) if since < until else None


_EVERY_DAY = 500 * 365.0
"""recent_items' window in days, for a listing that reaches back as far as anything can be
dated (further back, datetime overflows)."""


def _hit(item: Item, score: float, signals: dict[str, float]) -> SearchHit:
    # Built without validation: every field comes from an item the store validated. Every
    # field is given: pydantic reads a default factory's signature for each one left out
    # (84 us a hit, against 4 with none left out).
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
        derived=[],
        now=[],
        doubted_by=None,
    )


def name_words(query: str) -> list[str]:
    """The words of `query` that may be a person's name (Store.aliases_among says which
    are), lowercase, once each."""
    words = [w.strip("'-") for w in _NAME_WORD.findall(query[:_QUERY_CHARS].lower())]
    words = [w.removesuffix("'s") for w in words if len(w) > 2 and w not in STOPWORDS]
    return list(dict.fromkeys(words))


@lru_cache(maxsize=16_384)
def _names_in_item(text: str) -> tuple[str, ...]:
    """name_words of a candidate's text: kept, as the same candidates come back question
    after question (at 100,000 turns a search's pool is 125 items)."""
    return tuple(name_words(text))


def without_names(query: str, names: Sequence[str]) -> str:
    """`query` with each of `names` (lowercase, as name_words gives them) left out, with
    its possessive: "Where does Priya's sister live?" -> "Where does sister live?"."""
    for name in names:
        pattern = rf"(?<![\w'-]){re.escape(name)}(?:'s|s')?(?![\w'-])"
        query = re.sub(pattern, " ", query, flags=re.IGNORECASE)
    return " ".join(query.split())
