"""What team intelligence hands out: profiles, actions and digests, each naming its sources."""

from datetime import date, datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from threefold.domain import SourceRef, Visibility

RECENT_LINES = 3
"""Recent messages or issues a profile's context lines quote: what someone is doing shows
in what they last said or filed, when no fact names it."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ProfileItem(_Model):
    """One line of a profile, with the fact or record it comes from."""

    text: str
    source: SourceRef
    visibility: Visibility = Visibility.PRIVATE
    fact_id: int | None = None
    record_id: int | None = None
    stream: str = ""
    category: str = ""
    """The fact's category, where a list mixes them (a digest's learned items)."""


class MoodTrend(_Model):
    """Mood signals (-1 to 1) of the last `window_days` against the window before."""

    trend: str = "unknown"
    """rising, falling, steady, or unknown when either window has no signal."""
    recent: float | None = None
    before: float | None = None
    signals: int = 0
    window_days: float = 7.0


class Profile(_Model):
    """Who or what an entity is and what it is doing, as of `built_at`."""

    entity: str
    """'person:priya', 'channel:general' or a project stream."""
    kind: str
    """person, channel or project."""
    name: str
    role: tuple[ProfileItem, ...] = ()
    current_work: tuple[ProfileItem, ...] = ()
    commitments: tuple[ProfileItem, ...] = ()
    blockers: tuple[ProfileItem, ...] = ()
    decisions: tuple[ProfileItem, ...] = ()
    recent_activity: tuple[ProfileItem, ...] = ()
    activity: dict[str, int] = Field(default_factory=dict)
    """Messages and turns in the last 14 days, per stream."""
    people: tuple[str, ...] = ()
    """For channels and projects: who speaks there most, most first."""
    mood: MoodTrend = MoodTrend()
    built_at: datetime
    note: str = ""
    """Said when there is nothing to show, such as a person with no messages."""

    def lines(self) -> list[tuple[str, SourceRef | None]]:
        """The profile as short text lines, each with its source, for a context."""
        out: list[tuple[str, SourceRef | None]] = [(f"{self.name} ({self.kind})", None)]
        for title, items in (
            ("role", self.role),
            ("working on", self.current_work),
            ("committed to", self.commitments),
            ("blocked by", self.blockers),
            ("decided", self.decisions),
        ):
            out += [(f"  {title}: {item.text}", item.source) for item in items]
        out += [(f"  recent: {i.text}", i.source) for i in self.recent_activity[:RECENT_LINES]]
        if self.people:
            out.append((f"  people: {', '.join(self.people[:6])}", None))
        if self.mood.trend != "unknown":
            out.append((f"  mood: {self.mood.trend} ({self.mood.signals} signals)", None))
        if self.note:
            out.append((f"  {self.note}", None))
        return out


class ActionStatus(StrEnum):
    OPEN = "open"
    DONE = "done"
    DISMISSED = "dismissed"


class Action(_Model):
    """Something that needs doing, found by a rule, with its evidence."""

    id: int
    rule: str
    """The rule's name (its kind unless the settings name it)."""
    kind: str
    stream: str
    title: str
    due: date | None = None
    owner: str | None = None
    status: ActionStatus
    fact_ids: tuple[int, ...] = ()
    record_ids: tuple[int, ...] = ()
    evidence: tuple[SourceRef, ...] = ()
    visibility: Visibility
    opened_at: datetime
    updated_at: datetime


class Change(_Model):
    """One tracker issue as a day's export shows it changed, with the row it was read from."""

    group: str
    """done, moved, opened, reassigned or updated (first seen, or nothing we track changed)."""
    key: str
    text: str
    source: SourceRef


class DailyDigest(_Model):
    """What one stream's turns and messages of one day said, and what changed in it."""

    day: date
    text: str
    """What was discussed: the model's summary of the day's messages and turns, told of
    the people who said them."""
    items: int
    learned: tuple[ProfileItem, ...] = ()
    """Decisions, commitments, blockers, deadlines and roles first stated that day."""
    changes: tuple[Change, ...] = ()
    """Tracker issues the day's exports show changed: done, moved, opened, reassigned."""
    questions: tuple[ProfileItem, ...] = ()
    """Questions asked that day that nobody else answered that day, each naming its asker."""
    messages: int = 0
    tracker: int = 0
    files: int = 0
    """Files shared that day: counted, never summarised by their names."""
    sources: tuple[SourceRef, ...] = ()
    visibility: Visibility = Visibility.SOCIAL


class Digest(_Model):
    """The daily digests of one stream over a period, in the asker's time zone."""

    stream: str
    period: str
    first_day: date
    last_day: date
    timezone: str
    days: tuple[DailyDigest, ...] = ()
    text: str
    empty: bool
