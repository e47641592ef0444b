"""The /v1 endpoints. Each is a thin, synchronous call into the one Memory (run in the
threadpool), always with the caller's tenant, and reads only what the key's trust may read.
"""

import dataclasses
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, File, Form, Path, Query, Request, Response, UploadFile
from pydantic import BaseModel, ConfigDict, Field

from threefold.domain import (
    READABLE,
    ApiKey,
    Context,
    ErasureReport,
    Fact,
    FactHistory,
    RerouteReport,
    SummaryKind,
    Trust,
    Turn,
    Visibility,
)
from threefold.errors import NotFound
from threefold.faces.http.auth import (
    Caller,
    Owner,
    Writer,
    read_trust,
    write_visibility,
)
from threefold.faces.http.context_route import context_response
from threefold.faces.http.imports import Imports
from threefold.faces.http.schemas import (
    MAX_ID,
    ContextIn,
    ErrorResponse,
    FactIn,
    FactList,
    ImportKind,
    ImportStarted,
    ImportStatus,
    Ingested,
    ModelCounts,
    RecordList,
    RecordPage,
    RecordSource,
    Refreshed,
    SearchIn,
    SearchResults,
    SessionEnded,
    SlackMessageIn,
    Stats,
    StreamRef,
    StreamStats,
    SummaryList,
    SupersedeIn,
    Timeline,
    TurnIn,
    TurnList,
    WriteAccepted,
)
from threefold.memory import Memory
from threefold.team import Action, ActionStatus, Digest, Profile
from threefold.trust.disclosure import (
    WRITE_ACCEPTED,
    shown_changes,
    shown_fact,
    shown_facts,
    shown_turn,
    visibility_lookup,
)


async def _memory(request: Request) -> Memory:
    return request.app.state.memory


async def _imports(request: Request) -> Imports:
    return request.app.state.imports


Mem = Annotated[Memory, Depends(_memory)]
ImportQueue = Annotated[Imports, Depends(_imports)]
FactId = Annotated[int, Path(ge=1, le=MAX_ID, description="a fact id of this key's tenant")]
TrustQuery = Annotated[Trust | None, Query(description="may only lower the key's own")]
StreamQuery = Annotated[str, Query(description="'global' or 'kind:id', e.g. 'project:alpha'")]


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": ErrorResponse} for status in statuses}


router = APIRouter(prefix="/v1", responses=_errors(401, 413, 422, 500))
FORBIDDEN = _errors(403)


# -- turns --------------------------------------------------------------------


@router.post("/turns", status_code=201, tags=["turns"], responses=FORBIDDEN)
def add_turn(body: TurnIn, key: Writer, mem: Mem) -> Turn:
    """Store a turn verbatim; fact extraction and summaries follow in the background."""
    return mem.add_turn(
        body.stream,
        body.user,
        body.assistant,
        at=body.at,
        page_context=body.page_context,
        model_variant=body.model_variant,
        source=body.source,
        visibility=write_visibility(key, body.visibility),
        speaker=body.speaker,
        assistant_speaker=body.assistant_speaker,
        tenant=key.tenant,
        trust=key.trust,
        key_id=key.id,
    )


@router.get("/turns", tags=["turns"])
def list_turns(
    stream: StreamQuery,
    key: Caller,
    mem: Mem,
    limit: Annotated[int, Query(ge=1, le=1000, description="the newest this many")] = 100,
) -> TurnList:
    """The stream's newest turns, oldest first; only those this key may read."""
    turns = mem.turns(stream, limit, tenant=key.tenant)
    shown = (shown_turn(t, key.trust, key_id=key.id) for t in turns)
    return TurnList(stream=stream, turns=[t for t in shown if t is not None])


# -- context ------------------------------------------------------------------


@router.post("/context", tags=["context"], responses=FORBIDDEN, response_model=Context)
async def context(body: ContextIn, key: Caller, request: Request) -> Response:
    """Facts, summary, recent turns and retrieved material, within `budget` tokens."""
    return await _context(body, key, request)


