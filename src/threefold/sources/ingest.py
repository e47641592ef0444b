"""Outside messages and rows into streams: routing, source records, and digest triggers.

Records are stored verbatim and idempotently on (source, channel, id): importing the
same export twice adds nothing. Facts and summaries come later, from digest jobs, so an
import is only as slow as reading and storing.
"""

import re
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from itertools import islice
from typing import TypeVar

from threefold import entities
from threefold.domain import (
    GLOBAL_STREAM,
    FactCategory,
    ImportProblem,
    ImportReport,
    Progress,
    SourceRef,
    SummaryKind,
    Visibility,
    channel_entity,
    person,
)
from threefold.entities import account_alias
from threefold.errors import InvalidInput
from threefold.layers.facts import record_fact
from threefold.models.base import ExtractedFact
from threefold.pipeline.jobs import DIGEST
from threefold.routing import Route, Router
from threefold.settings import Settings
from threefold.sources.jira import JiraIssue, JiraRead, project_stats
from threefold.sources.jira import Problem as JiraProblem
from threefold.sources.slack import (
    Channel,
    ChannelKind,
    MessageKind,
    SlackExport,
    SlackMessage,
    parse_ts,
    read_markup,
)
from threefold.store.base import NewRecord, NewSummary, Store
from threefold.tokens import count_tokens

KEPT_KINDS = frozenset({MessageKind.MESSAGE, MessageKind.BOT, MessageKind.FILE_SHARE})
"""Joins, leaves and topic changes say nothing about the work."""
THREAD_CONFIDENCE = 0.9
"""A reply whose thread start was routed by an earlier import: its route's confidence is
not kept with the stream, so it is taken as this."""
FLOOD_SHARE = 0.5
FLOOD_MIN_MESSAGES = 200
"""An import warns when at least this many messages, and this share of all it kept,
went to the global stream."""
_CHUNK = 500
"""Records per transaction: large enough to be fast, small enough to keep memory flat."""

T = TypeVar("T")


_BOT_LEAD = r"^(?:\[attachment:\s*)?(?:\[[^\]]{1,80}\]\s*)?"
"""Slack's attachment marker, then a repository or project tag such as "[api:main]"."""
_BOT_ACTOR = re.compile(
    _BOT_LEAD + r"(?P<name>[A-Z][\w.'-]*(?:\s[A-Z][\w.'-]*)?)\s+"
    r"(?:pushed|merged|opened|closed|reopened|commented|created|resolved|deployed|released|"
    r"approved|reviewed|assigned|moved|changed|updated|transitioned|started|completed|"
    r"requested|submitted|published|force-pushed)\b"
)
_BOT_BY = re.compile(
    _BOT_LEAD + r"[^\n]{0,60}?\b(?:commits?|pull\s+request|PR|issue|branch|build|deploy(?:ment)?"
    r"|release|review|comment|merge)\b[^\n]{0,200}?\bby\s+"
    r"(?P<name>[A-Za-z][\w.'-]*(?:\s[A-Z][\w.'-]*)?)"
)
"""How GitHub, Jira, CI and deploy bots say what a person did: "Anil pushed 3 commits",
"[api] Priya Shah merged #42", "[repo:main] 1 new commit by hfaran"."""


def credited_author(kind: str, author: str, text: str) -> str:
    """Who a message is about: its author, or for a bot the person it says acted."""
    if kind != MessageKind.BOT.value:
        return author
    match = _BOT_ACTOR.match(text) or _BOT_BY.match(text)
    return match["name"] if match else author


@dataclass
class Tally:
    """What an import has read so far."""

    read: int = 0
    files: int = 0
    last_path: str | None = None
    duplicates: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    routed: Counter[str] = field(default_factory=Counter)
    waiting: Counter[str] = field(default_factory=Counter)
    """New messages per stream whose digest is not queued yet."""
    stored_before: set[str] = field(default_factory=set)
    """Streams of the messages that were already stored."""
    routed_elsewhere: int = 0
    """Messages already stored in another stream than they are routed to now."""


