"""A writer for the crash test: adds embedded turns and keeps a vector graph saved, until
it is killed. Run as `python tests/vector_writer.py DB`; prints each turn it committed."""

import sys
from datetime import UTC, datetime

from threefold.embed import HashingEmbedder
from threefold.store import SQLiteStore
from threefold.store.base import NewTurn
from threefold.store.vectors import VectorIndex

STREAM = "project:crash"
GRAPH_FROM = 20


def main(path: str) -> None:
    store = SQLiteStore(path)
    index = VectorIndex(store, store.index_directory, approximate_from=GRAPH_FROM)
    embedder = HashingEmbedder()
    n = 0
    while True:
        n += 1
        text = f"turn {n} about topic{n % 37} and item{n}"
        with store.transaction():
            turn = store.insert_turn(
                NewTurn(
                    tenant="default",
                    stream=STREAM,
                    user=text,
                    assistant="ok",
                    at=datetime(2026, 1, 1, tzinfo=UTC),
                    tokens=5,
                )
            )
            vector = embedder.embed([text])[0]
            store.put_vectors(
                "default",
                STREAM,
                embedder.name,
                [("turn", turn.id, vector.tobytes(), embedder.dim)],
            )
        index.refresh("default", STREAM)
        print(n, flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
