"""Nearest-neighbour search over stored vectors, one partition per (tenant, stream, kind).

A small partition is scanned exactly, from a matrix in memory. One that grows past
`APPROXIMATE_FROM` vectors gets an HNSW graph (usearch), saved beside the database as
`<db>.vectors/<partition>-<through>.usearch`, where `through` is the last vector row the
graph holds. SQLite stays the truth and the file is a cache of it: a process maps the
newest file (memory-mapped, so that processes share its pages) and scans the rows written
after `through` exactly beside it.

Writing a graph is slow work: a million vectors take many CPU-minutes to link, and merging
new ones into a saved graph needs a copy of it in memory. So no search and no embedding job
waits for it. The first process to find a large partition without a usable file, or with
too many rows beside its graph, starts `threefold.store.graph_builder` in a child process at low
priority, holding the partition's lock file, so that one process at a time builds it. Every
process meanwhile answers as it can: a partition beside its old graph as before, a graphless
one exactly while it is small and by full text alone (with a log line) once it is large;
each maps the new file at its first search after the file appears. A file is written whole
under a temporary name and then renamed, so a crash leaves the old file or the new one,
never half of one; a missing or unreadable file is built again from the store. Without
usearch every partition is scanned exactly; without a directory (or POSIX file locks) a
graph is built in the process and held in memory.

Partitions keep tenants, streams and kinds apart before anything is ranked. The rest of a
filter (trust, turns already in view, a time frame) is the store's to judge: the nearest
vectors are checked against it, the search widens while too few pass, and past a bound
the items the filter allows are scored exactly.
"""

import contextlib
import hashlib
import importlib.util
import logging
import math
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from threefold.store.base import NAMED_MOST, ItemFilter, Store, next_window

try:
    import fcntl
except ImportError:  # not POSIX: graphs are held in memory, see VectorIndex
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger("threefold.store.vectors")

APPROXIMATE_FROM = 50_000
"""Below this many vectors an exact scan takes a few milliseconds and needs no file."""
MERGE_FROM = 0.05
"""A graph's file is written again, in a child process, once this share of its partition
is newer than the file: a search scans at most that many rows beside the graph."""
EXACT_UNTIL = 100_000
"""While a partition's first graph is being built, it is scanned exactly up to this many
vectors (150 MB at 384 dimensions); a larger one is searched by full text alone meanwhile."""
LOOK_EVERY = 1.0
"""Seconds between looks for a graph file that a build has finished."""
RETRY_AFTER = 60.0
"""Seconds before a build that wrote no file is tried again."""
_WIDEST = 4096
"""The most nearest neighbours read while looking for enough that pass a filter."""
_RESCORED = 3
"""A graph search reads this many times the candidates asked for, and ranks them by their
exact float32 vectors."""
_EXACT_KEPT = 16_384
"""Exact vectors kept for rescoring: 25 MB at 384 dimensions."""
_SCORED_AT_ONCE = 20_000
"""Vectors read at once when a narrow filter's items are scored exactly: 20 MB at 256
dimensions, however many the filter allows."""
_READ_AT_ONCE = 50_000
"""Stored vectors read at once while a partition catches up or a graph is built."""
_SCALAR = "i8"
_SCALAR_STEPS = 127.0
"""An int8 vector of the graph is its unit vector times this, rounded."""
_HELD_MOST = 131_072
"""The most of a graph's vectors copied out for a named person's items (see
_Graph.similarities_of): 48 MB at 384 dimensions, every turn of 100,000."""
_ROWS_KEPT = 32
"""Lists of ids whose rows of a graph's int8 copy are kept: a named person's items each,
for 30 people (4 MB at 7,400 items a person)."""
ECHO = 0.85
"""The cosine from which two items of a person's list are echoes of one another, listed
once (see one_per_echo). MiniLM puts one line said again with another ending at
0.93-0.96, one value said in place of another ("Priya goes to Belnov Dental now", then
"... Kestal Dental now") at 0.87-0.90, and different lines on one topic ("Priya keeps
putting off the teeth cleaning appointment" beside the first; twelve lines about a
bike) at 0.79 at most. Needles' development seed at 100,000 turns, top 10 / 1,000 /
2,000 tokens from 0.825 / 0.92 / 0.94: at 0.9 0.85 / 0.92 / 0.945, 0.85 0.86 / 0.925 /
0.95, 0.8 0.87 / 0.94 / 0.95, 0.75 0.88 / 0.95 / 0.96; below 0.8 a person's different
lines on the asked topic are taken for echoes, and an answer behind a newer look-alike
is left out of the list."""
ECHO_DEPTH = _RESCORED
"""How many times deeper than asked a person's list is read, for its echoes to be listed
once: as deep as a graph's named list is rescored (see echo_depth)."""
_SCALAR_SLACK = 0.03
"""How far under a similarity floor a graph's candidate may be and still be rescored: int8
vectors put a cosine off by up to about 0.01."""
_CONNECTIVITY = 16
_EXPANSION_ADD = 64
_EXPANSION_SEARCH = 128
"""usearch's scalar kind, graph degree and beam widths. On MiniLM vectors of 100,000 chat
lines (benchmarks/vector_recall.py) these give recall@50 of 0.997 with the rescoring
above, against 0.999 for float16 linked at 128 and searched at 256, for 37% of the build
CPU, 59% of the file and 64% of the search time."""