class SlackIngest:
    """Stores Slack messages of one tenant as routed source records."""

    def __init__(self, store: Store, router: Router, settings: Settings, tenant: str) -> None:
        self.store, self.router, self.settings, self.tenant = store, router, settings, tenant
        self._thread_starts: dict[tuple[str, str], Route] = {}
        """Routes of thread starts seen in this run, which may not be stored yet."""

    def export(self, export: SlackExport, progress: Progress | None = None) -> ImportReport:
        """Every message of the export, streamed; digests are queued for the streams."""
        tally, total = Tally(), len(export.day_files())
        self._people(export)
        for chunk in _chunks(export.messages(), _CHUNK):
            self._store_chunk(chunk, tally)
            # The export is read day by day, so a full batch can be digested (by other
            # workers) while later days are still being read.
            self._digest_full(tally.waiting, self.settings.sources.import_batch_messages)
            if progress:
                progress(tally.files, total)
        self._digest_full(tally.waiting, 1)
        self._digest_left_over(tally.stored_before - tally.routed.keys())
        problems = _with_summary(
            [ImportProblem(path=p.path, error=p.error) for p in export.problems],
            export.problems.summary(),
        )
        return ImportReport(
            source="slack",
            read=tally.read,
            kept=sum(tally.routed.values()),
            duplicates=tally.duplicates,
            skipped=dict(tally.skipped),
            routed=dict(tally.routed.most_common()),
            problems=problems,
            warnings=(
                *unknown_channels(export, self.settings),
                *flood_warnings(tally.routed, self.settings),
            ),
            moved=tally.routed_elsewhere,
        )

    def _store_chunk(self, chunk: list[SlackMessage], tally: "Tally") -> None:
        kept: list[NewRecord] = []
        for message in chunk:
            tally.read += 1
            if message.path != tally.last_path:
                tally.files, tally.last_path = tally.files + 1, message.path
            if message.kind not in KEPT_KINDS:
                tally.skipped[message.kind.value] += 1
            else:
                kept.append(self._routed(message))
        # Routing happens before the write lock is taken, so worker processes digesting
        # earlier batches wait for it as briefly as possible.
        ids = self.store.insert_records(kept)
        for record, stored in zip(kept, ids, strict=True):
            if stored is None:
                tally.duplicates += 1
                tally.stored_before.add(record.stream)
                if self._stored_elsewhere(record):
                    tally.routed_elsewhere += 1
            else:
                tally.routed[record.stream] += 1
                tally.waiting[record.stream] += 1

    def _stored_elsewhere(self, record: NewRecord) -> bool:
        stored = self.store.record_stream(self.tenant, "slack", record.channel, record.external_id)
        return stored is not None and stored != record.stream

    def _digest_full(self, waiting: Counter[str], batch: int) -> None:
        for stream, count in list(waiting.items()):
            if count >= batch:
                self.store.schedule(self.tenant, stream, DIGEST, time.time())
                del waiting[stream]

    def _digest_left_over(self, streams: set[str]) -> None:
        """An import cut short stores messages without queueing their digest; importing
        again finds them all stored, so it queues the digest here."""
        for stream in sorted(streams):
            if self.store.count_unprocessed(self.tenant, stream):
                self.store.schedule(self.tenant, stream, DIGEST, time.time())

    def message(self, message: SlackMessage) -> str | None:
        """Store one message; returns its stream, or None if it was stored before."""
        record = self._routed(message)
        return None if self.store.insert_record(record) is None else record.stream

    def live(self, message: SlackMessage) -> str | None:
        """Store a message that just arrived, and digest its stream once a batch is full
        or the channel has gone quiet."""
        return self.store_live(self.routed(message))

    def routed(self, message: SlackMessage) -> NewRecord:
        """The record of `message`, routed to its stream (the model may be asked)."""
        return self._routed(message)

    def store_live(self, record: NewRecord) -> str | None:
        """Store a routed live message once, and schedule its stream's digest: at once
        when a batch is full, else when the channel has been quiet for the idle time,
        counted from the message's own time. So a message from the past (a backfill, a
        script replaying a week) is due now, and one just said waits for the next."""
        if self.store.insert_record(record) is None:
            return None
        stream = record.stream
        waiting = self.store.count_unprocessed(self.tenant, stream)
        if waiting >= self.settings.sources.batch_messages:
            due = time.time()
        else:
            quiet = self.settings.sources.batch_idle_minutes * 60
            due = min(time.time() + quiet, record.at.timestamp() + quiet)
        self.store.schedule(self.tenant, stream, DIGEST, due)
        return stream

    def history(self, messages: Iterable[SlackMessage], tally: "Tally") -> None:
        """Store messages read from Slack's history (the Web API), as an import does, and
        digest each stream's full batches; `finish` digests what is left."""
        self._store_chunk([m for m in messages], tally)
        self._digest_full(tally.waiting, self.settings.sources.import_batch_messages)

    def finish(self, tally: "Tally") -> None:
        self._digest_full(tally.waiting, 1)
        self._digest_left_over(tally.stored_before - tally.routed.keys())

    def _people(self, export: SlackExport) -> None:
        """The export's users are people of the tenant, known by their account, their
        shown name, their handle and their full name: a rename since the last import
        is the same person, and two users showing one name are two."""
        with self.store.transaction():
            for user_id, name in export.users.items():
                aliases = export.aliases.get(user_id, ())
                entities.remember_speaker(self.store, self.tenant, name, user_id, aliases)

    def _routed(self, message: SlackMessage) -> NewRecord:
        channel = message.channel
        route = self._thread_route(message) or self.router.message(
            message.text, channel.name, channel.kind, channel.id
        )
        if message.thread_ts == message.ts:
            self._thread_starts[(channel.name, message.ts)] = route
        return self._record(message, route)

    def _thread_route(self, message: SlackMessage) -> Route | None:
        """A reply lives where its thread's first message lives, which may say the
        project while the replies ("sounds good", "done") do not."""
        thread = message.thread_ts
        if thread is None or thread == message.ts:
            return None
        start = self._thread_starts.get((message.channel.name, thread))
        stream = (
            start.stream
            if start
            else self.store.record_stream(self.tenant, "slack", message.channel.name, thread)
        )
        if stream is None:
            return None
        confidence = start.confidence if start else THREAD_CONFIDENCE
        return Route(stream=stream, method="thread", confidence=confidence)

    def _record(self, message: SlackMessage, route: Route) -> NewRecord:
        channel = message.channel
        actor = credited_author(message.kind.value, message.author, message.text)
        people = {
            person(message.author),
            person(actor),
            channel_entity(channel.name),
            route.stream,
            *route.also,
            *(person(m) for m in message.mentions),
        }
        if message.user_id:  # the account: a rename or a shared name does not split it
            people.add(person(account_alias(message.user_id)))
        return NewRecord(
            tenant=self.tenant,
            stream=route.stream,
            source="slack",
            channel=channel.name,
            external_id=message.ts,
            thread=message.thread_ts,
            author=message.author,
            text=message.text,
            kind=message.kind.value,
            at=message.at,
            route_method=route.method,
            route_confidence=route.confidence,
            visibility=_visibility(channel.kind),
            tokens=count_tokens(message.text),
            also_in=route.also,
            entities=tuple(sorted(people)),
            data={
                "user_id": message.user_id,
                "subtype": message.subtype,
                "channel_id": channel.id,
                "channel_kind": channel.kind.value,
            },
        )


