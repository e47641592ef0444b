"""context() latency as one stream grows: 10k, 100k, 1M items, unique questions.

    python benchmarks/scale.py [--sizes 10000 100000 1000000] [--queries 200]
        [--dir DIR] [--budget 2000] [--rebuild] [--merge] [--real-recall LOCOMO_JSON]

Each store is generated straight through the store API (turns, Slack records and facts,
80/15/5, with hashing vectors), then measured in a fresh process so that its peak RSS is
its own. Every question is asked once ("What did Raj say about kafka deploy (17)?"), and
the stream is busy: a turn is added before each question, so no read cache survives.
The hashing embedder keeps the model's cost out: this measures search. Prints p50 and p95
(wall and CPU), growth against the smallest size, peak RSS and recall@50 of the
approximate vector search against an exact scan, and the full garbage collections that
ran inside the timed contexts (how many, and the slowest one's CPU). Stores are kept in
--dir and reused.
A second table shows what a fresh worker meets: its first search (which never waits for a
graph), when the graphs its builders write are ready, its own peak RSS and the builders'
CPU and peak RSS; --rebuild and --merge add a worker that finds the graph files missing,
or 5% new items beside them, each on a copy.

Session 53, 100,000 items, 200 questions, quiet machine (load 0.2): CPU p50 29.0 ms, p95
113.4 ms; 8 full collections, the slowest 111 ms. Each context leaves some 460 new tracked
objects alive in caches (pydantic items, sources and context lines), and a full collection
walks them all. A probe timing each context without its collections' CPU: p95 103 -> 90
ms; the rest of the tail is the first questions after opening.

Session 54: the context's line caches (context/assemble.py) keep strings and counts, not
models, and the caches of word sets (staleness.stems, rerank._roots_of) hold 4,096 texts,
not 16,384. 1,500 busy contexts at 100,000 items, two rounds each, old and new alternating
(CPU ms of contexts 1,001-1,500): tracked objects 209,000 -> 140,000; full collections
past context 1,000 took 232-365 -> 143-215 ms each; p50 / p95 35.4-36.7 / 56.1-60.1 ->
31.7-38.6 / 50.5-61.5 (within the rounds' spread). A collection comes every ~200 contexts
and sets the slowest context, not the p95; over 200 questions after opening, the p95 is
the warm-up's (the first ~30 contexts take 150-400 ms while caches fill).

Session 56: less work after each turn. rare_words keeps a turn's word count through new
turns that do not say the word (one index read checks the kept words against the turns
added since; an erasure forgets them all), checks a word's first matches against the
filter in the statement that finds them, and asks the records only of words the turns do
not already say too often (8 words a context, not 420); the turns' index remembers the
terms it found in over 1,000 turns; Staleness.of_text finds the messages sharing two words
with a text through a word index; a build's plans share their drops' models. Contexts are
identical: a hash over 60 busy contexts and their material (retrieved lines, index, dropped
items) at 100,000 and 10,000 items. 100,000 items, 200 questions, six rounds each, main
and this alternating, on a machine loaded by other jobs (load 1.9-2.9), CPU p50 / p95 ms:
main 48.8/133.2, 51.2/124.0, 37.0/141.3, 42.3/161.4, 55.5/120.6, 58.7/176.7 (medians 50.0 /
137.3); now 38.4/79.5, 48.9/92.0, 48.0/82.1, 35.8/94.3, 40.8/94.8, 38.6/79.3 (39.7 / 87.1);
full collections 7 -> 3. Past the warm-up (contexts 151-450, both at once, two rounds) the
mean fell less, 40.9 -> 37.4 and 45.5 -> 43.7 ms. The p95 is still the warm-up's: the first
40 contexts count every word of their candidates (some 400 a context, an index read each,
0.07-0.15 ms at 21 index segments) and their new lines' tokens in Python.
"""

