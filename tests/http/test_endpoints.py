"""The happy path of every endpoint, over real HTTP."""

from datetime import UTC, datetime

import httpx
import pytest

from tests.http.conftest import Live

STREAM = "project:alpha"


@pytest.fixture(scope="module")
def a(live: Live) -> dict[str, str]:
    return live.headers("a")


def test_turns_add_and_list(live: Live, client: httpx.Client, a: dict) -> None:
    at = "2026-10-05T09:30:00Z"
    response = client.post(
        "/v1/turns",
        headers=a,
        json={
            "stream": STREAM,
            "user": "No, Raj is the Lead Architect.",
            "assistant": "Noted.",
            "at": at,
            "page_context": "standup",
            "model_variant": "m1",
        },
    )
    assert response.status_code == 201, response.text
    turn = response.json()
    assert turn["tenant"] == "tenant-a" and turn["stream"] == STREAM
    assert turn["at"].startswith("2026-10-05T09:30") and turn["visibility"] == "private"
    client.post("/v1/turns", headers=a, json={"stream": STREAM, "user": "The demo is Friday."})
    listed = client.get("/v1/turns", headers=a, params={"stream": STREAM}).json()
    assert [t["user"] for t in listed["turns"]][-2:] == [
        "No, Raj is the Lead Architect.",
        "The demo is Friday.",
    ]
    newest = client.get("/v1/turns", headers=a, params={"stream": STREAM, "limit": 1}).json()
    assert [t["user"] for t in newest["turns"]] == ["The demo is Friday."]


def test_context_post_and_get(live: Live, client: httpx.Client, a: dict) -> None:
    client.post("/v1/turns", headers=a, json={"stream": STREAM, "user": "No, Raj is the CTO."})
    live.settle()
    body = {"stream": STREAM, "query": "Who is Raj?", "budget": 800}
    post = client.post("/v1/context", headers=a, json=body)
    assert post.status_code == 200, post.text
    ctx = post.json()
    assert ctx["stream"] == STREAM and ctx["budget"] == 800 and ctx["tokens"] <= 800
    assert "Raj" in ctx["text"]
    assert {s["name"] for s in ctx["sections"]} >= {"stream_facts", "recent_turns"}
    assert ctx["messages"][-1]["content"].endswith("Who is Raj?")
    get = client.get("/v1/context", headers=a, params=body)
    assert get.status_code == 200 and get.json()["text"] == ctx["text"]
    tiny = client.get("/v1/context", headers=a, params={**body, "budget": 40}).json()
    assert tiny["tokens"] <= 40 and tiny["dropped"]


def test_facts_write_get_list(client: httpx.Client, a: dict) -> None:
    written = client.post(
        "/v1/facts",
        headers=a,
        json={
            "stream": STREAM,
            "text": "The launch is on March 27.",
            "category": "deadline",
            "subject": "launch",
            "slot": "date",
            "value": "March 27",
            "confidence": 0.9,
        },
    )
    assert written.status_code == 201, written.text
    fact = written.json()
    assert fact["category"] == "deadline" and fact["slot"] == "date" and fact["status"] == "active"
    assert client.get(f"/v1/facts/{fact['id']}", headers=a).json() == fact
    listed = client.get("/v1/facts", headers=a, params={"stream": STREAM}).json()["facts"]
    assert fact["id"] in [f["id"] for f in listed]