def unknown_channels(export: SlackExport, settings: Settings) -> tuple[str, ...]:
    """A warning for each channel in settings that the export has neither by name nor by
    id: a typo there would otherwise route nothing, silently."""
    present = {c.name.lower() for c in export.channels} | {c.id.lower() for c in export.channels}
    return tuple(
        f"settings map channel {channel!r} to {project.stream}, but this export has no "
        "channel with that name or id; its messages are routed by their text instead"
        for project in settings.projects
        for channel in project.channels
        if channel not in present
    )


def flood_warnings(routed: Counter[str], settings: Settings) -> tuple[str, ...]:
    """A warning when most of an import went to `global`: every stream's context and
    search draw on it, so a team's whole history there crowds out each chat's own."""
    kept = sum(routed.values())
    flooded = routed.get(GLOBAL_STREAM, 0)
    if flooded < FLOOD_MIN_MESSAGES or flooded < FLOOD_SHARE * kept:
        return ()
    advice = (
        "no projects are configured: add [[projects]] with their channels, key or names"
        if not settings.projects
        else "the configured projects matched few of them: add their channels or names"
    )
    return (
        f"{flooded:,} of {kept:,} messages ({flooded / kept:.0%}) went to the global stream, "
        f"which every context draws on; {advice}, then import again to route them.",
    )


