"""The `threefold` command line.

Conventions every command keeps (see threefold.faces.cli_output): a command that prints data
takes `fmt: FormatOption = Format.TEXT` and prints through `emit(fmt, data, text)`, with
`table()` for rows; errors go to stderr as one line; a ThreefoldError raised anywhere in
a command ends it with exit 2 (3 for the store), never a traceback.
"""

import copy
import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

from threefold.errors import NotFound, StoreError, ThreefoldError
from threefold.faces.cli_output import (
    Format,
    FormatOption,
    console,
    emit,
    error,
    heading,
    jsonable,
    say,
    table,
)
from threefold.locations import database_location, default_db_path, shown_location, sqlite_file
from threefold.recall.presets import PRESETS

if TYPE_CHECKING:  # the engine is imported by the commands that use it, to start fast
    from rich.console import Console
    from rich.progress import Progress, TaskID

    from threefold.domain import Context, Fact, ImportReport, SearchHit
    from threefold.memory import Memory
    from threefold.pipeline.backlog import Backlog, Drain
    from threefold.settings import Settings


class _Commands(TyperGroup):
    """A caller's mistake anywhere in a command ends it as one line on stderr."""

    def invoke(self, ctx: Any) -> Any:  # typer's own Context type moved between releases
        try:
            return super().invoke(ctx)
        except ThreefoldError as exc:
            raise _failed(exc) from None


class _Typer(typer.Typer):
    """Builds only the commands a call can name. typer turns every command's signature
    into click parameters on each call, and this call runs one of some seventy: building
    them all was about 3% of a short command (`context`, measured in instructions)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        argv = kwargs.get("args", args[0] if args else None)
        words = set(sys.argv[1:] if argv is None else argv)
        if _completing():
            return super().__call__(*args, **kwargs)
        named = [c for c in self.registered_commands if _command_name(c) in words]
        groups = [g for g in self.registered_groups if g.name in words]
        if not named and not groups:  # help, a typo: the whole list, with suggestions
            return super().__call__(*args, **kwargs)
        # Every command named anywhere in the call, so that an option's value that
        # happens to be a command's name cannot leave the real one out.
        pruned = copy.copy(self)
        pruned.registered_commands, pruned.registered_groups = named, groups
        return typer.Typer.__call__(pruned, *args, **kwargs)


def _command_name(command: Any) -> str:
    """The name typer gives a command: its own, or its function's with dashes."""
    return command.name or command.callback.__name__.lower().replace("_", "-")


def _completing() -> bool:
    """Whether the shell asks for completions: those need every command."""
    return any(k.startswith("_") and k.endswith("_COMPLETE") for k in os.environ)


def _typer(help: str) -> typer.Typer:
    # Plain help: the same in a pipe as on a terminal, and a flag shows no "<bool>".
    return _Typer(help=help, no_args_is_help=True, rich_markup_mode=None, cls=_Commands)


app = _typer("Long-term memory for LLM assistants.")


class _Options:
    def __init__(self, db: str | None, config: Path | None, tenant: str) -> None:
        self.db, self.config, self.tenant = db, config, tenant

    def settings(self) -> "Settings":
        from threefold.settings import load_settings

        settings = load_settings(self.config)
        if self.db is None:  # --db "" (an unset variable in a script) is an error, not the default
            return settings
        return settings.model_copy(update={"db": database_location(self.db)})


@contextmanager
def _memory(ctx: typer.Context, *, creates: bool = False) -> Iterator["Memory"]:
    """A memory for one command; its queued work runs before the command ends.

    Only a command that adds to the memory (`creates`) makes a SQLite file that does not
    exist yet: any other would read a new, empty one, and a mistyped `--db` would look
    like a memory that forgot everything.
    """
    from threefold.memory import Memory

    options: _Options = ctx.obj
    try:
        settings = options.settings()
        if not creates:
            _require_database(settings.db)
        with Memory.open(settings=settings, tenant=options.tenant, background_worker=False) as mem:
            yield mem
    except ThreefoldError as exc:
        raise _failed(exc) from None


def _require_database(location: str | Path) -> None:
    """Stops when `location` names a SQLite file that does not exist."""
    path = sqlite_file(location)
    if path is not None and not path.exists():
        raise NotFound(
            f"no database at {path}: check --db or $THREEFOLD_DB (only a command that"
            " writes, such as add-turn, creates one)"
        )


def _progress(console: "Console") -> "Progress":
    """A transient progress display; rich's progress module loads only for long work."""
    from rich.progress import Progress

    return Progress(console=console, transient=True)


STORE_EXIT = 3
"""The exit status when the store failed (full, read-only, busy...), apart from the 2 of
other errors, so that a script can tell "try again later" from "fix the command"."""


def _failed(exc: ThreefoldError) -> typer.Exit:
    """Print `exc` for a person, on one line, and return the exit to raise."""
    if isinstance(exc, StoreError):
        error(str(exc), f"store error ({exc.code})")
        return typer.Exit(STORE_EXIT)
    error(str(exc))
    return typer.Exit(2)


