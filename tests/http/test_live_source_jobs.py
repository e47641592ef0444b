"""POST /v1/slack/backfill and /v1/drive/sync start reads of a live source as imports:
queued, polled through their status URL, with a report or the reason they failed."""

import time
from collections.abc import Iterator

import httpx
import pytest

from tests.http.conftest import _ServerThread
from tests.sources.drive_fake import FakeDrive
from tests.sources.exports import msg
from tests.sources.slack_fake import FakeSlack
from threefold import Memory, load_settings
from threefold.faces.http import create_app
from threefold.trust.keys import create_key

T0 = 1772442000
ALPHA = "project:alpha"


@pytest.fixture(scope="module")
def fakes() -> Iterator[tuple[FakeSlack, FakeDrive]]:
    with FakeSlack(token="xoxb-h", page_size=2) as slack, FakeDrive(token="ya29.h") as drive:
        slack.channels = [{"id": "C1", "name": "proj-alpha", "is_member": True}]
        slack.history["C1"] = [msg(f"{T0 + n}.000100", f"Step {n} of ALPHA") for n in range(5)]
        drive.add("F1", "d1", "Plan", "application/vnd.google-apps.document", b"Ship in May.")
        yield slack, drive


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, fakes: tuple[FakeSlack, FakeDrive]
) -> Iterator[tuple[str, Memory, dict[str, str]]]:
    slack, drive = fakes
    settings = load_settings(
        db=tmp_path_factory.mktemp("jobs") / "memory.db",
        embed={"kind": "none"},
        projects=[{"stream": ALPHA, "key": "ALPHA", "channels": ["proj-alpha"]}],
        slack={"bot_token": "xoxb-h", "api_base": slack.url},
        drive={
            "token": "ya29.h",
            "api_base": drive.url,
            "folders": [{"folder_id": "F1", "stream": ALPHA}],
        },
    )
    memory = Memory.open(settings=settings, background_worker=True)
    keys = {
        trust: {"Authorization": f"Bearer {create_key(memory.store, 't', trust)[1]}"}
        for trust in ("full", "inner")
    }
    with _ServerThread(create_app(memory, settings)) as url:
        yield url, memory, keys  # type: ignore[misc]


@pytest.fixture(scope="module")
def client(server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server[0], timeout=30.0) as http:
        yield http


def finished(client: httpx.Client, url: str, headers: dict[str, str]) -> dict:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        status = client.get(url, headers=headers).json()
        if status["status"] in ("done", "failed"):
            return status
        time.sleep(0.05)
    raise AssertionError(f"{url} did not finish")


def test_a_backfill_runs_as_an_import(server, client):
    _, memory, keys = server
    started = client.post("/v1/slack/backfill", json={}, headers=keys["full"])
    assert started.status_code == 202, started.text
    status = finished(client, started.json()["status_url"], keys["full"])
    assert status["kind"] == "slack-backfill"
    assert status["status"] == "done", status
    assert status["report"]["kept"] == 5
    assert len(memory.records(ALPHA, tenant="t")) == 5


def test_a_backfill_that_fails_says_why(server, client, fakes):
    slack, _ = fakes
    _, _, keys = server
    slack.script("token_revoked")
    started = client.post("/v1/slack/backfill", json={"channels": ["C1"]}, headers=keys["full"])
    status = finished(client, started.json()["status_url"], keys["full"])
    assert status["status"] == "failed"
    assert "token_revoked" in status["error"]


def test_a_drive_sync_runs_as_an_import(server, client):
    _, memory, keys = server
    started = client.post("/v1/drive/sync", headers=keys["full"])
    assert started.status_code == 202
    status = finished(client, started.json()["status_url"], keys["full"])
    assert (status["kind"], status["status"], status["report"]["kept"]) == ("drive-sync", "done", 1)


def test_only_a_full_key_starts_them(client, server):
    _, _, keys = server
    assert client.post("/v1/slack/backfill", json={}, headers=keys["inner"]).status_code == 403
    assert client.post("/v1/drive/sync", headers=keys["inner"]).status_code == 403
    assert client.post("/v1/drive/sync").status_code == 401


def test_bad_backfill_input_is_refused(client, server):
    _, _, keys = server
    answer = client.post("/v1/slack/backfill", json={"since": "last tuesday"}, headers=keys["full"])
    assert answer.status_code == 422


def test_events_need_a_signing_secret_in_settings(client):
    answer = client.post("/v1/slack/events", json={"type": "url_verification", "challenge": "c"})
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "slack_not_configured"
