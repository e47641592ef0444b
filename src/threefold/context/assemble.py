"""Context assembly: every layer, in a token budget, each item with its source.

The budget is spent in this order (the shares are settings, see `Shares`):

1. the query and the preamble;
2. pinned facts, stream and global, up to their floor (`facts_floor`): corrections and
   the user's own word first, then relevance to the query, confidence and recency. When
   they outgrow the ceiling, the facts about one subject share one profile line,
   shortened to what fits: the best-ranked facts survive any budget that holds the
   preamble;
3. the newest few of the last K turns (`recent_verbatim`), guaranteed: one may take at
   most `turn_max` of the budget (a longer one is cut and marked);
4. a floor for the summary (its newest whole lines within its share), and one for
   retrieved material, held back while the next steps run;
5. more pinned facts, up to their ceiling, beside those floors;
6. the rest of the last K turns, newest first, while they fit beside the floors: in a
   tight budget the older ones yield to the floors and to facts, and `dropped` says so.
   Measured on LoCoMo, as one line per turn and as pairs with speakers, at 1,000-6,000
   tokens (benchmarks/recall_locomo.py): a question about the past is answered from
   retrieved material, which a tight budget otherwise spends on turns it has not asked
   about. The search sees these turns too, so one the question is about comes back at
   its rank in step 8 (a turn is shown once: among the recent turns if it went in there);
7. structured tracker data;
8. material retrieved for the query: its floor, then up to its share of what is left;
9. the summary, in all the room left (at least its floor), cut at line boundaries;
10. turns older than the last K that the summary does not cover yet, then more retrieved.

The costs of items are estimates (a newline may merge with the next token): a plan that
left room unused while it turned items away is made again in more room, and one over the
budget in less.

Items that a newer message in view may have changed are marked possibly outdated
(context.staleness).

Rendering order is fixed: system, stream facts, global facts, structured data, summary,
recent turns, retrieved, query.
"""

import gc
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache

from threefold.context.links import compact
from threefold.context.render import block, cite, figures, fold, inline
from threefold.context.staleness import REPLACED, Staleness, from_turn, marked
from threefold.dates import dated, spoken, spoken_span
from threefold.domain import (
    Context,
    ContextItem,
    ContextSection,
    DroppedItem,
    Fact,
    SourceRef,
    Summary,
    Turn,
)
from threefold.models.heuristic.text import content_words
from threefold.tokens import count_joined, count_tokens, truncate_to_tokens

MIN_TURN_TOKENS = 48
"""However small the budget, a turn cut to its share keeps this many tokens: less than
that says nothing."""
PROFILE_FACTS = 8
"""Facts written out in one profile line; the rest are counted there and stay searchable."""
USERS_WORD = frozenset({"turn", "manual"})
"""Source kinds of facts the user stated or confirmed, as opposed to outside messages."""

TURNS_DROPPED = "the budget cannot hold all of the last K turns; the newest are kept"
TURNS_YIELDED = (
    "one of the last K turns beyond the newest few; yielded to pinned facts and the "
    "summary's and retrieved material's floors in a tight budget"
)
TURN_CUT = "turn longer than its share of the budget; cut and marked"
OLDER_TURN = "older than the last K turns; budget"
FACTS_DROPPED = "over the facts ceiling; still searchable"
FACTS_NO_ROOM = "the budget has no room left for it; still searchable"
FACTS_HELD_OUT = (
    "beyond the facts' floor, and the room left was held for the summary and retrieved "
    "material; still searchable"
)
PROFILE_REST = "not written out in its subject's profile line; still searchable"
SUMMARY_CUT = "summary cut to fit; its oldest lines left out"

SYSTEM_TEXT = (
    "Memory for this conversation follows; each item names its source and the date it was "
    "last stated. A newer message in the conversation wins over an older fact. Items marked "
    "possibly outdated came before a newer message on their topic. The summary covers "
    "earlier turns."
)

TITLES = {
    "system": "Memory",
    "stream_facts": "Facts",
    "global_facts": "Global facts",
    "structured_data": "Structured data",
    "profiles": "Profiles of who and what the question names",
    "projects": "From each project named",
    "digest": "Digests of the period asked about",
    "memory_index": "Memory index",
    "summary": "Summary of earlier conversation",
    "recent_turns": "Recent turns",
    "retrieved": "Retrieved from older memory",
    "query": "Current question",
}
ORDER = tuple(TITLES)
DAY_GROUPED = frozenset({"retrieved"})
"""Sections shown under one line per day: a date per item would cost a tenth of the
section's tokens."""


@dataclass(frozen=True)
class Shares:
    """How a budget is shared between the layers; Settings holds each default."""

    recent_turns: int = 10
    """K: the last K turns, shown verbatim while the budget holds them."""
    recent_verbatim: int = 3
    """The newest of them that are guaranteed; the rest yield to the floors."""
    facts_floor: float = 0.1
    """Pinned facts keep this share (at least FACTS_FLOOR_TOKENS) ahead of every turn;
    they may take more, up to their ceiling, once the last K turns and the floors are in."""
    turn_max: float = 0.25
    summary_floor: float = 0.05
    retrieved_floor: float = 0.6
    """Older material relevant to the question keeps this share ahead of facts: recall is
    how a small context still reaches what the recent turns do not hold."""
    facts_ceiling: float = 0.25
    retrieved: float = 1.0
    """Of the room left after turns, the summary floor and facts, what retrieved material
    may take before the rest of the summary."""


