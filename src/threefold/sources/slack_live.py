"""Slack as it happens: events from the Events API, and history from the Web API, into
the streams an export import would route them to.

Both read messages with the export reader (`read_message`), so markup, files, bots and
threads come out the same whichever way a message arrived. Events carry ids, not names:
the names of users and channels a backfill read are kept in the store (source state), so
that `<@U1>` reads "@Ann" and #C1 routes as #proj-alpha.
"""

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from threefold.domain import ImportProblem, ImportReport
from threefold.errors import InvalidInput
from threefold.layers.erase import erase_record
from threefold.settings import Settings
from threefold.sources.ingest import KEPT_KINDS, Progress, SlackIngest, Tally, flood_warnings
from threefold.sources.slack import Channel, ChannelKind, MessageKind, SlackMessage, read_message
from threefold.sources.slack_api import SlackApi, SlackChannel
from threefold.sources.slack_events import EventAction, LiveEvent
from threefold.store.base import NewRecord, Store

SOURCE = "slack"
_USER, _CHANNEL, _BACKFILL = "user:", "channel:", "backfill:"


@dataclass(frozen=True)
class Directory:
    """Names of a workspace's ids, as the last backfill read them."""

    users: Mapping[str, str] = field(default_factory=dict)
    channels: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, store: Store, tenant: str) -> "Directory":
        return cls(
            users=_unprefixed(store.source_states(tenant, SOURCE, _USER), _USER),
            channels=_unprefixed(store.source_states(tenant, SOURCE, _CHANNEL), _CHANNEL),
        )

    def save(self, store: Store, tenant: str) -> None:
        values: dict[str, str | None] = {_USER + k: v for k, v in self.users.items()}
        values |= {_CHANNEL + k: v for k, v in self.channels.items()}
        with store.transaction():
            store.set_source_state(tenant, SOURCE, values)

    def channel(self, channel_id: str, kind: ChannelKind) -> Channel:
        return Channel(id=channel_id, name=self.channels.get(channel_id, channel_id), kind=kind)


def _unprefixed(values: Mapping[str, str], prefix: str) -> dict[str, str]:
    return {name[len(prefix) :]: value for name, value in values.items()}


def kept(message: SlackMessage, settings: Settings) -> bool:
    """Whether a message is worth storing: not a join or a topic, and not a bot's unless
    settings keep those."""
    if message.kind not in KEPT_KINDS:
        return False
    return message.kind is not MessageKind.BOT or settings.slack.keep_bot_messages


def within_limit(message: SlackMessage, settings: Settings) -> None:
    if len(message.text) > settings.max_turn_chars:
        raise InvalidInput(
            f"{len(message.text):,} characters, over max_turn_chars"
            f" ({settings.max_turn_chars:,}); skipped"
        )


class SlackEvents:
    """Applies one event the receiver queued: plans outside any transaction (routing may
    ask the model), and returns the writes."""

    def __init__(self, store: Store, ingest: SlackIngest, settings: Settings, tenant: str) -> None:
        self.store, self.ingest, self.settings, self.tenant = store, ingest, settings, tenant

    def plan(self, event: LiveEvent) -> Callable[[], None]:
        if event.action is EventAction.IGNORE:
            return _nothing
        directory = Directory.load(self.store, self.tenant)
        channel = directory.channel(event.channel_id, event.channel_kind)
        if event.action in (EventAction.EDIT, EventAction.DELETE):
            # An edit replaces the message; either way its old text goes, with what was
            # read from it. The erasure commits on its own, before the new text is stored.
            erase_record(self.store, self.tenant, SOURCE, channel.name, event.ts)
        if event.action is EventAction.DELETE or event.message is None:
            return _nothing
        message = read_message(
            event.message, channel, directory.users, directory.channels, "events"
        )
        if not kept(message, self.settings):
            return _nothing
        within_limit(message, self.settings)
        record = self.ingest.routed(message)
        return lambda: self._store(record)

    def _store(self, record: NewRecord) -> None:
        self.ingest.store_live(record)


def _nothing() -> None:
    """Nothing to write."""


@dataclass
class _Run:
    """What one backfill has done so far."""

    tally: Tally = field(default_factory=Tally)
    problems: list[ImportProblem] = field(default_factory=list)
    threads: int = 0
    done: int = 0
    total: int = 0


