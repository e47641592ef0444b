"""Identity (issue 36): ids are never handed out again after an erase, and "user" is
each stream's own speaker, never one person across a tenant."""

from datetime import UTC, datetime, timedelta

import pytest

from tests.scripted_model import ScriptedModel
from threefold import InvalidInput, NotFound

T0 = datetime(2026, 5, 4, 8, 0, tzinfo=UTC)


def test_a_fact_id_is_never_reused_after_an_erase(open_memory):
    mem = open_memory(ScriptedModel())
    kept = mem.write_fact("chat:a", "The user lives in Leeds.", subject="user", slot="home")
    gone = mem.write_fact("chat:a", "The user works at Sage.", subject="user", slot="employer")
    mem.erase(fact_id=gone.id)
    new = mem.write_fact("chat:a", "The user is vegan.", subject="user", slot="diet")
    assert new.id > gone.id > kept.id
    with pytest.raises(NotFound):  # a retried forget finds nothing, not another memory
        mem.forget(gone.id)


def test_turn_ids_are_never_reused_after_a_stream_is_erased(open_memory):
    mem = open_memory(ScriptedModel())
    first = mem.add_turn("chat:a", "hello", at=T0)
    last = mem.add_turn("chat:b", "private words", at=T0 + timedelta(minutes=1))
    mem.erase(stream="chat:b")
    again = mem.add_turn("chat:b", "new words", at=T0 + timedelta(minutes=2))
    bulk = mem.store.insert_turns([])  # an empty bulk load is fine too
    assert bulk == [] and again.id > last.id > first.id
    with pytest.raises(NotFound):
        mem.turn(last.id)


@pytest.mark.parametrize("name", ["user", "User", "I", "me"])
def test_the_user_of_every_stream_is_not_one_person_to_erase(open_memory, name):
    mem = open_memory()
    mem.add_turn("user:alice", "I live in Leeds.", at=T0)
    mem.add_turn("user:bob", "I live in York.", at=T0)
    mem.process_pending()
    with pytest.raises(InvalidInput, match="speaker of each stream"):
        mem.erase(entity=name)
    assert mem.facts("user:alice") and mem.facts("user:bob")
    mem.erase(stream="user:alice")
    assert not mem.facts("user:alice") and mem.facts("user:bob")