def test_supersede_and_history(client: httpx.Client, a: dict) -> None:
    old = client.post(
        "/v1/facts",
        headers=a,
        json={
            "stream": STREAM,
            "text": "The budget owner is Mia.",
            "subject": "budget",
            "slot": "owner",
            "value": "Mia",
            "confidence": 0.8,
        },
    ).json()
    response = client.post(
        f"/v1/facts/{old['id']}/supersede",
        headers=a,
        json={"text": "The budget owner is Tom.", "value": "Tom"},
    )
    assert response.status_code == 201, response.text
    new = response.json()
    assert new["status"] == "active" and new["supersedes"] == old["id"]
    assert (new["subject"], new["slot"], new["confidence"]) == ("budget", "owner", 1.0)
    assert client.get(f"/v1/facts/{old['id']}", headers=a).json()["status"] == "superseded"
    active = client.get("/v1/facts", headers=a, params={"stream": STREAM}).json()["facts"]
    assert old["id"] not in [f["id"] for f in active]
    everything = client.get(
        "/v1/facts", headers=a, params={"stream": STREAM, "include_inactive": True}
    ).json()
    assert old["id"] in [f["id"] for f in everything["facts"]]
    history = client.get(f"/v1/facts/{old['id']}/history", headers=a).json()
    assert [f["id"] for f in history["chain"]] == [old["id"], new["id"]]
    assert "SUPERSEDE" in [c["action"] for c in history["changes"]]
    # a weaker claim on the slot is kept but outranked
    weak = client.post(
        f"/v1/facts/{new['id']}/supersede",
        headers=a,
        json={"text": "The budget owner is Ann.", "confidence": 0.5},
    ).json()
    assert weak["status"] == "outranked"


def test_search(live: Live, client: httpx.Client, a: dict) -> None:
    client.post(
        "/v1/turns",
        headers=a,
        json={
            "stream": "project:search",
            "user": "The badge vendor is Acme Access Ltd.",
        },
    )
    live.settle()
    post = client.post("/v1/search", headers=a, json={"query": "badge vendor", "limit": 5})
    assert post.status_code == 200, post.text
    hits = post.json()["hits"]
    assert hits and all(h["stream"] for h in hits) and "badge" in hits[0]["text"].lower()
    only_turns = client.get(
        "/v1/search",
        headers=a,
        params={
            "query": "badge vendor",
            "stream": "project:search",
            "kinds": ["turn"],
            "preset": "keywords",
        },
    ).json()["hits"]
    assert only_turns and {h["kind"] for h in only_turns} == {"turn"}
    two = client.get(
        "/v1/search",
        headers=a,
        params=[
            ("query", "badge vendor"),
            ("kinds", "turn"),
            ("kinds", "fact"),
        ],
    ).json()["hits"]
    assert {h["kind"] for h in two} <= {"turn", "fact"}


def test_a_search_hit_that_states_a_superseded_value_carries_now(
    live: Live, client: httpx.Client, a: dict
) -> None:
    for n, said in enumerate(["I work at Stripe as a backend engineer.", "I work at Figma now."]):
        at = f"2026-10-0{5 + n}T09:00:00Z"
        turn = {"stream": "chat:jobs", "user": said, "at": at}
        assert client.post("/v1/turns", headers=a, json=turn).status_code == 201
    live.settle()
    query = {"query": "where do I work", "stream": "chat:jobs"}
    hits = client.post("/v1/search", headers=a, json=query).json()["hits"]
    [old] = [h for h in hits if "Stripe" in h["text"]]
    [now] = old["now"]
    figma = client.get(f"/v1/facts/{now['id']}", headers=a).json()
    assert now["text"] == figma["text"] == "The user works at Figma."
    assert figma["status"] == "active"
    assert all(h["now"] == [] for h in hits if h is not old)
    hit_schema = client.get("/openapi.json").json()["components"]["schemas"]["SearchHit"]
    assert "now" in hit_schema["properties"]


def test_a_doubted_fact_hit_carries_doubted_by(live: Live, client: httpx.Client, a: dict) -> None:
    said = ["I live in Leeds.", "so we're kinda in Perth now I guess"]
    for n, user in enumerate(said):
        turn = {"stream": "chat:home", "user": user, "at": f"2026-10-0{5 + n}T09:00:00Z"}
        added = client.post("/v1/turns", headers=a, json=turn)
        assert added.status_code == 201
    live.settle()
    query = {"query": "where does the user live", "stream": "chat:home", "kinds": ["fact"]}
    [leeds] = client.post("/v1/search", headers=a, json=query).json()["hits"]
    assert leeds["text"] == "The user lives in Leeds."
    assert leeds["doubted_by"] == {"kind": "turn", "id": str(added.json()["id"]), "at": turn["at"]}
    hit_schema = client.get("/openapi.json").json()["components"]["schemas"]["SearchHit"]
    assert "doubted_by" in hit_schema["properties"]


