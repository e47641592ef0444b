"""Inspector page times on a stream with 100k items, through a real server.

    python benchmarks/inspector_pages.py [--turns 60000] [--records 30000] [--facts 10000]
                                         [--repeat 15] [--db PATH]

Seeds one stream of a fresh SQLite memory straight through the store (the seeding is not
under test: no extraction or summaries run), starts the app on a loopback port with
uvicorn, signs in to /ui with a full key, then fetches every page `--repeat` times and
prints the median, p95 and worst time of each, with the CPU time each page took (the
machine's load average is printed too: on a busy machine the wall times grow, the CPU
times do not). The goal: every page under 200 ms. Exits 1 if a page failed or its p95 is
over the goal.
"""

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlencode

import httpx
import uvicorn
from rich.console import Console
from rich.table import Table

from threefold import Memory, load_settings
from threefold.domain import FactCategory, SourceRef, SummaryKind, Visibility
from threefold.faces.http import create_app
from threefold.store.base import NewFact, NewRecord, NewSummary, NewTurn
from threefold.trust.keys import create_key

TENANT = "bench"
STREAM = "project:alpha"
GOAL_MS = 200.0
START = datetime(2025, 1, 1, tzinfo=UTC)
BATCH = 2000
WORDS = (
    "deadline",
    "migration",
    "billing",
    "dashboard",
    "release",
    "cache",
    "ledger",
    "architect",
    "vendor",
    "badge",
    "staging",
    "postgres",
    "spec",
    "standup",
    "priya",
    "raj",
    "mia",
    "demo",
)


def sentence(n: int) -> str:
    picked = [WORDS[(n * 7 + k * 13) % len(WORDS)] for k in range(12)]
    return f"Item {n}: " + " ".join(picked) + "."


def seed(memory: Memory, turns: int, records: int, facts: int) -> int:
    """Fill the stream; returns the id of a fact to open by URL."""
    store = memory.store
    for first in range(0, turns, BATCH):
        with store.transaction():
            for n in range(first, min(first + BATCH, turns)):
                store.insert_turn(
                    NewTurn(
                        tenant=TENANT,
                        stream=STREAM,
                        user=sentence(n),
                        assistant="Noted.",
                        at=START + timedelta(minutes=n),
                        tokens=20,
                    )
                )
    for first in range(0, records, BATCH):
        store.insert_records(
            [
                NewRecord(
                    tenant=TENANT,
                    stream=STREAM,
                    source="slack",
                    channel="alpha-eng",
                    external_id=f"{n}.000100",
                    author=("priya", "raj", "mia")[n % 3],
                    text=sentence(n),
                    kind="message",
                    at=START + timedelta(minutes=n),
                    route_method="channel",
                    route_confidence=1.0,
                    visibility=Visibility.SHARED,
                    tokens=20,
                    processed=True,
                    entities=(f"person:{('priya', 'raj', 'mia')[n % 3]}",),
                )
                for n in range(first, min(first + BATCH, records))
            ]
        )
    fact_id = 0
    for first in range(0, facts, BATCH):
        with store.transaction():
            for n in range(first, min(first + BATCH, facts)):
                fact_id = store.insert_fact(
                    NewFact(
                        tenant=TENANT,
                        stream=STREAM,
                        text=sentence(n),
                        category=FactCategory.NOTE,
                        subject=f"topic{n % 500}",
                        slot=f"note{n}",
                        value=str(n),
                        confidence=0.9,
                        source=SourceRef(kind="turn", id=str(n + 1), at=START),
                        tokens=20,
                    )
                ).id
    _seed_summaries(memory, turns)
    return fact_id


def _seed_summaries(memory: Memory, turns: int) -> None:
    sessions = []
    for n in range(0, turns, 20 * 25):  # one session summary per 500 turns keeps it brisk
        at = START + timedelta(minutes=n)
        sessions.append(
            memory.store.insert_summary(
                NewSummary(
                    tenant=TENANT,
                    stream=STREAM,
                    kind=SummaryKind.SESSION,
                    text=sentence(n),
                    tokens=30,
                    period_start=at,
                    period_end=at + timedelta(hours=1),
                    item_count=20,
                )
            )
        )
    for week in range(0, len(sessions), 7):
        members = sessions[week : week + 7]
        memory.store.insert_summary(
            NewSummary(
                tenant=TENANT,
                stream=STREAM,
                kind=SummaryKind.WEEKLY,
                text=sentence(week),
                tokens=60,
                period_start=members[0].period_start,
                period_end=members[-1].period_end,
                item_count=len(members),
                parents=tuple(s.id for s in members),
            )
        )