def _version(value: bool) -> None:
    if value:
        from threefold import __version__

        say(f"threefold {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    ctx: typer.Context,
    db: Annotated[
        str | None,
        typer.Option(
            help=f"SQLite file or postgresql:// URL (default: {default_db_path()}, or "
            "$THREEFOLD_DB when set)",
            show_default=False,
        ),
    ] = None,
    config: Annotated[
        Path | None,
        typer.Option(envvar="THREEFOLD_CONFIG", help="TOML settings file"),
    ] = None,
    tenant: Annotated[str, typer.Option(help="Tenant to act for")] = "default",
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version")
    ] = False,
) -> None:
    ctx.obj = _Options(db, config, tenant)


@app.command("add-turn")
def add_turn(
    ctx: typer.Context,
    stream: str,
    said: Annotated[
        str | None,
        typer.Argument(help="What the user said (or --user)", show_default=False),
    ] = None,
    user: Annotated[str, typer.Option(help="What the user said")] = "",
    assistant: Annotated[str, typer.Option(help="What the assistant answered")] = "",
    at: Annotated[
        datetime | None,
        typer.Option(help="Event time, ISO 8601; without a zone it is UTC (default: now)"),
    ] = None,
    page_context: Annotated[str | None, typer.Option()] = None,
    model_variant: Annotated[str | None, typer.Option()] = None,
    speaker: Annotated[
        str | None, typer.Option(help="Who wrote the user side (default: the user)")
    ] = None,
    fmt: FormatOption = Format.TEXT,
) -> None:
    """Record a turn and run the work that follows it."""
    if said is not None and user and said != user:
        error("the user's words are given twice: as the argument and as --user; give one")
        raise typer.Exit(2)
    with _memory(ctx, creates=True) as mem:
        turn = mem.add_turn(
            stream,
            said if said is not None else user,
            assistant,
            at=at,
            page_context=page_context,
            model_variant=model_variant,
            speaker=speaker,
        )
        mem.process_pending()
    emit(
        fmt,
        turn,
        lambda: say(f"turn {turn.seq} of {stream} stored (id {turn.id}, {turn.tokens} tokens)"),
    )


@app.command("context")
def context(
    ctx: typer.Context,
    stream: str,
    query: str,
    budget: Annotated[int | None, typer.Option(help="Token budget")] = None,
    fmt: FormatOption = Format.TEXT,
    as_json: Annotated[bool, typer.Option("--json", hidden=True)] = False,
) -> None:
    """Assemble the context for a question."""
    with _memory(ctx) as mem:
        result = mem.context(stream, query, budget)
    emit(Format.JSON if as_json else fmt, result, lambda: _print_context(result))


@app.command("facts")
def facts(
    ctx: typer.Context,
    stream: str,
    all_: Annotated[bool, typer.Option("--all", help="Include superseded facts")] = False,
    fmt: FormatOption = Format.TEXT,
) -> None:
    """List a stream's facts, newest first."""
    with _memory(ctx) as mem:
        rows = mem.facts(stream, include_inactive=all_)
    emit(fmt, rows, lambda: _facts_table(rows, title=f"Facts of {stream}"))


@app.command("summaries")
def summaries(
    ctx: typer.Context,
    stream: str,
    kind: Annotated[
        str | None,
        typer.Option(help="session, active, weekly, monthly or archived"),
    ] = None,
    fmt: FormatOption = Format.TEXT,
) -> None:
    """List a stream's summaries, oldest period first."""
    with _memory(ctx) as mem:
        rows = mem.summaries(stream, kind)

    def text() -> None:
        lines = []
        for s in rows:
            period = f"{s.period_start:%Y-%m-%d} → {s.period_end:%Y-%m-%d}" if s.period_end else ""
            first_line = s.text.strip().splitlines()[0] if s.text.strip() else ""
            lines.append(
                (s.id, s.kind, period, s.item_count, s.generation, s.tokens, first_line[:60])
            )
        table(("id", "kind", "period", "items", "gen", "tokens", "text"), lines, title=stream)

    emit(fmt, rows, text)


@app.command("refresh")
def refresh(ctx: typer.Context, stream: str, fmt: FormatOption = Format.TEXT) -> None:
    """Rebuild the active summary from the roll-ups and session summaries."""
    with _memory(ctx) as mem:
        mem.process_pending()
        active = mem.refresh(stream)
    if active is None:
        emit(fmt, None, lambda: say(f"{stream} has no session summaries yet"))
    else:
        emit(
            fmt,
            active,
            lambda: say(
                f"active summary of {stream}: generation "
                f"{active.generation}, {active.tokens} tokens"
            ),
        )


@app.command("end-session")
def end_session(ctx: typer.Context, stream: str, fmt: FormatOption = Format.TEXT) -> None:
    """Summarize what the summaries do not cover yet."""
    with _memory(ctx) as mem:
        mem.end_session(stream)
        mem.process_pending()
    emit(
        fmt, {"stream": stream, "summarized": True}, lambda: say(f"session of {stream} summarized")
    )


Workers_ = Annotated[
    int, typer.Option(help="Worker processes for digests and summaries (uses more cores)")
]