@router.get("/context", tags=["context"], responses=FORBIDDEN, response_model=Context)
async def context_get(
    params: Annotated[ContextIn, Query()], key: Caller, request: Request
) -> Response:
    """The same as POST /v1/context, with query parameters."""
    return await _context(params, key, request)


async def _context(body: ContextIn, key: ApiKey, request: Request) -> Response:
    # Plain requests are answered by ContextShortcut before they get here; the same answer.
    return await context_response(request.app.state, body, key, request.scope)


# -- facts --------------------------------------------------------------------


@router.get("/facts", tags=["facts"])
def list_facts(
    stream: StreamQuery,
    key: Caller,
    mem: Mem,
    include_inactive: Annotated[bool, Query(description="superseded facts too")] = False,
) -> FactList:
    """Layer 1 of the stream, newest first."""
    facts = mem.facts(stream, include_inactive=include_inactive, tenant=key.tenant)
    return FactList(stream=stream, facts=_shown(mem, key, facts))


@router.post("/facts", status_code=201, tags=["facts"], responses=FORBIDDEN)
def write_fact(body: FactIn, key: Writer, mem: Mem) -> Fact | WriteAccepted:
    """Record a fact through reconciliation and supersession by (subject, slot).

    Returns the fact that now holds the statement: a repeat returns the existing fact.
    Below full trust, confidence and visibility are capped, and what a more trusted key
    said stands. When the fact that holds the statement is one this key may not read, the
    answer is only an acknowledgement, without content or ids.
    """
    fact = mem.write_fact(
        body.stream,
        body.text,
        category=body.category,
        confidence=body.confidence,
        subject=body.subject,
        slot=body.slot,
        value=body.value,
        at=body.at,
        visibility=write_visibility(key, body.visibility),
        tenant=key.tenant,
        trust=key.trust,
        key_id=key.id,
    )
    return _write_answer(mem, key, fact)


@router.get("/facts/{fact_id}", tags=["facts"], responses=_errors(404))
def get_fact(fact_id: FactId, key: Caller, mem: Mem) -> Fact:
    return _shown(mem, key, [_fact(mem, key, fact_id)])[0]


@router.post(
    "/facts/{fact_id}/supersede", status_code=201, tags=["facts"], responses=_errors(403, 404)
)
def supersede_fact(
    fact_id: FactId, body: SupersedeIn, key: Writer, mem: Mem
) -> Fact | WriteAccepted:
    """Write a new fact into this fact's (subject, slot), superseding whatever holds it.

    The default confidence, 1.0, is that of an explicit correction. A lower confidence than
    the slot holder's, or a key less trusted than the holder's writer, leaves the new fact
    `outranked`, kept but not shown.
    """
    old = _fact(mem, key, fact_id)
    fact = mem.write_fact(
        old.stream,
        body.text,
        category=body.category or old.category,
        confidence=body.confidence,
        subject=old.subject,
        slot=old.slot,
        value=body.value or body.text,
        at=body.at,
        visibility=body.visibility or old.visibility,
        tenant=key.tenant,
        trust=key.trust,
        key_id=key.id,
    )
    return _write_answer(mem, key, fact)


@router.get("/facts/{fact_id}/history", tags=["facts"], responses=_errors(404))
def fact_history(fact_id: FactId, key: Caller, mem: Mem) -> FactHistory:
    """The fact, its supersession chain (oldest first) and every change along it."""
    _fact(mem, key, fact_id)
    history = mem.fact_history(fact_id, tenant=key.tenant)
    visibility_of = _visibility_of(mem, key)
    return FactHistory(
        fact=_shown(mem, key, [history.fact])[0],
        chain=tuple(_shown(mem, key, history.chain)),
        changes=tuple(shown_changes(history.changes, key.trust, visibility_of)),
    )


