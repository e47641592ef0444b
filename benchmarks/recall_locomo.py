"""Recall on LoCoMo: threefold's context() beside a recent window, BM25 and the whole chat.

    python benchmarks/recall_locomo.py ../shared/data/locomo_dev.json
        [--budgets 1000 2000 4000 6000] [--limit-questions N] [--samples conv-26,conv-30]
        [--split dev|held-out] [--pairs] [--db FILE --reuse]

Needs `pip install -e '.[bench]'` (rank-bm25). Every LoCoMo line becomes one turn of a
`chat:<sample_id>` stream on a fresh SQLite file (heuristic model); each question of
categories 1-4 then gets a context per method and budget: threefold's context(), the
newest lines that fit (window), the best BM25 lines that fit, and the whole conversation.
Baselines show lines as "speaker: text" under their session's date. All are scored alike:
evidence recall (share of the cited lines present verbatim), answer containment (share of
the answer's content words present) and answer hit (at least half of them present).
A last table splits the questions by the content words they share with their closest
evidence line: with one or none, full text has little to go on and vectors must find it.
Prints tables; asserts nothing.

`--split` guards against tuning to the benchmark: the budget order and its shares are
tuned on the dev conversations only, and the held-out ones are run once at the end.
Issue 36's budget order was tuned on dev; its held-out first run (529 questions, evidence
/ hit, pairs with speakers): 0.722 / 0.762 at 1,000 tokens, 0.822 / 0.868 at 2,000,
0.882 / 0.892 at 4,000, 0.912 / 0.909 at 6,000; BM25 over lines 0.622 / 0.701, 0.691 /
0.794, 0.737 / 0.845, 0.779 / 0.873 (before the change: 0.503 / 0.626, 0.752 / 0.807).
Session 25 (issue 41, a large stream's vector lists read deeper, from 10,000 turns):
every LoCoMo stream is far smaller, so dev and held-out are identical before and after on
one store (held-out first run, evidence / hit at 1,000, 2,000, 4,000 tokens: lines 0.736
/ 0.790, 0.820 / 0.849, 0.908 / 0.904; pairs 0.718 / 0.771, 0.824 / 0.871, 0.895 /
0.896; main on the freshly ingested store gives lines 0.731 / 0.786 at 1,000, so compare
runs on one store).
Session 26 (issue 36, mark36: the summary's floor holds its newest whole lines within its
share, no longer the line that crosses it), chosen on dev and on the Slack sample
(recall_slack.py, the only real-chat set). Dev, evidence at 1,000 / 2,000 / 4,000 /
6,000 tokens on one store, main -> change: lines 0.744 / 0.852 / 0.906 / 0.920 -> 0.752 /
0.852 / 0.906 / 0.920 (hit unchanged: 0.824 / 0.888 / 0.927 / 0.944); pairs 0.701 / 0.810
/ 0.907 / 0.930 -> 0.716 / 0.821 / 0.907 / 0.930 (hit 0.798 / 0.876 / 0.918 / 0.936 ->
0.798 / 0.880 / 0.918 / 0.940). Held-out, run once with the change (first run) and once
with main on the same store, evidence / hit: lines 0.743 / 0.788, 0.823 / 0.851, 0.908 /
0.905, 0.921 / 0.911 (main 0.739 / 0.790, 0.816 / 0.845, 0.908 / 0.904, 0.920 / 0.909);
pairs 0.723 / 0.783, 0.826 / 0.866, 0.897 / 0.896, 0.929 / 0.915 (main 0.717 / 0.775,
0.824 / 0.871, 0.895 / 0.896, 0.926 / 0.913). Figures move by up to 0.005 between runs
of one commit on one store, so only the dev pairs gains at 1,000 and 2,000 stand out.
(These runs also held mark36's narrower "possibly outdated" marks, which did not ship:
their frozen stale sets lost true marks; stale.py.)
Session 27 (issue 36, measured, not shipped; branches pairs36-sidevectors and recent27).
A vector per side of a two-sided turn (found by the nearest of three): dev pairs 0.716 /
0.821 / 0.907 / 0.930 -> 0.724 / 0.826 / 0.908 / 0.931, Slack pairs lost 0.04 at 1,000-
4,000; weighted variants the same or worse (recall_slack.py's docstring has the causes:
the two Slack misses are a look-alike demotion and a turn of the last K that yielded).
The last K turns beyond the newest few coming back as retrieved material when they
yield: dev pairs -> 0.734 / 0.847 / 0.907 / 0.930, dev lines 0.752 / 0.850 / 0.906 /
0.922; held-out, first run on main's stores, evidence (hit): pairs 0.723 (0.783) / 0.828
(0.866) / 0.895 (0.898) / 0.928 (0.915) -> 0.729 (0.784) / 0.832 (0.868) / 0.895 (0.896)
/ 0.928 (0.911); lines 0.738 / 0.818 / 0.907 / 0.920 -> 0.750 / 0.821 / 0.904 / 0.920.
The rule fixed before that run asked held-out pairs +0.01 at 1,000 or 2,000: not met.
Session 28 (issue 41, needle41i: a named person's items scored exactly over a vector
graph, and SQLite's filter skipping a visibility test every item passes): LoCoMo streams
hold no graph, so dev and held-out are identical in every cell of evidence, containment
and hit (held-out first run, evidence / hit at 1,000, 2,000, 4,000 tokens: lines 0.741 /
0.792, 0.817 / 0.851, 0.908 / 0.904; pairs 0.717 / 0.773, 0.825 / 0.868, 0.895 / 0.896).
Session 37 (issue 36, h37b: a summary is no newer look-alike of the turns it retells;
recall_slack.py's docstring has the cause). Evidence / hit on main's stores, main ->
change. Dev at 1,000 / 2,000: lines 0.752 / 0.828, 0.853 / 0.888, unchanged; pairs
0.710 / 0.798 -> 0.714 / 0.798, 0.805 / 0.871 -> 0.809 / 0.871. Held-out, run once, at
1,000 / 2,000 / 4,000 / 6,000: lines 0.740 / 0.792, 0.815 / 0.849, 0.908 / 0.904, 0.920 /
0.909, unchanged; pairs 0.717 / 0.769, 0.821 / 0.866, 0.895 / 0.894, 0.925 / 0.913 ->
0.719 / 0.769, 0.823 / 0.864, 0.898 / 0.894, 0.930 / 0.913 (one answer fewer at 2,000).
Needles 10,000 seed 2 on one store: 0.970 / 0.995 / 1.000, unchanged.
Session 38 (issue 36: the context's search sees the last K turns beyond the newest few,
and one that yielded comes back at its rank; recall_slack.py's docstring). Held-out,
evidence / hit on session 36's stores, main -> change, at 1,000 / 2,000 / 4,000 / 6,000:
lines 0.741 / 0.794 -> 0.746 / 0.796, 0.815 / 0.851 -> 0.821 / 0.851, 0.908 / 0.904 ->
0.904 / 0.905, 0.920 / 0.909 unchanged; pairs 0.719 / 0.771 -> 0.728 / 0.779, 0.823 /
0.866 -> 0.833 / 0.868, 0.898 / 0.894 unchanged, 0.930 / 0.913 -> 0.930 / 0.911.
Needles 10,000 seed 2: 0.970 / 0.995 / 1.000, unchanged.
Session 38, measured and NOT shipped: reciprocal rank fusion's k (Preset.rrf_k, 60)
chosen on development text (dev here, the Slack sets a and b, needles seed 1 at 10k): at
20, dev lines 0.750 / 0.850 / 0.911 -> 0.776 / 0.844 / 0.912 at 1,000 / 2,000 / 4,000,
pairs 0.728 / 0.842 / 0.911 -> 0.769 / 0.856 / 0.917 (30 between). Judged once: held-out
lines 0.745 / 0.822 / 0.903 / 0.920 -> 0.754 / 0.834 / 0.902 / 0.921, pairs 0.733 /
0.835 / 0.898 / 0.930 -> 0.768 / 0.847 / 0.901 / 0.926 (hit at 1,000 0.779 -> 0.798);
Slack set c lines at 1,000 0.731 -> 0.782, at 2,000 0.872 -> 0.846; but needles seed 2
at 100,000 0.875 / 0.925 / 0.965 -> 0.825 / 0.920 / 0.955 (10,000: -0.005 top 10 and at
1,000). A lower k trusts a list's first places more, which small streams reward and a
large stream's deeper, look-alike-filled lists do not: a k that grows with the stream
(judged on a new needles seed at 100k and new LoCoMo-like text) is the lead. Tried
after the 100k run (branch k2, not shipped): k=20 only up to deeper_from_turns, 60 past
it. It fails two designed cases: a one-off shop name among 720 look-alike messages about
a bike leaves the top 10 (tests/test_needles.py: the rare-word list, weighed at k=60,
counts too little beside look-alikes ranked by three lists), and the recent_first preset
stops putting the newest first (its recency weight is absolute, tuned beside k=60
scores). A smaller k needs the second stage's weights and recency chosen with it.
Session 39 (issue 41, helper f39): a first place now scores the same at any k
(rerank.place_score: (k + 1) / ((k + rank) * 61); at 60 every score is unchanged, as the
presets weigh lists by 1 and 0.5), so recency, mentions and the second stage keep their
weight as k changes. Then, measured and NOT shipped, k chosen on development text
(Preset.rrf_k's docstring has the sweep): 20 in a stream of up to deeper_from_turns
(10,000) turns, 60 past it, as k=20 lost needles at 50,000 messages even scaled.
Development text, main -> candidate, evidence at 1,000 / 2,000 / 4,000: dev lines
0.750 / 0.850 / 0.911 -> 0.771 / 0.844 / 0.913, pairs 0.728 / 0.842 / 0.911 -> 0.774 /
0.856 / 0.917; Slack first set lines 0.88 -> 0.94 at 1,000, set b pairs 0.925 -> 0.975
at 2,000, the rest equal; needles seed 1 at 10,000 and 50,000 identical. Judged once
(rule written before), main -> candidate:
    LoCoMo held-out  lines 0.745 / 0.822 / 0.903 / 0.920 -> 0.753 / 0.834 / 0.901 / 0.921
    (1,000-6,000)    pairs 0.733 / 0.835 / 0.898 / 0.930 -> 0.765 / 0.844 / 0.901 / 0.926
    Slack set c      lines 0.722 / 0.872 / 0.987 / 1.000 -> 0.748 / 0.838 / 0.987 / 1.000
                     pairs 0.838 / 0.902 / 0.987 / 1.000, unchanged
    needles seed 2   10,000: 0.970 / 0.995 / 1.000 -> 0.965 / 0.995 / 1.000 (top 10 /
                     1,000 / 2,000 tokens); 100,000: 0.875 / 0.925 / 0.965, unchanged
LoCoMo's summed evidence rose (6.786 -> 6.845) but set c's fell (7.308 -> 7.300): the rule
asked for it not to fall. The pattern was in the development text too: a smaller k helps
at 1,000 tokens and costs lines at 2,000 (dev 0.850 -> 0.844 at 20, 0.836 at 10). The
scaling alone is on branch f39 (no figure changes at k=60; recent_first keeps the newest first at
any k, tests/test_recall.py). Candidate: branch f39-split.
Session 49 (issue 36, measured, NOT shipped; branch summary49): a session summary's line
that opens with a pronoun says little alone ("It's a great way to relax after a long day";
the demo's "He's been with us 4 years."): 296 of the 1,738 lines the heuristic summarizer
made of the dev conversations' sessions. Joining such a sentence to the one before it in
the same message (while the two fit one line) left 20 of 1,468. Dev, lines, evidence / hit
at 1,000 / 2,000 / 4,000: 0.741 / 0.820, 0.850 / 0.884, 0.911 / 0.923 -> 0.739 / 0.824,
0.850 / 0.888, 0.911 / 0.927. Held-out, first run, by a rule written before it (hit not
lower in total, evidence not lower by 0.005 anywhere): lines 0.752 / 0.802, 0.824 / 0.851,
0.903 / 0.905 -> 0.750 / 0.796, 0.828 / 0.849, 0.909 / 0.905; pairs 0.728 / 0.777, 0.836 /
0.868, 0.898 / 0.894 -> 0.732 / 0.777, 0.832 / 0.866, 0.898 / 0.894: hit lower, not
shipped. A second form, only a person's pronoun (he, she, they...; "it" is often a dummy
subject), by a rule written before it (hit and evidence summed over the six held-out cells
not lower): evidence 4.941 -> 4.942, hit 5.097 -> 5.084, not shipped. A word-overlap
scorer sees no gain in a line that now says what "it" was; a reader of the context would.
`--reuse` keeps an ingested database (`--db FILE`) for runs that change only how the
context is built: the ingestion is the slow part, and it is the same for every order.

Since session 31 every conversation is ingested before any is asked, so a run that
ingests scores as every run after it on the same store. Before, a conversation was asked
before the next one was ingested, and what the tenant knows across its streams (its
people, say; the stream's rare words were ruled out) ranked it otherwise: dev lines at
1,000 tokens 0.759 at the ingesting run, 0.752 at every run after, for the same code.
The figures above marked "freshly ingested" were taken that way.
"""

