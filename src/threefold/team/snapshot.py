"""One tenant's recent team material, read once for a rebuild: facts, records and turns."""

import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from threefold.dates import shifted
from threefold.domain import (
    Fact,
    FactCategory,
    FactStatus,
    Record,
    SourceRef,
    Turn,
    Visibility,
    as_utc,
    channel_entity,
    person,
)
from threefold.store.base import Store
from threefold.team.model import ProfileItem

FINISHED = frozenset({"done", "closed", "resolved", "cancelled", "canceled", "won't do"})
HISTORY_DAYS = 120
"""How far back a rebuild reads: older work is history, not what someone is doing now."""
_ISO_DAY = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")
_BY_DAY = re.compile(r"\s+(?:by|before|on|until|till)\s+", re.IGNORECASE)
"""Where a promise's day starts: "have the story filed by Tuesday"."""
_MOOD_HISTORY = (FactStatus.SUPERSEDED, FactStatus.OUTRANKED)
"""A newer mood of the same person supersedes the older one, but a trend needs both."""


@dataclass
class Snapshot:
    tenant: str
    now: datetime
    facts: list[Fact]
    records: list[Record]
    turns: dict[str, list[Turn]]
    by_record: dict[int, Record] = field(default_factory=dict)

    finished: set[str] = field(default_factory=set)
    """Subjects (issue keys, lowercase) whose tracker status says the work is over."""

    in_channel: dict[str, list[Record]] = field(default_factory=dict)
    """Records per channel, in time order: where replies are looked for."""

    as_of: datetime | None = None
    """The time of the data (see data_time); profiles are judged then. None: `now`."""

    issue_fields: dict[str, dict[str, str]] = field(default_factory=dict)
    """Tracker issue (lowercase key) -> its current fields (status, assignee, due...)."""

    accounts: dict[str, str] = field(default_factory=dict)
    """Slack user id (lowercase) -> the key of the person whose account it is."""

    names_of: dict[str, frozenset[str]] = field(default_factory=dict)
    """A person's key -> the names only they go by (shown names, old names, handle, full
    name), lowercase."""

    shared_names: frozenset[str] = frozenset()
    """Names two people of the tenant go by: they say nothing of which one."""

    def __post_init__(self) -> None:
        self.as_of = self.as_of or self.now
        self.by_record = {r.id: r for r in self.records}
        for record in self.records:
            self.in_channel.setdefault(record.channel, []).append(record)
        self.finished = {
            f.subject
            for f in self.facts
            if f.active and f.slot == "status" and f.value.lower() in FINISHED
        }
        for fact in self.facts:
            if fact.active and fact.source.kind == "jira.issue" and ":" not in fact.slot:
                self.issue_fields.setdefault(fact.subject, {})[fact.slot] = fact.value

    def of(self, *categories: FactCategory) -> list[Fact]:
        return [f for f in self.facts if f.category in categories]

    def finished_work(self, fact: Fact) -> bool:
        """Whether the tracker says work the fact names is over: a blocker whose blocking
        or blocked issue is finished blocks nothing."""
        from threefold.team.cues import issue_keys  # the cues load with a rebuild, not a context

        named = {fact.subject} | {key.lower() for key in issue_keys(f"{fact.value} {fact.text}")}
        return not named.isdisjoint(self.finished)

    def open_blocker(self, fact: Fact) -> bool:
        return fact.category is FactCategory.BLOCKER and not self.finished_work(fact)

    def reported_done(self, commitment: Fact) -> bool:
        """Whether its author later said the promised work is done."""
        from threefold.team import cues

        said_at = as_utc(commitment.source.at or commitment.recorded_at)
        works = [commitment.slot.partition(":")[2] or commitment.value]
        # The promise in its own words, without its day: "have the tolls story filed"
        works.append(_BY_DAY.split(commitment.value, maxsplit=1)[0])
        by = commitment.subject.split()[:1]
        return any(
            record.at > said_at
            and record.author.lower().split()[:1] == by
            and any(cues.reports_done(work, record.text) for work in works)
            for record in self.records
        )

    def standing_blocker(self, fact: Fact) -> bool:
        """A blocker neither the tracker nor a later message says is over."""
        return self.open_blocker(fact) and not self.cleared(fact)

    def cleared(self, blocker: Fact) -> bool:
        """Whether a later message says the block is gone: in so many words ("unblocked",
        "came through"), by the awaited step done ("blocked on legal approving the copy" ->
        "legal approved it"), or by telling the blocked person the awaited thing is there
        ("the token is in the vault now @yuki"); always about the same work, or the same
        awaited thing."""
        from threefold.team import cues

        record = self.record_of(blocker)
        opened = as_utc(blocker.source.at or blocker.recorded_at)
        what = f"{blocker.subject} {blocker.value} {blocker.text} {record.text if record else ''}"
        done = cues.step_done(blocker.value)
        return any(
            later.at > opened
            and (cues.same_work(what, later.text) or cues.same_work(blocker.value, later.text))
            and (
                cues.states(cues.CLEARED, later.text)
                or (done is not None and cues.states(done, later.text))
                or (record is not None and _tells_author(record, later))
            )
            for later in self.records
        )

    def record_of(self, fact: Fact) -> Record | None:
        """The message a fact was read from, if it was read from one."""
        if not fact.source.kind.startswith("slack.") or not fact.source.id.isdigit():
            return None
        return self.by_record.get(int(fact.source.id))

    def author_of(self, fact: Fact) -> str | None:
        record = self.record_of(fact)
        return record.author if record else None

    def item(self, fact: Fact) -> ProfileItem:
        record = self.record_of(fact)
        return ProfileItem(
            text=fact.text,
            source=fact.source,
            visibility=fact.visibility,
            fact_id=fact.id,
            record_id=record.id if record else None,
            stream=fact.stream,
        )

    def people(self) -> dict[str, str]:
        """Timeline key -> name as written, of everyone who wrote a message or a turn, and
        everyone the tracker names: reporters, assignees and project leads. A tracker's
        "Priya Raman" is the chat's "Priya" when one person of the chat is called so."""
        found: dict[str, str] = {}
        for record in self.records:
            if record.kind != "bot" and record.source == "slack":
                owner = self.owner(record)
                if owner is None:
                    found.setdefault(person(record.author), record.author)
                else:  # the account's newest name: a renamed person is one person
                    found[person(owner)] = self._shown(record, owner)
        for turns in self.turns.values():
            for turn in turns:
                if turn.speaker:
                    found.setdefault(person(turn.speaker), turn.speaker)
        firsts = {key.split(":", 1)[1].split()[0] for key in found if " " not in key}
        known = {name: key for key, names in self.names_of.items() for name in names}
        for name in self._tracker_people():
            if (owner := known.get(" ".join(name.lower().split()))) is not None:
                found.setdefault(person(owner), name)  # "Beatriz Lopes" is Slack's "bea"
                continue
            key = person(name)
            if key not in found and key.split(":", 1)[1].split()[0] not in firsts:
                found[key] = name
        return found

    def owner(self, record: Record) -> str | None:
        """The key of the person whose account wrote `record`, if it came from one."""
        return self.accounts.get(record.author_id.lower()) if record.author_id else None

    def _shown(self, record: Record, owner: str) -> str:
        """An account's name as shown, with its id where another person shows it too."""
        if " ".join(record.author.lower().split()) in self.shared_names:
            return f"{record.author} ({record.author_id})"
        return record.author

    def names(self, key: str, name: str) -> frozenset[str]:
        """The lowercase names facts and messages may call a person by: their own names
        and, as chat does, their first name, but none that another person goes by."""
        full = " ".join(name.lower().split())
        found = {full, full.split()[0]} if full else set()
        found |= self.names_of.get(key.removeprefix("person:"), frozenset())
        return frozenset(found - self.shared_names)

    def wrote(self, record: Record, key: str, names: frozenset[str]) -> bool:
        """Whether the person of `key` wrote `record`: by account where it has one, else
        by name."""
        owner = self.owner(record)
        if owner is not None:
            return person(owner) == key
        return record.author.lower() in names

    def _tracker_people(self) -> list[str]:
        names = [r.author for r in self.records if r.source == "jira" and r.author != "jira"]
        for fact in self.facts:
            if fact.source.kind != "jira.issue":
                continue
            if fact.slot == "assignee" and fact.value != "unassigned":
                names.append(fact.value)
            elif fact.category is FactCategory.ROLE and fact.slot.startswith("role:lead:"):
                names.append(fact.text.split(" leads the project ")[0])
        return [" ".join(n.split()) for n in names if n.strip()]

    def channels(self) -> dict[str, str]:
        return {channel_entity(r.channel): r.channel for r in self.records if r.source == "slack"}


