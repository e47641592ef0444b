"""SQLiteStore.insert_turns: a bulk load that stores turns exactly as insert_turn would."""

from datetime import UTC, datetime, timedelta

import pytest

from threefold.store import SQLiteStore
from threefold.store.base import ItemFilter, NewTurn

T0 = datetime(2026, 3, 1, tzinfo=UTC)


@pytest.fixture
def store(tmp_path):
    opened = SQLiteStore(tmp_path / "bulk.db")
    yield opened
    opened.close()


def turn(stream: str, n: int) -> NewTurn:
    return NewTurn(
        tenant="default",
        stream=stream,
        user=f"question {n} about walrus{n}",
        assistant=f"answer {n}",
        at=T0 + timedelta(minutes=n),
        tokens=3,
        speaker="Ana",
    )


def test_bulk_turns_take_each_streams_next_seqs_in_order(store):
    store.insert_turn(turn("chat:a", 0))
    mixed = [turn("chat:a" if n % 3 else "chat:b", n) for n in range(1, 131)]
    ids = store.insert_turns(mixed)
    assert len(ids) == len(mixed) and ids == sorted(ids)
    for stream in ("chat:a", "chat:b"):
        stored = store.turns("default", stream)
        assert [t.seq for t in stored] == list(range(1, len(stored) + 1))
        assert store.stream_state("default", stream).turn_count == len(stored)
    by_id = {t.id: t for s in ("chat:a", "chat:b") for t in store.turns("default", s)}
    assert [by_id[i].user for i in ids] == [t.user for t in mixed]
    assert by_id[ids[-1]].speaker == "Ana" and by_id[ids[-1]].at == mixed[-1].at
    assert store.insert_turn(turn("chat:b", 999)).seq == 1 + sum(
        1 for t in mixed if t.stream == "chat:b"
    )


def test_bulk_turns_are_found_by_full_text(store):
    ids = store.insert_turns([turn("chat:a", n) for n in range(60)])
    where = ItemFilter(tenant="default", streams=("chat:a",))
    found = [i for i, _ in store.fts_ids("turn", ["walrus42"], where, 5)]
    # The next turn is indexed with its predecessor's words too, weighed less.
    assert found == [ids[42], ids[43]]


def test_no_turns_store_nothing(store):
    assert store.insert_turns([]) == []
    assert store.streams("default") == []
