"""What one context build reads: the three layers, plus what recall finds for the query.

Trust is applied here, before anything reaches the budget: a caller never gets an item
its trust level may not read.
"""

import re
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, date, datetime, time
from functools import lru_cache, partial

from threefold.context.assemble import Material, Shares
from threefold.context.links import compact
from threefold.context.staleness import replaced_mark
from threefold.dates import unannotated
from threefold.domain import (
    GLOBAL_STREAM,
    READABLE,
    DroppedItem,
    Fact,
    SourceRef,
    Summary,
    SummaryKind,
    Trust,
    Turn,
    Visibility,
)
from threefold.layers.facts import OutdatedStatements
from threefold.models.heuristic.blocks import parse
from threefold.models.heuristic.text import content_words
from threefold.recall.presets import PRESETS
from threefold.recall.search import Recall, name_words
from threefold.settings import Settings
from threefold.sources.issue_hits import current_issues
from threefold.store.base import (
    Item,
    ItemFilter,
    ObservedPins,
    PinPolicy,
    Store,
    StreamView,
    TurnWindow,
)
from threefold.tokens import count_tokens

RETRIEVE_LIMIT = 60
"""Hits retrieved for a budget of up to 2,400 tokens: more than such a context can show."""
_TOKENS_PER_HIT = 40
"""A short dated turn; a larger budget asks for one hit per this many tokens."""
_MAX_RETRIEVE = 500
"""A bound on one context's search work, however large its budget."""
INDEX_LIMIT = 50
_HEADLINE_CHARS = 90
_SNIPPET_LINES = 3


def read_view(
    store: Store, settings: Settings, tenant: str, stream: str, trust: Trust, query: str = ""
) -> StreamView:
    """What a context reads of the stream before it searches, in one store call: with it,
    which words of `query` name people, whom the search ranks apart."""
    k, n = settings.recent_turns, settings.session_turns
    # Turns the summary does not cover yet stay in view, so none falls between layers.
    sees_turns = bool(READABLE[trust])
    window = TurnWindow(least=k, most=k + 2 * n) if sees_turns else TurnWindow(least=0, most=0)
    return store.stream_view(
        tenant,
        stream,
        window=window,
        pins=pin_policy(settings, trust),
        pinned_streams=[stream] if stream == GLOBAL_STREAM else [stream, GLOBAL_STREAM],
        name_words=name_words(query) if PRESETS["default"].person_weight else (),
    )


