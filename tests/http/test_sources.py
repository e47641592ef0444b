"""Sources over HTTP: uploads imported in the background, live messages, records and
timelines, each seen only by its own tenant and at the key's trust."""

import csv
import io
import json
import re
import tempfile
import threading
import time
import zipfile
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.http.conftest import MAX_BODY, PROJECT, Live, _ServerThread
from threefold import Memory, load_settings
from threefold.faces.http import create_app
from threefold.sources.reroute import ROUTES_LEASE
from threefold.trust.keys import create_key

APOLLO = PROJECT["stream"]
T0 = 1772442000  # 2026-03-02 09:00 UTC
USERS = [
    {"id": "U1", "name": "priya", "profile": {"display_name": "Priya"}},
    {"id": "U2", "name": "raj", "profile": {"display_name": "Raj"}},
]
CHANNELS = [
    {"id": "C1", "name": "apollo-eng", "members": ["U1", "U2"]},
    {"id": "C2", "name": "general", "members": ["U1", "U2"]},
]
JIRA_HEADER = [
    "Summary",
    "Issue key",
    "Issue Type",
    "Status",
    "Assignee",
    "Reporter",
    "Created",
    "Updated",
    "Due Date",
]


def ts(minutes: int) -> str:
    return f"{T0 + minutes * 60}.000100"


def message(minutes: int, user: str, text: str, **extra: Any) -> dict[str, Any]:
    return {"type": "message", "ts": ts(minutes), "user": user, "text": text, **extra}


def slack_zip(path: Path, **more_files: Any) -> Path:
    """Two channels, four messages (one a join), as Slack exports them."""
    files: dict[str, Any] = {
        "users.json": USERS,
        "channels.json": CHANNELS,
        "apollo-eng/2026-03-02.json": [
            message(0, "U1", "We decided to use Postgres for the telemetry store."),
            message(1, "U2", "I will write the migration guide by Friday."),
            message(2, "U2", "", subtype="channel_join"),
        ],
        "general/2026-03-02.json": [
            message(10, "U1", "The quokka offsite is in Lisbon this year."),
        ],
        **more_files,
    }
    with zipfile.ZipFile(path, "w") as archive:
        for name, content in files.items():
            archive.writestr(name, content if isinstance(content, bytes) else json.dumps(content))
    return path


JIRA_ROWS = [
    [
        "Build the telemetry pipeline",
        "APOLLO-1",
        "Story",
        "In Progress",
        "Priya",
        "Raj",
        "01/Mar/26 9:00 AM",
        "10/Mar/26 4:00 PM",
        "20/Mar/26",
    ],
    [
        "Write the zeppelin runbook",
        "APOLLO-2",
        "Task",
        "To Do",
        "",
        "Raj",
        "02/Mar/26 9:00 AM",
        "11/Mar/26 4:00 PM",
        "",
    ],
]


def jira_csv(path: Path) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(JIRA_HEADER)
        writer.writerows(JIRA_ROWS)
    return path


def upload(client: httpx.Client, headers: dict[str, str], kind: str, path: Path) -> httpx.Response:
    return client.post(
        "/v1/imports",
        headers=headers,
        data={"kind": kind},
        files={"file": (path.name, path.read_bytes())},
    )


def imported(
    client: httpx.Client, headers: dict[str, str], kind: str, path: Path, timeout: float = 60
) -> dict[str, Any]:
    """Upload `path`, then poll its status URL until the import has ended."""
    started = upload(client, headers, kind, path)
    assert started.status_code == 202, started.text
    url = started.json()["status_url"]
    deadline = time.monotonic() + timeout
    while True:
        status = client.get(url, headers=headers)
        assert status.status_code == 200, status.text
        if status.json()["status"] in ("done", "failed"):
            return status.json()
        assert time.monotonic() < deadline, f"the import did not end in {timeout}s"
        time.sleep(0.05)


