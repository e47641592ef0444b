"""The MCP server, driven in-process by the SDK's own client."""

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from mcp import Client

from tests.conftest import MemoryFactory
from threefold import Memory
from threefold.domain import Trust
from threefold.faces.mcp import TOOL_NAMES, build_server

pytestmark = pytest.mark.anyio

T0 = datetime(2026, 10, 5, 9, 0, tzinfo=UTC)


@pytest.fixture
def memory(open_memory: MemoryFactory) -> Memory:
    return open_memory(session_turns=2)


async def ok(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    return sent_once(result)


def sent_once(result: Any) -> Any:
    """The one copy a result is sent as: compact JSON text, and no structured content."""
    assert result.structured_content is None and len(result.content) == 1
    text = result.content[0].text
    assert "\n  " not in text  # not pretty-printed
    return json.loads(text)


async def fails(client: Client, tool: str, **arguments: Any) -> str:
    result = await client.call_tool(tool, arguments)
    assert result.is_error, result.structured_content
    text = result.content[0].text
    assert "Traceback" not in text
    return text


async def test_lists_all_tools(memory: Memory) -> None:
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert (
        set(tools)
        == set(TOOL_NAMES)
        == {
            "memory_search",
            "memory_timeline",
            "memory_get",
            "memory_write",
            "memory_history",
            "memory_people",
            "memory_sessions",
            "memory_context",
            "memory_forget",
            "memory_erase",
            "memory_profile",
            "memory_actions",
            "memory_digest",
        }
    )
    for tool in tools.values():
        assert tool.description
        assert tool.input_schema["type"] == "object"
    assert tools["memory_get"].annotations.read_only_hint is True
    assert not tools["memory_write"].annotations.read_only_hint  # the spec's default
    assert tools["memory_search"].input_schema["required"] == ["query"]
    assert set(tools["memory_context"].input_schema["properties"]) == {"stream", "query", "budget"}


async def test_write_get_and_history(memory: Memory) -> None:
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        old = await ok(
            client,
            "memory_write",
            stream="project:alpha",
            text="Raj is the Lead Architect.",
            category="role",
        )
        new = await ok(
            client,
            "memory_write",
            stream="project:alpha",
            text="Maria is the Lead Architect.",
            confidence=0.99,
        )
        assert new["text"] == "Maria is the Lead Architect."
        assert "visibility" not in new  # private, the default, goes unsaid
        assert new["supersedes"] == old["id"]

        got = await ok(client, "memory_get", fact_id=old["id"])
        assert got["status"] == "superseded" and got["superseded_by"] == new["id"]

        history = await ok(client, "memory_history", fact_id=new["id"])
    assert history["fact"]["id"] == new["id"]
    assert [f["id"] for f in history["chain"]] == [old["id"], new["id"]]
    assert any(c["action"].upper() == "SUPERSEDE" for c in history["changes"])


async def test_search_finds_facts_and_turns(memory: Memory) -> None:
    memory.add_turn("project:alpha", user="The badge vendor is Acme Badges.", assistant="Noted.")
    memory.add_turn("project:beta", user="The badge vendor for beta is unknown.", assistant="Ok.")
    memory.process_pending()
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        found = await ok(client, "memory_search", query="badge vendor", stream="project:alpha")
        turns = await ok(client, "memory_search", query="badge vendor", kinds=["turn"], limit=5)
        bad_preset = await fails(client, "memory_search", query="badge", preset="nope")
        bad_kind = await fails(client, "memory_search", query="badge", kinds=["cat"])
    assert found["hits"], found
    assert {h["stream"] for h in found["hits"]} == {"project:alpha"}
    assert any("Acme Badges" in h["text"] for h in found["hits"])
    assert {h["kind"] for h in turns["hits"]} == {"turn"}
    assert {h["stream"] for h in turns["hits"]} == {"project:alpha", "project:beta"}
    assert "unknown preset 'nope'" in bad_preset
    assert "kinds" in bad_kind


async def test_timeline_orders_turns_and_summaries(memory: Memory) -> None:
    for i in range(4):
        memory.add_turn(
            "project:alpha",
            user=f"Status update number {i}: the migration is on track.",
            assistant="Thanks.",
            at=T0 + timedelta(hours=i),
        )
    memory.process_pending()
    assert memory.summaries("project:alpha", "session"), "session_turns=2 makes summaries"
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        everything = await ok(client, "memory_timeline", entity="project:alpha")
        window = await ok(
            client,
            "memory_timeline",
            entity="project:alpha",
            since=(T0 + timedelta(minutes=30)).isoformat(),
            until=(T0 + timedelta(hours=2, minutes=30)).isoformat(),
        )
        newest = await ok(client, "memory_timeline", entity="project:alpha", limit=2)
        empty = await ok(client, "memory_timeline", entity="project:nothing")

    entries = everything["entries"]
    assert (everything["entity"], everything["stream"]) == ("project:alpha", "project:alpha")
    assert [e["type"] for e in entries].count("turn") == 4
    assert "summary" in [e["type"] for e in entries]
    times = [datetime.fromisoformat(e["at"]) for e in entries]
    assert times == sorted(times)
    assert everything["truncated"] is False and everything["total"] == len(entries)
    turn_seqs = [e["item"]["seq"] for e in window["entries"] if e["type"] == "turn"]
    assert turn_seqs == [2, 3]
    assert len(newest["entries"]) == 2 and newest["truncated"] is True
    assert newest["entries"] == entries[-2:]
    assert empty["entries"] == []


@pytest.mark.slow
async def test_people_names_subjects_and_values(memory: Memory) -> None:
    memory.write_fact("project:alpha", "Raj is the Lead Architect.")
    memory.write_fact("project:alpha", "Priya Shah handles billing.")
    memory.write_fact("project:alpha", "The Alpha deadline is March 27, 2027.", category="deadline")
    memory.write_fact("project:beta", "Priya Shah owns the beta rollout.")
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        alpha = await ok(client, "memory_people", stream="project:alpha")
        everywhere = await ok(client, "memory_people")

    names = {p["name"]: p for p in alpha["people"]}
    assert set(names) == {"Raj", "Priya Shah"}
    assert names["Raj"]["facts"][0]["text"] == "Raj is the Lead Architect."
    overall = {p["name"]: len(p["facts"]) for p in everywhere["people"]}
    assert overall == {"Priya Shah": 2, "Raj": 1}
    assert everywhere["people"][0]["name"] == "Priya Shah"  # most facts first


async def test_sessions_end_list_and_refresh(memory: Memory) -> None:
    memory.add_turn("project:alpha", user="We picked Postgres for the ledger.", assistant="Ok.")
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        before = await ok(client, "memory_sessions", stream="project:alpha", action="list")
        ended = await ok(client, "memory_sessions", stream="project:alpha", action="end")
        memory.process_pending()
        after = await ok(client, "memory_sessions", stream="project:alpha", action="list")
        refreshed = await ok(client, "memory_sessions", stream="project:alpha", action="refresh")
        bad = await fails(client, "memory_sessions", stream="project:alpha", action="explode")
    assert before["summaries"] == []
    assert ended["queued"] is True
    assert len(after["summaries"]) == 1 and after["summaries"][0]["kind"] == "session"
    assert refreshed["summary"]["kind"] == "active"
    assert "action" in bad


async def test_context_holds_facts_within_budget(memory: Memory) -> None:
    memory.write_fact("project:alpha", "The Alpha demo is on Friday.", category="date")
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        ctx = await ok(
            client, "memory_context", stream="project:alpha", query="When is the demo?", budget=500
        )
        zero = await fails(client, "memory_context", stream="project:alpha", query="x", budget=0)
    assert "The Alpha demo is on Friday." in ctx["text"]
    report = ctx["report"]
    assert report["tokens"] <= 500 and report["budget"] == 500
    assert set(report["sections"]) >= {"stream_facts", "query"}
    assert "budget" in zero


@pytest.mark.slow
async def test_context_payload_is_the_text_and_a_short_report(memory: Memory) -> None:
    for n in range(300):
        memory.write_fact(
            "project:alpha",
            f"Widget {n} ships in crate {n}.",
            subject=f"widget {n}",
            slot="crate",
            value=str(n),
        )
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        ctx = await ok(client, "memory_context", stream="project:alpha", budget=800)
    assert set(ctx) == {"stream", "text", "report"}
    [dropped] = ctx["report"]["dropped"]
    assert dropped["section"] == "stream_facts" and dropped["items"] > 250
    assert len(json.dumps(ctx)) < 3 * len(ctx["text"]) + 2000  # the text once, no list


async def test_people_are_paged_and_things_are_not_people(memory: Memory) -> None:
    for name in ("Ann Lee", "Bo Chen", "Cy Diaz"):
        memory.write_fact("project:alpha", f"{name} handles billing.")
    memory.write_fact(
        "project:alpha",
        "The ticket status is Done.",
        category="status",
        subject="ticket",
        slot="status",
        value="Done",
    )
    memory.write_fact(
        "project:alpha",
        "We decided to use GraphQL.",
        category="decision",
        subject="alpha",
        slot="api",
        value="GraphQL",
    )
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        first = await ok(client, "memory_people", limit=2)
        rest = await ok(client, "memory_people", limit=2, offset=first["next_offset"])
    names = [p["name"] for p in first["people"] + rest["people"]]
    assert names == ["Ann Lee", "Bo Chen", "Cy Diaz"]
    assert first["total"] == 3 and rest["next_offset"] is None
    assert first["people"][0]["fact_count"] == 1


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("memory_write", {"text": "Something true."}),
        ("memory_context", {"query": "x"}),
        ("memory_sessions", {"action": "list"}),
        ("memory_search", {"query": "x"}),
        ("memory_people", {}),
    ],
)
async def test_invalid_stream_is_a_clear_tool_error(
    memory: Memory, tool: str, arguments: dict[str, Any]
) -> None:
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        message = await fails(client, tool, stream="Not A Stream!", **arguments)
    assert f"Error executing tool {tool}: invalid stream name 'Not A Stream!'" in message
    assert "kind:id" in message