@dataclass
class Material:
    """What the layers hold for one context build, before any budgeting."""

    stream_facts: Sequence[Fact]
    global_facts: Sequence[Fact]
    summary: Summary | None
    turns: Sequence[Turn]
    """Recent turns, oldest first: the last K and any older ones no summary covers yet."""
    retrieved: Sequence[tuple[str, SourceRef]] = ()
    """Older material relevant to the query, most relevant first."""
    shares: Shares = Shares()
    index: Sequence[tuple[str, SourceRef]] = ()
    """One-line entries: everything recent, then what is relevant, for the memory index."""
    index_budget: int = 0
    turns_found: frozenset[str] = frozenset()
    """The ids of the turns in view that retrieved material holds too: shown once, as a
    turn where it went in as one."""
    removed: Sequence[DroppedItem] = ()
    """Items left out before budgeting, such as summary lines stating superseded facts."""
    structured: Summary | None = None
    """Counts computed from tracker data, such as Jira issues by status."""
    profiles: Sequence[tuple[str, SourceRef | None]] = ()
    """Lines of the profiles of the people and projects the question names."""
    projects: Sequence[tuple[str, SourceRef | None]] = ()
    """Items from each of several projects the question names, labelled with it."""
    digest: Sequence[tuple[str, SourceRef | None]] = ()
    """Lines of the digests of the period the question asks about."""
    team_shares: tuple[float, float, float] = (0.15, 0.3, 0.25)
    """The most of the budget profiles, projects and digests may each take."""
    fact_nearness: Mapping[int, float] | None = None
    """How near in meaning each fact (by id) is to the question, from the embedder's
    vectors; None without an embedder, and facts are ranked by the words they share
    with it."""
    ranked: dict[str, list[tuple[str, Fact]]] = field(default_factory=dict, repr=False)
    """The facts as _ranked_facts orders them for a query: a build plans up to four
    times, and sorting thousands of facts each time would cost more than the plan."""


@dataclass
class _Plan:
    budget: int
    items: dict[str, list[ContextItem]] = field(default_factory=lambda: {n: [] for n in ORDER})
    dropped: list[DroppedItem] = field(default_factory=list)
    used: int = 0
    held: int = 0
    """Tokens kept back for the summary's floor: no other section may take them."""
    turns: dict[int, Turn] = field(default_factory=dict)
    """Recent-turn items that went in whole, by id(item), for the messages form."""
    days: dict[str, set[str]] = field(default_factory=lambda: {n: set() for n in DAY_GROUPED})
    staleness: Staleness = field(default_factory=lambda: Staleness(()))
    """The newer messages in view, by which a fact is shown as possibly outdated."""
    drops: "_Drops" = field(default_factory=dict)
    """The drops the build's plans made so far (see _Built.drops)."""

    def fact_item(self, fact: Fact) -> ContextItem:
        return _fact_item(fact, self.staleness.of_fact(fact))

    def header_cost(self, section: str) -> int:
        return 0 if self.items[section] else count_tokens(_header(section)) + 1

    def room(self, section: str = "") -> int:
        held = 0 if section == "summary" else self.held
        return self.budget - held - self.used

    def take(self, section: str, item: ContextItem, limit: int | None = None) -> bool:
        """Add the item if it fits in the budget (or in `limit`, if lower)."""
        ceiling = self.used + self.room(section)
        free = min(ceiling, limit if limit is not None else ceiling) - self.used
        if item.tokens + 1 > free:  # most of a long list is turned away here, unframed
            return False
        new_day = _day(item) if section in DAY_GROUPED else None
        if new_day in self.days.get(section, ()):
            new_day = None
        cost = item.tokens + 1 + self.header_cost(section)
        cost += (count_tokens(_day_line(new_day)) + 1) if new_day else 0
        if cost > free:
            return False
        self.used += cost
        self.items[section].append(item)
        if new_day:
            self.days[section].add(new_day)
        return True

    def drop(self, section: str, item: ContextItem, reason: str) -> None:
        key = (section, id(item), reason)
        made = self.drops.get(key)
        if made is None:
            dropped = DroppedItem.model_construct(
                section=section, source=item.source, tokens=item.tokens, reason=reason
            )
            made = self.drops[key] = (item, dropped)
        self.dropped.append(made[1])


_Drops = dict[tuple[str, int, str], tuple[ContextItem, DroppedItem]]
"""Drops by section, id(item) and reason, each with its item: kept alive by the entry, its
id names no other item while the entry is kept."""


def assemble(tenant: str, stream: str, query: str, budget: int, material: Material) -> Context:
    """The context within `budget` tokens of its rendered text, exactly."""
    with _collections_paused():
        return _assemble(tenant, stream, query, budget, material)


