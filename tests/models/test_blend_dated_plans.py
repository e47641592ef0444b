"""A plan the reader reads as only a day gives way to the rules' fact of that day."""

import pytest

from tests.conftest import MemoryFactory
from threefold.domain import FactCategory
from threefold.extras import has_extra
from threefold.models.base import ExtractedFact
from threefold.models.heuristic.blend import blend


def _fact(text: str, category: FactCategory, slot: str, value: str, subject: str = "user"):
    return ExtractedFact(
        text=text, category=category, subject=subject, slot=slot, value=value, confidence=0.9
    )


SURGERY = _fact("The user's surgery is on July 15.", FactCategory.PLAN, "event:surgery", "July 15")


def _plan(value: str, subject: str = "user") -> ExtractedFact:
    return _fact(f"The user has plans for {value}.", FactCategory.PLAN, "plan", value, subject)


@pytest.mark.parametrize("value", ["15 July", "15", "the 15th", "Saturday", "next Tuesday"])
def test_a_plan_of_only_a_day_gives_way_to_the_rules_dated_fact(value: str) -> None:
    assert blend([SURGERY], [_plan(value)]) == [SURGERY]


def test_a_plan_that_says_what_is_kept() -> None:
    trip = _plan("a trip to Rome in July")
    assert blend([SURGERY], [trip]) == [SURGERY, trip]


def test_a_plan_of_a_day_stays_without_a_dated_rule_fact() -> None:
    vegan = _fact("The user is vegan.", FactCategory.DIET, "diet", "vegan")
    saturday = _plan("Saturday")
    assert blend([vegan], [saturday]) == [vegan, saturday]
    assert blend([], [saturday]) == [saturday]


def test_another_persons_dated_fact_leaves_the_plan() -> None:
    theirs = _plan("15 July", subject="maya")
    assert blend([SURGERY], [theirs]) == [SURGERY, theirs]


@pytest.mark.skipif(not has_extra("local"), reason="needs the local extra")
def test_a_dated_appointment_is_stored_once(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    mem.add_turn("chat:me", "My surgery is on 15 July.", "Good luck.")
    mem.process_pending()
    texts = [f.text for f in mem.facts("chat:me")]
    assert any("surgery" in t and "15" in t for t in texts), texts
    assert not any("plans for" in t for t in texts), texts