def live_message(
    channel: str,
    user: str,
    ts: str | float,
    text: str,
    thread_ts: str | float | None,
    channel_kind: str,
) -> SlackMessage:
    """A message as a Slack bot receives it, in the reader's shape. Slack's markup in its
    text (`<https://x|label>`, `<@U1>`, `<#C1|chan>`, `<!here>`) becomes plain text, as
    in an import: the ids a bot knows no name for are shown as themselves."""
    try:
        kind = ChannelKind(channel_kind)
    except ValueError:
        known = ", ".join(k.value for k in ChannelKind)
        raise InvalidInput(f"unknown channel kind {channel_kind!r}; use one of {known}") from None
    stamp, at = slack_ts(ts)
    name = channel.strip().removeprefix("#")
    if not name:
        raise InvalidInput("a message needs its channel")
    readable, mentions, links = read_markup(text, {}, {})
    return SlackMessage(
        channel=Channel(id=name, name=name, kind=kind),
        ts=stamp,
        at=at,
        thread_ts=slack_ts(thread_ts)[0] if thread_ts is not None else None,
        user_id=None,
        author=user.strip() or "unknown",
        text=readable,
        kind=MessageKind.MESSAGE,
        subtype=None,
        mentions=mentions,
        links=links,
        path="live",
    )


def slack_ts(value: str | float) -> tuple[str, datetime]:
    """Slack's ts, as the id it is ('1490000000.123456') and as a UTC time, read the way
    the export reader reads it, so a live message and its exported copy agree."""
    number = isinstance(value, int | float) and not isinstance(value, bool)
    stamp = f"{value:.6f}" if number else str(value).strip()
    try:
        return stamp, parse_ts(stamp)
    except ValueError:
        raise InvalidInput(f"ts must be Slack's seconds.micros timestamp, got {value!r}") from None


def _with_summary(problems: list[ImportProblem], summary: str | None) -> tuple[ImportProblem, ...]:
    if summary:
        problems.append(ImportProblem(path="(more)", error=summary))
    return tuple(problems)


def _visibility(kind: ChannelKind) -> Visibility:
    return Visibility.SHARED if kind is ChannelKind.PUBLIC else Visibility.PRIVATE


def _chunks(items: Iterable[T], size: int) -> Iterator[list[T]]:
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


JIRA_CONFIDENCE = 0.8