async def test_unknown_fact_id_is_not_found(memory: Memory) -> None:
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        get = await fails(client, "memory_get", fact_id=424242)
        history = await fails(client, "memory_history", fact_id=424242)
        not_a_number = await fails(client, "memory_get", fact_id="twelve")
    assert get == "Error executing tool memory_get: no fact 424242"
    assert history == "Error executing tool memory_history: no fact 424242"
    assert "fact_id" in not_a_number


async def test_bad_write_arguments_are_clear(memory: Memory) -> None:
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        category = await fails(
            client, "memory_write", stream="project:alpha", text="X is Y.", category="gossip"
        )
        empty = await fails(client, "memory_write", stream="project:alpha", text="   ")
        confidence = await fails(
            client, "memory_write", stream="project:alpha", text="X is Y.", confidence=3
        )
    assert "gossip" in category
    assert "a fact needs some text" in empty
    assert "confidence" in confidence
    assert memory.facts("project:alpha") == []


def _seed_visibilities(memory: Memory) -> dict[str, int]:
    """One fact and one turn of each visibility, about the same topic."""
    ids = {}
    for visibility in ("private", "shared", "social"):
        fact = memory.write_fact(
            "project:alpha",
            f"The {visibility} codename is Falcon-{visibility}.",
            visibility=visibility,
        )
        ids[visibility] = fact.id
        memory.add_turn(
            "project:alpha",
            user=f"Falcon {visibility} turn about the codename.",
            assistant="Noted.",
            visibility=visibility,
        )
    memory.process_pending()
    return ids


