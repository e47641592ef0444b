"""The memory's lane: one thread that runs the server's calls into the memory, in turn.

One connection serves every request, so more threads building contexts at once would only
fight over it and the GIL: calls queue here instead, and each finishes sooner. A context
request makes one such call, and such requests are most of a server's traffic, so the
hop is kept plain: a queue, a thread and a future, about half the CPU of a call through
`anyio.to_thread.run_sync` with a limiter of one (its worker pool, limiter and cancel
scopes), measured at 65–76 µs against 27–29 µs a call.
"""

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

_T = TypeVar("_T")
_Call = tuple[
    asyncio.AbstractEventLoop, "asyncio.Future[Any]", Callable[..., Any], tuple[Any, ...], bool
]
"""(loop, future, function, arguments, grouped): see MemoryLane.run_grouped."""
MOST_GROUPED = 256
"""Items handed to one grouped call at most."""


class MemoryLane:
    """Runs calls one at a time, in the order they came, on a thread of its own.

    A caller cancelled while it waits (a server shutting down) stops waiting; its call
    still runs, or has run, to its end, so that the memory is never left mid-call. close()
    waits for the calls already queued.
    """

    def __init__(self, name: str = "threefold-lane") -> None:
        self._calls: queue.SimpleQueue[_Call | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    async def run(self, function: Callable[..., _T], *args: Any) -> _T:
        """`function(*args)`, run on the lane's thread; its exception is raised here."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[_T] = loop.create_future()
        self._calls.put((loop, done, function, args, False))
        return await done

    async def run_grouped(self, function: Callable[[list[Any]], list[Any]], item: Any) -> Any:
        """This item's result of `function(items)`, where `items` holds it and the items
        queued for the same function right behind it, taken in one call (so a receiver
        makes a batch of events durable with one sync, not one each). `function` returns
        a result per item, in order; one that is an exception is raised to that item's
        caller alone."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Any] = loop.create_future()
        self._calls.put((loop, done, function, (item,), True))
        return await done

    def close(self) -> None:
        """Run what is queued, then stop the thread."""
        self._calls.put(None)
        self._thread.join()

    def _serve(self) -> None:
        ahead: list[_Call | None] = []  # taken from the queue while grouping, not run yet
        while (call := ahead.pop() if ahead else self._calls.get()) is not None:
            loop, done, function, args, grouped = call
            if not grouped:
                try:
                    result = function(*args)
                except BaseException as exc:  # handed to the caller, whatever it is
                    _answer(loop, done, None, exc)
                else:
                    _answer(loop, done, result, None)
                continue
            calls = [call]
            while len(calls) < MOST_GROUPED and not ahead:
                try:
                    following = self._calls.get_nowait()
                except queue.Empty:
                    break
                if following is not None and following[4] and following[2] == function:
                    calls.append(following)
                else:
                    ahead.append(following)
            self._run_group(function, calls)

    @staticmethod
    def _run_group(function: Callable[[list[Any]], list[Any]], calls: list[_Call]) -> None:
        try:
            results = function([args[0] for _, _, _, args, _ in calls])
            if len(results) != len(calls):
                raise RuntimeError(f"{len(results)} results for {len(calls)} items")
        except BaseException as exc:  # every caller of the group hears of it
            for loop, done, *_ in calls:
                _answer(loop, done, None, exc)
            return
        for (loop, done, *_), result in zip(calls, results, strict=True):
            if isinstance(result, BaseException):
                _answer(loop, done, None, result)
            else:
                _answer(loop, done, result, None)


def _answer(
    loop: asyncio.AbstractEventLoop,
    done: "asyncio.Future[Any]",
    result: Any,
    error: BaseException | None,
) -> None:
    # A loop closed meanwhile has no one waiting any more.
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(_settle, done, result, error)


def _settle(done: "asyncio.Future[Any]", result: Any, error: BaseException | None) -> None:
    if done.cancelled():  # its caller stopped waiting
        return
    if error is None:
        done.set_result(result)
    else:
        done.set_exception(error)
