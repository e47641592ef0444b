"""Team facts are stored as sentences a prompt can read: a decision said in the first
person names who decided, a choice that goes on after "and" stays one choice, and in a
chat between two people "you" is the other one. The offline model, as a turn reaches it."""

from datetime import UTC, datetime

import pytest

from threefold.models.base import PreviousTurn, TurnInput
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


def test_in_a_chat_between_two_people_you_is_the_other_one():
    said = "Lemme know when you got time and I'll send you a vid of the routine."
    turn = TurnInput(stream="chat:dance", user=said, at=AT, speaker="Jon", assistant_speaker="Gina")
    found = [f.text for f in MODEL.extract_facts(turn) if f.category.value == "commitment"]
    assert found == ["Jon will send Gina a vid of the routine."]
    # With the assistant on the other side, "you" is the assistant, as the prompt reads it.
    alone = TurnInput(stream="chat:me", user="I'll send you the report by Friday.", at=AT)
    kept = [f.text for f in MODEL.extract_facts(alone) if f.category.value == "commitment"]
    assert kept and kept[0].startswith("The user will send you the report")


def commitments_and_wishes(turn: TurnInput) -> list[str]:
    kinds = ("commitment", "preference")
    return [f.text for f in MODEL.extract_facts(turn) if f.category.value in kinds]


def answering(said: str, speaker: str, before: str, **turn) -> TurnInput:
    previous = PreviousTurn(speaker=before, text="How's the studio going?")
    return TurnInput(
        stream="chat:dance", user=said, at=AT, speaker=speaker, previous=previous, **turn
    )


def test_in_a_chat_of_one_message_a_turn_you_is_whom_it_answers():
    """A group chat imported one message a turn, which the assistant only reads: "you" is
    the writer of the message before, and a wish said to them ("don't remind me") asks
    nothing of the assistant."""
    said = "I'll send you a vid of the routine tonight. Never remind me of the hot dog years."
    assert commitments_and_wishes(answering(said, "Jon", "Gina")) == [
        "Jon will send Gina a vid of the routine tonight (2026-03-02)."
    ]


@pytest.mark.parametrize(
    "turn",
    [
        # said to the assistant by name
        answering("Assistant, one thing. Keep your answers short.", "Jon", "Gina"),
        answering("ok notes for the bot. Keep your answers short.", "Jon", "Gina"),
        # the message before is the writer's own
        answering("Keep your answers short.", "Jon", "Jon"),
        # the assistant replied: it takes part, so "you" may be the assistant
        answering("Keep your answers short.", "Jon", "Gina", assistant="Will do."),
        # the user's own chat with the assistant
        TurnInput(stream="chat:me", user="Keep your answers short.", at=AT),
    ],
)
def test_a_wish_said_to_the_assistant_stays_one(turn: TurnInput):
    assert any("asks you to keep your answers short" in f for f in commitments_and_wishes(turn))
