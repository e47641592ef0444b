"""Recall: hybrid search, filters, presets, safety with odd queries, and degradation."""

import logging
import sqlite3
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from tests.conftest import fact
from tests.scripted_model import ScriptedModel
from threefold import EmbeddingMismatch, InvalidInput, Memory
from threefold.embed import HashingEmbedder

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ALPHA = "project:alpha"


def facts_from(texts: dict[str, list]):
    return ScriptedModel(lambda turn: texts.get(turn.user, []))


@pytest.fixture
def filled(open_memory):
    deadline = fact(
        "alpha",
        "deadline",
        "2027-03-27",
        category="deadline",
        text="The Alpha deadline is March 27, 2027.",
    )
    mem = open_memory(facts_from({"deadline news": [deadline]}), session_turns=4)
    mem.add_turn(ALPHA, "deadline news", at=T0)
    lines = [
        "Priya set up the Kubernetes cluster for staging.",
        "The badge printer vendor is Acme Printing.",
        "Raj reviewed the database schema with Sam.",
        "We ordered pizza for the launch party.",
        "The staging cluster ran out of memory twice.",
    ]
    for i, text in enumerate(lines, start=1):
        mem.add_turn(ALPHA, text, "Noted.", at=T0 + timedelta(days=i))
    mem.add_turn("project:beta", "Beta also uses a Kubernetes cluster.", at=T0)
    mem.add_turn(ALPHA, "Acme Printing delivered the badges.", tenant="other", at=T0)
    mem.end_session(ALPHA)
    mem.process_pending()
    return mem


def test_hits_carry_provenance(filled):
    hits = filled.search("Who is the badge printer vendor?")
    top = hits[0]
    assert top.kind == "turn" and "Acme Printing" in top.text
    assert top.source.kind == "turn" and top.at == T0 + timedelta(days=2)
    assert top.signals["fts_rank"] == 1 and "vector_rank" in top.signals


def test_facts_turns_and_summaries_are_all_found(filled):
    hits = filled.search("deadline March", limit=20)
    kinds = {h.kind for h in hits} | {d.kind for h in hits for d in h.derived}
    assert {"fact", "turn"} <= kinds  # a fact read from a turn rides in the turn's hit
    assert "summary" in {h.kind for h in filled.search("Kubernetes cluster staging", limit=20)}


def test_filters_apply_before_ranking(filled):
    assert {h.stream for h in filled.search("Kubernetes cluster", stream=ALPHA)} == {ALPHA}
    assert {h.kind for h in filled.search("Kubernetes", kinds=["summary"])} == {"summary"}
    only_facts = filled.search("deadline", kinds=["fact"], categories=["deadline"])
    assert [h.kind for h in only_facts] == ["fact"]
    assert filled.search("deadline", kinds=["fact"], categories=["blocker"]) == []
    late = filled.search("cluster", kinds=["turn"], since=T0 + timedelta(days=4))
    assert [h.text.split("\n")[0] for h in late] == ["The staging cluster ran out of memory twice."]
    with_sam = filled.search("database schema", kinds=["turn"], people=["Sam"])
    assert len(with_sam) == 1 and "Sam" in with_sam[0].text


def test_a_name_filter_matches_its_characters_as_they_are(open_memory):
    """A name holding a wildcard or escape of the store's pattern language ('_', '%',
    a backslash) matches those characters only; case is folded as before."""
    mem = open_memory()
    for text in ("jo_ann booked the room.", "JOXANN booked the room.", "50% of the room."):
        mem.add_turn(ALPHA, text, "Noted.", at=T0)
    mem.add_turn(ALPHA, "A\\B booked the room.", "Noted.", at=T0)
    mem.process_pending()

    def named(name: str) -> list[str]:
        hits = mem.search("room", kinds=["turn"], people=[name], limit=10)
        return sorted(h.text.split("\n")[0] for h in hits)

    assert named("Jo_Ann") == ["jo_ann booked the room."]
    assert named("0%") == ["50% of the room."]
    assert named("a\\b") == ["A\\B booked the room."]
    assert named("joxann") == ["JOXANN booked the room."]


def test_another_tenant_is_never_seen(filled):
    hits = filled.search("Acme Printing badges", limit=50)
    assert all("delivered the badges" not in h.text for h in hits)
    theirs = filled.search("Acme Printing badges", tenant="other")
    assert [h.text.split("\n")[0] for h in theirs if h.kind == "turn"] == [
        "Acme Printing delivered the badges."
    ]


def test_presets_are_data(filled):
    assert {h.kind for h in filled.search("deadline", preset="facts_only")} == {"fact"}
    recent = filled.search("cluster", kinds=["turn"], preset="recent_first")
    assert recent[0].at == max(h.at for h in recent)
    with pytest.raises(InvalidInput, match="unknown preset"):
        filled.search("x", preset="fastest")


