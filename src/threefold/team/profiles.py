"""Entity profiles: for each person, channel and project, its role, current work,
commitments, blockers, recent activity and mood trend, built from facts and messages.

A stored profile keeps every item with its visibility, so that a reader sees only what its
trust may read; the mood trend and activity counts are computed when it is read.
"""

from collections import Counter
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

from threefold.domain import (
    Fact,
    FactCategory,
    Visibility,
    as_utc,
    channel_entity,
    person,
    project_subject,
)
from threefold.settings import Settings
from threefold.team import voice
from threefold.team.model import MoodTrend, Profile, ProfileItem
from threefold.team.snapshot import HISTORY_DAYS, Snapshot, readable, record_item, turn_item

ACTIVITY_DAYS = 14
RECENT_ITEMS = 5
LIST_ITEMS = 8
MOOD_WINDOW_DAYS = 7.0
_STEADY = 0.25
"""A change in mean mood smaller than this is no trend."""
_WORKING = frozenset({"in progress", "started", "wip", "in review"})

Picker = Callable[[Fact], bool]


def build_all(
    snapshot: Snapshot,
    settings: Settings,
    streams: list[str],
    project_names: dict[str, str] | None = None,
) -> list[dict[str, Any]]:
    """Every profile the snapshot has material for, as stored data. `project_names`:
    stream -> the name a tracker gives the project ("Warehouse Core (WMS)")."""
    names = project_names or {}
    built = [_person(snapshot, key, name) for key, name in snapshot.people().items()]
    built += [_channel(snapshot, key, name) for key, name in snapshot.channels().items()]
    projects = {s for s in streams if project_subject(s)}
    projects |= {p.stream for p in settings.projects if project_subject(p.stream)}
    projects |= {s for s in names if project_subject(s)}
    built += [_project(snapshot, stream, names.get(stream)) for stream in sorted(projects)]
    return built


def build_one(
    snapshot: Snapshot, entity: str, name: str, project_names: dict[str, str] | None = None
) -> dict[str, Any]:
    """The profile of one entity, even one with nothing said yet."""
    if entity.startswith("channel:"):
        return _channel(snapshot, entity, name)
    if entity.startswith("person:"):
        return _person(snapshot, entity, name)
    return _project(snapshot, entity, (project_names or {}).get(entity))


def _person(snapshot: Snapshot, key: str, name: str) -> dict[str, Any]:
    names = snapshot.names(key, name)

    def theirs(fact: Fact) -> bool:
        return fact.subject in names

    def authored(fact: Fact) -> bool:
        record = snapshot.record_of(fact)
        return theirs(fact) or (record is not None and snapshot.wrote(record, key, names))

    def holds(fact: Fact) -> bool:
        # A tracker names people in full ("Priya Raman") where chat says "Priya".
        value = fact.value.lower()
        return value in names or (value.split() or [""])[0] in names or theirs(fact)

    own = [r for r in snapshot.records if snapshot.wrote(r, key, names) and r.kind != "bot"]
    turns = [t for ts in snapshot.turns.values() for t in ts if (t.speaker or "").lower() in names]
    activity = [record_item(r) for r in own] + [turn_item(t) for t in turns]
    return _data(
        snapshot,
        key,
        "person",
        name,
        role=_items(snapshot, holds, FactCategory.ROLE),
        current_work=_work(snapshot, holds, theirs),
        commitments=_items(snapshot, _open_promise(snapshot, theirs), FactCategory.COMMITMENT),
        blockers=_items(snapshot, _both(authored, snapshot.standing_blocker), FactCategory.BLOCKER),
        decisions=_items(snapshot, authored, FactCategory.DECISION),
        activity=activity,
        mood=_items(snapshot, theirs, FactCategory.MOOD_SIGNAL, limit=None),
        note="" if activity else _quiet(snapshot, name, "messages or turns"),
    )


