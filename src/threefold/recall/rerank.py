"""Recall's second stage, over the best candidates once their items are read.

Two rules, measured on benchmarks/needles.py (look-alike messages about the same people
and things) and guarded by benchmarks/recall_locomo.py:

- A fact derived from a turn or message is the same evidence as that item: the two are one
  result, shown as the raw item, placed where the better of the two ranked. Only a decision
  or a correction stands on its own (above its source, if it ranks so), since it says what
  holds now rather than what was said.
- The question's words are counted in each candidate, each weighted by how few of the
  candidates hold it: among many messages about teeth cleaning, the one naming the person
  asked about is told apart by the person's name, a word full text alone left out as too
  common in the whole stream.
- A candidate on the question's topic that says something the stream says almost nowhere
  else (a practice's name, a make, a title) is told apart from look-alikes made of
  everyday words: by the stream's own word counts, since in a pool of 60 most words occur
  once whether or not the stream repeats them.
"""

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from threefold.store.base import Item

STOPWORDS = frozenset(
    re.findall(
        r"\w+",
        """a an and are as at be but by did do does for from had has have he her his how i if
        in is it its me my no not of on or our she so than that the their them then there these
        they this to was we were what when where which who whom why will with would you your""",
    )
)
"""Words that say little of what a question or a message is about."""

STANDALONE_CATEGORIES = frozenset({"decision"})
"""Fact categories that outrank the raw text they came from; corrections (facts that
supersede another) do too."""
_WORD = re.compile(r"\w+")
_SUFFIXES = ((("es", "s"), 2), (("ing", "ed"), 3))
"""Plural endings, then verb endings, each with the least root it may leave."""


@dataclass
class Scored:
    """A candidate as ranking sees it: no item is built until it makes the cut."""

    kind: str
    id: int
    score: float
    signals: dict[str, float]

    def rescored(self, score: float, signals: dict[str, float] | None = None) -> "Scored":
        """A copy with `score`, and `signals` in place of these if given (else the same
        dict, shared): each rerank makes one for most of a pool, and dataclasses.replace
        took 6 us a copy (at 100,000 turns 1.5 ms a search, 300 copies)."""
        return Scored(self.kind, self.id, score, self.signals if signals is None else signals)


Pool = list[tuple[Item, Scored]]


WEIGHTS_K = 60
"""The k of reciprocal rank fusion at which a list's first place is worth what recency,
mentions and the second stage's weights were chosen beside (see place_score)."""


def place_score(rank: float, k: int) -> float:
    """What place `rank` of a ranked list adds to a fused score: reciprocal rank fusion's
    1 / (k + rank), scaled so that a first place adds 1 / (WEIGHTS_K + 1) whatever k is.
    k then says only how fast a list's lower places lose weight: recency's and mentions'
    absolute weights, and the second stage's lists, keep their worth beside the fused
    lists (at k=20 unscaled, recent_first no longer put the newest first, and a needle
    named by a word said once fell out of the top 10 among its look-alikes). At WEIGHTS_K
    the score is exactly 1 / (k + rank)."""
    return (k + 1) / ((k + rank) * (WEIGHTS_K + 1))


def standalone(item: Item) -> bool:
    """Whether a fact is shown apart from its source: a decision or a correction."""
    return item.category in STANDALONE_CATEGORIES or item.supersedes is not None


def raw_key(item: Item) -> tuple[str, int] | None:
    """The (kind, id) of the turn or message an ordinary fact was derived from; None for
    any other item, and for facts that stand on their own."""
    if item.kind != "fact" or standalone(item) or not item.source.id.isdigit():
        return None
    if item.source.kind == "turn":
        return ("turn", int(item.source.id))
    if "." in item.source.kind and not item.source.kind.startswith("summary."):
        return ("record", int(item.source.id))
    return None