@contextmanager
def _collections_paused() -> Iterator[None]:
    """No cyclic garbage collection while a context is planned.

    A stream of thousands of facts drops most of them, one small object each, and ranks
    them in as many tuples: made in a burst, they set off collections that move them to
    the oldest generation, and soon a full collection walks every cached fact of the
    stream (hundreds of milliseconds, measured at 10,000 facts). Planning makes no
    reference cycles; paused, the temporaries are gone before the collector runs again.
    Left alone if the application turned the collector off itself."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _assemble(tenant: str, stream: str, query: str, budget: int, material: Material) -> Context:
    room = budget
    # Items are built once: planning again in less room places the same ones.
    turns = [_turn_item(t) for t in reversed(material.turns)]
    newer = [from_turn(t) for t in material.turns]
    window = [f"{t.user} {t.assistant}" for t in material.turns]
    facts = [*material.stream_facts, *material.global_facts]
    staleness = Staleness(newer, window, facts, [(t.user, t.at) for t in material.turns])
    retrieved = [_retrieved_item(*_doubted(entry, staleness)) for entry in material.retrieved]
    summary = _doubted_summary(_with_spoken_days(material.summary), staleness)
    built = _Built(turns, retrieved, summary, staleness)
    while True:
        plan = _plan(query, room, material, budget, built)
        context = _render(tenant, stream, query, budget, plan)
        # Turn costs are estimated from counts cached at write time; if the estimate
        # fell short, plan again in less room.
        if context.tokens <= budget or room <= 1:
            break
        room = max(1, room - (context.tokens - budget))
    return _regrown(
        context,
        room,
        budget,
        lambda more: _plan(query, more, material, budget, built),
        lambda plan: _render(tenant, stream, query, budget, plan),
    )


MAX_REGROWS = 3
"""Plans in more room after one that fitted: the estimate errs by a few tokens per item."""


REGROW_SLACK = 8
"""Unused tokens worth planning again for: below this no dropped item could fit."""


def _regrown(
    context: Context,
    room: int,
    budget: int,
    plan_in: Callable[[int], _Plan],
    render: Callable[[_Plan], Context],
) -> Context:
    """A plan in more room than `room` whose text still fits, if the estimate left room
    unused while it turned items away: each item's cost is rounded up (a newline may merge
    with the next token, a turn's framing is estimated), and the error adds up."""
    best, grow = context, budget - context.tokens
    for _ in range(MAX_REGROWS):
        if not _left_room(best, budget) or grow < REGROW_SLACK:
            break
        tried = render(plan_in(room + grow))
        if tried.tokens <= budget:
            if tried.tokens > best.tokens:
                best, room = tried, room + grow
            grow = budget - best.tokens
        else:
            grow //= 2
    return best


def _left_room(context: Context, budget: int) -> bool:
    """Whether the plan left room unused while it turned items away for lack of it."""
    return budget - context.tokens >= REGROW_SLACK and bool(context.dropped)


@dataclass(frozen=True)
class _Built:
    """The material's turns (newest first) and retrieved entries, as context items."""

    turns: list[ContextItem]
    retrieved: list[ContextItem]
    summary: Summary | None
    """The material's summary, its lines that a newer message may change marked."""
    staleness: Staleness
    drops: _Drops = field(default_factory=dict)
    """The drops made by the plans so far: a build plans three times on average, and
    dropped mostly the same items in each, a model made anew each time (a sixth of
    assembly at 100,000 items)."""


def _doubted(entry: tuple[str, SourceRef], staleness: Staleness) -> tuple[str, SourceRef]:
    """A retrieved entry, marked if a newer message may have changed what it says. A
    summary is dated by the end of its period, not by its lines: any message may be newer
    than one of them, unless the summary retells it."""
    text, source = entry
    if REPLACED in text:  # already says what replaced it
        return entry
    at = _EARLIEST if source.kind.startswith("summary") else source.at
    doubt = staleness.of_text(text, at, source)
    return (marked(text, doubt), source) if doubt else entry


_EARLIEST = datetime.min.replace(tzinfo=UTC)
_ISO_DAY = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")


def _doubted_summary(summary: Summary | None, staleness: Staleness) -> Summary | None:
    """The summary with each line that a newer message may change marked. A line is dated
    by the first day of its period's header ("### 2026-05-04 – 2026-05-05")."""
    if summary is None or not staleness:
        return summary
    at = summary.period_start or _EARLIEST
    lines = []
    for line in summary.text.splitlines():
        if line.startswith("#"):
            at = _header_day(line) or at
            lines.append(line)
            continue
        doubt = staleness.of_text(line, at, None) if line.strip() else None
        lines.append(marked(line, doubt) if doubt else line)
    text = "\n".join(lines)
    if text == summary.text:
        return summary
    return summary.model_copy(update={"text": text, "tokens": count_tokens(text)})


def _with_spoken_days(summary: Summary | None) -> Summary | None:
    """The summary with the days of each period's header in words beside their ISO form,
    "### 2026-05-04 – 2026-05-05 (4–5 May 2026)", as every other date of a context is:
    people say dates so, and a reader matching words finds them (issue 41)."""
    if summary is None:
        return None
    text, tokens = _spoken_headers(summary.text)
    if text == summary.text:
        return summary
    return summary.model_copy(update={"text": text, "tokens": tokens})


@lru_cache(maxsize=64)
def _spoken_headers(text: str) -> tuple[str, int]:
    """`text` with its headers' days spoken and its links written short (context/links.py),
    and its tokens. Kept by text: the same summary is rendered by every context until it
    changes."""
    lines = [
        _spoken_header(line) if line.startswith("#") else compact(line) for line in text.split("\n")
    ]
    spoken_text = "\n".join(lines)
    return spoken_text, count_tokens(spoken_text)


def _spoken_header(header: str) -> str:
    days = [day for found in _ISO_DAY.finditer(header) if (day := _day_of(found))]
    if not days or "(" in header:
        return header
    return f"{header} ({spoken_span(days[0].date(), days[-1].date())})"


def _header_day(header: str) -> datetime | None:
    found = _ISO_DAY.search(header)
    return _day_of(found) if found else None


def _day_of(found: re.Match[str]) -> datetime | None:
    try:
        year, month, day = map(int, found.groups())
        return datetime(year, month, day, tzinfo=UTC)
    except ValueError:
        return None