@pytest.mark.parametrize("k", [10, 20, 60])
def test_fusion_k_says_how_fast_a_lists_places_fall_not_what_recency_is_worth(
    filled, monkeypatch, k
):
    """recent_first's recency weight is absolute: at k=20 the fused lists outweighed it
    when each place counted 1 / (k + rank). A first place now counts the same at any k
    (rerank.place_score)."""
    from threefold.recall import presets

    for name, preset in presets.PRESETS.items():
        monkeypatch.setitem(presets.PRESETS, name, replace(preset, rrf_k=k))
    recent = filled.search("cluster", kinds=["turn"], preset="recent_first")
    assert recent[0].at == max(h.at for h in recent)
    assert "Acme Printing" in filled.search("Who is the badge printer vendor?")[0].text


@pytest.mark.parametrize(
    "query",
    [
        '"unbalanced',
        "NEAR(a b",
        "a* OR b*",
        "((((",
        ")",
        "AND OR NOT",
        "col:umn",
        "^start",
        "'; DROP TABLE turns; --",
        "!!!???...",
        "",
        "   ",
        "x" * 100_000,
        "deadline " * 20_000,
    ],
)
def test_any_query_is_safe(filled, query):
    hits = filled.search(query)
    assert isinstance(hits, list)
    assert filled.context(ALPHA, query, budget=500).tokens <= 500


def test_search_on_an_empty_memory(open_memory):
    mem = open_memory(ScriptedModel())
    assert mem.search("anything at all") == []


def test_without_an_embedder_search_is_full_text(open_memory, tmp_path):
    mem = Memory.open(
        tmp_path / "plain.db", model=ScriptedModel(), embedder=None, background_worker=False
    )
    try:
        mem.add_turn(ALPHA, "The vendor is Acme Printing.")
        mem.process_pending()
        (hit,) = mem.search("Acme vendor")
        assert "vector_rank" not in hit.signals
        assert not mem.store.jobs(status="pending")  # no embedding work was queued
    finally:
        mem.close()


class BrokenEmbedder(HashingEmbedder):
    """Embeds items fine, then fails for queries, as a flaky remote service might."""

    def __init__(self) -> None:
        super().__init__()
        self.broken = False

    def embed(self, texts):
        if self.broken:
            raise RuntimeError("embedding service down")
        return super().embed(texts)


def test_a_failing_embedder_makes_that_query_full_text(tmp_path, caplog):
    embedder = BrokenEmbedder()
    mem = Memory.open(
        tmp_path / "m.db", model=ScriptedModel(), embedder=embedder, background_worker=False
    )
    try:
        mem.add_turn(ALPHA, "The vendor is Acme Printing.")
        mem.process_pending()
        embedder.broken = True
        with caplog.at_level(logging.WARNING, logger="threefold.recall.search"):
            (hit,) = mem.search("Acme vendor")
        assert "vector_rank" not in hit.signals
        assert "full-text only" in caplog.text
    finally:
        mem.close()


