"""The scale workload on SQLite and PostgreSQL side by side: context() p50/p95 on a busy
stream with unique questions, at each size.

    python benchmarks/postgres.py --url postgresql://user:pw@127.0.0.1:5432/postgres
        [--sizes 10000 100000] [--queries 200] [--dir DIR]

--url names a server whose role may create databases; one database per size is made on it.
Items are written as benchmarks/scale.py writes them (hashing vectors), to both backends.
"""

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).parent))
from scale import OTHER_STREAM, STREAM, Words, _write_batch, questions  # noqa: E402

from memstrata import Memory, load_settings  # noqa: E402
from memstrata.embed import HashingEmbedder  # noqa: E402
from memstrata.store import open_store  # noqa: E402

_BATCH = 1000


def fill(location: str | Path, size: int) -> None:
    import random

    rng = random.Random(7)
    words, embedder, store = Words(rng), HashingEmbedder(), open_store(location)
    try:
        for start in range(0, size, _BATCH):
            _write_batch(store, embedder, words, start, min(_BATCH, size - start))
        _write_batch(store, embedder, words, size, 200, stream=OTHER_STREAM)
    finally:
        store.close()


def measure(location: str | Path, queries: int) -> tuple[float, float]:
    settings = load_settings(db=location, embed={"kind": "hashing"})
    with Memory.open(settings=settings, background_worker=False) as mem:
        mem.context(STREAM, "what happened first", budget=2000)
        samples = []
        for n, question in enumerate(questions(queries, seed=11)):
            mem.add_turn(STREAM, f"busy turn {n}", "noted", speaker="Tom")
            started = time.perf_counter()
            mem.context(STREAM, question, budget=2000)
            samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples), statistics.quantiles(samples, n=100)[94]


def database(url: str, name: str) -> str:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", required=True)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    folder = args.dir or Path(tempfile.mkdtemp(prefix="memstrata-pg-bench-"))
    table = Table("items", "backend", "fill s", "context p50 ms", "context p95 ms")
    for size in args.sizes:
        for backend, location in (
            ("sqlite", folder / f"scale-{size}.db"),
            ("postgres", database(args.url, f"memstrata_bench_{size}")),
        ):
            started = time.perf_counter()
            fill(location, size)
            filled = time.perf_counter() - started
            p50, p95 = measure(location, args.queries)
            table.add_row(f"{size:,}", backend, f"{filled:.1f}", f"{p50:.1f}", f"{p95:.1f}")
    Console().print(table)


if __name__ == "__main__":
    main()
