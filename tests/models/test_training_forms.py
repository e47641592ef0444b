"""The written training lines' other forms (training/written.py): a line seen again with
its names swapped for other lines' names keeps every mark on its value."""

import importlib.util
from pathlib import Path

import pytest

WRITTEN = Path(__file__).parents[2] / "training" / "written.py"


@pytest.fixture(scope="module")
def written():
    spec = importlib.util.spec_from_file_location("written", WRITTEN)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def marked(row: dict) -> list[tuple[str, str]]:
    return [(row["text"][start:end], label) for start, end, label, *_ in row["spans"]]


POOL_LINES = [
    "plain\tI live in [[home|Whanganui]] and work at [[employer|Fonterra]]",
    "plain\tmy [[REL|wife]] [[relation|Mereana]] takes [[medication|warfarin]]",
    "plain\tI'm [[plan|moving to Perth in May]]",
    "plain\tI live in [[home|Kaikōura]] and work at [[employer|Ballance]]",
    "casual\tmy [[REL|bro]] [[relation|Hemi]] is up from Napier",
]


def test_a_swapped_line_holds_other_values_of_the_same_labels(written) -> None:
    rows = [written.parse(line) for line in POOL_LINES]
    pool = written.value_pool(rows)
    line = written.parse(
        "casual\tso we're in [[home|petone]] now, [[job|sparky]] at [[employer|Mitre 10]] lol"
    )
    other = written.swapped(line, pool)
    assert other is not None
    values = marked(other)
    assert [label for _, label in values] == ["home", "job", "employer"]
    home, job, employer = (value for value, _ in values)
    assert home in {"whanganui", "kaikōura"}  # lowercase where the writer typed it so
    assert employer in {"Fonterra", "Ballance"}
    assert job == "sparky"  # no other line marks a job: nothing to swap it for
    assert other["text"].startswith("so we're in ") and other["text"].endswith(" lol")


def test_a_plan_is_never_swapped_and_the_choice_is_the_same_every_run(written) -> None:
    rows = [written.parse(line) for line in POOL_LINES]
    pool = written.value_pool(rows)
    assert "plan" not in pool
    line = written.parse(
        "plain\tmy [[REL|wife]] [[relation|Aroha]] is [[plan|flying to Suva on 3 May]]"
    )
    first, again = written.swapped(line, pool), written.swapped(line, pool)
    assert first == again
    assert first is not None and ("flying to Suva on 3 May", "plan") in marked(first)
    assert {"Mereana", "Hemi"} & {value for value, label in marked(first) if label == "relation"}


def test_a_line_with_nothing_to_swap_has_no_swapped_form(written) -> None:
    pool = written.value_pool([written.parse(line) for line in POOL_LINES])
    assert written.swapped(written.parse("nothing\twhat a day, the ferry was late"), pool) is None