def _channel(snapshot: Snapshot, key: str, name: str) -> dict[str, Any]:
    records = [r for r in snapshot.records if channel_entity(r.channel) == key]

    def said_here(fact: Fact) -> bool:
        record = snapshot.record_of(fact)
        return record is not None and channel_entity(record.channel) == key

    streams = Counter(r.stream for r in records)
    role = [
        ProfileItem(
            text=f"Slack channel #{name}; its messages go to {stream}",
            source=r.ref(),
            visibility=r.visibility,
            record_id=r.id,
            stream=stream,
        )
        for stream, r in ((s, next(r for r in records if r.stream == s)) for s in streams)
    ]
    return _data(
        snapshot,
        key,
        "channel",
        name,
        role=role,
        current_work=_work(snapshot, said_here, said_here),
        commitments=_items(snapshot, _open_promise(snapshot, said_here), FactCategory.COMMITMENT),
        blockers=_items(
            snapshot, _both(said_here, snapshot.standing_blocker), FactCategory.BLOCKER
        ),
        decisions=_items(snapshot, said_here, FactCategory.DECISION),
        activity=[record_item(r) for r in records],
        mood=_items(snapshot, said_here, FactCategory.MOOD_SIGNAL, limit=None),
        people=_speakers(r.author for r in records if r.kind != "bot"),
        note="" if records else _quiet(snapshot, f"#{name}", "messages"),
    )


def _project(snapshot: Snapshot, stream: str, title: str | None = None) -> dict[str, Any]:
    def here(fact: Fact) -> bool:
        return fact.stream == stream

    records = [r for r in snapshot.records if r.stream == stream or stream in r.also_in]
    turns = snapshot.turns.get(stream, [])
    activity = [record_item(r) for r in records] + [turn_item(t) for t in turns]
    name = title or (project_subject(stream) or stream).title()
    return _data(
        snapshot,
        stream,
        "project",
        name,
        role=_items(snapshot, here, FactCategory.ROLE),
        current_work=_work(snapshot, here, here),
        commitments=_items(snapshot, _open_promise(snapshot, here), FactCategory.COMMITMENT),
        blockers=_items(snapshot, _both(here, snapshot.standing_blocker), FactCategory.BLOCKER),
        decisions=_items(snapshot, here, FactCategory.DECISION),
        activity=activity,
        mood=_items(snapshot, here, FactCategory.MOOD_SIGNAL, limit=None),
        people=_speakers(
            [r.author for r in records if r.kind != "bot" and r.source == "slack"]
            + [t.speaker for t in turns if t.speaker]
        ),
        note="" if activity else _quiet(snapshot, stream, "messages or turns"),
    )


def _quiet(snapshot: Snapshot, name: str, what: str) -> str:
    """What is true of an entity with nothing in the snapshot: nothing in its days."""
    as_of = snapshot.as_of or snapshot.now
    return f"{name} has no {what} in the {HISTORY_DAYS} days to {as_of:%Y-%m-%d}."


def _open_promise(snapshot: Snapshot, pick: Picker) -> Picker:
    """Commitments `pick` takes that their author has not since reported done."""
    return lambda fact: pick(fact) and not snapshot.reported_done(fact)


def _both(first: Picker, second: Picker) -> Picker:
    return lambda fact: first(fact) and second(fact)


def _items(
    snapshot: Snapshot, pick: Picker, *categories: FactCategory, limit: int | None = LIST_ITEMS
) -> list[ProfileItem]:
    """The facts `pick` takes, newest first: one per message and kind ("I'm blocked on
    IT-1" read as both the author's and IT-1's blocker is one), each told in the third
    person of whoever said it."""
    facts = sorted(
        (f for f in snapshot.of(*categories) if pick(f)),
        key=lambda f: (f.source.at or f.recorded_at, f.confidence),
        reverse=True,
    )
    seen: set[tuple[FactCategory, int]] = set()
    out = []
    for fact in facts:
        record = snapshot.record_of(fact)
        if record is not None and fact.category is not FactCategory.DECISION:
            if (fact.category, record.id) in seen:
                continue
            seen.add((fact.category, record.id))
        item = snapshot.item(fact)
        if record is not None and (first := record.author.split()[:1]):
            name = first[0][:1].upper() + first[0][1:]
            item = item.model_copy(update={"text": voice.in_third_person(item.text, name)})
        out.append(item)
    return out[:limit]


def _work(snapshot: Snapshot, holds: Picker, theirs: Picker) -> list[ProfileItem]:
    """What is assigned to or handed to them, and what they say is in progress."""

    def open_work(fact: Fact) -> bool:
        return holds(fact) and fact.subject not in snapshot.finished

    assigned = _items(snapshot, open_work, FactCategory.ASSIGNMENT, FactCategory.HANDOFF)
    going = _items(
        snapshot, lambda f: theirs(f) and f.value.lower() in _WORKING, FactCategory.STATUS_UPDATE
    )
    return (assigned + going)[:LIST_ITEMS]


