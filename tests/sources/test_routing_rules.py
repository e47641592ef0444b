"""Routing rules that stay right: threads follow their first message, Jira keys and names
route (keys only as KEY-123), channels are named by name or by Slack id."""

import csv
from pathlib import Path

from tests.sources.exports import msg, write_export

T0 = 1772442000  # 2026-03-02 09:00 UTC
USERS = [{"id": "U1", "name": "ann"}, {"id": "U2", "name": "raj"}]
CHANNELS = [
    {"id": "C1", "name": "general", "members": ["U1", "U2"]},
    {"id": "C7", "name": "proj-x", "members": ["U1", "U2"]},
]


def ts(minutes: int) -> str:
    return f"{T0 + minutes * 60}.000100"


def streams_of(mem, stream: str) -> list[str]:
    return [r.text for r in mem.records(stream, source="slack")]


def jira_csv(path: Path) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Issue key", "Project key", "Project name", "Summary", "Status"])
        writer.writerow(["EL-12", "EL", "Electron Platform", "Login page", "Blocked"])
    return path


def test_a_thread_lives_where_its_first_message_lives(open_memory, tmp_path):
    mem = open_memory(projects=[{"stream": "project:alpha", "key": "ALPHA"}])
    day = [
        msg(ts(0), "ALPHA-3 needs a reviewer for the schema change", "U1", thread_ts=ts(0)),
        msg(ts(1), "I can take it after lunch", "U2", thread_ts=ts(0)),
        msg(ts(2), "sounds good, thanks", "U1", thread_ts=ts(0)),
        msg(ts(3), "anyone for coffee?", "U2"),
    ]
    export = write_export(
        tmp_path / "e", {"general": {"2026-03-02": day}}, users=USERS, channels=CHANNELS
    )
    mem.import_slack(export)
    assert len(streams_of(mem, "project:alpha")) == 3
    assert [r.route_method for r in mem.records("project:alpha")][1:] == ["thread", "thread"]
    assert streams_of(mem, "global") == ["anyone for coffee?"]


def test_a_reply_arriving_later_finds_its_thread_in_the_store(open_memory):
    mem = open_memory(projects=[{"stream": "project:alpha", "key": "ALPHA"}])
    first = mem.ingest_message(
        channel="general", user="Ann", ts=ts(0), thread_ts=ts(0), text="ALPHA-3 needs a reviewer"
    )
    reply = mem.ingest_message(
        channel="general", user="Raj", ts=ts(5), thread_ts=ts(0), text="on it"
    )
    elsewhere = mem.ingest_message(
        channel="random", user="Raj", ts=ts(6), thread_ts=ts(0), text="on it"
    )
    assert (first, reply, elsewhere) == ("project:alpha", "project:alpha", "global")


def test_jira_keys_route_only_as_issue_keys_and_names_route_too(open_memory, tmp_path):
    mem = open_memory()
    mem.import_jira(jira_csv(tmp_path / "el.csv"))
    said = {
        "el": "the demo in el salvador went well yesterday",
        "dm": "EL-12 is blocked on the font license",
        "name": "the Electron Platform release notes are out for review",
        "lowercase key": "el-12 is fine now",
    }
    routed = {
        label: mem.ingest_message(
            channel="D1" if label == "dm" else "general",
            user="Ann",
            ts=ts(n),
            text=text,
            channel_kind="dm" if label == "dm" else "public",
        )
        for n, (label, text) in enumerate(said.items())
    }
    assert routed == {
        "el": "global",
        "dm": "project:el",
        "name": "project:el",
        "lowercase key": "global",
    }


def test_a_channel_named_by_its_slack_id_in_settings_routes(open_memory, tmp_path):
    mem = open_memory(projects=[{"stream": "project:x", "channels": ["C7"]}])
    days = {"proj-x": {"2026-03-02": [msg(ts(0), "the build is green again", "U1")]}}
    report = mem.import_slack(write_export(tmp_path / "e", days, users=USERS, channels=CHANNELS))
    assert report.routed == {"project:x": 1}
    assert not report.warnings


def test_a_channel_in_settings_that_the_export_lacks_is_warned_about(open_memory, tmp_path):
    mem = open_memory(projects=[{"stream": "project:x", "channels": ["C0NOPE", "proj-x"]}])
    days = {"proj-x": {"2026-03-02": [msg(ts(0), "the build is green again", "U1")]}}
    report = mem.import_slack(write_export(tmp_path / "e", days, users=USERS, channels=CHANNELS))
    assert report.routed == {"project:x": 1}
    [warning] = report.warnings
    assert "'c0nope'" in warning and "project:x" in warning and "name or id" in warning


def test_a_bots_message_is_credited_to_the_person_it_names(open_memory, tmp_path):
    mem = open_memory(projects=[{"stream": "project:x", "channels": ["proj-x"]}])
    day = [
        msg(
            ts(0),
            "Anil Rao pushed 3 commits to main",
            None,
            subtype="bot_message",
            bot_id="B1",
            username="github",
        ),
        msg(ts(1), "Build 311 passed", None, subtype="bot_message", bot_id="B2", username="ci-bot"),
    ]
    mem.import_slack(
        write_export(
            tmp_path / "e", {"proj-x": {"2026-03-02": day}}, users=USERS, channels=CHANNELS
        )
    )
    assert [e.text for e in mem.timeline("Anil Rao")] == [
        "github: Anil Rao pushed 3 commits to main"
    ]
    assert not mem.timeline("Build")


def test_a_bot_that_says_by_whom_credits_them(open_memory, tmp_path):
    mem = open_memory(projects=[{"stream": "project:x", "channels": ["proj-x"]}])
    github = {"subtype": "bot_message", "bot_id": "B1", "username": "github"}
    text = "[api:main] 3 new commits (https://github.com/acme/api/compare/1...2) by hfaran"
    day = [msg(ts(0), "", None, attachments=[{"text": text}], **github)]
    export = write_export(
        tmp_path / "e", {"proj-x": {"2026-03-02": day}}, users=USERS, channels=CHANNELS
    )
    mem.import_slack(export)
    [entry] = mem.timeline("hfaran")
    assert entry.text.startswith("github: [attachment: [api:main] 3 new commits")


def test_a_shared_link_is_no_fact(open_memory):
    mem = open_memory(projects=[{"stream": "project:x", "channels": ["proj-x"]}])
    mem.ingest_message(
        channel="proj-x", user="Raj", ts=ts(0), text="the spec: https://docs.example.com/spec/v2"
    )
    mem.process_pending()
    mem.store.schedule(mem.tenant, "project:x", "digest", 0)
    mem.process_pending()
    assert mem.records("project:x")[0].processed
    assert not [f for f in mem.facts("project:x", include_inactive=True) if "Link" in f.text]
