"""The `memstrata` command line."""

import json
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress, TaskID
from rich.table import Table

from memstrata import __version__, demo
from memstrata.errors import MemstrataError, StoreError
from memstrata.keys import create_key
from memstrata.memory import Memory
from memstrata.recall import PRESETS
from memstrata.settings import Settings, database_location, load_settings
from memstrata.store import shown_location
from memstrata.types import DEFAULT_TENANT, Context, Fact, ImportReport
from memstrata.workers import Workers

app = typer.Typer(help="Long-term memory for LLM assistants.", no_args_is_help=True)
out = Console()
err = Console(stderr=True)


class _Options:
    def __init__(self, db: str | None, config: Path | None, tenant: str) -> None:
        self.db, self.config, self.tenant = db, config, tenant

    def settings(self) -> Settings:
        settings = load_settings(self.config)
        if not self.db:
            return settings
        return settings.model_copy(update={"db": database_location(self.db)})


@contextmanager
def _memory(ctx: typer.Context) -> Iterator[Memory]:
    """A memory for one command; its queued work runs before the command ends."""
    options: _Options = ctx.obj
    try:
        with Memory.open(
            settings=options.settings(), tenant=options.tenant, background_worker=False
        ) as mem:
            yield mem
    except MemstrataError as exc:
        raise _failed(exc) from None


STORE_EXIT = 3
"""The exit status when the store failed (full, read-only, busy...), apart from the 2 of
other errors, so that a script can tell "try again later" from "fix the command"."""


def _failed(exc: MemstrataError) -> typer.Exit:
    """Print `exc` for a person and return the exit to raise."""
    if isinstance(exc, StoreError):
        err.print(f"[red]store error ({exc.code}):[/red] {escape(str(exc))}")
        return typer.Exit(STORE_EXIT)
    # Escaped: "memstrata[server]" in a message is text, not a style.
    err.print(f"[red]error:[/red] {escape(str(exc))}")
    return typer.Exit(2)


def _version(value: bool) -> None:
    if value:
        out.print(f"memstrata {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    ctx: typer.Context,
    db: Annotated[
        str | None,
        typer.Option(help="SQLite file or postgresql:// URL [env: MEMSTRATA_DB]"),
    ] = None,
    config: Annotated[
        Path | None,
        typer.Option(envvar="MEMSTRATA_CONFIG", help="TOML settings file"),
    ] = None,
    tenant: Annotated[str, typer.Option(help="Tenant to act for")] = DEFAULT_TENANT,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version")
    ] = False,
) -> None:
    ctx.obj = _Options(db, config, tenant)


@app.command("add-turn")
def add_turn(
    ctx: typer.Context,
    stream: str,
    user: Annotated[str, typer.Option(help="What the user said")] = "",
    assistant: Annotated[str, typer.Option(help="What the assistant answered")] = "",
    at: Annotated[datetime | None, typer.Option(help="Event time (ISO 8601)")] = None,
    page_context: Annotated[str | None, typer.Option()] = None,
    model_variant: Annotated[str | None, typer.Option()] = None,
    speaker: Annotated[
        str | None, typer.Option(help="Who wrote the user side (default: the user)")
    ] = None,
) -> None:
    """Record a turn and run the work that follows it."""
    with _memory(ctx) as mem:
        turn = mem.add_turn(
            stream, user, assistant, at=at, page_context=page_context,
            model_variant=model_variant, speaker=speaker,
        )  # fmt: skip
        mem.process_pending()
        out.print(f"turn {turn.seq} of {stream} stored (id {turn.id}, {turn.tokens} tokens)")


