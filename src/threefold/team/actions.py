"""Proactive actions: each rule of settings.team.rules looks at a snapshot and names what
needs doing, with the facts and records that show it.

An action's key is made from what it is about (a commitment's subject and slot, a
message's id), never from a row id, so a rebuild finds the same action again and its
status (open, done, dismissed) stays as the team left it.
"""

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from threefold.domain import (
    Fact,
    FactCategory,
    Record,
    SourceRef,
    Visibility,
    as_utc,
    most_private,
)
from threefold.settings import ActionRule
from threefold.team import cues
from threefold.team.snapshot import Snapshot, day_named


@dataclass
class Found:
    key: str
    stream: str
    title: str
    facts: list[Fact] = field(default_factory=list)
    records: list[Record] = field(default_factory=list)
    due: date | None = None
    owner: str | None = None

    def data(self, rule: ActionRule) -> dict[str, object]:
        evidence = [f.source for f in self.facts] + [r.ref() for r in self.records]
        return {
            "kind": rule.kind,
            "title": self.title,
            "due": self.due.isoformat() if self.due else None,
            "owner": self.owner,
            "fact_ids": [f.id for f in self.facts],
            "record_ids": sorted({r.id for r in self.records} | self._fact_records()),
            "evidence": [e.model_dump(mode="json") for e in _distinct(evidence)],
        }

    def visibility(self) -> Visibility:
        return most_private(
            [f.visibility for f in self.facts] + [r.visibility for r in self.records]
        )

    def _fact_records(self) -> set[int]:
        return {
            int(f.source.id)
            for f in self.facts
            if f.source.kind.startswith("slack.") and f.source.id.isdigit()
        }


Finder = Callable[[Snapshot, ActionRule], list[Found]]


def find(snapshot: Snapshot, rule: ActionRule) -> list[Found]:
    found = FINDERS[rule.kind](snapshot, rule)
    for item in found:
        item.key = f"{rule.label}:{item.key}"
    return found


def _overdue_commitments(snapshot: Snapshot, rule: ActionRule) -> list[Found]:
    today = _today(snapshot)
    out = []
    for fact in _one_per_message(snapshot, snapshot.of(FactCategory.COMMITMENT)):
        due = day_named(fact)
        if due is None or (today - due).days <= rule.window_days:
            continue
        if snapshot.reported_done(fact):
            continue
        out.append(
            Found(
                key=f"{fact.subject}:{fact.slot}",
                stream=fact.stream,
                facts=[fact],
                due=due,
                owner=fact.subject,
                title=f"Overdue since {due}: {fact.text}",
            )
        )
    return out


def _one_per_message(snapshot: Snapshot, facts: list[Fact]) -> list[Fact]:
    """One fact per message: "Marco is blocked on ALPHA-7" may be read both as Marco's
    blocker and as ALPHA-7's, and is one thing to do."""
    seen: set[int] = set()
    kept = []
    for fact in sorted(facts, key=lambda f: (-f.confidence, f.id)):
        record = snapshot.record_of(fact)
        if record is not None and record.id in seen:
            continue
        if record is not None:
            seen.add(record.id)
        kept.append(fact)
    return sorted(kept, key=lambda f: f.id)


def _stale_blockers(snapshot: Snapshot, rule: ActionRule) -> list[Found]:
    out = []
    blockers = [f for f in snapshot.of(FactCategory.BLOCKER) if snapshot.open_blocker(f)]
    for same in _same_blocks(_one_per_message(snapshot, blockers)):
        fact = same[0]  # the first said: its key stays the action's from rebuild to rebuild
        opened = _at(fact)
        if snapshot.now - opened < timedelta(days=rule.window_days):
            continue  # (a rule of 0 days raises a blocker the moment it is said)
        if any(snapshot.cleared(f) for f in same):
            continue
        days = (snapshot.now - opened).days
        out.append(
            Found(
                key=f"{fact.subject}:{fact.slot}",
                stream=fact.stream,
                facts=same,
                owner=snapshot.author_of(fact),
                title=f"Blocked for {days} days: {_said(snapshot, fact)}",
            )
        )
    return out


def _same_blocks(blockers: list[Fact]) -> list[list[Fact]]:
    """Blockers grouped by the block they state: "EL-63 blocks EL-5" from the tracker and
    "EL-5 is blocked by EL-63" from chat name the same issues and are one thing to do. A
    blocker naming no issue, or other issues, stands alone. Each group oldest first."""
    groups: dict[object, list[Fact]] = {}
    for fact in sorted(blockers, key=lambda f: (_at(f), f.id)):
        keys = frozenset(
            k.lower() for k in cues.issue_keys(f"{fact.subject.upper()} {fact.value} {fact.text}")
        )
        groups.setdefault(keys if len(keys) > 1 else fact.id, []).append(fact)
    return list(groups.values())


def _said(snapshot: Snapshot, fact: Fact) -> str:
    """The fact, and the words of the message it was read from where they say more."""
    record = snapshot.record_of(fact)
    if record is None or " ".join(record.text.split()) == fact.text:
        return fact.text
    return f"{fact.text} ({record.author}: {_quote(record.text)})"


