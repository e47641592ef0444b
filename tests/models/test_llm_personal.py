"""The llm model keys personal facts as the heuristic does, against a real local server
speaking the OpenAI API (no mocks)."""

import json
from datetime import UTC, datetime

import pytest

from tests import openai_fake
from tests.openai_fake import FakeOpenAIServer
from threefold import Memory
from threefold.domain import FactCategory, FactStatus
from threefold.models.base import MessageInput, TurnInput
from threefold.models.heuristic import HeuristicModel
from threefold.models.llm import LLMModel

openai_server = openai_fake.openai_server

AT = datetime(2026, 11, 5, 15, 0, tzinfo=UTC)


def personal(text: str, category: str, slot: str, value: str, subject: str = "I") -> dict:
    return {
        "text": text,
        "category": category,
        "subject": subject,
        "slot": slot,
        "value": value,
        "confidence": 0.95,
    }


@pytest.fixture
def llm(openai_server: FakeOpenAIServer) -> LLMModel:
    return LLMModel(
        openai_server.client(timeout=5.0), "test-model", HeuristicModel(), backoff=0.001
    )


def test_the_prompt_names_the_speaker_the_categories_and_the_slots(openai_server, llm):
    openai_server.reply_json({"facts": []})
    llm.extract_facts(
        TurnInput(
            stream="chat:8812",
            user="I live in Berlin.",
            assistant="Since when?",
            at=AT,
            speaker="Caroline",
            assistant_speaker="Melanie",
        )
    )
    request = openai_server.requests[0]
    system, user = request["messages"][0]["content"], request["messages"][-1]["content"]
    assert '<user speaker="Caroline">\nI live in Berlin.\n</user>' in user
    assert '<assistant speaker="Melanie">\nSince when?\n</assistant>' in user
    assert "project subject" not in user  # a chat id names nothing
    for name in ("identity", "location", "relationship", "important_date", "plan"):
        assert name in system
    assert "allergy:*" in system and "owns:*" in system and "home" in system
    assert "decision" not in system  # a personal chat is offered no team categories


def test_first_person_subjects_become_the_speaker(openai_server, llm):
    answer = personal("Caroline lives in Berlin.", "location", "Home", "Berlin")
    openai_server.reply_json({"facts": [answer]})
    turn = TurnInput(stream="chat:1", user="I live in Berlin.", at=AT, speaker="Caroline")
    (fact,) = llm.extract_facts(turn)
    assert (fact.subject, fact.slot, fact.category) == ("caroline", "home", FactCategory.LOCATION)


def test_without_a_speaker_first_person_is_the_user(openai_server, llm):
    answer = personal("The user is allergic to peanuts.", "diet", "allergy:peanut", "peanuts")
    openai_server.reply_json({"facts": [answer]})
    (fact,) = llm.extract_facts(TurnInput(stream="chat:1", user="I'm allergic to peanuts.", at=AT))
    assert (fact.subject, fact.slot) == ("user", "allergy:peanut")


def test_the_chat_id_as_a_subject_is_a_bad_answer_and_falls_back(openai_server, llm):
    leaked = personal(
        "The 8812 launch is on May 3.", "date", "launch date", "2027-05-03", subject="8812"
    )
    openai_server.reply_json(*[{"facts": [leaked]}] * llm.attempts)
    found = llm.extract_facts(TurnInput(stream="chat:8812", user="The launch is on May 3.", at=AT))
    assert found and all("8812" not in f.subject + f.text for f in found)
    assert llm.stats["extract_facts"].fallbacks == 1


def by_text(answers: dict[str, list[dict]]):
    """Answer each extraction with the facts scripted for the turn text it carries."""

    def answer(request: dict) -> str:
        asked = request["messages"][-1]["content"]  # the turn before is shown as well
        facts = next((f for text, f in answers.items() if f"<user>\n{text}\n" in asked), [])
        return json.dumps({"facts": facts})

    return answer


def test_an_update_from_the_llm_supersedes_through_memory(tmp_path):
    answers = {
        "I live in Berlin.": [personal("The user lives in Berlin.", "location", "home", "berlin")],
        "Actually, I moved to Munich.": [
            personal("The user lives in Munich.", "location", "home", "munich")
        ],
    }
    with (
        FakeOpenAIServer(default=by_text(answers)) as server,
        Memory.open(
            tmp_path / "llm.db",
            background_worker=False,
            embedder=None,
            model=LLMModel(server.client(timeout=5.0), "fake", HeuristicModel(), backoff=0),
        ) as mem,
    ):
        mem.add_turn("chat:1", "I live in Berlin.", at=AT)
        mem.add_turn("chat:1", "Actually, I moved to Munich.", at=AT.replace(hour=16))
        mem.process_pending()
        every = mem.facts("chat:1", include_inactive=True)
        statuses = {f.value: f.status for f in every if f.slot == "home"}
        assert statuses == {"munich": FactStatus.ACTIVE, "berlin": FactStatus.SUPERSEDED}


def test_in_a_team_message_first_person_is_its_author(openai_server, llm):
    answer = dict(
        personal("Raj is allergic to peanuts.", "diet", "allergy:peanut", "peanuts"), message=1
    )
    openai_server.reply_json({"facts": [answer]})
    message = MessageInput(author="Raj", text="I'm allergic to peanuts.", at=AT)
    ((fact,),) = llm.extract_from_messages([message])
    assert (fact.subject, fact.slot) == ("raj", "allergy:peanut")