@app.command("context")
def context(
    ctx: typer.Context,
    stream: str,
    query: str,
    budget: Annotated[int | None, typer.Option(help="Token budget")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the Context as JSON")] = False,
) -> None:
    """Assemble the context for a question."""
    with _memory(ctx) as mem:
        result = mem.context(stream, query, budget)
    if as_json:
        out.print_json(result.model_dump_json())
    else:
        _print_context(result)


@app.command("facts")
def facts(
    ctx: typer.Context,
    stream: str,
    all_: Annotated[bool, typer.Option("--all", help="Include superseded facts")] = False,
) -> None:
    """List a stream's facts, newest first."""
    with _memory(ctx) as mem:
        rows = mem.facts(stream, include_inactive=all_)
    out.print(_facts_table(rows, title=f"Facts of {stream}"))


@app.command("summaries")
def summaries(
    ctx: typer.Context,
    stream: str,
    kind: Annotated[
        str | None,
        typer.Option(help="session, active, weekly, monthly or archived"),
    ] = None,
) -> None:
    """List a stream's summaries, oldest period first."""
    with _memory(ctx) as mem:
        rows = mem.summaries(stream, kind)
    table = Table("id", "kind", "period", "items", "gen", "tokens", "text", title=stream)
    for s in rows:
        period = f"{s.period_start:%Y-%m-%d} → {s.period_end:%Y-%m-%d}" if s.period_end else ""
        first_line = s.text.strip().splitlines()[0] if s.text.strip() else ""
        table.add_row(
            str(s.id),
            s.kind,
            period,
            str(s.item_count),
            str(s.generation),
            str(s.tokens),
            first_line[:60],
        )
    out.print(table)


@app.command("refresh")
def refresh(ctx: typer.Context, stream: str) -> None:
    """Rebuild the active summary from the roll-ups and session summaries."""
    with _memory(ctx) as mem:
        mem.process_pending()
        active = mem.refresh(stream)
    if active is None:
        out.print(f"{stream} has no session summaries yet")
    else:
        out.print(
            f"active summary of {stream}: generation {active.generation}, {active.tokens} tokens"
        )


@app.command("end-session")
def end_session(ctx: typer.Context, stream: str) -> None:
    """Summarize what the summaries do not cover yet."""
    with _memory(ctx) as mem:
        mem.end_session(stream)
        mem.process_pending()
    out.print(f"session of {stream} summarized")


Workers_ = Annotated[
    int, typer.Option(help="Worker processes for digests and summaries (uses more cores)")
]


@app.command("process")
def process(ctx: typer.Context, workers: Workers_ = 1) -> None:
    """Run every queued job that is due."""
    with _memory(ctx) as mem:
        if workers > 1:
            with Workers(mem.settings, count=workers, tenant=mem.tenant) as pool:
                pass
            ran = pool.ran
        else:
            ran = mem.process_pending()
        failed = mem.store.jobs(status="failed")
    out.print(f"{ran} jobs ran; {len(failed)} failed for good (see `memstrata check`)")


@app.command("search")
def search(
    ctx: typer.Context,
    query: str,
    stream: Annotated[str | None, typer.Option(help="Only this stream")] = None,
    kind: Annotated[
        list[str] | None,
        typer.Option(help="fact, turn, summary or record; repeat for several"),
    ] = None,
    limit: Annotated[int, typer.Option(help="How many hits")] = 10,
    preset: Annotated[str, typer.Option(help="One of: " + ", ".join(PRESETS))] = "default",
    trust: Annotated[str, typer.Option(help="full, inner, familiar or public")] = "full",
) -> None:
    """Find older facts, turns, summaries and source records again."""
    with _memory(ctx) as mem:
        hits = mem.search(query, stream, kind, limit, preset, trust)
    table = Table("score", "kind", "source", "when", "stream", "text", title=f"search: {query}")
    for hit in hits:
        when = f"{hit.at:%Y-%m-%d}" if hit.at else ""
        text = " ".join(hit.text.split())
        table.add_row(f"{hit.score:.4f}", hit.kind, hit.source.label(), when, hit.stream,
                      text[:100])  # fmt: skip
    out.print(table)


@app.command("history")
def history(ctx: typer.Context, fact_id: int) -> None:
    """Show a fact's supersession chain and every change to it."""
    with _memory(ctx) as mem:
        found = mem.fact_history(fact_id)
    out.print(_facts_table(list(found.chain), title=f"Chain of fact {fact_id}"))
    table = Table("when", "fact", "action", "related", "note", "before → after")
    for change in found.changes:
        moved = f"{change.before or ''} → {change.after or ''}" if change.before else ""
        table.add_row(f"{change.at:%Y-%m-%d %H:%M}", str(change.fact_id), change.action,
                      str(change.related_fact_id or ""), change.note, moved)  # fmt: skip
    out.print(table)


@app.command("forget")
def forget(
    ctx: typer.Context,
    fact_id: int,
    reason: Annotated[str, typer.Option(help="Why; kept in the fact's history")] = "",
) -> None:
    """Retract a fact: it stays in its history and leaves every context."""
    with _memory(ctx) as mem:
        fact = mem.forget(fact_id, reason=reason)
    out.print(f"fact {fact.id} forgotten ({fact.status.value}): {fact.text}")


@app.command("erase")
def erase(
    ctx: typer.Context,
    stream: Annotated[str | None, typer.Option(help="Erase this whole stream")] = None,
    person: Annotated[
        str | None, typer.Option(help="Erase everything this person said or is said to be")
    ] = None,
    fact: Annotated[int | None, typer.Option(help="Erase this one fact")] = None,
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask for confirmation")] = False,
) -> None:
    """Erase content for good, for a privacy request; an audit row without content stays."""
    what = (f"the whole stream {stream}" if stream else f"everything by or about {person}"
            if person else f"fact {fact}")  # fmt: skip
    if not yes and not typer.confirm(f"Erase {what}, from every table, index and summary?"):
        raise typer.Exit(1)
    with _memory(ctx) as mem:
        report = mem.erase(stream=stream, entity=person, fact_id=fact)
    out.print(
        f"erased {what}: {report.turns} turns, {report.facts} facts, {report.records} records,"
        f" {report.summaries} summaries; {report.summaries_redacted} summaries redacted"
    )


@app.command("reembed")
def reembed(ctx: typer.Context) -> None:
    """Embed every item again with the configured embedder (after changing models)."""
    options: _Options = ctx.obj
    try:
        settings = options.settings()
        opened = Memory.open(settings=settings, background_worker=False, check_vectors=False)
        with opened as mem, Progress(console=out) as progress:
            task = progress.add_task("embedding", total=None)
            done = mem.reembed(lambda n, total: progress.update(task, completed=n, total=total))
    except MemstrataError as exc:
        raise _failed(exc) from None
    embedder = mem.recall.embedder
    out.print(f"{done} items embedded with {embedder.name if embedder else 'no embedder'}")


@app.command("maintain")
def maintain_now(ctx: typer.Context) -> None:
    """Run the maintenance stages once: retention, archive, clean-up, roll-ups, retries."""
    from memstrata.maintenance import maintain_alone
    from memstrata.store.base import lease_owner

    with _memory(ctx) as mem:
        reports = maintain_alone(mem, lease_owner())
    if reports is None:
        err.print("[red]error:[/red] another process (a server's loop?) is running maintenance "
                  "on this store now; try again when it has finished")  # fmt: skip
        raise typer.Exit(2)
    table = Table("stage", "count", "ms", title="maintenance")
    for report in reports:
        count = "failed (see log)" if report.count < 0 else str(report.count)
        table.add_row(report.stage, count, f"{report.ms:.1f}")
    out.print(table)


@app.command("reroute")
def reroute(ctx: typer.Context) -> None:
    """Route every stored Slack message again after the projects in settings changed:
    moved messages are digested where they arrive, and the streams they left redone."""
    with _memory(ctx) as mem:
        report = mem.reroute()
    table = Table("from -> to", "messages", title=f"re-route: {report.checked:,} checked")
    for pair, count in report.moved.items():
        table.add_row(pair, f"{count:,}")
    out.print(table if report.moved else f"{report.checked:,} messages checked; none moved")


@app.command("serve")
def serve(
    ctx: typer.Context,
    host: Annotated[str | None, typer.Option(help="Listen address [default: 127.0.0.1]")] = None,
    port: Annotated[int | None, typer.Option(help="Listen port [default: 8420]")] = None,
    workers: Annotated[
        int | None,
        typer.Option(min=1, help="Server processes on the port, each using a core [default: 1]"),
    ] = None,
) -> None:
    """The HTTP API (OpenAPI docs at /docs), with the maintenance loop running."""
    options: _Options = ctx.obj
    try:
        from memstrata.http import serve as run_http

        run_http(options.settings(), host=host, port=port, workers=workers)
    except MemstrataError as exc:
        raise _failed(exc) from None


@app.command("proxy")
def proxy(
    ctx: typer.Context,
    upstream: Annotated[str | None, typer.Option(help="OpenAI-compatible base URL")] = None,
    host: Annotated[str | None, typer.Option(help="Listen address")] = None,
    port: Annotated[int | None, typer.Option(help="Listen port")] = None,
) -> None:
    """An OpenAI-compatible chat endpoint that adds memory and records every answer."""
    options: _Options = ctx.obj
    try:
        from memstrata.proxy import run_proxy

        run_proxy(options.settings(), upstream=upstream, host=host, port=port)
    except MemstrataError as exc:
        raise _failed(exc) from None


@app.command("mcp")
def mcp(
    ctx: typer.Context,
    transport: Annotated[str, typer.Option(help="stdio, or http for streamable HTTP")] = "stdio",
    host: Annotated[str, typer.Option(help="For http")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="For http")] = 8422,
) -> None:
    """Serve memory to MCP clients, as the configured tenant and trust (settings.mcp)."""
    options: _Options = ctx.obj
    try:
        from memstrata.mcp import run_mcp

        run_mcp(options.settings(), transport=transport, host=host, port=port)
    except MemstrataError as exc:
        raise _failed(exc) from None


