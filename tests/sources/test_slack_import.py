"""Slack into memory: routing, idempotent records, digests, facts in the source's band,
timelines, trust, and live ingestion with its batch triggers."""

import time
from pathlib import Path

import pytest

from tests.sources.exports import msg, write_export, zip_folder
from threefold.domain import FactStatus
from threefold.errors import InvalidInput
from threefold.pipeline.jobs import DIGEST

ALPHA, BRAVO = "project:alpha", "project:bravo"
PROJECTS = [
    {"stream": ALPHA, "key": "ALPHA", "names": ["Project Alpha"], "channels": ["proj-alpha"]},
    {"stream": BRAVO, "key": "BRAVO", "names": ["Bravo"]},
]
T0 = 1772442000  # 2026-03-02 09:00 UTC, a Monday
USERS = [
    {"id": "U1", "name": "ann", "profile": {"display_name": "Ann"}},
    {"id": "U2", "name": "raj", "profile": {"display_name": "Raj"}},
    {"id": "U3", "name": "sarah", "profile": {"display_name": "Sarah"}},
]
CHANNELS = [
    {"id": "C1", "name": "proj-alpha", "members": ["U1", "U2"]},
    {"id": "C2", "name": "general", "members": ["U1", "U2", "U3"]},
]


def ts(minutes: int) -> str:
    return f"{T0 + minutes * 60}.000100"


def alpha_day() -> list[dict]:
    return [
        msg(ts(0), "We decided to use Postgres for the event store.", "U1"),
        msg(ts(1), "Who owns the migration?", "U2", thread_ts=ts(1), reply_count=1),
        msg(ts(2), "I will write the migration guide by Friday.", "U1", thread_ts=ts(1)),
        msg(ts(3), "", "U3", subtype="channel_join"),
        msg(ts(4), "Build 311 passed", None, subtype="bot_message", bot_id="B1", username="ci-bot"),
        msg(ts(5), "", "U2", subtype="file_share", files=[{"name": "erd.png", "title": "ERD"}]),
    ]


def general_day() -> list[dict]:
    return [
        msg(ts(10), "ALPHA-142 is blocked on the auth token from infra.", "U2"),
        msg(ts(11), "Bravo and Project Alpha both need the new login; ALPHA-7 first.", "U3"),
        msg(ts(12), "lunch anyone?", "U1"),
        msg(ts(13), "<@U99> pinged me about the offsite", "U1"),
    ]


@pytest.fixture
def export(tmp_path: Path) -> Path:
    return write_export(
        tmp_path / "export",
        {
            "proj-alpha": {"2026-03-02": alpha_day()},
            "general": {"2026-03-02": general_day(), "2026-03-03": b'[{"ts": '},
            "D1": {"2026-03-02": [msg(ts(20), "can you review the Bravo design doc?", "U1")]},
        },
        users=USERS,
        channels=CHANNELS,
        dms=[{"id": "D1", "members": ["U1", "U2"]}],
    )


@pytest.fixture
def mem(open_memory):
    return open_memory(projects=PROJECTS)


def test_an_export_is_read_routed_and_reported(mem, export):
    report = mem.import_slack(export)
    assert report.read == 11
    assert report.skipped == {"join": 1}
    assert report.kept == 10
    assert report.routed == {ALPHA: 7, "global": 2, BRAVO: 1}
    [problem] = report.problems
    assert problem.path == "general/2026-03-03.json"
    assert report.facts >= 2


def test_each_rule_is_recorded_with_its_confidence(mem, export):
    mem.import_slack(export)
    by_text = {r.text: r for r in mem.records(ALPHA) + mem.records(BRAVO) + mem.records("global")}
    decided = by_text["We decided to use Postgres for the event store."]
    assert (decided.route_method, decided.route_confidence) == ("channel", 1.0)
    blocked = by_text["ALPHA-142 is blocked on the auth token from infra."]
    assert (blocked.stream, blocked.route_method) == (ALPHA, "issue_key")
    both = by_text["Bravo and Project Alpha both need the new login; ALPHA-7 first."]
    assert (both.stream, both.also_in) == (ALPHA, (BRAVO,))
    dm = by_text["can you review the Bravo design doc?"]
    assert (dm.stream, dm.route_method) == (BRAVO, "dm_mention")
    assert by_text["lunch anyone?"].stream == "global"
    assert by_text["@U99 pinged me about the offsite"].author == "Ann"


def test_a_cross_referenced_message_is_found_from_both_projects(mem, export):
    mem.import_slack(export)
    assert any("new login" in r.text for r in mem.records(BRAVO))
    hits = mem.search("new login", stream=BRAVO, kinds=["record"])
    assert hits and hits[0].stream == ALPHA


