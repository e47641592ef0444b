"""The MCP face: memory tools over one `Memory`, for one tenant at one trust level.

Built on the official `mcp` SDK (`mcp.server.mcpserver.MCPServer`). Every tool passes the
configured tenant to Memory and reads only what the configured trust may read; a `public`
session writes nothing. Caller mistakes come back as tool errors (`is_error`) with
threefold's own message, never a traceback.
"""

import functools
import inspect
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any, Literal, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import Field, ValidationError

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
from threefold.faces.mcp.compact import dumps
from threefold.layers.people import people_in
from threefold.memory import Memory
from threefold.recall.presets import PRESETS
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

Stream = str
"""'global' or 'kind:id', as the server's instructions say once for every tool."""
FactId = int


def _dump(item: Any) -> Any:
    """An item as the result holds it: the model itself, made lean as it is sent."""
    return item


class _LeanServer(MCPServer):
    """The SDK's server, with a listing an agent can afford and strict arguments.

    The listing leaves out what costs tokens at every call and says nothing to a model:
    schema titles, and the `null` branch and `null` default of optional arguments. Every
    schema says `additionalProperties: false`, and a call naming an argument the tool does
    not take is an error that lists the ones it does (the SDK would drop it silently)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.arguments: dict[str, tuple[str, ...]] = {}
        """The arguments each tool takes, by tool name."""

    async def list_tools(self) -> list[Any]:
        tools = await super().list_tools()
        return [
            tool.model_copy(update={"input_schema": _lean_schema(tool.input_schema, top=True)})
            for tool in tools
        ]

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        known = self.arguments.get(name, tuple(arguments))
        unknown = sorted(set(arguments) - set(known))
        if unknown:
            named = ", ".join(map(repr, unknown))
            raise ToolError(f"{name} takes no argument {named}; it takes {', '.join(known)}")
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                # The SDK sends pydantic's banner, model name and links: one line instead.
                problems = "; ".join(map(_argument_problem, exc.__cause__.errors()))
                raise ToolError(f"Error executing tool {name}: {problems}") from None
            raise


def _argument_problem(error: Any) -> str:
    """One argument's problem as "limit: Input should be ... (got -3)"."""
    where = ".".join(str(part) for part in error["loc"]) or "arguments"
    if error["type"] == "missing":
        return f"{where}: required"
    got = repr(error.get("input"))
    got = got if len(got) <= GOT_SHOWN else got[: GOT_SHOWN - 3] + "..."
    return f"{where}: {error['msg']} (got {got})"


GOT_SHOWN = 60
"""How much of a bad argument's value an error repeats."""


