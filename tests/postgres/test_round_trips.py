"""A context waits for PostgreSQL twice: once for what it reads of the stream, once for
the search of every kind. Each wait is a scheduling delay on a busy host, so their number
is checked; their speed is measured in benchmarks/postgres.py."""

from collections.abc import Callable

from memstrata import Memory, load_settings


def test_a_context_waits_for_the_server_twice(fresh_postgres: Callable[[], str]) -> None:
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
    assert waits == 2
    assert statements == 9  # eight reads sent together, then one search
