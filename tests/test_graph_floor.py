"""A search over a vector graph whose neighbours all fall under the similarity floor finds
nothing, and does not fail (it raised ValueError through Memory.search, for a query such
as "zebra" on a store past the graph's threshold)."""

from tests.test_search_scale import (  # noqa: F401  (the fixture, used by name)
    EMBEDDER,
    add_turns,
    everything,
    exact_nearest,
    graph_index,
    store,
    texts,
)


def test_a_graph_with_no_neighbour_above_the_floor_finds_nothing(store):  # noqa: F811
    ids = add_turns(store, texts(120))
    index = graph_index(store)
    query = EMBEDDER.embed(["note 7 on topic7"])[0]
    assert index.search("turn", everything(), -query, 5, min_similarity=0.9) == []
    assert index.search("turn", everything(), query, 5) == exact_nearest(store, query, set(ids), 5)
