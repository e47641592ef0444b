"""The Store contract. Domain code talks to this, never to a backend directly."""

import math
import os
import socket
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict

from threefold.domain import (
    ApiKey,
    Fact,
    FactCategory,
    FactChange,
    FactStatus,
    ImportProgress,
    ImportReport,
    Record,
    SourceRef,
    Summary,
    SummaryKind,
    TimelineEntry,
    Trust,
    Turn,
    Visibility,
)


class _Row(BaseModel):
    model_config = ConfigDict(frozen=True)


class NewTurn(_Row):
    tenant: str
    stream: str
    user: str
    assistant: str
    at: datetime
    page_context: str | None = None
    model_variant: str | None = None
    source: str = "conversation"
    visibility: Visibility = Visibility.PRIVATE
    tokens: int
    speaker: str | None = None
    assistant_speaker: str | None = None
    writer_trust: Trust = Trust.FULL
    writer_key: int | None = None

    def columns(self, seq: int, recorded: datetime) -> dict[str, Any]:
        """The turns row this turn becomes, as column -> value, for either backend."""
        return {
            "tenant": self.tenant,
            "stream": self.stream,
            "seq": seq,
            "user_text": self.user,
            "assistant_text": self.assistant,
            "at": self.at,
            "page_context": self.page_context,
            "model_variant": self.model_variant,
            "source": self.source,
            "visibility": self.visibility.value,
            "tokens": self.tokens,
            "recorded_at": recorded,
            "speaker": self.speaker,
            "assistant_speaker": self.assistant_speaker,
            "writer_trust": self.writer_trust.value,
            "writer_key": self.writer_key,
        }


class NewFact(_Row):
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
    visibility: Visibility = Visibility.PRIVATE
    content_hash: str | None = None
    source: SourceRef
    tokens: int
    writer_trust: Trust = Trust.FULL
    writer_key: int | None = None


class NewSummary(_Row):
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
    record: dict[str, Any] | None = None
    """A session summary's structured record; see Summary.record."""


class NewRecord(_Row):
    tenant: str
    stream: str
    source: str
    channel: str
    external_id: str
    thread: str | None = None
    author: str
    text: str
    kind: str
    at: datetime
    route_method: str
    route_confidence: float
    visibility: Visibility
    tokens: int
    processed: bool = False
    also_in: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()
    """Timeline keys the record is about: 'person:priya', 'channel:general', a stream."""
    data: dict[str, Any] = {}


class StreamState(_Row):
    tenant: str
    name: str
    exists: bool
    turn_count: int = 0
    last_summarized_turn: int = 0
    summary_enqueued_through: int = 0
    unsummarized_tokens: int = 0
    erasures: int = 0
    """How many privacy erasures touched the stream."""


class TurnWindow(_Row):
    """The recent turns a context reads: the last `least`, or more while no summary covers
    them yet, up to `most`."""

    least: int
    most: int

    def size(self, state: StreamState) -> int:
        """How many of the newest turns to read, given the stream's state."""
        unsummarized = state.turn_count - state.last_summarized_turn
        return max(self.least, min(unsummarized, self.most))


USER_NAME_SLOT = "name"
"""The slot of "The user's name is Maya Chen" (subject "user"): whose stream it is."""


class ObservedPins(_Row):
    """What outside messages may pin: a fact whose source kind starts with one of
    `sources` ("slack.") is pinned only if of `categories`, at `min_confidence` or above;
    the rest is recall material. Empty: no such rule."""

    sources: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    min_confidence: float = 0.0


NO_OBSERVED_RULE = ObservedPins()


class PinPolicy(_Row):
    """Which active facts are pinned in the prompt (see Store.pinned_facts)."""

    visibilities: tuple[Visibility, ...]
    min_confidence: float
    skip_categories: tuple[str, ...]
    skip_sources: tuple[str, ...]
    observed: ObservedPins = NO_OBSERVED_RULE


@dataclass(frozen=True)
class StreamView:
    """What a context build reads of one stream before it searches, read in one call."""

    state: StreamState
    turns: list[Turn]
    """The window's turns, oldest first."""
    active_summary: Summary | None
    structured: Summary | None
    """The newest structured summary."""
    superseded: list[tuple[Fact, Fact]]
    """As Store.superseded_facts gives them."""
    pinned: dict[str, list[Fact]]
    """The pinned facts of each stream asked for, as Store.pinned_facts gives them."""
    names: "TenantNames"
    """The names a question may mention, to find the profiles and projects it asks for."""
    aliases: list[str] = field(default_factory=list)
    """Of the `name_words` asked about, those that are a known person's alias (as
    Store.aliases_among gives them)."""


@dataclass(frozen=True)
class TenantNames:
    """The tenant's streams (Store.streams), profiles (TeamStore.profile_names) and
    imported tracker projects (Store.jira_projects)."""

    streams: list[str]
    profiles: list[tuple[str, str, str]]
    projects: list[tuple[str, str | None]]


