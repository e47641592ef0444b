"""What the MCP face costs an agent in bytes: the tool listing, and typical results.

    python benchmarks/mcp_sizes.py [--turns 200]

The demo story (its 40 key turns and `--turns` more) goes into a fresh SQLite memory with
the default embedder; an SDK client then lists the tools and calls a few, in process.
Sizes are those of the JSON that goes over the wire (no indentation): the listed tools,
and each call's whole result (every copy of it the server sends). The goals of issue 34:
a listing of at most 6 KB, a 3-hit search of at most 1.5 KB.
"""

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from rich.console import Console
from rich.table import Table

from threefold import Memory, load_settings
from threefold.faces.demo import QUESTION, STREAM, story
from threefold.faces.mcp import build_server

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("memory_search", {"query": "who leads architecture", "limit": 3}),
    ("memory_search", {"query": "deadline", "limit": 10}),
    ("memory_get", {"fact_id": 1}),
    ("memory_people", {"stream": STREAM}),
    ("memory_timeline", {"entity": STREAM, "limit": 10}),
    ("memory_context", {"stream": STREAM, "query": QUESTION, "budget": 1000}),
]


def wire(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


async def measure(memory: Memory) -> list[tuple[str, str, int]]:
    rows = []
    async with Client(build_server(memory, "default", "full")) as client:
        tools = (await client.list_tools()).tools
        listed = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]
        rows.append(("tools/list", f"{len(tools)} tools", wire(listed)))
        for name, arguments in CALLS:
            result = await client.call_tool(name, arguments)
            sent = result.model_dump(mode="json", by_alias=True, exclude_none=True)
            shown = ", ".join(f"{k}={v}" for k, v in arguments.items())
            rows.append((name, shown[:48], wire(sent)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200)
    args = parser.parse_args()
    db = Path(tempfile.mkdtemp(prefix="threefold-mcp-sizes-")) / "memory.db"
    with Memory.open(settings=load_settings(db=db), background_worker=False) as memory:
        for turn in story(filler_after=args.turns):
            memory.add_turn(STREAM, turn.user, turn.assistant, at=turn.at)
        memory.process_pending()
        rows = anyio.run(measure, memory)
    table = Table(title=f"MCP bytes on the wire ({40 + args.turns} turns)")
    for column in ("call", "arguments", "bytes"):
        table.add_column(column, justify="right" if column == "bytes" else "left")
    for name, arguments, size in rows:
        table.add_row(name, arguments, f"{size:,}")
    Console().print(table)


if __name__ == "__main__":
    main()