@router.delete("/facts/{fact_id}", tags=["facts"], responses=_errors(403, 404))
def forget_fact(
    fact_id: FactId,
    key: Owner,
    mem: Mem,
    reason: Annotated[str, Query(max_length=1000, description="kept in the history")] = "",
    erase: Annotated[
        bool, Query(description="erase its content for good instead of retracting it")
    ] = False,
) -> Fact | ErasureReport:
    """Forget a fact: retracted, kept in its history, out of every context. With
    `erase=true`, its content is removed from every table, index and summary instead."""
    if erase:
        return mem.erase(fact_id=fact_id, tenant=key.tenant)
    return mem.forget(fact_id, reason=reason, tenant=key.tenant)


@router.delete("/streams/{stream:path}", tags=["privacy"], responses=_errors(403, 404))
def erase_stream(stream: str, key: Owner, mem: Mem) -> ErasureReport:
    """Erase a whole stream: its turns, facts, summaries, records and their indexes."""
    return mem.erase(stream=stream, tenant=key.tenant)


@router.delete("/entities/{name}", tags=["privacy"], responses=_errors(403, 404))
def erase_entity(name: str, key: Owner, mem: Mem) -> ErasureReport:
    """Erase everything a person said or is said to be, in every stream of the tenant."""
    return mem.erase(entity=name, tenant=key.tenant)


def _fact(mem: Memory, key: ApiKey, fact_id: int) -> Fact:
    fact = mem.fact(fact_id, tenant=key.tenant)
    if not _readable(key, fact.visibility):
        raise NotFound(f"no fact {fact_id}")  # the same answer as for a missing fact
    return fact


def _visibility_of(mem: Memory, key: ApiKey) -> Callable[[int], Visibility | None]:
    return visibility_lookup(lambda fact_id: mem.fact(fact_id, tenant=key.tenant))


def _shown(mem: Memory, key: ApiKey, facts: Iterable[Fact]) -> list[Fact]:
    """The facts this key may read, without links to those it may not."""
    return shown_facts(facts, key.trust, _visibility_of(mem, key), key_id=key.id)


def _write_answer(mem: Memory, key: ApiKey, fact: Fact) -> Fact | WriteAccepted:
    shown = shown_fact(fact, key.trust, _visibility_of(mem, key), key_id=key.id)
    return shown if shown is not None else WriteAccepted(detail=WRITE_ACCEPTED)


# -- summaries ----------------------------------------------------------------


@router.get("/summaries", tags=["summaries"])
def list_summaries(
    stream: StreamQuery,
    key: Caller,
    mem: Mem,
    kind: Annotated[SummaryKind | None, Query(description="only this kind")] = None,
) -> SummaryList:
    summaries = mem.summaries(stream, kind, tenant=key.tenant)
    return SummaryList(
        stream=stream, summaries=[s for s in summaries if _readable(key, s.visibility)]
    )


# -- search -------------------------------------------------------------------


@router.post("/search", tags=["search"], responses=FORBIDDEN)
def search(body: SearchIn, key: Caller, mem: Mem) -> SearchResults:
    """Facts, turns, summaries and source records matching `query`, best first, with
    their sources."""
    return _search(body, key, mem)


@router.get("/search", tags=["search"], responses=FORBIDDEN)
def search_get(params: Annotated[SearchIn, Query()], key: Caller, mem: Mem) -> SearchResults:
    """The same as POST /v1/search, with query parameters (repeat `kinds` for several)."""
    return _search(params, key, mem)


def _search(body: SearchIn, key: ApiKey, mem: Memory) -> SearchResults:
    hits = mem.search(
        body.query,
        body.stream,
        kinds=body.kinds,
        limit=body.limit,
        preset=body.preset,
        trust=read_trust(key, body.trust),
        categories=body.categories,
        since=body.since,
        until=body.until,
        people=body.people,
        tenant=key.tenant,
    )
    return SearchResults(query=body.query, hits=hits)


# -- sessions -----------------------------------------------------------------


@router.post("/sessions/end", status_code=202, tags=["sessions"], responses=FORBIDDEN)
def end_session(body: StreamRef, key: Writer, mem: Mem) -> SessionEnded:
    """Queue a summary of whatever the summaries do not cover yet."""
    mem.end_session(body.stream, tenant=key.tenant)
    return SessionEnded(stream=body.stream)