class Backfill:
    """Reads the history of every channel the bot is in (or those named), page by page,
    and stores it as an import would. After each page it keeps the channel's cursor, so a
    backfill killed, or stopped by an expired token or a storm of 429s, goes on from the
    page it was reading; a finished channel keeps its newest ts, and the next backfill
    reads only what came after."""

    def __init__(
        self,
        api: SlackApi,
        store: Store,
        ingest: SlackIngest,
        settings: Settings,
        tenant: str,
        progress: Progress | None = None,
    ) -> None:
        self.api, self.store, self.ingest = api, store, ingest
        self.settings, self.tenant, self.progress = settings, tenant, progress

    def run(self, since: datetime | None = None, only: Iterable[str] = ()) -> ImportReport:
        channels = self.api.channels()
        directory = Directory(users=self.api.users(), channels={c.id: c.name for c in channels})
        directory.save(self.store, self.tenant)
        chosen = self._chosen(channels, set(only))
        run = _Run(total=len(chosen))
        for channel in chosen:
            self._channel(channel, since, directory, run)
            run.done += 1
            self._tick(run)
        self.ingest.finish(run.tally)
        return self._report(run)

    def _chosen(self, channels: list[SlackChannel], only: set[str]) -> list[SlackChannel]:
        if only:
            named = [c for c in channels if c.id in only or c.name in only]
            unknown = only - {c.id for c in named} - {c.name for c in named}
            if unknown:
                raise InvalidInput(
                    f"Slack has no conversation named {', '.join(sorted(unknown))} for this"
                    " bot; conversations.list lists those it can see"
                )
            return named
        return [c for c in channels if c.is_member]

    def _channel(
        self, slack: SlackChannel, since: datetime | None, directory: Directory, run: _Run
    ) -> None:
        name = _BACKFILL + slack.id
        state = json.loads(self.store.source_state(self.tenant, SOURCE, name) or "{}")
        cursor = state.get("cursor")
        oldest = state["oldest"] if cursor else _later(since, state.get("newest"))
        seen = state.get("seen") if cursor else None
        """The newest ts this pass over the channel has read (pages come newest first)."""
        channel = Channel(id=slack.id, name=slack.name, kind=slack.kind)
        params = {"channel": slack.id, "oldest": oldest}
        for page, following in self.api.pages("conversations.history", "messages", params, cursor):
            messages = self._read(page, channel, directory, run)
            for raw in page:
                if _starts_thread(raw):
                    messages += self._replies(raw, channel, directory, run)
            self._store(messages, run)
            seen = _newest(seen, *(m.ts for m in messages))
            if following is None:
                done = {"newest": _newest(seen, state.get("newest"))}
            else:
                done = {"cursor": following, "oldest": oldest, "seen": seen}
                done["newest"] = state.get("newest")
            self.store.set_source_state(self.tenant, SOURCE, {name: json.dumps(done)})
            self._tick(run)

    def _tick(self, run: "_Run") -> None:
        """Progress, in channels done: after every page, so that a caller holding a lease
        renews it however long one channel's history is."""
        if self.progress:
            self.progress(run.done, run.total)

    def _store(self, messages: list[SlackMessage], run: _Run) -> None:
        """Store what settings keep; bots' words left out are counted as skipped."""
        unkept_bots = [
            m for m in messages if m.kind is MessageKind.BOT and not kept(m, self.settings)
        ]
        run.tally.read += len(unkept_bots)
        run.tally.skipped["bot"] += len(unkept_bots)
        self.ingest.history([m for m in messages if m not in unkept_bots], run.tally)

    def _replies(
        self, parent: Mapping[str, Any], channel: Channel, directory: Directory, run: _Run
    ) -> list[SlackMessage]:
        run.threads += 1
        params = {"channel": channel.id, "ts": str(parent["ts"])}
        replies: list[SlackMessage] = []
        for page, _ in self.api.pages("conversations.replies", "messages", params):
            # Each page of replies starts with the thread's first message again.
            later = [raw for raw in page if raw.get("ts") != parent["ts"]]
            replies += self._read(later, channel, directory, run)
        return replies

    def _read(
        self,
        page: list[dict[str, Any]],
        channel: Channel,
        directory: Directory,
        run: _Run,
    ) -> list[SlackMessage]:
        messages = []
        for raw in page:
            where = f"{channel.name}/{raw.get('ts')}"
            try:
                message = read_message(
                    raw, channel, directory.users, directory.channels, channel.name
                )
                within_limit(message, self.settings)
            except InvalidInput as exc:
                run.tally.read += 1  # the ones read well are counted as they are stored
                run.problems.append(ImportProblem(path=where, error=str(exc)))
                continue
            messages.append(message)
        return messages

    def _report(self, run: _Run) -> ImportReport:
        tally = run.tally
        skipped = {kind: n for kind, n in tally.skipped.items() if n}
        return ImportReport(
            source="slack",
            read=tally.read,
            kept=sum(tally.routed.values()),
            duplicates=tally.duplicates,
            skipped=skipped,
            routed=dict(tally.routed.most_common()),
            problems=tuple(run.problems),
            warnings=flood_warnings(tally.routed, self.settings),
        )


def _starts_thread(raw: Mapping[str, Any]) -> bool:
    replies = raw.get("reply_count")
    return isinstance(replies, int) and replies > 0 and raw.get("thread_ts") == raw.get("ts")


def _newest(*stamps: object) -> str | None:
    """The latest of Slack timestamps, None among them ignored."""
    known = [stamp for stamp in stamps if isinstance(stamp, str)]
    return max(known, key=float) if known else None


def _later(since: datetime | None, newest: object) -> str:
    """Slack's `oldest` for a history read: the later of --since and what was read before."""
    bounds = [0.0]
    if since is not None:
        bounds.append(since.timestamp())
    if isinstance(newest, str):
        bounds.append(float(newest))
    return f"{max(bounds):.6f}"
