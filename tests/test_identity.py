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
    if hasattr(mem.store, "insert_turns"):  # SQLite's bulk load: an empty one is fine too
        assert mem.store.insert_turns([]) == []
    assert again.id > last.id > first.id
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


def _maya(mem) -> None:
    """Maya Chen's own stream, written without speaker=, and a team chat that names her."""
    lines = [
        "Hi, I'm Maya Chen.",
        "I live in Lisbon.",
        "I work at Unbabel as a designer.",
        "My birthday is March 3.",
        "I'm allergic to peanuts.",
    ]
    for n, line in enumerate(lines):
        mem.add_turn("user:maya", line, "Noted.", at=T0 + timedelta(hours=n))
    mem.add_turn("user:ines", "Hi, I'm Ines.", "Hello!", at=T0)
    mem.add_turn("user:ines", "I live in Porto.", "Noted.", at=T0 + timedelta(hours=1))
    mem.add_turn("team:design", "Maya Chen is leading the rebrand.", "Ok.", at=T0, speaker="Omar")
    mem.write_fact(
        "user:ines",
        "The user's manager is Maya Chen.",
        category="relationship",
        subject="user",
        slot="manager",
        value="maya chen",
    )
    mem.process_pending()


def test_erasing_a_person_finds_what_she_said_without_a_speaker(open_memory):
    """Her turns had no speaker=, so her facts are about "user" of her stream: erasing her
    by name takes them, and her words, and leaves another user's stream alone."""
    mem = open_memory()
    _maya(mem)
    assert {f.value for f in mem.facts("user:maya")} >= {"lisbon", "unbabel", "peanuts"}
    report = mem.erase(entity="Maya Chen")
    assert mem.facts("user:maya") == []
    assert mem.turns("user:maya", 10) == []
    assert mem.facts("team:design") == []
    assert {f.value for f in mem.facts("user:ines")} & {"lisbon", "porto", "maya chen"} == {"porto"}
    assert len(mem.turns("user:ines", 10)) == 2
    assert report.facts >= 7


def test_the_user_of_every_stream_has_no_profile_of_all_of_them(open_memory):
    mem = open_memory()
    mem.add_turn("user:alice", "I'll send the board deck by Friday.", "Noted.", at=T0)
    mem.add_turn("user:bob", "I'll call the landlord tomorrow about the boiler.", "Ok.", at=T0)
    mem.process_pending()
    for name in ("user", "User", "me"):
        with pytest.raises(InvalidInput, match="speaker of each stream"):
            mem.profile(name)
    alice = mem.profile("user:alice")
    assert [i.text for i in alice.commitments if "landlord" in i.text] == []
    assert [i.text for i in alice.commitments if "board deck" in i.text]