class JiraIngest:
    """Stores Jira issues as records, their fields as facts, and per-project counts."""

    def __init__(
        self, store: Store, router: Router, tenant: str, max_text_chars: int | None = None
    ) -> None:
        self.store, self.router, self.tenant = store, router, tenant
        self.max_text_chars = max_text_chars

    def csv(self, read: JiraRead, now: datetime, progress: Progress | None = None) -> ImportReport:
        read_count, duplicates, facts, routed = 0, 0, 0, Counter[str]()
        projects: set[str] = set()
        keys, linked = set[str](), set[str]()
        for chunk in _chunks(self._within_limit(read), _CHUNK):
            with self.store.transaction():
                for issue in chunk:
                    read_count += 1
                    keys.add(issue.key.upper())
                    linked.update(k for link in issue.links for k in (link[0], link[2]))
                    stored = self.issue(issue, now)
                    if stored is None:
                        duplicates += 1
                        continue
                    routed[stored[0]] += 1
                    facts += stored[1]
                    projects.add(issue.project_key)
            if progress:
                progress(read_count, 0)
        for key in sorted(projects):
            self.write_stats(key, now)
        problems = _with_summary(
            [ImportProblem(path=f"row {p.row}", error=p.error) for p in read.problems],
            read.problems.summary(),
        )
        return ImportReport(
            source="jira",
            read=read_count,
            kept=sum(routed.values()),
            duplicates=duplicates,
            routed=dict(routed.most_common()),
            facts=facts,
            problems=problems,
            warnings=_outside_links(linked - keys),
            unread_columns=read.unread_columns,
        )

    def _within_limit(self, read: JiraRead) -> Iterator[JiraIssue]:
        """The issues whose text fits max_turn_chars; the others become problems."""
        for issue in read.issues():
            size = len(render_issue(issue))
            if self.max_text_chars is not None and size > self.max_text_chars:
                error = f"{issue.key} is {size:,} characters, over max_turn_chars; skipped"
                read.problems.append(JiraProblem(row=issue.row, error=error))
            else:
                yield issue

    def issue(self, issue: JiraIssue, now: datetime) -> tuple[str, int] | None:
        """Store one issue row and its field facts; None if this version was stored before."""
        stream = self.router.stream_of_key(issue.project_key)
        at = issue.updated or issue.created or now
        people = {person(p) for p in (issue.assignee, issue.reporter) if p}
        text = render_issue(issue)
        record_id = self.store.insert_record(
            NewRecord(
                tenant=self.tenant,
                stream=stream,
                source="jira",
                channel=issue.project_key,
                external_id=f"{issue.key}@{at.isoformat()}",
                author=issue.reporter or "jira",
                text=text,
                kind="issue",
                at=at,
                route_method="issue_key",
                route_confidence=1.0,
                visibility=Visibility.SHARED,
                tokens=count_tokens(text),
                processed=True,
                entities=tuple(sorted({stream, *people})),
                data=issue.model_dump(mode="json"),
            )
        )
        if record_id is None:
            return None
        source = SourceRef(kind="jira.issue", id=str(record_id), at=at)
        fields = issue_facts(issue)
        for fact in fields:
            record_fact(self.store, self.tenant, stream, fact, source, visibility=Visibility.SHARED)
        return stream, len(fields)

    def write_stats(self, project_key: str, now: datetime) -> None:
        """The project's counts (by status, points, overdue, load) as of `now`."""
        stored = self.store.record_data(self.tenant, "jira", project_key)
        issues = [JiraIssue.model_validate(data) for data in stored]
        stats = project_stats(issues, as_of=now).get(project_key)
        if stats is None:
            return
        stream = self.router.stream_of_key(project_key)
        text = stats.render()
        with self.store.transaction():
            for old in self.store.summaries(self.tenant, stream, SummaryKind.STRUCTURED):
                self.store.set_summary_kind(self.tenant, old.id, SummaryKind.ARCHIVED)
            self.store.insert_summary(
                NewSummary(
                    tenant=self.tenant,
                    stream=stream,
                    kind=SummaryKind.STRUCTURED,
                    text=text,
                    tokens=count_tokens(text),
                    period_start=min(_times(issues), default=now),
                    period_end=now,
                    item_count=stats.total,
                    visibility=Visibility.SHARED,
                )
            )


