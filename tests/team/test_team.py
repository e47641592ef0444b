"""Team intelligence through the public API: profiles, actions, digests and contexts."""

import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from tests.conftest import MemoryFactory
from threefold import Memory
from threefold.errors import InvalidInput, NotFound, SettingsError
from threefold.settings import load_settings
from threefold.team import cues

MONDAY = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
NOW = MONDAY + timedelta(days=9)
PROJECTS = [
    {"stream": "project:alpha", "key": "ALPHA", "channels": ["proj-alpha"]},
    {"stream": "project:beta", "key": "BETA", "channels": ["proj-beta"]},
]
MESSAGES = [
    ("proj-alpha", "Priya", "I will finish the billing migration by Friday.", 0.0),
    ("proj-alpha", "Marco", "ALPHA-142 is blocked on the auth token from legal.", 0.1),
    ("proj-alpha", "Priya", "We decided to go with Postgres for the event store.", 0.2),
    ("proj-alpha", "Anil", "Can someone take over the release notes? I am out next week.", 0.3),
    ("proj-alpha", "Sam", "Does anyone know where the deploy runbook lives?", 1.1),
    ("proj-beta", "Lena", "The Beta demo is due on March 12.", 2.0),
    ("proj-beta", "Omar", "We'll go with a phased rollout for Beta.", 2.2),
]


def _say(mem: Memory, channel: str, user: str, text: str, at: datetime, **extra: object) -> str:
    ts = f"{at.timestamp():.6f}"
    mem.ingest_message(channel=channel, user=user, ts=ts, text=text, **extra)
    return ts


@pytest.fixture
def team(open_memory: MemoryFactory) -> Memory:
    mem = open_memory(projects=PROJECTS, embed={"kind": "none"}, sources={"batch_idle_minutes": 0})
    for channel, user, text, day in MESSAGES:
        _say(mem, channel, user, text, MONDAY + timedelta(days=day))
    mem.process_pending()
    return mem


def test_an_invalid_rule_field_is_a_settings_error_naming_the_key() -> None:
    with pytest.raises(SettingsError, match=r"team\.rules\.0\.colour"):
        load_settings(team={"rules": [{"kind": "stale_blocker", "colour": "red"}]})
    with pytest.raises(SettingsError, match=r"team\.rules\.0\.kind"):
        load_settings(team={"rules": [{"kind": "stale_blockers"}]})
    with pytest.raises(SettingsError, match=r"team\.rules\.0\.days"):
        load_settings(team={"rules": [{"kind": "deadline_soon", "days": -1}]})
    with pytest.raises(SettingsError, match=r"team\.rules\.0\.webhook"):
        load_settings(team={"rules": [{"kind": "mood_drop", "webhook": "file:///etc/passwd"}]})
    with pytest.raises(SettingsError, match=r"team\.timezone"):
        load_settings(team={"timezone": "Mars/Olympus"})


def test_rules_find_actions_with_their_evidence(team: Memory) -> None:
    report = team.rebuild_team(now=NOW)
    found = {a.kind: a for a in team.actions()}
    assert report.actions == len(found)
    assert set(found) == {
        "overdue_commitment",
        "stale_blocker",
        "unanswered",
        "unowned_handoff",
        "deadline_soon",
    }
    overdue = found["overdue_commitment"]
    assert overdue.owner == "priya" and str(overdue.due) == "2026-03-06"
    assert overdue.fact_ids and overdue.record_ids
    assert team.fact(overdue.fact_ids[0]).category == "commitment"
    blocked = found["stale_blocker"]
    assert "ALPHA-142" in blocked.title and blocked.evidence
    assert "release notes" in found["unowned_handoff"].title
    assert "deploy runbook" in found["unanswered"].title
    assert str(found["deadline_soon"].due) == "2026-03-12"


def test_status_survives_a_rebuild_and_a_cleared_cause_closes_the_action(team: Memory) -> None:
    team.rebuild_team(now=NOW)
    handoff = team.actions(rule="unowned_handoff")[0]
    blocker = team.actions(rule="stale_blocker")[0]
    team.set_action_status(handoff.id, "dismissed")
    _say(team, "proj-alpha", "Marco", "ALPHA-142 is unblocked now.", NOW - timedelta(hours=2))
    team.process_pending()
    team.rebuild_team(now=NOW)
    assert team.actions(status="dismissed")[0].id == handoff.id
    assert blocker.id in {a.id for a in team.actions(status="done")}
    assert blocker.id not in {a.id for a in team.actions()}
    with pytest.raises(InvalidInput, match="unknown action status"):
        team.set_action_status(handoff.id, "finished")


def test_a_person_with_no_messages_has_an_empty_profile_that_says_so(team: Memory) -> None:
    team.rebuild_team(now=NOW)
    nobody = team.profile("Zed")
    assert nobody.commitments == () and nobody.recent_activity == ()
    assert "no messages" in nobody.note
    priya = team.profile("Priya")
    assert "billing migration" in priya.commitments[0].text
    assert priya.activity == {"project:alpha": 2}
    alpha = team.profile("ALPHA")
    assert alpha.kind == "project" and {"Priya", "Marco"} <= set(alpha.people)
    assert any("Postgres" in d.text for d in alpha.decisions)
    assert team.profile("#proj-beta").kind == "channel"


