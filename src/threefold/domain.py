"""Domain types shared by the engine, the store, the models and every face."""

import re
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from threefold.errors import InvalidInput

DEFAULT_TENANT = "default"
GLOBAL_STREAM = "global"

_STREAM_RE = re.compile(r"^[a-z][a-z0-9_-]{0,31}:[\w.@+/-]{1,200}$")
_TENANT_RE = re.compile(r"^[\w.@+-]{1,100}$")


def check_stream(name: str) -> str:
    """Return `name` if it is a valid stream name, else raise InvalidInput saying why."""
    if not isinstance(name, str):
        raise InvalidInput(f"stream must be a string, got {type(name).__name__}")
    if name == GLOBAL_STREAM or _STREAM_RE.fullmatch(name):
        return name
    raise InvalidInput(
        f"invalid stream name {name!r}: use 'global' or 'kind:id' such as 'project:alpha', "
        "where kind is lowercase letters, digits, '_' or '-' and id has no spaces, quotes "
        "or control characters (letters, digits and . @ + / - _ only)"
    )


def check_tenant(name: str) -> str:
    if isinstance(name, str) and _TENANT_RE.fullmatch(name):
        return name
    raise InvalidInput(f"invalid tenant {name!r}: 1-100 letters, digits or . @ + - _")


PROJECT_KINDS = frozenset({"project"})
"""Stream kinds whose id names a thing facts can be about; a chat or user id names none."""


USER_WORDS = frozenset({"user", "i", "me", "myself", "the user"})
"""How a stream's unnamed speaker is named: "user" is the subject of what they say of
themselves, in every stream alike, so it names no one person across a tenant."""


def stream_subject(stream: str) -> str | None:
    """The entity a stream is about: 'project:alpha' -> 'alpha'."""
    return stream.split(":", 1)[1].lower() if ":" in stream else None


def project_subject(stream: str) -> str | None:
    """The project a stream is about ('project:alpha' -> 'alpha'); None for 'chat:8812'."""
    kind = stream.split(":", 1)[0]
    return stream_subject(stream) if kind in PROJECT_KINDS else None


def person(name: str) -> str:
    """The timeline key of a person (a profile's entity)."""
    return f"person:{' '.join(name.lower().split())}"


def channel_entity(name: str) -> str:
    """The timeline key of a Slack channel."""
    return f"channel:{name.lower().removeprefix('#')}"


