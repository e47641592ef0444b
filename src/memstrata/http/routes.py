"""The /v1 endpoints. Each is a thin, synchronous call into the one Memory (run in the
threadpool), always with the caller's tenant, and reads only what the key's trust may read.
"""

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, File, Form, Path, Query, Request, UploadFile

from memstrata.errors import NotFound
from memstrata.http.auth import Caller, Writer, read_trust, write_visibility
from memstrata.http.errors import ApiError
from memstrata.http.schemas import (
    MAX_ID,
    ContextIn,
    ErrorResponse,
    FactIn,
    FactList,
    Ingested,
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
    TurnIn,
    TurnList,
)
from memstrata.memory import Memory
from memstrata.store.base import ApiKey
from memstrata.types import (
    GLOBAL_STREAM,
    READABLE,
    Context,
    Fact,
    FactHistory,
    SummaryKind,
    Trust,
    Turn,
    Visibility,
)


async def _memory(request: Request) -> Memory:
    return request.app.state.memory  # type: ignore[no-any-return]


Mem = Annotated[Memory, Depends(_memory)]
FactId = Annotated[int, Path(ge=1, le=MAX_ID, description="a fact id of this key's tenant")]
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
        body.stream, body.user, body.assistant, at=body.at, page_context=body.page_context,
        model_variant=body.model_variant, source=body.source,
        visibility=write_visibility(key, body.visibility), tenant=key.tenant,
    )  # fmt: skip


@router.get("/turns", tags=["turns"])
def list_turns(
    stream: StreamQuery,
    key: Caller,
    mem: Mem,
    limit: Annotated[int, Query(ge=1, le=1000, description="the newest this many")] = 100,
) -> TurnList:
    """The stream's newest turns, oldest first; only those this key may read."""
    turns = mem.turns(stream, limit, tenant=key.tenant)
    return TurnList(stream=stream, turns=[t for t in turns if _readable(key, t.visibility)])


# -- context ------------------------------------------------------------------


@router.post("/context", tags=["context"], responses=FORBIDDEN)
def context(body: ContextIn, key: Caller, mem: Mem) -> Context:
    """Facts, summary, recent turns and retrieved material, within `budget` tokens."""
    return _context(body, key, mem)


@router.get("/context", tags=["context"], responses=FORBIDDEN)
def context_get(params: Annotated[ContextIn, Query()], key: Caller, mem: Mem) -> Context:
    """The same as POST /v1/context, with query parameters."""
    return _context(params, key, mem)


def _context(body: ContextIn, key: ApiKey, mem: Memory) -> Context:
    trust = read_trust(key, body.trust)
    return mem.context(body.stream, body.query, body.budget, trust=trust, tenant=key.tenant)


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
    return FactList(stream=stream, facts=[f for f in facts if _readable(key, f.visibility)])


@router.post("/facts", status_code=201, tags=["facts"], responses=FORBIDDEN)
def write_fact(body: FactIn, key: Writer, mem: Mem) -> Fact:
    """Record a fact through reconciliation and supersession by (subject, slot).

    Returns the fact that now holds the statement: a repeat returns the existing fact.
    """
    return mem.write_fact(
        body.stream, body.text, category=body.category, confidence=body.confidence,
        subject=body.subject, slot=body.slot, value=body.value, at=body.at,
        visibility=write_visibility(key, body.visibility), tenant=key.tenant,
    )  # fmt: skip


@router.get("/facts/{fact_id}", tags=["facts"], responses=_errors(404))
def get_fact(fact_id: FactId, key: Caller, mem: Mem) -> Fact:
    return _fact(mem, key, fact_id)


@router.post(
    "/facts/{fact_id}/supersede", status_code=201, tags=["facts"], responses=_errors(403, 404)
)
def supersede_fact(fact_id: FactId, body: SupersedeIn, key: Writer, mem: Mem) -> Fact:
    """Write a new fact into this fact's (subject, slot), superseding whatever holds it.

    The default confidence, 1.0, is that of an explicit correction. A lower confidence than
    the slot holder's leaves the new fact `outranked`, kept but not shown.
    """
    old = _fact(mem, key, fact_id)
    return mem.write_fact(
        old.stream, body.text, category=body.category or old.category,
        confidence=body.confidence, subject=old.subject, slot=old.slot,
        value=body.value or body.text, at=body.at,
        visibility=body.visibility or old.visibility, tenant=key.tenant,
    )  # fmt: skip


@router.get("/facts/{fact_id}/history", tags=["facts"], responses=_errors(404))
def fact_history(fact_id: FactId, key: Caller, mem: Mem) -> FactHistory:
    """The fact, its supersession chain (oldest first) and every change along it."""
    _fact(mem, key, fact_id)
    history = mem.fact_history(fact_id, tenant=key.tenant)
    chain = tuple(f for f in history.chain if _readable(key, f.visibility))
    shown = {f.id for f in chain}
    changes = tuple(c for c in history.changes if c.fact_id in shown)
    return FactHistory(fact=history.fact, chain=chain, changes=changes)


