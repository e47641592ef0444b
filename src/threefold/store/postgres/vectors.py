"""Vector search done by the database: pgvector's HNSW index, filtered in the same query.

Nothing is kept in the process, so every process sees every vector the moment it is
committed, and none holds a copy of the index in its memory.
"""

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from threefold.store.base import ItemFilter

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
    ) -> list[tuple[int, float]]:
        """The `limit` items of `kind` that pass `where` and are most similar to `query`,
        with their cosine similarity, most similar first, none under `min_similarity`;
        `exact` scans instead of using the approximate index. `walk` is not needed:
        pgvector's filtered search orders the filter's items by `query` itself."""
        vector = np.asarray(query, dtype=np.float32)
        found = self._store.nearest(kind, where, vector.tobytes(), vector.shape[0], limit, exact)
        return [(item, similarity) for item, similarity in found if similarity >= min_similarity]

    def refresh(self, tenant: str, stream: str) -> None:
        """Nothing to catch up: the database's index follows every write."""

    def forget(self) -> None:
        """Nothing to drop: the vectors went with the rows."""

    def drop(self, tenant: str, streams: Sequence[str]) -> None:
        """Nothing to drop: erased vectors went with their rows."""
