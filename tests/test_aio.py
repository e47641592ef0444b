"""AsyncMemory: Memory's methods, awaited, over the same engine and the same checks."""

import inspect
import random
import sqlite3
import threading
from pathlib import Path

import anyio
import pytest

from tests.scripted_model import ScriptedModel
from threefold import AsyncMemory, InvalidInput, Memory, NotFound, load_settings
from threefold.models.base import ExtractedFact, TurnInput

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _public(thing: object) -> set[str]:
    return {name for name in dir(thing) if not name.startswith("_")}


def test_async_memory_has_every_public_method_and_attribute_of_memory(tmp_path: Path) -> None:
    memory = Memory.open(tmp_path / "a.db", background_worker=False)
    both = AsyncMemory(memory)
    # The parts of the engine are Memory's alone; no face may touch them either.
    engine = {"store", "model", "recall", "pipeline", "runner", "team"}
    assert _public(memory) - _public(both) == engine
    assert _public(both) - _public(memory) == {"memory", "aclose"}
    for name in _public(Memory) - {"open"}:
        sync, wrapped = inspect.getattr_static(Memory, name), getattr(AsyncMemory, name)
        if isinstance(sync, property):
            assert isinstance(inspect.getattr_static(AsyncMemory, name), property), name
            continue
        assert inspect.iscoroutinefunction(wrapped), name
        if name != "close":
            assert inspect.signature(wrapped) == inspect.signature(sync), name
    memory.close()


async def test_calls_write_and_read_the_same_engine(tmp_path: Path) -> None:
    async with await AsyncMemory.open(tmp_path / "a.db", background_worker=False) as mem:
        turn = await mem.add_turn("project:alpha", "No, Raj is the Lead Architect.")
        await mem.process_pending()
        facts = await mem.facts("project:alpha")
        hits = await mem.search("Raj", kinds="fact")  # a text for a list is one item
        context = await mem.context("project:alpha", "Who leads architecture?", 500)
        key_id, secret = await mem.create_key("acme", "inner")
        key = await mem.api_key(secret)
    assert turn.seq == 1 and [f.text for f in facts] == ["Raj is the Lead Architect."]
    assert [h.kind for h in hits] == ["fact"]
    assert "Raj is the Lead Architect." in context.text
    assert key is not None and (key.id, key.tenant, key.trust) == (key_id, "acme", "inner")
    with Memory.open(tmp_path / "a.db", background_worker=False) as again:
        assert [f.id for f in again.facts("project:alpha")] == [facts[0].id]


async def test_a_cited_turn_or_record_is_read_by_id_within_its_tenant(tmp_path: Path) -> None:
    async with await AsyncMemory.open(tmp_path / "a.db", background_worker=False) as mem:
        turns = [await mem.add_turn("project:alpha", f"Note {n}.") for n in range(30)]
        await mem.ingest_message(channel="eng", user="Mia", ts="1772442000.000100", text="Hi")
        [record] = await mem.records("global", 1)
        assert (await mem.turn(turns[3].id)).user == "Note 3."
        window = await mem.turns("project:alpha", 5, through=turns[9].seq)
        assert [t.user for t in window] == [f"Note {n}." for n in range(5, 10)]
        assert (await mem.record(record.id)).text == "Hi"
        with pytest.raises(NotFound):
            await mem.turn(turns[3].id, tenant="other")
        with pytest.raises(NotFound):
            await mem.record(record.id, tenant="other")


async def test_bad_arguments_are_refused_by_the_same_checks(tmp_path: Path) -> None:
    async with await AsyncMemory.open(tmp_path / "a.db", background_worker=False) as mem:
        with pytest.raises(InvalidInput, match="query"):
            await mem.search(5)  # type: ignore[arg-type]
        with pytest.raises(InvalidInput, match="unknown kinds"):
            await mem.search("x", kinds="facts")
        with pytest.raises(InvalidInput, match="invalid stream"):
            await mem.add_turn("no good", "hello")
    with pytest.raises(InvalidInput, match="closed"):
        await mem.facts("project:alpha")
    with pytest.raises(InvalidInput, match="threads"):
        AsyncMemory(mem.memory, threads=0)


