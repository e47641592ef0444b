"""What an agent pays to use the MCP face: a listing under 6 KB, results sent once and lean,
every tool strict about its arguments, and memory_people naming who the facts name.

Sizes are what goes over the wire: the JSON of the listed tools, and of a call's result.
"""

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from mcp import Client

from tests.conftest import MemoryFactory
from threefold import Memory
from threefold.domain import Trust
from threefold.faces.demo import STREAM, story
from threefold.faces.mcp import TOOL_NAMES, build_server

pytestmark = pytest.mark.anyio

LISTING_MAX = 6 * 1024
SEARCH_3_HITS_MAX = 1536

# One argument each tool really takes, so that a call fails only for the unknown one.
TAKES = {
    "memory_search": {"query": "deadline"},
    "memory_timeline": {"entity": STREAM},
    "memory_get": {"fact_id": 1},
    "memory_write": {"stream": STREAM, "text": "The demo ends today."},
    "memory_history": {"fact_id": 1},
    "memory_forget": {"fact_id": 1},
    "memory_erase": {"fact_id": 1},
    "memory_people": {},
    "memory_sessions": {"stream": STREAM},
    "memory_context": {"stream": STREAM},
    "memory_profile": {"entity": "Priya"},
    "memory_actions": {},
    "memory_digest": {"stream": STREAM},
}


@pytest.fixture
def memory(open_memory: MemoryFactory) -> Memory:
    """The demo story's key turns (the Alpha project: roles, a deadline, a blocker)."""
    mem = open_memory(embed={"kind": "none"})
    for turn in story(filler_after=0):
        mem.add_turn(STREAM, turn.user, turn.assistant, at=turn.at)
    mem.process_pending()
    return mem


def wire_size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":")).encode())


async def test_the_tool_listing_is_under_6_kb(memory: Memory) -> None:
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        tools = (await client.list_tools()).tools
    listed = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]
    assert wire_size(listed) <= LISTING_MAX, wire_size(listed)
    for tool in listed:
        schema = tool["inputSchema"]
        assert schema["additionalProperties"] is False
        assert "title" not in json.dumps(schema)  # titles repeat the names
        assert "outputSchema" not in tool  # results are text, sent once
        assert tool["description"] and "\n" not in tool["description"]


async def test_a_3_hit_search_is_sent_once_and_under_1_5_kb(memory: Memory) -> None:
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        result = await client.call_tool("memory_search", {"query": "architect", "limit": 3})
    sent = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    assert result.structured_content is None and len(result.content) == 1
    hits = json.loads(result.content[0].text)["hits"]
    assert len(hits) == 3
    assert wire_size(sent) <= SEARCH_3_HITS_MAX, wire_size(sent)
    for hit in hits:
        assert {"kind", "id", "stream", "text", "score", "source"} <= set(hit)
        assert not {"tenant", "signals", "tokens"} & set(hit)
        assert isinstance(hit["source"], str) and ":" in hit["source"]  # a label


async def test_every_tool_refuses_an_unknown_argument_and_does_nothing(memory: Memory) -> None:
    assert set(TAKES) == set(TOOL_NAMES)
    before = memory.facts(STREAM, include_inactive=True)
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        for tool, arguments in TAKES.items():
            result = await client.call_tool(tool, {**arguments, "fact": 2})
            text = result.content[0].text
            assert result.is_error, tool
            assert f"{tool} takes no argument 'fact'" in text, text
            assert all(name in text for name in arguments)  # it lists what it takes
        misspelt = await client.call_tool("memory_erase", {"stream_name": STREAM})
    assert misspelt.is_error and "'stream_name'" in misspelt.content[0].text
    assert memory.facts(STREAM, include_inactive=True) == before  # nothing erased or written
    assert memory.turns(STREAM)


async def test_people_are_those_the_facts_name(open_memory: MemoryFactory) -> None:
    memory = open_memory(embed={"kind": "none"})
    for said in (
        "My manager is Omar and my sister Lucia lives in Porto.",
        "My name is Dana.",
        "Raj is the Lead Architect now.",
    ):
        memory.add_turn("chat:8812", said, "Noted.")
    memory.process_pending()
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        result = await client.call_tool("memory_people", {"stream": "chat:8812"})
    people = json.loads(result.content[0].text)
    names = {person["name"] for person in people["people"]}
    assert {"Omar", "Lucia", "Dana", "Raj"} <= names, people
    assert people["total"] == len(people["people"]) and people["next_offset"] is None


async def test_a_hit_that_states_a_superseded_value_names_the_fact_in_force(
    memory: Memory,
) -> None:
    """The demo's first turn says Sarah is the Lead Architect; Raj has been since."""
    [raj] = [f for f in memory.facts(STREAM) if f.text == "Raj is the Lead Architect."]
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        result = await client.call_tool("memory_search", {"query": "architect", "limit": 3})
    hits = json.loads(result.content[0].text)["hits"]
    [sarah] = [h for h in hits if h["text"].startswith("Sarah is the Lead Architect")]
    assert {"id": raj.id, "text": raj.text} in sarah["now"]
    assert all("now" not in h for h in hits if h is not sarah)  # empty: left out


async def test_a_doubted_fact_hit_names_the_doubting_turn(open_memory: MemoryFactory) -> None:
    memory = open_memory()
    for n, said in enumerate(["I live in Leeds.", "so we're kinda in Perth now I guess"]):
        memory.add_turn("chat:home", said, "Noted.", at=datetime(2026, 5, 4 + n, tzinfo=UTC))
    memory.process_pending()
    moved = memory.turns("chat:home")[-1]
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        query = {"query": "where does the user live", "kinds": ["fact", "turn"]}
        result = await client.call_tool("memory_search", query)
    found = json.loads(result.content[0].text)["hits"]
    hits = [hit for h in found for hit in (h, *h.get("derived", []))]  # a fact rides its turn
    [leeds] = [h for h in hits if h["text"] == "The user lives in Leeds."]
    assert leeds["doubted_by"]["id"] == str(moved.id)
    assert all("doubted_by" not in h for h in hits if h is not leeds)  # none: left out
