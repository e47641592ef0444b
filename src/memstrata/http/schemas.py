"""Request and response bodies of the HTTP API.

Requests forbid unknown fields, so a typo is a 422 rather than a silently ignored value.
Responses reuse the domain types (Turn, Fact, Summary, Context, SearchHit, FactHistory).
"""

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from memstrata.types import (
    Fact,
    FactCategory,
    SearchHit,
    Summary,
    Trust,
    Turn,
    Visibility,
)

MAX_ID = 2**63 - 1
"""The largest id SQLite can hold; larger ones are a 422, not an overflow."""

SearchKind = Literal["fact", "turn", "summary"]

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


class StreamRef(_In):
    stream: str = Field(description="'global' or 'kind:id', e.g. 'project:alpha'")


class TurnIn(StreamRef):
    user: str = ""
    assistant: str = ""
    at: datetime | None = Field(default=None, description="event time; default: now (UTC)")
    page_context: str | None = None
    model_variant: str | None = None
    source: str = "conversation"
    visibility: Visibility | None = Field(
        default=None, description="default: the most private level this key can read"
    )


class ContextIn(StreamRef):
    query: str = ""
    budget: int | None = Field(
        default=None, ge=1, description="token budget; default: the server's prompt_budget"
    )
    trust: Trust | None = Field(
        default=None, description="read as this trust level; may only lower the key's own"
    )


class FactIn(StreamRef):
    text: str = Field(min_length=1)
    category: FactCategory = FactCategory.NOTE
    confidence: float = Field(default=0.95, ge=0.0, le=1.0)
    subject: str | None = Field(default=None, description="with slot: the supersession key")
    slot: str | None = None
    value: str | None = None
    at: datetime | None = None
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
    at: datetime | None = None
    visibility: Visibility | None = Field(default=None, description="default: the old fact's")


class SearchIn(_In):
    query: str
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
    """One Slack-style message. Issue 4 replaces this with real source records."""

    channel: str = Field(min_length=1, max_length=200)
    user: str = Field(min_length=1, max_length=200)
    ts: str = Field(pattern=_SLACK_TS, description="Slack timestamp, e.g. '1712345678.000200'")
    text: str = Field(min_length=1)
    thread_ts: str | None = Field(default=None, pattern=_SLACK_TS)
    stream: str | None = Field(default=None, description="default: 'global'")
    visibility: Visibility | None = None


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
    stream: str
    turn: Turn


class StreamStats(_Out):
    stream: str
    turns: int
    facts: int
    active_facts: int
    summaries: int


class Stats(_Out):
    tenant: str
    streams: list[StreamStats]
    totals: StreamStats = Field(description="the sums, with stream '*'")
