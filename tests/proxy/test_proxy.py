"""The proxy served for real on loopback, in front of a fake upstream that streams."""

import json
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import openai
import pytest

from tests.conftest import MemoryFactory
from tests.openai_fake import FakeOpenAIServer
from tests.proxy.conftest import ProxyFactory
from tests.proxy.servers import Fail, FakeUpstream, Hang, Reply, completion
from threefold import Memory, load_settings
from threefold.errors import StoreError

T = TypeVar("T")
STREAM = "project:alpha"
HEADERS = {"X-Threefold-Stream": STREAM}
ASK = [{"role": "user", "content": "Who leads architecture?"}]


def wait_for(check: Callable[[], T], seconds: float = 5.0) -> T:
    """Poll `check` until it returns something truthy, for at most `seconds`."""
    deadline = time.monotonic() + seconds
    while not (result := check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"nothing after {seconds} s")
        time.sleep(0.02)
    return result


def recorded_after_next_answer(proxy: Any, upstream: FakeUpstream, stream: str) -> list:
    """Send one good request in `stream` and wait for its turn: turns recorded by earlier
    (failed) requests would be recorded by now too, so this is all the stream has."""
    upstream.add(Reply(["fine"]))
    proxy.http().post(
        "/chat/completions",
        json={"model": "m", "messages": [{"role": "user", "content": "probe"}]},
        headers={"X-Threefold-Stream": stream},
    ).raise_for_status()
    return wait_for(lambda: (t := proxy.memory.turns(stream)) and t[-1].user == "probe" and t)


# -- memory in, answer out, turn recorded ---------------------------------------------------


def test_streaming_adds_memory_and_passes_tokens_as_they_arrive(
    upstream: FakeUpstream, start_proxy: ProxyFactory
) -> None:
    proxy = start_proxy(worker=True)
    proxy.memory.write_fact(STREAM, "Raj is the Lead Architect.")
    tokens = ["Raj ", "leads ", "the ", "architecture", "."]
    upstream.add(Reply(tokens, delay=0.25))
    arrivals: list[float] = []
    texts: list[str] = []
    turns_at_first_token = None

    with proxy.openai().chat.completions.create(
        model="gpt-test", messages=ASK, stream=True, extra_headers=HEADERS
    ) as stream:
        for chunk in stream:
            if chunk.choices and chunk.choices[0].delta.content:
                arrivals.append(time.monotonic())
                texts.append(chunk.choices[0].delta.content)
                if turns_at_first_token is None:
                    turns_at_first_token = proxy.memory.turns(STREAM)

    assert texts == tokens
    sent = upstream.sent_at[0]
    assert arrivals[0] < upstream.finished_at[0]
    for index in range(len(tokens) - 1):
        # each token reached the client before the upstream even wrote the next one
        assert sent[index] <= arrivals[index] < sent[index + 1]
    assert turns_at_first_token == []
    system = upstream.requests[0]["messages"][0]
    assert system["role"] == "system"
    assert "Raj is the Lead Architect." in system["content"]
    assert "## Current question" not in system["content"]
    assert upstream.requests[0]["messages"][1:] == ASK
    turns = wait_for(lambda: proxy.memory.turns(STREAM))
    assert [(t.user, t.assistant, t.model_variant) for t in turns] == [
        ("Who leads architecture?", "Raj leads the architecture.", "gpt-test")
    ]


def test_non_streaming_returns_the_upstream_json_and_records_the_turn(
    upstream: FakeUpstream, start_proxy: ProxyFactory
) -> None:
    proxy = start_proxy()
    proxy.memory.write_fact(STREAM, "The demo is on Friday.")
    upstream.add(Reply(["On ", "Friday."]))
    body = {"model": "gpt-test", "messages": [{"role": "user", "content": "When is the demo?"}]}

    response = proxy.http().post("/chat/completions", json=body, headers=HEADERS)

    assert response.status_code == 200
    assert response.json() == completion(Reply(["On ", "Friday."]), body)
    assert response.headers["x-threefold-stream"] == STREAM
    assert "x-threefold-warning" not in response.headers
    assert "The demo is on Friday." in upstream.requests[0]["messages"][0]["content"]
    turns = wait_for(lambda: proxy.memory.turns(STREAM))
    assert [(t.user, t.assistant) for t in turns] == [("When is the demo?", "On Friday.")]


