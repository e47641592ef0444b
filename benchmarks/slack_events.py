"""Slack Events API: how fast the real server acknowledges signed events under a steady rate.

    python benchmarks/slack_events.py [--rate 50] [--seconds 20] [--workers 1] [--embed none]
                                      [--durability full] [--job-processes 0]

Starts `threefold.faces.http.serve` (as `threefold serve` does) on a free loopback port with
a signing secret, then sends `--rate` signed message events a second for `--seconds`
seconds, each on schedule from a pool of sender threads (an open loop: latency counts
from when an event was due, so a slow answer that makes the senders fall behind shows).
Every tenth event is sent twice, as Slack's retry with X-Slack-Retry-Num. Messages carry
the time they are sent, as live ones do. Prints the acknowledgement latency (p50, p95,
p99, max), the answers by outcome, and how long the worker took to store every event
after the last was acknowledged, and the server's CPU time per event (its receiver and
its worker both, and of it the server process's own: with `--job-processes`, the jobs run
in processes of their own), the figure that travels on a shared machine. The goal is p95 under
100 ms at 50 events a second; Slack gives up on an answer after 3 s.
"""

import argparse
import json
import os
import queue
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import httpx
from http_load import cpu_seconds, start_server
from rich.console import Console
from rich.table import Table

from threefold import Memory, load_settings
from threefold.sources.slack_events import sign

SECRET = "bench-signing-secret"
TENANT = "bench"
WORDS = [
    "The ALPHA-142 deploy is blocked on the staging certificate.",
    "We decided to move the launch to <https://wiki.example.com/launch|Tuesday>.",
    "<@U2> will write the migration guide by Friday.",
    "Lunch at noon?",
    "Build 311 passed on main.",
]


def event(n: int) -> bytes:
    body = {
        "type": "event_callback",
        "team_id": "T1",
        "event_id": f"Ev{n:08}",
        "event": {
            "type": "message",
            "channel": "C1" if n % 3 else "C2",
            "channel_type": "channel",
            "user": f"U{n % 5}",
            "ts": f"{int(time.time())}.{n:06}",
            "text": f"{WORDS[n % len(WORDS)]} (#{n})",
        },
    }
    return json.dumps(body).encode()


def send(client: httpx.Client, url: str, body: bytes, retry: bool) -> tuple[float, str]:
    stamp = str(int(time.time()))
    headers = {
        "X-Slack-Request-Timestamp": stamp,
        "X-Slack-Signature": sign(SECRET, stamp, body),
        "Content-Type": "application/json",
    }
    if retry:
        headers["X-Slack-Retry-Num"] = "1"
    start = time.perf_counter()
    try:
        answer = client.post(f"{url}/v1/slack/events", content=body, headers=headers)
    except httpx.HTTPError as exc:
        return time.perf_counter() - start, type(exc).__name__
    took = time.perf_counter() - start
    if answer.status_code != 200:
        return took, f"HTTP {answer.status_code}"
    return took, answer.json()["outcome"]


SENDERS = 16
"""Sender threads, each with its own keep-alive client (a client per request would spend
the machine's CPU on building TLS contexts, not on the server)."""


def run(url: str, rate: float, seconds: float) -> tuple[list[float], Counter[str]]:
    """Latency is counted from each event's scheduled time, so a sender that falls behind
    shows as latency, as it would for Slack."""
    latencies: list[float] = []
    outcomes: Counter[str] = Counter()
    lock = threading.Lock()
    due: queue.SimpleQueue[tuple[float, int, bool] | None] = queue.SimpleQueue()

    def sender() -> None:
        with httpx.Client(timeout=10.0) as client:
            while (item := due.get()) is not None:
                at, n, retry = item
                time.sleep(max(0.0, at - time.perf_counter()))
                _, outcome = send(client, url, event(n), retry)
                took = time.perf_counter() - at
                with lock:
                    latencies.append(took)
                    outcomes[outcome] += 1

    threads = [threading.Thread(target=sender, daemon=True) for _ in range(SENDERS)]
    start = time.perf_counter() + 0.5
    total = int(rate * seconds)
    for n in range(total):
        for retry in (False, True) if n % 10 == 0 else (False,):
            due.put((start + n / rate, n, retry))
    for thread in threads:
        due.put(None)
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, outcomes


