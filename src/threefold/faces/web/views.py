"""What the pages show, computed from the Memory façade for one viewer.

Lists are paged and read no more than the page needs: the newest n turns or records, never
a whole stream, so a page stays fast however long the stream grows.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TypedDict
from urllib.parse import urlencode

from threefold.domain import (
    Fact,
    FactHistory,
    FactStatus,
    Record,
    SourceRef,
    Summary,
    SummaryKind,
    Turn,
    check_stream,
)
from threefold.errors import InvalidInput, NotFound
from threefold.faces.http.schemas import ImportStatus
from threefold.faces.web.session import Viewer
from threefold.memory import Memory
from threefold.team import Action, ActionStatus
from threefold.trust.disclosure import VisibilityOf, shown_changes, shown_facts, visibility_lookup

PAGE_SIZE = 50
COUNT_CAP = 1000
"""Record counts stop here: counting further would read the whole stream."""


@dataclass(frozen=True)
class Page:
    """One page of a list: its items, its number (from 1) and whether more follow."""

    items: Sequence[object]
    number: int
    has_next: bool

    @property
    def has_previous(self) -> bool:
        return self.number > 1


def page_of(items: Sequence[object], number: int, size: int = PAGE_SIZE) -> Page:
    start = (number - 1) * size
    return Page(items[start : start + size], number, len(items) > start + size)


def newest_page(read_newest: object, number: int, size: int = PAGE_SIZE) -> Page:
    """Page `number` of a newest-first list, reading only the newest number*size+1 items.

    `read_newest(n)` returns the newest n, oldest first, as the façade does."""
    newest = list(reversed(read_newest((number * size) + 1)))  # type: ignore[operator]
    return page_of(newest, number, size)


TURNS_AROUND = 10
"""A cited turn is shown with this many turns on each side."""


def turns_around(memory: Memory, viewer: Viewer, turn_id: int) -> tuple[Turn, list[Turn]]:
    """The turn (NotFound above the viewer's trust, as if it did not exist) and the turns
    around it that the viewer may read, newest first."""
    turn = memory.turn(turn_id, tenant=viewer.tenant)
    if not viewer.reads(turn.visibility):
        raise NotFound(f"no turn {turn_id}")
    window = memory.turns(
        turn.stream, 2 * TURNS_AROUND + 1, through=turn.seq + TURNS_AROUND, tenant=viewer.tenant
    )
    return turn, [t for t in reversed(window) if viewer.reads(t.visibility)]


def readable_record(memory: Memory, viewer: Viewer, record_id: int) -> Record:
    record = memory.record(record_id, tenant=viewer.tenant)
    if not viewer.reads(record.visibility):
        raise NotFound(f"no record {record_id}")
    return record


def known_stream(memory: Memory, viewer: Viewer, stream: str) -> str:
    """`stream` if the viewer's tenant has it; else NotFound, the same for a stream of
    another tenant as for one that does not exist."""
    check_stream(stream)
    if stream not in {s.name for s in memory.streams(tenant=viewer.tenant)}:
        raise NotFound(f"no stream {stream!r}")
    return stream


@dataclass(frozen=True)
class StreamRow:
    name: str
    turns: int
    facts: int
    summaries: int
    records: int
    records_capped: bool
    last_activity: datetime | None


def stream_row(memory: Memory, viewer: Viewer, name: str, turn_count: int) -> StreamRow:
    tenant = viewer.tenant
    last_turn = [t for t in memory.turns(name, 1, tenant=tenant) if viewer.reads(t.visibility)]
    records = memory.records(name, COUNT_CAP + 1, tenant=tenant)
    readable_records = [r for r in records if viewer.reads(r.visibility)]
    facts = [f for f in memory.facts(name, tenant=tenant) if viewer.reads(f.visibility)]
    summaries = [s for s in memory.summaries(name, tenant=tenant) if viewer.reads(s.visibility)]
    moments = [t.at for t in last_turn] + [r.at for r in readable_records[-1:]]
    return StreamRow(
        name=name,
        turns=turn_count if viewer.is_owner else _readable_turns(memory, viewer, name),
        facts=len(facts),
        summaries=len(summaries),
        records=min(len(readable_records), COUNT_CAP),
        records_capped=len(records) > COUNT_CAP,
        last_activity=max(moments, default=None),
    )


def _readable_turns(memory: Memory, viewer: Viewer, stream: str) -> int:
    # Below full trust the stream's own count would tell how many hidden turns there are.
    turns = memory.turns(stream, COUNT_CAP, tenant=viewer.tenant)
    return sum(1 for t in turns if viewer.reads(t.visibility))


def facts_page(
    memory: Memory, viewer: Viewer, stream: str, status: str, category: str, number: int
) -> Page:
    every = memory.facts(stream, include_inactive=status != "active", tenant=viewer.tenant)
    wanted = [
        f
        for f in every
        if viewer.reads(f.visibility)
        and (not status or f.status == status)
        and (not category or f.category == category)
    ]
    page = page_of(wanted, number)
    shown = shown_facts(page.items, viewer.trust, _visibility_of(memory, viewer))  # type: ignore[arg-type]
    return Page(shown, page.number, page.has_next)


def readable_fact(memory: Memory, viewer: Viewer, fact_id: int) -> Fact:
    """The fact, or NotFound when the viewer's trust may not read it, as if it did not exist."""
    fact = memory.fact(fact_id, tenant=viewer.tenant)
    if not viewer.reads(fact.visibility):
        raise NotFound(f"no fact {fact_id}")
    return fact


def fact_history(memory: Memory, viewer: Viewer, fact_id: int) -> FactHistory:
    readable_fact(memory, viewer, fact_id)
    history = memory.fact_history(fact_id, tenant=viewer.tenant)
    visibility_of = _visibility_of(memory, viewer)
    chain = shown_facts(history.chain, viewer.trust, visibility_of, key_id=viewer.key.id)
    return FactHistory(
        fact=next(f for f in chain if f.id == fact_id),
        chain=tuple(chain),
        changes=tuple(shown_changes(history.changes, viewer.trust, visibility_of)),
    )


def _visibility_of(memory: Memory, viewer: Viewer) -> VisibilityOf:
    return visibility_lookup(lambda fact_id: memory.fact(fact_id, tenant=viewer.tenant))


FACT_STATUSES = [s.value for s in FactStatus]


@dataclass
class SummaryNode:
    summary: Summary
    children: list["SummaryNode"] = field(default_factory=list)


@dataclass(frozen=True)
class SummaryTree:
    active: Summary | None
    roots: Page
    archived: list[Summary]


_ROLL_UPS = (SummaryKind.MONTHLY, SummaryKind.WEEKLY)


def summary_tree(memory: Memory, viewer: Viewer, stream: str, number: int) -> SummaryTree:
    """Monthly roll-ups over weekly ones over sessions; what no roll-up holds is a root."""
    stored = memory.summaries(stream, tenant=viewer.tenant)
    every = [s for s in stored if viewer.reads(s.visibility)]
    by_id = {s.id: s for s in every}
    rolled = {p for s in every if s.kind in _ROLL_UPS for p in s.parents}
    kept = (SummaryKind.ACTIVE, SummaryKind.ARCHIVED)
    roots = [s for s in every if s.kind not in kept and s.id not in rolled]
    roots.sort(key=lambda s: (s.period_end or s.created_at, s.id), reverse=True)
    page = page_of(roots, number, size=20)
    nodes = [_node(s, by_id) for s in page.items]  # type: ignore[arg-type]
    actives = [s for s in every if s.kind is SummaryKind.ACTIVE]
    archived = [s for s in every if s.kind is SummaryKind.ARCHIVED]
    archived.sort(key=lambda s: s.id, reverse=True)
    return SummaryTree(
        active=actives[-1] if actives else None,
        roots=Page(nodes, page.number, page.has_next),
        archived=archived[:PAGE_SIZE],
    )


def _node(summary: Summary, by_id: dict[int, Summary]) -> SummaryNode:
    if summary.kind not in _ROLL_UPS:
        return SummaryNode(summary)
    members = [by_id[p] for p in summary.parents if p in by_id]
    return SummaryNode(summary, [_node(m, by_id) for m in members])


def source_link(ref: SourceRef | None, stream: str) -> str | None:
    """Where the inspector shows the item `ref` names, if it shows such items."""
    if ref is None:
        return None
    query = urlencode({"stream": stream})
    if ref.kind == "turn" and ref.id.isdigit():
        return f"/ui/turns/{ref.id}#turn-{ref.id}"
    if ref.kind.startswith(("slack.", "jira.", "web.")) and ref.id.isdigit():
        return f"/ui/records/{ref.id}#record-{ref.id}"
    if ref.kind.startswith("summary."):
        return f"/ui/summaries?{query}#summary-{ref.id}"
    if ref.kind == "fact":
        return f"/ui/facts/{ref.id}"
    return None


def actions_page(memory: Memory, viewer: Viewer, status: str, stream: str, number: int) -> Page:
    """The actions the viewer's trust may read, newest first; `status` "" for any."""
    if status and status not in ACTION_STATUSES:
        raise InvalidInput(f"status is one of {', '.join(ACTION_STATUSES)} (or empty for any)")
    found = memory.actions(
        status=status or None,
        stream=stream or None,
        trust=viewer.trust,
        tenant=viewer.tenant,
    )
    found.sort(key=lambda a: (a.opened_at, a.id), reverse=True)
    return page_of(found, number)


def readable_action(memory: Memory, viewer: Viewer, action_id: int) -> Action:
    """The action, or NotFound when it is another tenant's or above the viewer's trust."""
    readable = memory.actions(status=None, trust=viewer.trust, tenant=viewer.tenant)
    found = next((a for a in readable if a.id == action_id), None)
    if found is None:
        raise NotFound(f"no action {action_id}")
    return found


ACTION_STATUSES = [s.value for s in ActionStatus]


class EraseArgument(TypedDict, total=False):
    """The one keyword of Memory.erase that names what goes."""

    stream: str
    entity: str
    fact_id: int


@dataclass(frozen=True)
class EraseTarget:
    """What an erasure would remove, named for the confirmation page."""

    kind: str
    """stream, entity or fact."""
    name: str
    argument: EraseArgument
    lines: list[str]
    """What will go, in words."""


def erase_target(
    memory: Memory, viewer: Viewer, stream: str, entity: str, fact_id: int | None
) -> EraseTarget:
    chosen = [x for x in (stream, entity, fact_id) if x not in ("", None)]
    if len(chosen) != 1:
        raise InvalidInput("name exactly one thing to erase: a stream, a person or a fact")
    if stream:
        return _stream_target(memory, viewer, known_stream(memory, viewer, stream))
    if fact_id is not None:
        fact = readable_fact(memory, viewer, fact_id)
        lines = [f"fact {fact.id} in {fact.stream}: “{fact.text}”"]
        return EraseTarget("fact", str(fact.id), {"fact_id": fact.id}, lines)
    events = memory.timeline(entity, limit=PAGE_SIZE, trust=viewer.trust, tenant=viewer.tenant)
    if not events:
        raise NotFound(f"nothing is known about {entity!r}")
    lines = [f"everything {entity} said or is said to be, in every stream"] + [
        f"{e.kind} {e.id} in {e.stream}: “{e.text[:120]}”" for e in reversed(events)
    ]
    return EraseTarget("entity", entity, {"entity": entity}, lines)


def _stream_target(memory: Memory, viewer: Viewer, stream: str) -> EraseTarget:
    streams = memory.streams(tenant=viewer.tenant)
    turn_count = next(s.turn_count for s in streams if s.name == stream)
    row = stream_row(memory, viewer, stream, turn_count)
    more = "+" if row.records_capped else ""
    lines = [
        f"{row.turns} turns",
        f"{row.facts} active facts and every older version of them",
        f"{row.summaries} summaries",
        f"{row.records}{more} source records",
    ]
    return EraseTarget("stream", stream, {"stream": stream}, lines)


_UNITS = {("slack", "reading"): "day files", ("jira", "reading"): "issues"}


def progress_line(job: ImportStatus) -> str:
    """The import's progress in words: 'Reading the file: 12 of 40 day files (30%)'."""
    if job.status == "queued":
        return "Waiting for the imports before it."
    if job.status == "done":
        return "Finished (100%)."
    if job.status == "failed":
        return "Stopped: see the reason below."
    progress = job.progress
    if progress is None:
        return "Starting…"
    units = _UNITS.get((job.kind, progress.step), "messages")
    step = "Reading the file" if progress.step == "reading" else "Digesting what it stored"
    if progress.total is None:
        return f"{step}: {progress.done} {units} so far."
    return f"{step}: {progress.done} of {progress.total} {units} ({progress.percent}%)."
