"""The receiver's lane takes the events queued behind one another in one call (one sync
for a batch), answers each caller with its own result, and keeps other calls in order."""

import asyncio
import threading

import pytest

from threefold.errors import InvalidInput
from threefold.faces.http.lane import MemoryLane


def test_items_queued_together_are_taken_in_one_call_each_with_its_answer() -> None:
    lane = MemoryLane("test-lane")
    gate = threading.Event()
    calls: list[list[int]] = []
    order: list[str] = []

    def take(items: list[int]) -> list[object]:
        calls.append(items)
        return [InvalidInput(f"bad {i}") if i < 0 else i * 10 for i in items]

    async def scenario() -> list[object]:
        blocked = asyncio.ensure_future(lane.run(gate.wait))  # the lane is busy meanwhile
        await asyncio.sleep(0.05)
        grouped = [asyncio.ensure_future(lane.run_grouped(take, i)) for i in (1, 2, -3, 4)]
        after = asyncio.ensure_future(lane.run(order.append, "plain call"))
        await asyncio.sleep(0.05)
        gate.set()
        await blocked
        answers = await asyncio.gather(*grouped, return_exceptions=True)
        await after
        return answers

    try:
        answers = asyncio.run(scenario())
    finally:
        lane.close()
    assert calls == [[1, 2, -3, 4]]  # one call, one sync
    assert answers[:2] == [10, 20] and answers[3] == 40
    assert isinstance(answers[2], InvalidInput) and str(answers[2]) == "bad -3"
    assert order == ["plain call"]


def test_a_grouped_call_that_fails_fails_each_of_its_callers() -> None:
    lane = MemoryLane("test-lane")

    def broken(items: list[int]) -> list[object]:
        raise OSError("disk full")

    def short(items: list[int]) -> list[object]:
        return []

    async def scenario() -> None:
        with pytest.raises(OSError, match="disk full"):
            await lane.run_grouped(broken, 1)
        with pytest.raises(RuntimeError, match="0 results for 1 items"):
            await lane.run_grouped(short, 1)

    try:
        asyncio.run(scenario())
    finally:
        lane.close()


def test_a_batch_of_events_with_a_retry_and_a_malformed_one(open_memory) -> None:
    mem = open_memory(embed={"kind": "none"})

    def envelope(event_id: str, text: str = "The crane is fixed.") -> dict:
        event = {"type": "message", "channel": "C1", "user": "U1", "ts": "1772442000.000100"}
        return {"type": "event_callback", "event_id": event_id, "event": {**event, "text": text}}

    answers = mem.take_slack_events(
        [envelope("Ev1"), envelope("Ev1"), {"type": "event_callback"}, envelope("Ev2")],
        tenant="default",
    )
    assert answers[:2] == ["queued", "duplicate"]  # a retry in the same batch
    assert isinstance(answers[2], InvalidInput)
    assert answers[3] == "queued"
    assert mem.take_slack_events([envelope("Ev2")], tenant="default") == ["duplicate"]
    with pytest.raises(InvalidInput, match="event_id"):
        mem.take_slack_event({"type": "event_callback"})
