"""A database written before migration 0009 gets each searchable row's words stored
when it is opened, and then ranks every kind exactly as a database made since, and as a
SQLite file holding the same."""

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.postgres.server import EmbeddedPostgres
from threefold.domain import FactCategory, SourceRef, SummaryKind, Visibility
from threefold.store import Store, open_store
from threefold.store.base import ItemFilter, NewFact, NewRecord, NewSummary, NewTurn
from threefold.store.postgres import store as postgres_store
from threefold.store.postgres.migrations import MIGRATIONS

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
TEXTS = [
    "The kafka deploy failed twice: kafka, kafka and the deploy again.",
    "We rolled the deploy back; the billing cache was cold after it.",
    "Billing asked about the invoice cache, and about kafka once more.",
    "Nothing of that here, only filler words of a longer turn than the others are.",
]
QUESTIONS = [["kafka", "deploy"], ["billing", "cache"], ["invoice", "kafka", "filler"]]
KINDS = ("turn", "fact", "record", "summary")
_0009 = [name for name, _ in MIGRATIONS].index("0009_stored_word_counts")


@pytest.fixture
def databases(postgres_server: EmbeddedPostgres) -> Iterator[tuple[str, str]]:
    """Two empty databases' URLs: no migration has run in either."""
    names = [f"t{uuid.uuid4().hex[:16]}" for _ in range(2)]
    for name in names:
        postgres_server.create_database(name)
    yield postgres_server.url(names[0]), postgres_server.url(names[1])
    for name in names:
        postgres_server.psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _write(store: Store) -> None:
    store.ensure_stream("t1", "chat:a")
    for n, text in enumerate(TEXTS):
        at = T0 + timedelta(minutes=n)
        store.insert_turn(
            NewTurn(tenant="t1", stream="chat:a", user=text, assistant="", at=at, tokens=9)
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
                source=SourceRef(kind="turn", id="1", at=at),
                tokens=9,
            )
        )
        store.insert_record(
            NewRecord(
                tenant="t1",
                stream="chat:a",
                source="slack",
                channel="c1",
                external_id=str(n),
                author="raj",
                text=text,
                kind="message",
                at=at,
                route_method="channel",
                route_confidence=1.0,
                visibility=Visibility.PRIVATE,
                tokens=9,
            )
        )
        store.insert_summary(
            NewSummary(
                tenant="t1",
                stream="chat:a",
                kind=SummaryKind.SESSION,
                text=text,
                tokens=9,
                period_start=at,
                period_end=at,
                item_count=1,
            )
        )


def _ranked(store: Store) -> list[list[tuple[int, float]]]:
    where = ItemFilter(tenant="t1")
    return [store.fts_ids(kind, terms, where, 10) for kind in KINDS for terms in QUESTIONS]


def test_an_older_database_stores_its_word_counts_and_ranks_as_before(
    postgres_server: EmbeddedPostgres,
    databases: tuple[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    older, newer = databases
    with monkeypatch.context() as before_0009:
        before_0009.setattr(postgres_store, "MIGRATIONS", MIGRATIONS[:_0009])
        old = open_store(older)
        _write(old)
        assert old.migrations()[-1] == MIGRATIONS[_0009 - 1][0]
        old.close()
    upgraded, made_since, reference = (
        open_store(older),
        open_store(newer),
        open_store(tmp_path / "reference.db"),
    )
    try:
        _write(made_since)
        _write(reference)
        assert upgraded.migrations()[-1] == MIGRATIONS[-1][0]
        got, want = _ranked(upgraded), _ranked(made_since)
        assert all(got), "every question finds something of every kind"
        assert got == want  # the same scores, to the last bit
        sqlite = _ranked(reference)
        assert [[i for i, _ in hits] for hits in got] == [[i for i, _ in hits] for hits in sqlite]
        for got_hits, sqlite_hits in zip(got, sqlite, strict=True):
            assert [s for _, s in got_hits] == pytest.approx([s for _, s in sqlite_hits], rel=1e-9)
    finally:
        for store in (upgraded, made_since, reference):
            store.close()
