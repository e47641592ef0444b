"""The storage contract, run against both backends: a real SQLite file and a real
PostgreSQL database (embedded, with pgvector). Each test opens its stores through
`open_store`, as every face does."""

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from threefold import Memory, load_settings
from threefold.domain import (
    FactCategory,
    FactStatus,
    ImportProgress,
    SourceRef,
    SummaryKind,
    Visibility,
)
from threefold.errors import NotFound
from threefold.store import Store
from threefold.store.base import (
    ErasedIds,
    ItemFilter,
    NewFact,
    NewRecord,
    NewSummary,
    NewTurn,
    PinPolicy,
    Probe,
    TurnWindow,
)

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def _turn(store: Store, stream: str, user: str, *, minutes: int = 0, **extra) -> int:
    new = NewTurn(
        tenant=extra.pop("tenant", "t1"),
        stream=stream,
        user=user,
        assistant="ok",
        at=T0 + timedelta(minutes=minutes),
        tokens=len(user.split()),
        **extra,
    )
    return store.insert_turn(new).id


def _fact(store: Store, stream: str, text: str, slot: str = "note", **extra) -> int:
    new = NewFact(
        tenant=extra.pop("tenant", "t1"),
        stream=stream,
        text=text,
        category=extra.pop("category", FactCategory.NOTE),
        subject="raj",
        slot=slot,
        value=text,
        confidence=extra.pop("confidence", 0.9),
        source=SourceRef(kind="turn", id="1", at=T0),
        tokens=5,
        **extra,
    )
    store.ensure_stream(new.tenant, stream)
    return store.insert_fact(new).id


def test_turns_take_consecutive_seqs_and_read_back_whole(store: Store) -> None:
    ids = [_turn(store, "chat:a", f"message {n}", minutes=n, speaker="Ana") for n in range(5)]
    turns = store.turns("t1", "chat:a")
    assert [t.seq for t in turns] == [1, 2, 3, 4, 5] and [t.id for t in turns] == ids
    assert turns[0].at == T0 and turns[0].speaker == "Ana" and turns[0].user == "message 0"
    assert [t.seq for t in store.turns("t1", "chat:a", last=2)] == [4, 5]
    assert [t.seq for t in store.turns("t1", "chat:a", after_seq=1, through_seq=3)] == [2, 3]
    state = store.stream_state("t1", "chat:a")
    assert state.exists and state.turn_count == 5 and state.unsummarized_tokens == 10
    with pytest.raises(NotFound):
        store.turn("other-tenant", ids[0])


def test_a_superseded_fact_pairs_with_the_active_end_of_its_chain(store: Store) -> None:
    """Stripe, then "not at Stripe", then Figma: the first is outdated by Figma too. A
    chain that ends at no active fact (its end forgotten, links that loop) pairs nothing."""
    stripe = _fact(store, "chat:a", "The user works at Stripe", slot="employer")
    left = _fact(store, "chat:a", "The user no longer works at Stripe", slot="employer")
    figma = _fact(store, "chat:a", "The user works at Figma", slot="employer")
    store.set_fact_status("t1", stripe, FactStatus.RETRACTED, superseded_by=left)
    store.set_fact_status("t1", left, FactStatus.SUPERSEDED, superseded_by=figma)
    pairs = store.superseded_facts("t1", "chat:a")
    assert sorted((old.id, new.id) for old, new in pairs) == [(stripe, figma), (left, figma)]
    assert (
        store.stream_view(
            "t1", "chat:a", window=TurnWindow(least=0, most=0), pins=PINS, pinned_streams=[]
        ).superseded
        == pairs
    )
    store.set_fact_status("t1", figma, FactStatus.RETRACTED, superseded_by=left)
    assert store.superseded_facts("t1", "chat:a") == []  # a loop ends at no active fact


def test_facts_are_read_by_id_within_their_tenant_in_any_status(store: Store) -> None:
    kept = _fact(store, "chat:a", "The user lives in Leeds", slot="home")
    gone = _fact(store, "chat:a", "The user lives in York", slot="home")
    store.set_fact_status("t1", gone, FactStatus.RETRACTED)
    found = store.facts_by_id("t1", [kept, gone, 987_654])
    assert sorted(f.id for f in found) == sorted([kept, gone])
    assert store.facts_by_id("other-tenant", [kept, gone]) == []
    assert store.facts_by_id("t1", []) == []


def test_facts_supersede_with_history_per_tenant(store: Store) -> None:
    old = _fact(store, "project:x", "Raj is a developer", slot="role")
    new = _fact(store, "project:x", "Raj is the architect", slot="role", supersedes=old)
    store.set_fact_status("t1", old, FactStatus.SUPERSEDED, superseded_by=new)
    store.add_fact_change(old, "superseded", related=new, before={"value": "dev"})
    assert [f.id for f in store.facts("t1", "project:x")] == [new]
    assert [f.id for f in store.facts("t1", "project:x", include_inactive=True)] == [new, old]
    [(was, now)] = store.superseded_facts("t1", "project:x")
    assert (was.id, now.id, was.superseded_by) == (old, new, new)
    [change] = store.fact_changes("t1", [old])
    assert change.action == "superseded" and change.before == {"value": "dev"}
    assert store.fact_changes("t2", [old]) == []
    store.mention("t1", new, 0.99)
    assert store.fact("t1", new).mention_count == 2 and store.fact("t1", new).confidence == 0.99
    assert [f.id for f in store.facts_in_slot("t1", "project:x", "raj", "role")] == [new]
    with pytest.raises(NotFound):
        store.fact("t2", new)