import_app = typer.Typer(help="Bring outside sources into memory.", no_args_is_help=True)
app.add_typer(import_app, name="import")


@import_app.command("slack")
def import_slack(
    ctx: typer.Context,
    export: Annotated[Path, typer.Argument(help="Slack export folder or .zip")],
    process: Annotated[
        bool, typer.Option(help="Digest the messages now (summaries, facts)")
    ] = True,
    workers: Annotated[
        int | None,
        typer.Option(
            help="Worker processes that digest while the export is read (default: one per core, "
            "at most 4; 1: digest afterwards, in this process)",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Import a Slack export: route each message to a stream, store it once, digest it."""
    workers = _import_workers() if workers is None else workers
    with _memory(ctx) as mem, Progress(console=err, transient=True) as progress:
        task = progress.add_task("reading day files", total=None)
        show = lambda done, total: progress.update(task, completed=done, total=total)  # noqa: E731
        if process and workers > 1:
            before = mem.store.count_facts(mem.tenant, "slack.")
            # The workers digest full batches while later days are still being read.
            with Workers(mem.settings, count=workers, tenant=mem.tenant):
                report = mem.import_slack(export, process=False, progress=show)
                _follow_digests(mem, progress, task)
            facts = mem.store.count_facts(mem.tenant, "slack.") - before
            report = report.model_copy(update={"facts": facts})
        else:
            digesting = _digest_bar(progress, task)
            report = mem.import_slack(
                export, process=process, progress=show, digest_progress=digesting
            )
    _print_import(report)


def _digest_bar(progress: Progress, task: TaskID) -> Callable[[int, int], None]:
    def show(done: int, total: int) -> None:
        progress.update(task, description="digesting messages", completed=done, total=total)

    return show


_FOLLOW_SECONDS = 0.5


def _follow_digests(mem: Memory, progress: Progress, task: TaskID) -> None:
    """Show the workers' digests as counts until every stored message is digested, or no
    job is left that would digest more (a failed one is retried by `maintain`)."""
    show, total = _digest_bar(progress, task), mem.undigested()
    while (left := mem.undigested()) and mem.store.jobs(tenant=mem.tenant, status="pending"):
        show(total - min(left, total), total)
        time.sleep(_FOLLOW_SECONDS)
    show(total, total)


_AUTO_WORKERS_MAX = 4


def _import_workers() -> int:
    """Digesting is about three quarters of an import's work and reading one quarter, so
    with two or more cores, workers beside the reader finish sooner. (The Python API stays
    in one process: spawning from a library would rerun an unguarded caller's script.)"""
    return max(1, min(os.cpu_count() or 1, _AUTO_WORKERS_MAX))


@import_app.command("jira")
def import_jira(
    ctx: typer.Context,
    csv_file: Annotated[Path, typer.Argument(help="Jira 'all fields' CSV export")],
) -> None:
    """Import a Jira CSV: issues into their project streams, fields as facts, and counts."""
    with _memory(ctx) as mem, Progress(console=err, transient=True) as progress:
        task = progress.add_task("reading issues", total=None)
        report = mem.import_jira(
            csv_file, progress=lambda done, _: progress.update(task, completed=done)
        )
    _print_import(report)


def _print_import(report: ImportReport) -> None:
    table = Table("", "count", title=f"{report.source} import")
    rows = [("read", report.read), ("kept", report.kept),
            ("already imported", report.duplicates)]  # fmt: skip
    rows += [(f"skipped: {kind}", n) for kind, n in sorted(report.skipped.items())]
    rows += [(f"routed to {stream}", n) for stream, n in report.routed.items()]
    if report.moved:
        rows.append(("moved to a new route", report.moved))
    rows += [("facts extracted", report.facts), ("problems", len(report.problems))]
    for label, count in rows:
        table.add_row(label, f"{count:,}")
    out.print(table)
    for problem in report.problems:
        err.print(f"[yellow]skipped[/yellow] {problem.path}: {problem.error}")
    for warning in report.warnings:
        err.print(f"[yellow]warning[/yellow] {warning}")
    if report.unread_columns:
        names = ", ".join(report.unread_columns)
        err.print(f"[yellow]not read[/yellow] {len(report.unread_columns)} columns: {names}")


@app.command("timeline")
def timeline(
    ctx: typer.Context,
    entity: Annotated[str, typer.Argument(help="A person, '#channel', a stream or a key")],
    limit: Annotated[int, typer.Option(help="The newest N events")] = 50,
    trust: Annotated[str, typer.Option(help="full, inner, familiar or public")] = "full",
) -> None:
    """What a person said and what is known about them, or what happened in a channel or
    project, oldest first."""
    with _memory(ctx) as mem:
        events = mem.timeline(entity, limit=limit, trust=trust)
    table = Table("when", "kind", "stream", "text", title=f"timeline: {entity}")
    for event in events:
        table.add_row(f"{event.at:%Y-%m-%d %H:%M}", event.category or event.kind, event.stream,
                      " ".join(event.text.split())[:120])  # fmt: skip
    out.print(table)


team_app = typer.Typer(help="Profiles, proactive actions and digests.", no_args_is_help=True)
app.add_typer(team_app, name="team")
_TRUST_HELP = "full, inner, familiar or public"


@team_app.command("rebuild")
def team_rebuild(ctx: typer.Context) -> None:
    """Rebuild every profile and run every action rule now (maintenance does it nightly)."""
    with _memory(ctx) as mem:
        report = mem.rebuild_team()
    out.print(
        f"{report.profiles} profiles; {report.actions} actions found ({report.new} new), "
        f"{report.closed} closed; {report.webhooks} told to webhooks"
    )


@team_app.command("profile")
def team_profile(
    ctx: typer.Context,
    entity: Annotated[str, typer.Argument(help="A person, '#channel', a project or its key")],
    trust: Annotated[str, typer.Option(help=_TRUST_HELP)] = "full",
    as_json: Annotated[bool, typer.Option("--json", help="Print the Profile as JSON")] = False,
) -> None:
    """Role, current work, commitments, blockers, recent activity and mood of an entity."""
    with _memory(ctx) as mem:
        profile = mem.profile(entity, trust=trust)
    if as_json:
        out.print_json(profile.model_dump_json())
        return
    for text, source in profile.lines():
        out.print(text + (f"  [dim]{source.label()}[/dim]" if source else ""), highlight=False)
    for item in profile.recent_activity:
        out.print(f"  recent: {item.text}", highlight=False)


@team_app.command("actions")
def team_actions(
    ctx: typer.Context,
    status: Annotated[str, typer.Option(help="open, done, dismissed or all")] = "open",
    stream: Annotated[str | None, typer.Option(help="Only this stream's")] = None,
    trust: Annotated[str, typer.Option(help=_TRUST_HELP)] = "full",
    as_json: Annotated[bool, typer.Option("--json", help="Print the actions as JSON")] = False,
) -> None:
    """What needs doing, as the rules found it at the last rebuild, with its evidence."""
    with _memory(ctx) as mem:
        found = mem.actions(status=None if status == "all" else status, stream=stream, trust=trust)
    if as_json:
        out.print_json(json.dumps([a.model_dump(mode="json") for a in found]))
        return
    table = Table("id", "rule", "status", "stream", "title", "evidence", title="actions")
    for action in found:
        evidence = ", ".join(e.label() for e in action.evidence)
        table.add_row(
            str(action.id), action.rule, action.status, action.stream, action.title, evidence
        )
    out.print(table)


@team_app.command("set-status")
def team_set_status(
    ctx: typer.Context,
    action_id: Annotated[int, typer.Argument(help="The action's id")],
    status: Annotated[str, typer.Argument(help="open, done or dismissed")],
) -> None:
    """Mark an action done or dismissed (or open again); rebuilds keep it."""
    with _memory(ctx) as mem:
        action = mem.set_action_status(action_id, status)
    out.print(f"action {action.id} is {action.status}")


@team_app.command("digest")
def team_digest(
    ctx: typer.Context,
    stream: str,
    period: Annotated[
        str, typer.Argument(help="today, yesterday, 'this week', 'last week', a day or a range")
    ] = "today",
    timezone: Annotated[str | None, typer.Option(help="IANA time zone of the days")] = None,
    trust: Annotated[str, typer.Option(help=_TRUST_HELP)] = "full",
) -> None:
    """What a stream's turns and messages said over a period, day by day."""
    with _memory(ctx) as mem:
        digest = mem.digest(stream, period, timezone=timezone, trust=trust)
    out.print(digest.text, highlight=False)


keys_app = typer.Typer(help="API keys for the HTTP API: one tenant and one trust level each.")
app.add_typer(keys_app, name="keys")


@keys_app.command("create")
def keys_create(
    ctx: typer.Context,
    tenant: Annotated[str, typer.Option(help="The only tenant this key may touch")],
    trust: Annotated[str, typer.Option(help="full, inner, familiar or public")] = "full",
    label: Annotated[str, typer.Option(help="A note on who holds the key")] = "",
) -> None:
    """Create a key and print its secret, once: only a hash is stored."""
    with _memory(ctx) as mem:
        try:
            key_id, secret = create_key(mem.store, tenant, trust, label)
        except ValueError as exc:
            err.print(f"[red]error:[/red] {exc}")
            raise typer.Exit(2) from None
    out.print(f"key {key_id} for tenant {tenant!r} at trust {trust!r}:")
    out.print(secret, markup=False, highlight=False)


@keys_app.command("list")
def keys_list(ctx: typer.Context) -> None:
    """List keys (never their secrets)."""
    with _memory(ctx) as mem:
        rows = mem.store.api_keys()
    table = Table("id", "tenant", "trust", "label", "created", "revoked")
    for key in rows:
        table.add_row(str(key.id), key.tenant, key.trust, key.label,
                      f"{key.created_at:%Y-%m-%d %H:%M}", "yes" if key.revoked else "")  # fmt: skip
    out.print(table)


@keys_app.command("revoke")
def keys_revoke(ctx: typer.Context, key_id: int) -> None:
    """Revoke a key; requests with it are refused from now on."""
    with _memory(ctx) as mem:
        revoked = mem.store.revoke_api_key(key_id)
    out.print(f"key {key_id} revoked" if revoked else f"no live key {key_id}")


@app.command("check")
def check(ctx: typer.Context) -> None:
    """Validate the settings and open the memory."""
    options: _Options = ctx.obj
    try:
        settings = options.settings()
    except MemstrataError as exc:
        err.print(f"[red]settings invalid:[/red] {exc}")
        raise typer.Exit(2) from None
    table = Table("setting", "value", title="memstrata settings")
    for key, value in settings.model_dump().items():
        shown = shown_location(value) if key == "db" else value
        table.add_row(key, json.dumps(shown, default=str))
    out.print(table)
    with _memory(ctx) as mem:
        jobs = mem.store.jobs()
    counts = {s: sum(j.status == s for j in jobs) for s in ("pending", "done", "failed")}
    opened = shown_location(settings.db)
    out.print(f"[green]ok[/green]: {opened} opened; model {mem.model.name}; jobs {counts}")


@app.command("migrate")
def migrate(
    source: Annotated[Path, typer.Option("--from", help="The SQLite memory to copy")],
    target: Annotated[str, typer.Option("--to", help="The postgresql:// database to fill")],
) -> None:
    """Copy a SQLite memory into PostgreSQL: every table, same ids; safe to run again."""
    from memstrata.store import open_store
    from memstrata.store.postgres.copy import copy_sqlite_to_postgres, source_rows

    try:
        store = open_store(target)
        if not source.is_file():
            raise StoreError(f"no SQLite memory at {source}")
        with Progress(console=out) as progress:
            task = progress.add_task("copying", total=source_rows(source))
            counts = copy_sqlite_to_postgres(
                source, store, lambda table, n: progress.update(task, advance=n, description=table)
            )
        store.close()
    except MemstrataError as exc:
        raise _failed(exc) from None
    table = Table("table", str(source), shown_location(target), title="rows on each side")
    for name, (before, after) in counts.items():
        table.add_row(name, str(before), str(after))
    out.print(table)


@app.command("demo")
def run_demo(
    db: Annotated[
        Path | None, typer.Option(help="Where to write (default: a new temp file)")
    ] = None,
    turns: Annotated[int, typer.Option(help="Turns after the key ones")] = 500,
    budget: Annotated[int, typer.Option(help="Token budget for the context")] = 6000,
) -> None:
    """Run the Project Alpha story offline and show the assembled context."""
    path = db or Path(tempfile.mkdtemp(prefix="memstrata-demo-")) / "demo.db"
    if path.exists():
        err.print(f"[red]error:[/red] {path} exists; the demo needs a fresh file")
        raise typer.Exit(2)
    settings = load_settings(db=path)
    with (
        Memory.open(settings=settings, background_worker=False) as mem,
        Progress(console=out, transient=True) as progress,
    ):
        task = progress.add_task("conversation", total=40 + turns)
        for turn in demo.story(filler_after=turns):
            mem.add_turn(demo.STREAM, turn.user, turn.assistant, at=turn.at)
            mem.process_pending()
            progress.advance(task)
        result = mem.context(demo.STREAM, demo.QUESTION, budget)
        facts_now = mem.facts(demo.STREAM)
    out.print(f"[bold]{40 + turns} turns[/bold] written to {path}\n")
    out.print(_facts_table(facts_now, title="Current facts (layer 1)"))
    _print_context(result)


def _facts_table(rows: list[Fact], title: str) -> Table:
    table = Table("id", "fact", "category", "slot", "conf", "status", "source", title=title)
    for f in rows:
        table.add_row(
            str(f.id),
            f.text,
            f.category,
            f"{f.subject}/{f.slot}",
            f"{f.confidence:.2f}",
            f.status,
            f.source.label(),
        )
    return table


def _print_context(result: Context) -> None:
    out.rule(f"context for {result.stream!r}")
    out.print(result.text, markup=False, highlight=False)
    out.rule()
    table = Table("section", "items", "tokens", title=f"{result.tokens} of {result.budget} tokens")
    for section in result.sections:
        table.add_row(section.title, str(len(section.items)), str(section.tokens))
    out.print(table)
    if result.dropped:
        dropped = Table("section", "source", "tokens", "why", title="Left out")
        for d in result.dropped:
            dropped.add_row(
                d.section, d.source.label() if d.source else "", str(d.tokens), d.reason
            )
        out.print(dropped)