import argparse
import re
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from locomo import CATEGORIES, Conversation, Line, Question, load_conversations, score
from rank_bm25 import BM25Okapi
from rich.console import Console
from rich.table import Table

from threefold import Memory, load_settings
from threefold.context.assemble import TITLES
from threefold.models.heuristic.text import STOPWORDS
from threefold.tokens import count_tokens

METHODS = ("threefold", "window", "bm25", "full")
SPLITS = {"dev": "conv-26,conv-30", "held-out": "conv-41,conv-42,conv-43"}
"""Tune on dev; run held-out once at the end (its first run is the figure that counts)."""
FULL_BUDGET = 0  # the full conversation ignores the budget; 0 marks its rows
_TOKEN = re.compile(r"\w+")


@dataclass(frozen=True)
class Result:
    method: str
    budget: int
    category: int
    evidence_recall: float | None
    answer_share: float | None
    answer_hit: bool
    tokens: int
    latency_ms: float
    shared_words: int
    """Content words the question shares with its closest evidence line."""


@dataclass(frozen=True)
class Ingested:
    conversation: Conversation
    add_seconds: float
    pipeline_seconds: float
    questions: int


# -- ingestion ----------------------------------------------------------------


def stream_of(conversation: Conversation) -> str:
    return f"chat:{conversation.sample_id}"


