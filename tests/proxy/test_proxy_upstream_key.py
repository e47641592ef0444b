"""Which key reaches the upstream, as docs/how-to/proxy.md and `threefold proxy --help` say.

The client's OpenAI key is its threefold key; the upstream gets the key in
`proxy.api_key_env`. A client that keeps its own upstream key sends the threefold key in
X-API-Key. An upstream that refuses a request the proxy sent no key says why, in a header.
"""

import openai
import pytest

from tests.proxy.conftest import ProxyFactory
from tests.proxy.servers import Fail, FakeUpstream, Reply
from threefold.faces.cli import app

STREAM = "project:alpha"
ASK = {"model": "m", "messages": [{"role": "user", "content": "Who leads architecture?"}]}
HEADERS = {"X-Threefold-Stream": STREAM}


def test_the_documented_client_sends_its_threefold_key_and_the_upstream_gets_the_env_key(
    upstream: FakeUpstream, start_proxy: ProxyFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UPSTREAM_KEY_FOR_TEST", "sk-upstream")
    proxy = start_proxy(keys=True, api_key_env="UPSTREAM_KEY_FOR_TEST")
    _, secret = proxy.memory.create_key("acme", "full")
    upstream.add(Reply(["Raj."]))

    answer = proxy.openai(api_key=secret).chat.completions.create(**ASK, extra_headers=HEADERS)

    assert answer.choices[0].message.content == "Raj."
    assert upstream.headers[0]["authorization"] == "Bearer sk-upstream"
    with pytest.raises(openai.AuthenticationError, match="unknown or revoked"):
        proxy.openai(api_key="sk-an-openai-key").chat.completions.create(**ASK)


def test_an_upstream_refusing_a_request_sent_without_a_key_is_explained(
    upstream: FakeUpstream, start_proxy: ProxyFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("UPSTREAM_KEY_FOR_TEST", raising=False)
    proxy = start_proxy(keys=True, api_key_env="UPSTREAM_KEY_FOR_TEST")
    _, secret = proxy.memory.create_key("acme", "full")
    upstream.add(Fail(401, "Incorrect API key provided"))

    response = proxy.http().post(
        "/chat/completions", json=ASK, headers={**HEADERS, "Authorization": f"Bearer {secret}"}
    )

    assert response.status_code == 401
    assert response.json()["error"]["message"] == "Incorrect API key provided"
    assert "authorization" not in upstream.headers[0]
    warning = response.headers["x-threefold-warning"]
    assert "sent it no key" in warning and "UPSTREAM_KEY_FOR_TEST" in warning


def test_an_upstream_refusing_the_clients_own_key_gets_no_such_warning(
    upstream: FakeUpstream, start_proxy: ProxyFactory
) -> None:
    proxy = start_proxy(keys=True)
    _, secret = proxy.memory.create_key("acme", "full")
    upstream.add(Fail(401, "Incorrect API key provided"))

    response = proxy.http().post(
        "/chat/completions",
        json=ASK,
        headers={**HEADERS, "X-API-Key": secret, "Authorization": "Bearer sk-wrong"},
    )

    assert response.status_code == 401
    assert upstream.headers[0]["authorization"] == "Bearer sk-wrong"
    assert "x-threefold-warning" not in response.headers


def test_the_help_names_both_keys() -> None:
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, ["proxy", "--help"], env={"COLUMNS": "200"})

    text = " ".join(result.output.split())
    assert "OPENAI_API_KEY" in text and "X-API-Key" in text
