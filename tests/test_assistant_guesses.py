"""A reply that denies or repairs what the assistant guessed ("So you're allergic to
peanuts?" "nope, shellfish") corrects the guess: the new value is current and the guess
is kept in the history as retracted, never as a current fact. A question alone stores
nothing (layers/proposals.py)."""

from datetime import UTC, datetime, timedelta

import pytest

from threefold import Memory
from threefold.domain import Fact
from threefold.layers.proposals import proposed

AT = datetime(2026, 6, 10, 12, 0, tzinfo=UTC)


def _facts(*turns: tuple[str, str], **speakers: str) -> list[Fact]:
    """The facts of a chat of (user, assistant) turns, newest first."""
    with Memory.open(":memory:", embedder=None, background_worker=False) as mem:
        for n, (user, assistant) in enumerate(turns):
            mem.add_turn("chat:1", user, assistant, at=AT + timedelta(minutes=n), **speakers)
        mem.process_pending()
        return mem.facts("chat:1", include_inactive=True)


def _said(facts: list[Fact]) -> dict[str, str]:
    return {f.text: f.status.value for f in facts}


@pytest.mark.parametrize(
    ("guess", "reply", "now", "gone"),
    [
        (
            "Noted, you work at Tesco.",
            "asda not tesco",
            "The user works at Asda.",
            "The user works at Tesco.",
        ),
        (
            "So you're allergic to peanuts?",
            "nope, shellfish",
            "The user is allergic to shellfish.",
            "The user is allergic to peanuts.",
        ),
        (
            "Is your dog called Biscuit?",
            "Bisou, not Biscuit",
            "Bisou is the user's dog.",
            "Biscuit is the user's dog.",
        ),
        ("Do you live in Leeds?", "nope, Bradford", "The user lives in Bradford.", None),
    ],
)
def test_a_guess_answered_otherwise_is_history(
    guess: str, reply: str, now: str, gone: str | None
) -> None:
    said = _said(_facts(("hi, I need some help", guess), (reply, "Thanks!")))
    assert said[now] == "active"
    held = [text for text, status in said.items() if status == "active"]
    assert held == [now]  # the guess is never current
    if gone is not None:
        assert said[gone] in ("retracted", "superseded")


def test_a_question_alone_stores_nothing() -> None:
    assert _facts(("hi", "So you're allergic to peanuts?"), ("what's a good curry?", "")) == []


def test_a_reply_that_denies_without_a_value_keeps_no_guess() -> None:
    said = _said(_facts(("hi", "Do you live in Leeds?"), ("no, but I work there", "")))
    assert "The user lives in Leeds." not in said


def test_a_confirmed_guess_is_the_users_fact() -> None:
    said = _said(_facts(("hi", "So you're allergic to peanuts?"), ("yep", "")))
    assert said == {"The user is allergic to peanuts.": "active"}


def test_a_group_chat_reply_reads_no_assistant_guess() -> None:
    # the other side is a person who asks, not an assistant who guesses
    facts = _facts(
        ("hi all", "So you're allergic to peanuts?"),
        ("nope, shellfish", ""),
        speaker="Ana",
        assistant_speaker="Ben",
    )
    assert "The user is allergic to peanuts." not in _said(facts)
    assert not [f for f in facts if "peanut" in f.value]


def test_an_erased_question_leaves_nothing_to_correct() -> None:
    with Memory.open(":memory:", embedder=None, background_worker=False) as mem:
        mem.add_turn("chat:1", "hi", "So you're allergic to peanuts?", speaker="Ola", at=AT)
        mem.add_turn("chat:1", "nope, shellfish", "", at=AT + timedelta(minutes=1))
        mem.erase(entity="Ola")  # before the reply is read
        mem.process_pending()
        facts = mem.facts("chat:1", include_inactive=True)
    assert not [f for f in facts if "peanut" in f.value]


@pytest.mark.parametrize(
    ("assistant", "expected"),
    [
        ("Are you out near Mt Albert?", ["I am out near Mt Albert."]),
        ("Your mum is in Pampanga, right?", ["My mum is in Pampanga."]),
        ("Got it, you take metformin. Anything else?", ["I take metformin."]),
        ("Do you still play the trumpet?", ["I still play the trumpet."]),
        ("Where do you live?", []),
        ("Happy birthday! Any plans?", []),
        ("", []),
    ],
)
def test_a_guess_is_said_in_the_users_words(assistant: str, expected: list[str]) -> None:
    assert proposed(assistant) == expected
