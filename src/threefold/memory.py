"""The façade: one Memory over a store, a model and settings."""

import hashlib
import logging
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import replace
from datetime import date, datetime
from enum import StrEnum
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Generic, Literal, Self, TypeVar

from threefold import tracing
from threefold.checked import checked_api
from threefold.domain import (
    DEFAULT_TENANT,
    GLOBAL_STREAM,
    READABLE,
    ApiKey,
    Context,
    ErasureReport,
    Fact,
    FactCategory,
    FactHistory,
    ImportReport,
    Progress,
    Record,
    RerouteReport,
    SearchHit,
    SourceRef,
    Stream,
    Summary,
    SummaryKind,
    TimelineEntry,
    Trust,
    Turn,
    Visibility,
    as_utc,
    channel_entity,
    check_stream,
    check_tenant,
    person,
    utcnow,
)
from threefold.embed.base import Embedder, worth_a_thread
from threefold.errors import Busy, EmbeddingMismatch, InvalidInput
from threefold.models.base import ExtractedFact, MemoryModel, Standing, TurnInput
from threefold.recall import outdated
from threefold.recall.presets import KINDS, PRESETS
from threefold.settings import Settings, database_location, load_settings
from threefold.store.base import ItemFilter, NewTurn, Store, holder_is_gone, lease_owner
from threefold.trust.writes import (
    author,
    capped_fact,
    capped_visibility,
    check_event_time,
)

if TYPE_CHECKING:
    # The engine's parts load with the first method that uses them (each imports its own),
    # so that a command that only lists facts starts fast. Results are named in quotes.
    from threefold.pipeline.backlog import Backlog
    from threefold.pipeline.handlers import Pipeline
    from threefold.pipeline.import_ledger import ImportLedger
    from threefold.pipeline.jobs import Apply, BackgroundWorker, JobRunner
    from threefold.pipeline.maintenance import MaintenanceLoop, StageReport
    from threefold.recall.search import Recall
    from threefold.routing import Router
    from threefold.sources.drive import DriveApi
    from threefold.sources.reroute import Moves
    from threefold.sources.slack_api import SlackApi
    from threefold.store.base import Job
    from threefold.store.sqlite.inbox import Inbox
    from threefold.team import Action, Digest, Profile, RebuildReport, Team

_CLOSE_WAIT_SECONDS = 60.0
_P = TypeVar("_P")


class _built_once(Generic[_P]):  # noqa: N801 (used as a decorator, like cached_property)
    """A part of a Memory built on its first use, once however many threads ask at once
    (cached_property holds no lock from Python 3.12), then read as a plain attribute."""

    def __init__(self, build: Callable[[Any], _P]) -> None:
        self.build = build
        self.__doc__ = build.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, memory: Any, owner: type | None = None) -> _P:
        if memory is None:
            return self  # type: ignore[return-value]  # the class's own attribute, for docs
        with memory._building:
            built: _P | None = memory.__dict__.get(self.name)
            if built is None:
                built = memory.__dict__[self.name] = self.build(memory)
        return built


log = logging.getLogger("threefold")