def test_threads_bots_and_files_are_kept_and_marked(mem, export):
    mem.import_slack(export)
    records = mem.records(ALPHA, source="slack")
    kinds = {r.kind for r in records}
    assert kinds == {"message", "bot", "file_share"}
    reply = next(r for r in records if "migration guide" in r.text)
    assert reply.thread == ts(1) and reply.external_id == ts(2)
    assert next(r for r in records if r.kind == "bot").author == "ci-bot"


def test_importing_twice_adds_nothing(mem, export, tmp_path):
    first = mem.import_slack(export)
    records = len(mem.records(ALPHA))
    summaries = len(mem.summaries(ALPHA))
    again = mem.import_slack(zip_folder(export, tmp_path / "export.zip"))
    assert (again.kept, again.duplicates) == (0, first.kept)
    assert again.facts == 0
    assert len(mem.records(ALPHA)) == records
    assert len(mem.summaries(ALPHA)) == summaries


def test_a_message_exported_twice_is_stored_once(mem, tmp_path):
    twice = write_export(
        tmp_path / "twice",
        {
            "proj-alpha": {
                "2026-03-02": [
                    msg(ts(0), "We decided to use Postgres.", "U1"),
                    msg(ts(0), "We decided to use Postgres.", "U1"),
                    msg(ts(1), "Raj owns the migration.", "U2"),
                ]
            }
        },
        users=USERS,
        channels=CHANNELS,
    )
    report = mem.import_slack(twice)
    assert (report.read, report.kept, report.duplicates) == (3, 2, 1)
    assert [r.external_id for r in mem.records(ALPHA)] == [ts(0), ts(1)]


class _Interrupted(Exception):
    """Stands for a crash or a Ctrl-C between two of the import's transactions."""


def test_an_interrupted_import_loses_nothing_and_resumes_without_duplicates(mem, tmp_path):
    days = {
        f"2026-03-{day:02d}": [
            msg(ts(day * 1440 + n), f"Note {day}.{n} on the rollout.", "U1") for n in range(150)
        ]
        for day in range(2, 9)
    }
    export = write_export(tmp_path / "big", {"proj-alpha": days}, users=USERS, channels=CHANNELS)

    def crash(done: int, total: int) -> None:
        raise _Interrupted

    with pytest.raises(_Interrupted):
        mem.import_slack(export, progress=crash, process=False)
    stored = len(mem.records(ALPHA))
    assert 0 < stored < 1050  # the first transaction's messages, all of them
    again = mem.import_slack(export, process=False)
    assert (again.kept, again.duplicates) == (1050 - stored, stored)
    assert len({r.external_id for r in mem.records(ALPHA)}) == len(mem.records(ALPHA)) == 1050


def test_importing_again_digests_what_an_interrupted_import_stored(mem, tmp_path):
    export = write_export(
        tmp_path / "small",
        {
            "proj-alpha": {
                "2026-03-02": [
                    msg(ts(n), f"We decided to ship build {n} on Friday.", "U1") for n in range(20)
                ]
            }
        },
        users=USERS,
        channels=CHANNELS,
    )

    def crash(done: int, total: int) -> None:
        raise _Interrupted  # after the messages were stored, before their digest was queued

    with pytest.raises(_Interrupted):
        mem.import_slack(export, progress=crash)
    again = mem.import_slack(export)
    assert (again.kept, again.duplicates) == (0, 20)
    assert all(r.processed for r in mem.records(ALPHA))
    assert mem.summaries(ALPHA, "slack")


def test_digests_write_a_slack_summary_and_facts_in_the_slack_band(mem, export):
    mem.import_slack(export)
    [slack] = mem.summaries(ALPHA, "slack")
    assert "Postgres" in slack.text
    active = mem.summaries(ALPHA, "active")
    assert active and "Postgres" in active[-1].text
    decision = next(f for f in mem.facts(ALPHA) if f.category == "decision")
    assert decision.source.kind == "slack.message"
    assert 0.7 <= decision.confidence <= 0.9
    assert all(r.processed for r in mem.records(ALPHA))
    ctx = mem.context(ALPHA, "what database?", 2000)
    assert "Postgres" in ctx.section("stream_facts").items[0].text or any(
        "Postgres" in i.text for i in ctx.section("stream_facts").items
    )


def test_a_slack_message_never_supersedes_the_users_correction(mem, tmp_path):
    mem.add_turn(ALPHA, "No, Raj is the Lead Architect.")
    mem.process_pending()
    later = write_export(
        tmp_path / "later",
        {
            "proj-alpha": {
                "2026-12-01": [
                    msg("1796115600.000100", "Sarah is the lead architect.", "U3"),
                ]
            }
        },
        users=USERS,
        channels=CHANNELS,
    )
    mem.import_slack(later)
    holders = [f for f in mem.facts(ALPHA, include_inactive=True) if f.slot == "holder"]
    current = [f for f in holders if f.status == FactStatus.ACTIVE]
    assert [f.value for f in current] == ["raj"]
    assert any(f.value == "sarah" and f.status == FactStatus.OUTRANKED for f in holders)


