"""docs/how-to/mcp.md names every tool the server lists, and counts them right."""

from pathlib import Path

import pytest
from mcp import Client

from tests.conftest import MemoryFactory
from threefold.domain import Trust
from threefold.faces.mcp import build_server

pytestmark = pytest.mark.anyio
PAGE = Path(__file__).resolve().parents[2] / "docs" / "how-to" / "mcp.md"
COUNTS = {10: "ten", 11: "eleven", 12: "twelve", 13: "thirteen", 14: "fourteen", 15: "fifteen"}


async def test_the_how_to_names_every_listed_tool(open_memory: MemoryFactory) -> None:
    async with Client(build_server(open_memory(), "default", Trust.FULL)) as client:
        listed = {tool.name for tool in (await client.list_tools()).tools}
    text = PAGE.read_text()
    table = [line for line in text.splitlines() if line.startswith("| `memory_")]

    assert {line.split("`")[1] for line in table} == listed
    assert f"{COUNTS[len(listed)]} tools" in text
