"""Embedding speed: sentences per second for local MiniLM (int8 ONNX) and for hashing.

    python benchmarks/embed_speed.py [--sentences 512] [--threads 1] [--batches 1 16 64]

Sentences are short memory-like statements (8 to 30 words). MiniLM is loaded and warmed
up before timing. CPU milliseconds per sentence are printed beside the rate, since the
rate on a shared machine says as much about the neighbours. Prints a table; asserts
nothing.
"""

import argparse
import os
import random
import time

from rich.console import Console
from rich.table import Table

from threefold.embed import HashingEmbedder, MiniLMEmbedder

PHRASE = (
    "the deadline moved to march raj is tech lead we decided postgres for storage user "
    "prefers short answers in french alpha release blocked on review jira ticket slack "
    "thread summary compaction budget tokens facts never lost meeting tomorrow at noon"
)
WORDS = PHRASE.split()


def sentences(count: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choices(WORDS, k=rng.randint(8, 30))) for _ in range(count)]


def rate(embed, texts: list[str], batch: int) -> tuple[float, float]:
    """Sentences per second, and CPU milliseconds (every thread's) per sentence."""
    started, cpu = time.perf_counter(), time.process_time()
    for start in range(0, len(texts), batch):
        embed(texts[start : start + batch])
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    return len(texts) / seconds, 1000 * cpu / len(texts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sentences", type=int, default=512)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 16, 64])
    args = parser.parse_args()
    texts = sentences(args.sentences)

    table = Table(title=f"embedding speed, {len(texts)} sentences")
    table.add_column("embedder")
    table.add_column("threads", justify="right")
    table.add_column("batch", justify="right")
    table.add_column("sentences/s", justify="right")
    table.add_column("CPU ms/sentence", justify="right")

    started = time.perf_counter()
    minilm = MiniLMEmbedder(threads=args.threads)
    minilm.load()
    load_seconds = time.perf_counter() - started
    minilm.embed(texts[:64])  # warm-up
    for batch in args.batches:
        per_second, cpu_ms = rate(minilm.embed, texts, batch)
        table.add_row(
            minilm.name, str(args.threads), str(batch), f"{per_second:,.0f}", f"{cpu_ms:.2f}"
        )

    hashing = HashingEmbedder()
    for batch in args.batches:
        per_second, cpu_ms = rate(hashing.embed, texts, batch)
        table.add_row(hashing.name, "1", str(batch), f"{per_second:,.0f}", f"{cpu_ms:.3f}")

    console = Console()
    console.print(table)
    console.print(f"MiniLM load time: {load_seconds:.2f} s")
    console.print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
