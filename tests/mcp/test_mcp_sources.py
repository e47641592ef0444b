"""memory_timeline over people, channels, project keys and streams, and records in
memory_search, through the SDK's own client."""

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from mcp import Client

from tests.conftest import MemoryFactory
from tests.mcp.test_mcp_server import fails, ok
from threefold import Memory
from threefold.domain import Trust
from threefold.faces.mcp import build_server

pytestmark = pytest.mark.anyio

APOLLO = "project:apollo"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


def slack_ts(minutes: int) -> str:
    return f"{at(minutes).timestamp():.6f}"


@pytest.fixture
def memory(open_memory: MemoryFactory) -> Memory:
    """Priya in #apollo-eng, #general and a DM; a conversation turn about Apollo."""
    mem = open_memory(
        projects=[{"stream": APOLLO, "key": "APOLLO", "channels": ["apollo-eng"]}],
        sources={"batch_messages": 1},  # every message is digested at once
    )
    for minutes, channel, kind, text in (
        (0, "apollo-eng", "public", "We decided to use Postgres for the telemetry store."),
        (10, "general", "public", "The quokka offsite is in Lisbon this year."),
        (20, "D42", "dm", "The salary bands are final."),
    ):
        mem.ingest_message(
            channel=channel, user="priya", ts=slack_ts(minutes), text=text, channel_kind=kind
        )
    mem.add_turn(APOLLO, user="Status: the migration is on track.", at=at(5))
    mem.process_pending()
    return mem


def texts(timeline: dict[str, Any]) -> list[str]:
    """Each entry's text; a turn's is what the user said."""
    return [e["item"].get("text", e["item"].get("user")) for e in timeline["entries"]]


async def test_a_person_s_timeline(memory: Memory) -> None:
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        priya = await ok(client, "memory_timeline", entity="priya")
        at_priya = await ok(client, "memory_timeline", entity="@priya")
        newest = await ok(client, "memory_timeline", entity="priya", limit=1)
        window = await ok(
            client,
            "memory_timeline",
            entity="priya",
            since=at(5).isoformat(),
            until=at(15).isoformat(),
        )
        nobody = await ok(client, "memory_timeline", entity="nobody")
    assert (priya["entity"], priya["stream"]) == ("priya", None)
    assert at_priya["entries"] == priya["entries"]
    records = [e for e in priya["entries"] if e["type"] == "record"]
    assert [e["item"]["text"] for e in records] == [
        "priya: We decided to use Postgres for the telemetry store.",
        "priya: The quokka offsite is in Lisbon this year.",
        "priya: The salary bands are final.",
    ]
    assert {e["type"] for e in priya["entries"]} == {"record", "fact"}
    times = [datetime.fromisoformat(e["at"]) for e in priya["entries"]]
    assert times == sorted(times)
    assert not any("migration" in t for t in texts(priya))  # a turn belongs to its stream
    assert newest["entries"] == priya["entries"][-1:] and newest["truncated"] is True
    assert window["entries"] and all("quokka" in t for t in texts(window))
    assert nobody["entries"] == [] and nobody["total"] == 0


async def test_a_channel_s_timeline(memory: Memory) -> None:
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        general = await ok(client, "memory_timeline", entity="#general")
    assert general["stream"] is None
    assert {e["item"]["stream"] for e in general["entries"]} == {"global"}
    assert any("quokka" in t for t in texts(general))
    assert not any("Postgres" in t for t in texts(general))


async def test_a_project_key_is_its_stream_with_turns_and_records(memory: Memory) -> None:
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        by_key = await ok(client, "memory_timeline", entity="APOLLO")
        by_stream = await ok(client, "memory_timeline", entity=APOLLO)
    assert by_key["stream"] == by_stream["stream"] == APOLLO
    assert by_key["entries"] == by_stream["entries"]
    shown = [(e["type"], e["item"].get("text", e["item"].get("user"))) for e in by_key["entries"]]
    assert shown[0] == ("record", "priya: We decided to use Postgres for the telemetry store.")
    assert ("turn", "Status: the migration is on track.") in shown
    assert {kind for kind, _ in shown} <= {"record", "fact", "turn", "summary"}
    times = [datetime.fromisoformat(e["at"]) for e in by_key["entries"]]
    assert times == sorted(times)


async def test_the_session_s_trust_limits_the_timeline(memory: Memory) -> None:
    async with Client(build_server(memory, "default", Trust.INNER)) as client:
        inner = await ok(client, "memory_timeline", entity="priya")
    async with Client(build_server(memory, "default", Trust.PUBLIC)) as client:
        public = await ok(client, "memory_timeline", entity="priya")
        public_stream = await ok(client, "memory_timeline", entity=APOLLO)
    assert any("quokka" in t for t in texts(inner))
    assert not any("salary" in t for t in texts(inner))  # a DM is private
    assert public["entries"] == [] and public_stream["entries"] == []


async def test_another_tenant_s_timeline_is_empty(memory: Memory) -> None:
    async with Client(build_server(memory, "globex", Trust.FULL)) as client:
        for entity in ("priya", "#general", "APOLLO", APOLLO):
            assert (await ok(client, "memory_timeline", entity=entity))["entries"] == []


@pytest.mark.parametrize(
    ("entity", "expected"),
    [
        ("   ", "name an entity"),
        ("project:Not A Stream", "invalid stream name 'project:Not A Stream'"),
    ],
)
async def test_a_bad_entity_is_a_clear_tool_error(
    memory: Memory, entity: str, expected: str
) -> None:
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        message = await fails(client, "memory_timeline", entity=entity)
    assert message.startswith("Error executing tool memory_timeline:") and expected in message


async def test_search_finds_records(memory: Memory) -> None:
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        found = await ok(client, "memory_search", query="quokka offsite", kinds=["record"])
    kinds = tools["memory_search"].input_schema["properties"]["kinds"]
    assert "record" in str(kinds)
    assert "record" in (tools["memory_search"].description or "")
    assert found["hits"] and {h["kind"] for h in found["hits"]} == {"record"}
    assert "Lisbon" in found["hits"][0]["text"]
    entity = tools["memory_timeline"].input_schema
    assert entity["required"] == ["entity"] and "stream" not in entity["properties"]
