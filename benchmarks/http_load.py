"""HTTP load: context requests from concurrent clients against `serve` on loopback.

    python benchmarks/http_load.py [--requests 2000] [--clients 8] [--turns 200]
                                   [--budget 2000] [--embed minilm] [--method get]
                                   [--workers 1]

Seeds a fresh SQLite memory with `--turns` turns (facts and summaries made before timing),
starts `threefold.faces.http.serve` with `--workers` processes on a free loopback port, warms
up, then sends `--requests` context requests from `--clients` threads, each with its own keep-alive
httpx client, then as many GET /health requests (the cost of the server and middleware
alone). Prints throughput, latency percentiles and errors; the goal is zero errors and p95
under 50 ms. The CPU each side spends per request (the server's summed over its processes)
shows where the cores went; on a shared machine it is the figure that travels.
Exits 1 if any request failed.
"""

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import httpx
from rich.console import Console
from rich.table import Table

from threefold import Memory, load_settings
from threefold.trust.keys import create_key

STREAM = "project:alpha"
TENANT = "bench"
SERVE = (
    "import sys; from threefold import load_settings; from threefold.faces.http import serve; "
    "serve(load_settings(), host='127.0.0.1', port=int(sys.argv[1]), workers=int(sys.argv[2]))"
)
LINES = [
    "No, Raj is the Lead Architect.",
    "The Alpha deadline moved to March 27.",
    "We decided to use Postgres for the ledger.",
    "Mia will draft the API spec by Monday.",
    "The load test is blocked on staging access.",
    "The badge vendor is Acme Access Ltd.",
    "Standup moves to 9:30 every weekday.",
    "I prefer short answers in bullet points.",
]
QUERIES = [
    "Who is the lead architect?",
    "When is the Alpha deadline?",
    "What database did we pick?",
    "What is blocking the load test?",
    "Who is the badge vendor?",
    "",
]


def seed(db: Path | str, turns: int, embed: str) -> str:
    """A memory with `turns` turns and the work that follows them done; returns a key."""
    settings = load_settings(db=db, embed={"kind": embed})
    with Memory.open(settings=settings, tenant=TENANT, background_worker=False) as mem:
        rng = random.Random(7)
        for i in range(turns):
            mem.add_turn(STREAM, user=f"{rng.choice(LINES)} (note {i})", assistant="Noted.")
        mem.end_session(STREAM)
        mem.process_pending()
        _, secret = create_key(mem.store, TENANT, "full", label="http_load")
    return secret


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(db: Path | str, embed: str, workers: int) -> tuple[subprocess.Popen, str]:
    """The server, once every one of its `workers` processes has started."""
    port = free_port()
    env = {**os.environ, "THREEFOLD_DB": str(db), "THREEFOLD_EMBED__KIND": embed}
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVE, str(port), str(workers)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    log = ServerLog(proc)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"serve exited with {proc.returncode}: {log.text()}")
        if log.count("Application startup complete") >= workers and _healthy(url):
            return proc, url
        time.sleep(0.05)
    proc.terminate()
    raise SystemExit("serve did not come up")


def _healthy(url: str) -> bool:
    try:
        return httpx.get(f"{url}/health", timeout=1.0).status_code == 200
    except httpx.TransportError:
        return False


