"""The PostgreSQL store's HNSW graphs hold half-precision copies of the vectors (migration
0007): a walk reads half the pages. The graph only picks the candidates; their similarity
is the float32 vectors' own. An older database's float32 graphs are replaced when it is
opened."""

from collections.abc import Callable, Iterator

import numpy as np
import psycopg
import pytest

from tests.postgres.server import PASSWORD, EmbeddedPostgres
from tests.postgres.test_stream_vectors import (
    DIM,
    add_records,
    add_turns,
    analyze,
    few_vectors,
    walked_since,
    walks,
)
from threefold.errors import StoreError
from threefold.store.base import ItemFilter
from threefold.store.postgres import PostgresStore

KINDS = ("turn", "fact", "summary", "record")


@pytest.fixture
def url(fresh_postgres: Callable[[], str], monkeypatch: pytest.MonkeyPatch) -> str:
    few_vectors(monkeypatch)
    return fresh_postgres()


@pytest.fixture
def store(url: str) -> Iterator[PostgresStore]:
    opened = PostgresStore(url)
    yield opened
    opened.close()


def graphs(url: str) -> set[str]:
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'vectors'"
            " AND indexdef LIKE '%USING hnsw%'"
        ).fetchall()
    return {name for (name,) in rows}


def stored_turns(store: PostgresStore) -> dict[int, np.ndarray]:
    return {
        item: np.frombuffer(blob, dtype=np.float32)
        for _, item, _, blob in store.vectors("turn", "default", None)
    }


def test_the_graph_picks_candidates_ranked_by_their_float32_vectors(
    store: PostgresStore, url: str
) -> None:
    rng = np.random.default_rng(21)
    add_turns(store, "big", 200, rng)
    analyze(store)
    vectors = stored_turns(store)
    index = store.vector_index()
    before = walks(url, "turn")
    for item, vector in list(vectors.items())[:: len(vectors) // 10]:
        found = index.search("turn", _where("big"), vector, 20)
        assert found[0][0] == item
        for other, similarity in found:
            # Half precision would be off by about 1e-3; float32 agrees to 1e-6.
            assert similarity == pytest.approx(float(vectors[other] @ vector), abs=1e-6)
        assert [s for _, s in found] == sorted((s for _, s in found), reverse=True)
    assert walked_since(url, "turn", before)


def test_an_older_database_gets_half_precision_graphs_for_its_float32_ones(url: str) -> None:
    rng = np.random.default_rng(23)
    store = PostgresStore(url)
    try:
        add_turns(store, "big", 80, rng)
        add_records(store, "big", 40, rng)
    finally:
        store.close()
    # The schema as threefold wrote it before 0007: float32 graphs, one per kind, and the
    # still older graph of every kind.
    with psycopg.connect(url, autocommit=True) as conn:
        for name in graphs(url):
            conn.execute(f"DROP INDEX {name}")
        for kind in KINDS:
            conn.execute(
                f"CREATE INDEX vectors_hnsw_{DIM}_{kind} ON vectors USING hnsw"
                f" ((embedding::vector({DIM})) vector_cosine_ops)"
                f" WHERE dim = {DIM} AND kind = '{kind}'"
            )
        conn.execute(
            f"CREATE INDEX vectors_hnsw_{DIM} ON vectors USING hnsw"
            f" ((embedding::vector({DIM})) vector_cosine_ops) WHERE dim = {DIM}"
        )
        conn.execute("DELETE FROM schema_migrations WHERE name = '0007_half_precision_graphs'")
    store = PostgresStore(url)
    try:
        assert graphs(url) == {f"vectors_half_{DIM}_{kind}" for kind in KINDS}
        assert "0007_half_precision_graphs" in store.migrations()
        analyze(store)
        vectors = stored_turns(store)
        item, vector = next(iter(vectors.items()))
        before = walks(url, "turn")
        found = store.vector_index().search("turn", _where("big"), vector, 10)
        assert found[0] == (item, pytest.approx(1.0, abs=1e-6))
        assert walked_since(url, "turn", before)
        add_turns(store, "big", 5, rng)  # new vectors go into the new graph
        assert graphs(url) == {f"vectors_half_{DIM}_{kind}" for kind in KINDS}
    finally:
        store.close()


def test_a_new_dimension_gets_half_precision_graphs(store: PostgresStore, url: str) -> None:
    store.ensure_stream("default", "wide")
    rng = np.random.default_rng(29)
    add_turns(store, "wide", 3, rng)
    vector = rng.normal(size=3 * DIM).astype(np.float32)
    turn = store.turns("default", "wide")[0]
    store.put_vectors("default", "wide", "wider", [("turn", turn.id, vector.tobytes(), 3 * DIM)])
    assert {f"vectors_half_{3 * DIM}_{kind}" for kind in KINDS} <= graphs(url)
    assert not {name for name in graphs(url) if name.startswith("vectors_hnsw")}


def test_a_pgvector_without_half_precision_vectors_is_refused_clearly(
    postgres_server: EmbeddedPostgres, url: str
) -> None:
    """pgvector before 0.7 has no halfvec: the migration is not tried, and the error says
    what to upgrade. (The catalog is made to say 0.6.2, as a database of that time says.)"""
    database = url.rsplit("/", 1)[1]
    postgres_server.psql(
        "DELETE FROM schema_migrations WHERE name = '0007_half_precision_graphs';"
        " UPDATE pg_extension SET extversion = '0.6.2' WHERE extname = 'vector'",
        database,
    )
    with pytest.raises(
        StoreError, match=r"pgvector 0\.6\.2; threefold needs 0\.7 or newer"
    ) as failed:
        PostgresStore(url)
    assert "ALTER EXTENSION vector UPDATE" in str(failed.value)
    assert PASSWORD not in str(failed.value)
    applied = "SELECT count(*) FROM schema_migrations WHERE name = '0007_half_precision_graphs'"
    assert postgres_server.psql(applied, database).strip() == "0"


def _where(*streams: str) -> ItemFilter:
    return ItemFilter(tenant="default", streams=streams)