def test_a_mention_dates_the_fact_by_its_newest_statement(store: Store) -> None:
    said = _fact(store, "project:x", "Raj is the architect", slot="role")
    assert store.fact("t1", said).last_stated == T0
    store.mention("t1", said, 0.9, T0 + timedelta(days=3))
    store.mention("t1", said, 0.9, T0 + timedelta(days=1))  # an older import: no change
    store.mention("t1", said, 0.9)  # no event time: no change
    fact = store.fact("t1", said)
    assert fact.last_stated == T0 + timedelta(days=3) and fact.mention_count == 4


def test_pinned_facts_filter_in_the_store(store: Store) -> None:
    keep = _fact(store, "s:a", "kept", category=FactCategory.ROLE, confidence=0.95)
    _fact(store, "s:a", "too unsure", confidence=0.2)
    _fact(store, "s:a", "shared one", visibility=Visibility.SHARED)
    _fact(store, "s:a", "a date", category=FactCategory.DATE)
    pinned = store.pinned_facts(
        "t1",
        "s:a",
        visibilities=(Visibility.PRIVATE,),
        min_confidence=0.5,
        skip_categories=("date",),
        skip_sources=("jira.issue",),
    )
    assert [f.id for f in pinned] == [keep]


def test_summaries_keep_their_order_kind_and_record(store: Store) -> None:
    store.ensure_stream("t1", "s:a")
    for day in (3, 1, 2):
        store.insert_summary(
            NewSummary(
                tenant="t1",
                stream="s:a",
                kind=SummaryKind.SESSION,
                text=f"day {day}",
                tokens=2,
                period_start=T0,
                period_end=T0 + timedelta(days=day),
                item_count=4,
                parents=(1, 2),
                record={"intent": "plan"},
            )
        )
    sessions = store.summaries("t1", "s:a", SummaryKind.SESSION)
    assert [s.text for s in sessions] == ["day 1", "day 2", "day 3"]
    assert sessions[0].parents == (1, 2) and sessions[0].record == {"intent": "plan"}
    later = store.summaries("t1", "s:a", ending_after=T0 + timedelta(days=1, hours=1))
    assert [s.text for s in later] == ["day 2", "day 3"]
    store.set_summary_kind("t1", sessions[0].id, SummaryKind.ACTIVE)
    assert store.active_summary("t1", "s:a").text == "day 1"


def _record(external_id: str, text: str, author: str = "Priya", **extra) -> NewRecord:
    return NewRecord(
        tenant="t1",
        stream="project:a",
        source="slack",
        channel="general",
        external_id=external_id,
        author=author,
        text=text,
        kind="message",
        at=T0 + timedelta(minutes=int(external_id)),
        route_method="channel",
        route_confidence=1.0,
        visibility=Visibility.SHARED,
        tokens=3,
        data={"user_id": "U1"},
        **extra,
    )


def test_records_are_stored_once_with_cross_references(store: Store) -> None:
    first = store.insert_records(
        [
            _record("1", "hello"),
            _record("2", "ALPHA-1 blocked", also_in=("project:b",), entities=("person:priya",)),
        ]
    )
    again = store.insert_records([_record("1", "hello"), _record("3", "third")])
    assert None not in first and again[0] is None and again[1] is not None
    assert [r.text for r in store.records("t1", "project:a")] == [
        "hello",
        "ALPHA-1 blocked",
        "third",
    ]
    assert [r.text for r in store.records("t1", "project:b")] == ["ALPHA-1 blocked"]
    assert [r.text for r in store.records("t1", "project:a", last=1)] == ["third"]
    assert store.record("t1", first[1]).also_in == ("project:b",)
    assert store.record("t1", first[0]).author_id == "U1"
    assert store.count_unprocessed("t1", "project:a") == 3
    store.mark_processed("t1", first)
    assert [r.text for r in store.unprocessed_records("t1", "project:a", 10)] == ["third"]
    [event] = store.timeline(
        "t1", "person:priya", subject=None, limit=10, visibilities=[Visibility.SHARED]
    )
    assert event.text == "Priya: ALPHA-1 blocked" and event.at == T0 + timedelta(minutes=2)
    assert store.linked_record_streams("t1", ["project:b"]) == ["project:a"]


def test_full_text_finds_stems_and_the_turn_before(store: Store) -> None:
    question = _turn(store, "chat:a", "How are your pets doing?")
    answer = _turn(store, "chat:a", "Bailey is great, thanks.", minutes=1)
    _turn(store, "chat:a", "I was painting all weekend.", minutes=2)
    _turn(store, "chat:b", "pets pets pets", tenant="t2")
    where = ItemFilter(tenant="t1")
    found = dict(store.fts_ids("turn", ["pets"], where, 10))
    # The answer is found through the question before it, below the question itself.
    assert set(found) == {question, answer} and found[question] > found[answer]
    assert [i for i, _ in store.fts_ids("turn", ["painted"], where, 10)] == [answer + 1]
    fact = _fact(store, "chat:a", "Raj leads the (auth) rewrite")
    assert [i for i, _ in store.fts_ids("fact", ['"auth"', "rewrite"], where, 10)] == [fact]
    narrowed = ItemFilter(tenant="t1", streams=("chat:other",))
    assert store.fts_ids("turn", ["pets"], narrowed, 10) == []
    assert store.passing("turn", narrowed, [question]) == set()
    assert store.passing("turn", where, [question, 999_999]) == {question}
    [item] = store.items("turn", "t1", [question])
    assert item.text == "How are your pets doing?\nok" and item.source.id == str(question)
    assert store.items("turn", "t2", [question]) == []


