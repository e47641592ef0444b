"""Layer 2: session summaries, the rolling active summary, compaction and roll-ups.

Each public function does its thinking first and returns an `Apply` step: the writes,
to be run inside the job's transaction. So a model failure or a crash mid-way leaves
the stored summaries exactly as they were.
"""

from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from threefold.dates import shifted
from threefold.domain import Summary, SummaryKind, Turn, Visibility, most_private, utcnow
from threefold.layers.repairs import read_repairs
from threefold.models.base import (
    DatedSummary,
    MemoryModel,
    Period,
    PreviousTurn,
    SessionDigest,
    TurnInput,
)
from threefold.pipeline.jobs import COMPACT, ROLLUP, Apply, enqueue_once
from threefold.settings import Settings
from threefold.store.base import NewSummary, Store
from threefold.tokens import count_tokens, keep_last_tokens


def _nothing() -> None:
    return None


def turn_input(
    turn: Turn,
    referent: str | None = None,
    answered: Turn | None = None,
    people: tuple[str, ...] = (),
) -> TurnInput:
    """`turn` as a model reads it; `answered` is the stream's turn before, whose last
    words it shows read-only unless they are more private than `turn`; `people`, the
    known people it names (TurnInput.people)."""
    return TurnInput(
        stream=turn.stream,
        user=turn.user,
        assistant=turn.assistant,
        at=turn.at,
        page_context=turn.page_context,
        speaker=turn.speaker,
        assistant_speaker=turn.assistant_speaker,
        referent=referent,
        people=people,
        previous=previous_turn(answered, turn) if answered else None,
        repair=bool(read_repairs(turn.user)),
    )


OPENING_CHARS = 400
"""How much of the turn before's first side a reader is shown (its end, where the question
or the thing named usually is): enough for an antecedent, cheap on every request."""


def previous_turn(answered: Turn, turn: Turn) -> PreviousTurn | None:
    """What `turn` answers: the last side of `answered` that said something, with the side
    it replied to when there are two (read one turn at a time, "67" after "How old is
    he?" means nothing without "a gift for my dad" before it)."""
    if most_private((answered.visibility, turn.visibility)) != turn.visibility:
        return None  # a reply must not carry what its readers may not see
    if answered.assistant.strip():
        opening = answered.user.strip()
        if len(opening) > OPENING_CHARS:
            opening = "…" + opening[-OPENING_CHARS:].lstrip()
        return PreviousTurn(
            speaker=answered.assistant_speaker or "assistant",
            text=answered.assistant,
            opening=opening,
            opening_speaker=(answered.speaker or "user") if opening else "",
        )
    if answered.user.strip():
        return PreviousTurn(speaker=answered.speaker or "user", text=answered.user)
    return None


def _dated(summary: Summary) -> DatedSummary:
    start = summary.period_start or summary.created_at
    return DatedSummary(
        text=summary.text, period=Period(start=start, end=summary.period_end or start)
    )


def summarize_chunk(
    store: Store, model: MemoryModel, settings: Settings, tenant: str, stream: str, through: int
) -> Apply:
    """Summarize the turns after the chunk cursor up to `through`, and merge the result."""
    cursor = store.stream_state(tenant, stream).last_summarized_turn
    turns = store.turns(tenant, stream, after_seq=cursor, through_seq=through)
    if not turns:
        return _nothing
    seen = most_private(t.visibility for t in turns)
    fold = fold_in(
        store,
        model,
        settings,
        tenant,
        stream,
        SummaryKind.SESSION,
        [turn_input(t) for t in turns],
        seen,
    )

    def apply() -> None:
        fold()
        store.set_summarized_through(tenant, stream, turns[-1].seq)

    return apply


def fold_in(
    store: Store,
    model: MemoryModel,
    settings: Settings,
    tenant: str,
    stream: str,
    kind: SummaryKind,
    inputs: Sequence[TurnInput],
    visibility: Visibility,
) -> Apply:
    """Summarize consecutive `inputs` as one `kind` summary (a session, a Slack batch) and
    merge it into the stream's active summary."""
    digest = model.summarize_session(inputs, settings.session_summary_tokens)
    if not digest.text.strip():
        return _nothing  # small talk only: nothing worth a summary, and no empty one
    period = Period(start=inputs[0].at, end=inputs[-1].at)
    active = store.active_summary(tenant, stream)
    new = DatedSummary(text=digest.text, period=period)
    merged = model.merge_summary(_dated(active) if active else None, new, digest.open_items)
    draft = _Draft(tenant, stream)
    record = session_record(model, inputs, digest)

    def apply() -> None:
        piece = store.insert_summary(
            draft(kind, digest.text, period, len(inputs), visibility=visibility).model_copy(
                update={"record": record}
            )
        )
        periods = [period, _dated(active).period] if active else [period]
        span = Period(start=min(p.start for p in periods), end=max(p.end for p in periods))
        count = (active.item_count if active else 0) + len(inputs)
        parents = ((active.id,) if active else ()) + (piece.id,)
        generation = active.generation if active else 0
        shown = most_private([visibility, active.visibility] if active else [visibility])
        version = draft.active(merged, span, count, generation, parents, shown)
        _replace_active(store, active, version)
        if count_tokens(merged) > settings.summary_max_tokens:
            # Ahead of the stream's queue, or a backlog would grow the summary unbounded.
            enqueue_once(store, tenant, stream, COMPACT, priority=1)
        enqueue_once(store, tenant, stream, ROLLUP)

    return apply


