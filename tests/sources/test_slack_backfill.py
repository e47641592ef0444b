"""Slack's history through its Web API, against a local server that speaks it: cursors,
threads, names, rate limits, an expired token, a backfill stopped midway and run again."""

from collections.abc import Iterator
from datetime import UTC, datetime

import httpx
import pytest

from tests.sources.exports import msg
from tests.sources.slack_fake import FakeSlack
from threefold.errors import InvalidInput, SettingsError, SourceError
from threefold.sources.slack_api import slack_api

ALPHA = "project:alpha"
PROJECTS = [{"stream": ALPHA, "key": "ALPHA", "channels": ["proj-alpha"]}]
T0 = 1772442000  # 2026-03-02 09:00 UTC
TOKEN = "xoxb-test-token"


def ts(minutes: int) -> str:
    return f"{T0 + minutes * 60}.000100"


@pytest.fixture
def slack() -> Iterator[FakeSlack]:
    with FakeSlack(token=TOKEN, page_size=2) as fake:
        fake.users = [
            {"id": "U1", "name": "ann", "profile": {"display_name": "Ann"}},
            {"id": "U2", "name": "raj", "profile": {"real_name": "Raj Patel"}},
        ]
        fake.channels = [
            {"id": "C1", "name": "proj-alpha", "is_member": True},
            {"id": "C2", "name": "general", "is_member": True},
            {"id": "C3", "name": "random", "is_member": False},
        ]
        fake.history["C1"] = [
            msg(ts(0), "We decided to use Postgres.", "U1"),
            msg(ts(1), "Who owns the migration?", "U2", thread_ts=ts(1), reply_count=2),
            msg(ts(2), "See <https://wiki.example.com/doc|the design> and ask <@U2>", "U1"),
            msg(ts(3), "", "U2", subtype="channel_join"),
            msg(ts(4), "Build 311 passed", None, subtype="bot_message", username="ci"),
        ]
        fake.replies[("C1", ts(1))] = [
            msg(ts(5), "I will, by Friday.", "U1", thread_ts=ts(1)),
            msg(ts(6), "Thanks <@U1>!", "U2", thread_ts=ts(1)),
        ]
        fake.history["C2"] = [msg(ts(10), "ALPHA-7 is blocked on infra.", "U2")]
        fake.history["C3"] = [msg(ts(20), "never read: the bot is not in here", "U1")]
        yield fake


@pytest.fixture
def client() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=10) as http:
        yield http


def settings_for(slack: FakeSlack, **slack_settings: object) -> dict[str, object]:
    return {
        "projects": PROJECTS,
        "slack": {"bot_token": TOKEN, "api_base": slack.url, **slack_settings},
        "embed": {"kind": "none"},
    }


def test_a_backfill_reads_every_page_thread_and_name(open_memory, slack, client):
    mem = open_memory(**settings_for(slack))
    report = mem.backfill_slack(slack_api(mem.settings, client))
    assert report.read == 8  # 5 + 2 replies in C1, 1 in C2; C3 is not the bot's
    assert report.kept == 7  # all but the join; ALPHA-7 in #general routes by its key
    assert report.skipped == {"join": 1}
    texts = {r.text for r in mem.records(ALPHA)}
    assert "See the design (https://wiki.example.com/doc) and ask @Raj Patel" in texts
    assert "Thanks @Ann!" in texts
    assert {r.author for r in mem.records(ALPHA)} >= {"Ann", "Raj Patel", "ci"}
    replies = [r for r in mem.records(ALPHA) if r.thread == ts(1) and r.external_id != ts(1)]
    assert len(replies) == 2
    # Pages of two: history was read through its cursors, not in one call.
    history = [p for m, p in slack.calls if m == "conversations.history" and p["channel"] == "C1"]
    assert [p.get("cursor") for p in history] == [None, "2", "4"]
    assert not any(p.get("channel") == "C3" for _, p in slack.calls)


def test_a_second_backfill_reads_only_what_is_new(open_memory, slack, client):
    mem = open_memory(**settings_for(slack))
    mem.backfill_slack(slack_api(mem.settings, client))
    slack.history["C1"].append(msg(ts(30), "Shipped the migration.", "U1"))
    slack.calls.clear()
    report = mem.backfill_slack(slack_api(mem.settings, client))
    assert (report.read, report.kept, report.duplicates) == (1, 1, 0)
    oldest = {p["channel"]: p["oldest"] for m, p in slack.calls if m == "conversations.history"}
    assert float(oldest["C1"]) == float(ts(6))  # the newest read, a thread reply


def test_since_leaves_older_history_unread(open_memory, slack, client):
    mem = open_memory(**settings_for(slack))
    since = datetime.fromtimestamp(T0 + 150, UTC)
    report = mem.backfill_slack(slack_api(mem.settings, client), since=since, channels=["C1"])
    assert {r.external_id for r in mem.records(ALPHA)} == {ts(4)}
    assert report.read == 2  # and the join at 3 minutes, read and skipped