def test_rare_words_are_counted_in_the_streams_own_words(store: Store) -> None:
    _turn(store, "chat:a", "Priya goes to Belnov Dental for cleanings now.")
    _turn(store, "chat:a", "Priya hates the dentist.", minutes=1)  # Belnov is its turn before
    _turn(store, "chat:a", "The dentist was late again.", minutes=2)
    _turn(store, "chat:b", "Zorvik Zorvik, Belnov too.")
    _turn(store, "chat:a", "Belnov Dental called about Zorvik.", tenant="t2")
    where = ItemFilter(tenant="t1", streams=("chat:a",))
    asked = ["belnov", "dentists", "priya", "zorvik", "cleanings", "unsaid"]
    # Stemmed as the index reads words; a word no turn of the stream says is not rare.
    assert store.rare_words(where, asked, most=1) == {"belnov", "cleanings"}
    assert store.rare_words(where, asked, most=2) == {"belnov", "cleanings", "dentists", "priya"}
    everywhere = ItemFilter(tenant="t1")
    assert store.rare_words(everywhere, ["zorvik", "belnov"], most=2) == {"zorvik", "belnov"}
    assert store.rare_words(everywhere, ["belnov"], most=1) == set()
    # The index's own syntax in a word is plain text; blanks and no words ask nothing.
    odd = ['"', "AND", "NEAR(", "o'brien", "*", "", "   ", "belnov OR priya"]
    assert store.rare_words(where, odd, most=5) == set()
    assert store.rare_words(where, [], most=5) == set()
    assert store.rare_words(where, ["belnov"], most=0) == set()


def test_rare_words_add_up_the_turns_and_the_records(store: Store) -> None:
    _turn(store, "project:a", "The Quorvin gateway is slow.")
    _turn(store, "project:a", "Kestal gateway again.", minutes=1)
    store.insert_records([_record("1", "Quorvin is back"), _record("2", "Belnov is new")])
    where = ItemFilter(tenant="t1", streams=("project:a",))
    asked = ["quorvin", "gateway", "belnov", "kestal"]
    assert store.rare_words(where, asked, most=1) == {"belnov", "kestal"}
    assert store.rare_words(where, asked, most=2) == {"belnov", "kestal", "quorvin", "gateway"}


def test_what_other_tenants_and_streams_say_leaves_a_word_rare(store: Store) -> None:
    _turn(store, "chat:a", "Priya goes to Belnov Dental now.")
    _turn(store, "chat:a", "The dentist was late again.", minutes=1)
    for n in range(40):  # more than a file-wide glance reads: each must be counted within
        _turn(store, "chat:a", f"Quorra said hi, number {n}.", minutes=2 + n)
        _turn(store, "chat:b", f"Belnov again, number {n}.", minutes=n)
        _turn(store, "chat:a", f"Belnov and Dental, number {n}.", minutes=n, tenant="t2")
    where = ItemFilter(tenant="t1", streams=("chat:a",))
    asked = ["belnov", "dental", "quorra"]
    assert store.rare_words(where, asked, most=2) == {"belnov", "dental"}
    assert store.rare_words(ItemFilter(tenant="t1"), asked, most=2) == {"dental"}
    assert store.rare_words(ItemFilter(tenant="t2"), asked, most=2) == set()


def test_vectors_round_trip_bit_for_bit(store: Store) -> None:
    turn = _turn(store, "chat:a", "hello there")
    assert store.unembedded("t1", "chat:a", 10) == [("turn", turn, "hello there\nok")]
    vector = np.random.default_rng(1).standard_normal(384).astype(np.float32)
    store.put_vectors("t1", "chat:a", "minilm", [("turn", turn, vector.tobytes(), 384)])
    [(_, item, stream, blob)] = store.vectors("turn", "t1", ["chat:a"])
    assert (item, stream) == (turn, "chat:a") and blob == vector.tobytes()
    assert store.vector_models() == [("minilm", 384)] and store.count_unembedded() == 0
    assert store.vectors("turn", "t2", None) == []
    assert store.drop_vectors() == 1 and store.unembedded("t1", "chat:a", 10) != []


def test_only_active_facts_wait_for_a_vector(store: Store) -> None:
    old = _fact(store, "project:x", "Raj is a developer", slot="role")
    new = _fact(store, "project:x", "Raj is the architect", slot="role", supersedes=old)
    dropped = _fact(store, "project:x", "Raj likes tea", slot="drink")
    store.set_fact_status("t1", old, FactStatus.SUPERSEDED, superseded_by=new)
    store.set_fact_status("t1", dropped, FactStatus.RETRACTED)
    assert store.unembedded("t1", "project:x", 10) == [("fact", new, "Raj is the architect")]
    assert store.count_unembedded_in("t1", "project:x") == store.count_unembedded() == 1
    vector = np.ones(8, dtype=np.float32).tobytes()
    store.put_vectors("t1", "project:x", "m", [("fact", new, vector, 8)])
    assert store.count_unembedded_in("t1", "project:x") == store.count_unembedded() == 0
    # A vector made before the fact was superseded stays, and is not counted as owed.
    store.set_fact_status("t1", new, FactStatus.SUPERSEDED)
    assert [item for _, item, _, _ in store.vectors("fact", "t1", ["project:x"])] == [new]
    assert store.unembedded("t1", "project:x", 10) == [] and store.count_unembedded() == 0


def test_one_stream_is_leased_to_one_worker_at_a_time(stores: Callable[[], Store]) -> None:
    first, second = stores(), stores()
    job = first.enqueue("t1", "chat:a", "summarize", {"n": 1})
    second.enqueue("t1", "chat:b", "extract", {})
    assert first.claim_stream("w1", 30) == ("t1", "chat:a")
    # The other process skips the leased stream and takes the next one.
    assert second.claim_stream("w2", 30) == ("t1", "chat:b")
    assert second.claim_stream("w3", 30) is None
    assert second.next_job("t1", "chat:a").payload == {"n": 1}
    first.finish_job(job)
    assert first.next_job("t1", "chat:a") is None
    assert [j.status for j in second.jobs("t1")] == ["done", "pending"]