def folded(pool: Pool, read_raw: Callable[[list[int]], dict[int, Item]]) -> Pool:
    """`pool` (best first) with each ordinary fact shown as its source turn or message, at
    the better of the two places, and right after it: the fact, marked `derived` in its
    signals. `read_raw` gives the turns (by id) that pass the search's filter, for facts
    whose turn was not found itself; a fact whose turn does not pass (one of the recent
    turns, say) stays as it is."""
    found = {(item.kind, item.id): item for item, _ in pool}
    wanted = {key for item, _ in pool if (key := raw_key(item)) is not None}
    missing = [i for kind, i in wanted if kind == "turn" and (kind, i) not in found]
    raw = {**found, **{("turn", i): turn for i, turn in read_raw(missing).items()}}
    groups: dict[tuple[str, int], Pool] = {}
    for item, scored in pool:
        source = raw_key(item)
        if source is None or source not in raw:
            key = (item.kind, item.id)
            if key in groups:  # placed higher by a fact derived from it: keep that place
                groups[key][0][1].signals.update(scored.signals)
            else:
                groups[key] = [(item, scored)]
            continue
        group = groups.setdefault(source, [])
        if not group:  # the fact ranks above its raw item, which takes the fact's place
            group.append((raw[source], Scored(source[0], source[1], scored.score, {})))
        head = group[0][1]
        head.signals["derived_facts"] = head.signals.get("derived_facts", 0) + 1
        group.append((item, scored.rescored(scored.score, {**scored.signals, "derived": 1.0})))
    return [entry for group in groups.values() for entry in group]


def cut(pool: Pool, limit: int, *, with_derived: bool) -> Pool:
    """At most `limit` results of `pool`, in its order. A derived fact follows its raw
    item when `with_derived`, as part of that result: it takes no place of its own (a top
    ten holds ten pieces of evidence). It never stands alone: one whose raw item was cut,
    or that would open the list, is left out."""
    kept: Pool = []
    results = 0
    for item, scored in pool:
        if "derived" in scored.signals:
            if with_derived and kept:
                kept.append((item, scored))
            continue
        if results == limit:
            break
        kept.append((item, scored))
        results += 1
    return kept


def covered(pool: Pool, terms: Sequence[str], weight: float, k: int) -> Pool:
    """`pool` ranked again with a third list fused in: the candidates by the question's
    words they hold, each word weighted by how few candidates hold it (an inverse document
    frequency within the pool). Words every candidate holds, or none, weigh nothing.
    A question that names a time holds one more word, held by the items of that time.
    A question of one word counts too: a made-up name said once is in the full-text list
    alone, and without this a newer item merely near it in meaning outranked it by
    recency (needles at 50,000 messages: the value's word alone found its message first
    113 times of 200, now 200)."""
    asked = frozenset(_root(t) for t in terms)
    if weight <= 0 or not asked or len(pool) < 2:
        return list(pool)
    held = [_held(item, scored, asked) for item, scored in pool]
    size = len(pool)
    counts = Counter(root for h in held for root in h)
    idf = {root: math.log(size / n) for root, n in counts.items()}
    # fsum: a set's order of iteration changes with the hash seed, and a plain sum's
    # last bit with it, which decided ties differently from one process to the next.
    coverage = [math.fsum(idf[root] for root in h) for h in held]
    order = sorted(range(size), key=lambda i: -coverage[i])  # stable: ties keep their order
    rescored = []
    for rank, i in enumerate(order, start=1):
        item, scored = pool[i]
        if coverage[i] > 0:
            scored.signals["coverage_rank"] = rank
            scored = scored.rescored(scored.score + weight * place_score(rank, k))
        rescored.append((item, scored))
    return sorted(rescored, key=lambda pair: pair[1].score, reverse=True)


def specific(
    pool: Pool, terms: Sequence[str], rare: Callable[[list[str]], set[str]], weight: float, k: int
) -> Pool:
    """`pool` ranked again with one more list fused in: the candidates holding a word of
    the question and a word of their own the stream says almost nowhere else (`rare` says
    which of a list of words are), by how well they cover the question. Among messages
    about one person and one thing, the one that names a place, a make or a title said
    once tells something; its look-alikes, made of everyday words, do not."""
    if weight <= 0 or len(pool) < 2 or not terms:
        return list(pool)
    asked = frozenset(_root(t) for t in terms)
    own = [
        () if _roots_of(item.text).isdisjoint(asked) else _own_words(item.text, asked)
        for item, _ in pool
    ]
    enough = _SPECIFIC_SHARE * len(pool)
    holding: list[int] = []
    # The best first, then the rest at once: where many hold a rare word, the first tell,
    # and the rest need not be counted; where few do, one more call counts them all.
    for start, end in ((0, _COUNTED_FIRST), (_COUNTED_FIRST, len(pool))):
        part = range(start, min(end, len(pool)))
        words = list(dict.fromkeys(w for i in part for w in own[i]))
        said_rarely = rare(words) if words else set()
        holding += [i for i in part if not said_rarely.isdisjoint(own[i])]
        if len(holding) > enough:
            return list(pool)
    if not holding:
        return list(pool)
    holding.sort(key=lambda i: pool[i][1].signals.get("coverage_rank", math.inf))
    rescored = list(pool)
    for rank, i in enumerate(holding, start=1):
        item, scored = pool[i]
        signals = {**scored.signals, "specific_rank": rank}
        rescored[i] = (
            item,
            scored.rescored(scored.score + weight * place_score(rank, k), signals),
        )
    return sorted(rescored, key=lambda pair: pair[1].score, reverse=True)


