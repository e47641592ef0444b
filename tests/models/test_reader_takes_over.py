"""What the rules no longer read because the trained reader reads it (issue 35: the rows
deleted were redundant with it on development text, benchmarks/rule_families.py): the
default model, the reader beside the rules, still stores these facts."""

from datetime import UTC, datetime

import pytest

from threefold.extras import has_extra
from threefold.models.base import Standing, TurnInput
from threefold.models.heuristic import build
from threefold.settings import ModelSettings

pytestmark = pytest.mark.skipif(not has_extra("local"), reason="needs the local extra")

AT = datetime(2026, 11, 5, 15, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def read():
    model = build(ModelSettings(options={}))

    def facts(user: str) -> list[tuple[str, str, str]]:
        found = model.extract_facts(TurnInput(stream="chat:1", user=user, at=AT))
        return [(f.subject, f.slot, f.value.lower()) for f in found if f.standing is Standing.FACT]

    return facts


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("I'm Muslim.", ("user", "religion", "muslim")),
        ("I'm Muslim, so no pork or alcohol.", ("user", "religion", "muslim")),
        ("My wife is Hindu.", ("user's spouse", "religion", "hindu")),
        ("I study neuroscience.", ("user", "major", "neuroscience")),
        ("I have a mild allergy to pollen.", ("user", "allergy:pollen", "pollen")),
    ],
)
def test_the_default_model_still_stores_it(read, said: str, expected: tuple[str, str, str]):
    assert expected in read(said)