def view_one_by_one(
    store: "Store",
    tenant: str,
    stream: str,
    window: TurnWindow,
    pins: PinPolicy,
    pinned_streams: Sequence[str],
    name_words: Sequence[str] = (),
) -> StreamView:
    """Store.stream_view made of the store's single reads: for a store in the process,
    where a read costs no trip to a server."""
    state = store.stream_state(tenant, stream)
    size = window.size(state)
    structured = store.summaries(tenant, stream, SummaryKind.STRUCTURED)[-1:]
    return StreamView(
        state=state,
        turns=store.turns(tenant, stream, last=size) if size else [],
        active_summary=store.active_summary(tenant, stream),
        structured=structured[0] if structured else None,
        superseded=store.superseded_facts(tenant, stream),
        pinned={
            name: store.pinned_facts(
                tenant,
                name,
                visibilities=pins.visibilities,
                min_confidence=pins.min_confidence,
                skip_categories=pins.skip_categories,
                skip_sources=pins.skip_sources,
                observed=pins.observed,
            )
            for name in pinned_streams
        },
        names=TenantNames(
            store.streams(tenant), store.profile_names(tenant), store.jira_projects(tenant)
        ),
        aliases=store.aliases_among(tenant, name_words),
    )


class Job(_Row):
    id: int
    tenant: str
    stream: str
    kind: str
    payload: dict[str, Any]
    status: str
    attempts: int
    run_after: float
    last_error: str | None


class ImportJob(_Row):
    """An import taken by the HTTP API, as every one of its processes sees it."""

    id: str
    tenant: str
    kind: str
    status: str
    """queued, running, done or failed."""
    report: ImportReport | None = None
    error: str | None = None
    progress: ImportProgress | None = None
    """How far it had come when it last said, while queued or running."""


def lease_owner() -> str:
    """A new holder's name for the store's named leases: the host and pid tell whoever
    reads the table which process it is; the random part tells apart two holders in one
    process, and a pid the system gave again."""
    return f"{socket.gethostname()}:pid{os.getpid()}-{uuid.uuid4().hex[:8]}"


def holder_is_gone(holder: str) -> bool:
    """Whether the process named by `holder` (from :func:`lease_owner`) is known to have
    died: it ran on this host and its pid is no longer alive. A holder on another host,
    or of an older form, is never taken for dead: its lease runs out instead."""
    host, _, rest = holder.rpartition(":pid")
    pid = rest.split("-", 1)[0]
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # alive, another user's
        return False
    return False


IMPORT_LEASE_PREFIX = "imports:"
EMBED_MIN_CHARS = 12
"""Turns and messages shorter than this get no vector: "ok", "+1" and "thanks!" are near
every question alike, full text still finds them, and in chat they are many."""
"""A process holds the lease named this plus its owner id while it has imports unfinished;
when that lease runs out, the process is taken for dead."""


class EntityStore(Protocol):
    """People and the names that mean them, per tenant; see threefold.entities."""

    def entities_named(self, tenant: str, alias: str) -> list[str]:
        """The keys of the entities `alias` names, oldest first."""
        ...

    def aliases_among(self, tenant: str, words: Sequence[str]) -> list[str]:
        """Those of `words` (lowercase) that name an entity of the tenant, in their order."""
        ...

    def entity_aliases(self, tenant: str, key: str) -> list[str]: ...
    def add_entity(
        self, tenant: str, kind: str, key: str, name: str, aliases: Sequence[str] = ()
    ) -> None: ...
    def rename_entity(self, tenant: str, old: str, new: str, name: str) -> None: ...
    def delete_entity(self, tenant: str, key: str) -> None: ...


class ErasedIds(_Row):
    """The items one privacy erasure removes, by kind."""

    turns: list[int] = []
    facts: list[int] = []
    records: list[int] = []
    summaries: list[int] = []
    streams: list[str] = []
    """The streams those items live in."""


class ErasureStore(Protocol):
    """Privacy erasure: hard deletes of content, with an audit row that holds none."""

    def erasable_ids(
        self,
        tenant: str,
        *,
        streams: Sequence[str] = (),
        speakers: Sequence[str] = (),
        subjects: Sequence[str] = (),
        fact_ids: Sequence[int] = (),
        users_named: Sequence[str] = (),
    ) -> ErasedIds:
        """`users_named`: lowercase names; in each stream whose user said their name is
        one of them ("I'm Maya Chen"), that user's turns (those without a speaker) and
        the facts about "user" go too."""
        ...

    def erase_items(self, tenant: str, ids: ErasedIds) -> None: ...
    def expired_ids(
        self, before: datetime, *, keep_turns: int, sources: Sequence[str], limit: int
    ) -> dict[str, ErasedIds]:
        """By tenant, at most `limit` raw items of each kind from before `before` that
        retention may delete: turns the stream's summary covers, but for its last
        `keep_turns`; records of `sources` already digested."""
        ...

    def redact_summary(
        self, tenant: str, summary_id: int, text: str, record: dict[str, Any] | None
    ) -> None: ...
    def announce_erased(self, tenant: str, streams: Sequence[str]) -> None:
        """After the erasure's transaction: tell the on_erase listeners."""
        ...

    def note_erasure(
        self, tenant: str, target: dict[str, Any], removed: dict[str, int], streams: Sequence[str]
    ) -> None: ...
    def erasures(self, tenant: str) -> list[dict[str, Any]]: ...
    def drop_pending_jobs(self, tenant: str, stream: str) -> None: ...


