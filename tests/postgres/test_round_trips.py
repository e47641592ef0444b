"""A context waits for PostgreSQL at most three times: once for what it reads of the stream
(which of the question's words name people among it), once for the search of every kind
(two statements on two connections at the same time), and, where candidates on the
question's topic say words the stream may say almost nowhere else, once for how often it
says them (`rare_words`: a word found common is remembered a while, a rare one is counted
again, as writes may make it common). A question naming a person waits once more, for
which of its candidates' words name someone else (rerank.about_others), and in a large
stream once more, for the vectors that tell echoes of one line apart. Each wait is a
scheduling delay on a busy host, so their number is checked; their speed is measured in
benchmarks/postgres.py. Setting a pooled connection to the acting tenant is the
connection's setup, as the pool's own statements are, and not counted."""

import threading
from collections.abc import Callable
from datetime import UTC, datetime

import numpy as np
import pytest

from threefold import Memory, load_settings
from threefold.store.base import ItemFilter, NewTurn, Probe
from threefold.store.postgres import PostgresStore
from threefold.store.postgres import store as postgres_store


@pytest.fixture(autouse=True)
def _counts_kept_through_the_test(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the store remembers for a minute (how common words are, which streams are
    crowded) is remembered through the test: on a loaded host the setup can outlast the
    minute, and a refresh between the warm context and the measured one is one more wait
    that says nothing of the context."""
    monkeypatch.setattr(postgres_store, "_TERM_COUNT_SECONDS", 3600.0)


@pytest.mark.parametrize("checked_after", [None, 0.0])
def test_a_context_waits_for_the_server_three_times_at_most(
    fresh_postgres: Callable[[], str], monkeypatch: pytest.MonkeyPatch, checked_after: float | None
) -> None:
    """Also where the pool checks every connection it hands out (as it checks one that sat
    idle, which on a loaded host happened mid-context): the check is the pool's, not the
    context's."""
    if checked_after is not None:
        monkeypatch.setattr(postgres_store, "_CHECK_IDLE_SECONDS", checked_after)
    settings = load_settings(db=fresh_postgres(), embed={"kind": "hashing"}, session_turns=4)
    with Memory.open(settings=settings, background_worker=False) as mem:
        mem.add_turn("project:alpha", "Raj is the Lead Architect of the billing rewrite.", "Ok.")
        for n in range(12):
            mem.add_turn("project:alpha", f"The kafka deploy step {n} went fine.", "Good.")
        mem.add_turn("global", "Lena leads billing.", "Noted.")
        mem.process_pending()
        asked = "Who is the lead architect of billing? What about the kafka deploy?"
        warm = mem.context("project:alpha", asked, budget=1500)
        before = (mem.store.round_trips, mem.store.statements)
        context = mem.context("project:alpha", asked, budget=1500)
        waits = mem.store.round_trips - before[0]
        statements = mem.store.statements - before[1]
    assert context.text == warm.text
    assert "Lead Architect" in context.text
    assert waits == 3  # the third: how often the stream says the candidates' own words
    assert statements == 13  # ten reads sent together, the search's two halves, the count


def test_a_context_naming_a_person_waits_once_more_for_the_names_among_its_candidates(
    fresh_postgres: Callable[[], str],
) -> None:
    settings = load_settings(db=fresh_postgres(), embed={"kind": "hashing"}, session_turns=4)
    with Memory.open(settings=settings, background_worker=False) as mem:
        _two_speakers_talk(mem)
        assert _waits_of_a_warm_context(mem, "How did Lena's kafka deploy go?") == 4


def test_a_context_after_another_tenants_waits_as_often(
    fresh_postgres: Callable[[], str],
) -> None:
    """A pooled connection that served another tenant last is set to this one first: that
    setting is the connection's setup, like the pool's own statements, and no wait of the
    context. On a loaded host the pool handed a search's second half such a connection,
    and the context counted one wait more."""
    settings = load_settings(db=fresh_postgres(), embed={"kind": "hashing"}, session_turns=4)
    with Memory.open(settings=settings, background_worker=False) as mem:
        for tenant in ("acme", "globex"):
            for n in range(6):
                said = f"The kafka deploy step {n} of {tenant} went fine."
                mem.add_turn("project:alpha", said, "Good.", tenant=tenant)
        mem.process_pending()
        asked = "How did the kafka deploy go?"
        warm = mem.context("project:alpha", asked, budget=1500, tenant="acme")
        before = mem.store.round_trips
        mem.context("project:alpha", asked, budget=1500, tenant="acme")
        waits_warm = mem.store.round_trips - before
        mem.context("project:alpha", asked, budget=1500, tenant="globex")
        before = mem.store.round_trips
        context = mem.context("project:alpha", asked, budget=1500, tenant="acme")
        waits = mem.store.round_trips - before
    assert context.text == warm.text and "of acme" in context.text
    assert "globex" not in context.text
    assert waits == waits_warm


def _two_speakers_talk(mem: Memory) -> None:
    """Lena and Tomas, each saying the other's kafka deploy steps failed."""
    for n in range(12):
        said = f"Tomas said the kafka deploy step {n} failed."
        mem.add_turn("project:alpha", said, "Bad.", speaker="Lena")
        said = f"Lena said the kafka deploy step {n} failed."
        mem.add_turn("project:alpha", said, "Bad.", speaker="Tomas")
    mem.process_pending()


def _waits_of_a_warm_context(mem: Memory, asked: str) -> int:
    """How often a context for `asked` waits for the server, asked a second time (the
    first warms the caches); the two contexts are the same and hold the talk."""
    warm = mem.context("project:alpha", asked, budget=1500)
    before = mem.store.round_trips
    context = mem.context("project:alpha", asked, budget=1500)
    waits = mem.store.round_trips - before
    assert context.text == warm.text and "kafka deploy" in context.text
    return waits


def test_a_context_naming_a_person_in_a_large_stream_waits_once_more_for_echoes(
    fresh_postgres: Callable[[], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past Preset.deeper_from_turns (lowered here to match 24 turns), a named person's
    vector list lists echoes of one line once, by their vectors: one more wait."""
    from dataclasses import replace

    from threefold.recall import presets

    default = presets.PRESETS["default"]
    monkeypatch.setitem(presets.PRESETS, "default", replace(default, deeper_from_turns=4))
    settings = load_settings(db=fresh_postgres(), embed={"kind": "hashing"}, session_turns=4)
    asked = "Did Lena say the kafka deploy step failed?"
    with Memory.open(settings=settings, background_worker=False) as mem:
        _two_speakers_talk(mem)
        assert _waits_of_a_warm_context(mem, asked) == 5
    monkeypatch.setitem(presets.PRESETS, "default", default)  # a small stream: one wait fewer
    with Memory.open(settings=settings, background_worker=False) as mem:
        assert _waits_of_a_warm_context(mem, asked) == 4


def test_searches_from_more_threads_than_connections_all_finish(
    fresh_postgres: Callable[[], str],
) -> None:
    """Each search takes a second connection for its other half while its first runs:
    with more searching threads than the pool holds, none waits for another forever,
    and each gets its own tenant's rows."""
    store = PostgresStore(fresh_postgres(), pool_size=2, timeout=20)
    try:
        vector = np.full(8, 8**-0.5, dtype=np.float32)
        for tenant in ("t1", "t2"):
            for n in range(3):
                turn = store.insert_turn(
                    NewTurn(
                        tenant=tenant,
                        stream="chat",
                        user=f"{tenant} otter {n}",
                        assistant="",
                        at=datetime(2026, 3, 1, 9, n, tzinfo=UTC),
                        tokens=3,
                    )
                )
                store.put_vectors(tenant, "chat", "m", [("turn", turn.id, vector.tobytes(), 8)])

        def search(tenant: str) -> set[int]:
            probe = Probe(where=ItemFilter(tenant=tenant, streams=("chat",)))
            found = store.candidates(tenant, ("turn", "fact"), ["otter"], vector, [probe], 5)
            return {item.id for item in found.items(found.rows).values() if tenant in item.text}

        alone = {tenant: search(tenant) for tenant in ("t1", "t2")}
        assert all(len(ids) == 3 for ids in alone.values())
        results: list[tuple[str, set[int]]] = []
        errors: list[BaseException] = []

        def worker(tenant: str) -> None:
            try:
                for _ in range(5):
                    results.append((tenant, search(tenant)))
            except BaseException as exc:  # reported by the assertion below
                errors.append(exc)

        threads = [threading.Thread(target=worker, args=(f"t{n % 2 + 1}",)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert not errors and not any(thread.is_alive() for thread in threads)
        assert len(results) == 40 and all(ids == alone[tenant] for tenant, ids in results)
    finally:
        store.close()