@pytest.mark.parametrize("stream", [False, True])
def test_a_turn_is_stored_before_its_answer_ends_so_quick_turns_keep_their_order(
    upstream: FakeUpstream, start_proxy: ProxyFactory, stream: bool
) -> None:
    proxy = start_proxy()
    client = proxy.openai()
    for n in range(6):
        upstream.add(Reply([f"answer {n}"]))
        ask = [{"role": "user", "content": f"question {n}"}]
        answer = client.chat.completions.create(
            model="m", messages=ask, stream=stream, extra_headers=HEADERS
        )
        if stream:
            assert "".join(c.choices[0].delta.content or "" for c in answer if c.choices)
        # no waiting: the turn is in memory by the time the client has the whole answer
        assert proxy.memory.turns(STREAM)[-1].user == f"question {n}"
    turns = proxy.memory.turns(STREAM)
    assert [(t.user, t.assistant) for t in turns] == [
        (f"question {n}", f"answer {n}") for n in range(6)
    ]


def test_the_user_field_names_the_stream(upstream: FakeUpstream, start_proxy: ProxyFactory) -> None:
    proxy = start_proxy()
    proxy.memory.write_fact("user:alice", "Alice prefers short answers.")
    upstream.add(Reply(["Sure."]))

    answer = proxy.openai().chat.completions.create(
        model="gpt-test", messages=[{"role": "user", "content": "Hi"}], user="alice"
    )

    assert answer.choices[0].message.content == "Sure."
    assert "Alice prefers short answers." in upstream.requests[0]["messages"][0]["content"]
    assert upstream.requests[0]["user"] == "alice"
    turns = wait_for(lambda: proxy.memory.turns("user:alice"))
    assert [(t.user, t.assistant) for t in turns] == [("Hi", "Sure.")]


def test_memory_merges_into_the_clients_system_message_without_repeating_its_history(
    upstream: FakeUpstream, start_proxy: ProxyFactory
) -> None:
    proxy = start_proxy()
    proxy.memory.write_fact(STREAM, "Raj is the Lead Architect.")
    proxy.memory.add_turn(STREAM, user="What is Project Alpha?", assistant="A badge system.")
    messages = [
        {"role": "system", "content": "You are terse."},
        {"role": "user", "content": "What is Project Alpha?"},
        {"role": "assistant", "content": "A badge system."},
        {"role": "user", "content": "Who leads it?"},
    ]

    proxy.http().post(
        "/chat/completions", json={"model": "m", "messages": messages}, headers=HEADERS
    ).raise_for_status()

    sent = upstream.requests[0]["messages"]
    assert sent[1:] == messages[1:]
    system = sent[0]["content"]
    assert system.startswith("## Memory")
    assert system.endswith("\n\nYou are terse.")
    assert "Raj is the Lead Architect." in system
    assert "A badge system" not in system  # the client sent that turn itself
    assert [m["role"] for m in sent].count("system") == 1


def test_a_client_without_history_gets_the_recent_turns_from_memory(
    upstream: FakeUpstream, start_proxy: ProxyFactory
) -> None:
    proxy = start_proxy()
    proxy.memory.add_turn(STREAM, user="What is Project Alpha?", assistant="A badge system.")
    question = [
        {"type": "text", "text": "Who leads it?"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
    ]
    body = {"model": "m", "messages": [{"role": "user", "content": question}]}

    proxy.http().post("/chat/completions", json=body, headers=HEADERS).raise_for_status()

    sent = upstream.requests[0]["messages"]
    assert sent[0]["role"] == "system"
    assert "A badge system." in sent[0]["content"]
    assert "Who leads it?" not in sent[0]["content"]
    assert sent[1]["content"] == question
    turns = wait_for(lambda: len(proxy.memory.turns(STREAM)) == 2 and proxy.memory.turns(STREAM))
    assert (turns[-1].user, turns[-1].assistant) == ("Who leads it?", "ok")


def test_without_a_stream_the_request_is_forwarded_untouched(
    upstream: FakeUpstream, start_proxy: ProxyFactory
) -> None:
    proxy = start_proxy()
    proxy.memory.write_fact(STREAM, "Raj is the Lead Architect.")
    raw = json.dumps({"model": "m", "messages": ASK, "temperature": 0.2}).encode()
    upstream.add(Reply(["a", "b"], delay=0.01))
    client = proxy.http()

    plain = client.post("/chat/completions", content=raw, headers={"Authorization": "Bearer sk-1"})
    streamed = client.post(
        "/chat/completions", content=json.dumps({"model": "m", "messages": ASK, "stream": True})
    )

    assert plain.status_code == 200
    assert upstream.raw[0] == raw
    assert upstream.headers[0]["authorization"] == "Bearer sk-1"
    assert streamed.headers["content-type"].startswith("text/event-stream")
    assert streamed.text.rstrip().endswith("data: [DONE]")
    assert upstream.requests[1]["messages"] == ASK
    time.sleep(0.2)
    assert [s.name for s in proxy.memory.streams()] == [STREAM]
    assert proxy.memory.turns(STREAM) == []


# -- bad requests -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "user", "param"),
    [
        ({"X-Threefold-Stream": "Not A Stream"}, None, "X-Threefold-Stream"),
        ({}, "bob smith", "user"),
        ({}, 42, "user"),
    ],
)
def test_an_invalid_stream_is_a_422_in_openai_shape(
    upstream: FakeUpstream, start_proxy: ProxyFactory, headers: dict, user: Any, param: str
) -> None:
    proxy = start_proxy()
    body = {"model": "m", "messages": ASK, **({"user": user} if user is not None else {})}

    response = proxy.http().post("/chat/completions", json=body, headers=headers)

    assert response.status_code == 422
    error = response.json()["error"]
    assert (error["param"], error["code"], error["type"]) == (
        param,
        "invalid_stream",
        "invalid_request_error",
    )
    assert "stream" in error["message"]
    assert upstream.requests == []


