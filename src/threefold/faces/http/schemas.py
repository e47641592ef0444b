"""Request and response bodies of the HTTP API.

Requests forbid unknown fields, so a typo is a 422 rather than a silently ignored value.
Responses reuse the domain types (Turn, Fact, Summary, Context, SearchHit, FactHistory,
Record, TimelineEntry, ImportReport).
"""

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from threefold.domain import (
    Fact,
    FactCategory,
    ImportProgress,
    ImportReport,
    Record,
    SearchHit,
    Summary,
    TimelineEntry,
    Trust,
    Turn,
    Visibility,
)

MAX_ID = 2**63 - 1
"""The largest id SQLite can hold; larger ones are a 422, not an overflow."""

SearchKind = Literal["fact", "turn", "summary", "record"]
ChannelKind = Literal["public", "private", "dm", "mpim"]
RecordSource = Literal["slack", "jira", "web", "drive"]
ImportKind = Literal["slack", "jira"]
JobKind = Literal["slack", "jira", "slack-backfill", "drive-sync"]
"""Uploads, and reads of a live source that run like them (queued, with a status)."""
ImportState = Literal["queued", "running", "done", "failed"]

_SLACK_TS = r"^\d{1,12}(\.\d{1,9})?$"


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True)


# -- errors -------------------------------------------------------------------


class ErrorDetail(_Out):
    loc: list[str | int]
    msg: str
    type: str


class Error(_Out):
    code: str = Field(description="stable, machine-readable: e.g. not_found, invalid_input")
    message: str = Field(description="for people; may change between versions")
    details: list[ErrorDetail] | None = Field(
        default=None, description="per-field problems, for invalid_input and invalid_json"
    )


class ErrorResponse(_Out):
    error: Error


# -- requests -----------------------------------------------------------------


EVENT_TIME = (
    "event time, ISO 8601; a time without a zone is UTC; default: now. Below full trust,"
    " more than writes.max_future_seconds (a day) ahead of now is refused"
)


class StreamRef(_In):
    stream: str = Field(description="'global' or 'kind:id', e.g. 'project:alpha'")


class TurnIn(StreamRef):
    user: str = ""
    assistant: str = ""
    at: datetime | None = Field(default=None, description=EVENT_TIME)
    page_context: str | None = None
    model_variant: str | None = None
    source: str = "conversation"
    visibility: Visibility | None = Field(
        default=None, description="default: the most private level this key can read"
    )
    speaker: str | None = Field(
        default=None, max_length=100, description="who wrote the user side; default: the user"
    )
    assistant_speaker: str | None = Field(default=None, max_length=100)


class ContextIn(StreamRef):
    query: str = ""
    budget: int | None = Field(
        default=None, ge=1, description="token budget; default: the server's prompt_budget"
    )
    trust: Trust | None = Field(
        default=None, description="read as this trust level; may only lower the key's own"
    )
    timezone: str | None = Field(
        default=None,
        max_length=64,
        description="IANA time zone of 'today' or 'this week' in the query; default: the "
        "server's team.timezone",
    )


class FactIn(StreamRef):
    text: str = Field(min_length=1)
    category: FactCategory = FactCategory.NOTE
    confidence: float = Field(default=0.95, ge=0.0, le=1.0)
    subject: str | None = Field(default=None, description="with slot: the supersession key")
    slot: str | None = None
    value: str | None = None
    at: datetime | None = Field(default=None, description=EVENT_TIME)
    visibility: Visibility | None = None


class SupersedeIn(_In):
    text: str = Field(min_length=1)
    value: str | None = None
    confidence: float = Field(
        default=1.0,
        ge=0.0,
        le=1.0,
        description="below the slot holder's confidence the new fact is outranked, not shown",
    )
    category: FactCategory | None = Field(default=None, description="default: the old fact's")
    at: datetime | None = Field(default=None, description=EVENT_TIME)
    visibility: Visibility | None = Field(default=None, description="default: the old fact's")