async def test_public_session_writes_nothing_and_reads_nothing(memory: Memory) -> None:
    ids = _seed_visibilities(memory)
    facts_before = len(memory.facts("project:alpha"))
    async with Client(build_server(memory, "default", Trust.PUBLIC)) as client:
        write = await fails(client, "memory_write", stream="project:alpha", text="Eve is CEO.")
        end = await fails(client, "memory_sessions", stream="project:alpha", action="end")
        refresh = await fails(client, "memory_sessions", stream="project:alpha", action="refresh")
        listed = await ok(client, "memory_sessions", stream="project:alpha", action="list")
        gets = [await fails(client, "memory_get", fact_id=i) for i in ids.values()]
        history = await fails(client, "memory_history", fact_id=ids["private"])
        search = await ok(client, "memory_search", query="Falcon codename")
        timeline = await ok(client, "memory_timeline", entity="project:alpha")
        people = await ok(client, "memory_people")
        ctx = await ok(client, "memory_context", stream="project:alpha", query="codename?")
    assert "trust 'public'" in write and "may not write" in write
    assert "trust 'public'" in end and "trust 'public'" in refresh
    assert len(memory.facts("project:alpha")) == facts_before
    assert listed["summaries"] == []
    assert gets == [f"Error executing tool memory_get: no fact {i}" for i in ids.values()]
    assert history == f"Error executing tool memory_history: no fact {ids['private']}"
    assert search["hits"] == [] and timeline["entries"] == [] and people["people"] == []
    assert "Falcon" not in ctx["text"]


