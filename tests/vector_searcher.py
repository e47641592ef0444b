"""Another process on the same stream, for the merge test: refreshes its own index of the
stream, searches it, and prints whether it started a graph build and what it found.
Run as `python -m tests.vector_searcher DB QUERY_TEXT`."""

import json
import sys

from threefold.embed import HashingEmbedder
from threefold.store import SQLiteStore
from threefold.store.base import ItemFilter
from threefold.store.vectors import VectorIndex

STREAM = "project:big"
GRAPH_FROM = 40


def main(path: str, text: str) -> None:
    store = SQLiteStore(path)
    index = VectorIndex(store, store.index_directory, approximate_from=GRAPH_FROM)
    index.refresh("default", STREAM)
    started = any(part.builder is not None for part in index._parts.values())
    query = HashingEmbedder().embed([text])[0]
    hits = index.search("turn", ItemFilter(tenant="default", streams=(STREAM,)), query, 1)
    index.settle(timeout=60)
    print(json.dumps({"started_build": started, "top": hits[0][0] if hits else None}))
    store.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