@app.command("process")
def process(ctx: typer.Context, workers: Workers_ = 1, fmt: FormatOption = Format.TEXT) -> None:
    """Run every queued job that is due."""
    with _memory(ctx) as mem:
        if workers > 1:
            from threefold.pipeline.workers import Workers

            with Workers(mem.settings, count=workers, tenant=mem.tenant) as pool:
                pass
            ran = pool.ran
        else:
            ran = mem.process_pending()
        failed = mem.job_counts()["failed"]
        model = mem.model_counts()
    emit(
        fmt,
        {"ran": ran, "failed": failed, **({"model": model} if model else {})},
        lambda: say(
            f"{ran} jobs ran; {failed} failed for good (see `threefold check`)"
            + (
                f"; model: {model['requests']} requests, {model['fallbacks']} fallbacks"
                + (f", {model['split']} batches read again turn by turn" if model["split"] else "")
                if model
                else ""
            )
        ),
    )


@app.command("stats")
def stats(
    ctx: typer.Context,
    watch: Annotated[
        float,
        typer.Option(
            help="Sample every this many seconds and show how fast the backlog drains, until"
            " it is empty (0: once)"
        ),
    ] = 0.0,
    samples: Annotated[
        int | None, typer.Option(help="With --watch: stop after this many samples")
    ] = None,
    fmt: FormatOption = Format.TEXT,
) -> None:
    """What waits for the workers: vectors owed, messages to digest, jobs, inbox events."""
    if watch < 0 or (samples is not None and samples < 1):
        error("--watch must be 0 or more seconds, and --samples 1 or more")
        raise typer.Exit(2)
    from threefold.pipeline.backlog import BacklogWatch

    watcher = BacklogWatch(window=max(60.0, 3 * watch))
    taken = 0
    with _memory(ctx) as mem:
        while True:
            backlog = mem.backlog()
            drain = watcher.add(backlog)
            taken += 1
            _print_backlog(backlog, drain if watch else None, fmt)
            if not watch or backlog.empty or (samples is not None and taken >= samples):
                return
            time.sleep(watch)


def _print_backlog(backlog: "Backlog", drain: "Drain | None", fmt: Format) -> None:
    data: dict[str, object] = {
        "unembedded": backlog.unembedded,
        "undigested": backlog.undigested,
        "jobs": backlog.jobs,
        "inbox": backlog.inbox,
    }
    if drain is not None:
        data |= {
            "vectors_per_s": drain.vectors_per_s,
            "digests_per_s": drain.digests_per_s,
            "eta_s": drain.eta(backlog),
        }
    if fmt is Format.JSON and drain is not None:
        print(json.dumps(data), flush=True)  # one line a sample, for a script to follow
        return
    jobs = ", ".join(f"{kind} {n:,}" for kind, n in backlog.jobs.items()) or "none"
    line = (
        f"vectors owed {backlog.unembedded:,} · messages to digest {backlog.undigested:,}"
        f" · jobs pending: {jobs} · inbox {backlog.inbox:,}"
    )
    if drain is not None:
        line += " · " + _drain_words(backlog, drain)
    emit(fmt, data, lambda: say(line))


def _drain_words(backlog: "Backlog", drain: "Drain") -> str:
    if drain.vectors_per_s is None or drain.digests_per_s is None:
        return "rate: after the next sample"
    eta = drain.eta(backlog)
    left = "done" if eta == 0 else "no progress" if eta is None else f"done in ~{eta:,.0f} s"
    return (
        f"{drain.vectors_per_s:,.1f} vectors/s, {drain.digests_per_s:,.1f} digests/s over"
        f" {drain.seconds:,.0f} s; {left}"
    )


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
    fmt: FormatOption = Format.TEXT,
) -> None:
    """Find older facts, turns, summaries and source records again."""
    with _memory(ctx) as mem:
        hits = mem.search(query, stream, kind, limit, preset, trust)
    rows = [
        row
        for found in hits
        for rider, hit in [(False, found), *((True, d) for d in found.derived)]
        for row in _hit_rows(hit, rider)
    ]
    columns = ("score", "kind", "source", "when", "stream", "text")
    emit(fmt, hits, lambda: table(columns, rows, title=f"search: {query}"))


def _hit_rows(hit: "SearchHit", rider: bool) -> list[tuple[str, ...]]:
    """A hit's row, and under it a line saying what is in force now when it is outdated,
    and one naming the newer message that may have changed it when the reader doubts it.
    A rider is a fact read from the hit above."""
    row = (
        "" if rider else f"{hit.score:.4f}",
        f"↳ {hit.kind}" if rider else hit.kind,
        hit.source.label(),
        f"{hit.at:%Y-%m-%d}" if hit.at else "",
        hit.stream,
        " ".join(hit.text.split())[:100],
    )
    rows: list[tuple[str, ...]] = [row]
    if hit.now:
        now = "; ".join(f"{' '.join(f.text.split())} [fact:{f.id}]" for f in hit.now)
        rows.append(("", "! outdated", "", "", "", f"now: {now}"))
    if hit.doubted_by:
        see = f"possibly outdated: see {hit.doubted_by.label()}"
        rows.append(("", "? outdated", hit.doubted_by.label(), "", "", see))
    return rows