def data_time(store: Store, tenant: str, streams: list[str], now: datetime) -> datetime:
    """The time of the data: its newest message or turn at or before `now` (or `now`, when
    it has none). An export read long after it was made is judged as of then, not as of a
    wall clock past every message in it."""
    newest = [r.at for stream in streams for r in store.records(tenant, stream, last=1)]
    newest += [t.at for stream in streams for t in store.turns(tenant, stream, last=1)]
    return max((as_utc(at) for at in newest if as_utc(at) <= now), default=now)


def load(store: Store, tenant: str, now: datetime, streams: list[str]) -> Snapshot:
    """The tenant's material of the HISTORY_DAYS up to the time of its data, for rules
    judged at `now` and profiles judged as of the data."""
    as_of = data_time(store, tenant, streams, now)
    since = shifted(as_of, timedelta(days=-HISTORY_DAYS))
    until = shifted(now, timedelta(days=1))
    facts = [
        f
        for stream in streams
        for f in store.facts(tenant, stream, include_inactive=True)
        if f.active or (f.category is FactCategory.MOOD_SIGNAL and f.status in _MOOD_HISTORY)
    ]
    records = [_read_part(r) for r in store.records_between(tenant, None, since, until)]
    turns = {stream: store.turns_between(tenant, stream, since, until) for stream in streams}
    accounts, names_of, shared = _people(store, tenant, records)
    return Snapshot(
        tenant,
        now,
        facts,
        records,
        turns,
        as_of=as_of,
        accounts=accounts,
        names_of=names_of,
        shared_names=shared,
    )


