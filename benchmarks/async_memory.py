"""What AsyncMemory costs and what it buys: context() latency through it against Memory's,
and how long the event loop is held while concurrent requests ask for contexts.

    python benchmarks/async_memory.py [--turns 540] [--queries 60] [--concurrency 8]

Default settings (the local MiniLM embedder, heuristic model) on a fresh SQLite file with
the demo story; every question is asked once. "loop held" is the longest gap between the
ticks of a 1 ms heartbeat task while the requests run: calling the synchronous Memory
from a coroutine holds the loop for a whole context(); AsyncMemory does not.
"""

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from rich.console import Console
from rich.table import Table

from threefold import AsyncMemory, Memory, load_settings
from threefold.faces.demo import QUESTION, STREAM, story


def questions(count: int, tag: str) -> list[str]:
    return [f"{QUESTION.rstrip('?')} ({tag} {n})?" for n in range(count)]


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


async def heartbeat(stop: asyncio.Event, gaps: list[float]) -> None:
    last = time.perf_counter()
    while not stop.is_set():
        await asyncio.sleep(0.001)
        now = time.perf_counter()
        gaps.append(now - last)
        last = now


async def concurrently(
    ask: Callable[[str], Awaitable[object]], asked: list[str], width: int
) -> tuple[float, float]:
    """Ask every question, `width` at a time; returns (seconds in all, longest loop gap)."""
    stop, gaps = asyncio.Event(), []
    beat = asyncio.create_task(heartbeat(stop, gaps))
    started = time.perf_counter()
    for first in range(0, len(asked), width):
        await asyncio.gather(*(ask(q) for q in asked[first : first + width]))
    took = time.perf_counter() - started
    stop.set()
    await beat
    return took, max(gaps, default=0.0)


async def measure(mem: Memory, queries: int, width: int) -> list[tuple[str, ...]]:
    rows = []
    direct = []
    for question in questions(queries, "direct"):
        started = time.perf_counter()
        mem.context(STREAM, question)
        direct.append(time.perf_counter() - started)
    rows.append(("Memory, one at a time", f"{median_ms(direct):.1f}", "", ""))

    amem = AsyncMemory(mem, close_memory=False)
    awaited = []
    for question in questions(queries, "awaited"):
        started = time.perf_counter()
        await amem.context(STREAM, question)
        awaited.append(time.perf_counter() - started)
    rows.append(("AsyncMemory, one at a time", f"{median_ms(awaited):.1f}", "", ""))

    async def blocking(question: str) -> object:
        return mem.context(STREAM, question)  # what an async app does without AsyncMemory

    for label, ask in [
        ("Memory called in a coroutine", blocking),
        ("AsyncMemory", lambda q: amem.context(STREAM, q)),
    ]:
        took, held = await concurrently(ask, questions(queries, label), width)
        rows.append(
            (f"{label}, {width} at once", "", f"{queries / took:.1f}", f"{held * 1000:.1f}")
        )
    await amem.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=540)
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        settings = load_settings(db=Path(folder) / "bench.db")
        with Memory.open(settings=settings, background_worker=False) as mem:
            for turn in list(story(filler_after=max(args.turns - 40, 0)))[: args.turns]:
                mem.add_turn(STREAM, turn.user, turn.assistant, at=turn.at)
            mem.process_pending()
            rows = asyncio.run(measure(mem, args.queries, args.concurrency))
            embedder = mem.embedder_name
    table = Table(
        "how",
        "context() median ms",
        "contexts / s",
        "loop held, ms",
        title=f"AsyncMemory: {args.turns} turns, {args.queries} unique questions, {embedder}",
    )
    for row in rows:
        table.add_row(*row)
    Console().print(table)


if __name__ == "__main__":
    main()
