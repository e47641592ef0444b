"""recall@50 of the approximate vector index against an exact scan, on realistic vectors.

    python benchmarks/vector_recall.py [--items 100000] [--queries 200] [--dir DIR]
        [--embedder minilm|hashing] [--postgres URL [--breadths 40 60 100]]

Generates varied chat lines (people, projects, actions, objects, times, numbers; no
shared data), embeds them with the default MiniLM embedder (kept in --dir, as it takes a
while) or the hashing one, and asks the same index threefold builds for a large
partition (`VectorIndex`, through a real SQLite store) for the 50 nearest of unseen
questions. Prints build CPU seconds, file size, recall@50 and milliseconds per search for
a few settings of the graph (scalar kind, connectivity, expansion at add and at search;
the candidates are rescored by their exact vectors). Hashing vectors are close to random,
the hardest case for any graph; MiniLM vectors of real text cluster, as users' do.

--postgres measures pgvector's HNSW graph instead, in a scratch database made on that
server (and dropped): built over the float32 vectors and over half-precision ones (the
graph the PostgreSQL store builds since its migration 0007), each searched at every
--breadths value of hnsw.ef_search, as the store searches it.
"""

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import numpy as np
from rich.console import Console
from rich.table import Table

from threefold.embed import HashingEmbedder
from threefold.store import SQLiteStore
from threefold.store import vectors as vector_module
from threefold.store.base import ItemFilter, NewTurn

STREAM = "project:alpha"
PEOPLE = [
    "Raj",
    "Priya",
    "Lena",
    "Tom",
    "Ana",
    "Kofi",
    "Mei",
    "Omar",
    "Sara",
    "Ivan",
    "Caroline",
    "Melanie",
    "Jon",
    "Gina",
    "Dev",
    "Yuki",
]
SUBJECTS = [
    "the billing service",
    "our kafka cluster",
    "the login page",
    "the mobile app",
    "the quarterly budget",
    "the hiring plan",
    "the onboarding docs",
    "the search index",
    "the data warehouse",
    "the vendor contract",
    "the pricing page",
    "the release train",
    "the design system",
    "the payment gateway",
    "the customer dashboard",
    "the API gateway",
    "my garden",
    "the marathon",
    "my sister's wedding",
    "the camping trip",
    "the pottery class",
    "the new puppy",
    "the book club",
    "the job interview",
    "the apartment move",
    "the piano lessons",
    "the road trip",
    "the charity run",
    "the art exhibit",
]
VERBS = [
    "is blocked on",
    "finally shipped",
    "needs a review of",
    "broke after",
    "is waiting for",
    "got delayed by",
    "was rescheduled because of",
    "went well thanks to",
    "depends on",
    "is over budget because of",
    "was approved with",
    "keeps failing on",
    "is ready except",
    "reminded me of",
    "made me rethink",
    "turned out better than",
]
OBJECTS = [
    "the database migration",
    "a flaky test",
    "the security audit",
    "a missing invoice",
    "the new schema",
    "the load test",
    "a memory leak",
    "the rollback plan",
    "the SSO change",
    "a vendor outage",
    "the holiday freeze",
    "the legal sign-off",
    "the cache warmup",
    "the weather",
    "a broken ankle",
    "the flight times",
    "a surprise party",
    "the neighbours",
    "the first rehearsal",
    "an old friend",
    "the late train",
    "the recipe I tried",
]
TAILS = [
    "",
    "",
    "Let's talk on {day}.",
    "It should be done by {day}.",
    "Ticket {key}-{n} has details.",
    "About {n} users were affected.",
    "{person} will follow up.",
    "I'll send the notes tonight.",
    "We agreed to revisit it in {month}.",
    "Costs went up {n} percent.",
    "No rush on this one.",
]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "the weekend"]
MONTHS = ["March", "May", "July", "September", "November"]
QUESTIONS = [
    "What happened with {subject}?",
    "Who is working on {object}?",
    "Why is {subject} late?",
    "What did {person} say about {object}?",
    "Any news on {subject} and {object}?",
    "When will {subject} be ready?",
]


def line(rng: random.Random) -> str:
    person = rng.choice(PEOPLE)
    tail = rng.choice(TAILS).format(
        day=rng.choice(DAYS),
        key=rng.choice(["ALPHA", "OPS", "WEB"]),
        n=rng.randint(2, 999),
        person=rng.choice(PEOPLE),
        month=rng.choice(MONTHS),
    )
    said = f"{rng.choice(SUBJECTS).capitalize()} {rng.choice(VERBS)} {rng.choice(OBJECTS)}."
    return f"{person}: {said} {tail}".strip()