def stored_after(db: Path, expected: int, timeout: float = 120.0) -> float:
    """Seconds until the server's worker has stored `expected` events."""
    settings = load_settings(db=db, embed={"kind": "none"})
    start = time.perf_counter()
    with Memory.open(settings=settings, tenant=TENANT, background_worker=False) as mem:
        while time.perf_counter() - start < timeout:
            if mem.store.count_undigested(TENANT) + _digested(mem) >= expected:
                return time.perf_counter() - start
            time.sleep(0.1)
    return float("nan")


def _digested(mem: Memory) -> int:
    return sum(1 for s in mem.streams() for r in mem.records(s.name) if r.processed)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=50.0)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--embed", default="none")
    parser.add_argument("--durability", default="full", choices=("full", "normal", "off"))
    parser.add_argument(
        "--job-processes",
        type=int,
        default=0,
        help="http.job_processes: 0 runs the jobs in a thread of the server process",
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "events.db"
        env = {
            "THREEFOLD_SLACK__SIGNING_SECRET": SECRET,
            "THREEFOLD_SLACK__TENANT": TENANT,
            "THREEFOLD_PROJECTS": json.dumps([{"stream": "project:alpha", "key": "ALPHA"}]),
            "THREEFOLD_DURABILITY": args.durability,
            "THREEFOLD_HTTP__JOB_PROCESSES": str(args.job_processes),
        }
        proc, url = start_server(db, args.embed, args.workers, env)
        try:
            with httpx.Client() as warm:  # the first request pays for imports
                send(warm, url, event(10**7), False)
            cpu_before = cpu_seconds(proc.pid, children=True)
            answer_before = cpu_seconds(proc.pid)
            latencies, outcomes = run(url, args.rate, args.seconds)
            expected = int(args.rate * args.seconds) + 1
            drained = stored_after(db, expected)
            cpu_after = cpu_seconds(proc.pid, children=True)
            answer_after = cpu_seconds(proc.pid)
        finally:
            proc.terminate()
            proc.wait(timeout=30)

    ms = sorted(x * 1000 for x in latencies)
    table = Table(
        title=f"Slack events: {args.rate:g}/s for {args.seconds:g} s, {args.workers} server"
        f" process(es), {args.job_processes} job process(es)"
    )
    columns = (
        "events",
        "p50 ms",
        "p95 ms",
        "p99 ms",
        "max ms",
        "stored after (s)",
        "CPU ms/event",
        "of it serving",
    )
    for column in columns:
        table.add_column(column, justify="right")
    spent = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    serving = (
        None if answer_before is None or answer_after is None else answer_after - answer_before
    )
    table.add_row(
        f"{len(ms):,}",
        f"{statistics.median(ms):.1f}",
        f"{ms[int(len(ms) * 0.95) - 1]:.1f}",
        f"{ms[int(len(ms) * 0.99) - 1]:.1f}",
        f"{ms[-1]:.1f}",
        f"{drained:.1f}",
        "n/a" if spent is None else f"{spent * 1000 / len(ms):.2f}",
        "n/a" if serving is None else f"{serving * 1000 / len(ms):.2f}",
    )
    console = Console()
    console.print(table)
    console.print(
        f"load average while measured: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    console.print("answers: " + ", ".join(f"{k} {v:,}" for k, v in outcomes.most_common()))
    return 0 if set(outcomes) <= {"queued", "duplicate"} else 1


if __name__ == "__main__":
    sys.exit(main())