class ServerLog:
    """The server's stderr, read as it comes, so that the pipe never fills."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.lines: list[str] = []
        threading.Thread(target=self._read, args=(proc,), daemon=True).start()

    def _read(self, proc: subprocess.Popen) -> None:
        for line in proc.stderr:
            self.lines.append(line)

    def count(self, text: str) -> int:
        return sum(text in line for line in list(self.lines))

    def text(self) -> str:
        return "".join(self.lines)


class Load:
    def __init__(
        self,
        url: str,
        secret: str,
        budget: int,
        method: str,
        *,
        reconnect: bool = False,
        health: bool = False,
    ) -> None:
        self.url, self.budget, self.method, self.health = url, budget, method, health
        self.headers = {"Authorization": f"Bearer {secret}"}
        if reconnect:  # a connection per request, so that every server process gets some
            self.headers["Connection"] = "close"
        self.latencies: list[float] = []
        self.errors: dict[str, int] = {}
        self.lock = threading.Lock()

    def run(self, requests: int, clients: int) -> float:
        counts = [
            requests // clients + (1 if i < requests % clients else 0) for i in range(clients)
        ]
        threads = [threading.Thread(target=self._client, args=(n, i)) for i, n in enumerate(counts)]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return time.perf_counter() - started

    def _client(self, count: int, index: int) -> None:
        rng = random.Random(index)
        mine: list[float] = []
        with httpx.Client(base_url=self.url, headers=self.headers, timeout=30.0) as client:
            for _ in range(count):
                # A different question each time, as users ask, so no cache of query vectors
                # answers for the model. The tag is a number no turn holds (notes count from
                # 0); the empty question asks for a context without a query.
                asked = rng.choice(QUERIES)
                query = f"{asked} (#{rng.randrange(10**7, 10**8)})" if asked else ""
                body = {"stream": STREAM, "query": query, "budget": self.budget}
                started = time.perf_counter()
                try:
                    if self.health:  # the floor: the server and the app's middleware alone
                        response = client.get("/health")
                    elif self.method == "get":
                        response = client.get("/v1/context", params=body)
                    else:
                        response = client.post("/v1/context", json=body)
                    failure = None if response.status_code == 200 else str(response.status_code)
                except httpx.HTTPError as exc:
                    failure = type(exc).__name__
                mine.append(time.perf_counter() - started)
                if failure:
                    with self.lock:
                        self.errors[failure] = self.errors.get(failure, 0) + 1
        with self.lock:
            self.latencies.extend(mine)


def cpu_seconds(pid: int, children: bool = False) -> float | None:
    """User plus system CPU time of a process so far, with that of its live children if
    asked (the server's workers); None where /proc is missing."""
    stats = _stats()
    if pid not in stats:
        return None
    pids = [pid] + ([p for p, (ppid, _) in stats.items() if ppid == pid] if children else [])
    return sum(stats[p][1] for p in pids) / os.sysconf("SC_CLK_TCK")


def _stats() -> dict[int, tuple[int, int]]:
    """Parent pid and CPU clock ticks of every process."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        found[int(stat.parent.name)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
    return found


def per_request_ms(before: float | None, after: float | None, requests: int) -> str:
    if before is None or after is None:
        return "n/a"
    return f"{(after - before) / requests * 1000:.2f} ms"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--budget", type=int, default=2000)
    parser.add_argument(
        "--embed", default="minilm", choices=["hashing", "minilm", "static", "none"]
    )
    parser.add_argument("--method", default="get", choices=["get", "post"])
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--workers", type=int, default=1, help="server processes")
    parser.add_argument(
        "--db", default=None, help="an empty database to use, such as a postgresql:// URL"
    )
    args = parser.parse_args()
    out = Console()

    with tempfile.TemporaryDirectory(prefix="threefold-http-") as tmp:
        db = args.db or Path(tmp) / "bench.db"
        out.print(f"seeding {args.turns} turns ...")
        secret = seed(db, args.turns, args.embed)
        proc, url = start_server(db, args.embed, args.workers)
        try:
            warmup = Load(url, secret, args.budget, args.method, reconnect=True)
            warmup.run(args.warmup * args.workers, min(args.clients, 4))
            load = Load(url, secret, args.budget, args.method)
            server_before = cpu_seconds(proc.pid, children=True)
            client_before = cpu_seconds(os.getpid())
            seconds = load.run(args.requests, args.clients)
            server_after = cpu_seconds(proc.pid, children=True)
            server_cpu = per_request_ms(server_before, server_after, args.requests)
            client_cpu = per_request_ms(client_before, cpu_seconds(os.getpid()), args.requests)
            health = Load(url, secret, args.budget, args.method, health=True)
            health_before = cpu_seconds(proc.pid, children=True)
            health_seconds = health.run(args.requests, args.clients)
            health_after = cpu_seconds(proc.pid, children=True)
            health_cpu = per_request_ms(health_before, health_after, args.requests)
        finally:
            proc.terminate()
            proc.wait(timeout=30)

    lat_ms = [s * 1000 for s in load.latencies]
    table = Table(title=f"HTTP load: {args.method.upper()} /v1/context, loopback")
    table.add_column("metric")
    table.add_column("value", justify="right")
    table.add_row("requests", f"{len(lat_ms):,}")
    table.add_row("clients", str(args.clients))
    table.add_row("stream turns / budget", f"{args.turns} / {args.budget}")
    table.add_row("embedder", args.embed)
    table.add_row("server processes", str(args.workers))
    table.add_row("wall time", f"{seconds:.2f} s")
    table.add_row("throughput", f"{len(lat_ms) / seconds:,.0f} req/s")
    table.add_row("latency mean", f"{statistics.fmean(lat_ms):.1f} ms")
    for name, share in (("p50", 0.50), ("p95", 0.95), ("p99", 0.99)):
        table.add_row(f"latency {name}", f"{percentile(lat_ms, share):.1f} ms")
    table.add_row("latency max", f"{max(lat_ms):.1f} ms")
    table.add_row("server CPU per request", server_cpu)
    table.add_row("client CPU per request", client_cpu)
    table.add_row(
        "GET /health: server CPU per request",
        f"{health_cpu} ({args.requests / health_seconds:,.0f} req/s)",
    )
    # The cores are shared: with other work on them, wall times and CPU times both swell.
    table.add_row("load average (1 min)", f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    failed = Counter(load.errors) + Counter(health.errors)
    errors = sum(failed.values())
    detail = ", ".join(f"{k}: {v}" for k, v in sorted(failed.items()))
    table.add_row("errors", f"{errors}" + (f" ({detail})" if detail else ""))
    out.print(table)
    p95 = percentile(lat_ms, 0.95)
    verdict = "[green]met[/green]" if errors == 0 and p95 < 50 else "[red]missed[/red]"
    out.print(f"goal (0 errors, p95 < 50 ms): {verdict}")
    raise SystemExit(1 if errors else 0)


if __name__ == "__main__":
    main()
