"""A named speaker who says their own name tells the memory nothing it lacks: no "Femi's
name is Femi." in the facts, where a chat's "user" saying it is the user's name."""

from datetime import UTC, datetime, timedelta

from tests.conftest import MemoryFactory
from threefold.models.heuristic import HeuristicModel

START = datetime(2026, 3, 2, 9, tzinfo=UTC)


def names_after(open_memory: MemoryFactory, said: list[tuple[str, str | None]]) -> set[tuple]:
    mem = open_memory(HeuristicModel())
    for n, (text, speaker) in enumerate(said):
        mem.add_turn("chat:intro", user=text, at=START + timedelta(minutes=n), speaker=speaker)
    mem.process_pending()
    return {(f.subject, f.value.lower()) for f in mem.facts("chat:intro") if f.slot == "name"}


def test_a_speaker_saying_their_own_name_stores_no_name(open_memory: MemoryFactory) -> None:
    said = [("Morning all, I'm Folake, 44, I run the bakery on Mill Lane.", "Folake")]
    assert names_after(open_memory, said) == set()


def test_the_user_saying_their_name_is_still_stored(open_memory: MemoryFactory) -> None:
    assert names_after(open_memory, [("Hi, I'm Folake.", None)]) == {("user", "folake")}


def test_a_speaker_under_a_handle_keeps_the_name_they_give(open_memory: MemoryFactory) -> None:
    said = [("hiya, I'm Folake btw, I run the bakery", "fo_bakes")]
    assert names_after(open_memory, said) == {("fo_bakes", "folake")}
