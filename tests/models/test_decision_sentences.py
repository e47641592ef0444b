"""A decision said in the first person is stored as a sentence that names who decided,
and a choice that goes on after "and" stays one choice. The offline model, as a turn
reaches it."""

from datetime import UTC, datetime

import pytest

from threefold.models.base import TurnInput
from threefold.models.heuristic import HeuristicModel

MODEL = HeuristicModel()
AT = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def decisions(text: str, speaker: str | None = None, stream: str = "project:alpha"):
    turn = TurnInput(stream=stream, user=text, at=AT, speaker=speaker)
    return [f.text for f in MODEL.extract_facts(turn) if f.category.value == "decision"]


@pytest.mark.parametrize(
    ("text", "speaker", "said"),
    [
        ("I chose Postgres for the cache.", "Jon", "Jon chose Postgres for the cache."),
        ("I've decided to go with Vite for the build.", None, "The user has decided"),
        ("I'll use Grafana for the dashboards.", "Raj", "Raj will use Grafana"),
        ("We decided to use Postgres for the cache.", None, "We decided to use Postgres"),
    ],
)
def test_a_decision_names_who_decided(text, speaker, said):
    found = decisions(text, speaker)
    assert found and found[0].startswith(said)


def test_a_choice_that_goes_on_after_and_is_one_choice():
    found = decisions("I chose furniture that looks great and is comfy too.", "Jon", "chat:flat")
    assert found == ["Jon chose furniture that looks great and is comfy too."]