Progress = Callable[[int, int], None]
"""A long task's report: called with (done, total) as it goes."""


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """Naive datetimes are taken to be UTC."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except OverflowError:  # 0001-01-01 at +12:00 is before the calendar starts in UTC
        raise InvalidInput(f"{moment.isoformat()} is outside the calendar in UTC") from None


class Visibility(StrEnum):
    """Who an item may be shown to; see Trust."""

    PRIVATE = "private"
    SHARED = "shared"
    SOCIAL = "social"


class Trust(StrEnum):
    """How far a caller is trusted: full sees everything, public nothing."""

    FULL = "full"
    INNER = "inner"
    FAMILIAR = "familiar"
    PUBLIC = "public"


READABLE: dict[Trust, tuple[Visibility, ...]] = {
    Trust.FULL: (Visibility.PRIVATE, Visibility.SHARED, Visibility.SOCIAL),
    Trust.INNER: (Visibility.SHARED, Visibility.SOCIAL),
    Trust.FAMILIAR: (Visibility.SOCIAL,),
    Trust.PUBLIC: (),
}


def most_private(visibilities: Iterable[Visibility | str]) -> Visibility:
    """The visibility of something made from items of these visibilities."""
    order = list(Visibility)
    return min((Visibility(v) for v in visibilities), key=order.index, default=Visibility.SOCIAL)


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Tenant(_Model):
    id: str = DEFAULT_TENANT


class Stream(_Model):
    tenant: str = DEFAULT_TENANT
    name: str
    turn_count: int = 0
    last_summarized_turn: int = 0
    """Chunk cursor: the seq of the newest turn the summaries already cover."""


class SourceRef(_Model):
    """Where an item came from: a turn, a summary, a Slack message, a Jira row, a person."""

    kind: str
    id: str
    at: datetime | None = None

    def label(self) -> str:
        return f"{self.kind}:{self.id}"


class Turn(_Model):
    id: int
    tenant: str
    stream: str
    seq: int
    user: str
    assistant: str
    at: datetime
    page_context: str | None = None
    model_variant: str | None = None
    source: str = "conversation"
    visibility: Visibility = Visibility.PRIVATE
    tokens: int
    recorded_at: datetime
    speaker: str | None = None
    """Who wrote the user side; None: the user."""
    assistant_speaker: str | None = None
    writer_trust: Trust = Trust.FULL
    """The trust of whoever posted the turn: only a full writer speaks as the user."""
    writer_key: int | None = None
    """The API key it was posted with, if any."""

    def ref(self) -> SourceRef:
        return SourceRef(kind="turn", id=str(self.id), at=self.at)

    @property
    def by_person(self) -> bool:
        """Whether a person wrote the user side: not a bot's or an integration's post,
        whose `source` says so ("bot", "integration", or a source's bot kind such as
        "slack.bot", as records name a Slack bot's message)."""
        return self.source.rpartition(".")[2].lower() not in NOT_A_PERSON


NOT_A_PERSON = frozenset({"bot", "integration"})
"""The `source` of a turn (or its last dotted part) that a bot or an integration posted:
a CI notice's "2 new commits pushed" tells no one that something they said changed."""


class FactCategory(StrEnum):
    ROLE = "role"
    RESPONSIBILITY = "responsibility"
    DEADLINE = "deadline"
    DATE = "date"
    DECISION = "decision"
    ASSIGNMENT = "assignment"
    COMMITMENT = "commitment"
    BLOCKER = "blocker"
    RECURRING = "recurring"
    PREFERENCE = "preference"
    # What people say about themselves and those around them; each a slot of its subject.
    IDENTITY = "identity"
    LOCATION = "location"
    WORK = "work"
    RELATIONSHIP = "relationship"
    HEALTH = "health"
    DIET = "diet"
    IMPORTANT_DATE = "important_date"
    POSSESSION = "possession"
    SKILL = "skill"
    PLAN = "plan"
    STATUS = "status"
    NOTE = "note"
    # Observations mined from team messages; see threefold.observations for their policy.
    HANDOFF = "handoff"
    DEADLINE_MENTION = "deadline_mention"
    RISK_SIGNAL = "risk_signal"
    MOOD_SIGNAL = "mood_signal"
    STATUS_UPDATE = "status_update"
    REFERENCE = "reference"


ABOUT_THINGS = frozenset(
    {
        FactCategory.DEADLINE,
        FactCategory.DATE,
        FactCategory.DECISION,
        FactCategory.STATUS,
        FactCategory.RECURRING,
        FactCategory.DEADLINE_MENTION,
        FactCategory.STATUS_UPDATE,
        FactCategory.REFERENCE,
        FactCategory.RISK_SIGNAL,
    }
)
"""Categories whose subject is a project, an issue, an event or a date, not a person: there
a capitalised subject is "Deadline" or "Ticket", never someone, and the subject ("standup",
"GA") is what the fact is about."""


class FactStatus(StrEnum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    OUTRANKED = "outranked"
    """Arrived for an occupied slot with lower confidence than the holder; kept, not shown."""
    RETRACTED = "retracted"
    """Denied by a later correction ("Raj is not the PM") without a replacement."""
    COMPRESSED = "compressed"
    """Folded by retention into one item that stands for a cluster of near-identical ones."""
    ARCHIVED = "archived"
    """Expired (a deadline long past) and moved out of the prompt by maintenance."""
    MOVED = "moved"
    """Read from a message that a re-route moved to another stream, where it is read
    again; kept here as history."""


class Fact(_Model):
    """One memory item. Layer 1 is the set of active facts."""

    id: int
    tenant: str
    stream: str
    text: str
    category: FactCategory
    subject: str
    slot: str
    value: str
    confidence: float
    status: FactStatus = FactStatus.ACTIVE
    supersedes: int | None = None
    superseded_by: int | None = None
    mention_count: int = 1
    stated_at: datetime | None = None
    """When it was last stated, if stated again after its source; see last_stated."""
    visibility: Visibility = Visibility.PRIVATE
    source: SourceRef
    recorded_at: datetime
    tokens: int
    writer_trust: Trust = Trust.FULL
    """The trust of whoever wrote it; a lower-trust writer cannot displace it."""
    writer_key: int | None = None
    """The API key it was written with, if any."""
    doubted_by: SourceRef | None = None
    """The newest message that may have changed it but was read too unsurely to store
    (a reading of another value in its slot, or of this value as over): the context shows
    the fact as possibly outdated while that message is newer than its last statement."""

    @property
    def active(self) -> bool:
        return self.status is FactStatus.ACTIVE

    @property
    def doubt(self) -> SourceRef | None:
        """`doubted_by` while that message is newer than the fact's last statement (a
        fact stated again since stands): what the context shows it possibly outdated by,
        and what a search hit of it names."""
        doubt, stated = self.doubted_by, self.last_stated
        if doubt is None or doubt.at is None or (stated is not None and doubt.at <= stated):
            return None
        return doubt

    @property
    def last_stated(self) -> datetime | None:
        """The event time of its latest statement: a repeat of it is as new as that."""
        if self.stated_at is None or self.source.at is None:
            return self.stated_at or self.source.at
        return max(self.stated_at, self.source.at)


class SummaryKind(StrEnum):
    SESSION = "session"
    ACTIVE = "active"
    WEEKLY = "weekly"
    MONTHLY = "monthly"
    ARCHIVED = "archived"
    SLACK = "slack"
    """A digest of one batch of a stream's Slack messages, merged into its active summary."""
    STRUCTURED = "structured"
    """Counts computed from tracker data (Jira), without any model; the newest one counts."""


class Summary(_Model):
    id: int
    tenant: str
    stream: str
    kind: SummaryKind
    text: str
    tokens: int
    period_start: datetime | None
    period_end: datetime | None
    item_count: int
    generation: int = 0
    parents: tuple[int, ...] = ()
    visibility: Visibility = Visibility.PRIVATE
    created_at: datetime
    record: dict[str, Any] | None = None
    """Session and Slack summaries: intent, key_facts, decisions, open_questions,
    open_items, compression_ratio (tokens read per token written) and model."""

    def ref(self) -> SourceRef:
        return SourceRef(kind=f"summary.{self.kind}", id=str(self.id), at=self.period_end)


class FactChange(_Model):
    """One link of a fact's history: what happened to it, when, and because of which fact."""

    fact_id: int
    action: str
    related_fact_id: int | None
    at: datetime
    note: str = ""
    before: dict | None = None
    """The fact's fields before the change, for UPDATE and SUPERSEDE."""
    after: dict | None = None


class ContextItem(_Model):
    text: str
    tokens: int
    source: SourceRef | None = None


class ContextSection(_Model):
    name: str
    title: str
    items: tuple[ContextItem, ...] = ()
    tokens: int = 0
    """Tokens of the rendered section, header included."""


class DroppedItem(_Model):
    section: str
    source: SourceRef | None
    tokens: int
    reason: str


class Context(_Model):
    tenant: str
    stream: str
    query: str
    budget: int
    sections: tuple[ContextSection, ...]
    text: str
    messages: tuple[dict[str, str], ...]
    tokens: int
    dropped: tuple[DroppedItem, ...] = Field(default=())

    def section(self, name: str) -> ContextSection:
        for section in self.sections:
            if section.name == name:
                return section
        raise KeyError(name)


class FactHistory(_Model):
    """A fact with its supersession chain (oldest first) and the changes along it."""

    fact: Fact
    chain: tuple[Fact, ...]
    changes: tuple[FactChange, ...]


class FactRef(_Model):
    """A fact named by its id and its text."""

    id: int
    text: str


class SearchHit(_Model):
    """One item found by search, with its score and where it came from."""

    kind: str
    """fact, turn, summary or record."""
    id: int
    stream: str
    text: str
    score: float
    at: datetime | None
    source: SourceRef
    visibility: Visibility
    signals: dict[str, float] = Field(default_factory=dict)
    """What the score was made of: fts and vector ranks, similarity, recency, mentions."""
    speaker: str | None = None
    """Who wrote a turn's user side, where a name was given."""
    derived: list["SearchHit"] = Field(default_factory=list)
    """Facts read from this turn or message that the search found too, best first: they
    ride with it as one result, and take no place of their own among the hits."""
    now: list[FactRef] = Field(default_factory=list)
    """Empty when the hit states nothing outdated. Otherwise it states a value that a newer
    fact of its stream replaced ("I work at Stripe" after "I left Stripe, I'm at Figma
    now"), and these are the facts in force in its place, current and readable by the
    caller. Judged by words, whatever the phrasing of the newer statement: a hit that names
    the new value as well (the correction itself) is not marked."""
    doubted_by: SourceRef | None = None
    """For a fact hit: the newer message that may have changed the fact but was read too
    unsurely to store ("so we kinda moved to Perth I guess" after "I live in Leeds"), while
    it is newer than the fact's last statement; a context shows such a fact as "(possibly
    outdated: see turn:N)". None for other hits, and once the fact is stated again."""


class Record(_Model):
    """A raw message or row from an outside source, stored verbatim and never changed."""

    id: int
    tenant: str
    stream: str
    source: str
    """slack, jira or web."""
    channel: str
    """The Slack channel, the Jira project key, or the web host."""
    external_id: str
    """The id within the channel: Slack's ts, or a Jira key with its update time."""
    thread: str | None = None
    author: str
    text: str
    kind: str
    """message, bot, file_share, issue or page."""
    at: datetime
    route_method: str
    route_confidence: float
    visibility: Visibility
    processed: bool
    also_in: tuple[str, ...] = ()
    """Other streams the record mentions, which keep a cross-reference to it."""
    author_id: str | None = None
    """The author's id in the source (a Slack user id), where it has one."""

    def ref(self) -> SourceRef:
        return SourceRef(kind=f"{self.source}.{self.kind}", id=str(self.id), at=self.at)


class ImportProblem(_Model):
    path: str
    error: str


class ImportReport(_Model):
    """What an import read, kept, skipped and routed."""

    source: str
    read: int = 0
    kept: int = 0
    duplicates: int = 0
    """Already stored by an earlier import; nothing new was added for them."""
    skipped: dict[str, int] = Field(default_factory=dict)
    routed: dict[str, int] = Field(default_factory=dict)
    facts: int = 0
    problems: tuple[ImportProblem, ...] = ()
    warnings: tuple[str, ...] = ()
    """Things the importer should know, such as most messages landing in `global`."""
    unread_columns: tuple[str, ...] = ()
    """Columns of a CSV that no field is read from."""
    moved: int = 0
    """Messages stored before whose route has changed since: they moved to their stream."""
    unembedded: int = 0
    """Items of the routed streams still waiting for a vector when the import returned
    (full text finds them meanwhile); 0 once the import embedded what it stored."""


class ImportProgress(_Model):
    """How far a running import has come: the step it is on, and its counts so far."""

    step: Literal["reading", "digesting"]
    """reading the file (Slack: day files; Jira: issues), then digesting what it stored."""
    done: int = Field(ge=0)
    total: int | None = Field(default=None, ge=0)
    """None while the step does not know its size (a Jira CSV is read as a stream)."""

    @property
    def percent(self) -> int | None:
        """Of the step, 0-100; None when the total is unknown."""
        if not self.total:
            return None
        return min(100, self.done * 100 // self.total)


class RerouteReport(_Model):
    """What routing the stored messages again changed."""

    checked: int = 0
    moved: dict[str, int] = Field(default_factory=dict)
    """Messages moved, by "from -> to" streams."""


class ErasureReport(_Model):
    """What a privacy erasure removed, counted by kind; the content itself is gone."""

    turns: int = 0
    facts: int = 0
    records: int = 0
    summaries: int = 0
    summaries_redacted: int = 0
    """Summaries that kept their other lines after the lines quoting erased content went."""
    streams: tuple[str, ...] = ()
    """The streams the erasure touched."""


class TimelineEntry(_Model):
    """Something that happened to or was said by an entity, for mem.timeline()."""

    at: datetime
    kind: str
    """record or fact."""
    id: int
    stream: str
    text: str
    category: str | None = None
    source: SourceRef


class ApiKey(_Model):
    """An API key's record; the secret itself is never stored, only its hash."""

    id: int
    tenant: str
    trust: Trust
    label: str
    created_at: datetime
    revoked: bool = False