def test_a_dead_workers_lease_runs_out(stores: Callable[[], Store]) -> None:
    first, second = stores(), stores()
    first.enqueue("t1", "chat:a", "summarize", {})
    assert first.claim_stream("dead", 0.2) == ("t1", "chat:a")
    assert second.claim_stream("alive", 30) is None
    time.sleep(0.3)
    assert second.claim_stream("alive", 30) == ("t1", "chat:a")
    assert not first.renew_lease("t1", "chat:a", "dead", 30)
    assert second.renew_lease("t1", "chat:a", "alive", 30)


def test_failed_jobs_back_off_and_retry(store: Store) -> None:
    job = store.enqueue("t1", "chat:a", "extract", {})
    store.fail_job(job, "model down", retry_in=60)
    assert store.next_job("t1", "chat:a") is None
    store.fail_job(job, "model down", retry_in=None)
    [failed] = store.jobs(status="failed")
    assert failed.attempts == 2 and failed.last_error == "model down"
    assert store.retry_failed("t1") == 1 and store.next_job("t1", "chat:a").id == job
    store.schedule("t1", "chat:a", "digest", time.time() + 60)
    store.schedule("t1", "chat:a", "digest", time.time() + 120)
    assert store.has_pending("t1", "chat:a", "digest")
    assert sum(j.kind == "digest" for j in store.jobs("t1")) == 1


def test_a_named_lease_is_handed_over_once(stores: Callable[[], Store]) -> None:
    first, second = stores(), stores()
    assert first.lease_holder("routes:t1") is None
    assert first.claim_lease("routes:t1", "dead", 600)
    assert second.lease_holder("routes:t1") == "dead"
    assert second.take_lease("routes:t1", "dead", "heir", 600)
    assert not first.take_lease("routes:t1", "dead", "rival", 600)  # taken already
    assert first.lease_holder("routes:t1") == "heir"
    assert not first.extend_lease("routes:t1", "dead", 600)
    assert second.extend_lease("routes:t1", "heir", 600)


def test_named_leases_and_imports(stores: Callable[[], Store]) -> None:
    first, second = stores(), stores()
    assert first.claim_lease("maintenance", "a", 30)
    assert not second.claim_lease("maintenance", "b", 30)
    assert first.extend_lease("maintenance", "a", 30) and not second.extend_lease(
        "maintenance", "b", 30
    )
    first.release_lease("maintenance", "a")
    assert second.claim_lease("maintenance", "b", 30)
    first.insert_import("t1", "imp-1", "slack", owner="gone")
    first.insert_import("t1", "imp-2", "jira")
    assert second.import_job("t1", "imp-1").status == "queued"
    assert second.import_job("t2", "imp-1") is None
    assert second.fail_orphaned_imports("process died") == 1
    assert second.import_job("t1", "imp-1").error == "process died"
    assert second.count_unfinished_imports() == 1
    second.set_import_status("imp-2", "done")
    assert second.prune_imports(keep=1) == 1


def test_an_imports_progress_is_seen_by_every_process(stores: Callable[[], Store]) -> None:
    first, second = stores(), stores()
    first.insert_import("t1", "imp-1", "slack")
    assert second.import_job("t1", "imp-1").progress is None
    first.set_import_progress("imp-1", ImportProgress(step="reading", done=3, total=40))
    seen = second.import_job("t1", "imp-1").progress
    assert seen == ImportProgress(step="reading", done=3, total=40) and seen.percent == 7
    first.set_import_progress("imp-1", ImportProgress(step="reading", done=9))
    assert second.import_job("t1", "imp-1").progress.percent is None  # size not known
    first.insert_import("t1", "imp-2", "jira")
    first.insert_import("t2", "imp-3", "jira")
    assert [j.id for j in second.recent_imports("t1", 5)] == ["imp-2", "imp-1"]
    assert [j.id for j in second.recent_imports("t1", 1)] == ["imp-2"]


def test_a_key_revoked_in_one_process_is_refused_by_another(
    stores: Callable[[], Store],
) -> None:
    first, second = stores(), stores()
    key = first.insert_api_key("t1", "inner", "bot", "hash-1")
    assert second.api_key("hash-1").id == key
    assert second.revoke_api_key(key) and not second.revoke_api_key(key)
    assert first.api_key("hash-1") is None
    assert [k.revoked for k in first.api_keys("t1")] == [True]


def test_entities_and_their_aliases(store: Store) -> None:
    store.add_entity("t1", "person", "lena ortiz", "Lena Ortiz", ["lena"])
    store.add_entity("t1", "person", "lena park", "Lena Park", ["lena"])
    assert store.entities_named("t1", "lena") == ["lena ortiz", "lena park"]
    assert store.entities_named("t2", "lena") == []
    store.delete_entity("t1", "lena park")
    assert store.entity_aliases("t1", "lena ortiz") == ["lena", "lena ortiz"]


def test_erasure_takes_items_and_what_is_derived(store: Store) -> None:
    kept = _turn(store, "chat:a", "Lunch is at noon.", speaker="Raj")
    gone = _turn(store, "chat:a", "Caroline adopted a greyhound.", minutes=1)
    after = _turn(store, "chat:a", "That is lovely.", minutes=2)
    fact = _fact(store, "chat:a", "Caroline has a greyhound")
    blob = np.ones(8, np.float32).tobytes()
    store.put_vectors("t1", "chat:a", "m", [("turn", gone, blob, 8), ("fact", fact, blob, 8)])
    ids = store.erasable_ids("t1", speakers=["caroline"], fact_ids=[fact])
    assert ids.turns == [gone] and ids.facts == [fact] and ids.streams == ["chat:a"]
    with store.transaction():
        store.erase_items("t1", ids)
        store.note_erasure("t1", {"person": "caroline"}, {"turns": 1}, ids.streams)
    assert [t.id for t in store.turns("t1", "chat:a")] == [kept, after]
    assert store.vectors("turn", "t1", None) == [] and store.vectors("fact", "t1", None) == []
    # The next turn was indexed with the erased one's words; it is not found by them now.
    assert store.fts_ids("turn", ["greyhound"], ItemFilter(tenant="t1"), 10) == []
    assert store.stream_state("t1", "chat:a").erasures == 1
    assert store.erasures("t1")[0]["removed"] == {"turns": 1}


