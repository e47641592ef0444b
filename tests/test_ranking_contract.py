"""The storage contract's ranking, run against both backends: full text is ranked by
BM25 as SQLite's FTS5 reckons it (k1 1.2, b 0.75, the IDF floored at 1e-6, a turn's
preceding turn weighing a quarter), words are read as FTS5's unicode61 and porter
tokenizers read them, equal scores and equal vectors come in order of id, and a ranking
depends on what the store holds, not on when or how often it was asked before."""

import math
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from threefold.domain import FactCategory, SourceRef
from threefold.store import Store
from threefold.store.base import ItemFilter, NewFact, NewTurn

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
EVERYTHING = ItemFilter(tenant="t1")


def _facts(store: Store, texts: list[str]) -> list[int]:
    store.ensure_stream("t1", "project:x")
    with store.transaction():
        return [
            store.insert_fact(
                NewFact(
                    tenant="t1",
                    stream="project:x",
                    text=text,
                    category=FactCategory.NOTE,
                    subject="raj",
                    slot=f"note {n}",
                    value=text,
                    confidence=0.9,
                    source=SourceRef(kind="turn", id="1", at=T0),
                    tokens=5,
                )
            ).id
            for n, text in enumerate(texts)
        ]


def _turns(store: Store, texts: list[str]) -> list[int]:
    with store.transaction():
        return [
            store.insert_turn(
                NewTurn(
                    tenant="t1",
                    stream="chat:a",
                    user=text,
                    assistant="",
                    at=T0 + timedelta(minutes=n),
                    tokens=len(text.split()),
                )
            ).id
            for n, text in enumerate(texts)
        ]


def _bm25(docs: list[list[str]], terms: list[str]) -> list[float]:
    """FTS5's bm25() of each document of one column for `terms` (each a word), reckoned
    here from its definition: the figure both stores must give."""
    rows, average = len(docs), sum(map(len, docs)) / len(docs)
    scores = [0.0] * rows
    for term in terms:
        matches = sum(term in doc for doc in docs)
        idf = math.log((rows - matches + 0.5) / (matches + 0.5))
        idf = idf if idf > 0 else 1e-6
        for i, doc in enumerate(docs):
            count = doc.count(term)
            saturation = count * 2.2 / (count + 1.2 * (0.25 + 0.75 * len(doc) / average))
            scores[i] += idf * saturation
    return scores


def test_full_text_scores_are_fts5s_bm25(store: Store) -> None:
    texts = [
        "the deploy of the kafka cluster",
        "kafka kafka kafka and more kafka",
        "a very long note that names the cluster once among many other words of filler",
        "cluster",
        "nothing relevant here at all",
        "deploy the deploy script again and deploy it",
    ]
    ids = _facts(store, texts)
    terms = ["kafka", "cluster", "deploy"]
    expected = _bm25([text.split() for text in texts], terms)
    found = store.fts_ids("fact", terms, EVERYTHING, 10)
    matched = [i for i, score in enumerate(expected) if score > 0]
    best_first = sorted(matched, key=lambda i: (-expected[i], ids[i]))
    assert [item for item, _ in found] == [ids[i] for i in best_first]
    for (_, score), i in zip(found, best_first, strict=True):
        assert score == pytest.approx(expected[i], rel=1e-9)


def test_a_turn_is_scored_with_the_turn_before_it_at_a_quarter(store: Store) -> None:
    first, answer, unrelated = _turns(
        store, ["how are your pets doing", "Bailey is well", "the weather is fine"]
    )
    found = dict(store.fts_ids("turn", ["pets"], EVERYTHING, 10))
    assert set(found) == {first, answer}  # the answer is found through its question
    assert found[answer] < found[first]


def test_equal_scores_come_in_order_of_id(store: Store) -> None:
    ids = _facts(store, ["the same words"] * 7 + ["other words entirely"])
    found = store.fts_ids("fact", ["same"], EVERYTHING, 5)
    assert [item for item, _ in found] == ids[:5]
    assert len({score for _, score in found}) == 1


def test_equal_vectors_come_in_order_of_id_and_the_lowest_make_the_cut(store: Store) -> None:
    ids = _turns(store, [f"copy {n}" for n in range(12)])
    same = np.full(16, 0.25, dtype=np.float32)  # unit vectors, as embedders give them
    other = np.eye(16, dtype=np.float32)[0]
    rows = [("turn", item, (same if n % 3 else other).tobytes(), 16) for n, item in enumerate(ids)]
    store.put_vectors("t1", "chat:a", "m", list(reversed(rows)))
    found = store.vector_index().search("turn", EVERYTHING, same, 5)
    copies = [item for n, item in enumerate(ids) if n % 3]
    assert [item for item, _ in found] == copies[:5]


@pytest.mark.parametrize(
    ("text", "term"),
    [
        ("it costs 3.5 dollars", "5"),
        ("mail me@example.com today", "example"),
        ("see docs.example.org/guide", "guide"),
        ("the self-care routine", "care"),
        ("due on 2023-05-20", "05"),
        ("a dash\u2013between", "between"),
        ("snake_case names", "snake"),
        ("what a day\U0001f31f indeed", "day"),
    ],
)
def test_words_are_read_as_fts5_reads_them(store: Store, text: str, term: str) -> None:
    """Punctuation separates words, as in FTS5, and a row's length counts FTS5's words: a
    text scores as the same words with the punctuation taken out."""
    plain = " ".join("".join(c if c.isalnum() else " " for c in text).split())
    written, spaced = _facts(store, [text, plain])
    found = dict(store.fts_ids("fact", [term], EVERYTHING, 10))
    assert set(found) == {written, spaced}
    assert found[written] == found[spaced]


@pytest.mark.parametrize(
    ("text", "term"),
    [
        ("we painted the fence", "painting"),
        ("the generously sized room", "generous"),
        ("he was dying to go", "dy"),
        ("come with us tomorrow", "used"),
    ],
)
def test_turns_are_stemmed_as_fts5s_porter_tokenizer_stems(
    store: Store, text: str, term: str
) -> None:
    [item] = _turns(store, [text])
    assert [i for i, _ in store.fts_ids("turn", [term], EVERYTHING, 5)] == [item]


def test_a_ranking_depends_on_the_store_not_on_what_was_asked_before(
    stores: Callable[[], Store],
) -> None:
    """A long-lived store, which asked the same question before its terms grew common,
    ranks as a store opened afresh does: what it remembers of the terms' matches must not
    outlive the index they were counted in."""
    asking = stores()
    _facts(asking, [f"rare zebra note {n}" for n in range(5)])
    _facts(asking, [f"the common word giraffe number {n}" for n in range(600)])
    terms = ["zebra", "giraffe"]
    before = asking.fts_ids("fact", terms, EVERYTHING, 20)
    assert any(score > 0 for _, score in before)
    _facts(asking, [f"more giraffe lines {n}" for n in range(500)])
    _facts(asking, [f"zebra and giraffe together {n}" for n in range(3)])
    again = asking.fts_ids("fact", terms, EVERYTHING, 20)
    fresh = stores().fts_ids("fact", terms, EVERYTHING, 20)
    assert [i for i, _ in again] == [i for i, _ in fresh]
    assert [s for _, s in again] == pytest.approx([s for _, s in fresh], rel=1e-12)
