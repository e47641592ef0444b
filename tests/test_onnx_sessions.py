"""Models opened from many threads at once: a server's worker thread loads the reader while
request threads load the embedder. onnxruntime's session set-up is not safe in two
threads at once, and the suite lost a worker to a segfault there twice (sessions 37 and
40); every session is now opened under one lock (threefold.onnx_session). The race is
rare, so this test is a guard that each opening works under contention, not a
reproduction of the crash."""

import threading
from datetime import UTC, datetime

import pytest

pytest.importorskip("onnxruntime")

from threefold.embed.minilm import MiniLMEmbedder  # noqa: E402
from threefold.models.base import TurnInput  # noqa: E402
from threefold.models.reader import TUNED, TrainedReader  # noqa: E402

THREADS = 4
SAID = datetime(2026, 1, 1, tzinfo=UTC)


def open_and_use(n: int) -> object:
    """An embedder's vectors, or a reader's facts, from models this thread opens."""
    if n % 2:
        return MiniLMEmbedder().embed([f"hello {n}"]).shape
    turn = TurnInput(stream="chat:t", user="I live in Leeds.", at=SAID)
    return TrainedReader(manifest=TUNED).load().extract_facts(turn)


def test_readers_and_embedders_open_at_once_in_many_threads():
    start = threading.Barrier(THREADS)
    done: list[object] = []
    failed: list[BaseException] = []

    def run(n: int) -> None:
        try:
            start.wait()
            done.append(open_and_use(n))
        except BaseException as exc:  # each thread's failure is the test's
            failed.append(exc)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failed and len(done) == THREADS
