"""A weekday named in a sentence lies on the side its tense and preposition say: "on/by
Thursday" in a plan is the coming one; "since Monday", "last Monday" or "on Monday" in the
past tense is the one behind. tests/data/weekday_sides.json was written before the change
it judges (its header records the first run on main); weekday_sides_held_out.json after it,
in another voice, and run once (its header has that run; its one miss is marked).
participle_sides*.json do the same for a day after a participle ("she's getting married on
14 June" is ahead; "got married on 14 February" behind), and for month days as well."""

import json
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from threefold.dates import annotate


def _known_miss(case: dict[str, str]) -> list[pytest.MarkDecorator]:
    reason = case.get("known_miss")
    return [pytest.mark.xfail(reason=reason, strict=True)] if reason else []


DATA = Path(__file__).parent / "data"
CASES = [
    pytest.param(case, id=case["text"][:40], marks=_known_miss(case))
    for name in (
        "weekday_sides.json",
        "weekday_sides_held_out.json",
        "participle_sides.json",
        "participle_sides_held_out.json",
    )
    for case in json.loads((DATA / name).read_text())["cases"]
]


@pytest.mark.parametrize("case", CASES)
def test_weekday_lies_on_the_side_the_sentence_says(case: dict[str, str]) -> None:
    said = datetime.combine(date.fromisoformat(case["said"]), datetime.min.time(), UTC)
    said = said.replace(hour=10)
    annotated = annotate(case["text"], said)
    assert f"{case['day_named']} ({case['day']})" in annotated, annotated
