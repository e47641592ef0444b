"""The same stream gives the same contexts on every backend: a deterministic story (the
heuristic model, hashing vectors, fixed times) is written to the backend under test and
to a SQLite file, and every question is asked of both, at a small and a large budget.

Retrieved material is the one part that may differ. Full text matches the same items on
both, but ranks them a little differently: SQLite by FTS5's BM25, PostgreSQL by ts_rank
weighted by each term's IDF, which lacks BM25's length normalisation. Where the scores
are near ties (words found in nearly every turn), the two orders part, and so may the
last items that fit. So for retrieved material the test holds the backends to the same
matches, not the same order."""

from collections.abc import Callable
from pathlib import Path

from memstrata import Memory, demo, load_settings
from memstrata.recall import KINDS, query_terms
from memstrata.store.base import ItemFilter
from memstrata.types import Context

QUESTIONS = (
    demo.QUESTION,
    "Who is the Lead Architect?",
    "When is the Alpha deadline?",
    "What are we blocked on?",
    "What did we decide about the carousel?",
    "What happened on the first day?",
    "",
)
RANKED = "retrieved"


def _told(location: str | Path) -> Memory:
    settings = load_settings(embed={"kind": "hashing"})
    mem = Memory.open(location, settings=settings, background_worker=False)
    for turn in demo.story(filler_after=60, seed=3):
        mem.add_turn(demo.STREAM, turn.user, turn.assistant, at=turn.at)
    mem.process_pending()
    return mem


def _layers(context: Context) -> list[tuple[str, list[tuple[str | None, str]]]]:
    return [
        (section.name, [(item.source and item.source.label(), item.text) for item in section.items])
        for section in context.sections
        if section.name != RANKED
    ]


def _matches(mem: Memory, question: str) -> dict[str, set[int]]:
    where = ItemFilter(tenant="default", streams=(demo.STREAM,))
    terms = query_terms(question)
    return {
        kind: {item for item, _ in mem.store.fts_ids(kind, terms, where, 1000)} for kind in KINDS
    }


def test_every_question_gets_the_same_layers_and_matches(
    backend_db: Callable[[], str | Path], tmp_path: Path
) -> None:
    with _told(backend_db()) as tested, _told(tmp_path / "reference.db") as reference:
        for question in QUESTIONS:
            for budget in (600, 3000):
                got = tested.context(demo.STREAM, question, budget)
                want = reference.context(demo.STREAM, question, budget)
                assert _layers(got) == _layers(want), (question, budget)
            assert _matches(tested, question) == _matches(reference, question), question
        assert _facts(tested) == _facts(reference)


def _facts(mem: Memory) -> list[dict[str, object]]:
    return [f.model_dump(exclude={"recorded_at"}) for f in mem.facts(demo.STREAM)]