def test_reads_of_turns_follow_new_turns_and_erasures(store: Store) -> None:
    """A store may keep what it read of turns while turns are only added (SQLite does: a
    turn's row never changes); what it answers is always what the file holds now."""
    where = ItemFilter(tenant="t1", streams=("chat:a",))
    about = ItemFilter(tenant="t1", streams=("chat:a",), about=("caroline",))
    words = ["caroline", "greyhound", "kayak"]
    first = _turn(store, "chat:a", "Caroline adopted a greyhound.")
    assert store.passing("turn", where, [first]) == {first}
    assert [i.id for i in store.items("turn", "t1", [first])] == [first]
    assert store.named_candidates("turn", about, 100) == [first]
    assert store.rare_words(where, words, most=1) == {"caroline", "greyhound"}
    later = _turn(store, "chat:a", "Caroline bought a kayak.", minutes=1)
    assert store.passing("turn", where, [first, later]) == {first, later}
    assert store.named_candidates("turn", about, 100) == [later, first]
    assert store.rare_words(where, words, most=1) == {"greyhound", "kayak"}
    _turn(store, "chat:b", "A greyhound elsewhere.", minutes=2)  # another stream's
    assert store.rare_words(where, words, most=1) == {"greyhound", "kayak"}
    with store.transaction():
        store.erase_items("t1", ErasedIds(turns=[first], streams=["chat:a"]))
        store.note_erasure("t1", {"turn": first}, {"turns": 1}, ["chat:a"])
    assert store.passing("turn", where, [first, later]) == {later}
    assert store.items("turn", "t1", [first]) == []
    assert store.named_candidates("turn", about, 100) == [later]


def test_a_rolled_back_transaction_leaves_nothing(store: Store) -> None:
    with pytest.raises(RuntimeError), store.transaction():
        _turn(store, "chat:a", "never kept")
        raise RuntimeError("abort")
    assert not store.in_transaction
    assert store.turns("t1", "chat:a") == [] and not store.stream_state("t1", "chat:a").exists
    _turn(store, "chat:a", "kept")
    assert [t.seq for t in store.turns("t1", "chat:a")] == [1]


def test_memory_end_to_end_on_each_backend(backend_db: Callable[[], str | Path]) -> None:
    location = backend_db()
    settings = load_settings(session_turns=2)
    with Memory.open(location, settings=settings, background_worker=False) as mem:
        mem.add_turn("project:alpha", "Raj is a Junior Developer.", "Noted.")
        mem.add_turn("project:alpha", "No, Raj is the Lead Architect.", "Thanks.")
        mem.process_pending()
        [raj] = [f for f in mem.facts("project:alpha") if "Raj" in f.text]
        assert "Lead Architect" in raj.text
        history = mem.fact_history(raj.id)
        assert [f.text for f in history.chain][-1] == raj.text and history.changes
        hits = mem.search("who is the lead architect", stream="project:alpha")
        assert hits and "Lead Architect" in hits[0].text
    # Reopened, as another process would: everything is there.
    with Memory.open(location, settings=settings, background_worker=False) as mem:
        context = mem.context("project:alpha", "Who leads architecture?", budget=2000)
        assert "Raj is the Lead Architect" in context.text
        assert mem.summaries("project:alpha", kind="session")


def test_vector_search_finds_the_nearest_that_pass_the_filter(store: Store) -> None:
    rng = np.random.default_rng(3)
    base = rng.standard_normal(64).astype(np.float32)
    near = base + 0.1 * rng.standard_normal(64).astype(np.float32)
    far = rng.standard_normal(64).astype(np.float32)
    ids = {
        name: _turn(store, stream, name, visibility=visibility)
        for name, stream, visibility in (
            ("near", "chat:a", Visibility.PRIVATE),
            ("far", "chat:a", Visibility.PRIVATE),
            ("nearest but shared", "chat:a", Visibility.SHARED),
            ("nearest elsewhere", "chat:b", Visibility.PRIVATE),
        )
    }
    vectors = {"near": near, "far": far, "nearest but shared": base, "nearest elsewhere": base}
    for name, vector in vectors.items():
        stream = "chat:b" if name == "nearest elsewhere" else "chat:a"
        store.put_vectors("t1", stream, "m", [("turn", ids[name], vector.tobytes(), 64)])
    index = store.vector_index()
    private = ItemFilter(tenant="t1", streams=("chat:a",), visibilities=(Visibility.PRIVATE,))
    found = index.search("turn", private, base, 10)
    assert [i for i, _ in found] == [ids["near"], ids["far"]]
    assert found[0][1] > 0.9 > found[1][1]
    everywhere = index.search("turn", ItemFilter(tenant="t1"), base, 2)
    assert {i for i, _ in everywhere} == {ids["nearest but shared"], ids["nearest elsewhere"]}
    assert index.search("turn", ItemFilter(tenant="t2"), base, 10) == []


