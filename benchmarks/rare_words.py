"""What counting a question's rare words within the searched stream costs on SQLite.

    python benchmarks/rare_words.py [--turns 100000] [--words 40]

Search weighs a word of the question that the stream says once or twice (Store.rare_words).
SQLite counts such a word within the stream's filter, as PostgreSQL does, so that other
tenants and streams of the same file move nothing; a word the file says often is counted
among its first 1,024 matches. This builds one SQLite file with a busy tenant (--turns
turns of generated chat, without the pipeline) and a small one (20 turns), then times
rare_words for each tenant, one word at a time with nothing kept from a previous count
(as after every write), over words the busy tenant says often and the small one once.
Prints milliseconds per word (p50, p95, max) for each tenant. Asserts nothing.

Session 32, 100,000 turns, 2 quiet cores, p50 / p95 ms per word: busy tenant 0.13 / 0.28,
small tenant 1.02 / 1.12. Before, when a word the file said more than 32 times was common
whatever the stream said: 0.10 / 0.20 and 0.09 / 0.11 (the small tenant's rare words were
then decided by the busy one's).
"""

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from rich.console import Console
from rich.table import Table

from threefold.store.base import ItemFilter, NewTurn
from threefold.store.sqlite.store import SQLiteStore

_PEOPLE = "Priya Oskar Lucia Kenji Amara Dario Greta Hiro Nadia Tobias"
_THINGS = (
    "dentist hatchback guitar kitten landlord novel pool vet bakery marathon "
    "allotment ferry violin sourdough climbing wall laptop charger umbrella"
)
_VERBS = "mentioned fixed booked sold found lost borrowed painted"
T0 = datetime(2026, 1, 5, 9, tzinfo=UTC)


def _line(rng: random.Random) -> str:
    who, verb = rng.choice(_PEOPLE.split()), rng.choice(_VERBS.split())
    things = _THINGS.split()
    return f"{who} {verb} the {rng.choice(things)} near the {rng.choice(things)} again"


def build(path: Path, turns: int) -> SQLiteStore:
    store = SQLiteStore(path)
    rng = random.Random(7)
    for tenant, stream, count in (("busy", "chat:big", turns), ("small", "chat:new", 20)):
        store.ensure_stream(tenant, stream)
        if tenant == "busy":
            said = [_line(rng) for _ in range(count)]
        else:  # each of the busy tenant's words once, then small talk
            said = ["Our " + " and ".join(_THINGS.split())]
            said += [f"Small talk, number {n}." for n in range(1, count)]
        for start in range(0, count, 5_000):
            store.insert_turns(
                [
                    NewTurn(
                        tenant=tenant,
                        stream=stream,
                        user=text,
                        assistant="",
                        at=T0 + timedelta(seconds=start + n),
                        tokens=len(text.split()),
                    )
                    for n, text in enumerate(said[start : start + 5_000])
                ]
            )
    return store


def timed(store: SQLiteStore, where: ItemFilter, words: list[str]) -> list[float]:
    out = []
    for word in words:
        store._said_counts.clear()  # nothing counted before is kept
        start = time.perf_counter()
        store.rare_words(where, [word], most=2)
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=100_000)
    parser.add_argument("--words", type=int, default=40, help="words timed per tenant")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        store = build(Path(folder) / "rare.db", args.turns)
        print(f"built {args.turns:,} + 20 turns in {time.perf_counter() - started:.0f} s")
        things = _THINGS.split()
        words = (things * (args.words // len(things) + 1))[: args.words]
        table = Table(title=f"rare_words per word, SQLite, {args.turns:,} turns in the file")
        for column in ("tenant", "turns", "p50 ms", "p95 ms", "max ms"):
            table.add_column(column)
        for tenant, stream, size in (("busy", "chat:big", args.turns), ("small", "chat:new", 20)):
            times = sorted(timed(store, ItemFilter(tenant=tenant, streams=(stream,)), words))
            p95 = times[int(0.95 * (len(times) - 1))]
            row = (statistics.median(times), p95, times[-1])
            table.add_row(tenant, f"{size:,}", *(f"{t:.2f}" for t in row))
        store.close()
    Console(file=sys.stdout).print(table)


if __name__ == "__main__":
    main()