def ingest(mem: Memory, conversation: Conversation, pairs: bool = False) -> float:
    """Add every line as one turn (or, with `pairs`, every two lines of a session as the
    user and assistant sides of one turn, each with its speaker), closing each LoCoMo
    session; returns seconds for adding."""
    stream = stream_of(conversation)
    started = time.perf_counter()
    for session in conversation.sessions():
        if pairs:
            _add_pairs(mem, stream, session)
            mem.end_session(stream)
            continue
        for line in session:
            # One line, one turn: evidence lines map 1:1 to turns. Both speakers are people,
            # so each line is a user side with its speaker named: "I" is them.
            text = line.render().removeprefix(f"{line.speaker}: ")
            mem.add_turn(stream, user=text, at=line.at, speaker=line.speaker, source=line.source)
        mem.end_session(stream)  # session summaries follow LoCoMo's own sessions
    return time.perf_counter() - started


def _add_pairs(mem: Memory, stream: str, session: list[Line]) -> None:
    """Two lines per turn, as an assistant product sees a two-person chat: the first
    speaker as the user side, the second as the assistant side, both named."""
    for start in range(0, len(session), 2):
        first, *second = session[start : start + 2]
        mem.add_turn(
            stream,
            user=first.render().removeprefix(f"{first.speaker}: "),
            assistant=second[0].render().removeprefix(f"{second[0].speaker}: ") if second else "",
            at=first.at,
            speaker=first.speaker,
            assistant_speaker=second[0].speaker if second else None,
            source=first.source,
        )