def test_sessions_end_refresh_and_summaries(live: Live, client: httpx.Client, a: dict) -> None:
    stream = "chat:sessions"
    for line in (
        "We picked Postgres for the ledger.",
        "Mia will draft the API spec by Monday.",
        "The load test is blocked on staging access.",
    ):
        client.post("/v1/turns", headers=a, json={"stream": stream, "user": line})
    ended = client.post("/v1/sessions/end", headers=a, json={"stream": stream})
    assert ended.status_code == 202 and ended.json() == {"stream": stream, "status": "queued"}
    live.settle()
    sessions = client.get(
        "/v1/summaries", headers=a, params={"stream": stream, "kind": "session"}
    ).json()
    assert len(sessions["summaries"]) == 1 and sessions["summaries"][0]["kind"] == "session"
    refreshed = client.post("/v1/sessions/refresh", headers=a, json={"stream": stream})
    assert refreshed.status_code == 200, refreshed.text
    summary = refreshed.json()["summary"]
    assert summary is not None and summary["kind"] == "active"
    every = client.get("/v1/summaries", headers=a, params={"stream": stream}).json()
    assert {s["kind"] for s in every["summaries"]} >= {"session", "active"}


def test_ingest_message(live: Live, client: httpx.Client, a: dict) -> None:
    message = {
        "channel": "#apollo-eng",
        "user": "raj",
        "ts": "1712345678.000200",
        "text": "Deploy is frozen until Monday.",
        "thread_ts": "1712345600.000100",
    }
    response = client.post("/v1/ingest/message", headers=a, json=message)
    assert response.status_code == 201, response.text
    assert response.json() == {"stream": "project:apollo", "duplicate": False}
    [record] = client.get(
        "/v1/records", headers=a, params={"stream": "project:apollo", "source": "slack"}
    ).json()["records"]
    assert (record["channel"], record["author"], record["text"]) == (
        "apollo-eng",
        "raj",
        "Deploy is frozen until Monday.",
    )
    assert (record["external_id"], record["thread"]) == ("1712345678.000200", "1712345600.000100")
    assert datetime.fromisoformat(record["at"]) == datetime.fromtimestamp(1712345678.0002, UTC)
    assert record["route_method"] == "channel" and record["visibility"] == "shared"
    elsewhere = client.post(
        "/v1/ingest/message",
        headers=a,
        json={"channel": "C1", "user": "mia", "ts": "1712345999", "text": "Hi"},
    )
    assert elsewhere.status_code == 201 and elsewhere.json()["stream"] == "global"


def test_an_inner_key_writes_what_it_can_read(live: Live, client: httpx.Client) -> None:
    inner = live.headers("a_inner")
    turn = client.post("/v1/turns", headers=inner, json={"stream": "chat:inner", "user": "hi"})
    assert turn.json()["visibility"] == "shared"
    listed = client.get("/v1/turns", headers=inner, params={"stream": "chat:inner"}).json()
    assert [t["id"] for t in listed["turns"]] == [turn.json()["id"]]


def test_stats(live: Live, client: httpx.Client) -> None:
    b = live.headers("b")
    client.post("/v1/turns", headers=b, json={"stream": "project:stats", "user": "one"})
    client.post("/v1/turns", headers=b, json={"stream": "project:stats", "user": "two"})
    client.post("/v1/facts", headers=b, json={"stream": "project:stats", "text": "Ops is Lee."})
    stats = client.get("/v1/stats", headers=b).json()
    assert stats["tenant"] == "tenant-b"
    row = next(s for s in stats["streams"] if s["stream"] == "project:stats")
    assert row["turns"] == 2 and row["facts"] >= 1 and row["active_facts"] >= 1
    assert stats["totals"]["turns"] == sum(s["turns"] for s in stats["streams"])
