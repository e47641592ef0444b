"""The llm MemoryModel against a real local server speaking the OpenAI API (no mocks)."""

import json
import logging
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta, timezone

import openai
import pytest

from tests import openai_fake
from tests.openai_fake import Delay, FakeOpenAIServer, Reply, Status
from threefold.domain import FactCategory
from threefold.errors import InvalidInput, SettingsError
from threefold.models.base import (
    DatedSummary,
    ExtractedFact,
    KnownFact,
    MemoryModel,
    MessageInput,
    Period,
    ReconcileAction,
    ReconcileDecision,
    RouteDecision,
    SessionDigest,
    TurnInput,
)
from threefold.models.llm import LLMModel, strip_fence

openai_server = openai_fake.openai_server  # the fixture; tests/conftest.py may provide it later

MODEL = "test-model"
AT = datetime(2024, 5, 3, 14, 0, tzinfo=timezone(timedelta(hours=2)))
TURN = TurnInput(
    stream="project:alpha",
    user="The launch moves to next Friday. Raj is the PM now.",
    assistant="Noted.",
    at=AT,
)
NEW_FACT = ExtractedFact(
    text="The Alpha launch is on 2024-05-10.",
    category=FactCategory.DEADLINE,
    subject="alpha launch",
    slot="deadline",
    value="2024-05-10",
    confidence=0.95,
)
SIMILAR = (
    KnownFact(
        id=7,
        text="The Alpha launch is on 2024-05-03.",
        subject="alpha launch",
        slot="deadline",
        value="2024-05-03",
        confidence=0.95,
    ),
)
SUMMARY = DatedSummary(
    text="Agreed to move the launch.",
    period=Period(start=datetime(2024, 5, 1, tzinfo=UTC), end=datetime(2024, 5, 3, tzinfo=UTC)),
)
FACT_ANSWER = {
    "facts": [
        {
            "text": "The Alpha launch is on 2024-05-10.",
            "category": "deadline",
            "subject": "Alpha  Launch",
            "slot": "Deadline",
            "value": "2024-05-10",
            "confidence": 0.95,
        },
        {
            "text": "Raj is the PM of Alpha.",
            "category": "role",
            "subject": "pm",
            "slot": "holder",
            "value": "Raj",
            "confidence": 0.95,
            "retracts": [{"subject": "PM", "slot": "holder", "value": "Mia"}],
        },
    ]
}


class ScriptedFallback:
    """A deterministic MemoryModel that says where its answers come from."""

    name = "scripted"

    def __init__(self) -> None:
        self.calls: list[str] = []

    def extract_facts(self, turn: TurnInput) -> list[ExtractedFact]:
        self.calls.append("extract_facts")
        return [NEW_FACT.model_copy(update={"text": "from fallback"})]

    def extract_from_messages(self, messages: Sequence[MessageInput]) -> list[list[ExtractedFact]]:
        self.calls.append("extract_from_messages")
        return [[NEW_FACT.model_copy(update={"text": "from fallback"})] for _ in messages]

    def summarize_session(self, turns: Sequence[TurnInput], target_tokens: int) -> SessionDigest:
        self.calls.append("summarize_session")
        return SessionDigest(text="fallback summary")

    def merge_summary(
        self, active: DatedSummary | None, new: DatedSummary, open_items: Sequence[str]
    ) -> str:
        self.calls.append("merge_summary")
        return "fallback merge"

    def compact_summary(self, text: str, known_facts: Sequence[str], target_tokens: int) -> str:
        self.calls.append("compact_summary")
        return "fallback compact"

    def roll_up(self, summaries: Sequence[DatedSummary], target_tokens: int) -> str:
        self.calls.append("roll_up")
        return "fallback roll-up"

    def route(self, text: str, streams: Sequence[str]) -> RouteDecision:
        self.calls.append("route")
        return RouteDecision(stream="global", confidence=0.1, reason="fallback")

    def reconcile(self, new: ExtractedFact, similar: Sequence[KnownFact]) -> ReconcileDecision:
        self.calls.append("reconcile")
        return ReconcileDecision(action=ReconcileAction.ADD, reason="fallback")


