"""The MCP face: memory tools over one `Memory`, for one tenant at one trust level.

Built on the official `mcp` SDK (`mcp.server.mcpserver.MCPServer`). Every tool passes the
configured tenant to Memory and reads only what the configured trust may read; a `public`
session writes nothing. Caller mistakes come back as tool errors (`is_error`) with
threefold's own message, never a traceback.
"""

import functools
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any, Literal, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import Field

from threefold import __version__
from threefold.context.assemble import budget_report
from threefold.domain import (
    GLOBAL_STREAM,
    READABLE,
    Fact,
    FactCategory,
    SummaryKind,
    Trust,
    Visibility,
    as_utc,
    check_stream,
    check_tenant,
)
from threefold.errors import NotFound, ThreefoldError
from threefold.layers.people import people_in
from threefold.memory import Memory
from threefold.recall.search import PRESETS
from threefold.trust.disclosure import (
    WRITE_ACCEPTED,
    shown_changes,
    shown_fact,
    shown_facts,
    shown_turn,
    visibility_lookup,
)

TOOL_NAMES = (
    "memory_search",
    "memory_timeline",
    "memory_get",
    "memory_write",
    "memory_history",
    "memory_forget",
    "memory_erase",
    "memory_people",
    "memory_sessions",
    "memory_context",
    "memory_profile",
    "memory_actions",
    "memory_digest",
)

TIMELINE_SUMMARY_KINDS = (
    SummaryKind.SESSION,
    SummaryKind.SLACK,
    SummaryKind.WEEKLY,
    SummaryKind.MONTHLY,
)
"""Summaries that stand for a period; the rolling active summary and its old versions do not."""
TIMELINE_SCAN = 5000
"""Records and facts read per timeline call, newest first, before `since`/`until` apply."""

_F = TypeVar("_F", bound=Callable[..., Any])

Stream = Annotated[
    str,
    Field(description="a memory stream: 'global' or 'kind:id', such as 'project:alpha'"),
]
FactId = Annotated[
    int, Field(description="a fact id, as returned by memory_search or memory_write")
]


def _dump(item: Any) -> dict[str, Any]:
    return item.model_dump(mode="json")


