"""The scale workload on SQLite and PostgreSQL side by side: context() on a busy stream
with unique questions, at each size, with the CPU each side spends and the round trips a
context makes.

    python benchmarks/postgres.py --url postgresql://user:pw@127.0.0.1:5432/postgres
        [--sizes 10000 100000 1000000] [--queries 200] [--warmup 100] [--prewarm]
        [--dir DIR]
        [--server-pid PID]
        [--backends sqlite postgres] [--http] [--http-workers 2] [--requests 1000]
        [--clients 8]

--url names a server whose role may create databases. Each size's SQLite store is made as
benchmarks/scale.py makes it (turns, Slack records and facts, hashing vectors) and kept in
--dir; PostgreSQL gets the same rows through `threefold migrate`'s bulk copy, into a
database kept on the server (threefold_bench_<size>). Each measurement runs in a fresh
process on a copy, so the busy turns it adds do not pile up between runs. Before the
measured contexts, --warmup more (other unique questions, each after a busy turn) are asked
unmeasured: a PostgreSQL copy is a new database, none of whose pages the server's shared
buffers hold, where a memory in service has its hot pages there (at 1M items the first 50
contexts read 5,000 blocks each from the OS, the next 50 a thousand; --warmup 0 measures
from cold). With --prewarm, the copy is first read into the shared buffers (pg_prewarm:
every index, then the tables that fit), as a memory long in service holds its graphs and
text indexes there; the SQLite copy, a file just written, is in the OS's page cache. "blocks
read/context" counts the blocks the measured contexts read from
outside the shared buffers (the title shows the server's shared_buffers): with the stock
128 MB, a million items' HNSW graphs (0.8 GB) do not fit, and each context read some
4,800, most of the server's CPU. With
--server-pid (the postmaster's), the server's CPU per context is shown too. --backends
postgres measures PostgreSQL alone (the SQLite store is still made or kept: it is the
copy's source), to compare two versions of the code run after run at the same load.

--http adds benchmarks/http_load.py's load on each backend: `serve --workers 2` over a
fresh memory (a new SQLite file; a new database on the server) seeded alike, with
concurrent clients asking for contexts, and the CPU the serve processes and PostgreSQL
spent per request.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).parent))
import http_load  # noqa: E402
from scale import STREAM, _vector_recall, generate, meet_graphs, questions  # noqa: E402

from threefold import Memory, load_settings  # noqa: E402
from threefold.store import open_store  # noqa: E402
from threefold.store.postgres.copy import copy_sqlite_to_postgres  # noqa: E402

_BUDGET = 2000


def sqlite_store(folder: Path, size: int) -> tuple[Path, float]:
    """The size's SQLite store with its vector graphs, made if missing; the seconds
    making it took (0: kept). The graphs are built here, as scale.py builds them, so
    that no measured run spends its first context building them."""
    path = folder / f"scale-{size}.db"
    if path.exists():
        meet_graphs(path)  # maps the saved graphs, or builds the missing ones
        return path, 0.0
    started = time.perf_counter()
    generate(path, size)
    meet_graphs(path)
    return path, time.perf_counter() - started


def postgres_database(server: str, source: Path, size: int) -> tuple[str, float]:
    """The size's database on the server, copied from the SQLite store if missing."""
    name = f"threefold_bench_{size}"
    url = _database_url(server, name)
    with psycopg.connect(server, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            return url, 0.0
        conn.execute(f'CREATE DATABASE "{name}"')
    started = time.perf_counter()
    store = open_store(url)
    try:
        copy_sqlite_to_postgres(source, store, lambda table, rows: None)
    finally:
        store.close()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    return url, time.perf_counter() - started


def measure(args: argparse.Namespace) -> dict[str, float]:
    """Context latency, client CPU, server CPU, statements and round trips (waits for
    the server: statements sent together in a pipeline wait once), in this process."""
    location, queries, warmup, server_pid = args.measure, args.queries, args.warmup, args.server_pid
    settings = load_settings(db=location, embed={"kind": "hashing"})
    database = urlsplit(location).path.lstrip("/")
    if args.prewarm and location.startswith("postgresql://"):
        _prewarm(location)
    with Memory.open(settings=settings, background_worker=False) as mem:
        mem.context(STREAM, "what happened first", budget=_BUDGET)
        for n, question in enumerate(questions(warmup, seed=12)):
            mem.add_turn(STREAM, f"warm-up turn {n}", "noted", speaker="Tom")
            mem.context(STREAM, question, budget=_BUDGET)
        wall, cpu, server, trips, statements = [], [], [], [], []
        blocks_before = _blocks_read(location)
        for n, question in enumerate(questions(queries, seed=11)):
            mem.add_turn(STREAM, f"busy turn {n}", "noted", speaker="Tom")
            server_before = _backends_cpu(server_pid, database)  # first: /proc is slow
            sent = getattr(mem.store, "round_trips", 0)
            stated = getattr(mem.store, "statements", 0)
            started, cpu_started = time.perf_counter(), time.process_time()
            mem.context(STREAM, question, budget=_BUDGET)
            wall.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - cpu_started) * 1000)
            server.append((_backends_cpu(server_pid, database) - server_before) * 1000)
            trips.append(getattr(mem.store, "round_trips", 0) - sent)
            statements.append(getattr(mem.store, "statements", 0) - stated)
        load = os.getloadavg()[0]
        blocks = (_blocks_read(location) - blocks_before) / queries
        trip = _round_trip_ms(mem.store)
        recall_at_50 = _vector_recall(mem, questions(50, seed=13))
    return {
        "trip_p50": statistics.median(trip) if trip else float("nan"),
        "p50": statistics.median(wall),
        "p95": statistics.quantiles(wall, n=100)[94],
        "cpu_p50": statistics.median(cpu),
        "server_cpu_mean": statistics.fmean(server),
        "blocks_read": blocks,
        "trips": statistics.median(trips),
        "statements": statistics.median(statements),
        "load": load,
        "recall_at_50": recall_at_50,
    }