@router.post("/sessions/refresh", tags=["sessions"], responses=FORBIDDEN)
def refresh(body: StreamRef, key: Writer, mem: Mem) -> Refreshed:
    """Read the stream's turns and messages again for facts, then rebuild the active
    summary from roll-ups and session summaries, now."""
    summary = mem.refresh(body.stream, tenant=key.tenant)
    if summary is not None and not _readable(key, summary.visibility):
        summary = None
    return Refreshed(stream=body.stream, summary=summary)


# -- ingestion ----------------------------------------------------------------


@router.post("/reroute", tags=["ingest"], responses=_errors(403, 409))
def reroute(key: Owner, mem: Mem) -> RerouteReport:
    """Route the tenant's stored Slack messages again with the projects in settings now:
    moved messages are digested where they arrive, the facts read from them stay behind
    as history, and the streams they left are redone. 409 while an import or another
    re-route of the tenant runs. Needs a full key."""
    return mem.reroute(tenant=key.tenant)


@router.post(
    "/ingest/message",
    status_code=201,
    tags=["ingest"],
    responses={**FORBIDDEN, 200: {"model": Ingested, "description": "a repeat: stored before"}},
)
def ingest_message(body: SlackMessageIn, key: Owner, mem: Mem, response: Response) -> Ingested:
    """A live Slack message: routed to a stream and stored once as a source record; its
    stream is digested (summaries, facts) when a batch is full or the channel goes quiet.

    A repeat of a stored (channel, ts) changes nothing and answers 200 with a null stream.
    Needs a full key: sources are recorded at the owner's trust.
    """
    stream = mem.ingest_message(
        channel=body.channel,
        user=body.user,
        ts=body.ts,
        text=body.text,
        thread_ts=body.thread_ts,
        channel_kind=body.channel_kind,
        tenant=key.tenant,
    )
    if stream is None:
        response.status_code = 200
    return Ingested(stream=stream, duplicate=stream is None)


@router.post("/imports", status_code=202, tags=["ingest"], responses=_errors(403, 429, 503))
def start_import(
    key: Owner,
    imports: ImportQueue,
    response: Response,
    kind: Annotated[ImportKind, Form(description="slack (an export .zip) or jira (a CSV)")],
    file: Annotated[UploadFile, File(description="a Slack export .zip or a Jira CSV export")],
) -> ImportStarted:
    """Queue an import of the uploaded file and answer at once; poll `status_url`.

    Imports run one at a time in the background (in each server process, when there are
    several). A file that is not what `kind` says ends
    as status "failed" with the reason in `error`. Importing the same file again adds
    nothing new. Needs a full key: sources are recorded at the owner's trust.
    """
    job = imports.submit(key.tenant, kind, file.file, file.filename)
    url = f"{router.prefix}/imports/{job.id}"
    response.headers["Location"] = url
    return ImportStarted(id=job.id, status_url=url)


@router.get("/imports/{import_id}", tags=["ingest"], responses=_errors(404))
def import_status(
    import_id: Annotated[str, Path(max_length=64, description="the id POST /v1/imports gave")],
    key: Caller,
    imports: ImportQueue,
) -> ImportStatus:
    """An import's status, and its report once done. Any server process answers for any
    import; only the most recent 200 are kept."""
    status = imports.status(key.tenant, import_id)
    if status is None:
        raise NotFound(f"no import {import_id!r}")
    return status


# -- sources ------------------------------------------------------------------


@router.get("/timeline", tags=["sources"], responses=FORBIDDEN)
def timeline(
    entity: Annotated[
        str,
        Query(
            min_length=1,
            max_length=200,
            description="a person ('priya', '@priya'), a channel ('#general'), a stream "
            "('project:alpha') or a project key ('ALPHA')",
        ),
    ],
    key: Caller,
    mem: Mem,
    limit: Annotated[int, Query(ge=1, le=1000, description="the newest this many")] = 100,
    trust: Annotated[Trust | None, Query(description="may only lower the key's own")] = None,
) -> Timeline:
    """What an entity said and what is known about it: source records and facts, oldest
    first; only what this key may read."""
    events = mem.timeline(entity, limit=limit, trust=read_trust(key, trust), tenant=key.tenant)
    return Timeline(entity=entity, events=events)