def test_a_slack_export_is_imported_in_the_background(
    live: Live, client: httpx.Client, tmp_path: Path
) -> None:
    a = live.headers("a")
    export = slack_zip(tmp_path / "export.zip")
    started = upload(client, a, "slack", export)
    assert started.status_code == 202, started.text
    body = started.json()
    assert re.fullmatch(r"[0-9a-f]{32}", body["id"])
    assert body == {"id": body["id"], "status": "queued", "status_url": f"/v1/imports/{body['id']}"}
    assert started.headers["location"] == body["status_url"]

    deadline = time.monotonic() + 60
    while (status := client.get(body["status_url"], headers=a).json())["status"] != "done":
        assert status["status"] in ("queued", "running"), status
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert (status["id"], status["kind"], status["error"]) == (body["id"], "slack", None)
    report = status["report"]
    assert report["source"] == "slack"
    assert (report["read"], report["kept"], report["duplicates"]) == (4, 3, 0)
    assert report["skipped"] == {"join": 1}
    assert report["routed"] == {APOLLO: 2, "global": 1}
    assert report["facts"] >= 1 and report["problems"] == []

    records = client.get("/v1/records", headers=a, params={"stream": APOLLO}).json()["records"]
    assert [(r["author"], r["text"]) for r in records] == [
        ("Priya", "We decided to use Postgres for the telemetry store."),
        ("Raj", "I will write the migration guide by Friday."),
    ]
    assert {r["source"] for r in records} == {"slack"} and records[0]["channel"] == "apollo-eng"
    priya = client.get("/v1/timeline", headers=a, params={"entity": "@priya"}).json()
    assert priya["entity"] == "@priya"
    assert {e["kind"] for e in priya["events"]} == {"record", "fact"}
    assert any("Postgres" in e["text"] for e in priya["events"] if e["kind"] == "record")
    times = [e["at"] for e in priya["events"]]
    assert times == sorted(times)
    general = client.get("/v1/timeline", headers=a, params={"entity": "#general"}).json()
    assert [e["stream"] for e in general["events"] if e["kind"] == "record"] == ["global"]
    hits = client.post(
        "/v1/search", headers=a, json={"query": "quokka offsite", "kinds": ["record"]}
    ).json()["hits"]
    assert hits and hits[0]["kind"] == "record" and "Lisbon" in hits[0]["text"]

    again = imported(client, a, "slack", export)
    assert again["status"] == "done" and again["id"] != body["id"]
    assert (again["report"]["kept"], again["report"]["duplicates"]) == (0, 3)


def test_a_jira_csv_is_imported(live: Live, client: httpx.Client, tmp_path: Path) -> None:
    a = live.headers("a")
    status = imported(client, a, "jira", jira_csv(tmp_path / "issues.csv"))
    assert status["status"] == "done", status
    report = status["report"]
    assert (report["source"], report["read"], report["kept"]) == ("jira", 2, 2)
    assert report["routed"] == {APOLLO: 2} and report["facts"] >= 2

    params = {"stream": APOLLO, "source": "jira"}
    records = client.get("/v1/records", headers=a, params=params).json()["records"]
    assert [r["external_id"].split("@")[0] for r in records] == ["APOLLO-1", "APOLLO-2"]
    assert {r["source"] for r in records} == {"jira"} and records[0]["author"] == "Raj"
    slack_only = client.get("/v1/records", headers=a, params={**params, "source": "slack"})
    assert {r["source"] for r in slack_only.json()["records"]} <= {"slack"}
    newest = client.get("/v1/records", headers=a, params={**params, "limit": 1}).json()
    assert [r["external_id"].split("@")[0] for r in newest["records"]] == ["APOLLO-2"]
    by_key = client.get("/v1/timeline", headers=a, params={"entity": "APOLLO"}).json()["events"]
    assert any("zeppelin runbook" in e["text"] for e in by_key)
    assert (
        by_key == client.get("/v1/timeline", headers=a, params={"entity": APOLLO}).json()["events"]
    )
    assert (
        len(
            client.get("/v1/timeline", headers=a, params={"entity": APOLLO, "limit": 1}).json()[
                "events"
            ]
        )
        == 1
    )


def test_a_malformed_day_file_is_a_problem_not_a_failure(
    live: Live, client: httpx.Client, tmp_path: Path
) -> None:
    bad_day = {"general/2026-03-03.json": b"{not json"}
    status = imported(client, live.headers("a"), "slack", slack_zip(tmp_path / "x.zip", **bad_day))
    assert status["status"] == "done", status
    [problem] = status["report"]["problems"]
    assert problem["path"] == "general/2026-03-03.json" and problem["error"]


@pytest.mark.parametrize(
    ("kind", "name", "content", "expected"),
    [
        ("slack", "notes.zip", None, "not a Slack export"),
        ("slack", "export.zip", b"this is not a zip at all", "not a Slack export"),
        ("jira", "people.csv", b"Name,Email\nAnn,ann@example.com\n", "not look like a Jira CSV"),
        ("jira", "empty.csv", b"", "is empty"),
    ],
)
def test_a_file_that_is_not_what_kind_says_fails_clearly(
    live: Live,
    client: httpx.Client,
    tmp_path: Path,
    kind: str,
    name: str,
    content: bytes | None,
    expected: str,
) -> None:
    path = tmp_path / name
    if content is None:  # a zip, but of something else
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("readme.txt", "just notes")
    else:
        path.write_bytes(content)
    status = imported(client, live.headers("a"), kind, path)
    assert status["status"] == "failed" and status["report"] is None
    assert expected in status["error"] and name in status["error"]
    for leak in ("Traceback", "threefold-import", tempfile.gettempdir()):
        assert leak not in status["error"]


