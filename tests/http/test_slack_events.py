"""Slack's Events API against the real server: signed requests, forged and replayed ones,
retries stored once, and messages, edits and deletions applied by the worker."""

import json
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.http.conftest import _ServerThread
from threefold import Memory, load_settings
from threefold.faces.http import create_app
from threefold.sources.slack_events import sign
from threefold.trust.keys import create_key

SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
TENANT = "acme"
APOLLO = "project:apollo"
NOW = time.time()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Memory]]:
    settings = load_settings(
        db=tmp_path_factory.mktemp("slack") / "memory.db",
        embed={"kind": "none"},
        projects=[{"stream": APOLLO, "key": "APOLLO", "channels": ["apollo-eng"]}],
        slack={"signing_secret": SECRET, "tenant": TENANT},
        sources={"batch_idle_minutes": 0},
    )
    memory = Memory.open(settings=settings, background_worker=False)
    # The names a backfill would have read: C1 is #apollo-eng, U1 is Ann.
    names = {"channel:C1": "apollo-eng", "channel:C2": "random", "user:U1": "Ann"}
    memory.store.set_source_state(TENANT, "slack", names)
    with _ServerThread(create_app(memory, settings)) as url:
        yield url, memory


@pytest.fixture(scope="module")
def client(server: tuple[str, Memory]) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server[0], timeout=30.0) as http:
        yield http


@pytest.fixture
def memory(server: tuple[str, Memory]) -> Memory:
    return server[1]


def post(
    client: httpx.Client,
    body: dict | bytes,
    *,
    secret: str = SECRET,
    at: float | None = None,
    headers: dict[str, str] | None = None,
) -> httpx.Response:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    stamp = str(int(time.time() if at is None else at))
    signed = {
        "X-Slack-Request-Timestamp": stamp,
        "X-Slack-Signature": sign(secret, stamp, data),
        "Content-Type": "application/json",
    }
    return client.post("/v1/slack/events", content=data, headers=signed | (headers or {}))


def callback(event_id: str, event: dict) -> dict:
    return {"type": "event_callback", "team_id": "T1", "event_id": event_id, "event": event}


def message(ts: str, text: str, channel: str = "C1", **extra: object) -> dict:
    return {
        "type": "message",
        "channel": channel,
        "channel_type": "channel",
        "user": "U1",
        "ts": ts,
        "text": text,
        **extra,
    }


def stored(memory: Memory, stream: str = APOLLO) -> dict[str, str]:
    memory.process_pending()
    return {r.external_id: r.text for r in memory.records(stream, tenant=TENANT)}


def test_url_verification_is_answered(client):
    answer = post(client, {"type": "url_verification", "challenge": "3eZbrw1aBm2rZgRNFdxV2595"})
    assert answer.status_code == 200
    assert answer.json() == {"challenge": "3eZbrw1aBm2rZgRNFdxV2595"}


def test_a_message_is_routed_and_its_markup_becomes_text(client, memory):
    text = (
        "Spec: <https://wiki.example.com/doc|design> for <@U1> in <#C2|random> <!here>"
        " :white_check_mark:"
    )
    answer = post(client, callback("Ev1", message("1790000000.000100", text)))
    assert answer.status_code == 200
    assert answer.json()["outcome"] == "queued"
    assert stored(memory)["1790000000.000100"] == (
        "Spec: design (https://wiki.example.com/doc) for @Ann in #random @here"
        " \N{WHITE HEAVY CHECK MARK}"
    )


def test_a_retry_is_stored_once(client, memory):
    event = callback("Ev2", message("1790000001.000100", "APOLLO-3 is merged."))
    assert post(client, event).json()["outcome"] == "queued"
    retry = post(
        client, event, headers={"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"}
    )
    assert (retry.status_code, retry.json()["outcome"]) == (200, "duplicate")
    memory.process_pending()
    jobs = [j for j in memory.store.jobs(tenant=TENANT) if j.kind == "slack_event"]
    assert sum(1 for j in jobs if j.payload["event"]["ts"] == "1790000001.000100") == 1


def test_a_forged_signature_is_refused(client, memory):
    event = callback("Ev3", message("1790000002.000100", "forged"))
    answer = post(client, event, secret="not-the-secret")
    assert answer.status_code == 401
    assert answer.json()["error"]["code"] == "bad_signature"
    unsigned = client.post("/v1/slack/events", json=event)
    assert unsigned.json()["error"]["code"] == "unsigned"
    assert "1790000002.000100" not in stored(memory)


def test_an_api_key_is_no_signature(client, memory):
    _, secret = create_key(memory.store, TENANT, "full", label="k")
    event = callback("Ev4", message("1790000003.000100", "with a key only"))
    answer = client.post(
        "/v1/slack/events", json=event, headers={"Authorization": f"Bearer {secret}"}
    )
    assert answer.status_code == 401


