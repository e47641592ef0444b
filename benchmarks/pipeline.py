"""Throughput of add_turn and of the pipeline, and context() latency by stream size.

    python benchmarks/pipeline.py [--sizes 1000 10000 100000] [--queries 200]

Heuristic model, embedded SQLite, one stream; `--embed` picks the embedder (none by
default, so the pipeline figure is extraction and summaries alone). Prints tables.
"""

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from threefold import Memory, load_settings
from threefold.faces.demo import QUESTION, STREAM, story


def fill(mem: Memory, count: int) -> tuple[float, float]:
    """Add `count` story turns, then run the pipeline; returns (add rate, pipeline rate)."""
    turns = list(story(filler_after=max(count - 40, 0)))[:count]
    started = time.perf_counter()
    for turn in turns:
        mem.add_turn(STREAM, turn.user, turn.assistant, at=turn.at)
    added = time.perf_counter()
    mem.process_pending()
    done = time.perf_counter()
    return count / (added - started), count / (done - added)


def latencies(mem: Memory, queries: int, budget: int) -> list[float]:
    """Each question is asked once: a repeated one would measure caches, not search."""
    samples = []
    for n in range(queries):
        question = f"{QUESTION.rstrip('?')} (case {n})?"
        started = time.perf_counter()
        mem.context(STREAM, question, budget=budget)
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def percentile(samples: list[float], share: float) -> float:
    return statistics.quantiles(samples, n=100)[int(share * 100) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 100_000])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--budget", type=int, default=6000)
    parser.add_argument(
        "--embed",
        default="none",
        choices=["none", "hashing", "minilm"],
        help="embedder; 'none' measures extraction and summaries alone",
    )
    args = parser.parse_args()

    table = Table(
        "turns",
        "add_turn /s",
        "pipeline turns/s",
        "context p50 ms",
        "context p95 ms",
        "context tokens",
        "facts",
        "summaries",
        title=f"threefold, heuristic, SQLite, embed={args.embed}",
    )
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            settings = load_settings(db=Path(tmp) / f"bench-{size}.db", embed={"kind": args.embed})
            with Memory.open(settings=settings, background_worker=False) as mem:
                add_rate, pipe_rate = fill(mem, size)
                samples = latencies(mem, args.queries, args.budget)
                ctx = mem.context(STREAM, QUESTION, budget=args.budget)
                table.add_row(
                    f"{size:,}",
                    f"{add_rate:,.0f}",
                    f"{pipe_rate:,.0f}",
                    f"{percentile(samples, 0.50):.2f}",
                    f"{percentile(samples, 0.95):.2f}",
                    str(ctx.tokens),
                    str(len(mem.facts(STREAM))),
                    str(len(mem.summaries(STREAM))),
                )
            Console().print(table)


if __name__ == "__main__":
    main()
