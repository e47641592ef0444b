"""The request reading and memory placing the proxy does, and its SSE reader."""

import pytest

from threefold.errors import InvalidInput, SettingsError
from threefold.faces.proxy import proxy_settings, run_proxy
from threefold.faces.proxy.inject import pick_stream, query_text, speaker_name, with_memory
from threefold.faces.proxy.sse import StreamAnswer, json_answer
from threefold.settings import load_settings


@pytest.mark.parametrize(
    ("header", "user", "expected"),
    [
        ("project:alpha", "alice", ("project:alpha", "header")),
        (None, "alice", ("user:alice", "user")),
        (None, "chat:8812", ("chat:8812", "user")),
        (None, "global", ("user:global", "user")),
        ("global", None, ("global", "header")),
        (None, None, (None, "")),
        ("  ", "", (None, "")),
    ],
)
def test_pick_stream(header, user, expected) -> None:
    assert pick_stream(header, user) == expected


@pytest.mark.parametrize(("header", "user"), [("Alpha", None), (None, "bob smith"), (None, 7)])
def test_pick_stream_refuses_invalid_names(header, user) -> None:
    with pytest.raises(InvalidInput):
        pick_stream(header, user)


def test_query_is_the_last_user_messages_text() -> None:
    messages = [
        {"role": "user", "content": "first"},
        {"role": "assistant", "content": "reply"},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "a"},
                {"type": "image_url"},
                {"type": "text", "text": "b"},
            ],
        },
        {"role": "tool", "content": "tool output"},
    ]
    assert query_text(messages) == "a\nb"
    assert query_text([{"role": "system", "content": "x"}]) == ""
    assert query_text("not a list") == ""


def test_memory_goes_before_the_clients_own_system_text() -> None:
    user = {"role": "user", "content": "hi"}
    assert with_memory([user], "MEM") == [{"role": "system", "content": "MEM"}, user]
    assert with_memory([{"role": "system", "content": "Be brief."}, user], "MEM") == [
        {"role": "system", "content": "MEM\n\nBe brief."},
        user,
    ]
    parts = [{"type": "text", "text": "Be brief."}]
    assert with_memory([{"role": "developer", "content": parts}, user], "MEM") == [
        {"role": "developer", "content": [{"type": "text", "text": "MEM"}, *parts]},
        user,
    ]


def test_stream_answer_reads_split_chunks() -> None:
    answer = StreamAnswer()
    events = (
        b'data: {"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}\n\n'
        b'data: {"choices":[{"index":0,"delta":{"content":"Hel"}},'
        b'{"index":1,"delta":{"content":"other"}}]}\r\n\r\n'
        b'data: {"choices":[{"index":0,"delta":{"content":"lo \xc3\xa9"},'
        b'"finish_reason":null}]}\n\n'
        b": keep-alive\n\n"
        b'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n'
        b"data: [DONE]\n\n"
    )
    for start in range(0, len(events), 7):  # cut anywhere, even inside a UTF-8 character
        answer.feed(events[start : start + 7])
        assert not answer.done or start + 7 >= len(events) - 2
    answer.end()
    assert (answer.text, answer.done, answer.complete) == ("Hello é", True, True)


def test_stream_answer_without_an_end_or_with_an_error_is_not_complete() -> None:
    cut = StreamAnswer()
    cut.feed(b'data: {"choices":[{"index":0,"delta":{"content":"Hel"}}]}\n\n')
    cut.end()
    assert (cut.text, cut.complete) == ("Hel", False)
    failed = StreamAnswer()
    failed.feed(b'data: {"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":"stop"}]}')
    failed.feed(b'\n\ndata: {"error": {"message": "boom"}}\n\ndata: [DONE]\n\n')
    failed.end()
    assert failed.complete is False


def test_json_answer() -> None:
    body = b'{"choices":[{"index":0,"message":{"role":"assistant","content":"hi"}}]}'
    assert json_answer(body) == "hi"
    assert json_answer(b'{"choices":[{"index":0,"message":{"content":null}}]}') == ""
    assert json_answer(b"not json") == ""


def test_proxy_options_are_validated() -> None:
    settings = load_settings()
    changed = proxy_settings(settings, upstream="http://up:1/v1", port=9000)
    assert (changed.proxy.upstream, changed.proxy.port, changed.proxy.host) == (
        "http://up:1/v1",
        9000,
        settings.proxy.host,
    )
    assert proxy_settings(settings) is settings
    with pytest.raises(SettingsError, match=r"proxy\.port"):
        proxy_settings(settings, port=70000)
    with pytest.raises(SettingsError, match="http"):
        run_proxy(settings, upstream="ftp://nowhere")


def test_speaker_is_the_name_of_the_last_user_message() -> None:
    messages = [
        {"role": "user", "name": "Melanie", "content": "hi"},
        {"role": "assistant", "content": "hello"},
        {"role": "user", "name": " Caroline ", "content": "I moved to Berlin."},
    ]
    assert speaker_name(messages) == "Caroline"
    assert speaker_name([{"role": "user", "content": "hi"}]) is None
    assert speaker_name([{"role": "user", "name": 7, "content": "hi"}]) is None
    assert speaker_name("not a list") is None
