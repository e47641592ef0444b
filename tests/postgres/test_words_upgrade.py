"""A database indexed before migration 0008 (PostgreSQL's parser and English stems) is
indexed again when it is opened: it then ranks as a SQLite file holding the same."""

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.postgres.server import EmbeddedPostgres
from threefold.domain import FactCategory, SourceRef
from threefold.store import Store, open_store
from threefold.store.base import ItemFilter, NewFact, NewTurn
from threefold.store.postgres import store as postgres_store
from threefold.store.postgres.migrations import MIGRATIONS, TURN_CONFIG

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
TEXTS = [
    "We painted the self-care room: 3.5 coats, done 2023-05-20.",
    "Come with us; the paint was used up\u2013all of it!",
    "Mail the painter at paint@example.com about the coats.",
    "Nothing about that here, only filler words of a turn.",
]
QUESTIONS = [["painting", "coats"], ["used", "paint"], ["care", "05"], ["example", "filler"]]
_0008 = [name for name, _ in MIGRATIONS].index("0008_words_as_sqlite_reads_them")
_TURN_SEARCH_BEFORE_0008 = (
    f"setweight(to_tsvector('{TURN_CONFIG}', own.own_user || E'\\n' || own.own_assistant), 'A')"
    f" || setweight(to_tsvector('{TURN_CONFIG}', coalesce(coalesce(p.speaker || ': ', '')"
    " || p.user_text || E'\\n' || p.assistant_text, '')), 'D')"
)


@pytest.fixture
def database(postgres_server: EmbeddedPostgres) -> Iterator[str]:
    """An empty database's name: no migration has run in it."""
    name = f"t{uuid.uuid4().hex[:16]}"
    postgres_server.create_database(name)
    yield name
    postgres_server.psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _write(store: Store) -> None:
    store.ensure_stream("t1", "chat:a")
    for n, text in enumerate(TEXTS):
        store.insert_turn(
            NewTurn(tenant="t1", stream="chat:a", user=text, assistant="", at=T0, tokens=9)
        )
        store.insert_fact(
            NewFact(
                tenant="t1",
                stream="chat:a",
                text=text,
                category=FactCategory.NOTE,
                subject="raj",
                slot=f"note {n}",
                value=text,
                confidence=0.9,
                source=SourceRef(kind="turn", id="1", at=T0 + timedelta(minutes=n)),
                tokens=9,
            )
        )


def _ranked(store: Store) -> list[list[tuple[int, float]]]:
    where = ItemFilter(tenant="t1")
    kinds = ("turn", "fact")
    return [store.fts_ids(kind, terms, where, 10) for kind in kinds for terms in QUESTIONS]


def _words(server: EmbeddedPostgres, database: str) -> set[str]:
    """The words of every turn's and fact's index."""
    return set(
        server.psql(
            "SELECT word FROM turns, unnest(tsvector_to_array(search)) word UNION"
            " SELECT word FROM facts, unnest(tsvector_to_array(search)) word",
            database,
        ).split()
    )


def test_an_older_database_is_indexed_again_and_ranks_as_sqlite(
    postgres_server: EmbeddedPostgres,
    database: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = postgres_server.url(database)
    with monkeypatch.context() as before_0008:
        before_0008.setattr(postgres_store, "MIGRATIONS", MIGRATIONS[:_0008])
        before_0008.setattr(postgres_store, "_TURN_SEARCH", _TURN_SEARCH_BEFORE_0008)
        old = open_store(url)
        _write(old)
        old.close()
    # The parser read these as words of their own, and stemmed "painted" as English does.
    assert {"self-care", "3.5", "paint@example.com", "paint"} <= _words(postgres_server, database)
    upgraded, reference = open_store(url), open_store(tmp_path / "reference.db")
    _write(reference)
    try:
        assert upgraded.migrations()[-1] == MIGRATIONS[-1][0]
        assert "self-care" not in _words(postgres_server, database)
        want = _ranked(reference)
        got = _ranked(upgraded)
        assert [[i for i, _ in hits] for hits in got] == [[i for i, _ in hits] for hits in want]
        for got_hits, want_hits in zip(got, want, strict=True):
            assert [s for _, s in got_hits] == pytest.approx([s for _, s in want_hits], rel=1e-9)
    finally:
        upgraded.close()
        reference.close()