_SPECIFIC_SHARE = 0.25
"""The largest share of the pool the rare-word list may hold and count (see specific).
Where many candidates say something rare, as long messages do, saying it tells nothing: on
LoCoMo (dev) at most a quarter held one in 2% of searches (a median of 83% of those
holding a word of the question did), on needles at 50,000 messages in 92%. Without this
bound, LoCoMo lost evidence at 1,000 tokens (lines 0.752 -> 0.747, pairs 0.710 -> 0.697)."""


_COUNTED_FIRST = 20
"""Candidates whose words specific() counts first, in one call of the store; the rest of
the pool, if need be, in a second."""


def _own_words(text: str, asked: frozenset[str]) -> tuple[str, ...]:
    """The words of `text` that may tell it apart: not the question's, not stopwords, and
    not so short that they are a fragment ("s", "ok")."""
    return tuple(word for word, root in _content_words(text) if root not in asked)


@lru_cache(maxsize=16_384)
def _content_words(text: str) -> tuple[tuple[str, str], ...]:
    """Each word of `text` of three letters or more that is not a stopword, once, with its
    root; kept, as the same candidates come back query after query."""
    words = dict.fromkeys(_WORD.findall(text.lower()))
    return tuple((w, _root(w)) for w in words if len(w) > 2 and w not in STOPWORDS)


_IN_TIMEFRAME = "\x00timeframe"
"""The word an item of the time a question names holds: no text holds it."""


def _held(item: Item, scored: Scored, asked: frozenset[str]) -> frozenset[str]:
    # A turn's speaker is part of what it says: "I go there now", said by Priya.
    held = (_roots_of(item.text) | _roots_of(item.speaker or "")) & asked
    in_frame = any(signal.startswith("frame_") for signal in scored.signals)
    return held | {_IN_TIMEFRAME} if in_frame else held


def about_others(
    pool: Pool,
    people: Sequence[str],
    names_in: Callable[[str], Sequence[str]],
    known: Callable[[list[str]], list[str]],
    weight: float,
) -> Pool:
    """`pool` with the items about someone else counted at `weight` of their score, where
    the question names `people`: items that name another person the store knows (`known`
    says which of the words `names_in` finds are names) and neither name nor were said by
    any of `people` (a pair of turns is said by both its speakers). Asked which car Emeka
    bought, "Kenji spent the morning looking at car adverts" holds the question's topic
    and is near it in meaning, but answers for Kenji.
    An item naming nobody keeps its score: in a talk between two, what the other one says
    back rarely names anyone ("You should paint more often")."""
    if weight >= 1 or not people or len(pool) < 2:
        return list(pool)
    asked = {_root(w) for name in people for w in _WORD.findall(name.lower())}
    named = [names_in(item.text) for item, _ in pool]
    others = set(known(list(dict.fromkeys(w for words in named for w in words)))) - set(people)
    if not others:
        return list(pool)
    rescored = []
    for (item, scored), words in zip(pool, named, strict=True):
        if not others.isdisjoint(words) and not _names_or_said_by(item, asked):
            signals = {**scored.signals, "about_others": 1.0}
            scored = scored.rescored(scored.score * weight, signals)
        rescored.append((item, scored))
    return sorted(rescored, key=lambda pair: pair[1].score, reverse=True)


def _names_or_said_by(item: Item, asked: set[str]) -> bool:
    """Whether `item` names one of `asked` (roots of names) or was said by them."""
    if not _roots_of(item.text).isdisjoint(asked):
        return True
    return not _roots_of(f"{item.speaker or ''} {item.assistant_speaker or ''}").isdisjoint(asked)


