"""The three layers under pressure: what is pinned, what a busy stream's context keeps,
and what an import that floods `global` says."""

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.conftest import fact
from tests.scripted_model import ScriptedModel
from tests.sources.exports import msg, write_export
from threefold.context.assemble import FACTS_DROPPED, PROFILE_REST, TURN_CUT
from threefold.context.material import is_pinned
from threefold.domain import SourceRef
from threefold.layers.facts import record_fact

T0 = datetime(2026, 3, 2, 9, tzinfo=UTC)
STREAM = "project:alpha"
CHANNELS = [{"id": "C1", "name": "general", "members": ["U1"]}]
USERS = [{"id": "U1", "name": "ann", "profile": {"display_name": "Ann"}}]


def judged_model() -> ScriptedModel:
    """A message 'CATEGORY at 0.NN: text' yields that fact at that confidence."""

    def facts_for(turn):
        head, _, said = turn.user.partition(": ")
        if " at " not in head:
            return []
        category, _, confidence = head.partition(" at ")
        return [
            fact(said, "slot", said, float(confidence), category=category, text=said.capitalize())
        ]

    return ScriptedModel(facts_for)


def slack_export(root: Path, texts: list[str]) -> Path:
    stamp = int(T0.timestamp())
    day = [msg(f"{stamp + i * 60}.000100", text, "U1") for i, text in enumerate(texts)]
    return write_export(root, {"general": {"2026-03-02": day}}, users=USERS, channels=CHANNELS)


def add_facts(mem, stream: str, facts: list, kind: str = "turn") -> None:
    with mem.store.transaction():
        mem.store.ensure_stream(mem.tenant, stream)
        for n, item in enumerate(facts):
            at = T0 + timedelta(minutes=n)
            record_fact(mem.store, mem.tenant, stream, item, SourceRef(kind=kind, id=str(n), at=at))


# -- what is stored and what is pinned ----------------------------------------------


def test_slack_facts_are_stored_no_surer_than_judged(open_memory, tmp_path):
    mem = open_memory(judged_model())
    texts = [
        "decision at 0.3: we ship on friday",
        "decision at 0.6: we move standup to ten",
        "decision at 0.95: we use postgres for events",
        "commitment at 0.95: ann writes the migration guide",
    ]
    mem.import_slack(slack_export(tmp_path / "export", texts))
    stored = {f.text: f for f in mem.facts("global")}
    assert "We ship on friday" not in stored  # below 0.5: not stored at all
    assert stored["We move standup to ten"].confidence == pytest.approx(0.6)
    assert stored["We use postgres for events"].confidence == pytest.approx(0.85)
    pinned = {text for text, f in stored.items() if is_pinned(f, mem.settings)}
    # A plain decision is pinned; a weak one and a commitment are recall material.
    assert pinned == {"We use postgres for events"}


def test_the_users_word_is_pinned_and_the_assistants_is_not(open_memory):
    mem = open_memory()
    add_facts(mem, STREAM, [fact("db", "choice", "postgres", 0.7), fact("ui", "lib", "x", 0.55)])
    pinned = [f.value for f in mem.facts(STREAM) if is_pinned(f, mem.settings)]
    assert pinned == ["postgres"]


def test_an_import_that_floods_global_says_so(open_memory, tmp_path):
    mem = open_memory(ScriptedModel())
    texts = [f"note number {i} about the week" for i in range(250)]
    report = mem.import_slack(slack_export(tmp_path / "export", texts), process=False)
    assert report.routed == {"global": 250}
    assert len(report.warnings) == 1
    assert "global" in report.warnings[0] and "no projects are configured" in report.warnings[0]


@pytest.mark.slow
def test_the_command_line_shows_the_flood_warning(tmp_path):
    from typer.testing import CliRunner

    from threefold.faces.cli import app

    export = slack_export(tmp_path / "export", [f"note {i} about the week" for i in range(250)])
    base = ["--db", str(tmp_path / "cli.db")]
    result = CliRunner().invoke(
        app, [*base, "import", "slack", str(export)], env={"COLUMNS": "300"}
    )
    assert result.exit_code == 0, result.output
    assert "warning" in result.output and "no projects are configured" in result.output


