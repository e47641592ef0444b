"""A weekday named in a sentence lies on the side its tense and preposition say: "on/by
Thursday" in a plan is the coming one; "since Monday", "last Monday" or "on Monday" in the
past tense is the one behind. The set (tests/data/weekday_sides.json) was written before the
change it judges; its header records the first run on main."""

import json
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from threefold.dates import annotate

CASES = json.loads((Path(__file__).parent / "data" / "weekday_sides.json").read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["text"][:40] for c in CASES])
def test_weekday_lies_on_the_side_the_sentence_says(case: dict[str, str]) -> None:
    said = datetime.combine(date.fromisoformat(case["said"]), datetime.min.time(), UTC)
    said = said.replace(hour=10)
    annotated = annotate(case["text"], said)
    assert f"{case['day_named']} ({case['day']})" in annotated, annotated