def _deadlines_soon(snapshot: Snapshot, rule: ActionRule) -> list[Found]:
    today = _today(snapshot)
    groups: dict[tuple[str, date], list[Fact]] = defaultdict(list)
    for fact in snapshot.of(FactCategory.DEADLINE, FactCategory.DEADLINE_MENTION):
        day = day_named(fact)
        if fact.subject in snapshot.finished:
            continue  # the tracker says the work is over
        if day is not None and 0 <= (day - today).days <= rule.window_days:
            groups[(fact.subject, day)].append(fact)
    return [
        Found(
            key=f"{subject}:{day}",
            stream=facts[0].stream,
            facts=facts,
            due=day,
            title=f"Due {day}: {facts[0].text}",
        )
        for (subject, day), facts in groups.items()
    ]


def _unanswered(snapshot: Snapshot, rule: ActionRule) -> list[Found]:
    out = []
    wait = timedelta(days=rule.window_days)
    for record in _spoken(snapshot):
        named = cues.mentions(record.text)
        asks = cues.is_question(record.text) or (named and cues.requests(record.text))
        if not asks or snapshot.now - record.at <= wait:
            continue
        if cues.handoff_request(record.text):
            continue  # the handoff rule follows those
        if _answered(snapshot, record):
            continue
        who = f" to @{named[0]}" if named else ""
        out.append(
            Found(
                key=str(record.id),
                stream=record.stream,
                records=[record],
                owner=named[0] if named else None,
                title=f"Unanswered{who} since {record.at:%Y-%m-%d}: {_quote(record.text)}",
            )
        )
    return out


def _answered(snapshot: Snapshot, asked: Record) -> bool:
    """A reply in its thread by someone else, or a later message that addresses the asker
    without asking something itself (a new question to them is no answer)."""
    asker = asked.author.lower()
    for reply in _replies(snapshot, asked):
        if reply.author.lower() == asker:
            continue
        if _in_thread(reply, asked):
            return True
        if asker.split()[0] in cues.mentions(reply.text) and not cues.is_question(reply.text):
            return True
    return False


def _unowned_handoffs(snapshot: Snapshot, rule: ActionRule) -> list[Found]:
    out = []
    wait = timedelta(days=rule.window_days)
    for record in _spoken(snapshot):
        what = cues.handoff_request(record.text)
        if what is None or snapshot.now - record.at <= wait or _claimed(snapshot, record, what):
            continue
        out.append(
            Found(
                key=str(record.id),
                stream=record.stream,
                records=[record],
                title=f"No owner for {what} (asked by {record.author} on {record.at:%Y-%m-%d})",
            )
        )
    return out


def _claimed(snapshot: Snapshot, asked: Record, what: str) -> bool:
    for reply in _replies(snapshot, asked):
        if reply.author == asked.author:
            continue
        if _in_thread(reply, asked) and cues.claims(reply.text):
            return True
        if cues.claims(reply.text) and cues.same_work(what, reply.text):
            return True
    owners = snapshot.of(FactCategory.HANDOFF, FactCategory.ASSIGNMENT)
    return any(_at(f) > asked.at and cues.same_work(what, f.subject) for f in owners)


def _mood_drops(snapshot: Snapshot, rule: ActionRule) -> list[Found]:
    window = timedelta(days=rule.window_days)
    recent_start, before_start = snapshot.now - window, snapshot.now - 2 * window
    by_channel: dict[str, list[tuple[Fact, Record]]] = defaultdict(list)
    for fact in snapshot.of(FactCategory.MOOD_SIGNAL):
        record = snapshot.record_of(fact)
        if record is not None and before_start <= record.at <= snapshot.now:
            by_channel[record.channel].append((fact, record))
    out = []
    for channel, signals in by_channel.items():
        recent = [(f, r) for f, r in signals if r.at >= recent_start]
        before = [(f, r) for f, r in signals if r.at < recent_start]
        low = [(f, r) for f, r in recent if _mood(f) < 0]
        if not before or len(low) < 2:
            continue
        drop = _mean(before) - _mean(recent)
        if drop < rule.drop:
            continue
        first = min(r.at for _, r in low)
        out.append(
            Found(
                key=f"{channel}:{first:%Y-%m-%d}",
                stream=low[0][1].stream,
                facts=[f for f, _ in low],
                records=[r for _, r in low],
                title=f"Mood dropped in #{channel}: {len(low)} low signals in the last "
                f"{rule.window_days:g} days (mean {_mean(before):+.1f} -> {_mean(recent):+.1f})",
            )
        )
    return out


def _mood(fact: Fact) -> int:
    return 1 if fact.value == "positive" else -1


def _mean(signals: list[tuple[Fact, Record]]) -> float:
    return sum(_mood(f) for f, _ in signals) / len(signals)


def _spoken(snapshot: Snapshot) -> Iterable[Record]:
    return (r for r in snapshot.records if r.source == "slack" and r.kind != "bot")