def test_vector_search_leaves_out_what_is_under_the_similarity_floor(store: Store) -> None:
    rng = np.random.default_rng(5)
    base = rng.standard_normal(64).astype(np.float32)
    base /= np.linalg.norm(base)
    noise = rng.standard_normal((6, 64)).astype(np.float32)
    ids = []
    for n, weight in enumerate((0.05, 0.3, 0.8, 1.5, 3.0, 6.0)):
        vector = base + weight * noise[n] / np.linalg.norm(noise[n])
        vector /= np.linalg.norm(vector)  # embedders' vectors are unit length
        ids.append(_turn(store, "chat:a", f"turn {n}"))
        store.put_vectors("t1", "chat:a", "m", [("turn", ids[-1], vector.tobytes(), 64)])
    index = store.vector_index()
    where = ItemFilter(tenant="t1", streams=("chat:a",))
    every = index.search("turn", where, base, 10)
    assert len(every) == 6
    floor = (every[2][1] + every[3][1]) / 2
    assert index.search("turn", where, base, 10, min_similarity=floor) == every[:3]
    assert index.search("turn", where, base, 10, min_similarity=1.01) == []
    private_only = ItemFilter(tenant="t1", streams=("chat:a",), visibilities=(Visibility.SHARED,))
    assert index.search("turn", private_only, base, 10, min_similarity=floor) == []


def test_merging_the_text_index_changes_no_answer(store: Store) -> None:
    # Each turn is its own transaction, and so its own piece of a SQLite index.
    for n in range(40):
        _turn(store, "chat:a", f"kafka note {n} zebra{n % 5} shared words", minutes=n)
    where = ItemFilter(tenant="t1", streams=("chat:a",))
    asked = (["zebra3", "kafka"], ["shared"], ["note", "zebra1", "nothing"])
    before = [store.fts_ids("turn", terms, where, 10) for terms in asked]
    zebra3 = len(store.fts_ids("turn", ["zebra3"], where, 50))
    passes = 0
    while store.merge_text_index(20):
        passes += 1
        assert passes < 100, "merging never finishes"
    assert store.merge_text_index(20) == 0
    assert [store.fts_ids("turn", terms, where, 10) for terms in asked] == before
    _turn(store, "chat:a", "a zebra3 written after the merge", minutes=99)
    assert len(store.fts_ids("turn", ["zebra3"], where, 50)) == zebra3 + 1


def test_nul_characters_come_back_whole(store: Store) -> None:
    turn = _turn(store, "chat:a", "before\x00after zebra")
    fact = _fact(store, "chat:a", "a\x00b")
    assert store.turn("t1", turn).user == "before\x00after zebra"
    assert store.fact("t1", fact).text == "a\x00b"
    assert [i for i, _ in store.fts_ids("turn", ["zebra"], ItemFilter(tenant="t1"), 5)] == [turn]


def test_nul_characters_match_as_parameters_and_in_lists(store: Store) -> None:
    """A NUL in a parameter finds what was stored with it, alone or in a list, and rows
    written in a batch keep theirs."""
    fact = _fact(store, "chat:a", "x\x00y", slot="nick\x00name")
    assert [f.id for f in store.facts_holding("t1", "chat:a", "nick\x00name", "x\x00y")] == [fact]
    assert [f.id for f in store.facts_in_slot("t1", "chat:a", "raj", "nick\x00name")] == [fact]
    turn = _turn(store, "chat:a", "hello", speaker="ana\x00lee")
    assert store.erasable_ids("t1", speakers=["bo", "ana\x00lee"]).turns == [turn]
    made = [_record(str(n), f"note\x00{n}", author="Ana\x00Lee") for n in range(3)]
    store.ensure_stream("t1", "project:a")
    store.insert_records(made)
    assert [(r.author, r.text) for r in store.records("t1", "project:a")] == [
        ("Ana\x00Lee", f"note\x00{n}") for n in range(3)
    ]


def _summary(store: Store, stream: str, kind: SummaryKind, text: str, day: int | None) -> None:
    store.insert_summary(
        NewSummary(
            tenant="t1",
            stream=stream,
            kind=kind,
            text=text,
            tokens=2,
            period_start=T0,
            period_end=None if day is None else T0 + timedelta(days=day),
            item_count=1,
        )
    )


PINS = PinPolicy(
    visibilities=(Visibility.PRIVATE,),
    min_confidence=0.5,
    skip_categories=("date",),
    skip_sources=(),
)