def _plan(query: str, room: int, material: Material, budget: int, built: _Built) -> _Plan:
    """A plan within `room` tokens; shares are of the `budget` asked for, so that planning
    again in less room (see assemble) does not shrink the summary's floor."""
    shares = material.shares
    plan = _Plan(
        budget=room, dropped=list(material.removed), staleness=built.staleness, drops=built.drops
    )
    _place_fixed(plan, query)
    turns = built.turns
    newest_first = reversed(material.turns)
    plan.turns = {id(item): turn for item, turn in zip(turns, newest_first, strict=True)}
    k = shares.recent_turns
    few = min(k, shares.recent_verbatim)
    cap = max(MIN_TURN_TOKENS, int(budget * shares.turn_max))
    ceiling = int(budget * shares.facts_ceiling)
    floor = min(ceiling, max(FACTS_FLOOR_TOKENS, int(budget * shares.facts_floor)))
    # Only the floor is sure to be theirs: past it, facts yield to the floors of the
    # summary and of retrieved material, so they are condensed unless the floor holds all.
    groups = _fact_groups(plan, material, query, floor)
    before = plan.used
    groups = _place_facts(plan, groups, floor, last=False)
    facts_used = plan.used - before
    _place_last_turns(plan, turns[:few], cap)
    plan.held = _summary_floor(plan, built.summary, int(budget * shares.summary_floor))
    recall_floor = _retrieved_floor(plan, built.retrieved, int(budget * shares.retrieved_floor))
    plan.held += recall_floor
    # Past the newest few, the last K turns yield to facts up to their ceiling: a pinned
    # fact (an allergy, an employer) is meant for every prompt, an older turn is not.
    before = plan.used
    _place_facts(plan, groups, ceiling - facts_used, last=True)
    _place_more_last_turns(plan, turns[few:k], cap, yielded=plan.used - before)
    _place_team(plan, material, budget)
    plan.held -= recall_floor
    if material.structured is not None:
        item = ContextItem(
            text=figures(material.structured.text),
            tokens=material.structured.tokens,
            source=material.structured.ref(),
        )
        _take_or_truncate(plan, "structured_data", item, "structured data cut to fit")
    # Material that answers the question gets its share before the summary takes the rest.
    reserve = int(plan.room() * shares.retrieved)
    retrieved = _not_shown(built.retrieved, plan.items["recent_turns"], material.turns_found)
    leftover = _place_retrieved(plan, retrieved, plan.used + reserve)
    _place_index(plan, material.index, material.index_budget)
    plan.held = 0
    _place_summary(plan, built.summary)
    _place_older_turns(plan, _not_shown(turns[k:], plan.items["retrieved"], material.turns_found))
    plan.items["recent_turns"].reverse()
    for item in _place_retrieved(plan, leftover, plan.budget):
        plan.drop("retrieved", item, "less relevant; budget")
    plan.items["retrieved"].sort(key=_when)
    _came_back(plan)
    return plan


def _not_shown(
    items: Sequence[ContextItem], shown: Sequence[ContextItem], found: frozenset[str]
) -> list[ContextItem]:
    """`items` less the turns in view that the search `found` and `shown` holds: such a
    turn is shown once, and a fact read from it (which names it as its source) goes with
    it: the turn itself is the better evidence."""
    twice = {
        item.source.id
        for item in shown
        if item.source is not None and item.source.kind == "turn" and item.source.id in found
    }
    return [
        item
        for item in items
        if item.source is None or item.source.kind != "turn" or item.source.id not in twice
    ]


def _came_back(plan: _Plan) -> None:
    """Forget the drop of a turn that yielded its place among the recent turns and came
    back as retrieved material: it is in the context."""
    retrieved = {i.source.label() for i in plan.items["retrieved"] if i.source is not None}
    plan.dropped = [
        d
        for d in plan.dropped
        if d.section != "recent_turns" or d.source is None or d.source.label() not in retrieved
    ]


TEAM_DROPPED = "over its share of the budget (settings.team)"


def _place_team(plan: _Plan, material: Material, budget: int) -> None:
    """Profiles, items from each named project, and digests, each within its share, after
    facts and with the summary's and retrieved material's floors still held: the question
    asked for them by name, but they must not crowd out the layers."""
    sections = (
        ("profiles", material.profiles),
        ("projects", material.projects),
        ("digest", material.digest),
    )
    for (section, lines), share in zip(sections, material.team_shares, strict=True):
        until = plan.used + int(budget * share)
        for text, source in lines:
            item = _item(
                inline(text) if source is None else f"{inline(text)} [{cite(source.label())}]",
                source,
            )
            if not plan.take(section, item, limit=until):
                plan.drop(section, item, TEAM_DROPPED)


def _retrieved_floor(plan: _Plan, retrieved: Sequence[ContextItem], floor: int) -> int:
    """Tokens to hold for retrieved material: its floor, or less if it has less to show."""
    if not retrieved:
        return 0
    wanted = sum(item.tokens + 1 for item in retrieved)
    return max(0, min(floor, wanted, plan.room()))


def _place_fixed(plan: _Plan, query: str) -> None:
    system = _item(SYSTEM_TEXT, None)
    query_item = _item(inline(query), None)
    _take_or_truncate(plan, "query", query_item, "query longer than the budget")
    if not plan.take("system", system):
        plan.drop("system", system, "budget too small for the memory preamble")


def _place_last_turns(plan: _Plan, newest_first: Sequence[ContextItem], cap: int) -> None:
    """The last K turns, each within `cap`; when even so they do not all fit, the newest
    ones that do, and the newest cut to the room left if it alone does not fit."""
    for position, item in enumerate(newest_first):
        capped = _capped(item, cap)
        if plan.take("recent_turns", capped):
            if capped is not item:
                rest = item.model_copy(update={"tokens": item.tokens - capped.tokens})
                plan.drop("recent_turns", rest, TURN_CUT)
            continue
        if not plan.items["recent_turns"]:
            _take_or_truncate(plan, "recent_turns", item, TURNS_DROPPED)
            continue
        for left_out in newest_first[position:]:
            plan.drop("recent_turns", left_out, TURNS_DROPPED)
        return


