"""The llm model behind a whole Memory, against a real local OpenAI-compatible server."""

import json
import logging

import pytest

from tests.openai_fake import FakeOpenAIServer
from threefold import Memory, SettingsError, SummaryKind, load_settings

STREAM = "project:alpha"


def by_task(answers: dict[str, object]):
    """Answer each request with the payload for its task, named in its JSON schema."""

    def answer(request: dict) -> str:
        task = request["response_format"]["json_schema"]["name"]
        payload = answers.get(task, "not json at all")
        return payload if isinstance(payload, str) else json.dumps(payload)

    return answer


@pytest.fixture
def llm_settings(monkeypatch):
    monkeypatch.setenv("TEST_LLM_KEY", "sk-test-secret")

    def make(server: FakeOpenAIServer, **extra):
        return load_settings(
            model={
                "kind": "llm",
                "base_url": server.base_url,
                "name": "fake-model",
                "api_key_env": "TEST_LLM_KEY",
                "attempts": 2,
                "backoff_seconds": 0.01,
                "timeout_seconds": 5,
            },
            session_turns=2,
            **extra,
        )

    return make


def test_facts_and_summaries_come_from_the_server(tmp_path, llm_settings):
    raj = {
        "text": "Raj is the Lead Architect.",
        "category": "role",
        "subject": "lead architect",
        "slot": "holder",
        "value": "raj",
        "confidence": 1.0,
        "is_correction": True,
    }
    answers = {
        "extract_facts": {"facts": [raj]},
        "summarize_session": {
            "text": "- The team settled who leads architecture.",
            "open_items": [],
            "intent": "Set the record straight on who leads architecture.",
            "decisions": ["Raj is the Lead Architect."],
            "open_questions": ["Who owns frontend now?"],
        },
        "merge_summary": {"text": "### 2026-10-05\n- The team settled who leads architecture."},
    }
    with (
        FakeOpenAIServer(default=by_task(answers)) as server,
        Memory.open(
            tmp_path / "llm.db", settings=llm_settings(server), background_worker=False
        ) as mem,
    ):
        mem.add_turn(STREAM, "No, Raj is the Lead Architect.", "Noted.")
        mem.add_turn(STREAM, "Thanks.", "Sure.")
        mem.process_pending()

        (fact,) = mem.facts(STREAM)
        assert (fact.value, fact.confidence) == ("raj", 1.0)
        (active,) = mem.summaries(STREAM, SummaryKind.ACTIVE)
        assert "who leads architecture" in active.text
        (session,) = mem.summaries(STREAM, SummaryKind.SESSION)
        assert session.record["model"] == "llm:fake-model"
        assert session.record["decisions"] == ["Raj is the Lead Architect."]
        assert session.record["open_questions"] == ["Who owns frontend now?"]
        assert server.requests[0]["model"] == "fake-model"
        assert server.headers[0]["authorization"] == "Bearer sk-test-secret"


def test_broken_answers_fall_back_to_the_heuristic(tmp_path, llm_settings, caplog):
    caplog.set_level(logging.WARNING, logger="threefold.models.llm")
    with (
        FakeOpenAIServer(default="{not valid json") as server,
        Memory.open(
            tmp_path / "llm.db", settings=llm_settings(server), background_worker=False
        ) as mem,
    ):
        mem.add_turn(STREAM, "No, Raj is the Lead Architect.", "Noted.")
        mem.add_turn(STREAM, "Priya handles backend, not frontend.", "Ok.")
        mem.process_pending()

        values = {f.value for f in mem.facts(STREAM)}
        assert {"raj", "backend"} <= values  # the heuristic's answers, item by item
        assert mem.summaries(STREAM, SummaryKind.ACTIVE)
        assert not mem.store.jobs(status="failed")
        assert "extract_facts (model fake-model) fell back to the heuristic" in caplog.text
        assert "sk-test-secret" not in caplog.text


def test_a_missing_key_variable_is_a_clear_error(tmp_path, llm_settings, monkeypatch):
    with FakeOpenAIServer() as server:
        settings = llm_settings(server)
        monkeypatch.delenv("TEST_LLM_KEY")
        with pytest.raises(SettingsError, match="TEST_LLM_KEY"):
            Memory.open(tmp_path / "llm.db", settings=settings, background_worker=False)