@app.command("history")
def history(ctx: typer.Context, fact_id: int, fmt: FormatOption = Format.TEXT) -> None:
    """Show a fact's supersession chain and every change to it."""
    with _memory(ctx) as mem:
        found = mem.fact_history(fact_id)

    def text() -> None:
        _facts_table(list(found.chain), title=f"Chain of fact {fact_id}")
        rows = [
            (
                f"{c.at:%Y-%m-%d %H:%M}",
                c.fact_id,
                c.action,
                c.related_fact_id or "",
                c.note,
                f"{c.before or ''} → {c.after or ''}" if c.before else "",
            )
            for c in found.changes
        ]
        table(("when", "fact", "action", "related", "note", "before → after"), rows)

    emit(fmt, found, text)


@app.command("forget")
def forget(
    ctx: typer.Context,
    fact_id: int,
    reason: Annotated[str, typer.Option(help="Why; kept in the fact's history")] = "",
    fmt: FormatOption = Format.TEXT,
) -> None:
    """Retract a fact: it stays in its history and leaves every context."""
    with _memory(ctx) as mem:
        fact = mem.forget(fact_id, reason=reason)
    emit(fmt, fact, lambda: say(f"fact {fact.id} forgotten ({fact.status.value}): {fact.text}"))


@app.command("erase")
def erase(
    ctx: typer.Context,
    stream: Annotated[str | None, typer.Option(help="Erase this whole stream")] = None,
    person: Annotated[
        str | None, typer.Option(help="Erase everything this person said or is said to be")
    ] = None,
    fact: Annotated[int | None, typer.Option(help="Erase this one fact")] = None,
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask for confirmation")] = False,
    fmt: FormatOption = Format.TEXT,
) -> None:
    """Erase content for good, for a privacy request; an audit row without content stays.

    It asks first unless given --yes: an answer of no exits 1, and no answer at all (a
    script's closed stdin) is a mistake, exit 2; nothing is erased in either case."""
    if [stream, person, fact].count(None) != 2:
        error("erase takes exactly one of --stream, --person or --fact")
        raise typer.Exit(2)
    what = (
        f"the whole stream {stream}"
        if stream
        else f"everything by or about {person}"
        if person
        else f"fact {fact}"
    )
    if not yes and not _confirmed(f"Erase {what}, from every table, index and summary?"):
        raise typer.Exit(1)
    with _memory(ctx) as mem:
        report = mem.erase(stream=stream, entity=person, fact_id=fact)
    emit(
        fmt,
        report,
        lambda: say(
            f"erased {what}: {report.turns} turns, {report.facts} facts, {report.records} records,"
            f" {report.summaries} summaries; {report.summaries_redacted} summaries redacted"
        ),
    )


def _confirmed(question: str) -> bool:
    """The answer to `question`; no answer (stdin closed, or Ctrl-C) exits 2, as a mistake:
    a script that meant to go on without asking forgot --yes."""
    try:
        return typer.confirm(question, err=True)
    except typer.Abort:
        error("no answer to the question, so nothing was done; give --yes not to be asked")
        raise typer.Exit(2) from None


@app.command("reembed")
def reembed(ctx: typer.Context, fmt: FormatOption = Format.TEXT) -> None:
    """Embed every item again with the configured embedder (after changing models)."""
    from threefold.memory import Memory

    options: _Options = ctx.obj
    try:
        settings = options.settings()
        opened = Memory.open(settings=settings, background_worker=False, check_vectors=False)
        with opened as mem, _progress(console(stderr=True)) as progress:
            task = progress.add_task("embedding", total=None)
            done = mem.reembed(lambda n, total: progress.update(task, completed=n, total=total))
    except ThreefoldError as exc:
        raise _failed(exc) from None
    emit(
        fmt,
        {"embedded": done, "embedder": mem.embedder_name},
        lambda: say(f"{done} items embedded with {mem.embedder_name}"),
    )


@app.command("maintain")
def maintain_now(ctx: typer.Context, fmt: FormatOption = Format.TEXT) -> None:
    """Run the maintenance stages once: retention, archive, clean-up, roll-ups, retries."""
    with _memory(ctx) as mem:
        reports = mem.maintain()
    if reports is None:
        error(
            "another process (a server's loop?) is running maintenance on this store now; "
            "try again when it has finished"
        )
        raise typer.Exit(2)
    rows = [
        (r.stage, "failed (see log)" if r.count < 0 else r.count, f"{r.ms:.1f}") for r in reports
    ]
    emit(fmt, reports, lambda: table(("stage", "count", "ms"), rows, title="maintenance"))


