"""Browsing messages (GET /v1/messages) and searching fetched web pages (GET
/v1/web/search) against the real server: newest first, page by page, filtered, and only
what the key's tenant and trust may read."""

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest

from tests.http.conftest import PROJECT, _ServerThread
from threefold import Memory, load_settings
from threefold.domain import Visibility
from threefold.faces.http import create_app
from threefold.store.base import NewRecord
from threefold.trust.keys import create_key

APOLLO = PROJECT["stream"]
T0 = 1772442000  # 2026-03-02 09:00 UTC
SAID = [  # minutes after T0, channel, user, text, channel kind
    (0, "apollo-eng", "Priya", "APOLLO-1: the telemetry store is Postgres.", "public"),
    (1, "apollo-eng", "Raj", "I will write the migration guide by Friday.", "public"),
    (2, "general", "priya", "The quokka offsite is in Lisbon.", "public"),
    (3, "apollo-eng", "Mia", "Salary bands are final.", "private"),
    (4, "general", "Raj", "Lunch at noon?", "public"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, dict]]]:
    tmp: Path = tmp_path_factory.mktemp("browse")
    settings = load_settings(db=tmp / "memory.db", embed={"kind": "hashing"}, projects=[PROJECT])
    memory = Memory.open(settings=settings, background_worker=False)
    keys = {}
    for name, tenant, trust in (
        ("a", "acme", "full"),
        ("inner", "acme", "inner"),
        ("b", "globex", "full"),
    ):
        keys[name] = {"Authorization": f"Bearer {create_key(memory.store, tenant, trust)[1]}"}
    with _ServerThread(create_app(memory, settings)) as url:
        with httpx.Client(base_url=url, timeout=30.0) as client:
            for minutes, channel, user, text, kind in SAID:
                sent = {
                    "channel": channel,
                    "user": user,
                    "ts": f"{T0 + minutes * 60}.000100",
                    "text": text,
                    "channel_kind": kind,
                }
                answer = client.post("/v1/ingest/message", headers=keys["a"], json=sent)
                assert answer.status_code == 201, answer.text
        # Fetched pages, as a link's fetch stores them (the fetching is tested elsewhere).
        for n, (host, text) in enumerate(
            (
                ("wiki.example.com", "Telemetry design: Postgres holds the event store."),
                ("blog.example.com", "How we run Postgres backups nightly."),
            )
        ):
            page = NewRecord(
                tenant="acme",
                stream=APOLLO,
                source="web",
                channel=host,
                external_id=f"https://{host}/page{n}",
                author=host,
                text=text,
                kind="page",
                at=datetime.fromtimestamp(T0 + 600 + n, UTC),
                route_method="link",
                route_confidence=1.0,
                visibility=Visibility.SHARED,
                tokens=12,
            )
            with memory.store.transaction():
                memory.store.insert_record(page)
        memory.process_pending()
        yield url, keys
    memory.close()


@pytest.fixture(scope="module")
def client(server: tuple[str, dict]) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server[0], timeout=30.0) as http:
        yield http


@pytest.fixture(scope="module")
def keys(server: tuple[str, dict]) -> dict[str, dict]:
    return server[1]


def texts(client: httpx.Client, headers: dict, path: str = "/v1/messages", **params) -> list[str]:
    answer = client.get(path, headers=headers, params=params)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    return [item["text"] for item in body.get("records", body.get("hits", []))]


def test_messages_are_browsed_newest_first_page_by_page(client, keys):
    first = client.get("/v1/messages", headers=keys["a"], params={"limit": 2}).json()
    assert [r["text"] for r in first["records"]] == ["Lunch at noon?", "Salary bands are final."]
    second = client.get(
        "/v1/messages", headers=keys["a"], params={"limit": 2, "before": first["next_before"]}
    ).json()
    assert [r["text"] for r in second["records"]] == [
        "The quokka offsite is in Lisbon.",
        "I will write the migration guide by Friday.",
    ]
    last = client.get(
        "/v1/messages", headers=keys["a"], params={"limit": 2, "before": second["next_before"]}
    ).json()
    assert [r["text"] for r in last["records"]] == ["APOLLO-1: the telemetry store is Postgres."]
    assert last["next_before"] is None


def test_filters_narrow_the_listing(client, keys):
    a = keys["a"]
    assert texts(client, a, channel="#general") == [
        "Lunch at noon?",
        "The quokka offsite is in Lisbon.",
    ]
    assert texts(client, a, author="PRIYA") == [
        "The quokka offsite is in Lisbon.",
        "APOLLO-1: the telemetry store is Postgres.",
    ]
    assert texts(client, a, stream=APOLLO, until="2026-03-02T09:03:00Z") == [
        "I will write the migration guide by Friday.",
        "APOLLO-1: the telemetry store is Postgres.",
    ]
    assert texts(client, a, since="2026-03-02T09:04:00Z") == ["Lunch at noon?"]
    assert texts(client, a, source="web") == [
        "How we run Postgres backups nightly.",
        "Telemetry design: Postgres holds the event store.",
    ]


def test_only_what_the_key_may_read_is_listed(client, keys):
    assert "Salary bands are final." not in texts(client, keys["inner"])
    assert len(texts(client, keys["inner"])) == 4
    # A key asking for less trust than it has gets less.
    assert texts(client, keys["a"], trust="public") == []
    assert texts(client, keys["b"]) == []
    assert client.get("/v1/messages").status_code == 401


@pytest.mark.parametrize(
    ("params", "status"),
    [
        ({"limit": 0}, 422),
        ({"limit": 201}, 422),
        ({"before": 0}, 422),
        ({"before": "yesterday"}, 422),
        ({"source": "email"}, 422),
        ({"since": "not a time"}, 422),
        ({"stream": "no spaces allowed here"}, 422),
    ],
)
def test_bad_browse_input_is_refused_clearly(client, keys, params, status):
    answer = client.get("/v1/messages", headers=keys["a"], params=params)
    assert answer.status_code == status, answer.text
    assert answer.json()["error"]["message"]


def test_web_search_finds_the_fetched_pages_alone(client, keys):
    design = "wiki.example.com: Telemetry design: Postgres holds the event store."
    backups = "blog.example.com: How we run Postgres backups nightly."
    found = texts(client, keys["a"], "/v1/web/search", query="Postgres event store")
    # The Slack message about Postgres is no web page.
    assert found == [design, backups]
    assert texts(client, keys["a"], "/v1/web/search") == [backups, design]
    assert texts(client, keys["b"], "/v1/web/search", query="Postgres") == []
    assert client.get("/v1/web/search", headers=keys["a"], params={"limit": 0}).status_code == 422
