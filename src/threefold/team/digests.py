"""Daily digests: what one stream's turns and messages said on one day, and what was
learned (decisions, commitments, blockers, deadlines, roles), in a given time zone.

A day's digest is stored once per (stream, day, time zone) and written again when the
day's items change. The summary is the model's summarize task, so the llm model writes
it where one is configured.
"""

from datetime import UTC, date, datetime

from threefold.domain import (
    FactCategory,
    Record,
    SourceRef,
    Turn,
    Visibility,
    as_utc,
    most_private,
)
from threefold.models.base import MemoryModel, TurnInput
from threefold.store.base import Store
from threefold.team.model import DailyDigest, Digest, ProfileItem
from threefold.team.periods import Days

DAY_TOKENS = 160
LEARNED = frozenset(
    {
        FactCategory.DECISION,
        FactCategory.COMMITMENT,
        FactCategory.BLOCKER,
        FactCategory.DEADLINE,
        FactCategory.ASSIGNMENT,
        FactCategory.ROLE,
        FactCategory.HANDOFF,
    }
)
_LEARNED_ITEMS = 12


def period_digest(
    store: Store,
    model: MemoryModel,
    tenant: str,
    stream: str,
    days: Days,
    timezone: str,
    visibilities: tuple[Visibility, ...],
) -> Digest:
    every = visibilities == tuple(Visibility)
    stored = (
        {
            row["day"]: row
            for row in store.digest_rows(
                tenant, stream, days.first.isoformat(), days.last.isoformat(), timezone
            )
        }
        if every
        else {}
    )
    daily = []
    for day in days.each():
        built = _day(store, model, tenant, stream, day, days, visibilities, stored.get(str(day)))
        if built.items:
            daily.append(built)
    return Digest(
        stream=stream,
        period=days.label,
        first_day=days.first,
        last_day=days.last,
        timezone=timezone,
        days=tuple(daily),
        text=_text(stream, days, timezone, daily),
        empty=not daily,
    )


def _day(
    store: Store,
    model: MemoryModel,
    tenant: str,
    stream: str,
    day: date,
    days: Days,
    visibilities: tuple[Visibility, ...],
    stored: dict | None,
) -> DailyDigest:
    start, end = days.bounds(day)
    records = [
        r for r in store.records_between(tenant, stream, start, end) if r.visibility in visibilities
    ]
    turns = [
        t for t in store.turns_between(tenant, stream, start, end) if t.visibility in visibilities
    ]
    if not records and not turns:
        return DailyDigest(day=day, text="", items=0)
    mark = _fingerprint(records, turns)
    if stored is not None and stored.get("fingerprint") == mark:
        return DailyDigest.model_validate(
            {k: v for k, v in stored.items() if k in DailyDigest.model_fields}
        )
    said = [_as_turn(stream, r) for r in records if r.kind != "bot"] or [
        _as_turn(stream, r) for r in records
    ]
    said += [
        TurnInput(stream=stream, user=t.user, assistant=t.assistant, at=t.at, speaker=t.speaker)
        for t in turns
    ]
    said.sort(key=lambda t: t.at)
    text = model.summarize_session(said, DAY_TOKENS).text.strip()
    digest = DailyDigest(
        day=day,
        text=text,
        items=len(records) + len(turns),
        learned=tuple(_learned(store, tenant, stream, start, end, visibilities)),
        sources=tuple([r.ref() for r in records] + [t.ref() for t in turns]),
        visibility=most_private([r.visibility for r in records] + [t.visibility for t in turns]),
    )
    if visibilities == tuple(Visibility):
        data = digest.model_dump(mode="json", exclude={"visibility", "day"})
        store.put_digest(
            tenant,
            stream,
            day.isoformat(),
            days.zone.key,
            {**data, "fingerprint": mark},
            digest.visibility,
        )
    return digest


def _learned(
    store: Store,
    tenant: str,
    stream: str,
    start: datetime,
    end: datetime,
    visibilities: tuple[Visibility, ...],
) -> list[ProfileItem]:
    facts = [
        f
        for f in store.facts(tenant, stream)
        if f.category in LEARNED
        and f.visibility in visibilities
        and start <= as_utc(f.source.at or f.recorded_at) < end
    ]
    facts.sort(key=lambda f: (f.category != FactCategory.DECISION, f.source.at or f.recorded_at))
    return [
        ProfileItem(
            text=f.text, source=f.source, visibility=f.visibility, fact_id=f.id, stream=stream
        )
        for f in facts[:_LEARNED_ITEMS]
    ]


def _as_turn(stream: str, record: Record) -> TurnInput:
    return TurnInput(stream=stream, user=f"{record.author}: {record.text}", at=record.at)


def _fingerprint(records: list[Record], turns: list[Turn]) -> str:
    return f"{len(records)}:{max((r.id for r in records), default=0)}:{len(turns)}:" + str(
        max((t.id for t in turns), default=0)
    )


def _text(stream: str, days: Days, timezone: str, daily: list[DailyDigest]) -> str:
    span = str(days.first) if days.first == days.last else f"{days.first} to {days.last}"
    if not daily:
        return f"No activity in {stream} {days.label} ({span}, {timezone}): nothing to digest."
    blocks = [f"{stream}, {days.label} ({span}, {timezone}):"]
    for day in daily:
        blocks.append(f"### {day.day} ({day.items} items)\n{day.text}")
        if day.learned:
            blocks.append("Learned:\n" + "\n".join(f"- {i.text}" for i in day.learned))
    return "\n".join(blocks)


def lines(digest: Digest) -> list[tuple[str, SourceRef | None]]:
    """The digest as context lines, each day citing itself."""
    if digest.empty:
        return [(digest.text, None)]
    out: list[tuple[str, SourceRef | None]] = []
    for day in digest.days:
        ref = SourceRef(
            kind="digest",
            id=f"{digest.stream}@{day.day}",
            at=datetime(day.day.year, day.day.month, day.day.day, tzinfo=UTC),
        )
        out.append((f"{day.day}: {' '.join(day.text.split())}", ref))
        out += [(f"{day.day} learned: {item.text}", item.source) for item in day.learned]
    return out