def test_rate_limits_are_waited_out(open_memory, slack, client):
    mem = open_memory(**settings_for(slack))
    slack.script(429, 429, 429)
    report = mem.backfill_slack(slack_api(mem.settings, client))
    assert report.kept == 7
    assert slack.methods()[:4] == ["conversations.list"] * 4


def test_a_storm_of_429s_stops_the_backfill_and_it_goes_on_later(open_memory, slack, client):
    mem = open_memory(**settings_for(slack, max_rate_limit_waits=2))
    # The first page of C1's history is stored, then every call is rate limited.
    pages = 0

    def storm_after_the_first_page(method: str, params: dict[str, str]) -> int | None:
        nonlocal pages
        if method == "conversations.history":
            pages += 1
            return 429 if pages > 1 else None
        return None

    slack.script(*[storm_after_the_first_page] * 100)
    with pytest.raises(SourceError, match="429 3 times in a row"):
        mem.backfill_slack(slack_api(mem.settings, client))
    # The newest page (the bot's message and a join) was stored before the storm.
    assert {r.external_id for r in mem.records(ALPHA)} == {ts(4)}
    pages = -1_000  # the storm is over
    slack.calls.clear()
    report = mem.backfill_slack(slack_api(mem.settings, client))
    assert report.duplicates == 0
    assert len(mem.records(ALPHA)) == 7
    first = next(p for m, p in slack.calls if m == "conversations.history" and p["channel"] == "C1")
    assert first["cursor"] == "2"  # went on from the page it was reading


def test_a_retry_after_longer_than_allowed_is_not_waited(open_memory, slack, client):
    mem = open_memory(**settings_for(slack, max_retry_after_seconds=5))
    slack.retry_after = "3600"
    slack.script(429)
    with pytest.raises(SourceError, match="asked to wait 3,600 s"):
        mem.backfill_slack(slack_api(mem.settings, client))


def test_a_token_that_expires_mid_backfill_is_said_and_nothing_is_lost(open_memory, slack, client):
    mem = open_memory(**settings_for(slack))
    history_calls = 0

    def expire_on_the_second_page(method: str, params: dict[str, str]) -> str | None:
        nonlocal history_calls
        if method == "conversations.history":
            history_calls += 1
            if history_calls == 2:
                return "token_expired"
        return None

    slack.script(*[expire_on_the_second_page] * 100)
    with pytest.raises(SourceError, match=r"refused the bot token \(token_expired\)"):
        mem.backfill_slack(slack_api(mem.settings, client))
    assert {r.external_id for r in mem.records(ALPHA)} == {ts(4)}  # the first page
    history_calls = 100  # a fresh token
    report = mem.backfill_slack(slack_api(mem.settings, client))
    assert len(mem.records(ALPHA)) == 7
    assert report.duplicates == 0


def test_a_backfill_killed_mid_page_stores_nothing_twice(open_memory, slack, client):
    mem = open_memory(**settings_for(slack))
    # Killed after storing a page, before keeping its cursor: the cursor is dropped.
    mem.backfill_slack(slack_api(mem.settings, client), channels=["proj-alpha"])
    state = mem.store.source_state(mem.tenant, "slack", "backfill:C1")
    assert state is not None
    mem.store.set_source_state(mem.tenant, "slack", {"backfill:C1": None})
    report = mem.backfill_slack(slack_api(mem.settings, client), channels=["proj-alpha"])
    assert report.kept == 0
    assert report.duplicates == 6
    assert len(mem.records(ALPHA)) == 6


def test_a_wrong_token_and_no_token_are_refused_clearly(open_memory, slack, client):
    mem = open_memory(**settings_for(slack, bot_token="xoxb-wrong"))
    with pytest.raises(SourceError, match="invalid_auth"):
        mem.backfill_slack(slack_api(mem.settings, client))
    assert mem.records(ALPHA) == []
    bare = open_memory(name="bare.db", embed={"kind": "none"})
    with pytest.raises(SettingsError, match="slack.bot_token"):
        slack_api(bare.settings, client)


def test_an_unknown_channel_is_refused_before_reading(open_memory, slack, client):
    mem = open_memory(**settings_for(slack))
    with pytest.raises(InvalidInput, match="no conversation named nope"):
        mem.backfill_slack(slack_api(mem.settings, client), channels=["nope"])
    assert not any(m == "conversations.history" for m in slack.methods())


def test_bots_follow_their_setting(open_memory, slack, client):
    mem = open_memory(**settings_for(slack, keep_bot_messages=False))
    report = mem.backfill_slack(slack_api(mem.settings, client))
    assert report.skipped == {"join": 1, "bot": 1}
    assert "ci" not in {r.author for r in mem.records(ALPHA)}


def test_a_backfilled_week_is_digested_by_process_pending(open_memory, slack, client):
    mem = open_memory(**settings_for(slack))
    mem.backfill_slack(slack_api(mem.settings, client))
    mem.process_pending()
    assert all(r.processed for r in mem.records(ALPHA))
    assert mem.summaries(ALPHA, "slack")