@pytest.fixture
def fallback() -> ScriptedFallback:
    return ScriptedFallback()


@pytest.fixture
def llm(openai_server: FakeOpenAIServer, fallback: ScriptedFallback) -> LLMModel:
    return LLMModel(openai_server.client(timeout=5.0), MODEL, fallback, backoff=0.001)


@pytest.fixture
def warnings_log(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.INFO, logger="threefold.models.llm")
    return caplog


def _system(request: dict) -> str:
    return request["messages"][0]["content"]


def _user(request: dict) -> str:
    return request["messages"][-1]["content"]


# -- valid answers ------------------------------------------------------------------------

TASK_CASES = [
    pytest.param(
        lambda m: m.extract_facts(TURN),
        FACT_ANSWER,
        lambda r: isinstance(r, list) and all(isinstance(f, ExtractedFact) for f in r),
        id="extract_facts",
    ),
    pytest.param(
        lambda m: m.summarize_session([TURN, TURN], 200),
        {"text": "The launch moved to 2024-05-10.", "open_items": ["Confirm venue"]},
        lambda r: (
            r
            == SessionDigest(text="The launch moved to 2024-05-10.", open_items=("Confirm venue",))
        ),
        id="summarize_session",
    ),
    pytest.param(
        lambda m: m.merge_summary(SUMMARY, SUMMARY, ["Confirm venue"]),
        {"text": "2024-05-01 to 2024-05-03: merged."},
        lambda r: r == "2024-05-01 to 2024-05-03: merged.",
        id="merge_summary",
    ),
    pytest.param(
        lambda m: m.merge_summary(None, SUMMARY, []),
        {"text": "first summary"},
        lambda r: r == "first summary",
        id="merge_summary-no-active",
    ),
    pytest.param(
        lambda m: m.compact_summary("long text " * 100, ["Raj is the PM."], 50),
        {"text": "short text"},
        lambda r: r == "short text",
        id="compact_summary",
    ),
    pytest.param(
        lambda m: m.roll_up([SUMMARY, SUMMARY], 300),
        {"text": "The week: launch moved."},
        lambda r: r == "The week: launch moved.",
        id="roll_up",
    ),
    pytest.param(
        lambda m: m.route("Alpha launch slips", ["project:alpha", "project:beta"]),
        {"stream": "project:alpha", "confidence": 0.9, "reason": "names alpha"},
        lambda r: r == RouteDecision(stream="project:alpha", confidence=0.9, reason="names alpha"),
        id="route",
    ),
    pytest.param(
        lambda m: m.route("lunch?", ["project:alpha"]),
        {"stream": "global", "confidence": 0.4},
        lambda r: r.stream == "global",
        id="route-global",
    ),
    pytest.param(
        lambda m: m.reconcile(NEW_FACT, SIMILAR),
        {"action": "SUPERSEDE", "target_id": 7, "reason": "date moved"},
        lambda r: r == ReconcileDecision(action="SUPERSEDE", target_id=7, reason="date moved"),
        id="reconcile",
    ),
]


@pytest.mark.parametrize(("call", "answer", "check"), TASK_CASES)
def test_valid_answers_parse_into_protocol_types(
    openai_server,
    llm,
    fallback,
    call,
    answer,
    check,
):
    openai_server.reply_json(answer)
    result = call(llm)
    assert check(result), result
    assert fallback.calls == []
    assert len(openai_server.requests) == 1
    request = openai_server.requests[0]
    assert request["model"] == MODEL
    assert request["response_format"]["type"] == "json_schema"
    assert "JSON" in _system(request)


def test_the_person_a_he_or_she_may_mean_is_offered_as_a_hint(openai_server, llm):
    openai_server.reply_json({"facts": []})
    turn = TURN.model_copy(update={"user": "She moved to Edinburgh.", "referent": "my sister"})
    llm.extract_facts(turn)
    told = _user(openai_server.requests[0])
    assert '<hint>an opening "he" or "she" may mean my sister</hint>' in told
    assert "means: my sister" not in told