@app.command("reroute")
def reroute(ctx: typer.Context, fmt: FormatOption = Format.TEXT) -> None:
    """Route every stored Slack message again after the projects in settings changed:
    moved messages are digested where they arrive, and the streams they left redone."""
    with _memory(ctx) as mem:
        report = mem.reroute()
    rows = [(pair, f"{count:,}") for pair, count in report.moved.items()]

    def text() -> None:
        if not report.moved:
            say(f"{report.checked:,} messages checked; none moved")
            return
        table(("from -> to", "messages"), rows, title=f"re-route: {report.checked:,} checked")

    emit(fmt, report, text)


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
        from threefold.faces.http import serve as run_http

        run_http(options.settings(), host=host, port=port, workers=workers)
    except ThreefoldError as exc:
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

    Clients send an API key (`threefold keys create`) as their OpenAI key; it names the
    tenant and trust each request acts as, and never goes upstream. The upstream gets the
    key in OPENAI_API_KEY (proxy.api_key_env), or the client's own Authorization when the
    client sends its threefold key in X-API-Key instead."""
    options: _Options = ctx.obj
    try:
        from threefold.faces.proxy import run_proxy

        run_proxy(
            options.settings(),
            upstream=upstream,
            host=host,
            port=port,
            no_auth=no_auth,
            tenant=options.tenant,
        )
    except ThreefoldError as exc:
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
    options: _Options = ctx.obj
    try:
        from threefold.faces.mcp import run_mcp

        run_mcp(options.settings(), transport=transport, host=host, port=port, no_auth=no_auth)
    except ThreefoldError as exc:
        raise _failed(exc) from None


import_app = _typer("Bring outside sources into memory.")
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
            help="Worker processes that digest the messages once read, when there are 2,000 or"
            " more (default: one per core, at most 4; 1: digest in this process)",
            show_default=False,
        ),
    ] = None,
    fmt: FormatOption = Format.TEXT,
) -> None:
    """Import a Slack export: route each message to a stream, store it once, digest it."""
    workers = _import_workers() if workers is None else workers
    with _memory(ctx, creates=True) as mem, _progress(console(stderr=True)) as progress:
        task = progress.add_task("reading day files", total=None)
        show = lambda done, total: progress.update(task, completed=done, total=total)  # noqa: E731
        before = mem.count_facts(source="slack.")
        report = mem.import_slack(export, process=False, progress=show)
        if process:
            _digest(mem, workers, progress, task)
            facts = mem.count_facts(source="slack.") - before
            # Counted again now: the digests embedded since the reading ended.
            report = mem.with_unembedded(report.model_copy(update={"facts": facts}))
    _print_import(report, fmt)


_WORKERS_FROM = 2_000
"""Messages to digest from which worker processes are started: each takes seconds to
start (imports, the model), and a smaller import is digested sooner by this process."""


def _digest(mem: "Memory", workers: int, progress: "Progress", task: "TaskID") -> None:
    """Digest what the import stored: in worker processes when there is enough of it."""
    if workers > 1 and mem.undigested() >= _WORKERS_FROM:
        from threefold.pipeline.workers import Workers

        with Workers(mem.settings, count=workers, tenant=mem.tenant):
            _follow_digests(mem, progress, task)
        return
    show, total = _digest_bar(progress, task), mem.undigested()

    def shown() -> None:
        show(total - min(total, mem.undigested()), total)

    mem.process_pending(tenant=mem.tenant, between_jobs=shown)
    show(total, total)


def _digest_bar(progress: "Progress", task: "TaskID") -> Callable[[int, int], None]:
    def show(done: int, total: int) -> None:
        progress.update(task, description="digesting messages", completed=done, total=total)

    return show


_FOLLOW_SECONDS = 0.5


def _follow_digests(mem: "Memory", progress: "Progress", task: "TaskID") -> None:
    """Show the workers' digests as counts until every stored message is digested, or no
    job is left that would digest more (a failed one is retried by `maintain`)."""
    show, total = _digest_bar(progress, task), mem.undigested()
    while (left := mem.undigested()) and mem.job_counts(tenant=mem.tenant)["pending"]:
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
    fmt: FormatOption = Format.TEXT,
) -> None:
    """Import a Jira CSV: issues into their project streams, fields as facts, and counts."""
    with _memory(ctx, creates=True) as mem, _progress(console(stderr=True)) as progress:
        task = progress.add_task("reading issues", total=None)
        report = mem.import_jira(
            csv_file, progress=lambda done, _: progress.update(task, completed=done)
        )
    _print_import(report, fmt)


slack_app = _typer("Slack through its Web API (settings: slack.bot_token).")
app.add_typer(slack_app, name="slack")


@slack_app.command("backfill")
def slack_backfill(
    ctx: typer.Context,
    since: Annotated[
        datetime | None,
        typer.Option(help="Read nothing older than this (default: all, or from the last backfill)"),
    ] = None,
    channel: Annotated[
        list[str] | None,
        typer.Option(help="A conversation to read, by name or id (repeat; default: every one)"),
    ] = None,
    fmt: FormatOption = Format.TEXT,
) -> None:
    """Read the history of the conversations the bot is in, page by page, into their
    streams. Stopped midway (an expired token, a storm of 429s, Ctrl-C), run it again:
    it goes on from the page it was reading, and stores nothing twice."""
    import httpx  # noqa: PLC0415 (only this command talks to Slack; the CLI starts fast)

    from threefold.sources.slack_api import slack_api  # noqa: PLC0415

    with _memory(ctx, creates=True) as mem, _progress(console(stderr=True)) as progress:
        task = progress.add_task("reading conversations", total=None)
        show = lambda done, total: progress.update(task, completed=done, total=total)  # noqa: E731
        with httpx.Client(timeout=mem.settings.slack.timeout_seconds) as client:
            try:
                report = mem.backfill_slack(
                    slack_api(mem.settings, client),
                    since=since,
                    channels=channel or (),
                    progress=show,
                )
            except ThreefoldError as exc:
                raise _failed(exc) from None
    _print_import(report, fmt)


drive_app = _typer("Google Drive documents (settings: drive.token, drive.folders).")
app.add_typer(drive_app, name="drive")


@drive_app.command("sync")
def drive_sync(ctx: typer.Context, fmt: FormatOption = Format.TEXT) -> None:
    """Read the documents of the folders in settings into their streams: Google Docs as
    text, plain files as they are; each version once. What cannot be read is said."""
    import httpx  # noqa: PLC0415 (only this command talks to Drive; the CLI starts fast)

    from threefold.sources.drive import drive_api  # noqa: PLC0415

    with _memory(ctx, creates=True) as mem, _progress(console(stderr=True)) as progress:
        task = progress.add_task("reading folders", total=None)
        show = lambda done, total: progress.update(task, completed=done, total=total)  # noqa: E731
        with httpx.Client(timeout=mem.settings.drive.timeout_seconds) as client:
            try:
                report = mem.sync_drive(drive_api(mem.settings, client), progress=show)
            except ThreefoldError as exc:
                raise _failed(exc) from None
    _print_import(report, fmt)


def _print_import(report: "ImportReport", fmt: Format) -> None:
    rows = [("read", report.read), ("kept", report.kept), ("already imported", report.duplicates)]
    rows += [(f"skipped: {kind}", n) for kind, n in sorted(report.skipped.items())]
    rows += [(f"routed to {stream}", n) for stream, n in report.routed.items()]
    if report.moved:
        rows.append(("moved to a new route", report.moved))
    rows += [("facts extracted", report.facts), ("problems", len(report.problems))]
    shown = [(label, f"{count:,}") for label, count in rows]
    emit(fmt, report, lambda: table(("", "count"), shown, title=f"{report.source} import"))
    for problem in report.problems:
        error(f"{problem.path}: {problem.error}", "skipped")
    for warning in report.warnings:
        error(warning, "warning")
    if report.unread_columns:
        names = ", ".join(report.unread_columns)
        error(f"{len(report.unread_columns)} columns: {names}", "not read")


@app.command("timeline")
def timeline(
    ctx: typer.Context,
    entity: Annotated[str, typer.Argument(help="A person, '#channel', a stream or a key")],
    limit: Annotated[int, typer.Option(help="The newest N events")] = 50,
    trust: Annotated[str, typer.Option(help="full, inner, familiar or public")] = "full",
    fmt: FormatOption = Format.TEXT,
) -> None:
    """What a person said and what is known about them, or what happened in a channel or
    project, oldest first."""
    with _memory(ctx) as mem:
        events = mem.timeline(entity, limit=limit, trust=trust)
    rows = [
        (f"{e.at:%Y-%m-%d %H:%M}", e.category or e.kind, e.stream, " ".join(e.text.split())[:120])
        for e in events
    ]
    columns = ("when", "kind", "stream", "text")
    emit(fmt, events, lambda: table(columns, rows, title=f"timeline: {entity}"))


team_app = _typer("Profiles, proactive actions and digests.")
app.add_typer(team_app, name="team")
_TRUST_HELP = "full, inner, familiar or public"


@team_app.command("rebuild")
def team_rebuild(ctx: typer.Context, fmt: FormatOption = Format.TEXT) -> None:
    """Rebuild every profile and run every action rule now (maintenance does it nightly)."""
    with _memory(ctx) as mem:
        report = mem.rebuild_team()
    said = (
        f"{report.profiles} profiles; {report.actions} actions found ({report.new} new), "
        f"{report.closed} closed; {report.webhooks} told to webhooks"
    )
    emit(fmt, report, lambda: say(said))


@team_app.command("profile")
def team_profile(
    ctx: typer.Context,
    entity: Annotated[str, typer.Argument(help="A person, '#channel', a project or its key")],
    trust: Annotated[str, typer.Option(help=_TRUST_HELP)] = "full",
    fmt: FormatOption = Format.TEXT,
    as_json: Annotated[bool, typer.Option("--json", hidden=True)] = False,
) -> None:
    """Role, current work, commitments, blockers, recent activity and mood of an entity."""
    with _memory(ctx) as mem:
        profile = mem.profile(entity, trust=trust)

    def text() -> None:
        for line, source in profile.lines():
            say(line + (f"  [{source.label()}]" if source else ""))
        for item in profile.recent_activity:
            say(f"  recent: {item.text}")

    emit(Format.JSON if as_json else fmt, profile, text)


@team_app.command("actions")
def team_actions(
    ctx: typer.Context,
    status: Annotated[str, typer.Option(help="open, done, dismissed or all")] = "open",
    stream: Annotated[str | None, typer.Option(help="Only this stream's")] = None,
    trust: Annotated[str, typer.Option(help=_TRUST_HELP)] = "full",
    fmt: FormatOption = Format.TEXT,
    as_json: Annotated[bool, typer.Option("--json", hidden=True)] = False,
) -> None:
    """What needs doing, as the rules found it at the last rebuild, with its evidence."""
    with _memory(ctx) as mem:
        found = mem.actions(status=None if status == "all" else status, stream=stream, trust=trust)
    rows = [
        (a.id, a.rule, a.status, a.stream, a.title, ", ".join(e.label() for e in a.evidence))
        for a in found
    ]
    columns = ("id", "rule", "status", "stream", "title", "evidence")
    emit(Format.JSON if as_json else fmt, found, lambda: table(columns, rows, title="actions"))


@team_app.command("set-status")
def team_set_status(
    ctx: typer.Context,
    action_id: Annotated[int, typer.Argument(help="The action's id")],
    status: Annotated[str, typer.Argument(help="open, done or dismissed")],
    fmt: FormatOption = Format.TEXT,
) -> None:
    """Mark an action done or dismissed (or open again); rebuilds keep it."""
    with _memory(ctx) as mem:
        action = mem.set_action_status(action_id, status)
    emit(fmt, action, lambda: say(f"action {action.id} is {action.status}"))


@team_app.command("digest")
def team_digest(
    ctx: typer.Context,
    stream: str,
    period: Annotated[
        str, typer.Argument(help="today, yesterday, 'this week', 'last week', a day or a range")
    ] = "today",
    timezone: Annotated[str | None, typer.Option(help="IANA time zone of the days")] = None,
    trust: Annotated[str, typer.Option(help=_TRUST_HELP)] = "full",
    fmt: FormatOption = Format.TEXT,
) -> None:
    """What a stream's turns and messages said over a period, day by day."""
    with _memory(ctx) as mem:
        digest = mem.digest(stream, period, timezone=timezone, trust=trust)
    emit(fmt, digest, lambda: say(digest.text))