def test_profiles_hold_only_what_the_trust_may_read(team: Memory) -> None:
    team.rebuild_team(now=NOW)
    assert team.profile("Priya", trust="inner").commitments  # Slack channels are shared
    public = team.profile("Priya", trust="public")
    assert public.commitments == () and public.recent_activity == () and public.activity == {}
    assert team.actions(trust="public") == []
    assert team.actions(tenant="other") == []


def test_a_week_with_no_activity_gives_an_empty_digest_that_says_so(team: Memory) -> None:
    quiet = team.digest("project:alpha", "last week", now=MONDAY + timedelta(days=1))
    assert quiet.empty and quiet.days == ()
    assert "No activity" in quiet.text and "2026-02-23" in quiet.text
    week = team.digest("project:alpha", "this week", now=MONDAY + timedelta(days=3))
    assert not week.empty and [str(d.day) for d in week.days] == ["2026-03-02", "2026-03-03"]
    assert any("Postgres" in i.text for i in week.days[0].learned)
    assert team.digest("project:alpha", "2026-03-02..2026-03-08").days == week.days
    with pytest.raises(InvalidInput, match="unknown period"):
        team.digest("project:alpha", "next year")
    with pytest.raises(InvalidInput, match="time zone"):
        team.digest("project:alpha", "today", timezone="Nowhere/City")


def test_days_follow_the_callers_time_zone(open_memory: MemoryFactory) -> None:
    mem = open_memory(embed={"kind": "none"})
    late = datetime(2026, 3, 2, 23, 30, tzinfo=UTC)  # already Tuesday in Berlin
    mem.add_turn("chat:1", "The supplier call moved to Thursday.", at=late)
    utc = mem.digest("chat:1", "2026-03-02")
    berlin = mem.digest("chat:1", "2026-03-03", timezone="Europe/Berlin")
    assert utc.days[0].items == 1 and berlin.days[0].items == 1
    assert mem.digest("chat:1", "2026-03-02", timezone="Europe/Berlin").empty


def test_context_adds_profiles_digests_and_labels_each_named_project(team: Memory) -> None:
    team.rebuild_team(now=NOW)
    ctx = team.context("project:alpha", "Compare Alpha and Beta: what did Priya commit to?", 3000)
    names = [s.name for s in ctx.sections]
    assert "profiles" in names and "projects" in names
    profiles = ctx.section("profiles")
    assert any(i.source and i.source.label() == "profile:person:priya" for i in profiles.items)
    projects = [i.text for i in ctx.section("projects").items]
    assert any(t.startswith("[project:alpha]") for t in projects)
    assert any(t.startswith("[project:beta]") for t in projects)
    assert ctx.tokens <= 3000
    small = team.context("project:alpha", "Compare Alpha and Beta", 300)
    assert small.tokens <= 300
    public = team.context("project:alpha", "Compare Alpha and Beta", 3000, trust="public")
    assert "Postgres" not in public.text


def test_context_uses_the_digests_for_a_question_about_a_period(
    open_memory: MemoryFactory,
) -> None:
    mem = open_memory(embed={"kind": "none"})
    mem.add_turn("chat:1", "We learned that the vendor cannot ship before April.")
    ctx = mem.context("chat:1", "What did we learn this week?", 2000)
    digest = ctx.section("digest")
    assert any("vendor" in i.text for i in digest.items)
    assert all(i.source is None or i.source.kind in ("digest", "turn") for i in digest.items)