def render_issue(issue: JiraIssue) -> str:
    """An issue as one searchable text: key, type, summary, fields, then its description."""
    fields = [
        f"status {issue.status}" if issue.status else "",
        f"assignee {issue.assignee or 'none'}",
        f"priority {issue.priority}" if issue.priority else "",
        f"sprint {issue.current_sprint}" if issue.current_sprint else "",
        f"due {issue.due.isoformat()}" if issue.due else "",
        f"{_points(issue.story_points)} points" if issue.story_points is not None else "",
    ]
    head = f"{issue.key} [{issue.issue_type or 'Issue'}] {issue.summary}".strip()
    body = issue.description.strip()[:_DESCRIPTION_CHARS]
    return "\n".join(
        part for part in (f"{head} ({', '.join(f for f in fields if f)})", body) if part
    )


def issue_facts(issue: JiraIssue) -> list[ExtractedFact]:
    """Status, assignee, sprint, due date and priority, each in its own slot of the issue,
    so a later export that changes one supersedes it."""
    key, subject = issue.key, issue.key.lower()
    values = [
        (FactCategory.STATUS, "status", issue.status, f"{key} is {issue.status}."),
        (
            FactCategory.ASSIGNMENT,
            "assignee",
            issue.assignee or "unassigned",
            f"{key} is assigned to {issue.assignee}."
            if issue.assignee
            else f"{key} is unassigned.",
        ),
        (
            FactCategory.STATUS,
            "sprint",
            issue.current_sprint,
            f"{key} is in {issue.current_sprint}.",
        ),
        (
            FactCategory.DEADLINE,
            "due",
            issue.due.isoformat() if issue.due else None,
            f"{key} is due {issue.due.isoformat()}." if issue.due else "",
        ),
        (FactCategory.STATUS, "priority", issue.priority, f"{key} has priority {issue.priority}."),
    ]
    fields = [
        ExtractedFact(
            text=text,
            category=category,
            subject=subject,
            slot=slot,
            value=value,
            confidence=JIRA_CONFIDENCE,
        )
        for category, slot, value, text in values
        if value
    ]
    return fields + [link_fact(*link) for link in issue.links] + lead_fact(issue)


def lead_fact(issue: JiraIssue) -> list[ExtractedFact]:
    """The project's lead, as the export's "Project lead" column names them: a role of
    that person, one slot per project, so a new lead supersedes the old one."""
    if not issue.project_lead:
        return []
    project = issue.project_key
    named = f"{issue.project_name} ({project})" if issue.project_name else project
    lead = " ".join(issue.project_lead.split())
    return [
        ExtractedFact(
            text=f"{lead} leads the project {named}.",
            category=FactCategory.ROLE,
            subject=lead.lower(),
            slot=f"role:lead:{project.lower()}",
            value=f"lead of {named}",
            confidence=JIRA_CONFIDENCE,
        )
    ]


def link_fact(source: str, verb: str, target: str) -> ExtractedFact:
    """A link between two issues as a relation of the outward one: whichever row names
    it, "EL-3 blocks EL-5" lands in one slot, so it is stored once."""
    category = FactCategory.BLOCKER if verb == "blocks" else FactCategory.NOTE
    return ExtractedFact(
        text=f"{source} {verb} {target}.",
        category=category,
        subject=source.lower(),
        slot=f"link:{verb}:{target.lower()}",
        value=target,
        confidence=JIRA_CONFIDENCE,
    )


_LISTED_KEYS = 10


def _outside_links(keys: set[str]) -> tuple[str, ...]:
    """Links to issues this file does not hold are kept (the issue is in Jira), and said."""
    if not keys:
        return ()
    shown = sorted(keys)
    more = f" and {len(shown) - _LISTED_KEYS} more" if len(shown) > _LISTED_KEYS else ""
    return (
        f"{len(shown)} linked issues are not in this file: "
        f"{', '.join(shown[:_LISTED_KEYS])}{more}; their links are kept",
    )


_DESCRIPTION_CHARS = 4000


def _points(value: float) -> str:
    return f"{value:g}"


def _times(issues: Iterable[JiraIssue]) -> Iterator[datetime]:
    return (i.created for i in issues if i.created is not None)