keys_app = _typer(
    "API keys for the HTTP API, the proxy and MCP over HTTP: one tenant and one trust level each."
)
app.add_typer(keys_app, name="keys")


@keys_app.command("create")
def keys_create(
    ctx: typer.Context,
    tenant: Annotated[str, typer.Option(help="The only tenant this key may touch")],
    trust: Annotated[str, typer.Option(help="full, inner, familiar or public")] = "full",
    label: Annotated[str, typer.Option(help="A note on who holds the key")] = "",
    fmt: FormatOption = Format.TEXT,
) -> None:
    """Create a key and print its secret, once: only a hash is stored."""
    with _memory(ctx, creates=True) as mem:
        key_id, secret = mem.create_key(tenant, trust, label)
    created = {"id": key_id, "tenant": tenant, "trust": trust, "label": label, "secret": secret}

    def text() -> None:
        say(f"key {key_id} for tenant {tenant!r} at trust {trust!r}:")
        say(secret)

    emit(fmt, created, text)


@keys_app.command("list")
def keys_list(ctx: typer.Context, fmt: FormatOption = Format.TEXT) -> None:
    """List keys (never their secrets)."""
    with _memory(ctx) as mem:
        keys = mem.api_keys()
    rows = [
        (
            k.id,
            k.tenant,
            k.trust.value,
            k.label,
            f"{k.created_at:%Y-%m-%d %H:%M}",
            "yes" if k.revoked else "",
        )
        for k in keys
    ]
    columns = ("id", "tenant", "trust", "label", "created", "revoked")
    emit(fmt, keys, lambda: table(columns, rows))