def _speakers(names: Iterable[str]) -> list[str]:
    return [name for name, _ in Counter(names).most_common(10)]


def _data(
    snapshot: Snapshot,
    entity: str,
    kind: str,
    name: str,
    *,
    activity: list[ProfileItem],
    mood: list[ProfileItem],
    people: list[str] | None = None,
    note: str = "",
    **sections: list[ProfileItem],
) -> dict[str, Any]:
    """A profile as it is stored: every item with its visibility, the activity and mood
    as dated points, so that a reader's trust can filter each."""
    as_of = snapshot.as_of or snapshot.now
    since = as_of - timedelta(days=ACTIVITY_DAYS)
    recent = [i for i in activity if i.source.at and as_utc(i.source.at) >= since]
    recent.sort(key=lambda i: i.source.at or as_of, reverse=True)
    return {
        "entity": entity,
        "kind": kind,
        "name": name,
        **{title: [i.model_dump(mode="json") for i in items] for title, items in sections.items()},
        "recent_activity": [i.model_dump(mode="json") for i in recent[: RECENT_ITEMS * 4]],
        "activity_points": [[i.stream, i.visibility.value] for i in recent],
        "mood_points": [
            [i.source.at.isoformat() if i.source.at else None, _score(i), i.visibility.value]
            for i in mood
        ],
        "people": people or [],
        "built_at": snapshot.now.isoformat(),
        "as_of": as_of.isoformat(),
        "note": note,
    }


def _score(item: ProfileItem) -> int:
    return 1 if "praised" in item.text or item.text.endswith("sounds positive.") else -1


def shown(data: dict[str, Any], visibilities: tuple[Visibility, ...]) -> Profile:
    """A stored profile as a reader of `visibilities` may see it."""

    def section(title: str, limit: int = LIST_ITEMS) -> tuple[ProfileItem, ...]:
        items = [ProfileItem.model_validate(i) for i in data.get(title, [])]
        return tuple(readable(items, visibilities)[:limit])

    allowed = {v.value for v in visibilities}
    counts = Counter(stream for stream, v in data["activity_points"] if v in allowed)
    points = [
        (datetime.fromisoformat(at), score)
        for at, score, v in data["mood_points"]
        if at is not None and v in allowed
    ]
    built_at = datetime.fromisoformat(data["built_at"])
    as_of = datetime.fromisoformat(data.get("as_of", data["built_at"]))
    return Profile(
        entity=data["entity"],
        kind=data["kind"],
        name=data["name"],
        role=section("role"),
        current_work=section("current_work"),
        commitments=section("commitments"),
        blockers=section("blockers"),
        decisions=section("decisions"),
        recent_activity=section("recent_activity", RECENT_ITEMS),
        activity=dict(counts),
        people=tuple(data.get("people", ())),
        mood=mood_trend(points, as_of),
        built_at=built_at,
        note=data.get("note", ""),
    )


def mood_trend(
    points: list[tuple[datetime, int]], now: datetime, window: float = MOOD_WINDOW_DAYS
) -> MoodTrend:
    recent_start = now - timedelta(days=window)
    before_start = recent_start - timedelta(days=window)
    recent = [s for at, s in points if recent_start <= at <= now]
    before = [s for at, s in points if before_start <= at < recent_start]
    mean_recent = sum(recent) / len(recent) if recent else None
    mean_before = sum(before) / len(before) if before else None
    trend = "unknown"
    if mean_recent is not None and mean_before is not None:
        change = mean_recent - mean_before
        trend = "rising" if change > _STEADY else "falling" if change < -_STEADY else "steady"
    return MoodTrend(
        trend=trend,
        recent=mean_recent,
        before=mean_before,
        signals=len(recent) + len(before),
        window_days=window,
    )


def entity_key(entity: str, project_keys: dict[str, str]) -> tuple[str, str]:
    """(profile key, display name) of an entity as a caller names it: 'Priya', '@priya',
    '#general', 'project:alpha' or a project key 'ALPHA'."""
    entity = " ".join(entity.split())
    if entity.startswith("#") or entity.startswith("channel:"):
        bare = entity.removeprefix("#").removeprefix("channel:")
        return channel_entity(bare), bare
    if entity.startswith(("@", "person:")):
        bare = entity.removeprefix("@").removeprefix("person:")
        return person(bare), bare
    if ":" in entity:
        return entity, entity
    if entity.upper() in project_keys:
        stream = project_keys[entity.upper()]
        return stream, stream
    return person(entity), entity