def test_timelines_of_people_channels_and_projects(mem, export):
    mem.import_slack(export)
    ann = mem.timeline("Ann")
    assert [e.at for e in ann] == sorted(e.at for e in ann)
    assert any("Postgres" in e.text for e in ann if e.kind == "record")
    assert any(e.kind == "fact" for e in ann)
    assert mem.timeline("@ann") == ann
    general = mem.timeline("#general")
    assert {e.stream for e in general} == {ALPHA, "global"}
    assert any("ALPHA-142" in e.text for e in mem.timeline("ALPHA"))
    assert mem.timeline("ALPHA") == mem.timeline(ALPHA)
    assert mem.timeline("nobody") == []
    with pytest.raises(InvalidInput):
        mem.timeline("  ")


def test_direct_messages_are_private(mem, export):
    mem.import_slack(export)
    assert mem.search("design doc", kinds=["record"], trust="full")
    assert not mem.search("design doc", kinds=["record"], trust="inner")
    assert mem.search("event store", kinds=["record"], trust="inner")
    assert not [e for e in mem.timeline("Ann", trust="inner") if "design doc" in e.text]


def test_another_tenant_sees_none_of_it(mem, export):
    mem.import_slack(export)
    assert mem.records(ALPHA, tenant="other") == []
    assert mem.search("Postgres", tenant="other") == []
    assert mem.timeline("Ann", tenant="other") == []


def test_a_folder_that_is_not_an_export_is_refused(mem, tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(InvalidInput, match="not a Slack export"):
        mem.import_slack(tmp_path / "empty")
    with pytest.raises(InvalidInput, match="not found"):
        mem.import_slack(tmp_path / "missing")


# --- live messages ------------------------------------------------------------------


def test_live_messages_wait_for_a_full_batch(open_memory):
    mem = open_memory(projects=PROJECTS, sources={"batch_messages": 5})
    for n in range(4):
        assert (
            mem.ingest_message(
                channel="proj-alpha", user="Ann", ts=ts(n), text=f"Step {n} is done."
            )
            == ALPHA
        )
    mem.process_pending()
    assert not any(r.processed for r in mem.records(ALPHA))
    mem.ingest_message(channel="proj-alpha", user="Ann", ts=ts(4), text="We decided to ship.")
    mem.process_pending()
    assert all(r.processed for r in mem.records(ALPHA))
    assert mem.summaries(ALPHA, "slack")


def test_a_quiet_channel_is_digested_after_the_idle_time(open_memory):
    mem = open_memory(projects=PROJECTS, sources={"batch_idle_minutes": 30})
    mem.ingest_message(channel="proj-alpha", user="Ann", ts=ts(0), text="We decided to ship.")
    [job] = [j for j in mem.store.jobs(status="pending") if j.kind == DIGEST]
    assert job.run_after > time.time() + 29 * 60
    quick = open_memory(name="quick.db", projects=PROJECTS, sources={"batch_idle_minutes": 0})
    quick.ingest_message(channel="proj-alpha", user="Ann", ts=ts(0), text="We decided to ship.")
    quick.process_pending()
    assert all(r.processed for r in quick.records(ALPHA))


def test_a_live_message_is_stored_once(mem):
    first = mem.ingest_message(channel="#general", user="Raj", ts=ts(1), text="ALPHA-9 merged")
    again = mem.ingest_message(channel="general", user="Raj", ts=ts(1), text="ALPHA-9 merged")
    assert (first, again) == (ALPHA, None)
    assert len(mem.records(ALPHA)) == 1


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"ts": "yesterday"}, "ts must be"),
        ({"channel": " "}, "needs its channel"),
        ({"text": "  "}, "needs some text"),
        ({"channel_kind": "forum"}, "unknown channel kind"),
    ],
)
def test_bad_live_messages_are_refused(mem, fields, error):
    message = {"channel": "general", "user": "Raj", "ts": ts(1), "text": "hello"} | fields
    with pytest.raises(InvalidInput, match=error):
        mem.ingest_message(**message)
    assert mem.records("global") == []


def test_a_ten_megabyte_message_is_kept_whole(mem):
    text = "ALPHA-1 log dump " + "x" * 10_000_000
    assert mem.ingest_message(channel="general", user="Raj", ts=ts(1), text=text) == ALPHA
    mem.process_pending()
    [record] = mem.records(ALPHA)
    assert len(record.text) == len(text)


# --- turns without a stream ---------------------------------------------------------