import argparse
import contextlib
import functools
import gc
import json
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from threefold import Memory, load_settings
from threefold.domain import FactCategory, SourceRef, SummaryKind, Visibility
from threefold.embed import HashingEmbedder
from threefold.store import SQLiteStore
from threefold.store.base import ItemFilter, NewFact, NewRecord, NewSummary, NewTurn
from threefold.store.vectors import VectorIndex

STREAM = "project:alpha"
OTHER_STREAM = "project:beta"
PEOPLE = ("Raj", "Priya", "Lena", "Tom", "Ana", "Kofi", "Mei", "Omar", "Sara", "Ivan")
TOPICS = [
    "kafka",
    "deploy",
    "migration",
    "schema",
    "billing",
    "invoice",
    "login",
    "cache",
    "latency",
    "outage",
    "budget",
    "hiring",
    "roadmap",
    "release",
    "rollback",
    "ticket",
    "sprint",
    "review",
    "design",
    "api",
    "gateway",
    "database",
    "index",
    "vector",
    "search",
    "onboarding",
    "contract",
    "vendor",
    "pricing",
    "launch",
    "metrics",
    "dashboard",
    "alert",
    "incident",
]
_BATCH = 5000
_START = datetime(2024, 1, 1, tzinfo=UTC)
_ADDED_FROM = 100_000_000
"""Items added to a generated store are numbered from here, apart from its own."""
MIX = (("turn", 0.80), ("record", 0.14), ("fact", 0.05), ("summary", 0.01))
"""The share of each kind among generated items: chat turns, Slack messages, facts and
session summaries."""


def vocabulary(rng: random.Random, size: int = 20_000) -> list[str]:
    """Topic words first, then made-up words: a long tail, as in real chat."""
    syllables = ["ka", "lo", "mi", "ne", "ra", "su", "to", "vi", "ze", "po", "da", "ge"]
    made_up = {"".join(rng.choices(syllables, k=rng.randint(2, 4))) for _ in range(size)}
    return TOPICS + sorted(made_up)


class Words:
    """Zipf-like word draws: a few words in most texts, most words in few."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.words = vocabulary(rng)
        weights = np.array([1.0 / (rank + 1) for rank in range(len(self.words))])
        self.cumulative = np.cumsum(weights / weights.sum())
        self.draws = np.random.default_rng(rng.getrandbits(32))

    def sentence(self, count: int) -> str:
        return " ".join(self.sentences([count])[0])

    def sentences(self, counts: list[int]) -> list[list[str]]:
        """Word lists of the given lengths, drawn all at once: a million texts are drawn
        in seconds rather than minutes."""
        picks = np.searchsorted(self.cumulative, self.draws.random(sum(counts)), side="right")
        words = [self.words[min(i, len(self.words) - 1)] for i in picks.tolist()]
        ends = np.cumsum(counts).tolist()
        return [words[end - count : end] for count, end in zip(counts, ends, strict=True)]


class _Hashing(HashingEmbedder):
    """The hashing embedder's very vectors, with each word's and word pair's slot hashed
    once: generated text repeats them, and hashing was most of a million items' fill."""

    @functools.lru_cache(maxsize=1 << 19)  # noqa: B019 (one instance, kept for the run)
    def _slot(self, feature: str) -> tuple[int, float]:
        return super()._slot(feature)


def generate(path: Path, size: int, seed: int = 7) -> None:
    """A store with `size` items in STREAM (and a few in OTHER_STREAM), all embedded,
    written in bulk: turns by insert_turns, Slack messages by insert_records, a
    transaction per batch."""
    rng = random.Random(seed)
    words = Words(rng)
    embedder = _Hashing()
    store = SQLiteStore(path, durability="off")
    started = time.perf_counter()
    try:
        for start in range(0, size, _BATCH):
            count = min(_BATCH, size - start)
            _write_batch(store, embedder, words, start, count)
            rate = (start + count) / (time.perf_counter() - started)
            print(
                f"  {path.name}: {start + count:,}/{size:,} ({rate:,.0f} items/s)",
                file=sys.stderr,
                end="\r",
            )
        _write_batch(store, embedder, words, size, 200, stream=OTHER_STREAM)
    finally:
        store.close()
    print(file=sys.stderr)


