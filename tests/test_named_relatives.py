"""A relative's facts are filed under the name the stream knows them by (layers/people.py),
through the public API with the default reader: "mum is allergic to penicillin" after "my
mum is called Ngozi" is Ngozi's, and meets what is said of Ngozi by name."""

from collections.abc import Callable

import pytest

from tests.conftest import fact
from threefold import Memory
from threefold.domain import Fact
from threefold.layers.people import under_known_names
from threefold.models.base import ExtractedFact

MemoryFactory = Callable[..., Memory]


def told(open_memory: MemoryFactory, *said: str | tuple[str, str]) -> list[Fact]:
    """Every fact stored after each user message (or (speaker, message)), any status."""
    mem = open_memory()
    for item in said:
        speaker, text = item if isinstance(item, tuple) else (None, item)
        mem.add_turn("chat:family", user=text, assistant="Noted.", speaker=speaker)
        mem.process_pending()
    return mem.facts("chat:family", include_inactive=True)


def whose(facts: list[Fact], value: str) -> dict[str, str]:
    """Subject -> status of the facts holding `value`."""
    return {f.subject: f.status.value for f in facts if value in f.value.lower()}


def test_a_relatives_fact_is_filed_under_their_known_name(open_memory: MemoryFactory) -> None:
    facts = told(open_memory, "My mum is called Ngozi.", "My mum is allergic to penicillin.")
    assert whose(facts, "penicillin") == {"ngozi": "active"}
    assert whose(facts, "ngozi") == {"user": "active"}  # the relation fact itself stays


def test_a_relatives_new_value_supersedes_the_one_said_by_name(
    open_memory: MemoryFactory,
) -> None:
    facts = told(
        open_memory,
        "My mum is called Ngozi.",
        "Ngozi lives in Leeds.",
        "My mum lives in York now.",
    )
    assert whose(facts, "york") == {"ngozi": "active"}
    assert whose(facts, "leeds") == {"ngozi": "superseded"}


def test_the_one_sister_known_is_the_sister_meant(open_memory: MemoryFactory) -> None:
    facts = told(open_memory, "My sister Ana lives in Porto.", "My sister is a nurse.")
    assert whose(facts, "nurse") == {"ana": "active"}


def test_a_relative_of_several_is_not_guessed(open_memory: MemoryFactory) -> None:
    facts = told(
        open_memory,
        "My sister Ana lives in Porto.",
        "My sister Bea lives in Braga.",
        "My sister is a nurse.",
    )
    assert whose(facts, "nurse") == {"user's sister": "active"}


def test_a_relative_unnamed_stays_a_relative(open_memory: MemoryFactory) -> None:
    facts = told(open_memory, "My dad is allergic to shellfish.")
    assert whose(facts, "shellfish") == {"user's father": "active"}


def test_another_writers_relative_is_theirs(open_memory: MemoryFactory) -> None:
    facts = told(
        open_memory,
        ("Ragna", "My mum is called Sigrid."),
        ("Ola", "My mum is allergic to nuts."),
        ("Ragna", "My mum is allergic to penicillin."),
    )
    assert whose(facts, "nuts") == {"ola's mother": "active"}
    assert whose(facts, "penicillin") == {"sigrid": "active"}


@pytest.mark.parametrize(
    "item",
    [
        # a group is no one relative, whatever relation fact names one of it
        fact("user's family", "religion", "Buddhist", category="identity"),
        # a relative's name is the relation fact's to say, not a fact of the named
        fact("user's family", "name", "Stefan", category="identity"),
    ],
)
def test_what_no_one_relative_holds_keeps_its_subject(item: ExtractedFact) -> None:
    known = fact("user", "family:stefan", "Stefan", category="relationship")
    assert under_known_names([item], [known]) == [item]


def test_a_relatives_name_fact_is_not_filed_under_the_name() -> None:
    known = fact("user", "spouse", "Justina", category="relationship")
    named = fact("user's spouse", "name", "Justina", category="identity")
    assert under_known_names([named], [known]) == [named]


def test_erasing_the_relative_by_name_takes_what_was_said_of_them_by_relation(
    open_memory: MemoryFactory,
) -> None:
    mem = open_memory()
    for said in (
        "My mum is called Ngozi.",
        "My mum is allergic to penicillin.",
        "I live in Leeds.",
    ):
        mem.add_turn("chat:family", user=said, assistant="Noted.")
    mem.process_pending()
    mem.erase(entity="Ngozi")
    assert [f.text for f in mem.facts("chat:family", include_inactive=True)] == [
        "The user lives in Leeds."
    ]