def test_an_uploaded_zip_bomb_is_refused_in_the_report(
    live: Live, client: httpx.Client, tmp_path: Path
) -> None:
    # Attack: a 40 KiB upload whose day file inflates to 40 MiB, over the 8 MiB default.
    archive = slack_zip(tmp_path / "bomb.zip")
    with (
        zipfile.ZipFile(archive, "a", zipfile.ZIP_DEFLATED, compresslevel=9) as bomb,
        bomb.open("general/2026-03-04.json", "w") as member,
    ):
        for _ in range(40):
            member.write(b" " * 1024 * 1024)
    assert archive.stat().st_size < MAX_BODY
    status = imported(client, live.headers("a"), "slack", archive)
    assert status["status"] == "done", status
    [problem] = status["report"]["problems"]
    assert problem["path"] == "general/2026-03-04.json"
    assert "refused" in problem["error"] and "imports.max_file_bytes" in problem["error"]


def test_upload_temp_files_are_removed(
    live: Live, client: httpx.Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    uploads = tmp_path / "uploads"
    uploads.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(uploads))
    a = live.headers("a")
    assert imported(client, a, "jira", jira_csv(tmp_path / "ok.csv"))["status"] == "done"
    (tmp_path / "bad.csv").write_text("Name\nAnn\n")
    assert imported(client, a, "jira", tmp_path / "bad.csv")["status"] == "failed"
    assert list(uploads.iterdir()) == []


def test_another_tenant_sees_no_import_record_or_timeline(
    live: Live, client: httpx.Client, tmp_path: Path
) -> None:
    a, b = live.headers("a"), live.headers("b")
    started = upload(client, a, "slack", slack_zip(tmp_path / "export.zip")).json()
    other = client.get(started["status_url"], headers=b)
    assert other.status_code == 404 and other.json()["error"]["code"] == "not_found"
    assert imported(client, a, "jira", jira_csv(tmp_path / "issues.csv"))["status"] == "done"
    assert client.get("/v1/records", headers=b, params={"stream": APOLLO}).json()["records"] == []
    for entity in ("priya", "#general", "APOLLO", APOLLO):
        events = client.get("/v1/timeline", headers=b, params={"entity": entity}).json()
        assert events["events"] == [], entity
    hits = client.post("/v1/search", headers=b, json={"query": "quokka offsite"}).json()["hits"]
    assert hits == []
    unknown = client.get(f"/v1/imports/{'0' * 32}", headers=a)
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "not_found"


def test_ingesting_the_same_message_twice_is_a_duplicate(live: Live, client: httpx.Client) -> None:
    a = live.headers("a")
    sent = {"channel": "apollo-eng", "user": "mia", "ts": ts(30), "text": "The gate is at noon."}
    first = client.post("/v1/ingest/message", headers=a, json=sent)
    assert first.status_code == 201 and first.json() == {"stream": APOLLO, "duplicate": False}
    again = client.post("/v1/ingest/message", headers=a, json=sent)
    assert again.status_code == 200 and again.json() == {"stream": None, "duplicate": True}
    records = client.get("/v1/records", headers=a, params={"stream": APOLLO}).json()["records"]
    assert [r["text"] for r in records].count("The gate is at noon.") == 1
    # another tenant's identical message is its own, not a duplicate
    theirs = client.post("/v1/ingest/message", headers=live.headers("b"), json=sent)
    assert theirs.status_code == 201 and theirs.json()["duplicate"] is False


def test_private_channel_messages_are_read_only_with_full_trust(
    live: Live, client: httpx.Client
) -> None:
    a, inner = live.headers("a"), live.headers("a_inner")
    for minutes, kind, text in (
        (40, "private", "The salary bands are final."),
        (41, "public", "The canteen reopens Monday."),
    ):
        sent = {
            "channel": "apollo-eng",
            "user": "zed",
            "ts": ts(minutes),
            "text": text,
            "channel_kind": kind,
        }
        assert client.post("/v1/ingest/message", headers=a, json=sent).status_code == 201

    def texts(headers: dict[str, str], path: str, **params: str) -> list[str]:
        body = client.get(path, headers=headers, params=params).json()
        return [item["text"] for item in body.get("records", body.get("events", []))]

    assert any("salary" in t for t in texts(a, "/v1/records", stream=APOLLO))
    assert not any("salary" in t for t in texts(inner, "/v1/records", stream=APOLLO))
    assert any("canteen" in t for t in texts(inner, "/v1/records", stream=APOLLO))
    assert any("salary" in t for t in texts(a, "/v1/timeline", entity="zed"))
    assert not any("salary" in t for t in texts(inner, "/v1/timeline", entity="zed"))
    assert not any("salary" in t for t in texts(a, "/v1/timeline", entity="zed", trust="inner"))
    raised = client.get("/v1/timeline", headers=inner, params={"entity": "zed", "trust": "full"})
    assert raised.status_code == 403 and raised.json()["error"]["code"] == "forbidden"
    assert texts(live.headers("a_public"), "/v1/timeline", entity="zed") == []
    assert texts(live.headers("a_public"), "/v1/records", stream=APOLLO) == []


