"""A terse answer about a relative takes the relative the question asked about ("What does
your wife do?" "Nurse."), through Memory with the reader's tagger given by marks: the heads
say a value is a relative's, and the relation word is in the question, not the answer."""

from collections.abc import Callable

import pytest

from tests.models.test_reader_held_updates import opened, said
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
