"""A stored value never carries a verb of ending ("sold fiesta", "left lisbon"): it is the
value said as over ("not fiesta"), or nothing (models.heuristic.ending)."""

from datetime import UTC, datetime

import pytest

from threefold import Memory
from threefold.domain import FactCategory
from threefold.models.base import ExtractedFact, TurnInput
from threefold.models.heuristic import HeuristicModel
from threefold.models.heuristic.ending import all_settled, settled

AT = datetime(2026, 11, 5, 15, 0, tzinfo=UTC)


def rules_read(user: str) -> list[tuple[str, str, str]]:
    turn = TurnInput(stream="chat:1", user=user, at=AT)
    return [(f.subject, f.slot, f.value) for f in HeuristicModel().extract_facts(turn)]


def fact(category: FactCategory, slot: str, value: str, text: str) -> ExtractedFact:
    return ExtractedFact(
        text=text, category=category, subject="user", slot=slot, value=value, confidence=0.95
    )


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("I sold my Honda.", ("user", "owns:car", "not honda")),
        ("I got rid of the caravan.", ("user", "owns:camper", "not caravan")),
        ("I quit Globex.", ("user", "employer", "not globex")),
        ("I handed in my notice at Deloitte.", ("user", "employer", "not deloitte")),
        ("I've stopped teaching.", ("user", "employer", "not teaching")),
    ],
)
def test_an_ending_is_the_value_said_as_over(said: str, expected: tuple[str, str, str]) -> None:
    found = rules_read(said)
    assert expected in found
    ending = ("left ", "sold ", "quit ", "stopped ", "got rid of ", "rid of ")
    assert not [value for _, _, value in found if value.startswith(ending)]


def test_a_retirement_is_the_work_one_has_now() -> None:
    found = rules_read("I retired from the Royal Mail after 35 years.")
    assert ("user", "employer", "retired from royal mail") in found


def test_a_value_that_drags_the_verb_along_is_nothing() -> None:
    garbled = fact(FactCategory.WORK, "employer", "left Lisbon", "The user works at left Lisbon.")
    assert settled(garbled) is None
    sold = fact(FactCategory.POSSESSION, "owns:car", "sold the Fiesta", "The user sold the Fiesta.")
    assert settled(sold) is not None and settled(sold).value == "not Fiesta"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("category", "slot", "value", "text"),
    [
        (FactCategory.PLAN, "plan:smoking", "quit smoking", "The user plans to quit smoking."),
        (FactCategory.HEALTH, "condition:knee", "left knee", "The user has a bad left knee."),
        (FactCategory.IDENTITY, "handedness", "left-handed", "The user is left-handed."),
        (FactCategory.DECISION, "decision", "cancelled the offsite", "We cancelled the offsite."),
        (FactCategory.POSSESSION, "owns:car", "sold", "The user has a sold."),
        (FactCategory.WORK, "employer", "Leftfield Studios", "The user works at Leftfield."),
    ],
)
def test_other_values_are_left_as_they_are(
    category: FactCategory, slot: str, value: str, text: str
) -> None:
    kept = fact(category, slot, value, text)
    assert all_settled([kept]) == [kept]


def test_a_sold_car_is_history_and_no_current_car(tmp_path) -> None:
    with Memory.open(
        tmp_path / "m.db", model=HeuristicModel(), embedder=None, background_worker=False
    ) as mem:
        mem.add_turn("chat:1", user="I drive a Fiesta.", assistant="Nice.", at=AT)
        mem.add_turn("chat:1", user="Sold the Fiesta last week.", assistant="Oh?", at=AT)
        mem.process_pending()
        cars = [f for f in mem.facts("chat:1", include_inactive=True) if f.slot == "owns:car"]
    assert {(f.value.lower(), f.active) for f in cars} == {("fiesta", False), ("not fiesta", True)}


def test_a_denied_ending_says_no_longer_once() -> None:
    with Memory.open(":memory:", embedder=None, background_worker=False) as mem:
        for said in ("I drive a Corolla.", "I don't drive anymore, sold the car."):
            mem.add_turn("chat:1", user=said, at=AT)
        mem.process_pending()
        texts = [f.text for f in mem.facts("chat:1", include_inactive=True)]
    assert "The user no longer has their car." in texts
    assert not [t for t in texts if "no longer no longer" in t]
