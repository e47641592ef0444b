"""The `memstrata` command line."""

import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from memstrata import __version__, demo
from memstrata.errors import MemstrataError, StoreError
from memstrata.memory import Memory
from memstrata.recall import PRESETS
from memstrata.settings import Settings, load_settings
from memstrata.types import DEFAULT_TENANT, Context, Fact, ImportReport
from memstrata.workers import Workers

app = typer.Typer(help="Long-term memory for LLM assistants.", no_args_is_help=True)
out = Console()
err = Console(stderr=True)


class _Options:
    def __init__(self, db: Path | None, config: Path | None, tenant: str) -> None:
        self.db, self.config, self.tenant = db, config, tenant

    def settings(self) -> Settings:
        settings = load_settings(self.config)
        return settings.model_copy(update={"db": self.db}) if self.db else settings


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
        err.print(f"[red]store error ({exc.code}):[/red] {exc}")
        return typer.Exit(STORE_EXIT)
    err.print(f"[red]error:[/red] {exc}")
    return typer.Exit(2)


def _version(value: bool) -> None:
    if value:
        out.print(f"memstrata {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    ctx: typer.Context,
    db: Annotated[Path | None, typer.Option(help="SQLite file [env: MEMSTRATA_DB]")] = None,
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
        failed = mem.job_counts()["failed"]
    out.print(f"{ran} jobs ran; {failed} failed for good (see `memstrata check`)")


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
    out.print(f"{done} items embedded with {mem.embedder_name}")


@app.command("maintain")
def maintain_now(ctx: typer.Context) -> None:
    """Run the maintenance stages once: retention, archive, clean-up, roll-ups, retries."""
    with _memory(ctx) as mem:
        reports = mem.maintain()
    if reports is None:
        err.print("[red]error:[/red] another process (a server's loop?) is running maintenance "
                  "on this store now; try again when it has finished")  # fmt: skip
        raise typer.Exit(2)
    table = Table("stage", "count", "ms", title="maintenance")
    for report in reports:
        count = "failed (see log)" if report.count < 0 else str(report.count)
        table.add_row(report.stage, count, f"{report.ms:.1f}")
    out.print(table)


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
    from memstrata.http import serve as run_http

    options: _Options = ctx.obj
    try:
        run_http(options.settings(), host=host, port=port, workers=workers)
    except MemstrataError as exc:
        raise _failed(exc) from None


NoAuth = Annotated[
    bool,
    typer.Option(
        "--no-auth",
        help="Take no API key: every request acts as one tenant at full trust. For "
        "development on a loopback address only; refused on any other.",
    ),
]


@app.command("proxy")
def proxy(
    ctx: typer.Context,
    upstream: Annotated[str | None, typer.Option(help="OpenAI-compatible base URL")] = None,
    host: Annotated[str | None, typer.Option(help="Listen address")] = None,
    port: Annotated[int | None, typer.Option(help="Listen port")] = None,
    no_auth: NoAuth = False,
) -> None:
    """An OpenAI-compatible chat endpoint that adds memory and records every answer.

    Clients send an API key (`memstrata keys create`) as their OpenAI key; it names the
    tenant and trust each request acts as."""
    from memstrata.proxy import run_proxy

    options: _Options = ctx.obj
    try:
        run_proxy(
            options.settings(), upstream=upstream, host=host, port=port, no_auth=no_auth,
            tenant=options.tenant,
        )  # fmt: skip
    except MemstrataError as exc:
        raise _failed(exc) from None


@app.command("mcp")
def mcp(
    ctx: typer.Context,
    transport: Annotated[str, typer.Option(help="stdio, or http for streamable HTTP")] = "stdio",
    host: Annotated[str, typer.Option(help="For http")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="For http")] = 8422,
    no_auth: NoAuth = False,
) -> None:
    """Serve memory to MCP clients: over stdio as the configured tenant and trust
    (settings.mcp), over http as each request's API key says."""
    from memstrata.mcp import run_mcp

    options: _Options = ctx.obj
    try:
        run_mcp(options.settings(), transport=transport, host=host, port=port, no_auth=no_auth)
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
            before = mem.count_facts(source="slack.")
            # The workers digest full batches while later days are still being read.
            with Workers(mem.settings, count=workers, tenant=mem.tenant):
                report = mem.import_slack(export, process=False, progress=show)
                progress.update(task, description="digesting")
            facts = mem.count_facts(source="slack.") - before
            report = report.model_copy(update={"facts": facts})
        else:
            report = mem.import_slack(export, process=process, progress=show)
    _print_import(report)


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
    rows += [("facts extracted", report.facts), ("problems", len(report.problems))]
    for label, count in rows:
        table.add_row(label, f"{count:,}")
    out.print(table)
    for problem in report.problems:
        err.print(f"[yellow]skipped[/yellow] {problem.path}: {problem.error}")
    for warning in report.warnings:
        err.print(f"[yellow]warning[/yellow] {warning}")


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
        key_id, secret = mem.create_key(tenant, trust, label)
    out.print(f"key {key_id} for tenant {tenant!r} at trust {trust!r}:")
    out.print(secret, markup=False, highlight=False)


@keys_app.command("list")
def keys_list(ctx: typer.Context) -> None:
    """List keys (never their secrets)."""
    with _memory(ctx) as mem:
        rows = mem.api_keys()
    table = Table("id", "tenant", "trust", "label", "created", "revoked")
    for key in rows:
        table.add_row(str(key.id), key.tenant, key.trust, key.label,
                      f"{key.created_at:%Y-%m-%d %H:%M}", "yes" if key.revoked else "")  # fmt: skip
    out.print(table)


@keys_app.command("revoke")
def keys_revoke(ctx: typer.Context, key_id: int) -> None:
    """Revoke a key; requests with it are refused from now on."""
    with _memory(ctx) as mem:
        revoked = mem.revoke_key(key_id)
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
        table.add_row(key, json.dumps(value, default=str))
    out.print(table)
    with _memory(ctx) as mem:
        counts = mem.job_counts()
    out.print(f"[green]ok[/green]: {settings.db} opened; model {mem.model_name}; jobs {counts}")


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
