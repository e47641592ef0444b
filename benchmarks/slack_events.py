"""Slack Events API: how fast the real server acknowledges signed events under a steady rate.

    python benchmarks/slack_events.py [--rate 50] [--seconds 20] [--workers 1] [--embed none]

Starts `threefold.faces.http.serve` (as `threefold serve` does) on a free loopback port with
a signing secret, then sends `--rate` signed message events a second for `--seconds`
seconds, each on schedule from its own thread (an open loop: a slow answer does not slow
the senders, as Slack's retries would not wait either). Every tenth event is sent twice,
as Slack's retry with X-Slack-Retry-Num. Prints the acknowledgement latency (p50, p95,
p99, max), the answers by outcome, and how long the worker took to store every event
after the last was acknowledged. The goal is p95 under 100 ms at 50 events a second;
Slack gives up on an answer after 3 s.
"""

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import httpx
from http_load import start_server
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
            "ts": f"{1790000000 + n}.000100",
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


def run(url: str, rate: float, seconds: float) -> tuple[list[float], Counter[str]]:
    latencies: list[float] = []
    outcomes: Counter[str] = Counter()
    lock = threading.Lock()
    local = threading.local()

    def one(n: int, retry: bool) -> None:
        if not hasattr(local, "client"):
            local.client = httpx.Client(timeout=10.0)
        took, outcome = send(local.client, url, event(n), retry)
        with lock:
            latencies.append(took)
            outcomes[outcome] += 1

    threads = []
    start = time.perf_counter()
    total = int(rate * seconds)
    for n in range(total):
        delay = start + n / rate - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        for retry in (False, True) if n % 10 == 0 else (False,):
            thread = threading.Thread(target=one, args=(n, retry), daemon=True)
            thread.start()
            threads.append(thread)
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
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "events.db"
        env = {
            "THREEFOLD_SLACK__SIGNING_SECRET": SECRET,
            "THREEFOLD_SLACK__TENANT": TENANT,
            "THREEFOLD_PROJECTS": json.dumps([{"stream": "project:alpha", "key": "ALPHA"}]),
        }
        proc, url = start_server(db, args.embed, args.workers, env)
        try:
            with httpx.Client() as warm:  # the first request pays for imports
                send(warm, url, event(10**7), False)
            latencies, outcomes = run(url, args.rate, args.seconds)
            expected = int(args.rate * args.seconds) + 1
            drained = stored_after(db, expected)
        finally:
            proc.terminate()
            proc.wait(timeout=30)

    ms = sorted(x * 1000 for x in latencies)
    table = Table(
        title=f"Slack events: {args.rate:g}/s for {args.seconds:g} s, {args.workers} worker(s)"
    )
    for column in ("events", "p50 ms", "p95 ms", "p99 ms", "max ms", "stored after (s)"):
        table.add_column(column, justify="right")
    table.add_row(
        f"{len(ms):,}",
        f"{statistics.median(ms):.1f}",
        f"{ms[int(len(ms) * 0.95) - 1]:.1f}",
        f"{ms[int(len(ms) * 0.99) - 1]:.1f}",
        f"{ms[-1]:.1f}",
        f"{drained:.1f}",
    )
    console = Console()
    console.print(table)
    console.print("answers: " + ", ".join(f"{k} {v:,}" for k, v in outcomes.most_common()))
    return 0 if set(outcomes) <= {"queued", "duplicate"} else 1


if __name__ == "__main__":
    sys.exit(main())