def _write_batch(
    store: SQLiteStore,
    embedder: HashingEmbedder,
    words: Words,
    start: int,
    count: int,
    stream: str = STREAM,
) -> None:
    rng = words.rng
    kinds = rng.choices([k for k, _ in MIX], [w for _, w in MIX], k=count)
    numbers = range(start, start + count)
    people = rng.choices(PEOPLE, k=count)
    with store.transaction():
        texts: dict[str, list[tuple[int, str]]] = {}
        for kind, write in (
            ("turn", _write_turns),
            ("record", _write_records),
            ("fact", _write_facts),
            ("summary", _write_summaries),
        ):
            mine = [(n, p) for n, p, k in zip(numbers, people, kinds, strict=True) if k == kind]
            if mine:
                texts[kind] = write(store, words, stream, mine)
        for kind, rows in texts.items():
            matrix = embedder.embed([text for _, text in rows])
            store.put_vectors(
                "default",
                stream,
                embedder.name,
                [(kind, i, matrix[row].tobytes(), embedder.dim) for row, (i, _) in enumerate(rows)],
            )


def _at(n: int) -> datetime:
    return _START + timedelta(minutes=n)


def _write_turns(
    store: SQLiteStore, words: Words, stream: str, mine: list[tuple[int, str]]
) -> list[tuple[int, str]]:
    rng = words.rng
    lengths = [length for _ in mine for length in (rng.randint(6, 14), rng.randint(8, 24))]
    drawn = words.sentences(lengths)
    turns = [
        NewTurn(
            tenant="default",
            stream=stream,
            user=f"{' '.join(drawn[2 * row])} ({n})",
            assistant=" ".join(drawn[2 * row + 1]),
            at=_at(n),
            tokens=40,
            speaker=person,
        )
        for row, (n, person) in enumerate(mine)
    ]
    if isinstance(store, SQLiteStore):
        ids = store.insert_turns(turns)
    else:  # benchmarks/postgres.py writes the same items one turn at a time
        ids = [store.insert_turn(turn).id for turn in turns]
    return [(i, f"{t.speaker}: {t.user}\n{t.assistant}") for i, t in zip(ids, turns, strict=True)]


def _write_records(
    store: SQLiteStore, words: Words, stream: str, mine: list[tuple[int, str]]
) -> list[tuple[int, str]]:
    drawn = words.sentences([16] * len(mine))
    records = [
        NewRecord(
            tenant="default",
            stream=stream,
            source="slack",
            channel="general",
            external_id=f"{stream}-{n}",
            author=person,
            text=" ".join(text),
            kind="message",
            at=_at(n),
            route_method="channel",
            route_confidence=1.0,
            visibility=Visibility.SHARED,
            tokens=20,
        )
        for (n, person), text in zip(mine, drawn, strict=True)
    ]
    ids = store.insert_records(records)
    return [(i, f"{r.author}: {r.text}") for r, i in zip(records, ids, strict=True) if i]


def _write_facts(
    store: SQLiteStore, words: Words, stream: str, mine: list[tuple[int, str]]
) -> list[tuple[int, str]]:
    written = []
    for (n, person), drawn in zip(mine, words.sentences([4] * len(mine)), strict=True):
        text = f"{person} owns the {' '.join(drawn)}"
        fact = store.insert_fact(
            NewFact(
                tenant="default",
                stream=stream,
                text=text,
                category=FactCategory.DECISION,
                subject=person.lower(),
                slot=f"owns-{n}",
                value=text,
                confidence=0.5,
                source=SourceRef(kind="turn", id=str(n), at=_at(n)),
                tokens=10,
            )
        )
        written.append((fact.id, text))
    return written