def session_record(
    model: MemoryModel, inputs: Sequence[TurnInput], digest: SessionDigest
) -> dict[str, Any]:
    """What a session summary says, field by field, with how much it compressed and who
    wrote it: for readers and tools that want more than its bullet lines."""
    read = sum(count_tokens(i.user) + count_tokens(i.assistant) for i in inputs)
    written = max(1, count_tokens(digest.text))
    detail = getattr(model, "model", None)  # a chat model names the model it calls
    return {
        "intent": digest.intent,
        "key_facts": list(digest.key_facts),
        "decisions": list(digest.decisions),
        "open_questions": list(digest.open_questions),
        "open_items": list(digest.open_items),
        "compression_ratio": round(read / written, 1),
        "model": digest.written_by
        or (f"{model.name}:{detail}" if isinstance(detail, str) else model.name),
    }


def compact(
    store: Store,
    model: MemoryModel,
    settings: Settings,
    tenant: str,
    stream: str,
    known_facts: Sequence[str],
) -> Apply:
    """Squeeze the active summary below the cap, if it is over."""
    active = store.active_summary(tenant, stream)
    if active is None or active.tokens <= settings.summary_max_tokens:
        return _nothing
    target = settings.compaction_target_tokens
    text = _within(model.compact_summary(active.text, known_facts, target), target)
    if not text.strip():
        return _nothing  # a model that squeezed everything out must not blank the summary
    version = _Draft(tenant, stream).active(
        text,
        _dated(active).period,
        active.item_count,
        active.generation + 1,
        (active.id,),
        active.visibility,
    )
    return lambda: _replace_active(store, active, version)


def roll_up(
    store: Store,
    model: MemoryModel,
    settings: Settings,
    tenant: str,
    stream: str,
    *,
    everything: bool = False,
) -> Apply:
    """Weekly and monthly summaries for every finished period not yet (fully) rolled up.

    Only sessions after the last finished roll-up are looked at, unless `everything`
    (a refresh) asks to revisit periods that late sessions were added to. A partial view
    of a period never replaces a roll-up that counted more sessions.
    """
    since = None if everything else _rolled_up_until(store, tenant, stream)
    sessions = _pieces(store, tenant, stream, ending_after=since)
    if not sessions:
        return _nothing
    # A period is over once a later piece exists or the clock has passed its end: an idle
    # stream's last week closes on time, not when its next session starts.
    closed_by = max(max(_dated(s).period.end for s in sessions), utcnow())
    draft = _Draft(tenant, stream)
    drafts: list[NewSummary] = []
    stale: list[int] = []
    for kind, period_of in ((SummaryKind.WEEKLY, week_of), (SummaryKind.MONTHLY, month_of)):
        existing = {s.period_start: s for s in store.summaries(tenant, stream, kind)}
        for period, members in _group(sessions, period_of).items():
            done = existing.get(period.start)
            if period.end > closed_by or (done and done.item_count >= len(members)):
                continue
            text = model.roll_up([_dated(s) for s in members], settings.rollup_tokens)
            parents = tuple(s.id for s in members)
            text = _within(text, settings.rollup_tokens)
            if not text.strip():
                continue
            seen = most_private(s.visibility for s in members)
            drafts.append(draft(kind, text, period, len(members), parents=parents, visibility=seen))
            if done:
                stale.append(done.id)

    def apply() -> None:
        for summary_id in stale:
            store.set_summary_kind(tenant, summary_id, SummaryKind.ARCHIVED)
        for new in drafts:
            store.insert_summary(new)

    return apply


def rebuild(
    store: Store,
    model: MemoryModel,
    settings: Settings,
    tenant: str,
    stream: str,
    known_facts: Sequence[str],
) -> Apply:
    """A fresh active summary from the roll-ups and session summaries, compacted to fit.

    Finished months come from monthly roll-ups, finished weeks after them from weekly
    ones, and the rest from session summaries, so older time is told more briefly.
    """
    parts = _coarsest_cover(store, tenant, stream)
    if not parts:
        return _nothing
    merged: DatedSummary | None = None
    for part in map(_dated, parts):
        start = merged.period.start if merged else part.period.start
        text = model.merge_summary(merged, part, ())
        merged = DatedSummary(text=text, period=Period(start=start, end=part.period.end))
    assert merged is not None
    text = merged.text
    if count_tokens(text) > settings.summary_max_tokens:
        target = settings.compaction_target_tokens
        text = _within(model.compact_summary(text, known_facts, target), target)
    active = store.active_summary(tenant, stream)
    count = sum(s.item_count for s in _pieces(store, tenant, stream))
    generation = active.generation + 1 if active else 1
    parents = ((active.id,) if active else ()) + tuple(p.id for p in parts)
    seen = most_private(p.visibility for p in parts)
    version = _Draft(tenant, stream).active(text, merged.period, count, generation, parents, seen)
    return lambda: _replace_active(store, active, version)