class TeamStore(Protocol):
    """Team intelligence (threefold.team): entity profiles, proactive actions with their
    status, and daily digests; plus the time-window reads they are built from."""

    def put_profile(
        self, tenant: str, entity: str, kind: str, name: str, data: dict[str, Any]
    ) -> None:
        """Store (or replace) the profile of `entity` ('person:priya', 'project:alpha')."""
        ...

    def profile_data(self, tenant: str, entity: str) -> dict[str, Any] | None: ...
    def profile_names(self, tenant: str) -> list[tuple[str, str, str]]:
        """(entity, kind, name) of every stored profile, by entity."""
        ...

    def upsert_action(
        self,
        tenant: str,
        key: str,
        rule: str,
        stream: str,
        data: dict[str, Any],
        visibility: Visibility,
    ) -> tuple[int, bool]:
        """Store what an action found under its stable `key`; its status is left as it was.
        Returns its id, and True if it is new."""
        ...

    def close_missing_actions(self, tenant: str, found: Sequence[str]) -> int:
        """Mark done the open actions whose key is not in `found`: they no longer apply."""
        ...

    def action_rows(self, tenant: str, status: str | None = None) -> list[dict[str, Any]]:
        """Every action of the tenant (of one status), oldest first, as stored."""
        ...

    def set_action_status(self, tenant: str, action_id: int, status: str) -> dict[str, Any]:
        """Raises NotFound when the tenant has no action `action_id`."""
        ...

    def put_digest(
        self,
        tenant: str,
        stream: str,
        day: str,
        timezone: str,
        data: dict[str, Any],
        visibility: Visibility,
    ) -> None: ...
    def digest_rows(
        self, tenant: str, stream: str, first_day: str, last_day: str, timezone: str
    ) -> list[dict[str, Any]]:
        """Stored digests of those days (ISO dates, inclusive), by day."""
        ...

    def forget_team(
        self,
        tenant: str,
        streams: Sequence[str],
        record_ids: Sequence[int],
        fact_ids: Sequence[int],
    ) -> None:
        """After an erasure: drop every profile of the tenant, the digests of `streams`, and
        the actions whose evidence is among the erased records or facts. All of them may
        quote what was erased; profiles and digests are built again."""
        ...

    def records_between(
        self, tenant: str, stream: str | None, since: datetime, until: datetime
    ) -> list[Record]:
        """Records of `stream` (of every stream: None) with since <= at < until, by time."""
        ...

    def turns_between(
        self, tenant: str, stream: str, since: datetime, until: datetime
    ) -> list[Turn]: ...

    def browse_records(self, tenant: str, where: "RecordBrowse") -> list[Record]:
        """The records `where` lets through, newest first (by time, then id)."""
        ...


class RoutingStore(Protocol):
    """What routing outside messages needs beyond records: the Jira projects a tenant has
    imported, where a thread started, and moving a record when the routes change."""

    def jira_projects(self, tenant: str) -> list[tuple[str, str | None]]:
        """(project key, project name or None) of every Jira project imported."""
        ...

    def record_stream(self, tenant: str, source: str, channel: str, external_id: str) -> str | None:
        """The stream of a stored record (a thread's first message, say), or None."""
        ...

    def routable_records(
        self, tenant: str, source: str, after_id: int, limit: int
    ) -> list[tuple[Record, dict[str, Any]]]:
        """The source's records with their data, oldest first, past `after_id`."""
        ...

    def move_record(
        self,
        tenant: str,
        record_id: int,
        stream: str,
        method: str,
        confidence: float,
        also: Sequence[str],
        digest: bool = True,
    ) -> None:
        """Route the record anew: it lives in `stream`, is cross-referenced in `also`,
        waits to be digested there if `digest`, and its vectors follow it."""
        ...

    def count_undigested(self, tenant: str) -> int:
        """The tenant's records waiting for their digest, in every stream."""
        ...

    def reopen_records(self, tenant: str, stream: str, source: str) -> None:
        """Mark the stream's records of `source` undigested, to be read again."""
        ...


