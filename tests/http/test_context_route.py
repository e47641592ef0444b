"""/v1/context answers the same, byte for byte, whichever way the request is put.

Plain GET and JSON POST requests are answered by the app's shortcut past FastAPI's routing;
a repeated query parameter or another JSON media type goes through the FastAPI route. Both
must give the same answers and the same errors.
"""

import json
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.http.conftest import Live

STREAM = "project:shortcut"


@pytest.fixture(scope="module")
def a(live: Live, client: httpx.Client) -> dict[str, str]:
    headers = live.headers("a")
    for line in ("Nadia owns the billing service.", "The billing freeze starts on May 4."):
        client.post("/v1/turns", headers=headers, json={"stream": STREAM, "user": line})
    live.settle()
    return headers


def _ways(client: httpx.Client, headers: dict[str, str], ask: dict) -> list[list[httpx.Response]]:
    """The same request as GETs and as POSTs, each group with one the shortcut answers and
    others that FastAPI reads (its errors name where a field was: query or body)."""
    params = {k: str(v) for k, v in ask.items()}
    repeated = httpx.QueryParams([("stream", "project:decoy"), *params.items()])
    gets = [
        client.get("/v1/context", headers=headers, params=params),
        client.get("/v1/context", headers=headers, params=repeated),  # the last one counts
    ]
    return [gets, _posts(client, headers, json.dumps(ask))]


def _posts(client: httpx.Client, headers: dict[str, str], body: str) -> list[httpx.Response]:
    def post(content_type: str) -> httpx.Response:
        typed = {**headers, "Content-Type": content_type}
        return client.post("/v1/context", headers=typed, content=body)

    return [
        post("application/json"),
        post("Application/JSON; charset=utf-8"),
        post("application/vnd.threefold+json"),
    ]


def _same(groups: list[list[httpx.Response]]) -> httpx.Response:
    """The one answer every way gave, but for where an error says a field was."""
    first = groups[0][0]
    for group in groups:
        for other in group:
            assert other.status_code == first.status_code, other.text
            assert other.content == group[0].content
            assert other.headers["content-type"] == first.headers["content-type"]
    if first.status_code == 200:
        assert {g[0].content for g in groups} == {first.content}
    return first


@pytest.mark.parametrize(
    "ask",
    [
        {"stream": STREAM, "query": "Who owns billing?", "budget": 600},
        {"stream": STREAM},
        {"stream": STREAM, "query": "", "budget": 1, "timezone": "Europe/Paris"},
        {"stream": STREAM, "query": "billing " * 400, "trust": "inner"},
    ],
)
def test_every_way_of_asking_gets_the_same_context(
    client: httpx.Client, a: dict, ask: dict
) -> None:
    answer = _same(_ways(client, a, ask))
    assert answer.status_code == 200, answer.text
    assert answer.json()["stream"] == STREAM


@pytest.mark.parametrize(
    ("ask", "status", "code"),
    [
        ({"stream": "no-colon"}, 422, "invalid_input"),  # refused by Memory.context()
        (
            {"stream": STREAM, "query": "what happened today?", "timezone": "Mars/Olympus"},
            422,
            "invalid_input",
        ),
        ({"stream": STREAM, "budget": 0}, 422, "invalid_input"),  # refused by the schema
        ({"stream": STREAM, "colour": "blue"}, 422, "invalid_input"),
    ],
)
def test_every_way_of_asking_gets_the_same_error(
    client: httpx.Client, a: dict, ask: dict, status: int, code: str
) -> None:
    answer = _same(_ways(client, a, ask))
    assert answer.status_code == status, answer.text
    assert answer.json()["error"]["code"] == code


def test_a_trust_above_the_keys_own_is_forbidden_either_way(
    live: Live, client: httpx.Client, a: dict
) -> None:
    inner = live.headers("a_inner")
    answer = _same(_ways(client, inner, {"stream": STREAM, "trust": "full"}))
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "forbidden"


