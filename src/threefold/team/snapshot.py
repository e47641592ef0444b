"""One tenant's recent team material, read once for a rebuild: facts, records and turns."""

import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from threefold.domain import Fact, FactCategory, FactStatus, Record, SourceRef, Turn, Visibility
from threefold.sources.ingest import channel_entity, person
from threefold.store.base import Store
from threefold.team.model import ProfileItem

FINISHED = frozenset({"done", "closed", "resolved", "cancelled", "canceled", "won't do"})
HISTORY_DAYS = 120
"""How far back a rebuild reads: older work is history, not what someone is doing now."""
_ISO_DAY = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")
_MOOD_HISTORY = (FactStatus.SUPERSEDED, FactStatus.OUTRANKED)
"""A newer mood of the same person supersedes the older one, but a trend needs both."""


@dataclass
class Snapshot:
    tenant: str
    now: datetime
    facts: list[Fact]
    records: list[Record]
    turns: dict[str, list[Turn]]
    by_record: dict[int, Record] = field(default_factory=dict)

    finished: set[str] = field(default_factory=set)
    """Subjects (issue keys, lowercase) whose tracker status says the work is over."""

    in_channel: dict[str, list[Record]] = field(default_factory=dict)
    """Records per channel, in time order: where replies are looked for."""

    def __post_init__(self) -> None:
        self.by_record = {r.id: r for r in self.records}
        for record in self.records:
            self.in_channel.setdefault(record.channel, []).append(record)
        self.finished = {
            f.subject
            for f in self.facts
            if f.active and f.slot == "status" and f.value.lower() in FINISHED
        }

    def of(self, *categories: FactCategory) -> list[Fact]:
        return [f for f in self.facts if f.category in categories]

    def record_of(self, fact: Fact) -> Record | None:
        """The message a fact was read from, if it was read from one."""
        if not fact.source.kind.startswith("slack.") or not fact.source.id.isdigit():
            return None
        return self.by_record.get(int(fact.source.id))

    def author_of(self, fact: Fact) -> str | None:
        record = self.record_of(fact)
        return record.author if record else None

    def item(self, fact: Fact) -> ProfileItem:
        record = self.record_of(fact)
        return ProfileItem(
            text=fact.text,
            source=fact.source,
            visibility=fact.visibility,
            fact_id=fact.id,
            record_id=record.id if record else None,
            stream=fact.stream,
        )

    def people(self) -> dict[str, str]:
        """Timeline key -> name as written, of everyone who wrote a message or a turn."""
        found: dict[str, str] = {}
        for record in self.records:
            if record.kind != "bot" and record.source == "slack":
                found.setdefault(person(record.author), record.author)
        for turns in self.turns.values():
            for turn in turns:
                if turn.speaker:
                    found.setdefault(person(turn.speaker), turn.speaker)
        return found

    def channels(self) -> dict[str, str]:
        return {channel_entity(r.channel): r.channel for r in self.records if r.source == "slack"}


def load(store: Store, tenant: str, now: datetime, streams: list[str]) -> Snapshot:
    since, until = now - timedelta(days=HISTORY_DAYS), now + timedelta(days=1)
    facts = [
        f
        for stream in streams
        for f in store.facts(tenant, stream, include_inactive=True)
        if f.active or (f.category is FactCategory.MOOD_SIGNAL and f.status in _MOOD_HISTORY)
    ]
    records = store.records_between(tenant, None, since, until)
    turns = {stream: store.turns_between(tenant, stream, since, until) for stream in streams}
    return Snapshot(tenant, now, facts, records, turns)


def day_named(fact: Fact) -> date | None:
    """The ISO day a dated fact names (its value, else the day noted in its text)."""
    for text in (fact.value, fact.text):
        for found in _ISO_DAY.findall(text):
            try:
                return date.fromisoformat(found)
            except ValueError:
                continue
    return None


def record_item(record: Record) -> ProfileItem:
    said = " ".join(record.text.split())
    said = said if len(said) <= 160 else said[:159] + "…"
    return ProfileItem(
        text=f"{record.at:%Y-%m-%d} #{record.channel} {record.author}: {said}",
        source=record.ref(),
        visibility=record.visibility,
        record_id=record.id,
        stream=record.stream,
    )


def turn_item(turn: Turn) -> ProfileItem:
    said = " ".join(turn.user.split())[:160]
    return ProfileItem(
        text=f"{turn.at:%Y-%m-%d} {turn.stream} {turn.speaker or 'User'}: {said}",
        source=SourceRef(kind="turn", id=str(turn.id), at=turn.at),
        visibility=turn.visibility,
        stream=turn.stream,
    )


def readable(items: list[ProfileItem], visibilities: tuple[Visibility, ...]) -> list[ProfileItem]:
    return [i for i in items if i.visibility in visibilities]