def _pieces(
    store: Store, tenant: str, stream: str, ending_after: datetime | None = None
) -> list[Summary]:
    """The summaries roll-ups and rebuilds are made of: sessions and Slack batches."""
    found = [
        piece
        for kind in (SummaryKind.SESSION, SummaryKind.SLACK)
        for piece in store.summaries(tenant, stream, kind, ending_after=ending_after)
    ]
    return sorted(found, key=lambda s: (_end(s), s.id))


def _end(summary: Summary) -> datetime:
    """The end of the period a summary tells; when it names none, when it was written."""
    return summary.period_end or summary.created_at


def _rolled_up_until(store: Store, tenant: str, stream: str) -> datetime | None:
    ends = []
    for kind in (SummaryKind.WEEKLY, SummaryKind.MONTHLY):
        done = store.summaries(tenant, stream, kind)
        if not done:
            return None
        ends.append(_end(done[-1]))
    return min(ends)


class _Draft:
    """Builds the rows for one stream's summaries, with their token counts."""

    def __init__(self, tenant: str, stream: str) -> None:
        self.tenant, self.stream = tenant, stream

    def __call__(
        self,
        kind: SummaryKind,
        text: str,
        period: Period,
        item_count: int,
        generation: int = 0,
        parents: tuple[int, ...] = (),
        visibility: Visibility = Visibility.PRIVATE,
    ) -> NewSummary:
        return NewSummary(
            tenant=self.tenant,
            stream=self.stream,
            kind=kind,
            text=text,
            tokens=count_tokens(text),
            period_start=period.start,
            period_end=period.end,
            item_count=item_count,
            generation=generation,
            parents=parents,
            visibility=visibility,
        )

    def active(
        self,
        text: str,
        period: Period,
        count: int,
        generation: int,
        parents: tuple[int, ...],
        visibility: Visibility,
    ) -> NewSummary:
        return self(SummaryKind.ACTIVE, text, period, count, generation, parents, visibility)


def _coarsest_cover(store: Store, tenant: str, stream: str) -> list[Summary]:
    """Each session is told by its month's roll-up if there is one, else by its week's
    (unless that week reaches into a rolled-up month), else by itself."""
    monthly = {s.period_start: s for s in store.summaries(tenant, stream, SummaryKind.MONTHLY)}
    weekly = {s.period_start: s for s in store.summaries(tenant, stream, SummaryKind.WEEKLY)}
    chosen: dict[int, Summary] = {}
    for session in _pieces(store, tenant, stream):
        week = week_of(_end(session))
        part = monthly.get(month_of(_end(session)).start)
        if part is None and not (
            month_of(week.start).start in monthly or month_of(week.end).start in monthly
        ):
            part = weekly.get(week.start)
        part = part or session
        chosen[part.id] = part
    return sorted(chosen.values(), key=lambda s: (s.period_start, s.id))


def _replace_active(store: Store, old: Summary | None, new: NewSummary) -> None:
    if old is not None:
        store.set_summary_kind(old.tenant, old.id, SummaryKind.ARCHIVED)
    store.insert_summary(new)


def _within(text: str, limit: int) -> str:
    """Models are asked for a size; this makes sure of it, keeping the newest end from its
    first whole line (a summary is told line by line: a cut line names no one)."""
    kept = keep_last_tokens(text, limit, marker="")
    if kept == text:
        return text
    newline = kept.find("\n")
    whole = kept[newline + 1 :] if newline >= 0 else ""
    return whole if whole.strip() else kept


_JUST_BEFORE = timedelta(microseconds=-1)


# Periods are held at the calendar's edges: the week of 9999-12-31 ends with the calendar.
def week_of(moment: datetime) -> Period:
    start = shifted(moment, timedelta(days=-moment.weekday())).replace(
        hour=0, minute=0, second=0, microsecond=0
    )
    return Period(start=start, end=shifted(start, timedelta(days=7) + _JUST_BEFORE))


def month_of(moment: datetime) -> Period:
    start = moment.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    following = shifted(start, timedelta(days=32))
    if following.month == start.month:  # held at the calendar's end
        return Period(start=start, end=following)
    return Period(start=start, end=following.replace(day=1) + _JUST_BEFORE)


def _group(
    sessions: Sequence[Summary], period_of: Callable[[datetime], Period]
) -> dict[Period, list[Summary]]:
    groups: dict[Period, list[Summary]] = defaultdict(list)
    for session in sessions:
        groups[period_of(_end(session))].append(session)
    return groups