class _Hook(BaseHTTPRequestHandler):
    received: list[dict] = []

    def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
        body = self.rfile.read(int(self.headers["Content-Length"]))
        _Hook.received.append(json.loads(body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def hook_url() -> Iterator[str]:
    server = HTTPServer(("127.0.0.1", 0), _Hook)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Hook.received = []
    yield f"http://127.0.0.1:{server.server_port}/hook"
    server.shutdown()
    server.server_close()


def _with_hook(open_memory: MemoryFactory, url: str, allow: tuple[str, ...], name: str) -> Memory:
    mem = open_memory(
        name=name,
        projects=PROJECTS,
        embed={"kind": "none"},
        sources={"batch_idle_minutes": 0},
        team={
            "rules": [{"kind": "stale_blocker", "webhook": url}],
            "webhook_allow_networks": allow,
        },
    )
    for channel, user, text, day in MESSAGES[:2]:
        _say(mem, channel, user, text, MONDAY + timedelta(days=day))
    mem.process_pending()
    return mem


def test_a_rule_webhook_hears_of_each_new_action_once(
    open_memory: MemoryFactory, hook_url: str
) -> None:
    mem = _with_hook(open_memory, hook_url, ("127.0.0.0/8",), "hook.db")
    assert mem.rebuild_team(now=NOW).webhooks == 1
    mem.rebuild_team(now=NOW)
    assert len(_Hook.received) == 1
    action = _Hook.received[0]["action"]
    assert action["kind"] == "stale_blocker" and action["fact_ids"]


def test_a_webhook_to_a_private_address_is_refused_unless_allowed(
    open_memory: MemoryFactory, hook_url: str
) -> None:
    mem = _with_hook(open_memory, hook_url, (), "guarded.db")
    report = mem.rebuild_team(now=NOW)
    assert report.new == 1 and report.webhooks == 0
    assert _Hook.received == []
    assert mem.actions()  # the action stands although its webhook was refused


@pytest.mark.parametrize(
    ("table", "examples"),
    [("handoff", e) for _, e in cues.HANDOFF_REQUESTS] + [("claim", e) for _, e in cues.CLAIMS],
)
def test_cue_tables_match_their_examples(table: str, examples: tuple[str, ...]) -> None:
    for example in examples:
        found = cues.handoff_request(example) if table == "handoff" else cues.claims(example)
        assert found, example


def test_cleared_examples_match() -> None:
    assert all(cues.CLEARED.search(e) for e in cues.CLEARED_EXAMPLES)
    assert cues.handoff_request("The release is on Friday.") is None
    assert not cues.claims("Can you take it?")


def test_a_channel_whose_mood_falls_gets_a_mood_drop_and_a_falling_trend(
    open_memory: MemoryFactory,
) -> None:
    mem = open_memory(projects=PROJECTS, embed={"kind": "none"}, sources={"batch_idle_minutes": 0})
    said = [
        (0, "Marco", "Great job on the search release, Priya!"),
        (1, "Priya", "Kudos to Marco for the billing fix."),
        (2, "Anil", "Nice work on the dashboards, Marco!"),
        (8, "Marco", "Honestly so frustrated with the flaky deploys."),
        (9, "Priya", "I'm fed up with the staging outages."),
        (10, "Anil", "Feeling burned out after this week."),
    ]
    for day, user, text in said:
        _say(mem, "proj-alpha", user, text, MONDAY + timedelta(days=day))
    mem.process_pending()
    mem.rebuild_team(now=MONDAY + timedelta(days=11))
    (drop,) = mem.actions(rule="mood_drop")
    assert "#proj-alpha" in drop.title and len(drop.fact_ids) == 3
    channel = mem.profile("#proj-alpha")
    assert channel.mood.trend == "falling"
    assert (channel.mood.before, channel.mood.recent) == (1.0, -1.0)
    steady = open_memory(name="steady.db", projects=PROJECTS, embed={"kind": "none"})
    assert steady.rebuild_team(now=NOW).actions == 0


def test_an_erasure_takes_what_profiles_digests_and_actions_quoted(team: Memory) -> None:
    team.rebuild_team(now=NOW)
    assert any(a.owner == "priya" for a in team.actions())
    assert "billing migration" in team.digest("project:alpha", "2026-03-02").text
    team.erase(entity="Priya")
    assert not any("billing" in a.title for a in team.actions(status=None))
    assert "billing migration" not in team.digest("project:alpha", "2026-03-02").text
    assert "no messages" in team.profile("Priya").note
    assert "Priya" not in team.profile("ALPHA").people
    assert team.actions(rule="stale_blocker")  # Marco's blocker was not Priya's


def test_a_period_question_naming_a_project_reads_that_projects_digest(
    open_memory: MemoryFactory,
) -> None:
    mem = open_memory(embed={"kind": "none"})
    mem.add_turn("project:beta", "We learned the vendor cannot ship before April.")
    mem.add_turn("chat:7", "Unrelated chatter about lunch.")
    ctx = mem.context("chat:7", "What did Beta learn this week?", 2000)
    assert any("vendor" in i.text for i in ctx.section("digest").items)


@pytest.mark.parametrize(
    "period",
    [
        "9999-12-31",
        "0001-01-01",
        "2026-02-30",
        "2026-03-09..2026-03-01",
        "2020-01-01..2026-01-01",
        "",
        "tomorrow-ish",
    ],
)
def test_bad_periods_are_refused_with_a_reason(team: Memory, period: str) -> None:
    with pytest.raises(InvalidInput):
        team.digest("project:alpha", period, timezone="Pacific/Kiritimati")


def test_bad_arguments_to_the_team_api_are_caller_errors(team: Memory) -> None:
    with pytest.raises(InvalidInput, match="action id"):
        team.set_action_status(0, "done")
    with pytest.raises(NotFound):
        team.set_action_status(999, "done")
    with pytest.raises(InvalidInput, match="name an entity"):
        team.profile("   ")
    with pytest.raises(InvalidInput, match="years"):
        team.rebuild_team(now=datetime(9999, 12, 31, tzinfo=UTC))
    with pytest.raises(InvalidInput, match="unknown action status"):
        team.actions(status="finished")
    assert team.actions(rule="no such rule") == []
