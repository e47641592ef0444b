"""A search hit that states a superseded value says what is in force now (issue 36).

Through the public API, with the offline reader and real SQLite (or PostgreSQL): after a
job changes, the old turn comes back from search with `now` naming the new job's fact;
the correction itself, current turns and current facts come back unmarked."""

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from threefold import AsyncMemory, SearchHit

T0 = datetime(2026, 5, 4, 8, 0, tzinfo=UTC)
CHAT = "chat:jobs"
QUESTION = "where does the user work"
STRIPE = "I work at Stripe as a backend engineer."
CORRECTION = "Actually I left Stripe, I'm at Figma now."
UPDATE = "I work at Figma now."
SMALL_TALK = [
    ("how do i undo the last git commit but keep the changes", "git reset --soft HEAD~1."),
    ("whats the capital of mongolia again", "Ulaanbaatar."),
]


def talk(mem, said: list[str], stream: str = CHAT, **options) -> None:
    for n, user in enumerate(said):
        mem.add_turn(stream, user, "Noted.", at=T0 + timedelta(hours=3 * n), **options)
    mem.process_pending()


def job_change(mem, change: str, **options) -> None:
    talk(mem, [STRIPE, *(user for user, _ in SMALL_TALK), change], **options)


def hit_saying(hits: list[SearchHit], words: str) -> SearchHit:
    found = [h for h in hits if words in h.text]
    assert found, [h.text for h in hits]
    return found[0]


def marks(hit: SearchHit) -> list[str]:
    return [f.text for f in hit.now]


@pytest.mark.parametrize("change", [CORRECTION, UPDATE], ids=["correction", "plain update"])
def test_the_old_job_is_marked_with_the_new_one(open_memory, change):
    mem = open_memory()
    job_change(mem, change)
    [figma] = [f for f in mem.facts(CHAT) if "Figma" in f.text]
    hits = mem.search("does the user work at Stripe or Figma", CHAT)
    old = hit_saying(hits, "Stripe as a backend engineer")
    assert old.kind == "turn" and [(f.id, f.text) for f in old.now] == [(figma.id, figma.text)]
    assert marks(hit_saying(hits, change)) == []  # it names both values, or only the new
    for hit in hits:
        if hit.kind == "fact" or "Stripe" not in hit.text:
            assert marks(hit) == [], hit  # current facts and other turns stay unmarked
        assert all(marks(fact) == [] for fact in hit.derived)


def test_a_summary_that_states_the_old_job_is_marked(open_memory):
    mem = open_memory(recent_turns=2, session_turns=3)
    job_change(mem, CORRECTION)
    talk(mem, [f"tell me a fact about the number {n}" for n in range(4)])
    mem.end_session(CHAT)
    mem.process_pending()
    summaries = [h for h in mem.search(QUESTION, CHAT, kinds=["summary"], limit=50)]
    stating = [h for h in summaries if "Stripe as a backend" in h.text]
    assert stating and all(marks(h) == ["The user works at Figma."] for h in stating)
    assert all(marks(h) == [] for h in summaries if "Stripe" not in h.text)


def test_a_current_fact_that_restates_the_old_value_is_marked(open_memory):
    mem = open_memory()
    job_change(mem, UPDATE)
    badge = mem.write_fact(
        CHAT, "The user's badge still says Stripe.", subject="user", slot="badge", value="stripe"
    )
    [hit] = [h for h in mem.search("badge Stripe", CHAT, kinds=["fact"]) if h.id == badge.id]
    assert marks(hit) == ["The user works at Figma."]


def test_another_tenants_supersessions_never_mark_ours(open_memory):
    mem = open_memory()
    job_change(mem, CORRECTION, tenant="other")
    talk(mem, [STRIPE, "whats the capital of mongolia again"])
    hits = mem.search(QUESTION, CHAT)
    assert marks(hit_saying(hits, "Stripe")) == []
    theirs = hit_saying(mem.search(QUESTION, CHAT, tenant="other"), "Stripe as a backend")
    assert marks(theirs) == ["The user works at Figma."]


def test_a_successor_the_caller_may_not_read_is_not_named(open_memory):
    mem = open_memory()
    talk(mem, [STRIPE], visibility="social")
    mem.add_turn(CHAT, UPDATE, "Congrats!", at=T0 + timedelta(days=1))
    mem.process_pending()
    familiar = hit_saying(mem.search(QUESTION, CHAT, trust="familiar"), "Stripe")
    assert marks(familiar) == []
    assert marks(hit_saying(mem.search(QUESTION, CHAT), "Stripe")) == ["The user works at Figma."]


@pytest.mark.parametrize("removal", ["forget", "erase"])
def test_a_forgotten_or_erased_successor_leaves_no_mark(open_memory, removal):
    mem = open_memory()
    job_change(mem, UPDATE)
    [figma] = [f for f in mem.facts(CHAT) if "Figma" in f.text]
    assert marks(hit_saying(mem.search(QUESTION, CHAT), "Stripe")) == [figma.text]
    if removal == "forget":
        mem.forget(figma.id, reason="test")
    else:
        mem.erase(fact_id=figma.id)
    hits = mem.search(QUESTION, CHAT)
    assert all(marks(h) == [] and not any(d.now for d in h.derived) for h in hits), hits


def test_search_on_an_empty_stream_or_memory_finds_nothing_to_mark(open_memory):
    mem = open_memory()
    assert mem.search(QUESTION, "chat:never") == []
    assert mem.search("", None) == []
    job_change(mem, UPDATE)
    assert mem.search(QUESTION, "chat:never") == []


def test_the_async_memory_marks_hits_too(open_memory):
    mem = open_memory()
    job_change(mem, CORRECTION)
    hits = asyncio.run(AsyncMemory(mem, close_memory=False).search(QUESTION, CHAT))
    assert marks(hit_saying(hits, "Stripe as a backend")) == ["The user works at Figma."]


def test_a_context_for_a_lower_trust_names_no_successor_it_may_not_read(open_memory):
    """The context's own mark ("outdated; now: ...") obeys the same rule as search's."""
    mem = open_memory(recent_turns=1, session_turns=2)
    talk(mem, [STRIPE, *(user for user, _ in SMALL_TALK)], visibility="social")
    mem.end_session(CHAT)
    mem.add_turn(CHAT, UPDATE, "Congrats!", at=T0 + timedelta(days=1))
    for n in range(2, 6):
        mem.add_turn(CHAT, f"thanks {n}", "Bye!", at=T0 + timedelta(days=n), visibility="social")
    mem.process_pending()
    full = mem.context(CHAT, QUESTION, budget=3000).text
    assert "(outdated: The user works at Stripe; now: The user works at Figma.)" in full
    familiar = mem.context(CHAT, QUESTION, budget=3000, trust="familiar").text
    assert "Stripe" in familiar and "Figma" not in familiar