def gather(
    view: StreamView,
    recall: Recall,
    settings: Settings,
    query: str,
    trust: Trust,
    budget: int,
) -> Material:
    """The layers of `view` (see read_view) and what recall finds for the query."""
    readable = READABLE[trust]
    tenant, stream, k = view.state.tenant, view.state.name, settings.recent_turns
    turns = view.turns
    few = min(k, settings.recent_verbatim_turns)
    # Only the newest few turns are in every context: the rest of those in view may yield
    # in a tight budget, so the search may find them, and a found one comes back at its
    # rank among the retrieved material (assemble skips it where it went in as a turn).
    guaranteed = turns[-few:] if few else []
    first_guaranteed = guaranteed[0].seq if guaranteed else view.state.turn_count + 1
    # A mark names the fact in force, so only one this caller may read marks anything.
    outdated = OutdatedStatements(
        (old, new) for old, new in view.superseded if new.visibility in readable
    )
    active = view.active_summary
    summary, removed = _without_outdated(
        active if active and active.visibility in readable else None, outdated
    )
    summary, repeated = _without_repeats(summary, turns[-k:] if k else [])
    removed += repeated
    stream_facts = view.pinned[stream]
    global_facts = (
        _global_facts(settings, query, view.pinned[GLOBAL_STREAM])
        if stream != GLOBAL_STREAM
        else []
    )
    where = ItemFilter(
        tenant=tenant,
        streams=(stream,),
        visibilities=readable,
        exclude_facts=frozenset(f.id for f in stream_facts),
        turns_before_seq=first_guaranteed,
        # Archived versions of the active summary retell the session summaries.
        summary_kinds=(SummaryKind.SESSION, SummaryKind.WEEKLY, SummaryKind.MONTHLY),
    )
    # The index lists what the turns in view do not show.
    first_in_view = turns[0].seq if turns else view.state.turn_count + 1
    beyond_view = where.model_copy(update={"turns_before_seq": first_in_view})
    limit = min(_MAX_RETRIEVE, max(RETRIEVE_LIMIT, budget // _TOKENS_PER_HIT))
    preset = PRESETS["default"]
    hits = (
        recall.search_items(
            query, where, preset, limit, named=view.aliases, turns=view.state.turn_count
        )
        if readable
        else []
    )
    hits = current_issues(hits, query)
    facts = {f.id: f.text for f in (*stream_facts, *global_facts)}
    return Material(
        stream_facts=stream_facts,
        global_facts=global_facts,
        fact_nearness=recall.nearness(tenant, query, "fact", facts) if query.strip() else None,
        summary=summary,
        turns=[t for t in turns if t.visibility in readable],
        retrieved=_distinct(_retrieved(hit, query, outdated) for hit in _raw_first(hits)),
        turns_found=_turns_found(hits, turns),
        shares=shares(settings),
        index=_index(recall.store, settings, beyond_view, hits) if settings.index_budget else [],
        index_budget=settings.index_budget,
        removed=removed,
        structured=_structured(view.structured, readable),
    )


def _turns_found(hits: Sequence[Item], turns: Sequence[Turn]) -> frozenset[str]:
    """The ids of the turns in view that the search found too."""
    in_view = {t.id for t in turns}
    return frozenset(str(h.id) for h in hits if h.kind == "turn" and h.id in in_view)


def _structured(newest: Summary | None, readable: tuple[Visibility, ...]) -> Summary | None:
    return newest if newest is not None and newest.visibility in readable else None


def shares(settings: Settings) -> Shares:
    return Shares(
        recent_turns=settings.recent_turns,
        recent_verbatim=settings.recent_verbatim_turns,
        turn_max=settings.turn_max_share,
        summary_floor=settings.summary_floor_share,
        retrieved_floor=settings.retrieved_floor_share,
        facts_ceiling=settings.facts_ceiling_share,
        facts_floor=settings.facts_floor_share,
        retrieved=settings.retrieved_share,
    )


def _global_facts(settings: Settings, query: str, pinned_global: list[Fact]) -> list[Fact]:
    """The global facts another stream's context pins: those tenant-wide by nature
    (who holds which role, company-wide decisions) and those the query is about. A
    tenant's whole Slack history must not fill every new chat's prompt."""
    wanted = content_words(query)
    return [
        f
        for f in pinned_global
        if f.category.value in settings.global_pinned_categories
        or _relevant(wanted, content_words(f.text))
    ]


def _relevant(wanted: frozenset[str], said: frozenset[str]) -> bool:
    """At least a third of the query's words, and at least one."""
    shared = len(wanted & said)
    return shared > 0 and 3 * shared >= len(wanted)


def pin_policy(settings: Settings, trust: Trust) -> PinPolicy:
    """Layer 1's policy as the store applies it, for what `trust` may read."""
    return PinPolicy(
        visibilities=READABLE[trust],
        min_confidence=settings.pin_min_confidence,
        skip_categories=tuple(settings.unpinned_categories),
        skip_sources=tuple(settings.unpinned_sources),
        observed=ObservedPins(
            sources=tuple(settings.observation_sources),
            categories=tuple(settings.pinned_observation_categories),
            min_confidence=settings.pin_observation_confidence,
        ),
    )


def pinned(store: Store, settings: Settings, tenant: str, stream: str, trust: Trust) -> list[Fact]:
    """Layer 1 as this caller may see it: active facts the pin policy keeps in the prompt."""
    policy = pin_policy(settings, trust)
    return store.pinned_facts(
        tenant,
        stream,
        visibilities=policy.visibilities,
        min_confidence=policy.min_confidence,
        skip_categories=policy.skip_categories,
        skip_sources=policy.skip_sources,
        observed=policy.observed,
    )


def pinned_texts(
    store: Store, settings: Settings, tenant: str, stream: str, trust: Trust
) -> list[str]:
    """The texts of `pinned`: what compaction must not repeat in the summary."""
    return [f.text for f in pinned(store, settings, tenant, stream, trust)]


def is_pinned(fact: Fact, settings: Settings) -> bool:
    """Layer 1's policy: what the user stated or confirmed, at or above its threshold;
    of outside messages (Slack, Jira, web), only decisions and roles stated plainly.
    Their commitments, blockers, status updates and links are recall material.

    The stores apply the same rule in their queries (pin_policy, PinPolicy.observed), as a
    stream may hold tens of thousands of facts; this is its statement for one fact."""
    if (
        fact.category.value in settings.unpinned_categories
        or fact.source.kind in settings.unpinned_sources
    ):
        return False
    if fact.source.kind.startswith(settings.observation_sources):
        return (
            fact.category.value in settings.pinned_observation_categories
            and fact.confidence >= settings.pin_observation_confidence
        )
    return fact.confidence >= settings.pin_min_confidence


def _raw_first(hits: list[Item]) -> list[Item]:
    """The hits less the facts whose turn or message was found too: the raw item says what
    the fact says, in the words that were used, and the room is better spent on another."""
    raw = {h.source.label() for h in hits if h.kind in ("turn", "record")}
    return [h for h in hits if not (h.kind == "fact" and h.source.label() in raw)]


def _distinct(entries: Iterable[tuple[str, SourceRef]]) -> list[tuple[str, SourceRef]]:
    """Archived summaries often repeat a session's words; show those words once."""
    seen: set[str] = set()
    kept = []
    for text, source in entries:
        if text not in seen:
            seen.add(text)
            kept.append((text, source))
    return kept


def _index(
    store: Store, settings: Settings, where: ItemFilter, hits: list[Item]
) -> list[tuple[str, SourceRef]]:
    """Every item of the recent days (newest first), then the relevant ones, a line each."""
    recent = store.recent_items(where, days=settings.index_recent_days, limit=INDEX_LIMIT)
    seen = {(i.kind, i.id) for i in recent}
    relevant = [h for h in hits if (h.kind, h.id) not in seen]
    entries = [(i.kind, i.id, i.text, i.source) for i in recent]
    entries += [(h.kind, h.id, h.text, h.source) for h in relevant]
    return [
        (f"{kind} {item_id}: {_headline(text)}", source) for kind, item_id, text, source in entries
    ]


def _headline(text: str) -> str:
    line = " ".join(compact(text).split())  # links short before the cut (context/links.py)
    return line if len(line) <= _HEADLINE_CHARS else line[: _HEADLINE_CHARS - 1] + "…"


def _retrieved(hit: Item, query: str, outdated: OutdatedStatements) -> tuple[str, SourceRef]:
    if hit.kind == "turn":
        user, _, assistant = hit.text.partition("\n")
        text = _turn_line(user, assistant, hit.speaker, hit.assistant_speaker)
    elif hit.kind == "summary":
        said, day = _snippet(hit.text, query, outdated)
        # Filed under the last day its lines' block covers, not the day its period ends:
        # a month's summary of what was said from 4 to 6 May is no news of 31 May.
        at = datetime.combine(day, time(), UTC) if day else hit.source.at
        return said, hit.source.model_copy(update={"at": at})
    else:
        text = hit.text
    pairs = outdated.replaced(text) if outdated else []
    if hit.kind == "fact":  # a fact now in force is no outdated statement of itself
        pairs = [(old, now) for old, now in pairs if now.id != hit.id]
    else:  # what a turn or message stated is outdated, in whatever words it was said
        stated = {now.id for _, now in pairs}
        pairs += [(old, now) for old, now in outdated.read_from(hit.source) if now.id not in stated]
    return (f"{text} {replaced_mark(pairs)}" if pairs else text), hit.source


def _turn_line(
    user: str, assistant: str, speaker: str | None = None, assistant_speaker: str | None = None
) -> str:
    parts = [
        f"{speaker or 'User'}: {user}" if user else "",
        f"{assistant_speaker or 'Assistant'}: {assistant}" if assistant else "",
    ]
    return " ".join(p for p in parts if p)


def _snippet(text: str, query: str, outdated: OutdatedStatements) -> tuple[str, date | None]:
    """The lines of a summary that share the most words with the query, in their order,
    each said as a sentence, and the last day of the blocks they are in.

    Lines are judged one by one: an outdated line is skipped, and does not taint the rest.
    """
    lines, days, where = _summary_lines(text)
    shared = [0] * len(lines)
    for word in _query_words(query):
        for i in where.get(word, ()):
            shared[i] -= 1
    order = sorted(range(len(lines)), key=shared.__getitem__)  # most shared words first
    keep: list[int] = []
    for i in order:
        if len(keep) == _SNIPPET_LINES:
            break
        if not (outdated and outdated.replacements(lines[i])):
            keep.append(i)
    keep.sort()
    said = " ".join(_as_sentence(lines[i]) for i in keep)
    return said, max((d for i in keep if (d := days[i]) is not None), default=None)


def _as_sentence(line: str) -> str:
    """A summary line, its list mark dropped, ending as a sentence does: lines put side by
    side must not run into one another ("90 guests how long should I boil an egg")."""
    said = line.lstrip("- ").strip()
    return f"{said}." if said and (said[-1].isalnum() or said[-1] in _UNENDED) else said


_UNENDED = frozenset(")]\"'”’%")
"""Closing marks after which a line still needs its full stop."""


@lru_cache(maxsize=512)
def _summary_lines(
    text: str,
) -> tuple[tuple[str, ...], tuple[date | None, ...], dict[str, tuple[int, ...]]]:
    """A summary's content lines, the last day of each one's block, and the lines each
    word is on; the same summaries come back query after query, and a question names
    only a few of their words."""
    lines: list[str] = []
    days: list[date | None] = []
    for block in parse(text):
        for line in block.lines:
            if not line.startswith("#"):
                lines.append(line)
                days.append(block.end)
    where: dict[str, list[int]] = {}
    for i, line in enumerate(lines):
        for word in _words_of(line):
            where.setdefault(word, []).append(i)
    return tuple(lines), tuple(days), {word: tuple(found) for word, found in where.items()}


def _words_of(text: str) -> frozenset[str]:
    return frozenset(re.findall(r"\w+", text.lower()))


_query_words = lru_cache(maxsize=16)(_words_of)
"""A context's question is matched against each summary it retrieved."""


def _without_outdated(
    summary: Summary | None, outdated: OutdatedStatements
) -> tuple[Summary | None, list[DroppedItem]]:
    """The summary less its lines that state superseded facts as current."""
    if summary is None or not outdated:
        return summary, []

    def why(line: str) -> str | None:
        now = outdated.replacements(line)
        return f"states a superseded fact; now: {_joined(now)}" if now else None

    return _without_lines(summary, why)


_LINE_LEAD_RE = re.compile(r"^\s*(?:[-*•]\s+)?(?:open:\s+)?", re.IGNORECASE)


def _without_repeats(
    summary: Summary | None, recent: Sequence[Turn]
) -> tuple[Summary | None, list[DroppedItem]]:
    """The summary less its lines that quote one of the last K turns, which the context
    shows whole anyway (the newest session's summary often retells them)."""
    if summary is None or not recent:
        return summary, []
    return _applied(summary, _repeated_lines(summary.text, tuple(recent)))


_Cut = tuple[str, int, tuple[tuple[int, str], ...]]
"""A summary's text less some lines, its tokens, and each removed line's tokens and reason."""


@lru_cache(maxsize=32)
def _repeated_lines(text: str, recent: tuple[Turn, ...]) -> _Cut:
    """Kept by text and turns: the same summary and recent turns come back query after
    query, and searching every line in the turns cost a tenth of a small stream's context."""
    said = " ".join(
        " ".join(f"{t.user[:_QUOTABLE_CHARS]} {t.assistant[:_QUOTABLE_CHARS]}".split())
        for t in recent
    )
    return _cut(text, partial(_repeat_reason, said))


def _repeat_reason(said: str, line: str) -> str | None:
    if line.startswith("#") or len(line) < _MIN_QUOTE:  # the body is no longer
        return None
    # A summary line resolves relative dates ("next year (2027)"); the turn said them bare.
    body = " ".join(unannotated(_LINE_LEAD_RE.sub("", line)).split())
    quoted = len(body) >= _MIN_QUOTE and body in said
    return "repeats one of the recent turns" if quoted else None


def _without_lines(
    summary: Summary, why: Callable[[str], str | None]
) -> tuple[Summary, list[DroppedItem]]:
    """The summary less the lines `why` gives a reason to drop, each dropped with it; a
    heading left with no lines goes too."""
    return _applied(summary, _cut(summary.text, why))


def _cut(text: str, why: Callable[[str], str | None]) -> _Cut:
    kept, removed = [], []
    for line in text.splitlines():
        reason = why(line)
        if reason is None:
            kept.append(line)
        else:
            removed.append((count_tokens(line), reason))
    if not removed:
        return text, 0, ()
    left = "\n".join(_without_empty_headings(kept))
    return left, count_tokens(left), tuple(removed)


def _applied(summary: Summary, cut: _Cut) -> tuple[Summary, list[DroppedItem]]:
    text, tokens, removed = cut
    if not removed:
        return summary, []
    source = summary.ref()
    dropped = [
        DroppedItem(section="summary", source=source, tokens=line_tokens, reason=reason)
        for line_tokens, reason in removed
    ]
    return summary.model_copy(update={"text": text, "tokens": tokens}), dropped


_MIN_QUOTE = 20
"""Shorter lines may repeat a turn by chance ("Thanks!")."""
_QUOTABLE_CHARS = 20_000
"""Summaries are written from a turn's start (the models read a bounded prefix), so a 10 MB
turn is searched for quotes only that far."""


def _without_empty_headings(lines: list[str]) -> list[str]:
    """A heading whose lines were all removed goes too."""
    # From the end, so that the next line with content is known without a search ahead.
    kept = []
    following = "#"
    for line in reversed(lines):
        if not (line.startswith("#") and following.startswith("#")):
            kept.append(line)
        if line.strip():
            following = line
    kept.reverse()
    return kept


def _joined(facts: list[Fact]) -> str:
    return " ".join(f.text for f in facts)