def _place_more_last_turns(
    plan: _Plan, newest_first: Sequence[ContextItem], cap: int, yielded: int
) -> None:
    """The last K turns beyond the newest few, each within `cap`, while they fit beside
    the summary's and retrieved material's floors and the facts placed past their floor
    (`yielded` tokens); the older ones yield to them."""
    for position, item in enumerate(newest_first):
        capped = _capped(item, cap)
        if not plan.take("recent_turns", capped):
            # The true reason: the floors or facts took the room, or the budget could not
            # hold it even without them.
            took = plan.held + yielded
            cost = capped.tokens + 1 + plan.header_cost("recent_turns")
            held_out = took > 0 and cost <= plan.room() + took
            reason = TURNS_YIELDED if held_out else TURNS_DROPPED
            for left_out in newest_first[position:]:
                plan.drop("recent_turns", left_out, reason)
            return
        if capped is not item:
            rest = item.model_copy(update={"tokens": item.tokens - capped.tokens})
            plan.drop("recent_turns", rest, TURN_CUT)


def _capped(item: ContextItem, cap: int) -> ContextItem:
    """`item`, or its start within `cap` tokens, marked as cut."""
    if item.tokens <= cap:
        return item
    label = cite(item.source.label()) if item.source else "turn"
    text = truncate_to_tokens(item.text, cap, marker=f" … [cut; the whole turn is {label}]")
    return ContextItem(text=text, tokens=count_tokens(text), source=item.source)


def _place_older_turns(plan: _Plan, newest_first: Sequence[ContextItem]) -> None:
    """Turns before the last K that no summary covers yet, while they fit, newest first."""
    for position, item in enumerate(newest_first):
        if not plan.take("recent_turns", item):
            for left_out in newest_first[position:]:
                plan.drop("recent_turns", left_out, OLDER_TURN)
            return


def _summary_floor(plan: _Plan, summary: Summary | None, floor: int) -> int:
    """Tokens to hold for the summary: its newest whole lines within `floor`. The line
    that would cross it is not held (lines are never cut): one long line (a chat message
    with a log in it) held three times the floor at 1,000 tokens, room the retrieved
    material for the question needs; it still comes in if the room left holds it."""
    if summary is None or not summary.text.strip():
        return 0
    whole = summary.tokens + 1 + plan.header_cost("summary")
    if whole <= floor or floor <= 0:
        return max(0, min(whole, floor, plan.room()))
    return max(
        0, min(_newest_lines_cost(summary.text, floor, plan.header_cost("summary")), plan.room())
    )


@lru_cache(maxsize=64)
def _newest_lines_cost(text: str, floor: int, header_cost: int) -> int:
    """The tokens of a summary's newest whole lines within `floor`, framed; 0 if not even
    the newest fits. Kept: the same summary and budget come back context after context,
    and a line is counted at a time."""
    held = header_cost + 1 + count_tokens(SUMMARY_GAP) + 1
    breaks = 2  # a newline is counted as a token, but may merge into the one before it
    whole_lines = 0
    for header, lines in reversed(_blocks(text)):
        held += count_tokens(header) + 2 if header else 0
        breaks += 2
        for line in reversed(lines):
            cost = count_tokens(line) + 1
            if held + cost - (breaks + 1) > floor:
                return held if whole_lines else 0
            held += cost
            breaks += 1
            whole_lines += 1
    return held


# -- facts --------------------------------------------------------------------------


FACTS_FLOOR_TOKENS = 100
"""However small the budget, the best-ranked facts keep this much: a profile line or two."""
FACT_FRAME_TOKENS = 6
"""What a fact's line adds to its text at the least: its bullet and source stamp. Once a
line has failed to fit, the frame it measured is used instead."""


FactGroups = list[tuple[str, list[Fact]]]
"""(section, facts) to place as one line each: one fact, or one subject's profile."""


def _fact_groups(plan: _Plan, material: Material, query: str, room: int) -> FactGroups:
    """The ranked facts, a line each; if all of them would not fit in `room`, the facts
    about one subject share one profile line."""
    ranked = _ranked_facts(material, query)
    if _all_fit(plan, ranked, room):
        return [(s, [f]) for s, f in ranked]
    return _by_subject(ranked)


def _place_facts(plan: _Plan, groups: FactGroups, room: int, *, last: bool) -> FactGroups:
    """The best-ranked lines within `room` tokens; returns those that did not go in, or,
    when this is the `last` pass, counts them as dropped.

    A stream may pin thousands of facts: lines are written only for those that can still
    go in, and the rest are counted as dropped without one."""
    until = plan.used + room
    frame = FACT_FRAME_TOKENS
    left: FactGroups = []

    def leave(section: str, facts: list[Fact]) -> None:
        if last:
            _drop_facts(plan, section, facts, _why_left_out(plan, section, until))
        else:
            left.append((section, facts))

    for section, facts in groups:
        if facts[0].tokens + frame > min(until - plan.used, plan.room(section)):
            leave(section, facts)  # cannot fit: no line to write
            continue
        shown = _take_condensed(plan, section, facts, until)
        if shown:
            _drop_facts(plan, section, facts[shown:], PROFILE_REST)
            continue
        leave(section, facts)
        if len(facts) == 1:
            frame = max(frame, plan.fact_item(facts[0]).tokens - facts[0].tokens)
    return left


def _take_condensed(plan: _Plan, section: str, facts: Sequence[Fact], until: int) -> int:
    """Place the facts about one subject as one line, with as many of them as fit (up to
    PROFILE_FACTS, best first); returns how many the line shows, 0 if none fit."""
    shown = min(len(facts), PROFILE_FACTS)
    while shown:
        item = plan.fact_item(facts[0]) if len(facts) == 1 else _profile_item(plan, facts, shown)
        if plan.take(section, item, limit=until):
            return shown
        shown -= 1  # one fewer each try: a tight budget keeps all it can
    return 0


