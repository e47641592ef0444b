"""Bad requests get a clear 4xx with the stable error shape and never a traceback."""

import json

import httpx
import pytest

from tests.http.conftest import MAX_BODY, Live


def _error(response: httpx.Response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) <= {"code", "message", "details"}
    assert body["error"]["code"] == code
    assert body["error"]["message"]
    for leak in ("Traceback", 'File "', "site-packages", "threefold/"):
        assert leak not in response.text
    return body["error"]


def test_an_oversized_body_is_413(live: Live, client: httpx.Client) -> None:
    big = {"stream": "project:big", "user": "x" * (MAX_BODY + 10)}
    error = _error(
        client.post("/v1/turns", headers=live.headers("a"), json=big), 413, "payload_too_large"
    )
    assert f"{MAX_BODY:,}" in error["message"]
    # the connection and the server stay usable, and nothing was stored
    turns = client.get("/v1/turns", headers=live.headers("a"), params={"stream": "project:big"})
    assert turns.status_code == 200 and turns.json()["turns"] == []


def test_an_oversized_chunked_body_is_413(live: Live, client: httpx.Client) -> None:
    def chunks():
        yield b'{"stream": "project:big", "user": "'
        for _ in range(MAX_BODY // 1024 + 8):
            yield b"y" * 1024
        yield b'"}'

    headers = {**live.headers("a"), "Content-Type": "application/json"}
    response = client.post("/v1/turns", headers=headers, content=chunks())
    assert response.request.headers.get("transfer-encoding") == "chunked"
    _error(response, 413, "payload_too_large")
    turns = client.get("/v1/turns", headers=live.headers("a"), params={"stream": "project:big"})
    assert turns.json()["turns"] == []


def test_a_body_just_under_the_limit_is_fine(live: Live, client: httpx.Client) -> None:
    body = {"stream": "project:big-ok", "user": "z" * (MAX_BODY - 200)}
    response = client.post("/v1/turns", headers=live.headers("a"), json=body)
    assert response.status_code == 201, response.text


@pytest.mark.parametrize(
    "content", [b'{"stream": "project:x", ', b"{'stream': 'project:x'}", b"\xff\xfe{}", b"nul"]
)
def test_invalid_json_is_400(live: Live, client: httpx.Client, content: bytes) -> None:
    headers = {**live.headers("a"), "Content-Type": "application/json"}
    _error(client.post("/v1/turns", headers=headers, content=content), 400, "invalid_json")


def test_a_body_that_is_not_json_is_415(live: Live, client: httpx.Client) -> None:
    headers = {**live.headers("a"), "Content-Type": "text/plain"}
    response = client.post("/v1/turns", headers=headers, content=b'{"stream": "project:x"}')
    _error(response, 415, "unsupported_media_type")


@pytest.mark.parametrize(
    "body",
    [
        {"stream": "project:x", "user": 5},
        [{"stream": "project:x"}],
        {"user": "no stream"},
        {"stream": "project:x", "user": "hi", "colour": "red"},
        {"stream": "project:x"},
    ],
)
def test_json_that_does_not_fit_is_422(live: Live, client: httpx.Client, body: object) -> None:
    response = client.post(
        "/v1/turns",
        headers={**live.headers("a"), "Content-Type": "application/json"},
        content=json.dumps(body),
    )
    _error(response, 422, "invalid_input")


@pytest.mark.parametrize(
    "stream", ["Project:Alpha", "no-colon", "project:has space", "project:", ":x", "x" * 300]
)
def test_an_invalid_stream_name_is_422(live: Live, client: httpx.Client, stream: str) -> None:
    a = live.headers("a")
    for response in (
        client.get("/v1/turns", headers=a, params={"stream": stream}),
        client.get("/v1/facts", headers=a, params={"stream": stream}),
        client.get("/v1/summaries", headers=a, params={"stream": stream}),
        client.post("/v1/context", headers=a, json={"stream": stream}),
        client.post("/v1/search", headers=a, json={"query": "x", "stream": stream}),
        client.post("/v1/turns", headers=a, json={"stream": stream, "user": "hi"}),
        client.post("/v1/sessions/end", headers=a, json={"stream": stream}),
    ):
        error = _error(response, 422, "invalid_input")
        if "stream" in error["message"]:
            assert "kind:id" in error["message"]


def test_a_valid_but_unused_stream_is_empty_not_an_error(live: Live, client: httpx.Client) -> None:
    a, params = live.headers("a"), {"stream": "project:never-used"}
    assert client.get("/v1/turns", headers=a, params=params).json()["turns"] == []
    assert client.get("/v1/facts", headers=a, params=params).json()["facts"] == []
    assert client.get("/v1/summaries", headers=a, params=params).json()["summaries"] == []
    ctx = client.get("/v1/context", headers=a, params={**params, "query": "anything"})
    assert ctx.status_code == 200
    section = {s["name"]: s for s in ctx.json()["sections"]}
    assert not section.get("recent_turns", {}).get("items")
    hits = client.post("/v1/search", headers=a, json={"query": "anything", **params})
    assert hits.status_code == 200 and hits.json()["hits"] == []


@pytest.mark.parametrize("budget", [0, -1, "lots", 1.5])
def test_a_bad_budget_is_422(live: Live, client: httpx.Client, budget: object) -> None:
    a = live.headers("a")
    post = client.post("/v1/context", headers=a, json={"stream": "project:x", "budget": budget})
    error = _error(post, 422, "invalid_input")
    assert "budget" in error["message"]
    get = client.get("/v1/context", headers=a, params={"stream": "project:x", "budget": budget})
    _error(get, 422, "invalid_input")


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/v1/turns", {"stream": "project:x", "limit": 0}),
        ("/v1/search", {"query": "x", "limit": 0}),
        ("/v1/search", {"query": "x", "kinds": "gossip"}),
        ("/v1/search", {"query": "x", "preset": "nonsense"}),
        ("/v1/summaries", {"stream": "project:x", "kind": "daily"}),
        ("/v1/context", {"stream": "project:x", "trust": "total"}),
        ("/v1/facts/0", {}),
        (f"/v1/facts/{2**64}", {}),
        ("/v1/facts/abc", {}),
        ("/v1/records", {"stream": "Not A Stream"}),
        ("/v1/records", {"stream": "project:x", "source": "email"}),
        ("/v1/records", {"stream": "project:x", "limit": 0}),
        ("/v1/timeline", {}),
        ("/v1/timeline", {"entity": "   "}),
        ("/v1/timeline", {"entity": "project:Not A Stream"}),
        ("/v1/timeline", {"entity": "priya", "limit": 1001}),
        ("/v1/timeline", {"entity": "priya", "trust": "total"}),
        ("/v1/imports/" + "f" * 65, {}),
    ],
)
def test_bad_parameters_are_422(live: Live, client: httpx.Client, path: str, params: dict) -> None:
    _error(client.get(path, headers=live.headers("a"), params=params), 422, "invalid_input")