@router.get("/records", tags=["sources"])
def list_records(
    stream: StreamQuery,
    key: Caller,
    mem: Mem,
    limit: Annotated[int, Query(ge=1, le=1000, description="the newest this many")] = 100,
    source: Annotated[RecordSource | None, Query(description="only this source")] = None,
) -> RecordList:
    """The stream's source records (Slack messages, Jira issues, web pages), oldest first,
    with those routed elsewhere that mention it; only those this key may read."""
    records = mem.records(stream, limit, source=source, tenant=key.tenant)
    return RecordList(stream=stream, records=[r for r in records if _readable(key, r.visibility)])


@router.get("/messages", tags=["sources"], responses=FORBIDDEN)
def browse_messages(
    key: Caller,
    mem: Mem,
    stream: Annotated[str | None, Query(description="only this stream")] = None,
    channel: Annotated[str | None, Query(description="only this channel ('#' optional)")] = None,
    author: Annotated[str | None, Query(description="only this author (any case)")] = None,
    source: Annotated[RecordSource | None, Query(description="only this source")] = "slack",
    since: Annotated[datetime | None, Query(description="sent at or after")] = None,
    until: Annotated[datetime | None, Query(description="sent before")] = None,
    before: Annotated[int | None, Query(ge=1, description="next_before of the last page")] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    trust: TrustQuery = None,
) -> RecordPage:
    """Browse messages (and other source records) of every stream, newest first, page by
    page: only those this key may read."""
    records = mem.browse(
        source=source,
        stream=stream,
        channel=channel,
        author=author,
        since=since,
        until=until,
        before=before,
        limit=limit,
        trust=read_trust(key, trust),
        tenant=key.tenant,
    )
    following = records[-1].id if len(records) == limit else None
    return RecordPage(records=records, next_before=following)


_WEB_SCAN = 100
"""Record hits read to find a web search's pages among messages and documents."""


@router.get("/web/search", tags=["search"], responses=FORBIDDEN)
def web_search(
    key: Caller,
    mem: Mem,
    query: Annotated[str, Query(description="empty: the newest pages")] = "",
    stream: Annotated[str | None, Query(description="only this stream")] = None,
    limit: Annotated[int, Query(ge=1, le=50)] = 10,
    trust: TrustQuery = None,
) -> SearchResults:
    """Search the web pages the memory fetched from links (sources.fetch_hosts), best
    first: the pages alone, without the messages that linked them."""
    hits = mem.search(
        query,
        stream,
        kinds=["record"],
        limit=_WEB_SCAN,
        trust=read_trust(key, trust),
        tenant=key.tenant,
    )
    pages = [hit for hit in hits if hit.source.kind.startswith("web.")]
    return SearchResults(query=query, hits=pages[:limit])


# -- stats --------------------------------------------------------------------


@router.get("/stats", tags=["stats"])
def stats(key: Caller, mem: Mem) -> Stats:
    """Counts per stream of this key's tenant, of what this key may read: a stream with
    nothing readable is not listed, so a public key sees none."""
    every = (_stream_stats(mem, key, s.name, s.turn_count) for s in mem.streams(tenant=key.tenant))
    rows = [r for r in every if r.turns or r.facts or r.summaries]
    totals = StreamStats(
        stream="*",
        turns=sum(r.turns for r in rows),
        facts=sum(r.facts for r in rows),
        active_facts=sum(r.active_facts for r in rows),
        summaries=sum(r.summaries for r in rows),
    )
    counts = mem.model_counts() if key.trust is Trust.FULL else {}
    model = ModelCounts(**counts) if counts else None
    return Stats(tenant=key.tenant, streams=rows, totals=totals, model=model)


