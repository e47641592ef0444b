"""Job workers in their own processes, so that digests and summaries use every core.

Python threads share one core for this work; processes do not. Each worker opens its own
Memory on the same database file, and the stream leases in the store keep two workers off
one stream.

    with Workers(settings, count=2):
        mem.import_slack("export.zip", process=False)   # digested while it is read
"""

import multiprocessing
import os
import time
from multiprocessing.context import SpawnProcess
from multiprocessing.sharedctypes import Synchronized
from multiprocessing.synchronize import Event
from types import TracebackType
from typing import Self

from threefold.errors import ThreefoldError
from threefold.settings import REVEAL_SECRETS, Settings

_IDLE_SECONDS = 0.05


class Workers:
    """`count` processes that run due jobs until the block ends, then finish what is due."""

    def __init__(
        self, settings: Settings, count: int = 2, tenant: str | None = None, *, nice: int = 0
    ) -> None:
        if count < 1:
            raise ThreefoldError(f"workers must be at least 1, got {count}")
        self._context = multiprocessing.get_context("spawn")  # no inherited connections
        self._stop = self._context.Event()
        self._ran = self._context.Value("q", 0)
        self._processes: list[SpawnProcess] = [
            self._context.Process(
                target=_work,
                # Secrets written out (a model's API key): the processes are this one's own.
                args=(_revealed(settings), tenant, self._stop, self._ran, nice),
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


def _revealed(settings: Settings) -> str:
    return settings.model_dump_json(context={REVEAL_SECRETS: True})


def _work(settings: str, tenant: str | None, stop: Event, ran: Synchronized, nice: int) -> None:
    from threefold.memory import Memory

    if nice and hasattr(os, "nice"):
        os.nice(nice)  # below the processes that answer requests

    try:
        with Memory.open(
            settings=Settings.model_validate_json(settings), background_worker=False
        ) as mem:
            if mem.read_only:  # no job can run on storage opened for reading only
                return
            parent = multiprocessing.parent_process()

            def stopping() -> bool:
                # A parent gone without a word (killed, or stopped by a signal it re-raised)
                # sets no event: its workers must not run on without it.
                return stop.is_set() or (parent is not None and not parent.is_alive())

            while not stopping():
                done = mem.runner.run_pending(tenant, wait=False, stopping=stopping)
                _add(ran, done)
                if not done:
                    time.sleep(_IDLE_SECONDS)
            if stop.is_set():
                _add(ran, mem.runner.run_pending(tenant))
    except KeyboardInterrupt:
        # Ctrl-C reaches the whole process group: the parent decides what follows, and
        # the lease of a job cut short expires for another worker to run it again.
        return


def _add(counter: Synchronized, count: int) -> None:
    with counter.get_lock():
        counter.value += count