# -- the methods ----------------------------------------------------------------


class Baselines:
    """Window, BM25 and full-conversation contexts over one conversation's raw lines.

    Lines are rendered "speaker: text" under a header with their session's date, as LoCoMo
    shows them; without the dates no method could answer the temporal questions.
    """

    def __init__(self, conversation: Conversation) -> None:
        self.lines = conversation.lines
        self.rendered = [line.render() for line in self.lines]
        # +1 for the newline that joins lines; pack() checks the exact count afterwards.
        self.costs = [count_tokens(text) + 1 for text in self.rendered]
        self.header_costs = {line.session: count_tokens(header(line)) + 1 for line in self.lines}
        self.bm25 = BM25Okapi([words(text) for text in self.rendered])
        self.full = self.render(range(len(self.lines)))

    def window(self, budget: int) -> str:
        newest_first = range(len(self.lines) - 1, -1, -1)
        return self.pack(newest_first, budget, contiguous=True)

    def ranked(self, question: str, budget: int) -> str:
        scores = self.bm25.get_scores(words(question))
        # Lines sharing no word with the question score 0: they are not retrieved.
        best_first = sorted((i for i, s in enumerate(scores) if s > 0), key=lambda i: -scores[i])
        return self.pack(best_first, budget, contiguous=False)

    def pack(self, priority: Iterable[int], budget: int, *, contiguous: bool) -> str:
        """Lines in `priority` order while they fit, rendered chronologically."""
        chosen, sessions, used = [], set(), 0
        for index in priority:
            session = self.lines[index].session
            cost = self.costs[index] + (0 if session in sessions else self.header_costs[session])
            if used + cost <= budget:
                chosen.append(index)
                sessions.add(session)
                used += cost
            elif contiguous:
                break  # a window has no gaps
        while chosen and count_tokens(self.render(chosen)) > budget:
            chosen.pop()  # the estimate fell short: drop the least wanted line
        return self.render(chosen)

    def render(self, indices: Iterable[int]) -> str:
        out, session = [], None
        for i in sorted(indices):
            if self.lines[i].session != session:
                session = self.lines[i].session
                out.append(header(self.lines[i]))
            out.append(self.rendered[i])
        return "\n".join(out)


