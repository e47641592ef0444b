"""Context assembly: every layer, in a token budget, each item with its source.

Priority when the budget is tight: facts, then the two newest turns, then structured
tracker data, then material retrieved for the query (up to its share), then the summary,
then older recent turns, then more retrieved material. Rendering order is fixed:
system, stream facts, global facts, structured data, summary, recent turns, retrieved, query.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field

from memstrata.render import block, inline
from memstrata.tokens import count_tokens, keep_last_tokens, truncate_to_tokens
from memstrata.types import (
    Context,
    ContextItem,
    ContextSection,
    DroppedItem,
    Fact,
    SourceRef,
    Summary,
    Turn,
)

MIN_TURNS = 2

SYSTEM_TEXT = (
    "Memory for this conversation follows. Facts are current and override anything older; "
    "the summary covers earlier turns; each item names its source."
)

TITLES = {
    "system": "Memory",
    "stream_facts": "Facts",
    "global_facts": "Global facts",
    "structured_data": "Structured data",
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


@dataclass
class Material:
    """What the layers hold for one context build, before any budgeting."""

    stream_facts: Sequence[Fact]
    global_facts: Sequence[Fact]
    summary: Summary | None
    turns: Sequence[Turn]
    """Recent turns, oldest first."""
    retrieved: Sequence[tuple[str, SourceRef]] = ()
    """Older material relevant to the query, most relevant first."""
    retrieved_share: float = 1.0
    """Of the room left after facts and the newest turns, what retrieved material may take
    before the summary."""
    index: Sequence[tuple[str, SourceRef]] = ()
    """One-line entries: everything recent, then what is relevant, for the memory index."""
    index_budget: int = 0
    removed: Sequence[DroppedItem] = ()
    """Items left out before budgeting, such as summary lines stating superseded facts."""
    structured: Summary | None = None
    """Counts computed from tracker data, such as Jira issues by status."""


@dataclass
class _Plan:
    budget: int
    items: dict[str, list[ContextItem]] = field(default_factory=lambda: {n: [] for n in ORDER})
    dropped: list[DroppedItem] = field(default_factory=list)
    used: int = 0
    turns: dict[int, Turn] = field(default_factory=dict)
    """Recent-turn items that went in whole, by id(item), for the messages form."""
    days: dict[str, set[str]] = field(default_factory=lambda: {n: set() for n in DAY_GROUPED})

    def header_cost(self, section: str) -> int:
        return 0 if self.items[section] else count_tokens(_header(section)) + 1

    def room(self) -> int:
        return self.budget - self.used

    def take(self, section: str, item: ContextItem, limit: int | None = None) -> bool:
        """Add the item if it fits in the budget (or in `limit`, if lower)."""
        new_day = _day(item) if section in DAY_GROUPED else None
        if new_day in self.days.get(section, ()):
            new_day = None
        cost = item.tokens + 1 + self.header_cost(section)
        cost += (count_tokens(_day_line(new_day)) + 1) if new_day else 0
        if cost > min(self.budget, limit or self.budget) - self.used:
            return False
        self.used += cost
        self.items[section].append(item)
        if new_day:
            self.days[section].add(new_day)
        return True

    def drop(self, section: str, item: ContextItem, reason: str) -> None:
        self.dropped.append(
            DroppedItem(section=section, source=item.source, tokens=item.tokens, reason=reason)
        )


def assemble(tenant: str, stream: str, query: str, budget: int, material: Material) -> Context:
    """The context within `budget` tokens of its rendered text, exactly."""
    room = budget
    while True:
        plan = _plan(query, room, material)
        context = _render(tenant, stream, query, budget, plan)
        # Turn costs are estimated from counts cached at write time; if the estimate
        # fell short, plan again in less room.
        if context.tokens <= budget or room <= 1:
            return context
        room = max(1, room - (context.tokens - budget))


def _plan(query: str, budget: int, material: Material) -> _Plan:
    plan = _Plan(budget=budget, dropped=list(material.removed))
    _place_fixed(plan, query)
    _place_facts(plan, material)
    newest_first = list(reversed(material.turns))
    turns = [_turn_item(t) for t in newest_first]
    plan.turns = {id(item): turn for item, turn in zip(turns, newest_first, strict=True)}
    for turn in turns[:MIN_TURNS]:
        _take_or_truncate(plan, "recent_turns", turn, "over budget even when cut")
    if material.structured is not None:
        item = ContextItem(
            text=block(material.structured.text), tokens=material.structured.tokens,
            source=material.structured.ref(),
        )  # fmt: skip
        _take_or_truncate(plan, "structured_data", item, "structured data cut to fit")
    retrieved = [
        _item(f"[{source.label()}] {inline(text)}", source) for text, source in material.retrieved
    ]
    # Material that answers the question gets its share before the summary takes the rest.
    reserve = int(plan.room() * material.retrieved_share)
    leftover = _place_retrieved(plan, retrieved, plan.used + reserve)
    _place_index(plan, material.index, material.index_budget)
    _place_summary(plan, material.summary)
    for turn in turns[MIN_TURNS:]:
        if not plan.take("recent_turns", turn):
            plan.drop("recent_turns", turn, "older turn; budget")
    plan.items["recent_turns"].reverse()
    for item in _place_retrieved(plan, leftover, plan.budget):
        plan.drop("retrieved", item, "less relevant; budget")
    plan.items["retrieved"].sort(key=_when)
    return plan


def _place_fixed(plan: _Plan, query: str) -> None:
    system = _item(SYSTEM_TEXT, None)
    query_item = _item(inline(query), None)
    _take_or_truncate(plan, "query", query_item, "query longer than the budget")
    if not plan.take("system", system):
        plan.drop("system", system, "budget too small for the memory preamble")


def _place_facts(plan: _Plan, material: Material) -> None:
    """Every fact if they fit; else the most confident and newest ones, in both sections."""
    candidates = [("stream_facts", f) for f in material.stream_facts]
    candidates += [("global_facts", f) for f in material.global_facts]
    position = {}
    ranked = sorted(candidates, key=lambda c: (c[1].confidence, c[1].recorded_at), reverse=True)
    for section, fact in ranked:
        item = _fact_item(fact)
        position[id(item)] = fact.recorded_at
        if not plan.take(section, item):
            plan.drop(section, item, "facts exceed the budget; kept the most confident and newest")
    for section in ("stream_facts", "global_facts"):
        # The ranking decided what stays; newest first is how it reads best.
        plan.items[section].sort(key=lambda i: position[id(i)], reverse=True)


def _place_summary(plan: _Plan, summary: Summary | None) -> None:
    if summary is None or not summary.text.strip():
        return
    item = ContextItem(text=block(summary.text), tokens=summary.tokens, source=summary.ref())
    if plan.take("summary", item):
        return
    room = plan.room() - plan.header_cost("summary") - 1
    if room < 8:
        plan.drop("summary", item, "no budget left for the summary")
        return
    cut = keep_last_tokens(item.text, room)
    plan.take("summary", ContextItem(text=cut, tokens=count_tokens(cut), source=summary.ref()))
    plan.drop(
        "summary",
        item.model_copy(update={"tokens": summary.tokens - count_tokens(cut)}),
        "summary cut to fit; its oldest part left out",
    )


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
    return (at is None, at.isoformat() if at else "")


def _day(item: ContextItem) -> str:
    at = item.source.at if item.source else None
    return at.date().isoformat() if at else "undated"


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


def _item(text: str, source: SourceRef | None) -> ContextItem:
    return ContextItem(text=text, tokens=count_tokens(text), source=source)


def _fact_item(fact: Fact) -> ContextItem:
    when = fact.source.at.date().isoformat() if fact.source.at else "undated"
    return _item(f"- {inline(fact.text)} [{fact.source.label()}, {when}]", fact.source)


def _turn_item(turn: Turn) -> ContextItem:
    head = f"[{turn.at:%Y-%m-%d %H:%M}, turn {turn.seq}]"
    parts = [head]
    if turn.user:
        parts.append(f"{inline(turn.speaker or 'User')}: {inline(turn.user)}")
    if turn.assistant:
        parts.append(f"{inline(turn.assistant_speaker or 'Assistant')}: {inline(turn.assistant)}")
    text = "\n".join(parts)
    # The turn's own count was taken at write time; only the framing is counted here.
    framing = count_tokens(head) + 6
    return ContextItem(text=text, tokens=turn.tokens + framing, source=turn.ref())


def _stamp(source: SourceRef) -> str:
    when = source.at.date().isoformat() if source.at else "undated"
    return f"[{when}, {source.label()}]"


def _header(section: str) -> str:
    return f"## {TITLES[section]}"


def _block(name: str, items: Sequence[ContextItem]) -> str:
    lines = [_header(name)]
    shown = None
    for item in items:
        day = _day(item) if name in DAY_GROUPED else None
        if day != shown:
            shown = day
            lines.append(_day_line(day))
        lines.append(item.text)
    return "\n".join(lines)


def _render(tenant: str, stream: str, query: str, budget: int, plan: _Plan) -> Context:
    sections = []
    blocks = []
    for name in ORDER:
        items = plan.items[name]
        if not items:
            continue
        block = _block(name, items)
        blocks.append(block)
        sections.append(
            ContextSection(
                name=name, title=TITLES[name], items=tuple(items), tokens=count_tokens(block)
            )
        )
    text = "\n\n".join(blocks)
    return Context(
        tenant=tenant,
        stream=stream,
        query=query,
        budget=budget,
        sections=tuple(sections),
        text=text,
        messages=tuple(_messages(plan)),
        tokens=count_tokens(text),
        dropped=tuple(plan.dropped),
    )


def _messages(plan: _Plan) -> list[dict[str, str]]:
    memory = [n for n in ORDER if n not in ("recent_turns", "query") and plan.items[n]]
    system = "\n\n".join(_block(n, plan.items[n]) for n in memory)
    messages = [{"role": "system", "content": system}] if system else []
    for item in plan.items["recent_turns"]:
        messages.extend(_turn_messages(item, plan.turns.get(id(item))))
    messages.extend({"role": "user", "content": i.text} for i in plan.items["query"])
    return messages


def _turn_messages(item: ContextItem, turn: Turn | None) -> list[dict[str, str]]:
    if turn is None:  # cut to fit: only the cut text is in the budget
        return [{"role": "user", "content": item.text}]
    pairs = (("user", turn.user), ("assistant", turn.assistant))
    return [{"role": role, "content": text} for role, text in pairs if text]