class LiveSourceStore(Protocol):
    """What live sources (Slack's Events and Web APIs, Google Drive) keep between calls:
    the events already taken, how far each list has been read, and names of ids."""

    def first_delivery(self, tenant: str, source: str, event_id: str, at: float) -> bool:
        """Note the event `event_id`; True if it was not noted before (this is its first
        delivery), False for a retry. Call it in the transaction that stores its work."""
        ...

    def prune_deliveries(self, before: float) -> int:
        """Forget the deliveries noted before `before` (seconds since the epoch)."""
        ...

    def source_state(self, tenant: str, source: str, name: str) -> str | None:
        """What `source` keeps under `name` (a list's cursor, an id's name); None if nothing."""
        ...

    def set_source_state(self, tenant: str, source: str, values: Mapping[str, str | None]) -> None:
        """Keep each value under its name; None drops the name."""
        ...

    def source_states(self, tenant: str, source: str, prefix: str) -> dict[str, str]:
        """Every value `source` keeps under a name starting with `prefix`, by name."""
        ...

    def record_id(self, tenant: str, source: str, channel: str, external_id: str) -> int | None:
        """The id of a stored record, or None."""
        ...


class Store(EntityStore, ErasureStore, TeamStore, RoutingStore, LiveSourceStore, Protocol):
    read_only: bool
    """Opened on storage it cannot write: reads work, writes raise StoreReadOnly."""

    def close(self) -> None: ...
    def transaction(self) -> AbstractContextManager[None]: ...
    def migrations(self) -> list[str]: ...

    def ensure_stream(self, tenant: str, stream: str) -> None: ...
    def stream_state(self, tenant: str, stream: str) -> StreamState: ...
    def streams(self, tenant: str) -> list[str]: ...
    def mark_summary_enqueued(self, tenant: str, stream: str, through_seq: int) -> None: ...
    def set_summarized_through(self, tenant: str, stream: str, seq: int) -> None: ...

    def insert_turn(self, turn: NewTurn) -> Turn: ...
    def turn(self, tenant: str, turn_id: int) -> Turn: ...
    def turns(
        self,
        tenant: str,
        stream: str,
        *,
        after_seq: int = 0,
        through_seq: int | None = None,
        last: int | None = None,
    ) -> list[Turn]: ...

    def insert_fact(self, fact: NewFact) -> Fact: ...
    def fact(self, tenant: str, fact_id: int) -> Fact: ...
    def facts(self, tenant: str, stream: str, *, include_inactive: bool = False) -> list[Fact]: ...
    def facts_by_id(self, tenant: str, fact_ids: Sequence[int]) -> list[Fact]: ...
    def active_fact_texts(
        self,
        tenant: str,
        stream: str,
        *,
        visibilities: Sequence[Visibility],
        min_confidence: float,
        skip_categories: Sequence[str],
        skip_sources: Sequence[str],
    ) -> list[str]: ...
    def pinned_facts(
        self,
        tenant: str,
        stream: str,
        *,
        visibilities: Sequence[Visibility],
        min_confidence: float,
        skip_categories: Sequence[str],
        skip_sources: Sequence[str],
        observed: ObservedPins = NO_OBSERVED_RULE,
    ) -> list[Fact]: ...
    def superseded_facts(self, tenant: str, stream: str) -> list[tuple[Fact, Fact]]: ...
    def facts_from(self, tenant: str, stream: str, source: SourceRef) -> list[Fact]:
        """Active facts read from one source item, such as a turn."""
        ...

    def facts_holding(self, tenant: str, stream: str, slot: str, value: str) -> list[Fact]:
        """Active facts of any subject whose `slot` holds `value`: the titles a person holds."""
        ...

    def facts_in_slot(
        self, tenant: str, stream: str, subject: str, slot: str, *, active_only: bool = True
    ) -> list[Fact]: ...
    def set_fact_status(
        self, tenant: str, fact_id: int, status: FactStatus, superseded_by: int | None = None
    ) -> None: ...
    def mention(
        self, tenant: str, fact_id: int, confidence: float, at: datetime | None = None
    ) -> None:
        """Count one more statement of the fact, at event time `at` if known."""
        ...

    def doubt_fact(self, tenant: str, fact_id: int, by: SourceRef) -> None:
        """Note that the newer message `by` may have changed the fact (a reading too
        unsure to store: context/staleness.py shows the fact as possibly outdated);
        a later doubt replaces an earlier one."""
        ...

    def add_fact_change(
        self,
        fact_id: int,
        action: str,
        related: int | None = None,
        note: str = "",
        *,
        before: dict[str, Any] | None = None,
        after: dict[str, Any] | None = None,
    ) -> None: ...
    def fact_changes(self, tenant: str, fact_ids: Sequence[int]) -> list[FactChange]: ...
    def fact_with_hash(self, tenant: str, stream: str, content_hash: str) -> Fact | None: ...
    def update_fact(
        self, tenant: str, fact_id: int, *, text: str, value: str, tokens: int
    ) -> None: ...

    def insert_record(self, record: NewRecord) -> int | None:
        """Store a record with its cross-references and entities; None if (source,
        channel, external_id) is already stored, in which case nothing changes."""
        ...

    def insert_records(self, records: Sequence[NewRecord]) -> list[int | None]:
        """`insert_record` for many records in one transaction; their ids in order."""
        ...

    def record(self, tenant: str, record_id: int) -> Record: ...
    def records(
        self, tenant: str, stream: str, *, source: str | None = None, last: int | None = None
    ) -> list[Record]:
        """The stream's records (cross-referenced ones included), oldest first."""
        ...

    def unprocessed_records(self, tenant: str, stream: str, limit: int) -> list[Record]: ...
    def count_unprocessed(self, tenant: str, stream: str) -> int: ...
    def mark_processed(self, tenant: str, record_ids: Sequence[int]) -> None: ...
    def record_data(self, tenant: str, source: str, channel: str) -> list[dict[str, Any]]:
        """The structured data kept with each record of one source channel, oldest first."""
        ...

    def add_entity_events(
        self, tenant: str, events: Sequence[tuple[str, str, int, datetime]]
    ) -> None:
        """(entity, item kind, item id, event time) rows for timelines; repeats are ignored."""
        ...

    def timeline(
        self,
        tenant: str,
        entity: str,
        *,
        subject: str | None,
        limit: int,
        visibilities: Sequence[Visibility],
    ) -> list[TimelineEntry]:
        """Events of `entity`, plus facts whose subject is `subject`, oldest first."""
        ...

    def insert_summary(self, summary: NewSummary) -> Summary: ...
    def set_summary_kind(self, tenant: str, summary_id: int, kind: SummaryKind) -> None: ...
    def summaries(
        self,
        tenant: str,
        stream: str,
        kind: SummaryKind | None = None,
        *,
        ending_after: datetime | None = None,
    ) -> list[Summary]: ...
    def active_summary(self, tenant: str, stream: str) -> Summary | None: ...

    def enqueue(
        self, tenant: str, stream: str, kind: str, payload: dict[str, Any], priority: int = 0
    ) -> int:
        """A job; within a stream, higher priority runs first, then older."""
        ...

    def has_pending(self, tenant: str, stream: str, kind: str) -> bool: ...
    def schedule(self, tenant: str, stream: str, kind: str, run_after: float) -> None:
        """Make the stream's one pending `kind` job due at `run_after` (creating it if none
        waits), so a burst of writes is handled once, after it ends."""
        ...

    def claim_stream(
        self, owner: str, lease_seconds: float, tenant: str | None = None
    ) -> tuple[str, str] | None: ...
    def renew_lease(self, tenant: str, stream: str, owner: str, lease_seconds: float) -> bool: ...
    def release_stream(self, tenant: str, stream: str, owner: str) -> None: ...
    def next_job(self, tenant: str, stream: str) -> Job | None: ...
    def pending_jobs(self, tenant: str, stream: str, kind: str, limit: int) -> list[Job]:
        """The stream's first `limit` pending jobs of `kind`, due or not, oldest first."""
        ...

    def finish_job(self, job_id: int) -> None: ...
    def fail_job(self, job_id: int, error: str, retry_in: float | None) -> None: ...
    def jobs(self, tenant: str | None = None, status: str | None = None) -> list[Job]: ...
    def retry_failed(self, tenant: str | None = None) -> int: ...

    def vector_models(self) -> list[tuple[str, int]]: ...
    def unembedded(self, tenant: str, stream: str, limit: int) -> list[tuple[str, int, str]]: ...
    def count_unembedded_in(self, tenant: str, stream: str) -> int:
        """How many items `unembedded` would return for the stream, without a limit."""
        ...

    def count_unembedded(self) -> int: ...
    def put_vectors(
        self, tenant: str, stream: str, model: str, items: Sequence[tuple[str, int, bytes, int]]
    ) -> None: ...
    def drop_vectors(self) -> int: ...
    def vectors(
        self,
        kind: str,
        tenant: str,
        streams: Sequence[str] | None,
        after_id: int = 0,
        limit: int | None = None,
    ) -> list[tuple[int, int, str, bytes]]: ...
    def item_vectors(
        self, kind: str, tenant: str, item_ids: Sequence[int]
    ) -> list[tuple[int, bytes]]:
        """(item id, float32 blob) of those of `item_ids` that have a vector, in no set
        order: the exact vectors that rescore an approximate search's candidates."""
        ...

    def streams_with_items(self) -> list[tuple[str, str]]: ...

    def count_facts(self, tenant: str, source_prefix: str) -> int:
        """Facts (of any status) whose source kind starts with `source_prefix`."""
        ...

    def stale_facts(
        self, *, before: datetime, below_confidence: float, limit: int
    ) -> list[Fact]: ...
    def active_facts_of(self, categories: Sequence[str], limit: int) -> list[Fact]: ...
    def delete_archived_summaries(self, *, before: datetime, limit: int) -> int: ...

    def insert_api_key(self, tenant: str, trust: str, label: str, secret_hash: str) -> int: ...
    def api_key(self, secret_hash: str) -> ApiKey | None: ...
    def api_keys(self, tenant: str | None = None) -> list[ApiKey]: ...
    def revoke_api_key(self, key_id: int) -> bool: ...

    def insert_import(
        self, tenant: str, import_id: str, kind: str, *, owner: str | None = None
    ) -> None:
        """Record a queued import, taken by the process `owner`."""
        ...

    def set_import_status(
        self,
        import_id: str,
        status: str,
        *,
        report: ImportReport | None = None,
        error: str | None = None,
    ) -> None: ...
    def set_import_progress(self, import_id: str, progress: ImportProgress) -> None: ...
    def import_job(self, tenant: str, import_id: str) -> ImportJob | None: ...
    def recent_imports(self, tenant: str, limit: int) -> list[ImportJob]:
        """The tenant's newest `limit` imports, newest first."""
        ...

    def count_unfinished_imports(self) -> int: ...
    def prune_imports(self, keep: int) -> int:
        """Delete the oldest finished imports until at most `keep` are left (or none
        finished is); returns how many went."""
        ...

    def fail_unfinished_imports(self, error: str) -> int:
        """Mark every queued or running import failed with `error`: after a restart, no
        process is left to finish them."""
        ...

    def fail_orphaned_imports(self, error: str) -> int:
        """Mark failed with `error` every queued or running import whose owner holds no
        unexpired lease (IMPORT_LEASE_PREFIX + owner): its process died. Imports with no
        owner are left alone. Returns how many were failed."""
        ...

    def claim_lease(self, name: str, owner: str, seconds: float) -> bool:
        """Hold the lease `name` for `seconds` if no one holds it, or its holder's time is
        up (whoever that was, `owner` too); True if `owner` holds it now."""
        ...

    def extend_lease(self, name: str, owner: str, seconds: float) -> bool:
        """Hold `owner`'s lease for `seconds` from now; False if `owner` no longer holds it."""
        ...

    def release_lease(self, name: str, owner: str) -> None: ...

    def lease_holder(self, name: str) -> str | None:
        """Who holds the lease `name`, whether or not its time is up; None if no one."""
        ...

    def take_lease(self, name: str, holder: str, owner: str, seconds: float) -> bool:
        """Hand the lease from `holder` (a process known dead) to `owner` for `seconds`;
        False if `holder` no longer holds it (someone else took it first)."""
        ...

    def vector_index(self) -> "VectorSearch":
        """The vector search over this store's vectors: an index kept beside the store
        (SQLite), or the database's own (pgvector)."""
        ...

    @property
    def index_directory(self) -> Path | None:
        """A folder for indexes derived from the store; None: keep them in memory only."""
        ...

    @property
    def in_transaction(self) -> bool:
        """Whether this connection has a write open, whose rows may yet roll back."""
        ...

    def on_new_jobs(self, listener: Callable[[], None]) -> None:
        """Call `listener` when another process queues a job, where the backend can tell
        (PostgreSQL's LISTEN/NOTIFY); elsewhere workers find new jobs by polling."""
        ...

    def on_erase(self, listener: Callable[[str, Sequence[str]], None]) -> None:
        """Call `listener(tenant, streams)` when an erasure announces the streams it took
        items from, so that an index kept outside the store drops them too."""
        ...

    def fts_ids(
        self, kind: str, terms: Sequence[str], where: "ItemFilter", limit: int
    ) -> list[tuple[int, float]]:
        """The best `limit` items matching any of `terms`, best first, with a score. Terms
        that match most of the items may be left out: they barely change the ranking and
        would make the search read every item."""
        ...

    def merge_text_index(self, pages: int) -> int:
        """Merge the full-text index's pieces, up to about `pages` pages of work; returns
        the pages written, 0 once nothing is left to merge. Every search reads every
        piece of it, and each write adds one, so a tidied index is read faster."""
        ...

    def item_ids(self, kind: str, where: "ItemFilter") -> list[int]: ...
    def named_candidates(self, kind: str, where: "ItemFilter", most: int) -> list[int] | None:
        """Ids of the newest `most` items of `kind` whose own text, or whose speaker,
        names each person of `where.about` as a word, as the full-text index finds them,
        newest first; a store may leave the rest of `where` unchecked, its tenant
        included, so the caller keeps only those passing() lets through. None when
        `where.about` is empty, or the kind's index does not hold every name the filter
        reads (a record's author)."""
        ...

    def passing(self, kind: str, where: "ItemFilter", ids: Sequence[int]) -> set[int]:
        """Those of `ids` whose items pass `where`."""
        ...

    def linked_record_streams(self, tenant: str, streams: Sequence[str]) -> list[str]:
        """The streams of records that are also shown in `streams`."""
        ...

    def ranking_rows(
        self, kind: str, tenant: str, ids: Sequence[int]
    ) -> list[tuple[int, float | None, int]]:
        """(id, time as a POSIX timestamp or None, mention count) of those of `ids` that
        exist: what ranking needs, without building items."""
        ...

    def recent_items(self, where: "ItemFilter", *, days: float, limit: int) -> list["Item"]: ...
    def items(self, kind: str, tenant: str, ids: Sequence[int]) -> list["Item"]: ...

    def stream_view(
        self,
        tenant: str,
        stream: str,
        *,
        window: TurnWindow,
        pins: PinPolicy,
        pinned_streams: Sequence[str],
        name_words: Sequence[str] = (),
    ) -> StreamView:
        """The stream's state, the window's turns, active and newest structured summary,
        superseded facts, the pinned facts of each of `pinned_streams`, the tenant's
        stream and profile names, and which of `name_words` are people's aliases:
        everything a context reads before it searches, in one call (one round trip to a
        server)."""
        ...

    def rare_words(self, where: "ItemFilter", words: Sequence[str], most: int) -> set[str]:
        """Those of `words` that at least one and at most `most` turns and records passing
        `where` hold in their own text, as the full-text index matches words (stemmed). A
        word only derived text holds (a summary's, a fact's) was never said: not rare. A
        word the whole store holds many times may count as common unread."""
        ...

    def candidates(
        self,
        tenant: str,
        kinds: Sequence[str],
        terms: Sequence[str],
        vector: Any,
        probes: Sequence["Probe"],
        limit: int,
    ) -> "Candidates":
        """For each probe (each filter names `tenant`) and kind: the best `limit` full-text
        matches of `terms` (as fts_ids) and, given a `vector`, the `limit` nearest vectors
        (as vector_index().search); with what ranking needs of every item found, and the
        items themselves. All in one call: one round trip to a server."""
        ...