def test_a_thread_reply_carries_what_it_answers(openai_server, llm):
    openai_server.reply_json({"facts": []})
    at = datetime(2026, 4, 7, 9, tzinfo=UTC)
    asked = 'can someone own the "vendor" contract renewal?'
    llm.extract_from_messages(
        [
            MessageInput(author="Ola", text="I can take it", at=at, replying_to=asked),
            MessageInput(author="Ines", text="standup moved to 10", at=at),
        ]
    )
    told = _user(openai_server.requests[0])
    assert "replying_to=\"can someone own the 'vendor' contract renewal?\"" in told
    assert told.count("replying_to=") == 1  # a message outside a thread is told as before


def test_extract_facts_normalizes_keys_and_keeps_values(openai_server, llm):
    duplicate = dict(FACT_ANSWER["facts"][0], subject="alpha launch", slot="deadline")
    openai_server.reply_json({"facts": [*FACT_ANSWER["facts"], duplicate]})
    facts = llm.extract_facts(TURN)
    assert [(f.subject, f.slot, f.value) for f in facts] == [
        ("alpha launch", "deadline", "2024-05-10"),
        ("pm", "holder", "Raj"),
    ]
    assert facts[1].category is FactCategory.ROLE
    assert facts[1].retracts[0].subject == "pm"


def test_request_carries_model_event_time_and_schema(openai_server, llm):
    openai_server.reply_json({"facts": []})
    assert llm.extract_facts(TURN) == []
    request = openai_server.requests[0]
    assert request["model"] == MODEL
    user = _user(request)
    assert "2024-05-03T14:00+02:00" in user
    assert "Friday" in user
    assert "Stream: project:alpha (project subject: alpha)" in user
    assert TURN.user in user and TURN.assistant in user
    fmt = request["response_format"]
    assert fmt["json_schema"]["name"] == "extract_facts"
    assert fmt["json_schema"]["strict"] is True
    schema = fmt["json_schema"]["schema"]
    fact = schema["properties"]["facts"]["items"]  # definitions are inlined: fewer tokens
    # strict mode: every property required, no other allowed, no titles or bounds
    assert fact["required"] == list(fact["properties"]) and fact["additionalProperties"] is False
    assert "title" not in json.dumps(schema) and "minLength" not in json.dumps(schema)
    assert "$ref" not in json.dumps(schema) and "$defs" not in schema
    system = _system(request)
    assert "holder" in system and "0.95" in system and "turn's time" in system
    # json_schema mode does not repeat the schema in the prompt
    assert '"additionalProperties"' not in system


# -- retries and fallbacks ----------------------------------------------------------------


def test_invalid_json_then_valid_is_retried(openai_server, llm, fallback):
    openai_server.add('{"facts": [', "not json at all")
    openai_server.reply_json(FACT_ANSWER)
    facts = llm.extract_facts(TURN)
    assert len(facts) == 2
    assert fallback.calls == []
    assert len(openai_server.requests) == 3
    assert llm.stats["extract_facts"].failures == 2
    assert llm.stats["extract_facts"].fallbacks == 0


def test_schema_violation_is_retried(openai_server, llm):
    bad = {"facts": [dict(FACT_ANSWER["facts"][0], confidence=1.5)]}
    openai_server.reply_json(bad, {"facts": [{"text": "no keys"}]}, FACT_ANSWER)
    assert len(llm.extract_facts(TURN)) == 2
    assert len(openai_server.requests) == 3


