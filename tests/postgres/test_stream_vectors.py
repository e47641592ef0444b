"""A vector search on PostgreSQL in streams that hold few of a kind's vectors scores them
all, beside a stream that holds many and is searched through the HNSW graph: the small
stream gets its true nearest (records filed there by a link too), and neither stream's
results lose anything. The threshold is lowered here so that small stores cross it."""

import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta

import numpy as np
import psycopg
import pytest

from threefold.domain import Visibility
from threefold.store.base import ItemFilter, NewRecord, NewTurn, Probe
from threefold.store.postgres import PostgresStore
from threefold.store.postgres import store as postgres_store

DIM = 16
T0 = datetime(2026, 1, 1, tzinfo=UTC)
FEW = 30
"""_EXACT_BELOW in these tests: "big" holds more vectors of each kind, "small" fewer."""


def few_vectors(monkeypatch: pytest.MonkeyPatch, graph_from: int = FEW) -> None:
    """Thresholds that small stores cross: by default a stream under FEW vectors is scored
    whole, and any over it walks the graph, whatever share of the graph it holds."""
    monkeypatch.setattr(postgres_store, "_EXACT_BELOW", FEW)
    monkeypatch.setattr(postgres_store, "_GRAPH_FROM", graph_from)


@pytest.fixture
def store(
    fresh_postgres: Callable[[], str], monkeypatch: pytest.MonkeyPatch
) -> Iterator[PostgresStore]:
    few_vectors(monkeypatch)
    opened = PostgresStore(fresh_postgres())
    yield opened
    opened.close()


def unit(rng: np.random.Generator) -> np.ndarray:
    vector = rng.normal(size=DIM).astype(np.float32)
    return vector / np.linalg.norm(vector)


def add_turns(store: PostgresStore, stream: str, count: int, rng: np.random.Generator) -> None:
    for n in range(count):
        turn = store.insert_turn(
            NewTurn(
                tenant="default",
                stream=stream,
                user=f"{stream} turn {n}",
                assistant="ok",
                at=T0 + timedelta(minutes=n),
                tokens=4,
            )
        )
        store.put_vectors("default", stream, "m", [("turn", turn.id, unit(rng).tobytes(), DIM)])


def add_records(
    store: PostgresStore, stream: str, count: int, rng: np.random.Generator, also_in=()
) -> list[int]:
    ids = store.insert_records(
        [
            NewRecord(
                tenant="default",
                stream=stream,
                source="slack",
                channel=stream,
                external_id=f"{stream}-{n}-{also_in}",
                author="Raj",
                text=f"{stream} message {n}",
                kind="message",
                at=T0 + timedelta(minutes=n),
                route_method="channel",
                route_confidence=1.0,
                visibility=Visibility.SHARED,
                tokens=4,
                also_in=tuple(also_in),
            )
            for n in range(count)
        ]
    )
    found = [i for i in ids if i is not None]
    store.put_vectors(
        "default", stream, "m", [("record", i, unit(rng).tobytes(), DIM) for i in found]
    )
    return found


def analyze(store: PostgresStore) -> None:
    """The graphs' sizes as the planner knows them: past FEW, the graph is walked."""
    with psycopg.connect(store.url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE vectors")


def where(*streams: str) -> ItemFilter:
    return ItemFilter(tenant="default", streams=streams)


def nearest(store: PostgresStore, kind: str, streams: tuple[str, ...], query, limit, exact=False):
    return store.nearest(kind, where(*streams), query.tobytes(), DIM, limit, exact)


def walks(url: str, kind: str) -> int:
    """How often the kind's half-precision graph was walked, as the server counts it."""
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT idx_scan FROM pg_stat_user_indexes WHERE indexrelname = %s",
            (f"vectors_half_{DIM}_{kind}",),
        ).fetchone()
    return row[0] if row else 0


def walked_since(url: str, kind: str, before: int) -> bool:
    """Whether the graph was walked since it counted `before` walks. The store's
    connections report their counts when idle, within a second or so."""
    deadline = time.monotonic() + 10
    while walks(url, kind) <= before:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True