class VectorSearch(Protocol):
    """Nearest items by cosine similarity; see threefold.store.vectors.VectorIndex."""

    def search(
        self,
        kind: str,
        where: "ItemFilter",
        query: Any,
        limit: int,
        *,
        exact: bool = False,
        min_similarity: float = -math.inf,
        walk: Any = None,
        echoes_once: bool = False,
    ) -> list[tuple[int, float]]:
        """The `limit` items of `kind` passing `where` most similar to `query`, best
        first; those under `min_similarity` may be left out, and cost nothing. `walk`:
        a vector whose neighbours are more of the filter's items than the query's, which
        an approximate index may walk by to find them (the query then orders them).
        `echoes_once`: items that echo a better one are listed once (see Probe)."""
        ...

    def refresh(self, tenant: str, stream: str) -> None: ...
    def forget(self) -> None: ...
    def drop(self, tenant: str, streams: Sequence[str]) -> None: ...


class RecordBrowse(_Row):
    """What a browse of records lets through; every field set narrows."""

    source: str | None = None
    stream: str | None = None
    channel: str | None = None
    author: str | None = None
    """Matched without regard to case."""
    since: datetime | None = None
    until: datetime | None = None
    before_id: int | None = None
    """Only records after this one in the listing (older, or as old with a lower id)."""
    visibilities: tuple[Visibility, ...] = tuple(Visibility)
    limit: int = 50