async def test_the_event_loop_runs_while_the_engine_works(tmp_path: Path) -> None:
    release = threading.Event()

    def slow_facts(turn: TurnInput) -> list[ExtractedFact]:
        release.wait(10)
        return []

    memory = Memory.open(
        tmp_path / "a.db", model=ScriptedModel(slow_facts), background_worker=False
    )
    ticks = 0
    async with AsyncMemory(memory) as mem:
        async with anyio.create_task_group() as group:
            await mem.add_turn("chat:1", "hello")
            group.start_soon(mem.process_pending)
            while ticks < 20:  # the extraction is stuck meanwhile; the loop is not
                await anyio.sleep(0.005)
                ticks += 1
            assert (await mem.job_counts())["done"] == 0
            release.set()
        assert (await mem.job_counts())["pending"] == 0


async def test_close_waits_for_the_calls_under_way(tmp_path: Path) -> None:
    release = threading.Event()
    memory = Memory.open(
        tmp_path / "a.db",
        model=ScriptedModel(lambda turn: release.wait(10) and []),
        background_worker=False,
    )
    mem = AsyncMemory(memory)
    await mem.add_turn("chat:1", "hello")
    async with anyio.create_task_group() as group:
        group.start_soon(mem.process_pending)
        await anyio.sleep(0.05)
        group.start_soon(mem.close)
        await anyio.sleep(0.05)
        assert memory.job_counts()["done"] == 0  # still open: the job runs
        release.set()
    with pytest.raises(InvalidInput, match="closed"):
        await mem.facts("chat:1")
    with Memory.open(tmp_path / "a.db", background_worker=False) as again:
        # The jobs ended before the store closed.
        assert again.job_counts() == {"pending": 0, "done": 2, "failed": 0}


async def test_a_call_cancelled_mid_write_leaves_nothing_half_written(tmp_path: Path) -> None:
    """Writes cancelled at random moments: afterwards the SQLite file holds whole turns,
    each with its job, seqs without gaps, and facts each with their history row."""
    db = tmp_path / "cancel.db"
    settings = load_settings(durability="full")
    rng = random.Random(7)
    text = "The release moved to Friday. " * 2000  # long enough to be cut mid-write
    cancelled = 0
    async with await AsyncMemory.open(db, settings=settings, background_worker=False) as mem:
        for i in range(60):
            with anyio.move_on_after(rng.uniform(0, 0.004)) as scope:
                if i % 2:
                    await mem.add_turn("project:alpha", f"{i}: {text}")
                else:
                    await mem.write_fact("project:alpha", f"Note {i}: {text[:200]}")
            cancelled += scope.cancel_called  # the deadline fell while the call ran
    assert cancelled > 0, "no call was cancelled: the test proves nothing"
    with sqlite3.connect(db) as raw:
        turns = raw.execute("SELECT seq, user_text FROM turns ORDER BY seq").fetchall()
        extract_jobs = raw.execute("SELECT COUNT(*) FROM jobs WHERE kind = 'extract'").fetchone()
        facts = raw.execute("SELECT id FROM facts").fetchall()
        unexplained = raw.execute(
            "SELECT COUNT(*) FROM facts f WHERE NOT EXISTS "
            "(SELECT 1 FROM fact_history h WHERE h.fact_id = f.id)"
        ).fetchone()
        (turn_count,) = raw.execute(
            "SELECT turn_count FROM streams WHERE name = 'project:alpha'"
        ).fetchone()
    assert [seq for seq, _ in turns] == list(range(1, len(turns) + 1))
    assert all(user.endswith(text) for _, user in turns)
    assert extract_jobs == (len(turns),) and turn_count == len(turns)
    assert facts and unexplained == (0,)