@keys_app.command("revoke")
def keys_revoke(ctx: typer.Context, key_id: int, fmt: FormatOption = Format.TEXT) -> None:
    """Revoke a key; requests with it are refused from now on."""
    with _memory(ctx) as mem:
        if not mem.revoke_key(key_id):
            raise NotFound(f"no live key {key_id} (see `threefold keys list`)")
    emit(fmt, {"id": key_id, "revoked": True}, lambda: say(f"key {key_id} revoked"))


@app.command("check")
def check(ctx: typer.Context, fmt: FormatOption = Format.TEXT) -> None:
    """Validate the settings and open the memory."""
    options: _Options = ctx.obj
    try:
        settings = options.settings()
    except ThreefoldError as exc:
        error(str(exc), "settings invalid")
        raise typer.Exit(2) from None
    with _memory(ctx, creates=True) as mem:
        counts = mem.job_counts()
    opened = shown_location(settings.db)
    reader = mem.fact_reader
    found = {
        "settings": settings,
        "db": opened,
        "model": mem.model_name,
        "fact_reader": reader,
        "jobs": counts,
    }
    model = f"{mem.model_name} ({READER_SAID[reader]})" if reader in READER_SAID else mem.model_name

    def text() -> None:
        dumped = jsonable(settings)
        dumped["db"] = opened
        table(
            ("setting", "value"),
            [(k, json.dumps(v)) for k, v in dumped.items()],
            title="threefold settings",
        )
        console().print(f"[green]ok[/green]: {opened} opened; model {model}; jobs {counts}")

    emit(fmt, found, text)