class ItemFilter(_Row):
    """What search may return; every field narrows. The tenant is always required."""

    tenant: str
    streams: tuple[str, ...] | None = None
    visibilities: tuple[Visibility, ...] = tuple(Visibility)
    categories: tuple[str, ...] | None = None
    since: datetime | None = None
    until: datetime | None = None
    people: tuple[str, ...] = ()
    """Lowercase names that must appear in the item's text."""
    about: tuple[str, ...] = ()
    """Lowercase names each of which the item's text must hold, or its speaker (a turn's)
    or author (a record's): what was said about someone or by them. A vector search lists
    these items through the full-text index (Store.named_candidates), where a name is a
    whole word: there "ann" finds Ann, not Joanne (over a graph the newest NAMED_MOST;
    a scan of a smaller partition falls back to the store's test of the text when a
    person has more)."""
    summary_kinds: tuple[SummaryKind, ...] = (
        SummaryKind.SESSION,
        SummaryKind.WEEKLY,
        SummaryKind.MONTHLY,
        SummaryKind.ARCHIVED,
        SummaryKind.ACTIVE,
        SummaryKind.SLACK,
    )
    active_facts_only: bool = True
    exclude_facts: frozenset[int] = frozenset()
    """Facts not to return (those already pinned in the prompt)."""
    turns_before_seq: int | None = None
    """Turns older than this seq only (those not already among the recent turns)."""