def test_always_invalid_falls_back_and_logs(
    openai_server,
    llm,
    fallback,
    warnings_log,
):
    openai_server.add("nope", '{"text": ""}', "[]")
    assert llm.merge_summary(None, SUMMARY, []) == "fallback merge"
    assert fallback.calls == ["merge_summary"]
    assert len(openai_server.requests) == 3
    stats = llm.stats["merge_summary"]
    assert (stats.calls, stats.requests, stats.failures, stats.fallbacks) == (1, 3, 3, 1)
    warnings = [r for r in warnings_log.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    message = warnings[0].getMessage()
    assert "merge_summary" in message and "invalid answer" in message
    assert "scripted" in message
    assert llm.stats_dict()["merge_summary"]["fallbacks"] == 1


def test_falls_back_to_the_heuristic_model(openai_server):
    heuristic = pytest.importorskip("threefold.models.heuristic")
    if not hasattr(heuristic, "HeuristicModel"):
        pytest.skip("HeuristicModel is not written yet")
    fallback = heuristic.HeuristicModel()
    model = LLMModel(openai_server.client(), MODEL, fallback, backoff=0.001)
    openai_server.add("{", "{", "{")
    assert model.extract_facts(TURN) == fallback.extract_facts(TURN)


def test_server_errors_are_retried_then_fall_back(
    openai_server,
    llm,
    fallback,
    warnings_log,
):
    openai_server.add(Status(500, "boom", "server_error"), Status(502), Status(503))
    assert llm.roll_up([SUMMARY], 100) == "fallback roll-up"
    assert len(openai_server.requests) == 3
    assert fallback.calls == ["roll_up"]
    assert "HTTP 503" in warnings_log.records[-1].getMessage()


def test_server_error_then_valid_succeeds(openai_server, llm, fallback):
    openai_server.add(Status(500), Status(429, "slow down", "rate_limit_error"))
    openai_server.reply_json({"text": "rolled"})
    assert llm.roll_up([SUMMARY], 100) == "rolled"
    assert fallback.calls == []


def test_timeout_falls_back(openai_server, fallback, warnings_log):
    client = openai_server.client(timeout=0.3)
    model = LLMModel(client, MODEL, fallback, attempts=2, backoff=0.001)
    openai_server.add(Delay(3.0, '{"text": "late"}'), Delay(3.0, '{"text": "late"}'))
    started = time.monotonic()
    assert model.compact_summary("some text", [], 50) == "fallback compact"
    assert time.monotonic() - started < 2.0
    assert len(openai_server.requests) == 2
    assert "timeout" in warnings_log.records[-1].getMessage()


def test_json_schema_rejected_switches_to_json_object_for_good(openai_server, llm):
    openai_server.add(Status(400, "response_format json_schema is not supported"))
    openai_server.reply_json({"stream": "project:alpha", "confidence": 0.9})
    openai_server.reply_json({"stream": "project:alpha", "confidence": 0.8})
    assert llm.route("alpha", ["project:alpha"]).confidence == 0.9
    assert llm.route("alpha", ["project:alpha"]).confidence == 0.8
    formats = [r["response_format"]["type"] for r in openai_server.requests]
    assert formats == ["json_schema", "json_object", "json_object"]
    assert llm.response_format == "json_object"
    # without json_schema the prompt spells the schema out
    assert '"stream"' in _system(openai_server.requests[1]).split("JSON schema:")[1]
    assert llm.stats["route"].failures == 0


def test_json_object_rejected_too_drops_response_format(openai_server, llm):
    openai_server.add(Status(400, "no json_schema"), Status(400, "no json_object"))
    openai_server.reply_json({"text": "merged"})
    assert llm.merge_summary(None, SUMMARY, []) == "merged"
    assert "response_format" not in openai_server.requests[2]
    assert llm.response_format == "text"


def test_persistent_400_falls_back_without_retry(
    openai_server,
    llm,
    fallback,
    warnings_log,
):
    openai_server.add(*[Status(400, "context too long")] * 3)
    assert llm.merge_summary(None, SUMMARY, []) == "fallback merge"
    assert len(openai_server.requests) == 3  # one per format, no retries
    assert llm.response_format == "json_schema"  # nothing was accepted, nothing learned
    assert "context too long" in warnings_log.records[-1].getMessage()


def test_other_4xx_falls_back_immediately(openai_server, llm, fallback):
    openai_server.add(Status(401, "bad key", "authentication_error"))
    assert llm.route("alpha", ["project:alpha"]).reason == "fallback"
    assert len(openai_server.requests) == 1
    assert llm.stats["route"].fallbacks == 1


def test_reconcile_unknown_target_falls_back(
    openai_server,
    llm,
    fallback,
    warnings_log,
):
    openai_server.reply_json(*[{"action": "SUPERSEDE", "target_id": 99}] * 3)
    decision = llm.reconcile(NEW_FACT, SIMILAR)
    assert decision.reason == "fallback"
    assert fallback.calls == ["reconcile"]
    assert len(openai_server.requests) == 3
    assert "target_id 99" in warnings_log.records[-1].getMessage()


def test_reconcile_needs_a_target_for_update(openai_server, llm):
    openai_server.reply_json({"action": "UPDATE"}, {"action": "ADD", "target_id": 7})
    decision = llm.reconcile(NEW_FACT, SIMILAR)
    assert decision == ReconcileDecision(action=ReconcileAction.ADD, target_id=None)
    assert len(openai_server.requests) == 2


def test_route_to_unoffered_stream_falls_back(openai_server, llm, fallback):
    openai_server.reply_json(*[{"stream": "project:gamma", "confidence": 0.9}] * 3)
    assert llm.route("gamma", ["project:alpha"]).reason == "fallback"
    assert len(openai_server.requests) == 3


def test_overlong_compaction_is_refused(openai_server, llm, fallback):
    openai_server.reply_json(*[{"text": "word " * 400}] * 3)
    assert llm.compact_summary("text " * 1000, [], 100) == "fallback compact"


def test_empty_choices_and_null_content_are_retried(openai_server, llm):
    openai_server.add(Reply(None, choices=False), Reply(None, finish_reason="length"))
    openai_server.reply_json({"text": "ok"})
    assert llm.merge_summary(None, SUMMARY, []) == "ok"
    assert llm.stats["merge_summary"].failures == 2


def test_one_surrounding_code_fence_is_tolerated(openai_server, llm):
    openai_server.add('```json\n{"text": "fenced"}\n```')
    assert llm.merge_summary(None, SUMMARY, []) == "fenced"
    openai_server.add('Here you go:\n```json\n{"text": "in prose"}\n```')
    assert llm.merge_summary(None, SUMMARY, []) == "in prose"  # one object, cut out of prose
    openai_server.add('{"text": "one"} {"text": "two"}', '{"text": "plain"}')
    assert llm.merge_summary(None, SUMMARY, []) == "plain"  # two objects are no answer


def test_strip_fence() -> None:
    assert strip_fence('```\n{"a": 1}\n```') == '{"a": 1}'
    assert strip_fence('  ```JSON\n{"a": 1}```  ') == '{"a": 1}'
    assert strip_fence('{"a": 1}') == '{"a": 1}'
    assert strip_fence("x ```json\n{}\n```") == "x ```json\n{}\n```"


def test_trivial_inputs_go_to_the_fallback_without_a_request(openai_server, llm, fallback):
    llm.reconcile(NEW_FACT, [])
    llm.route("anything", [])
    llm.summarize_session([], 100)
    llm.roll_up([], 100)
    llm.compact_summary("  ", [], 100)
    llm.extract_facts(TURN.model_copy(update={"user": " ", "assistant": ""}))
    assert openai_server.requests == []
    assert len(fallback.calls) == 6
    assert llm.stats["reconcile"].delegated == 1
    assert llm.stats["reconcile"].fallbacks == 0


def test_is_a_memory_model(llm) -> None:
    assert isinstance(llm, MemoryModel)
    assert llm.name == "llm"


def test_constructor_checks_its_arguments(openai_server, fallback):
    client = openai_server.client()
    with pytest.raises(InvalidInput):
        LLMModel(client, "", fallback)
    with pytest.raises(InvalidInput):
        LLMModel(client, MODEL, fallback, attempts=0)


# -- settings -----------------------------------------------------------------------------


def test_missing_api_key_variable_is_a_settings_error(monkeypatch, fallback):
    monkeypatch.delenv("THREEFOLD_TEST_LLM_KEY", raising=False)
    with pytest.raises(SettingsError, match="THREEFOLD_TEST_LLM_KEY"):
        LLMModel.from_settings("http://127.0.0.1:1/v1", MODEL, "THREEFOLD_TEST_LLM_KEY", fallback)


@pytest.mark.parametrize(
    ("url", "model"), [("localhost:8080", MODEL), ("http://127.0.0.1:1/v1", " ")]
)
def test_bad_settings_are_settings_errors(monkeypatch, fallback, url, model):
    monkeypatch.setenv("THREEFOLD_TEST_LLM_KEY", "k")
    with pytest.raises(SettingsError):
        LLMModel.from_settings(url, model, "THREEFOLD_TEST_LLM_KEY", fallback)


def test_from_settings_sends_the_key_and_never_logs_it(
    monkeypatch,
    openai_server,
    fallback,
    warnings_log,
):
    secret = "sk-secret-123456"
    monkeypatch.setenv("THREEFOLD_TEST_LLM_KEY", secret)
    openai_server.reply_json({"text": "merged"})
    openai_server.add(Status(401, "bad key", "authentication_error"))
    with LLMModel.from_settings(
        openai_server.base_url, MODEL, "THREEFOLD_TEST_LLM_KEY", fallback, timeout=5.0
    ) as model:
        assert model.merge_summary(None, SUMMARY, []) == "merged"
        assert model.merge_summary(None, SUMMARY, []) == "fallback merge"
    assert model.client.is_closed()
    assert openai_server.headers[0]["authorization"] == f"Bearer {secret}"
    assert secret not in warnings_log.text


def test_empty_api_key_means_a_keyless_local_server(monkeypatch, openai_server, fallback):
    monkeypatch.setenv("THREEFOLD_TEST_LLM_KEY", "")
    openai_server.reply_json({"text": "merged"})
    with LLMModel.from_settings(
        openai_server.base_url, MODEL, "THREEFOLD_TEST_LLM_KEY", fallback
    ) as model:
        assert model.merge_summary(None, SUMMARY, []) == "merged"
    assert openai_server.headers[0]["authorization"] == "Bearer EMPTY"


# -- the fake server itself -----------------------------------------------------------------


def test_fake_server_works_outside_pytest_fixtures() -> None:
    seen = []

    def echo(request: dict) -> str:
        seen.append(request["model"])
        return json.dumps({"text": request["messages"][-1]["content"]})

    with FakeOpenAIServer([echo]) as server:
        client = server.client()
        completion = client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}]
        )
        assert json.loads(completion.choices[0].message.content) == {"text": "hi"}
        assert completion.model == "m"
        assert [model.id for model in client.models.list()] == ["fake-model"]
        with pytest.raises(openai.InternalServerError, match="script exhausted"):
            client.chat.completions.create(model="m", messages=[])
        assert server.exhausted == 1
        assert server.pending == 0
    assert seen == ["m"]