def test_an_import_routed_to_projects_does_not_warn(open_memory, tmp_path):
    projects = [{"stream": STREAM, "channels": ["general"]}]
    mem = open_memory(ScriptedModel(), projects=projects)
    texts = [f"note number {i} about the week" for i in range(250)]
    report = mem.import_slack(slack_export(tmp_path / "export", texts), process=False)
    assert report.routed == {STREAM: 250} and report.warnings == ()


# -- bad input ----------------------------------------------------------------------


@pytest.mark.slow
def test_ten_thousand_pinned_facts_fit_as_profile_lines(open_memory):
    mem = open_memory()
    people = [f"person{n}" for n in range(500)]
    facts = [
        fact(who, f"trait{t}", f"value{t}", 0.9, text=f"{who.capitalize()} has trait {t} set.")
        for t in range(20)
        for who in people
    ]
    add_facts(mem, STREAM, facts)
    budget = 6000
    ctx = mem.context(STREAM, "What do we know about person123?", budget=budget)
    section = ctx.section("stream_facts")
    assert section.tokens <= budget * mem.settings.facts_ceiling_share
    assert section.items[0].text.startswith("- Person123: has trait")  # relevant first
    assert all("[20 facts:" in item.text for item in section.items)
    dropped = [d for d in ctx.dropped if d.section == "stream_facts"]
    assert {d.reason for d in dropped} == {FACTS_DROPPED, PROFILE_REST}
    # A profile line writes out up to eight of its facts, fewer when that is what fits.
    more = [re.search(r"; and (\d+) more", item.text) for item in section.items]
    shown = sum(20 - int(found[1]) if found else 20 for found in more)
    assert all(found for found in more[:-1])
    assert len(dropped) + shown == 10_000
    assert ctx.tokens <= budget


def test_a_fifty_thousand_token_turn_does_not_push_out_the_others(open_memory):
    mem = open_memory(ScriptedModel(), recent_turns=10)
    for i in range(10):
        text = "word " * 50_000 if i == 4 else f"turn number {i} of the chat"
        mem.add_turn(STREAM, text, at=T0 + timedelta(minutes=i))
    budget = 3000
    ctx = mem.context(STREAM, "what now?", budget=budget)
    items = ctx.section("recent_turns").items
    assert len(items) == 10
    huge = items[4]
    assert huge.text.endswith("[cut; the whole turn is turn:5]")
    assert huge.tokens <= budget * mem.settings.turn_max_share
    assert [d.reason for d in ctx.dropped if d.section == "recent_turns"] == [TURN_CUT]
    assert ctx.tokens <= budget


def test_a_stream_whose_only_content_is_global_facts(open_memory):
    mem = open_memory()
    roles = [
        fact(
            f"member{n}",
            "role",
            f"engineer {n}",
            0.85,
            category="role",
            text=f"Member{n} is engineer {n} on the platform team.",
        )
        for n in range(200)
    ]
    chatter = [
        fact(f"topic{n}", "note", f"n{n}", 0.9, text=f"Topic{n} came up in the weekly sync.")
        for n in range(200)
    ]
    add_facts(mem, "global", roles + chatter)
    budget = 6000
    ctx = mem.context("chat:new", "Where did topic7 come up?", budget=budget)
    names = [s.name for s in ctx.sections]
    assert names == ["system", "global_facts", "query"]
    section = ctx.section("global_facts")
    assert section.tokens <= budget * mem.settings.facts_ceiling_share
    texts = [item.text for item in section.items]
    assert texts[0].startswith("- Topic7 came up")  # relevant to the query
    assert not any(t.startswith("- Topic8 ") for t in texts)  # chatter, not tenant-wide
    assert sum(t.startswith("- Member") for t in texts) > 10  # roles are tenant-wide


# -- summaries worth reading ------------------------------------------------------


def chat(mem, turns: list[tuple[str, str]], start: datetime = T0) -> None:
    for n, (user, assistant) in enumerate(turns):
        mem.add_turn(STREAM, user, assistant, at=start + timedelta(minutes=n))
    mem.end_session(STREAM)
    mem.process_pending()