def test_a_stream_holding_most_of_a_middling_graph_walks_it_and_a_minority_scores_all(
    fresh_postgres: Callable[[], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between _GRAPH_FROM and _EXACT_BELOW vectors, a stream that holds most of the graph
    is searched through it (its filter passes most of the walk); once other streams hold
    most of it, the same stream's vectors are scored whole and its true nearest found."""
    few_vectors(monkeypatch, graph_from=10)
    store = PostgresStore(fresh_postgres())
    try:
        rng = np.random.default_rng(29)
        add_turns(store, "mid", 20, rng)
        analyze(store)
        before = walks(store.url, "turn")
        assert len(nearest(store, "turn", ("mid",), unit(rng), 5)) == 5
        assert walked_since(store.url, "turn", before)

        add_turns(store, "other", 60, rng)
        analyze(store)
        time.sleep(1.5)  # the walks of the searches before are reported by now
        before = walks(store.url, "turn")
        for _ in range(3):
            query = unit(rng)
            exact = nearest(store, "turn", ("mid",), query, 20, exact=True)
            assert nearest(store, "turn", ("mid",), query, 20) == exact
        time.sleep(1.5)
        assert walks(store.url, "turn") == before
    finally:
        store.close()


def test_a_small_stream_beside_a_big_one_gets_its_true_nearest(store: PostgresStore) -> None:
    rng = np.random.default_rng(3)
    add_turns(store, "big", 200, rng)
    add_turns(store, "small", 12, rng)
    analyze(store)
    for _ in range(20):
        query = unit(rng)
        found = nearest(store, "turn", ("small",), query, 8)
        assert found == nearest(store, "turn", ("small",), query, 8, exact=True)
        everything = nearest(store, "turn", ("small",), query, 50)
        assert len(everything) == 12  # every vector of the stream, none of the other's
        assert len(nearest(store, "turn", ("big",), query, 50)) == 50


def test_a_record_filed_into_a_small_stream_by_a_link_is_found_there(
    store: PostgresStore,
) -> None:
    rng = np.random.default_rng(5)
    add_records(store, "big", 120, rng)
    home = add_records(store, "small", 5, rng)
    linked = add_records(store, "big", 3, rng, also_in=("small",))
    analyze(store)
    query = unit(rng)
    found = {item for item, _ in nearest(store, "record", ("small",), query, 50)}
    assert found == set(home) | set(linked)
    assert nearest(store, "record", ("small",), query, 6) == nearest(
        store, "record", ("small",), query, 6, exact=True
    )


def test_candidates_search_small_and_big_streams_alike(store: PostgresStore) -> None:
    """The context's search (both halves at once) finds the same nearest as a search of
    one kind, in a small stream, a big one, and both together."""
    rng = np.random.default_rng(9)
    add_turns(store, "big", 200, rng)
    add_turns(store, "small", 12, rng)
    add_records(store, "small", 4, rng)
    analyze(store)
    query = unit(rng)
    for streams in (("small",), ("big",), ("big", "small")):
        probe = Probe(where=where(*streams))
        for _ in range(2):  # the second time the big stream is known to be big
            found = store.candidates("default", ("turn", "record"), [], query, [probe], 10)
            for kind in ("turn", "record"):
                alone = nearest(store, kind, streams, query, 10)
                got = found.nearest.get((0, kind), [])
                assert [i for i, _ in got] == [i for i, _ in alone]


def test_a_stream_that_grows_past_the_threshold_is_still_searched_whole(
    store: PostgresStore,
) -> None:
    rng = np.random.default_rng(11)
    add_turns(store, "big", 100, rng)
    add_turns(store, "growing", 10, rng)
    analyze(store)
    query = unit(rng)
    assert len(nearest(store, "turn", ("growing",), query, 50)) == 10
    add_turns(store, "growing", 60, rng)
    analyze(store)
    assert len(nearest(store, "turn", ("growing",), query, 50)) == 50
    assert len(nearest(store, "turn", ("growing",), query, 100)) == 70


@pytest.mark.parametrize("streams", [(), ("no such stream",), ("small", "small")])
def test_empty_missing_and_repeated_streams(store: PostgresStore, streams) -> None:
    rng = np.random.default_rng(13)
    add_turns(store, "big", 60, rng)
    add_turns(store, "small", 3, rng)
    analyze(store)
    found = nearest(store, "turn", streams, unit(rng), 10)
    assert len(found) == (3 if "small" in streams else 0)


def test_a_small_stream_comes_back_whole_where_the_graph_scan_is_cut_short(
    fresh_postgres: Callable[[], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the graph's iterative scan allowed few tuples (hnsw.max_scan_tuples, set on
    the database as an administrator might), a walk filtered to a small stream stops
    before it finds that stream's vectors; scoring them all does not."""
    few_vectors(monkeypatch)
    url = fresh_postgres()
    with psycopg.connect(url, autocommit=True) as conn:
        name = conn.info.dbname
        conn.execute(f'ALTER DATABASE "{name}" SET hnsw.max_scan_tuples = 60')
    store = PostgresStore(url)
    try:
        rng = np.random.default_rng(17)
        add_turns(store, "big", 300, rng)
        add_turns(store, "small", 12, rng)
        analyze(store)
        for _ in range(5):
            assert len(nearest(store, "turn", ("small",), unit(rng), 50)) == 12
    finally:
        store.close()


@pytest.mark.parametrize("floor", [-1.0, 0.5, 1.01])
def test_candidates_under_the_similarity_floor_are_left_out(
    store: PostgresStore, floor: float
) -> None:
    """In a stream big enough to walk the graph, a probe's floor keeps out every nearest
    vector under it, and their items, whether some pass it or none (the stream's vectors
    are counted either way), search after search."""
    rng = np.random.default_rng(19)
    add_turns(store, "big", 120, rng)
    analyze(store)
    query = unit(rng)
    alone = nearest(store, "turn", ("big",), query, 20)
    passing = [(i, s) for i, s in alone if s >= floor]
    assert 0 < len(passing) < len(alone) if floor == 0.5 else True  # some pass, some not
    probe = Probe(where=where("big"), min_similarity=floor)
    for _ in range(3):
        found = store.candidates("default", ("turn",), [], query, [probe], 20)
        got = found.nearest.get((0, "turn"), [])
        assert [i for i, _ in got] == [i for i, _ in passing]
        assert set(found.rows) == {("turn", i) for i, _ in passing}
