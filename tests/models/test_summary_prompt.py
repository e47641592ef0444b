"""The session summary prompt says who wrote each side of a turn."""

from datetime import UTC, datetime

from threefold.models.base import TurnInput
from threefold.models.prompts import summarize_session

AT = datetime(2026, 10, 5, 9, 30, tzinfo=UTC)


def _shown(turn: TurnInput) -> str:
    return summarize_session.build_messages([turn], 300)[-1]["content"]


def test_a_group_turn_is_shown_with_its_writers_names():
    shown = _shown(
        TurnInput(
            stream="project:cobalt",
            user="I'm off from the 19th",
            assistant="sure, send me the checklist",
            speaker="Omar",
            assistant_speaker="Lena",
            at=AT,
        )
    )
    assert "Omar: I'm off from the 19th\nLena: sure, send me the checklist" in shown
    assert "User:" not in shown and "Assistant:" not in shown


def test_a_personal_turn_keeps_user_and_assistant():
    shown = _shown(TurnInput(stream="chat:1", user="I moved to Leeds", assistant="Noted.", at=AT))
    assert "User: I moved to Leeds\nAssistant: Noted." in shown
