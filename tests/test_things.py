"""What kind of thing a possession is, whichever reader keyed it (layers/things.py):
through the public API, a Memory on a real SQLite file with the default model."""

from datetime import UTC, datetime, timedelta

import pytest

from threefold import Memory
from threefold.layers.things import keyed_by_kind_asked
from threefold.models.base import ExtractedFact

AT = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
STREAM = "chat:things"


@pytest.fixture
def mem(open_memory) -> Memory:
    return open_memory(embed={"kind": "hashing"})


def talk(mem: Memory, *pairs: tuple[str, str]) -> None:
    """Turns of (what the assistant asked before, what the user said)."""
    for n, (asked, said) in enumerate(pairs):
        if asked:
            mem.add_turn(STREAM, "hi", asked, at=AT + timedelta(minutes=2 * n))
        mem.add_turn(STREAM, said, "Noted.", at=AT + timedelta(minutes=2 * n + 1))
    mem.process_pending()


def owned(mem: Memory) -> dict[str, str]:
    return {f.value.lower(): f.slot for f in mem.facts(STREAM) if f.slot.startswith("owns:")}


@pytest.mark.parametrize(
    ("talked", "now"),
    [
        (  # named in answer to a question that names its kind
            [
                ("What bike do you ride these days?", "an old Orbea Alma, still going"),
                ("", "it got stolen at the station, so I bought a Trek mountain bike"),
            ],
            "trek mountain bike",
        ),
        (  # the old one held under its name ("owns:thinkpad"), the new under its kind
            [
                ("", "I do everything on a ThinkPad T480."),
                ("", "bought a macbook air last week, the old one's battery was gone"),
            ],
            "macbook air",
        ),
        (  # the new one keyed by the old ("owns:ford"), the old held under its kind
            [
                ("", "I still drive the old Ford Ranger."),
                ("", "traded the old ford in at the dealer, got me a chevy silverado"),
            ],
            "chevy silverado",
        ),
    ],
)
def test_a_new_thing_of_a_kind_held_one_at_a_time_replaces_the_old(mem, talked, now):
    talk(mem, *talked)
    assert set(owned(mem)) == {now}


@pytest.mark.parametrize(
    ("talked", "both"),
    [
        pytest.param(
            [("", "I have a thinkpad for work and a macbook at home.")],
            {"thinkpad", "macbook"},
            marks=pytest.mark.xfail(
                strict=True,
                reason="'a macbook' is read under the verifier's bar (S54 at 0.74; S58c too)",
            ),
        ),
        (
            [
                ("", "I do everything on a ThinkPad T480."),
                ("", "also got a macbook air for travel"),
            ],
            {"thinkpad t480", "macbook air"},
        ),
    ],
)
def test_things_said_together_or_said_to_join_are_all_held(mem, talked, both):
    talk(mem, *talked)
    assert set(owned(mem)) == both


def test_a_question_naming_two_kinds_keys_nothing(mem):
    talk(mem, ("What car and what phone do you have?", "an old Orbea Alma, still going"))
    assert "owns:bike" not in owned(mem).values()
    assert "owns:car" not in owned(mem).values() and "owns:phone" not in owned(mem).values()


def test_the_writers_own_question_keys_nothing(mem):
    """With no reply between them, a message answers the writer's own last one, which
    asks nothing of them."""
    mem.add_turn(STREAM, "my phone keeps dying, any tips?", "", at=AT)
    mem.add_turn(STREAM, "I ride an old Orbea Alma to work", "", at=AT + timedelta(minutes=1))
    mem.process_pending()
    assert "owns:phone" not in owned(mem).values()


def fact(slot: str, value: str) -> ExtractedFact:
    return ExtractedFact(
        text=f"The user has {value}.",
        category="possession",
        subject="user",
        slot=slot,
        value=value,
        confidence=0.9,
    )


@pytest.mark.parametrize(
    ("asked", "slot"),
    [
        ("Which bikes do you ride?", "owns:bike"),  # a plural names the kind too
        ("Which biker do you follow?", "owns:alma"),  # another word holding the kind's
        ("", "owns:alma"),
        ("Which laptop and which bike?", "owns:alma"),
    ],
)
def test_only_one_kind_named_whole_keys_a_thing(asked, slot):
    assert keyed_by_kind_asked([fact("owns:alma", "Orbea Alma")], asked)[0].slot == slot


def test_a_thing_of_a_known_kind_keeps_its_key():
    read = [fact("owns:car", "Honda Civic")]
    assert keyed_by_kind_asked(read, "Which bike do you ride?") == read
