"""Vector search done by the database: pgvector's HNSW index, filtered in the same query.

Nothing is kept in the process, so every process sees every vector the moment it is
committed, and none holds a copy of the index in its memory.
"""

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from threefold.store.base import ItemFilter
from threefold.store.vectors import echo_depth, one_per_echo_of_blobs

if TYPE_CHECKING:
    from threefold.store.postgres.store import PostgresStore


class DatabaseVectors:
    def __init__(self, store: "PostgresStore") -> None:
        self._store = store

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
        with their cosine similarity, most similar first, none under `min_similarity`;
        `exact` scans instead of using the approximate index. `walk` is not needed:
        pgvector's filtered search orders the filter's items by `query` itself."""
        vector = np.asarray(query, dtype=np.float32)
        # Read deeper, to list the echoes of one line once (see one_per_echo).
        depth = echo_depth(limit, echoes_once)
        found = self._store.nearest(kind, where, vector.tobytes(), vector.shape[0], depth, exact)
        hits = [(item, similarity) for item, similarity in found if similarity >= min_similarity]
        return self._echoes_once(kind, where.tenant, hits, limit) if echoes_once else hits

    def _echoes_once(
        self, kind: str, tenant: str, hits: list[tuple[int, float]], limit: int
    ) -> list[tuple[int, float]]:
        """`hits` with echoes of one line listed once (see one_per_echo), as the embedded
        store lists them; one more round trip reads their vectors."""
        if len(hits) < 2:
            return hits[:limit]
        rows = dict(self._store.item_vectors(kind, tenant, [i for i, _ in hits]))
        return one_per_echo_of_blobs(hits, rows, limit)

    def refresh(self, tenant: str, stream: str) -> None:
        """Nothing to catch up: the database's index follows every write."""

    def forget(self) -> None:
        """Nothing to drop: the vectors went with the rows."""

    def drop(self, tenant: str, streams: Sequence[str]) -> None:
        """Nothing to drop: erased vectors went with their rows."""
