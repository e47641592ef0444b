"""Where a search's and a context's time goes, stage by stage, on stores that
benchmarks/needles.py kept (its --dir):

    python benchmarks/needles.py --sizes 10000 100000 --dir DIR    # builds them once
    python benchmarks/search_stages.py --dir DIR --sizes 10000 100000

Each size is asked in a fresh process, on a copy of its store (a search may write a
vector file beside it): the needle questions as needles.py asks them (a search, then a
2,000-token context of the same question, whose query vector the search left), then
questions of other wording (data/search_stages.json), each asked once, half by search
and half by context, so that their embedding is part of their time. A stage is timed
inclusively, wall and process CPU, by wrapping the function that does it; stages nest,
so the indented rows are parts of the row above them, and a part called by two stages
(store.passing) is counted in each. The table gives milliseconds a call: p50 and p95 of
the wall time, and the mean of each. `gc` is the time in the garbage collector, `full gc`
that in collections of the oldest generation (a few a run, but each long).

Session 39, 2 shared cores, another job running (load 2-4): at 100,000 turns a search of
other wording spent some 40 ms of CPU (10,000 turns: 17). Its shares: the vector lists 19
(a named person's turns 8, their summaries 4.6, of which listing echoes once 3.7), full
text 4.5 (a question whose every word is common reads the newest 1,000 matches of the
first alphabetically: 12-29 ms), the query's embedding 4.4, the second stage 8 (items
read, covered, specific, about_others, alike_newest_first, folded, fusion), the filter
checks 6 (inside the lists). A context at 100,000 turns: 56 ms, assemble 10 of them.

Session 40 (load 2-3; helper h40a), mean CPU ms of a search of other wording at 100,000
turns, before -> after: filter checks 5.8 -> 3.8 (a named person's items are listed through
the full-text index below a graph's size too, and checked for the rest of the filter only),
full text 5.3 -> 4.2 (p95 15.8 -> 10.1: of words all too common to score, the one with the
fewest matches is read). Running the query's embedding on a thread beside the full text
was measured (p95 within the load's noise) and not kept."""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from needles import BUDGETS, DATA, STREAM, Chat, percentile, store_copy

if TYPE_CHECKING:
    from rich.table import Table

    from threefold import Memory

QUESTIONS = Path(__file__).parent / "data" / "search_stages.json"
ASKED = 200
"""Questions of other wording asked by search, and as many by context."""

STAGES = (
    # (row, module, owner in the module ("" for a function of it), attribute, depth)
    ("embedding", "threefold.embed.minilm", "MiniLMEmbedder", "embed", 1),
    ("names (aliases_among)", "threefold.store.sqlite.store", "SQLiteStore", "aliases_among", 1),
    ("candidates", "threefold.store.sqlite.store", "SQLiteStore", "candidates", 1),
    ("full text (fts_ids)", "threefold.store.sqlite.store", "SQLiteStore", "fts_ids", 2),
    ("vector lists", "threefold.store.vectors", "VectorIndex", "search", 2),
    ("named person's (_named)", "threefold.store.vectors", "VectorIndex", "_named", 3),
    ("graph or matrix walk", "threefold.store.vectors", "VectorIndex", "_search_partition", 3),
    ("echoes once", "threefold.store.vectors", "VectorIndex", "_echoes_once", 3),
    ("exact rescoring", "threefold.store.vectors", "VectorIndex", "_rescored", 3),
    ("filter checks (passing)", "threefold.store.sqlite.store", "SQLiteStore", "passing", 2),
    ("ranking rows", "threefold.store.sqlite.store", "SQLiteStore", "ranking_rows", 2),
    ("fusion (_fuse)", "threefold.recall.search", "Recall", "_fuse", 1),
    ("items read (_with_items)", "threefold.recall.search", "", "_with_items", 1),
    ("covered", "threefold.recall.search", "", "covered", 1),
    ("specific", "threefold.recall.search", "", "specific", 1),
    ("rare_words", "threefold.store.sqlite.store", "SQLiteStore", "rare_words", 2),
    ("about_others", "threefold.recall.search", "", "about_others", 1),
    ("alike_newest_first", "threefold.recall.search", "", "alike_newest_first", 1),
    ("folded", "threefold.recall.search", "", "folded", 1),
    ("outdated.marked", "threefold.memory", "outdated", "marked", 1),
    ("read_view", "threefold.context.material", "", "read_view", 1),
    ("gather (search_items)", "threefold.context.material", "", "gather", 1),
    ("team material", "threefold.team.service", "Team", "material", 1),
    ("assemble", "threefold.context.assemble", "", "assemble", 1),
)


