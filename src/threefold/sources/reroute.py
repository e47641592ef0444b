"""Routing stored Slack messages and Jira issues again, after the projects in settings
changed.

A message whose route changes moves to its new stream and is digested there; the facts
read from it in the old stream stay as history (status `moved`). A stream that lost
messages has its Slack summaries and roll-ups redone from the messages it keeps, and the
facts those give again are recognised, not duplicated. An issue follows its project key:
its field facts are stated again in its new stream, and both streams' counts are redone.
"""

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from threefold.domain import FactStatus, Record, SummaryKind, Visibility
from threefold.layers.facts import record_fact
from threefold.pipeline.jobs import DIGEST
from threefold.routing import Route, Router
from threefold.sources.ingest import THREAD_CONFIDENCE, JiraIngest, issue_facts
from threefold.sources.jira import JiraIssue
from threefold.store.base import Store

ROUTES_LEASE = "routes:"
"""Plus the tenant: held by an import while it routes and stores, and by a re-route."""
_BATCH = 500
_REDONE = (SummaryKind.SLACK, SummaryKind.WEEKLY, SummaryKind.MONTHLY, SummaryKind.ACTIVE)
"""A stream's summaries that told of its messages; they are archived and told again from
the messages it keeps (and its session summaries, which no re-route touches)."""


@dataclass
class Moves:
    """What a re-route moved: messages per (from, to) pair of streams."""

    checked: int = 0
    moved: Counter[tuple[str, str]] = field(default_factory=Counter)
    issue_streams: set[str] = field(default_factory=set)
    """Streams that lost or gained Jira issues: their counts are redone."""

    @property
    def count(self) -> int:
        return sum(self.moved.values())

    @property
    def left(self) -> set[str]:
        return {old for old, _ in self.moved}

    @property
    def joined(self) -> set[str]:
        return {new for _, new in self.moved}


class Rerouter:
    """Routes a tenant's Slack records again with today's router."""

    def __init__(self, store: Store, router: Router, tenant: str) -> None:
        self.store, self.router, self.tenant = store, router, tenant
        self._thread_starts: dict[tuple[str, str], str] = {}

    def all_records(self) -> Moves:
        moves, after = Moves(), 0
        while batch := self.store.routable_records(self.tenant, "slack", after, _BATCH):
            with self.store.transaction():
                self.records(batch, moves)
            after = batch[-1][0].id
        return moves

    def all_issues(self, moves: Moves) -> None:
        after = 0
        while batch := self.store.routable_records(self.tenant, "jira", after, _BATCH):
            with self.store.transaction():
                for record, data in batch:
                    moves.checked += 1
                    stream = self.router.stream_of_key(record.channel)
                    if stream != record.stream:
                        self._move_issue(record, data, stream)
                        moves.moved[(record.stream, stream)] += 1
                        moves.issue_streams |= {record.stream, stream}
            after = batch[-1][0].id

    def _move_issue(self, record: Record, data: dict[str, Any], stream: str) -> None:
        self._retire_facts(record, stream)
        self.store.move_record(self.tenant, record.id, stream, "issue_key", 1.0, (), digest=False)
        for fact in issue_facts(JiraIssue.model_validate(data)):
            record_fact(
                self.store, self.tenant, stream, fact, record.ref(), visibility=Visibility.SHARED
            )

    def recount_issues(self, moves: Moves, now: datetime) -> None:
        """Each project's issue counts in the stream it routes to now; the counts the
        streams it left kept are archived."""
        with self.store.transaction():
            for stream in sorted(moves.issue_streams):
                for old in self.store.summaries(self.tenant, stream, SummaryKind.STRUCTURED):
                    self.store.set_summary_kind(self.tenant, old.id, SummaryKind.ARCHIVED)
        counts = JiraIngest(self.store, self.router, self.tenant)
        for key, _ in self.store.jira_projects(self.tenant):
            if self.router.stream_of_key(key) in moves.issue_streams:
                counts.write_stats(key, now)

    def records(self, records: Iterable[tuple[Record, dict[str, Any]]], moves: Moves) -> None:
        """Route each record again and move those whose route changed; call inside a
        transaction, in the order the messages were stored (thread starts first)."""
        for record, data in records:
            moves.checked += 1
            route = self._route(record, data)
            if record.thread == record.external_id:
                self._thread_starts[(record.channel, record.external_id)] = route.stream
            if route.stream != record.stream:
                self._move(record, route)
                moves.moved[(record.stream, route.stream)] += 1

    def _route(self, record: Record, data: dict[str, Any]) -> Route:
        thread = record.thread
        if thread and thread != record.external_id:
            start = self._thread_starts.get((record.channel, thread)) or self.store.record_stream(
                self.tenant, "slack", record.channel, thread
            )
            if start is not None:
                return Route(stream=start, method="thread", confidence=THREAD_CONFIDENCE)
        kind = str(data.get("channel_kind") or "public")
        return self.router.message(
            record.text, record.channel, kind, str(data.get("channel_id") or "")
        )

    def _move(self, record: Record, route: Route) -> None:
        self._retire_facts(record, route.stream)
        self.store.move_record(
            self.tenant, record.id, route.stream, route.method, route.confidence, route.also
        )

    def _retire_facts(self, record: Record, stream: str) -> None:
        for fact in self.store.facts_from(self.tenant, record.stream, record.ref()):
            self.store.set_fact_status(self.tenant, fact.id, FactStatus.MOVED)
            self.store.add_fact_change(fact.id, "MOVE", note=f"its source moved to {stream}")

    def redo_streams(self, moves: Moves) -> None:
        """Queue the digests the moves call for: the moved messages where they arrived,
        and everything again where messages left (its old summaries are archived)."""
        with self.store.transaction():
            for stream in sorted(moves.left):
                for kind in _REDONE:
                    for summary in self.store.summaries(self.tenant, stream, kind):
                        self.store.set_summary_kind(self.tenant, summary.id, SummaryKind.ARCHIVED)
                self.store.reopen_records(self.tenant, stream, "slack")
            for stream in sorted(moves.left | moves.joined):
                self.store.enqueue(self.tenant, stream, DIGEST, {})