MESSAGE_CHARS = 4000
"""What the rules and profiles read of one message: a longer one is a paste (a log, a
file), whose tail says nothing a lead acts on, and the cues' patterns would take time in
proportion to its square."""


def _read_part(record: Record) -> Record:
    if len(record.text) <= MESSAGE_CHARS:
        return record
    return record.model_copy(update={"text": record.text[:MESSAGE_CHARS]})


def _people(
    store: Store, tenant: str, records: list[Record]
) -> tuple[dict[str, str], dict[str, frozenset[str]], frozenset[str]]:
    """Whose account wrote each message (see entities.remember_speaker), each such
    person's names, and the names that several people go by."""
    from threefold.entities import account_alias

    accounts: dict[str, str] = {}
    for account in {r.author_id.lower() for r in records if r.author_id}:
        owners = store.entities_named(tenant, account_alias(account))
        if len(owners) == 1:
            accounts[account] = owners[0]
    names_of: dict[str, frozenset[str]] = {}
    shared: set[str] = set()
    for owner in set(accounts.values()):
        names: set[str] = set()
        for alias in [owner, *store.entity_aliases(tenant, owner)]:
            if alias.startswith("@"):
                continue
            if store.entities_named(tenant, alias) == [owner]:
                names.add(alias)
            else:
                shared.add(alias)
        names_of[owner] = frozenset(names)
    return accounts, names_of, frozenset(shared)


def _tells_author(said: Record, later: Record) -> bool:
    """Whether someone else's later chat message tells the author of `said` something (a
    tracker row naming its assignee tells no one)."""
    from threefold.team.cues import tells

    first = said.author.lower().split()[:1]
    return (
        bool(first)
        and later.source == "slack"
        and later.author != said.author
        and tells(first[0], later.text)
    )


def day_named(fact: Fact) -> date | None:
    """The ISO day a dated fact names (its value, else the day noted in its text)."""
    for text in (fact.value, fact.text):
        for found in _ISO_DAY.findall(text):
            try:
                return date.fromisoformat(found)
            except ValueError:
                continue
    return None


def record_item(record: Record) -> ProfileItem:
    said = " ".join(record.text.split())
    said = said if len(said) <= 160 else said[:159] + "…"
    return ProfileItem(
        text=f"{record.at:%Y-%m-%d} #{record.channel} {record.author}: {said}",
        source=record.ref(),
        visibility=record.visibility,
        record_id=record.id,
        stream=record.stream,
    )


def turn_item(turn: Turn) -> ProfileItem:
    said = " ".join(turn.user.split())[:160]
    return ProfileItem(
        text=f"{turn.at:%Y-%m-%d} {turn.stream} {turn.speaker or 'User'}: {said}",
        source=SourceRef(kind="turn", id=str(turn.id), at=turn.at),
        visibility=turn.visibility,
        stream=turn.stream,
    )


def readable(items: list[ProfileItem], visibilities: tuple[Visibility, ...]) -> list[ProfileItem]:
    return [i for i in items if i.visibility in visibilities]