READER_SAID = {
    "rules": "facts read by the rules alone: reader rules",
    "tuned": "facts read by the rules and the trained reader: reader tuned",
    "trained": "facts read by the rules and the trained reader: reader trained",
}
"""How `check` names the heuristic model's fact reader (model.options.reader)."""


@app.command("migrate")
def migrate(
    source: Annotated[Path, typer.Option("--from", help="The SQLite memory to copy")],
    target: Annotated[str, typer.Option("--to", help="The postgresql:// database to fill")],
    fmt: FormatOption = Format.TEXT,
) -> None:
    """Copy a SQLite memory into PostgreSQL: every table, same ids; safe to run again."""
    # A copy from store to store, below any Memory: the one command that opens stores.
    from threefold.store import open_store  # noqa: TID251
    from threefold.store.postgres.copy import copy_sqlite_to_postgres, source_rows  # noqa: TID251

    try:
        store = open_store(target)
        if not source.is_file():
            raise StoreError(f"no SQLite memory at {source}")
        with _progress(console(stderr=True)) as progress:
            task = progress.add_task("copying", total=source_rows(source))
            counts = copy_sqlite_to_postgres(
                source, store, lambda table, n: progress.update(task, advance=n, description=table)
            )
        store.close()
    except ThreefoldError as exc:
        raise _failed(exc) from None
    rows = [(name, before, after) for name, (before, after) in counts.items()]
    columns = ("table", str(source), shown_location(target))
    emit(fmt, counts, lambda: table(columns, rows, title="rows on each side"))


@app.command("demo")
def run_demo(
    db: Annotated[
        str | None,
        typer.Option(
            help="A new SQLite file or a postgresql:// URL to write to (default: a new temp file)"
        ),
    ] = None,
    turns: Annotated[
        int,
        typer.Option(
            min=0,
            help="Turns about other work after the story's 40, which hold its four key statements",
        ),
    ] = 500,
    budget: Annotated[int, typer.Option(min=1, help="Token budget for the context")] = 6000,
) -> None:
    """Run the Project Alpha story offline and show the assembled context."""
    import tempfile

    from threefold.faces import demo
    from threefold.memory import Memory
    from threefold.settings import load_settings

    location = db or str(Path(tempfile.mkdtemp(prefix="threefold-demo-")) / "demo.db")
    if "://" not in location and Path(location).exists():
        error(f"{location} exists; the demo needs a fresh file")
        raise typer.Exit(2)
    try:
        with Memory.open(settings=load_settings(db=location), background_worker=False) as mem:
            if mem.turns(demo.STREAM, 1):
                error(
                    f"{shown_location(location)} already holds {demo.STREAM!r};"
                    " the demo needs a fresh database"
                )
                raise typer.Exit(2)
            recent = mem.settings.recent_turns
            say(demo.about(turns, recent) + "\n")
            result, facts_now = _play_demo(mem, turns, budget)
    except ThreefoldError as exc:
        raise _failed(exc) from None
    written = f"{demo.KEY_TURNS_TOTAL + turns} turns"
    console().print(
        f"[bold]{written}[/bold] written to {shown_location(location)} (the story's"
        f" {demo.KEY_TURNS_TOTAL} and {turns} more)\n"
    )
    _facts_table(facts_now, title="Current facts (layer 1)")
    _print_context(result)
    say("\n" + demo.look_for(recent, bool(result.dropped)))


def _play_demo(mem: "Memory", turns: int, budget: int) -> tuple["Context", list["Fact"]]:
    from threefold.faces import demo

    with _progress(console()) as progress:
        task = progress.add_task("conversation", total=demo.KEY_TURNS_TOTAL + turns)
        for turn in demo.story(filler_after=turns):
            mem.add_turn(demo.STREAM, turn.user, turn.assistant, at=turn.at)
            mem.process_pending()
            progress.advance(task)
        return mem.context(demo.STREAM, demo.QUESTION, budget), mem.facts(demo.STREAM)


def _facts_table(rows: list["Fact"], title: str) -> None:
    columns = ("id", "fact", "category", "slot", "conf", "status", "source")
    shown = [
        (
            f.id,
            f.text,
            f.category.value,
            f"{f.subject}/{f.slot}",
            f"{f.confidence:.2f}",
            f.status.value,
            f.source.label(),
        )
        for f in rows
    ]
    table(columns, shown, title=title)


def _print_context(result: "Context") -> None:
    heading(f"context for {result.stream!r}")
    say(result.text)
    # Headings, not table titles: a table in a pipe prints no title, and these say what
    # the rows are.
    heading(f"{result.tokens} of {result.budget} tokens")
    sections = [(s.title, len(s.items), s.tokens) for s in result.sections]
    table(("section", "items", "tokens"), sections)
    if result.dropped:
        heading("Left out, and why")
        dropped = [
            (d.section, d.source.label() if d.source else "", d.tokens, d.reason)
            for d in result.dropped
        ]
        table(("section", "source", "tokens", "why"), dropped)
