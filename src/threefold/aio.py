"""AsyncMemory: the Memory API for async code, over the same engine.

The engine is synchronous (SQLite, and a model that may think for a while), so each call
runs `Memory`'s own method, with its argument checks, in a worker thread; the event loop
goes on meanwhile. The threads are bounded by a limiter that this object owns, so a burst
of requests queues here instead of taking every thread the loop has.

A call that is cancelled while its thread runs is not abandoned: the awaiting task waits
for the thread to finish and is cancelled then. A write therefore lands whole or, if it
failed, not at all; a cancelled caller cannot leave half a transaction behind.
"""

import functools
from collections.abc import Callable, Coroutine
from pathlib import Path
from types import TracebackType
from typing import Any, Concatenate, ParamSpec, Self, TypeVar

import anyio

from threefold.errors import InvalidInput
from threefold.memory import Memory
from threefold.settings import Settings

_P = ParamSpec("_P")
_R = TypeVar("_R")

DEFAULT_THREADS = 4
"""Calls that run at once; SQLite serialises writes anyway, and reads share two cores here."""


def _in_thread(
    method: Callable[Concatenate[Memory, _P], _R],
) -> Callable[Concatenate["AsyncMemory", _P], Coroutine[Any, Any, _R]]:
    """`Memory.method` as a coroutine that runs it in one of the AsyncMemory's threads."""

    async def call(self: "AsyncMemory", *args: _P.args, **kwargs: _P.kwargs) -> _R:
        return await self._run(functools.partial(method, self.memory, *args, **kwargs))

    functools.update_wrapper(call, method)
    return call


class AsyncMemory:
    """Long-term memory for async code: every method of `Memory`, awaited.

        async with await AsyncMemory.open("alpha.db") as mem:
            await mem.add_turn("project:alpha", user="No, Raj is the Lead Architect.")
            ctx = await mem.context("project:alpha", "Who leads architecture?")

    Wraps a ready-made `Memory` (`AsyncMemory(memory)`), or opens one (`open`). Progress
    callbacks (imports, reembed) are called from the worker thread.
    """

    def __init__(
        self, memory: Memory, *, threads: int = DEFAULT_THREADS, close_memory: bool = True
    ) -> None:
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise InvalidInput(f"threads must be a positive whole number, got {threads!r}")
        self.memory = memory
        """The synchronous Memory underneath, for code that is not async."""
        self._limiter = anyio.CapacityLimiter(threads)
        self._close_memory = close_memory
        self._closed = False
        self._calls = 0
        self._drained: anyio.Event | None = None

    @classmethod
    async def open(
        cls,
        path: str | Path | None = None,
        *,
        threads: int = DEFAULT_THREADS,
        **options: Any,
    ) -> Self:
        """Open a Memory as `Memory.open(path, **options)` does, in a thread: opening
        migrates the schema and may load an embedding model."""
        memory = await anyio.to_thread.run_sync(functools.partial(Memory.open, path, **options))
        return cls(memory, threads=threads)

    # -- the same attributes as Memory ------------------------------------------------

    @property
    def tenant(self) -> str:
        return self.memory.tenant

    @property
    def settings(self) -> Settings:
        return self.memory.settings

    @property
    def read_only(self) -> bool:
        return self.memory.read_only

    @property
    def embeds(self) -> bool:
        return self.memory.embeds

    @property
    def query_embedding_is_slow(self) -> bool:
        return self.memory.query_embedding_is_slow

    @property
    def model_name(self) -> str:
        return self.memory.model_name

    @property
    def fact_reader(self) -> str | None:
        return self.memory.fact_reader

    @property
    def embedder_name(self) -> str | None:
        return self.memory.embedder_name

    # -- the same methods as Memory, awaited -------------------------------------------

    add_turn = _in_thread(Memory.add_turn)
    write_fact = _in_thread(Memory.write_fact)
    import_slack = _in_thread(Memory.import_slack)
    import_jira = _in_thread(Memory.import_jira)
    ingest_message = _in_thread(Memory.ingest_message)
    take_slack_event = _in_thread(Memory.take_slack_event)
    take_slack_events = _in_thread(Memory.take_slack_events)
    drain_inbox = _in_thread(Memory.drain_inbox)
    forget_handed = _in_thread(Memory.forget_handed)
    backfill_slack = _in_thread(Memory.backfill_slack)
    sync_drive = _in_thread(Memory.sync_drive)
    with_unembedded = _in_thread(Memory.with_unembedded)
    end_session = _in_thread(Memory.end_session)
    refresh = _in_thread(Memory.refresh)
    process_pending = _in_thread(Memory.process_pending)
    context = _in_thread(Memory.context)
    prepare_query = _in_thread(Memory.prepare_query)
    search = _in_thread(Memory.search)
    browse = _in_thread(Memory.browse)
    reembed = _in_thread(Memory.reembed)
    timeline = _in_thread(Memory.timeline)
    records = _in_thread(Memory.records)
    record = _in_thread(Memory.record)
    facts = _in_thread(Memory.facts)
    fact = _in_thread(Memory.fact)
    forget = _in_thread(Memory.forget)
    erase = _in_thread(Memory.erase)
    fact_history = _in_thread(Memory.fact_history)
    summaries = _in_thread(Memory.summaries)
    turns = _in_thread(Memory.turns)
    turn = _in_thread(Memory.turn)
    streams = _in_thread(Memory.streams)
    create_key = _in_thread(Memory.create_key)
    api_key = _in_thread(Memory.api_key)
    api_keys = _in_thread(Memory.api_keys)
    revoke_key = _in_thread(Memory.revoke_key)
    job_counts = _in_thread(Memory.job_counts)
    model_counts = _in_thread(Memory.model_counts)
    count_facts = _in_thread(Memory.count_facts)
    maintain = _in_thread(Memory.maintain)
    maintenance_loop = _in_thread(Memory.maintenance_loop)
    import_ledger = _in_thread(Memory.import_ledger)
    rebuild_team = _in_thread(Memory.rebuild_team)
    profile = _in_thread(Memory.profile)
    actions = _in_thread(Memory.actions)
    set_action_status = _in_thread(Memory.set_action_status)
    digest = _in_thread(Memory.digest)
    reroute = _in_thread(Memory.reroute)
    reextract = _in_thread(Memory.reextract)
    undigested = _in_thread(Memory.undigested)
    backlog = _in_thread(Memory.backlog)

    # -- lifecycle ------------------------------------------------------------------

    async def close(self) -> None:
        """Wait for the calls under way, then close the Memory (if this object owns it).
        Calls made after this are refused."""
        if self._closed:
            return
        self._closed = True
        if self._calls:
            self._drained = anyio.Event()
            await self._drained.wait()
        if self._close_memory:
            await anyio.to_thread.run_sync(self.memory.close)

    aclose = close
    """For contextlib.aclosing and the like."""

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def _run(self, call: Callable[[], _R]) -> _R:
        if self._closed:
            raise InvalidInput("this AsyncMemory is closed")
        self._calls += 1
        try:
            # Not abandoned on cancel: the caller waits for the thread, so a write ends whole.
            return await anyio.to_thread.run_sync(call, limiter=self._limiter)
        finally:
            self._calls -= 1
            if self._calls == 0 and self._drained is not None:
                self._drained.set()
