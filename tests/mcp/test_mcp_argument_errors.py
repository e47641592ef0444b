"""A tool called with an argument of the wrong value or type answers one clean line naming
the argument, as threefold's own errors do: no pydantic banner, model name or links."""

import pytest
from mcp import Client

from threefold import Memory
from threefold.domain import Trust
from threefold.faces.mcp import build_server

pytestmark = pytest.mark.anyio


async def error_of(memory: Memory, tool: str, arguments: dict) -> str:
    async with Client(build_server(memory, "default", Trust.FULL)) as client:
        result = await client.call_tool(tool, arguments)
    assert result.is_error, result.content
    return result.content[0].text


@pytest.mark.parametrize(
    ("tool", "arguments", "named"),
    [
        ("memory_search", {"query": "penicillin", "limit": -3}, "limit"),
        ("memory_search", {"query": "x", "kinds": ["gossip"]}, "kinds"),
        ("memory_get", {"fact_id": "seven"}, "fact_id"),
        ("memory_search", {}, "query"),
    ],
)
async def test_a_bad_argument_is_one_line_naming_it(
    memory: Memory, tool: str, arguments: dict, named: str
) -> None:
    text = await error_of(memory, tool, arguments)

    assert text.startswith(f"Error executing tool {tool}: {named}"), text
    assert "\n" not in text
    for leak in ("validation error", "pydantic", "https://", "Arguments", "input_value"):
        assert leak not in text, text


async def test_the_message_says_what_is_wrong(memory: Memory) -> None:
    text = await error_of(memory, "memory_search", {"query": "x", "limit": -3})

    assert text == (
        "Error executing tool memory_search: limit: Input should be greater than or equal "
        "to 1 (got -3)"
    )
