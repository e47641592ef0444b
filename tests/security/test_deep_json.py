"""JSON nested past the parser's depth (issue 40, F4): every route that reads a JSON body,
on the HTTP API and the proxy, answers 400 invalid_json, never a 500."""

from collections.abc import Iterator

import httpx
import pytest

from tests.security.faces import Faces, faces
from threefold.domain import Trust
from threefold.faces.proxy.sse import StreamAnswer, json_answer

# In the CI profile of issue 40 (`make reliability`), see pyproject.toml.
pytestmark = pytest.mark.reliability

DEPTHS = (1_000, 100_000)


def _deep(depth: int) -> dict[str, bytes]:
    """An array nested `depth` deep, alone and as a field's value."""
    nested = b"[" * depth + b"]" * depth
    return {"alone": nested, "in a field": b'{"stream": "project:alpha", "query": ' + nested + b"}"}


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Faces]:
    with faces(tmp_path_factory.mktemp("deep")) as made:
        yield made


def _json_routes(bench: Faces) -> list[str]:
    """Every POST path of the API whose body is JSON, by its OpenAPI document."""
    paths = bench.http.app.openapi()["paths"]  # type: ignore[attr-defined]
    return [
        path.replace("{fact_id}", "1").replace("{action_id}", "1")
        for path, operations in paths.items()
        if "application/json"
        in operations.get("post", {}).get("requestBody", {}).get("content", {})
    ]


@pytest.mark.parametrize("depth", DEPTHS)
def test_every_json_route_answers_deep_json_with_400(bench: Faces, depth: int) -> None:
    routes = _json_routes(bench)
    assert {"/v1/context", "/v1/turns", "/v1/search", "/v1/facts"} <= set(routes)
    headers = {**bench.headers(Trust.FULL), "Content-Type": "application/json"}
    for route in routes:
        for shape, body in _deep(depth).items():
            answer = bench.http.post(route, content=body, headers=headers)
            assert answer.status_code == 400, (route, shape, answer.text)
            assert answer.json()["error"]["code"] == "invalid_json", (route, shape)
    # and the server still answers
    plain = bench.post(Trust.FULL, "/v1/context", {"stream": "project:alpha", "query": "hi"})
    assert plain.status_code == 200


@pytest.mark.parametrize("depth", DEPTHS)
def test_the_proxy_answers_deep_json_with_400(bench: Faces, depth: int) -> None:
    headers = {"Content-Type": "application/json", "X-Threefold-Stream": "project:alpha"}
    with httpx.Client(base_url=bench.proxy_url, timeout=30.0) as client:
        for shape, body in _deep(depth).items():
            answer = client.post("/chat/completions", content=body, headers=headers)
            assert answer.status_code == 400, (shape, answer.text)
            assert answer.json()["error"]["code"] == "invalid_json", shape
            assert "nested too deeply" in answer.json()["error"]["message"], shape


def test_an_upstreams_deep_json_is_read_as_no_answer() -> None:
    # Hostile input: an upstream answers with JSON nested past the parser's depth, whole
    # or as a streamed event; the proxy reads no answer from it instead of failing.
    deep = b'{"choices": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    assert json_answer(deep) == ""
    stream = StreamAnswer()
    stream.feed(b"data: " + deep + b"\n\n")
    assert stream.text == ""
