"""The same stream gives the same contexts on every backend: a deterministic story (the
heuristic model, hashing vectors, fixed times) is written to the backend under test and
to a SQLite file, and every question is asked of both, at a small and a large budget.

Everything must match, retrieved material and its order included: full text is ranked
by FTS5's BM25 on both (PostgreSQL reckons it from its tsvectors, with words read and
stemmed as FTS5 reads them), and equal scores and equal vectors are ordered by id."""

from collections.abc import Callable
from pathlib import Path

from threefold import Memory, load_settings
from threefold.faces import demo
from threefold.recall.search import KINDS, query_terms
from threefold.store.base import ItemFilter

QUESTIONS = (
    demo.QUESTION,
    "Who is the Lead Architect?",
    "When is the Alpha deadline?",
    "What are we blocked on?",
    "What did we decide about the carousel?",
    "What happened on the first day?",
    "What did Raj use, and what is used by us?",
    "",
)


def _told(location: str | Path) -> Memory:
    settings = load_settings(embed={"kind": "hashing"})
    mem = Memory.open(location, settings=settings, background_worker=False)
    for turn in demo.story(filler_after=60, seed=3):
        mem.add_turn(demo.STREAM, turn.user, turn.assistant, at=turn.at)
    mem.process_pending()
    return mem


def _ranked(mem: Memory, question: str) -> dict[str, list[tuple[int, float]]]:
    where = ItemFilter(tenant="default", streams=(demo.STREAM,))
    terms = query_terms(question)
    return {kind: mem.store.fts_ids(kind, terms, where, 1000) for kind in KINDS}


def test_every_question_gets_the_same_context(
    backend_db: Callable[[], str | Path], tmp_path: Path
) -> None:
    with _told(backend_db()) as tested, _told(tmp_path / "reference.db") as reference:
        for question in QUESTIONS:
            for budget in (600, 3000):
                got = tested.context(demo.STREAM, question, budget)
                want = reference.context(demo.STREAM, question, budget)
                assert got.text == want.text, (question, budget)
            got_ranked, want_ranked = _ranked(tested, question), _ranked(reference, question)
            for kind in KINDS:
                assert [i for i, _ in got_ranked[kind]] == [i for i, _ in want_ranked[kind]]
                # The same BM25, up to the last bits of the floating-point sums.
                for (_, got_score), (_, want_score) in zip(
                    got_ranked[kind], want_ranked[kind], strict=True
                ):
                    assert abs(got_score - want_score) <= 1e-9 * abs(want_score)
        assert _facts(tested) == _facts(reference)


def _facts(mem: Memory) -> list[dict[str, object]]:
    return [f.model_dump(exclude={"recorded_at"}) for f in mem.facts(demo.STREAM)]