def test_a_public_key_cannot_import(live: Live, client: httpx.Client, tmp_path: Path) -> None:
    response = upload(client, live.headers("a_public"), "jira", jira_csv(tmp_path / "i.csv"))
    assert response.status_code == 403 and response.json()["error"]["code"] == "forbidden"


def test_an_import_without_a_file_or_kind_is_422(live: Live, client: httpx.Client) -> None:
    a = live.headers("a")
    no_file = client.post(
        "/v1/imports", headers=a, data={"kind": "slack"}, files={"other": ("x.txt", b"x")}
    )
    bad_kind = client.post(
        "/v1/imports", headers=a, data={"kind": "trello"}, files={"file": ("x.csv", b"x")}
    )
    for response in (no_file, bad_kind):
        assert response.status_code == 422, response.text
        assert response.json()["error"]["code"] == "invalid_input"


def test_the_import_worker_stops_with_the_app(tmp_path: Path) -> None:
    settings = load_settings(db=tmp_path / "own.db", embed={"kind": "hashing"})
    memory = Memory.open(settings=settings, background_worker=True)
    app = create_app(memory, settings)
    _, secret = create_key(memory.store, "solo", "full")
    others = set(threading.enumerate())  # the module's own server has a worker too

    def workers() -> list[threading.Thread]:
        return [
            t for t in threading.enumerate() if t.name == "threefold-imports" and t not in others
        ]

    with _ServerThread(app) as url, httpx.Client(base_url=url, timeout=30) as client:
        headers = {"Authorization": f"Bearer {secret}"}
        status = imported(client, headers, "jira", jira_csv(tmp_path / "issues.csv"))
        assert status["status"] == "done" and len(workers()) == 1
    assert workers() == []


def test_the_status_of_an_upload_names_its_file_not_the_temp_path(
    live: Live, client: httpx.Client
) -> None:
    a = live.headers("a")
    files = {"file": ("C:\\Users\\ann\\..\\issues.csv", io.BytesIO(b"nope\n"))}
    started = client.post("/v1/imports", headers=a, data={"kind": "jira"}, files=files)
    url = started.json()["status_url"]
    deadline = time.monotonic() + 30
    while (status := client.get(url, headers=a).json())["status"] != "failed":
        assert time.monotonic() < deadline, status
        time.sleep(0.05)
    assert status["error"].startswith("issues.csv does not look like a Jira CSV")


def test_an_import_while_a_reroute_runs_fails_with_the_reason(
    live: Live, client: httpx.Client, tmp_path: Path
) -> None:
    held = ROUTES_LEASE + "tenant-a"  # key a's tenant
    assert live.memory.store.claim_lease(held, "a-reroute", 60)
    try:
        status = imported(client, live.headers("a"), "slack", slack_zip(tmp_path / "e.zip"))
    finally:
        live.memory.store.release_lease(held, "a-reroute")
    assert status["status"] == "failed"
    assert "re-route" in status["error"] and "try again" in status["error"]
    again = imported(client, live.headers("a"), "slack", slack_zip(tmp_path / "e.zip"))
    assert again["status"] == "done"


def test_reroute_over_http_answers_what_it_checked_and_409_while_busy(
    live: Live, client: httpx.Client, tmp_path: Path
) -> None:
    imported(client, live.headers("a"), "slack", slack_zip(tmp_path / "e.zip"))
    done = client.post("/v1/reroute", headers=live.headers("a"))
    assert done.status_code == 200, done.text
    body = done.json()
    assert body["checked"] > 0 and body["moved"] == {}  # the routes have not changed
    held = ROUTES_LEASE + "tenant-a"
    assert live.memory.store.claim_lease(held, "an-import", 60)
    try:
        busy = client.post("/v1/reroute", headers=live.headers("a"))
    finally:
        live.memory.store.release_lease(held, "an-import")
    assert busy.status_code == 409 and busy.json()["error"]["code"] == "busy"