def test_a_turn_without_a_stream_is_routed(mem):
    by_page = mem.add_turn(None, "How is it going?", page_context="Jira board: ALPHA-12")
    by_text = mem.add_turn(None, "Any news on Bravo?")
    nowhere = mem.add_turn(None, "Good morning!")
    assert (by_page.stream, by_text.stream, nowhere.stream) == (ALPHA, BRAVO, "global")


def test_worker_processes_digest_while_the_export_is_read(open_memory, export):
    from threefold.pipeline.workers import Workers

    mem = open_memory(projects=PROJECTS, sources={"import_batch_messages": 2})
    with Workers(mem.settings, count=2) as pool:
        report = mem.import_slack(export, process=False)
    assert pool.ran > 0
    assert all(r.processed for s in report.routed for r in mem.records(s))
    assert mem.summaries(ALPHA, "slack") and mem.facts(ALPHA)
    assert mem.store.jobs(status="pending") == []


def test_the_command_line_imports_reports_and_shows_timelines(export, tmp_path):
    from typer.testing import CliRunner

    from threefold.faces.cli import app

    config = tmp_path / "threefold.toml"
    config.write_text(
        '[[projects]]\nstream = "project:alpha"\nkey = "ALPHA"\nchannels = ["proj-alpha"]\n'
    )
    base = ["--db", str(tmp_path / "cli.db"), "--config", str(config)]
    runner = CliRunner()
    imported = runner.invoke(
        app, [*base, "import", "slack", str(export), "--workers", "2"], env={"COLUMNS": "200"}
    )
    assert imported.exit_code == 0, imported.output
    assert "routed to project:alpha" in imported.output
    assert "general/2026-03-03.json" in imported.output  # the malformed day, reported
    again = runner.invoke(app, [*base, "import", "slack", str(export)], env={"COLUMNS": "200"})
    assert "already imported\t10" in again.output  # piped: tab-separated
    shown = runner.invoke(app, [*base, "timeline", "Ann"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0 and "Postgres" in shown.output


# --- links --------------------------------------------------------------------------


def test_a_link_is_no_fact_but_a_fetched_page_is_a_reference(open_memory, base_url):
    off = open_memory(name="off.db", projects=PROJECTS, sources={"batch_idle_minutes": 0})
    on = open_memory(
        name="on.db",
        projects=PROJECTS,
        sources={
            "batch_idle_minutes": 0,
            "fetch_hosts": ["127.0.0.1"],
            "fetch_allow_networks": ["127.0.0.0/8"],
        },
    )
    for mem in (off, on):
        mem.ingest_message(
            channel="proj-alpha", user="Ann", ts=ts(0), text=f"The design doc is at {base_url}/html"
        )
        mem.process_pending()
    # A bare link is in its message, which search finds; only a fetched page adds a fact.
    assert not [f for f in off.facts(ALPHA, include_inactive=True) if f.category == "reference"]
    [reference] = [f for f in on.facts(ALPHA) if f.category == "reference"]
    assert reference.text.startswith("The Spec")
    assert off.records(ALPHA, source="web") == []
    [page] = on.records(ALPHA, source="web")
    assert page.text.startswith("The Spec") and "First paragraph" in page.text
    assert "do not index" not in page.text
    assert on.search("First paragraph design", kinds=["record"])


def test_a_page_that_cannot_be_fetched_is_left_alone(open_memory, base_url):
    mem = open_memory(
        projects=PROJECTS,
        sources={
            "batch_idle_minutes": 0,
            "fetch_hosts": ["127.0.0.1"],
            "fetch_allow_networks": ["127.0.0.0/8"],
            "fetch_timeout_seconds": 0.5,
        },
    )
    mem.ingest_message(
        channel="proj-alpha",
        user="Ann",
        ts=ts(0),
        text=f"Broken: {base_url}/missing and {base_url}/hang",
    )
    mem.process_pending()
    assert mem.records(ALPHA, source="web") == []
    assert mem.store.jobs(status="failed") == []
    assert all(r.processed for r in mem.records(ALPHA))


def test_the_context_retrieves_messages_with_their_source(mem, export):
    mem.import_slack(export)
    ctx = mem.context(BRAVO, "what about the new login?", 2000)
    [found] = [i for i in ctx.section("retrieved").items if "new login" in i.text]
    assert found.source.kind == "slack.message" and found.source.at is not None
    inner = mem.context(BRAVO, "design doc review", 2000, trust="inner")
    assert not any(
        "design doc" in i.text for s in inner.sections if s.name != "query" for i in s.items
    )
    full = mem.context(BRAVO, "design doc review", 2000)
    assert any("design doc" in i.text for i in full.section("retrieved").items)


def test_a_live_message_and_its_exported_copy_share_one_time(mem):
    mem.ingest_message(channel="general", user="Raj", ts="1772442000.123457", text="ALPHA-9 hi")
    [record] = mem.records(ALPHA)
    assert record.at.microsecond == 123457
