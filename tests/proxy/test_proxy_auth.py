"""The proxy takes the HTTP API's keys: each request acts as its key's tenant and trust."""

import logging

import openai
import pytest

from tests.proxy.conftest import Proxy, ProxyFactory
from tests.proxy.servers import FakeUpstream, Reply
from tests.proxy.test_proxy import wait_for
from threefold.errors import SettingsError
from threefold.faces.proxy import run_proxy

STREAM = "project:alpha"
ASK = {"model": "m", "messages": [{"role": "user", "content": "Who leads architecture?"}]}


@pytest.fixture
def proxy(start_proxy: ProxyFactory, monkeypatch: pytest.MonkeyPatch) -> Proxy:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-upstream-key")
    proxy = start_proxy(keys=True)
    proxy.memory.write_fact(STREAM, "Raj is the Lead Architect.", tenant="acme")
    return proxy


def ask(proxy: Proxy, headers: dict[str, str], stream: str | None = STREAM):
    named = {"X-Threefold-Stream": stream} if stream else {}
    return proxy.http().post("/chat/completions", json=ASK, headers={**named, **headers})


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def test_a_request_without_a_key_is_refused_and_goes_nowhere(
    proxy: Proxy, upstream: FakeUpstream
) -> None:
    response = ask(proxy, {})
    models = proxy.http().get("/models")
    assert response.status_code == 401 and models.status_code == 401
    error = response.json()["error"]
    assert error["code"] == "invalid_api_key" and "API key is required" in error["message"]
    assert response.headers["www-authenticate"] == "Bearer"
    assert upstream.requests == [] and upstream.headers == []
    assert proxy.memory.turns(STREAM, tenant="acme") == []


def test_an_unknown_or_revoked_key_is_refused(proxy: Proxy, upstream: FakeUpstream) -> None:
    key_id, secret = proxy.memory.create_key("acme", "full")
    assert proxy.memory.revoke_key(key_id)
    for headers in (bearer(secret), {"X-API-Key": secret}, bearer("tf_not-a-key")):
        response = ask(proxy, headers)
        assert response.status_code == 401, headers
        assert "unknown or revoked" in response.json()["error"]["message"]
    assert upstream.requests == []


def test_an_openai_client_uses_its_threefold_key_as_its_api_key(
    proxy: Proxy, upstream: FakeUpstream
) -> None:
    _, secret = proxy.memory.create_key("acme", "full")
    upstream.add(Reply(["Raj."]))
    answer = proxy.openai(api_key=secret).chat.completions.create(
        **ASK, extra_headers={"X-Threefold-Stream": STREAM}
    )
    assert answer.choices[0].message.content == "Raj."
    assert "Raj is the Lead Architect." in upstream.requests[0]["messages"][0]["content"]
    # The threefold key never reaches the upstream, which gets its own.
    assert upstream.headers[0]["authorization"] == "Bearer sk-upstream-key"
    turns = wait_for(lambda: proxy.memory.turns(STREAM, tenant="acme"))
    assert [(t.assistant, t.writer_key) for t in turns] == [("Raj.", 1)]
    with pytest.raises(openai.AuthenticationError):
        proxy.openai(api_key="sk-someone-elses").chat.completions.create(**ASK)


def test_a_key_in_x_api_key_lets_the_clients_own_authorization_through(
    proxy: Proxy, upstream: FakeUpstream
) -> None:
    _, secret = proxy.memory.create_key("acme", "full")
    response = ask(proxy, {"X-API-Key": secret, "Authorization": "Bearer sk-client"})
    assert response.status_code == 200
    assert upstream.headers[0]["authorization"] == "Bearer sk-client"
    assert "x-api-key" not in upstream.headers[0]


def test_another_tenants_key_reads_and_writes_only_its_own_tenant(
    proxy: Proxy, upstream: FakeUpstream
) -> None:
    _, globex = proxy.memory.create_key("globex", "full")
    upstream.add(Reply(["No idea."]))
    response = ask(proxy, bearer(globex))
    assert response.status_code == 200
    assert "Raj" not in upstream.requests[0]["messages"][0]["content"]
    turns = wait_for(lambda: proxy.memory.turns(STREAM, tenant="globex"))
    assert [t.assistant for t in turns] == ["No idea."]
    assert proxy.memory.turns(STREAM, tenant="acme") == []


def test_a_lower_trust_key_reads_at_its_trust_and_a_public_one_records_nothing(
    proxy: Proxy, upstream: FakeUpstream
) -> None:
    proxy.memory.write_fact(STREAM, "Lena is the PM.", visibility="social", tenant="acme")
    _, familiar = proxy.memory.create_key("acme", "familiar")
    _, public = proxy.memory.create_key("acme", "public")
    assert ask(proxy, bearer(familiar)).status_code == 200
    system = upstream.requests[0]["messages"][0]["content"]
    assert "Lena is the PM." in system and "Raj" not in system  # Raj's fact is private
    turns = wait_for(lambda: proxy.memory.turns(STREAM, tenant="acme"))
    assert [t.writer_trust for t in turns] == ["familiar"]
    response = ask(proxy, bearer(public))
    assert response.status_code == 200
    assert "Lena" not in upstream.requests[1]["messages"][0]["content"]
    assert "trust 'public'" in response.headers["x-threefold-warning"]
    ask(proxy, bearer(familiar))  # recorded after the public one would have been
    turns = wait_for(lambda: (t := proxy.memory.turns(STREAM, tenant="acme")) and len(t) > 1 and t)
    assert [t.writer_trust for t in turns] == ["familiar", "familiar"]


def test_a_request_naming_no_stream_is_warned_in_a_header_and_the_log(
    proxy: Proxy, upstream: FakeUpstream, caplog: pytest.LogCaptureFixture
) -> None:
    _, secret = proxy.memory.create_key("acme", "full")
    with caplog.at_level(logging.WARNING, logger="threefold.faces.proxy"):
        response = ask(proxy, bearer(secret), stream=None)
    assert response.status_code == 200
    assert "X-Threefold-Stream" in response.headers["x-threefold-warning"]
    assert "no stream named" in caplog.text
    assert upstream.requests[0]["messages"] == ASK["messages"]


def test_no_auth_is_for_loopback_only(start_proxy: ProxyFactory, upstream: FakeUpstream) -> None:
    from threefold import load_settings

    with pytest.raises(SettingsError, match="loopback"):
        run_proxy(load_settings(), upstream=upstream.url, host="0.0.0.0", no_auth=True)