def test_a_stream_view_holds_what_the_single_reads_give(store: Store) -> None:
    for n in range(12):
        _turn(store, "chat:a", f"turn {n}", minutes=n)
    _turn(store, "chat:a", "another tenant's", tenant="t2")
    old = _fact(store, "chat:a", "Raj is a developer", slot="role")
    new = _fact(store, "chat:a", "Raj is the architect", slot="role", supersedes=old)
    store.set_fact_status("t1", old, FactStatus.SUPERSEDED, superseded_by=new)
    _fact(store, "chat:a", "too unsure", confidence=0.2)
    _fact(store, "global", "Lena leads billing", category=FactCategory.ROLE)
    _fact(store, "global", "someone else's", tenant="t2")
    for kind, text, day in (
        (SummaryKind.ACTIVE, "the active one", 1),
        (SummaryKind.STRUCTURED, "newest counts", 5),
        (SummaryKind.STRUCTURED, "older counts", 2),
        (SummaryKind.STRUCTURED, "undated counts", None),
    ):
        _summary(store, "chat:a", kind, text, day)
    store.put_profile("t1", "person:raj", "person", "Raj", {})
    store.set_summarized_through("t1", "chat:a", 8)

    def view(window: TurnWindow, stream: str = "chat:a"):
        return store.stream_view(
            "t1", stream, window=window, pins=PINS, pinned_streams=[stream, "global"]
        )

    seen = view(TurnWindow(least=3, most=6))
    assert seen.state == store.stream_state("t1", "chat:a")
    # Four turns are not summarized yet: more than the least, within the most.
    assert seen.turns == store.turns("t1", "chat:a", last=4)
    assert seen.active_summary == store.active_summary("t1", "chat:a")
    assert seen.structured is not None and seen.structured.text == "newest counts"
    assert seen.structured == store.summaries("t1", "chat:a", SummaryKind.STRUCTURED)[-1]
    assert seen.superseded == store.superseded_facts("t1", "chat:a")
    assert [f.id for f in seen.pinned["chat:a"]] == [new]
    for name in ("chat:a", "global"):
        single = store.pinned_facts(
            "t1",
            name,
            visibilities=PINS.visibilities,
            min_confidence=PINS.min_confidence,
            skip_categories=PINS.skip_categories,
            skip_sources=PINS.skip_sources,
        )
        assert seen.pinned[name] == single
    assert [f.text for f in seen.pinned["global"]] == ["Lena leads billing"]
    assert seen.names.streams == store.streams("t1") == ["chat:a", "global"]
    assert seen.names.profiles == store.profile_names("t1") == [("person:raj", "person", "Raj")]

    assert [t.seq for t in view(TurnWindow(least=3, most=3)).turns] == [10, 11, 12]
    store.set_summarized_through("t1", "chat:a", 12)
    assert [t.seq for t in view(TurnWindow(least=2, most=6)).turns] == [11, 12]
    assert view(TurnWindow(least=0, most=0)).turns == []

    nowhere = view(TurnWindow(least=3, most=6), stream="chat:none")
    assert not nowhere.state.exists and nowhere.turns == []
    assert nowhere.active_summary is None and nowhere.structured is None
    assert nowhere.superseded == [] and nowhere.pinned["chat:none"] == []


def test_candidates_hold_what_the_single_searches_give(store: Store) -> None:
    rng = np.random.default_rng(11)
    base = rng.standard_normal(64).astype(np.float32)
    base /= np.linalg.norm(base)
    for n in range(30):
        turn = _turn(store, "chat:a", f"kafka note {n} zebra{n % 4}", minutes=60 * 24 * n)
        fact = _fact(store, "chat:a", f"zebra fact {n}")
        for kind, item in (("turn", turn), ("fact", fact)):
            vector = base + rng.uniform(0.1, 3.0) * rng.standard_normal(64).astype(np.float32)
            vector /= np.linalg.norm(vector)
            store.put_vectors("t1", "chat:a", "m", [(kind, item, vector.tobytes(), 64)])
    _turn(store, "chat:a", "kafka zebra1 of another tenant", tenant="t2")
    everything = ItemFilter(tenant="t1", streams=("chat:a",))
    week = everything.model_copy(
        update={"since": T0 + timedelta(days=7), "until": T0 + timedelta(days=14)}
    )
    # A probe may carry a query vector of its own (recall's question without a name).
    own = rng.standard_normal(64).astype(np.float32)
    own /= np.linalg.norm(own)
    probes = [
        Probe(where=everything, min_similarity=0.3),
        Probe(where=week, min_similarity=-1.0),
        Probe(where=everything, min_similarity=-1.0, vector=own),
    ]
    kinds = ("fact", "turn", "summary", "record")
    terms = ["zebra1", "kafka"]
    found = store.candidates("t1", kinds, terms, base, probes, 5)
    index = store.vector_index()
    keys = set()
    for position, probe in enumerate(probes):
        asked, walk = (base, None) if probe.vector is None else (probe.vector, base)
        for kind in kinds:
            text = store.fts_ids(kind, terms, probe.where, 5)
            floor = probe.min_similarity
            nearest = index.search(kind, probe.where, asked, 5, min_similarity=floor, walk=walk)
            assert found.text.get((position, kind), []) == text
            assert found.nearest.get((position, kind), []) == nearest
            keys |= {(kind, i) for i, _ in [*text, *nearest]}
    assert found.text[(0, "turn")] and found.nearest[(0, "fact")] and found.nearest[(1, "turn")]
    assert found.nearest[(2, "turn")] != found.nearest[(0, "turn")]
    assert set(found.rows) == keys
    for kind, item in keys:
        assert found.rows[(kind, item)] == tuple(store.ranking_rows(kind, "t1", [item])[0][1:])
    assert found.items(keys) == {
        (kind, item): store.items(kind, "t1", [item])[0] for kind, item in keys
    }
    assert found.items([("turn", 10**9)]) == {}

    nothing = store.candidates("t1", kinds, [], None, probes[:2], 5)
    assert (nothing.text, nothing.nearest, nothing.rows) == ({}, {}, {})
    with pytest.raises(ValueError, match="tenant"):
        store.candidates("t2", kinds, terms, base, probes, 5)


def test_a_probe_reads_its_vector_lists_to_its_own_depth(store: Store) -> None:
    """A probe's vector_depth sets how many nearest items its vector lists hold (recall
    reads a large stream's deeper); its full-text lists keep the search's limit."""
    rng = np.random.default_rng(5)
    base = rng.standard_normal(32).astype(np.float32)
    base /= np.linalg.norm(base)
    for n in range(40):
        turn = _turn(store, "chat:a", f"heron note {n}", minutes=n)
        vector = base + 0.5 * rng.standard_normal(32).astype(np.float32)
        vector /= np.linalg.norm(vector)
        store.put_vectors("t1", "chat:a", "m", [("turn", turn, vector.tobytes(), 32)])
    where = ItemFilter(tenant="t1", streams=("chat:a",))
    probes = [Probe(where=where), Probe(where=where, vector_depth=25)]
    found = store.candidates("t1", ("turn",), ["heron"], base, probes, 10)
    assert [len(found.text[(p, "turn")]) for p in (0, 1)] == [10, 10]
    assert [len(found.nearest[(p, "turn")]) for p in (0, 1)] == [10, 25]
    assert found.nearest[(1, "turn")][:10] == found.nearest[(0, "turn")]
    assert {("turn", i) for i, _ in found.nearest[(1, "turn")]} <= set(found.rows)
    for depth in (0, -3):
        with pytest.raises(ValueError, match="vector depth must be positive"):
            store.candidates(
                "t1", ("turn",), ["heron"], base, [Probe(where=where, vector_depth=depth)], 10
            )