def header(line: Line) -> str:
    return f"[session {line.session}, {line.session_time}]"


def words(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def shared_words(question: Question, by_id: dict[str, Line]) -> int:
    """The most content words (not stop words) the question shares with one evidence line:
    full text finds little for a question that shares none, where vectors must do it."""
    asked = set(words(question.text)) - STOPWORDS
    return max((len(asked & set(words(by_id[i].text))) for i in question.evidence), default=0)


def threefold_text(mem: Memory, stream: str, question: str, budget: int) -> tuple[str, str]:
    """The prompt text (for tokens) and the text to score, which leaves out the echoed
    question, since no baseline gets the question's words for free."""
    context = mem.context(stream, question, budget=budget)
    # The query is rendered last, under its own header.
    scored, _, _ = context.text.rpartition(f"## {TITLES['query']}")
    return context.text, scored


# -- the run --------------------------------------------------------------------


def timed(build: Callable[[], tuple[str, str]]) -> tuple[str, str, float]:
    started = time.perf_counter()
    prompt, scored = build()
    return prompt, scored, (time.perf_counter() - started) * 1000


def evaluate(
    mem: Memory, conversation: Conversation, questions: list[Question], budgets: list[int]
) -> list[Result]:
    baselines = Baselines(conversation)
    by_id = {line.dia_id: line for line in conversation.lines}
    stream = stream_of(conversation)
    results = []

    def record(method: str, budget: int, question: Question, build: Callable) -> None:
        prompt, scored, ms = timed(build)
        s = score(question, scored, by_id)
        results.append(
            Result(
                method=method,
                budget=budget,
                category=question.category,
                evidence_recall=s.evidence_recall,
                answer_share=s.answer_share,
                answer_hit=s.answer_hit,
                tokens=count_tokens(prompt),
                latency_ms=ms,
                shared_words=shared_words(question, by_id),
            )
        )

    for q in questions:
        for b in budgets:
            record("threefold", b, q, lambda q=q, b=b: threefold_text(mem, stream, q.text, b))
            record("window", b, q, lambda b=b: twice(baselines.window(b)))
            record("bm25", b, q, lambda q=q, b=b: twice(baselines.ranked(q.text, b)))
        record("full", FULL_BUDGET, q, lambda: twice(baselines.full))
    return results


def twice(text: str) -> tuple[str, str]:
    """Baselines prompt and score the same text."""
    return text, text


# -- the report -----------------------------------------------------------------


def mean(values: list) -> float:
    kept = [v for v in values if v is not None]
    return statistics.fmean(kept) if kept else float("nan")


def percentile(samples: list[float], share: float) -> float:
    if len(samples) < 2:
        return samples[0] if samples else float("nan")
    return statistics.quantiles(samples, n=100)[int(share * 100) - 1]


def budget_label(budget: int) -> str:
    return "all" if budget == FULL_BUDGET else f"{budget:,}"


def groups(results: list[Result], key: Callable[[Result], tuple]) -> dict[tuple, list[Result]]:
    grouped: dict[tuple, list[Result]] = defaultdict(list)
    for r in results:
        grouped[key(r)].append(r)
    return grouped


def quality(rows: list[Result]) -> list[str]:
    return [
        f"{mean([r.evidence_recall for r in rows]):.3f}",
        f"{mean([r.answer_share for r in rows]):.3f}",
        f"{mean([float(r.answer_hit) for r in rows]):.3f}",
    ]


def summary_table(results: list[Result], questions: int) -> Table:
    table = Table(
        "method",
        "budget",
        "evidence recall",
        "answer containment",
        "answer hit",
        "mean tokens",
        "p50 ms",
        "p95 ms",
        title=f"LoCoMo recall, categories 1-4 ({questions} questions)",
    )
    grouped = groups(results, lambda r: (METHODS.index(r.method), r.budget))
    for (m, budget), rows in sorted(grouped.items()):
        latency = [r.latency_ms for r in rows]
        timing = (
            [f"{percentile(latency, 0.5):.1f}", f"{percentile(latency, 0.95):.1f}"]
            # Baselines slice in-memory lists that were indexed up front: their times say nothing.
            if METHODS[m] == "threefold"
            else ["—", "—"]
        )
        mean_tokens = f"{mean([r.tokens for r in rows]):,.0f}"
        table.add_row(METHODS[m], budget_label(budget), *quality(rows), mean_tokens, *timing)
    return table


def category_table(results: list[Result], budget: int) -> Table:
    table = Table(
        "category",
        "questions",
        "method",
        "evidence recall",
        "answer containment",
        "answer hit",
        title=f"By category at {budget:,} tokens (full: all)",
    )
    wanted = [r for r in results if r.budget in (budget, FULL_BUDGET)]
    grouped = groups(wanted, lambda r: (r.category, METHODS.index(r.method)))
    for (category, m), rows in sorted(grouped.items()):
        name = f"{category} {CATEGORIES[category]}" if m == 0 else ""
        table.add_row(
            name,
            str(len(rows)) if m == 0 else "",
            METHODS[m],
            *quality(rows),
            end_section=m == len(METHODS) - 1,
        )
    return table


OVERLAP_GROUPS = (("0-1", range(2)), ("2+", range(2, 10**6)))
"""Questions by the content words they share with their closest evidence line."""


def overlap_table(results: list[Result], budget: int) -> Table:
    table = Table(
        "shared words",
        "questions",
        "method",
        "evidence recall",
        "answer containment",
        "answer hit",
        title=f"By words shared with the evidence, at {budget:,} tokens (full: all)",
    )
    wanted = [r for r in results if r.budget in (budget, FULL_BUDGET)]
    for label, shared in OVERLAP_GROUPS:
        rows = [r for r in wanted if r.shared_words in shared]
        for m, method in enumerate(METHODS):
            mine = [r for r in rows if r.method == method]
            table.add_row(
                label if m == 0 else "",
                str(len(mine)) if m == 0 else "",
                method,
                *quality(mine),
                end_section=m == len(METHODS) - 1,
            )
    return table


def ingestion_table(rows: list[Ingested], mem: Memory) -> Table:
    table = Table(
        "conversation",
        "sessions",
        "lines",
        "tokens",
        "questions 1-4",
        "add s",
        "pipeline s",
        "facts",
        "summaries",
        title="Ingestion (heuristic model, SQLite)",
    )
    for row in rows:
        conversation = row.conversation
        stream = stream_of(conversation)
        table.add_row(
            conversation.sample_id,
            str(len(conversation.sessions())),
            str(len(conversation.lines)),
            f"{sum(count_tokens(line.render()) for line in conversation.lines):,}",
            str(row.questions),
            f"{row.add_seconds:.1f}",
            f"{row.pipeline_seconds:.1f}",
            str(len(mem.facts(stream))),
            str(len(mem.summaries(stream))),
        )
    return table


# -- main -------------------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("data", type=Path, help="a LoCoMo-format JSON file")
    parser.add_argument("--budgets", type=int, nargs="+", default=[1000, 2000, 4000, 6000])
    parser.add_argument(
        "--limit-questions",
        type=int,
        metavar="N",
        help="only the first N questions per conversation",
    )
    parser.add_argument("--samples", help="comma-separated sample ids, e.g. conv-26,conv-30")
    parser.add_argument("--split", choices=sorted(SPLITS), help="the dev or held-out samples")
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="with --db: a conversation already in it is not ingested again",
    )
    parser.add_argument(
        "--category-budget", type=int, default=2000, help="budget of the per-category table"
    )
    parser.add_argument(
        "--pairs",
        action="store_true",
        help="two lines per turn (user and assistant sides, each with its speaker)",
    )
    parser.add_argument(
        "--db",
        help="an empty database to use (default: a temporary SQLite file), such as a"
        " postgresql:// URL, to compare the backends",
    )
    return parser.parse_args()


