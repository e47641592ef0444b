"""How fast a Slack import becomes searchable by text, with the default settings.

    python benchmarks/import_searchable.py [--messages 4000] [--runs 3] [--embed auto]
                                           [--export DIR] [--profile 25]

The issue's goal: a 4,000-message import is searchable by text at >= 2,000 messages/s on
2 cores with the default install; embedding runs behind, in the workers, and the report
says how many items are still queued.

Each run is a fresh interpreter and a fresh database (the export is written once,
untimed, by benchmarks/slack_synth.py, or read from `--export`). Timed: opening the memory,
then `import_slack(process=False)` until it returns, then one text search for the words of
the last message stored. The clock stops when that search finds it. CPU seconds are this
process's over the import and the search (threads included). `--profile N` prints the
import's N costliest functions. To measure another checkout's code with this script, run
it with PYTHONPATH=<checkout>/src.
Prints tables; asserts nothing.
"""

import argparse
import cProfile
import io
import json
import os
import pstats
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table
from slack_synth import write_export

GOAL_RATE = 2_000


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def last_stored(db: Path) -> tuple[int, str]:
    """The newest record of the database, read with sqlite3 so that no Memory is asked."""
    import sqlite3

    with sqlite3.connect(db) as conn:
        row = conn.execute(
            "SELECT id, text FROM records WHERE length(text) > 20 ORDER BY id DESC LIMIT 1"
        ).fetchone()
    return int(row[0]), str(row[1])


def words_of(text: str) -> str:
    """A query of the message's own words (12 at most), ticket keys such as HOTEL-33 kept:
    among thousands of messages made from templates, one word is shared by many, the whole
    wording by few."""
    return " ".join(re.findall(r"\w[\w-]*", text)[:12])


def run_one(export: Path, embed: str, profile: int) -> dict:
    """One measurement in this process; the parent reads the printed dict as JSON."""
    from threefold import Memory, load_settings

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "memory.db"
        settings = load_settings(db=db, embed={"kind": embed})
        started = time.perf_counter()
        with Memory.open(settings=settings) as mem:
            opened, cpu_started = time.perf_counter(), cpu_seconds()
            profiler = cProfile.Profile() if profile else None
            if profiler:
                profiler.enable()
            report = mem.import_slack(export, process=False)
            if profiler:
                profiler.disable()
            imported = time.perf_counter()
            record_id, text = last_stored(db)
            hits = mem.search(words_of(text), kinds=["record"], limit=50, preset="keywords")
            found = any(h.id == record_id for h in hits)
            searched = time.perf_counter()
            cpu = cpu_seconds() - cpu_started
            queued = mem.store.count_unembedded()
        shown = ""
        if profiler:
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(profile)
            shown = out.getvalue()
    return {
        "read": report.read,
        "kept": report.kept,
        "open_s": opened - started,
        "import_s": imported - opened,
        "search_s": searched - imported,
        "found": found,
        "cpu_s": cpu,
        "unembedded_at_return": report.unembedded,
        "unembedded_after_search": queued,
        "load": os.getloadavg()[0],
        "profile": shown,
    }


def measure(export: Path, embed: str, profile: int) -> dict:
    command = [sys.executable, str(Path(__file__).resolve()), "--one", str(export)]
    command += ["--embed", embed, "--profile", str(profile)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        sys.exit(f"the run failed (exit {done.returncode}):\n{done.stderr[-3000:]}")
    return json.loads(lines[-1])


def table(results: list[dict], embed: str) -> Table:
    out = Table(
        "run",
        "messages",
        "kept",
        "open s",
        "import s",
        "search s",
        "msgs/s to searchable",
        "msgs per CPU s",
        "found",
        "queued for vectors",
        "load (1 min)",
        title=f"Slack import until searchable by text, embed={embed}, default settings"
        f" — goal >= {GOAL_RATE:,} msgs/s",
    )
    for n, r in enumerate(results, 1):
        seconds = r["import_s"] + r["search_s"]
        rate = r["read"] / seconds
        colour = "green" if rate >= GOAL_RATE and r["found"] else "red"
        out.add_row(
            str(n),
            f"{r['read']:,}",
            f"{r['kept']:,}",
            f"{r['open_s']:.2f}",
            f"{r['import_s']:.2f}",
            f"{r['search_s']:.3f}",
            f"[{colour}]{rate:,.0f}[/{colour}]",
            f"{r['read'] / r['cpu_s']:,.0f}",
            "yes" if r["found"] else "NO",
            f"{r['unembedded_at_return']:,}",
            f"{r['load']:.1f}",
        )
    out.caption = (
        "msgs/s counts from the call of import_slack to the search finding the last message;"
        " opening the memory (the embedder loads lazily) is shown apart"
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--messages", type=int, default=4_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--embed", default="auto", help="embed.kind (default: auto)")
    parser.add_argument("--export", type=Path, default=None, help="import this export instead")
    parser.add_argument("--profile", type=int, default=0, help="print the N costliest calls")
    parser.add_argument("--one", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.one is not None:
        print(json.dumps(run_one(args.one, args.embed, args.profile)), flush=True)
        return

    console = Console(width=170)
    with tempfile.TemporaryDirectory() as tmp:
        export = args.export or Path(tmp) / "export"
        if args.export is None:
            write_export(export, messages=args.messages)
        results = [measure(export, args.embed, args.profile) for _ in range(args.runs)]
    console.print(table(results, args.embed))
    for r in results[:1]:
        if r["profile"]:
            console.print(r["profile"], markup=False, highlight=False)


if __name__ == "__main__":
    main()
