"""A value whose sentence names nobody is the one said before, through Memory with the
reader's tagger given by marks: a relative's value in a terse answer takes the relative the
question asked about ("What does your wife do?" "Nurse."), and a named person's value
takes the person named last before it ("Kayla's a nurse. nights mostly")."""

from collections.abc import Callable

import pytest

from tests.models.test_reader_held_updates import opened, said
from tests.models.test_reader_whose import facts_of
from threefold import Memory

MemoryFactory = Callable[..., Memory]


def subjects(open_memory: MemoryFactory, question: str, answer: str, value: str) -> set[str]:
    """Whose the facts holding `value` are, after `answer` (marked) replies to `question`."""
    turns = [("hi", question), (answer, "Thanks.")]
    mem = opened(open_memory, turns)
    said(mem, turns)
    return {f.subject for f in mem.facts("chat:c") if value in f.value.lower()}


@pytest.mark.parametrize(
    ("question", "answer", "value", "whose"),
    [
        ("What does your wife do?", "[[job@rel|Nurse]]. Hospital in Tvoroyri.", "nurse", "spouse"),
        (
            "Where does your little sister live?",
            "[[home@rel|Leeds]], near the uni",
            "leeds",
            "sister",
        ),
        (
            "Does your husband have any allergies?",
            "[[allergy@rel|shellfish]]. bad",
            "shellfish",
            "spouse",
        ),
    ],
)
def test_a_relatives_value_takes_the_relative_asked_about(
    open_memory: MemoryFactory, question: str, answer: str, value: str, whose: str
) -> None:
    assert subjects(open_memory, question, answer, value) == {f"user's {whose}"}


@pytest.mark.parametrize(
    "question",
    [
        "How are your mum and dad doing?",  # two relatives: which one is unsaid
        "What do you do these days?",  # no relative asked about
        "What does Ragna do?",  # a person by name, not a relative
    ],
)
def test_no_relative_is_guessed(open_memory: MemoryFactory, question: str) -> None:
    found = subjects(open_memory, question, "[[job@rel|Nurse]] at the clinic", "nurse")
    assert not any(s.startswith("user's") for s in found)


@pytest.mark.parametrize(
    ("said", "whose"),
    [
        ("[[PER|Kayla]]'s a [[job@per|nurse]] at the base. [[shifts@per|nights]] mostly", "kayla"),
        # a relative said before is no person by name
        ("My [[REL|sister]] is a [[job@rel|nurse]]. [[shifts@per|nights]] mostly", None),
        # nobody said before
        ("[[shifts@per|nights]] mostly", None),
    ],
)
def test_a_named_persons_value_takes_the_person_named_before(
    open_memory: MemoryFactory, said: str, whose: str | None
) -> None:
    facts = facts_of(open_memory, [(said, None)])
    found = {f.subject for f in facts if "nights" in f.value.lower()}
    assert found == ({whose} if whose else set())
