"""Keys, tenants and trust, over real HTTP against a running server."""

import httpx
import pytest

from tests.http.conftest import Live
from threefold import Memory


def _error(response: httpx.Response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    assert body["error"]["code"] == code
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert "Traceback" not in response.text
    return body["error"]


@pytest.fixture(scope="module")
def tenant_b(live: Live, client: httpx.Client) -> dict:
    """Tenant B's private items, all about zebrafish, on a stream name tenant A uses too."""
    b = live.headers("b")
    turn = client.post(
        "/v1/turns",
        headers=b,
        json={"stream": "project:shared-name", "user": "The zebrafish tank budget is 9000 euros."},
    ).json()
    fact = client.post(
        "/v1/facts",
        headers=b,
        json={
            "stream": "project:shared-name",
            "text": "Zebrafish feeding is at 7am.",
            "subject": "zebrafish",
            "slot": "feeding",
            "category": "recurring",
        },
    ).json()
    live.settle()
    return {"turn": turn, "fact": fact}


def test_health_and_docs_need_no_key(client: httpx.Client) -> None:
    assert client.get("/health").json()["status"] == "ok"
    assert client.get("/docs").status_code == 200
    spec = client.get("/openapi.json").json()
    assert "/v1/context" in spec["paths"]
    assert {"HTTPBearer", "APIKeyHeader"} <= set(spec["components"]["securitySchemes"])


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/v1/turns?stream=project:x"),
        ("POST", "/v1/turns"),
        ("GET", "/v1/stats"),
        ("GET", "/v1/facts/1"),
        ("POST", "/v1/context"),
        ("GET", "/v1/nowhere"),
    ],
)
def test_a_missing_key_is_401(client: httpx.Client, method: str, path: str) -> None:
    response = client.request(method, path, json={"stream": "project:x"})
    _error(response, 401, "unauthorized")
    assert response.headers["www-authenticate"] == "Bearer"