def test_a_session_summary_has_no_boilerplate_and_a_record(open_memory):
    mem = open_memory()
    chat(
        mem,
        [
            (
                "Can you help me plan the billing migration to Postgres?",
                "Assistant: Sure, I can help with that. Let me know the details.",
            ),
            ("We decided to move the billing tables to Postgres in April.", "Great, noted."),
            ("(take 2)", "ok"),
            ("The vendor contract is still unsigned, which blocks the cutover.", "Understood."),
            ("Who approves the budget for the extra replicas?", ""),
        ],
    )
    [session] = mem.summaries(STREAM, "session")
    assert "Assistant:" not in session.text and "take 2" not in session.text
    assert "- Open: " in session.text and "unsigned" in session.text
    record = session.record
    assert record["intent"].startswith("Can you help me plan the billing migration")
    assert any("Postgres in April" in d for d in record["decisions"])
    assert record["open_questions"] == ["Who approves the budget for the extra replicas?"]
    assert record["compression_ratio"] >= 1.0 and record["model"] == "heuristic"


def test_small_talk_leaves_no_empty_summary(open_memory):
    mem = open_memory()
    chat(mem, [("hi", "Hello! How can I help?"), ("thanks", "You're welcome.")])
    assert mem.summaries(STREAM, "session") == []
    assert mem.summaries(STREAM, "active") == []


def test_a_point_said_again_in_a_later_session_is_kept_once(open_memory):
    mem = open_memory()
    chat(mem, [("The staging database keeps failing its nightly backup job.", "")])
    later = T0 + timedelta(days=3)
    chat(mem, [("Staging database nightly backup job keeps failing again.", "")], later)
    active = mem.summaries(STREAM, "active")[-1].text
    lines = [line for line in active.splitlines() if "backup" in line]
    assert len(lines) == 1 and "again" in lines[0]  # the newest wording wins


def test_older_memory_keeps_room_beside_many_pinned_facts(open_memory):
    """A small budget with a crowd of pinned facts still shows what answers the question."""
    mem = open_memory(embed={"kind": "none"})
    mem.add_turn(STREAM, "The offsite venue is the Lakeside Lodge in Como.", at=T0)
    filler = "the build ran green, the backlog was groomed and nobody raised a concern " * 3
    for n in range(40):
        mem.add_turn(STREAM, f"Routine sync {n}: {filler}", at=T0 + timedelta(hours=n + 1))
    mem.process_pending()
    owners = [
        fact(f"svc{n}", "owner", f"team {n}", text=f"Service {n} is owned by team {n}.")
        for n in range(200)
    ]
    add_facts(mem, STREAM, owners)
    ctx = mem.context(STREAM, "Where is the offsite venue?", 1000)
    retrieved = " ".join(i.text for s in ctx.sections if s.name == "retrieved" for i in s.items)
    assert "Lakeside Lodge" in retrieved
    assert ctx.tokens <= 1000


def test_one_statement_read_twice_from_one_message_is_shown_once(open_memory):
    """A swap keys "amoxicillin, not penicillin" by the new value; the reader files the same
    as the held slot's update, keyed by the old. Both come from one message: the later
    reading stands and the earlier gives way to it, with its history."""
    mem = open_memory()
    said = "The user is allergic to amoxicillin."
    swap = fact("user", "allergy:amoxicillin", "amoxicillin", category="diet", text=said)
    update = fact("user", "allergy:penicillin", "amoxicillin", category="diet", text=said)
    at = T0 + timedelta(hours=1)
    with mem.store.transaction():
        mem.store.ensure_stream(mem.tenant, "chat:1")
        for item in (swap, update):
            record_fact(
                mem.store, mem.tenant, "chat:1", item, SourceRef(kind="turn", id="9", at=at)
            )
        record_fact(
            mem.store,
            mem.tenant,
            "chat:1",
            fact(
                "user",
                "allergy:latex",
                "latex",
                category="diet",
                text="The user is allergic to latex.",
            ),
            SourceRef(kind="turn", id="9", at=at),
        )
    current = sorted(f.text for f in mem.facts("chat:1"))
    assert current == [said, "The user is allergic to latex."]
    older = [
        f for f in mem.facts("chat:1", include_inactive=True) if f.slot == "allergy:amoxicillin"
    ]
    assert [f.status.value for f in older] == ["superseded"]
    assert any("read twice" in c.note for c in mem.fact_history(older[0].id).changes)