def test_bad_fact_and_message_fields_are_422(live: Live, client: httpx.Client) -> None:
    a = live.headers("a")
    for path, body in (
        ("/v1/facts", {"stream": "project:x", "text": ""}),
        ("/v1/facts", {"stream": "project:x", "text": "t", "confidence": 1.5}),
        ("/v1/facts", {"stream": "project:x", "text": "t", "category": "gossip"}),
        ("/v1/facts", {"stream": "project:x", "text": "t", "visibility": "secret"}),
        ("/v1/turns", {"stream": "project:x", "user": "", "assistant": "  "}),
        ("/v1/ingest/message", {"channel": "C1", "user": "U1", "ts": "yesterday", "text": "x"}),
        ("/v1/ingest/message", {"channel": "C1", "user": "U1", "ts": "1.0", "text": ""}),
        (
            "/v1/ingest/message",
            {"channel": "C1", "user": "U1", "ts": "999999999999.1", "text": "x"},
        ),
        (
            "/v1/ingest/message",
            {"channel": "C1", "user": "U1", "ts": "1.0", "text": "x", "channel_kind": "group"},
        ),
        (
            "/v1/ingest/message",
            {"channel": "C1", "user": "U1", "ts": "1.0", "text": "x", "stream": "project:x"},
        ),
        ("/v1/ingest/message", {"channel": "C1", "user": "U1", "ts": "1.0", "text": "   "}),
        ("/v1/imports", {"kind": "slack"}),
    ):
        _error(client.post(path, headers=a, json=body), 422, "invalid_input")


def test_a_missing_fact_is_404(live: Live, client: httpx.Client) -> None:
    a = live.headers("a")
    _error(client.get("/v1/facts/987654", headers=a), 404, "not_found")
    _error(client.get("/v1/facts/987654/history", headers=a), 404, "not_found")
    _error(
        client.post("/v1/facts/987654/supersede", headers=a, json={"text": "x"}), 404, "not_found"
    )


def test_unknown_paths_and_methods(live: Live, client: httpx.Client) -> None:
    a = live.headers("a")
    _error(client.get("/v1/nothing-here", headers=a), 404, "not_found")
    _error(client.get("/nothing-here"), 404, "not_found")
    _error(client.get("/v1/sessions/end", headers=a), 405, "method_not_allowed")


def test_a_server_fault_is_a_plain_500(live: Live, client: httpx.Client) -> None:
    error = _error(client.get("/v1/_test/boom", headers=live.headers("a")), 500, "internal")
    assert "secret" not in error["message"] and "RuntimeError" not in error["message"]


def test_a_store_fault_is_503(live: Live, client: httpx.Client) -> None:
    response = client.get("/v1/_test/store-down", headers=live.headers("a"))
    error = _error(response, 503, "store_unavailable")
    assert "/var/lib" not in error["message"]