def test_bodies_the_shortcut_leaves_alone_get_the_routes_errors(
    client: httpx.Client, a: dict
) -> None:
    def post(content: bytes, content_type: str | None) -> httpx.Response:
        headers = {**a, **({"Content-Type": content_type} if content_type else {})}
        return client.post("/v1/context", headers=headers, content=content)

    assert post(b'{"stream": ', "application/json").json()["error"]["code"] == "invalid_json"
    assert post(b"\xff\xfe{", "application/json").status_code == 400
    listed = post(json.dumps([{"stream": STREAM}]).encode(), "application/json")
    assert listed.status_code == 422
    untyped = post(json.dumps({"stream": STREAM}).encode(), None)
    assert untyped.json()["error"]["code"] == "unsupported_media_type"
    form = post(b"stream=project%3Ashortcut", "application/x-www-form-urlencoded")
    assert form.status_code == 415
    assert client.put("/v1/context", headers=a, json={"stream": STREAM}).status_code == 405
    assert client.head("/v1/context", headers=a, params={"stream": STREAM}).status_code == 405


def test_a_lone_surrogate_in_the_question_is_refused_either_way(
    client: httpx.Client, a: dict
) -> None:
    body = json.dumps({"stream": STREAM, "query": "who \ud800 owns billing"})  # as an escape
    answer = _same([_posts(client, a, body)])
    assert answer.status_code == 422 and "query" in answer.json()["error"]["message"]


@pytest.mark.parametrize(
    "ask",
    [
        {"stream": STREAM, "query": 'Wer ist zuständig? 日本語 "quoted" \\ tab\t \u2028 😀'},
        {"stream": STREAM, "budget": 300, "trust": "inner", "timezone": "Asia/Tokyo"},
    ],
)
def test_the_answer_is_the_contexts_own_json_byte_for_byte(
    live: Live, client: httpx.Client, a: dict, ask: dict
) -> None:
    """The shortcut sends the serializer's bytes as they are: they must be what
    Context.model_dump_json() gives, escapes, non-ASCII text and all."""
    said = 'Nadia said "ja" to the 日本 rollout \\ on\tMay 4 😀'
    client.post("/v1/turns", headers=a, json={"stream": STREAM, "user": said})
    live.settle()
    answer = client.get("/v1/context", headers=a, params={k: str(v) for k, v in ask.items()})
    assert answer.status_code == 200, answer.text
    expected = live.memory.context(
        STREAM,
        ask.get("query", ""),
        ask.get("budget"),
        trust=ask.get("trust", "full"),
        tenant="tenant-a",
        timezone=ask.get("timezone"),
    )
    assert answer.content == expected.model_dump_json().encode()


def test_concurrent_requests_each_get_their_own_answer(
    live: Live, client: httpx.Client, a: dict
) -> None:
    """Calls into the memory queue in one lane: twelve clients asking at once, each its own
    questions, every answer is the one its question gets alone, and a bad one its error."""
    questions = [f"Who owns billing, question {n}?" for n in range(36)]
    asks = [{"stream": STREAM, "query": q, "budget": 300 + n} for n, q in enumerate(questions)]
    # An error raised in the lane comes back to its own caller.
    asks[7].update(query="What happened today?", timezone="Mars/Olympus")

    def ask(params: dict) -> httpx.Response:
        with httpx.Client(base_url=live.url, timeout=30.0) as own:
            return own.get("/v1/context", headers=a, params=params)

    with ThreadPoolExecutor(max_workers=12) as pool:
        answers = list(pool.map(ask, asks))
    assert answers[7].status_code == 422
    for params, answer in zip(asks, answers, strict=True):
        if params is asks[7]:
            continue
        assert answer.status_code == 200, answer.text
        alone = live.memory.context(STREAM, params["query"], params["budget"], tenant="tenant-a")
        assert answer.content == alone.model_dump_json().encode()