def test_a_missing_key_is_401_even_with_a_broken_body(client: httpx.Client) -> None:
    response = client.post(
        "/v1/turns", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    _error(response, 401, "unauthorized")


@pytest.mark.parametrize(
    "headers",
    [
        {"Authorization": "Bearer tf_not-a-real-key"},
        {"Authorization": "Bearer"},
        {"Authorization": "Bearer  x"},
        {"Authorization": "Basic dXNlcjpwYXNz"},
        {"X-API-Key": "tf_wrong"},
        {"X-API-Key": "no-prefix"},
    ],
)
def test_an_unknown_key_is_401(client: httpx.Client, headers: dict) -> None:
    _error(client.get("/v1/stats", headers=headers), 401, "unauthorized")


def test_the_key_can_go_in_x_api_key(live: Live, client: httpx.Client) -> None:
    response = client.get("/v1/stats", headers={"X-API-Key": live.keys["a"]})
    assert response.status_code == 200
    assert response.json()["tenant"] == "tenant-a"


def test_a_revoked_key_is_401(live: Live, client: httpx.Client) -> None:
    secret = live.add_key("to_revoke", "tenant-a", "full")
    headers = {"Authorization": f"Bearer {secret}"}
    assert client.get("/v1/stats", headers=headers).status_code == 200
    assert live.memory.store.revoke_api_key(live.key_ids["to_revoke"])
    _error(client.get("/v1/stats", headers=headers), 401, "unauthorized")


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_a_remembered_key_revoked_elsewhere_is_refused_at_once(
    live: Live, client: httpx.Client, method: str
) -> None:
    """The context path takes a key it has seen without a lookup of its own: the one its
    handler makes must still refuse the key on the very next request after a revocation
    by another process (here another connection to the same file, as `threefold keys
    revoke` is)."""
    secret = live.add_key(f"remembered_{method}", "tenant-a", "full")
    headers = {"Authorization": f"Bearer {secret}"}
    ask = {"stream": "project:remembered", "query": "what is remembered?"}

    def context() -> httpx.Response:
        if method == "GET":
            return client.get("/v1/context", headers=headers, params=ask)
        return client.post("/v1/context", headers=headers, json=ask)

    for _ in range(3):  # the key is remembered after the first
        assert context().status_code == 200
    with Memory.open(settings=live.memory.settings, background_worker=False) as other:
        assert other.revoke_key(live.key_ids[f"remembered_{method}"])
    _error(context(), 401, "unauthorized")
    _error(context(), 401, "unauthorized")  # and forgotten, not taken again
    _error(client.get("/v1/stats", headers=headers), 401, "unauthorized")


def test_a_key_revoked_in_this_process_is_refused_at_once_on_the_context_path(
    live: Live, client: httpx.Client
) -> None:
    secret = live.add_key("remembered_here", "tenant-a", "full")
    headers = {"Authorization": f"Bearer {secret}"}
    ask = {"stream": "project:remembered", "query": "anything"}
    assert client.post("/v1/context", headers=headers, json=ask).status_code == 200
    assert live.memory.revoke_key(live.key_ids["remembered_here"])
    _error(client.post("/v1/context", headers=headers, json=ask), 401, "unauthorized")


def test_tenant_a_gets_404_for_tenant_b_fact(
    live: Live, client: httpx.Client, tenant_b: dict
) -> None:
    fact_id = tenant_b["fact"]["id"]
    assert client.get(f"/v1/facts/{fact_id}", headers=live.headers("b")).status_code == 200
    a = live.headers("a")
    for path in (f"/v1/facts/{fact_id}", f"/v1/facts/{fact_id}/history"):
        _error(client.get(path, headers=a), 404, "not_found")
    supersede = client.post(
        f"/v1/facts/{fact_id}/supersede", headers=a, json={"text": "Feeding is at 9am."}
    )
    _error(supersede, 404, "not_found")
    # and B's fact is untouched
    assert client.get(f"/v1/facts/{fact_id}", headers=live.headers("b")).json()["status"] == (
        "active"
    )


def test_tenant_a_sees_none_of_tenant_b_in_search_context_or_lists(
    live: Live, client: httpx.Client, tenant_b: dict
) -> None:
    a = live.headers("a")
    hits = client.post("/v1/search", headers=a, json={"query": "zebrafish feeding tank"})
    assert hits.status_code == 200 and hits.json()["hits"] == []
    hits = client.get(
        "/v1/search", headers=a, params={"query": "zebrafish", "stream": "project:shared-name"}
    )
    assert hits.json()["hits"] == []
    ctx = client.post(
        "/v1/context",
        headers=a,
        json={"stream": "project:shared-name", "query": "zebrafish feeding"},
    )
    assert ctx.status_code == 200
    for section in ctx.json()["sections"]:
        if section["name"] != "query":  # the question itself names zebrafish
            assert "zebrafish" not in str(section).lower()
    for path in ("/v1/turns", "/v1/facts", "/v1/summaries"):
        listed = client.get(path, headers=a, params={"stream": "project:shared-name"})
        assert "zebrafish" not in listed.text.lower()
    stats = client.get("/v1/stats", headers=a).json()
    assert "project:shared-name" not in [s["stream"] for s in stats["streams"]]
    # while B itself finds them
    mine = client.post("/v1/search", headers=live.headers("b"), json={"query": "zebrafish"})
    assert {h["kind"] for h in mine.json()["hits"]} >= {"fact", "turn"}


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/v1/turns", {"stream": "project:p", "user": "hello"}),
        ("POST", "/v1/facts", {"stream": "project:p", "text": "Raj is the PM."}),
        ("POST", "/v1/facts/1/supersede", {"text": "Raj is the CTO."}),
        ("POST", "/v1/sessions/end", {"stream": "project:p"}),
        ("POST", "/v1/sessions/refresh", {"stream": "project:p"}),
        (
            "POST",
            "/v1/ingest/message",
            {"channel": "C1", "user": "U1", "ts": "1712345678.000200", "text": "hi"},
        ),
    ],
)
def test_a_public_key_cannot_write(
    live: Live, client: httpx.Client, method: str, path: str, body: dict
) -> None:
    response = client.request(method, path, json=body, headers=live.headers("a_public"))
    _error(response, 403, "forbidden")