def alike_newest_first(pool: Pool, terms: Sequence[str], older_weight: float) -> Pool:
    """`pool` with look-alikes told apart by time: items that hold the same words of the
    question and share most of their other words ("Priya goes to Belnov Dental now", then
    months later "Priya goes to Kestal Dental now") are one topic. The newest of them takes
    the place of the best, and the older ones, marked `older_alike`, keep their place in
    time but count `older_weight` of their score: many near-copies of one message must not
    fill the hits, and an older value must not read as the current one.

    A summary is compared only with summaries: it retells turns and messages in the same
    words and is dated by the end of its period, so it read as their newer look-alike and
    took the place of the very message it retells, which it shows cut to a snippet."""
    if older_weight >= 1 or len(pool) < 2:
        return list(pool)
    asked = frozenset(_root(t) for t in terms)
    topics: list[list[int]] = []
    by_held: dict[tuple[bool, frozenset[str]], list[tuple[frozenset[str], list[int]]]] = {}
    for i, (item, _) in enumerate(pool):
        words = _roots_of(item.text) - _STOP_ROOTS
        alike = by_held.setdefault((item.kind == "summary", words & asked), [])
        topic = next((members for first, members in alike if _alike(first, words)), None)
        if topic is None:
            topic = [i]
            alike.append((words, topic))
            topics.append(topic)
        else:
            topic.append(i)
    shown = list(pool)
    for members in topics:
        if len(members) < 2:
            continue
        newest = max(members, key=lambda i: (_time(pool[i][0]), -i))
        best = members[0]
        shown[best] = (pool[newest][0], pool[newest][1].rescored(pool[best][1].score))
        older = [i for i in members if i != newest]
        for slot, i in zip(members[1:], older, strict=True):
            item, scored = pool[i]
            demoted = scored.score * older_weight
            shown[slot] = (item, scored.rescored(demoted, {**scored.signals}))
            shown[slot][1].signals["older_alike"] = 1.0
    return sorted(shown, key=lambda pair: pair[1].score, reverse=True)


_ALIKE = 0.4
"""The share of their words (Jaccard, stopwords left out) two items holding the same words
of the question must have in common to be look-alikes: a value, a subject or a few words
apart ("Mateo wants a piano teacher who does evening lessons", said again of Chiara, "or
so she says", shares 5 of its 9 words). At 0.6 of all their words such repeats filled the
top 10 of a question about someone's piano teacher. Stopwords are left out because long
items (a question and its answer) share many of them without sharing a topic: at 0.4 of
all words, LoCoMo's held-out pairs lost evidence. With older_alike_weight 0.3, needles at
50,000 (development seed) 0.715 -> 0.77 in the top 10, 0.855 -> 0.895 at 1,000 tokens."""


def _alike(a: frozenset[str], b: frozenset[str]) -> bool:
    # Called for every pair of a pool's items holding the same words of the question:
    # sizes too far apart cannot share enough, and the union is counted, not built.
    small, large = len(a), len(b)
    if small > large:
        small, large = large, small
    if small < _ALIKE * large or not large:
        return False
    shared = len(a & b)
    return shared >= _ALIKE * (small + large - shared)


def _time(item: Item) -> float:
    return item.at.timestamp() if item.at else float("-inf")


@lru_cache(maxsize=4_096)
def _roots_of(text: str) -> frozenset[str]:
    """The roots of a text's words; kept, as the same candidates come back query after
    query. A few thousand only: every full garbage collection walks each set kept, and
    16,384 of them (here and in staleness.stems) made the slowest collections at 100,000
    items half as long again, for no context measurably faster."""
    return frozenset(_root(w) for w in _WORD.findall(text.lower()))


@lru_cache(maxsize=65_536)
def _root(word: str) -> str:
    """A crude stem, so that a question's 'cleaning' finds 'cleanings' and 'go' finds
    'goes': the same suffixes the full-text index's stemmer strips most often."""
    word = word.lower().removesuffix("'s")
    for endings, least in _SUFFIXES:
        for ending in endings:
            if word.endswith(ending) and len(word) - len(ending) >= least:
                word = word[: -len(ending)]
                break
    return word


_STOP_ROOTS = frozenset(_root(w) for w in STOPWORDS)