def _write_summaries(
    store: SQLiteStore, words: Words, stream: str, mine: list[tuple[int, str]]
) -> list[tuple[int, str]]:
    written = []
    for (n, person), drawn in zip(mine, words.sentences([40] * len(mine)), strict=True):
        text = f"Session with {person}: {' '.join(drawn)}."
        summary = store.insert_summary(
            NewSummary(
                tenant="default",
                stream=stream,
                kind=SummaryKind.SESSION,
                text=text,
                tokens=60,
                period_start=_at(n - 60),
                period_end=_at(n),
                item_count=20,
            )
        )
        written.append((summary.id, text))
    return written


def meet_graphs(path: Path, added: int = 0) -> dict[str, float]:
    """A fresh worker meets the store's graphs: after `added` new items (a merge into the
    saved graph is then due) or with graph files missing (a build). Its first search must
    not wait for either; then it waits for the builders it started, and maps their files.
    Run in a child process (--graphs), so that the figures are its own and its builders'."""
    if added:
        rng = random.Random(added)
        words = Words(rng)
        store = SQLiteStore(path, durability="off")
        for start in range(0, added, _BATCH):
            _write_batch(store, _Hashing(), words, _ADDED_FROM + start, min(_BATCH, added - start))
        store.close()
    settings = load_settings(db=path, embed={"kind": "hashing"})
    cpu = time.process_time()
    with Memory.open(settings=settings, background_worker=False) as mem:
        started = time.perf_counter()
        mem.search("what happened to the kafka deploy", stream=STREAM)
        first_ms = (time.perf_counter() - started) * 1000
        mem.recall.index.settle()
        ready = time.perf_counter() - started
        mem.search("what happened to the kafka deploy", stream=STREAM)
        own = _memory_mb()
    return {
        "first_search_ms": first_ms,
        "ready_s": ready,
        "cpu_s": time.process_time() - cpu,
        "load": os.getloadavg()[0],
        **own,
    }


def questions(count: int, seed: int) -> list[str]:
    """Unique questions: a person, two topic words and a number never asked before."""
    rng = random.Random(seed)
    words = Words(rng)
    return [
        f"What did {rng.choice(PEOPLE)} say about {words.sentence(2)} ({seed * 100_000 + n})?"
        for n in range(count)
    ]


def measure(path: Path, queries: int, budget: int) -> dict[str, float]:
    """Context latency on a busy stream, memory and recall@50, in this process."""
    settings = load_settings(db=path, embed={"kind": "hashing"})
    with Memory.open(settings=settings, background_worker=False) as mem:
        open_ms = _time_first_context(mem, budget)
        samples, cpu = [], []
        with _full_collections() as collections:
            for n, question in enumerate(questions(queries, seed=11)):
                mem.add_turn(STREAM, f"busy turn {n}", "noted", speaker="Tom")
                started, cpu_started = time.perf_counter(), time.process_time()
                collections.timing = True
                mem.context(STREAM, question, budget=budget)
                collections.timing = False
                samples.append((time.perf_counter() - started) * 1000)
                cpu.append((time.process_time() - cpu_started) * 1000)
        memory = _memory_mb()
        load = os.getloadavg()[0]
        recall_at_50 = _vector_recall(mem, questions(50, seed=13))
    return {
        "p50": statistics.median(samples),
        "p95": statistics.quantiles(samples, n=100)[94],
        "cpu_p50": statistics.median(cpu),
        "cpu_p95": statistics.quantiles(cpu, n=100)[94],
        "open_ms": open_ms,
        "recall_at_50": recall_at_50,
        "full_collections": len(collections.cpu_ms),
        "full_collection_ms": max(collections.cpu_ms, default=0.0),
        "load": load,
        **memory,
    }