def _why_left_out(plan: _Plan, section: str, until: int) -> str:
    """The true reason a fact did not go in: its ceiling, the floors held for the summary
    and retrieved material, or a budget already spent."""
    if plan.room(section) >= until - plan.used:
        return FACTS_DROPPED
    return FACTS_HELD_OUT if plan.held else FACTS_NO_ROOM


def _all_fit(plan: _Plan, ranked: list[tuple[str, Fact]], ceiling: int) -> bool:
    """Whether every fact's own line fits in the ceiling; stops counting once over."""
    used = sum(plan.header_cost(s) for s in {section for section, _ in ranked})
    for _, fact in ranked:
        used += plan.fact_item(fact).tokens + 1
        if used > ceiling:
            return False
    return True


def _drop_facts(plan: _Plan, section: str, facts: Sequence[Fact], reason: str) -> None:
    # Built without validation: a stream may drop thousands, and every field is ours.
    plan.dropped.extend(
        DroppedItem.model_construct(
            section=section, source=f.source, tokens=f.tokens, reason=reason
        )
        for f in facts
    )


def _ranked_facts(material: Material, query: str) -> list[tuple[str, Fact]]:
    """Corrections and the user's own word first, then relevance to the query (nearness
    in meaning with an embedder, shared words without), the stream's own facts before
    global ones, confidence and recency."""
    if (done := material.ranked.get(query)) is not None:
        return done
    wanted = content_words(query)
    near, named = material.fact_nearness, _name_words(query)
    candidates = [("stream_facts", f) for f in material.stream_facts]
    candidates += [("global_facts", f) for f in material.global_facts]

    def rank(candidate: tuple[str, Fact]) -> tuple[bool, bool, float, float, bool, float, datetime]:
        section, fact = candidate
        users = fact.source.kind in USERS_WORD
        corrected = users and (fact.supersedes is not None or fact.confidence >= 1.0)
        if near is None:
            relevance = (float(len(wanted & _words(fact.text))), 0.0)
        else:
            # The person the question names first (a vector does not tell person123 from
            # person498), then meaning: "Where does she work?" finds "employed by Monzo".
            relevance = (float(_subject_word(fact.subject) in named), near.get(fact.id, 0.0))
        own = section == "stream_facts"  # at equal standing, the stream's own facts first
        return (corrected, users, *relevance, own, fact.confidence, fact.recorded_at)

    material.ranked[query] = sorted(candidates, key=rank, reverse=True)
    return material.ranked[query]


def _name_words(text: str) -> frozenset[str]:
    """Lowercase words, a possessive's 's dropped: "Rahel's" names rahel."""
    return frozenset(w.removesuffix("'s") for w in re.findall(r"[\w']+", text.lower()))


@lru_cache(maxsize=16_384)
def _subject_word(subject: str) -> str:
    """The word a question names a subject by: 'lena' of 'lena ortiz', 'user' of "user's
    sister"."""
    first = (subject.lower().split() or [""])[0]
    return first.removesuffix("'s")


@lru_cache(maxsize=16_384)
def _words(text: str) -> frozenset[str]:
    """A fact's content words: the same facts are ranked again at every context."""
    return frozenset(content_words(text))


def _by_subject(ranked: list[tuple[str, Fact]]) -> list[tuple[str, list[Fact]]]:
    """One group per (section, subject), in the rank of its best fact."""
    groups: dict[tuple[str, str], list[Fact]] = {}
    for section, fact in ranked:
        groups.setdefault((section, fact.subject), []).append(fact)
    return [(section, facts) for (section, _), facts in groups.items()]


def _profile_item(plan: _Plan, facts: Sequence[Fact], count: int) -> ContextItem:
    """'- Lena Ortiz: is the PM; owns billing [3 facts: turn:4, turn:9, slack.message:2]',
    showing the first `count` of `facts`."""
    newest = max((f.source.at for f in facts if f.source.at), default=None)
    shown = tuple(facts[:count])
    doubts = tuple(plan.staleness.of_fact(f) for f in shown)
    return _profile_line(shown, len(facts), newest, doubts)


@lru_cache(maxsize=4096)
def _profile_line(
    shown: tuple[Fact, ...],
    count: int,
    newest: datetime | None,
    doubts: tuple[SourceRef | None, ...],
) -> ContextItem:
    # Cached: a stream's profiles stay the same from one context to the next, and a stream
    # of hundreds of subjects would otherwise write and count every line again each time.
    name = _as_written(shown[0].subject, shown[0].text)
    said = "; ".join(
        marked(_predicate(f.text, name), doubt) if doubt else _predicate(f.text, name)
        for f, doubt in zip(shown, doubts, strict=True)
    )
    more = f"; and {count - len(shown)} more" if count > len(shown) else ""
    cited = ", ".join(cite(f.source.label()) for f in shown[:3]) + (", …" if count > 3 else "")
    source = SourceRef(kind="profile", id=shown[0].subject, at=newest)
    return _item(f"- {inline(f'{name}: {said}')}{more} [{count} facts: {cited}]", source)


def _as_written(subject: str, text: str) -> str:
    found = re.search(r"\b" + r"\s+".join(map(re.escape, subject.split())) + r"\b", text, re.I)
    return found[0] if found else subject


def _predicate(text: str, name: str) -> str:
    """What a fact says of its subject: the text, less the name it opens with ("The user is
    vegan" says "is vegan" of the user, and "The user's name is Dana" says "name is Dana")."""
    text = text.strip().rstrip(".")
    for opening in (name, f"the {name}"):
        for joint in (" ", "'s "):
            if text.lower().startswith(opening.lower() + joint):
                return text[len(opening) + len(joint) :]
    return text


# -- summary --------------------------------------------------------------------------