def test_candidates_in_a_transaction_see_its_writes(store: Store) -> None:
    """A search made inside a write transaction finds the rows the transaction has not
    committed yet, of every kind (on PostgreSQL, all on the transaction's connection,
    though a search outside one spreads over several)."""
    everything = Probe(where=ItemFilter(tenant="t1", streams=("chat:a",)))
    with store.transaction():
        turn = _turn(store, "chat:a", "the walrus migration is done")
        fact = _fact(store, "chat:a", "walrus owns the migration")
        [record] = store.insert_records(
            [
                NewRecord(
                    tenant="t1",
                    stream="chat:a",
                    source="slack",
                    channel="general",
                    external_id="1",
                    author="Priya",
                    text="walrus rollout moved to Friday",
                    kind="message",
                    at=T0,
                    route_method="channel",
                    route_confidence=1.0,
                    visibility=Visibility.SHARED,
                    tokens=5,
                    data={},
                )
            ]
        )
        found = store.candidates(
            "t1", ("fact", "turn", "summary", "record"), ["walrus"], None, [everything], 5
        )
        assert [i for i, _ in found.text[(0, "turn")]] == [turn]
        assert [i for i, _ in found.text[(0, "fact")]] == [fact]
        assert [i for i, _ in found.text[(0, "record")]] == [record]
        assert set(found.items(found.rows)) == {("turn", turn), ("fact", fact), ("record", record)}


def test_an_event_is_taken_once_per_tenant_and_forgotten_later(store: Store) -> None:
    with store.transaction():
        assert store.first_delivery("t1", "slack", "Ev1", 1000.0)
    assert not store.first_delivery("t1", "slack", "Ev1", 1001.0)  # a retry
    assert store.first_delivery("t2", "slack", "Ev1", 1001.0)  # another tenant's
    assert store.first_delivery("t1", "drive", "Ev1", 1001.0)  # another source's
    assert store.prune_deliveries(1000.5) == 1
    assert store.first_delivery("t1", "slack", "Ev1", 2000.0)  # forgotten, so new again


def test_source_state_is_kept_by_name_and_prefix(store: Store) -> None:
    assert store.source_state("t1", "slack", "backfill:C1") is None
    store.set_source_state(
        "t1", "slack", {"backfill:C1": '{"cursor": "x"}', "user:U1": "Ann", "user:U2": "Raj"}
    )
    store.set_source_state("t2", "slack", {"user:U1": "someone else"})
    store.set_source_state("t1", "slack", {"user:U2": "Raj Patel", "user_%": "not a user"})
    assert store.source_state("t1", "slack", "backfill:C1") == '{"cursor": "x"}'
    assert store.source_states("t1", "slack", "user:") == {"user:U1": "Ann", "user:U2": "Raj Patel"}
    store.set_source_state("t1", "slack", {"backfill:C1": None})
    assert store.source_state("t1", "slack", "backfill:C1") is None
    assert store.source_states("t1", "drive", "") == {}


def test_a_record_is_found_by_its_source_id(store: Store) -> None:
    [stored] = store.insert_records([_record("7", "hello")])
    assert store.record_id("t1", "slack", "general", "7") == stored
    assert store.record_id("t1", "slack", "general", "8") is None
    assert store.record_id("t2", "slack", "general", "7") is None


def test_records_are_browsed_newest_first_with_filters(store: Store) -> None:
    from threefold.store.base import RecordBrowse

    said = [  # minutes, stream, channel, author, visibility
        (0, "project:a", "eng", "Ann", Visibility.SHARED),
        (1, "project:a", "eng", "bob", Visibility.PRIVATE),
        (1, "global", "general", "ann", Visibility.SHARED),  # as old as the one before
        (2, "global", "general", "Bob", Visibility.SHARED),
    ]
    ids = []
    with store.transaction():
        for n, (minutes, stream, channel, author, visibility) in enumerate(said):
            record = NewRecord(
                tenant="t1",
                stream=stream,
                source="slack",
                channel=channel,
                external_id=f"17000000{n}.000100",
                author=author,
                text=f"message {n}",
                kind="message",
                at=T0 + timedelta(minutes=minutes),
                route_method="channel",
                route_confidence=1.0,
                visibility=visibility,
                tokens=2,
            )
            ids.append(store.insert_record(record))

    def browsed(**given: object) -> list[str]:
        return [r.text for r in store.browse_records("t1", RecordBrowse(**given))]

    assert browsed() == ["message 3", "message 2", "message 1", "message 0"]
    assert browsed(limit=2) == ["message 3", "message 2"]
    assert browsed(limit=2, before_id=ids[2]) == ["message 1", "message 0"]
    assert browsed(author="ANN") == ["message 2", "message 0"]
    assert browsed(stream="project:a", channel="eng") == ["message 1", "message 0"]
    assert browsed(since=T0 + timedelta(minutes=1), until=T0 + timedelta(minutes=2)) == [
        "message 2",
        "message 1",
    ]
    assert browsed(visibilities=(Visibility.SHARED,)) == ["message 3", "message 2", "message 0"]
    assert browsed(source="web") == []
    assert store.browse_records("t2", RecordBrowse()) == []