async def test_familiar_session_reads_social_items_only(memory: Memory) -> None:
    ids = _seed_visibilities(memory)
    async with Client(build_server(memory, "default", Trust.FAMILIAR)) as client:
        social = await ok(client, "memory_get", fact_id=ids["social"])
        private = await fails(client, "memory_get", fact_id=ids["private"])
        shared = await fails(client, "memory_get", fact_id=ids["shared"])
        history = await ok(client, "memory_history", fact_id=ids["social"])
        search = await ok(client, "memory_search", query="Falcon codename")
        timeline = await ok(client, "memory_timeline", entity="project:alpha")
        ctx = await ok(client, "memory_context", stream="project:alpha", query="codename?")
        written = await ok(client, "memory_write", stream="project:alpha", text="Zoe is the PM.")
    assert social["id"] == ids["social"]
    assert private.endswith(f"no fact {ids['private']}")
    assert shared.endswith(f"no fact {ids['shared']}")
    assert all(f["visibility"] == "social" for f in history["chain"])
    assert search["hits"] and {h["visibility"] for h in search["hits"]} == {"social"}
    assert [e["item"]["visibility"] for e in timeline["entries"]] == ["social"]
    assert "Falcon-social" in ctx["text"]
    assert "Falcon-private" not in ctx["text"] and "Falcon-shared" not in ctx["text"]
    assert written["visibility"] == "social"  # what this session may read back


async def test_tenants_never_see_each_other(memory: Memory) -> None:
    async with Client(build_server(memory, "acme", Trust.FULL)) as acme:
        fact = await ok(acme, "memory_write", stream="project:alpha", text="Raj leads acme.")
        assert "tenant" not in fact  # the session's own
        assert memory.fact(fact["id"], tenant="acme").text == "Raj leads acme."
        assert (await ok(acme, "memory_get", fact_id=fact["id"]))["id"] == fact["id"]
    async with Client(build_server(memory, "globex", Trust.FULL)) as globex:
        missing = await fails(globex, "memory_get", fact_id=fact["id"])
        search = await ok(globex, "memory_search", query="Raj leads acme")
    assert missing.endswith(f"no fact {fact['id']}")
    assert search["hits"] == []
    assert memory.facts("project:alpha") == []  # the default tenant saw nothing either


async def test_json_rpc_path_over_the_in_memory_transport(memory: Memory) -> None:
    """mode='legacy' runs the initialize handshake and JSON-RPC framing, as stdio does."""
    async with Client(build_server(memory, "default", Trust.FULL), mode="legacy") as client:
        names = {t.name for t in (await client.list_tools()).tools}
        fact = await ok(client, "memory_write", stream="chat:8812", text="Ana prefers tea.")
        missing = await fails(client, "memory_get", fact_id=fact["id"] + 100)
    assert names == set(TOOL_NAMES)
    assert fact["stream"] == "chat:8812"
    assert "no fact" in missing


def test_build_server_rejects_a_bad_trust_or_tenant(memory: Memory) -> None:
    with pytest.raises(ValueError):
        build_server(memory, "default", "root")
    with pytest.raises(ValueError, match="invalid tenant"):
        build_server(memory, "no spaces please", Trust.FULL)


@pytest.mark.parametrize(
    ("span", "expected"),
    [
        ("Raj", True),
        ("Priya Shah", True),
        ("O'Brien", True),
        ("May", True),
        ("Lead Architect", False),
        ("The Team", False),
        ("Friday", False),
        ("raj", False),
        ("Q3", False),
        ("Ana Maria de Souza", False),
    ],
)
def test_what_looks_like_a_name(span: str, expected: bool) -> None:
    from threefold.layers.people import looks_like_name

    assert looks_like_name(span) is expected


async def test_forget_and_erase_only_at_full_trust(memory: Memory) -> None:
    memory.add_turn("chat:m", "Raj is the Lead Architect.", at=T0)
    memory.add_turn("chat:m", "I adopted a greyhound.", at=T0, speaker="Gwen")
    memory.process_pending()
    fact_id = memory.facts("chat:m")[0].id
    async with Client(build_server(memory, "default", Trust.INNER)) as client:
        assert "trust 'full'" in await fails(client, "memory_forget", fact_id=fact_id)
        assert "trust 'full'" in await fails(client, "memory_erase", person="Gwen")
    async with Client(build_server(memory, "other", Trust.FULL)) as client:
        assert "no fact" in await fails(client, "memory_forget", fact_id=fact_id)
        await fails(client, "memory_erase", person="Gwen")
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        forgotten = await ok(client, "memory_forget", fact_id=fact_id, reason="asked")
        assert forgotten["status"] == "retracted"
        erased = await ok(client, "memory_erase", person="Gwen")
        assert erased["turns"] == 1
        assert "exactly one" in await fails(client, "memory_erase")
    assert [t.user for t in memory.turns("chat:m")] == ["Raj is the Lead Architect."]