def _place_summary(plan: _Plan, summary: Summary | None) -> None:
    if summary is None or not summary.text.strip():
        return
    item = ContextItem(text=block(summary.text), tokens=summary.tokens, source=summary.ref())
    if plan.take("summary", item):
        return
    room = plan.room("summary") - plan.header_cost("summary") - 1
    cut = _newest_lines(item.text, room)
    while cut and not plan.take("summary", _item(cut, summary.ref())):
        room -= max(1, count_tokens(cut) - room)  # the estimate of line costs fell short
        cut = _newest_lines(item.text, room)
    if not cut:
        plan.drop("summary", item, "no budget left for the summary")
        return
    plan.drop(
        "summary",
        item.model_copy(update={"tokens": summary.tokens - count_tokens(cut)}),
        SUMMARY_CUT,
    )


SUMMARY_GAP = "(earlier periods left out)"


def _newest_lines(text: str, room: int) -> str:
    """The newest whole lines of a summary within `room` tokens, each under its period's
    header; a single line too long for the room is cut after a whole word."""
    blocks = _blocks(text)
    kept: list[list[str]] = []
    used = count_tokens(SUMMARY_GAP) + 1
    for header, lines in reversed(blocks):
        taken: list[str] = []
        cost = count_tokens(header) + 1 if header else 0
        for line in reversed(lines):
            if used + cost + count_tokens(line) + 1 > room:
                break
            cost += count_tokens(line) + 1
            taken.insert(0, line)
        if taken:
            kept.insert(0, ([header] if header else []) + taken)
            used += cost + 1
        if len(taken) < len(lines):
            break
    if not kept:
        newest = blocks[-1][1][-1] if blocks and blocks[-1][1] else ""
        return _cut_at_word(newest, room)
    return "\n".join([SUMMARY_GAP, "\n\n".join("\n".join(b) for b in kept)])


