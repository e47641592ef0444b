"""CPU of one Memory.context() call in the process, and where it goes.

    python benchmarks/context_cpu.py [--turns 200] [--questions 1000] [--embed hashing]
                                     [--budgets 2000] [--db PATH | URL]

Seeds the stream that `http_load.py` serves (or reuses --db), then asks `--questions`
unique questions, each once, and prints the thread CPU per context: the figure
`http_load.py`'s server CPU per request is made of, less the HTTP part. The phases are
timed by wrapping the functions a context calls, so their sum is a little above the
total. CPU time swells on a busy machine, so the load average is printed beside it.
"""

import argparse
import functools
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from http_load import QUERIES, STREAM, TENANT, seed
from rich.console import Console
from rich.table import Table

import threefold.context.assemble
import threefold.context.material
from threefold import Memory, load_settings
from threefold.recall.search import Recall
from threefold.team.service import Team

PHASES: list[tuple[Any, str, str]] = [
    # Memory.context imports these when it runs, so patching the modules reaches it.
    (threefold.context.material, "read_view", "the stream's view (turns, facts, summary)"),
    (Recall, "search_items", "search (full text, vectors, fusion, items)"),
    (threefold.context.material, "gather", "gathering, search included"),
    (Team, "material", "profiles, projects and digests"),
    (threefold.context.assemble, "assemble", "assembly within the budget"),
]


def timed(spent: dict[str, float], name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(function)
    def run(*args: Any, **kwargs: Any) -> Any:
        started = time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[name] = spent.get(name, 0.0) + time.thread_time() - started

    return run


def questions(count: int, rng: random.Random) -> list[str]:
    """Each asked once, as http_load.py asks them; the empty one asks for no query."""
    asked = [rng.choice(QUERIES) for _ in range(count)]
    return [f"{a} (#{rng.randrange(10**7, 10**8)})" if a else "" for a in asked]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--questions", type=int, default=1000)
    parser.add_argument("--embed", default="hashing", choices=["hashing", "minilm", "static"])
    parser.add_argument("--budgets", type=int, nargs="+", default=[2000])
    parser.add_argument(
        "--db",
        default=None,
        help="a SQLite file seeded before, to reuse, or an empty PostgreSQL database's URL",
    )
    args = parser.parse_args()
    out = Console()
    with tempfile.TemporaryDirectory(prefix="threefold-ctxcpu-") as tmp:
        db = args.db or str(Path(tmp) / "bench.db")
        if db.startswith("postgresql://") or not Path(db).exists():
            out.print(f"seeding {args.turns} turns ...")
            seed(db, args.turns, args.embed)
        settings = load_settings(db=db, embed={"kind": args.embed})
        with Memory.open(settings=settings, tenant=TENANT, background_worker=False) as mem:
            rows = measure(mem, args.questions, args.budgets)
    table = Table(title=f"Memory.context() CPU, {args.embed}, budgets {args.budgets}")
    table.add_column("part")
    table.add_column("ms per context", justify="right")
    for name, value in rows:
        table.add_row(name, f"{value:.3f}")
    table.add_row("load average (1 min)", f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    out.print(table)


def measure(mem: Memory, count: int, budgets: list[int]) -> list[tuple[str, float]]:
    rng = random.Random(1)
    for query in questions(30, rng):  # the tokenizer, caches of the stream's facts
        mem.context(STREAM, query, budgets[0])
    spent: dict[str, float] = {}
    originals = [(owner, name, getattr(owner, name)) for owner, name, _ in PHASES]
    for owner, name, function in originals:
        setattr(owner, name, timed(spent, name, function))
    try:
        batches = []
        for _ in range(5):  # the median of five batches: a busy machine comes and goes
            asked = questions(max(1, count // 5), rng)
            started = time.thread_time()
            for i, query in enumerate(asked):
                mem.context(STREAM, query, budgets[i % len(budgets)])
            batches.append((time.thread_time() - started) / len(asked))
    finally:
        for owner, name, function in originals:
            setattr(owner, name, function)
    calls = max(1, count // 5) * 5
    rows = [("context(), median of 5 batches", statistics.median(batches) * 1000)]
    rows += [(label, spent.get(name, 0.0) / calls * 1000) for _, name, label in PHASES]
    return rows


if __name__ == "__main__":
    main()