class _Vectors(Protocol):
    """What a partition holds: vectors by item id, searchable by cosine similarity."""

    def __len__(self) -> int: ...
    def add(self, ids: np.ndarray, vectors: np.ndarray) -> None: ...
    def nearest(
        self, query: np.ndarray, count: int, exact: bool
    ) -> tuple[np.ndarray, np.ndarray]: ...
    def vectors_of(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...


_NONE = (np.zeros(0, dtype=np.int64), np.zeros((0, 0), dtype=np.float32))
"""No ids and no vectors, as _Vectors.vectors_of gives them."""


class _Matrix:
    """Every vector of a small partition, scanned in full by each search."""

    def __init__(self) -> None:
        self.ids = np.zeros(0, dtype=np.int64)
        self.vectors = np.zeros((0, 0), dtype=np.float32)
        self._last: tuple[bytes, np.ndarray, np.ndarray] | None = None
        """The last query's bytes, the ids it was scored over, and every row's similarity."""

    def __len__(self) -> int:
        return int(self.ids.size)

    def add(self, ids: np.ndarray, vectors: np.ndarray) -> None:
        if self.ids.size:
            # A re-embedded item (its text was updated) replaces its old row.
            keep = ~np.isin(self.ids, ids)
            ids = np.concatenate([self.ids[keep], ids])
            vectors = np.vstack([self.vectors[keep], vectors])
        self.ids, self.vectors = ids, vectors

    def nearest(self, query: np.ndarray, count: int, exact: bool) -> tuple[np.ndarray, np.ndarray]:
        return _top(self.ids, self.similarities(query), count)

    def similarities(self, query: np.ndarray) -> np.ndarray:
        """Every row's similarity to `query`, row for row with `ids`. Kept for the last
        query: a search whose filter few neighbours pass asks again, ever wider, with the
        same query, and each ask scanned every row anew (at 10,000 turns, 6 scans a
        search, 0.75 ms each)."""
        key, last = query.tobytes(), self._last
        if last is not None and last[0] == key and last[1] is self.ids:
            return last[2]
        sims = _similarities(self.vectors, query)
        self._last = (key, self.ids, sims)
        return sims

    def vectors_of(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rows = np.flatnonzero(np.isin(self.ids, ids))
        return self.ids[rows], self.vectors[rows]


class _Graph:
    """An HNSW graph of a large partition, in usearch's reduced precision (`_SCALAR`).

    A graph read from its file is memory-mapped, not loaded: its pages are the operating
    system's to share between processes and to drop, so a million vectors do not sit in
    each worker's own memory. A mapped graph cannot change, so vectors added after it was
    saved wait in `newer`, searched exactly beside it, until a builder writes a new file.
    """

    def __init__(self, index: Any, *, mapped: bool = False) -> None:
        self.index = index
        self.mapped = mapped
        self.newer = _Matrix()
        self._held_ids = np.zeros(0, dtype=np.int64)
        """The ids of the graph's vectors copied out by similarities_of, sorted."""
        self._held = np.zeros((0, int(index.ndim)), dtype=np.int8)
        """Their vectors as the graph holds them (int8), in the order of _held_ids."""
        self._rows_of: dict[bytes, np.ndarray] = {}
        """Lists of ids (as bytes) -> their rows of _held, the oldest first (see _rows_held)."""

    @classmethod
    def empty(cls, dim: int) -> "_Graph":
        return cls(
            _usearch_index()(
                ndim=dim,
                metric="cos",
                dtype=_SCALAR,
                connectivity=_CONNECTIVITY,
                expansion_add=_EXPANSION_ADD,
                expansion_search=_EXPANSION_SEARCH,
            )
        )

    @classmethod
    def read(cls, path: Path, dim: int, *, mapped: bool) -> "_Graph":
        """The graph in `path`, mapped or loaded into memory (to be added to)."""
        index = _usearch_index().restore(str(path), view=mapped)
        if index is None:
            raise ValueError(f"{path.name} is not a usearch graph")
        if index.ndim != dim:
            raise ValueError(f"{path.name} holds vectors of {index.ndim} dimensions")
        index.expansion_search = _EXPANSION_SEARCH
        index.expansion_add = _EXPANSION_ADD
        return cls(index, mapped=mapped)

    def __len__(self) -> int:
        return len(self.index) + len(self.newer)

    def add(self, ids: np.ndarray, vectors: np.ndarray, threads: int = 0) -> None:
        if self.mapped:
            self.newer.add(ids, vectors)
            return
        present = ids[np.asarray(self.index.contains(ids), dtype=bool)] if len(self) else ids[:0]
        if present.size:
            self.index.remove(present)
        self.index.add(ids, vectors, threads=threads)
        if self._held_ids.size:
            self._hold(ids)  # else the next search would copy every vector out again

    def nearest(self, query: np.ndarray, count: int, exact: bool) -> tuple[np.ndarray, np.ndarray]:
        found = self.index.search(query, min(count, len(self.index)), exact=exact)
        ids = np.asarray(found.keys, dtype=np.int64)
        sims = 1.0 - np.asarray(found.distances, dtype=np.float32)
        if not len(self.newer):
            return ids, sims
        # An item embedded again since the save has its new vector in `newer` only.
        kept = ~np.isin(ids, self.newer.ids)
        newer_ids, newer_sims = self.newer.nearest(query, count, exact)
        return _top(
            np.concatenate([ids[kept], newer_ids]),
            np.concatenate([sims[kept], newer_sims]),
            count,
        )

    def vectors_of(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        newer_ids, newer_vectors = self.newer.vectors_of(ids)
        ids = ids[~np.isin(ids, newer_ids)]
        ids = ids[np.asarray(self.index.contains(ids), dtype=bool)] if ids.size else ids
        vectors = np.asarray(self.index.get(ids, dtype=np.float32)) if ids.size else ids
        vectors = vectors.reshape(ids.size, self.index.ndim)
        if not newer_ids.size:
            return ids, vectors
        return np.concatenate([ids, newer_ids]), np.vstack([vectors, newer_vectors])

    def similarities_of(self, ids: np.ndarray, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Those of `ids` the graph holds, and their similarity to `query` by the graph's
        own vectors, for items searches read again and again (named people's). The
        vectors are copied out once, all of them while there are at most _HELD_MOST, and
        kept with the graph: usearch hands them over one array per key (32 ms for one
        person's 7,400 at 100,000 turns, against 4 ms from the copy, made in 0.3 s)."""
        if len(self.index) > _HELD_MOST:
            ids, vectors = self.vectors_of(ids)
            return ids, _similarities(vectors, query)
        if self._held_ids.size != len(self.index):
            keys = np.sort(np.asarray(self.index.keys, dtype=np.int64))
            self._held = np.vstack(self.index.get(keys, dtype=_SCALAR)).astype(np.int8)
            self._held_ids = keys
            self._rows_of.clear()
        # Most searches meet no vector newer than the file: no set operation over the ids.
        newer_ids, newer_vectors = self.newer.vectors_of(ids) if len(self.newer) else _NONE
        ids = ids[~np.isin(ids, newer_ids)] if newer_ids.size else ids
        rows = self._rows_held(ids)
        sims = _similarities(self._held[rows], query / _SCALAR_STEPS)
        if not newer_ids.size:
            return self._held_ids[rows], sims
        return (
            np.concatenate([self._held_ids[rows], newer_ids]),
            np.concatenate([sims, _similarities(newer_vectors, query)]),
        )

    def _rows_held(self, ids: np.ndarray) -> np.ndarray:
        """The rows of _held holding those of `ids` it holds. Kept for the last few lists
        of ids: a person's items come back question after question, and finding 7,400
        of them among 100,000 took a tenth of their list."""
        key = ids.tobytes()
        rows = self._rows_of.get(key)
        if rows is None:
            places = np.minimum(np.searchsorted(self._held_ids, ids), self._held_ids.size - 1)
            rows = places[self._held_ids[places] == ids] if self._held_ids.size else places[:0]
            if len(self._rows_of) >= _ROWS_KEPT:
                del self._rows_of[next(iter(self._rows_of))]
            self._rows_of[key] = rows
        return rows

    def _hold(self, ids: np.ndarray) -> None:
        """Bring the copy of similarities_of up to date with `ids`, just added (new, or
        embedded again); let it go once the graph outgrows _HELD_MOST."""
        self._rows_of.clear()
        if len(self.index) > _HELD_MOST:
            self._held_ids, self._held = self._held_ids[:0], self._held[:0]
            return
        kept = ~np.isin(self._held_ids, ids)
        added = np.vstack(self.index.get(ids, dtype=_SCALAR)).astype(np.int8)
        every = np.concatenate([self._held_ids[kept], ids])
        order = np.argsort(every, kind="stable")
        self._held_ids = every[order]
        self._held = np.vstack([self._held[kept], added])[order]


class _Unindexed:
    """A large partition whose first graph is being built: it is searched by full text
    alone until the graph is ready, rather than held as a matrix of a million vectors."""

    def __init__(self, size: int, dim: int) -> None:
        self.size = size
        self.dim = dim

    def __len__(self) -> int:
        return self.size

    def add(self, ids: np.ndarray, vectors: np.ndarray) -> None:
        self.size += ids.size

    def nearest(self, query: np.ndarray, count: int, exact: bool) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)

    def vectors_of(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return ids[:0], np.zeros((0, self.dim), dtype=np.float32)


@dataclass
class _Partition:
    tenant: str
    stream: str
    kind: str
    vectors: _Vectors
    through: int = 0
    """The last vector row held."""
    saved_through: int = 0
    """The last vector row in the partition's file; 0: no file."""
    erasures: int = 0
    """The stream's erasure count when loaded: another erasure means loading again."""
    caught_up_at: int | None = None
    """The store's `changes` number when the partition was last caught up."""
    builder: "subprocess.Popen[bytes] | None" = None
    """The child process this one started to write the partition's graph, while it runs."""
    next_look: float = 0.0
    """When (time.monotonic) to look again for a finished build."""


class VectorIndex:
    """Every partition a search touched, loaded on first use and kept caught up."""

    def __init__(
        self,
        store: Store,
        directory: Path | None,
        *,
        approximate_from: int = APPROXIMATE_FROM,
        changes: Callable[[], int] | None = None,
    ) -> None:
        """`changes`, where the store has one, gives a number that stays the same while the
        store is unchanged: a partition caught up at that number is not read again."""
        self._store = store
        self._changes = changes
        self.directory = directory
        self.approximate_from = approximate_from if _has_usearch() else None
        # A builder opens the same database file; a store without one holds graphs in memory.
        self._database: Path | None = getattr(store, "path", None)
        self._lock = threading.RLock()
        self._parts: dict[tuple[str, str, str], _Partition] = {}
        self._exact: dict[tuple[str, str, int], bytes] = {}
        """Exact vectors read for rescoring by (kind, tenant, id), kept while `changes`
        stays the same (see _exact_vectors)."""
        self._exact_at: int | None = None

    @property
    def builds_apart(self) -> bool:
        """Whether graphs are written to files by a child process (else held in memory)."""
        return self.directory is not None and self._database is not None and fcntl is not None

    def search(
        self,
        kind: str,
        where: ItemFilter,
        query: np.ndarray,
        limit: int,
        *,
        exact: bool = False,
        min_similarity: float = -math.inf,
        walk: np.ndarray | None = None,
        echoes_once: bool = False,
    ) -> list[tuple[int, float]]:
        """The `limit` items of `kind` that pass `where` and are most similar to `query`,
        with their cosine similarity, most similar first. Items less similar than
        `min_similarity` may be left out: neither filtered nor searched for. In a graph,
        the items of people the filter names (ItemFilter.about) are listed through the
        store's full-text index and scored exactly (see _named). Where the store cannot
        list them, `walk` (if given) finds the `limit` candidates, which `query` then
        orders by their exact vectors: a question without a name, over that person's
        items, has few of them among its own neighbours, and widening the walk to reach
        them cost 0.8 times a whole search more (needles at 50,000: search p50 21 -> 39
        ms; walking by the question with the name, 25 -> 27 ms, and the needle in the top
        10 0.705 -> 0.715)."""
        found: list[tuple[int, float]] = []
        for stream in self._streams(kind, where):
            part = self._partition(where.tenant, stream, kind)
            if not len(part.vectors) or _dim(part.vectors) != query.shape[0]:
                continue
            # Read deeper, to list the echoes of one line once (see one_per_echo); a
            # graph's named list reads that deep already.
            depth = echo_depth(limit, echoes_once)
            named = None
            if where.about and isinstance(part.vectors, _Graph) and not exact:
                named = self._named(part, where, query, limit, min_similarity)
            if named is not None:
                hits = named
            elif walk is not None and isinstance(part.vectors, _Graph) and not exact:
                walked = self._search_partition(part, where, walk, depth, exact, -math.inf)
                rescored = self._rescored(part.kind, where.tenant, walked, query)
                hits = [hit for hit in rescored if hit[1] >= min_similarity]
            else:
                hits = self._search_partition(part, where, query, depth, exact, min_similarity)
            found += self._echoes_once(part, hits, limit) if echoes_once else hits[:limit]
        return sorted(found, key=lambda hit: (-hit[1], hit[0]))[:limit]

    def _echoes_once(
        self, part: "_Partition", hits: list[tuple[int, float]], limit: int
    ) -> list[tuple[int, float]]:
        """`hits` (best first) with echoes of one line listed once (see one_per_echo),
        by their exact vectors where the partition keeps reduced ones."""
        ids = [i for i, _ in hits]
        if len(ids) < 2:
            return hits[:limit]
        if isinstance(part.vectors, _Graph):
            held, vectors = blobs_matrix(self._exact_vectors(part.kind, part.tenant, ids))
        else:
            held, vectors = part.vectors.vectors_of(np.asarray(ids, dtype=np.int64))
        place = {item: row for row, item in enumerate(held.tolist())}
        if len(place) < len(ids) or not all(i in place for i in ids):
            return hits[:limit]  # vectors replaced meanwhile: each listed as it is
        return one_per_echo(hits, vectors[[place[i] for i in ids]], limit)

    def refresh(self, tenant: str, stream: str) -> None:
        """Catch the stream's partitions up with the store, starting a graph build when one
        is due: the embedding job calls this, so that the files follow what it wrote."""
        if self._store.in_transaction:
            return
        for kind in ("turn", "fact", "summary", "record"):
            self._partition(tenant, stream, kind)

    def settle(self, timeout: float | None = None) -> None:
        """Wait for the graph builds this process started, and map the files they wrote: for
        benchmarks and tests that want every graph ready, never for a search."""
        deadline = None if timeout is None else time.monotonic() + timeout
        for child in list(_CHILDREN):
            child.wait(None if deadline is None else max(0.0, deadline - time.monotonic()))
        while True:
            with self._lock:
                running = [p for p in self._parts.values() if p.builder is not None]
            if not running:
                return
            for part in running:
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                if part.builder is not None:
                    part.builder.wait(left)
                part.next_look = 0.0
                self._partition(part.tenant, part.stream, part.kind)

    def forget(self) -> None:
        """Drop every partition and file: the stored vectors were dropped."""
        with self._lock:
            self._parts.clear()
            self._exact.clear()
            if self.directory is not None and self.directory.exists():
                for path in self.directory.glob("*.usearch*"):
                    path.unlink(missing_ok=True)

    def drop(self, tenant: str, streams: Sequence[str]) -> None:
        """Drop the streams' partitions and files, so that no erased vector stays in either;
        the next search builds them again from what the store kept. A build running
        meanwhile sees the erasure and discards what it wrote (see write_graph)."""
        with self._lock:
            self._exact.clear()  # an erased vector stays nowhere in memory
            for kind in ("turn", "fact", "summary", "record"):
                for stream in streams:
                    self._parts.pop((tenant, stream, kind), None)
                    if self.directory is not None:
                        for path in _files(self.directory, _name(tenant, stream, kind)):
                            path.unlink(missing_ok=True)

    # -- inside ---------------------------------------------------------------

    def _streams(self, kind: str, where: ItemFilter) -> list[str]:
        if where.streams is None:
            return self._store.streams(where.tenant)
        streams = list(where.streams)
        if kind == "record":
            # A record shown in several streams keeps its vector in its own stream's.
            streams += self._store.linked_record_streams(where.tenant, streams)
        return list(dict.fromkeys(streams))

    def _search_partition(
        self,
        part: _Partition,
        where: ItemFilter,
        query: np.ndarray,
        limit: int,
        exact: bool,
        min_similarity: float,
    ) -> list[tuple[int, float]]:
        if isinstance(part.vectors, _Unindexed):
            return []  # full text carries the search until the graph is ready
        size = len(part.vectors)
        graph = isinstance(part.vectors, _Graph) and not exact
        count = min(size, max((_RESCORED if graph else 2) * limit, 64))
        # A graph's int8 similarities are a little off: the floor gives them room.
        floor = min_similarity - (_SCALAR_SLACK if graph else 0.0)
        checked: set[int] = set()
        passed: set[int] = set()
        check = self._checker(part.kind, where)
        while True:
            ids, sims = part.vectors.nearest(query, count, exact)
            if not checked and (not graph or _most_pass(where)):
                close = sims >= floor
                near = ids[close]
                if graph:
                    best = self._best_passing(part, check, near, query, limit, checked, passed)
                else:  # in their exact order already
                    order = list(zip(near.tolist(), sims[close].tolist(), strict=True))
                    best = self._first_passing(check, order, limit, checked, passed)
                if best is not None:
                    return [hit for hit in best if hit[1] >= min_similarity]
            # Candidates under the floor would be dropped by the caller: checking them
            # against the filter, or searching wider for more of them, is wasted work.
            # A wider search finds the narrower one's again: only the new are checked.
            close = sims >= floor
            fresh = [i for i in ids[close].tolist() if i not in checked]
            passed |= check(fresh)
            checked.update(fresh)
            pairs = zip(ids.tolist(), sims.tolist(), strict=True)
            hits = [(i, s) for i, s in pairs if i in passed]
            # A graph asked for every item may not reach them all (its walk is
            # approximate): what it missed is scored below, not lost.
            whole = count >= size and len(ids) >= size
            if len(hits) >= limit or whole or not close.all():
                if graph:
                    hits = self._rescored(part.kind, where.tenant, hits, query)
                return [hit for hit in hits if hit[1] >= min_similarity][:limit]
            if count >= min(size, _WIDEST):
                break
            count = min(size, count * 4)
        # Few of the nearest pass: the filter is narrow, so what it allows is scored, a
        # slice at a time: it may still allow most of a million vectors. A graph's vectors
        # are int8, so its best few are rescored by their exact ones.
        reduced = isinstance(part.vectors, _Graph)
        keep = limit * _RESCORED if reduced else limit
        allowed = np.asarray(self._store.item_ids(part.kind, where), dtype=np.int64)
        best_ids, best_sims = allowed[:0], np.zeros(0, dtype=np.float32)
        for start in range(0, allowed.size, _SCORED_AT_ONCE):
            ids, vectors = part.vectors.vectors_of(allowed[start : start + _SCORED_AT_ONCE])
            best_ids, best_sims = _top(
                np.concatenate([best_ids, ids]),
                np.concatenate([best_sims, _similarities(vectors, query)]),
                keep,
            )
        hits = list(zip(best_ids.tolist(), best_sims.tolist(), strict=True))
        if reduced:
            hits = self._rescored(part.kind, where.tenant, hits, query)
        return [hit for hit in hits if hit[1] >= min_similarity][:limit]

    def _best_passing(
        self,
        part: _Partition,
        check: Callable[[list[int]], set[int]],
        ids: np.ndarray,
        query: np.ndarray,
        limit: int,
        checked: set[int],
        passed: set[int],
    ) -> list[tuple[int, float]] | None:
        """_first_passing over a graph's `ids` in the order of their exact similarity to
        `query`: what checking them all against the filter and then rescoring those that
        pass gives, where at least `limit` pass. Rescored first, they are checked best
        first, and where most pass the first window is all: at 100,000 turns a stream's
        list checked 285 neighbours a question for 95. None as _first_passing, or when an
        exact vector is missing."""
        wanted = ids.tolist()
        if not wanted:  # no neighbour came above the floor ("zebra"): nothing to rescore
            return []
        rows = self._exact_vectors(part.kind, part.tenant, wanted)
        if len(rows) < len(wanted):
            return None  # replaced meanwhile: the caller's way keeps the graph's order
        held, matrix = blobs_matrix(rows)
        ordered, sims = _top(held, _similarities(matrix, query), held.size)
        order = list(zip(ordered.tolist(), sims.tolist(), strict=True))
        return self._first_passing(check, order, limit, checked, passed)

    def _first_passing(
        self,
        check: Callable[[list[int]], set[int]],
        order: list[tuple[int, float]],
        limit: int,
        checked: set[int],
        passed: set[int],
    ) -> list[tuple[int, float]] | None:
        """The first `limit` hits of `order` that pass `check`, checked a window at a
        time: the same hits as checking all of them first. None when fewer than `limit`
        pass (the caller searches wider), with the ids checked added to `checked` and
        those passing to `passed`. A named person's summaries (most of a busy stream's
        name everyone) checked twice the ids they needed, each a read of a 4 KB text."""
        found: list[tuple[int, float]] = []
        start, window = 0, limit + limit // 4
        while start < len(order) and len(found) < limit:
            part = order[start : start + window]
            part_ids = [i for i, _ in part]
            passed |= check(part_ids)
            checked.update(part_ids)
            found += [hit for hit in part if hit[0] in passed]
            start += window
            window = next_window(window, limit - len(found), len(found), start)
        return found[:limit] if len(found) >= limit else None

    def _checker(self, kind: str, where: ItemFilter) -> Callable[[list[int]], set[int]]:
        """What tells which ids pass `where`. The people it names (ItemFilter.about) are
        found as words through the store's full-text index where it lists all their items,
        and only the rest of the filter is asked of the store: it reads each item's whole
        text for a name, and a long summary's is on overflow pages (at 100,000 turns a
        search checked 330 summaries for a name: 4.6 ms)."""
        named = None
        if where.about:
            named = self._store.named_candidates(kind, where, NAMED_MOST)
        if named is None or len(named) >= NAMED_MOST:  # none, or the newest only
            return lambda ids: self._store.passing(kind, where, ids)
        listed = set(named)
        rest = where.model_copy(update={"about": ()})
        return lambda ids: self._store.passing(kind, rest, [i for i in ids if i in listed])

    def _named(
        self, part: _Partition, where: ItemFilter, query: np.ndarray, limit: int, floor: float
    ) -> list[tuple[int, float]] | None:
        """The items of the people `where` names (ItemFilter.about) most similar to `query`,
        found through the store's full-text index and scored exactly, the newest
        NAMED_MOST of them; None where the store cannot list them. A walk of the graph
        finds the neighbours of one vector: by the question with the name it reached
        a person's items that echo the whole question, and missed the one that answers it
        in other words (needles at 50,000 turns: 6 of the 11 lost from a 2,000-token
        context ranked 18-79 among the person's items by the question without the name)."""
        named = self._store.named_candidates(part.kind, where, NAMED_MOST)
        if named is None:
            return None
        assert isinstance(part.vectors, _Graph)
        every_id, every_sim = part.vectors.similarities_of(np.asarray(named, dtype=np.int64), query)
        # int8 similarities are a little off: the floor gives them room, and three times
        # the items asked for are rescored by their exact vectors.
        close = int(np.count_nonzero(every_sim >= floor - _SCALAR_SLACK))
        keep = limit * _RESCORED
        hits: list[tuple[int, float]] = []
        # The listing found the names as words, which is what `about` asks: its test of
        # each item's whole text is left out (a long summary's text is on overflow pages;
        # at 100,000 turns a person's 330 summaries took 4.6 ms to check).
        rest = where.model_copy(update={"about": ()})
        # Nearly all pass (the filter's names are theirs): a first window of what is kept.
        start, window = 0, keep
        # Only the first window is put in order at first: most searches need no more.
        ids, sims = _top(every_id, every_sim, min(close, window))
        while start < close and len(hits) < keep:
            if ids.size < min(close, start + window):
                ids, sims = _top(every_id, every_sim, close)
            # Checked against the rest of the filter best first, a window at a time.
            part_ids = ids[start : min(close, start + window)].tolist()
            passed = self._store.passing(part.kind, rest, part_ids)
            part_sims = sims[start : start + len(part_ids)].tolist()
            hits += [(i, s) for i, s in zip(part_ids, part_sims, strict=True) if i in passed]
            start += len(part_ids)
            window = next_window(window, keep - len(hits), len(hits), start)
        hits = self._rescored(part.kind, part.tenant, hits[:keep], query)
        return [hit for hit in hits if hit[1] >= floor]

    def _rescored(
        self, kind: str, tenant: str, hits: list[tuple[int, float]], query: np.ndarray
    ) -> list[tuple[int, float]]:
        """The graph's candidates in the order of their exact similarity: the graph holds
        reduced-precision vectors and finds neighbours approximately, so its own order is
        rough near the cut."""
        if not hits:
            return hits
        rows = self._exact_vectors(kind, tenant, [i for i, _ in hits])
        if len(rows) < len(hits):
            return hits  # vectors replaced meanwhile: the graph's order will do
        ids, matrix = blobs_matrix(rows)
        ordered_ids, sims = _top(ids, _similarities(matrix, query), ids.size)
        return list(zip(ordered_ids.tolist(), sims.tolist(), strict=True))

    def _exact_vectors(self, kind: str, tenant: str, ids: list[int]) -> list[tuple[int, bytes]]:
        """The stored vectors of `ids`, as the store's item_vectors gives them. Kept while the
        store is unchanged: question after question rescores mostly the same neighbours,
        and reading their vectors again was a sixth of a search at 100,000 turns."""
        if self._changes is None:
            return self._store.item_vectors(kind, tenant, ids)
        now = self._changes()
        with self._lock:
            if self._exact_at != now:
                self._exact.clear()
                self._exact_at = now
            kept = {i: blob for i in ids if (blob := self._exact.get((kind, tenant, i)))}
        unread = [i for i in ids if i not in kept]
        if unread:
            read = self._store.item_vectors(kind, tenant, unread)
            kept.update(read)
            with self._lock:
                if self._exact_at == now:
                    if len(self._exact) + len(read) > _EXACT_KEPT:
                        self._exact.clear()
                    self._exact.update(((kind, tenant, i), blob) for i, blob in read)
        return [(i, kept[i]) for i in ids if i in kept]

    def _partition(self, tenant: str, stream: str, kind: str) -> _Partition:
        with self._lock:
            changes = self._changes() if self._changes is not None else None
            part = self._parts.get((tenant, stream, kind))
            if part is not None and changes is not None and part.caught_up_at == changes:
                # Nothing was written since it was caught up: no erasure, no new vector.
                if not self._store.in_transaction:
                    self._follow_build(part)
                return part
            erasures = self._store.stream_state(tenant, stream).erasures
            if part is None or part.erasures != erasures:
                part = self._load(tenant, stream, kind)
                part.erasures = erasures
                self._parts[(tenant, stream, kind)] = part
            if not self._store.in_transaction:
                # Rows of an open transaction may yet be rolled back, and their ids reused.
                self._catch_up(part)
                self._follow_build(part)
                part.caught_up_at = changes
            return part

    def _load(self, tenant: str, stream: str, kind: str) -> _Partition:
        part = _Partition(tenant, stream, kind, _Matrix())
        self._map_newest(part)
        return part

    def _map_newest(self, part: _Partition) -> None:
        """Point the partition at its newest file, if it has a readable one; the rows after
        it are caught up by the caller."""
        if self.directory is None or self.approximate_from is None:
            return
        files = _files(self.directory, _name(part.tenant, part.stream, part.kind))
        if not files:
            return
        newest = files[-1]
        try:
            dim = self._store_dim(part.tenant, part.stream, part.kind)
            part.vectors = _Graph.read(newest, dim, mapped=True)
            part.through = part.saved_through = _through(newest)
        except Exception as exc:  # a damaged file is built again, never trusted
            log.warning("vector index %s unreadable, building it again: %s", newest.name, exc)
            newest.unlink(missing_ok=True)

    def _store_dim(self, tenant: str, stream: str, kind: str) -> int:
        first = self._store.vectors(kind, tenant, [stream], after_id=0, limit=1)
        if not first:
            raise ValueError("the store holds no vectors for it")
        return len(first[0][3]) // 4

    def _catch_up(self, part: _Partition) -> None:
        while not isinstance(part.vectors, _Unindexed) and (
            rows := self._store.vectors(
                part.kind, part.tenant, [part.stream], after_id=part.through, limit=_READ_AT_ONCE
            )
        ):
            ids, matrix = _rows_matrix(rows)
            part.vectors.add(ids, matrix)
            part.through = rows[-1][0]
            if isinstance(part.vectors, _Matrix) and self._wants_graph(part):
                part.vectors = self._graph_meanwhile(part)

    def _graph_meanwhile(self, part: _Partition) -> _Vectors:
        """What a partition that has outgrown its matrix holds until its graph file exists."""
        matrix = part.vectors
        assert isinstance(matrix, _Matrix)
        if not self.builds_apart:
            # The rest goes straight into the graph: a million float32 vectors held as a
            # matrix first would outgrow the graph itself several times.
            graph = _Graph.empty(matrix.vectors.shape[1])
            graph.add(matrix.ids, matrix.vectors)
            return graph
        if len(matrix) <= EXACT_UNTIL:
            return matrix
        log.warning(
            "the vector index of %s (%ss) is being built apart; until it is ready, these are "
            "searched by full text alone",
            part.stream,
            part.kind,
        )
        return _Unindexed(len(matrix), matrix.vectors.shape[1])

    def _wants_graph(self, part: _Partition) -> bool:
        return self.approximate_from is not None and len(part.vectors) >= self.approximate_from

    def _wants_build(self, part: _Partition) -> bool:
        if not self.builds_apart:
            return False
        if isinstance(part.vectors, _Graph):
            return len(part.vectors.newer) >= max(1.0, MERGE_FROM * len(part.vectors.index))
        return self._wants_graph(part)

    def _follow_build(self, part: _Partition) -> None:
        """Map a file that a build finished, or start a build when one is due and none
        runs: looked at once a second at most, so that a search pays a stat, no more."""
        ended = part.builder is not None and part.builder.poll() is not None
        if ended:
            assert part.builder is not None
            if part.builder.returncode:
                log.warning(
                    "building the vector index of %s failed (exit %s)",
                    part.stream,
                    part.builder.returncode,
                )
            part.builder = None
        now = time.monotonic()
        if now < part.next_look or not self._wants_build(part):
            return
        part.next_look = now + LOOK_EVERY
        assert self.directory is not None
        files = _files(self.directory, _name(part.tenant, part.stream, part.kind))
        if files and _through(files[-1]) > part.saved_through:
            self._map_newest(part)  # written here or by another process
            self._catch_up(part)
            ended = False
            if not self._wants_build(part):
                return
        if ended:
            part.next_look = now + RETRY_AFTER  # it wrote no file: not again at once
        elif part.builder is None:
            part.builder = self._start_builder(part)

    def _start_builder(self, part: _Partition) -> "subprocess.Popen[bytes] | None":
        """A child process that writes the partition's graph, holding its lock file; None
        when another process holds it (that one is building the same graph)."""
        assert self.directory is not None and fcntl is not None
        self.directory.mkdir(parents=True, exist_ok=True)
        name = _name(part.tenant, part.stream, part.kind)
        with open(self.directory / f"{name}.lock", "ab") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return None
            log.info("building the vector index of %s (%s) apart", part.stream, part.kind)
            # The child inherits the locked file and holds the lock until it exits, even if
            # this process closes or dies first.
            child = subprocess.Popen(
                [sys.executable, "-m", "threefold.store.graph_builder", str(self._database)]
                + [part.tenant, part.stream, part.kind],
                pass_fds=(lock.fileno(),),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
            )
        _CHILDREN[:] = [c for c in _CHILDREN if c.poll() is None] + [child]
        return child


_CHILDREN: list["subprocess.Popen[bytes]"] = []
"""Every builder this process started, so that none is let go while it runs (Python warns)
and each is waited for."""


def write_graph(
    store: Store, directory: Path, tenant: str, stream: str, kind: str, threads: int = 0
) -> Path | None:
    """Write the partition's graph file: its newest file loaded into memory (not mapped: a
    copy of a mapping would touch every page of the file too) with the rows written since
    added, or without a readable file every row. Returns the file, or None when there was
    nothing new or an erasure came meanwhile. The caller holds the partition's lock."""
    name = _name(tenant, stream, kind)
    for stale in directory.glob(f"{name}-*.tmp"):
        stale.unlink()  # left by a builder that died: only the lock's holder writes these
    before = _fingerprint(store, tenant, stream, kind)
    if before is None:
        return None
    files = _files(directory, name)
    graph, through = _base_graph(files, before[2]), 0
    if graph is None:
        graph = _Graph.empty(before[2])
    else:
        through = _through(files[-1])
    started = through
    while rows := store.vectors(kind, tenant, [stream], after_id=through, limit=_READ_AT_ONCE):
        ids, matrix = _rows_matrix(rows)
        graph.add(ids, matrix, threads=threads)
        through = rows[-1][0]
    if through == started:
        return None
    final = directory / f"{name}-{through}.usearch"
    temporary = final.with_name(f"{final.name}.{os.getpid()}.tmp")
    graph.index.save(str(temporary))
    os.replace(temporary, final)
    if _fingerprint(store, tenant, stream, kind) != before:
        # Erased or re-embedded meanwhile: the file may hold vectors the store no longer has.
        final.unlink(missing_ok=True)
        return None
    for path in files:
        path.unlink(missing_ok=True)
    return final


def _base_graph(files: list[Path], dim: int) -> _Graph | None:
    if not files:
        return None
    try:
        return _Graph.read(files[-1], dim, mapped=False)
    except Exception as exc:  # damaged: every row is added to a new graph instead
        log.warning("vector index %s unreadable, building it again: %s", files[-1].name, exc)
        return None


def _fingerprint(store: Store, tenant: str, stream: str, kind: str) -> tuple[int, str, int] | None:
    """What changes when a stream's vectors are erased or replaced by another model's."""
    first = store.vectors(kind, tenant, [stream], after_id=0, limit=1)
    if not first:
        return None
    _, _, model, blob = first[0]
    return store.stream_state(tenant, stream).erasures, model, len(blob) // 4


def _rows_matrix(rows: list[tuple[int, int, str, bytes]]) -> tuple[np.ndarray, np.ndarray]:
    ids = np.asarray([item for _, item, _, _ in rows], dtype=np.int64)
    matrix = np.stack([np.frombuffer(blob, dtype=np.float32) for *_, blob in rows])
    return ids, matrix


def blobs_matrix(rows: list[tuple[int, bytes]]) -> tuple[np.ndarray, np.ndarray]:
    """The ids of item_vectors' rows, and their vectors as the rows of one matrix."""
    ids = np.asarray([i for i, _ in rows], dtype=np.int64)
    matrix = np.frombuffer(b"".join(blob for _, blob in rows), dtype=np.float32)
    return ids, matrix.reshape(ids.size, -1)


def echo_depth(depth: int, echoes_once: bool) -> int:
    """How many nearest items a list of `depth` reads: ECHO_DEPTH times as many where it
    lists the echoes of one line once (see one_per_echo), for them to fill it."""
    return depth * ECHO_DEPTH if echoes_once else depth


def one_per_echo_of_blobs(
    hits: list[tuple[int, float]], blobs: Mapping[int, bytes], limit: int
) -> list[tuple[int, float]]:
    """one_per_echo over the hits' stored vectors (`blobs`: item id -> its float32
    bytes); where one is missing (erased or replaced meanwhile) each hit is listed as it
    is, up to `limit`."""
    if len(hits) < 2 or not all(i in blobs for i, _ in hits):
        return hits[:limit]
    _, matrix = blobs_matrix([(i, blobs[i]) for i, _ in hits])
    return one_per_echo(hits, matrix, limit)


def one_per_echo(
    hits: list[tuple[int, float]], vectors: np.ndarray, limit: int
) -> list[tuple[int, float]]:
    """Up to `limit` of `hits` (item ids, best first, with their similarity; `vectors` their
    vectors, row for row), with the echoes of one another listed once: items whose
    vectors are at least ECHO alike (one line said again with another ending, "...,
    apparently", "... in the group chat") are one entry, at the place of the best of them
    and shown as the last stored (the highest id), so that a newer value of the same thing
    is the one listed. For a named person's list, read ECHO_DEPTH times deeper than asked:
    without this its echoes of the question's topic filled it, above the one line that
    answers in other words (needles at 100,000 turns, development seed: the needle ranked
    66-406 among its person's items, 49-240 counting echoes once)."""
    norms = np.linalg.norm(vectors, axis=1)
    units = vectors / np.where(norms > 0, norms, 1.0)[:, None]
    ids = [item for item, _ in hits]
    unlisted = np.ones(len(hits), dtype=bool)
    listed: list[tuple[int, float]] = []
    for best, (item, similarity) in enumerate(hits):
        if len(listed) == limit:
            break
        if not unlisted[best]:
            continue
        # A row is echoed by the listed rows before it: only those after it are compared,
        # a product per listed row on this thread. One product of every pair through BLAS
        # took less time on the clock, but its threads then spin on the other core: at
        # 100,000 turns a search used twice its own time in CPU (needles, 2 cores).
        after = _similarities(units[best + 1 :], units[best]) >= ECHO
        echoes = np.flatnonzero(after & unlisted[best + 1 :])
        if not echoes.size:  # most lines echo none of those after them
            listed.append((item, similarity))
            continue
        echoes += best + 1
        unlisted[echoes] = False
        newest = max([item, *(ids[i] for i in echoes.tolist())])
        listed.append((newest, similarity))
    return listed


def _most_pass(where: ItemFilter) -> bool:
    """Whether most of a stream's items may pass `where`: it names no one and no time."""
    return not where.about and not where.people and where.since is None and where.until is None


def _similarities(vectors: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Each row's dot product with `query`, on this thread: BLAS would spread a product
    this small over every core, and its threads spin while other processes want them."""
    return np.einsum("ij,j->i", vectors, query)


def _top(ids: np.ndarray, sims: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """The `count` most similar, best first, and equals by id, as every store orders them:
    items with the same text have the same vector, and which of them makes the cut must
    not depend on how a partition happened to fall."""
    if count <= 0:
        return ids[:0], sims[:0]
    if sims.size > count:
        cut = np.partition(sims, sims.size - count)[sims.size - count]
        close = sims >= cut  # more than `count` where equals straddle the cut
        ids, sims = ids[close], sims[close]
    order = np.lexsort((ids, -sims))[:count]
    return ids[order], sims[order]


def _dim(vectors: _Vectors) -> int:
    if isinstance(vectors, _Matrix):
        return int(vectors.vectors.shape[1])
    if isinstance(vectors, _Unindexed):
        return vectors.dim
    assert isinstance(vectors, _Graph)
    return int(vectors.index.ndim)


def _name(tenant: str, stream: str, kind: str) -> str:
    """A file name for a partition: stream names may hold any character."""
    return hashlib.sha256(f"{tenant}\0{stream}\0{kind}".encode()).hexdigest()[:24]


def _files(directory: Path, name: str) -> list[Path]:
    """A partition's saved graphs, oldest first."""
    if not directory.exists():
        return []
    return sorted(directory.glob(f"{name}-*.usearch"), key=_through)


def _through(path: Path) -> int:
    return int(path.stem.rsplit("-", 1)[1])


def _has_usearch() -> bool:
    """Whether usearch is installed, without loading it: see _usearch_index."""
    return importlib.util.find_spec("usearch") is not None


def _usearch_index() -> Any:
    """usearch's Index class. onnxruntime is loaded first when installed: loading it after
    usearch crashes the process (their native libraries clash), and MiniLM loads it late."""
    with contextlib.suppress(ImportError):
        import onnxruntime  # noqa: F401
    from usearch.index import Index

    return Index