def test_a_public_key_cannot_upload(live: Live, client: httpx.Client) -> None:
    response = client.post(
        "/v1/imports",
        headers=live.headers("a_public"),
        data={"kind": "jira"},
        files={"file": ("x.csv", b"a,b\n")},
    )
    _error(response, 403, "forbidden")


def test_a_public_key_reads_nothing_private(live: Live, client: httpx.Client) -> None:
    a = live.headers("a")
    client.post(
        "/v1/turns",
        headers=a,
        json={
            "stream": "project:vis",
            "user": "The okapi launch code is 4471.",
        },
    )
    client.post(
        "/v1/turns",
        headers=a,
        json={
            "stream": "project:vis",
            "user": "The okapi picnic is on Friday.",
            "visibility": "social",
        },
    )
    private = client.post(
        "/v1/facts",
        headers=a,
        json={
            "stream": "project:vis",
            "text": "The okapi safe combination is 8812.",
        },
    ).json()
    assert private["visibility"] == "private"
    live.settle()
    public = live.headers("a_public")
    ctx = client.post(
        "/v1/context", headers=public, json={"stream": "project:vis", "query": "okapi"}
    )
    assert ctx.status_code == 200 and "4471" not in ctx.text and "8812" not in ctx.text
    hits = client.post("/v1/search", headers=public, json={"query": "okapi"}).json()["hits"]
    assert hits == []  # public trust reads nothing, not even social items
    turns = client.get("/v1/turns", headers=public, params={"stream": "project:vis"})
    assert turns.json()["turns"] == []
    facts = client.get("/v1/facts", headers=public, params={"stream": "project:vis"})
    assert facts.json()["facts"] == []
    _error(client.get(f"/v1/facts/{private['id']}", headers=public), 404, "not_found")
    _error(client.get(f"/v1/facts/{private['id']}/history", headers=public), 404, "not_found")
    # the full key sees all of it
    full = client.post("/v1/search", headers=a, json={"query": "okapi"}).json()["hits"]
    assert len(full) >= 3


def test_trust_can_be_lowered_never_raised(live: Live, client: httpx.Client) -> None:
    a, inner = live.headers("a"), live.headers("a_inner")
    client.post(
        "/v1/turns",
        headers=a,
        json={"stream": "project:trust", "user": "The vault password is walrus-42."},
    )
    client.post(
        "/v1/turns",
        headers=inner,
        json={"stream": "project:trust", "user": "The walrus meetup is Tuesday."},
    )
    live.settle()
    full = client.get("/v1/context", headers=a, params={"stream": "project:trust"})
    assert "walrus-42" in full.text and "meetup" in full.text
    lowered = client.get(
        "/v1/context", headers=a, params={"stream": "project:trust", "trust": "inner"}
    )
    assert lowered.status_code == 200
    assert "walrus-42" not in lowered.text and "meetup" in lowered.text
    own = client.post("/v1/context", headers=inner, json={"stream": "project:trust"})
    assert "walrus-42" not in own.text and "meetup" in own.text
    for request in (
        client.post(
            "/v1/context", headers=inner, json={"stream": "project:trust", "trust": "full"}
        ),
        client.post("/v1/search", headers=inner, json={"query": "walrus", "trust": "full"}),
        client.get(
            "/v1/context",
            headers=live.headers("a_public"),
            params={"stream": "project:trust", "trust": "familiar"},
        ),
    ):
        _error(request, 403, "forbidden")
