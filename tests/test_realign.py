"""Corrections by shape: a value just said, said again spelt, dated or numbered otherwise."""

from datetime import UTC, datetime, timedelta

import pytest

from tests.conftest import MemoryFactory
from threefold import Memory
from threefold.domain import FactStatus
from threefold.layers.realign import marks_correction

T0 = datetime(2026, 10, 5, 9, 0, tzinfo=UTC)


def _turns(mem: Memory, *pairs: tuple[str, str]) -> None:
    for i, (user, assistant) in enumerate(pairs):
        mem.add_turn("chat:1", user, assistant, at=T0 + timedelta(minutes=i))
    mem.process_pending()


def _values(mem: Memory, slot_kind: str) -> list[str]:
    return sorted(f.value.lower() for f in mem.facts("chat:1") if f.slot.startswith(slot_kind))


@pytest.mark.parametrize(
    ("statement", "correction", "kind", "current"),
    [
        (
            "My daughter is called Ananya.",
            "*Anaya. autocorrect keeps adding an n",
            "daughter",
            "anaya",
        ),
        (
            "My best friend is Jarden Smith.",
            "JORDAN omg autocorrect hates him",
            "best friend",
            "jordan",
        ),
        ("My birthday is 13 March.", "wait no 14 march 💀 typo", "birthday", "march 14"),
        (
            "My birthday is 12 November.",
            "21 November. I wrote the numbers the wrong way.",
            "birthday",
            "november 21",
        ),
        ("My sister Ada is 23.", "she's 24, I can't count", "age", "24"),
        ("I drive a 2016 Hilux.", "and its a 2014 not 2016, checked the papers", "owns", "2014"),
    ],
)
def test_a_value_said_again_otherwise_replaces_the_one_just_said(
    open_memory: MemoryFactory, statement: str, correction: str, kind: str, current: str
) -> None:
    mem = open_memory()
    _turns(mem, (statement, "Noted."), (correction, "Fixed."))
    held = _values(mem, kind)
    assert any(_same(current, value) for value in held), held
    replaced = [f for f in mem.facts("chat:1", include_inactive=True) if not f.active]
    assert replaced, "the old value is kept, inactive, in the chain"
    chain = mem.fact_history(replaced[0].id).chain
    assert _same(current, chain[-1].value.lower())


def _same(expected: str, value: str) -> bool:
    """Whether `value` holds every word of `expected`, in any order ("21 november" for
    "november 21": either reader may write the day)."""
    return set(expected.split()) <= set(value.lower().split())


def test_a_respelt_name_is_a_correction_that_retracts_the_old_spelling(
    open_memory: MemoryFactory,
) -> None:
    mem = open_memory()
    _turns(mem, ("My daughter is called Ananya.", "Lovely."), ("*Anaya", "Sorry!"))
    old = next(f for f in mem.facts("chat:1", include_inactive=True) if f.value == "ananya")
    assert old.status is FactStatus.RETRACTED


_FILLER = [
    ("What's a good name for a sourdough starter?", "Clint Yeastwood."),
    ("How long do I boil an egg?", "About seven minutes."),
    ("Is it going to rain tomorrow?", "I can't see the forecast."),
    ("Recommend a film for tonight.", "Try Paddington 2."),
    ("How do I say thanks in Welsh?", "Diolch."),
]


def test_a_short_statement_far_after_a_name_is_no_respelling_of_it(
    open_memory: MemoryFactory,
) -> None:
    """A group chat's short lines name people and places all day: one that holds a word
    like a name said long before ("Jordan trusts only Halvin Cycles" for "Jarden") is a
    statement, not a typo of it."""
    mem = open_memory()
    _turns(
        mem,
        ("My best friend is Jarden Smith.", "Nice."),
        *_FILLER,
        ("Jordan trusts only Halvin Cycles with his bike.", "Good to know."),
    )
    assert any("jarden" in value for value in _values(mem, "best friend"))
    assert all(f.active for f in mem.facts("chat:1", include_inactive=True))


def test_a_starred_name_far_after_it_was_said_still_respells_it(
    open_memory: MemoryFactory,
) -> None:
    mem = open_memory()
    _turns(mem, ("My best friend is Jarden Smith.", "Nice."), *_FILLER, ("*Jordan", "Fixed."))
    assert any("jordan" in value for value in _values(mem, "best friend"))


@pytest.mark.parametrize(("writer", "respelt"), [("Anil", True), ("Hiro", False)])
def test_a_short_line_respells_only_its_own_writers_name(
    open_memory: MemoryFactory, writer: str, respelt: bool
) -> None:
    """People fix their own typos. In a group chat another's short line naming a word like
    a name just said ("Jordan trusts only Halvin" after Anil's "Jarden") is news."""
    mem = open_memory()
    said = [
        ("Anil", "Marco's best friend is Jarden Smith."),
        (writer, "Jordan trusts only Halvin."),
    ]
    for i, (speaker, user) in enumerate(said):
        mem.add_turn("chat:1", user, "", at=T0 + timedelta(minutes=i), speaker=speaker)
    mem.process_pending()
    held = _values(mem, "best friend")
    assert any(("jordan" if respelt else "jarden") in value for value in held), held


@pytest.mark.parametrize(
    ("turns", "kind", "kept"),
    [
        # the answer to a question about someone else is no fix of the user's own day
        (
            [
                ("My birthday is 13 March.", "Noted! When is your mum's birthday?"),
                ("17 april", "Thanks."),
            ],
            "birthday",
            "march 13",
        ),
        # a measure is no age
        (
            [("I'm 34.", "Noted."), ("sorry, 35 minutes late to the call", "No worries.")],
            "age",
            "34",
        ),
        # "appa's 63": the number is someone else's
        ([("My sister Sue is 61.", "Noted."), ("nah appa's 63 already", "Oh!")], "age", "61"),
        # a long message about something else that holds a look-alike word
        (
            [
                ("My best friend is Jordan Smith.", "Nice."),
                (
                    "We watched the Jorden documentary last night with the kids and it was great",
                    "Fun!",
                ),
            ],
            "best friend",
            "jordan",
        ),
        # a number said again beside another is a second number, not a fix
        (
            [("My son Leo is 9.", "Noted."), ("Leo is 9 and his friend Sam is 10, sorry", "Cute.")],
            "age",
            "9",
        ),
    ],
)
def test_what_is_no_correction_leaves_the_held_value(
    open_memory: MemoryFactory, turns: list[tuple[str, str]], kind: str, kept: str
) -> None:
    mem = open_memory()
    _turns(mem, *turns)
    assert any(kept in value for value in _values(mem, kind)), _values(mem, kind)


def test_a_correction_with_nothing_before_it_stores_nothing(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    _turns(mem, ("*Pika lol", "?"), ("wait no 14", "Sorry?"))
    assert mem.facts("chat:1", include_inactive=True) == []


def test_a_respelling_of_an_erased_fact_brings_nothing_back(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    _turns(mem, ("My daughter is called Ananya.", "Lovely."))
    for fact in mem.facts("chat:1"):
        mem.forget(fact.id)
    _turns(mem, ("*Anaya", "Sorry!"))
    assert mem.facts("chat:1") == []


@pytest.mark.parametrize(
    ("text", "marked"),
    [
        ("sorry sorry na 2 September", True),
        ("I must correct myself: she is 11", True),
        ("wait no 14 march", True),
        ("*Pika", True),
        ("We went to Spain in May.", False),
        ("Is it normal that the tests take 40 minutes? Yes or no.", False),
    ],
)
def test_what_marks_a_correction(text: str, marked: bool) -> None:
    assert marks_correction(text) is marked
