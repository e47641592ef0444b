"""Reads answered from memory must never outlive a change to the database."""

import math
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import MemoryFactory
from threefold import Memory, load_settings
from threefold.domain import utcnow
from threefold.store.base import NewTurn
from threefold.store.sqlite.store import SQLiteStore

STREAM = "project:alpha"


@pytest.fixture
def reader_and_writer(tmp_path: Path) -> Iterator[tuple[Memory, Memory]]:
    """Two memories on one database file, as two server processes would hold."""
    db = tmp_path / "shared.db"
    settings = load_settings()
    with (
        Memory.open(db, settings=settings, background_worker=False) as reader,
        Memory.open(db, settings=settings, background_worker=False) as writer,
    ):
        yield reader, writer


def _fact_texts(mem: Memory) -> list[str]:
    return [f.text for f in mem.facts(STREAM)]


def test_a_write_through_the_same_memory_shows_at_once(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    mem.write_fact(STREAM, "Raj is the Lead Architect.", category="role")
    first = mem.context(STREAM, "who leads?", 1000)
    mem.write_fact(STREAM, "The deadline is 2027-03-27.", category="deadline")
    second = mem.context(STREAM, "who leads?", 1000)
    assert "2027-03-27" not in first.text
    assert "2027-03-27" in second.text


def test_a_write_by_another_connection_shows_at_once(
    reader_and_writer: tuple[Memory, Memory],
) -> None:
    reader, writer = reader_and_writer
    writer.write_fact(STREAM, "Raj is the Lead Architect.", category="role")
    assert _fact_texts(reader) == ["Raj is the Lead Architect."]
    writer.write_fact(STREAM, "Priya owns the backend.", category="role")
    assert sorted(_fact_texts(reader)) == [
        "Priya owns the backend.",
        "Raj is the Lead Architect.",
    ]
    assert len(reader.turns(STREAM, 10)) == 0
    writer.add_turn(STREAM, user="hello", assistant="hi")
    assert [t.user for t in reader.turns(STREAM, 10)] == ["hello"]


def test_rows_read_inside_a_rolled_back_transaction_are_forgotten(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "store.db")
    try:
        with pytest.raises(RuntimeError), store.transaction():
            store.ensure_stream("t", STREAM)
            store.insert_turn(
                NewTurn(
                    tenant="t", stream=STREAM, user="doomed", assistant="", at=utcnow(), tokens=1
                )
            )
            assert [t.user for t in store.turns("t", STREAM, last=5)] == ["doomed"]
            raise RuntimeError("the job failed half-way")
        assert store.turns("t", STREAM, last=5) == []
        assert not store.stream_state("t", STREAM).exists
    finally:
        store.close()


def test_callers_cannot_change_what_others_read(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    mem.write_fact(STREAM, "Raj is the Lead Architect.", category="role")
    mem.facts(STREAM).clear()
    assert _fact_texts(mem) == ["Raj is the Lead Architect."]


def test_search_items_never_outlive_a_change_by_another_connection(
    reader_and_writer: tuple[Memory, Memory],
) -> None:
    reader, writer = reader_and_writer
    fact = writer.write_fact(STREAM, "The badge vendor is Acme.", category="decision")
    (before,) = reader.store.items("fact", "default", [fact.id])
    again = reader.store.items("fact", "default", [fact.id, 10**9])  # a missing id too
    assert again == [before]
    writer.store.update_fact(
        "default", fact.id, text="The badge vendor is Zenith.", value="Zenith", tokens=7
    )
    (after,) = reader.store.items("fact", "default", [fact.id])
    assert before.text == "The badge vendor is Acme."
    assert after.text == "The badge vendor is Zenith."


def test_a_context_sees_what_another_connection_wrote_since_the_last(
    reader_and_writer: tuple[Memory, Memory],
) -> None:
    """A context reads its stream's turns, pinned facts and the tenant's names as one kept
    view: a write by anyone must replace the whole of it."""
    reader, writer = reader_and_writer
    writer.add_turn(STREAM, "Standup moves to 9:30.", "Noted.")
    before = reader.context(STREAM, "Who is the vendor?", 1000)
    writer.add_turn(STREAM, "The badge vendor is Acme.", "Noted.")
    writer.write_fact(STREAM, "Raj is the Lead Architect.", category="role")
    after = reader.context(STREAM, "Who is the vendor?", 1000)
    assert "Acme" not in before.text and "Lead Architect" not in before.text
    assert "Acme" in after.text and "Lead Architect" in after.text


def test_a_kind_with_nothing_to_search_is_searched_once_it_has(
    reader_and_writer: tuple[Memory, Memory],
) -> None:
    """A context leaves out the kinds none of whose items its filter passes (here facts:
    the stream's one fact is pinned, so excluded); a fact written since by anyone is
    searched for at once."""
    reader, writer = reader_and_writer
    writer.write_fact(STREAM, "Raj is the Lead Architect.", category="role")
    writer.add_turn(STREAM, "Standup moves to 9:30.", "Noted.")
    question = "Which vendor makes the badges?"
    before = reader.context(STREAM, question, 2000)
    assert "Zenith" not in before.text
    # Under the pin threshold: recall material, not a pinned fact.
    writer.write_fact(STREAM, "The badge vendor is Zenith.", category="decision", confidence=0.3)
    after = reader.context(STREAM, question, 2000)
    retrieved = after.section("retrieved").items
    assert any("The badge vendor is Zenith." in item.text for item in retrieved)
    assert not any("Zenith" in item.text for item in after.section("stream_facts").items)
    # The same memory's own write shows at once too.
    reader.write_fact(STREAM, "The badge printer is Orca.", category="decision", confidence=0.3)
    again = reader.context(STREAM, "Which printer makes the badges?", 2000)
    assert any("Orca" in item.text for item in again.section("retrieved").items)


@pytest.mark.parametrize("written_by", ["reader", "writer"])
def test_vectors_written_after_a_search_are_searched_by_the_next(
    reader_and_writer: tuple[Memory, Memory], written_by: str
) -> None:
    """A search does not read a stream's vectors again while nothing changed; a vector
    written since, by this memory or another process's, is found by the next search."""
    reader, writer = reader_and_writer
    author = reader if written_by == "reader" else writer
    standup, kafka = "Standup moves to 9:30 every weekday.", "The kafka deploy failed on prod."
    author.add_turn(STREAM, standup, "Noted.")
    author.process_pending()
    first = reader.search(standup, stream=STREAM, kinds=["turn"])
    assert [h.signals.get("vector_rank") for h in first] == [1]
    assert reader.search(standup, stream=STREAM, kinds=["turn"]) == first
    author.add_turn(STREAM, kafka, "Noted.")
    author.process_pending()
    hits = reader.search(kafka, stream=STREAM, kinds=["turn"])
    assert hits[0].text.startswith(kafka) and hits[0].signals.get("vector_rank") == 1


@pytest.mark.slow
def test_a_search_ranks_by_what_another_connection_changed_since_the_last(
    reader_and_writer: tuple[Memory, Memory],
) -> None:
    """What ranking reads of each candidate (its time, its mentions) is kept between
    searches only while nothing changed: a fact said again counts at once."""
    reader, writer = reader_and_writer
    writer.write_fact(STREAM, "The badge vendor is Acme.", category="decision")
    (once,) = reader.search("badge vendor", stream=STREAM, kinds=["fact"])
    assert reader.search("badge vendor", stream=STREAM, kinds=["fact"]) == [once]
    assert writer.write_fact(STREAM, "The badge vendor is Acme.", category="decision").id == once.id
    (twice,) = reader.search("badge vendor", stream=STREAM, kinds=["fact"])
    assert twice.score == pytest.approx(once.score + 0.001 * math.log(2))


def test_a_filter_check_never_outlives_a_change_by_another_connection(
    reader_and_writer: tuple[Memory, Memory],
) -> None:
    """passing() keeps its answers per filter while nothing changed (a vector search checks
    mostly the same neighbours question after question): a fact forgotten since, by
    anyone, no longer passes a filter of active facts; ids that exist nowhere never pass."""
    from threefold.store.base import ItemFilter

    reader, writer = reader_and_writer
    kept = writer.write_fact(STREAM, "The badge vendor is Acme.", category="decision")
    gone = writer.write_fact(STREAM, "Raj is the Lead Architect.", category="role")
    where = ItemFilter(tenant="default", streams=(STREAM,))
    asked = [gone.id, kept.id, 10**9, gone.id]
    assert reader.store.passing("fact", where, asked) == {kept.id, gone.id}
    assert reader.store.passing("fact", where, asked) == {kept.id, gone.id}  # kept
    writer.forget(gone.id, reason="left the company")
    assert reader.store.passing("fact", where, asked) == {kept.id}
    other = where.model_copy(update={"streams": ("project:beta",)})
    assert reader.store.passing("fact", other, asked) == set()  # another filter, its own
    reader.forget(kept.id)
    assert reader.store.passing("fact", where, asked) == set()


def test_a_filter_check_is_whole_after_its_kept_answers_are_dropped(
    open_memory: MemoryFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the answers kept exceed their bound they all go, and the call that drops them
    reads every id it was asked again: an id answered before is not taken for failing."""
    from threefold.store.base import ItemFilter
    from threefold.store.sqlite import store as sqlite_store

    mem = open_memory()
    ids = [
        mem.write_fact(STREAM, text, category="decision").id
        for text in ("The vendor is Acme.", "The venue is Oslo.", "The host is Raj.")
    ]
    monkeypatch.setattr(sqlite_store, "_PASSING_KEPT", 2)
    where = ItemFilter(tenant="default", streams=(STREAM,))
    assert mem.store.passing("fact", where, ids[:2]) == set(ids[:2])
    assert mem.store.passing("fact", where, ids) == set(ids)  # the bound is passed here
    assert mem.store.passing("fact", where, ids[1:]) == set(ids[1:])
