"""The rules' word lists are matched by patterns compiled once and tried in a fixed order
(the longest thing's name first, the topics in their listed order): the order decides
which kind or topic a value gets, so it is pinned here, through the model's facts."""

from datetime import UTC, datetime

import pytest

from threefold.models.base import TurnInput
from threefold.models.heuristic import HeuristicModel

AT = datetime(2026, 11, 5, 15, 0, tzinfo=UTC)
MODEL = HeuristicModel()


def slots(user: str, stream: str = "chat:dana") -> list[tuple[str, str]]:
    found = MODEL.extract_facts(TurnInput(stream=stream, user=user, at=AT))
    return [(f.slot, f.value) for f in found]


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        # "camper van" (a camper) holds "camper" and "van" (cars): the longest name wins
        ("I have a camper van.", [("owns:camper", "camper van")]),
        # "motorhome" is listed as a car and as a camper: the first kind listed wins
        ("I have a motorhome.", [("owns:car", "motorhome")]),
        # "chrome" (a browser) inside "chromebook" is no word of its own
        ("I have a Chromebook.", [("owns:laptop", "chromebook")]),
    ],
)
def test_a_thing_takes_the_kind_of_its_longest_known_name(said, expected):
    assert slots(said) == expected


def test_a_thing_read_again_keeps_its_kind():
    """The compiled names are shared by every call: a second reading is the same."""
    assert slots("I have a camper van.") == slots("I have a camper van.")
    assert slots("I have a camper.") == [("owns:car", "camper")]


def test_a_decision_takes_the_first_listed_topic_it_names():
    """Databases are listed before cloud providers: "AWS with Postgres" is a database
    decision, whichever is said first."""
    assert slots("We decided to use AWS with Postgres.", "project:alpha") == [
        ("decision:database", "aws with postgres")
    ]
    assert slots("We decided to go with Hetzner.", "project:alpha") == [
        ("decision:cloud provider", "hetzner")
    ]