def _stream_stats(mem: Memory, key: ApiKey, stream: str, turn_count: int) -> StreamStats:
    facts = mem.facts(stream, include_inactive=True, tenant=key.tenant)
    facts = [f for f in facts if _readable(key, f.visibility)]
    summaries = mem.summaries(stream, tenant=key.tenant)
    if key.trust is not Trust.FULL:  # full reads every turn; the others count theirs
        turns = mem.turns(stream, tenant=key.tenant)
        turn_count = sum(1 for t in turns if _readable(key, t.visibility))
    return StreamStats(
        stream=stream,
        turns=turn_count,
        facts=len(facts),
        active_facts=sum(1 for f in facts if f.active),
        summaries=sum(1 for s in summaries if _readable(key, s.visibility)),
    )


def _readable(key: ApiKey, visibility: Visibility) -> bool:
    return visibility in READABLE[Trust(key.trust)]


# -- team ---------------------------------------------------------------------


class ActionList(BaseModel):
    actions: list[Action] = Field(description="oldest first")


class ActionStatusIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    status: ActionStatus


@router.get("/profiles/{entity}", tags=["team"], responses=FORBIDDEN)
def profile(
    entity: Annotated[
        str,
        Path(
            min_length=1,
            max_length=200,
            description="a person ('priya'), a channel ('#general'), a project "
            "('project:alpha') or its key ('ALPHA')",
        ),
    ],
    key: Caller,
    mem: Mem,
    trust: TrustQuery = None,
) -> Profile:
    """An entity's role, current work, commitments, blockers, recent activity and mood
    trend; only what this key may read."""
    return mem.profile(entity, trust=read_trust(key, trust), tenant=key.tenant)


@router.get("/actions", tags=["team"], responses=FORBIDDEN)
def list_actions(
    key: Caller,
    mem: Mem,
    status: Annotated[ActionStatus | None, Query(description="every status if omitted")] = None,
    stream: Annotated[str | None, Query(description="only this stream's")] = None,
    trust: TrustQuery = None,
) -> ActionList:
    """What needs doing, as the rules found it at the last rebuild, with the record and
    fact ids that show it; only actions whose evidence this key may read."""
    found = mem.actions(
        status=status.value if status else None,
        stream=stream,
        trust=read_trust(key, trust),
        tenant=key.tenant,
    )
    return ActionList(actions=found)


@router.post("/actions/{action_id}", tags=["team"], responses=_errors(403, 404))
def set_action_status(
    action_id: Annotated[int, Path(ge=1, le=MAX_ID)], body: ActionStatusIn, key: Writer, mem: Mem
) -> Action:
    """Mark an action open, done or dismissed; a rebuild keeps it so."""
    readable = {a.id for a in mem.actions(status=None, trust=key.trust, tenant=key.tenant)}
    if action_id not in readable:
        raise NotFound(f"no action {action_id}")
    return mem.set_action_status(action_id, body.status.value, tenant=key.tenant)


@router.post("/team/rebuild", tags=["team"], responses=FORBIDDEN)
def rebuild_team(key: Owner, mem: Mem) -> dict[str, int]:
    """Rebuild profiles and run the action rules now (maintenance does it nightly)."""
    report = mem.rebuild_team(tenant=key.tenant)
    return dataclasses.asdict(report)


@router.get("/digest", tags=["team"], responses=FORBIDDEN)
def digest(
    stream: StreamQuery,
    key: Caller,
    mem: Mem,
    period: Annotated[
        str,
        Query(
            max_length=40,
            description="today, yesterday, this week, last week, a day (2026-03-02) or a "
            "range (2026-03-02..2026-03-08)",
        ),
    ] = "today",
    timezone: Annotated[str | None, Query(max_length=64, description="IANA time zone")] = None,
    trust: TrustQuery = None,
) -> Digest:
    """A stream's daily digests over a period, in the caller's time zone."""
    return mem.digest(
        stream, period, timezone=timezone, trust=read_trust(key, trust), tenant=key.tenant
    )