@checked_api
class Memory:
    """Long-term memory for one or more tenants' streams.

    Build it with `Memory.open(path)`; the constructor takes ready-made parts.
    """

    def __init__(
        self,
        store: Store,
        model: MemoryModel,
        settings: Settings,
        *,
        embedder: Embedder | None = None,
        tenant: str = DEFAULT_TENANT,
        background_worker: bool | None = None,
        check_vectors: bool = True,
    ) -> None:
        self.store = store
        self.model = model
        self.settings = settings
        self.tenant = check_tenant(tenant)
        self._embedder = embedder
        """The embedder asked for; `reembed()` returns to it from an older variant."""
        self._searching_with = _fitting_embedder(store, embedder) if check_vectors else embedder
        store.on_erase(self._drop_vectors)
        self._owned: list[object] = []
        self._building = threading.RLock()  # a part may need another: pipeline, recall
        """Held while a part is built on first use (see _built_once)."""
        """Parts open() built, which close() closes."""
        use_worker = settings.background_worker if background_worker is None else background_worker
        if store.read_only:
            use_worker = False  # it could claim no job; the memory answers reads only
        self._worker: BackgroundWorker | None = None
        if use_worker:
            from threefold.pipeline import jobs

            self._worker = jobs.BackgroundWorker(self.runner)
            self._worker.start()
            self._worker.wake()  # work left by an earlier process
            store.on_new_jobs(self._worker.wake)  # work queued by other processes

    # The engine's parts are built on first use: listing facts needs none of them.

    @_built_once
    def recall(self) -> "Recall":
        from threefold.recall.search import Recall

        return Recall(self.store, self._searching_with)

    def _drop_vectors(self, tenant: str, streams: Sequence[str]) -> None:
        """No erased vector stays in the index's memory or files, loaded or not."""
        self.recall.index.drop(tenant, streams)
        self.recall.forget_vectors()

    @_built_once
    def pipeline(self) -> "Pipeline":
        from threefold.pipeline.handlers import Pipeline

        return Pipeline(self.store, self.model, self.settings, self.recall)

    @_built_once
    def team(self) -> "Team":
        from threefold.team import Team

        return Team(self.store, self.model, self.settings, self.recall)

    @_built_once
    def runner(self) -> "JobRunner":
        from threefold.pipeline.jobs import ACTIONS, SLACK_EVENT, JobRunner

        settings = self.settings
        return JobRunner(
            self.store,
            {
                **self.pipeline.handlers(),
                SLACK_EVENT: self._slack_event,
                ACTIONS: self._team_actions,
            },
            attempts=settings.job_attempts,
            backoff=settings.job_backoff_seconds,
            backoff_max=settings.job_backoff_max_seconds,
            lease_seconds=settings.stream_lease_seconds,
            intake=self.drain_inbox,
        )

    @classmethod
    def open(
        cls,
        path: str | Path | None = None,
        *,
        settings: Settings | None = None,
        model: MemoryModel | None = None,
        embedder: Embedder | None | Literal["settings"] = "settings",
        tenant: str = DEFAULT_TENANT,
        background_worker: bool | None = None,
        check_vectors: bool = True,
    ) -> Self:
        """A memory on the database `path` (default: settings.db): a SQLite file, or a
        postgresql:// URL. The model and embedder are those the settings name unless
        ready-made ones are given.

        A SQLite file that does not exist is created, with its folder (the command line's
        reading commands refuse a missing file instead).
        """
        from threefold.embed import embedder_from_settings
        from threefold.models import build_model
        from threefold.store import open_store

        settings = settings or load_settings()
        if path is not None:
            settings = settings.model_copy(update={"db": database_location(path)})
        if settings.trace_file is not None:
            tracing.enable(settings.trace_file)
        owned: list[object] = []
        try:  # a memory that fails to open leaves nothing of its own open
            if model is None:
                model = build_model(settings.model)
                owned.append(model)
            if embedder == "settings":
                embedder = embedder_from_settings(settings.embed)
                owned.append(embedder)
            store = open_store(settings.db, durability=settings.durability)
            owned.insert(0, store)
            memory = cls(
                store,
                model,
                settings,
                embedder=embedder,
                tenant=tenant,
                background_worker=background_worker,
                check_vectors=check_vectors,
            )
        except BaseException:
            _close_parts(owned)
            raise
        memory._owned = owned[1:]
        return memory

    # -- writing --------------------------------------------------------------

    def add_turn(
        self,
        stream: str | None,
        user: str | bytes | None = "",
        assistant: str | bytes | None = "",
        *,
        at: datetime | None = None,
        page_context: str | None = None,
        model_variant: str | None = None,
        source: str = "conversation",
        visibility: Visibility | str = Visibility.PRIVATE,
        speaker: str | None = None,
        assistant_speaker: str | None = None,
        tenant: str | None = None,
        trust: Trust | str = Trust.FULL,
        key_id: int | None = None,
    ) -> Turn:
        """Store a turn verbatim and queue the work that follows it. Returns at once.

        With `stream` None, the turn is routed: to the project its page context names,
        else to one its text names, else to the global stream. `speaker` names who wrote
        the user side (in a group chat, each person); "I" in the text is them, and facts
        are about them. Without it, the user side is "the user".

        `at` is when the turn happened (default: now); a naive datetime is taken as UTC.
        Below full trust, a time more than `writes.max_future_seconds` (a day) ahead of now
        is refused; the owner may date turns ahead (a planned timeline, a replay).

        `source` says where the turn came from; "bot" or "integration" (or a source's bot
        kind, "slack.bot") marks a post no person wrote, such as a CI notice: it never
        counts as someone saying that what they said before has changed.

        `trust` and `key_id` name the writer: below full trust, the visibility is capped
        and what is extracted from the turn is believed less (threefold.trust.writes).
        """
        from threefold.pipeline.jobs import EXTRACT
        from threefold.tokens import count_tokens

        tenant = self._tenant(tenant)
        writer = author(trust, key_id)
        user_text = self._text(user, "user")
        assistant_text = self._text(assistant, "assistant")
        if not (user_text.strip() or assistant_text.strip()):
            raise InvalidInput("a turn needs some user or assistant text; both are empty")
        if at is not None and not isinstance(at, datetime):
            raise InvalidInput(f"at must be a datetime, got {type(at).__name__}")
        check_event_time(at, writer, self.settings.writes)
        page_context = self._text(page_context, "page_context") or None
        if stream is None:
            stream = self._router(tenant).turn(user_text, page_context).stream
        check_stream(stream)
        model_variant = self._text(model_variant, "model_variant") or None
        source = self._text(source, "source") or "conversation"
        new = NewTurn(
            tenant=tenant,
            stream=stream,
            user=user_text,
            assistant=assistant_text,
            at=as_utc(at) if at else utcnow(),
            page_context=page_context,
            model_variant=model_variant,
            source=source,
            visibility=capped_visibility(writer, _visibility(visibility)),
            tokens=count_tokens(user_text) + count_tokens(assistant_text),
            speaker=_speaker(speaker, "speaker"),
            assistant_speaker=_speaker(assistant_speaker, "assistant_speaker"),
            writer_trust=writer.trust,
            writer_key=writer.key_id,
        )
        with self.store.transaction():
            turn = self.store.insert_turn(new)
            self.store.enqueue(tenant, stream, EXTRACT, {"turn_id": turn.id})
            self._maybe_enqueue_summary(tenant, stream, turn.seq)
            self.pipeline.embed_later(tenant, stream)
        self._wake()
        return turn

    def write_fact(
        self,
        stream: str,
        text: str,
        *,
        category: FactCategory | str = FactCategory.NOTE,
        confidence: float = 0.95,
        subject: str | None = None,
        slot: str | None = None,
        value: str | None = None,
        at: datetime | None = None,
        visibility: Visibility | str = Visibility.PRIVATE,
        tenant: str | None = None,
        trust: Trust | str = Trust.FULL,
        key_id: int | None = None,
    ) -> Fact:
        """Record a fact directly, through reconciliation and supersession.

        Without `subject` and `slot` the model reads them from the text, as it would from
        a turn; failing that the fact gets a slot of its own. `trust` and `key_id` name the
        writer: below full trust, confidence and visibility are capped, and what a more
        trusted writer said stands (threefold.trust.writes).
        """
        from threefold.layers.facts import reconcile, record_fact

        tenant = self._tenant(tenant)
        check_stream(stream)
        writer = author(trust, key_id)
        check_event_time(at, writer, self.settings.writes)
        item = self._fact_to_write(stream, text, category, confidence, subject, slot, value, at)
        item = capped_fact(item, writer, self.settings.writes)
        moment = as_utc(at) if at else utcnow()
        source = SourceRef(kind="manual", id=item.slot, at=moment)
        decision = reconcile(
            self.store, self.model, self.pipeline.similar_facts, tenant, stream, item
        )
        with self.store.transaction():
            self.store.ensure_stream(tenant, stream)
            fact = record_fact(
                self.store,
                tenant,
                stream,
                item,
                source,
                visibility=capped_visibility(writer, _visibility(visibility)),
                decision=decision,
                writer=writer,
            )
            self.pipeline.embed_later(tenant, stream)
        self._wake()
        return fact

    def import_slack(
        self,
        path: str | Path,
        *,
        progress: Progress | None = None,
        process: bool = True,
        digest_progress: Progress | None = None,
        tenant: str | None = None,
    ) -> ImportReport:
        """Import a Slack export (folder or .zip): every message is routed to a stream and
        stored once, however often the export is imported. A message stored before whose
        route has changed (projects were configured since) moves to its stream. With
        `process`, the digests (summaries, facts) run before this returns; else the
        worker does them later.

        `progress(day files done, day files in all)` is called as the import goes, and
        `digest_progress(messages digested, messages to digest)` while digests run.
        A malformed day file is reported in the result's problems and skipped.
        Raises Busy while a re-route of the tenant runs.
        """
        from threefold.sources.ingest import SlackIngest
        from threefold.sources.slack import SlackExport

        tenant = self._tenant(tenant)
        facts_before = self.store.count_facts(tenant, "slack.")
        limits, longest = self.settings.imports, self.settings.max_turn_chars
        with (
            SlackExport.open(path, limits, longest) as export,
            self._routes_held(tenant) as hold,
            self._worker_held(),
        ):
            ingest = SlackIngest(self.store, self._router(tenant), self.settings, tenant)
            report = ingest.export(export, _renewing(progress, hold))
            if report.moved:
                report = report.model_copy(update={"moved": self._reroute(tenant).count})
            # Counted before the worker is let go: it may digest some of them first.
            to_digest = self.undigested(tenant=tenant)
        if not process:
            self._wake()
            return self._with_unembedded(report, tenant)
        self._digest_now(tenant, digest_progress, to_digest)
        facts = self.store.count_facts(tenant, "slack.") - facts_before
        return self._with_unembedded(report.model_copy(update={"facts": facts}), tenant)

    def reroute(self, *, tenant: str | None = None) -> RerouteReport:
        """Route every stored Slack message again with the projects in settings now: a
        message whose route changed moves to its stream and is digested there, the facts
        read from it stay behind as history (status `moved`), and the streams it left
        have their Slack summaries and roll-ups redone. Raises Busy while an import or
        another re-route of the tenant runs."""
        tenant = self._tenant(tenant)
        with self._routes_held(tenant):
            moves = self._reroute(tenant)
        return RerouteReport(
            checked=moves.checked,
            moved={f"{old} -> {new}": n for (old, new), n in sorted(moves.moved.items())},
        )

    def backlog(self, *, tenant: str | None = None) -> "Backlog":
        """What waits for the workers in the tenant: items without the vector recall would
        use, undigested messages, pending jobs by kind, and live events in the inbox (which
        is the database file's, not one tenant's)."""
        from threefold.pipeline.backlog import Backlog

        tenant = self._tenant(tenant)
        streams = self.store.streams(tenant)
        unembedded = sum(self.store.count_unembedded_in(tenant, s) for s in streams)
        jobs = Counter(job.kind for job in self.store.jobs(tenant=tenant, status="pending"))
        inbox = self._inbox(create=False)
        return Backlog(
            unembedded=unembedded,
            undigested=self.store.count_undigested(tenant),
            jobs=dict(sorted(jobs.items())),
            inbox=inbox.count_waiting() if inbox is not None else 0,
        )

    def undigested(self, *, tenant: str | None = None) -> int:
        """Messages stored and not digested yet."""
        return self.store.count_undigested(self._tenant(tenant))

    def _reroute(self, tenant: str) -> "Moves":
        from threefold.pipeline.jobs import REFRESH
        from threefold.sources.reroute import Rerouter

        rerouter = Rerouter(self.store, self._router(tenant), tenant)
        moves = rerouter.all_records()
        rerouter.all_issues(moves)
        if moves.issue_streams:
            rerouter.recount_issues(moves, utcnow())
        if moves.moved:
            rerouter.redo_streams(moves)
            self.runner.run_pending(tenant)
            with self.store.transaction():
                for stream in sorted(moves.left | moves.joined):
                    self.store.enqueue(tenant, stream, REFRESH, {})
            self.runner.run_pending(tenant)
            self.recall.index.drop(tenant, sorted(moves.left | moves.joined))
        return moves

    @contextmanager
    def _routes_held(self, tenant: str) -> Iterator[Callable[[], bool]]:
        """The tenant's routes, held while an import stores or a re-route moves messages,
        so that neither reads what the other is halfway through; yields a renewal."""
        from threefold.sources.reroute import ROUTES_LEASE

        name, owner = ROUTES_LEASE + tenant, lease_owner()
        if not self.store.claim_lease(name, owner, _ROUTES_LEASE_SECONDS) and not (
            self._take_from_the_dead(name, owner)
        ):
            raise Busy(
                f"an import or a re-route of tenant {tenant!r} is running; "
                "try again when it is done"
            )
        try:
            yield lambda: self.store.extend_lease(name, owner, _ROUTES_LEASE_SECONDS)
        finally:
            self.store.release_lease(name, owner)

    def _take_from_the_dead(self, name: str, owner: str) -> bool:
        """Take the routes lease of an import killed on this host: run again at once, it
        stores what the dead one did not, rather than wait out the lease."""
        holder = self.store.lease_holder(name)
        if holder is None or not holder_is_gone(holder):
            return False
        log.warning("taking over %s from %s, a process that is no longer running", name, holder)
        return self.store.take_lease(name, holder, owner, _ROUTES_LEASE_SECONDS)

    def _digest_now(self, tenant: str, progress: Progress | None, total: int) -> None:
        """Digest the tenant's messages now, reporting `progress` over the `total` that
        were waiting when the import ended (however many the worker digests meanwhile)."""
        if progress is None or not total:
            self.runner.run_pending(tenant)
            return

        def report() -> bool:
            progress(total - min(total, self.undigested(tenant=tenant)), total)
            return False

        self.runner.run_pending(tenant, stopping=report)
        progress(total, total)

    def import_jira(
        self,
        path: str | Path,
        *,
        now: datetime | None = None,
        progress: Progress | None = None,
        tenant: str | None = None,
    ) -> ImportReport:
        """Import Jira's "all fields" CSV export: each issue becomes a record in its
        project's stream, its status, assignee, sprint, due date and priority become facts
        (superseded when a later export changes them), and each project gets counts by
        status, points, overdue and unassigned issues, and load, as of `now`."""
        from threefold.sources.ingest import JiraIngest
        from threefold.sources.jira import read_jira_csv

        tenant = self._tenant(tenant)
        moment = as_utc(now) if now else utcnow()
        with self._worker_held():
            read = read_jira_csv(path, self.settings.imports.max_row_bytes, moment)
            ingest = JiraIngest(
                self.store, self._router(tenant), tenant, self.settings.max_turn_chars
            )
            report = ingest.csv(read, moment, progress)
            for stream in report.routed:
                # Embedded before returning: a search right after the import finds the
                # issues by meaning, not by their words alone.
                while self.pipeline.embed_batch(tenant, stream):
                    pass
            if report.kept and self.settings.team.actions_on_arrival:
                # A due day passed, an issue finished: raised or closed now, not nightly.
                self.team.refresh_actions(tenant, moment if now else None)
        self._wake()
        return self._with_unembedded(report, tenant)

    def with_unembedded(self, report: ImportReport, *, tenant: str | None = None) -> ImportReport:
        """`report` with its count of items still waiting for a vector taken now."""
        return self._with_unembedded(report, self._tenant(tenant))

    def _with_unembedded(self, report: ImportReport, tenant: str) -> ImportReport:
        if self.recall.embedder is None:
            return report
        waiting = sum(self.store.count_unembedded_in(tenant, s) for s in report.routed)
        return report.model_copy(update={"unembedded": waiting})

    def ingest_message(
        self,
        *,
        channel: str,
        user: str,
        ts: str | float,
        text: str,
        thread_ts: str | float | None = None,
        channel_kind: str = "public",
        tenant: str | None = None,
    ) -> str | None:
        """Take one live Slack message: route it, store it once, and digest its stream when
        enough messages wait or the channel has been quiet for a while (settings.sources).

        Returns the stream it went to, or None if this (channel, ts) was stored before.
        """
        from threefold.sources.ingest import SlackIngest, live_message

        tenant = self._tenant(tenant)
        message = live_message(
            self._text(channel, "channel"),
            self._text(user, "user"),
            ts,
            self._text(text, "text"),
            thread_ts,
            channel_kind,
        )
        if not message.text.strip():
            raise InvalidInput("a message needs some text")
        stream = SlackIngest(self.store, self._router(tenant), self.settings, tenant).live(message)
        self._wake()
        return stream

    def take_slack_event(
        self, envelope: dict[str, Any], *, tenant: str | None = None
    ) -> Literal["queued", "duplicate", "ignored"]:
        """Take an Events API `event_callback` (its signature checked by the caller) to be
        applied by the worker, once: "duplicate" for a retry of an event taken before,
        "ignored" for an event of a kind that is not read. Raises InvalidInput for a
        malformed one.

        It returns once the event is on disk, and does no more: a SQLite memory keeps it
        in its inbox file (see threefold.store.sqlite.inbox), out of the way of the
        workers' writes, and the worker hands it on to the job queue."""
        taken = self.take_slack_events([envelope], tenant=tenant)[0]
        if isinstance(taken, InvalidInput):
            raise taken
        return taken

    def take_slack_events(
        self, envelopes: Sequence[dict[str, Any]], *, tenant: str | None = None
    ) -> list[Literal["queued", "duplicate", "ignored"] | InvalidInput]:
        """take_slack_event for each envelope, made durable together (one sync for all):
        a receiver hands over every event that arrived while the last batch was synced.
        A malformed envelope gets its InvalidInput in its place in the list."""
        tenant = self._tenant(tenant)
        from threefold.pipeline.jobs import SLACK_EVENT
        from threefold.sources.slack_events import EventAction, read_event
        from threefold.sources.slack_live import SOURCE as SLACK

        answers: list[Literal["queued", "duplicate", "ignored"] | InvalidInput] = []
        kept: list[tuple[int, str, dict[str, Any]]] = []  # (place, event id, payload)
        for envelope in envelopes:
            event_id = envelope.get("event_id")
            if not isinstance(event_id, str) or not event_id:
                answers.append(InvalidInput("an event_callback needs its event_id"))
                continue
            event = envelope.get("event")
            try:
                ignored = read_event(event).action is EventAction.IGNORE
            except InvalidInput as exc:
                answers.append(exc)
                continue
            answers.append("ignored")
            if not ignored:
                kept.append((len(answers) - 1, event_id, {"event": event}))
        if not kept:
            return answers
        now = time.time()
        inbox = self._inbox(create=True)
        if inbox is not None:
            news = inbox.put_many(SLACK, tenant, [(e, payload) for _, e, payload in kept], now)
        else:
            with self.store.transaction():
                news = []
                for _, event_id, payload in kept:
                    new = self.store.first_delivery(tenant, SLACK, event_id, now)
                    if new:
                        self.store.enqueue(tenant, GLOBAL_STREAM, SLACK_EVENT, payload)
                    news.append(new)
        for (place, _, _), new in zip(kept, news, strict=True):
            answers[place] = "queued" if new else "duplicate"
        if any(news):
            self._wake()
        return answers

    def drain_inbox(self, limit: int = 500) -> int:
        """Hand the events waiting in the inbox to the job queue, each once (the main
        database's deliveries judge); returns how many were handed. The job runner calls
        it before each pass, so a worker in any process drains it."""
        inbox = self._inbox(create=False)
        if inbox is None or self.store.read_only:
            return 0
        from threefold.pipeline.jobs import SLACK_EVENT

        waiting = inbox.waiting(limit)
        if not waiting:
            return 0
        with self.store.transaction():
            for event in waiting:
                if self.store.first_delivery(
                    event.tenant, event.source, event.event_id, event.received_at
                ):
                    self.store.enqueue(event.tenant, GLOBAL_STREAM, SLACK_EVENT, event.payload)
        # Marked after the commit: a worker killed between the two hands the events
        # again, and the deliveries above refuse them the second time.
        inbox.handed(waiting, time.time())
        return len(waiting)

    def forget_handed(self, before: float) -> int:
        """Drop from the inbox the events handed on before `before` (seconds since the
        epoch); returns how many."""
        inbox = self._inbox(create=False)
        return 0 if inbox is None or self.store.read_only else inbox.forget(before)

    def _inbox(self, *, create: bool) -> "Inbox | None":
        """The inbox of a SQLite memory on a file; None for PostgreSQL (whose writers do
        not wait for one another), or when there is none yet and `create` is False."""
        from threefold.store.sqlite.inbox import Inbox, inbox_path
        from threefold.store.sqlite.store import SQLiteStore

        with self._building:
            found: Inbox | None = self.__dict__.get("_opened_inbox")
            if found is not None or not isinstance(self.store, SQLiteStore):
                return found
            if str(self.store.path) == ":memory:":  # nothing beside it to write to
                return None
            path = inbox_path(self.store.path)
            if self.store.read_only or not (create or path.exists()):
                return None
            found = Inbox(path, durability=self.settings.durability)
            self.__dict__["_opened_inbox"] = found
            self._owned.append(found)
            return found

    def _slack_event(self, job: "Job") -> "Apply":
        from threefold.sources.ingest import SlackIngest
        from threefold.sources.slack_events import read_event
        from threefold.sources.slack_live import SlackEvents

        ingest = SlackIngest(self.store, self._router(job.tenant), self.settings, job.tenant)
        events = SlackEvents(self.store, ingest, self.settings, job.tenant)
        return events.plan(read_event(job.payload["event"]))

    def _team_actions(self, job: "Job") -> "Apply":
        """The rules, on the material a digest or an import just brought. They write and
        tell on their own, as a rebuild does: running them twice finds the same actions."""
        self.team.refresh_actions(job.tenant)
        return lambda: None

    def backfill_slack(
        self,
        api: "SlackApi",
        *,
        since: datetime | None = None,
        channels: Sequence[str] = (),
        progress: Progress | None = None,
        tenant: str | None = None,
    ) -> ImportReport:
        """Read Slack's history through its Web API (`api`), every conversation the bot is
        in or those of `channels` (names or ids), from `since` or where the last backfill
        stopped, and store it as an import would. Stopped midway (killed, an expired
        token, a storm of 429s: SourceError), it goes on from the page it was reading.
        Raises Busy while an import or a re-route of the tenant runs."""
        from threefold.sources.ingest import SlackIngest
        from threefold.sources.slack_live import Backfill

        tenant = self._tenant(tenant)
        with self._routes_held(tenant) as hold, self._worker_held():
            ingest = SlackIngest(self.store, self._router(tenant), self.settings, tenant)
            backfill = Backfill(api, self.store, ingest, self.settings, tenant)
            backfill.progress = _renewing(progress, hold)
            report = backfill.run(as_utc(since) if since else None, channels)
        self._wake()
        return self._with_unembedded(report, tenant)

    def sync_drive(
        self, api: "DriveApi", *, progress: Progress | None = None, tenant: str | None = None
    ) -> ImportReport:
        """Read the documents of every folder in settings.drive.folders through `api` into
        the folder's stream: each version once, digested (summaries, facts) like other
        records, with its link kept. What cannot be read is skipped and reported."""
        from threefold.sources.drive import DriveSync

        tenant = self._tenant(tenant)
        report = DriveSync(api, self.store, self.settings, tenant, progress).run(utcnow)
        self._wake()
        return self._with_unembedded(report, tenant)

    def end_session(self, stream: str, *, tenant: str | None = None) -> None:
        """Summarize whatever the summaries do not cover yet."""
        tenant = self._tenant(tenant)
        check_stream(stream)
        with self.store.transaction():
            state = self.store.stream_state(tenant, stream)
            if state.turn_count > state.summary_enqueued_through:
                self._enqueue_summary(tenant, stream, state.turn_count)
        self._wake()

    def refresh(self, stream: str, *, tenant: str | None = None) -> Summary | None:
        """Read the stream's turns and messages again for facts (see `reextract`), then
        rebuild the active summary from roll-ups and session summaries, now."""
        from threefold.pipeline.jobs import REFRESH

        tenant = self._tenant(tenant)
        check_stream(stream)
        self.reextract(stream, tenant=tenant)
        self.store.enqueue(tenant, stream, REFRESH, {})
        self.runner.run_pending(tenant)
        return self.store.active_summary(tenant, stream)

    def reextract(self, stream: str, *, tenant: str | None = None) -> int:
        """Read the stream's turns and Slack messages again for facts, and store those
        not read from the same turn or message before; a fact superseded or retracted
        since stays as it is. Returns how many facts were new."""
        from threefold.pipeline.reextract import reextract

        tenant = self._tenant(tenant)
        check_stream(stream)
        self.process_pending(tenant=tenant)  # what is queued is read once, by its job
        added = reextract(self.store, self.model, self.settings, tenant, stream)
        if added:
            self.pipeline.embed_later(tenant, stream)
        return added

    def process_pending(
        self, *, tenant: str | None = None, between_jobs: Callable[[], object] | None = None
    ) -> int:
        """Run every queued job that is due now; returns how many this call ran.
        `between_jobs` is called between one job and the next (a progress display, say)."""

        def stopping() -> bool:
            if between_jobs is not None:
                between_jobs()
            return False

        return self.runner.run_pending(
            None if tenant is None else check_tenant(tenant), stopping=stopping
        )

    # -- reading --------------------------------------------------------------

    def context(
        self,
        stream: str,
        query: str = "",
        budget: int | None = None,
        *,
        trust: Trust | str = Trust.FULL,
        tenant: str | None = None,
        timezone: str | None = None,
    ) -> Context:
        """Facts, summary, recent turns and relevant older material within `budget` tokens,
        holding only what `trust` may read.

        A question that names people or projects also gets their profiles; one that names
        several projects, items from each, labelled; one that asks about today, yesterday,
        this or last week, that period's digests (days in `timezone`, default
        settings.team.timezone)."""
        from threefold.context.assemble import assemble
        from threefold.context.material import gather, read_view

        tenant = self._tenant(tenant)
        check_stream(stream)
        budget = self.settings.prompt_budget if budget is None else budget
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
            raise InvalidInput(f"budget must be a positive whole number of tokens, got {budget!r}")
        query = self._text(query, "query")
        started = time.perf_counter()
        view = read_view(self.store, self.settings, tenant, stream, _trust(trust), query)
        material = gather(view, self.recall, self.settings, query, _trust(trust), budget)
        readable = READABLE[_trust(trust)]
        team = self.team.material(tenant, stream, query, readable, timezone, view.names)
        material.profiles, material.digest, material.projects = (
            team.profiles,
            team.digest,
            team.projects,
        )
        shares = self.settings.team
        material.team_shares = (shares.profile_share, shares.projects_share, shares.digest_share)
        built = assemble(tenant, stream, query, budget, material)
        if not tracing.on():  # a big stream drops thousands of items: skip listing them
            return built
        tracing.event(
            "context",
            tenant=tenant,
            stream=stream,
            budget=budget,
            tokens=built.tokens,
            sections={s.name: s.tokens for s in built.sections},
            dropped=[
                {"section": d.section, "tokens": d.tokens, "reason": d.reason}
                for d in built.dropped
            ],
            ms=round((time.perf_counter() - started) * 1000, 2),
        )
        return built

    @property
    def read_only(self) -> bool:
        """Whether the memory was opened on storage it cannot write: reads work, and
        every write raises StoreReadOnly."""
        return self.store.read_only

    @property
    def embeds(self) -> bool:
        """Whether search uses vectors: without, prepare_query() has nothing to do."""
        return self.recall.embedder is not None

    @property
    def query_embedding_is_slow(self) -> bool:
        """Whether a query's embedding is worth a thread of its own before a context():
        a model's is; hashing's and static's cost less than the hop."""
        return worth_a_thread(self.recall.embedder)

    def prepare_query(self, query: str, *, tenant: str | None = None) -> None:
        """Embed `query` ahead of a context() or search() for it in `tenant`, with the
        question its named people's items are ranked by (the query without their names).

        A server calls this outside its queue for the store, so the model runs on one core
        while another request reads the store on the other. Failures are left for the
        search itself to report.
        """
        self.recall.prepare(query, self._tenant(tenant), PRESETS["default"])

    def search(
        self,
        query: str,
        stream: str | None = None,
        kinds: Sequence[str] | None = None,
        limit: int = 10,
        preset: str = "default",
        trust: Trust | str = Trust.FULL,
        *,
        categories: Sequence[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        people: Sequence[str] = (),
        tenant: str | None = None,
    ) -> list[SearchHit]:
        """Facts, turns and summaries that match `query`, best first, with their sources:
        `limit` hits, each with the facts read from it that the search found too (its
        `derived`). An empty query lists what the filters let through, newest first.

        Full text and vectors are fused by the named preset; filters apply before ranking.
        Inactive facts are history and are not returned; see fact_history(). A hit that
        states a value a newer fact replaced names the facts in force in its `now`.
        """
        tenant = self._tenant(tenant)
        if stream is not None:
            check_stream(stream)
        chosen = PRESETS.get(preset)
        if chosen is None:
            raise InvalidInput(f"unknown preset {preset!r}; choose one of {', '.join(PRESETS)}")
        if kinds is not None:
            unknown = set(kinds) - set(KINDS)
            if unknown:
                raise InvalidInput(f"unknown kinds {sorted(unknown)}; use {', '.join(KINDS)}")
            chosen = replace(chosen, kinds=tuple(k for k in chosen.kinds if k in kinds))
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise InvalidInput(f"limit must be a positive whole number, got {limit!r}")
        where = ItemFilter(
            tenant=tenant,
            streams=(stream,) if stream else None,
            visibilities=READABLE[_trust(trust)],
            categories=tuple(categories) if categories is not None else None,
            since=as_utc(since) if since else None,
            until=as_utc(until) if until else None,
            people=tuple(p.lower() for p in people),
        )
        hits = self.recall.search(self._text(query, "query"), where, chosen, limit)
        return outdated.marked(self.store, tenant, hits, where.visibilities)

    def browse(
        self,
        *,
        source: str | None = None,
        stream: str | None = None,
        channel: str | None = None,
        author: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        before: int | None = None,
        limit: int = 50,
        trust: Trust | str = Trust.FULL,
        tenant: str | None = None,
    ) -> list[Record]:
        """Source records (Slack messages, documents, web pages) of every stream, newest
        first, that the filters let through and `trust` may read. `before` is the id of
        the last record of the page before: the next page starts after it."""
        from threefold.store.base import RecordBrowse

        if stream is not None:
            check_stream(stream)
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 1000:
            raise InvalidInput(f"limit must be a whole number from 1 to 1000, got {limit!r}")
        where = RecordBrowse(
            source=source,
            stream=stream,
            channel=channel.lstrip("#") if channel else None,
            author=author or None,
            since=as_utc(since) if since else None,
            until=as_utc(until) if until else None,
            before_id=before,
            visibilities=READABLE[_trust(trust)],
            limit=limit,
        )
        return self.store.browse_records(self._tenant(tenant), where)

    def reembed(self, progress: Callable[[int, int], None] | None = None) -> int:
        """Drop every stored vector and embed everything again with this memory's embedder.

        `progress(done, total)` is called as batches finish. Returns the items embedded.
        """
        if self.recall.embedder is None:
            raise InvalidInput("this memory has no embedder; set embed.kind first")
        if self._embedder is not None:  # from an older variant back to the one asked for
            self.recall.use(self._embedder)
        self.store.drop_vectors()
        self.recall.index.forget()
        total = self.store.count_unembedded()
        done = 0
        for tenant, stream in self.store.streams_with_items():
            while count := self.pipeline.embed_batch(tenant, stream):
                done += count
                if progress:
                    progress(done, total)
        return done

    def timeline(
        self,
        entity: str,
        *,
        limit: int = 100,
        trust: Trust | str = Trust.FULL,
        tenant: str | None = None,
    ) -> list[TimelineEntry]:
        """What happened to or was said by a person ('priya', '@priya'), in a channel
        ('#general') or a project ('project:alpha', or its key 'ALPHA'), oldest first:
        their messages and the facts about them, the newest `limit`."""
        tenant = self._tenant(tenant)
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise InvalidInput(f"limit must be a positive whole number, got {limit!r}")
        key, subject = self._entity(self._text(entity, "entity").strip(), tenant)
        readable = READABLE[_trust(trust)]
        if not key.startswith("person:"):
            return self.store.timeline(
                tenant, key, subject=subject, limit=limit, visibilities=readable
            )
        keys, subject = self._same_person(tenant, key)
        found = {
            (entry.kind, entry.id): entry
            for each in keys
            for entry in self.store.timeline(
                tenant, each, subject=subject, limit=limit, visibilities=readable
            )
        }
        ordered = sorted(found.values(), key=lambda e: (e.at, e.kind != "record", e.id))
        return ordered[-limit:]

    def _same_person(self, tenant: str, key: str) -> tuple[list[str], str | None]:
        """The timeline keys of one person as a caller names them (a name, a handle, a
        Slack user id), and the fact subject that is theirs: their account, and each
        name of theirs that no one else goes by; as asked when it names no one or
        several."""
        from threefold.entities import account_alias

        asked = key.removeprefix("person:")
        owners = self.store.entities_named(tenant, account_alias(asked))
        owners = owners or self.store.entities_named(tenant, asked)
        if len(owners) != 1:
            return [key], asked
        owner = owners[0]
        aliases = [owner, *self.store.entity_aliases(tenant, owner)]
        keys = [person(a) for a in aliases if a.startswith("@")]
        theirs = [
            a
            for a in dict.fromkeys(aliases)
            if not a.startswith("@") and self.store.entities_named(tenant, a) == [owner]
        ]
        keys += [person(a) for a in theirs]
        return keys or [key], owner if owner in theirs else None

    def records(
        self,
        stream: str,
        limit: int | None = None,
        *,
        source: str | None = None,
        tenant: str | None = None,
    ) -> list[Record]:
        """The stream's source records (Slack messages, Jira rows, pages), oldest first;
        records routed elsewhere that mention the stream are included."""
        check_stream(stream)
        return self.store.records(self._tenant(tenant), stream, source=source, last=limit)

    def facts(
        self, stream: str, *, include_inactive: bool = False, tenant: str | None = None
    ) -> list[Fact]:
        """Layer 1 of `stream`, newest first."""
        check_stream(stream)
        return self.store.facts(self._tenant(tenant), stream, include_inactive=include_inactive)

    def fact(self, fact_id: int, *, tenant: str | None = None) -> Fact:
        return self.store.fact(self._tenant(tenant), fact_id)

    def forget(self, fact_id: int, *, reason: str = "", tenant: str | None = None) -> Fact:
        """Retract one fact: it stays in its history and leaves every context.

        Raises NotFound when the tenant has no fact `fact_id`.
        """
        from threefold.layers.erase import forget

        reason = self._text(reason, "reason")
        return forget(self.store, self._tenant(tenant), _fact_id(fact_id), reason)

    def erase(
        self,
        *,
        stream: str | None = None,
        entity: str | None = None,
        fact_id: int | None = None,
        tenant: str | None = None,
    ) -> ErasureReport:
        """For privacy requests: remove the content of a whole stream, of everything a
        person said or is said to be, or of one fact, from every table, index and vector,
        and the lines of summaries that quoted it. An audit row without content stays.
        """
        from threefold.layers.erase import erase

        tenant = self._tenant(tenant)
        if stream is not None:
            check_stream(stream)
        if entity is not None:
            entity = self._text(entity, "entity").strip()
        if fact_id is not None:
            fact_id = _fact_id(fact_id)
        return erase(self.store, tenant, stream=stream, entity=entity, fact_id=fact_id)

    def fact_history(self, fact_id: int, *, tenant: str | None = None) -> FactHistory:
        """The fact, every version of its slot it is linked to, and what happened to each."""
        from threefold.layers.facts import fact_chain

        tenant = self._tenant(tenant)
        chain = fact_chain(self.store, tenant, fact_id)
        changes = self.store.fact_changes(tenant, [f.id for f in chain])
        return FactHistory(
            fact=next(f for f in chain if f.id == fact_id),
            chain=tuple(chain),
            changes=tuple(changes),
        )

    def summaries(
        self, stream: str, kind: SummaryKind | str | None = None, *, tenant: str | None = None
    ) -> list[Summary]:
        check_stream(stream)
        wanted = _member(SummaryKind, kind, "summary kind") if kind is not None else None
        return self.store.summaries(self._tenant(tenant), stream, wanted)

    def turns(
        self,
        stream: str,
        limit: int | None = None,
        *,
        through: int | None = None,
        tenant: str | None = None,
    ) -> list[Turn]:
        """The stream's turns, oldest first; with `limit`, only the newest `limit`; with
        `through`, only those up to that seq (so a window can end at any turn)."""
        check_stream(stream)
        return self.store.turns(self._tenant(tenant), stream, through_seq=through, last=limit)

    def turn(self, turn_id: int, *, tenant: str | None = None) -> Turn:
        """One turn by its id, as sources cite it; NotFound if the tenant has none such."""
        return self.store.turn(self._tenant(tenant), turn_id)

    def record(self, record_id: int, *, tenant: str | None = None) -> Record:
        """One source record by its id, as sources cite it; NotFound if the tenant has
        none such."""
        return self.store.record(self._tenant(tenant), record_id)

    def streams(self, *, tenant: str | None = None) -> list[Stream]:
        """The tenant's streams, by name, with their turn count and chunk cursor."""
        tenant = self._tenant(tenant)
        states = (self.store.stream_state(tenant, name) for name in self.store.streams(tenant))
        return [
            Stream(
                tenant=tenant,
                name=s.name,
                turn_count=s.turn_count,
                last_summarized_turn=s.last_summarized_turn,
            )
            for s in states
        ]

    # -- keys, jobs and upkeep: what the faces need besides memory -----------

    def create_key(
        self, tenant: str, trust: Trust | str = Trust.FULL, label: str = ""
    ) -> tuple[int, str]:
        """A new API key for `tenant` at `trust`: its id and its secret. Only a hash is
        stored, so the secret cannot be shown again."""
        from threefold.trust.keys import create_key

        return create_key(self.store, check_tenant(tenant), _trust(trust), label)

    def api_key(self, secret: str) -> ApiKey | None:
        """The live key `secret` belongs to; None for an unknown or revoked one."""
        from threefold.trust.keys import resolve_key

        return resolve_key(self.store, secret)

    def api_keys(self, *, tenant: str | None = None) -> list[ApiKey]:
        """Every tenant's keys, or only `tenant`'s; never their secrets."""
        return self.store.api_keys(None if tenant is None else check_tenant(tenant))

    def revoke_key(self, key_id: int) -> bool:
        """Refuse key `key_id` from now on; False when there is no live key of that id."""
        return self.store.revoke_api_key(key_id)

    def job_counts(self, *, tenant: str | None = None) -> dict[str, int]:
        """Queued work by status (pending, done, failed), over every tenant or one."""
        counts = dict.fromkeys(("pending", "done", "failed"), 0)
        for job in self.store.jobs(None if tenant is None else check_tenant(tenant)):
            counts[job.status] = counts.get(job.status, 0) + 1
        return counts

    def model_counts(self) -> dict[str, int]:
        """What the chat model cost in this process, over every tenant: calls, requests,
        fallbacks to the heuristic model, batches read again turn by turn; empty for a
        model that keeps no such counts."""
        from threefold.models.base import request_counts

        return request_counts(self.model)

    def count_facts(self, *, source: str = "", tenant: str | None = None) -> int:
        """Facts of any status whose source kind starts with `source` ('slack.', 'jira.')."""
        return self.store.count_facts(self._tenant(tenant), source)

    @property
    def model_name(self) -> str:
        return self.model.name

    @property
    def fact_reader(self) -> str | None:
        """Who reads facts out of turns, for a model that has a choice: "rules" alone, or
        the trained reader beside them ("tuned", "trained"); None for one that does not
        say (a chat model reads them itself)."""
        return getattr(self.model, "fact_reader", None)

    @property
    def embedder_name(self) -> str | None:
        """The embedder's model name; None when search is full text only."""
        embedder = self.recall.embedder
        return embedder.name if embedder is not None else None

    def maintain(self) -> "list[StageReport] | None":
        """Run the maintenance stages once (retention, archive, clean-up, roll-ups,
        retries); None when another process is running them on this store now."""
        from threefold.pipeline.maintenance import maintain_alone

        return maintain_alone(self, lease_owner())

    def maintenance_loop(self, interval: float) -> "MaintenanceLoop":
        """A loop, not yet started, that maintains this memory at its start and then every
        `interval` seconds, taking turns with the loops of other processes on the store."""
        from threefold.pipeline.maintenance import MaintenanceLoop

        return MaintenanceLoop(self, interval)

    def import_ledger(self, lease_seconds: float = 300.0) -> "ImportLedger":
        """The record of the import jobs a server takes, shared by its processes, with
        this process's lease on the ones it runs (see threefold.pipeline.import_ledger)."""
        from threefold.pipeline.import_ledger import ImportLedger

        return ImportLedger(self.store, lease_seconds)

    # -- team -------------------------------------------------------------------

    def rebuild_team(
        self, *, now: datetime | None = None, tenant: str | None = None
    ) -> "RebuildReport":
        """Rebuild every profile and run every action rule now, as of `now`; the
        maintenance loop does this every settings.team.rebuild_hours. An action keeps the
        status it was given; one whose cause is gone is marked done."""
        if now is not None and not 2 <= now.year <= 9998:
            raise InvalidInput(f"now must be a time between the years 2 and 9998, got {now}")
        return self.team.rebuild(self._tenant(tenant), as_utc(now) if now else None)

    def profile(
        self, entity: str, *, trust: Trust | str = Trust.FULL, tenant: str | None = None
    ) -> "Profile":
        """A person ('Priya', '@priya'), channel ('#general') or project ('project:alpha',
        'ALPHA'): role, current work, commitments, blockers, recent activity and mood
        trend, holding only what `trust` may read. Built now if no rebuild made one yet."""
        entity = self._text(entity, "entity").strip()
        if not entity:
            raise InvalidInput("name an entity: a person, '#channel' or a project")
        return self.team.profile(self._tenant(tenant), entity, READABLE[_trust(trust)])

    def actions(
        self,
        *,
        status: str | None = "open",
        stream: str | None = None,
        rule: str | None = None,
        trust: Trust | str = Trust.FULL,
        tenant: str | None = None,
    ) -> "list[Action]":
        """What needs doing, found by the rules in settings.team.rules at the last rebuild,
        each with its evidence; `status` None lists every status."""
        if stream is not None:
            check_stream(stream)
        return self.team.actions(
            self._tenant(tenant),
            READABLE[_trust(trust)],
            status=status,
            stream=stream,
            rule=rule,
        )

    def set_action_status(
        self, action_id: int, status: str, *, tenant: str | None = None
    ) -> "Action":
        """Mark an action open, done or dismissed; rebuilds keep what is set here."""
        if action_id <= 0:
            raise InvalidInput(f"an action id is a positive integer, got {action_id!r}")
        return self.team.set_status(self._tenant(tenant), action_id, status)

    def digest(
        self,
        stream: str,
        period: str | tuple[date, date] = "today",
        *,
        timezone: str | None = None,
        now: datetime | None = None,
        trust: Trust | str = Trust.FULL,
        tenant: str | None = None,
    ) -> "Digest":
        """The daily digests of `stream` over `period`: 'today', 'yesterday', 'this week',
        'last week', a day '2026-03-02', a range '2026-03-02..2026-03-08' or a pair of
        dates; days are those of `timezone` (default settings.team.timezone) at `now`."""
        check_stream(stream)
        if now is not None and not 2 <= now.year <= 9998:
            raise InvalidInput(f"now must be a time between the years 2 and 9998, got {now}")
        return self.team.digest(
            self._tenant(tenant), stream, period, timezone, now, READABLE[_trust(trust)]
        )

    # -- lifecycle ------------------------------------------------------------

    def close(self) -> None:
        """Stop the worker after its current job, then close the store. A worker still
        busy after `_CLOSE_WAIT_SECONDS` keeps the store open and lets its lease go when
        its job ends: closing the store under it would fail the job halfway. Queued jobs
        stay queued for the next worker."""
        if self._worker and not self._worker.stop(_CLOSE_WAIT_SECONDS):
            log.warning("the job worker is still busy; its store and model are left open")
            return
        self.store.close()
        _close_parts(self._owned)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # -- inside ---------------------------------------------------------------

    def _tenant(self, tenant: str | None) -> str:
        return self.tenant if tenant is None else check_tenant(tenant)

    def _wake(self) -> None:
        if self._worker:
            self._worker.wake()

    def _worker_held(self) -> AbstractContextManager[None]:
        """This process's background worker starts no job while an import (Slack export,
        Jira CSV, Slack backfill) stores text; the jobs wait, and run once it ends, however
        it ends."""
        return self._worker.held() if self._worker else nullcontext()

    def _text(self, value: str | bytes | None, field: str) -> str:
        if value is None:
            return ""
        if isinstance(value, bytes):
            try:
                value = value.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise InvalidInput(
                    f"{field} is not valid UTF-8 (bad byte at {exc.start})"
                ) from None
        if not isinstance(value, str):
            raise InvalidInput(f"{field} must be text, got {type(value).__name__}")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InvalidInput(
                f"{field} holds a character that is not valid Unicode text at {exc.start}"
            ) from None
        if len(value) > self.settings.max_turn_chars:
            raise InvalidInput(
                f"{field} is {len(value):,} characters, over max_turn_chars "
                f"({self.settings.max_turn_chars:,}); split it into several turns"
            )
        return value

    def _router(self, tenant: str) -> "Router":
        from threefold.routing import Router

        return Router(
            self.settings.projects,
            self.model,
            self.store.streams(tenant),
            self.store.jira_projects(tenant),
        )

    def _entity(self, entity: str, tenant: str) -> tuple[str, str | None]:
        """The timeline key of an entity as a caller names it, and the fact subject that
        names the same one."""

        if not entity:
            raise InvalidInput("name an entity: a person, '#channel' or a project stream")
        if entity.startswith("#"):
            return channel_entity(entity), None
        if entity.startswith("@") or entity.startswith("person:"):
            return _person_and_subject(entity.removeprefix("@").removeprefix("person:"))
        if entity.startswith("channel:"):
            return channel_entity(entity.removeprefix("channel:")), None
        if ":" in entity or entity == GLOBAL_STREAM:
            return check_stream(entity), None
        router = self._router(tenant)
        if entity.upper() in router.by_key:
            return router.by_key[entity.upper()], None
        return _person_and_subject(entity)

    def _maybe_enqueue_summary(self, tenant: str, stream: str, seq: int) -> None:
        state = self.store.stream_state(tenant, stream)
        waiting = seq - state.summary_enqueued_through
        if (
            waiting >= self.settings.session_turns
            or state.unsummarized_tokens >= self.settings.chunk_summarize_tokens
        ):
            self._enqueue_summary(tenant, stream, seq)

    def _enqueue_summary(self, tenant: str, stream: str, through: int) -> None:
        from threefold.pipeline.jobs import SUMMARIZE

        self.store.enqueue(tenant, stream, SUMMARIZE, {"through": through})
        self.store.mark_summary_enqueued(tenant, stream, through)

    def _fact_to_write(
        self,
        stream: str,
        text: str,
        category: FactCategory | str,
        confidence: float,
        subject: str | None,
        slot: str | None,
        value: str | None,
        at: datetime | None,
    ) -> ExtractedFact:
        from threefold.layers.facts import category_slot

        text = self._text(text, "text").strip()
        if not text:
            raise InvalidInput("a fact needs some text")
        if not 0.0 <= confidence <= 1.0:
            raise InvalidInput(f"confidence must be between 0 and 1, got {confidence!r}")
        try:
            category = FactCategory(category)
        except ValueError:
            known = ", ".join(c.value for c in FactCategory)
            raise InvalidInput(f"unknown category {category!r}; use one of {known}") from None
        subject, slot = _fact_key(subject, "subject"), _fact_key(slot, "slot")
        if subject is None or slot is None:
            said = TurnInput(stream=stream, user=text, at=as_utc(at) if at else utcnow())
            read = [f for f in self.model.extract_facts(said) if f.standing is Standing.FACT]
            if len(read) == 1:
                subject, slot, value = (
                    subject or read[0].subject,
                    slot or read[0].slot,
                    (value or read[0].value),
                )
            elif subject is None and slot is None:
                subject, slot = category_slot(category, text) or (None, None)
        digest = hashlib.sha1(text.lower().encode()).hexdigest()[:12]
        return ExtractedFact(
            text=text,
            category=category,
            subject=(subject or "note").lower(),
            slot=(slot or f"note:{digest}").lower(),
            value=value or text,
            confidence=confidence,
        )


_ROUTES_LEASE_SECONDS = 600.0
"""Renewed as an import reads on, so a process that died blocks re-routes this long."""


def _renewing(progress: Progress | None, renew: Callable[[], object]) -> Progress:
    def both(done: int, total: int) -> None:
        renew()
        if progress is not None:
            progress(done, total)

    return both


def _person_and_subject(name: str) -> tuple[str, str]:
    """A person's timeline key, and the fact subject that names them ('priya')."""

    key = person(name)
    return key, key.removeprefix("person:")


_MAX_SPEAKER_CHARS = 100
_MAX_KEY_CHARS = 200
"""A fact's subject or slot is a key, not a text: 'person:priya', 'role', 'skill:drive'."""


def _fact_id(value: int) -> int:
    # checked_api has made sure of the type and the 64-bit range.
    if value <= 0:
        raise InvalidInput(f"a fact id is a positive integer, got {value!r}")
    return value


def _speaker(name: str | None, field: str) -> str | None:
    """A speaker's name as given, single-spaced; None or blank: no name."""
    if name is None:
        return None
    name = " ".join(name.split())
    if len(name) > _MAX_SPEAKER_CHARS or not name.isprintable():
        raise InvalidInput(
            f"{field} must be a printable name of at most {_MAX_SPEAKER_CHARS} characters"
        )
    return name or None


def _close_parts(parts: list[object]) -> None:
    for part in parts:
        close = getattr(part, "close", None)
        if close is not None:
            close()


def _fact_key(key: str | None, field: str) -> str | None:
    """A subject or slot as given, refused when it could not be a key: a line break or a
    control character in it would reach every reader through the fact's source label."""
    if key is None:
        return None
    if not isinstance(key, str):
        raise InvalidInput(f"{field} must be text, got {type(key).__name__}")
    if len(key) > _MAX_KEY_CHARS or not key.isprintable():
        raise InvalidInput(
            f"{field} must be one printable line of at most {_MAX_KEY_CHARS} characters"
        )
    return key.strip() or None


def _visibility(value: Visibility | str) -> Visibility:
    return _member(Visibility, value, "visibility")


def _trust(value: Trust | str) -> Trust:
    return _member(Trust, value, "trust level")


_E = TypeVar("_E", bound=StrEnum)


def _member(kind: type[_E], value: _E | str, what: str) -> _E:
    try:
        return kind(value)
    except ValueError:
        known = ", ".join(member.value for member in kind)
        raise InvalidInput(f"unknown {what} {value!r}; use one of {known}") from None


def _fitting_embedder(store: Store, embedder: Embedder | None) -> Embedder | None:
    """`embedder`, or the variant of it that made the stored vectors (such as MiniLM's
    per-run int8 model), so that an older store keeps working. Vectors from another model
    are not comparable with this one's: refuse, loudly."""
    if embedder is None:
        return None
    foreign = [(m, d) for m, d in store.vector_models() if (m, d) != (embedder.name, embedder.dim)]
    variant = getattr(embedder, "for_model", None)
    if len(foreign) == 1 and len(store.vector_models()) == 1 and variant is not None:
        older = variant(*foreign[0])
        if older is not None:
            log.info(
                "the stored vectors were made by %s: embedding with it too; run "
                "`threefold reembed` to move to %s",
                older.name,
                embedder.name,
            )
            return older
    if foreign:
        made = ", ".join(f"{m} ({d} dimensions)" for m, d in foreign)
        raise EmbeddingMismatch(
            f"stored vectors were made by {made}, but this memory embeds with "
            f"{embedder.name} ({embedder.dim} dimensions); run `threefold reembed` to "
            "embed everything again with the current model"
        )
    return embedder
