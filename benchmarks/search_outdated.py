"""What marking outdated search hits costs (SearchHit.now, issue 36).

    python benchmarks/search_outdated.py [--turns 10000] [--every 50] [--rounds 30]
        [--dir DIR] [--rebuild]

One stream of `--turns` turns, through the pipeline (heuristic model, hashing vectors):
chatter (benchmarks/data/stale/filler.jsonl, numbered so that no two turns are alike),
and every `--every` turns a change of job or home worded one of several ways
(benchmarks/data/search_outdated.json), so that the stream holds a few hundred superseded
facts in two long chains. Each question is then asked `--rounds` times through
Memory.search, and the parts timed apart:

- search: Recall.search alone, what Memory.search cost before hits were marked;
- mark: marking its hits (one read of the stream's superseded facts, then the words of
  each hit), with the store's read cache warm (no write since the last search);
- mark after a write: the same after a turn was added to another stream, which empties
  the store's read caches, as a chat that adds a turn and then searches does;
- the same three for a search of every stream (no `stream=`).

It prints p50 and p95 in milliseconds, the superseded pairs, and the share of hits marked.

First run (issue 36), 10,000 turns, a change every 50 (205 superseded facts, each paired
with the fact in force at the end of its chain), 10 rounds of 6 questions, 2 shared cores
under another job's load:

    scope         part                p50 ms   p95 ms   hits marked
    one stream    search               6.265   15.166
    one stream    mark                 0.613    2.320   280/600
    one stream    mark after a write   2.360    6.416
    every stream  search               6.456   18.597
    every stream  mark                 0.281    0.408   40/600
    every stream  mark after a write   2.050    6.696

After a write, 1.35 ms of the mark is reading the 207 rows of superseded facts and their
successors again (the store's read cache empties at every write); a context reads the same
rows in its stream_view. Before rules were found by their first word and their words kept,
the same run gave 1.637 and 6.738 ms.
"""

import argparse
import json
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from threefold import Memory, load_settings
from threefold.domain import READABLE, Trust
from threefold.recall import outdated
from threefold.recall.presets import PRESETS
from threefold.store.base import ItemFilter

DATA = Path(__file__).parent / "data"
STREAM = "chat:long"
T0 = datetime(2025, 1, 6, 8, 0, tzinfo=UTC)
PROCESS_EVERY = 500


def build(db: Path, turns: int, every: int) -> None:
    words = json.loads((DATA / "search_outdated.json").read_text())
    filler = [json.loads(line) for line in (DATA / "stale" / "filler.jsonl").open()]
    settings = load_settings(db=db, embed={"kind": "hashing"})
    with Memory.open(settings=settings, background_worker=False) as mem:
        held = [words["employers"][0], words["cities"][0]]
        for n in range(turns):
            user, assistant = _said(n, every, words, filler, held)
            mem.add_turn(STREAM, user, assistant, at=T0 + timedelta(minutes=20 * n))
            if n % PROCESS_EVERY == PROCESS_EVERY - 1:
                mem.process_pending()
        mem.process_pending()


def _said(n: int, every: int, words: dict, filler: list[dict], held: list[str]) -> tuple[str, str]:
    """Turn n: a first statement, a change of job or home, or numbered chatter."""
    if n < 2:
        return words["first"][n].format(new=held[n]), "Noted."
    if n % every:
        line = filler[n % len(filler)]
        return f"{line['u']} (question {n})", line["a"]
    change = (n // every) % 2  # job, then home, in turn
    choices = words["employers"] if change == 0 else words["cities"]
    old = held[change]
    new = choices[(choices.index(old) + 1 + n // every % 3) % len(choices)]
    held[change] = new
    templates = words["updates"][2 * change : 2 * change + 2]
    return templates[n // every // 2 % 2].format(old=old, new=new), "Got it."


def percentile(samples: list[float], share: float) -> float:
    return statistics.quantiles(samples, n=100)[int(share * 100) - 1]


def measure(db: Path, rounds: int) -> None:
    questions = json.loads((DATA / "search_outdated.json").read_text())["questions"]
    settings = load_settings(db=db, embed={"kind": "hashing"})
    with Memory.open(settings=settings, background_worker=False) as mem:
        tenant = mem.tenant
        pairs = len(mem.store.superseded_facts(tenant, STREAM))
        turns = mem.store.stream_state(tenant, STREAM).turn_count
        print(f"{turns:,} turns, {pairs} superseded facts paired with the one in force\n")
        print("scope        part               p50 ms   p95 ms   hits marked")
        for scope, streams in (("one stream", (STREAM,)), ("every stream", None)):
            where = ItemFilter(tenant=tenant, streams=streams, visibilities=READABLE[Trust.FULL])
            times: dict[str, list[float]] = {"search": [], "mark": [], "mark after a write": []}
            marked = total = 0
            for n in range(rounds):
                for question in questions:
                    for part in ("mark after a write", "mark"):
                        if part == "mark after a write":
                            mem.add_turn("chat:other", f"unrelated {n} {question}")
                        started = time.perf_counter()
                        hits = mem.recall.search(question, where, PRESETS["default"], 10)
                        searched = time.perf_counter()
                        shown = outdated.marked(mem.store, tenant, hits, where.visibilities)
                        done = time.perf_counter()
                        times["search"].append(1000 * (searched - started))
                        times[part].append(1000 * (done - searched))
                    marked += sum(1 for h in shown if h.now)
                    total += len(shown)
            for part, samples in times.items():
                share = f"{marked}/{total}" if part == "mark" else ""
                print(
                    f"{scope:<12} {part:<18} {percentile(samples, 0.5):>7.3f}"
                    f"  {percentile(samples, 0.95):>7.3f}   {share}"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--every", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--dir", type=Path)
    parser.add_argument("--rebuild", action="store_true")
    args = parser.parse_args()
    folder = args.dir or Path(tempfile.mkdtemp(prefix="search-outdated-"))
    db = folder / f"outdated-{args.turns}-{args.every}.db"
    if args.rebuild or not db.exists():
        started = time.perf_counter()
        build(db, args.turns, args.every)
        print(f"built {db} in {time.perf_counter() - started:,.0f} s")
    measure(db, args.rounds)


if __name__ == "__main__":
    main()