def _lean_schema(schema: Any, *, top: bool = False) -> Any:
    if isinstance(schema, list):
        return [_lean_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    lean: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "title" or (key == "default" and value is None):
            continue
        if key == "properties":
            lean[key] = {name: _lean_schema(sub) for name, sub in value.items()}
        else:
            lean[key] = _lean_schema(value)
    branches = lean.get("anyOf")
    if isinstance(branches, list) and {"type": "null"} in branches and len(branches) == 2:
        del lean["anyOf"]  # optional is said by `required`; null adds nothing
        lean.update(next(b for b in branches if b != {"type": "null"}))
    if top:
        lean["additionalProperties"] = False
    return lean


def build_server(
    memory: Memory, tenant: str, trust: Trust | str, *, key_id: int | None = None
) -> MCPServer:
    """An MCP server whose tools read and write `memory` as `tenant` at `trust`; what it
    writes is marked as written with the API key `key_id`, when a key opened it."""
    tenant = check_tenant(tenant)
    trust = Trust(trust)
    readable: tuple[Visibility, ...] = READABLE[trust]
    server = _LeanServer(
        "threefold",
        title="threefold memory",
        version=__version__,
        log_level="WARNING",  # the SDK configures root logging; keep Python's default level
        instructions=(
            "Long-term memory: facts, summaries and past turns per stream, named 'global' or "
            f"'kind:id' (e.g. 'project:alpha'). This session reads as trust '{trust}'"
            + (" and may not write." if trust is Trust.PUBLIC else ".")
            + " Results are compact JSON: empty fields are left out, visibility too when "
            "private; a source is a label such as 'turn:12'."
        ),
    )

    def tool(
        name: str, *, read_only: bool, idempotent: bool = False, destructive: bool = False
    ) -> Callable[[_F], _F]:
        """Register `fn` as tool `name`; threefold's deliberate errors become tool errors."""

        def register(fn: _F) -> _F:
            @functools.wraps(fn)
            def call(*args: Any, **kwargs: Any) -> str:
                try:
                    return dumps(fn(*args, **kwargs))
                except ThreefoldError as exc:
                    raise ToolError(str(exc)) from None

            server.arguments[name] = tuple(inspect.signature(fn).parameters)
            server.add_tool(
                call,
                name=name,
                description=" ".join((fn.__doc__ or "").split()),
                structured_output=False,  # one copy: the JSON text
                # Only the hints that say something: the others are the spec's defaults,
                # or mean nothing for a tool that only reads.
                annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False)
                if read_only
                else ToolAnnotations(
                    destructive_hint=destructive,
                    idempotent_hint=idempotent or None,
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
        query: str,
        stream: Annotated[str | None, Field()] = None,
        kinds: Annotated[
            list[Literal["fact", "turn", "summary", "record"]] | None,
            Field(),
        ] = None,
        limit: Annotated[int, Field(ge=1, le=100)] = 10,
        preset: Annotated[str, Field(description=", ".join(PRESETS))] = "default",
    ) -> dict[str, Any]:
        """Search facts, past turns, summaries and records (Slack, Jira, web), best first.
        Current facts only. `now`: the facts in force in place of an outdated value a hit
        states; `doubted_by`: a newer message that may have changed a fact hit."""
        hits = memory.search(
            query,
            stream=stream,
            kinds=kinds,
            limit=limit,
            preset=preset,
            trust=trust,
            tenant=tenant,
        )
        return {"hits": hits}

    @tool("memory_timeline", read_only=True)
    def memory_timeline(
        entity: Annotated[
            str,
            Field(description="a person, '#channel', project key or stream"),
        ],
        since: Annotated[datetime | None, Field()] = None,
        until: Annotated[datetime | None, Field()] = None,
        limit: Annotated[int, Field(ge=1, le=500, description="the newest N")] = 50,
    ) -> dict[str, Any]:
        """A person's, channel's or stream's history, oldest first: messages and facts; for
        a stream also turns and summaries."""
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
        """One fact by id, with its slot, status and source."""
        return dump_shown(readable_fact(fact_id)) or {}

    @tool("memory_write", read_only=False)
    def memory_write(
        stream: Stream,
        text: Annotated[str, Field(description="one plain sentence")],
        category: Annotated[
            str | None,
            Field(description=", ".join(c.value for c in FactCategory)),
        ] = None,
        confidence: Annotated[
            float | None, Field(ge=0.0, le=1.0, description="default 0.95")
        ] = None,
    ) -> dict[str, Any]:
        """Record a fact (category default note). A newer fact in the same slot supersedes
        the older; nothing is deleted. Not in a public session."""
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
        reason: Annotated[str, Field(max_length=1000)] = "",
    ) -> dict[str, Any]:
        """Retract a fact: it leaves every context and stays in its history. Full trust
        only."""
        refuse_unless_full("forget facts")
        return _dump(memory.forget(fact_id, reason=reason, tenant=tenant))

    @tool("memory_erase", read_only=False, idempotent=True, destructive=True)
    def memory_erase(
        stream: Annotated[str | None, Field()] = None,
        person: Annotated[str | None, Field(description="all they said or are said to be")] = None,
        fact_id: Annotated[int | None, Field(ge=1)] = None,
    ) -> dict[str, Any]:
        """Erase one stream, person or fact_id for good (privacy); an audit row stays. Full
        trust only."""
        refuse_unless_full("erase")
        report = memory.erase(stream=stream, entity=person, fact_id=fact_id, tenant=tenant)
        return _dump(report)

    @tool("memory_history", read_only=True)
    def memory_history(fact_id: FactId) -> dict[str, Any]:
        """Every version of a fact's slot, oldest first, and each change."""
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
        stream: Annotated[str | None, Field()] = None,
        limit: Annotated[int, Field(ge=1, le=PEOPLE_MAX)] = 50,
        offset: Annotated[int, Field(ge=0)] = 0,
    ) -> dict[str, Any]:
        """People the current facts name, most facts first, with their newest facts."""
        # Who a fact names: see threefold.layers.people.
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
            Field(),
        ] = "list",
    ) -> dict[str, Any]:
        """list a stream's session summaries; end: queue a summary of its new turns;
        refresh: rebuild its summary now. Not in a public session."""
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
        query: Annotated[str, Field(description="the question")] = "",
        budget: Annotated[
            int | None,
            Field(ge=1, description="tokens"),
        ] = None,
    ) -> dict[str, Any]:
        """What a prompt about `query` needs within `budget` tokens: facts, summary, recent
        turns and relevant older items, as text."""
        context = memory.context(stream, query, budget, trust=trust, tenant=tenant)
        # The text once and a report: the full dropped list can dwarf the budget itself.
        return {"stream": stream, "text": context.text, "report": budget_report(context)}

    @tool("memory_profile", read_only=True)
    def memory_profile(
        entity: Annotated[
            str,
            Field(description="a person, '#channel', project stream or key"),
        ],
    ) -> dict[str, Any]:
        """Role, current work, commitments, blockers, activity and mood of a person,
        channel or project."""
        return _dump(memory.profile(entity, trust=trust, tenant=tenant))

    @tool("memory_actions", read_only=True)
    def memory_actions(
        status: Annotated[Literal["open", "done", "dismissed", "all"], Field()] = "open",
        stream: Annotated[str | None, Field()] = None,
    ) -> dict[str, Any]:
        """What needs doing (overdue commitments, old blockers, near deadlines...), with
        evidence."""
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
            Field(description="today, yesterday, this week, last week, a day or 'day..day'"),
        ] = "today",
        timezone: Annotated[str | None, Field(description="IANA")] = None,
    ) -> dict[str, Any]:
        """What a stream's turns and messages said over a period, day by day."""
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