class Server:
    """The app under uvicorn in a thread, on a free loopback port."""

    def __init__(self, memory: Memory, settings: object) -> None:
        app = create_app(memory, settings, close_memory=False)  # type: ignore[arg-type]
        config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", ws="none")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        while not self.server.started:
            time.sleep(0.01)
        host, port = self.server.servers[0].sockets[0].getsockname()[:2]
        return f"http://{host}:{port}"

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


def pages(fact_id: int) -> dict[str, str]:
    stream = {"stream": STREAM}
    return {
        "streams": "/ui/streams",
        "context (question, 2000)": "/ui/context?"
        + urlencode({**stream, "q": "when is the billing deadline?", "budget": 2000}),
        "context (no question)": "/ui/context?" + urlencode(stream),
        "facts (active)": "/ui/facts?" + urlencode(stream),
        "facts (any status, page 5)": "/ui/facts?" + urlencode({**stream, "status": "", "p": 5}),
        "fact and its history": f"/ui/facts/{fact_id}",
        "summaries": "/ui/summaries?" + urlencode(stream),
        "turns (page 1)": "/ui/turns?" + urlencode(stream),
        "turns (page 20)": "/ui/turns?" + urlencode({**stream, "p": 20}),
        "records (page 1)": "/ui/records?" + urlencode(stream),
        "search": "/ui/search?" + urlencode({"q": "billing deadline", **stream}),
        "timeline (a person)": "/ui/timeline?entity=priya",
        "erase confirmation": "/ui/erase?" + urlencode(stream),
        "actions": "/ui/actions?status=",
        "imports": "/ui/imports",
    }


def _client(url: str) -> httpx.Client:
    return httpx.Client(base_url=url, timeout=60, follow_redirects=True)


class Times(NamedTuple):
    wall: list[float]
    """Milliseconds from request to the last byte of the answer."""
    cpu: list[float]
    """Milliseconds of this process's CPU time meanwhile: server and client share the
    process, so this is the page's own cost, whatever else the machine is running."""


def measure(client: httpx.Client, path: str, repeat: int) -> Times:
    client.get(path).raise_for_status()  # warm: templates compiled, pages cached by SQLite
    times = Times([], [])
    for _ in range(repeat):
        started, cpu = time.perf_counter(), time.process_time()
        client.get(path).raise_for_status()
        times.wall.append((time.perf_counter() - started) * 1000)
        times.cpu.append((time.process_time() - cpu) * 1000)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=60_000)
    parser.add_argument("--records", type=int, default=30_000)
    parser.add_argument("--facts", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--db", type=Path, default=None)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="threefold-inspector-"))
    settings = load_settings(db=args.db or folder / "memory.db", embed={"kind": "hashing"})
    console = Console()
    with Memory.open(settings=settings, background_worker=False) as memory:
        started = time.perf_counter()
        fact_id = seed(memory, args.turns, args.records, args.facts)
        items = args.turns + args.records + args.facts
        console.print(f"seeded {items:,} items in {time.perf_counter() - started:.0f} s")
        _, secret = create_key(memory.store, TENANT, "full")
        with (
            Server(memory, settings) as url,
            httpx.Client(base_url=url, timeout=60, follow_redirects=True) as client,
        ):
            client.post("/ui/signin", data={"key": secret}).raise_for_status()
            loads = [_load()]
            rows = {
                name: measure(client, path, args.repeat) for name, path in pages(fact_id).items()
            }
            loads.append(_load())
    return report(console, rows, items, loads)


def report(console: Console, rows: dict[str, Times], items: int, loads: list[str]) -> int:
    table = Table(title=f"inspector pages, one stream of {items:,} items (ms)")
    columns = ("page", "median", "p95", "worst", "CPU median", "CPU p95")
    for column in columns:
        table.add_column(column, justify="left" if column == "page" else "right")
    slow = 0
    for name, times in rows.items():
        wall, cpu = sorted(times.wall), sorted(times.cpu)
        slow += _p95(wall) > GOAL_MS
        shown = (statistics.median(wall), _p95(wall), wall[-1], statistics.median(cpu), _p95(cpu))
        table.add_row(name, *(f"{ms:.1f}" for ms in shown))
    console.print(table)
    console.print(f"load average (1, 5, 15 min) before: {loads[0]}; after: {loads[1]}")
    console.print(f"goal: every page's p95 under {GOAL_MS:.0f} ms; {slow} page(s) over it")
    return 1 if slow else 0


def _p95(ordered: list[float]) -> float:
    return ordered[max(0, round(0.95 * len(ordered)) - 1)]


def _load() -> str:
    return ", ".join(f"{n:.2f}" for n in os.getloadavg())


if __name__ == "__main__":
    sys.exit(main())
