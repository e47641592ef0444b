"""A dated event given or moved in a project's chat is stored with its new day, whatever
the verb's tense and whatever follows the date: "Beta slips to 9 October, legal review
needs another week" (tests/data/moved_dates.json: its header records each set's first
run); so is a recurring event's schedule ("Standup moves to 10:00 from next week"). Through
the public API, offline, on real SQLite."""

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


def _cases(file: str) -> list:
    """(time said, case) of each set in `file`; a known miss is expected to fail."""
    out = []
    for name, group in json.loads((DATA / file).read_text())["sets"].items():
        said = datetime.fromisoformat(group["said"]).replace(hour=9, tzinfo=UTC)
        for case in group["cases"]:
            miss = case.get("known_miss")
            marks = [pytest.mark.xfail(reason=miss, strict=True)] if miss else []
            out.append(pytest.param(said, case, id=f"{name}: {case['text'][:40]}", marks=marks))
    return out


@pytest.mark.parametrize(("said", "case"), _cases("moved_dates.json"))
def test_a_moved_day_is_stored(open_memory, said, case):
    mem = open_memory()
    mem.add_turn("project:atlas", case["text"], "", at=said, speaker="Priya")
    mem.process_pending()
    days = [f.value for f in mem.facts("project:atlas")]
    assert case["day"] in days, days


def test_a_date_owned_by_nothing_before_for_is_the_projects(open_memory):
    """'Target for beta is 2 October': what stands before 'for' owns no date."""
    mem = open_memory()
    said = datetime(2026, 9, 9, 9, tzinfo=UTC)
    mem.add_turn("project:atlas", "Target for beta is Friday 2 October.", "", at=said)
    mem.process_pending()
    dated = [f for f in mem.facts("project:atlas") if f.value == "2026-10-02"]
    assert dated and dated[0].subject == "atlas", [(f.subject, f.text) for f in dated]
    assert "Target for" not in dated[0].text


@pytest.mark.parametrize(("said", "case"), _cases("moved_schedules.json"))
def test_a_schedule_said_or_moved_is_stored(open_memory, said, case):
    """tests/data/moved_schedules.json: its header records each set's first run."""
    mem = open_memory()
    mem.add_turn("project:atlas", case["text"], "", at=said, speaker="Priya")
    mem.process_pending()
    held = [f.value for f in mem.facts("project:atlas") if f.category.value == "recurring"]
    assert any(case["holds"] in value.lower() for value in held), held


@pytest.mark.parametrize("said", ["Triage moved to Wednesdays.", "I moved to Fridays."])
def test_a_day_is_no_home(open_memory, said):
    mem = open_memory()
    mem.add_turn("chat:days", said, "", at=datetime(2026, 4, 14, 9, tzinfo=UTC))
    mem.process_pending()
    assert not [f.text for f in mem.facts("chat:days") if f.slot == "home"]
