"""Recall's presets: how much each signal of a search counts, by name. Data, not branches,
and light to import: the CLI lists the names in its help without loading the search."""

from dataclasses import dataclass

KINDS = ("fact", "turn", "summary", "record")


@dataclass(frozen=True)
class Preset:
    """How one kind of search weighs its signals."""

    name: str
    kinds: tuple[str, ...] = KINDS
    fts_weight: float = 1.0
    vector_weight: float = 1.0
    recency_weight: float = 0.002
    half_life_days: float = 90.0
    mention_weight: float = 0.001
    rrf_k: int = 60
    """Reciprocal rank fusion's k: how fast a list's lower places lose weight. A first
    place is worth the same at any k (see rerank.place_score), so recency, mentions and
    the second stage's lists, weighed at 60, keep their worth beside the fused lists when
    it changes. Session 39, development text: a smaller k gains in small streams (LoCoMo
    dev evidence at 1,000 / 2,000 / 4,000 tokens, lines 0.750 / 0.850 / 0.911 at 60,
    0.764 / 0.846 / 0.911 at 30, 0.771 / 0.844 / 0.913 at 20, 0.774 / 0.836 / 0.912 at
    10; pairs 0.728 / 0.842 / 0.911, 0.759 / 0.857 / 0.913, 0.774 / 0.856 / 0.917, 0.789
    / 0.860 / 0.908) and loses needles in a large one (development seed at 50,000
    messages, needle in the top 10: 0.885 at 60, 0.875 at 45, 0.865 at 30, 0.850 at 20,
    0.820 at 10; contexts within 0.01). 20 up to `deeper_from_turns` turns and 60 past
    it, judged once on held-out text, gained on LoCoMo but lost on the Slack sample's
    third set (lines 0.872 -> 0.838 at 2,000 tokens): not chosen (benchmarks/
    recall_locomo.py's docstring has the table)."""
    candidates: int = 30
    """Each full-text and vector list's least depth; a search for more hits reads each to
    half their number, so that a kind's two lists can fill them. On LoCoMo at a budget of
    2,000 tokens (60 hits), lists of 30 put 0.783 of the evidence in the context against
    0.766 with 50, and made every vector walk and ranking cheaper."""
    deeper_from_turns: int = 10_000
    """A stream of more turns than this has its vector lists (the whole stream's and a named
    person's) read deeper than `candidates`, by the square root of how many times more:
    look-alikes grow with the stream, and at a fixed depth ever fewer of them fit, so a
    one-off fact said in other words than the question's falls out of every list (needles
    at 50,000 messages, development seed: 19 of the 20 missing from a 2,000-token context
    were in no list; their turns ranked 20-212 by the question's vector, median 70).
    Past it too, a named person's vector list lists the echoes of one line once (see
    search.large_stream). 0 keeps every list at `candidates`, and every echo."""
    most_vector_depth: int = 120
    """The deepest vector list a stream's size asks for (100,000 turns ask 95)."""
    kind_weights: tuple[tuple[str, float], ...] = (("fact", 1.0), ("turn", 1.0), ("summary", 0.3))
    """Summaries retell turns; the verbatim, dated turn is the better evidence."""
    min_similarity: float = 0.3
    """Vector candidates below this cosine are noise: every query has nearest neighbours."""
    timeframe_weight: float = 1.0
    """How much items from the days a query names ("on 7 July, 2023") count, on top: a
    second ranking within those days, fused like the first."""
    person_weight: float = 1.0
    """How much items naming a person the query names count, on top: a ranking within
    those items, fused like the first (see Recall._people_named)."""
    person_topic: bool = True
    """Whether the vectors of a named person's items are ranked by the question without
    the name (see Recall._topic_vector)."""
    topic_min_similarity: float = 0.2
    """min_similarity for those vectors: a question without the name is less like any
    item than with it."""
    coverage_weight: float = 0.5
    """How much the question's words a candidate holds count, each weighted by how few
    candidates hold it (see rerank.covered): a third list, fused like the others. Chosen
    on benchmarks/needles.py's development seed (needle in the top 10: 0.76 without it,
    0.795 at 1.0, 0.81 at 0.5) and checked on LoCoMo, where 1.0 lost 0.004 of evidence at
    2,000 tokens and 0.5 lost nothing at any budget."""
    older_alike_weight: float = 0.3
    """What an older look-alike of a newer candidate keeps of its score (see
    rerank.alike_newest_first); 1 leaves look-alikes alone. 0.3 rather than 0.5 with the
    looser share of rerank._ALIKE: needles at 50,000 (development seed) 0.77 -> 0.78 in
    the top 10, 0.88 -> 0.895 at 1,000 tokens (measured on all words, not only content)."""
    rare_word_weight: float = 0.5
    """How much a candidate holding a word of the question and a word said almost nowhere
    else in its streams counts (see rerank.specific): a fourth list, fused like the others.
    Chosen on needles' development seed and LoCoMo dev: needle in the top 10 at 50,000
    messages 0.765 -> 0.855 at 0.25, 0.905 at 0.5, 0.93 at 1.0; at 1.0 LoCoMo lines lost
    one answer at 1,000 tokens, at 0.5 it is identical at every budget."""
    other_person_weight: float = 0.6
    """What an item about someone else keeps of its score when the question names a
    person (see rerank.about_others); 1 leaves them alone. Chosen on needles' development
    seed: needle in the top 10 at 100,000 messages 0.790 -> 0.825 at 0.6 and at 0.4,
    50,000 0.895 -> 0.91 (0.905 at 0.8), 10,000 0.955 -> 0.965; contexts and LoCoMo dev
    unchanged. LoCoMo dev lost evidence at 1,000 tokens in pairs where the items counted
    as about someone else were every item not naming the person (0.712 -> 0.575), or
    those naming another while a pair's second speaker did not count (0.667): what the
    other one answers names the asker, or nobody."""
    rare_word_items: int = 2
    """The most turns and records of the streams searched that may say a word it counts as
    rare: a value is said once, and perhaps once more when someone repeats it."""
    rerank_depth: int = 60
    """The best candidates whose items are read for the second stage (see rerank); a
    search for more hits reads that many, and a large stream as many more as its vector
    lists are read deeper (search.rerank_depth: 97 at 50,000 turns, 125 at 100,000).
    Needles' development seed, 60 -> deeper (top 10 / 1,000 / 2,000 tokens): 100,000
    messages 0.775/0.885/0.890 -> 0.790/0.900/0.915; 50,000 unchanged. Grown in proportion
    to the lists instead (134, 190): 0.905/0.945/0.955 at 50,000, 0.770/0.905/0.930 at
    100,000, at about 1.7 times the CPU per search there."""


PRESETS: dict[str, Preset] = {
    preset.name: preset
    for preset in (
        Preset("default"),
        Preset("facts_only", kinds=("fact",)),
        Preset("recent_first", recency_weight=0.05, half_life_days=7.0),
        Preset("keywords", vector_weight=0.0),
    )
}
