"""A full-text search on PostgreSQL takes a word its table's statistics count in more than
a thousand rows to match that many without counting them. The statistics are read once a
minute for every kind, not in each search; the results are those of counting."""

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta

import psycopg
import pytest

from threefold.store.base import ItemFilter, NewTurn, Probe
from threefold.store.postgres import PostgresStore
from threefold.store.postgres import store as postgres_store
from threefold.store.postgres.connection import TextArray

STREAM = "project:big"
T0 = datetime(2026, 1, 1, tzinfo=UTC)
EVERYTHING = ItemFilter(tenant="default", streams=(STREAM,))


@pytest.fixture
def store(fresh_postgres: Callable[[], str]) -> Iterator[PostgresStore]:
    opened = PostgresStore(fresh_postgres())
    yield opened
    opened.close()


def add_turns(store: PostgresStore, texts: list[str]) -> list[int]:
    with store.transaction():
        return [
            store.insert_turn(
                NewTurn(
                    tenant="default",
                    stream=STREAM,
                    user=text,
                    assistant="ok",
                    at=T0 + timedelta(minutes=n),
                    tokens=4,
                )
            ).id
            for n, text in enumerate(texts)
        ]


def analyze(store: PostgresStore) -> None:
    with psycopg.connect(store.url, autocommit=True) as conn:
        conn.execute("ANALYZE turns")


def statements_of(store: PostgresStore, search: Callable[[], object]) -> int:
    before = store.statements
    search()
    return store.statements - before


def test_a_rare_word_is_found_among_words_the_statistics_call_common(
    store: PostgresStore,
) -> None:
    common = add_turns(store, [f"the project update number {n}" for n in range(2100)])
    wanted = add_turns(store, ["the zebra project launched"])[0]
    analyze(store)
    hits = store.fts_ids("turn", ["project", "update", "zebra"], EVERYTHING, 10)
    assert hits[0][0] == wanted
    alone = store.fts_ids("turn", ["project", "update"], EVERYTHING, 10)
    # Past a thousand matches the newest thousand are ranked: the ten best are among them.
    assert len(alone) == 10 and {i for i, _ in alone} <= set(common[-1000:] + [wanted])


def test_the_statistics_are_read_once_a_minute_not_in_every_search(
    store: PostgresStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    add_turns(store, [f"the project update number {n}" for n in range(2100)])
    analyze(store)

    def search() -> list[tuple[int, float]]:
        return store.fts_ids("turn", ["project", "giraffe"], EVERYTHING, 5)

    search()
    assert statements_of(store, search) == 1
    assert statements_of(store, search) == 1
    monkeypatch.setattr(postgres_store, "_TERM_COUNT_SECONDS", 0.0)
    assert statements_of(store, search) == 2  # the statistics of every kind, then the search


def test_statistics_that_grow_later_change_no_result(
    store: PostgresStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A memory analyzed while small that grew past a thousand matches of a word, searched
    before and after its statistics catch up, finds the same items in the same order: the
    statistics only spare counting (the scores move a little with the table's row count)."""
    add_turns(store, [f"kafka note {n}" for n in range(30)])
    analyze(store)
    store.fts_ids("turn", ["kafka"], EVERYTHING, 5)  # statistics read while small
    add_turns(store, [f"the kafka deploy step {n}" for n in range(2100)])
    add_turns(store, [f"the kafka deploy of zebra cluster {n % 7}" for n in range(40)])
    asked = ["kafka", "deploy", "zebra", "cluster"]
    before = store.fts_ids("turn", asked, EVERYTHING, 20)
    analyze(store)
    monkeypatch.setattr(postgres_store, "_TERM_COUNT_SECONDS", 0.0)
    store._term_counts.clear()  # each term counted, or taken as common, afresh
    after = store.fts_ids("turn", asked, EVERYTHING, 20)
    assert "kafka" in store._common_words_of("turn").words
    assert len(before) == 20
    assert [i for i, _ in after] == [i for i, _ in before]


@pytest.mark.parametrize(
    "term",
    ["o'brien", "a\\b", "x-y", "名前", "%s", "'; DROP TABLE turns; --", "", " ", "ab&|!:*"],
)
def test_odd_terms_are_searched_as_words(store: PostgresStore, term: str) -> None:
    add_turns(store, [f"filler {n}" for n in range(5)])
    wanted = add_turns(store, [f"odd words {term} here"])[-1]
    analyze(store)
    hits = store.fts_ids("turn", [term, "odd"], EVERYTHING, 5)
    assert [i for i, _ in hits] == [wanted]


def test_words_of_any_spelling_reach_the_server_whole(store: PostgresStore) -> None:
    """The common words are sent as one array literal, written here: quotes, backslashes,
    commas, braces and the word NULL come back as they went."""
    words = ['a"b', "c\\d", "x,y", "{z}", "NULL", "", "名前", "/usr/local/bin", "it's"]
    row = store._row("SELECT %s::text[] AS words", [TextArray.of(words)])
    assert row is not None and row["words"] == words
    assert store._row("SELECT %s::text[] AS words", [TextArray.of([])]) == {"words": []}


@pytest.mark.parametrize("term", ["%s", "$1", "50%", "%(x)s", "$$", "?"])
def test_placeholder_lookalikes_in_terms_are_words_in_a_context_search(
    store: PostgresStore, term: str
) -> None:
    """A context's search sends its statements with numbered parameters: terms that look
    like placeholders of either kind are still only words."""
    add_turns(store, [f"filler {word}" for word in ("alpha", "beta", "gamma", "delta")])
    wanted = add_turns(store, [f"odd words {term} here"])[-1]
    probe = Probe(where=EVERYTHING)
    for _ in range(2):  # the second time its statements are known
        found = store.candidates("default", ("turn", "fact"), [term, "odd"], None, [probe], 5)
        assert [i for i, _ in found.text[(0, "turn")]] == [wanted]
        assert found.items([("turn", wanted)])[("turn", wanted)].text.startswith("odd words")