def build_server(
    memory: Memory, tenant: str, trust: Trust | str, *, key_id: int | None = None
) -> MCPServer:
    """An MCP server whose tools read and write `memory` as `tenant` at `trust`; what it
    writes is marked as written with the API key `key_id`, when a key opened it."""
    tenant = check_tenant(tenant)
    trust = Trust(trust)
    readable: tuple[Visibility, ...] = READABLE[trust]
    server = MCPServer(
        "threefold",
        title="threefold memory",
        version=__version__,
        log_level="WARNING",  # the SDK configures root logging; keep Python's default level
        instructions=(
            "Long-term memory: facts, summaries and past turns per stream ('kind:id' or "
            f"'global'). This session reads as trust '{trust}'"
            + (" and may not write." if trust is Trust.PUBLIC else ".")
        ),
    )

    def tool(
        name: str, *, read_only: bool, idempotent: bool = False, destructive: bool = False
    ) -> Callable[[_F], _F]:
        """Register `fn` as tool `name`; threefold's deliberate errors become tool errors."""

        def register(fn: _F) -> _F:
            @functools.wraps(fn)
            def call(*args: Any, **kwargs: Any) -> Any:
                try:
                    return fn(*args, **kwargs)
                except ThreefoldError as exc:
                    raise ToolError(str(exc)) from None

            server.add_tool(
                call,
                name=name,
                description=fn.__doc__,
                annotations=ToolAnnotations(
                    read_only_hint=read_only,
                    destructive_hint=destructive,
                    idempotent_hint=read_only or idempotent,
                    open_world_hint=False,
                ),
            )
            return fn

        return register

    def may_read(visibility: Visibility) -> bool:
        return visibility in readable

    def refuse_writes(what: str) -> None:
        if not readable:
            raise ToolError(
                f"this MCP session has trust '{trust}', which may not {what}; "
                "ask the operator for a session with more trust"
            )

    visibility_of = visibility_lookup(lambda fact_id: memory.fact(fact_id, tenant=tenant))

    def dump_shown(fact: Fact) -> dict[str, Any] | None:
        """The fact without links to facts this session may not read; None if hidden."""
        shown = shown_fact(fact, trust, visibility_of)
        return _dump(shown) if shown is not None else None

    def readable_fact(fact_id: int) -> Fact:
        fact = memory.fact(fact_id, tenant=tenant)
        if not may_read(fact.visibility):
            raise NotFound(f"no fact {fact_id}")  # the same answer as for a missing fact
        return fact

    @tool("memory_search", read_only=True)
    def memory_search(
        query: Annotated[str, Field(description="what to look for, in plain words")],
        stream: Annotated[
            str | None, Field(description="only this stream ('kind:id'); all streams if omitted")
        ] = None,
        kinds: Annotated[
            list[Literal["fact", "turn", "summary", "record"]] | None,
            Field(
                description="item kinds to return; all if omitted. record: a source message "
                "or row (Slack, Jira, a web page)"
            ),
        ] = None,
        limit: Annotated[int, Field(ge=1, le=100, description="at most this many hits")] = 10,
        preset: Annotated[
            str, Field(description=f"ranking preset: {', '.join(PRESETS)}")
        ] = "default",
    ) -> dict[str, Any]:
        """Search the memory for facts, past turns, summaries and source records (Slack
        messages, Jira issues, web pages) that match a query, best first, each with its
        score, stream, time and source. Current facts only; use memory_history for
        superseded versions."""
        hits = memory.search(
            query,
            stream=stream,
            kinds=kinds,
            limit=limit,
            preset=preset,
            trust=trust,
            tenant=tenant,
        )
        return {"query": query, "hits": [_dump(h) for h in hits]}

    @tool("memory_timeline", read_only=True)
    def memory_timeline(
        entity: Annotated[
            str,
            Field(
                description="a person ('priya' or '@priya'), a Slack channel ('#general'), "
                "a project key ('ALPHA') or a stream ('project:alpha', 'chat:8812')"
            ),
        ],
        since: Annotated[
            datetime | None, Field(description="ISO 8601 time; only entries at or after it")
        ] = None,
        until: Annotated[
            datetime | None, Field(description="ISO 8601 time; only entries at or before it")
        ] = None,
        limit: Annotated[
            int, Field(ge=1, le=500, description="the newest this many entries, oldest first")
        ] = 50,
    ) -> dict[str, Any]:
        """What happened to an entity, in time order (oldest first). For a person or a
        channel: their messages from Slack and Jira ("record") and the facts about them
        ("fact"). For a stream or a project key, also the stream's conversation turns
        ("turn") and its session, weekly, monthly and Slack-batch summaries ("summary"),
        each summary placed at the end of the period it covers."""
        start = as_utc(since) if since else None
        end = as_utc(until) if until else None
        entries: list[tuple[datetime, int, dict[str, Any]]] = []
        for event in memory.timeline(entity, limit=TIMELINE_SCAN, trust=trust, tenant=tenant):
            rank = 0 if event.kind == "record" else 1  # a fact follows the message it is from
            entries.append((event.at, rank, {"type": event.kind, "at": event.at, "item": event}))
        stream = _stream_of(entity, memory)
        if stream is not None:
            entries.extend(stream_entries(stream))
        entries = [
            e for e in entries if (start is None or e[0] >= start) and (end is None or e[0] <= end)
        ]
        entries.sort(key=lambda e: (e[0], e[1]))
        shown = entries[-limit:]
        return {
            "entity": entity,
            "stream": stream,
            "total": len(entries),
            "truncated": len(shown) < len(entries),
            "entries": [
                {"type": e["type"], "at": e["at"].isoformat(), "item": _dump(e["item"])}
                for _, _, e in shown
            ],
        }

    def stream_entries(stream: str) -> list[tuple[datetime, int, dict[str, Any]]]:
        """The stream's readable turns and period summaries, as timeline entries."""
        entries: list[tuple[datetime, int, dict[str, Any]]] = []
        for turn in memory.turns(stream, tenant=tenant):
            shown = shown_turn(turn, trust)
            if shown is not None:
                entries.append((turn.at, 0, {"type": "turn", "at": turn.at, "item": shown}))
        for summary in memory.summaries(stream, tenant=tenant):
            if summary.kind in TIMELINE_SUMMARY_KINDS and may_read(summary.visibility):
                at = summary.period_end or summary.created_at
                # Last among equal times: a summary comes after what it covers.
                entries.append((at, 2, {"type": "summary", "at": at, "item": summary}))
        return entries

    @tool("memory_get", read_only=True)
    def memory_get(fact_id: FactId) -> dict[str, Any]:
        """One fact by id: its text, category, subject, slot, value, confidence, status
        (active or superseded...), visibility and source."""
        return dump_shown(readable_fact(fact_id)) or {}

    @tool("memory_write", read_only=False)
    def memory_write(
        stream: Stream,
        text: Annotated[str, Field(description="the fact, as one plain sentence")],
        category: Annotated[
            str | None,
            Field(description=f"one of {', '.join(c.value for c in FactCategory)}; default note"),
        ] = None,
        confidence: Annotated[
            float | None, Field(ge=0.0, le=1.0, description="0 to 1; default 0.95")
        ] = None,
    ) -> dict[str, Any]:
        """Record a fact in a stream. A newer fact about the same subject and slot supersedes
        the older one (see memory_history); nothing is deleted. The fact gets the most
        private visibility this session may read; below full trust its confidence is
        capped and it cannot displace what a more trusted writer said. When the statement
        lands on a fact this session may not read, the answer is only an acknowledgement.
        Refused in a public session."""
        refuse_writes("write facts")
        fact = memory.write_fact(
            stream,
            text,
            category=category if category is not None else FactCategory.NOTE,
            confidence=confidence if confidence is not None else 0.95,
            visibility=readable[0],
            tenant=tenant,
            trust=trust,
            key_id=key_id,
        )
        return dump_shown(fact) or {"accepted": True, "detail": WRITE_ACCEPTED}

    def refuse_unless_full(what: str) -> None:
        if trust is not Trust.FULL:
            raise ToolError(f"only a session of trust 'full' may {what}; this one is '{trust}'")

    @tool("memory_forget", read_only=False, idempotent=True, destructive=True)
    def memory_forget(
        fact_id: FactId,
        reason: Annotated[str, Field(max_length=1000, description="kept in the history")] = "",
    ) -> dict[str, Any]:
        """Forget a fact: it is retracted, stays in its history (memory_history) and leaves
        every context. Only in a session of trust 'full'."""
        refuse_unless_full("forget facts")
        return _dump(memory.forget(fact_id, reason=reason, tenant=tenant))

    @tool("memory_erase", read_only=False, idempotent=True, destructive=True)
    def memory_erase(
        stream: Annotated[str | None, Field(description="erase this whole stream")] = None,
        person: Annotated[
            str | None, Field(description="erase everything this person said or is said to be")
        ] = None,
        fact_id: Annotated[int | None, Field(ge=1, description="erase this one fact")] = None,
    ) -> dict[str, Any]:
        """For privacy requests: remove content for good (turns, facts, records, summaries
        and their indexes); an audit row without content stays. Name exactly one of stream,
        person or fact_id. Returns what was removed. Only in a session of trust 'full'."""
        refuse_unless_full("erase")
        report = memory.erase(stream=stream, entity=person, fact_id=fact_id, tenant=tenant)
        return _dump(report)

    @tool("memory_history", read_only=True)
    def memory_history(fact_id: FactId) -> dict[str, Any]:
        """A fact's supersession chain (every version of its slot, oldest first) and what
        happened to each version, with the fields before and after each change."""
        readable_fact(fact_id)
        history = memory.fact_history(fact_id, tenant=tenant)
        changes = shown_changes(history.changes, trust, visibility_of)
        return {
            "fact": dump_shown(history.fact),
            "chain": [_dump(f) for f in shown_facts(history.chain, trust, visibility_of)],
            "changes": [_dump(c) for c in changes],
        }

    @tool("memory_people", read_only=True)
    def memory_people(
        stream: Annotated[
            str | None, Field(description="only this stream; all streams if omitted")
        ] = None,
        limit: Annotated[int, Field(ge=1, le=PEOPLE_MAX, description="people per page")] = 50,
        offset: Annotated[int, Field(ge=0, description="people to skip, for paging")] = 0,
    ) -> dict[str, Any]:
        """People named in the current facts, most facts first, a page at a time, each with
        their fact count and newest few facts.

        A heuristic, not an entity index: a person is the subject of a fact that is not
        about a date, a status, a decision or a link, or the role holder, assignee or
        handoff receiver a fact names, spelled as one to three capitalised words that are
        not a role title, a common word or a date word. It misses names written in
        lowercase."""
        if stream is not None:
            streams = [check_stream(stream)]
        else:
            streams = [s.name for s in memory.streams(tenant=tenant)]
        people: dict[str, dict[str, Any]] = {}
        with_readable: list[str] = []
        for name in streams:
            facts = shown_facts(memory.facts(name, tenant=tenant), trust, visibility_of)
            if facts:
                with_readable.append(name)
            for fact in facts:
                for person in people_in(fact, name):
                    entry = people.setdefault(person.lower(), {"names": {}, "facts": {}})
                    entry["names"][person] = entry["names"].get(person, 0) + 1
                    entry["facts"][fact.id] = fact
        ranked = sorted(people.values(), key=lambda e: (-len(e["facts"]), _best_name(e).lower()))
        page = ranked[offset : offset + limit]
        return {
            "stream": stream,
            # Only streams this session can read anything in: names are metadata too.
            "streams_read": len(with_readable),
            "total": len(ranked),
            "next_offset": offset + limit if offset + limit < len(ranked) else None,
            "people": [
                {
                    "name": _best_name(entry),
                    "fact_count": len(entry["facts"]),
                    "facts": [_brief(f) for f in list(entry["facts"].values())[:FACTS_PER_PERSON]],
                }
                for entry in page
            ],
        }

    @tool("memory_sessions", read_only=False, idempotent=True)
    def memory_sessions(
        stream: Stream,
        action: Annotated[
            Literal["end", "refresh", "list"],
            Field(
                description="end: summarize the turns no summary covers yet (queued); "
                "refresh: rebuild the stream's active summary now and return it; "
                "list: the stream's session summaries, oldest first"
            ),
        ] = "list",
    ) -> dict[str, Any]:
        """End a session, refresh the stream's summary, or list its session summaries.
        end and refresh are refused in a public session."""
        check_stream(stream)
        if action == "list":
            summaries = memory.summaries(stream, SummaryKind.SESSION, tenant=tenant)
            return {
                "stream": stream,
                "action": action,
                "summaries": [_dump(s) for s in summaries if may_read(s.visibility)],
            }
        refuse_writes(f"{action} sessions")
        if action == "end":
            memory.end_session(stream, tenant=tenant)
            return {
                "stream": stream,
                "action": action,
                "queued": True,
                "note": "a session summary of the uncovered turns is queued",
            }
        active = memory.refresh(stream, tenant=tenant)
        shown = active if active is not None and may_read(active.visibility) else None
        return {
            "stream": stream,
            "action": action,
            "summary": _dump(shown) if shown is not None else None,
        }

    @tool("memory_context", read_only=True)
    def memory_context(
        stream: Stream,
        query: Annotated[str, Field(description="the question the context is for")] = "",
        budget: Annotated[
            int | None,
            Field(ge=1, description="tokens; the configured prompt_budget if omitted"),
        ] = None,
    ) -> dict[str, Any]:
        """The memory a prompt about `query` should carry, within `budget` tokens: facts,
        the stream's summary, recent turns and relevant older material, each item naming
        its source, as text, with a short report of the tokens and items per section and
        of how many items did not fit, and why."""
        context = memory.context(stream, query, budget, trust=trust, tenant=tenant)
        # The text once and a report: the full dropped list can dwarf the budget itself.
        return {"stream": stream, "text": context.text, "report": budget_report(context)}

    @tool("memory_profile", read_only=True)
    def memory_profile(
        entity: Annotated[
            str,
            Field(
                description="a person ('Priya'), a channel ('#general'), a project "
                "('project:alpha') or its key ('ALPHA')"
            ),
        ],
    ) -> dict[str, Any]:
        """Who a person is or what a channel or project is about: role, current work,
        commitments, blockers, recent activity and mood trend, each item with its source."""
        return _dump(memory.profile(entity, trust=trust, tenant=tenant))

    @tool("memory_actions", read_only=True)
    def memory_actions(
        status: Annotated[
            Literal["open", "done", "dismissed", "all"], Field(description="which actions")
        ] = "open",
        stream: Annotated[str | None, Field(description="only this stream's")] = None,
    ) -> dict[str, Any]:
        """What needs doing (overdue commitments, old blockers, near deadlines, unanswered
        questions, handoffs without an owner, mood drops), each with its evidence."""
        found = memory.actions(
            status=None if status == "all" else status,
            stream=stream,
            trust=trust,
            tenant=tenant,
        )
        return {"actions": [_dump(a) for a in found]}

    @tool("memory_digest", read_only=True)
    def memory_digest(
        stream: Stream,
        period: Annotated[
            str,
            Field(
                description="today, yesterday, 'this week', 'last week', a day "
                "('2026-03-02') or a range ('2026-03-02..2026-03-08')"
            ),
        ] = "today",
        timezone: Annotated[str | None, Field(description="IANA time zone of the days")] = None,
    ) -> dict[str, Any]:
        """What a stream's turns and messages said over a period, day by day, and what was
        learned; an empty period says so."""
        return _dump(memory.digest(stream, period, timezone=timezone, trust=trust, tenant=tenant))

    return server


# -- timeline --------------------------------------------------------------------


def _stream_of(entity: str, memory: Memory) -> str | None:
    """The stream an entity names, if it names one: 'project:alpha', 'global', or the key
    of a configured project. Mirrors how Memory.timeline reads an entity."""
    entity = entity.strip()
    if entity.startswith(("#", "@", "person:", "channel:")):
        return None
    if ":" in entity or entity == GLOBAL_STREAM:
        return check_stream(entity)
    keys = {p.key: p.stream for p in memory.settings.projects if p.key}
    return keys.get(entity.upper())


# -- people ----------------------------------------------------------------------

PEOPLE_MAX = 200
FACTS_PER_PERSON = 5
"""The newest facts listed per person; memory_search finds the rest."""


def _best_name(entry: dict[str, Any]) -> str:
    names: dict[str, int] = entry["names"]
    return max(names, key=lambda n: (names[n], n))


def _brief(fact: Fact) -> dict[str, Any]:
    return {
        "id": fact.id,
        "stream": fact.stream,
        "category": fact.category.value,
        "text": fact.text,
    }
