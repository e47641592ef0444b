"""Slack import throughput and memory, on synthetic exports of growing size.

    python benchmarks/ingest.py [--sizes 10000,100000] [--embed none|hashing|minilm]
                                [--workers N] [--keep DIR]
    python benchmarks/ingest.py --durability [--turns 2000] [--sizes 10000]

`--workers` defaults to what `threefold import slack` uses here: a worker per core, at most 4.

Each size runs in a fresh subprocess, so its peak RSS is its own: generate the export
(benchmarks/slack_synth.py, untimed), then time `import_slack(process=False)` (read, clean,
route, store) and `process_pending()` (summaries, facts, observations) separately. Heuristic
model, embedded SQLite, one project per proj-* channel. Prints tables; asserts nothing.
"""

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table
from slack_synth import ExportShape, write_export

from threefold import Memory, load_settings
from threefold.embed import build_embedder
from threefold.pipeline.workers import Workers
from threefold.settings import ProjectSettings

GOAL_RATE = 2_000
GOAL = f"> {GOAL_RATE:,} msgs/s, memory flat in export size"


def sizes(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of sizes: {text}") from None


def peak_rss_mb(who: int = resource.RUSAGE_SELF) -> float:
    # Linux reports KiB, macOS bytes.
    peak = resource.getrusage(who).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024


def projects(shape: ExportShape) -> list[ProjectSettings]:
    return [
        ProjectSettings(
            stream=stream, key=key, names=(stream.split(":", 1)[1],), channels=(channel,)
        )
        for channel, (stream, key) in sorted(shape.project_channels.items())
    ]


def run_one(size: int, embed: str, keep: Path | None, workers: int) -> dict:
    """One measurement, in this process; the parent reads the returned dict as JSON."""
    with tempfile.TemporaryDirectory() as tmp:
        base = keep / str(size) if keep else Path(tmp)
        export, db = base / "export", base / "memory.db"
        shutil.rmtree(export, ignore_errors=True)  # a stale --keep export would mix days in
        for old in base.glob("memory.db*"):
            old.unlink()

        started = time.perf_counter()
        shape = write_export(export, messages=size)
        generated = time.perf_counter() - started
        start_rss = peak_rss_mb()

        settings = load_settings(
            db=db,
            background_worker=False,
            model={"kind": "heuristic"},
            embed={"kind": embed},
            projects=projects(shape),
        )
        embedder = None if embed == "none" else build_embedder(embed)
        with Memory.open(settings=settings, embedder=embedder) as mem:
            if workers:
                # Worker processes digest full batches while later days are still read.
                with Workers(settings, count=workers) as pool:
                    started = time.perf_counter()
                    report = mem.import_slack(export, process=False)
                    imported = time.perf_counter()
                done = time.perf_counter()
                processed = pool.ran
            else:
                started = time.perf_counter()
                report = mem.import_slack(export, process=False)
                imported = time.perf_counter()
                processed = mem.process_pending()
                done = time.perf_counter()
            # Before the counts below, which load every fact and summary for the report.
            rss = peak_rss_mb()
            streams = [s.name for s in mem.streams()]
            # Vectors still owed once the work is done: an import that reports done
            # leaves none, or says how many wait (report.unembedded).
            waiting = sum(mem.store.count_unembedded_in("default", name) for name in streams)
            facts = sum(len(mem.facts(name)) for name in streams)
            summaries = sum(len(mem.summaries(name)) for name in streams)
        return {
            "size": size,
            "read": report.read,
            "kept": report.kept,
            "skipped": dict(report.skipped),
            "routed": dict(report.routed),
            "problems": [[str(p.path), str(p.error)] for p in report.problems],
            "expected_problems": len(shape.malformed_files),
            "generate_s": generated,
            "import_s": imported - started,
            "process_s": done - imported,
            "processed": processed,
            "unembedded_at_return": report.unembedded,
            "unembedded_when_done": waiting,
            "streams": len(streams),
            "facts": facts,
            "summaries": summaries,
            "start_rss_mb": start_rss,
            "rss_mb": rss,
            "worker_rss_mb": peak_rss_mb(resource.RUSAGE_CHILDREN) if workers else 0.0,
            "db_mb": sum(p.stat().st_size for p in base.glob("memory.db*")) / 2**20,
        }


def measure(size: int, embed: str, keep: Path | None, workers: int) -> dict | None:
    """Run `size` in a fresh interpreter, so one size's heap never inflates the next one's RSS."""
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--one",
        str(size),
        "--embed",
        embed,
        "--workers",
        str(workers),
    ]
    if keep:
        command += ["--keep", str(keep)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        console = Console(stderr=True)
        console.print(f"[red]size {size:,} failed (exit {done.returncode}):[/red]")
        console.print(done.stderr[-3000:], markup=False, highlight=False)  # tracebacks hold [..]
        return None
    result = json.loads(lines[-1])
    # CPU of the run and its workers (generating the export included): on a shared machine
    # wall time says more about the neighbours.
    result["cpu_s"] = sum(getattr(after, f) - getattr(before, f) for f in ("ru_utime", "ru_stime"))
    return result


def results_table(results: list[dict], embed: str, workers: int) -> Table:
    how = f"{workers} worker processes" if workers else "in-process"
    table = Table(
        "messages",
        "kept",
        "import s",
        "process s",
        "total msgs/s",
        "msgs per CPU s",
        "unembedded at return / done",
        "start RSS MB",
        "peak RSS MB",
        "worker RSS MB",
        "DB MB",
        "facts",
        "summaries",
        "problems",
        title=f"threefold Slack import, heuristic, SQLite, embed={embed}, {how} — goal: {GOAL}",
    )
    for r in results:
        rate = r["read"] / (r["import_s"] + r["process_s"])
        colour = "green" if rate > GOAL_RATE else "red"
        problems = len(r["problems"])
        expected = "" if problems == r["expected_problems"] else f" ({r['expected_problems']} exp.)"
        table.add_row(
            f"{r['read']:,}",
            f"{r['kept']:,}",
            f"{r['import_s']:.1f}",
            f"{r['process_s']:.1f}",
            f"[{colour}]{rate:,.0f}[/{colour}]",
            f"{r['read'] / r['cpu_s']:,.0f}",
            f"{r['unembedded_at_return']:,} / {r['unembedded_when_done']:,}",
            f"{r['start_rss_mb']:.0f}",
            f"{r['rss_mb']:.0f}",
            f"{r['worker_rss_mb']:.0f}",
            f"{r['db_mb']:.1f}",
            f"{r['facts']:,}",
            f"{r['summaries']:,}",
            f"{problems}{expected}",
        )
    if len(results) > 1:
        low, high = results[0], results[-1]
        table.caption = (
            f"peak RSS x{high['rss_mb'] / low['rss_mb']:.2f} for x{high['read'] / low['read']:.1f}"
            " messages; the malformed day file is the one expected problem"
        )
    return table


def routing_table(result: dict) -> Table:
    table = Table(
        "stream", "messages", "share", title=f"routed per stream, {result['read']:,} messages"
    )
    routed = sorted(result["routed"].items(), key=lambda item: -item[1])
    total = sum(result["routed"].values()) or 1
    for stream, count in routed[:12]:
        table.add_row(stream, f"{count:,}", f"{count / total:.1%}")
    if len(routed) > 12:
        rest = sum(count for _, count in routed[12:])
        table.add_row(f"({len(routed) - 12} more)", f"{rest:,}", f"{rest / total:.1%}")
    skipped = ", ".join(f"{kind} {n:,}" for kind, n in sorted(result["skipped"].items()))
    table.caption = f"skipped: {skipped or 'none'}"
    return table


DURABILITY_LEVELS = ("full", "normal", "off")


def durability_run(level: str, turns: int, export: Path, shape: ExportShape, base: Path) -> dict:
    """Turns one commit each (where a sync per commit shows), then a Slack import (500
    records per commit), on a fresh database at `level`."""
    settings = load_settings(
        db=base / f"{level}.db",
        background_worker=False,
        model={"kind": "heuristic"},
        embed={"kind": "none"},
        projects=projects(shape),
        durability=level,
    )
    with Memory.open(settings=settings, embedder=None) as mem:
        started = time.perf_counter()
        for n in range(turns):
            mem.add_turn("chat:bench", f"turn {n}: the deploy moved to Friday", "Noted.")
        turned = time.perf_counter()
        report = mem.import_slack(export, process=False)
        imported = time.perf_counter()
    return {
        "level": level,
        "turns_per_s": turns / (turned - started),
        "messages_per_s": report.read / (imported - turned),
    }


def durability_table(turns: int, messages: int) -> Table:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        shape = write_export(base / "export", messages=messages)
        rows = [
            durability_run(level, turns, base / "export", shape, base)
            for level in DURABILITY_LEVELS
        ]
    full = rows[0]
    table = Table(
        "durability",
        "synchronous",
        "add_turn /s",
        "vs full",
        "import msgs/s",
        "vs full",
        "survives",
        title=f"durability cost: {turns:,} add_turn calls, a {messages:,}-message Slack import",
    )
    survives = {"full": "power cut", "normal": "process crash", "off": "process crash*"}
    for row in rows:
        table.add_row(
            row["level"],
            row["level"].upper(),
            f"{row['turns_per_s']:,.0f}",
            f"x{row['turns_per_s'] / full['turns_per_s']:.2f}",
            f"{row['messages_per_s']:,.0f}",
            f"x{row['messages_per_s'] / full['messages_per_s']:.2f}",
            survives[row["level"]],
        )
    table.caption = (
        "* WAL: with synchronous=OFF a commit is handed to the OS, which keeps it if the process"
        " dies but not if the machine does"
    )
    return table


def cli_default_workers() -> int:
    """The CLI digests in one worker process per core, at most 4; with one core, in-process."""
    cores = min(os.cpu_count() or 1, 4)
    return cores if cores > 1 else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--sizes", type=sizes, default=[10_000, 100_000], help="comma-separated message counts"
    )
    parser.add_argument(
        "--embed",
        default="none",
        choices=["none", "hashing", "minilm", "static"],
        help="embedder; 'none' measures import, extraction and summaries alone",
    )
    parser.add_argument(
        "--keep",
        type=Path,
        default=None,
        metavar="DIR",
        help="keep each export and database in DIR/<size>/ (its export/ and memory.db* are "
        "replaced)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=cli_default_workers(),
        help="digest in this many worker processes while importing (0: after, in-process); "
        "default: as `threefold import slack` on this machine",
    )
    parser.add_argument(
        "--durability",
        action="store_true",
        help="instead: add_turn and import throughput at each settings.durability level",
    )
    parser.add_argument("--turns", type=int, default=2_000, help="add_turn calls (--durability)")
    parser.add_argument("--one", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.durability:
        Console(width=170).print(durability_table(args.turns, args.sizes[0]))
        return

    if args.one is not None:
        print(json.dumps(run_one(args.one, args.embed, args.keep, args.workers)), flush=True)
        return

    console = Console(width=170)
    results = []
    for size in args.sizes:
        console.print(f"[dim]{size:,} messages…[/dim]")
        result = measure(size, args.embed, args.keep, args.workers)
        if result:
            results.append(result)
    if not results:
        sys.exit(1)
    console.print(results_table(results, args.embed, args.workers))
    largest = max(results, key=lambda r: r["read"])
    console.print(routing_table(largest))
    for path, error in largest["problems"]:
        console.print(f"[yellow]problem[/yellow] {path}: {error}")


if __name__ == "__main__":
    main()