def test_a_body_that_is_not_json_is_a_400(
    upstream: FakeUpstream, start_proxy: ProxyFactory
) -> None:
    proxy = start_proxy()

    response = proxy.http().post("/chat/completions", content=b"{nope", headers=HEADERS)

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_json"
    assert upstream.requests == []


# -- memory failures ------------------------------------------------------------------------


class BrokenMemory(Memory):
    def context(self, *args: Any, **kwargs: Any) -> Any:
        raise StoreError("database disk image is malformed")


@pytest.mark.parametrize("stream", [False, True])
def test_a_closed_store_still_answers_with_a_warning(
    upstream: FakeUpstream, start_proxy: ProxyFactory, open_memory: MemoryFactory, stream: bool
) -> None:
    memory = open_memory()
    memory.store.close()
    proxy = start_proxy(memory)
    upstream.add(Reply(["still ", "here"]))
    body = {"model": "m", "messages": ASK, "stream": stream}

    response = proxy.http().post("/chat/completions", json=body, headers=HEADERS)

    assert response.status_code == 200
    warning = response.headers["x-threefold-warning"]
    assert warning.startswith("memory unavailable: StoreUnavailable")
    assert "the store is closed" in warning
    assert upstream.requests[0]["messages"] == ASK  # no memory, no system message
    if stream:
        assert '"still "' in response.text and "[DONE]" in response.text
    else:
        assert response.json()["choices"][0]["message"]["content"] == "still here"


def test_a_failing_context_still_answers_and_the_turn_is_kept(
    upstream: FakeUpstream, start_proxy: ProxyFactory, tmp_path: Path
) -> None:
    with BrokenMemory.open(tmp_path / "broken.db", settings=load_settings()) as memory:
        proxy = start_proxy(memory)
        upstream.add(Reply(["answer"]))

        client = proxy.openai()
        raw = client.chat.completions.with_raw_response.create(
            model="m", messages=ASK, extra_headers=HEADERS
        )
        response = client.chat.completions.with_raw_response.create(
            model="m", messages=ASK, extra_headers=HEADERS
        )

        assert raw.headers["x-threefold-warning"] == (
            "memory unavailable: StoreError: database disk image is malformed"
        )
        assert raw.parse().choices[0].message.content == "answer"
        assert response.parse().choices[0].message.content == "ok"
        assert upstream.requests[0]["messages"] == ASK
        turns = wait_for(lambda: len(memory.turns(STREAM)) == 2 and memory.turns(STREAM))
        assert [t.assistant for t in turns] == ["answer", "ok"]
        proxy.server.close()


# -- upstream failures ----------------------------------------------------------------------


@pytest.mark.parametrize("stream", [False, True])
def test_an_upstream_500_is_a_502_and_nothing_is_recorded(
    upstream: FakeUpstream, start_proxy: ProxyFactory, stream: bool
) -> None:
    proxy = start_proxy()
    upstream.add(Fail(500, "the model fell over"))
    body = {"model": "m", "messages": ASK, "stream": stream}

    response = proxy.http().post("/chat/completions", json=body, headers=HEADERS)

    assert response.status_code == 502
    error = response.json()["error"]
    assert error["code"] == "upstream_error"
    assert "500" in error["message"] and "the model fell over" in error["message"]
    assert [t.user for t in recorded_after_next_answer(proxy, upstream, STREAM)] == ["probe"]


