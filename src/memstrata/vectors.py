"""Nearest-neighbour search over stored vectors, one partition per (tenant, stream, kind).

A small partition is scanned exactly, from a matrix in memory. One that grows past
`APPROXIMATE_FROM` vectors gets an HNSW graph (usearch), saved beside the database as
`<db>.vectors/<partition>-<through>.usearch`, where `through` is the last vector row the
graph holds. SQLite stays the truth and the file is a cache of it: at first use a
partition loads its newest file and catches up on the rows written after `through`; a
missing or unreadable file is rebuilt from the store, with a log line. A file is written
whole under a temporary name and then renamed, so a crash leaves the old file or the new
one, never half of one. Without usearch installed every partition is scanned exactly.

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
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from memstrata.store.base import ItemFilter, Store

log = logging.getLogger("memstrata.vectors")

APPROXIMATE_FROM = 50_000
"""Below this many vectors an exact scan takes a few milliseconds and needs no file."""
SAVE_EVERY = 0.05
"""A graph is saved again once this share of it is newer than its file: a restart then
catches up on at most that many rows."""
_WIDEST = 4096
"""The most nearest neighbours read while looking for enough that pass a filter."""
_RESCORED = 3
"""A graph search reads this many times the candidates asked for, and ranks them by their
exact float32 vectors."""
_SCORED_AT_ONCE = 20_000
"""Vectors read at once when a narrow filter's items are scored exactly: 20 MB at 256
dimensions, however many the filter allows."""
_FLOAT16_SLACK = 0.01
"""How far under a similarity floor a graph's candidate may be and still be rescored:
float16 vectors put a cosine off by about 0.001."""
_CONNECTIVITY = 16
_EXPANSION_ADD = 128
_EXPANSION_SEARCH = 256
"""usearch's graph degree and beam widths, set for recall@50 of 0.98 or better."""