def _prewarm(location: str) -> None:
    """Read the database into the server's shared buffers (pg_prewarm): every index, then
    the tables, smallest first, while they fit in nine tenths of the buffers."""
    with psycopg.connect(location, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm")
        (buffers,) = conn.execute(
            "SELECT setting::bigint * 8192 FROM pg_settings WHERE name = 'shared_buffers'"
        ).fetchall()[0]
        room = buffers * 9 // 10
        relations = conn.execute(
            "SELECT c.oid, pg_relation_size(c.oid) FROM pg_class c JOIN pg_namespace n"
            " ON n.oid = c.relnamespace WHERE c.relkind IN ('i', 'r')"
            " AND n.nspname = current_schema() ORDER BY c.relkind, 2"
        ).fetchall()
        for oid, size in relations:
            if size <= room:
                conn.execute("SELECT pg_prewarm(%s)", (oid,))
                room -= size


def _blocks_read(location: str) -> float:
    """The blocks the database's backends have read so far from outside the server's
    shared buffers (the OS's page cache, or the disk); nan for a SQLite file. Backends
    report their counts when idle, at most once a second: wait that out first."""
    if not location.startswith("postgresql://"):
        return float("nan")
    time.sleep(1.5)
    with psycopg.connect(location, autocommit=True) as conn:
        row = conn.execute(
            "SELECT blks_read FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
    return float(row[0]) if row else float("nan")


def _shared_buffers(server: str) -> str:
    with psycopg.connect(server, autocommit=True) as conn:
        row = conn.execute("SHOW shared_buffers").fetchone()
    return str(row[0]) if row else "?"


def _round_trip_ms(store: object, count: int = 200) -> list[float]:
    """The wall time of a statement that does nothing (SELECT 1) through the store's
    pool: what each of a context's round trips costs before any work, on this machine
    as loaded now. Empty for a store in the process."""
    if not hasattr(store, "round_trips"):
        return []
    times = []
    for _ in range(count):
        started = time.perf_counter()
        store._row("SELECT 1")  # type: ignore[attr-defined]
        times.append((time.perf_counter() - started) * 1000)
    return times


def _backends_cpu(pid: int | None, database: str) -> float:
    """CPU seconds of the postmaster `pid`'s backends alive now that serve `database`:
    other work on the same server (another benchmark, a build) is left out, and so are
    its shared helpers (WAL writer, checkpointer)."""
    if pid is None:
        return 0.0
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) != pid:
                continue
            # A backend's title: "postgres: user database host(port) state".
            title = (entry / "cmdline").read_bytes().replace(b"\0", b" ").split()
        except OSError:
            continue
        if len(title) > 2 and title[2].decode(errors="replace") == database:
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def measure_apart(
    backend: str, location: str | Path, server: str, args: argparse.Namespace, pid: int | None
) -> dict[str, float]:
    """Measure in a child process, on a copy of the store."""
    copy, cleanup = _copy_of(backend, location, server)
    try:
        command = [
            sys.executable,
            __file__,
            "--measure",
            str(copy),
            "--queries",
            str(args.queries),
            "--warmup",
            str(args.warmup),
        ]
        if args.prewarm:
            command.append("--prewarm")
        if pid:
            command += ["--server-pid", str(pid)]
        done = subprocess.run(command, check=True, capture_output=True, text=True)
    finally:
        cleanup()
    return json.loads(done.stdout.strip().splitlines()[-1])


def _copy_of(backend: str, location: str | Path, server: str) -> tuple[str, Callable[[], None]]:
    if backend == "sqlite":
        source = Path(location)
        copy = source.with_suffix(".run.db")
        for part in source.parent.glob(source.name + "*"):
            target = copy.parent / part.name.replace(source.name, copy.name, 1)
            (shutil.copytree if part.is_dir() else shutil.copyfile)(part, target)

        def remove() -> None:
            for part in copy.parent.glob(copy.name + "*"):
                _remove(part)

        return str(copy), remove
    template = urlsplit(str(location)).path.lstrip("/")
    name = f"{template}_run"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}" STRATEGY FILE_COPY')

    def drop() -> None:
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return _database_url(server, name), drop