# -- team messages ------------------------------------------------------------------------

MESSAGES = [
    MessageInput(author="Ann", text="lunch?", at=AT, channel="general"),
    MessageInput(author="Raj", text="We ship Alpha on Friday.", at=AT, channel="proj-alpha"),
]


def test_message_facts_are_grouped_by_message(openai_server, llm, fallback):
    answer = dict(FACT_ANSWER["facts"][0], message=2)
    openai_server.reply_json({"facts": [answer]})
    found = llm.extract_from_messages(MESSAGES)
    assert [len(facts) for facts in found] == [0, 1]
    assert found[1][0].subject == "alpha launch"
    user = _user(openai_server.requests[0])
    assert 'author="Raj"' in user and "We ship Alpha on Friday." in user
    assert fallback.calls == []


def test_a_message_number_outside_the_batch_falls_back(openai_server, llm, fallback):
    wrong = dict(FACT_ANSWER["facts"][0], message=3)
    openai_server.reply_json({"facts": [wrong]}, {"facts": [wrong]}, {"facts": [wrong]})
    found = llm.extract_from_messages(MESSAGES)
    assert fallback.calls == ["extract_from_messages"]
    assert [f.text for facts in found for f in facts] == ["from fallback", "from fallback"]


def test_a_batch_of_blank_messages_needs_no_request(openai_server, llm, fallback):
    blank = [m.model_copy(update={"text": " "}) for m in MESSAGES]
    llm.extract_from_messages(blank)
    assert openai_server.requests == []
    assert llm.stats["extract_from_messages"].delegated == 1