def test_team_messages_reach_the_llm_credited_and_with_plain_wording_guidance(
    tmp_path, llm_settings
):
    decision = {
        "message": 1,
        "text": "The team will go with a phased rollout.",
        "category": "decision",
        "subject": "rollout plan",
        "slot": "choice",
        "value": "phased rollout",
        "confidence": 0.9,
        "is_correction": False,
    }
    answers = {
        "extract_from_messages": {"facts": [decision]},
        "summarize_session": {"text": "- Rollout settled.", "open_items": []},
        "merge_summary": {"text": "### 2026-03-02\n- Rollout settled."},
    }
    projects = [{"stream": STREAM, "channels": ["proj-alpha"]}]
    with (
        FakeOpenAIServer(default=by_task(answers)) as server,
        Memory.open(
            tmp_path / "llm.db",
            settings=llm_settings(server, projects=projects),
            background_worker=False,
        ) as mem,
    ):
        mem.ingest_message(
            channel="proj-alpha",
            user="Ann",
            ts="1772442000.000100",
            text="ok, we'll go with a phased rollout",
        )
        mem.store.schedule(mem.tenant, STREAM, "digest", 0)
        mem.process_pending()
        [asked] = [
            r
            for r in server.requests
            if r["response_format"]["json_schema"]["name"] == "extract_from_messages"
        ]
        system = asked["messages"][0]["content"]
        assert "we'll go with a phased rollout" in system and "Anil is taking" in system
        assert "never the bot" in system
        assert [f.text for f in mem.facts(STREAM)] == ["The team will go with a phased rollout."]


def test_a_task_can_have_its_own_chat_model(tmp_path, llm_settings):
    digest = {"text": "- Raj became the lead.", "open_items": []}
    with (
        FakeOpenAIServer(default=by_task({"extract_facts": {"facts": []}})) as fast,
        FakeOpenAIServer(
            default=by_task({"summarize_session": digest, "merge_summary": {"text": "ok"}})
        ) as standard,
    ):
        model = llm_settings(fast).model.model_dump(exclude_unset=True)
        model["tasks"] = {
            task: {"name": "standard-model", "base_url": standard.base_url}
            for task in ("summarize_session", "merge_summary")
        }
        settings = load_settings(model=model, session_turns=2)
        with Memory.open(tmp_path / "t.db", settings=settings, background_worker=False) as mem:
            mem.add_turn(STREAM, "Raj is the lead now.", "Noted.")
            mem.add_turn(STREAM, "Thanks.", "Sure.")
            mem.process_pending()
            stats = mem.model.stats_dict()
    assert {r["model"] for r in fast.requests} == {"fake-model"}
    assert {r["response_format"]["json_schema"]["name"] for r in fast.requests} == {"extract_facts"}
    assert {r["model"] for r in standard.requests} == {"standard-model"}
    # both turns were waiting: one extraction request read them together
    assert stats["summarize_session"]["calls"] == 1 and stats["extract_facts"]["calls"] == 1


def test_standard_name_gives_the_summary_tasks_their_own_model(tmp_path, llm_settings):
    digest = {"text": "- Raj became the lead.", "open_items": []}
    answers = {"extract_facts": {"facts": []}, "summarize_session": digest}
    with FakeOpenAIServer(default=by_task(answers)) as server:
        model = llm_settings(server).model.model_dump(exclude_unset=True)
        model["standard_name"] = "standard-model"
        model["tasks"] = {"roll_up": {"name": "own-roll-up"}}
        settings = load_settings(model=model, session_turns=2)
        with Memory.open(tmp_path / "t.db", settings=settings, background_worker=False) as mem:
            mem.add_turn(STREAM, "Raj is the lead now.", "Noted.")
            mem.add_turn(STREAM, "Thanks.", "Sure.")
            mem.process_pending()
    by_name = {r["response_format"]["json_schema"]["name"]: r["model"] for r in server.requests}
    assert by_name.pop("extract_facts") == "fake-model"
    assert "summarize_session" in by_name and set(by_name.values()) == {"standard-model"}
    assert settings.model.tasks["roll_up"].name == "own-roll-up"  # a task's own table wins


def test_an_unknown_task_is_a_settings_error(llm_settings):
    with pytest.raises(SettingsError, match="unknown tasks"):
        load_settings(model={"kind": "llm", "tasks": {"summarise": {"name": "x"}}})