def _fact(mem: Memory, key: ApiKey, fact_id: int) -> Fact:
    fact = mem.fact(fact_id, tenant=key.tenant)
    if not _readable(key, fact.visibility):
        raise NotFound(f"no fact {fact_id}")  # the same answer as for a missing fact
    return fact


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
    """Facts, turns and summaries matching `query`, best first, with their sources."""
    return _search(body, key, mem)


@router.get("/search", tags=["search"], responses=FORBIDDEN)
def search_get(params: Annotated[SearchIn, Query()], key: Caller, mem: Mem) -> SearchResults:
    """The same as POST /v1/search, with query parameters (repeat `kinds` for several)."""
    return _search(params, key, mem)


def _search(body: SearchIn, key: ApiKey, mem: Memory) -> SearchResults:
    hits = mem.search(
        body.query, body.stream, kinds=body.kinds, limit=body.limit, preset=body.preset,
        trust=read_trust(key, body.trust), categories=body.categories, since=body.since,
        until=body.until, people=body.people, tenant=key.tenant,
    )  # fmt: skip
    return SearchResults(query=body.query, hits=hits)


# -- sessions -----------------------------------------------------------------


@router.post("/sessions/end", status_code=202, tags=["sessions"], responses=FORBIDDEN)
def end_session(body: StreamRef, key: Writer, mem: Mem) -> SessionEnded:
    """Queue a summary of whatever the summaries do not cover yet."""
    mem.end_session(body.stream, tenant=key.tenant)
    return SessionEnded(stream=body.stream)


@router.post("/sessions/refresh", tags=["sessions"], responses=FORBIDDEN)
def refresh(body: StreamRef, key: Writer, mem: Mem) -> Refreshed:
    """Rebuild the active summary from roll-ups and session summaries, now."""
    summary = mem.refresh(body.stream, tenant=key.tenant)
    if summary is not None and not _readable(key, summary.visibility):
        summary = None
    return Refreshed(stream=body.stream, summary=summary)


# -- ingestion ----------------------------------------------------------------


@router.post("/ingest/message", status_code=201, tags=["ingest"], responses=FORBIDDEN)
def ingest_message(body: SlackMessageIn, key: Writer, mem: Mem) -> Ingested:
    """A Slack-style message, stored as a turn with source "slack".

    Interim: it goes to the `stream` named, else `global`, as the user text
    "<user>: <text>" at the time of `ts`; the channel and thread go in page_context.
    Issue 4 (sources) replaces this with real source records and routing.
    """
    stream = body.stream or GLOBAL_STREAM
    where = f"slack channel={body.channel} ts={body.ts}"
    if body.thread_ts:
        where += f" thread_ts={body.thread_ts}"
    turn = mem.add_turn(
        stream, f"{body.user}: {body.text}", at=_slack_time(body.ts), page_context=where,
        source="slack", visibility=write_visibility(key, body.visibility), tenant=key.tenant,
    )  # fmt: skip
    return Ingested(stream=stream, turn=turn)


def _slack_time(ts: str) -> datetime:
    try:
        return datetime.fromtimestamp(float(ts), UTC)
    except (OverflowError, OSError, ValueError):
        raise ApiError(422, "invalid_input", f"ts {ts!r} is not a usable time") from None


@router.post("/imports", tags=["ingest"], responses=_errors(403, 501))
def start_import(
    key: Writer,
    kind: Annotated[Literal["slack", "jira"], Form(description="slack (zip) or jira (csv)")],
    file: Annotated[UploadFile, File(description="a Slack export zip or a Jira CSV")],
    stream: Annotated[str | None, Form()] = None,
) -> None:
    """Not implemented yet: importers arrive with issue 4 (sources).

    Then this will start an import job and answer 202 with its status URL.
    """
    raise ApiError(
        501, "not_implemented",
        f"{kind} imports are not implemented yet; the importers arrive with issue 4 (sources)",
    )  # fmt: skip


# -- stats --------------------------------------------------------------------


@router.get("/stats", tags=["stats"])
def stats(key: Caller, mem: Mem) -> Stats:
    """Counts per stream of this key's tenant (counts of everything, not content)."""
    rows = []
    for state in mem.streams(tenant=key.tenant):
        facts = mem.facts(state.name, include_inactive=True, tenant=key.tenant)
        rows.append(
            StreamStats(
                stream=state.name, turns=state.turn_count, facts=len(facts),
                active_facts=sum(1 for f in facts if f.active),
                summaries=len(mem.summaries(state.name, tenant=key.tenant)),
            )
        )  # fmt: skip
    totals = StreamStats(
        stream="*", turns=sum(r.turns for r in rows), facts=sum(r.facts for r in rows),
        active_facts=sum(r.active_facts for r in rows),
        summaries=sum(r.summaries for r in rows),
    )  # fmt: skip
    return Stats(tenant=key.tenant, streams=rows, totals=totals)


def _readable(key: ApiKey, visibility: Visibility) -> bool:
    return visibility in READABLE[Trust(key.trust)]