def question(rng: random.Random) -> str:
    return rng.choice(QUESTIONS).format(
        subject=rng.choice(SUBJECTS), object=rng.choice(OBJECTS), person=rng.choice(PEOPLE)
    )


def embedded(directory: Path, items: int, queries: int, kind: str) -> tuple[np.ndarray, ...]:
    """Item and query vectors, generated once per (size, embedder) and kept."""
    cached = directory / f"vector-recall-{kind}-{items}-{queries}.npz"
    if cached.exists():
        data = np.load(cached)
        return data["items"], data["queries"]
    rng = random.Random(5)
    texts = [line(rng) for _ in range(items)]
    asked = [question(rng) for _ in range(queries)]
    if kind == "hashing":
        embedder = HashingEmbedder()
    else:
        from threefold.embed import MiniLMEmbedder

        embedder = MiniLMEmbedder(threads=1)
    started = time.perf_counter()
    matrix = np.vstack(
        [_progress(embedder.embed(texts[n : n + 1000]), n, items) for n in range(0, items, 1000)]
    )
    print(f"embedded {items:,} lines in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    result = matrix, embedder.embed(asked)
    directory.mkdir(parents=True, exist_ok=True)
    np.savez(cached, items=result[0], queries=result[1])
    return result


def _progress(block: np.ndarray, done: int, total: int) -> np.ndarray:
    print(f"  embedded {done + len(block):,}/{total:,}", file=sys.stderr, end="\r")
    return block


def measure(matrix: np.ndarray, asked: np.ndarray, settings: list[tuple]) -> list:
    """One row per setting (scalar kind, connectivity, expansion at add and at search): the
    graph written as threefold's builder writes it (in this process, so that its CPU time
    is measured here), then searched through VectorIndex as a worker would."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteStore(Path(tmp) / "recall.db")
        with store.transaction():
            ids = [
                store.insert_turn(
                    NewTurn(
                        tenant="default",
                        stream=STREAM,
                        user=f"line {n}",
                        assistant="",
                        at=_START,
                        tokens=3,
                    )
                ).id
                for n in range(len(matrix))
            ]
            store.put_vectors(
                "default",
                STREAM,
                "bench",
                [("turn", i, matrix[row].tobytes(), matrix.shape[1]) for row, i in enumerate(ids)],
            )
        id_array = np.asarray(ids)
        where = ItemFilter(tenant="default", streams=(STREAM,))
        exact_top = [set(id_array[np.argsort(-(matrix @ q))[:50]].tolist()) for q in asked]
        directory = store.index_directory
        assert directory is not None
        directory.mkdir(parents=True, exist_ok=True)
        for scalar, connectivity, expansion_add, expansion_search in settings:
            vector_module._SCALAR = scalar
            vector_module._CONNECTIVITY = connectivity
            vector_module._EXPANSION_ADD = expansion_add
            vector_module._EXPANSION_SEARCH = expansion_search
            for path in directory.glob("*.usearch"):
                path.unlink()
            started = time.process_time()
            written = vector_module.write_graph(store, directory, "default", STREAM, "turn")
            build = time.process_time() - started
            assert written is not None
            index = vector_module.VectorIndex(store, directory, approximate_from=1)
            found, spent = [], []
            for vector, truth in zip(asked, exact_top, strict=True):
                started = time.perf_counter()
                got = index.search("turn", where, vector, 50)
                spent.append((time.perf_counter() - started) * 1000)
                found.append(len(truth & {i for i, _ in got}) / 50)
            rows.append(
                (
                    scalar,
                    connectivity,
                    expansion_add,
                    expansion_search,
                    build,
                    written.stat().st_size / 2**20,
                    statistics.mean(found),
                    min(found),
                    statistics.median(spent),
                )
            )
        store.close()
    return rows


def measure_postgres(
    url: str, matrix: np.ndarray, asked: np.ndarray, breadths: list[int]
) -> list[tuple]:
    """One row per graph (over float32 or half-precision vectors) and ef_search: build
    seconds (the server's), index MB, recall@50 against an exact scan, the worst query's,
    milliseconds per search."""
    import psycopg
    from pgvector.psycopg import register_vector

    name = f"threefold_recall_{os.getpid()}"
    database = urlunsplit(urlsplit(url)._replace(path=f"/{name}"))
    dim = matrix.shape[1]
    exact_top = [set(np.argsort(-(matrix @ q))[:50].tolist()) for q in asked]
    rows = []
    with psycopg.connect(url, autocommit=True) as server:
        server.execute(f'CREATE DATABASE "{name}"')
    try:
        with psycopg.connect(database, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            register_vector(conn)
            conn.execute(f"CREATE TABLE items (id INTEGER PRIMARY KEY, embedding vector({dim}))")
            with conn.cursor().copy("COPY items FROM STDIN WITH (FORMAT BINARY)") as copy:
                copy.set_types(["int4", "vector"])
                for n, vector in enumerate(matrix):
                    copy.write_row((n, vector))
            conn.execute(
                "SET maintenance_work_mem = '1GB'; SET hnsw.iterative_scan = relaxed_order"
            )
            for graph in ("vector", "halfvec"):
                started = time.perf_counter()
                conn.execute(
                    f"CREATE INDEX graph ON items USING hnsw"
                    f" ((embedding::{graph}({dim})) {graph}_cosine_ops)"
                )
                build = time.perf_counter() - started
                size = conn.execute("SELECT pg_relation_size('graph')").fetchone()[0] / 2**20
                search = (
                    f"SELECT id FROM items ORDER BY"
                    f" (embedding::{graph}({dim})) <=> %s::{graph}({dim}) LIMIT 50"
                )
                for breadth in breadths:
                    conn.execute(f"SET hnsw.ef_search = {breadth}")
                    found, spent = [], []
                    for vector, truth in zip(asked, exact_top, strict=True):
                        started = time.perf_counter()
                        got = {row[0] for row in conn.execute(search, (vector,))}
                        spent.append((time.perf_counter() - started) * 1000)
                        found.append(len(truth & got) / 50)
                    rows.append(
                        (
                            graph,
                            breadth,
                            build,
                            size,
                            statistics.mean(found),
                            min(found),
                            statistics.median(spent),
                        )
                    )
                conn.execute("DROP INDEX graph")
    finally:
        with psycopg.connect(url, autocommit=True) as server:
            server.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    return rows


def postgres_table(args: argparse.Namespace, matrix: np.ndarray, asked: np.ndarray) -> Table:
    table = Table(
        "graph over",
        "ef_search",
        "build s",
        "index MB",
        "recall@50",
        "worst query",
        "ms per search",
        title=f"pgvector HNSW, {args.embedder} vectors of {args.items:,} generated chat lines,"
        f" {args.queries} questions; load {' '.join(f'{n:.1f}' for n in os.getloadavg())}",
    )
    for graph, breadth, build, size, mean, worst, ms in measure_postgres(
        args.postgres, matrix, asked, args.breadths
    ):
        table.add_row(
            graph,
            str(breadth),
            f"{build:.0f}",
            f"{size:.0f}",
            f"{mean:.3f}",
            f"{worst:.2f}",
            f"{ms:.2f}",
        )
    return table


_START = __import__("datetime").datetime(2024, 1, 1, tzinfo=__import__("datetime").UTC)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--embedder", choices=["minilm", "hashing"], default="minilm")
    parser.add_argument("--dir", type=Path, default=Path("/tmp/threefold-scale"))
    parser.add_argument(
        "--settings",
        nargs="*",
        default=["f16:16:128:256", "i8:16:64:256", "i8:16:64:128", "i8:16:64:64"],
        help="scalar:connectivity:expansion_add:expansion_search, where scalar is the\
 graph's vector precision (f32, f16, i8); candidates are rescored by exact vectors",
    )
    parser.add_argument("--postgres", help="measure pgvector's graph on this server instead")
    parser.add_argument(
        "--breadths", type=int, nargs="+", default=[40, 60, 100], help="hnsw.ef_search values"
    )
    parser.add_argument("--embed-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    matrix, asked = embedded(args.dir, args.items, args.queries, args.embedder)
    if args.embed_only:
        return
    if args.postgres:
        Console(width=160).print(postgres_table(args, matrix, asked))
        return
    settings = [
        (scalar, *(int(x) for x in rest))
        for scalar, *rest in (setting.split(":") for setting in args.settings)
    ]
    table = Table(
        "scalar",
        "connectivity",
        "expansion add",
        "expansion search",
        "build CPU s",
        "file MB",
        "recall@50",
        "worst query",
        "ms per search",
        title=f"{args.embedder} vectors of {args.items:,} generated chat lines, "
        f"{args.queries} questions, {vector_module._RESCORED}x50 candidates rescored; "
        f"load {' '.join(f'{n:.1f}' for n in os.getloadavg())}",
    )
    for row in measure(matrix, asked, settings):
        scalar, c, add, search, build, size, mean, worst, ms = row
        table.add_row(
            scalar,
            str(c),
            str(add),
            str(search),
            f"{build:.1f}",
            f"{size:.0f}",
            f"{mean:.3f}",
            f"{worst:.2f}",
            f"{ms:.2f}",
        )
    Console(width=160).print(table)


if __name__ == "__main__":
    main()