class Item(_Row):
    """A searchable item as search sees it: fact, turn, summary or record."""

    kind: str
    id: int
    stream: str
    text: str
    at: datetime | None
    visibility: Visibility
    source: SourceRef
    mention_count: int = 1
    speaker: str | None = None
    """Who wrote a turn's user side, where a name was given."""
    assistant_speaker: str | None = None
    """Who wrote a turn's other side, where a name was given (a person, in a chat of two
    people; None for an assistant)."""
    category: str | None = None
    """A fact's category; None for the other kinds."""
    supersedes: int | None = None
    """The fact a fact replaced (a correction or a newer value); None for the other kinds."""


Key = tuple[str, int]
"""An item's (kind, id)."""


class Probe(_Row):
    """One ranked search recall asks for: full text and vectors over the items `where`
    allows, vectors no less similar than `min_similarity`."""

    where: ItemFilter
    min_similarity: float = -math.inf
    vector: Any = None
    """This probe's own query vector, in place of the search's (a numpy array), or None.
    An approximate index may walk by the search's vector to find the probe's items."""
    vector_depth: int | None = None
    """How many nearest items each of this probe's vector lists holds, in place of the
    search's limit (its full-text lists keep the limit); None: the limit."""
    echoes_once: bool = False
    """Whether its vector lists list the echoes of one line once (see
    threefold.store.vectors.one_per_echo), read deeper to fill their depth."""