def _replies(snapshot: Snapshot, asked: Record) -> Iterable[Record]:
    """Later messages in the same channel: in its thread, or after it."""
    return (r for r in snapshot.in_channel[asked.channel] if r.at > asked.at and r.id != asked.id)


def _in_thread(reply: Record, asked: Record) -> bool:
    thread = asked.thread or asked.external_id
    return reply.thread == thread


def _at(fact: Fact) -> datetime:
    return as_utc(fact.source.at or fact.recorded_at)


def _today(snapshot: Snapshot) -> date:
    return snapshot.now.date()


def _quote(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _distinct(refs: list[SourceRef]) -> list[SourceRef]:
    seen: dict[str, SourceRef] = {}
    for ref in refs:
        seen.setdefault(ref.label(), ref)
    return list(seen.values())


def _overdue_issues(snapshot: Snapshot, rule: ActionRule) -> list[Found]:
    """Tracker issues past their due date and not finished: the tracker's own deadline,
    one action per issue."""
    today = _today(snapshot)
    out = []
    for fact in _tracker(snapshot, FactCategory.DEADLINE, "due"):
        due = day_named(fact)
        if due is None or (today - due).days <= rule.window_days:
            continue
        if fact.subject in snapshot.finished:
            continue
        key = fact.subject.upper()
        out.append(
            Found(
                key=fact.subject,
                stream=fact.stream,
                facts=[fact],
                due=due,
                owner=_holder(snapshot, fact.subject),
                title=f"Overdue since {due}: {key} {_issue_line(snapshot, fact.subject)}",
            )
        )
    return out


_URGENT = frozenset({"highest", "high", "critical", "blocker", "urgent", "p0", "p1"})


def _unassigned_work(snapshot: Snapshot, rule: ActionRule) -> list[Found]:
    """Open tracker issues nobody holds that matter soon: due within the rule's days (or
    overdue), of a high priority, or already in progress."""
    today = _today(snapshot)
    out = []
    for fact in _tracker(snapshot, FactCategory.ASSIGNMENT, "assignee"):
        if fact.value != "unassigned" or fact.subject in snapshot.finished:
            continue
        due = _field(snapshot, fact.subject, "due")
        day = date.fromisoformat(due) if due else None
        priority = (_field(snapshot, fact.subject, "priority") or "").lower()
        status = (_field(snapshot, fact.subject, "status") or "").lower()
        soon = day is not None and (day - today).days <= rule.window_days
        if not (soon or priority in _URGENT or status in _WORKING):
            continue
        out.append(
            Found(
                key=fact.subject,
                stream=fact.stream,
                facts=[fact],
                due=day,
                title=f"No assignee: {fact.subject.upper()} {_issue_line(snapshot, fact.subject)}",
            )
        )
    return out


_WORKING = frozenset({"in progress", "in review", "started", "wip", "review"})


def _risk_signals(snapshot: Snapshot, rule: ActionRule) -> list[Found]:
    """Risks raised in the rule's last days, one per message; a risk about work the
    tracker says is finished is over."""
    window = timedelta(days=rule.window_days)
    out = []
    for fact in _one_per_message(snapshot, snapshot.of(FactCategory.RISK_SIGNAL)):
        if snapshot.now - _at(fact) > window or snapshot.finished_work(fact):
            continue
        out.append(
            Found(
                key=f"{fact.subject}:{fact.slot}",
                stream=fact.stream,
                facts=[fact],
                owner=snapshot.author_of(fact),
                title=f"Risk raised {_at(fact):%Y-%m-%d}: {_said(snapshot, fact)}",
            )
        )
    return out


def _tracker(snapshot: Snapshot, category: FactCategory, slot: str) -> list[Fact]:
    return [f for f in snapshot.of(category) if f.slot == slot and f.source.kind == "jira.issue"]


def _field(snapshot: Snapshot, issue: str, slot: str) -> str | None:
    """The tracker's current value of one field of an issue (lowercase key)."""
    return snapshot.issue_fields.get(issue, {}).get(slot)


def _holder(snapshot: Snapshot, issue: str) -> str | None:
    holder = _field(snapshot, issue, "assignee")
    return None if holder in (None, "unassigned") else holder


def _issue_line(snapshot: Snapshot, issue: str) -> str:
    """What the tracker says of an issue: its status, holder, due day and priority."""
    fields = [
        _field(snapshot, issue, "status"),
        _field(snapshot, issue, "assignee"),
        f"due {due}" if (due := _field(snapshot, issue, "due")) else None,
        f"priority {p}" if (p := _field(snapshot, issue, "priority")) else None,
    ]
    return f"({', '.join(f for f in fields if f)})"


FINDERS: dict[str, Finder] = {
    "overdue_commitment": _overdue_commitments,
    "stale_blocker": _stale_blockers,
    "deadline_soon": _deadlines_soon,
    "unanswered": _unanswered,
    "unowned_handoff": _unowned_handoffs,
    "mood_drop": _mood_drops,
    "overdue_issue": _overdue_issues,
    "unassigned_work": _unassigned_work,
    "risk_signal": _risk_signals,
}