@lru_cache(maxsize=64)
def _blocks(text: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(header, lines) per period block; lines before any header fall under ''. Kept by
    text: the same active summary is read by every context until it changes."""
    blocks: list[tuple[str, list[str]]] = [("", [])]
    for line in text.splitlines():
        if line.startswith("#"):
            blocks.append((line, []))
        elif line.strip():
            blocks[-1][1].append(line)
    return tuple((header, tuple(lines)) for header, lines in blocks if lines)


def _cut_at_word(line: str, room: int) -> str:
    cut = truncate_to_tokens(line, room)
    if cut == line or not cut:
        return cut
    head = cut.removesuffix(" …").rsplit(" ", 1)[0] if " " in cut.strip() else ""
    return f"{head} …" if head else ""


def _place_retrieved(
    plan: _Plan, retrieved: Sequence[ContextItem], until: int
) -> list[ContextItem]:
    """Take items, most relevant first, while the plan stays within `until` tokens;
    returns those that did not go in."""
    left = []
    for item in retrieved:
        if plan.used >= until or not plan.take("retrieved", item, limit=until):
            left.append(item)
    return left


def _place_index(plan: _Plan, index: Sequence[tuple[str, SourceRef]], budget: int) -> None:
    until = plan.used + budget
    for text, source in index:
        item = _item(f"{_stamp(source)} {inline(text)}", source)
        if not plan.take("memory_index", item, limit=until):
            plan.drop("memory_index", item, "memory index budget")


def _when(item: ContextItem) -> tuple[bool, str]:
    """Chronological order, so the reader can reason about time; undated items last."""
    at = item.source.at if item.source else None
    return (at is None, _iso_time(at) if at else "")


def _day(item: ContextItem) -> str:
    at = item.source.at if item.source else None
    return _iso_day(at) if at else "undated"


# Kept by time: the same retrieved items are placed, grouped and sorted request after request.
@lru_cache(maxsize=8192)
def _iso_time(at: datetime) -> str:
    return at.isoformat()


@lru_cache(maxsize=8192)
def _iso_day(at: datetime) -> str:
    # In words alone: a day line is written once per day retrieved, often once per item,
    # and "1 August 2023" costs fewer tokens than "2023-08-01" (4 against 8).
    return spoken(at.date())


def _day_line(day: str) -> str:
    return f"### {day}"


def _take_or_truncate(plan: _Plan, section: str, item: ContextItem, reason: str) -> None:
    if plan.take(section, item):
        return
    room = plan.room() - plan.header_cost(section) - 1
    cut = truncate_to_tokens(item.text, room) if room > 0 else ""
    if not cut:
        plan.drop(section, item, reason)
        return
    plan.take(section, ContextItem(text=cut, tokens=count_tokens(cut), source=item.source))
    plan.drop(
        section,
        item.model_copy(update={"tokens": item.tokens - count_tokens(cut)}),
        "cut to fit the budget",
    )


def _item(text: str, source: SourceRef | None, tokens: int | None = None) -> ContextItem:
    tokens = count_tokens(text) if tokens is None else tokens
    # Built without validation: the text, its count and its source are ours, and a
    # context builds a hundred items or more.
    return ContextItem.model_construct(text=text, tokens=tokens, source=source)


def _fact_item(fact: Fact, doubt: SourceRef | None = None) -> ContextItem:
    line = _fact_line if len(fact.text) <= _KEPT_CHARS else _fact_line.__wrapped__
    source, doubted = fact.source, doubt.label() if doubt else None
    text, tokens = line(fact.text, source.label(), source.at, fact.last_stated, doubted)
    return _item(text, source, tokens)


def _retrieved_item(text: str, source: SourceRef) -> ContextItem:
    line = _retrieved_line if len(text) <= _KEPT_CHARS else _retrieved_line.__wrapped__
    shown, tokens = line(text, source.label())
    return _item(shown, source, tokens)


_KEPT_CHARS = 4000
"""Lines kept by text and source are this long at most: a huge turn is seldom asked about
twice, and thousands of them would hold hundreds of megabytes."""

# The line caches below are keyed and filled with strings and counts alone, never models:
# a full garbage collection walks every model a cache holds (a source, its dict and its
# field set each), and at 100,000 items their entries made most of what it walked.


@lru_cache(maxsize=16_384)
def _fact_line(
    text: str, label: str, said: datetime | None, stated: datetime | None, doubt: str | None
) -> tuple[str, int]:
    # Kept: a stream's pinned facts are written again at every context.
    line = f"- {inline(compact(text))} [{cite(label)}, {_stated_days(said, stated)}]"
    line = marked(line, doubt) if doubt else line
    return line, count_tokens(line)


def _stated_days(said: datetime | None, stated: datetime | None) -> str:
    """The day the fact was last said; when that is after the day its source was `said`,
    the days from that to it: a turn's number beside another turn's date alone would send
    a reader to the wrong turn."""
    if stated is None:
        return "undated"
    return spoken_span(said.date() if said else stated.date(), stated.date())


@lru_cache(maxsize=8192)
def _retrieved_line(text: str, label: str) -> tuple[str, int]:
    # Kept: questions about the same stream retrieve many of the same items.
    line = f"[{cite(label)}] {inline(compact(text))}"
    return line, count_tokens(line)


@lru_cache(maxsize=4096)
def _turn_item(turn: Turn) -> ContextItem:
    # Kept by the turn's every field: each context shows mostly the recent turns the one
    # before showed, read again from the store after every write.
    # The label is the turn's citation, so a source found elsewhere matches its turn.
    head = f"[{spoken(turn.at.date())} {turn.at:%H:%M}, {turn.ref().label()}]"
    parts = [head]
    user, assistant = _shown_sides(turn)
    # Each side follows its speaker on the line, so its own text starts no line: folded,
    # not escaped ("Assistant: 36." stays as said, not "\36.").
    if user:
        parts.append(f"{inline(turn.speaker or 'User')}: {fold(user)}")
    if assistant:
        parts.append(f"{inline(turn.assistant_speaker or 'Assistant')}: {fold(assistant)}")
    text = "\n".join(parts)
    if (user, assistant) != (turn.user, turn.assistant):
        return _item(text, turn.ref())  # links written short: the count at write time is off
    # The turn's own count was taken at write time; only the framing is counted here.
    framing = count_tokens(head) + 6
    return _item(text, turn.ref(), turn.tokens + framing)


def _shown_sides(turn: Turn) -> tuple[str, str]:
    """A turn's two sides as a context shows them: links written short (context/links.py),
    the stored text kept whole."""
    return compact(turn.user), compact(turn.assistant)


def _stamp(source: SourceRef) -> str:
    when = dated(source.at.date()) if source.at else "undated"
    return f"[{when}, {cite(source.label())}]"


def _header(section: str) -> str:
    return f"## {TITLES[section]}"


def _block(name: str, items: Sequence[ContextItem]) -> str:
    lines = [_header(name)]
    grouped = name in DAY_GROUPED
    shown: str | None = None
    for item in items:
        if grouped and (day := _day(item)) != shown:
            shown = day
            lines.append(_day_line(day))
        lines.append(item.text)
    return "\n".join(lines)


def _render(tenant: str, stream: str, query: str, budget: int, plan: _Plan) -> Context:
    sections = []
    blocks = {}
    for name in ORDER:
        items = plan.items[name]
        if not items:
            continue
        block = blocks[name] = _block(name, items)
        sections.append(
            ContextSection(
                name=name, title=TITLES[name], items=tuple(items), tokens=count_tokens(block)
            )
        )
    text = "\n\n".join(blocks.values())
    return Context(
        tenant=tenant,
        stream=stream,
        query=query,
        budget=budget,
        sections=tuple(sections),
        text=text,
        messages=tuple(_messages(plan, blocks)),
        tokens=count_joined(list(blocks.values()), [s.tokens for s in sections], "\n\n"),
        dropped=tuple(plan.dropped),
    )


def _messages(plan: _Plan, blocks: dict[str, str]) -> list[dict[str, str]]:
    """The context as chat messages; `blocks` holds each non-empty section's rendering."""
    memory = [n for n in blocks if n not in ("recent_turns", "query")]
    system = "\n\n".join(blocks[n] for n in memory)
    messages = [{"role": "system", "content": system}] if system else []
    for item in plan.items["recent_turns"]:
        messages.extend(_turn_messages(item, plan.turns.get(id(item))))
    messages.extend({"role": "user", "content": i.text} for i in plan.items["query"])
    return messages


def _turn_messages(item: ContextItem, turn: Turn | None) -> list[dict[str, str]]:
    if turn is None:  # cut to fit: only the cut text is in the budget
        return [{"role": "user", "content": item.text}]
    pairs = zip(("user", "assistant"), _shown_sides(turn), strict=True)
    return [{"role": role, "content": text} for role, text in pairs if text]


def budget_report(context: Context) -> dict[str, object]:
    """How the budget was spent, in a few lines: tokens and items per section, and how
    many items went, and why. For consumers that need the text, not every dropped item."""
    items: Counter[tuple[str, str]] = Counter()
    tokens: Counter[tuple[str, str]] = Counter()
    for left_out in context.dropped:
        items[(left_out.section, left_out.reason)] += 1
        tokens[(left_out.section, left_out.reason)] += left_out.tokens
    dropped = [
        {"section": section, "reason": reason, "items": n, "tokens": tokens[(section, reason)]}
        for (section, reason), n in items.items()
    ]
    return {
        "budget": context.budget,
        "tokens": context.tokens,
        "sections": {s.name: {"tokens": s.tokens, "items": len(s.items)} for s in context.sections},
        "dropped": dropped,
    }
