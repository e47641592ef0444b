"""One turn, one value per single slot where the values hold one another: the fullest."""

from tests.conftest import MemoryFactory
from threefold.domain import FactCategory
from threefold.layers.one_turn import fullest_values
from threefold.models.base import ExtractedFact, SlotRef


def _fact(value: str, slot: str = "father", **extra: object) -> ExtractedFact:
    return ExtractedFact(
        text=f"{value} is the user's father.", category=FactCategory.RELATIONSHIP,
        subject="user", slot=slot, value=value, confidence=0.95, **extra,
    )  # fmt: skip


def test_a_name_read_whole_and_in_part_keeps_the_whole() -> None:
    whole, part = _fact("Seu Valdir"), _fact("Seu")
    assert fullest_values([part, whole]) == [whole]


def test_unrelated_values_keyed_slots_and_endings_stay_as_read() -> None:
    unrelated = [_fact("Shane", "name"), _fact("Ipswich", "name")]
    keyed = [_fact("Ana", "sister:ana"), _fact("Ana Maria", "sister:ana maria")]
    ended = [_fact("not Leeds", "home"), _fact("Leeds", "home")]
    replacing = [
        _fact("York", "home", ends=(SlotRef(subject="user", slot="home", value="Yorkshire"),)),
        _fact("Yorkshire", "home"),
    ]
    for facts in (unrelated, keyed, ended, replacing):
        assert fullest_values(facts) == facts


def test_a_relative_named_in_full_is_one_current_fact(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    mem.add_turn("chat:family", "my father Seu Valdir lives in Campinas", "Nice.")
    mem.process_pending()
    fathers = [f for f in mem.facts("chat:family", include_inactive=True) if f.slot == "father"]
    assert [(f.text, f.status.value) for f in fathers] == [
        ("Seu Valdir is the user's father.", "active")
    ]