def http_load_on(db: str | Path, args: argparse.Namespace) -> dict[str, float]:
    """http_load's run against `serve --workers N` on `db`: latency, throughput, errors
    and CPU per request of the serve processes and of PostgreSQL (when its pid is given)."""
    secret = http_load.seed(db, args.turns, "hashing")
    proc, url = http_load.start_server(db, "hashing", args.http_workers)
    try:
        warmup = http_load.Load(url, secret, _BUDGET, "get", reconnect=True)
        warmup.run(25 * args.http_workers, 4)
        load = http_load.Load(url, secret, _BUDGET, "get")
        database = urlsplit(str(db)).path.lstrip("/")
        before = (
            http_load.cpu_seconds(proc.pid, children=True),
            _backends_cpu(args.server_pid, database),
        )
        seconds = load.run(args.requests, args.clients)
        serve_cpu = http_load.cpu_seconds(proc.pid, children=True) or 0.0
        database_cpu = _backends_cpu(args.server_pid, database)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    latencies = [s * 1000 for s in load.latencies]
    return {
        "throughput": len(latencies) / seconds,
        "p50": http_load.percentile(latencies, 0.50),
        "p95": http_load.percentile(latencies, 0.95),
        "p99": http_load.percentile(latencies, 0.99),
        "errors": sum(load.errors.values()),
        "serve_cpu": (serve_cpu - (before[0] or 0.0)) / args.requests * 1000,
        "database_cpu": (database_cpu - before[1]) / args.requests * 1000,
    }