class CountingEmbedder(HashingEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[list[str]] = []

    def embed(self, texts):
        self.calls.append(list(texts))
        return super().embed(texts)


def test_a_prepared_query_is_embedded_once(tmp_path):
    embedder = CountingEmbedder()
    with Memory.open(
        tmp_path / "m.db", model=ScriptedModel(), embedder=embedder, background_worker=False
    ) as mem:
        mem.add_turn(ALPHA, "The vendor is Acme Printing.")
        mem.process_pending()
        embedder.calls.clear()
        mem.prepare_query("Acme vendor")
        (hit,) = mem.search("Acme vendor")
        mem.context(ALPHA, "Acme vendor", budget=500)
        assert embedder.calls == [["Acme vendor"]]
        assert "vector_rank" in hit.signals


def test_a_prepared_question_naming_someone_needs_no_model_call_to_answer(tmp_path):
    embedder = CountingEmbedder()
    with Memory.open(
        tmp_path / "m.db", model=ScriptedModel(), embedder=embedder, background_worker=False
    ) as mem:
        mem.add_turn(ALPHA, "I go to Belnov Dental for teeth cleaning now.", speaker="Priya")
        mem.process_pending()
        embedder.calls.clear()
        question = "Where does Priya go for teeth cleaning?"
        mem.prepare_query(question)
        hits = mem.search(question, ALPHA)
        mem.context(ALPHA, question, budget=500)
        # The person's items are ranked by the question without the name: embedded too.
        assert embedder.calls == [[question, "Where does go for teeth cleaning?"]]
        assert "Belnov" in hits[0].text


def test_a_failed_query_embedding_is_not_remembered(tmp_path, caplog):
    embedder = BrokenEmbedder()
    with Memory.open(
        tmp_path / "m.db", model=ScriptedModel(), embedder=embedder, background_worker=False
    ) as mem:
        mem.add_turn(ALPHA, "The vendor is Acme Printing.")
        mem.process_pending()
        embedder.broken = True
        with caplog.at_level(logging.WARNING, logger="threefold.recall.search"):
            mem.prepare_query("Acme vendor")  # logged, never raised
        assert "full-text only" in caplog.text
        embedder.broken = False
        (hit,) = mem.search("Acme vendor")
        assert "vector_rank" in hit.signals


def test_vectors_from_another_model_are_refused_until_reembedded(tmp_path):
    path = tmp_path / "m.db"
    with Memory.open(
        path, model=ScriptedModel(), embedder=HashingEmbedder(256), background_worker=False
    ) as mem:
        mem.add_turn(ALPHA, "The vendor is Acme Printing.")
        mem.process_pending()
    with pytest.raises(EmbeddingMismatch, match="threefold reembed"):
        Memory.open(
            path, model=ScriptedModel(), embedder=HashingEmbedder(128), background_worker=False
        )
    with Memory.open(
        path,
        model=ScriptedModel(),
        embedder=HashingEmbedder(128),
        background_worker=False,
        check_vectors=False,
    ) as mem:
        seen = []
        assert mem.reembed(lambda done, total: seen.append((done, total))) >= 1
        assert seen[-1][0] == seen[-1][1]
    with Memory.open(
        path, model=ScriptedModel(), embedder=HashingEmbedder(128), background_worker=False
    ) as mem:
        (hit,) = mem.search("Acme vendor", kinds=["turn"])
        assert hit.signals["similarity"] > 0.3


def test_stored_vectors_are_float32_with_their_model(filled):
    rows = filled.store.vectors("turn", filled.tenant, [ALPHA])
    assert rows and all(len(blob) == 4 * 256 for _, _, _, blob in rows)
    assert filled.store.vector_models() == [("hashing-256", 256)]
    vector = np.frombuffer(rows[0][3], dtype=np.float32)
    assert abs(float(np.linalg.norm(vector)) - 1.0) < 1e-5


def test_the_memory_index_lists_recent_items_then_relevant_ones(open_memory):
    mem = open_memory(
        ScriptedModel(), index_budget=200, index_recent_days=2, recent_turns=1, session_turns=2
    )
    mem.add_turn(ALPHA, "Old note: the vendor is Acme Printing.", at=T0)
    for day in range(10, 13):
        mem.add_turn(ALPHA, f"Status on day {day}: all green.", at=T0 + timedelta(days=day))
    mem.process_pending()
    ctx = mem.context(ALPHA, "Which vendor prints?", budget=2000)
    index = ctx.section("memory_index")
    lines = [i.text for i in index.items]
    # Day 12 is the recent turn itself; the index covers what the context does not show.
    assert any("day 11" in line for line in lines) and any("Acme" in line for line in lines)
    assert not any("turn 4:" in line for line in lines)
    assert all(len(line) < 140 for line in lines)
    assert sum(i.tokens + 1 for i in index.items) <= 200
    assert mem.context(ALPHA, "Which vendor?", budget=2000).sections  # default stays usable


def test_no_index_by_default(filled):
    names = [s.name for s in filled.context(ALPHA, "vendor", budget=2000).sections]
    assert "memory_index" not in names


@pytest.fixture
def keywords(tmp_path):
    """A memory searched by full text alone, so a test sees only the FTS ranking."""
    mem = Memory.open(
        tmp_path / "words.db", model=ScriptedModel(), embedder=None, background_worker=False
    )
    yield mem
    mem.close()


def turn_texts(mem, query):
    return [h.text.split("\n")[0] for h in mem.search(query, kinds=["turn"], preset="keywords")]


def test_words_match_by_their_stem(keywords):
    keywords.add_turn(ALPHA, "Melanie showed us the paintings she finished.")
    assert turn_texts(keywords, "What was painted?") == [
        "Melanie showed us the paintings she finished."
    ]


def test_a_reply_is_found_through_the_turn_before_it(keywords):
    keywords.add_turn(ALPHA, "How are your pets doing?")
    keywords.add_turn(ALPHA, "Great, and we got another one named Bailey.")
    keywords.add_turn(ALPHA, "Lunch was good.")
    found = turn_texts(keywords, "pets")
    # The turn that says it comes first; the reply that answers it follows.
    assert found == ["How are your pets doing?", "Great, and we got another one named Bailey."]


def test_a_turn_is_not_found_through_the_turn_after_it(keywords):
    keywords.add_turn(ALPHA, "Lunch was good.")
    keywords.add_turn(ALPHA, "The badge printer is from Acme.")
    assert turn_texts(keywords, "Acme badge printer") == ["The badge printer is from Acme."]


def test_turns_stored_before_the_context_index_are_indexed_with_context(tmp_path):
    from threefold.store.sqlite.migrations import MIGRATIONS

    path = tmp_path / "old.db"
    old = sqlite3.connect(path)
    before = MIGRATIONS[: [name for name, _ in MIGRATIONS].index("0007_turn_context")]
    for _, sql in before:
        old.executescript(sql)
    old.execute("CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT)")
    applied = [(name,) for name, _ in before]
    old.executemany("INSERT INTO schema_migrations VALUES (?, '')", applied)
    old.execute(
        "INSERT INTO streams (tenant, name, created_at) VALUES ('default', ?, '')", (ALPHA,)
    )
    for seq, text in enumerate(["How are your pets doing?", "We got a cat named Bailey."], 1):
        old.execute(
            "INSERT INTO turns (tenant, stream, seq, user_text, assistant_text, at, source,"
            " tokens, recorded_at) VALUES ('default', ?, ?, ?, '', ?, 'api', 5, '')",
            (ALPHA, seq, text, (T0 + timedelta(minutes=seq)).isoformat()),
        )
    old.commit()
    old.close()
    mem = Memory.open(path, model=ScriptedModel(), embedder=None, background_worker=False)
    try:
        assert turn_texts(mem, "pets") == ["How are your pets doing?", "We got a cat named Bailey."]
    finally:
        mem.close()


def test_a_named_day_brings_that_day_first(keywords):
    add_may_days(keywords)
    anytime = turn_texts(keywords, "What film did Joanna watch?")
    assert anytime[0] == "Joanna watched a film about films."
    on_the_day = turn_texts(keywords, "What film did Joanna watch on 1 May, 2022?")
    assert on_the_day[0] == "Joanna saw Lord of the Rings with her brother."


def test_every_item_of_a_named_day_is_a_candidate(open_memory):
    mem = open_memory(ScriptedModel())
    add_may_days(mem)
    # No word of the question is in the turn, and its vector may be far from the question's.
    hits = mem.search("What happened on May 20, 2022?", kinds=["turn"])
    assert hits[0].text.startswith("Joanna baked a strawberry cake.")


def add_may_days(mem):
    for day, text in (
        (1, "Joanna saw Lord of the Rings with her brother."),
        (9, "Joanna watched a film about films."),
        (20, "Joanna baked a strawberry cake."),
    ):
        mem.add_turn(ALPHA, text, at=datetime(2022, 5, day, 18, tzinfo=UTC))
    mem.process_pending()


def test_a_named_day_never_widens_a_time_filter(keywords):
    keywords.add_turn(ALPHA, "Kickoff notes.", at=datetime(2022, 5, 1, 9, tzinfo=UTC))
    keywords.add_turn(ALPHA, "Retro notes.", at=datetime(2022, 6, 1, 9, tzinfo=UTC))
    late = keywords.search(
        "notes from 1 May 2022",
        kinds=["turn"],
        preset="keywords",
        since=datetime(2022, 5, 15, tzinfo=UTC),
    )
    assert [h.text.split("\n")[0] for h in late] == ["Retro notes."]


@pytest.mark.parametrize("limit", [45, 150])
def test_a_large_limit_is_filled_from_deeper_lists(open_memory, limit):
    mem = open_memory(ScriptedModel(), recent_turns=2, session_turns=50)
    for i in range(180):
        mem.add_turn(ALPHA, f"badge order {i} shipped", at=T0 + timedelta(minutes=i))
    mem.process_pending()
    assert len(mem.search("badge order", kinds=["turn"], limit=limit)) == limit


def test_a_context_searches_once_though_its_lists_fall_short(open_memory, monkeypatch):
    # A context takes what fits its budget: deeper lists, read to make up a number of
    # hits, would be a second search on every such question.
    mem = open_memory(ScriptedModel(), recent_turns=2, session_turns=50)
    for i in range(180):
        mem.add_turn(ALPHA, f"badge order {i} shipped", at=T0 + timedelta(minutes=i))
    mem.process_pending()
    searches = []
    search = mem.store.candidates
    monkeypatch.setattr(mem.store, "candidates", lambda *a: searches.append(a) or search(*a))
    context = mem.context(ALPHA, "badge order", budget=2000)
    assert len(searches) == 1
    assert "badge order" in context.text