class _Vectors(Protocol):
    """What a partition holds: vectors by item id, searchable by cosine similarity."""

    def __len__(self) -> int: ...
    def add(self, ids: np.ndarray, vectors: np.ndarray) -> None: ...
    def nearest(
        self, query: np.ndarray, count: int, exact: bool
    ) -> tuple[np.ndarray, np.ndarray]: ...
    def vectors_of(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...


class _Matrix:
    """Every vector of a small partition, scanned in full by each search."""

    def __init__(self) -> None:
        self.ids = np.zeros(0, dtype=np.int64)
        self.vectors = np.zeros((0, 0), dtype=np.float32)

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
        return _top(self.ids, _similarities(self.vectors, query), count)

    def vectors_of(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rows = np.flatnonzero(np.isin(self.ids, ids))
        return self.ids[rows], self.vectors[rows]


class _Graph:
    """An HNSW graph of a large partition; usearch stores the vectors as float16.

    A graph read from its file is memory-mapped, not loaded: its pages are the operating
    system's to share between processes and to drop, so a million vectors do not sit in
    each worker's own memory. A mapped graph cannot change, so vectors added after it was
    saved wait in `newer`, searched exactly beside it, until the next save merges them.
    """

    def __init__(self, dim: int) -> None:
        self.index = _usearch_index()(
            ndim=dim,
            metric="cos",
            dtype="f16",
            connectivity=_CONNECTIVITY,
            expansion_add=_EXPANSION_ADD,
            expansion_search=_EXPANSION_SEARCH,
        )
        self.mapped: Path | None = None
        """The file this graph is a view of; None while it is held in memory."""
        self.newer = _Matrix()

    @classmethod
    def load(cls, path: Path, dim: int) -> "_Graph":
        graph = cls(dim)
        graph.index.view(str(path))
        if graph.index.ndim != dim:
            raise ValueError(f"{path.name} holds vectors of {graph.index.ndim} dimensions")
        graph.mapped = path
        return graph

    def __len__(self) -> int:
        return len(self.index) + len(self.newer)

    def add(self, ids: np.ndarray, vectors: np.ndarray) -> None:
        if self.mapped is not None:
            self.newer.add(ids, vectors)
            return
        present = ids[np.asarray(self.index.contains(ids), dtype=bool)] if len(self) else ids[:0]
        if present.size:
            self.index.remove(present)
        self.index.add(ids, vectors)

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
        vectors = np.asarray(self.index.get(ids), dtype=np.float32) if ids.size else ids
        vectors = vectors.reshape(ids.size, self.index.ndim)
        if not newer_ids.size:
            return ids, vectors
        return np.concatenate([ids, newer_ids]), np.vstack([vectors, newer_vectors])

    def save(self, path: Path) -> None:
        """Write the graph with every vector added since, to `path`. A mapped graph is
        copied into memory for this (the only time it is), and the copy let go."""
        index = self.index
        if self.mapped is not None:
            # Copied from the mapping, not read from its path: another process may have
            # replaced that file since.
            index = index.copy()
            if len(self.newer):
                ids = self.newer.ids
                present = ids[np.asarray(index.contains(ids), dtype=bool)]
                if present.size:
                    index.remove(present)
                index.add(ids, self.newer.vectors)
        index.save(str(path))


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


class VectorIndex:
    """Every partition a search touched, loaded on first use and kept caught up."""

    def __init__(
        self, store: Store, directory: Path | None, *, approximate_from: int = APPROXIMATE_FROM
    ) -> None:
        self._store = store
        self.directory = directory
        self.approximate_from = approximate_from if _has_usearch() else None
        self._lock = threading.RLock()
        self._parts: dict[tuple[str, str, str], _Partition] = {}

    def search(
        self,
        kind: str,
        where: ItemFilter,
        query: np.ndarray,
        limit: int,
        *,
        exact: bool = False,
        min_similarity: float = -math.inf,
    ) -> list[tuple[int, float]]:
        """The `limit` items of `kind` that pass `where` and are most similar to `query`,
        with their cosine similarity, most similar first. Items less similar than
        `min_similarity` may be left out: neither filtered nor searched for."""
        found: list[tuple[int, float]] = []
        for stream in self._streams(kind, where):
            part = self._partition(where.tenant, stream, kind)
            if len(part.vectors) and _dim(part.vectors) == query.shape[0]:
                found += self._search_partition(part, where, query, limit, exact, min_similarity)
        return sorted(found, key=lambda hit: -hit[1])[:limit]

    def refresh(self, tenant: str, stream: str) -> None:
        """Catch the stream's partitions up with the store, saving graphs when due: the
        embedding job calls this, so that the files follow what it wrote."""
        if self._store.in_transaction:
            return
        for kind in ("turn", "fact", "summary", "record"):
            self._partition(tenant, stream, kind)

    def forget(self) -> None:
        """Drop every partition and file: the stored vectors were dropped."""
        with self._lock:
            self._parts.clear()
            if self.directory is not None and self.directory.exists():
                for path in self.directory.glob("*.usearch*"):
                    path.unlink(missing_ok=True)

    def drop(self, tenant: str, streams: Sequence[str]) -> None:
        """Drop the streams' partitions and files, so that no erased vector stays in either;
        the next search builds them again from what the store kept."""
        with self._lock:
            for kind in ("turn", "fact", "summary", "record"):
                for stream in streams:
                    self._parts.pop((tenant, stream, kind), None)
                    for path in self._files(tenant, stream, kind):
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
        size = len(part.vectors)
        graph = isinstance(part.vectors, _Graph) and not exact
        count = min(size, max((_RESCORED if graph else 2) * limit, 64))
        # A graph's float16 similarities are a little off: the floor gives them room.
        floor = min_similarity - (_FLOAT16_SLACK if graph else 0.0)
        while True:
            ids, sims = part.vectors.nearest(query, count, exact)
            # Candidates under the floor would be dropped by the caller: checking them
            # against the filter, or searching wider for more of them, is wasted work.
            close = sims >= floor
            passed = self._store.passing(part.kind, where, ids[close].tolist())
            hits = [(int(i), float(s)) for i, s in zip(ids, sims, strict=True) if int(i) in passed]
            if len(hits) >= limit or count >= size or not close.all():
                if graph:
                    hits = self._rescored(part.kind, where.tenant, hits, query)
                return hits[:limit]
            if count >= _WIDEST:
                break
            count = min(size, count * 4)
        # Few of the nearest pass: the filter is narrow, so what it allows is scored, a
        # slice at a time: it may still allow most of a million vectors.
        allowed = np.asarray(self._store.item_ids(part.kind, where), dtype=np.int64)
        best_ids, best_sims = allowed[:0], np.zeros(0, dtype=np.float32)
        for start in range(0, allowed.size, _SCORED_AT_ONCE):
            ids, vectors = part.vectors.vectors_of(allowed[start : start + _SCORED_AT_ONCE])
            best_ids, best_sims = _top(
                np.concatenate([best_ids, ids]),
                np.concatenate([best_sims, _similarities(vectors, query)]),
                limit,
            )
        return list(zip(best_ids.tolist(), best_sims.tolist(), strict=True))

    def _rescored(
        self, kind: str, tenant: str, hits: list[tuple[int, float]], query: np.ndarray
    ) -> list[tuple[int, float]]:
        """The graph's candidates in the order of their exact similarity: the graph holds
        float16 vectors and finds neighbours approximately, so its own order is rough near
        the cut."""
        if not hits:
            return hits
        rows = self._store.item_vectors(kind, tenant, [i for i, _ in hits])
        if len(rows) < len(hits):
            return hits  # vectors replaced meanwhile: the graph's order will do
        ids = np.asarray([i for i, _ in rows], dtype=np.int64)
        matrix = np.frombuffer(b"".join(blob for _, blob in rows), dtype=np.float32)
        ordered_ids, sims = _top(ids, _similarities(matrix.reshape(ids.size, -1), query), ids.size)
        return list(zip(ordered_ids.tolist(), sims.tolist(), strict=True))

    def _partition(self, tenant: str, stream: str, kind: str) -> _Partition:
        with self._lock:
            erasures = self._store.stream_state(tenant, stream).erasures
            part = self._parts.get((tenant, stream, kind))
            if part is None or part.erasures != erasures:
                part = self._load(tenant, stream, kind)
                part.erasures = erasures
                self._parts[(tenant, stream, kind)] = part
            if not self._store.in_transaction:
                # Rows of an open transaction may yet be rolled back, and their ids reused.
                self._catch_up(part)
            return part

    def _load(self, tenant: str, stream: str, kind: str) -> _Partition:
        files = self._files(tenant, stream, kind)
        part = _Partition(tenant, stream, kind, _Matrix())
        if files and self.approximate_from is not None:
            newest = files[-1]
            try:
                part.vectors = _Graph.load(newest, self._store_dim(tenant, stream, kind))
                part.through = part.saved_through = _through(newest)
            except Exception as exc:  # a damaged file is rebuilt, never trusted
                log.warning("vector index %s unreadable, rebuilding it: %s", newest.name, exc)
                part.vectors = _Matrix()
        elif files:
            log.info("usearch is not installed; %s is scanned exactly", stream)
        return part

    def _store_dim(self, tenant: str, stream: str, kind: str) -> int:
        first = self._store.vectors(kind, tenant, [stream], after_id=0, limit=1)
        if not first:
            raise ValueError("the store holds no vectors for it")
        return len(first[0][3]) // 4

    def _catch_up(self, part: _Partition) -> None:
        while rows := self._store.vectors(
            part.kind, part.tenant, [part.stream], after_id=part.through, limit=50_000
        ):
            ids = np.asarray([item for _, item, _, _ in rows], dtype=np.int64)
            matrix = np.stack([np.frombuffer(blob, dtype=np.float32) for *_, blob in rows])
            part.vectors.add(ids, matrix)
            part.through = rows[-1][0]
            if isinstance(part.vectors, _Matrix) and self._wants_graph(part):
                # The rest goes straight into the graph: a million float32 vectors held as
                # a matrix first would outgrow the graph itself several times.
                part.vectors = self._graph_of(part.vectors)
        if isinstance(part.vectors, _Graph) and self._save_due(part):
            self._save(part)

    def _wants_graph(self, part: _Partition) -> bool:
        return self.approximate_from is not None and len(part.vectors) >= self.approximate_from

    def _graph_of(self, matrix: _Matrix) -> _Graph:
        graph = _Graph(matrix.vectors.shape[1])
        graph.add(matrix.ids, matrix.vectors)
        return graph

    def _save_due(self, part: _Partition) -> bool:
        unsaved = part.through - part.saved_through
        return unsaved > 0 and (not part.saved_through or unsaved >= SAVE_EVERY * len(part.vectors))

    def _save(self, part: _Partition) -> None:
        if self.directory is None or not isinstance(part.vectors, _Graph):
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        old = self._files(part.tenant, part.stream, part.kind)
        name = _name(part.tenant, part.stream, part.kind)
        final = self.directory / f"{name}-{part.through}.usearch"
        # Named per process: two processes may save the same partition at once.
        temporary = final.with_name(f"{final.name}.{os.getpid()}.tmp")
        part.vectors.save(temporary)
        os.replace(temporary, final)
        # Mapped from its file from now on: the copy in memory is let go.
        part.vectors = _Graph.load(final, _dim(part.vectors))
        part.saved_through = part.through
        for path in old:
            if path != final:
                path.unlink(missing_ok=True)

    def _files(self, tenant: str, stream: str, kind: str) -> list[Path]:
        """The partition's saved graphs, oldest first."""
        if self.directory is None or not self.directory.exists():
            return []
        found = self.directory.glob(f"{_name(tenant, stream, kind)}-*.usearch")
        return sorted(found, key=_through)


def _similarities(vectors: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Each row's dot product with `query`, on this thread: BLAS would spread a product
    this small over every core, and its threads spin while other processes want them."""
    return np.einsum("ij,j->i", vectors, query)


def _top(ids: np.ndarray, sims: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    if sims.size > count:
        best = np.argpartition(-sims, count - 1)[:count]
        ids, sims = ids[best], sims[best]
    order = np.argsort(-sims, kind="stable")
    return ids[order], sims[order]


def _dim(vectors: _Vectors) -> int:
    if isinstance(vectors, _Matrix):
        return int(vectors.vectors.shape[1])
    assert isinstance(vectors, _Graph)
    return int(vectors.index.ndim)


def _name(tenant: str, stream: str, kind: str) -> str:
    """A file name for a partition: stream names may hold any character."""
    return hashlib.sha256(f"{tenant}\0{stream}\0{kind}".encode()).hexdigest()[:24]


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