@dataclass(frozen=True)
class Candidates:
    """What one Store.candidates call found, for recall to rank."""

    text: dict[tuple[int, str], list[tuple[int, float]]]
    """(probe's position, kind) -> full-text matches, best first, as fts_ids gives them."""
    nearest: dict[tuple[int, str], list[tuple[int, float]]]
    """(probe's position, kind) -> nearest vectors, as VectorSearch.search gives them."""
    rows: dict[Key, tuple[float | None, int]]
    """Every item found -> (time as a POSIX timestamp or None, mention count), as
    ranking_rows gives them."""
    read_items: Callable[[str, list[int]], list["Item"]]
    """(kind, ids) -> those items: from memory where they came with the search."""

    def items(self, keys: Iterable[Key]) -> dict[Key, "Item"]:
        """The items of `keys` that exist, by key."""
        wanted: dict[str, list[int]] = {}
        for kind, item_id in keys:
            wanted.setdefault(kind, []).append(item_id)
        return {
            (kind, item.id): item
            for kind, ids in wanted.items()
            for item in self.read_items(kind, ids)
        }


NAMED_MOST = 20_000
"""The most of the items a filter's people name (ItemFilter.about) that a vector search
scores exactly, newest first (see Store.named_candidates): at 100,000 turns one of 30
people had 7,400."""


def next_window(window: int, wanted: int, passed: int, checked: int) -> int:
    """How many more of a ranked list to check against a filter, after `passed` of the
    first `checked` passed and `wanted` more must: as many as that share needs and a
    quarter more, at most four times the last `window` (four times while none passed).
    A person's filter lets a thirtieth of a busy stream through, and windows growing
    fourfold checked up to three times the ids needed (each a row read, and its text
    searched for the name)."""
    if not passed:
        return 4 * window
    return min(4 * window, max(1, math.ceil(1.25 * wanted * checked / passed)))


def names_indexed(about: Sequence[str]) -> bool:
    """Whether every name of an ItemFilter.about can be looked up in a full-text index:
    each holds a letter or digit (a name of punctuation alone has no word to find)."""
    return bool(about) and all(any(c.isalnum() for c in name) for name in about)


def check_probes(tenant: str, probes: Sequence[Probe]) -> None:
    """Every probe searches the tenant a Store.candidates call names: the items it reads
    back are that tenant's."""
    for probe in probes:
        if probe.where.tenant != tenant:
            raise ValueError(
                f"a probe searches tenant {probe.where.tenant!r} in a call for {tenant!r}"
            )
        if probe.vector_depth is not None and probe.vector_depth < 1:
            raise ValueError(f"a probe's vector depth must be positive, got {probe.vector_depth}")


def candidates_one_by_one(
    store: Store,
    index: Callable[[], VectorSearch],
    tenant: str,
    kinds: Sequence[str],
    terms: Sequence[str],
    vector: Any,
    probes: Sequence[Probe],
    limit: int,
) -> Candidates:
    """Store.candidates made of the store's single reads and the searches of the vector
    index `index()` gives, for a store in the process, where a read costs no trip to a
    server. A search without a vector never asks for the index (nor loads numpy)."""
    check_probes(tenant, probes)
    text: dict[tuple[int, str], list[tuple[int, float]]] = {}
    nearest: dict[tuple[int, str], list[tuple[int, float]]] = {}
    for position, probe in enumerate(probes):
        for kind in kinds:
            if terms:
                text[(position, kind)] = store.fts_ids(kind, terms, probe.where, limit)
            probe_vector = vector if probe.vector is None else probe.vector
            if probe_vector is not None:
                walk = vector if probe.vector is not None else None
                nearest[(position, kind)] = index().search(
                    kind,
                    probe.where,
                    probe_vector,
                    probe.vector_depth or limit,
                    min_similarity=probe.min_similarity,
                    walk=walk,
                    echoes_once=probe.echoes_once,
                )
    found: dict[str, dict[int, None]] = {}
    for (_, kind), hits in [*text.items(), *nearest.items()]:
        found.setdefault(kind, {}).update(dict.fromkeys(item for item, _ in hits))
    rows = {
        (kind, item): (at, mentions)
        for kind, ids in found.items()
        if ids
        for item, at, mentions in store.ranking_rows(kind, tenant, list(ids))
    }
    return Candidates(text, nearest, rows, lambda kind, ids: store.items(kind, tenant, ids))
