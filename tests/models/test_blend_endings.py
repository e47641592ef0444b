"""A value the rules read as over and the reader's new value in the same slot both stand:
"my bike got stolen, bought a used e-bike" ends the bike and keeps the e-bike."""

from threefold.domain import FactCategory
from threefold.models.base import ExtractedFact
from threefold.models.heuristic.blend import blend

OWNS = FactCategory.POSSESSION


def _fact(text: str, slot: str, value: str, category: FactCategory = OWNS) -> ExtractedFact:
    return ExtractedFact(
        text=text, category=category, subject="user", slot=slot, value=value, confidence=0.9
    )


GONE = _fact("The user no longer has their bike.", "owns:bike", "not bike")


def test_the_readers_replacement_stands_after_the_rules_ending() -> None:
    ebike = _fact("The user has an e-bike.", "owns:bike", "e-bike")
    assert blend([GONE], [ebike]) == [GONE, ebike]


def test_the_readers_reading_of_the_ended_value_itself_gives_way() -> None:
    bike = _fact("The user has a bike.", "owns:bike", "bike")
    assert blend([GONE], [bike]) == [GONE]
    vegan = _fact("The user is vegan.", "diet", "vegan", FactCategory.DIET)
    over = _fact("The user is no longer vegan.", "diet", "not vegan", FactCategory.DIET)
    assert blend([over], [vegan]) == [over]


def test_a_rules_value_in_force_still_takes_its_slot() -> None:
    trek = _fact("The user has a Trek bike.", "owns:bike", "trek bike")
    ebike = _fact("The user has an e-bike.", "owns:bike", "e-bike")
    assert blend([trek], [ebike]) == [trek]
