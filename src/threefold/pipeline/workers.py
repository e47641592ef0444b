"""Job workers in their own processes, so that digests and summaries use every core.

Python threads share one core for this work; processes do not. Each worker opens its own
Memory on the same database file, and the stream leases in the store keep two workers off
one stream.

    with Workers(settings, count=2):
        mem.import_slack("export.zip", process=False)   # digested while it is read
"""

import multiprocessing
import time
from multiprocessing.context import SpawnProcess
from multiprocessing.sharedctypes import Synchronized
from multiprocessing.synchronize import Event
from types import TracebackType
from typing import Self

from threefold.errors import ThreefoldError
from threefold.settings import Settings

_IDLE_SECONDS = 0.05


class Workers:
    """`count` processes that run due jobs until the block ends, then finish what is due."""

    def __init__(self, settings: Settings, count: int = 2, tenant: str | None = None) -> None:
        if count < 1:
            raise ThreefoldError(f"workers must be at least 1, got {count}")
        self._context = multiprocessing.get_context("spawn")  # no inherited connections
        self._stop = self._context.Event()
        self._ran = self._context.Value("q", 0)
        self._processes: list[SpawnProcess] = [
            self._context.Process(
                target=_work,
                args=(settings.model_dump(mode="json"), tenant, self._stop, self._ran),
                daemon=True,
            )
            for _ in range(count)
        ]

    @property
    def ran(self) -> int:
        """Jobs the workers have run so far."""
        return int(self._ran.value)

    def __enter__(self) -> Self:
        for process in self._processes:
            process.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._stop.set()
        for process in self._processes:
            process.join()
        failed = [p.exitcode for p in self._processes if p.exitcode]
        if failed and kind is None:
            raise ThreefoldError(f"{len(failed)} worker process(es) failed: exit codes {failed}")


def _work(settings: dict, tenant: str | None, stop: Event, ran: Synchronized) -> None:
    from threefold.memory import Memory

    with Memory.open(settings=Settings(**settings), background_worker=False) as mem:
        while not stop.is_set():
            done = mem.runner.run_pending(tenant, wait=False, stopping=stop.is_set)
            _add(ran, done)
            if not done:
                time.sleep(_IDLE_SECONDS)
        _add(ran, mem.runner.run_pending(tenant))


def _add(counter: Synchronized, count: int) -> None:
    with counter.get_lock():
        counter.value += count
