"""A subject's facts share one profile line when they do not fit a line each; which of
them that line writes out first follows the question's meaning when an embedder is
configured (issue 36), and the words they share without one."""

import logging

import pytest

from threefold import Memory
from threefold.embed import HashingEmbedder

STREAM = "chat:nearness"
ABOUT_RAHEL = [
    ("work", "employer", "Rahel is a locksmith with her own van."),
    ("location", "home", "Rahel lives on a houseboat in Utrecht."),
    ("health", "allergy", "Rahel is allergic to wasp stings."),
    ("relationship", "partner", "Rahel's girlfriend is called Sanne."),
    ("preference", "music", "Rahel plays bass guitar in a covers band."),
    ("possession", "bike", "Rahel rides an old Gazelle bicycle."),
    ("skill", "language", "Rahel speaks Amharic and Dutch."),
    ("diet", "diet", "Rahel does not eat pork."),
    ("plan", "trip", "Rahel plans a trip to Addis Ababa in June."),
    ("identity", "age", "Rahel turned 41 last week."),
    ("preference", "drink", "Rahel drinks her coffee black."),
    ("important_date", "anniversary", "Rahel and Sanne met on 2 February."),
]


def written(mem: Memory, facts: list[tuple[str, str, str]], subject: str = "rahel") -> None:
    for category, slot, text in facts:
        mem.write_fact(STREAM, text, category=category, subject=subject, slot=slot, value=text)
    mem.process_pending()


def said_of(mem: Memory, name: str, query: str, budget: int = 300) -> list[str]:
    """What the context's facts section writes out about `name`, in its order."""
    for item in mem.context(STREAM, query, budget).section("stream_facts").items:
        if item.text.startswith(f"- {name}: "):
            said = item.text.removeprefix(f"- {name}: ").split(" [")[0]
            return said.split("; and ")[0].split("; ")
    raise AssertionError(f"no profile line about {name}")


@pytest.fixture
def minilm_memory(open_memory):
    return open_memory(embed={"kind": "minilm"})


@pytest.mark.parametrize(
    ("query", "meant"),
    [
        ("What is Rahel's job?", "locksmith"),
        ("Where is Rahel's home?", "houseboat"),
        ("Is Rahel in a relationship?", "Sanne"),
        ("Which instrument does Rahel play?", "bass"),
    ],
)
def test_the_fact_a_question_means_comes_first_in_its_subjects_line(minilm_memory, query, meant):
    written(minilm_memory, ABOUT_RAHEL)
    said = said_of(minilm_memory, "Rahel", query)
    assert len(said) < len(ABOUT_RAHEL)  # the line is condensed: the order decides
    assert meant in said[0], said


def test_facts_not_embedded_yet_are_ranked_by_meaning_too(minilm_memory):
    for category, slot, text in ABOUT_RAHEL:  # written, and no embedding job has run
        minilm_memory.write_fact(
            STREAM, text, category=category, subject="rahel", slot=slot, value=text
        )
    ids = [f.id for f in minilm_memory.facts(STREAM)]
    assert not minilm_memory.store.item_vectors("fact", "default", ids)
    said = said_of(minilm_memory, "Rahel", "Where is Rahel's home?")
    assert "houseboat" in said[0], said


def test_without_an_embedder_shared_words_rank_the_line(open_memory):
    mem = open_memory(embed={"kind": "none"})
    written(mem, ABOUT_RAHEL)
    assert "bicycle" in said_of(mem, "Rahel", "What bicycle does Rahel ride?")[0]
    # The fallback has no meaning to go by: a question in other words misses the fact.
    assert "locksmith" not in said_of(mem, "Rahel", "What does Rahel do for a living?")[0]


class FailingQueries(HashingEmbedder):
    """Embeds facts, then fails, as a remote embedding service may between writes and
    questions."""

    def __init__(self) -> None:
        super().__init__()
        self.down = False

    def embed(self, texts):
        if self.down:
            raise RuntimeError("embedding service down")
        return super().embed(texts)


def test_an_embedder_that_fails_at_question_time_leaves_shared_words(tmp_path, caplog):
    embedder = FailingQueries()
    with Memory.open(tmp_path / "m.db", embedder=embedder, background_worker=False) as mem:
        written(mem, ABOUT_RAHEL)
        embedder.down = True
        with caplog.at_level(logging.WARNING, logger="threefold.recall.search"):
            said = said_of(mem, "Rahel", "What bicycle does Rahel ride?")
        assert "bicycle" in said[0]
        assert "query embedding failed" in caplog.text
        assert len(mem.facts(STREAM)) == len(ABOUT_RAHEL)  # nothing lost


def test_an_empty_question_keeps_the_ranking_of_confidence_and_recency(minilm_memory):
    written(minilm_memory, ABOUT_RAHEL)
    assert said_of(minilm_memory, "Rahel", "") == said_of(minilm_memory, "Rahel", "   ")


def test_a_stream_mostly_not_embedded_yet_is_ranked_by_words_until_it_is(minilm_memory):
    others = [("note", f"chore{n}", f"Rahel has chore number {n} on the list.") for n in range(70)]
    for category, slot, text in [*ABOUT_RAHEL, *others]:  # an import, not embedded yet
        minilm_memory.write_fact(
            STREAM, text, category=category, subject="rahel", slot=slot, value=text
        )
    query = "Where is Rahel's home?"
    assert "houseboat" not in said_of(minilm_memory, "Rahel", query)[0]  # words: a tie
    minilm_memory.process_pending()
    assert "houseboat" in said_of(minilm_memory, "Rahel", query)[0]


def test_an_erasure_leaves_no_fact_vector_in_the_memory_of_the_process(minilm_memory):
    written(minilm_memory, ABOUT_RAHEL)
    said_of(minilm_memory, "Rahel", "Where is Rahel's home?")
    assert minilm_memory.recall._kept  # the vectors the ranking read are kept for the next
    minilm_memory.erase(stream=STREAM)
    assert not minilm_memory.recall._kept and not minilm_memory.recall._matrices
