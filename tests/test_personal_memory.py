"""Personal facts through the public API: a Memory on a real SQLite file, the default
heuristic model, add_turn, process_pending, facts() and context()."""

from datetime import UTC, datetime, timedelta

import pytest

from memstrata import Memory
from memstrata.types import FactStatus

AT = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
STREAM = "chat:8812"


@pytest.fixture
def mem(tmp_path):
    with Memory.open(tmp_path / "mem.db", background_worker=False, embedder=None) as memory:
        yield memory


def say(mem: Memory, *lines: str) -> None:
    for n, line in enumerate(lines):
        mem.add_turn(STREAM, line, "Noted.", at=AT + timedelta(minutes=n))
    mem.process_pending()


def current(mem: Memory) -> set[tuple[str, str, str]]:
    return {(f.subject, f.slot, f.value) for f in mem.facts(STREAM)}


def test_what_the_user_says_about_themselves_is_pinned_and_updates_replace(mem):
    say(
        mem,
        "My name is Dana and I lead the Atlas project.",
        "I live in Berlin. I am allergic to peanuts.",
        "I prefer vim as my editor.",
        "Actually, I moved to Munich last month.",
        "Actually, I switched to VS Code.",
        "I'm also allergic to shellfish.",
    )
    assert {
        ("user", "name", "dana"),
        ("user", "leads", "atlas project"),
        ("user", "home", "munich"),
        ("user", "tool:editor", "vs code"),
        ("user", "allergy:peanut", "peanuts"),
        ("user", "allergy:shellfish", "shellfish"),
    } <= current(mem)
    old = {f.value: f.status for f in mem.facts(STREAM, include_inactive=True) if not f.active}
    assert old == {"berlin": FactStatus.SUPERSEDED, "vim": FactStatus.SUPERSEDED}
    facts_section = mem.context(STREAM, "what should I cook?").section("stream_facts")
    shown = " ".join(item.text for item in facts_section.items)
    assert "allergic to peanuts" in shown and "lives in Munich" in shown
    assert "Berlin" not in shown


def test_a_retraction_keeps_the_old_value_in_history(mem):
    say(mem, "I'm vegetarian.", "I'm not vegetarian anymore.")
    (fact,) = [f for f in mem.facts(STREAM) if f.slot == "diet"]
    assert fact.value == "not vegetarian"
    chain = mem.fact_history(fact.id).chain
    assert [f.value for f in chain] == ["vegetarian", "not vegetarian"]


@pytest.mark.parametrize(
    "text",
    [
        "Ich wohne in Berlin und bin allergisch gegen Erdnüsse.",
        "Am I allergic to peanuts?",
        "If I lived in Paris I would cycle to work.",
        "I wish I worked at Google.",
        "My friend is vegetarian.",
    ],
)
def test_no_fact_and_no_error(mem, text):
    say(mem, text)
    assert mem.facts(STREAM, include_inactive=True) == []


def test_the_chat_id_never_becomes_a_subject(mem):
    say(mem, "The launch is on May 3.")
    (fact,) = mem.facts(STREAM)
    assert "8812" not in f"{fact.subject} {fact.value} {fact.text}"


def test_she_after_a_claim_about_a_daughter_corrects_her_age(mem):
    mem.add_turn(STREAM, "How old is my daughter?", "Your daughter is 7.", at=AT)
    mem.add_turn(STREAM, "She turned 8 in March, actually.", "Oops.", at=AT + timedelta(hours=1))
    mem.process_pending()
    ages = {f.value for f in mem.facts(STREAM) if f.slot == "age"}
    assert ages == {"8"}


def test_a_relative_named_otherwise_in_reply_renames_the_claim(mem):
    mem.add_turn(STREAM, "What's my son called?", "Your son is called Jack.", at=AT)
    mem.add_turn(STREAM, "My son is called Jake.", "Sorry!", at=AT + timedelta(hours=1))
    mem.process_pending()
    assert {f.value for f in mem.facts(STREAM) if f.slot.startswith("son:")} == {"jake"}


def test_a_second_relative_named_in_reply_leaves_the_first(mem):
    mem.add_turn(STREAM, "Who's my son?", "Your son is Jack; your daughter is Mia.", at=AT)
    mem.add_turn(STREAM, "My younger son is Jake.", "Ah.", at=AT + timedelta(hours=1))
    mem.process_pending()
    names = {f.value for f in mem.facts(STREAM) if f.slot.split(":")[0] in ("son", "daughter")}
    assert names == {"jack", "jake", "mia"}


def test_a_favourite_without_its_kind_replaces_the_one_favourite_named(mem):
    say(mem, "My favourite band is Blur.", "These days my favourite is Fontaines D.C.")
    favourites = {f.slot: f.value for f in mem.facts(STREAM) if f.slot.startswith("favorite")}
    assert favourites == {"favorite": "fontaines d.c"}


def test_a_favourite_without_its_kind_leaves_two_kinds_alone(mem):
    say(
        mem,
        "My favourite band is Blur.",
        "My favourite food is ramen.",
        "These days my favourite is Fontaines D.C.",
    )
    favourites = {f.slot for f in mem.facts(STREAM) if f.slot.startswith("favorite")}
    assert favourites == {"favorite", "favorite:band", "favorite:food"}
