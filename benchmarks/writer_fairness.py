"""Write latency under concurrent writer processes on one SQLite file (issue 40, goal 5).

    python benchmarks/writer_fairness.py [--writers 4] [--writes 100] [--durability full]
                                         [--workers]

Each writer is its own process with its own Memory, warmed up by one write, adding turns as
fast as it can after a common start. Without --workers no job runs, so only the writes
contend; with it each process also runs its job worker, whose writes (facts, summaries)
queue with the turns.
Prints p50, p99 and the worst latency of one add_turn per writer and over all; the goal
is p99 <= 300 ms with durability=full on 2 cores. Asserts nothing.
"""

import argparse
import json
import multiprocessing
import statistics
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from threefold import Memory, load_settings

GOAL_P99_MS = 300.0


def _writer(
    db: str, durability: str, writes: int, start: float, out: str, workers: bool, switch: float
) -> None:
    settings = load_settings(db=db, durability=durability, embed={"kind": "none"})
    latencies = []
    with Memory.open(settings=settings, background_worker=workers) as mem:
        if switch:  # after the worker set its own (pipeline/jobs.py SWITCH_SECONDS)
            sys.setswitchinterval(switch / 1000)
        # The first write of a process loads the token counter (seconds): not contention.
        mem.add_turn("chat:warm-up", "Warming up.", "Noted.")
        while time.time() < start:
            time.sleep(0.001)
        for n in range(writes):
            began = time.perf_counter()
            mem.add_turn(f"chat:{n % 4}", f"Message {n} from a busy writer.", "Noted.")
            latencies.append((time.perf_counter() - began) * 1000)
    Path(out).write_text(json.dumps(latencies))


def _quantile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q * 100) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--writes", type=int, default=100, help="turns per writer")
    parser.add_argument("--durability", default="full", choices=["full", "normal", "off"])
    parser.add_argument("--workers", action="store_true", help="run each writer's job worker")
    parser.add_argument(
        "--switch-ms",
        type=float,
        default=0.0,
        help="the processes' GIL switch interval instead of the worker's (5: Python's default)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "writers.db")
        Memory.open(db, settings=load_settings(embed={"kind": "none"})).close()
        start = time.time() + 8.0  # every writer opened and warmed up by then
        outs = [str(Path(folder) / f"w{i}.json") for i in range(args.writers)]
        procs = [
            multiprocessing.Process(
                target=_writer,
                args=(db, args.durability, args.writes, start, out, args.workers, args.switch_ms),
            )
            for out in outs
        ]
        for proc in procs:
            proc.start()
        for proc in procs:
            proc.join()
        each = [json.loads(Path(out).read_text()) for out in outs]
    table = Table(
        title=f"{args.writers} writers x {args.writes} turns, durability={args.durability}"
        + (", job workers on" if args.workers else "")
    )
    for column in ("writer", "p50 ms", "p99 ms", "max ms", f"> {GOAL_P99_MS:g} ms"):
        table.add_column(column, justify="right")
    rows = [(str(i), lat) for i, lat in enumerate(each)] + [
        ("all", [x for lat in each for x in lat])
    ]
    for name, lat in rows:
        table.add_row(
            name,
            f"{statistics.median(lat):.1f}",
            f"{_quantile(lat, 0.99):.1f}",
            f"{max(lat):.1f}",
            str(sum(1 for x in lat if x > GOAL_P99_MS)),
        )
    Console().print(table)
    overall = _quantile(rows[-1][1], 0.99)
    met = "met" if overall <= GOAL_P99_MS else "not met"
    Console().print(f"goal p99 <= {GOAL_P99_MS:g} ms: {met} ({overall:.0f} ms)")


if __name__ == "__main__":
    main()