def http_table(args: argparse.Namespace) -> Table:
    table = Table(
        "backend",
        "req/s",
        "p50 ms",
        "p95 ms",
        "p99 ms",
        "errors",
        "serve CPU ms/req",
        "PostgreSQL CPU ms/req",
        title=f"HTTP GET /v1/context, serve --workers {args.http_workers}, {args.clients}"
        f" clients, {args.requests} requests, {args.turns} turns, hashing embedder; load"
        f" before: {_load()}",
    )
    name = f"threefold_http_{os.getpid()}"
    with psycopg.connect(args.url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        with tempfile.TemporaryDirectory(prefix="threefold-http-") as tmp:
            for backend, db in (
                ("sqlite", Path(tmp) / "bench.db"),
                ("postgres", _database_url(args.url, name)),
            ):
                got = http_load_on(db, args)
                table.add_row(
                    backend,
                    f"{got['throughput']:.0f}",
                    f"{got['p50']:.1f}",
                    f"{got['p95']:.1f}",
                    f"{got['p99']:.1f}",
                    f"{got['errors']:.0f}",
                    f"{got['serve_cpu']:.1f}",
                    f"{got['database_cpu']:.1f}"
                    if backend == "postgres" and args.server_pid
                    else "-",
                )
    finally:
        with psycopg.connect(args.url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    return table


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path)
    else:
        path.unlink()


def _database_url(server: str, name: str) -> str:
    return urlunsplit(urlsplit(server)._replace(path=f"/{name}"))


def _load() -> str:
    return " ".join(f"{n:.1f}" for n in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", help="a PostgreSQL server's URL (a database to connect to)")
    parser.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument(
        "--warmup", type=int, default=100, help="contexts asked, unmeasured, before the queries"
    )
    parser.add_argument(
        "--prewarm", action="store_true", help="read the copy into shared buffers first"
    )
    parser.add_argument("--dir", type=Path, default=Path("/tmp/threefold-pg-bench"))
    parser.add_argument("--server-pid", type=int, help="the PostgreSQL postmaster's pid")
    parser.add_argument(
        "--backends",
        nargs="+",
        choices=["sqlite", "postgres"],
        default=["sqlite", "postgres"],
        help="the backends measured (both: side by side)",
    )
    parser.add_argument("--http", action="store_true", help="also run the HTTP load")
    parser.add_argument("--http-workers", type=int, default=2, help="serve processes")
    parser.add_argument("--requests", type=int, default=1000, help="HTTP requests")
    parser.add_argument("--clients", type=int, default=8, help="HTTP clients")
    parser.add_argument("--turns", type=int, default=200, help="turns the HTTP memory holds")
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args)))
        return
    if not args.url:
        parser.error("--url is required")
    args.dir.mkdir(parents=True, exist_ok=True)
    table = Table(
        "items",
        "backend",
        "fill s",
        "p50 ms",
        "p95 ms",
        "client CPU p50 ms",
        "server CPU ms/context",
        "statements/context",
        "round trips/context",
        "SELECT 1 p50 ms",
        "blocks read/context",
        "recall@50",
        "load",
        title=f"context(), busy stream, unique questions, budget {_BUDGET}, after {args.warmup}"
        f" unmeasured; PostgreSQL's shared_buffers {_shared_buffers(args.url)}"
        f"{', prewarmed' if args.prewarm else ''}; load before:"
        f" {_load()}",
    )
    for size in args.sizes:
        path, sqlite_fill = sqlite_store(args.dir, size)
        url, postgres_fill = postgres_database(args.url, path, size)
        for backend, location, filled in (
            ("sqlite", path, sqlite_fill),
            ("postgres", url, postgres_fill),
        ):
            if backend not in args.backends:
                continue
            pid = args.server_pid if backend == "postgres" else None
            result = measure_apart(backend, location, args.url, args, pid)
            table.add_row(
                f"{size:,}",
                backend,
                f"{filled:.0f}" if filled else "kept",
                f"{result['p50']:.1f}",
                f"{result['p95']:.1f}",
                f"{result['cpu_p50']:.1f}",
                f"{result['server_cpu_mean']:.1f}" if pid else "-",
                f"{result['statements']:.0f}" if backend == "postgres" else "- (in process)",
                f"{result['trips']:.0f}" if backend == "postgres" else "-",
                f"{result['trip_p50']:.2f}" if backend == "postgres" else "-",
                f"{result['blocks_read']:.0f}" if backend == "postgres" else "-",
                f"{result['recall_at_50']:.3f}",
                f"{result['load']:.1f}",
            )
    console = Console(width=200)
    if args.sizes:
        console.print(table)
    if args.http:
        console.print(http_table(args))
    print(f"load after: {_load()} (1, 5 and 15 minute load averages; {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
