"""A JSON body the server cannot parse is a 400 that says why: too deeply nested, or not
UTF-8, each named as it is."""

import httpx

from tests.http.conftest import Live


def post(live: Live, client: httpx.Client, content: bytes) -> dict:
    headers = {**live.headers("a"), "Content-Type": "application/json"}
    response = client.post("/v1/context", headers=headers, content=content)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == "invalid_json"
    return error


def test_json_nested_too_deeply_is_said_so(live: Live, client: httpx.Client) -> None:
    error = post(live, client, b"[" * 50_000)

    assert error["message"] == "the request body's JSON is nested too deeply"


def test_a_body_that_is_not_utf8_is_said_so(live: Live, client: httpx.Client) -> None:
    error = post(live, client, b'{"stream": "project:x", "query": "caf\xe9"}')

    assert error["message"] == "the request body is not UTF-8 text"
