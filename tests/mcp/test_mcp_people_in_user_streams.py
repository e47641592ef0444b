"""memory_people lists the person a user stream is named for when a fact names them."""

import json

import pytest
from mcp import Client

from threefold import Memory
from threefold.domain import Trust
from threefold.faces.mcp import build_server

pytestmark = pytest.mark.anyio


async def people(memory: Memory, **arguments: str) -> dict:
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        result = await client.call_tool("memory_people", arguments)
    return json.loads(result.content[0].text)


async def test_a_fact_about_the_user_of_a_user_stream_names_them(memory: Memory) -> None:
    memory.write_fact("user:lea", "Lea is allergic to penicillin.", category="health")

    everyone = await people(memory)
    in_her_stream = await people(memory, stream="user:lea")

    assert [p["name"] for p in everyone["people"]] == ["Lea"]
    assert everyone["people"][0]["facts"][0]["text"] == "Lea is allergic to penicillin."
    assert in_her_stream["total"] == 1


async def test_a_project_streams_own_name_is_still_no_person(memory: Memory) -> None:
    memory.write_fact("project:atlas", "Atlas ships on Friday.")
    memory.write_fact("project:atlas", "Raj is the Lead Architect.")

    found = await people(memory, stream="project:atlas")

    assert [p["name"] for p in found["people"]] == ["Raj"]