def main() -> None:
    started = time.perf_counter()
    args = parse_args()
    budgets = sorted(set(args.budgets))
    # The category table needs a budget that was run: the nearest one to the one asked for.
    category_budget = min(budgets, key=lambda b: abs(b - args.category_budget))
    console = Console()
    if not console.is_terminal:
        console.width = 120  # piped output: wide enough for the tables
    samples = args.samples or (SPLITS[args.split] if args.split else None)
    wanted = set(samples.split(",")) if samples else None
    conversations = load_conversations(args.data, wanted)
    missing = (wanted or set()) - {c.sample_id for c in conversations}
    if missing or not conversations:
        raise SystemExit(f"{args.data} has no sample {', '.join(sorted(missing))}")
    run(console, conversations, args, budgets, category_budget)
    console.print(f"run time: {time.perf_counter() - started:.1f} s")


def run(
    console: Console,
    conversations: list[Conversation],
    args: argparse.Namespace,
    budgets: list[int],
    category_budget: int,
) -> None:
    """Ingest every conversation (unless --reuse finds it), then evaluate each, and print
    the tables. All are ingested before any is asked: what a tenant knows across its
    streams (its people, say) is the tenant's, so a conversation asked before the next one
    was ingested ranked otherwise than in every later run on the same store (dev lines at
    1,000 tokens 0.759, then 0.752)."""
    results: list[Result] = []
    ingested: list[Ingested] = []
    with tempfile.TemporaryDirectory() as tmp:
        settings = load_settings(db=args.db or Path(tmp) / "locomo.db")
        with Memory.open(settings=settings, background_worker=False) as mem:
            asked = [(c, list(c.questions[: args.limit_questions])) for c in conversations]
            for conversation, questions in asked:
                if args.reuse and mem.turns(stream_of(conversation), limit=1):
                    ingested.append(Ingested(conversation, 0.0, 0.0, len(questions)))
                else:
                    ingested.append(
                        ingest_and_process(mem, conversation, len(questions), args.pairs)
                    )
            for conversation, questions in asked:
                results += evaluate(mem, conversation, questions, budgets)
            report(console, ingested, results, mem, category_budget)


def ingest_and_process(
    mem: Memory, conversation: Conversation, questions: int, pairs: bool = False
) -> Ingested:
    add_seconds = ingest(mem, conversation, pairs)
    started = time.perf_counter()
    mem.process_pending()
    return Ingested(conversation, add_seconds, time.perf_counter() - started, questions)


def report(
    console: Console, ingested: list[Ingested], results: list[Result], mem: Memory, budget: int
) -> None:
    console.print(ingestion_table(ingested, mem))
    add_total = sum(row.add_seconds for row in ingested)
    pipeline_total = sum(row.pipeline_seconds for row in ingested)
    console.print(f"ingestion: add_turn {add_total:.1f} s, process_pending {pipeline_total:.1f} s")
    for row in ingested:
        if row.conversation.unknown_evidence:
            console.print(
                f"{row.conversation.sample_id}: evidence names missing lines "
                f"{', '.join(row.conversation.unknown_evidence)} (skipped)"
            )
    console.print(summary_table(results, sum(row.questions for row in ingested)))
    console.print(category_table(results, budget))
    console.print(overlap_table(results, budget))


if __name__ == "__main__":
    main()