@pytest.mark.parametrize("stream", [False, True])
def test_an_upstream_that_hangs_is_a_504_after_the_timeout(
    upstream: FakeUpstream, start_proxy: ProxyFactory, stream: bool
) -> None:
    proxy = start_proxy(timeout_seconds=0.5)
    # the first request loads the embedder and the reader, which on a busy machine takes
    # longer than the timeout; the probe after the hang must not be that request
    recorded_after_next_answer(proxy, upstream, "chat:warm-up")
    upstream.add(Hang())
    started = time.monotonic()

    with pytest.raises(openai.APIStatusError) as caught:
        proxy.openai().chat.completions.create(
            model="m", messages=ASK, stream=stream, extra_headers=HEADERS
        )

    assert caught.value.status_code == 504
    assert "0.5 seconds" in caught.value.message
    assert time.monotonic() - started < 5
    assert [t.user for t in recorded_after_next_answer(proxy, upstream, STREAM)] == ["probe"]


def test_an_upstream_that_stalls_mid_stream_ends_with_an_error_event(
    upstream: FakeUpstream, start_proxy: ProxyFactory
) -> None:
    proxy = start_proxy(timeout_seconds=0.5)
    upstream.add(Reply(["first", "second"], stall_after=1))
    received = []

    with pytest.raises(openai.APIError, match="stalled"):  # noqa: SIM117
        with proxy.openai().chat.completions.create(
            model="m", messages=ASK, stream=True, extra_headers=HEADERS
        ) as stream:
            for chunk in stream:
                if chunk.choices and chunk.choices[0].delta.content:
                    received.append(chunk.choices[0].delta.content)

    assert received == ["first"]
    assert [t.user for t in recorded_after_next_answer(proxy, upstream, STREAM)] == ["probe"]


def test_an_upstream_4xx_is_passed_through_and_not_recorded(
    upstream: FakeUpstream, start_proxy: ProxyFactory
) -> None:
    proxy = start_proxy()
    upstream.add(Fail(400, "unknown model"), Fail(401, "bad key"))

    with pytest.raises(openai.BadRequestError, match="unknown model"):
        proxy.openai().chat.completions.create(model="m", messages=ASK, extra_headers=HEADERS)
    streamed = proxy.http().post(
        "/chat/completions", json={"model": "m", "messages": ASK, "stream": True}, headers=HEADERS
    )

    assert streamed.status_code == 401
    assert streamed.json()["error"]["message"] == "bad key"
    assert [t.user for t in recorded_after_next_answer(proxy, upstream, STREAM)] == ["probe"]


def test_an_unreachable_upstream_is_a_502(start_proxy: ProxyFactory) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proxy = start_proxy(upstream=f"http://127.0.0.1:{port}/v1")

    response = proxy.http().post(
        "/chat/completions", json={"model": "m", "messages": ASK}, headers=HEADERS
    )

    assert response.status_code == 502
    assert response.json()["error"]["code"] == "upstream_unavailable"
    time.sleep(0.2)
    assert proxy.memory.turns(STREAM) == []


# -- headers and models ---------------------------------------------------------------------


def test_the_clients_key_goes_upstream_or_else_the_configured_one(
    upstream: FakeUpstream, start_proxy: ProxyFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PROXY_TEST_KEY", "sk-from-env")
    proxy = start_proxy(api_key_env="PROXY_TEST_KEY")
    body = {"model": "m", "messages": ASK}

    proxy.openai(api_key="sk-client").chat.completions.create(**body, extra_headers=HEADERS)
    proxy.http().post("/chat/completions", json=body, headers=HEADERS).raise_for_status()

    assert [h["authorization"] for h in upstream.headers] == [
        "Bearer sk-client",
        "Bearer sk-from-env",
    ]
    assert all("x-threefold-stream" not in h for h in upstream.headers)


def test_models_are_passed_through(upstream: FakeUpstream, start_proxy: ProxyFactory) -> None:
    proxy = start_proxy()

    models = proxy.openai().models.list()

    assert [m.id for m in models] == [FakeUpstream.model]
    assert upstream.headers[0]["authorization"] == "Bearer sk-client-key"


def test_models_come_from_the_upstream_as_it_answers(start_proxy: ProxyFactory) -> None:
    """Chat UIs list models before anything else: the proxy asks its upstream (here the
    shared fake OpenAI server) and passes on what it says, a 404 included."""
    with FakeOpenAIServer() as upstream:
        proxy = start_proxy(upstream=upstream.base_url)
        listed = proxy.openai().models.list()
        one = proxy.http().get("/models/no-such-model")
    assert [m.id for m in listed] == [upstream.model]
    assert one.status_code == 404 and "no route GET /v1/models/no-such-model" in one.text