class Clock:
    """The wall and CPU seconds of each stage within the current call."""

    def __init__(self) -> None:
        self.wall: dict[str, float] = {}
        self.cpu: dict[str, float] = {}
        self.gc = [0.0, 0.0]
        """Seconds in young and in full collections."""
        self._gc_started = 0.0

    def reset(self) -> None:
        self.wall, self.cpu, self.gc = {}, {}, [0.0, 0.0]

    def wrap(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            wall, cpu = time.perf_counter(), time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.wall[name] = self.wall.get(name, 0.0) + time.perf_counter() - wall
                self.cpu[name] = self.cpu.get(name, 0.0) + time.process_time() - cpu

        return timed

    def on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
            return
        self.gc[info["generation"] == 2] += time.perf_counter() - self._gc_started


def instrument(clock: Clock) -> None:
    """Wrap each stage's function where its callers look it up."""
    import importlib

    for name, module_name, owner, attribute, _ in STAGES:
        module = importlib.import_module(module_name)
        target = getattr(module, owner) if owner else module
        setattr(target, attribute, clock.wrap(name, getattr(target, attribute)))
    gc.callbacks.append(clock.on_gc)


def questions(chat: Chat) -> list[tuple[str, str, str]]:
    """(what is asked, question, set) in the order they are asked."""
    templates = json.loads(QUESTIONS.read_text())["templates"]
    people = json.loads(DATA.read_text())["people"]
    other = [t.format(person=p) for t in templates for p in people]
    plan = []
    for needle in chat.needles:
        plan += [("search", needle.question, "needles"), ("context", needle.question, "needles")]
    plan += [("search", q, "own") for q in other[0::2][:ASKED]]
    plan += [("context", q, "own") for q in other[1::2][:ASKED]]
    return plan


def ask_all(mem: Memory, plan: list[tuple[str, str, str]], clock: Clock) -> list[dict[str, Any]]:
    rows = []
    for what, question, kind in plan:
        clock.reset()
        wall, cpu = time.perf_counter(), time.process_time()
        if what == "search":
            mem.search(question, STREAM, limit=10)
        else:
            mem.context(STREAM, question, budget=max(BUDGETS))
        row = {"call": f"{what} ({kind})", "total": time.perf_counter() - wall}
        row["total CPU"] = time.process_time() - cpu
        row["gc"], row["full gc"] = sum(clock.gc), clock.gc[1]
        row.update(clock.wall)
        row.update({f"cpu:{k}": v for k, v in clock.cpu.items()})
        rows.append(row)
    return rows


def run_phase(db: Path, size: int, seed: int) -> dict[str, Any]:
    """One size in this process: every call's stage times, in seconds."""
    from threefold import Memory, load_settings

    clock = Clock()
    instrument(clock)
    plan = questions(Chat(seed, size, 200))
    load = os.getloadavg()[0]
    with (
        store_copy(db) as copy,
        Memory.open(settings=load_settings(db=copy), background_worker=False) as mem,
    ):
        mem.search("a first question loads the model and the graph", STREAM, limit=10)
        rows = ask_all(mem, plan, clock)
        objects = len(gc.get_objects())
    return {
        "size": size,
        "rows": rows,
        "load": [load, os.getloadavg()[0]],
        "objects": objects,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def tables(result: dict[str, Any]) -> list[Table]:
    from rich.table import Table

    calls = list(dict.fromkeys(r["call"] for r in result["rows"]))
    lines = [("total", 0), ("total CPU", 0), ("gc", 1), ("full gc", 1)]
    lines += [(name, depth) for name, *_, depth in STAGES]
    out = []
    for call in calls:
        rows = [r for r in result["rows"] if r["call"] == call]
        table = Table("stage", "p50 ms", "p95 ms", "mean ms", "mean CPU ms")
        table.title = f"{result['size']:,} turns, {call}: {len(rows)} calls"
        for name, depth in lines:
            if not any(name in r for r in rows):
                continue
            wall = [r.get(name, 0.0) * 1000 for r in rows]
            cpu = [r.get(f"cpu:{name}", 0.0) * 1000 for r in rows]
            table.add_row(
                "  " * depth + name,
                f"{percentile(wall, 0.5):.2f}",
                f"{percentile(wall, 0.95):.2f}",
                f"{statistics.mean(wall):.2f}",
                f"{statistics.mean(cpu):.2f}" if any(cpu) else "",
            )
        out.append(table)
    return out


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--dir", type=Path, required=True, help="needles.py's kept stores")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000])
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--json", type=Path, help="also write every call's times here")
    parser.add_argument("--phase", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    if args.phase:
        db = args.dir / f"needles-s{args.seed}-{args.sizes[0]}.db"
        print(json.dumps(run_phase(db, args.sizes[0], args.seed)))
        return
    from rich.console import Console

    console = Console(width=None if sys.stdout.isatty() else 110)
    results = []
    for size in args.sizes:
        if not (args.dir / f"needles-s{args.seed}-{size}.db").exists():
            raise SystemExit(f"no store of {size:,} turns in {args.dir}: run needles.py first")
        command = [sys.executable, __file__, "--phase", "--dir", str(args.dir)]
        command += ["--sizes", str(size), "--seed", str(args.seed)]
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
        for table in tables(results[-1]):
            console.print(table)
        load, objects = results[-1]["load"], results[-1]["objects"]
        console.print(f"load average {load[0]:.2f} -> {load[1]:.2f}; {objects:,} objects tracked")
    if args.json:
        args.json.write_text(json.dumps(results))


if __name__ == "__main__":
    main()