class SearchIn(_In):
    query: str = Field(
        description="what to look for; empty: what the filters let through, newest first"
    )
    stream: str | None = Field(default=None, description="default: every stream of the tenant")
    kinds: list[SearchKind] | None = None
    limit: int = Field(default=10, ge=1, le=100)
    preset: str = Field(default="default", description="default, facts_only, recent_first, ...")
    trust: Trust | None = None
    categories: list[FactCategory] | None = None
    since: datetime | None = None
    until: datetime | None = None
    people: list[str] = Field(default_factory=list)


class SlackMessageIn(_In):
    """One live Slack message, as a bot receives it. There is no stream or visibility to
    name: routing picks the stream, and the channel kind the visibility (a public channel's
    messages are shared, the rest private)."""

    channel: str = Field(min_length=1, max_length=200, description="name or id; '#' optional")
    user: str = Field(min_length=1, max_length=200)
    ts: str = Field(pattern=_SLACK_TS, description="Slack timestamp, e.g. '1712345678.000200'")
    text: str = Field(min_length=1)
    thread_ts: str | None = Field(default=None, pattern=_SLACK_TS)
    channel_kind: ChannelKind = "public"


# -- responses ----------------------------------------------------------------


class Health(_Out):
    status: Literal["ok"] = "ok"
    version: str


class TurnList(_Out):
    stream: str
    turns: list[Turn]


class FactList(_Out):
    stream: str
    facts: list[Fact]


class SummaryList(_Out):
    stream: str
    summaries: list[Summary]


class SearchResults(_Out):
    query: str
    hits: list[SearchHit]


class SessionEnded(_Out):
    stream: str
    status: Literal["queued"] = "queued"


class Refreshed(_Out):
    stream: str
    summary: Summary | None = Field(description="the active summary, if this key may read it")


class Ingested(_Out):
    stream: str | None = Field(description="the stream it was routed to; null for a repeat")
    duplicate: bool = Field(description="this (channel, ts) was stored before; nothing changed")


class ImportStarted(_Out):
    id: str
    status: Literal["queued"] = "queued"
    status_url: str = Field(description="GET it for the import's status and report")


class ImportStatus(_Out):
    id: str
    kind: JobKind
    status: ImportState
    report: ImportReport | None = Field(default=None, description="once the import is done")
    error: str | None = Field(default=None, description="why the import failed")
    progress: ImportProgress | None = Field(
        default=None, description="how far it has come, while it runs"
    )
    percent: int | None = Field(
        default=None, description="of the step it is on (100 once done); null if unknown"
    )


class Timeline(_Out):
    entity: str
    events: list[TimelineEntry] = Field(description="oldest first")


class RecordList(_Out):
    stream: str
    records: list[Record] = Field(description="oldest first")


class RecordPage(_Out):
    records: list[Record] = Field(description="newest first")
    next_before: int | None = Field(
        description="pass as `before` for the next page; null on the last page"
    )


class WriteAccepted(_Out):
    """The answer to a write that landed on a fact this key may not read: no content, no
    ids, so a write cannot be used to read what the key's trust hides."""

    accepted: bool = True
    detail: str


class StreamStats(_Out):
    stream: str
    turns: int
    facts: int
    active_facts: int
    summaries: int


class ModelCounts(_Out):
    """What the chat model cost since this server started, over all tenants."""

    calls: int = Field(description="task calls made to the llm model")
    requests: int = Field(description="HTTP requests sent to the chat model, retries included")
    fallbacks: int = Field(description="calls answered by the heuristic model instead")
    split: int = Field(description="batched answers that could not be used: read turn by turn")


class Stats(_Out):
    tenant: str
    streams: list[StreamStats]
    totals: StreamStats = Field(description="the sums, with stream '*'")
    model: ModelCounts | None = Field(
        default=None,
        description="the llm model's counts, for a full-trust key; null for other models",
    )