class _FullCollections:
    """The CPU of each full (oldest-generation) garbage collection that runs inside a timed
    context: one walks every object the process holds, caches included, and lands on
    whichever context happens to cross the collector's threshold."""

    def __init__(self) -> None:
        self.timing = False
        self.cpu_ms: list[float] = []
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if not self.timing or info["generation"] != 2:
            return
        if phase == "start":
            self._started = time.process_time()
        else:
            self.cpu_ms.append((time.process_time() - self._started) * 1000)


@contextlib.contextmanager
def _full_collections() -> Iterator[_FullCollections]:
    seen = _FullCollections()
    gc.callbacks.append(seen)
    try:
        yield seen
    finally:
        gc.callbacks.remove(seen)


def _memory_mb() -> dict[str, float]:
    """Peak RSS, and what the process holds now: its own memory (anon) apart from file
    pages it maps (the vector graphs), which the system shares between processes and
    may drop. From /proc on Linux; elsewhere the peak alone."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    found = {"rss_mb": peak, "anon_mb": float("nan"), "file_mb": float("nan")}
    status = Path("/proc/self/status")
    if status.exists():
        fields = dict(line.split(":", 1) for line in status.read_text().splitlines())
        found["anon_mb"] = int(fields["RssAnon"].split()[0]) / 1024
        found["file_mb"] = int(fields["RssFile"].split()[0]) / 1024
    return found


def _time_first_context(mem: Memory, budget: int) -> float:
    """The first context loads or builds the indexes: reported apart from the rest."""
    started = time.perf_counter()
    mem.context(STREAM, "what happened first", budget=budget)
    return (time.perf_counter() - started) * 1000


def _vector_recall(mem: Memory, asked: list[str]) -> float:
    """Share of the exact top 50 turns (cosine over the stored float32 vectors) that the
    vector index returns. Hashing vectors tie often, so a returned turn as similar as the
    exact 50th counts as found. The stored vectors are read a slice at a time: a million
    of them would take gigabytes at once."""
    recall = mem.recall
    if recall.embedder is None:
        return float("nan")
    queries = recall.embedder.embed(asked)
    best = np.full((len(asked), 50), -np.inf, dtype=np.float32)
    similarity_of: dict[int, np.ndarray] = {}
    approximate = [
        [i for i, _ in recall.index.search("turn", _everything(), vector, 50)] for vector in queries
    ]
    wanted = {i for found in approximate for i in found}
    after = 0
    while rows := mem.store.vectors("turn", "default", [STREAM], after_id=after, limit=50_000):
        after = rows[-1][0]
        ids = [item for _, item, _, _ in rows]
        matrix = np.frombuffer(b"".join(blob for *_, blob in rows), dtype=np.float32)
        sims = matrix.reshape(len(rows), -1) @ queries.T
        best = np.sort(np.concatenate([best, sims.T], axis=1), axis=1)[:, -50:]
        for row, item in enumerate(ids):
            if item in wanted:
                similarity_of[item] = sims[row]
    found = 0.0
    for question, hits in enumerate(approximate):
        kth = best[question, 0]
        found += sum(similarity_of[i][question] >= kth - 1e-6 for i in hits) / 50
    return found / len(asked)


def _everything() -> ItemFilter:
    return ItemFilter(tenant="default", streams=(STREAM,))


def real_text_recall(locomo: Path) -> tuple[int, float]:
    """recall@50 of the graph on real chat lines embedded with MiniLM (LoCoMo, every line
    one item, every question a query), against an exact scan: hashing vectors are close to
    random, the hardest case for any graph, so this is the figure users meet."""
    from locomo import load_conversations

    from threefold.embed import MiniLMEmbedder

    lines = [(c.sample_id, line) for c in load_conversations(locomo) for line in c.lines]
    asked = [q.text for c in load_conversations(locomo) for q in c.questions]
    embedder = MiniLMEmbedder(threads=2)
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteStore(Path(tmp) / "real.db")
        with store.transaction():
            ids = [
                store.insert_turn(
                    NewTurn(
                        tenant="default",
                        stream=STREAM,
                        user=f"{line.speaker}: {line.text}",
                        assistant="",
                        at=_START,
                        tokens=10,
                    )
                ).id
                for _, line in lines
            ]
            matrix = embedder.embed([f"{line.speaker}: {line.text}" for _, line in lines])
            store.put_vectors(
                "default",
                STREAM,
                embedder.name,
                [("turn", i, matrix[row].tobytes(), embedder.dim) for row, i in enumerate(ids)],
            )
        index = VectorIndex(store, store.index_directory, approximate_from=1)
        index.refresh("default", STREAM)
        index.settle()  # the graph is built apart: searched exactly until it is ready
        where = ItemFilter(tenant="default", streams=(STREAM,))
        found = 0.0
        for vector in embedder.embed(asked):
            sims = matrix @ vector
            kth = np.sort(sims)[-50]
            got = index.search("turn", where, vector, 50)
            found += sum(sims[ids.index(i)] >= kth - 1e-6 for i, _ in got) / 50
        store.close()
    return len(lines), found / len(asked)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--budget", type=int, default=2000)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/threefold-scale"))
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--graphs", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--added", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument(
        "--rebuild",
        action="store_true",
        help="also time a worker that finds the graph files missing (on a copy)",
    )
    parser.add_argument(
        "--merge",
        action="store_true",
        help="also time a worker that finds 5%% new items beside the graphs (on a copy)",
    )
    parser.add_argument(
        "--real-recall",
        type=Path,
        metavar="LOCOMO_JSON",
        help="also report the graph's recall@50 on LoCoMo lines embedded with MiniLM",
    )
    args = parser.parse_args()
    if args.real_recall:
        count, found = real_text_recall(args.real_recall)
        print(f"graph recall@50 on {count:,} LoCoMo lines, MiniLM vectors: {found:.3f}")
    if args.measure:
        print(json.dumps(measure(args.measure, args.queries, args.budget)))
        return
    if args.graphs:
        print(json.dumps(meet_graphs(args.graphs, args.added)))
        return
    args.dir.mkdir(parents=True, exist_ok=True)
    table = Table(
        "items",
        "p50 ms",
        "p95 ms",
        "p95 growth",
        "CPU p50 ms",
        "CPU p95 ms",
        "index ready s",
        "first context ms",
        "peak RSS MB",
        "anon / mapped MB",
        "recall@50",
        "full GCs (max ms)",
        "load",
        title=f"context(), one busy stream, hashing embedder, budget {args.budget}; "
        f"load before: {_load()}",
    )
    graphs = Table(
        "items",
        "what the worker met",
        "first search ms",
        "graphs ready s",
        "worker CPU s",
        "worker peak RSS MB",
        "anon / mapped MB",
        "builder CPU s",
        "builder peak RSS MB",
        "load",
        title="vector graphs built or merged apart, in a child process at low priority",
    )
    base = None
    for size in args.sizes:
        path = args.dir / f"scale-{size}.db"
        if not path.exists():
            generate(path, size)
        met = [("first open", path, 0)]
        if args.rebuild:
            met.append(("graph files missing", path, -1))
        if args.merge:
            met.append(("5% new items", path, max(1, size // 20)))
        for what, source, added in met:
            found = _graphs_apart(source, added, in_place=what == "first open")
            _add_graph_row(graphs, size, what, found)
            if what == "first open":
                index_seconds = f"{found['ready_s']:.1f}"
        result = _measure_apart(path, args.queries, args.budget)
        base = base or result["p95"]
        table.add_row(
            f"{size:,}",
            f"{result['p50']:.1f}",
            f"{result['p95']:.1f}",
            f"x{result['p95'] / base:.2f}",
            f"{result['cpu_p50']:.1f}",
            f"{result['cpu_p95']:.1f}",
            index_seconds,
            f"{result['open_ms']:.0f}",
            f"{result['rss_mb']:.0f}",
            f"{result['anon_mb']:.0f} / {result['file_mb']:.0f}",
            f"{result['recall_at_50']:.3f}",
            f"{result['full_collections']} ({result['full_collection_ms']:.0f})",
            f"{result['load']:.1f}",
        )
    Console(width=200).print(table)  # whole, even when piped to a file
    Console(width=200).print(graphs)
    print(f"load after: {_load()} (1, 5 and 15 minute load averages; {os.cpu_count()} cores)")


def _load() -> str:
    """The machine's load: on a shared machine wall times say more about it than about us,
    and CPU time per context is the figure that travels."""
    return " ".join(f"{n:.1f}" for n in os.getloadavg())


def _graphs_apart(path: Path, added: int, *, in_place: bool) -> dict[str, float]:
    """meet_graphs in a child process: on the store itself for its first open (the graphs
    it builds are kept), else on a copy, without its graph files when `added` is -1."""
    copy = path if in_place else path.with_suffix(".graphs.db")
    if not in_place:
        for part in path.parent.glob(path.name + "*"):
            _copy(part, copy.parent / part.name.replace(path.name, copy.name, 1))
        if added < 0:
            for graph in copy.parent.glob(copy.name + ".vectors/*.usearch"):
                graph.unlink()
    try:
        command = [sys.executable, __file__, "--graphs", str(copy), "--added", str(max(0, added))]
        out = subprocess.run(command, check=True, capture_output=True, text=True)
    finally:
        if not in_place:
            for leftover in copy.parent.glob(copy.name + "*"):
                _remove(leftover)
    return json.loads(out.stdout.strip().splitlines()[-1]) | _builders(out.stderr)


def _builders(log: str) -> dict[str, float]:
    """CPU seconds and the largest peak RSS of the graph builders, from their log lines
    (each measures itself: a child's getrusage peak would be its parent's at the fork)."""
    found = [
        (float(cpu), float(peak))
        for cpu, peak in re.findall(r"([0-9.]+) CPU-s, peak RSS ([0-9.]+) MB", log)
    ]
    return {
        "builder_cpu_s": sum(cpu for cpu, _ in found),
        "builder_peak_mb": max((peak for _, peak in found), default=0.0),
    }


def _add_graph_row(table: Table, size: int, what: str, found: dict[str, float]) -> None:
    table.add_row(
        f"{size:,}",
        what,
        f"{found['first_search_ms']:.0f}",
        f"{found['ready_s']:.1f}",
        f"{found['cpu_s']:.1f}",
        f"{found['rss_mb']:.0f}",
        f"{found['anon_mb']:.0f} / {found['file_mb']:.0f}",
        f"{found['builder_cpu_s']:.1f}",
        f"{found['builder_peak_mb']:.0f}",
        f"{found['load']:.1f}",
    )


def _measure_apart(path: Path, queries: int, budget: int) -> dict[str, float]:
    """Measure in a child process, so each size's peak RSS is its own. The store is
    copied first: the busy turns it adds would otherwise pile up run after run."""
    copy = path.with_suffix(".run.db")
    for part in path.parent.glob(path.name + "*"):
        _copy(part, copy.parent / part.name.replace(path.name, copy.name, 1))
    try:
        out = subprocess.run(
            [
                sys.executable,
                __file__,
                "--measure",
                str(copy),
                "--queries",
                str(queries),
                "--budget",
                str(budget),
            ],
            check=True,
            capture_output=True,
            text=True,
        )
    finally:
        for leftover in copy.parent.glob(copy.name + "*"):
            _remove(leftover)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _copy(source: Path, target: Path) -> None:
    if source.is_dir():
        shutil.copytree(source, target)
    else:
        shutil.copyfile(source, target)


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path)
    else:
        path.unlink()


if __name__ == "__main__":
    main()