def test_a_replayed_event_is_refused(client, memory):
    event = callback("Ev5", message("1790000004.000100", "replayed"))
    answer = post(client, event, at=time.time() - 3600)
    assert answer.status_code == 401
    assert answer.json()["error"]["code"] == "stale_request"
    assert "outside the replay window" in answer.json()["error"]["message"]


@pytest.mark.parametrize(("skew", "status"), [(-240, 200), (240, 200), (-360, 401), (360, 401)])
def test_clock_skew_of_four_minutes_passes_and_six_does_not(client, skew, status):
    event = callback(f"Ev-skew{skew}", message(f"{1790000100 + skew}.000100", "skewed"))
    assert post(client, event, at=time.time() + skew).status_code == status


def test_malformed_requests_are_answered_clearly(client):
    bad_json = post(client, b'{"type": "event_callback", ')
    assert (bad_json.status_code, bad_json.json()["error"]["code"]) == (400, "invalid_json")
    no_id = post(client, {"type": "event_callback", "event": message("1.0", "x")})
    assert no_id.status_code == 422
    assert "event_id" in no_id.json()["error"]["message"]
    no_channel = post(client, callback("Ev6", {"type": "message", "ts": "1.0", "text": "x"}))
    assert no_channel.status_code == 422
    bad_ts = post(client, callback("Ev6b", message("yesterday", "when?")))
    assert bad_ts.status_code == 422
    assert "not a Slack timestamp" in bad_ts.json()["error"]["message"]
    not_object = post(client, callback("Ev6c", ["a", "list"]))  # type: ignore[arg-type]
    assert not_object.status_code == 422


def test_events_of_other_types_are_acknowledged_and_ignored(client):
    reaction = post(client, callback("Ev7", {"type": "reaction_added", "reaction": "tada"}))
    assert reaction.status_code == 200
    assert reaction.json()["outcome"] == "ignored"
    assert "reaction_added" in reaction.json()["detail"]
    other = post(client, {"type": "app_rate_limited", "minute_rate_limited": 1})
    assert (other.status_code, other.json()["outcome"]) == (200, "ignored")


def test_an_unrouted_channel_goes_where_its_text_says(client, memory):
    post(client, callback("Ev8", message("1790000005.000100", "lunch anyone?", channel="C9")))
    post(
        client, callback("Ev9", message("1790000006.000100", "APOLLO-9 deploy done", channel="C9"))
    )
    assert stored(memory, "global")["1790000005.000100"] == "lunch anyone?"
    assert stored(memory)["1790000006.000100"] == "APOLLO-9 deploy done"


def test_an_edit_replaces_the_text_and_a_deletion_erases_it(client, memory):
    post(client, callback("Ev10", message("1790000007.000100", "The launch is on Monday.")))
    assert stored(memory)["1790000007.000100"] == "The launch is on Monday."
    edited = message("1790000007.000100", "The launch is on Tuesday.")
    change = {
        "type": "message",
        "subtype": "message_changed",
        "channel": "C1",
        "channel_type": "channel",
        "ts": "1790000008.000100",
        "message": edited,
    }
    post(client, callback("Ev11", change))
    assert stored(memory)["1790000007.000100"] == "The launch is on Tuesday."
    deletion = {
        "type": "message",
        "subtype": "message_deleted",
        "channel": "C1",
        "channel_type": "channel",
        "ts": "1790000009.000100",
        "deleted_ts": "1790000007.000100",
    }
    post(client, callback("Ev12", deletion))
    assert "1790000007.000100" not in stored(memory)
    hits = memory.search("launch Tuesday", stream=APOLLO, tenant=TENANT)
    assert not any("Tuesday" in hit.text for hit in hits)


def test_a_thread_reply_follows_its_thread(client, memory):
    start = message("1790000010.000100", "Who owns the APOLLO rollout?", channel="C2")
    reply = message("1790000011.000100", "me", channel="C2", thread_ts="1790000010.000100")
    post(client, callback("Ev13", start))
    post(client, callback("Ev14", reply))
    records = {r.external_id: r for r in stored_records(memory)}
    assert records["1790000011.000100"].thread == "1790000010.000100"
    assert records["1790000011.000100"].stream == records["1790000010.000100"].stream


def stored_records(memory: Memory) -> list:
    memory.process_pending()
    return [r for s in (APOLLO, "global") for r in memory.records(s, tenant=TENANT)]


def test_a_message_of_40000_characters_is_kept_whole(client, memory):
    text = "APOLLO-1 log: " + "x" * 39_986
    answer = post(client, callback("Ev15", message("1790000012.000100", text)))
    assert answer.status_code == 200
    assert len(stored(memory)["1790000012.000100"]) == 40_000
